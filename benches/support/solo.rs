//! The generated solo score the motion benchmark and `examples/motion_profile.rs` compile.

/// A 100-measure solo in LED format: walks, arm gestures, a quarter turn and a jump every
/// other measure.
pub fn generated_solo(measures: usize) -> String {
    let c = 133;
    let mut out = String::new();
    let top = 96 + measures * 96 + 20;
    out.push_str(&format!(
        "Stav 0 {} 12 1 1 {top} B\nStav 2 {} 12 1 1 {top} B\nStav 1 {c} 48 1 1 {top} L\nBars 0 30 48 1 177 3 B\n",
        c - 37,
        c + 37
    ));
    out.push_str("Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n");
    for m in 0..=measures {
        let y = 96 + m * 96;
        out.push_str(&format!("Bars {} 30 {y} 1 177 3 {}\n", m + 1, if m == 0 { "L" } else { "B" }));
        if m == measures {
            break;
        }
        let yb = |b: usize| y + 1 + b * 24;
        if m % 2 == 0 {
            out.push_str(&format!("Dirn 1 134 {} 4 10 23 M\nDirn 10 122 {} 4 10 23 M\n", yb(0), yb(1)));
            out.push_str(&format!("Rotn 2 122 {} 4 10 23 M\nPins 3 118 {} 1 18 18 L\n", yb(2), yb(2) + 3));
            out.push_str(&format!("Dirn 11 134 {} 4 10 23 M\n", yb(3)));
            out.push_str(&format!("Dirn 3 171 {} 8 10 47 H\nDirn 8 85 {} 8 10 47 H\n", yb(0), yb(0)));
        } else {
            out.push_str(&format!("Dirn 11 134 {} 4 10 23 L\nDirn 11 122 {} 4 10 23 L\n", yb(0), yb(0)));
            out.push_str(&format!("Dirn 11 134 {} 4 10 23 L\nDirn 11 122 {} 4 10 23 L\n", yb(2), yb(2)));
            out.push_str(&format!("Dirn 11 134 {} 4 10 23 M\nDirn 11 122 {} 4 10 23 M\n", yb(3), yb(3)));
            out.push_str(&format!("Dirn 1 171 {} 8 10 47 M\nDirn 10 85 {} 8 10 47 M\n", yb(0), yb(0)));
        }
    }
    out
}
