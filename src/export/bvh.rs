//! BVH (Biovision Hierarchy) export of a sequence of poses, and a JSON of the matching world
//! joint positions that `tests/bvh_check.py` compares against a BVH file.
//!
//! File conventions: lengths in **centimetres** ([`BVH_UNITS_PER_M`] per metre), +Y up, the
//! dancer facing +Z. The root (`Hips`) has OFFSET 0 0 0 and six channels `Xposition Yposition
//! Zposition Zrotation Xrotation Yrotation`, the positions being the pelvis's absolute world
//! position; every other joint has `Zrotation Xrotation Yrotation`. A joint's local rotation is
//! `Rz(z)·Rx(x)·Ry(y)` (angles in degrees) and its transform `T(offset [+ position])·R`, as usual
//! for BVH. End Sites close the head (head top), hands (fingertips) and feet (toe tips).

use std::fmt::Write as _;

use glam::{DMat3, Quat};

use crate::pose::fk::{Pose, world_rot_pos};
use crate::pose::limits::normalized_or_identity;
use crate::pose::skeleton::{JointId, Skeleton};

/// BVH length units per metre: the file is in centimetres.
pub const BVH_UNITS_PER_M: f64 = 100.0;

/// Frame rate used when the given one is not a finite positive number.
pub const FALLBACK_FPS: f64 = 30.0;

/// Decomposes `q` into BVH `Zrotation Xrotation Yrotation` angles `[z, x, y]` in radians, so
/// that `q = Rz(z)·Rx(x)·Ry(y)`. Computed in f64; x is in [−π/2, π/2]. Near gimbal lock
/// (|x| within ~1e-6 rad of π/2) y is set to 0. A non-finite `q` gives zeros.
pub fn euler_zxy_rad(q: Quat) -> [f64; 3] {
    let m = DMat3::from_quat(normalized_or_identity(q).as_dquat().normalize());
    // m_rc = row r, column c; glam stores columns.
    let (m00, m10, m20) = (m.x_axis.x, m.x_axis.y, m.x_axis.z);
    let (m01, m11, m21) = (m.y_axis.x, m.y_axis.y, m.y_axis.z);
    let m22 = m.z_axis.z;
    let cos_x = (m20 * m20 + m22 * m22).sqrt();
    let x = m21.atan2(cos_x);
    if cos_x > 1e-6 { [(-m01).atan2(m11), x, (-m20).atan2(m22)] } else { [m10.atan2(m00), x, 0.0] }
}

