//! Swivel paths: once per arm move, at compile time, the elbow's swivel stepped through the move,
//! each step the in-range swivel nearest the previous one, so the sampler turns the elbow through
//! the shoulder's range (a small table per move) instead of the shortest way across its limits.

use super::arm_between::{arm_swivel_angle, swivel_axis, swivel_reference, wrap_turn};
use super::arm_reach::arm_aim_dir;
use super::arms::MIN_ARM_REACH_M;
use super::{Aim, ArmBows, arm_move_aim, reach_for};
use crate::motion::plan::{LimbId, LimbTarget, Track, smoothstep, world_from_body};
use crate::pose::fk::{Pose, joint_world};
use crate::pose::ik::{LimbGoal, limb_job, swivel_sweep};
use crate::pose::skeleton::{Limb, Side, Skeleton};
use glam::Vec3;

/// Steps of a move's swivel path.
const PATH_STEPS: usize = 32;

/// Half the part of a move (in blend) over which a path changes from following the first key's
/// swivel to following the last key's, where the two lie on different sides of the range.
const HANDOVER_S: f32 = 0.15;

/// The most the elbow may move in one step of a path handed over elsewhere than where the walks
/// differ least (metres): another handover is taken only where it leaves no jump.
const CALM_STEP_M: f32 = 0.1;

/// A turn of the IK's own swivel from one step to the next that counts as a jump, radians.
const OWN_JUMP_RAD: f32 = 0.35;

/// How far the elbow must stand off the shoulder → wrist line where both walks jump (a share of
/// the upper arm) for a route to be looked for.
const ROUTE_BENT: f32 = 0.5;

/// Swivels a route may take at each step (evenly round the turn: every 5°).
const ROUTE_SWIVELS: usize = 72;

/// The most a route turns the swivel in one step, radians (a quarter turn).
const ROUTE_REACH_RAD: f32 = std::f32::consts::FRAC_PI_2 + 1e-3;

/// Weight of the shoulder's limit violation (radians) against the elbow's steps, metres per
/// radian: 3° out of range weighs as much as a 5 cm step.
const VIOLATION_WEIGHT_M: f32 = 1.0;

/// How far past the least worst violation of a calm route (no elbow step over [`CALM_STEP_M`])
/// a route may go at any step, radians.
const ROUTE_SLACK_RAD: f32 = 1e-4;

/// Weight of the swivel's own turn (the upper arm about itself) against the elbow's steps,
/// metres per radian.
const TWIST_WEIGHT_M: f32 = 0.02;

/// Steps either side over which a route is smoothed.
const ROUTE_SMOOTH: usize = 2;

/// Bisection steps towards the route where its smoothed swivel leaves the range.
const ROUTE_BISECT_STEPS: usize = 8;

/// One move's swivel path: the swivel (radians, unwrapped) at blends `s` 0, …, 1 (the blend of
/// the time through the move, eased as the track eases it).
#[derive(Clone, Debug, PartialEq)]
pub struct SwivelPath {
    s: [f32; PATH_STEPS + 1],
    phi_rad: [f32; PATH_STEPS + 1],
}

impl SwivelPath {
    /// (swivel at the first key, at the last key, at blend `s`), radians.
    pub(super) fn at(&self, s: f32) -> (f32, f32, f32) {
        let k = self.s.partition_point(|&x| x <= s).clamp(1, PATH_STEPS);
        let (s0, s1) = (self.s[k - 1], self.s[k]);
        let w = if s1 > s0 { ((s - s0) / (s1 - s0)).clamp(0.0, 1.0) } else { 1.0 };
        let now = self.phi_rad[k - 1] + (self.phi_rad[k] - self.phi_rad[k - 1]) * w;
        (self.phi_rad[0], self.phi_rad[PATH_STEPS], now)
    }
}

/// The swivel paths of both arms, per key of the arm's track (the move that ends at that key;
/// `None` where the arm does not move, or its elbow is given by segments).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArmSwivels {
    paths: [Vec<Option<SwivelPath>>; 2],
}

