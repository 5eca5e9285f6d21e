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
        // A print landed and lifted a whole fade ago adds 0 (its ramp is 1): those are skipped.
        for f in self.prints.fading_after(foot, t, REACH_FADE_SECS) {
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
        // (A landing as the first gesture ends counts: the leg stood in between.)
        let landing_between =
            |a: f64, b: f64| self.prints(foot).any(|f| f.t_land_secs >= a - 1e-9 && f.t_land_secs <= b + 1e-9);
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
            let out_from =
                if land - ns >= MIN_OUT_SECS { ns } else { land - (0.5 * (land - start)).min(GESTURE_OUT_MAX_SECS) };
            if t >= land {
                return None;
            }
            blend_out = 1.0 - smoothstep(ramp(t, out_from, land));
        }
        let first_key_end = track.keys.iter().map(|k| k.t_end_secs).find(|e| *e >= start).unwrap_or(start);
        // The run's first gesture moves from where the foot is (the blend from its own keys),
        // not from where an earlier run left the leg.
        let aim = limb_at(Some(track), t.max(first_key_end), -Vec3::Y);
        let blend = smoothstep(ramp(t, start, first_key_end.max(start + GESTURE_IN_MIN_SECS))) * blend_out;
        Some(LegGesture {
            dir_in_body: aim.dir_in_body,
            bend_rad: aim.bend_rad,
            reach_scale: aim.reach_scale,
            blend,
            segments_in_body: aim.segments_in_body,
            touch: self.leg_touch(foot, t),
        })
    }

    /// Where the active leg gesture `gesture` (from [`Self::active_leg_gesture`]) puts the ankle:
    /// blended in from `base`; a gesture written as a whole leg rests the foot on the floor as
    /// far as its touch says (see [`Self::tap_ankle`]).
    pub(super) fn gesture_ankle(
        &self,
        skeleton: &Skeleton,
        foot: Foot,
        gesture: LegGesture,
        hip: Vec3,
        yaw: f32,
        base: &FootState,
    ) -> Vec3 {
        let LegGesture { dir_in_body: dir, bend_rad: bend, reach_scale, blend, segments_in_body, touch } = gesture;
        let (upper, lower) = leg_lengths(skeleton, foot);
        let geo = &self.foot_geometry;
        let mut target = match segments_in_body {
            // The score placed the knee: the ankle is where the two segments put it, but high
            // enough that the pointed foot clears the floor whichever way it points (a lower
            // leg swept low under a hanging thigh while the other leg bends would scrape it).
            Some(SegmentDirs { upper_in_body: thigh, lower_in_body: shin }) => {
                let at = hip + world_from_body(thigh, yaw) * upper + world_from_body(shin, yaw) * lower;
                let toe_tip_from_ankle = (geo.ball_in_ankle + geo.toe_tip_in_ball()).length();
                Vec3::new(at.x, at.y.max(toe_tip_from_ankle + GESTURE_FOOT_CLEARANCE_M), at.z)
            }
            None => {
                let full_reach = reach_for(upper, lower, bend.max(GESTURE_MIN_BEND_RAD));
                let air = hip + world_from_body(dir, yaw) * full_reach * reach_scale.max(GESTURE_MIN_REACH_SCALE);
                if touch > 0.0 {
                    let hip_joint = if foot == Foot::Left { JointId::HipL } else { JointId::HipR };
                    let standing_hip_y = skeleton.rest_offset(JointId::Pelvis).y + skeleton.rest_offset(hip_joint).y;
                    let reach = full_reach * reach_scale.max(GESTURE_MIN_REACH_SCALE);
                    air.lerp(self.tap_ankle(hip, standing_hip_y, (dir, yaw, base.yaw_rad), reach), touch)
                } else {
                    air
                }
            }
        };
        target.y = target.y.max(geo.ankle_height_m + GESTURE_FOOT_CLEARANCE_M);
        base.ankle_in_world.lerp(target, blend)
    }

    /// The side the knee of a gesturing leg sticks out to (the IK's pole, ⟂ `axis`, the hip →
    /// ankle line): where the score gives the thigh apart from the lower leg, towards the knee it
    /// places, as far as the gesture has blended in; otherwise (and a little always, so the pole
    /// is defined for a straight leg) `least`, the knee over the toes.
    pub(super) fn gesture_pole(
        &self,
        skeleton: &Skeleton,
        foot: Foot,
        gesture: LegGesture,
        least: Vec3,
        axis: Vec3,
        yaw: f32,
    ) -> Vec3 {
        let LegGesture { blend, segments_in_body, .. } = gesture;
        let Some(thigh) = segments_in_body.map(|s| s.upper_in_body) else { return least };
        let knee_from_hip = world_from_body(thigh, yaw) * leg_lengths(skeleton, foot).0;
        let out = (knee_from_hip - axis * knee_from_hip.dot(axis)) / leg_lengths(skeleton, foot).0;
        least * (1.0 - blend + POLE_OVER_TOES_SHARE) + out * blend
    }

    /// Whether the knee of a fully blended-in gesture whose score placed it (thigh and lower leg
    /// apart) ended more than [`KNEE_MISS_M`] from there in `pose`: the hip's limits let the
    /// leg reach the ankle only with the knee elsewhere (a lower leg to the side of a hanging
    /// thigh needs the thigh turned in further than it goes).
    pub(super) fn gesture_knee_missed(
        &self,
        skeleton: &Skeleton,
        foot: Foot,
        gesture: LegGesture,
        hip: Vec3,
        yaw: f32,
        pose: &Pose,
    ) -> bool {
        let LegGesture { blend, segments_in_body, .. } = gesture;
        let Some(thigh) = segments_in_body.filter(|_| blend > FULLY_BLENDED).map(|s| s.upper_in_body) else {
            return false;
        };
        let knee = joint_world(skeleton, pose, if foot == Foot::Left { JointId::KneeL } else { JointId::KneeR }).1;
        knee.distance(hip + world_from_body(thigh, yaw) * leg_lengths(skeleton, foot).0) > KNEE_MISS_M
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
            let Some(LegGesture { dir_in_body: dir, blend, .. }) = gestures[side.index()] else { continue };
            let q = pelvis_tilt_for_gesture(&self.tilt_rule, dir, side == Side::Right);
            tilt *= Quat::IDENTITY.slerp(q, blend);
            let other_hip = if side == Side::Left { JointId::HipR } else { JointId::HipL };
            pivot += skeleton.rest_offset(other_hip) * blend;
            weight += blend;
        }
        (tilt, pivot / weight.max(1.0))
    }
}

