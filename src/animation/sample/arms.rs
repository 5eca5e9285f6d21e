//! The arms: each by IK towards its notated direction (or the segments the score gives, as near
//! as the shoulder lets both be), between two keys along their own swivels or the move's
//! compiled swivel path; on the floor towards the hands' supports; then the hand. The clavicle
//! first rises for an arm leaning over the head (`shoulder_rhythm`).

use super::aim::{ArmMove, arm_at};
use super::arm_between::solve_arm_between;
use super::arm_reach::arm_aim_dir;
use super::arm_segments::{HeldSegments, held_segments};
use super::body_frame::BodyFrame;
use super::hand_floor::{
    HAND_FLOOR_SOLVES, MIN_ARM_JOINT_HEIGHT_M, fingers_above_floor, hand_floor_lift_m, hand_length_m,
};
use super::limit_clamps::{LIMIT_MOVE_M, clamp_to_limits};
use super::shoulder_rhythm::{clavicle_elevation_rad, clavicle_local};
use super::{Aim, DancerAnimation, JointId, Pose, SampleReport, SegmentDirs, Side, Skeleton, reach_for};
use crate::animation::floor::{FREE_WRIST_MIN_M, FloorSample};
use crate::motion::plan::{LimbId, world_from_body};
use crate::pose::fk::{child_world, joint_world};
use crate::pose::ik::{IkError, LimbGoal, LimbIkSolution, solve_limb_in_pose_from};
use crate::pose::skeleton::Limb;
use glam::{Quat, Vec3};

/// The shortest reach of an arm towards a direction (a folded arm's wrist stays this far from
/// the shoulder), metres.
pub(super) const MIN_ARM_REACH_M: f32 = 0.12;

/// How far the solve may end short of the goal before the goal counts as out of reach, metres.
const REACH_SHORT_M: f32 = 1e-3;

/// One arm in the pose before its solve. Nothing the solve does turns the clavicle or the joints
/// above it: its world frame serves every solve of this arm and each walk down to the wrist.
struct ArmFrame<'a> {
    skeleton: &'a Skeleton,
    side: Side,
    /// Facing, radians.
    yaw_rad: f32,
    limb: Limb,
    /// Upper and lower arm lengths, metres.
    upper_m: f32,
    lower_m: f32,
    /// The clavicle's world rotation and position.
    clavicle_world: (Quat, Vec3),
    /// The shoulder joint, world space.
    shoulder_in_world: Vec3,
    /// The body on its floor supports.
    floor: Option<&'a FloorSample>,
    /// How far the wrist's goal rises so the hand stops at the floor, metres.
    floor_lift_m: f32,
}

/// Segments the score gives, as near as the shoulder lets both be, and as given, world space.
struct HeldArm {
    held: HeldSegments,
    upper_in_world: Vec3,
    lower_in_world: Vec3,
}

impl ArmFrame<'_> {
    /// The segments `segs` (body frame) as near as the shoulder lets both be (the upper arm's
    /// direction first), world space.
    fn held(&self, segs: SegmentDirs) -> HeldArm {
        let (u, l) =
            (world_from_body(segs.upper_in_body, self.yaw_rad), world_from_body(segs.lower_in_body, self.yaw_rad));
        HeldArm {
            held: held_segments(self.skeleton.limits(self.limb.root), self.clavicle_world.0, self.side, u, l),
            upper_in_world: u,
            lower_in_world: l,
        }
    }

    /// The wrist's goal for `aim`.
    fn goal(&self, aim: Aim) -> LimbGoal {
        self.goal_reaching(aim).0
    }

    /// The wrist's goal for `aim`, and where the shoulder's range kept the arm from its
    /// direction (it then points as near it as it can, see [`arm_aim_dir`]), where the
    /// wrist would be in that direction.
    fn goal_reaching(&self, aim: Aim) -> (LimbGoal, Option<Vec3>) {
        let shoulder_pos = self.shoulder_in_world;
        let mut wanted = None;
        let goal = match aim.segments_in_body {
            Some(segs) => {
                let held = self.held(segs).held;
                let elbow_pos = shoulder_pos + held.upper * self.upper_m;
                let wrist_pos = elbow_pos + held.lower * self.lower_m;
                LimbGoal {
                    end_in_world: wrist_pos,
                    pole_in_world: Some(elbow_pos - shoulder_pos),
                    end_rot_in_world: None,
                }
            }
            None => {
                let reach = reach_for(self.upper_m, self.lower_m, aim.bend_rad) * aim.reach_scale;
                let mut dir_w = world_from_body(aim.dir_in_body, self.yaw_rad);
                if dir_w.length_squared() < 1e-8 {
                    dir_w = -Vec3::Y;
                }
                let reach = reach.max(MIN_ARM_REACH_M);
                let limits = self.skeleton.limits(self.limb.root);
                let (reachable, limited) = arm_aim_dir(limits, self.clavicle_world.0, dir_w, aim.bend_rad);
                if limited {
                    wanted = Some(shoulder_pos + dir_w.normalize() * reach);
                }
                LimbGoal {
                    end_in_world: shoulder_pos + reachable.normalize() * reach,
                    pole_in_world: None,
                    end_rot_in_world: None,
                }
            }
        };
        // On the floor a free hand hangs above it; a hand bearing weight goes to its contact.
        let goal = match self.floor {
            Some(_) => {
                let e = goal.end_in_world;
                LimbGoal { end_in_world: Vec3::new(e.x, e.y.max(FREE_WRIST_MIN_M), e.z), ..goal }
            }
            None => goal,
        };
        let goal = match self.floor.and_then(|f| f.arms[self.side.index()]) {
            Some((a, w)) => {
                // A hand not yet flat on the floor (landing or lifting) keeps its wrist higher by
                // the part of the hand still hanging, so the fingers land last and leave first.
                let contact = a.wrist_in_world + Vec3::Y * (1.0 - w) * hand_length_m(self.skeleton, self.side);
                let end = goal.end_in_world.lerp(contact, w);
                let soft = soft_reach(self.shoulder_in_world, end, self.upper_m + self.lower_m);
                LimbGoal { end_in_world: end.lerp(soft, w), ..goal }
            }
            None => goal,
        };
        let lift = Vec3::Y * self.floor_lift_m;
        (LimbGoal { end_in_world: goal.end_in_world + lift, ..goal }, wanted.map(|w| w + lift))
    }

    /// The wrist's world rotation and position in `pose`.
    fn wrist_world(&self, pose: &Pose) -> (Quat, Vec3) {
        let skeleton = self.skeleton;
        let shoulder_world = child_world(skeleton, pose, self.clavicle_world, self.limb.root);
        child_world(skeleton, pose, child_world(skeleton, pose, shoulder_world, self.limb.mid), self.limb.end)
    }
}

