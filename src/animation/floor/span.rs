//! On hands and feet with the feet well behind the hands (a plank, a pike): the body spans its
//! contacts instead of standing over its feet. The shoulders go over the hands with the arms
//! straight, the ankles over the balls of the feet (the feet upright, the toes tucked under), and the straight legs and
//! the trunk join at the hips: in a line when the span is as long as the body (a plank), the
//! hips raised where it is shorter (a pike), the shoulders short of the hands where it is
//! longer (the arms then reach forward).

use super::{ArmTarget, FloorPose, FloorSizes, HAND_REACH_FRACTION, LegTarget, pelvis_for_hips, world_rot};
use crate::motion::floor::{FloorState, LegSupport, WRIST_CONTACT_HEIGHT_M};
use crate::motion::plan::forward_of;
use glam::{Quat, Vec3};

/// The feet span the body when they are this many leg lengths behind the hands (nearer, the
/// body crouches over its feet).
const SPAN_MIN_LEGS: f32 = 0.6;
/// The part of a straight leg's length from hip to ankle of a spanning leg.
const SPAN_LEG_FRACTION: f32 = 0.99;
/// The ball joint's height over the floor with the toes tucked under, metres.
const BALL_OVER_FLOOR_M: f32 = 0.015;
/// The toes tucked under (bent up as far as they go), radians.
const TOES_TUCKED_RAD: f32 = -std::f32::consts::FRAC_PI_2;

/// The spanning pose of `state` when both hands and at least one foot bear weight and the feet
/// stand at least [`SPAN_MIN_LEGS`] behind the hands; `None` otherwise (crouching).
pub(super) fn spanning_pose(state: &FloorState, sizes: &FloorSizes, arms: [Option<ArmTarget>; 2]) -> Option<FloorPose> {
    let hands: Vec<Vec3> = state.hands.iter().flatten().copied().collect();
    let feet: Vec<Vec3> = (0..2).filter(|&i| state.legs[i] == LegSupport::Foot).filter_map(|i| state.feet[i]).collect();
    if hands.len() < 2 || feet.is_empty() {
        return None;
    }
    let yaw = state.yaw_rad;
    let fwd = forward_of(yaw);
    let leg_m = SPAN_LEG_FRACTION * (sizes.thigh_m + sizes.shin_m);
    let (hands_mid, feet_mid) = (mean(&hands), mean(&feet));
    if (hands_mid - feet_mid).dot(fwd) < SPAN_MIN_LEGS * (sizes.thigh_m + sizes.shin_m) {
        return None;
    }
    let ankle_lift_m = sizes.ankle_to_ball_m + BALL_OVER_FLOOR_M;
    let shoulders = hands_mid + Vec3::Y * (WRIST_CONTACT_HEIGHT_M + HAND_REACH_FRACTION * sizes.arm_m);
    let ankles = feet_mid + Vec3::Y * ankle_lift_m;
    let trunk_in_pelvis = mean(&sizes.shoulders_in_pelvis) - mean(&sizes.hips_in_pelvis);
    let hip_mid = hips_between(ankles, shoulders, leg_m, trunk_in_pelvis.length());
    let pitch = tilt_in_plane(shoulders - hip_mid, yaw) - tilt_in_plane(trunk_in_pelvis, 0.0);
    let pelvis = pelvis_for_hips(sizes, hip_mid, yaw, pitch);
    let rot = world_rot(yaw, pitch);
    let legs = [0, 1].map(|i| {
        let foot = state.feet[i].filter(|_| state.legs[i] == LegSupport::Foot)?;
        let hip = pelvis + rot * sizes.hips_in_pelvis[i];
        let ankle = foot + Vec3::Y * ankle_lift_m;
        Some(LegTarget {
            ankle_in_world: ankle,
            knee_in_world: (hip + ankle) * 0.5,
            // Where the legs must bend (a short span), the knees go down towards the floor.
            knee_pole_in_world: (fwd - Vec3::Y).normalize(),
            // The foot straight down from the ankle to its ball: the leg slopes down to the ankle
            // by `slope`, and the foot's own droop turns it further.
            ankle_flex_rad: ((hip.y - ankle.y) / hip.distance(ankle).max(1e-4)).clamp(-1.0, 1.0).asin()
                - sizes.foot_droop_rad,
            toe_bend_rad: TOES_TUCKED_RAD,
            flat_foot: 0.0,
            flat_yaw_rad: yaw,
        })
    });
    Some(FloorPose { pelvis_in_world: Some(pelvis), pitch_rad: pitch, legs, arms })
}

fn mean(points: &[Vec3]) -> Vec3 {
    points.iter().copied().sum::<Vec3>() / points.len().max(1) as f32
}

/// The hips' midpoint joining a straight leg of `leg_m` from `ankles` and a trunk of `trunk_m` to
/// `shoulders`: above the line between them where the span is shorter than the body, on it (as
/// far as the leg reaches) where it is longer.
fn hips_between(ankles: Vec3, shoulders: Vec3, leg_m: f32, trunk_m: f32) -> Vec3 {
    let span = shoulders - ankles;
    let d = span.length().max(1e-4);
    let along = span / d;
    if d >= leg_m + trunk_m {
        return ankles + along * leg_m;
    }
    // The apex of the triangle (leg, trunk, span), raised out of the vertical plane's line.
    let a = ((leg_m * leg_m - trunk_m * trunk_m + d * d) / (2.0 * d)).clamp(0.0, leg_m);
    let h = (leg_m * leg_m - a * a).max(0.0).sqrt();
    let side = along.cross(Vec3::Y);
    let up = side.cross(along).normalize_or(Vec3::Y);
    ankles + along * a + up * h
}

/// How far `v` leans from straight up towards the front of a body facing `yaw` (radians; the
/// pelvis pitch convention: positive forward).
fn tilt_in_plane(v: Vec3, yaw: f32) -> f32 {
    let local = Quat::from_rotation_y(-yaw) * v;
    local.z.atan2(local.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_as_long_as_the_body_is_a_line_and_a_shorter_one_raises_the_hips() {
        let (ankles, leg, trunk) = (Vec3::new(0.0, 0.1, -1.0), 0.8, 0.5);
        let long = Vec3::new(0.0, 0.1, 0.3 + 0.1);
        let hips = hips_between(ankles, long, leg, trunk);
        assert!(((hips - ankles).length() - leg).abs() < 1e-4 && (hips.y - 0.1).abs() < 1e-4, "{hips}");
        let short = Vec3::new(0.0, 0.6, 0.0);
        let hips = hips_between(ankles, short, leg, trunk);
        assert!((hips.distance(ankles) - leg).abs() < 1e-4 && (hips.distance(short) - trunk).abs() < 1e-4);
        assert!(hips.y > 0.6, "a pike raises the hips over the shoulders: {hips}");
    }

    #[test]
    fn the_tilt_is_measured_in_the_facing() {
        let yaw = 0.7f32;
        assert!((tilt_in_plane(forward_of(yaw), yaw) - std::f32::consts::FRAC_PI_2).abs() < 1e-5);
        assert!(tilt_in_plane(Vec3::Y, yaw).abs() < 1e-6);
        assert!((tilt_in_plane(-forward_of(yaw) + Vec3::Y, yaw) + std::f32::consts::FRAC_PI_4).abs() < 1e-5);
    }
}
