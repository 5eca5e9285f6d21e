//! Sampling: a compiled [`Animation`](super::Animation) at time `t_secs` → a [`Pose`] per dancer.
//!
//! One step per file: the body frame (pelvis from the centre-of-mass path, the facing track,
//! the gesture tilt and the floor supports), the torso and head, the legs (foot keys and
//! gestures, analytic IK, the pelvis drop that keeps planted feet within reach, the foot's roll
//! and the toes), the arms (IK towards the notated direction) and the hands. Deterministic and
//! allocation-free per call.

use super::DancerAnimation;
use super::feet::{FootState, ramp};
use super::pelvis_tilt::pelvis_tilt_for_gesture;
use crate::motion::plan::{Foot, LimbId, smoothstep, world_from_body};
use crate::pose::fk::{Pose, joint_world};
use crate::pose::skeleton::{JointId, Side, Skeleton};
use glam::{Quat, Vec3};

mod aim;
mod arm_between;
mod arm_bow;
mod arm_reach;
mod arm_segments;
mod arms;
mod blend;
mod body_frame;
mod foot_roll;
mod hand_floor;
mod leg_gesture;
mod leg_solve;
mod leg_tap;
mod legs;
mod limit_clamps;
mod shoulder_rhythm;
mod swivel_path;
mod toes;
mod torso;
use aim::arm_move_aim;
use aim::{Aim, SegmentDirs, limb_at};
pub use arm_bow::ArmBows;
use blend::blend_dirs;
pub use swivel_path::ArmSwivels;

/// What sampling one dancer noticed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SampleReport {
    /// Limbs whose target was out of reach (clamped by the IK).
    pub clamped_limbs: u8,
    /// How far the pelvis was lowered so planted feet could reach the floor, metres.
    pub pelvis_drop_m: f32,
    /// Whether the left and right leg's target was out of reach (clamped), in that order.
    pub legs_clamped: [bool; 2],
    /// Whether the left and right arm's target was out of reach (clamped), in that order.
    pub arms_clamped: [bool; 2],
    /// Per arm (left, right): the target lay beyond the arm's reach.
    pub arms_out_of_reach: [bool; 2],
    /// Per arm: the joint limits stopped it (no swivel kept them, or they moved the hand).
    pub arms_limited: [bool; 2],
    /// Per arm: how far the wrist ended from its target, metres.
    pub arms_miss_m: [f32; 2],
    /// Per arm: how far the shoulder's range held the upper arm from the direction the score
    /// gives it (an elbow pre-sign), radians; the wrist target is then the held one.
    pub arms_upper_held_rad: [f32; 2],
    /// Per arm: how far the elbow's hinge and the upper arm's twist held the lower arm from the
    /// direction the score gives it (a wrist pre-sign), radians.
    pub arms_lower_held_rad: [f32; 2],
    /// Per leg (left, right): the target lay beyond the leg's reach.
    pub legs_out_of_reach: [bool; 2],
    /// Per leg: the joint limits stopped it.
    pub legs_limited: [bool; 2],
    /// Per leg: how far the ankle ended from where the foot keys (or the gesture) put it, metres.
    pub legs_miss_m: [f32; 2],
    /// Per foot: planted on the floor at this time (by the footprints).
    pub feet_planted: [bool; 2],
}

/// An active leg gesture at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
struct LegGesture {
    /// Direction of the leg in the body frame.
    pub dir_in_body: Vec3,
    /// Knee bend, radians.
    pub bend_rad: f32,
    /// Reach scale (1 = the leg's reach at its bend).
    pub reach_scale: f32,
    /// How far it has blended in from the foot's own keys, 0..1.
    pub blend: f32,
    /// The thigh's and the lower leg's directions in the body frame where the score gives them
    /// apart.
    pub segments_in_body: Option<SegmentDirs>,
    /// How far it rests the foot on the floor (a tap), 0..1.
    pub touch: f32,
}

/// How long before a landing (and after a lift) a foot in the air already counts for the
/// pelvis drop that keeps the legs within reach, seconds.
const REACH_FADE_SECS: f64 = 0.2;

/// The shortest swing of a foot to its next footprint, seconds (when the time since its lift
/// allows).
pub(super) const MIN_SWING_SECS: f64 = 0.2;

/// A body-frame vector (right, up, forward) in the skeleton's local axes (right = −X).
fn local_from_body(v: Vec3) -> Vec3 {
    Vec3::new(-v.x, v.y, v.z)
}

/// Reach of a two-segment limb with the middle joint bent by `bend`.
fn reach_for(upper: f32, lower: f32, bend: f32) -> f32 {
    (upper * upper + lower * lower + 2.0 * upper * lower * bend.cos()).max(0.0).sqrt()
}

fn leg_limb(foot: Foot) -> LimbId {
    match foot {
        Foot::Left => LimbId::LegLeft,
        Foot::Right => LimbId::LegRight,
    }
}

impl DancerAnimation {
    /// Facing at `t`.
    pub fn yaw_at(&self, t: f64) -> f32 {
        self.plan.yaw.value_at(t, 0.0)
    }

    /// Samples the pose of this dancer at `t_secs` into `pose`.
    pub fn sample_into(&self, skeleton: &Skeleton, t_secs: f64, pose: &mut Pose) -> SampleReport {
        let mut report = SampleReport::default();
        let t = t_secs.clamp(0.0, self.plan.end_secs.max(0.0));
        *pose = Pose::rest(skeleton);
        let frame = self.body_frame(skeleton, t);
        pose.set_local(JointId::Pelvis, frame.world_from_pelvis);
        self.pose_torso(skeleton, t, frame.tilt, pose);
        self.pose_legs(skeleton, t, &frame, pose, &mut report);
        self.pose_arms(skeleton, t, &frame, pose, &mut report);
        let gesturing = frame.gestures.map(|g| g.map_or(0.0, |g| g.blend));
        super::rotations::rotate_limbs(&self.plan, skeleton, pose, t, gesturing);
        report
    }
}