impl DancerAnimation {
    /// Poses both arms and hands at `t`. Nothing here turns the chest or the joints above it: its
    /// world frame serves both clavicles.
    pub(super) fn pose_arms(
        &self,
        skeleton: &Skeleton,
        t: f64,
        frame: &BodyFrame,
        pose: &mut Pose,
        report: &mut SampleReport,
    ) {
        let chest_world = joint_world(skeleton, pose, JointId::Chest);
        for side in [Side::Left, Side::Right] {
            let limb = Limb::arm(side);
            let limb_id = if side == Side::Left { LimbId::ArmLeft } else { LimbId::ArmRight };
            let aim_and_ends = arm_at(
                self.plan.limbs.get(&limb_id),
                t,
                side,
                skeleton.limits(limb.root),
                &self.arm_bows[side.index()],
            );
            // The clavicle lifts an arm over the head (not one whose hand bears weight).
            let aim = aim_and_ends.0;
            let dir_in_body = aim.segments_in_body.map_or(aim.dir_in_body, |s| s.upper_in_body);
            let bearing = frame.floor.as_ref().and_then(|f| f.arms[side.index()]).map_or(0.0, |a| a.1);
            let (upper_m, lower_m) = (skeleton.bone_length_m(limb.mid), skeleton.bone_length_m(limb.end));
            let reach_share = match aim.segments_in_body {
                Some(_) => 1.0,
                None => reach_for(upper_m, lower_m, aim.bend_rad) * aim.reach_scale / (upper_m + lower_m),
            };
            let dir_in_chest = chest_world.0.inverse() * world_from_body(dir_in_body, frame.yaw_rad);
            let elevation_rad = clavicle_elevation_rad(side, dir_in_chest, reach_share) * (1.0 - bearing);
            pose.set_local(limb.parent, clavicle_local(side, elevation_rad));
            let clavicle_world = child_world(skeleton, pose, chest_world, limb.parent);
            let (_, shoulder_in_world) = child_world(skeleton, pose, clavicle_world, limb.root);
            let mut arm = ArmFrame {
                skeleton,
                side,
                yaw_rad: frame.yaw_rad,
                limb,
                upper_m,
                lower_m,
                clavicle_world,
                shoulder_in_world,
                floor: frame.floor.as_ref(),
                floor_lift_m: 0.0,
            };
            // The hand stops at the floor: solved again higher while any of it goes through
            // (which it cannot when the whole arm, hanging straight down, ends above it).
            let arm_and_hand_m = arm.upper_m + arm.lower_m + hand_length_m(skeleton, side);
            let may_reach_floor = shoulder_in_world.y - arm_and_hand_m < MIN_ARM_JOINT_HEIGHT_M;
            let before = *report;
            let knuckles = if side == Side::Left { JointId::HandL } else { JointId::HandR };
            let knuckles_local = pose.local(knuckles);
            for _ in 0..HAND_FLOOR_SOLVES {
                *report = before;
                pose.set_local(knuckles, knuckles_local);
                self.pose_arm(&arm, t, aim_and_ends, pose, report);
                report.clamped_limbs += self.pose_hand(skeleton, pose, clavicle_world, side, t, frame.yaw_rad);
                if let Some(f) = &frame.floor {
                    self.floor_hand(skeleton, pose, side, f, frame.yaw_rad);
                }
                if !may_reach_floor {
                    break;
                }
                fingers_above_floor(skeleton, pose, limb, clavicle_world);
                let lift = hand_floor_lift_m(skeleton, pose, limb, clavicle_world, 1.0 - bearing);
                if lift <= 0.0 {
                    break;
                }
                arm.floor_lift_m += lift;
            }
        }
    }

