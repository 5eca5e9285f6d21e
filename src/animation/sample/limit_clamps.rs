//! Joint-limit clamps after a limb's solve: a limb's root and hinge brought inside their limits,
//! and whether that moved the limb's end.

use super::{Pose, Side, Skeleton};
use crate::pose::fk::joint_world;
use crate::pose::skeleton::Limb;
use glam::{Quat, Vec3};

/// How far a joint may lie outside its limits before it is clamped, radians.
const LIMIT_TOLERANCE_RAD: f32 = 1e-4;

/// How far the limits may move a limb's end before it counts as out of reach, metres.
pub(super) const LIMIT_MOVE_M: f32 = 1e-3;

/// Brings a limb's root and hinge inside their joint limits (the target was not reachable
/// within them); returns 1 when something had to move. `root_within`: the root is the IK's own
/// answer and within its limits (by its 1e-5 rad, inside the 1e-4 here), so it is not looked
/// at. `hinge_solved`: the hinge is the IK's own answer, a bend about its axis inside the range
/// the hinge's limits give (to rounding, far inside the 1e-4 here), so it is not looked at.
pub(super) fn clamp_to_limits(
    skeleton: &Skeleton,
    pose: &mut Pose,
    limb: Limb,
    root_within: bool,
    hinge_solved: bool,
) -> u8 {
    let mut moved = 0;
    for (j, within) in [(limb.root, root_within), (limb.mid, hinge_solved)] {
        if within {
            continue;
        }
        let limits = skeleton.limits(j);
        let q = pose.local(j);
        if limits.violation_rad(q) > LIMIT_TOLERANCE_RAD {
            pose.set_local(j, limits.clamp(q));
            moved = 1;
        }
    }
    moved
}

/// What the limits did to a leg in the air.
pub(super) struct LegClamp {
    /// 1 when a joint had to move.
    pub clamped_joints: u8,
    /// Whether that moved the foot by more than [`LIMIT_MOVE_M`].
    pub moved: bool,
}

/// Brings the leg on `side` inside its limits (see [`clamp_to_limits`]) and updates
/// `ankle_world`, the ankle's world rotation and position, when it moved.
pub(super) fn clamp_leg_to_limits(
    skeleton: &Skeleton,
    pose: &mut Pose,
    side: Side,
    hinge_solved: bool,
    ankle_world: &mut (Quat, Vec3),
) -> LegClamp {
    let limb = Limb::leg(side);
    let before = ankle_world.1;
    let clamped_joints = clamp_to_limits(skeleton, pose, limb, false, hinge_solved);
    // (Nothing clamped: the pose and the ankle did not move.)
    if clamped_joints > 0 {
        *ankle_world = joint_world(skeleton, pose, limb.end);
    }
    let moved = clamped_joints > 0 && ankle_world.1.distance(before) > LIMIT_MOVE_M;
    LegClamp { clamped_joints, moved }
}
