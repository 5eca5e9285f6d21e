//! BVH export tests: a tiny independent BVH reader parses `write_bvh` output and recomputes world
//! joint positions, which must match `fk` within 0.01 mm. With `LABANPLAY_WRITE_BVH_SAMPLE` set,
//! also writes a sample BVH + JSON pair for `tests/bvh_check.py`.

#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use glam::{DMat3, DVec3, Quat, Vec3};
use labanplay::export::bvh::{BVH_UNITS_PER_M, joint_positions_json, write_bvh};
use labanplay::pose::fk::{end_site_positions, joint_positions, joint_world};
use labanplay::pose::ik::{LimbGoal, solve_arm, solve_leg};
use labanplay::pose::{JOINT_COUNT, JointId, Pose, Side, Skeleton};

struct Node {
    name: String,
    parent: Option<usize>,
    offset: DVec3,
    channels: Vec<String>,
    is_end_site: bool,
}

struct Parsed {
    nodes: Vec<Node>,
    frame_time: f64,
    frames: Vec<Vec<f64>>,
}

fn parse_bvh(text: &str) -> Parsed {
    let (head, motion) = text.split_once("MOTION").expect("MOTION section");
    let mut tokens = head.split_whitespace();
    assert_eq!(tokens.next(), Some("HIERARCHY"));
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut pending: Option<Node> = None;
    while let Some(tok) = tokens.next() {
        match tok {
            "ROOT" | "JOINT" | "End" => {
                let name = tokens.next().unwrap().to_owned();
                pending = Some(Node {
                    is_end_site: tok == "End",
                    name,
                    parent: stack.last().copied(),
                    offset: DVec3::ZERO,
                    channels: Vec::new(),
                });
            }
            "{" => {
                nodes.push(pending.take().expect("{ after a node"));
                stack.push(nodes.len() - 1);
            }
            "}" => {
                stack.pop().expect("balanced braces");
            }
            "OFFSET" => {
                let mut v = [0.0; 3];
                for c in &mut v {
                    *c = tokens.next().unwrap().parse().unwrap();
                }
                nodes[*stack.last().unwrap()].offset = DVec3::from_array(v) / BVH_UNITS_PER_M;
            }
            "CHANNELS" => {
                let n: usize = tokens.next().unwrap().parse().unwrap();
                let channels = (0..n).map(|_| tokens.next().unwrap().to_owned()).collect();
                nodes[*stack.last().unwrap()].channels = channels;
            }
            other => panic!("unexpected token {other}"),
        }
    }
    assert!(stack.is_empty());
    let mut lines = motion.lines().filter(|l| !l.trim().is_empty());
    let count: usize = lines.next().unwrap().strip_prefix("Frames:").unwrap().trim().parse().unwrap();
    let frame_time: f64 = lines.next().unwrap().strip_prefix("Frame Time:").unwrap().trim().parse().unwrap();
    let frames: Vec<Vec<f64>> = lines.map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect()).collect();
    assert_eq!(frames.len(), count);
    Parsed { nodes, frame_time, frames }
}

/// World positions of every node (joints and end sites) in one frame, metres.
fn bvh_world_positions(parsed: &Parsed, frame: &[f64]) -> Vec<DVec3> {
    let mut rot = vec![DMat3::IDENTITY; parsed.nodes.len()];
    let mut pos = vec![DVec3::ZERO; parsed.nodes.len()];
    let mut values = frame.iter();
    for (i, node) in parsed.nodes.iter().enumerate() {
        let mut local_rot = DMat3::IDENTITY;
        let mut local_pos = node.offset;
        for channel in &node.channels {
            let v = *values.next().expect("enough channel values");
            match channel.as_str() {
                "Xposition" => local_pos.x += v / BVH_UNITS_PER_M,
                "Yposition" => local_pos.y += v / BVH_UNITS_PER_M,
                "Zposition" => local_pos.z += v / BVH_UNITS_PER_M,
                "Xrotation" => local_rot *= DMat3::from_rotation_x(v.to_radians()),
                "Yrotation" => local_rot *= DMat3::from_rotation_y(v.to_radians()),
                "Zrotation" => local_rot *= DMat3::from_rotation_z(v.to_radians()),
                other => panic!("unknown channel {other}"),
            }
        }
        let (parent_rot, parent_pos) = match node.parent {
            Some(p) => (rot[p], pos[p]),
            None => (DMat3::IDENTITY, DVec3::ZERO),
        };
        pos[i] = parent_pos + parent_rot * local_pos;
        rot[i] = parent_rot * local_rot;
    }
    assert!(values.next().is_none(), "extra channel values");
    pos
}