    /// Solves one arm at `t` and clamps it to its limits.
    fn pose_arm(
        &self,
        arm: &ArmFrame,
        t: f64,
        (aim, ends): (Aim, Option<ArmMove>),
        pose: &mut Pose,
        report: &mut SampleReport,
    ) {
        let (skeleton, side) = (arm.skeleton, arm.side);
        let limb_id = if side == Side::Left { LimbId::ArmLeft } else { LimbId::ArmRight };
        let (goal, wanted) = arm.goal_reaching(aim);
        let limited_dir = wanted.is_some();
        // Every solve but the one between two keys' own swivels (which sets the upper arm's
        // twist itself) leaves the shoulder as the IK solved it.
        let shoulder_as_solved = !matches!(ends, Some(ArmMove { keys_give_segments: true, .. }));
        let solved = self.solve_arm(arm, t, limb_id, &goal, ends, pose);
        let hinge_solved = solved.is_ok();
        let shoulder_pos = arm.shoulder_in_world;
        let (mut clamped, out_of_reach, within_limits) = match solved {
            // Out of reach: the target's distance from the shoulder is one the arm cannot take.
            Ok(sol) => {
                let short = goal.end_in_world.distance(shoulder_pos) - sol.end_in_world.distance(shoulder_pos);
                (!sol.reached, sol.clamped && short.abs() > REACH_SHORT_M, sol.within_limits)
            }
            Err(_) => (true, true, false),
        };
        // Limits that move the hand by more than a millimetre count as out of reach.
        let before = arm.wrist_world(pose).1;
        // (A shoulder the IK left within its limits needs no second look.)
        let limited = clamp_to_limits(skeleton, pose, arm.limb, shoulder_as_solved && within_limits, hinge_solved);
        let after = if limited > 0 { arm.wrist_world(pose).1 } else { before };
        let moved = after.distance(before) > LIMIT_MOVE_M;
        // An arm the shoulder's range kept from its direction counts as clamped and limited.
        clamped |= moved || limited_dir;
        report.clamped_limbs += u8::from(clamped) + limited;
        let i = side.index();
        report.arms_clamped[i] = clamped;
        report.arms_out_of_reach[i] = out_of_reach;
        report.arms_limited[i] = moved || limited_dir || !within_limits;
        report.arms_miss_m[i] = after.distance(wanted.unwrap_or(goal.end_in_world));
        if let Some(h) = aim.segments_in_body.map(|segs| arm.held(segs)) {
            report.arms_upper_held_rad[i] = h.held.upper.angle_between(h.upper_in_world);
            report.arms_lower_held_rad[i] = h.held.lower.angle_between(h.lower_in_world);
        }
    }

    /// Solves the arm towards `goal`: between two keys, their own swivels blended (where both
    /// give both segments) or the move's compiled swivel path (of the key it ends at); elsewhere
    /// by the IK's own swivel.
    fn solve_arm(
        &self,
        arm: &ArmFrame,
        t: f64,
        limb_id: LimbId,
        goal: &LimbGoal,
        ends: Option<ArmMove>,
        pose: &mut Pose,
    ) -> Result<LimbIkSolution, IkError> {
        let path = |s: f32| {
            let track = self.plan.limbs.get(&limb_id)?;
            let key = track.keys.partition_point(|k| k.t_end_secs <= t);
            self.arm_swivels.path(arm.side, key).map(|p| p.at(s))
        };
        let between = match ends {
            Some(m) if m.keys_give_segments => Some((m, None)),
            Some(m) => path(m.s).map(|p| (m, Some(p))),
            None => None,
        };
        match between {
            Some((m, path)) => solve_arm_between(
                arm.skeleton,
                pose,
                arm.clavicle_world,
                arm.side,
                goal,
                &arm.goal(m.from),
                &arm.goal(m.to),
                m.s,
                path,
            ),
            None => solve_limb_in_pose_from(arm.skeleton, pose, arm.limb, goal, arm.clavicle_world),
        }
    }
}

/// Where the arm straightens, as a share of its length, a wrist goal farther than that is drawn
/// in smoothly (so the elbow never snaps straight as the shoulder moves away from a hand on the
/// floor).
const SOFT_REACH_SHARE: f32 = 0.94;

/// `wrist` drawn towards `shoulder` so that the distance approaches `arm_m` smoothly and never
/// reaches it (soft IK): unchanged nearer than [`SOFT_REACH_SHARE`] of the arm, continuous with a
/// continuous slope beyond.
fn soft_reach(shoulder: Vec3, wrist: Vec3, arm_m: f32) -> Vec3 {
    let d = wrist - shoulder;
    let len = d.length();
    let soft = SOFT_REACH_SHARE * arm_m;
    let room = arm_m - soft;
    if len <= soft || room <= 1e-6 {
        return wrist;
    }
    let eased = soft + room * (1.0 - (-(len - soft) / room).exp());
    shoulder + d * (eased / len)
}
