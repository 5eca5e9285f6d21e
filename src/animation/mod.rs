//! Animation: the score compiled into motion that can be sampled at any time — the rule engine's
//! plans, a pelvis path per dancer, foot keys and limb IK on a skeleton.
//!
//! `compile(score) → Animation`, then `Animation::sample(t_secs)` → one [`Pose`] per dancer. Pure
//! and deterministic: time is a parameter, nothing reads a clock.
//!
//! The sampler poses the pelvis on the centre-of-mass path ([`crate::motion::com`]) and the feet
//! from foot keys: heel strike → flat → heel-off, pivots on the ball, swing with clearance; in
//! flights the foot points at push-off, the legs tuck, kick back or reach in proportion to the air
//! time and the landing foot arrives at its landing state. Limbs use analytic 7-DOF IK
//! ([`crate::pose::ik`], an IKAN-style swivel inside the joint limits); arm and leg gestures arrive
//! at the top of their symbols; head and chest tilt. Footprints are found by binary search in the
//! per-foot lists that `compile` builds (`prints`).
//!
//! # Continuity
//!
//! Sampled at 60 fps with each built-in body, no joint or end site of the demos and the real
//! corpus pops but the few listed as open in `tests/pipeline/motion_continuity.rs`. What keeps
//! the motion continuous:
//!
//! - Legs: the knee's swivel is a continuous function of the foot (the least-twist pole in the
//!   foot's heading); a leg gesture hands over to the next step over its swing; a gesture after a
//!   pause without a step continues its run; a lifted foot waiting for its next step turns with the
//!   body the way the body turns; near a landing or a lift a foot in the air rolls about its heel
//!   or ball as a planted one does; a foot set down again where it stands (relevé, pivot) turns to
//!   the next print's pitch; a step written with no swing time gets 0.2 s; toes bent to keep their
//!   tip on the floor straighten over the first 2 cm a foot rises.
//! - Flights: the foot is lifted until its toes clear with the flight keys' bend; a free foot
//!   starts and ends the flight where the ground keys hold it and points fully only in flights of
//!   0.5 s or more; the ankle eases out exponentially over the last 3 cm before the leg's full
//!   reach.
//! - Pelvis: the drop for an out-of-reach foot is capped at 30 cm and fades in over 0.2 s before a
//!   landing; the tilt of a leg gesture fades towards a vertical leg (`pelvis_tilt`).
//! - Arms: a directionless key ("place") keeps the direction held before it; keys reached at the
//!   same time move towards the last; joint limits read a swing past a half turn both ways; an arm
//!   whose direct way between two keys leaves the shoulder's range bows out to the side; an arm
//!   whose upper and lower segments are written at both ends of a move turns its swivel and its
//!   upper arm's twist from the one key's solution to the other's; where a shoulder is pushed so
//!   far over the top that both readings of its swing lie outside its range, the limits' clamp
//!   turns from the one reading's answer to the other's through the half turn.
//! - Hands: a palm facing along the forearm bends the wrist by the least palm rotation; the hand's
//!   swivel search tries first the side that hands the wrist's excess twist to the arm and keeps
//!   the first of equally good answers; where no swivel lets the wrist reach the palm's facing, the
//!   two ways round are blended by how much better one is than the other relative to how poor both
//!   are (in full from 40 % better); the hand's swivel may push a shoulder sitting on its twist
//!   limit 1° further, clamped back after.

pub mod capture;
pub mod com_cache;
pub mod com_job;
mod contact_warnings;
pub mod feet;
pub mod flight_keys;
pub mod floor;
pub mod hands;
pub mod pelvis_tilt;
pub mod prints;
pub mod rotations;
pub mod sample;
mod sample_feet;
pub mod simple_path;

