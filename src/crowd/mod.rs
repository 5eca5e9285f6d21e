//! Crowds: every performer of an ensemble plan as a function of time — its root transform and pose.
//! Holding a formation it dances its group's score staff on its spot; in a transition it walks its
//! simulated path on the beat (footprints → leg IK). Unison performers share a pose.
//!
//! `Crowd::new` compiles each group's score staff once (groups sharing a score and staff share it)
//! and lays out every performer's transitions from the simulation; `Crowd::prepare(t_beats, view,
//! frame)` gives every performer a pose and a root transform (`world_from_pose`), each distinct
//! pose sampled once. Stage metres map to the world with the audience at +Z and the stage centred
//! on the origin.
//!
//! - Holding a formation, a performer dances its group's staff at the plan's beat (minus
//!   `canon_beats` × (number − 1) for a canon), turned so the staff's front faces the group's
//!   `facing_deg` (clockwise from the audience), or the facing its last `hold` event gave it
//!   (turned to over [`HOLD_TURN_BEATS`]); the staff repeats while the formation holds. A
//!   travelling staff is danced in place ([`in_place`]).
//! - In a transition it walks or runs its path ([`steps`]); over the first fifth of a step and the
//!   half beat after the closing step the walk is blended with the score pose.
//! - Detail: [`View`] picks the performers nearest the camera (at most `max_full`, within
//!   `full_within_m`) to be posed on their own; the others share poses: their group's score pose
//!   while holding, or an entry of the walk-cycle table ([`cycles`]) placed at their position and
//!   heading. `PerformerFrame::detail` tells the renderer which body to draw: `Full`, `Low`, or
//!   `Coarse` for sharing performers farther than `View::coarse_beyond_m`, chosen by distance alone
//!   each frame, so a frame does not depend on the ones before. Ties are broken by performer index
//!   and pose keys live in a `BTreeMap`: deterministic.

pub mod cycles;
pub mod in_place;
pub mod steps;

use crate::animation::{DancerAnimation, compile, foot_geometry};
use crate::ensemble::plan::{Body, Gait, Method, Plan};
use crate::ensemble::simulate::Motion;
use crate::motion::rules::MotionOptions;
use crate::pose::fk::{Pose, local_to_world};
use crate::pose::skeleton::{JOINT_COUNT, JointId, Proportions, Skeleton};
use cycles::Cycles;
use glam::{DVec2, Mat4, Quat, Vec3};
use std::collections::BTreeMap;
use std::path::PathBuf;
use steps::{WalkJob, Walker, walk_plan};

/// What can go wrong building a crowd.
#[derive(Debug, thiserror::Error)]
pub enum CrowdError {
    /// A group names a score the plan does not carry (a plan built by hand, not read).
    #[error("group `{group}`: the score `{}` was not read with the plan", path.display())]
    MissingScore {
        /// The group.
        group: String,
        /// The score it names.
        path: PathBuf,
    },
}

/// Stage metres (x across from the centre, y upstage from the front edge) → world (the audience
/// at +Z, the stage centred on the origin).
pub fn world_from_stage(stage_m: DVec2, p: DVec2) -> Vec3 {
    Vec3::new(p.x as f32, 0.0, (0.5 * stage_m.y - p.y) as f32)
}

/// Yaw (radians, the motion plan's convention) of a facing in degrees clockwise from the audience.
pub fn yaw_from_facing_deg(facing_deg: f64) -> f32 {
    -(facing_deg.to_radians() as f32)
}

/// One group's score staff compiled (its steps taken in place, [`in_place`]), and how its
/// repetitions follow on.
#[derive(Clone, Debug)]
struct Dance {
    /// The staff's compiled motion (`None`: no score, the performers stand).
    dancer: Option<DancerAnimation>,
    /// Tempo of the score (its beats are the plan's beats).
    bpm: f64,
    /// Length of the score, beats (it repeats).
    duration_beats: f64,
    /// Score space → the performer's spot frame for each repetition r (index r, the last one
    /// repeated past the end): each repetition starts where and as the last one ended, the
    /// stances turning about the spot (`centre⁻¹ · (start⁻¹ · end)^r · start⁻¹`, see
    /// [`in_place::fixed_point`]); the first faces front.
    spot_from_score: Vec<Mat4>,
}

