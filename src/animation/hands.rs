//! Hands: the wrist's local rotation from the notated hand direction (wrist → knuckles) and palm
//! facing, kept inside the wrist's joint limits, and the finger curl of a bent hand.
//!
//! Runs after the arm IK has placed the forearm; only the wrist and knuckle joints turn here.

use super::DancerAnimation;
use crate::motion::plan::{Key, LimbId, LimbTarget, Track, smoothstep, world_from_body};
use crate::pose::fk::{Pose, child_world};
use crate::pose::limits::{JointLimits, from_swing_twist_angles, normalized_or_identity, swing_twist_angles};
use crate::pose::skeleton::{JointId, Side, Skeleton};
use glam::{Mat3, Quat, Vec3};

/// The elbow bend at which a hand's swivel allowance is least, degrees.
const SWIVEL_BENT_ARM_DEG: f32 = 60.0;
/// The least share of [`MAX_SWIVEL_DEG`] a bent arm may swivel.
const MIN_SWIVEL_SHARE: f32 = 0.25;
/// The most a straight arm swivels for its hand, degrees.
const MAX_SWIVEL_DEG: f32 = 90.0;
/// The angle of the palm from the forearm's axis at which the wrist starts to bend towards it,
/// degrees.
const PALM_BEND_FROM_DEG: f32 = 60.0;
/// The angle of the palm from the forearm's axis at which the wrist bends towards it fully,
/// degrees.
const PALM_BEND_FULL_DEG: f32 = 30.0;

/// The hand (wrist → knuckles) at rest, in the wrist's local frame: in line with the forearm.
pub const HAND_AXIS_IN_WRIST: Vec3 = Vec3::NEG_Y;

/// The palm's normal (the way the palm faces) at rest, in the wrist's local frame: the hanging
/// hand's palm faces the thigh, towards the midline (−X for the left hand, +X for the right).
/// This matches the wrist limits' convention that +z (left) extends the hand towards the back of
/// the hand.
pub fn palm_normal_in_wrist(side: Side) -> Vec3 {
    Vec3::new(-side.sign_x(), 0.0, 0.0)
}

/// Inputs of one wrist solve. Directions are in the wrist's parent frame (the forearm, i.e. the
/// elbow joint's frame), unit length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WristJob {
    /// Wanted hand direction (wrist → knuckles); [`HAND_AXIS_IN_WRIST`] is in line.
    pub hand_dir_in_forearm: Vec3,
    /// Weight of the hand direction when both goals cannot be met (≥ 0).
    pub hand_weight: f32,
    /// Wanted palm facing, if any; `None` leaves the wrist untwisted.
    pub palm_normal_in_forearm: Option<Vec3>,
    /// Weight of the palm facing when both goals cannot be met (≥ 0).
    pub palm_weight: f32,
    /// Which hand (for the palm's rest normal).
    pub side: Side,
    /// The wrist's limits.
    pub limits: JointLimits,
}

/// Output of [`solve_wrist`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WristSolution {
    /// The wrist's local rotation, inside its limits.
    pub wrist_local: Quat,
    /// The exact answer broke the limits (or there was none): this is the closest allowed.
    pub clamped: bool,
}

/// Angle between two directions, radians, in [0, π]; precise near 0 and π.
fn angle_between(a: Vec3, b: Vec3) -> f32 {
    a.cross(b).length().atan2(a.dot(b))
}

/// The rotation meeting both goals exactly (twist 0 without a palm goal); `None` when the palm
/// faces (nearly) along the hand, which needs a compromise.
pub fn exact_rotation(job: &WristJob) -> Option<Quat> {
    let hand = job.hand_dir_in_forearm.try_normalize()?;
    let swing = Quat::from_rotation_arc(HAND_AXIS_IN_WRIST, hand);
    let Some(palm) = job.palm_normal_in_forearm else { return Some(swing) };
    let across = palm - hand * hand.dot(palm);
    if across.length() < 0.2 {
        return None;
    }
    let n = across.normalize();
    let n_rest = palm_normal_in_wrist(job.side);
    let rest = Mat3::from_cols(HAND_AXIS_IN_WRIST, n_rest, HAND_AXIS_IN_WRIST.cross(n_rest));
    let now = Mat3::from_cols(hand, n, hand.cross(n));
    Some(normalized_or_identity(Quat::from_mat3(&(now * rest.transpose()))))
}

/// Weighted squared angular errors of the rotation with swing–twist components `a`, plus a small
/// pull towards rest (so the twist stays 0 when nothing asks for it).
fn cost(job: &WristJob, a: Vec3) -> f32 {
    let q = from_swing_twist_angles(a);
    let hand_err = angle_between(q * HAND_AXIS_IN_WRIST, job.hand_dir_in_forearm);
    let palm_err = job.palm_normal_in_forearm.map_or(0.0, |p| angle_between(q * palm_normal_in_wrist(job.side), p));
    job.hand_weight * hand_err * hand_err + job.palm_weight * palm_err * palm_err + 1e-3 * a.length_squared()
}

