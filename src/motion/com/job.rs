//! Inputs of the centre-of-mass path job (planted feet with timing, fixed points, height
//! targets, body sizes, term weights) and the errors a job is refused with.
//!
//! World space: metres, +y up, the floor is y = 0. Clock time is in seconds.

use glam::Vec3;

/// Which foot a [`Contact`] plants: a side of the body.
pub type Foot = crate::side::Side;

/// One foot planted on the floor over a closed time interval.
///
/// Two contacts of different feet may overlap in time (double support). Contacts of the same
/// foot must not overlap. A time covered by no contact is flight (see [`ComJob::min_flight_secs`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Which foot.
    pub foot: Foot,
    /// Floor point under the ankle, in world space (metres; on the floor, y = 0).
    pub position_in_world: Vec3,
    /// Touch-down time, seconds.
    pub t_start_secs: f64,
    /// Lift-off time, seconds; at least [`MIN_CONTACT_SECS`] after `t_start_secs`.
    pub t_end_secs: f64,
    /// Support level as a pelvis height change, metres (Laban §2.4). 0 = middle (straight
    /// leg); negative = low (demi-plié, about −0.12 × leg length); positive = high (relevé,
    /// about +0.07 × leg length). A positive offset also lifts the ankle by that much (heel
    /// off the floor). Default 0.
    pub level_offset_m: f64,
}

impl Contact {
    /// A middle-level contact of `foot` at `position_in_world` from `t_start_secs` to `t_end_secs`.
    pub fn new(foot: Foot, position_in_world: Vec3, t_start_secs: f64, t_end_secs: f64) -> Self {
        Self { foot, position_in_world, t_start_secs, t_end_secs, level_offset_m: 0.0 }
    }

    /// The same contact at another level (see [`Contact::level_offset_m`]).
    pub fn with_level_offset(self, level_offset_m: f64) -> Self {
        Self { level_offset_m, ..self }
    }
}

/// A time where the pelvis position and velocity are prescribed exactly.
///
/// Use these at the start and end, at holds and around pivot turns. The path is split into
/// independent pieces at fixed points. A fixed point may not fall inside a flight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedPoint {
    /// When, seconds; inside the contacts' time span.
    pub t_secs: f64,
    /// Pelvis position, world space, metres.
    pub position_in_world: Vec3,
    /// Pelvis velocity, world space, metres per second (zero = at rest).
    pub velocity_in_world: Vec3,
}

impl FixedPoint {
    /// The pelvis at rest at `position_in_world` at time `t_secs`.
    pub fn at_rest(t_secs: f64, position_in_world: Vec3) -> Self {
        Self { t_secs, position_in_world, velocity_in_world: Vec3::ZERO }
    }
}

/// One sample of an explicit desired pelvis height profile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightSample {
    /// When, seconds.
    pub t_secs: f64,
    /// Desired pelvis height (world y), metres.
    pub height_m: f64,
}

/// Weights of the objective terms (see the [`super`] module doc). All must be ≥ 0; the
/// reach weight and the balance weight should be > 0. Units make each term an integral over
/// time of a squared quantity, so results do not depend on the knot rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComWeights {
    /// Required centre of pressure away from the expected one, per m² s. Default 1e3.
    pub balance: f64,
    /// Pelvis farther from a planted ankle than the maximum reach, per m² s. Default 1e4.
    pub reach: f64,
    /// Pelvis-to-ankle distance away from the rest leg length, per m² s. Default 10.
    pub comfort: f64,
    /// Pelvis height away from the desired height, per m² s. Default 100.
    pub height: f64,
    /// Horizontal pelvis position away from the middle of the planted feet, per m² s. Default 1.
    pub centre: f64,
    /// Downward acceleration beyond gravity while supported (feet cannot pull), per (m/s²)² s.
    /// Default 10.
    pub push: f64,
    /// Squared jerk, per (m/s³)² s. Default 1e-4.
    pub jerk: f64,
}

impl Default for ComWeights {
    fn default() -> Self {
        Self { balance: 1e3, reach: 1e4, comfort: 10.0, height: 100.0, centre: 1.0, push: 10.0, jerk: 1e-4 }
    }
}

/// The shortest contact accepted, seconds.
pub const MIN_CONTACT_SECS: f64 = 1e-3;
/// The shortest support run (between fixed points and flights) accepted, seconds.
pub const MIN_RUN_SECS: f64 = 1e-3;
/// The most spline spans one job may need (about 46 hours at 30 Hz).
pub const MAX_SPANS: usize = 5_000_000;

