//! Drives the skeleton onto the floor targets of a [`FloorSample`]: each floor-driven leg solved
//! onto its target (blended from the standing solve by its weight) and lifted clear of the floor,
//! and each hand bearing weight turned towards lying flat as far as the wrist allows.

use super::{FloorSample, forward_of};
use crate::animation::hands::{WristJob, exact_rotation};
use crate::pose::skeleton::{JointId, Skeleton};
use glam::{Quat, Vec3};

/// The lowest a joint centre of a floor-driven leg may be, metres.
const MIN_JOINT_HEIGHT_M: f32 = 0.01;
/// How far a floor-driven leg's goal rises per solve for each metre a joint or the sole dipped
/// below the floor (more than the dip, so it clears in a few solves).
const FLOOR_LIFT_OVERSHOOT: f32 = 1.5;
/// Solves of a floor-driven leg, each lifting its goal by what the lowest point lacks.
const FLOOR_SOLVES: usize = 8;

impl crate::animation::DancerAnimation {
    /// Puts the legs that the floor drives on their targets (knee on its contact point, shin and
    /// instep on the floor), blended by their weights from the standing pose (the toes from the
    /// foot keys `feet`).
    pub(in crate::animation) fn floor_legs(
        &self,
        skeleton: &Skeleton,
        pose: &mut crate::pose::fk::Pose,
        floor: &FloorSample,
        feet: &[(crate::pose::skeleton::Side, crate::animation::feet::FootState); 2],
    ) {
        use crate::pose::ik::{LimbGoal, limb_job, solve_limb};
        use crate::pose::skeleton::{Limb, Side};
        for (side, state) in feet {
            let Some((target, w)) = floor.legs[side.index()] else { continue };
            if w <= 1e-4 {
                continue;
            }
            let (hip_j, knee_j, ankle_j, ball_j) = match side {
                Side::Left => (JointId::HipL, JointId::KneeL, JointId::AnkleL, JointId::BallL),
                Side::Right => (JointId::HipR, JointId::KneeR, JointId::AnkleR, JointId::BallR),
            };
            // The ankle from where the standing solve put it (short of its key where that is out
            // of reach) and the knee's way from the standing solve blend into the floor pose's,
            // so the first floor-driven frames continue the standing ones.
            let [hip, knee, ankle] =
                [hip_j, knee_j, ankle_j].map(|j| crate::pose::fk::joint_world(skeleton, pose, j).1);
            let standing_pole = (knee - (hip + ankle) * 0.5).normalize_or(target.knee_pole_in_world);
            let mut goal = LimbGoal {
                end_in_world: ankle.lerp(target.ankle_in_world, w),
                pole_in_world: Some(
                    standing_pole.lerp(target.knee_pole_in_world, w).normalize_or(target.knee_pole_in_world),
                ),
                end_rot_in_world: None,
            };
            let ankle_local = pose.local(ankle_j);
            // The toes from the foot keys (the pose's may have snapped straight as the foot left
            // the floor), straightening as the floor takes over.
            let ball_local = Quat::from_rotation_x(state.toe_bend_rad);
            // After the first solve the foot keeps its world orientation while the leg lifts it
            // clear of the floor (turning with the shin it would dip again as the shin tilts).
            let mut foot_in_world: Option<Quat> = None;
            for _ in 0..FLOOR_SOLVES {
                // The knee goes where the floor pose puts it: no swivel search away from the
                // pole (it would flip the knee between frames where the hip's limits bind).
                let mut job = limb_job(skeleton, pose, Limb::leg(*side), &goal);
                job.search_swivel = false;
                if let Ok(sol) = solve_limb(&job) {
                    pose.set_local(hip_j, sol.root_local);
                    pose.set_local(knee_j, sol.mid_local);
                }
                let limits = skeleton.limits(ankle_j);
                let flexed = Quat::from_rotation_x(target.ankle_flex_rad);
                let shin_world = crate::pose::fk::joint_world(skeleton, pose, knee_j).0;
                let flat = shin_world.inverse() * Quat::from_rotation_y(target.flat_yaw_rad);
                let wanted = flexed.slerp(flat, target.flat_foot);
                let foot_local = match foot_in_world {
                    Some(foot) => shin_world.inverse() * foot,
                    None => ankle_local.slerp(wanted, w),
                };
                pose.set_local(ankle_j, limits.clamp(foot_local));
                foot_in_world.get_or_insert(crate::pose::fk::joint_world(skeleton, pose, ankle_j).0);
                let toes = Quat::from_rotation_x(target.toe_bend_rad);
                pose.set_local(ball_j, skeleton.limits(ball_j).clamp(ball_local.slerp(toes, w)));
                // Nothing of the leg below the floor: lift the ankle by what the lowest point
                // lacks and solve again.
                let deficit = self.floor_deficit(skeleton, pose, [knee_j, ankle_j, ball_j]);
                if deficit <= 1e-4 {
                    break;
                }
                goal.end_in_world.y += FLOOR_LIFT_OVERSHOOT * deficit;
            }
        }
    }