use crate::motion::plan::DancerPlan;
use crate::motion::rules::{Interpretation, MotionOptions, plan_score};
use crate::pose::fk::Pose;
use crate::pose::skeleton::{JointId, Proportions, Side, Skeleton};
use crate::score::Score;
use feet::{FootAngles, FootGeometry};
use flight_keys::FlightKeys;
use glam::Vec3;
use pelvis_tilt::TiltRule;
use simple_path::SimplePath;

pub use sample::SampleReport;

/// The pelvis path of one dancer.
#[derive(Clone, Debug)]
pub enum PelvisPath {
    /// Found by the centre-of-mass optimiser through the footprints.
    Optimised(crate::motion::com::ComPath),
    /// The closed-form path (ease between targets, ballistic flights), used when the optimiser
    /// refuses the job (the reason is in [`Animation::notes`]).
    Simple(SimplePath),
}

impl PelvisPath {
    /// Pelvis position at `t_secs`.
    pub fn position_at(&self, t_secs: f64) -> Vec3 {
        match self {
            PelvisPath::Optimised(p) => p.position_at(t_secs.clamp(p.t_start_secs(), p.t_end_secs())),
            PelvisPath::Simple(p) => p.position_at(t_secs),
        }
    }
}

/// One dancer's compiled motion.
#[derive(Clone, Debug)]
pub struct DancerAnimation {
    /// What the rule engine decided.
    pub plan: DancerPlan,
    /// Where the pelvis goes.
    pub path: PelvisPath,
    /// The skeleton's foot, for foot keys.
    pub foot_geometry: FootGeometry,
    /// Foot pitch angles.
    pub foot_angles: FootAngles,
    /// Kick, tuck and pointing of the feet in flights.
    pub flight_keys: FlightKeys,
    /// How much of a leg gesture the pelvis and spine take.
    pub tilt_rule: TiltRule,
    /// `plan.footprints` split by foot (built by [`compile`] for the sampler's searches).
    pub prints: prints::FootPrints,
    /// The outward bows of the left and right arm's moves (built by [`compile`]; empty tables
    /// compute them while sampling).
    pub arm_bows: [sample::ArmBows; 2],
    /// Each arm move's swivel path (built by [`animate_plan`]; empty: the shortest turn).
    pub arm_swivels: sample::ArmSwivels,
}

impl DancerAnimation {
    /// Pelvis position at `t_secs` (before the drop that keeps planted feet on the floor).
    pub fn pelvis_at(&self, t_secs: f64) -> Vec3 {
        self.path.position_at(t_secs)
    }
}

/// A whole score, ready to sample.
#[derive(Clone, Debug)]
pub struct Animation {
    /// The skeleton all dancers share.
    pub skeleton: Skeleton,
    /// One per staff.
    pub dancers: Vec<DancerAnimation>,
    /// Length in seconds.
    pub duration_secs: f64,
    /// What was interpreted and what was skipped.
    pub interpretation: Interpretation,
    /// Remarks about the compilation (e.g. a dancer whose path fell back to the simple one).
    pub notes: Vec<String>,
    /// Contacts (holds) between body parts, applied after every dancer is posed.
    pub contacts: Vec<crate::contact::TimedContact>,
    /// A retargeted motion capture that poses dancer 1 instead of the score
    /// ([`Animation::from_capture`]).
    pub capture: Option<std::sync::Arc<crate::mocap::CaptureMotion>>,
}

/// The foot of `skeleton` as the foot keys need it.
pub fn foot_geometry(skeleton: &Skeleton) -> FootGeometry {
    let rest = Pose::rest(skeleton);
    let (_, ankle) = crate::pose::fk::joint_world(skeleton, &rest, JointId::AnkleL);
    let toe_tip_in_ball = skeleton
        .end_sites()
        .iter()
        .find(|s| s.parent == JointId::BallL)
        .map(|s| s.offset_in_parent)
        .unwrap_or(Vec3::new(0.0, 0.0, 0.05));
    FootGeometry::new(ankle.y, skeleton.rest_offset(JointId::BallL), skeleton.heel_in_ankle(), toe_tip_in_ball)
}

