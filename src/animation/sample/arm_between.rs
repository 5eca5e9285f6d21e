//! An arm between two keys: the elbow's swivel (and the upper arm's twist) turned from the one
//! key's to the other's, and a forearm folded past its limit round the outside of the upper arm.

use crate::pose::fk::Pose;
use crate::pose::ik::{IkError, LimbGoal, LimbIkSolution, least_twist_pole, limb_job_from, solve_limb};
use crate::pose::limits::{from_swing_twist_angles, swing_twist_angles};
use crate::pose::skeleton::{Limb, Side, Skeleton};
use glam::{Quat, Vec3};

/// The swivel of an arm solved towards `goal`, measured from the least-twist pole of an arm at
/// rest pointing out to the side (continuous everywhere but straight across the chest, where no
/// arm goes), and its upper arm's twist (inside the shoulder's range). With `near_rad` the IK
/// takes the in-range swivel nearest that one, else the one it chooses for the goal on its own.
/// `clavicle_world` is the clavicle's world rotation and position in the pose.
pub(super) fn arm_swivel(
    skeleton: &Skeleton,
    clavicle_world: (Quat, Vec3),
    side: Side,
    goal: &LimbGoal,
    near_rad: Option<f32>,
) -> Result<(f32, f32), IkError> {
    let (phi, root_local) = arm_swivel_solved(skeleton, clavicle_world, side, goal, near_rad)?;
    let limits = skeleton.limits(Limb::arm(side).root);
    let twist = swing_twist_angles(root_local).y.clamp(limits.min_rad.y, limits.max_rad.y);
    Ok((phi, twist))
}

/// The swivel of [`arm_swivel`] alone, radians.
pub(super) fn arm_swivel_angle(
    skeleton: &Skeleton,
    clavicle_world: (Quat, Vec3),
    side: Side,
    goal: &LimbGoal,
    near_rad: Option<f32>,
) -> Result<f32, IkError> {
    Ok(arm_swivel_solved(skeleton, clavicle_world, side, goal, near_rad)?.0)
}

/// The swivel of [`arm_swivel`] and the shoulder's local rotation the solve gave.
fn arm_swivel_solved(
    skeleton: &Skeleton,
    clavicle_world: (Quat, Vec3),
    side: Side,
    goal: &LimbGoal,
    near_rad: Option<f32>,
) -> Result<(f32, Quat), IkError> {
    let mut job = limb_job_from(skeleton, Limb::arm(side), goal, clavicle_world);
    let axis = swivel_axis(&job, goal);
    let reference = swivel_reference(&job, axis);
    if let Some(phi) = near_rad {
        job.pole_in_world = Some(Quat::from_axis_angle(axis, phi) * reference);
    }
    let sol = solve_limb(&job)?;
    // The side the elbow sticks out to (⟂ the hinge and the shoulder → wrist axis).
    let pole = axis.cross(job.parent_rot_in_world * sol.root_local * job.hinge_axis_in_local);
    Ok((axis.dot(reference.cross(pole)).atan2(reference.dot(pole)), sol.root_local))
}

/// The shoulder → wrist axis of `goal`, world space.
pub(super) fn swivel_axis(job: &crate::pose::ik::LimbIkJob, goal: &LimbGoal) -> Vec3 {
    let down = job.parent_rot_in_world * Vec3::NEG_Y;
    (goal.end_in_world - job.root_in_world).normalize_or(down)
}

/// Where swivel 0 puts the elbow for an arm along `axis` (see [`arm_swivel`]).
pub(super) fn swivel_reference(job: &crate::pose::ik::LimbIkJob, axis: Vec3) -> Vec3 {
    let out = job.outward_in_world.normalize_or(job.parent_rot_in_world * Vec3::X);
    let down = job.parent_rot_in_world * Vec3::NEG_Y;
    least_twist_pole(out, down, axis).normalize_or(down)
}

