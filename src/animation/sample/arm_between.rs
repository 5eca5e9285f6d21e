//! An arm between two keys: the elbow's swivel (and the upper arm's twist) turned from the one
//! key's to the other's, and a forearm folded past its limit round the outside of the upper arm.

use crate::pose::fk::Pose;
use crate::pose::ik::{IkError, LimbGoal, LimbIkSolution, least_twist_pole, limb_job, solve_limb};
use crate::pose::limits::{from_swing_twist_angles, swing_twist_angles};
use crate::pose::skeleton::{Limb, Side, Skeleton};
use glam::{Quat, Vec3};

/// Solves an arm moving from the key goal `from` to the key goal `to` (blend `s`), towards `goal`:
/// each key's swivel is the one the IK chooses for that key on its own (the limit-respecting
/// swivel nearest the pole), and on the way the swivel turns from the one to the other, so it is
/// a continuous function of time even where the nearest limit-respecting swivel of the blended
/// goal would jump from one side to the other. Swivels are measured from the least-twist pole of
/// an arm at rest pointing out to the side, which is continuous everywhere but straight across
/// the chest (where no arm goes).
pub(super) fn solve_arm_between(
    skeleton: &Skeleton,
    pose: &mut Pose,
    side: Side,
    goal: &LimbGoal,
    from: &LimbGoal,
    to: &LimbGoal,
    s: f32,
) -> Result<LimbIkSolution, IkError> {
    let limb = Limb::arm(side);
    let mut job = limb_job(skeleton, pose, limb, goal);
    let out = job.outward_in_world.normalize_or(job.parent_rot_in_world * Vec3::X);
    let down = job.parent_rot_in_world * Vec3::NEG_Y;
    let reference = |axis: Vec3| least_twist_pole(out, down, axis).normalize_or(down);
    let axis_to = |g: &LimbGoal| (g.end_in_world - job.root_in_world).normalize_or(down);
    let limits = skeleton.limits(limb.root);
    let key_swivel = |g: &LimbGoal| {
        let key_job = limb_job(skeleton, pose, limb, g);
        solve_limb(&key_job).map(|sol| {
            let axis = axis_to(g);
            // The side the elbow sticks out to (⟂ the hinge and the shoulder → wrist axis).
            let pole = axis.cross(key_job.parent_rot_in_world * sol.root_local * key_job.hinge_axis_in_local);
            let r = reference(axis);
            let twist = swing_twist_angles(sol.root_local).y.clamp(limits.min_rad.y, limits.max_rad.y);
            (axis.dot(r.cross(pole)).atan2(r.dot(pole)), twist)
        })
    };
    let ((phi_from, twist_from), (phi_to, twist_to)) = (key_swivel(from)?, key_swivel(to)?);
    let turn = (phi_to - phi_from + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
    let phi = phi_from + turn * s;
    let axis = axis_to(goal);
    job.pole_in_world = Some(Quat::from_axis_angle(axis, phi) * reference(axis));
    job.search_swivel = false;
    let solution = solve_limb(&job)?;
    // The upper arm turns about itself from the one key's twist to the other's (both inside the
    // shoulder's range), never through the half turn where the nearest limit would flip sides.
    let mut angles = swing_twist_angles(solution.root_local);
    angles.y = twist_from + (twist_to - twist_from) * s;
    pose.set_local(limb.root, from_swing_twist_angles(angles));
    pose.set_local(limb.mid, solution.mid_local);
    Ok(solution)
}

/// `lower` turned towards `upper` so the two make at most `max_bend_rad`, like
/// [`crate::motion::rules::limit_bend`], but leaning out to the arm's side as well as to the
/// front, so an upper arm sweeping past the far side of a held forearm in the forearm's own
/// plane (the upper arm from down to back, the forearm up) folds it round the outside.
pub(super) fn fold_lower_arm(upper: Vec3, lower: Vec3, max_bend_rad: f32, side: Side) -> Vec3 {
    let (u, l) = (upper.normalize_or(-Vec3::Y), lower.normalize_or(-Vec3::Y));
    let bend = u.angle_between(l);
    if bend <= max_bend_rad {
        return l;
    }
    let outward = if side == Side::Left { -1.0 } else { 1.0 };
    let hint = Vec3::new(0.6 * outward, 0.3, 1.0);
    let front = (hint - u * hint.dot(u)).normalize_or(Vec3::Y);
    let lean = 0.5 * (bend - max_bend_rad) / (std::f32::consts::PI - max_bend_rad).max(1e-6);
    let side_part = l - u * l.dot(u);
    let perp = (side_part + front * lean).normalize_or(front);
    u * max_bend_rad.cos() + perp * max_bend_rad.sin()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The upper arm swept from down to back in the body's middle plane while the forearm keeps
    /// pointing up and forward (elbow_swing.lbn): the plain fold flips the forearm from the back
    /// of the upper arm to its front where the two line up; this one goes round the outside.
    #[test]
    fn a_forearm_held_while_the_upper_arm_sweeps_past_it_folds_round_continuously() {
        let max = crate::motion::rules::MAX_SEGMENT_BEND_RAD;
        let held = Vec3::new(0.0, 35f32.to_radians().cos(), 35f32.to_radians().sin());
        for side in [Side::Left, Side::Right] {
            let upper_at = |i: i32| {
                let a = (i as f32 / 200.0) * std::f32::consts::FRAC_PI_2;
                Vec3::new(0.0, -a.cos(), -a.sin())
            };
            let mut before = fold_lower_arm(upper_at(0), held, max, side);
            assert!(before.angle_between(held) < 1e-4, "inside the limit the forearm stays");
            for i in 1..=200 {
                let u = upper_at(i);
                let l = fold_lower_arm(u, held, max, side);
                assert!(u.angle_between(l) <= max + 1e-3, "{side:?} step {i}: bent past the limit");
                let step = before.angle_between(l).to_degrees();
                assert!(step < 3.0, "{side:?} step {i}: the forearm jumped {step:.1}°");
                // Round the outside: never towards the other side of the body.
                let outward = if side == Side::Left { -1.0 } else { 1.0 };
                assert!(l.x * outward >= -1e-4, "{side:?} step {i}: folded inwards {l}");
                before = l;
            }
            assert!(before.angle_between(held) < 1e-4, "upper arm back: the forearm is where it was held");
        }
    }
}
