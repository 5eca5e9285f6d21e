//! Taps in the sampler: a leg gesture with a foot hook rests the ball of its pointed foot on the
//! floor in the gesture's horizontal direction, as far out as the straight leg reaches, the toes
//! flat on the floor. How far a gesture taps is a track of its own, so it changes continuously.

use super::*;

/// Pitch of a tapping foot (heel up), radians (60°) [impl. choice]: the foot pointed, resting on
/// its ball with the toes flat on the floor.
pub(super) const TAP_PITCH_RAD: f32 = 60.0 * std::f32::consts::PI / 180.0;

/// How much of the leg's full reach a tap uses, so the knee is straight but not locked at the
/// edge of its range.
const TAP_REACH_FRACTION: f32 = 0.99;

impl DancerAnimation {
    /// How far the gesture of `foot`'s leg rests the foot on the floor at `t`: 1 for a tap, 0 in
    /// the air, in between while one gesture blends into the next.
    pub(super) fn leg_touch(&self, foot: Foot, t: f64) -> f32 {
        self.plan.leg_taps.get(&leg_limb(foot)).map_or(0.0, |track| track.value_at(t, 0.0))
    }

    /// Where a tap puts the ankle: along the line from the hip on which, with the hip at its
    /// standing height `standing_hip_y`, the foot turned to `heading_rad` and pitched by
    /// [`TAP_PITCH_RAD`] rests its ball on the floor in the horizontal direction of `dir_in_body`
    /// (under the hip for a gesture straight down), `reach` from the hip. The leg keeps that line
    /// wherever the hip is (a hop on the other foot lifts the foot with it; in a plié the solve
    /// keeps the foot above the floor), so the target moves with the hip, without a jump.
    pub(super) fn tap_ankle(
        &self,
        hip: Vec3,
        standing_hip_y: f32,
        (dir_in_body, yaw, heading_rad): (Vec3, f32, f32),
        reach: f32,
    ) -> Vec3 {
        let geo = &self.foot_geometry;
        let rot = Quat::from_rotation_y(heading_rad) * Quat::from_rotation_x(TAP_PITCH_RAD);
        let ankle_from_contact = -(rot * geo.ball_contact_in_ankle());
        let out = world_from_body(dir_in_body, yaw);
        let out = Vec3::new(out.x, 0.0, out.z).normalize_or_zero();
        // The ankle with the contact under the standing hip, from the hip; the contact moves out
        // by `d` until the ankle is `reach` from the hip: |base + d·out| = reach.
        let base = Vec3::new(0.0, -standing_hip_y, 0.0) + ankle_from_contact;
        let reach = reach * TAP_REACH_FRACTION;
        let b = base.dot(out);
        let disc = b * b - (base.length_squared() - reach * reach);
        let d = if disc > 0.0 { (-b + disc.sqrt()).max(0.0) } else { 0.0 };
        hip + (base + out * d).normalize_or(Vec3::NEG_Y) * reach
    }
}