    /// How far the lowest point of a leg (`[knee, ankle, ball]` joints) lacks its clearance: a
    /// joint centre under [`MIN_JOINT_HEIGHT_M`], or the sole (heel, under the ball, toe tip)
    /// under the floor, metres (negative: clear by that much).
    fn floor_deficit(&self, skeleton: &Skeleton, pose: &crate::pose::fk::Pose, joints: [JointId; 3]) -> f32 {
        let [_, ankle_j, ball_j] = joints;
        let low = joints
            .map(|j| crate::pose::fk::joint_world(skeleton, pose, j).1.y)
            .into_iter()
            .fold(f32::INFINITY, f32::min);
        // The sole too: a foot lying on its instep or still turning onto it must not dip its
        // surface into the floor.
        let fg = &self.foot_geometry;
        let (ankle_rot, ankle_pos) = crate::pose::fk::joint_world(skeleton, pose, ankle_j);
        let (ball_rot, ball_pos) = crate::pose::fk::joint_world(skeleton, pose, ball_j);
        let ball_sole_below_joint = Vec3::new(0.0, -(fg.ankle_height_m + fg.ball_in_ankle.y), 0.0);
        let sole_low = (ankle_pos + ankle_rot * fg.heel_in_ankle)
            .y
            .min((ball_pos + ankle_rot * ball_sole_below_joint).y)
            .min((ball_pos + ball_rot * fg.toe_tip_in_ball()).y);
        (MIN_JOINT_HEIGHT_M - low).max(-sole_low)
    }

    /// A hand that the floor drives lies flat, as far as the wrist allows (the contact height
    /// leaves room for the rest; re-solving the arm here would switch the elbow between frames).
    pub(in crate::animation) fn floor_hand(
        &self,
        skeleton: &Skeleton,
        pose: &mut crate::pose::fk::Pose,
        side: crate::pose::skeleton::Side,
        floor: &FloorSample,
        yaw_rad: f32,
    ) {
        use crate::pose::fk::joint_world;
        use crate::pose::skeleton::Side;
        let Some((_, w)) = floor.arms[side.index()] else { return };
        if w <= 1e-4 {
            return;
        }
        let (elbow_j, wrist_j) = match side {
            Side::Left => (JointId::ElbowL, JointId::WristL),
            Side::Right => (JointId::ElbowR, JointId::WristR),
        };
        let (elbow_rot, _) = joint_world(skeleton, pose, elbow_j);
        let limits = skeleton.limits(wrist_j);
        // Flat: the fingers forward and the palm down, each angle of it as far as the wrist's
        // range allows (a clamp that is continuous in the goal, so the hand never jumps).
        let job = WristJob {
            hand_dir_in_forearm: elbow_rot.inverse() * forward_of(yaw_rad),
            hand_weight: 1.0,
            palm_normal_in_forearm: Some(elbow_rot.inverse() * Vec3::NEG_Y),
            palm_weight: 1.0,
            side,
            limits: *limits,
        };
        let from = pose.local(wrist_j);
        let flat = exact_rotation(&job).map_or(from, |q| limits.clamp(q));
        let local = limits.clamp(from.slerp(flat, w));
        pose.set_local(wrist_j, local);
    }
}
