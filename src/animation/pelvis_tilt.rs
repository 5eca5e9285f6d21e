//! Pelvis and waist compensation for a gesturing leg: a hip hike for side gestures, a forward tilt
//! for back gestures and a slight tuck for high front gestures, so a leg can reach beyond the hip
//! joint's own range the way a dancer's does; the spine takes most of it back.
//!
//! The tilt fades out towards a vertical leg and turns about the other hip weighted by each
//! gesture's blend, so nothing switches pivot when the standing foot lifts.

use glam::Quat;
use glam::Vec3;

/// How much of a leg gesture the pelvis takes, in degrees of elevation from hanging down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TiltRule {
    /// Side elevation the hip does alone; beyond it the pelvis hikes degree for degree.
    pub side_hip_only_deg: f32,
    /// Share of the side elevation above 45° the pelvis takes anyway (a visible hike).
    pub side_share: f32,
    /// Largest hip hike.
    pub side_max_deg: f32,
    /// Back elevation the hip does alone; beyond it the pelvis tips forward degree for degree.
    pub back_hip_only_deg: f32,
    /// Share of the back elevation above 15° the pelvis takes anyway.
    pub back_share: f32,
    /// Largest forward tilt.
    pub back_max_deg: f32,
    /// Share of a front elevation above 60° taken as a backward tuck.
    pub front_share: f32,
    /// Share of the pelvis tilt the spine gives back, so the chest stays nearer upright.
    pub spine_counter_share: f32,
}

impl Default for TiltRule {
    fn default() -> Self {
        // The hip's defaults are 90° abduction and 45° extension (pose::skeleton); keep 5° spare.
        TiltRule {
            side_hip_only_deg: 85.0,
            side_share: 0.2,
            side_max_deg: 50.0,
            back_hip_only_deg: 40.0,
            back_share: 0.25,
            back_max_deg: 95.0,
            front_share: 0.15,
            spine_counter_share: 0.7,
        }
    }
}

/// The pelvis rotation, in the skeleton's local axes (right = −X, up = +Y, forward = +Z), for a
/// leg gesturing towards `dir_in_body` (unit, body frame: right, up, forward). `right_leg`
/// selects the side. Identity for a leg hanging down.
pub fn pelvis_tilt_for_gesture(rule: &TiltRule, dir_in_body: Vec3, right_leg: bool) -> Quat {
    let d = dir_in_body.normalize_or_zero();
    if d == Vec3::ZERO {
        return Quat::IDENTITY;
    }
    let side_sign = if right_leg { 1.0 } else { -1.0 };
    let down = -d.y;
    let outward = (d.x * side_sign).max(0.0);
    let back = (-d.z).max(0.0);
    let front = d.z.max(0.0);
    let horizontal2 = outward * outward + d.z * d.z;
    if horizontal2 < 1e-8 {
        return Quat::IDENTITY;
    }
    // The shares below split the tilt by the gesture's azimuth, which a leg pointing (nearly)
    // straight up or down has none of: fade the tilt out towards that axis so it is continuous
    // in the direction (a leg passing through "up" does not flip the pelvis between a hike and
    // a tuck, or from either to none).
    let near_axis = (horizontal2.sqrt() / NEAR_AXIS_HORIZONTAL).clamp(0.0, 1.0);
    let fade = near_axis * near_axis * (3.0 - 2.0 * near_axis);
    let elevation = |h: f32| h.atan2(down).to_degrees();
    let share = |h: f32| h * h / horizontal2;
    let ramp = |x: f32, lo: f32, span: f32| (x - lo).clamp(0.0, span);

    let side = elevation(outward);
    let hike_deg = (side - rule.side_hip_only_deg).max(rule.side_share * ramp(side, 45.0, 45.0)).min(rule.side_max_deg)
        * share(outward);
    let back_el = elevation(back);
    let forward_deg =
        (back_el - rule.back_hip_only_deg).max(rule.back_share * ramp(back_el, 15.0, 45.0)).min(rule.back_max_deg)
            * share(back);
    let tuck_deg = rule.front_share * ramp(elevation(front), 60.0, 75.0) * share(front);

    // Raise the gesture side: a rotation about +Z lifts +X (the dancer's left).
    let hike = Quat::from_rotation_z((-side_sign * hike_deg).to_radians());
    // Forward tilt: +Y tips towards +Z about +X.
    let pitch = Quat::from_rotation_x((forward_deg - tuck_deg).to_radians());
    Quat::IDENTITY.slerp(hike * pitch, fade)
}

