//! Arm segments as written where the shoulder can take them: the upper arm first (its direction
//! is the elbow pre-sign's own), then the forearm at its bend, turned about the upper arm no
//! further than the upper arm's twist allows (labanotation-rules §2.3; a compromise reported).

use crate::motion::plan::smoothstep;
use crate::pose::limits::JointLimits;
use crate::pose::skeleton::Side;
use glam::{Quat, Vec3};
use std::f32::consts::TAU;

/// A swing counts as inside the shoulder's range up to this violation, radians.
const INSIDE_RAD: f32 = 1e-5;
/// A clamped twist stays this far inside the range, so the IK finds the pole inside, radians.
const TWIST_MARGIN_RAD: f32 = 1e-3;
/// How far past the middle of the twists the shoulder cannot take (towards the inward edge) the
/// forearm changes from the outward edge to the inward one, and the width of the turn on either
/// side over which it straightens there (so the wrist never jumps), radians (30°).
const CUT_PAST_MIDDLE_RAD: f32 = std::f32::consts::FRAC_PI_6;

/// Upper and lower arm directions the shoulder can take, world space, unit length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct HeldSegments {
    /// Upper arm, shoulder → elbow.
    pub upper: Vec3,
    /// Lower arm, elbow → wrist.
    pub lower: Vec3,
}

