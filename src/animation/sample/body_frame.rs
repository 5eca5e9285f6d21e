//! The body frame at one time: the facing, the pelvis' position and rotation (the hips' turn,
//! the tilt of a gesturing leg about the standing hip, and the floor supports' pitch) and the
//! active leg gestures.

use super::{DancerAnimation, LegGesture, Skeleton};
use crate::animation::floor::FloorSample;
use crate::motion::plan::{Foot, Rotated};
use glam::{Quat, Vec3};

/// Where the body is at one time, before the limbs are posed.
pub(super) struct BodyFrame {
    /// Facing (yaw about +Y), radians.
    pub yaw_rad: f32,
    /// The pelvis, world space, before the legs lower it to keep the feet within reach.
    pub pelvis_in_world: Vec3,
    /// The pelvis' world rotation.
    pub world_from_pelvis: Quat,
    /// The pelvis tilt of the gesturing legs (local axes, after the yaw).
    pub tilt: Quat,
    /// The body on its floor supports, when the plan has floor work.
    pub floor: Option<FloorSample>,
    /// The active leg gestures (left, right).
    pub gestures: [Option<LegGesture>; 2],
}

impl DancerAnimation {
    /// The body frame at `t`.
    pub(super) fn body_frame(&self, skeleton: &Skeleton, t: f64) -> BodyFrame {
        let yaw = self.yaw_at(t);
        let yaw_rot = Quat::from_rotation_y(yaw);
        let mut pelvis = self.pelvis_at(t);
        // A gesturing leg tilts the pelvis about the standing hip; the spine gives most back.
        let gestures = [Foot::Left, Foot::Right].map(|foot| self.active_leg_gesture(foot, t));
        let (tilt, pivot) = self.gesture_tilt(skeleton, &gestures);
        // A hip displaced forward or back turns the pelvis (the spine turns the chest back).
        let hips_turn = crate::animation::rotations::rotation_at(&self.plan, Rotated::Pelvis, t);
        let pelvis_rot = yaw_rot * Quat::from_rotation_y(-hips_turn) * tilt;
        pelvis += yaw_rot * pivot - pelvis_rot * pivot;
        // Supports on the knees, hands, seat or torso move and pitch the pelvis (`floor.rs`).
        let floor = self.floor_at(skeleton, t, pelvis);
        let pelvis_rot = match &floor {
            Some(f) => {
                pelvis = pelvis.lerp(f.pelvis_in_world, f.pelvis_weight);
                pelvis_rot * Quat::from_rotation_x(f.pitch_rad)
            }
            None => pelvis_rot,
        };
        BodyFrame { yaw_rad: yaw, pelvis_in_world: pelvis, world_from_pelvis: pelvis_rot, tilt, floor, gestures }
    }
}
