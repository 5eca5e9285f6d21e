//! Leg gestures in the sampler: which gesture run of a leg is active at a time and how far it
//! has blended in from the foot's own keys, where it puts the ankle, the pelvis tilt it asks
//! for, and how much a foot in the air counts as on the floor.

use super::*;

impl DancerAnimation {
    /// How much a foot in the air at `t` counts as on the floor for the pelvis drop: 1 at a
    /// landing or lift, fading to 0 over [`REACH_FADE_SECS`] before the landing and after the
    /// lift (smoothly, so the drop has no corner).
    pub(super) fn floor_reach_weight(&self, foot: Foot, t: f64) -> f32 {
        let mut weight = 0.0f32;
        for f in self.prints(foot) {
            if f.t_land_secs > t {
                weight = weight.max(smoothstep(ramp(t, f.t_land_secs - REACH_FADE_SECS, f.t_land_secs)));
                break;
            }
            if f.t_lift_secs < t {
                weight = weight.max(1.0 - smoothstep(ramp(t, f.t_lift_secs, f.t_lift_secs + REACH_FADE_SECS)));
            }
        }
        weight
    }

    /// The leg gesture of `foot` active at `t`, if any.
    pub(super) fn active_leg_gesture(&self, foot: Foot, t: f64) -> Option<LegGesture> {
        let limb = leg_limb(foot);
        let intervals = self.plan.leg_gestures.get(&limb)?;
        let track = self.plan.limbs.get(&limb)?;
        // The gesture run that covers t: gestures that follow one another without a pause form
        // one run, which started before t; it lasts until the foot begins its next step.
        let mut start = intervals.iter().map(|g| g.0).filter(|g0| *g0 <= t).fold(f64::NEG_INFINITY, f64::max);
        if !start.is_finite() {
            return None;
        }
        // A pause between two gestures with no step in it holds the leg where the first left it
        // (see below), so the second continues that run rather than starting from the foot's
        // own keys.
        let landing_between =
            |a: f64, b: f64| self.prints(foot).any(|f| f.t_land_secs > a + 1e-9 && f.t_land_secs <= b + 1e-9);
        while let Some(earlier) = intervals
            .iter()
            .filter(|g| g.0 < start && (g.1 >= start - 1e-6 || !landing_between(g.1, start)))
            .map(|g| g.0)
            .reduce(f64::min)
        {
            start = earlier;
        }
        // The foot's next step: one that lands after the gesture began (the footprint it stood
        // on when the gesture started does not end it).
        let next_step = self
            .prints
            .landing_after(foot, start + 1e-9)
            .iter()
            .filter(|f| f.t_land_secs > start + 1e-9)
            .map(|f| f.t_step_start_secs)
            .find(|s| *s >= start - 1e-9);
        // The run ends with that step: the foot leaves the gesture over the step, arriving at its
        // landing, so it never jumps from where the gesture held it.
        // A step with no swing (a landing from a flight) takes the foot out of the gesture over
        // the gesture's last part instead.
        let mut blend_out = 1.0;
        if let Some(ns) = next_step {
            let land = self
                .prints
                .landing_after(foot, start + 1e-9)
                .iter()
                .find(|f| f.t_step_start_secs >= ns - 1e-9 && f.t_land_secs > start + 1e-9)
                .map_or(ns, |f| f.t_land_secs);
            const MIN_OUT_SECS: f64 = 0.1;
            let out_from = if land - ns >= MIN_OUT_SECS { ns } else { land - (0.5 * (land - start)).min(0.25) };
            if t >= land {
                return None;
            }
            blend_out = 1.0 - smoothstep(ramp(t, out_from, land));
        }
        let first_key_end = track.keys.iter().map(|k| k.t_end_secs).find(|e| *e >= start).unwrap_or(start);
        // The run's first gesture moves from where the foot is (the blend from its own keys),
        // not from where an earlier run left the leg.
        let (dir, bend, reach_scale, _) = limb_at(Some(track), t.max(first_key_end), -Vec3::Y);
        let blend = smoothstep(ramp(t, start, first_key_end.max(start + 0.05))) * blend_out;
        Some((dir, bend, reach_scale, blend))
    }

    /// Where the active leg gesture `gesture` (from [`Self::active_leg_gesture`]) puts the ankle:
    /// blended in from `base`.
    pub(super) fn gesture_ankle(
        &self,
        skeleton: &Skeleton,
        foot: Foot,
        gesture: LegGesture,
        hip: Vec3,
        yaw: f32,
        base: &FootState,
    ) -> Vec3 {
        let (dir, bend, reach_scale, blend) = gesture;
        let upper = skeleton.bone_length_m(if foot == Foot::Left { JointId::KneeL } else { JointId::KneeR });
        let lower = skeleton.bone_length_m(if foot == Foot::Left { JointId::AnkleL } else { JointId::AnkleR });
        let reach = reach_for(upper, lower, bend.max(0.05)) * reach_scale.max(0.3);
        let mut target = hip + world_from_body(dir, yaw) * reach;
        target.y = target.y.max(self.foot_geometry.ankle_height_m + 0.01);
        base.ankle_in_world.lerp(target, blend)
    }

    /// The pelvis tilt (local axes, after the yaw) for the active leg `gestures` (left, right),
    /// and the point it turns about in the pelvis' rest frame: the other leg's hip, weighted by
    /// how far each gesture has blended in, so the pivot never jumps (not even when the other
    /// foot lifts or lands, or a second gesture begins) while the pelvis is tilted.
    pub(super) fn gesture_tilt(&self, skeleton: &Skeleton, gestures: &[Option<LegGesture>; 2]) -> (Quat, Vec3) {
        let mut tilt = Quat::IDENTITY;
        let mut pivot = Vec3::ZERO;
        let mut weight = 0.0f32;
        for side in [Side::Left, Side::Right] {
            let Some((dir, _, _, blend)) = gestures[side.index()] else { continue };
            let q = pelvis_tilt_for_gesture(&self.tilt_rule, dir, side == Side::Right);
            tilt *= Quat::IDENTITY.slerp(q, blend);
            let other_hip = if side == Side::Left { JointId::HipR } else { JointId::HipL };
            pivot += skeleton.rest_offset(other_hip) * blend;
            weight += blend;
        }
        (tilt, pivot / weight.max(1.0))
    }
}
