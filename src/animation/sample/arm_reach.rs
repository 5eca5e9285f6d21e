//! How far an arm reaches towards its direction: an arm is directed from its own shoulder, and
//! where the shoulder cannot swing it that way (a high arm across the body, an arm overhead
//! beside a chest tilted to its side, back high) it points as near that direction as the
//! shoulder's range lets it, before the IK solves it. So a straight arm's solves, at a key and on
//! the way between two, are inside the shoulder's swing range, and the limits do not move it after
//! the solve to whichever edge of the range its twist happens to lead. Near straight up over the
//! shoulder and for a bent arm the direction is left to the solve and the limits, as before.

use crate::pose::limits::JointLimits;
use glam::{Quat, Vec3};

/// How far inside the shoulder's range an out-of-range direction is brought, radians (0.2°), so
/// the solve lands inside the limits, not on their edge.
const INSIDE_MARGIN_RAD: f32 = 0.0035;

/// Bend of the elbow from which the wrist's direction is left as it is (a bent arm's wrist
/// reaches where a straight arm cannot), radians (30°); below it the direction is brought into
/// the range the more, the straighter the arm.
const BENT_ARM_RAD: f32 = 0.52;

/// The wrist's direction (world space) for an arm bent by `bend_rad` aiming along `dir_in_world`:
/// a straight arm's [`reachable_arm_dir`], a bent one's as given, in between a blend (so the
/// aim stays continuous as the bend changes), and likewise as given near straight up (see
/// [`NEAR_UP_RAD`]); and whether it differs from `dir_in_world`.
pub(super) fn arm_aim_dir(
    limits: &JointLimits,
    clavicle_rot_in_world: Quat,
    dir_in_world: Vec3,
    bend_rad: f32,
) -> (Vec3, bool) {
    let x = (1.0 - bend_rad.abs() / BENT_ARM_RAD).clamp(0.0, 1.0);
    let straight = x * x * (3.0 - 2.0 * x);
    if straight <= 0.0 {
        return (dir_in_world, false);
    }
    let (reached, moved) = reachable_arm_dir(limits, clavicle_rot_in_world, dir_in_world);
    if !moved {
        return (dir_in_world, false);
    }
    let up = clavicle_rot_in_world * Vec3::Y;
    let from_up_rad = dir_in_world.angle_between(up);
    let y = ((from_up_rad - NEAR_UP_RAD) / (AWAY_FROM_UP_RAD - NEAR_UP_RAD)).clamp(0.0, 1.0);
    let w = straight * y * y * (3.0 - 2.0 * y);
    if w <= 0.0 {
        return (dir_in_world, false);
    }
    (dir_in_world.lerp(reached, w), true)
}

/// Near straight up the swing from hanging is close to a half turn, where the per-axis range
/// of its components says little (an arm a few degrees off vertical towards a diagonal reads as
/// far outside, straight up as inside): within this of up the direction is left to the solve
/// and the joint limits, radians (10°)...
const NEAR_UP_RAD: f32 = 0.175;
/// ...and from this (25°) it is brought into the range in full.
const AWAY_FROM_UP_RAD: f32 = 0.436;

/// The direction (world space) nearest `dir_in_world` that the shoulder with `limits` can swing
/// a straight arm to from hanging, its parent (the clavicle) turned by `clavicle_rot_in_world`,
/// and whether it differs from `dir_in_world`: the swing is clamped as [`JointLimits::clamp`]
/// does it, continuous in the direction except near straight up and where no way inside the
/// range joins the two ends nearest it (back high: over the top or straight back).
pub(super) fn reachable_arm_dir(limits: &JointLimits, clavicle_rot_in_world: Quat, dir_in_world: Vec3) -> (Vec3, bool) {
    let Some(d) = dir_in_world.try_normalize() else { return (dir_in_world, false) };
    let local = (clavicle_rot_in_world.inverse() * d).normalize();
    // The swing from hanging without turning the arm about itself (its twist is 0, inside).
    let swing = Quat::from_rotation_arc(Vec3::NEG_Y, local);
    if limits.violation_rad(swing) <= 0.0 {
        return (dir_in_world, false);
    }
    let margin = Vec3::splat(INSIDE_MARGIN_RAD);
    let inside = JointLimits { min_rad: limits.min_rad + margin, max_rad: limits.max_rad - margin };
    let reached = inside.clamp(swing) * Vec3::NEG_Y;
    let world = (clavicle_rot_in_world * reached).normalize_or(d);
    (world * dir_in_world.length(), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::skeleton::{JointId, Skeleton};

    fn shoulder(side_right: bool) -> JointLimits {
        let sk = Skeleton::default();
        *sk.limits(if side_right { JointId::ShoulderR } else { JointId::ShoulderL })
    }

    #[test]
    fn reachable_directions_stay_and_others_come_inside_the_range() {
        for right in [false, true] {
            let limits = shoulder(right);
            // Forward, side, down, up: inside the range, unchanged.
            let out = if right { -1.0 } else { 1.0 };
            for d in [Vec3::Z, Vec3::new(out, 0.0, 0.0), Vec3::NEG_Y] {
                assert_eq!(reachable_arm_dir(&limits, Quat::IDENTITY, d), (d, false), "{d}");
            }
            // Straight up is left to the solve (the swing's reading is degenerate there).
            assert_eq!(arm_aim_dir(&limits, Quat::IDENTITY, Vec3::Y, 0.0), (Vec3::Y, false));
            // Straight across at shoulder height, and back high: out of range, brought inside.
            for d in [Vec3::new(-out, 0.0, 0.0), Vec3::new(0.0, 1.0, -1.0).normalize()] {
                let (r, moved) = reachable_arm_dir(&limits, Quat::IDENTITY, d);
                assert!(moved, "{d}");
                let q = Quat::from_rotation_arc(Vec3::NEG_Y, r);
                assert_eq!(limits.violation_rad(q), 0.0, "{d} → {r}");
                assert!(r.angle_between(d) < 100f32.to_radians(), "{d} → {r}");
            }
        }
    }

    #[test]
    fn the_arms_aim_moves_continuously_with_the_target() {
        let limits = shoulder(false);
        // A target swept round the body at shoulder height and below it, and from forward over
        // the top to 30° past up (further back the nearest direction in range goes from
        // over the top to straight back: two ends of the range, as a dancer's arm must choose).
        let round = |y: f32| move |a: f32| Vec3::new(a.sin(), y, a.cos()).normalize();
        let sweeps: [(&dyn Fn(f32) -> Vec3, f32); 3] = [
            (&round(0.0), std::f32::consts::TAU),
            (&round(-0.7), std::f32::consts::TAU),
            (&|a: f32| Vec3::new(0.1, a.sin(), a.cos()).normalize(), 120f32.to_radians()),
        ];
        for (n, (sweep, until)) in sweeps.into_iter().enumerate() {
            let mut before = arm_aim_dir(&limits, Quat::IDENTITY, sweep(0.0), 0.0).0;
            for i in 1..=720 {
                let a = i as f32 / 720.0 * until;
                let now = arm_aim_dir(&limits, Quat::IDENTITY, sweep(a), 0.0).0;
                let step = before.angle_between(now).to_degrees();
                assert!(
                    step < 5.0,
                    "sweep {n} step {i} ({}): the arm jumped {step:.1}° from {before} to {now}",
                    sweep(a)
                );
                before = now;
            }
        }
    }
}
