//! A developer's tool: every shared mesh (`../shared/meshes`) in all 24 axis-aligned orientations
//! × centimetres, millimetres and inches, rigged and compared with the mesh rigged as stored:
//! worst joint distance in % of the height, the height, the time; refusals with their message.
//!
//! `cargo run --release --no-default-features --example rig_sweep [MESH...]`

use std::path::PathBuf;
use std::time::Instant;

use glam::{Mat3, Vec3};
use labanplay::rig::import::{RawMesh, read_mesh};
use labanplay::rig::{RigOptions, RiggedMesh, rig_mesh};

/// The 24 proper rotations that map axes onto signed axes.
fn rotations() -> Vec<Mat3> {
    let axes = [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y, Vec3::Z, Vec3::NEG_Z];
    let mut out = Vec::new();
    for a in axes {
        for b in axes {
            if a.dot(b).abs() > 0.5 {
                continue;
            }
            out.push(Mat3::from_cols(a, b, a.cross(b)));
        }
    }
    out
}

fn joints(rig: &RiggedMesh) -> Vec<Vec3> {
    rig.bind_joints().iter().map(|p| *p / rig.embedding.height_m).collect()
}

fn main() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes"));
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        let mut all: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        all.retain(|n| labanplay::rig::is_mesh_path(n));
        all.sort();
        names = all;
    }
    let units = [("cm", 100.0f32), ("mm", 1000.0), ("in", 39.37)];
    for name in names {
        let Ok(bytes) = std::fs::read(dir.join(&name)) else {
            println!("{name}: cannot read");
            continue;
        };
        let raw = match read_mesh(&bytes, name.rsplit('.').next(), Some(&dir)) {
            Ok(raw) => raw,
            Err(e) => {
                println!("{name}: {e}");
                continue;
            }
        };
        let rig = |r: &RawMesh| rig_mesh(r, &RigOptions::default(), &mut |_, _| {});
        let Ok(stored) = rig(&raw) else {
            println!("{name}: the stored mesh does not rig");
            continue;
        };
        let reference = joints(&stored);
        // A stored glTF is +Y up by its format; turned, it is judged by its shape.
        let metres_per_unit = stored.frame.metres_per_unit;
        let (mut ok, mut refused, mut wrong, mut worst_all, mut slowest) = (0, 0, 0, 0.0f32, 0.0f64);
        for (k, rotation) in rotations().into_iter().enumerate() {
            for (unit, scale) in units {
                let turned = RawMesh {
                    format: None,
                    positions_in_input: raw
                        .positions_in_input
                        .iter()
                        .map(|&p| rotation * p * metres_per_unit * scale)
                        .collect(),
                    ..raw.clone()
                };
                let started = Instant::now();
                let result = rig(&turned);
                let secs = started.elapsed().as_secs_f64();
                slowest = slowest.max(secs);
                match result {
                    Ok(r) => {
                        let worst =
                            joints(&r).iter().zip(&reference).map(|(a, b)| a.distance(*b)).fold(0.0f32, f32::max);
                        let height_off = (r.embedding.height_m / stored.embedding.height_m - 1.0).abs();
                        if worst < 0.005 && height_off < 0.005 {
                            ok += 1;
                        } else {
                            wrong += 1;
                            println!(
                                "  {name} #{k} {unit}: worst joint {:.2} %, height {:.3} m, {:.2} s, frame {:?}",
                                100.0 * worst,
                                r.embedding.height_m,
                                secs,
                                r.frame.reasons
                            );
                        }
                        worst_all = worst_all.max(worst);
                    }
                    Err(e) => {
                        refused += 1;
                        println!("  {name} #{k} {unit}: refused in {secs:.2} s: {e}");
                    }
                }
            }
        }
        println!(
            "{name}: {ok} same skeleton, {wrong} different, {refused} refused of 72; worst joint {:.3} %, slowest {slowest:.2} s",
            100.0 * worst_all
        );
    }
}