/// Legs (hip height) shorter than this fraction of the height size the steps instead of the
/// height: the step table was tuned on bodies with legs of 0.51–0.53 of their height, and a
/// chibi character (legs a third of its height) would otherwise crouch into steps far longer
/// than its legs.
pub const STEP_LEG_FRACTION: f32 = 0.5;

/// Compiles a score for a dancer of `proportions`. `opts.height_m` (which sizes the steps: the
/// height, or for short legs the height of a body with these legs, see [`STEP_LEG_FRACTION`])
/// and `opts.leg_length_m` are taken from the proportions.
pub fn compile(score: &Score, opts: &MotionOptions, proportions: &Proportions) -> Animation {
    compile_reusing(score, opts, proportions, &mut com_cache::ComPathCache::with_capacity(0))
}

/// [`compile`], taking each dancer's centre-of-mass path from `cache` where an earlier compile
/// solved the same job, and keeping the paths it solves there: the player's recompile after an
/// edit that moves no support skips the optimiser. The result is the one of [`compile`].
pub fn compile_reusing(
    score: &Score,
    opts: &MotionOptions,
    proportions: &Proportions,
    cache: &mut com_cache::ComPathCache,
) -> Animation {
    let skeleton = Skeleton::new(proportions);
    let rest = Pose::rest(&skeleton);
    let (_, hip) = crate::pose::fk::joint_world(&skeleton, &rest, JointId::HipL);
    let mut opts = opts.clone();
    opts.height_m = proportions.height_m.min(hip.y / STEP_LEG_FRACTION);
    opts.leg_length_m = hip.y;
    let foot = foot_geometry(&skeleton);
    opts.ball_forward_m = foot.ball_in_ankle.z;
    opts.heel_back_m = -foot.heel_in_ankle.z;
    let (mut plans, mut interpretation) = plan_score(score, &opts);
    let (contacts, contact_warnings) = crate::contact::timed_contacts(score, &plans);
    if opts.partners_together {
        let approach_secs = score.tempo.secs_from_beats(crate::contact::together::APPROACH_BEATS);
        let sizes = crate::contact::together::CoupleSizes::new(&skeleton);
        crate::contact::together::bring_together(&mut plans, &contacts, &sizes, approach_secs);
    }
    interpretation.interpreted += contacts.len();
    interpretation.skipped.extend(contact_warnings);
    let mut notes = Vec::new();
    let dancers = plans
        .into_iter()
        .map(|plan| {
            let staff = plan.staff;
            let (dancer, refused) = animate_plan_reusing(plan, &skeleton, cache);
            if let Some(e) = refused {
                notes.push(format!(
                    "dancer {}: centre-of-mass optimiser refused the path ({e}); using the simple path",
                    staff + 1
                ));
            }
            dancer
        })
        .collect();
    let mut anim = Animation {
        skeleton,
        dancers,
        duration_secs: score.duration_secs(),
        interpretation,
        notes,
        contacts,
        capture: None,
    };
    let said = anim.contact_warnings(score);
    anim.interpretation.skipped.extend(said);
    anim
}

/// One dancer's plan made ready to sample on `skeleton`: the pelvis path the centre-of-mass
/// optimiser finds through its footprints, or the closed-form path when there are none or the
/// optimiser refuses the job (its reason returned with it).
pub fn animate_plan(plan: DancerPlan, skeleton: &Skeleton) -> (DancerAnimation, Option<String>) {
    animate_plan_reusing(plan, skeleton, &mut com_cache::ComPathCache::with_capacity(0))
}