/// Deterministic pose sequence: scrambled rotations (LCG) plus exact gimbal-lock cases.
fn test_frames(skeleton: &Skeleton) -> Vec<Pose> {
    let mut state = 12345u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0
    };
    let half_pi = std::f32::consts::FRAC_PI_2;
    let mut frames = vec![Pose::rest(skeleton)];
    for f in 0..40 {
        let mut pose = Pose::rest(skeleton);
        pose.pelvis_in_world = Vec3::new(next() * 3.0, 0.9 + next() * 0.2, next() * 3.0);
        for (j, q) in pose.local_rot.iter_mut().enumerate() {
            *q = if (f + j) % 7 == 0 {
                // X exactly ±90°: gimbal lock for Z-X-Y Euler angles.
                Quat::from_rotation_z(next() * 3.0)
                    * Quat::from_rotation_x(half_pi * next().signum())
                    * Quat::from_rotation_y(next() * 3.0)
            } else {
                Quat::from_scaled_axis(Vec3::new(next(), next(), next()) * 3.1)
            };
        }
        frames.push(pose);
    }
    frames
}

#[test]
fn bvh_round_trips_to_fk_positions_within_a_hundredth_of_a_millimetre() {
    let skeleton = Skeleton::default();
    let frames = test_frames(&skeleton);
    let text = write_bvh(&skeleton, &frames, 60.0);
    let parsed = parse_bvh(&text);
    assert!((parsed.frame_time - 1.0 / 60.0).abs() < 1e-8);
    let joints: Vec<&Node> = parsed.nodes.iter().filter(|n| !n.is_end_site).collect();
    assert_eq!(joints.len(), JOINT_COUNT);
    for (node, joint) in joints.iter().zip(JointId::ALL) {
        assert_eq!(node.name, joint.name());
    }
    let mut expected = [Vec3::ZERO; JOINT_COUNT];
    let mut worst = 0.0f64;
    for (pose, values) in frames.iter().zip(&parsed.frames) {
        joint_positions(&skeleton, pose, &mut expected).unwrap();
        let got = bvh_world_positions(&parsed, values);
        let joint_positions_from_file = parsed.nodes.iter().zip(&got).filter(|(n, _)| !n.is_end_site).map(|(_, p)| *p);
        for (want, have) in expected.iter().zip(joint_positions_from_file) {
            worst = worst.max(want.as_dvec3().distance(have));
        }
        let sites_from_file = parsed.nodes.iter().zip(&got).filter(|(n, _)| n.is_end_site).map(|(_, p)| *p);
        for (want, have) in end_site_positions(&skeleton, pose).iter().zip(sites_from_file) {
            worst = worst.max(want.as_dvec3().distance(have));
        }
    }
    println!("worst BVH round-trip error: {:.3e} m", worst);
    assert!(worst < 1e-5, "worst error {worst} m");
}