/// Writes a BVH file with one motion frame per pose, at `fps` frames per second (a non-finite
/// or non-positive `fps` becomes [`FALLBACK_FPS`]). Joints appear depth-first in [`JointId`]
/// order; see the module doc for units and channels. The text ends with a newline.
pub fn write_bvh(skeleton: &Skeleton, frames: &[Pose], fps: f64) -> String {
    let fps = if fps.is_finite() && fps > 0.0 { fps } else { FALLBACK_FPS };
    let mut out = String::from("HIERARCHY\n");
    let mut order = Vec::with_capacity(JointId::ALL.len());
    write_joint(&mut out, skeleton, JointId::Pelvis, 0, &mut order);
    let _ = write!(out, "MOTION\nFrames: {}\nFrame Time: {:.8}\n", frames.len(), 1.0 / fps);
    for pose in frames {
        let pelvis = pose.pelvis_in_world;
        let pelvis = if pelvis.is_finite() { pelvis } else { glam::Vec3::ZERO };
        let mut line = String::new();
        for v in [pelvis.x, pelvis.y, pelvis.z] {
            push_number(&mut line, f64::from(v) * BVH_UNITS_PER_M);
        }
        for &joint in &order {
            for angle in euler_zxy_rad(pose.local(joint)) {
                push_number(&mut line, angle.to_degrees());
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn write_joint(out: &mut String, skeleton: &Skeleton, joint: JointId, depth: usize, order: &mut Vec<JointId>) {
    order.push(joint);
    let pad = "\t".repeat(depth);
    let is_root = joint.parent().is_none();
    let offset = if is_root { glam::Vec3::ZERO } else { skeleton.rest_offset(joint) };
    let _ = writeln!(out, "{pad}{} {}", if is_root { "ROOT" } else { "JOINT" }, joint.name());
    let _ = writeln!(out, "{pad}{{");
    let _ = writeln!(out, "{pad}\tOFFSET {}", format_vec_cm(offset));
    if is_root {
        let _ = writeln!(out, "{pad}\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation");
    } else {
        let _ = writeln!(out, "{pad}\tCHANNELS 3 Zrotation Xrotation Yrotation");
    }
    let mut has_child = false;
    for child in JointId::ALL.iter().filter(|c| c.parent() == Some(joint)) {
        has_child = true;
        write_joint(out, skeleton, *child, depth + 1, order);
    }
    let site = skeleton.end_sites().iter().find(|s| s.parent == joint);
    if site.is_some() || !has_child {
        let site_offset = site.map_or(glam::Vec3::ZERO, |s| s.offset_in_parent);
        let _ = writeln!(out, "{pad}\tEnd Site");
        let _ = writeln!(out, "{pad}\t{{");
        let _ = writeln!(out, "{pad}\t\tOFFSET {}", format_vec_cm(site_offset));
        let _ = writeln!(out, "{pad}\t}}");
    }
    let _ = writeln!(out, "{pad}}}");
}

fn format_vec_cm(v: glam::Vec3) -> String {
    let mut s = String::new();
    for c in [v.x, v.y, v.z] {
        push_number(&mut s, f64::from(c) * BVH_UNITS_PER_M);
    }
    s.trim_end().to_owned()
}

/// Appends `v` with 6 decimals and a trailing space (non-finite values are written as 0).
fn push_number(out: &mut String, v: f64) {
    let v = if v.is_finite() { (v * 1e6).round() / 1e6 + 0.0 } else { 0.0 };
    let _ = write!(out, "{v:.6} ");
}

#[derive(serde::Serialize)]
struct JointPositionsDoc<'a> {
    fps: f64,
    units: &'a str,
    joints: Vec<&'a str>,
    frames: Vec<Vec<[f64; 3]>>,
}

/// World positions of every joint in every frame, as JSON:
/// `{"fps": f, "units": "m", "joints": [names…], "frames": [[[x, y, z], …per joint], …per frame]}`.
/// Joint names and order match [`write_bvh`] (end sites are not included); positions are in
/// metres, rounded to 1 µm. `fps` is sanitised as in [`write_bvh`].
pub fn joint_positions_json(skeleton: &Skeleton, frames: &[Pose], fps: f64) -> String {
    let fps = if fps.is_finite() && fps > 0.0 { fps } else { FALLBACK_FPS };
    let round = |v: f32| (f64::from(v) * 1e6).round() / 1e6 + 0.0;
    let doc = JointPositionsDoc {
        fps,
        units: "m",
        joints: JointId::ALL.iter().map(|j| j.name()).collect(),
        frames: frames
            .iter()
            .map(|pose| {
                let (_, positions) = world_rot_pos(skeleton, pose);
                positions.iter().map(|p| [round(p.x), round(p.y), round(p.z)]).collect()
            })
            .collect(),
    };
    serde_json::to_string(&doc).unwrap_or_else(|_| String::from("{}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use glam::DQuat;

    fn from_zxy(a: [f64; 3]) -> DQuat {
        DQuat::from_rotation_z(a[0]) * DQuat::from_rotation_x(a[1]) * DQuat::from_rotation_y(a[2])
    }

    #[test]
    fn euler_zxy_round_trips_including_gimbal_lock() {
        let half_pi = std::f32::consts::FRAC_PI_2;
        let mut quats = vec![
            Quat::IDENTITY,
            Quat::from_rotation_x(half_pi),
            Quat::from_rotation_x(-half_pi),
            Quat::from_rotation_z(0.3) * Quat::from_rotation_x(half_pi) * Quat::from_rotation_y(1.1),
            Quat::from_rotation_z(-2.0) * Quat::from_rotation_x(-half_pi + 1e-7) * Quat::from_rotation_y(0.4),
            Quat::from_rotation_y(std::f32::consts::PI),
        ];
        for i in 0..12 {
            for j in 0..12 {
                for k in 0..6 {
                    let v = glam::Vec3::new(i as f32 - 5.5, j as f32 - 5.5, k as f32 - 2.5) * 0.5;
                    quats.push(Quat::from_scaled_axis(v));
                }
            }
        }
        for q in quats {
            let angles = euler_zxy_rad(q);
            let back = from_zxy(angles);
            let d = back * q.as_dquat().normalize().conjugate();
            let err = 2.0 * d.xyz().length().atan2(d.w.abs());
            assert!(err < 2e-6, "{q:?} -> {angles:?}: {err}");
            assert!(angles[1].abs() <= std::f64::consts::FRAC_PI_2 + 1e-12);
        }
        assert_eq!(euler_zxy_rad(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)), [0.0, 0.0, 0.0]);
    }

    #[test]
    fn header_has_all_joints_and_frame_lines() {
        let skeleton = Skeleton::default();
        let frames = vec![Pose::rest(&skeleton); 3];
        let text = write_bvh(&skeleton, &frames, f64::NAN);
        assert!(text.starts_with("HIERARCHY\nROOT Hips\n"));
        assert!(text.ends_with('\n'));
        assert!(text.contains("Frames: 3\nFrame Time: 0.03333333\n"));
        assert_eq!(text.matches("End Site").count(), skeleton.end_sites().len());
        for joint in JointId::ALL {
            assert!(text.contains(&format!(" {}\n", joint.name())), "{joint:?}");
        }
        let last = text.lines().last().unwrap();
        assert_eq!(last.split_whitespace().count(), 6 + 3 * (JointId::ALL.len() - 1));
        let json: serde_json::Value = serde_json::from_str(&joint_positions_json(&skeleton, &frames, 0.0)).unwrap();
        assert_eq!(json["fps"], 30.0);
        assert_eq!(json["frames"].as_array().unwrap().len(), 3);
        assert_eq!(json["joints"][0], "Hips");
    }
}