/// [`animate_plan`], the pelvis path taken from `cache` where it holds the same job (and kept
/// there when solved).
pub fn animate_plan_reusing(
    plan: DancerPlan,
    skeleton: &Skeleton,
    cache: &mut com_cache::ComPathCache,
) -> (DancerAnimation, Option<String>) {
    let rest = Pose::rest(skeleton);
    let standing = rest.pelvis_in_world.y;
    let geo = foot_geometry(skeleton);
    let ankle = crate::pose::fk::joint_world(skeleton, &rest, JointId::AnkleL).1;
    let sizes = com_job::BodySizes {
        standing_pelvis_height_m: standing as f64,
        leg_length_m: rest.pelvis_in_world.distance(ankle) as f64,
        ankle_height_m: geo.ankle_height_m as f64,
    };
    let simple = SimplePath::new(&plan, standing);
    let arm_bows = [
        (Side::Left, crate::motion::plan::LimbId::ArmLeft, JointId::ShoulderL),
        (Side::Right, crate::motion::plan::LimbId::ArmRight, JointId::ShoulderR),
    ]
    .map(|(side, limb, shoulder)| sample::ArmBows::new(plan.limbs.get(&limb), side, skeleton.limits(shoulder)));
    // The swivel paths (solved on the rest pose) do not need the pelvis path: on a dancer with
    // enough arm moves they are compiled on a thread of their own while the optimiser runs.
    let swivels = || sample::ArmSwivels::new(&plan.limbs, skeleton, &arm_bows);
    let ((path, refused), arm_swivels) = if plan.footprints.is_empty() {
        ((PelvisPath::Simple(simple), None), swivels())
    } else {
        let job = com_job::com_job(&plan, &simple, sizes);
        let optimised = move || match cache.path_of(&job, crate::motion::com::solve_com_path) {
            Ok(p) => (PelvisPath::Optimised(p), None),
            Err(e) => (PelvisPath::Simple(simple), Some(e.to_string())),
        };
        let arm_keys: usize = [crate::motion::plan::LimbId::ArmLeft, crate::motion::plan::LimbId::ArmRight]
            .iter()
            .filter_map(|l| plan.limbs.get(l))
            .map(|t| t.keys.len())
            .sum();
        if arm_keys >= MIN_ARM_KEYS_PER_THREAD { both(optimised, swivels) } else { (optimised(), swivels()) }
    };
    let dancer = DancerAnimation {
        prints: prints::FootPrints::new(&plan.footprints),
        arm_bows,
        arm_swivels,
        plan,
        path,
        foot_geometry: geo,
        foot_angles: FootAngles::default(),
        flight_keys: FlightKeys::default(),
        tilt_rule: TiltRule::default(),
    };
    (dancer, refused)
}

/// Fewer arm keys than this are not worth a thread for their swivel paths (a move's path costs
/// about 20 µs to compile, starting a thread about 30 µs).
const MIN_ARM_KEYS_PER_THREAD: usize = 8;

/// `a()` and `b()`, `b` on a thread of its own while `a` runs here (both here if no thread can
/// be started). Both are pure, so the result is the one of `(a(), b())`.
fn both<A, B: Send>(a: impl FnOnce() -> A, b: impl Fn() -> B + Sync) -> (A, B) {
    std::thread::scope(|scope| {
        let b = &b;
        let spawned = std::thread::Builder::new().name("arm-swivels".into()).spawn_scoped(scope, b);
        let a = a();
        match spawned {
            Ok(handle) => match handle.join() {
                Ok(b) => (a, b),
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => (a, b()),
        }
    })
}

impl Animation {
    /// Poses of every dancer at `t_secs`, written into `poses` (resized to the dancer count).
    pub fn sample(&self, t_secs: f64, poses: &mut Vec<Pose>) {
        poses.resize(self.dancers.len(), Pose::rest(&self.skeleton));
        if let Some(capture) = &self.capture {
            if let Some(first) = poses.first_mut() {
                *first = capture.sample(t_secs);
            }
            return;
        }
        for (d, pose) in self.dancers.iter().zip(poses.iter_mut()) {
            d.sample_into(&self.skeleton, t_secs, pose);
        }
        crate::contact::apply_contacts(&self.skeleton, &self.contacts, t_secs, poses);
    }
}