/// The most repetitions of a score a crowd performer's dance holds (a four-hour plan of one-beat
/// scores at 400 bpm repeats 96,000 times); later ones repeat the last.
pub const MAX_REPEATS: usize = 100_000;

impl Dance {
    /// A staff's motion made ready to dance on a spot, repeated up to `repeats` times.
    fn new(
        dancer: Option<DancerAnimation>,
        bpm: f64,
        duration_beats: f64,
        repeats: usize,
        skeleton: &Skeleton,
        foot_half_spacing_m: f32,
    ) -> Dance {
        let dancer = dancer.map(|d| match in_place::in_place(&d.plan, foot_half_spacing_m) {
            Some(plan) => crate::animation::animate_plan(plan, skeleton).0,
            None => d,
        });
        let mut spot_from_score = vec![Mat4::IDENTITY];
        if let Some(d) = &dancer {
            let start = in_place::stance_frame(&d.plan, 0.0, d.yaw_at(0.0));
            let end_secs = duration_beats * 60.0 / bpm;
            let end = in_place::stance_frame(&d.plan, end_secs, d.yaw_at(end_secs));
            let start_inv = start.inverse();
            // The end stance in the start stance's frame: each repetition moves the stance so.
            let repeat = start_inv * end;
            let centre = in_place::fixed_point(repeat);
            let mut acc = Mat4::from_translation(-centre);
            spot_from_score = Vec::with_capacity(repeats + 1);
            for _ in 0..=repeats {
                spot_from_score.push(acc * start_inv);
                acc *= repeat;
            }
        }
        Dance { dancer, bpm, duration_beats, spot_from_score }
    }

    /// The beat of the score at `t_beats` of the performer's score time: the staff repeats
    /// while the formation holds (nothing before its start).
    fn beat_in_score(&self, t_beats: f64) -> f64 {
        if self.duration_beats > 0.0 { t_beats.max(0.0).rem_euclid(self.duration_beats) } else { 0.0 }
    }

    /// Score space → spot frame at `t_beats` of the performer's score time.
    fn spot_from_score(&self, t_beats: f64) -> Mat4 {
        let r = if self.duration_beats > 0.0 { (t_beats.max(0.0) / self.duration_beats).floor() as usize } else { 0 };
        self.spot_from_score[r.min(self.spot_from_score.len() - 1)]
    }

    /// The score's body at `t_beats` (already in the score, [`Dance::beat_in_score`]) in the
    /// score's own space.
    fn sample(&self, skeleton: &Skeleton, t_beats: f64, pose: &mut Pose) {
        match &self.dancer {
            Some(d) => {
                d.sample_into(skeleton, t_beats * 60.0 / self.bpm, pose);
            }
            None => *pose = Pose::rest(skeleton),
        }
    }
}

/// One transition of one performer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leg {
    /// Start, beats.
    pub start_beats: f64,
    /// Arrival (or when it was due, if it never arrived), beats.
    pub arrive_beats: f64,
    /// Steps taken (a closing step follows).
    pub steps: usize,
    /// Walk or run.
    pub gait: Gait,
}

impl Leg {
    /// Beats between steps.
    pub fn step_beats(&self) -> f64 {
        1.0 / Body::steps_per_beat(self.gait)
    }

    /// When the closing step lands, beats.
    pub fn end_beats(&self) -> f64 {
        self.start_beats + (self.steps + 1) as f64 * self.step_beats()
    }
}