impl ArmSwivels {
    /// Paths for the arm tracks of `limbs`, solved on `skeleton` at rest (facing +Z).
    pub fn new(
        limbs: &std::collections::BTreeMap<LimbId, Track<LimbTarget>>,
        skeleton: &Skeleton,
        bows: &[ArmBows; 2],
    ) -> Self {
        let mut paths: [Vec<Option<SwivelPath>>; 2] = Default::default();
        for (side, limb) in [(Side::Left, LimbId::ArmLeft), (Side::Right, LimbId::ArmRight)] {
            if let Some(track) = limbs.get(&limb) {
                paths[side.index()] =
                    (0..track.keys.len()).map(|i| move_path(track, i, side, skeleton, &bows[side.index()])).collect();
            }
        }
        ArmSwivels { paths }
    }

    /// The path of the move of `side`'s arm that ends at key `key`.
    pub(super) fn path(&self, side: Side, key: usize) -> Option<&SwivelPath> {
        self.paths[side.index()].get(key)?.as_ref()
    }
}

/// The goals of the move that ends at key `i` of `track`, at the steps of its path, with their
/// blends (at rest, facing +Z); `None` where it has no path (no move, or segments at either key).
fn move_steps(
    track: &Track<LimbTarget>,
    i: usize,
    side: Side,
    skeleton: &Skeleton,
    bows: &ArmBows,
) -> Option<Vec<(f32, LimbGoal)>> {
    let key = track.keys[i];
    let start = key.t_start_secs.max(if i == 0 { f64::NEG_INFINITY } else { track.keys[i - 1].t_end_secs });
    if !start.is_finite() || key.t_end_secs <= start {
        return None;
    }
    let Limb { root: shoulder, mid: elbow, end: wrist, .. } = Limb::arm(side);
    let pose = Pose::rest(skeleton);
    let shoulder_pos = joint_world(skeleton, &pose, shoulder).1;
    let (upper, lower) = (skeleton.bone_length_m(elbow), skeleton.bone_length_m(wrist));
    let limits = skeleton.limits(shoulder);
    let clavicle_rot = joint_world(skeleton, &pose, Limb::arm(side).parent).0;
    let goal_of = |aim: Aim| {
        let dir_w = world_from_body(aim.dir_in_body, 0.0).normalize_or(-Vec3::Y);
        // As the sampler aims it: as near the direction as the shoulder's range lets it.
        let dir_w = arm_aim_dir(limits, clavicle_rot, dir_w, aim.bend_rad).0;
        let reach = reach_for(upper, lower, aim.bend_rad) * aim.reach_scale;
        LimbGoal {
            end_in_world: shoulder_pos + dir_w * reach.max(MIN_ARM_REACH_M),
            pole_in_world: None,
            end_rot_in_world: None,
        }
    };
    let mut steps = Vec::with_capacity(PATH_STEPS + 1);
    for k in 0..=PATH_STEPS {
        let x = k as f64 / PATH_STEPS as f64;
        // (The keys themselves from just inside the move: at its ends the track is not moving.)
        let t = start + (key.t_end_secs - start) * x.clamp(0.01, 0.99);
        // The first and last steps at the keys' own aims (the ends of the move `arm_at` finds).
        let at = match k {
            0 => Some(0.0),
            PATH_STEPS => Some(1.0),
            _ => None,
        };
        let aim = arm_move_aim(track, t, side, limits, bows, at)?;
        // Segments (an elbow given by the score) at either key: no path. (Whether an aim has
        // segments depends on the keys only, not on the blend.)
        if aim.segments_in_body.is_some() {
            return None;
        }
        steps.push((smoothstep(x as f32), goal_of(aim)));
    }
    Some(steps)
}

/// A swivel per step of a move.
type Swivels = [f32; PATH_STEPS + 1];

/// How much less (metres) another handover or a route must move the elbow in its worst step to
/// be taken instead.
const BETTER_STEP_M: f32 = 0.01;

