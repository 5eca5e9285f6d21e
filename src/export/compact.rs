//! Compact animation tracks for the plan export. A joint's sampled track keeps only the keys
//! that linear interpolation between kept keys needs to stay within [`ROTATION_TOLERANCE_RAD`]
//! (rotations, slerped) or [`TRANSLATION_TOLERANCE_M`] (the pelvis translation) of every
//! sample, with at most [`MAX_KEY_GAP`] frames between keys. Rotations are stored as normalised
//! signed shorts (allowed for animation outputs by core glTF 2.0), translations as floats. Each
//! track's times and values are written once ([`Bin::shared`]): performers dancing in unison
//! share their joints' accessors.

use super::gltf::{Bin, FLOAT, Packed, SHORT, Scene, component_bounds, finite_or, sign_continuous_rotations};
use crate::pose::fk::Pose;
use crate::pose::skeleton::{JointId, Skeleton};
use glam::{Quat, Vec3};
use serde_json::json;

/// Most a kept rotation track may miss a sampled rotation by, radians (0.25°).
pub const ROTATION_TOLERANCE_RAD: f32 = 0.25 * std::f32::consts::PI / 180.0;
/// Most a kept pelvis track may miss a sampled pelvis position by, metres.
pub const TRANSLATION_TOLERANCE_M: f32 = 0.002;
/// Most frames between two kept keys.
pub const MAX_KEY_GAP: usize = 32;

/// Rotations as normalised signed-short VEC4s, written once per distinct content under `name`
/// ([`Bin::shared`]); the accessor's index.
pub(super) fn shared_unit_rotations(bin: &mut Bin, name: &str, rotations: impl Iterator<Item = Quat>) -> usize {
    let mut count = 0;
    let bytes: Vec<u8> = rotations
        .inspect(|_| count += 1)
        .flat_map(|q| q.to_array())
        .flat_map(|c| short_from_unit(c).to_le_bytes())
        .collect();
    bin.shared(name, &bytes, |bin| {
        let layout = Packed {
            component_type: SHORT,
            count,
            kind: "VEC4",
            normalized: true,
            target: None,
            stride: None,
            bounds: None,
        };
        bin.packed(&bytes, &layout)
    })
}

/// Indices of the samples to keep: the first, the last, and each next one as far on as
/// `within(a, b, k)` holds for every sample `k` between (greedy, at most [`MAX_KEY_GAP`] on).
pub fn reduce_keys(n: usize, within: impl Fn(usize, usize, usize) -> bool) -> Vec<usize> {
    let mut keys = vec![0];
    if n <= 1 {
        return keys.into_iter().take(n).collect();
    }
    let mut a = 0;
    while a + 1 < n {
        let mut best = a + 1;
        for b in a + 2..n.min(a + MAX_KEY_GAP + 1) {
            if (a + 1..b).all(|k| within(a, b, k)) {
                best = b;
            } else {
                break;
            }
        }
        keys.push(best);
        a = best;
    }
    keys
}

/// Angle between two unit rotations, radians.
pub fn angle_between(a: Quat, b: Quat) -> f32 {
    2.0 * a.dot(b).abs().min(1.0).acos()
}

/// The normalised signed short of a component in [-1, 1], and back.
pub fn short_from_unit(c: f32) -> i16 {
    (c.clamp(-1.0, 1.0) * 32767.0).round() as i16
}

/// A component decoded from a normalised signed short.
pub fn unit_from_short(s: i16) -> f32 {
    (f32::from(s) / 32767.0).max(-1.0)
}

/// The times accessor of `keys` (frames at `fps`), shared.
fn times(bin: &mut Bin, keys: &[usize], fps: f64) -> usize {
    let times: Vec<f32> = keys.iter().map(|&k| (k as f64 / fps) as f32).collect();
    let bytes: Vec<u8> = times.iter().flat_map(|t| t.to_le_bytes()).collect();
    bin.shared("times", &bytes, |bin| bin.floats(&times, 1, "SCALAR", None, true))
}

