//! Writers that hand the dancer's motion to other tools.
//!
//! [`bvh`] writes Biovision Hierarchy motion files (and a JSON of joint positions to check them);
//! [`gltf`] writes binary glTF 2.0 (`.glb`) scenes with skinned dancers and their animation;
//! [`plan_gltf`] writes an ensemble plan's performers, the crowd beyond a limit instanced.

pub mod bvh;
pub mod compact;
pub mod crowd_gltf;
pub mod gltf;
pub mod plan_gltf;