/// Pattern search over the limit box of swing–twist components from `start`: the closest
/// allowed rotation. Deterministic and bounded (at most 80 rounds of 6 evaluations).
fn refine(job: &WristJob, start: Vec3) -> (Vec3, f32) {
    refine_rounds(job, start, 80)
}

/// [`refine`] with at most `rounds` rounds.
fn refine_rounds(job: &WristJob, start: Vec3, rounds: usize) -> (Vec3, f32) {
    let (lo, hi) = (job.limits.min_rad, job.limits.max_rad);
    let mut a = start.clamp(lo, hi);
    let mut best = cost(job, a);
    let mut step = 0.25f32;
    for _ in 0..rounds {
        if step < 1e-3 {
            break;
        }
        let mut improved = false;
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            for sign in [1.0f32, -1.0] {
                let candidate = (a + axis * (sign * step)).clamp(lo, hi);
                let c = cost(job, candidate);
                if c < best - 1e-10 {
                    a = candidate;
                    best = c;
                    improved = true;
                }
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    (a, best)
}

/// The wrist rotation that points the hand along `hand_dir_in_forearm` and turns the palm to
/// `palm_normal_in_forearm`: exact when that lies inside the limits, else the allowed rotation
/// with the least weighted angular error. Never NaN (non-finite inputs give the rest rotation).
pub fn solve_wrist(job: &WristJob) -> WristSolution {
    let finite = job.hand_dir_in_forearm.is_finite()
        && job.palm_normal_in_forearm.is_none_or(|p| p.is_finite())
        && job.hand_weight.is_finite()
        && job.palm_weight.is_finite();
    if !finite {
        return WristSolution { wrist_local: Quat::IDENTITY, clamped: true };
    }
    let exact = exact_rotation(job);
    if let Some(q) = exact
        && job.limits.violation_rad(q) <= 1e-5
    {
        return WristSolution { wrist_local: q, clamped: false };
    }
    let swing_only = job
        .hand_dir_in_forearm
        .try_normalize()
        .map_or(Quat::IDENTITY, |h| Quat::from_rotation_arc(HAND_AXIS_IN_WRIST, h));
    let starts = [swing_twist_angles(exact.unwrap_or(swing_only)), Vec3::ZERO];
    let mut best = (Vec3::ZERO, f32::INFINITY);
    for start in starts {
        let found = refine(job, start);
        if found.1 < best.1 {
            best = found;
        }
    }
    WristSolution { wrist_local: job.limits.clamp(from_swing_twist_angles(best.0)), clamped: true }
}

/// A hand or palm track at `t`: (from, to, blend). Before its first key the part is at rest
/// (in line / natural facing) and moves to the first key over that key's symbol.
fn segment_from_rest(track: &Track<LimbTarget>, t: f64) -> Option<(LimbTarget, LimbTarget, f32)> {
    let first: Key<LimbTarget> = *track.keys.first()?;
    if t >= first.t_end_secs {
        return track.segment_at(t);
    }
    let rest = LimbTarget { dir_in_body: Vec3::ZERO, bend_rad: 0.0, upper_dir_in_body: None, lower_dir_in_body: None };
    let span = first.t_end_secs - first.t_start_secs;
    let s = if span > 1e-9 { ((t - first.t_start_secs) / span).clamp(0.0, 1.0) as f32 } else { 0.0 };
    Some((rest, first.value, smoothstep(s)))
}

/// What one hand key asks for, world space: the hand direction (`None` = in line with the
/// forearm) and the palm facing (`None` = untwisted, its natural facing).
#[derive(Clone, Copy, Debug, PartialEq)]
struct HandGoal {
    hand_in_world: Option<Vec3>,
    palm_in_world: Option<Vec3>,
}

/// The placed arm the hand hangs from: the swivel about the shoulder → wrist axis turns the
/// forearm without moving the wrist (for a straight arm it is the forearm's own twist, which the
/// skeleton models at the shoulder).
struct ArmFrame {
    shoulder: JointId,
    shoulder_parent_rot: Quat,
    shoulder_world: Quat,
    forearm_world: Quat,
    axis_in_world: Vec3,
    max_swivel_rad: f32,
    shoulder_violation_rad: f32,
}

impl ArmFrame {
    /// `clavicle_world`: the clavicle's world rotation and position in `pose`.
    fn new(skeleton: &Skeleton, pose: &Pose, side: Side, clavicle_world: (Quat, Vec3)) -> ArmFrame {
        let (shoulder, elbow, wrist) = match side {
            Side::Left => (JointId::ShoulderL, JointId::ElbowL, JointId::WristL),
            Side::Right => (JointId::ShoulderR, JointId::ElbowR, JointId::WristR),
        };
        let (parent_rot, _) = clavicle_world;
        let (shoulder_world, shoulder_pos) = child_world(skeleton, pose, clavicle_world, shoulder);
        let (forearm_world, elbow_pos) = child_world(skeleton, pose, (shoulder_world, shoulder_pos), elbow);
        let (_, wrist_pos) = child_world(skeleton, pose, (forearm_world, elbow_pos), wrist);
        let hinge_rad = crate::pose::limits::rotation_angle_between(pose.local(elbow), Quat::IDENTITY);
        // A bent arm swivelling swings the elbow about: allow less of it.
        let straightness = (1.0 - hinge_rad / SWIVEL_BENT_ARM_DEG.to_radians()).clamp(MIN_SWIVEL_SHARE, 1.0);
        ArmFrame {
            shoulder,
            shoulder_parent_rot: normalized_or_identity(parent_rot),
            shoulder_world: normalized_or_identity(shoulder_world),
            forearm_world: normalized_or_identity(forearm_world),
            axis_in_world: swivel_axis(shoulder_pos, elbow_pos, wrist_pos, hinge_rad),
            max_swivel_rad: MAX_SWIVEL_DEG.to_radians() * straightness,
            shoulder_violation_rad: skeleton.limits(shoulder).violation_rad(pose.local(shoulder)),
        }
    }

    fn shoulder_local(&self, swivel_rad: f32) -> Quat {
        let turn = Quat::from_axis_angle(self.axis_in_world, swivel_rad);
        normalized_or_identity(self.shoulder_parent_rot.inverse() * turn * self.shoulder_world)
    }

    /// The shoulder's local rotation for `swivel_rad` and its limit violation, when that swivel
    /// is allowed: within the swivel's range, and no further past the limits than the arm's
    /// solve left the shoulder plus [`SWIVEL_LIMIT_SLACK_RAD`].
    fn checked_swivel(&self, skeleton: &Skeleton, swivel_rad: f32) -> Option<(Quat, f32)> {
        if swivel_rad.abs() > self.max_swivel_rad + 1e-6 {
            return None;
        }
        let shoulder = self.shoulder_local(swivel_rad);
        let violation = skeleton.limits(self.shoulder).violation_rad(shoulder);
        (violation <= self.shoulder_violation_rad + SWIVEL_LIMIT_SLACK_RAD).then_some((shoulder, violation))
    }

    fn swivel_allowed(&self, skeleton: &Skeleton, swivel_rad: f32) -> bool {
        self.checked_swivel(skeleton, swivel_rad).is_some()
    }

    fn wrist_job(
        &self,
        skeleton: &Skeleton,
        side: Side,
        goal: &HandGoal,
        weights: (f32, f32),
        swivel: f32,
    ) -> WristJob {
        let forearm = Quat::from_axis_angle(self.axis_in_world, swivel) * self.forearm_world;
        let to_forearm = |v: Vec3| (forearm.inverse() * v).try_normalize();
        let palm = goal.palm_in_world.and_then(to_forearm);
        let hand = goal.hand_in_world.and_then(to_forearm).unwrap_or_else(|| palm_bend(side, palm));
        WristJob {
            hand_dir_in_forearm: hand,
            hand_weight: weights.0,
            palm_normal_in_forearm: palm,
            palm_weight: weights.1,
            side,
            limits: *skeleton.limits(wrist_of(side)),
        }
    }
}

/// The axis the hand's swivel turns the arm about, world space: the shoulder → wrist line, which
/// keeps the wrist where it is; for a (nearly) straight arm the upper arm's own axis, so that the
/// swivel only twists the shoulder (about the shoulder → wrist line, the hinge's float noise would
/// tip the upper arm over the shoulder's limit one way or the other); in between a blend.
fn swivel_axis(shoulder: Vec3, elbow: Vec3, wrist: Vec3, hinge_rad: f32) -> Vec3 {
    let to_wrist = (wrist - shoulder).try_normalize().unwrap_or(Vec3::NEG_Y);
    let upper = (elbow - shoulder).try_normalize().unwrap_or(to_wrist);
    let x = ((hinge_rad - STRAIGHT_ARM_RAD) / (BENT_ARM_RAD - STRAIGHT_ARM_RAD)).clamp(0.0, 1.0);
    upper.lerp(to_wrist, x * x * (3.0 - 2.0 * x)).try_normalize().unwrap_or(to_wrist)
}

/// How far a swivel may push the shoulder past its limits (beyond where the arm's solve left
/// it) and still count as allowed; the shoulder is clamped back after (1°). An arm the solve
/// left on a limit face (a twist at its end of range) would otherwise be allowed to swivel only
/// the way that leaves the face, and which way that is can flip from one sample to the next with
/// hundredths of a degree of the limit (palm1.lbn frame 286: the elbow jumped 21 cm).
const SWIVEL_LIMIT_SLACK_RAD: f32 = 0.017_453_292;

/// Elbow bend below which the hand's swivel twists the upper arm about itself (1°), radians.
const STRAIGHT_ARM_RAD: f32 = 0.017_453_292;
/// Elbow bend from which the hand's swivel turns the arm about the shoulder → wrist line (3°).
const BENT_ARM_RAD: f32 = 0.052_359_88;

/// The hand direction (forearm frame) for a palm facing `palm_in_forearm` with no notated hand
/// direction: in line with the forearm, unless the palm is to face (nearly) along the forearm,
/// which twisting cannot give: then the wrist bends that way (back for a palm facing away from
/// the shoulder, towards the palm for one facing it), by the least rotation of the palm, as far as
/// it comfortably goes. Continuous in the palm direction: the bend fades in between 60° and 30°
/// from the forearm's axis, so the hand never flips between two equally poor compromises.
fn palm_bend(side: Side, palm_in_forearm: Option<Vec3>) -> Vec3 {
    let Some(palm) = palm_in_forearm else { return HAND_AXIS_IN_WRIST };
    let along = palm.dot(HAND_AXIS_IN_WRIST).abs();
    let (lo, hi) = (PALM_BEND_FROM_DEG.to_radians().cos(), PALM_BEND_FULL_DEG.to_radians().cos());
    let w = ((along - lo) / (hi - lo)).clamp(0.0, 1.0);
    let w = w * w * (3.0 - 2.0 * w);
    if w <= 0.0 {
        return HAND_AXIS_IN_WRIST;
    }
    let bent = Quat::from_rotation_arc(palm_normal_in_wrist(side), palm) * HAND_AXIS_IN_WRIST;
    let full =
        crate::pose::limits::rotation_angle_between(Quat::from_rotation_arc(HAND_AXIS_IN_WRIST, bent), Quat::IDENTITY);
    if full < 1e-6 {
        return HAND_AXIS_IN_WRIST;
    }
    // Bend by a share of the way (at most ~63° of the 90° a palm along the forearm would need).
    let share = (PALM_BEND_SHARE * w).min(1.0);
    (Quat::IDENTITY.slerp(Quat::from_rotation_arc(HAND_AXIS_IN_WRIST, bent), share) * HAND_AXIS_IN_WRIST)
        .try_normalize()
        .unwrap_or(HAND_AXIS_IN_WRIST)
}

/// How much of the bend a palm facing along the forearm asks for the wrist takes.
const PALM_BEND_SHARE: f32 = 0.7;

fn wrist_of(side: Side) -> JointId {
    if side == Side::Left { JointId::WristL } else { JointId::WristR }
}

/// Bisection steps towards the smallest swivel.
const SWIVEL_BISECT_STEPS: usize = 10;

/// The wrist twist (about the hand's axis, radians) of `q` beyond the wrist's twist range:
/// positive above the range, negative below, 0 inside. A twist is read the way round that
/// supinates (turns the hanging palm forward: +y on the left, −y on the right) up to
/// [`SUPINATION_BIAS_RAD`] past the half turn, so a palm turned (nearly) over, which either way
/// round would give, always turns the same way instead of flipping with the float noise.
fn twist_excess(limits: &JointLimits, q: Quat, side: Side) -> f32 {
    use std::f32::consts::TAU;
    let supinate = side.sign_x();
    let mut y = swing_twist_angles(q).y * supinate;
    if y <= SUPINATION_BIAS_RAD - std::f32::consts::PI {
        y += TAU;
    }
    let y = y * supinate;
    y - y.clamp(limits.min_rad.y, limits.max_rad.y)
}

/// How far past the half turn a wrist twist still counts as supination (30°).
const SUPINATION_BIAS_RAD: f32 = std::f32::consts::FRAC_PI_6;

/// Swivel steps tried on each side (5° apart) and bisection steps towards the smallest swivel.
const SWIVEL_STEPS: i32 = 18;

/// Out of reach, a later swivel must beat the best so far by this much cost (radians², about
/// (0.6°)²) to be taken: two answers that differ by float noise keep the first.
const TIE_COST: f32 = 1e-4;

/// The weight of the swivel's square in an out-of-reach answer's cost (a little, so of two
/// about equally good answers the smaller swivel wins).
const SWIVEL_COST: f32 = 1e-3;

/// How far past its limits an exact wrist answer may lie and still count as reaching, radians.
const EXACT_SLACK_RAD: f32 = 1e-5;

/// How far past the wrist's limits an exact answer may lie and still be taken, clamped, when no
/// swivel reaches the goal (about 11°).
const NEAR_REACH_RAD: f32 = 0.2;

/// Of two swivel samples whose exact answers lie about equally far past the wrist's limits (within
/// this, radians) the first is kept.
const VIOLATION_TIE_RAD: f32 = 1e-6;

/// The least swivel step worth searching, radians.
const MIN_SWIVEL_STEP_RAD: f32 = 1e-4;

/// One hand's search over the arm's swivel.
struct HandSearch<'a> {
    skeleton: &'a Skeleton,
    arm: &'a ArmFrame,
    side: Side,
    goal: &'a HandGoal,
    weights: (f32, f32),
    limits: JointLimits,
}

/// One side's answer out of reach.
#[derive(Clone, Copy)]
struct HandAnswer {
    swivel_rad: f32,
    wrist_local: Quat,
    cost: f32,
    clamped: bool,
}

impl HandSearch<'_> {
    fn job(&self, swivel: f32) -> WristJob {
        self.arm.wrist_job(self.skeleton, self.side, self.goal, self.weights, swivel)
    }

    /// The wrist's exact answer at `swivel`, within its limits or not.
    fn exact_any(&self, swivel: f32) -> Option<Quat> {
        exact_rotation(&self.job(swivel))
    }

    /// The wrist's exact answer at `swivel` within its limits.
    fn exact_at(&self, swivel: f32) -> Option<Quat> {
        self.exact_any(swivel).filter(|q| self.limits.violation_rad(*q) <= EXACT_SLACK_RAD)
    }

    /// Whether the arm may swivel by `swivel` and the wrist then reaches the goal exactly.
    fn reaches(&self, swivel: f32) -> bool {
        self.arm.swivel_allowed(self.skeleton, swivel) && self.exact_at(swivel).is_some()
    }

    /// The smallest swivel (steps of `step` on each side, `first` side first, bisected) that lets
    /// the wrist reach the goal, and its wrist answer.
    fn smallest_reaching_swivel(&self, first: f32, step: f32) -> Option<(f32, Quat)> {
        if step <= MIN_SWIVEL_STEP_RAD {
            return None;
        }
        for k in 1..=SWIVEL_STEPS {
            for sign in [first, -first] {
                let swivel = sign * step * k as f32;
                if !self.arm.swivel_allowed(self.skeleton, swivel) || self.exact_at(swivel).is_none() {
                    continue;
                }
                let (mut bad, mut good) = (sign * step * (k - 1) as f32, swivel);
                for _ in 0..SWIVEL_BISECT_STEPS {
                    let mid = 0.5 * (bad + good);
                    if self.reaches(mid) {
                        good = mid;
                    } else {
                        bad = mid;
                    }
                }
                if let Some(q) = self.exact_at(good) {
                    return Some((good, q));
                }
            }
        }
        None
    }

    /// Just out of reach: the allowed swivel (steps of `step` on each side, `first` side first, refined) whose exact
    /// wrist answer lies least past the wrist's limits, at most [`NEAR_REACH_RAD`] past, the
    /// smaller swivel winning ties, and that answer. As a goal slips out of reach this answer
    /// starts where the smallest reaching swivel left off, so the hand does not jump.
    fn least_violating_swivel(&self, first: f32, step: f32) -> Option<(f32, Quat)> {
        let score = |swivel: f32| -> f32 {
            if swivel != 0.0 && !self.arm.swivel_allowed(self.skeleton, swivel) {
                return f32::INFINITY;
            }
            self.exact_any(swivel)
                .map(|q| self.limits.violation_rad(q) + SWIVEL_COST * swivel * swivel)
                .unwrap_or(f32::INFINITY)
        };
        let mut best = (0.0f32, score(0.0));
        if step > MIN_SWIVEL_STEP_RAD {
            for k in 1..=SWIVEL_STEPS {
                for sign in [first, -first] {
                    let swivel = sign * step * k as f32;
                    let c = score(swivel);
                    if c < best.1 - VIOLATION_TIE_RAD {
                        best = (swivel, c);
                    }
                }
            }
        }
        if !best.1.is_finite() {
            return None;
        }
        // Golden-section search within a step either side of the best sample (each round scores
        // one new point; the other is the last round's).
        let ratio = 0.5 * (5.0f32.sqrt() - 1.0);
        let (mut lo, mut hi) = (best.0 - step, best.0 + step);
        let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        let (mut score_a, mut score_b) = (score(a), score(b));
        for _ in 0..SWIVEL_BISECT_STEPS * 2 {
            if score_a <= score_b {
                (hi, b, score_b) = (b, a, score_a);
                a = hi - ratio * (hi - lo);
                score_a = score(a);
            } else {
                (lo, a, score_a) = (a, b, score_b);
                b = lo + ratio * (hi - lo);
                score_b = score(b);
            }
        }
        let mid = 0.5 * (lo + hi);
        let swivel = if score(mid) < best.1 { mid } else { best.0 };
        let q = self.exact_any(swivel)?;
        (self.limits.violation_rad(q) <= NEAR_REACH_RAD).then_some((swivel, q))
    }

    /// Out of reach: on each side, the allowed swivel whose clamped exact answer, coarsely
    /// refined, is closest (the clamped answer alone is a poor guide to the refined one); both
    /// refined in full.
    fn closest_per_side(&self, first: f32, step: f32) -> [HandAnswer; 2] {
        let mut best = [(0.0f32, f32::INFINITY); 2];
        for k in 0..=SWIVEL_STEPS {
            for (i, sign) in [first, -first].into_iter().enumerate() {
                if k == 0 && i == 1 {
                    continue;
                }
                let swivel = step * sign * k as f32;
                if k != 0 && (step <= MIN_SWIVEL_STEP_RAD || !self.arm.swivel_allowed(self.skeleton, swivel)) {
                    continue;
                }
                let job = self.job(swivel);
                let start = exact_rotation(&job)
                    .unwrap_or_else(|| Quat::from_rotation_arc(HAND_AXIS_IN_WRIST, job.hand_dir_in_forearm));
                let c = refine_rounds(&job, swing_twist_angles(self.limits.clamp(start)), COARSE_ROUNDS).1
                    + SWIVEL_COST * swivel * swivel;
                if c < best[i].1 - TIE_COST {
                    best[i] = (swivel, c);
                }
            }
        }
        best.map(|(swivel, c)| {
            if !c.is_finite() {
                return HandAnswer {
                    swivel_rad: swivel,
                    wrist_local: Quat::IDENTITY,
                    cost: f32::INFINITY,
                    clamped: true,
                };
            }
            let job = self.job(swivel);
            let solution = solve_wrist(&job);
            let q = solution.wrist_local;
            HandAnswer {
                swivel_rad: swivel,
                wrist_local: q,
                cost: cost(&job, swing_twist_angles(q)) + SWIVEL_COST * swivel * swivel,
                clamped: solution.clamped,
            }
        })
    }
}

