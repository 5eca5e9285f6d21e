//! What the rule engine produces for one dancer: footprints, a facing track, a pelvis height
//! track, limb direction keys and flights — all in world space (metres, radians, seconds).
//!
//! World frame: +Y up, the audience at +Z. A dancer with yaw 0 faces +Z; yaw is counter-clockwise
//! seen from above, so a right (clockwise) turn lowers it. The dancer's right is
//! `(-cos yaw, 0, sin yaw)` and forward is `(sin yaw, 0, cos yaw)`.

use crate::score::JumpForm;
use glam::Vec3;
use serde::Serialize;
use std::collections::BTreeMap;

/// Which foot: a side of the body.
pub type Foot = crate::side::Side;

/// The dancer's forward vector for `yaw_rad`.
pub fn forward_of(yaw_rad: f32) -> Vec3 {
    Vec3::new(yaw_rad.sin(), 0.0, yaw_rad.cos())
}

/// The dancer's right vector for `yaw_rad`.
pub fn right_of(yaw_rad: f32) -> Vec3 {
    Vec3::new(-yaw_rad.cos(), 0.0, yaw_rad.sin())
}

/// A body-frame vector (right, up, forward) in world space for a dancer facing `yaw_rad`.
pub fn world_from_body(v_in_body: Vec3, yaw_rad: f32) -> Vec3 {
    right_of(yaw_rad) * v_in_body.x + Vec3::Y * v_in_body.y + forward_of(yaw_rad) * v_in_body.z
}

/// How the foot meets the floor at a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Contact {
    /// Heel first, then the whole foot (a normal walk).
    Heel,
    /// Ball first (toe preference, landings, relevé).
    Ball,
    /// Flat (closing steps, pliés).
    Flat,
}

/// A foot planted on the floor over an interval. The contact point (ankle projected onto the
/// floor) does not move while planted; the heading may turn during a pivot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Footprint {
    /// Which foot.
    pub foot: Foot,
    /// Ankle position projected on the floor (y = 0), world space.
    pub position_in_world: Vec3,
    /// Ankle ground point when the foot lifts: differs from `position_in_world` after a pivot on
    /// the ball, which carries the ankle round the ball.
    pub position_end_in_world: Vec3,
    /// Heading at landing (radians, same convention as the dancer's yaw).
    pub yaw_start_rad: f32,
    /// Heading when lifted (differs from the start only for pivots).
    pub yaw_end_rad: f32,
    /// Pivot interval (seconds) during which the heading turns, on the ball of the foot.
    pub pivot_secs: Option<(f64, f64)>,
    /// The pivot turns the foot on its heel with the toes lifted (a standing leg's rotation),
    /// not on its ball: the ankle keeps its height, and after the pivot the foot stands at
    /// `position_end_in_world`, `yaw_end_rad`.
    pub pivot_on_heel: bool,
    /// When the step that lands here starts (the swing begins); equals `t_land_secs` for
    /// landings from the air and for feet that were already there.
    pub t_step_start_secs: f64,
    /// When the foot touches down.
    pub t_land_secs: f64,
    /// When the foot leaves the floor (the end of the score for the last one).
    pub t_lift_secs: f64,
    /// First contact.
    pub contact: Contact,
    /// On the ball of the foot with the heel raised (high-level support).
    pub releve: bool,
    /// Rising to (or coming down from) the ball while standing here: the heel moves over this
    /// interval, from flat to `releve` or from relevé to flat.
    pub releve_ramp_secs: Option<(f64, f64)>,
}

impl Footprint {
    /// The foot's heading at `t_secs`.
    pub fn yaw_at(&self, t_secs: f64) -> f32 {
        match self.pivot_secs {
            Some((a, b)) if b > a => {
                let s = ((t_secs - a) / (b - a)).clamp(0.0, 1.0) as f32;
                self.yaw_start_rad + (self.yaw_end_rad - self.yaw_start_rad) * smoothstep(s)
            }
            _ => self.yaw_end_rad,
        }
    }

    /// True when planted at `t_secs`.
    pub fn planted_at(&self, t_secs: f64) -> bool {
        t_secs >= self.t_land_secs && t_secs <= self.t_lift_secs
    }
}

/// Smooth ease in/out on [0, 1].
pub fn smoothstep(s: f32) -> f32 {
    let s = s.clamp(0.0, 1.0);
    s * s * (3.0 - 2.0 * s)
}

