//! A hand coming down to the floor stops at it. After an arm and its hand are posed, fingers whose
//! tips would go through the floor bend back at the knuckles (the least turn within their range,
//! up to 80°, that keeps the tips on it); then the lowest of the elbow, wrist and knuckle joints (kept 1 cm above
//! the floor) and the fingertip (kept on or above it) says how far the wrist's goal must rise,
//! and the arm is solved again that much higher, so the elbow bends and the hand rests on the
//! floor instead of passing through it. A hand bearing weight is placed by its support: only the
//! part of it not yet bearing weight rises, and while it lands or lifts off its wrist stays higher
//! by the part of the hand not yet flat (see `ArmFrame::goal`).

use crate::pose::fk::{Pose, child_world};
use crate::pose::skeleton::{EndSite, JointId, Limb, Side, Skeleton};
use glam::{Quat, Vec3};

/// The lowest an arm's joint centre may be, metres.
pub(super) const MIN_ARM_JOINT_HEIGHT_M: f32 = 0.01;
/// The lowest the fingertip may be, metres (the end site is on the finger's surface).
const MIN_FINGERTIP_HEIGHT_M: f32 = 0.0;
/// How far the wrist's goal rises per solve for each metre the hand lacks (more than the lack,
/// so it clears in a few solves).
const HAND_LIFT_OVERSHOOT: f32 = 1.3;
/// The most solves of one arm (the first, and the lifted ones).
pub(super) const HAND_FLOOR_SOLVES: usize = 4;
/// A lack smaller than this needs no further solve, metres.
const LACK_TOLERANCE_M: f32 = 1e-4;

/// How far fingers on the floor curl at the knuckles at most, radians.
const FINGERS_PRESSED_MAX_RAD: f32 = 1.4;
/// The bends tried, from none to the most.
const FINGER_BEND_STEPS: usize = 30;

/// The arm's joints in the world: shoulder, elbow, wrist, knuckles; and the knuckle joint.
fn arm_world(
    skeleton: &Skeleton,
    pose: &Pose,
    limb: Limb,
    clavicle_world: (Quat, Vec3),
) -> ([(Quat, Vec3); 4], JointId) {
    let shoulder = child_world(skeleton, pose, clavicle_world, limb.root);
    let elbow = child_world(skeleton, pose, shoulder, limb.mid);
    let wrist = child_world(skeleton, pose, elbow, limb.end);
    let knuckles_joint = if limb.end == JointId::WristL { JointId::HandL } else { JointId::HandR };
    let knuckles = child_world(skeleton, pose, wrist, knuckles_joint);
    ([shoulder, elbow, wrist, knuckles], knuckles_joint)
}

/// Wrist to fingertip with the hand straight, metres.
pub(super) fn hand_length_m(skeleton: &Skeleton, side: Side) -> f32 {
    let knuckles = if side == Side::Left { JointId::HandL } else { JointId::HandR };
    skeleton.bone_length_m(knuckles) + fingertip(skeleton, knuckles).map_or(0.0, |t| t.offset_in_parent.length())
}

fn fingertip(skeleton: &Skeleton, knuckles_joint: JointId) -> Option<&EndSite> {
    skeleton.end_sites().iter().find(|s| s.parent == knuckles_joint)
}

/// Fingers whose tips go through the floor bend back at the knuckles, as a hand pressed on the
/// floor takes them: by the least turn (within their range, up to [`FINGERS_PRESSED_MAX_RAD`])
/// that keeps the tips on it, or the most where none does. One way of bending only, so the bend
/// grows and shrinks with the hand's height and never switches side between frames. The limits
/// mirror the right side's knuckles: +z bends the left fingers back, −z the right ones.
pub(super) fn fingers_above_floor(skeleton: &Skeleton, pose: &mut Pose, limb: Limb, clavicle_world: (Quat, Vec3)) {
    let ([.., wrist, knuckles], joint) = arm_world(skeleton, pose, limb, clavicle_world);
    let Some(tip) = fingertip(skeleton, joint) else { return };
    if (knuckles.1 + knuckles.0 * tip.offset_in_parent).y >= MIN_FINGERTIP_HEIGHT_M {
        return;
    }
    let (local, limits) = (pose.local(joint), skeleton.limits(joint));
    let back = if joint == JointId::HandL { 1.0 } else { -1.0 };
    let bent = |k: usize| {
        let turn = back * FINGERS_PRESSED_MAX_RAD * k as f32 / FINGER_BEND_STEPS as f32;
        limits.clamp(local * Quat::from_rotation_z(turn))
    };
    let on_floor = |q: Quat| (knuckles.1 + wrist.0 * q * tip.offset_in_parent).y >= MIN_FINGERTIP_HEIGHT_M;
    let k = (1..=FINGER_BEND_STEPS).find(|k| on_floor(bent(*k))).unwrap_or(FINGER_BEND_STEPS);
    pose.set_local(joint, bent(k));
}

/// How far the wrist's goal must rise (beyond any rise already in it) so that no part of the arm
/// `limb` in `pose` goes through the floor; 0 when nothing does. `clavicle_world` is the clavicle's
/// world frame; `free` the part of the hand not bearing weight (1: a gesture).
pub(super) fn hand_floor_lift_m(
    skeleton: &Skeleton,
    pose: &Pose,
    limb: Limb,
    clavicle_world: (Quat, Vec3),
    free: f32,
) -> f32 {
    let ([_, elbow, wrist, knuckles], joint) = arm_world(skeleton, pose, limb, clavicle_world);
    let joints_low = elbow.1.y.min(wrist.1.y).min(knuckles.1.y);
    let mut lack = MIN_ARM_JOINT_HEIGHT_M - joints_low;
    if let Some(tip) = fingertip(skeleton, joint) {
        let tip_y = (knuckles.1 + knuckles.0 * tip.offset_in_parent).y;
        lack = lack.max(MIN_FINGERTIP_HEIGHT_M - tip_y);
    }
    let lack = lack * free;
    if lack > LACK_TOLERANCE_M { HAND_LIFT_OVERSHOOT * lack } else { 0.0 }
}