/// Adds the animation of the dancer whose joint nodes start at `base` (in [`JointId`] order):
/// its pelvis translation and every joint's rotation, sampled at `fps`, reduced and quantised
/// (see the module doc). The frame times must increase in f32.
pub(super) fn add_compact_tracks(
    scene: &mut Scene,
    bin: &mut Bin,
    skeleton: &Skeleton,
    base: usize,
    poses: &[Pose],
    fps: f64,
) {
    let channel = |scene: &mut Scene, joint: JointId, path: &str, input: usize, output: usize| {
        scene
            .channels
            .push(json!({ "sampler": scene.samplers.len(), "target": { "node": base + joint.index(), "path": path } }));
        scene.samplers.push(json!({ "input": input, "output": output, "interpolation": "LINEAR" }));
    };
    let fallback = skeleton.rest_offset(JointId::Pelvis);
    let pelvis: Vec<Vec3> = poses.iter().map(|p| finite_or(p.pelvis_in_world, fallback)).collect();
    let keys = reduce_keys(pelvis.len(), |a, b, k| {
        let s = (k - a) as f32 / (b - a) as f32;
        pelvis[a].lerp(pelvis[b], s).distance(pelvis[k]) <= TRANSLATION_TOLERANCE_M
    });
    let input = times(bin, &keys, fps);
    let values: Vec<f32> = keys.iter().flat_map(|&k| pelvis[k].to_array()).collect();
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let output = bin.shared("translation", &bytes, |bin| {
        let layout = Packed {
            component_type: FLOAT,
            count: keys.len(),
            kind: "VEC3",
            normalized: false,
            target: None,
            stride: None,
            bounds: Some(component_bounds(&values, 3)),
        };
        bin.packed(&bytes, &layout)
    });
    channel(scene, JointId::Pelvis, "translation", input, output);
    let cos_half = (0.5 * ROTATION_TOLERANCE_RAD).cos();
    for joint in JointId::ALL {
        let q = sign_continuous_rotations(poses, joint);
        let keys = reduce_keys(q.len(), |a, b, k| {
            let s = (k - a) as f32 / (b - a) as f32;
            q[a].slerp(q[b], s).dot(q[k]).abs() >= cos_half
        });
        let input = times(bin, &keys, fps);
        let output = shared_unit_rotations(bin, "rotation", keys.iter().map(|&k| q[k]));
        channel(scene, joint, "rotation", input, output);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_track_keeps_its_ends_and_gaps_of_at_most_the_limit() {
        let keys = reduce_keys(100, |_, _, _| true);
        assert_eq!(keys.first(), Some(&0));
        assert_eq!(keys.last(), Some(&99));
        assert!(keys.windows(2).all(|w| w[1] > w[0] && w[1] - w[0] <= MAX_KEY_GAP));
        assert_eq!(reduce_keys(1, |_, _, _| true), vec![0]);
        assert!(reduce_keys(0, |_, _, _| true).is_empty());
    }

    #[test]
    fn a_corner_is_kept() {
        // |x - 50|: straight on either side of the corner at 50.
        let v: Vec<f32> = (0..100).map(|i| (i as f32 - 50.0).abs()).collect();
        let keys = reduce_keys(v.len(), |a, b, k| {
            let s = (k - a) as f32 / (b - a) as f32;
            (v[a] + (v[b] - v[a]) * s - v[k]).abs() < 1e-3
        });
        assert!(keys.contains(&50), "{keys:?}");
    }

    #[test]
    fn shorts_round_trip_within_half_a_step() {
        for c in [-1.0f32, -std::f32::consts::FRAC_1_SQRT_2, -0.1, 0.0, 0.3, 0.99999, 1.0] {
            assert!((unit_from_short(short_from_unit(c)) - c).abs() <= 0.5 / 32767.0 + 1e-7);
        }
        assert!(angle_between(Quat::IDENTITY, Quat::from_rotation_y(0.1)) - 0.1 < 1e-5);
    }
}