/// A key of a piecewise track: the value is reached at `t_end_secs`, moving from the previous
/// value starting at `t_start_secs`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Key<T> {
    /// Movement starts (bottom of the symbol).
    pub t_start_secs: f64,
    /// Value reached (top of the symbol).
    pub t_end_secs: f64,
    /// The value.
    pub value: T,
}

/// The shortest time a change of facing, centre, level or turn takes, seconds: one written with
/// no duration still eases over this long instead of jumping.
pub const MIN_KEY_SECS: f64 = 1e-3;

/// The end of a change that starts at `t_start_secs` and is written to end at `t_end_secs`:
/// no sooner than [`MIN_KEY_SECS`] after its start.
pub fn key_end_secs(t_start_secs: f64, t_end_secs: f64) -> f64 {
    t_end_secs.max(t_start_secs + MIN_KEY_SECS)
}

/// A track of keys sorted by end time, evaluated with ease in/out between keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Track<T> {
    /// Keys, sorted by `t_end_secs`.
    pub keys: Vec<Key<T>>,
}

impl<T> Default for Track<T> {
    fn default() -> Self {
        Track { keys: Vec::new() }
    }
}

impl<T: Copy> Track<T> {
    /// Adds a key (kept sorted).
    pub fn push(&mut self, key: Key<T>) {
        let at = self.keys.partition_point(|k| k.t_end_secs <= key.t_end_secs);
        self.keys.insert(at, key);
    }

    /// The value at `t_secs` and the previous value with the blend factor towards the current
    /// key: `(from, to, s)`; `None` when the track is empty.
    pub fn segment_at(&self, t_secs: f64) -> Option<(T, T, f32)> {
        let first = self.keys.first()?;
        let idx = self.keys.partition_point(|k| k.t_end_secs <= t_secs);
        if idx >= self.keys.len() {
            let last = self.keys.last()?.value;
            return Some((last, last, 1.0));
        }
        // Keys reached at the same time (two symbols for one part ending together): the last
        // one is where the part is at that time, so it is the one moved towards, and the track
        // does not jump from one to the other when the time comes.
        let mut key = self.keys[idx];
        if let Some(tied) = self.keys[idx + 1..].iter().take_while(|k| k.t_end_secs == key.t_end_secs).last() {
            key = *tied;
        }
        let from = if idx == 0 { first.value } else { self.keys[idx - 1].value };
        let start = key.t_start_secs.max(if idx == 0 { f64::NEG_INFINITY } else { self.keys[idx - 1].t_end_secs });
        if t_secs <= start || key.t_end_secs <= start {
            return Some((from, from, 0.0));
        }
        let s = ((t_secs - start) / (key.t_end_secs - start)).clamp(0.0, 1.0) as f32;
        Some((from, key.value, smoothstep(s)))
    }
}

impl Track<f32> {
    /// Interpolated value at `t_secs` (`default` when empty).
    pub fn value_at(&self, t_secs: f64, default: f32) -> f32 {
        match self.segment_at(t_secs) {
            Some((a, b, s)) => a + (b - a) * s,
            None => default,
        }
    }
}

/// The limbs and parts the gesture keys drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum LimbId {
    /// Left arm (shoulder → hand).
    ArmLeft,
    /// Right arm.
    ArmRight,
    /// Left leg gesture (hip → foot).
    LegLeft,
    /// Right leg gesture.
    LegRight,
    /// Head tilt.
    Head,
    /// Chest / torso tilt.
    Chest,
    /// Left hand: where it points (wrist → fingertips); zero = in line with the forearm;
    /// `bend_rad` curls the fingers.
    HandLeft,
    /// Right hand.
    HandRight,
    /// Left palm: the direction it faces; zero = its natural facing for the arm's position.
    PalmLeft,
    /// Right palm.
    PalmRight,
}

/// A body part that rotates about its own long axis (turn signs in its column): the whole arm or
/// leg, one segment of it, the chest (a twist against the pelvis) or the head.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Rotated {
    /// Whole arm, about the shoulder → wrist line.
    Arm(crate::read::Side),
    /// Upper arm, about its own axis (moves a bent forearm round).
    UpperArm(crate::read::Side),
    /// Forearm (pronation / supination).
    Forearm(crate::read::Side),
    /// Whole leg (a supporting foot swivels on the floor).
    Leg(crate::read::Side),
    /// Thigh.
    Thigh(crate::read::Side),
    /// Lower leg.
    LowerLeg(crate::read::Side),
    /// Chest twisted against the pelvis.
    Chest,
    /// Pelvis turned against the facing (a hip displaced forward or back); the chest keeps facing.
    Pelvis,
    /// Head turned.
    Head,
}