/// The shortest turn from `a` to `b`, radians in [−π, π).
pub(super) fn wrap_turn(a: f32, b: f32) -> f32 {
    (b - a + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI
}

/// How far a swivel path is moved towards a key's own swivel that is `off_rad` from the path's
/// end: all of a small difference (the chest turned since the path was compiled at rest),
/// fading to none at [`KEY_OFFSET_FADE_RAD`], where the key's swivel has turned over to the
/// other side of the shoulder's range and following it would turn the elbow over mid-move.
fn key_offset(off_rad: f32) -> f32 {
    off_rad * (1.0 - off_rad.abs() / KEY_OFFSET_FADE_RAD).clamp(0.0, 1.0)
}

/// See [`key_offset`], radians.
const KEY_OFFSET_FADE_RAD: f32 = 0.6;

/// Solves an arm moving from the key goal `from` to the key goal `to` (blend `s`), towards `goal`:
/// each key's swivel is the one the IK chooses for that key on its own, and on the way the swivel
/// turns from the one to the other, so it is a continuous function of time even where the
/// nearest limit-respecting swivel of the blended goal would jump from one side to the other.
/// With a compiled `path` (`(swivel at the first key, swivel now)` of the move, see
/// [`super::swivel_path`]) the swivel follows it through the shoulder's range, offset so it
/// starts and ends at the keys' own; without one it turns the shortest way. `clavicle_world` is
/// the clavicle's world rotation and position in `pose`.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_arm_between(
    skeleton: &Skeleton,
    pose: &mut Pose,
    clavicle_world: (Quat, Vec3),
    side: Side,
    goal: &LimbGoal,
    from: &LimbGoal,
    to: &LimbGoal,
    s: f32,
    path: Option<(f32, f32, f32)>,
) -> Result<LimbIkSolution, IkError> {
    let limb = Limb::arm(side);
    let mut job = limb_job_from(skeleton, limb, goal, clavicle_world);
    // Along a path, each key's swivel is the in-range one nearest the path's end there (a key at
    // the edge of the shoulder's range has two, and the IK's own choice between them can turn
    // over as the chest moves during the move).
    let ((phi_from, twist_from), (phi_to, twist_to)) = (
        arm_swivel(skeleton, clavicle_world, side, from, path.map(|p| p.0))?,
        arm_swivel(skeleton, clavicle_world, side, to, path.map(|p| p.1))?,
    );
    let phi = match path {
        // (path at s = 0, at s = 1, now): the path, moved so its ends are the keys' swivels.
        Some((path_from, path_to, path_now)) => {
            let (off_from, off_to) =
                (key_offset(wrap_turn(path_from, phi_from)), key_offset(wrap_turn(path_to, phi_to)));
            path_now + off_from + (off_to - off_from) * s
        }
        None => phi_from + wrap_turn(phi_from, phi_to) * s,
    };
    let axis = swivel_axis(&job, goal);
    job.pole_in_world = Some(Quat::from_axis_angle(axis, phi) * swivel_reference(&job, axis));
    job.search_swivel = false;
    let mut solution = solve_limb(&job)?;
    if path.is_some() && !solution.within_limits {
        // Between two of the path's steps its swivel can leave a narrow way through the range:
        // the in-range swivel nearest it instead, which the limits then leave alone.
        job.search_swivel = true;
        solution = solve_limb(&job).ok().filter(|s| s.within_limits).unwrap_or(solution);
    }
    pose.set_local(limb.mid, solution.mid_local);
    // Following a swivel path, the upper arm's twist is the solve's own (interpolating it
    // between the keys as below made more pops).
    if path.is_some() {
        pose.set_local(limb.root, solution.root_local);
        return Ok(solution);
    }
    // The upper arm turns about itself from the one key's twist to the other's (both inside the
    // shoulder's range), never through the half turn where the nearest limit would flip sides.
    let mut angles = swing_twist_angles(solution.root_local);
    angles.y = twist_from + (twist_to - twist_from) * s;
    pose.set_local(limb.root, from_swing_twist_angles(angles));
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
