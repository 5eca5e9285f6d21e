//! Where each foot is at a time: on its footprint, in its swing between two, or in a flight's
//! keys (the ground part of [`super::sample`]); a foot in the air never dips below the floor.

use super::DancerAnimation;
use super::feet::{FootState, planted_state, ramp, swing_state};
use super::flight_keys::{FlightFootJob, flight_foot_state};
use super::sample::MIN_SWING_SECS;
use crate::motion::plan::{Flight, Foot, Footprint, smoothstep};
use crate::pose::skeleton::{JointId, Side, Skeleton};
use glam::{Quat, Vec3};

/// How high over its standing height a free foot waits under its hip, metres.
const HOVER_HEIGHT_M: f32 = 0.05;
/// Pitch of a free foot waiting under its hip (heel up), radians.
const HOVER_PITCH_RAD: f32 = 0.3;
/// How long a lifted foot takes to come in under its hip, seconds.
const HOVER_IN_SECS: f64 = 0.5;
/// A foot lifted longer than this before its next step waits under its hip, seconds.
const HOVER_WAIT_SECS: f64 = 0.3;
/// The least clearance of a swinging foot over the floor, metres.
const SWING_CLEARANCE_M: f32 = 0.04;
/// How much a swing's clearance grows per metre the foot travels.
const SWING_CLEARANCE_PER_M: f32 = 0.05;
/// The most clearance of a swinging foot over the floor, metres.
const SWING_CLEARANCE_MAX_M: f32 = 0.12;

impl DancerAnimation {
    /// The footprints of one foot, in landing order.
    pub(super) fn prints(&self, foot: Foot) -> impl Iterator<Item = &Footprint> {
        self.prints.of(foot).iter()
    }

    /// Where the foot is at `t` (ignoring leg gestures); a foot in the air never dips below the
    /// floor.
    pub fn foot_state(&self, skeleton: &Skeleton, foot: Foot, t: f64) -> FootState {
        let mut state = self.foot_state_raw(skeleton, foot, t);
        if !state.planted {
            self.foot_geometry.keep_above_floor(&mut state);
        }
        state
    }

    pub(super) fn foot_state_raw(&self, skeleton: &Skeleton, foot: Foot, t: f64) -> FootState {
        match self.plan.flight_at(t) {
            Some(flight) => self.foot_in_flight(skeleton, foot, flight, t),
            None => self.foot_state_ground(skeleton, foot, t),
        }
    }

    /// A foot during `flight` (`t` strictly inside it): the flight keys between the foot's states
    /// at take-off and at landing, so both ends join the ground keys without a jump.
    pub(super) fn foot_in_flight(&self, skeleton: &Skeleton, foot: Foot, flight: &Flight, t: f64) -> FootState {
        let (t0, t1) = (flight.t_takeoff_secs, flight.t_land_secs);
        if self.prints.planted_at(foot, t).is_some() {
            // The plan has this foot down (it should not in a flight): keep it planted.
            return self.foot_state_ground(skeleton, foot, t);
        }
        const SAME_SECS: f64 = 1e-3;
        let takes_off = self.prints.lifts_near(foot, t0, SAME_SECS);
        let lands = self.prints.lands_near(foot, t1, SAME_SECS);
        let yaw = self.yaw_at(t);
        let (hip_joint, knee, ankle) = match foot {
            Foot::Left => (JointId::HipL, JointId::KneeL, JointId::AnkleL),
            Foot::Right => (JointId::HipR, JointId::KneeR, JointId::AnkleR),
        };
        // The toes at the ends as the pose has them there (kept to the floor), so they blend in;
        // a foot in the air at an end (the free foot of a hop) as high as the ground keys lift it
        // there (`foot_state`), so it does not drop into the flight and jump back out of it.
        let floor_toes = |mut s: FootState| {
            s.toe_bend_rad = self.foot_geometry.toe_bend_for(s.pitch_rad);
            s
        };
        let job = FlightFootJob {
            t_takeoff_secs: t0,
            t_land_secs: t1,
            t_secs: t,
            form: flight.form,
            takes_off,
            lands,
            at_takeoff: floor_toes(self.foot_state(skeleton, foot, t0)),
            at_land: floor_toes(self.foot_state(skeleton, foot, t1)),
            rise_m: self.rise_between(t, t0, t1),
            hip_in_world: self.pelvis_at(t) + Quat::from_rotation_y(yaw) * skeleton.rest_offset(hip_joint),
            yaw_rad: yaw,
            thigh_m: skeleton.bone_length_m(knee),
            shin_m: skeleton.bone_length_m(ankle),
        };
        flight_foot_state(&self.flight_keys, &job)
    }

