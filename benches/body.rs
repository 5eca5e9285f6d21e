//! Criterion benches for the body module (placeholder, filled in below).
fn main() {}