/// (swivel, wrist local rotation, clamped) for one goal: no swivel when the wrist alone reaches
/// the goal; else the smallest swivel that lets it; else, just out of reach, the swivel whose
/// exact answer lies least past the wrist's limits, clamped; else the closest allowed answer (the two
/// sides' answers blended where they are about equally good, so it turns continuously as they
/// trade places). Both searches try the side that hands the wrist's twist beyond its range over
/// to the arm first (for a palm turned nearly over, the side that supinates: [`twist_excess`]),
/// and keep the first of equally good swivel samples on a side, so the pick does not flip with
/// the float noise from sample to sample.
fn solve_hand(
    skeleton: &Skeleton,
    arm: &ArmFrame,
    side: Side,
    goal: &HandGoal,
    weights: (f32, f32),
) -> (f32, Quat, bool) {
    let limits = *skeleton.limits(wrist_of(side));
    let search = HandSearch { skeleton, arm, side, goal, weights, limits };
    if let Some(q) = search.exact_at(0.0) {
        return (0.0, q, false);
    }
    // Swivelling by φ adds φ to the wrist's twist: the side that takes off its excess first.
    let first = if search.exact_any(0.0).is_some_and(|q| twist_excess(&limits, q, side) > 0.0) { -1.0f32 } else { 1.0 };
    let step = arm.max_swivel_rad / SWIVEL_STEPS as f32;
    if let Some((swivel, q)) = search.smallest_reaching_swivel(first, step) {
        return (swivel, q, false);
    }
    if let Some((swivel, q)) = search.least_violating_swivel(first, step) {
        return (swivel, limits.clamp(q), true);
    }
    // The first side's answer unless the other side's is better, and then turning to it
    // continuously as it gets better (the two sides' answers are far apart: a hard pick between
    // them flips with the float noise).
    let [a, b] = search.closest_per_side(first, step);
    // The two sides' answers weighed by how much better one is than the other relative to how
    // poor both are: the better one alone from 40 % better, blended in between, halfway at a
    // tie. Two compromises about equally poor trade places fast as the arm moves (palm1.lbn
    // frame 286: the costs crossed at 0.5 a frame, and a blend over a fixed cost difference of
    // 0.01 swung the elbow 21 cm in one frame). The wrist answers are blended in swing–twist
    // components, which stay inside the wrist's limit box and, unlike a slerp, do not flip
    // hemisphere where two answers far apart tie (a symmetric goal, ±swivel).
    let w = match (a.cost.is_finite(), b.cost.is_finite()) {
        (true, true) => {
            let relative = (a.cost - b.cost) / (a.cost + b.cost).max(1e-6);
            let x = ((relative + SIDE_BLEND_RELATIVE) / (2.0 * SIDE_BLEND_RELATIVE)).clamp(0.0, 1.0);
            x * x * (3.0 - 2.0 * x)
        }
        (false, true) => 1.0,
        _ => 0.0,
    };
    if w <= 0.0 {
        return (a.swivel_rad, a.wrist_local, a.clamped);
    }
    if w >= 1.0 {
        return (b.swivel_rad, b.wrist_local, b.clamped);
    }
    let wrist = from_swing_twist_angles(swing_twist_angles(a.wrist_local).lerp(swing_twist_angles(b.wrist_local), w));
    (a.swivel_rad + (b.swivel_rad - a.swivel_rad) * w, wrist, a.clamped || b.clamped)
}