    /// Where the foot is at `t` from the footprints alone (outside flights, and at their ends).
    pub(super) fn foot_state_ground(&self, skeleton: &Skeleton, foot: Foot, t: f64) -> FootState {
        let geo = &self.foot_geometry;
        let angles = &self.foot_angles;
        let end = self.plan.end_secs;
        let (prev, next) = self.prints.around(foot, t);
        if let Some(fp) = prev
            && t <= fp.t_lift_secs
        {
            // A foot that is set down again where it stands when it lifts (the next print lands
            // as this one lifts) turns to the next print's pitch instead of rolling off.
            if let Some(n) = next
                && n.t_land_secs <= fp.t_lift_secs + 1e-6
            {
                let next_pitch = planted_state(geo, angles, n, n.t_land_secs, false).pitch_rad;
                return super::feet::planted_state_handing_over(geo, angles, fp, t, next_pitch);
            }
            let rolls_off = fp.t_lift_secs < end - 1e-6;
            return planted_state(geo, angles, fp, t, rolls_off);
        }
        // In the air.
        let under_hip = |t: f64| self.foot_under_hip(skeleton, foot, t);
        let from_state = prev.map(|fp| planted_state(geo, angles, fp, fp.t_lift_secs, true));
        let to_state = next.map(|fp| planted_state(geo, angles, fp, fp.t_land_secs, false));
        match (from_state, to_state, prev, next) {
            (Some(a), Some(b), Some(p), Some(n)) => self.swing_between(skeleton, foot, t, (&a, &b), (p, n)),
            (Some(a), None, Some(p), None) => {
                let mut h = self.hover_towards_hip(skeleton, foot, &a, t, p.t_lift_secs);
                h.ankle_in_world.y += self.rise_between(t, p.t_lift_secs, end);
                h
            }
            (None, Some(b), None, Some(n)) => {
                let start = under_hip(n.t_step_start_secs);
                let s = ramp(t, n.t_step_start_secs, n.t_land_secs);
                swing_state(&start, &b, s, 0.0, 0.0)
            }
            _ => under_hip(t),
        }
    }

    /// A foot in the air between the footprint `prints.0` it lifted from (its state `states.0`
    /// at the lift) and `prints.1` it lands on (`states.1` at the landing): waiting under its
    /// hip when the step starts well after the lift, then swinging to the landing.
    fn swing_between(
        &self,
        skeleton: &Skeleton,
        foot: Foot,
        t: f64,
        (a, b): (&FootState, &FootState),
        (p, n): (&Footprint, &Footprint),
    ) -> FootState {
        let t_lift = p.t_lift_secs;
        // A step written with no time for its swing (a new support elsewhere at once)
        // gets some, so the foot travels to its landing rather than jumping there.
        let no_swing = n.t_land_secs - n.t_step_start_secs < 1e-6;
        let t_step = if no_swing { n.t_land_secs - MIN_SWING_SECS } else { n.t_step_start_secs };
        let t_go = t_step.max(t_lift);
        let rise = self.rise_between(t, t_lift, n.t_land_secs);
        let waits = t_go > t_lift + HOVER_WAIT_SECS;
        // Free and waiting: the foot comes in under its hip, just off the floor.
        let hovering = |t: f64| self.hover_towards_hip(skeleton, foot, a, t, t_lift);
        if waits && t < t_go {
            let mut h = hovering(t);
            h.ankle_in_world.y += rise;
            return h;
        }
        let start = if waits { hovering(t_go) } else { *a };
        let t_from = if waits { t_go } else { t_lift };
        let s = ramp(t, t_from, n.t_land_secs);
        let dist = start.ankle_in_world.distance(b.ankle_in_world);
        let clearance = if self.in_flight(t) {
            0.0
        } else {
            (SWING_CLEARANCE_M + SWING_CLEARANCE_PER_M * dist).min(SWING_CLEARANCE_MAX_M)
        };
        let mut st = swing_state(&start, b, s, clearance, rise);
        self.bow_around_standing_foot(foot, t, (start.ankle_in_world, b.ankle_in_world), s, &mut st);
        st
    }

