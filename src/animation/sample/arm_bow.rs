//! The outward bow an arm takes between two keys when the direct way would leave the
//! shoulder's range.

use super::{blend_dirs, local_from_body};
use crate::pose::skeleton::Side;
use glam::{Quat, Vec3};

/// How far the shoulder would be outside `limits` with the arm pointing along `dir_in_body`
/// (the swing from hanging, in the skeleton's local axes; mirrored limits for the right arm).
fn shoulder_violation(dir_in_body: Vec3, limits: &crate::pose::limits::JointLimits) -> f32 {
    let d = local_from_body(dir_in_body).normalize_or_zero();
    if d == Vec3::ZERO {
        return 0.0;
    }
    limits.violation_rad(Quat::from_rotation_arc(Vec3::NEG_Y, d))
}

/// The outward bow (as a multiple of the body-frame outward direction, at mid-way) that keeps
/// the way from `a` to `b` inside the shoulder's limits; 0 when the direct way already is.
pub(super) fn arm_bow(a: Vec3, b: Vec3, side: Side, limits: &crate::pose::limits::JointLimits) -> f32 {
    let outward = Vec3::new(if side == Side::Left { -1.0 } else { 1.0 }, 0.0, 0.0);
    let worst = |k: f32| {
        (1..8)
            .map(|i| {
                let s = i as f32 / 8.0;
                let d = blend_dirs(a, b, s).0 + outward * k * (std::f32::consts::PI * s).sin();
                shoulder_violation(d, limits)
            })
            .fold(0.0f32, f32::max)
    };
    if worst(0.0) <= 1e-3 {
        return 0.0;
    }
    let mut best = (0.0f32, f32::INFINITY);
    for k in ARM_BOWS {
        let w = worst(k);
        if w <= 1e-3 {
            return k;
        }
        if w < best.1 {
            best = (k, w);
        }
    }
    best.0
}

/// The outward bows [`arm_bow`] tries, smallest first.
const ARM_BOWS: [f32; 4] = [0.5, 1.0, 1.5, 2.5];
