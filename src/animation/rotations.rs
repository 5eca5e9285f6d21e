//! Rotations about a part's long axis in the pose: the chest twists against the pelvis (spine and
//! chest share it), the head turns (neck and head), arm and leg segments twist at their root joint,
//! each kept inside its joint's twist range. Continuous in time: the angles come from eased tracks.

use crate::motion::plan::{DancerPlan, Rotated};
use crate::pose::fk::{Pose, joint_world};
use crate::pose::limits::{from_swing_twist_angles, normalized_or_identity, swing_twist_angles};
use crate::pose::skeleton::{JointId, Side, Skeleton};
use glam::Quat;

/// The rotation of `part` at `t_secs` (radians, right positive; 0 when the score has none).
pub fn rotation_at(plan: &DancerPlan, part: Rotated, t_secs: f64) -> f32 {
    plan.rotations.get(&part).map_or(0.0, |tr| tr.value_at(t_secs, 0.0))
}

/// Adds a twist of `angle_rad` about joint `j`'s bone axis (local Y) to its local rotation, the
/// twist component kept inside the joint's range (a right rotation is −Y on every joint: the
/// skeleton's rest frames are aligned with the world, and the left/right limits mirror).
fn add_twist(skeleton: &Skeleton, pose: &mut Pose, j: JointId, angle_rad: f32) {
    if angle_rad.abs() < 1e-7 {
        return;
    }
    let limits = skeleton.limits(j);
    let mut a = swing_twist_angles(pose.local(j) * Quat::from_rotation_y(-angle_rad));
    a.y = a.y.clamp(limits.min_rad.y, limits.max_rad.y);
    pose.set_local(j, normalized_or_identity(from_swing_twist_angles(a)));
}

/// Twists the spine and the neck: the chest against the pelvis, the head on the shoulders. Call
/// after the tilts are set and before the arms are solved (the arms keep their notated
/// directions).
pub fn twist_spine(plan: &DancerPlan, skeleton: &Skeleton, pose: &mut Pose, t_secs: f64) {
    for (part, joints) in
        [(Rotated::Chest, [JointId::Spine, JointId::Chest]), (Rotated::Head, [JointId::Neck, JointId::Head])]
    {
        // The chest keeps facing where the pelvis turned by displaced hips would take it.
        let hips = if part == Rotated::Chest { rotation_at(plan, Rotated::Pelvis, t_secs) } else { 0.0 };
        let angle = rotation_at(plan, part, t_secs) - hips;
        if angle == 0.0 {
            continue;
        }
        // Shared in proportion to each joint's twist range.
        let range = |j: JointId| {
            let l = skeleton.limits(j);
            (l.max_rad.y - l.min_rad.y).max(0.0)
        };
        let total: f32 = joints.iter().map(|j| range(*j)).sum();
        if total <= 0.0 {
            continue;
        }
        for j in joints {
            add_twist(skeleton, pose, j, angle * range(j) / total);
        }
    }
}

/// Twists the limbs after their IK: whole arm about the shoulder → wrist line, upper arm at the
/// shoulder, forearm at the wrist; a gesturing leg (or thigh) at the hip and a lower leg at the
/// ankle, as far as it has blended into its gesture (`gesturing[side]`, 0..1): a standing leg's
/// rotation is its foot's swivel on the floor (the rule engine turned the footprints), and a leg
/// stepping follows its feet.
pub fn rotate_limbs(plan: &DancerPlan, skeleton: &Skeleton, pose: &mut Pose, t_secs: f64, gesturing: [f32; 2]) {
    for side in [Side::Left, Side::Right] {
        let s = side;
        let (clavicle, shoulder, wrist_j, hip, ankle) = match side {
            Side::Left => (JointId::ClavicleL, JointId::ShoulderL, JointId::WristL, JointId::HipL, JointId::AnkleL),
            Side::Right => (JointId::ClavicleR, JointId::ShoulderR, JointId::WristR, JointId::HipR, JointId::AnkleR),
        };
        let whole = rotation_at(plan, Rotated::Arm(s), t_secs);
        if whole != 0.0 {
            // About the shoulder → wrist line (a right rotation is clockwise looking along it from
            // the shoulder): the hand stays where it is, a bent elbow swings round.
            let (parent_rot, _) = joint_world(skeleton, pose, clavicle);
            let (shoulder_rot, shoulder_pos) = joint_world(skeleton, pose, shoulder);
            let (_, wrist_pos) = joint_world(skeleton, pose, wrist_j);
            let axis = (wrist_pos - shoulder_pos).try_normalize().unwrap_or(glam::Vec3::NEG_Y);
            let turned = normalized_or_identity(
                normalized_or_identity(parent_rot).inverse() * Quat::from_axis_angle(axis, whole) * shoulder_rot,
            );
            pose.set_local(shoulder, skeleton.limits(shoulder).clamp(turned));
        }
        add_twist(skeleton, pose, shoulder, rotation_at(plan, Rotated::UpperArm(s), t_secs));
        add_twist(skeleton, pose, wrist_j, rotation_at(plan, Rotated::Forearm(s), t_secs));
        let weight = gesturing[side.index()].clamp(0.0, 1.0);
        if weight > 0.0 {
            let leg = rotation_at(plan, Rotated::Leg(s), t_secs) + rotation_at(plan, Rotated::Thigh(s), t_secs);
            add_twist(skeleton, pose, hip, leg * weight);
            add_twist(skeleton, pose, ankle, rotation_at(plan, Rotated::LowerLeg(s), t_secs) * weight);
        }
    }
}
