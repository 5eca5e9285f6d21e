//! Writers that hand the dancer's motion to other tools.
//!
//! [`bvh`] writes Biovision Hierarchy motion files (and a JSON of joint positions to check them).

pub mod bvh;