/// Rounds of the coarse refinement that ranks the out-of-reach swivel samples.
const COARSE_ROUNDS: usize = 12;

/// The relative cost difference, (a − b) / (a + b), beyond which the better side's out-of-reach
/// answer is taken alone; inside it the two are blended.
const SIDE_BLEND_RELATIVE: f32 = 0.4;

/// The joints and tracks of one hand: (knuckles, hand track, palm track).
fn hand_parts(side: Side) -> (JointId, LimbId, LimbId) {
    match side {
        Side::Left => (JointId::HandL, LimbId::HandLeft, LimbId::PalmLeft),
        Side::Right => (JointId::HandR, LimbId::HandRight, LimbId::PalmRight),
    }
}

impl DancerAnimation {
    /// Turns the wrist (swivelling the arm about the shoulder → wrist axis when the wrist alone
    /// cannot) and curls the fingers of the hand on `side` towards the hand and palm keys at `t`.
    /// The arm must already be placed; `clavicle_world` is the clavicle's world rotation and
    /// position in `pose`; `yaw` is the dancer's facing. Leaves the hand at rest when
    /// the score has no hand or palm sign for it. Each key's answer is solved on its own and the
    /// wrist slerps between them over the symbol. Returns 1 when the limits stopped the hand
    /// short of the notated direction.
    pub(super) fn pose_hand(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
        clavicle_world: (Quat, Vec3),
        side: Side,
        t: f64,
        yaw: f32,
    ) -> u8 {
        let (knuckles, hand_id, palm_id) = hand_parts(side);
        let hand = self.plan.limbs.get(&hand_id).and_then(|tr| segment_from_rest(tr, t));
        let palm = self.plan.limbs.get(&palm_id).and_then(|tr| segment_from_rest(tr, t));
        if hand.is_none() && palm.is_none() {
            return 0;
        }
        let in_world = |d_in_body: Vec3| world_from_body(d_in_body, yaw).try_normalize();
        let goal = |h: Option<LimbTarget>, p: Option<LimbTarget>| HandGoal {
            hand_in_world: h.and_then(|v| in_world(v.dir_in_body)),
            palm_in_world: p.and_then(|v| in_world(v.dir_in_body)),
        };
        let from = goal(hand.map(|h| h.0), palm.map(|p| p.0));
        let to = goal(hand.map(|h| h.1), palm.map(|p| p.1));
        let moving = |seg: Option<(LimbTarget, LimbTarget, f32)>| seg.filter(|(a, b, _)| a != b).map(|(_, _, s)| s);
        let s = match (moving(hand), moving(palm)) {
            (Some(a), Some(b)) => 0.5 * (a + b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => 1.0,
        };
        // A notated hand direction wins over the palm; a palm sign alone may bend the wrist,
        // though it would rather keep the hand in line.
        let weights = if hand.is_some() { (1.0, 0.5) } else { (0.3, 1.0) };
        let arm = ArmFrame::new(skeleton, pose, side, clavicle_world);
        let (swivel_to, q_to, clamped_to) = solve_hand(skeleton, &arm, side, &to, weights);
        let (swivel, wrist_local, clamped) = if s >= 1.0 || from == to {
            (swivel_to, q_to, clamped_to)
        } else {
            let (swivel_from, q_from, clamped_from) = solve_hand(skeleton, &arm, side, &from, weights);
            (swivel_from + (swivel_to - swivel_from) * s, q_from.slerp(q_to, s), clamped_from && clamped_to)
        };
        if swivel.abs() > 1e-6
            && let Some((shoulder, violation)) = arm.checked_swivel(skeleton, swivel)
        {
            // Pushed past the limits within the slack: pulled back inside.
            let shoulder = if violation > arm.shoulder_violation_rad {
                skeleton.limits(arm.shoulder).clamp(shoulder)
            } else {
                shoulder
            };
            pose.set_local(arm.shoulder, shoulder);
        }
        let wrist = wrist_of(side);
        pose.set_local(wrist, skeleton.limits(wrist).clamp(normalized_or_identity(wrist_local)));
        let bend_rad = hand.map_or(0.0, |(a, b, s)| a.bend_rad + (b.bend_rad - a.bend_rad) * s);
        if bend_rad.is_finite() && bend_rad.abs() > 1e-6 {
            // Finger flexion towards the palm is −z on the left, +z on the right.
            let curl = Quat::from_rotation_z(-bend_rad * side.sign_x());
            pose.set_local(knuckles, skeleton.limits(knuckles).clamp(curl));
        }
        u8::from(clamped)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    fn job(hand: Vec3, palm: Option<Vec3>, side: Side) -> WristJob {
        WristJob {
            hand_dir_in_forearm: hand,
            hand_weight: 1.0,
            palm_normal_in_forearm: palm,
            palm_weight: 0.5,
            side,
            limits: *Skeleton::default().limits(wrist_of(side)),
        }
    }

    /// A right arm as palm1.lbn has it at 4.75 s: the upper arm raised to the side, its twist at
    /// the end of its range, the elbow bent a right angle.
    fn arm_on_its_twist_limit(skeleton: &Skeleton) -> ArmFrame {
        let mut pose = Pose::rest(skeleton);
        let deg = |x: f32, y: f32, z: f32| Vec3::new(x, y, z) * std::f32::consts::PI / 180.0;
        pose.set_local(JointId::ShoulderR, from_swing_twist_angles(deg(10.0, -90.0, -92.0)));
        pose.set_local(JointId::ElbowR, Quat::from_rotation_x(-90f32.to_radians()));
        let clavicle = crate::pose::fk::joint_world(skeleton, &pose, JointId::ClavicleR);
        ArmFrame::new(skeleton, &pose, Side::Right, clavicle)
    }

    #[test]
    fn an_arm_on_its_twist_limit_may_swivel_either_way() {
        let skeleton = Skeleton::default();
        let arm = arm_on_its_twist_limit(&skeleton);
        for deg in [-5.0f32, -2.0, 2.0, 5.0] {
            assert!(arm.swivel_allowed(&skeleton, deg.to_radians()), "a swivel of {deg}° is refused");
        }
    }

    #[test]
    fn an_out_of_reach_palm_turning_round_swivels_the_arm_continuously() {
        let skeleton = Skeleton::default();
        let arm = arm_on_its_twist_limit(&skeleton);
        // The palm asked to face round the forearm, half a degree a step: past the wrist's twist
        // range the two ways round trade places.
        let axis = arm.forearm_world * HAND_AXIS_IN_WRIST;
        let start = arm.forearm_world * palm_normal_in_wrist(Side::Right);
        let mut worst = (0.0f32, 0);
        let mut last: Option<f32> = None;
        for step in 0..720 {
            let palm = Quat::from_axis_angle(axis, (step as f32 * 0.5).to_radians()) * start;
            let goal = HandGoal { hand_in_world: None, palm_in_world: Some(palm) };
            let (swivel, _, _) = solve_hand(&skeleton, &arm, Side::Right, &goal, (0.3, 1.0));
            if let Some(prev) = last {
                let jump = (swivel - prev).abs().to_degrees();
                if jump > worst.0 {
                    worst = (jump, step);
                }
            }
            last = Some(swivel);
        }
        // A hard pick between the two sides jumped 28.8° in one step here.
        assert!(worst.0 < 10.0, "the swivel jumped {:.1}° at step {}", worst.0, worst.1);
    }

    #[test]
    fn reachable_goals_are_met_exactly() {
        for side in [Side::Left, Side::Right] {
            // Hand flexed 45° towards the palm, palm twisted 30° about the hand.
            let n = palm_normal_in_wrist(side);
            let flex = Quat::from_rotation_z(-side.sign_x() * 45f32.to_radians());
            let twist = Quat::from_rotation_y(30f32.to_radians());
            let want = flex * twist;
            let sol = solve_wrist(&job(want * HAND_AXIS_IN_WRIST, Some(want * n), side));
            assert!(!sol.clamped);
            assert!(angle_between(sol.wrist_local * HAND_AXIS_IN_WRIST, want * HAND_AXIS_IN_WRIST) < 1e-3);
            assert!(angle_between(sol.wrist_local * n, want * n) < 1e-3);
        }
    }

    #[test]
    fn any_goal_gives_a_finite_rotation_inside_the_limits() {
        let dirs: Vec<Vec3> = (0..26)
            .map(|i| Vec3::new((i % 3) as f32 - 1.0, ((i / 3) % 3) as f32 - 1.0, (i / 9) as f32 - 1.0))
            .filter(|v| *v != Vec3::ZERO)
            .map(Vec3::normalize)
            .chain([Vec3::NAN, Vec3::ZERO])
            .collect();
        for side in [Side::Left, Side::Right] {
            for h in &dirs {
                for p in dirs.iter().map(|p| Some(*p)).chain([None]) {
                    let j = job(*h, p, side);
                    let sol = solve_wrist(&j);
                    assert!(sol.wrist_local.is_finite(), "{h:?} {p:?}");
                    assert!(j.limits.violation_rad(sol.wrist_local) < 1e-4, "{h:?} {p:?}");
                }
            }
        }
    }
}
