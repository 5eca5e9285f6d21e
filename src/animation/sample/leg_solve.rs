//! One leg's solve: the knee's pole (over the toes, or where a gesture places the knee), the
//! analytic IK, a gesturing foot pointed in line with the shin, and the goal moved and solved
//! again while the foot rolls about its contact or dips below the floor.

use super::foot_roll::FootRoll;
use super::legs::{Leg, LegFrame};
use super::{DancerAnimation, FootState, JointId, Pose, Side, Skeleton, leg_tap};
use crate::animation::feet::wrap_angle;
use crate::pose::fk::{child_world, joint_world};
use crate::pose::ik::{IkError, LimbGoal, LimbIkSolution, least_twist_pole, limb_job, solve_limb};
use crate::pose::skeleton::Limb;
use glam::{Quat, Vec3};

/// How far a gesturing foot points (ankle plantar flexion), radians.
const GESTURE_POINT_RAD: f32 = 1.0;

/// The most solves of one leg in one pass.
const LEG_SOLVES: usize = 6;

/// A foot rotation within this of the wanted one needs no roll, radians.
const ROLL_DONE_RAD: f32 = 1e-4;

/// How far the solve may end short of the goal before the goal counts as out of reach, metres.
const REACH_SHORT_M: f32 = 1e-3;

/// The lowest a foot in the air may bring its sole to the floor before it is lifted, metres.
const AIR_SOLE_MIN_M: f32 = 4e-4;

/// How high over the floor a foot in the air that dipped is lifted to, metres.
const AIR_SOLE_LIFT_M: f32 = 5e-4;

/// What a leg's solve left.
pub(super) struct LegSolve {
    /// The target was out of reach (clamped by the IK).
    pub clamped: bool,
    /// The solve stayed within the joint limits and the foot took its rotation.
    pub within_limits: bool,
    /// A solve set the knee (the IK's own bend, inside its range).
    pub hinge_solved: bool,
    /// The goal lay beyond the leg's reach.
    pub out_of_reach: bool,
    /// The ankle's world rotation and position in the pose as the solve leaves it.
    pub ankle_world: (Quat, Vec3),
}

impl DancerAnimation {
    /// Solves `leg` in `pose` towards its goal, moving the goal while the foot rolls about its
    /// contact `roll` or dips below the floor.
    pub(super) fn solve_leg(&self, frame: &LegFrame, leg: &mut Leg, roll: &FootRoll, pose: &mut Pose) -> LegSolve {
        let skeleton = frame.skeleton;
        let side = leg.side;
        // In the air near a landing or a lift the foot rolls about its contact as a planted
        // one does, in proportion to how near it is (the weight of its reach, 1 on the
        // floor), so it does not jump by the roll when it lands or lifts.
        let roll_weight = if leg.gesture_blend.is_none() { frame.reach_weight[side.index()] } else { 0.0 };
        let mut solve = LegSolve {
            clamped: false,
            within_limits: true,
            hinge_solved: false,
            out_of_reach: false,
            ankle_world: (Quat::IDENTITY, Vec3::ZERO),
        };
        let turn = Quat::from_rotation_y(wrap_angle(leg.state.yaw_rad - frame.yaw_rad));
        for _ in 0..LEG_SOLVES {
            // The knee points over the toes: the least-twist pole of a leg whose rest
            // frame is the pelvis turned to the foot's heading.
            let hip = frame.hip_in_world(side);
            let axis = (leg.goal.end_in_world - hip).normalize_or(Vec3::NEG_Y);
            let pelvis_rot = frame.world_from_pelvis;
            let least = least_twist_pole(pelvis_rot * Vec3::NEG_Y, pelvis_rot * (turn * Vec3::Z), axis);
            leg.goal.pole_in_world = Some(match frame.gestures[side.index()] {
                Some(g) => self.gesture_pole(skeleton, side, g, least, axis, frame.yaw_rad),
                None => least,
            });
            match solve_leg_at_pole(skeleton, pose, side, &leg.goal) {
                Ok(sol) => {
                    solve.hinge_solved = true;
                    solve.clamped = sol.clamped;
                    solve.within_limits = sol.within_limits && sol.end_rot_reached;
                    let short = leg.goal.end_in_world.distance(hip) - sol.end_in_world.distance(hip);
                    solve.out_of_reach = sol.clamped && short.abs() > REACH_SHORT_M;
                }
                Err(_) => solve.clamped = true,
            }
            solve.ankle_world = match leg.gesture_blend {
                Some(blend) => point_gesture_foot(skeleton, leg, blend, pose),
                None => joint_world(skeleton, pose, Limb::leg(side).end),
            };
            let again = if leg.state.planted {
                roll_planted_foot(leg, roll, solve.ankle_world.0)
            } else {
                self.air_foot_goal(frame, leg, roll, roll_weight, solve.ankle_world)
            };
            if !again {
                break;
            }
        }
        solve
    }

