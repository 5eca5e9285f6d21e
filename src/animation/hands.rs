//! Hands: the wrist's local rotation from the notated hand direction (wrist → knuckles) and palm
//! facing, kept inside the wrist's joint limits, and the finger curl of a bent hand.
//!
//! Runs after the arm IK has placed the forearm; only the wrist and knuckle joints turn here.

use super::DancerAnimation;
use crate::motion::plan::{Key, LimbId, LimbTarget, Track, smoothstep, world_from_body};
use crate::pose::fk::{Pose, joint_world};
use crate::pose::limits::{JointLimits, from_swing_twist_angles, normalized_or_identity, swing_twist_angles};
use crate::pose::skeleton::{JointId, Side, Skeleton};
use glam::{Mat3, Quat, Vec3};

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

/// Unit `a` turned towards unit `b` by the fraction `s` of the angle between them.
pub fn slerp_dir(a: Vec3, b: Vec3, s: f32) -> Vec3 {
    let turn = Quat::IDENTITY.slerp(Quat::from_rotation_arc(a, b), s.clamp(0.0, 1.0));
    let d = (turn * a).normalize_or_zero();
    if d == Vec3::ZERO { b } else { d }
}

/// The rotation meeting both goals exactly (twist 0 without a palm goal); `None` when the palm
/// faces (nearly) along the hand, which needs a compromise.
fn exact_rotation(job: &WristJob) -> Option<Quat> {
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
/// allowed rotation. Deterministic and bounded (at most 300 rounds of 6 evaluations).
fn refine(job: &WristJob, start: Vec3) -> (Vec3, f32) {
    let (lo, hi) = (job.limits.min_rad, job.limits.max_rad);
    let mut a = start.clamp(lo, hi);
    let mut best = cost(job, a);
    let mut step = 0.25f32;
    for _ in 0..300 {
        if step < 2e-4 {
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
    let starts = [swing_twist_angles(exact.unwrap_or(swing_only)), swing_twist_angles(swing_only), Vec3::ZERO];
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

/// The joints of one hand: (elbow, wrist, knuckles, hand track, palm track).
fn hand_joints(side: Side) -> (JointId, JointId, JointId, LimbId, LimbId) {
    match side {
        Side::Left => (JointId::ElbowL, JointId::WristL, JointId::HandL, LimbId::HandLeft, LimbId::PalmLeft),
        Side::Right => (JointId::ElbowR, JointId::WristR, JointId::HandR, LimbId::HandRight, LimbId::PalmRight),
    }
}

impl DancerAnimation {
    /// Turns the wrist and curls the fingers of the hand on `side` towards the hand and palm
    /// keys at `t` (the forearm must already be placed; `yaw` is the dancer's facing). Leaves the
    /// hand at rest when the score has no hand or palm sign for it. Returns 1 when the wrist's
    /// limits stopped it short of the notated direction.
    pub(super) fn pose_hand(&self, skeleton: &Skeleton, pose: &mut Pose, side: Side, t: f64, yaw: f32) -> u8 {
        let (elbow, wrist, knuckles, hand_id, palm_id) = hand_joints(side);
        let hand = self.plan.limbs.get(&hand_id).and_then(|tr| segment_from_rest(tr, t));
        let palm = self.plan.limbs.get(&palm_id).and_then(|tr| segment_from_rest(tr, t));
        if hand.is_none() && palm.is_none() {
            return 0;
        }
        let (forearm_rot, _) = joint_world(skeleton, pose, elbow);
        let forearm_from_world = normalized_or_identity(forearm_rot).inverse();
        let in_forearm = |d_in_body: Vec3| -> Option<Vec3> {
            let d = world_from_body(d_in_body, yaw);
            if d.length_squared() < 1e-8 { None } else { (forearm_from_world * d).try_normalize() }
        };
        let (hand_dir, bend_rad) = match hand {
            Some((from, to, s)) => {
                let a = in_forearm(from.dir_in_body).unwrap_or(HAND_AXIS_IN_WRIST);
                let b = in_forearm(to.dir_in_body).unwrap_or(HAND_AXIS_IN_WRIST);
                (slerp_dir(a, b, s), from.bend_rad + (to.bend_rad - from.bend_rad) * s)
            }
            None => (HAND_AXIS_IN_WRIST, 0.0),
        };
        // Without a palm sign the palm faces the way an untwisted wrist leaves it.
        let natural = Quat::from_rotation_arc(HAND_AXIS_IN_WRIST, hand_dir) * palm_normal_in_wrist(side);
        let palm_dir = palm.and_then(|(from, to, s)| {
            let (a, b) = (in_forearm(from.dir_in_body), in_forearm(to.dir_in_body));
            if a.is_none() && b.is_none() {
                return None;
            }
            Some(slerp_dir(a.unwrap_or(natural), b.unwrap_or(natural), s))
        });
        // A notated hand direction wins over the palm; a palm sign alone may bend the wrist,
        // though it would rather keep the hand in line.
        let (hand_weight, palm_weight) = if hand.is_some() { (1.0, 0.5) } else { (0.3, 1.0) };
        let solution = solve_wrist(&WristJob {
            hand_dir_in_forearm: hand_dir,
            hand_weight,
            palm_normal_in_forearm: palm_dir,
            palm_weight,
            side,
            limits: *skeleton.limits(wrist),
        });
        pose.set_local(wrist, solution.wrist_local);
        if bend_rad.is_finite() && bend_rad.abs() > 1e-6 {
            // Finger flexion towards the palm is −z on the left, +z on the right.
            let curl = Quat::from_rotation_z(-bend_rad * side.sign_x());
            pose.set_local(knuckles, skeleton.limits(knuckles).clamp(curl));
        }
        u8::from(solution.clamped)
    }
}
