//! Fuzz target: mesh bytes (OBJ, glTF/GLB, PLY, STL, told apart by content) through import and,
//! for small meshes (at most 200 vertices), rigging; no panic, hang or unbounded allocation.
#![no_main]

use labanplay::rig::{RigOptions, import::read_mesh, rig_mesh};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = read_mesh(data, None, None) else { return };
    assert!(raw.positions_in_input.iter().all(|p| p.is_finite()));
    if raw.positions_in_input.len() <= 200 {
        let _ = rig_mesh(&raw, &RigOptions::default(), &mut |_, _| {});
    }
});