/// Horizontal part of a unit gesture direction (the sine of its angle from the vertical) below
/// which the pelvis tilt fades out: about 15°.
const NEAR_AXIS_HORIZONTAL: f32 = 0.26;

/// The part of a pelvis tilt each of the two spine joints gives back.
pub fn spine_counter(rule: &TiltRule, pelvis_tilt: Quat) -> Quat {
    Quat::IDENTITY.slerp(pelvis_tilt.inverse(), 0.5 * rule.spine_counter_share)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(right: f32, up: f32, forward: f32) -> Vec3 {
        Vec3::new(right, up, forward).normalize()
    }

    /// The leg direction in the tilted pelvis' frame, as elevation from the pelvis' down axis.
    fn elevation_in_pelvis(tilt: Quat, d_body: Vec3) -> f32 {
        let local = Vec3::new(-d_body.x, d_body.y, d_body.z);
        (tilt.inverse() * local).angle_between(-Vec3::Y).to_degrees()
    }

    #[test]
    fn hanging_and_low_gestures_do_not_tilt() {
        let rule = TiltRule::default();
        for d in [body(0.0, -1.0, 0.0), body(1.0, -1.0, 0.0), body(0.0, -1.0, 1.0)] {
            let q = pelvis_tilt_for_gesture(&rule, d, true);
            assert!(q.angle_between(Quat::IDENTITY).to_degrees() < 1e-3, "{d:?}");
        }
    }

    #[test]
    fn side_high_hikes_the_gesture_side_and_brings_the_hip_within_range() {
        let rule = TiltRule::default();
        for right in [true, false] {
            let s = if right { 1.0 } else { -1.0 };
            let d = body(s, 1.0, 0.0); // side high: 135° from hanging
            let q = pelvis_tilt_for_gesture(&rule, d, right);
            // The gesture side's hip (local x = −s·0.1) rises.
            let hip = q * Vec3::new(-s * 0.1, 0.0, 0.0);
            assert!(hip.y > 0.05, "{hip:?}");
            assert!(elevation_in_pelvis(q, d) <= 90.0, "{}", elevation_in_pelvis(q, d));
        }
    }

    #[test]
    fn back_middle_tips_the_pelvis_forward_within_the_hip_extension() {
        let rule = TiltRule::default();
        let d = body(0.0, 0.0, -1.0);
        let q = pelvis_tilt_for_gesture(&rule, d, true);
        let up = q * Vec3::Y;
        assert!(up.z > 0.5, "top of the pelvis goes forward: {up:?}");
        assert!(elevation_in_pelvis(q, d) <= 45.0, "{}", elevation_in_pelvis(q, d));
        let chest = q * spine_counter(&rule, q) * spine_counter(&rule, q) * Vec3::Y;
        assert!(chest.angle_between(Vec3::Y) < up.angle_between(Vec3::Y) * 0.5, "the chest stays nearer upright");
    }

    #[test]
    fn front_high_tucks_a_little() {
        let rule = TiltRule::default();
        let q = pelvis_tilt_for_gesture(&rule, body(0.0, 1.0, 1.0), false);
        let up = q * Vec3::Y;
        assert!(up.z < 0.0 && up.z > -0.25, "{up:?}");
    }
}