/// The shortest time a gesture run takes to blend in from the foot's own keys, seconds.
const GESTURE_IN_MIN_SECS: f64 = 0.05;

/// The longest a gesture run takes to blend out before a landing with no swing, seconds.
const GESTURE_OUT_MAX_SECS: f64 = 0.25;

/// How far a gesturing foot's ankle (and, for a placed knee, its pointed toe tip) stays above
/// the floor at the least, metres.
const GESTURE_FOOT_CLEARANCE_M: f32 = 0.01;

/// The least knee bend a gesture's reach is taken at, radians.
const GESTURE_MIN_BEND_RAD: f32 = 0.05;

/// The least reach scale of a gesturing leg.
const GESTURE_MIN_REACH_SCALE: f32 = 0.3;

/// How much of the knee over the toes a gesture's pole keeps always (so the pole is defined for
/// a straight leg).
const POLE_OVER_TOES_SHARE: f32 = 0.05;

/// A gesture blended in further than this counts as fully blended in.
const FULLY_BLENDED: f32 = 0.999;

/// How far the knee may end from where the score placed it before the leg counts as limited,
/// metres.
const KNEE_MISS_M: f32 = 0.02;

/// Thigh and lower-leg lengths of `foot`'s leg, metres.
fn leg_lengths(skeleton: &Skeleton, foot: Foot) -> (f32, f32) {
    let (knee, ankle) =
        if foot == Foot::Left { (JointId::KneeL, JointId::AnkleL) } else { (JointId::KneeR, JointId::AnkleR) };
    (skeleton.bone_length_m(knee), skeleton.bone_length_m(ankle))
}