/// The swivel path of the move that ends at key `i` of `track`.
fn move_path(
    track: &Track<LimbTarget>,
    i: usize,
    side: Side,
    skeleton: &Skeleton,
    bows: &ArmBows,
) -> Option<SwivelPath> {
    let steps = move_steps(track, i, side, skeleton, bows)?;
    let Limb { root: shoulder, mid: elbow, end: wrist, .. } = Limb::arm(side);
    let pose = Pose::rest(skeleton);
    let clavicle_world = joint_world(skeleton, &pose, Limb::arm(side).parent);
    let shoulder_pos = joint_world(skeleton, &pose, shoulder).1;
    let (upper, lower) = (skeleton.bone_length_m(elbow), skeleton.bone_length_m(wrist));
    // A key the shoulder cannot take (no swivel keeps it in range): no path into its range.
    for k in [0, PATH_STEPS] {
        let sol = crate::pose::ik::solve_arm(skeleton, &mut pose.clone(), side, &steps[k].1).ok()?;
        if !sol.within_limits {
            return None;
        }
    }
    // The IK's own swivel at each step: where it turns continuously, the sampler's own solve
    // (no path) is what the arm does.
    let mut own = [0.0f32; PATH_STEPS + 1];
    for k in 0..=PATH_STEPS {
        own[k] = arm_swivel_angle(skeleton, clavicle_world, side, &steps[k].1, None).ok()?;
    }
    let jumps = own.windows(2).any(|w| wrap_turn(w[0], w[1]).abs() > OWN_JUMP_RAD);
    if !jumps {
        return None;
    }
    // Forward from the first key's own swivel, backward from the last key's.
    let walk = |order| walk_swivels(skeleton, clavicle_world, side, &steps, order);
    let walks = Walks {
        steps: &steps,
        forward: walk(&mut (0..=PATH_STEPS))?,
        backward: walk(&mut (0..=PATH_STEPS).rev())?,
        shoulder_pos,
        upper,
        lower,
    };
    let (mut phi_rad, worst) = walks.calmest_handover();
    // Both walks may jump at the same step of a bent arm (the in-range swivels themselves jump
    // there): then the route through all the steps' swivels that moves the elbow least, if it
    // jumps less. (A nearly straight arm's jump is mostly its upper arm's twist, which a route
    // would turn into the twist's limits.)
    let (forward_jump, backward_jump) = (walks.jump_of(&walks.forward), walks.jump_of(&walks.backward));
    if worst > CALM_STEP_M
        && forward_jump.1 > CALM_STEP_M
        && backward_jump.1 > CALM_STEP_M
        && forward_jump.0 == backward_jump.0
        && walks.off_axis(forward_jump.0).min(walks.off_axis(forward_jump.0 + 1)) > ROUTE_BENT * upper
        && let Some(route) =
            least_step_route(skeleton, &pose, side, &steps, (walks.forward[0], walks.backward[PATH_STEPS]))
        && walks.worst_step_m(&route) < worst - BETTER_STEP_M
    {
        phi_rad = route;
    }
    let s = std::array::from_fn(|k| steps[k].0);
    Some(SwivelPath { s, phi_rad })
}

/// The swivels of a walk through `steps` in `order`, each the in-range swivel nearest the one
/// before (unwrapped, so the walk turns continuously).
fn walk_swivels(
    skeleton: &Skeleton,
    clavicle_world: (glam::Quat, Vec3),
    side: Side,
    steps: &[(f32, LimbGoal)],
    order: &mut dyn Iterator<Item = usize>,
) -> Option<Swivels> {
    let mut phi = [0.0f32; PATH_STEPS + 1];
    let mut prev: Option<f32> = None;
    for k in order {
        let now = arm_swivel_angle(skeleton, clavicle_world, side, &steps[k].1, prev).ok()?;
        let now = prev.map_or(now, |p| p + wrap_turn(p, now));
        phi[k] = now;
        prev = Some(now);
    }
    Some(phi)
}

/// A move's steps (blend, wrist goal) with the two walks of the elbow's swivel through them.
struct Walks<'a> {
    steps: &'a [(f32, LimbGoal)],
    /// From the first key's own swivel.
    forward: Swivels,
    /// From the last key's own swivel.
    backward: Swivels,
    shoulder_pos: Vec3,
    /// Upper and lower arm lengths, metres.
    upper: f32,
    lower: f32,
}