/// Where a limb points, in the dancer's body frame (right, up, forward), gravity up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LimbTarget {
    /// Unit direction from the base joint to the extremity; zero for "place middle" (drawn in).
    pub dir_in_body: Vec3,
    /// Middle joint flexion (elbow/knee), radians; 0 = straight.
    pub bend_rad: f32,
    /// Upper segment direction when the score gives upper and lower segments separately.
    pub upper_dir_in_body: Option<Vec3>,
    /// Lower segment direction (elbow → wrist) when given separately.
    pub lower_dir_in_body: Option<Vec3>,
}

/// An interval with no foot on the floor.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Flight {
    /// Take-off.
    pub t_takeoff_secs: f64,
    /// Landing.
    pub t_land_secs: f64,
    /// The jump form, if known.
    pub form: Option<JumpForm>,
}

/// Everything the rule engine decided for one dancer.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DancerPlan {
    /// Staff index in the score.
    pub staff: usize,
    /// Footprints in landing order.
    pub footprints: Vec<Footprint>,
    /// Facing (yaw, radians).
    pub yaw: Track<f32>,
    /// Pelvis height offset from standing (metres): plié lower, relevé higher.
    pub pelvis_offset: Track<f32>,
    /// Limb keys per limb.
    pub limbs: BTreeMap<LimbId, Track<LimbTarget>>,
    /// Rotations about the long axis per part (radians, positive = right, i.e. clockwise seen
    /// from above in the standing pose); each key is reached at the top of its symbol and held.
    pub rotations: BTreeMap<Rotated, Track<f32>>,
    /// When each leg is gesturing (not supporting and not swinging to a step): (start, end).
    pub leg_gestures: BTreeMap<LimbId, Vec<(f64, f64)>>,
    /// Per leg, how far its gesture rests the foot on the floor: one key per leg gesture, 1 for
    /// a tap (a gesture with a foot hook), 0 in the air.
    pub leg_taps: BTreeMap<LimbId, Track<f32>>,
    /// Flights, in time order and apart (as the rules and crowd steps write them).
    pub flights: Vec<Flight>,
    /// Where the centre of weight is over the floor (y = 0): each key moves it over the
    /// symbol that shifts the weight.
    pub com_ground: Track<Vec3>,
    /// Times where the path must stop (pivots, holds): the centre stays put over these intervals.
    pub still_intervals: Vec<(f64, f64)>,
    /// End of the score in seconds.
    pub end_secs: f64,
    /// Supports on other body parts (kneeling, hands, sitting, lying): each key moves into its
    /// floor state over the symbol; `None` = standing on the feet ([`crate::motion::floor`]).
    pub floor: Track<Option<crate::motion::floor::FloorState>>,
}

impl DancerPlan {
    /// The flight `t_secs` lies strictly inside, if any (a binary search: flights are in time
    /// order and apart, so only the last one to take off before `t_secs` can hold it).
    pub fn flight_at(&self, t_secs: f64) -> Option<&Flight> {
        let i = self.flights.partition_point(|f| f.t_takeoff_secs < t_secs);
        let f = self.flights.get(i.checked_sub(1)?)?;
        (t_secs > f.t_takeoff_secs && t_secs < f.t_land_secs).then_some(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binary search finds what a scan of every flight finds, at their ends and between.
    #[test]
    fn flight_at_finds_the_flight_a_scan_finds() {
        let flight = |a: f64, b: f64| Flight { t_takeoff_secs: a, t_land_secs: b, form: None };
        let plan = DancerPlan {
            flights: vec![flight(0.5, 0.9), flight(0.9, 1.2), flight(2.0, 2.4), flight(3.0, 3.1)],
            ..DancerPlan::default()
        };
        for i in -10..400 {
            let t = f64::from(i) * 0.01;
            let scan = plan.flights.iter().find(|f| t > f.t_takeoff_secs && t < f.t_land_secs);
            assert_eq!(plan.flight_at(t), scan, "t = {t}");
        }
        assert_eq!(DancerPlan::default().flight_at(1.0), None);
    }
}