/// A short, plausible motion: the pelvis sinks and sways with the feet planted (leg IK), the
/// arms trace circles (arm IK), the torso turns.
fn sample_motion(skeleton: &Skeleton, count: usize) -> Vec<Pose> {
    let rest = Pose::rest(skeleton);
    let (_, ankle_l) = joint_world(skeleton, &rest, JointId::AnkleL);
    let (_, ankle_r) = joint_world(skeleton, &rest, JointId::AnkleR);
    (0..count)
        .map(|i| {
            let t = i as f32 / count as f32 * std::f32::consts::TAU;
            let mut pose = rest.clone();
            pose.pelvis_in_world += Vec3::new(0.05 * t.sin(), -0.08 * (1.0 - t.cos()), 0.02 * t.sin());
            pose.set_local(JointId::Pelvis, Quat::from_rotation_y(0.2 * t.sin()));
            pose.set_local(JointId::Chest, Quat::from_rotation_y(-0.3 * t.sin()) * Quat::from_rotation_x(0.1));
            pose.set_local(JointId::Head, Quat::from_rotation_x(0.2 * t.cos()));
            for (side, ankle) in [(Side::Left, ankle_l), (Side::Right, ankle_r)] {
                let goal =
                    LimbGoal { end_in_world: ankle, end_rot_in_world: Some(Quat::IDENTITY), pole_in_world: None };
                solve_leg(skeleton, &mut pose, side, &goal).unwrap();
                let (_, shoulder) = joint_world(
                    skeleton,
                    &pose,
                    if side == Side::Left { JointId::ShoulderL } else { JointId::ShoulderR },
                );
                let wrist = shoulder + Vec3::new(side.sign_x() * (0.25 + 0.1 * t.cos()), 0.15 * t.sin(), 0.35);
                solve_arm(skeleton, &mut pose, side, &LimbGoal { end_in_world: wrist, ..LimbGoal::default() }).unwrap();
            }
            pose
        })
        .collect()
}

#[test]
fn sample_motion_keeps_feet_planted() {
    let skeleton = Skeleton::default();
    let rest = Pose::rest(&skeleton);
    let (_, ankle) = joint_world(&skeleton, &rest, JointId::AnkleL);
    for pose in sample_motion(&skeleton, 24) {
        let (_, now) = joint_world(&skeleton, &pose, JointId::AnkleL);
        assert!(now.distance(ankle) < 1e-4);
    }
}

/// Writes `sample.bvh`, `sample.json` and `sample_off_by_1mm.json` for `tests/bvh_check.py`
/// when `LABANPLAY_WRITE_BVH_SAMPLE` is set: into that directory, or `target/bvh_sample` under
/// the crate root when the value is `1` or empty.
#[test]
fn write_sample_for_python_check() {
    let Ok(dir) = std::env::var("LABANPLAY_WRITE_BVH_SAMPLE") else {
        println!("LABANPLAY_WRITE_BVH_SAMPLE not set: no sample written");
        return;
    };
    let dir = if dir.is_empty() || dir == "1" {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bvh_sample")
    } else {
        std::path::PathBuf::from(dir)
    };
    std::fs::create_dir_all(&dir).unwrap();
    let skeleton = Skeleton::default();
    let mut frames = sample_motion(&skeleton, 48);
    frames.extend(test_frames(&skeleton));
    std::fs::write(dir.join("sample.bvh"), write_bvh(&skeleton, &frames, 30.0)).unwrap();
    std::fs::write(dir.join("sample.json"), joint_positions_json(&skeleton, &frames, 30.0)).unwrap();
    // The same positions with one joint moved by 1 mm: the checker must reject it.
    let mut doc: serde_json::Value = serde_json::from_str(&joint_positions_json(&skeleton, &frames, 30.0)).unwrap();
    let x = doc["frames"][5][JointId::WristL.index()][0].as_f64().unwrap();
    doc["frames"][5][JointId::WristL.index()][0] = serde_json::json!(x + 0.001);
    std::fs::write(dir.join("sample_off_by_1mm.json"), doc.to_string()).unwrap();
    println!("wrote {}/sample.bvh, sample.json, sample_off_by_1mm.json", dir.display());
}