/// The segments nearest `upper` and `lower` (world space, the notated directions) that the
/// shoulder's `limits` allow, its parent frame turned by `parent_rot`, for the arm on `side`.
///
/// The upper arm keeps its direction where the shoulder's swing can take it, else goes to the
/// nearest the swing allows (the limits' clamp). The forearm keeps its bend from the upper arm
/// and its side of it where the upper arm's twist can put the elbow's hinge there; else it turns
/// about the upper arm to the nearest edge of the twist range **[impl. choice]**: a forearm as
/// near its direction as it goes at the written bend (with the shoulder's ±90° of twist no
/// other bend comes nearer), round the outside of the upper arm unless the inward edge is nearer
/// by more than [`CUT_PAST_MIDDLE_RAD`] — the side [`super::fold_lower_arm`] folds to — and
/// straightened where it changes sides, so it is a continuous function of the directions.
/// Segments the shoulder can take come back bit for bit (`upper` and `lower` are unit vectors).
pub(super) fn held_segments(
    limits: &JointLimits,
    parent_rot: Quat,
    side: Side,
    upper: Vec3,
    lower: Vec3,
) -> HeldSegments {
    let to_local = parent_rot.conjugate();
    let u = (to_local * upper).normalize_or(Vec3::NEG_Y);
    let l = (to_local * lower).normalize_or(u);
    let mut swing = Quat::from_rotation_arc(Vec3::NEG_Y, u);
    let swing_inside = limits.violation_rad(swing) <= INSIDE_RAD;
    if !swing_inside {
        let u_in = (limits.clamp(swing) * Vec3::NEG_Y).normalize_or(Vec3::NEG_Y);
        swing = Quat::from_rotation_arc(Vec3::NEG_Y, u_in);
    }
    // In the swung upper arm's frame (the arm along −Y): twist τ puts the hinge's flexion side
    // at (sin τ, 0, cos τ), so the forearm bent by β lies at (sin β sin τ, −cos β, sin β cos τ).
    let f = swing.conjugate() * l;
    let bend = f.x.hypot(f.z).atan2(-f.y);
    let azimuth = f.x.atan2(f.z);
    let (lo, hi) = (limits.min_rad.y, limits.max_rad.y);
    let twist_inside = (lo..=hi).contains(&azimuth) || bend < 1e-6;
    if swing_inside && twist_inside {
        return HeldSegments { upper, lower };
    }
    let (twist, bend) = if twist_inside {
        (azimuth, bend)
    } else {
        // From the outward edge (a left arm's front turns outward with +twist, a right arm's
        // with −twist), how far past it outwards, along the twists out of range.
        let (edge_out, edge_in) = match side {
            Side::Left => (hi - TWIST_MARGIN_RAD, lo + TWIST_MARGIN_RAD),
            Side::Right => (lo + TWIST_MARGIN_RAD, hi - TWIST_MARGIN_RAD),
        };
        let past = match side {
            Side::Left => (azimuth - hi).rem_euclid(TAU),
            Side::Right => (lo - azimuth).rem_euclid(TAU),
        };
        let outside = (TAU - (hi - lo)).max(0.0);
        let cut = (0.5 * outside + CUT_PAST_MIDDLE_RAD).min(outside);
        let straighten = smoothstep(((past - cut).abs() / CUT_PAST_MIDDLE_RAD).min(1.0));
        (if past < cut { edge_out } else { edge_in }, bend * straighten)
    };
    let forearm = Vec3::new(bend.sin() * twist.sin(), -bend.cos(), bend.sin() * twist.cos());
    let upper_held = if swing_inside { upper } else { parent_rot * swing * Vec3::NEG_Y };
    HeldSegments { upper: upper_held, lower: (parent_rot * swing * forearm).normalize_or(upper_held) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::skeleton::{JointId, Skeleton};

    fn shoulder(side: Side) -> JointLimits {
        let joint = if side == Side::Left { JointId::ShoulderL } else { JointId::ShoulderR };
        *Skeleton::default().limits(joint)
    }

    /// Outward for each side, world space (the skeleton's left is +X).
    fn outward(side: Side) -> Vec3 {
        if side == Side::Left { Vec3::X } else { Vec3::NEG_X }
    }

    #[test]
    fn segments_the_shoulder_can_take_come_back_as_they_are() {
        let c = std::f32::consts::FRAC_1_SQRT_2;
        for side in [Side::Left, Side::Right] {
            // Hanging with the forearm forward; forward with the forearm up; out to the side with
            // the forearm forward.
            let o = outward(side);
            for (u, l) in
                [(Vec3::NEG_Y, Vec3::Z), (Vec3::Z, Vec3::Y), (o, Vec3::Z), (Vec3::NEG_Y, Vec3::new(0.0, c, c))]
            {
                let held = held_segments(&shoulder(side), Quat::IDENTITY, side, u, l);
                assert_eq!((held.upper, held.lower), (u, l), "{side:?} {u} {l}");
            }
        }
    }

    #[test]
    fn an_upper_arm_straight_back_keeps_its_place_and_its_forearm_turns_out_as_near_up_as_it_goes() {
        // Back middle is the shoulder's full extension. A forearm up would need half a turn of
        // twist; a quarter turn outward puts the hinge's flexion side outward, and the forearm
        // at its written bend (90°) points out to the side, 90° from up: no reachable forearm is
        // nearer (each lies at or below the horizontal).
        for side in [Side::Left, Side::Right] {
            let held = held_segments(&shoulder(side), Quat::IDENTITY, side, Vec3::NEG_Z, Vec3::Y);
            assert_eq!(held.upper, Vec3::NEG_Z);
            assert!(held.lower.angle_between(outward(side)) < 0.01, "{side:?}: {}", held.lower);
            // The same turned with the body: the answer turns with it.
            let turn = Quat::from_rotation_y(0.7);
            let turned = held_segments(&shoulder(side), turn, side, turn * Vec3::NEG_Z, turn * Vec3::Y);
            assert!(turned.lower.angle_between(turn * held.lower) < 1e-4, "{side:?}");
        }
    }

    #[test]
    fn a_forearm_turning_round_behind_an_upper_arm_held_back_moves_continuously() {
        // Upper arm back; the forearm at 90° from it sweeps a whole turn about it: it follows
        // inside the twist range, waits at an edge outside it, and straightens where it changes
        // edges, never jumping.
        for side in [Side::Left, Side::Right] {
            let at = |i: i32| {
                let a = i as f32 / 1440.0 * TAU;
                held_segments(&shoulder(side), Quat::IDENTITY, side, Vec3::NEG_Z, Vec3::new(a.sin(), -a.cos(), 0.0))
                    .lower
            };
            let mut before = at(0);
            for i in 1..=1440 {
                let now = at(i);
                let step = before.angle_between(now).to_degrees();
                assert!(step < 2.0, "{side:?} step {i}: the forearm jumped {step:.1}°");
                assert!(now.y <= 1e-3, "{side:?} step {i}: {now} is above the horizontal");
                before = now;
            }
        }
    }

    #[test]
    fn an_upper_arm_beyond_the_shoulders_extension_goes_to_the_nearest_it_allows() {
        // 20° above back, past the shoulder's 90° of extension (the directions between back and
        // up are out of its range): the upper arm stops straight back, its nearest; the forearm
        // written back is then in line with it.
        let (sin, cos) = 20f32.to_radians().sin_cos();
        let held =
            held_segments(&shoulder(Side::Right), Quat::IDENTITY, Side::Right, Vec3::new(0.0, sin, -cos), Vec3::NEG_Z);
        assert!(held.upper.angle_between(Vec3::NEG_Z) < 0.01, "{}", held.upper);
        assert!(held.upper.angle_between(held.lower) < 1e-3, "the forearm in line: {}", held.lower);
    }
}
