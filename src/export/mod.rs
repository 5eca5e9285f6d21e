//! Writers that hand the dancer's motion to other tools.
//!
//! [`bvh`] writes Biovision Hierarchy motion files (and a JSON of joint positions to check them);
//! [`gltf`] writes binary glTF 2.0 (`.glb`) scenes with skinned dancers and their animation.

pub mod bvh;
pub mod gltf;