impl Walks<'_> {
    /// How far the elbow stands off the shoulder → wrist line at step `k` (a straight arm's
    /// swivel only turns it about itself), metres.
    fn off_axis(&self, k: usize) -> f32 {
        let (upper, lower) = (self.upper, self.lower);
        let d = self.steps[k].1.end_in_world.distance(self.shoulder_pos).clamp(1e-3, upper + lower);
        let cos = ((upper * upper + d * d - lower * lower) / (2.0 * upper * d)).clamp(-1.0, 1.0);
        upper * (1.0 - cos * cos).max(0.0).sqrt()
    }

    /// Where the two walks differ, the blend at which a handover from the one to the other moves
    /// the elbow least: where they are closest, weighed by [`Self::off_axis`]; ties nearest the
    /// middle.
    fn preferred_handover(&self) -> f32 {
        let steps = self.steps;
        let gap = |k: usize| wrap_turn(self.forward[k], self.backward[k]);
        let cost = |k: usize| gap(k).abs() * self.off_axis(k);
        let least = (0..=PATH_STEPS).map(cost).fold(f32::INFINITY, f32::min);
        (0..=PATH_STEPS)
            .filter(|&k| cost(k) <= least + 1e-3)
            .min_by(|&a, &b| (steps[a].0 - 0.5).abs().total_cmp(&(steps[b].0 - 0.5).abs()))
            .map_or(0.5, |k| steps[k].0)
    }

    /// The path handed over at blend `handover`. Both walks are continuous where the range is,
    /// so their difference is: taken whole turns off where they meet.
    fn handed_over(&self, handover: f32) -> Swivels {
        let (steps, forward, backward) = (self.steps, &self.forward, &self.backward);
        let handover = handover.clamp(HANDOVER_S, 1.0 - HANDOVER_S);
        let at =
            (0..=PATH_STEPS).min_by(|&a, &b| (steps[a].0 - handover).abs().total_cmp(&(steps[b].0 - handover).abs()));
        let raw = |k: usize| backward[k] - forward[k];
        let whole = at.map_or(0.0, |h| (raw(h) / std::f32::consts::TAU).round() * std::f32::consts::TAU);
        std::array::from_fn(|k| {
            let w = smoothstep(((steps[k].0 - handover) / (2.0 * HANDOVER_S) + 0.5).clamp(0.0, 1.0));
            forward[k] + (raw(k) - whole) * w
        })
    }

    /// How far the elbow moves from step `k` to the next of `phi`, metres.
    fn step_m(&self, phi: &Swivels, k: usize) -> f32 {
        (phi[k + 1] - phi[k]).abs() * self.off_axis(k).max(self.off_axis(k + 1))
    }

    /// The largest step of the elbow inside the move, metres.
    fn worst_step_m(&self, phi: &Swivels) -> f32 {
        (1..PATH_STEPS - 1).map(|k| self.step_m(phi, k)).fold(0.0, f32::max)
    }

    /// The step where a walk jumps most, and by how much (metres).
    fn jump_of(&self, phi: &Swivels) -> (usize, f32) {
        (1..PATH_STEPS - 1).map(|k| (k, self.step_m(phi, k))).fold((0, 0.0f32), |a, b| if b.1 > a.1 { b } else { a })
    }

    /// A walk may itself jump (where the in-range swivel nearest the last one runs out): the
    /// handover that keeps the largest step of the elbow least (the preferred one unless another
    /// moves the elbow over a centimetre less in its worst step and leaves no step over
    /// [`CALM_STEP_M`]), and that step, metres.
    fn calmest_handover(&self) -> (Swivels, f32) {
        let mut phi_rad = self.handed_over(self.preferred_handover());
        let mut worst = self.worst_step_m(&phi_rad);
        for step in self.steps {
            let other = self.handed_over(step.0);
            let other_worst = self.worst_step_m(&other);
            if other_worst < worst - BETTER_STEP_M && other_worst <= CALM_STEP_M {
                (phi_rad, worst) = (other, other_worst);
            }
        }
        (phi_rad, worst)
    }
}