/// The centre-of-mass (pelvis) path job: footprints and timing in, a path out
/// ([`super::solve_com_path`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ComJob {
    /// Planted feet over time, in any order. The path spans from the first touch-down to the
    /// last lift-off.
    pub contacts: Vec<Contact>,
    /// Exact pelvis states, in any order, at distinct times at least [`MIN_RUN_SECS`] apart.
    pub fixed_points: Vec<FixedPoint>,
    /// Explicit desired height profile, interpolated linearly and held at its ends. When empty,
    /// the desired height is the standing height plus the mean `level_offset_m` of the planted feet.
    pub height_profile: Vec<HeightSample>,
    /// Pelvis height (world y) when standing at middle level, metres. `None`: ankle height +
    /// rest leg ratio × leg length.
    pub standing_pelvis_height_m: Option<f64>,
    /// Pelvis-to-ankle distance with the leg fully stretched, metres (> 0).
    pub leg_length_m: f64,
    /// Ankle height above the floor point of a flat foot, metres (≥ 0). Default 0.08.
    pub ankle_height_m: f64,
    /// Comfortable pelvis-to-ankle distance as a fraction of the leg length. Default 0.95.
    pub rest_leg_ratio: f64,
    /// Largest pelvis-to-ankle distance aimed for, as a fraction of the leg length (a margin
    /// below full stretch). Default 0.98.
    pub max_reach_ratio: f64,
    /// Gravity, m/s² (> 0). Default 9.81.
    pub gravity_mps2: f64,
    /// Spline knot rate, per second (> 0, ≤ 1000). Default 30.
    pub knot_rate_hz: f64,
    /// Gaps between contacts shorter than this are not flights (no ballistic arc; the path
    /// just stays smooth), seconds (≥ 0). Default 0.02.
    pub min_flight_secs: f64,
    /// Most Levenberg–Marquardt iterations per independent piece. Default 30.
    pub max_iterations: u32,
    /// Objective weights.
    pub weights: ComWeights,
}

impl ComJob {
    /// A job over `contacts` for a dancer with pelvis-to-ankle leg length `leg_length_m`,
    /// with no fixed points and every other field at its default.
    pub fn new(contacts: Vec<Contact>, leg_length_m: f64) -> Self {
        Self {
            contacts,
            fixed_points: Vec::new(),
            height_profile: Vec::new(),
            standing_pelvis_height_m: None,
            leg_length_m,
            ankle_height_m: 0.08,
            rest_leg_ratio: 0.95,
            max_reach_ratio: 0.98,
            gravity_mps2: 9.81,
            knot_rate_hz: 30.0,
            min_flight_secs: 0.02,
            max_iterations: 30,
            weights: ComWeights::default(),
        }
    }

    /// The standing pelvis height used: the explicit one or ankle height + rest leg length.
    pub fn standing_height_m(&self) -> f64 {
        self.standing_pelvis_height_m.unwrap_or(self.ankle_height_m + self.rest_leg_ratio * self.leg_length_m)
    }
}

/// Why a [`ComJob`] was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ComError {
    /// No contacts: nothing carries the body.
    #[error("the COM job has no contacts; give at least one planted foot")]
    NoContacts,
    /// A NaN or infinite input.
    #[error("{what} is not a finite number; replace the NaN or infinity")]
    NonFinite {
        /// Which input, e.g. `contact 3 position`.
        what: String,
    },
    /// A parameter outside its range.
    #[error("{name} = {value} is out of range; it must be {expected}")]
    BadParameter {
        /// Field name.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The allowed range, in words.
        expected: &'static str,
    },
    /// A contact that ends before (or too soon after) it starts.
    #[error(
        "contact {index} lasts {duration_secs} s; a contact must end at least {MIN_CONTACT_SECS} s after it starts"
    )]
    ContactTooShort {
        /// Index in `contacts`.
        index: usize,
        /// `t_end_secs − t_start_secs`.
        duration_secs: f64,
    },
    /// Two contacts plant the same foot at overlapping times.
    #[error(
        "contacts {first} and {second} plant the {foot:?} foot at overlapping times; end one before the other starts"
    )]
    OverlappingContacts {
        /// The foot.
        foot: Foot,
        /// Index in `contacts` of the earlier one.
        first: usize,
        /// Index in `contacts` of the later one.
        second: usize,
    },
    /// A fixed point before the first touch-down or after the last lift-off.
    #[error(
        "fixed point {index} at t = {t_secs} s lies outside the contacts' span [{span_start_secs}, {span_end_secs}] s"
    )]
    FixedPointOutsideSpan {
        /// Index in `fixed_points`.
        index: usize,
        /// Its time.
        t_secs: f64,
        /// First touch-down.
        span_start_secs: f64,
        /// Last lift-off.
        span_end_secs: f64,
    },
    /// A fixed point inside (or at the ends of) a flight, where the path is ballistic.
    #[error(
        "fixed point {index} at t = {t_secs} s falls in the flight [{flight_start_secs}, {flight_end_secs}] s; move it into a support phase"
    )]
    FixedPointInFlight {
        /// Index in `fixed_points`.
        index: usize,
        /// Its time.
        t_secs: f64,
        /// Take-off.
        flight_start_secs: f64,
        /// Landing.
        flight_end_secs: f64,
    },
    /// Fixed points and flights cut a support phase too short to shape.
    #[error(
        "the support run [{t_start_secs}, {t_end_secs}] s between fixed points and flights is shorter than {MIN_RUN_SECS} s; spread the fixed points apart"
    )]
    RunTooShort {
        /// Run start.
        t_start_secs: f64,
        /// Run end.
        t_end_secs: f64,
    },
    /// The job would need more spline spans than [`MAX_SPANS`].
    #[error(
        "the path would need about {spans} spline spans (at most {MAX_SPANS}); lower knot_rate_hz or split the job"
    )]
    TooLong {
        /// Spans needed.
        spans: f64,
    },
    /// The solver produced a non-finite number (a bug: please report the job).
    #[error("the COM solver produced a non-finite value; this is a bug, please report the job")]
    NumericalFailure,
}
