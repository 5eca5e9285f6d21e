//! The roll of a foot about its contact: where the ankle's limits stop a planted foot (or one
//! near its landing or lift) from taking the wanted angle, the foot rolls onto the ball (toes
//! down) or the heel (toes up) of its flat placement, so no point of the sole leaves or sinks.

use crate::animation::feet::{FootGeometry, FootState, contact_point};
use glam::{Quat, Vec3};

/// The least pitch of a foot that rolls it onto its ball (or, negative, its heel), radians.
const ROLL_PITCH_MIN_RAD: f32 = 1e-4;

/// A foot's flat placement, which it rolls about.
pub(super) struct FootRoll<'a> {
    geometry: &'a FootGeometry,
    /// The foot's heading (yaw about +Y).
    heading: Quat,
    /// The ankle of the foot standing flat on its contact, world space.
    ankle_flat_in_world: Vec3,
}

/// The point of the sole a foot pitched by `pitch_rad` rolls about, in the ankle's frame.
fn pivot_in_ankle(geometry: &FootGeometry, pitch_rad: f32) -> Vec3 {
    if pitch_rad > ROLL_PITCH_MIN_RAD {
        geometry.ball_contact_in_ankle()
    } else if pitch_rad < -ROLL_PITCH_MIN_RAD {
        geometry.heel_in_ankle
    } else {
        Vec3::new(0.0, -geometry.ankle_height_m, 0.0)
    }
}

impl<'a> FootRoll<'a> {
    /// The flat placement of the foot in `state`.
    pub fn new(geometry: &'a FootGeometry, state: &FootState) -> FootRoll<'a> {
        let heading = Quat::from_rotation_y(state.yaw_rad);
        let pivot_now = contact_point(geometry, state);
        let ankle_flat_in_world = pivot_now - heading * pivot_in_ankle(geometry, state.pitch_rad);
        FootRoll { geometry, heading, ankle_flat_in_world }
    }

    /// The pitch (+ = heel up) of a foot with world rotation `rot` about the foot's heading.
    pub fn pitch_of(&self, rot: Quat) -> f32 {
        let toe_dir = self.heading.inverse() * (rot * Vec3::Z);
        (-toe_dir.y).atan2(toe_dir.z)
    }

    /// Where the ankle goes for the foot to take the rotation `got_rot` (what its limits let it
    /// take) rolling about the ball or heel of its flat placement.
    pub fn ankle_for(&self, got_rot: Quat) -> Vec3 {
        let local = pivot_in_ankle(self.geometry, self.pitch_of(got_rot));
        self.ankle_flat_in_world + self.heading * local - got_rot * local
    }
}