/// The route of the swivel from `ends.0` at the first step of `steps` to `ends.1` at the last
/// that moves the elbow least: of the swivels every [`ROUTE_SWIVELS`]th of a turn at each step,
/// the sequence least in the sum of the squared elbow steps (plus a little for the swivel's own
/// turn, the upper arm about itself; each over the blend the step moves the track, so the turn
/// eases in and out with the arm) and of the squared limit violations (weighed by
/// [`VIOLATION_WEIGHT_M`]): it goes round the other way, or leaves the range a little, where the
/// nearest in-range swivel would jump. Then smoothed over a few steps (the grid's corners)
/// wherever that keeps the route's violation, and unwrapped.
fn least_step_route(
    skeleton: &Skeleton,
    pose: &Pose,
    side: Side,
    steps: &[(f32, LimbGoal)],
    ends: (f32, f32),
) -> Option<[f32; PATH_STEPS + 1]> {
    use std::f32::consts::{PI, TAU};
    let cell = TAU / ROUTE_SWIVELS as f32;
    let grid: [f32; ROUTE_SWIVELS] = std::array::from_fn(|j| -PI + cell * j as f32);
    // Each step's job, posed so swivel 0 is the reference of `arm_swivel`, and its candidates:
    // (swivel, violation, elbow); the ends only their own swivel.
    let mut jobs = Vec::with_capacity(PATH_STEPS + 1);
    let mut nodes: Vec<Vec<(f32, f32, Vec3)>> = Vec::with_capacity(PATH_STEPS + 1);
    let mut swept = Vec::with_capacity(ROUTE_SWIVELS);
    for (k, (_, goal)) in steps.iter().enumerate() {
        let mut job = limb_job(skeleton, pose, Limb::arm(side), goal);
        job.pole_in_world = Some(swivel_reference(&job, swivel_axis(&job, goal)));
        let phis: &[f32] = match k {
            0 => &[ends.0],
            PATH_STEPS => &[ends.1],
            _ => &grid,
        };
        swivel_sweep(&job, phis, &mut swept).ok()?;
        nodes.push(phis.iter().zip(&swept).map(|(&phi, &(v, elbow))| (phi, v, elbow)).collect());
        jobs.push(job);
    }
    // Each link into candidate `j` of step `k`: (candidate `i` of the step before, the swivel's
    // turn, the elbow's step), within a quarter turn.
    let reach = (ROUTE_REACH_RAD / cell) as isize;
    let links = |k: usize, j: usize, f: &mut dyn FnMut(usize, f32, f32)| {
        let (prev, now) = (&nodes[k - 1], &nodes[k][j]);
        let mut link = |i: usize, turn: f32| f(i, turn, prev[i].2.distance(now.2));
        if prev.len() == ROUTE_SWIVELS && nodes[k].len() == ROUTE_SWIVELS {
            for o in -reach..=reach {
                link((j as isize + o).rem_euclid(ROUTE_SWIVELS as isize) as usize, -(o as f32) * cell);
            }
        } else {
            for (i, p) in prev.iter().enumerate() {
                let turn = wrap_turn(p.0, now.0);
                if turn.abs() <= ROUTE_REACH_RAD {
                    link(i, turn);
                }
            }
        }
    };
    // First the least worst violation of a route that never moves the elbow more than
    // `CALM_STEP_M` in a step; then of those that keep to it (or of all, where none is calm) the
    // route least in the weighed sum.
    let mut worst: Vec<f32> = nodes[0].iter().map(|n| n.1).collect();
    for (k, layer) in nodes.iter().enumerate().skip(1) {
        worst = layer
            .iter()
            .enumerate()
            .map(|(j, node)| {
                let mut best = f32::INFINITY;
                links(k, j, &mut |i, _, step| {
                    if step <= CALM_STEP_M {
                        best = best.min(worst[i]);
                    }
                });
                best.max(node.1)
            })
            .collect();
    }
    let bound = worst[0] + ROUTE_SLACK_RAD;
    let calm = bound.is_finite();
    let node_cost = |v: f32| {
        if calm && v > bound { f32::INFINITY } else { (VIOLATION_WEIGHT_M * v).powi(2) }
    };
    let mut cost: Vec<f32> = nodes[0].iter().map(|n| node_cost(n.1)).collect();
    let mut before: Vec<Vec<usize>> = vec![Vec::new(); PATH_STEPS + 1];
    for k in 1..=PATH_STEPS {
        // A step weighs by how far the track moves in it (the steps are even in time, the blend
        // eased): the elbow's turn follows the arm's ease in and out.
        let per_blend = 1.0 / ((steps[k].0 - steps[k - 1].0) * PATH_STEPS as f32).max(1e-3);
        let mut next = vec![f32::INFINITY; nodes[k].len()];
        before[k] = vec![0; nodes[k].len()];
        for j in 0..nodes[k].len() {
            let here = node_cost(nodes[k][j].1);
            if !here.is_finite() {
                continue;
            }
            links(k, j, &mut |i, turn, step| {
                if calm && step > CALM_STEP_M {
                    return;
                }
                let c = cost[i] + (step * step + (TWIST_WEIGHT_M * turn).powi(2)) * per_blend;
                if c < next[j] {
                    (next[j], before[k][j]) = (c, i);
                }
            });
            next[j] += here;
        }
        cost = next;
    }
    if !cost[0].is_finite() {
        return None;
    }
    // Back from the last key, unwrapped forward.
    let mut at = [0usize; PATH_STEPS + 1];
    for k in (1..=PATH_STEPS).rev() {
        at[k - 1] = before[k][at[k]];
    }
    let mut route = [0.0f32; PATH_STEPS + 1];
    let mut violation = [0.0f32; PATH_STEPS + 1];
    for k in 0..=PATH_STEPS {
        let (phi, v, _) = nodes[k][at[k]];
        route[k] = if k == 0 { phi } else { route[k - 1] + wrap_turn(route[k - 1], phi) };
        violation[k] = v;
    }
    // Smoothed over ±`ROUTE_SMOOTH` steps; where that leaves the range (more than the route did),
    // the swivel between the two nearest the smooth one that does not.
    let mut smooth = route;
    let mut one = Vec::with_capacity(1);
    let mut violation_at = |k: usize, phi: f32| -> Option<f32> {
        swivel_sweep(&jobs[k], &[phi], &mut one).ok()?;
        Some(one[0].0)
    };
    for k in 1..PATH_STEPS {
        let span = ROUTE_SMOOTH.min(k).min(PATH_STEPS - k);
        let mean = route[k - span..=k + span].iter().sum::<f32>() / (2 * span + 1) as f32;
        let keeps = |v: f32| v <= violation[k] + 1e-4;
        if keeps(violation_at(k, mean)?) {
            smooth[k] = mean;
            continue;
        }
        let (mut good, mut bad) = (route[k], mean);
        for _ in 0..ROUTE_BISECT_STEPS {
            let mid = 0.5 * (good + bad);
            if keeps(violation_at(k, mid)?) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        smooth[k] = good;
    }
    Some(smooth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::plan::{DancerPlan, Key};
    use crate::pose::skeleton::{JointId, Proportions};

    /// No elbow step (metres a frame) over 3 cm and over 4 times both neighbouring steps.
    #[track_caller]
    fn assert_no_elbow_pop(steps: &[f32]) {
        for i in 0..steps.len() {
            let around = steps[i.saturating_sub(1)].max(steps.get(i + 1).copied().unwrap_or(0.0));
            assert!(
                steps[i] <= 0.03 || steps[i] <= 4.0 * around,
                "frame {}: the elbow jumped {:.1} cm (around {:.1} cm)",
                i + 1,
                steps[i] * 100.0,
                around * 100.0
            );
        }
    }

    /// Whole-arm keys (start, end seconds, direction in the body frame), no bend, no segments.
    fn whole_arm_track(keys: &[(f64, f64, Vec3)]) -> Track<LimbTarget> {
        let target =
            |dir_in_body| LimbTarget { dir_in_body, bend_rad: 0.0, upper_dir_in_body: None, lower_dir_in_body: None };
        Track {
            keys: keys
                .iter()
                .map(|&(t_start_secs, t_end_secs, dir)| Key { t_start_secs, t_end_secs, value: target(dir) })
                .collect(),
        }
    }

    /// Both arms (straight) forward low, up, then out to the side low (as in bow_trial.lbn): the
    /// arm raised in front reads a half-turn twist as soon as it leaves the top sideways, where
    /// the twist's range widens ([`crate::pose::limits::JointLimits::violation_rad`]), so the
    /// elbow turns on continuously on the way down.
    #[test]
    fn an_arm_coming_down_from_up_to_the_side_keeps_its_elbow_continuous() {
        let skeleton = Skeleton::new(&Proportions::default());
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let mut plan = DancerPlan { end_secs: 3.5, ..DancerPlan::default() };
        for (limb, out) in [(LimbId::ArmLeft, -1.0), (LimbId::ArmRight, 1.0)] {
            let keys =
                [(0.0, 1.0, Vec3::new(0.0, -h, h)), (1.0, 2.0, Vec3::Y), (2.0, 3.0, Vec3::new(out * h, -h, 0.0))];
            plan.limbs.insert(limb, whole_arm_track(&keys));
        }
        let (with_paths, _) = crate::animation::animate_plan(plan, &skeleton);
        // The largest elbow step that is over 3 cm and over 4 times both neighbouring steps.
        let worst_jump = |anim: &crate::animation::DancerAnimation| {
            let mut pose = Pose::rest(&skeleton);
            let track: Vec<[Vec3; 2]> = (0..=210)
                .map(|f| {
                    anim.sample_into(&skeleton, f64::from(f) / 60.0, &mut pose);
                    [JointId::ElbowL, JointId::ElbowR].map(|j| joint_world(&skeleton, &pose, j).1)
                })
                .collect();
            let mut worst = 0.0f32;
            for side in 0..2 {
                let steps: Vec<f32> = track.windows(2).map(|w| w[0][side].distance(w[1][side])).collect();
                for i in 0..steps.len() {
                    let around = steps[i.saturating_sub(1)].max(steps.get(i + 1).copied().unwrap_or(0.0));
                    if steps[i] > 0.03 && steps[i] > 4.0 * around {
                        worst = worst.max(steps[i]);
                    }
                }
            }
            worst
        };
        let jump = worst_jump(&with_paths);
        assert!(jump == 0.0, "the elbow jumped {:.1} cm", jump * 100.0);
        // At the keys the arms point as written (facing +Z).
        let mut pose = Pose::rest(&skeleton);
        for (t, dir) in [(1.0, Vec3::new(0.0, -h, h)), (2.0, Vec3::Y), (3.1, Vec3::new(h, -h, 0.0))] {
            with_paths.sample_into(&skeleton, t, &mut pose);
            for (shoulder, wrist, out) in
                [(JointId::ShoulderL, JointId::WristL, -1.0), (JointId::ShoulderR, JointId::WristR, 1.0)]
            {
                // The right arm's body direction, mirrored for the left; world right = −X.
                let want = Vec3::new(-out * dir.x, dir.y, dir.z);
                let got = joint_world(&skeleton, &pose, wrist).1 - joint_world(&skeleton, &pose, shoulder).1;
                let off = got.angle_between(want).to_degrees();
                assert!(off < 5.0, "t={t} {shoulder:?}: the arm is {off:.1}° off {want}");
            }
        }
    }

    /// The right arm (straight) from back to forward across the body (as in laban4.lbn's 3.25 s):
    /// the walk back from the last key runs out of range early, so a handover where the two walks
    /// differ least turned the elbow 23 cm in one frame; the path now hands over past that.
    #[test]
    fn an_arm_swinging_from_back_to_forward_across_keeps_its_elbow_continuous() {
        let skeleton = Skeleton::new(&Proportions::default());
        let straight = |dir: Vec3| LimbTarget {
            dir_in_body: dir,
            bend_rad: 0.0,
            upper_dir_in_body: Some(dir),
            lower_dir_in_body: Some(dir),
        };
        let across = Vec3::new(-0.573_576_4, 0.0, 0.819_152_04);
        let mut plan = DancerPlan { end_secs: 3.5, ..DancerPlan::default() };
        let keys = [(1.0, 1.75, -Vec3::Z), (2.0, 2.75, across)];
        let keys = keys.map(|(t_start_secs, t_end_secs, dir)| Key { t_start_secs, t_end_secs, value: straight(dir) });
        plan.limbs.insert(LimbId::ArmRight, Track { keys: keys.to_vec() });
        let (anim, _) = crate::animation::animate_plan(plan, &skeleton);
        assert!(anim.arm_swivels.path(Side::Right, 1).is_some(), "no path for the swing (test no longer tests)");
        let mut pose = Pose::rest(&skeleton);
        let elbow: Vec<Vec3> = (0..=210)
            .map(|f| {
                anim.sample_into(&skeleton, f64::from(f) / 60.0, &mut pose);
                joint_world(&skeleton, &pose, JointId::ElbowR).1
            })
            .collect();
        let steps: Vec<f32> = elbow.windows(2).map(|w| w[0].distance(w[1])).collect();
        assert_no_elbow_pop(&steps);
    }

    /// The right arm out to the side, to "place" (folded there), then straight up (as in
    /// palm1.lbn's 4.5 s): half way up the in-range swivels jump (both walks, from either key, and
    /// the path handed over between them jumped the elbow 28 cm in one frame); the route through
    /// all the steps' swivels turns it round continuously, inside the shoulder's range.
    #[test]
    fn an_arm_unfolding_from_place_to_up_keeps_its_elbow_continuous() {
        let skeleton = Skeleton::new(&Proportions::default());
        let mut plan = DancerPlan { end_secs: 3.5, ..DancerPlan::default() };
        let keys = [(0.5, 1.0, Vec3::X), (1.5, 2.0, Vec3::ZERO), (2.0, 2.5, Vec3::Y)];
        plan.limbs.insert(LimbId::ArmRight, whole_arm_track(&keys));
        let (with_paths, _) = crate::animation::animate_plan(plan, &skeleton);
        assert!(with_paths.arm_swivels.path(Side::Right, 2).is_some(), "no path for the move (test no longer tests)");
        let without = crate::animation::DancerAnimation { arm_swivels: ArmSwivels::default(), ..with_paths.clone() };
        // Elbow steps frame by frame, and whether the shoulder's limits held at every frame.
        let track = |anim: &crate::animation::DancerAnimation| {
            let mut pose = Pose::rest(&skeleton);
            let mut limited = false;
            let elbow: Vec<Vec3> = (0..=180)
                .map(|f| {
                    limited |= anim.sample_into(&skeleton, f64::from(f) / 60.0, &mut pose).arms_limited[1];
                    joint_world(&skeleton, &pose, JointId::ElbowR).1
                })
                .collect();
            let steps: Vec<f32> = elbow.windows(2).map(|w| w[0].distance(w[1])).collect();
            (steps, limited)
        };
        let (steps, _) = track(&without);
        assert!(steps.iter().any(|&d| d > 0.1), "the IK's own swivel should jump the elbow (test no longer tests)");
        let (steps, limited) = track(&with_paths);
        assert_no_elbow_pop(&steps);
        assert!(!limited, "the route left the shoulder's range");
        // At the last key the arm points up.
        let mut pose = Pose::rest(&skeleton);
        with_paths.sample_into(&skeleton, 2.6, &mut pose);
        let arm =
            joint_world(&skeleton, &pose, JointId::WristR).1 - joint_world(&skeleton, &pose, JointId::ShoulderR).1;
        assert!(arm.angle_between(Vec3::Y).to_degrees() < 5.0, "the arm is not up: {arm}");
    }
}