/// Level of detail of a performer this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    /// Posed individually (walks with its own footprints); the full body.
    Full,
    /// Shares a pose (the score's for its group and offset, or a walk cycle); a low-detail body.
    Low,
    /// Shares a pose as [`Detail::Low`], far enough away ([`View::coarse_beyond_m`]) for the
    /// coarsest body.
    Coarse,
}

/// Who is posed individually: the performers nearest `eye_in_world`, at most `max_full` of
/// them and none farther than `full_within_m`; of the others, those farther than
/// `coarse_beyond_m` get the coarsest body. A function of the distances alone (no memory of
/// the last frame), so a frame is the same whatever came before it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The camera position, world metres.
    pub eye_in_world: Vec3,
    /// Farthest individually posed performer, metres.
    pub full_within_m: f32,
    /// Most individually posed performers.
    pub max_full: usize,
    /// Sharing performers farther than this from the eye are [`Detail::Coarse`], metres.
    pub coarse_beyond_m: f32,
}

impl View {
    /// Everyone posed individually.
    pub fn everyone_full() -> Self {
        View {
            eye_in_world: Vec3::ZERO,
            full_within_m: f32::INFINITY,
            max_full: usize::MAX,
            coarse_beyond_m: f32::INFINITY,
        }
    }
}

/// One performer in a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerformerFrame {
    /// Index into [`CrowdFrame::poses`].
    pub pose: usize,
    /// Pose space → world (a turn about +Y and a move along the floor).
    pub world_from_pose: Mat4,
    /// Level of detail.
    pub detail: Detail,
    /// Where it stands (ground point, world metres).
    pub ground_in_world: Vec3,
    /// Walking a transition (not dancing the score).
    pub walking: bool,
}

/// Poses of one frame: each distinct pose sampled once, with its joints' world transforms.
#[derive(Clone, Debug, Default)]
pub struct CrowdFrame {
    /// The distinct poses.
    pub poses: Vec<Pose>,
    /// `world_from_joint` (pose space) of each pose.
    pub joints: Vec<[Mat4; JOINT_COUNT]>,
    /// One per performer, in the plan's order.
    pub performers: Vec<PerformerFrame>,
    keys: BTreeMap<PoseKey, usize>,
    /// The key of each pose (parallel to `poses`).
    pose_keys: Vec<PoseKey>,
    order: Vec<(f32, usize)>,
}

impl CrowdFrame {
    /// What pose `pose` is: the same key in two frames is the same pose (an exporter bakes it
    /// once).
    pub fn pose_key(&self, pose: usize) -> PoseKey {
        self.pose_keys[pose]
    }

    /// `world_from_joint` of performer `i`'s joints this frame.
    pub fn world_from_joint(&self, i: usize, out: &mut [Mat4; JOINT_COUNT]) {
        let p = &self.performers[i];
        for (o, j) in out.iter_mut().zip(&self.joints[p.pose]) {
            *o = p.world_from_pose * *j;
        }
    }
}

/// What a shared pose is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PoseKey {
    /// A score staff at a beat (bits of the f64).
    Dance(usize, u64),
    /// A walk cycle entry.
    Cycle(usize),
    /// Posed on its own.
    Own(usize),
}

/// Every performer of a plan, ready to be posed at any time.
#[derive(Clone, Debug)]
pub struct Crowd {
    /// The skeleton all performers share.
    pub skeleton: Skeleton,
    /// The plan.
    pub plan: Plan,
    /// Its simulated motion.
    pub motion: Motion,
    /// Per performer, its transitions in time order.
    pub legs: Vec<Vec<Leg>>,
    dances: Vec<Dance>,
    /// Per group, its dance.
    dance_of_group: Vec<usize>,
    walker: Walker,
    cycles: Cycles,
    foot_half_spacing_m: f32,
    /// Per group, the facings its `hold` events turn it to: (start, degrees), by start.
    hold_facings: Vec<Vec<(f64, f64)>>,
}

/// Beats over which a performer turns from its walk into its formation facing and score pose.
pub const SETTLE_BEATS: f64 = 0.5;