    /// In the air: where the foot rolls about its contact (near a landing or lift), or where the
    /// foot the leg could reach dips below the floor, moves the goal (by that much) and returns
    /// true to solve again.
    fn air_foot_goal(
        &self,
        frame: &LegFrame,
        leg: &mut Leg,
        roll: &FootRoll,
        roll_weight: f32,
        ankle_world: (Quat, Vec3),
    ) -> bool {
        let geo = &self.foot_geometry;
        let (got_rot, got_pos) = ankle_world;
        if roll_weight > 0.0
            && let Some(want) = leg.goal.end_rot_in_world
            && got_rot.angle_between(want) >= ROLL_DONE_RAD
        {
            leg.goal.end_in_world =
                leg.state.ankle_in_world.lerp(roll.ankle_for(got_rot), roll_weight) + Vec3::Y * leg.air_lift_m;
            leg.goal.end_rot_in_world = Some(got_rot);
            return true;
        }
        let actual = FootState { ankle_in_world: got_pos, pitch_rad: roll.pitch_of(got_rot), ..leg.state };
        // The toes as far as their joint bends (the pose clamps them there too).
        let ball = if leg.side == Side::Left { JointId::BallL } else { JointId::BallR };
        let limits = frame.skeleton.limits(ball);
        let toes = self.air_toe_bend(frame.flying, leg, actual.pitch_rad).clamp(limits.min_rad.x, limits.max_rad.x);
        let probe = FootState { toe_bend_rad: toes, ..actual };
        let low = geo.lowest_sole_y_turned(&probe, got_rot);
        if low >= AIR_SOLE_MIN_M {
            return false;
        }
        leg.goal.end_in_world.y += AIR_SOLE_LIFT_M - low;
        leg.air_lift_m += AIR_SOLE_LIFT_M - low;
        true
    }
}

/// A planted foot whose limits kept it from the wanted rotation rolls onto its ball or heel:
/// moves the goal there and returns true to solve again.
fn roll_planted_foot(leg: &mut Leg, roll: &FootRoll, got_rot: Quat) -> bool {
    let want = leg.goal.end_rot_in_world.unwrap_or(got_rot);
    if got_rot.angle_between(want) < ROLL_DONE_RAD {
        return false;
    }
    leg.goal.end_in_world = roll.ankle_for(got_rot);
    leg.goal.end_rot_in_world = Some(got_rot);
    true
}

/// Turns the ankle of a gesturing `leg` from the foot's own rotation to pointing in line with
/// the shin (on its ball where it taps), as far as the gesture has blended in (`blend`);
/// returns the ankle's world rotation and position.
fn point_gesture_foot(skeleton: &Skeleton, leg: &Leg, blend: f32, pose: &mut Pose) -> (Quat, Vec3) {
    let Limb { mid: knee, end: ankle_joint, .. } = Limb::leg(leg.side);
    let knee_world = joint_world(skeleton, pose, knee);
    let shin = knee_world.0;
    let pointed = shin * Quat::from_rotation_x(GESTURE_POINT_RAD);
    let touch = leg.tap_touch;
    let pointed = if touch > 0.0 {
        let tapping = Quat::from_rotation_y(leg.state.yaw_rad) * Quat::from_rotation_x(leg_tap::TAP_PITCH_RAD);
        pointed.slerp(tapping, touch)
    } else {
        pointed
    };
    let wanted = leg.foot_rot_before_gesture.slerp(pointed, blend);
    let limits = skeleton.limits(ankle_joint);
    pose.set_local(ankle_joint, limits.clamp(shin.inverse() * wanted));
    child_world(skeleton, pose, knee_world, ankle_joint)
}

/// Solves a leg towards `goal`. With a foot rotation (a foot on or near the floor) the knee goes
/// exactly towards the goal's pole, with no swivel search, so the knee is a continuous function
/// of the goal (a search for the swivel nearest the pole inside the limits jumps whenever the
/// feasible range changes shape); the ankle's limits then clamp the foot's rotation and the caller
/// rolls the foot about its contact. A gesturing leg (no foot rotation) still searches, which
/// keeps the hip inside its limits.
fn solve_leg_at_pole(
    skeleton: &Skeleton,
    pose: &mut Pose,
    side: Side,
    goal: &LimbGoal,
) -> Result<LimbIkSolution, IkError> {
    let limb = Limb::leg(side);
    let mut job = limb_job(skeleton, pose, limb, goal);
    job.search_swivel = goal.end_rot_in_world.is_none();
    let solution = solve_limb(&job)?;
    pose.set_local(limb.root, solution.root_local);
    pose.set_local(limb.mid, solution.mid_local);
    if let Some(end_local) = solution.end_local {
        pose.set_local(limb.end, end_local);
    }
    Ok(solution)
}