    /// A foot lifted at `t_lift` from the state `a` coming in under its hip at `t`.
    fn hover_towards_hip(&self, skeleton: &Skeleton, foot: Foot, a: &FootState, t: f64, t_lift: f64) -> FootState {
        let s = ramp(t, t_lift, t_lift + HOVER_IN_SECS);
        let hover = FootState { planted: false, ..*a };
        let mut h = swing_state(&hover, &self.foot_under_hip(skeleton, foot, t), s, SWING_CLEARANCE_M, 0.0);
        h.yaw_rad = a.yaw_rad + (self.follow_yaw(t, t_lift, a.yaw_rad) - a.yaw_rad) * smoothstep(s);
        h
    }

    /// The heading a foot lifted at `t_lift` with heading `from_yaw` turns to while it waits:
    /// the body's, turned the way the body turns (the facing track is continuous), so a half
    /// turn of the body never flips it from one way round to the other.
    fn follow_yaw(&self, t: f64, t_lift: f64, from_yaw: f32) -> f32 {
        let at_lift = self.yaw_at(t_lift);
        from_yaw + super::feet::wrap_angle(at_lift - from_yaw) + (self.yaw_at(t) - at_lift)
    }

    /// A foot under its hip, just off the floor, at `t` (a free foot waiting for its next step).
    fn foot_under_hip(&self, skeleton: &Skeleton, foot: Foot, t: f64) -> FootState {
        let geo = &self.foot_geometry;
        let side = if foot == Foot::Left { Side::Left } else { Side::Right };
        let pelvis = self.pelvis_at(t);
        let yaw = self.yaw_at(t);
        let hip = pelvis
            + Quat::from_rotation_y(yaw)
                * skeleton.rest_offset(if side == Side::Left { JointId::HipL } else { JointId::HipR });
        FootState {
            ankle_in_world: Vec3::new(hip.x, geo.ankle_height_m + HOVER_HEIGHT_M, hip.z),
            yaw_rad: yaw,
            pitch_rad: HOVER_PITCH_RAD,
            toe_bend_rad: 0.0,
            planted: false,
        }
    }

    /// Crossing steps: a swing of `foot` from `ends.0` to `ends.1` (at blend `s`, foot `st`)
    /// whose straight path passes close to the standing foot bows out around it so the feet do
    /// not collide.
    fn bow_around_standing_foot(&self, foot: Foot, t: f64, ends: (Vec3, Vec3), s: f32, st: &mut FootState) {
        if let Some(other) = self.prints.planted_at(foot.other(), t) {
            let o = other.position_end_in_world;
            let (p0, p1) = ends;
            let seg = Vec3::new(p1.x - p0.x, 0.0, p1.z - p0.z);
            let len2 = seg.length_squared();
            if len2 > 1e-6 {
                let u = (((o.x - p0.x) * seg.x + (o.z - p0.z) * seg.z) / len2).clamp(0.0, 1.0);
                let closest = Vec3::new(p0.x + seg.x * u, 0.0, p0.z + seg.z * u);
                let away = Vec3::new(closest.x - o.x, 0.0, closest.z - o.z);
                let gap = away.length();
                const MIN_GAP_M: f32 = 0.16;
                if gap < MIN_GAP_M {
                    let side = if gap > 1e-4 {
                        away / gap
                    } else {
                        Vec3::new(-seg.z, 0.0, seg.x).normalize_or_zero() * foot.right_sign()
                    };
                    st.ankle_in_world += side * (MIN_GAP_M - gap) * (std::f32::consts::PI * s).sin();
                }
            }
        }
    }

    /// How far the pelvis is above the straight line between its heights at `a` and `b`.
    pub(super) fn rise_between(&self, t: f64, a: f64, b: f64) -> f32 {
        if b.partial_cmp(&a) != Some(std::cmp::Ordering::Greater) || !self.in_flight(t) {
            return 0.0;
        }
        let s = ((t - a) / (b - a)).clamp(0.0, 1.0) as f32;
        let ya = self.pelvis_at(a).y;
        let yb = self.pelvis_at(b).y;
        (self.pelvis_at(t).y - (ya + (yb - ya) * s)).max(0.0)
    }

    /// In a flight the toes follow the foot keys (in line with a pointed foot) as far as the
    /// floor allows; `None` elsewhere (the toes then keep to the floor).
    pub(super) fn flight_toe_bend(&self, t: f64, state: &FootState, ankle_in_world: Vec3, rot: Quat) -> Option<f32> {
        if state.planted || !self.in_flight(t) {
            return None;
        }
        self.foot_geometry.toe_bend_clear(ankle_in_world, rot, state.toe_bend_rad)
    }

    pub(super) fn in_flight(&self, t: f64) -> bool {
        self.plan.flight_at(t).is_some()
    }
}