/// Beats a group takes to turn to the facing a `hold` gives it.
pub const HOLD_TURN_BEATS: f64 = 1.0;

/// Per group, the facings its `hold` events give it: (start beats, degrees), by start.
fn hold_facings(plan: &Plan) -> Vec<Vec<(f64, f64)>> {
    let mut out = vec![Vec::new(); plan.groups.len()];
    for b in &plan.behaviours {
        if let Method::Hold { facing_deg: Some(facing) } = b.method {
            for &g in &b.groups {
                out[g].push((b.start_beats, facing));
            }
        }
    }
    for facings in &mut out {
        facings.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    out
}

impl Crowd {
    /// Compiles every group's score staff (once per score and staff) for a body of
    /// `proportions`, and lays out each performer's transitions from `motion`.
    pub fn new(plan: Plan, motion: Motion, proportions: &Proportions) -> Result<Crowd, CrowdError> {
        let skeleton = Skeleton::new(proportions);
        let opts = MotionOptions::default();
        let mut dances: Vec<Dance> = Vec::new();
        let mut by_source: BTreeMap<(Option<PathBuf>, usize), usize> = BTreeMap::new();
        let mut dance_of_group = Vec::new();
        let mut scores = BTreeMap::new();
        for g in &plan.groups {
            let key = (g.score.clone(), g.staff);
            if let Some(&k) = by_source.get(&key) {
                dance_of_group.push(k);
                continue;
            }
            let dance = match &g.score {
                None => Dance::new(None, plan.clock.tempo.bpm, 0.0, 0, &skeleton, opts.foot_half_spacing_m),
                Some(path) => {
                    if !scores.contains_key(path) {
                        let score = plan
                            .score(path)
                            .cloned()
                            .ok_or_else(|| CrowdError::MissingScore { group: g.name.clone(), path: path.clone() })?;
                        let anim = compile(&score, &opts, proportions);
                        scores.insert(path.clone(), (score, anim));
                    }
                    let (score, anim) = &scores[path];
                    let dancer = anim.dancers.get(g.staff.saturating_sub(1)).cloned();
                    let repeats = if score.duration_beats > 0.0 {
                        ((motion.end_beats() / score.duration_beats).ceil() as usize + 1).min(MAX_REPEATS)
                    } else {
                        0
                    };
                    Dance::new(
                        dancer,
                        score.tempo.bpm,
                        score.duration_beats,
                        repeats,
                        &skeleton,
                        opts.foot_half_spacing_m,
                    )
                }
            };
            by_source.insert(key, dances.len());
            dance_of_group.push(dances.len());
            dances.push(dance);
        }
        let rest = Pose::rest(&skeleton);
        let walker = Walker { foot_geometry: foot_geometry(&skeleton), standing_pelvis_m: rest.pelvis_in_world.y };
        let foot_half_spacing_m = opts.foot_half_spacing_m;
        let cycles = Cycles::new(&skeleton, &walker, &plan.body, plan.clock.tempo.bpm, foot_half_spacing_m);
        let mut legs = vec![Vec::new(); plan.performers.len()];
        for m in &motion.moves {
            let step = 1.0 / Body::steps_per_beat(m.gait);
            let arrive = m.arrived_beats.unwrap_or(m.due_beats).max(m.start_beats + step);
            let steps = ((arrive - m.start_beats) / step - 1e-6).ceil().max(1.0) as usize;
            legs[m.performer].push(Leg { start_beats: m.start_beats, arrive_beats: arrive, steps, gait: m.gait });
        }
        for l in &mut legs {
            l.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats));
        }
        let hold_facings = hold_facings(&plan);
        Ok(Crowd {
            skeleton,
            plan,
            motion,
            legs,
            dances,
            dance_of_group,
            walker,
            cycles,
            foot_half_spacing_m,
            hold_facings,
        })
    }

    /// The end of everything, beats.
    pub fn end_beats(&self) -> f64 {
        let walks = self.legs.iter().flatten().map(Leg::end_beats).fold(0.0, f64::max);
        walks.max(self.motion.end_beats())
    }

    /// The transition performer `i` is in at `t_beats`, if any.
    pub fn leg_at(&self, i: usize, t_beats: f64) -> Option<&Leg> {
        self.legs[i].iter().rev().find(|l| t_beats >= l.start_beats && t_beats < l.end_beats())
    }

    /// Where performer `i` is at `t_beats` (its simulated path), world metres.
    pub fn ground_at(&self, i: usize, t_beats: f64) -> Vec3 {
        world_from_stage(self.plan.stage_m, self.motion.position_at(i, t_beats))
    }

    /// The beat of performer `i`'s score at `t_beats` (its canon offset taken off).
    pub fn score_beats(&self, i: usize, t_beats: f64) -> f64 {
        let p = &self.plan.performers[i];
        let g = &self.plan.groups[p.group];
        t_beats - g.canon_beats * (p.number.saturating_sub(1)) as f64
    }

    /// The facing of group `group` at `t_beats`, degrees clockwise from the audience: its own,
    /// then from each `hold` that turns it, turned to the shorter way round over
    /// [`HOLD_TURN_BEATS`].
    pub fn facing_deg_at(&self, group: usize, t_beats: f64) -> f64 {
        let mut facing = self.plan.groups[group].facing_deg;
        for &(start_beats, to_deg) in &self.hold_facings[group] {
            if t_beats <= start_beats {
                break;
            }
            let w = ((t_beats - start_beats) / HOLD_TURN_BEATS).min(1.0);
            let turn = (to_deg - facing + 180.0).rem_euclid(360.0) - 180.0;
            facing += turn * f64::from(crate::motion::plan::smoothstep(w as f32));
        }
        facing
    }

    /// Pose space → world for performer `i` dancing its score on its spot at `t_beats`.
    fn dance_root(&self, i: usize, t_beats: f64) -> Mat4 {
        let p = &self.plan.performers[i];
        let dance = &self.dances[self.dance_of_group[p.group]];
        let turn = Quat::from_rotation_y(yaw_from_facing_deg(self.facing_deg_at(p.group, t_beats)));
        let spot = self.ground_at(i, t_beats);
        Mat4::from_translation(spot) * Mat4::from_quat(turn) * dance.spot_from_score(self.score_beats(i, t_beats))
    }

    /// The motion group `group` dances while holding a formation (its steps taken in place),
    /// if it has a score.
    pub fn dance_animation(&self, group: usize) -> Option<&DancerAnimation> {
        self.dances[self.dance_of_group[group]].dancer.as_ref()
    }

    /// Performer `i` walking `leg`, animated with its own footprints (world space).
    pub fn walk_animation(&self, i: usize, leg: &Leg) -> DancerAnimation {
        let tempo = &self.plan.clock.tempo;
        let beats = |t_secs: f64| tempo.beats_from_secs(t_secs);
        let ground = |t_secs: f64| self.ground_at(i, beats(t_secs).min(leg.arrive_beats));
        let p = &self.plan.performers[i];
        let job = WalkJob {
            t_start_secs: tempo.secs_from_beats(leg.start_beats),
            step_secs: tempo.secs_from_beats(leg.step_beats()),
            steps: leg.steps,
            ground_at: &ground,
            foot_half_spacing_m: self.foot_half_spacing_m,
            yaw_start_rad: yaw_from_facing_deg(self.facing_deg_at(p.group, leg.start_beats)),
            flight: flight_of(leg.gait),
        };
        self.walker.animate(walk_plan(&job))
    }

    /// Dance `dance` (the index a [`PoseKey::Dance`] names) at `beat_in_score` of its score
    /// (wrapped to the score's length), in score space, as [`Crowd::prepare`] samples it.
    pub fn dance_pose_at(&self, dance: usize, beat_in_score: f64, pose: &mut Pose) {
        let d = &self.dances[dance];
        d.sample(&self.skeleton, d.beat_in_score(beat_in_score), pose);
    }

    /// Length of dance `dance`'s score, beats (0 without a score).
    pub fn dance_beats(&self, dance: usize) -> f64 {
        self.dances[dance].duration_beats
    }

    /// Performer `i` dancing its score at `t_beats`: the pose (score space), the root.
    pub fn dance_pose(&self, i: usize, t_beats: f64, pose: &mut Pose) -> Mat4 {
        let dance = &self.dances[self.dance_of_group[self.plan.performers[i].group]];
        dance.sample(&self.skeleton, dance.beat_in_score(self.score_beats(i, t_beats)), pose);
        self.dance_root(i, t_beats)
    }

    /// Performer `i` posed on its own at `t_beats` in world space (its root applied to the
    /// pelvis), as [`Crowd::prepare`] poses a performer it picks; `walk` caches the animation of
    /// the transition it is in (pass the same cache for one performer's successive times).
    pub fn pose_in_world(&self, i: usize, t_beats: f64, walk: &mut Option<(Leg, DancerAnimation)>, pose: &mut Pose) {
        match self.leg_at(i, t_beats).copied() {
            Some(leg) => {
                if walk.as_ref().is_none_or(|(l, _)| *l != leg) {
                    *walk = Some((leg, self.walk_animation(i, &leg)));
                }
                if let Some((_, anim)) = walk.as_ref() {
                    anim.sample_into(&self.skeleton, self.plan.clock.tempo.secs_from_beats(t_beats), pose);
                }
                self.settle(i, t_beats, &leg, pose);
            }
            None => {
                let root = self.dance_pose(i, t_beats, pose);
                let (_, rot, pos) = root.to_scale_rotation_translation();
                pose.pelvis_in_world = rot * pose.pelvis_in_world + pos;
                pose.set_local(JointId::Pelvis, rot * pose.local(JointId::Pelvis));
            }
        }
    }

    /// Poses every performer at `t_beats` into `frame`; those `view` picks are posed on their
    /// own, the others share poses. Deterministic.
    pub fn prepare(&self, t_beats: f64, view: &View, frame: &mut CrowdFrame) {
        let n = self.plan.performers.len();
        frame.poses.clear();
        frame.joints.clear();
        frame.performers.clear();
        frame.keys.clear();
        frame.pose_keys.clear();
        // Who is near.
        frame.order.clear();
        frame.order.extend((0..n).map(|i| (self.ground_at(i, t_beats).distance(view.eye_in_world), i)));
        let full = view.max_full.min(n);
        if full < n {
            frame.order.select_nth_unstable_by(full, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
        let mut detail = vec![Detail::Low; n];
        for &(d, i) in &frame.order {
            if d > view.coarse_beyond_m {
                detail[i] = Detail::Coarse;
            }
        }
        for &(d, i) in &frame.order[..full] {
            if d <= view.full_within_m {
                detail[i] = Detail::Full;
            }
        }
        let tempo = &self.plan.clock.tempo;
        let mut scratch = Pose::rest(&self.skeleton);
        for (i, &det) in detail.iter().enumerate() {
            let ground_in_world = self.ground_at(i, t_beats);
            let leg = self.leg_at(i, t_beats).copied();
            let (key, root) = match (leg, det) {
                (None, _) => {
                    let group = self.plan.performers[i].group;
                    let sb = self.score_beats(i, t_beats);
                    let dance = &self.dances[self.dance_of_group[group]];
                    let sb = dance.beat_in_score(sb);
                    let key = PoseKey::Dance(self.dance_of_group[group], sb.to_bits());
                    if !frame.keys.contains_key(&key) {
                        dance.sample(&self.skeleton, sb, &mut scratch);
                        push_pose(frame, &self.skeleton, key, &scratch);
                    }
                    (key, self.dance_root(i, t_beats))
                }
                (Some(leg), Detail::Full) => {
                    let anim = self.walk_animation(i, &leg);
                    anim.sample_into(&self.skeleton, tempo.secs_from_beats(t_beats), &mut scratch);
                    self.settle(i, t_beats, &leg, &mut scratch);
                    let key = PoseKey::Own(i);
                    push_pose(frame, &self.skeleton, key, &scratch);
                    (key, Mat4::IDENTITY)
                }
                (Some(leg), Detail::Low | Detail::Coarse) => {
                    let step = leg.step_beats();
                    let a = self.ground_at(i, t_beats - 0.5 * step);
                    let b = self.ground_at(i, t_beats + 0.5 * step);
                    let d = b - a;
                    let yaw = if d.length_squared() > 1e-6 {
                        d.x.atan2(d.z)
                    } else {
                        yaw_from_facing_deg(self.facing_deg_at(self.plan.performers[i].group, t_beats))
                    };
                    let steps = (t_beats - leg.start_beats) / step;
                    let c = self.cycles.index(leg.gait, f64::from(d.length()), steps);
                    let key = PoseKey::Cycle(c);
                    if !frame.keys.contains_key(&key) {
                        push_pose(frame, &self.skeleton, key, &self.cycles.poses[c]);
                    }
                    (key, Mat4::from_translation(ground_in_world) * Mat4::from_rotation_y(yaw))
                }
            };
            frame.performers.push(PerformerFrame {
                pose: frame.keys[&key],
                world_from_pose: root,
                detail: det,
                ground_in_world,
                walking: leg.is_some(),
            });
        }
    }

    /// Blends an individually posed walker (world space) with its score pose over the first
    /// and last [`SETTLE_BEATS`] of a leg, so it turns into and out of its formation facing.
    fn settle(&self, i: usize, t_beats: f64, leg: &Leg, pose: &mut Pose) {
        let into = ((t_beats - leg.start_beats) / (SETTLE_BEATS.min(0.2 * leg.step_beats()))).clamp(0.0, 1.0);
        let out_of = ((leg.end_beats() + SETTLE_BEATS - t_beats) / SETTLE_BEATS).clamp(0.0, 1.0);
        let (w, t_dance) = if into < 1.0 {
            (1.0 - into, leg.start_beats)
        } else if t_beats > leg.end_beats() {
            (1.0 - out_of, leg.end_beats())
        } else {
            return;
        };
        if w <= 0.0 {
            return;
        }
        let mut dance = Pose::rest(&self.skeleton);
        let root = self.dance_pose(i, t_dance, &mut dance);
        let (_, rot, pos) = root.to_scale_rotation_translation();
        dance.pelvis_in_world = rot * dance.pelvis_in_world + pos;
        dance.set_local(JointId::Pelvis, rot * dance.local(JointId::Pelvis));
        blend(pose, &dance, w as f32);
    }
}

/// Fraction of each step interval in flight for `gait` (runs have a flight before each landing).
pub fn flight_of(gait: Gait) -> f64 {
    match gait {
        Gait::Walk => 0.0,
        Gait::Run => steps::RUN_FLIGHT,
    }
}

/// `pose` moved towards `other` by `w` (0: unchanged, 1: `other`).
fn blend(pose: &mut Pose, other: &Pose, w: f32) {
    pose.pelvis_in_world = pose.pelvis_in_world.lerp(other.pelvis_in_world, w);
    for (a, b) in pose.local_rot.iter_mut().zip(&other.local_rot) {
        *a = a.slerp(*b, w);
    }
}

fn push_pose(frame: &mut CrowdFrame, skeleton: &Skeleton, key: PoseKey, pose: &Pose) {
    let mut joints = [Mat4::IDENTITY; JOINT_COUNT];
    // The buffer has JOINT_COUNT entries, so this cannot fail.
    let _ = local_to_world(skeleton, pose, &mut joints);
    frame.keys.insert(key, frame.poses.len());
    frame.pose_keys.push(key);
    frame.poses.push(pose.clone());
    frame.joints.push(joints);
}
