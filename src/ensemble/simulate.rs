//! The simulation: at each step every performer predicts where its schedule wants it, corrects that
//! with steering forces from the neighbours in the 3×3 grid cells around it and the obstacles, then
//! acts, each move checked exactly against the neighbours' moves (seed 001's predict → correct →
//! act). Performers that arrive hold their spot. Deterministic.
//!
//! Before it moves, a performer whose path comes too near a set piece gets a route round it
//! ([`super::route`]) and follows it corner by corner: when the schedule's point is out of sight
//! behind a set piece, it heads for the farthest corner of the route it sees.
//!
//! Predict: the schedule point on the linear or Bézier path (or route), speeding up and slowing down over the
//! first and last 15 % of the move; the speed is the remaining distance over the remaining time, at
//! most the gait's speed and the longest step at the tempo (walks step on the beat, runs on the
//! half beat). Correct: Reynolds forces (separation, alignment, cohesion, a detour classified
//! clockwise-left or counter-clockwise-right; head-on both keep right) and two feelers plus the own
//! position against the set pieces, or ORCA ([`super::orca`]). Act: in order of lag, each
//! move is checked exactly against the moves already taken and the others' places, and turned or
//! shortened until clear (standing still always is). No hash order and no randomness.

use super::assign;
use super::conflicts::{closest_approach, segment_obstacle_distance};
use super::grid::Grid;
use super::orca;
use super::path::{Path, performer_controls};
use super::plan::{Avoidance, Behaviour, Gait, Method, ObstacleShape, PathKind, Plan, Reference};
use super::route::Router;
use super::steer::{self, Detour};
use super::stream::Recorder;
use glam::DVec2;
use rayon::prelude::*;

pub use super::stream::Motion;

/// One performer's move in one behaviour event.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    /// Performer index.
    pub performer: usize,
    /// Behaviour event index in [`Plan::behaviours`].
    pub behaviour: usize,
    /// Start in beats.
    pub start_beats: f64,
    /// When it should arrive.
    pub due_beats: f64,
    /// Target spot.
    pub target: DVec2,
    /// When it arrived (within [`ARRIVAL_TOLERANCE_M`] of its spot once the move's time is
    /// over); `None` if it never did.
    pub arrived_beats: Option<f64>,
    /// Walk or run.
    pub gait: Gait,
    /// How far from its spot the performer is at the due beat, metres.
    pub short_m: f64,
}

/// A performer stops walking and holds its spot within this distance of it.
pub const ARRIVE_M: f64 = 0.02;
/// A move counts as arrived once its performer is this close to its spot (a neighbour a few
/// centimetres out of place may keep it from the last [`ARRIVE_M`]).
pub const ARRIVAL_TOLERANCE_M: f64 = 0.10;
/// Look-ahead for neighbours on a collision course.
const HORIZON_SECS: f64 = 1.0;
/// Largest change of velocity per second (Reynolds' max force over mass).
const MAX_ACCEL_MPS2: f64 = 8.0;
/// Beats simulated after the last event while someone is still on the way.
const OVERTIME_BEATS: f64 = 32.0;
/// How much farther than the body's radius the feelers keep from a set piece, metres.
const FEELER_MARGIN_M: f64 = 0.1;
/// Fraction of a move spent speeding up (and slowing down) at each end.
const RAMP: f64 = 0.15;
/// Performers per chunk of work shared among threads.
const CHUNK: usize = 512;

#[derive(Clone, Debug)]
struct Active {
    record: usize,
    path: Path,
    t0_beats: f64,
    t1_beats: f64,
    target: DVec2,
    max_speed: f64,
    attract: Option<DVec2>,
    /// True when the path is a route round set pieces (followed corner by corner, no feelers).
    routed: bool,
}

/// A running simulation; [`Simulation::step`] advances one step.
#[derive(Clone, Debug)]
pub struct Simulation<'p> {
    plan: &'p Plan,
    frame: usize,
    dt_beats: f64,
    dt_secs: f64,
    cell_m: f64,
    pos: Vec<DVec2>,
    vel: Vec<DVec2>,
    group_of: Vec<usize>,
    active: Vec<Option<Active>>,
    next_behaviour: usize,
    /// Behaviour indices sorted by start.
    order: Vec<usize>,
    shapes: Vec<ObstacleShape>,
    router: Router,
    moves: Vec<MoveRecord>,
    detours: [u64; 2],
    recorder: Recorder,
    // Scratch buffers reused by every step.
    desired: Vec<DVec2>,
    proposed: Vec<DVec2>,
    detour: Vec<Option<Detour>>,
    lag: Vec<f64>,
    polygons: Vec<(DVec2, f64, Vec<DVec2>)>,
    near: Vec<usize>,
    act_order: Vec<usize>,
    act_done: Vec<bool>,
    act_fin: Vec<DVec2>,
}

impl<'p> Simulation<'p> {
    /// Starts at beat 0 with every performer on its group's first formation.
    pub fn new(plan: &'p Plan) -> Self {
        let n = plan.performers.len();
        let dt_beats = 1.0 / f64::from(plan.steering.steps_per_beat);
        let dt_secs = plan.clock.secs(dt_beats);
        let pos: Vec<DVec2> = plan.performers.iter().map(|p| p.start).collect();
        let footprint = 2.0 * plan.body.radius_m;
        let vmax = plan.body.max_speed_mps(Gait::Run, plan.clock.tempo.bpm);
        // Whole multiple of the footprint, covering the contact distance plus two steps' motion
        // and at least three footprints (the steering neighbourhood).
        let needed = (footprint + 2.0 * vmax * dt_secs).max(3.0 * footprint);
        let cell_m = footprint * (needed / footprint).ceil();
        let mut order: Vec<usize> = (0..plan.behaviours.len()).collect();
        order
            .sort_by(|a, b| plan.behaviours[*a].start_beats.total_cmp(&plan.behaviours[*b].start_beats).then(a.cmp(b)));
        let shapes = plan.obstacles.iter().map(|o| o.shape).collect();
        let router = Router::new(&plan.obstacles, plan.body.radius_m, plan.floor());
        Self {
            plan,
            frame: 0,
            dt_beats,
            dt_secs,
            cell_m,
            vel: vec![DVec2::ZERO; n],
            group_of: plan.performers.iter().map(|p| p.group).collect(),
            active: vec![None; n],
            next_behaviour: 0,
            order,
            shapes,
            router,
            moves: Vec::new(),
            detours: [0; 2],
            recorder: Recorder::new(plan, &pos, dt_beats),
            pos,
            desired: vec![DVec2::ZERO; n],
            proposed: vec![DVec2::ZERO; n],
            detour: vec![None; n],
            lag: vec![0.0; n],
            polygons: orca::obstacle_polygons(&plan.obstacles),
            near: Vec::new(),
            act_order: Vec::new(),
            act_done: Vec::new(),
            act_fin: Vec::new(),
        }
    }

    /// The grid cell size in metres (a whole multiple of the footprint).
    pub fn cell_m(&self) -> f64 {
        self.cell_m
    }

    /// Current positions.
    pub fn positions(&self) -> &[DVec2] {
        &self.pos
    }

    /// The beat of the current state.
    pub fn t_beats(&self) -> f64 {
        self.frame as f64 * self.dt_beats
    }

    /// True when someone is still on the way.
    pub fn anyone_moving(&self) -> bool {
        self.active.iter().any(Option::is_some)
    }

    /// Runs to the end: the last event plus whatever overtime the late ones need.
    pub fn run(mut self) -> Motion {
        let last_end = self.plan.behaviours.iter().map(Behaviour::end_beats).fold(0.0, f64::max);
        let end_frame = (last_end / self.dt_beats).ceil() as usize + 1;
        let overtime = (OVERTIME_BEATS / self.dt_beats).ceil() as usize;
        // All steps on one of the pool's threads: their shared work is handed over only once.
        rayon::scope(|_| {
            while self.frame < end_frame || (self.anyone_moving() && self.frame < end_frame + overtime) {
                self.step();
            }
        });
        self.recorder.finish(self.moves, self.detours)
    }

    /// One predict → correct → act step, on one of the pool's threads (its shared work is not
    /// handed over from outside the pool at every phase).
    pub fn step(&mut self) {
        rayon::scope(|_| self.step_here());
    }

    fn step_here(&mut self) {
        let t = self.t_beats();
        let t_next = t + self.dt_beats;
        self.start_due_events(t);
        self.predict(t_next);
        let grid = Grid::build(&self.pos, self.cell_m);
        self.correct(&grid);
        self.act();
        self.arrive(t_next);
        self.frame += 1;
        self.recorder.frame(&self.pos, &self.plan.obstacles, &mut self.moves);
    }

    fn start_due_events(&mut self, t: f64) {
        while let Some(&b) = self.order.get(self.next_behaviour) {
            if self.plan.behaviours[b].start_beats > t + 1e-9 {
                break;
            }
            self.next_behaviour += 1;
            self.start_behaviour(b);
        }
    }

    fn start_behaviour(&mut self, b: usize) {
        let plan = self.plan;
        let ev = &plan.behaviours[b];
        if matches!(ev.method, Method::Hold { .. }) {
            // Nobody moves: the groups dance on their spots.
            return;
        }
        let members: Vec<usize> =
            ev.groups.iter().flat_map(|&g| plan.groups[g].first..plan.groups[g].first + plan.groups[g].count).collect();
        let from: Vec<DVec2> = members.iter().map(|&i| self.pos[i]).collect();
        let targets = targets_for(plan, ev, &from, &self.pos);
        let centre_start = mean(&from);
        let centre_end = mean(&targets);
        let max_speed = plan.body.max_speed_mps(ev.gait, plan.clock.tempo.bpm);
        for (k, &i) in members.iter().enumerate() {
            let path = match &ev.path {
                PathKind::Linear => Path::linear(from[k], targets[k]),
                PathKind::Bezier(via) => {
                    Path::bezier(&performer_controls(from[k], targets[k], centre_start, centre_end, via))
                }
            };
            let route = self.router.route(path.points());
            let routed = route.is_some();
            let path = route.map_or(path, Path::polyline);
            let record = self.moves.len();
            self.moves.push(MoveRecord {
                performer: i,
                behaviour: b,
                start_beats: ev.start_beats,
                due_beats: ev.end_beats(),
                target: targets[k],
                arrived_beats: None,
                gait: ev.gait,
                short_m: 0.0,
            });
            self.recorder.move_started(record, &self.moves);
            self.active[i] = Some(Active {
                record,
                path,
                t0_beats: ev.start_beats,
                t1_beats: ev.end_beats(),
                target: targets[k],
                max_speed,
                attract: ev.attract,
                routed,
            });
        }
    }

    /// Predict: each moving performer's desired velocity towards its schedule point (the speed
    /// follows the remaining distance over the remaining time).
    fn predict(&mut self, t_next: f64) {
        let (pos, active, router, dt_secs) = (&self.pos, &self.active, &self.router, self.dt_secs);
        self.desired.par_iter_mut().zip(self.lag.par_iter_mut()).enumerate().with_min_len(CHUNK).for_each(
            |(i, (desired, lag))| {
                *desired = DVec2::ZERO;
                *lag = 0.0;
                let Some(a) = &active[i] else { return };
                let span = (a.t1_beats - a.t0_beats).max(1e-9);
                let tau = ((t_next - a.t0_beats) / span).clamp(0.0, 1.0);
                let u = ramp_profile(tau);
                let mut carrot = a.path.at_fraction(u);
                if let Some(p) = a.attract {
                    carrot += (p - carrot) * (0.3 * (std::f64::consts::PI * u).sin());
                }
                if tau >= 1.0 {
                    carrot = a.target;
                }
                if a.routed && !router.clear(pos[i], carrot) {
                    carrot = Self::corner_in_sight(router, &a.path, pos[i], u);
                }
                *desired = steer::seek(pos[i], carrot, dt_secs, a.max_speed);
                *lag = pos[i].distance(carrot);
            },
        );
    }

    /// The farthest corner of a route, up to the schedule's point at fraction `u`, that `p`
    /// sees (the route's start when none does).
    fn corner_in_sight(router: &Router, path: &Path, p: DVec2, u: f64) -> DVec2 {
        let corners = &path.points()[..=path.point_before(u)];
        corners.iter().rev().copied().find(|c| router.clear(p, *c)).unwrap_or(corners[0])
    }

    /// Correct: Reynolds steering from neighbours (3×3 cells) and obstacles, or ORCA. Each
    /// performer reads the others' state at the start of the step, so they are shared among
    /// threads.
    fn correct(&mut self, grid: &Grid) {
        let near = Neighbourhood {
            plan: self.plan,
            grid,
            pos: &self.pos,
            vel: &self.vel,
            active: &self.active,
            group_of: &self.group_of,
            desired: &self.desired,
            shapes: &self.shapes,
            polygons: &self.polygons,
            cell_m: self.cell_m,
            dt_secs: self.dt_secs,
        };
        let out = self.proposed.par_iter_mut().zip(self.detour.par_iter_mut()).enumerate().with_min_len(CHUNK);
        if self.plan.steering.method == Avoidance::Orca {
            out.for_each_init(
                || (orca::Scratch::default(), Vec::new()),
                |(scratch, list), (i, (proposed, detour))| (*proposed, *detour) = near.orca(i, scratch, list),
            );
        } else {
            out.for_each_init(
                || (Vec::new(), Vec::new()),
                |(same_v, same_p), (i, (proposed, detour))| (*proposed, *detour) = near.steer(i, same_v, same_p),
            );
        }
    }

    /// Act: performers take their moves in order of how far behind schedule they are; each
    /// move is checked exactly against the neighbours' moves already taken and the others'
    /// current places, and shortened or turned (towards the detour side) until it is clear.
    /// Standing still is always clear, so no two bodies ever overlap. Neighbours come from a
    /// grid whose cells are the contact distance plus the two longest moves.
    fn act(&mut self) {
        let n = self.pos.len();
        let min_d = 2.0 * self.plan.body.radius_m;
        let r = self.plan.body.radius_m;
        let mut order = std::mem::take(&mut self.act_order);
        order.clear();
        order.extend((0..n).filter(|&i| self.active[i].is_some()));
        order.par_sort_unstable_by(|a, b| self.lag[*b].total_cmp(&self.lag[*a]).then(a.cmp(b)));
        let mut done = std::mem::take(&mut self.act_done);
        done.clear();
        done.resize(n, false);
        let mut fin = std::mem::take(&mut self.act_fin);
        fin.clear();
        fin.extend_from_slice(&self.pos);
        // No move is longer than its proposal: a neighbour farther than the contact distance
        // plus both longest moves cannot come closer, so each mover gathers its few near
        // neighbours once for all its candidates.
        let longest_m = order.iter().map(|&i| self.proposed[i].distance(self.pos[i])).fold(0.0, f64::max);
        let grid = Grid::build(&self.pos, min_d + 2.0 * longest_m + 1e-6);
        let mut near = std::mem::take(&mut self.near);
        // The candidate turns, the same for every mover (both detour sides).
        let turns =
            |sign: f64| [30.0, 60.0, -30.0, 90.0, -60.0].map(|deg: f64| DVec2::from_angle(sign * deg.to_radians()));
        let turns = [turns(1.0), turns(-1.0)];
        for &i in &order {
            let p = self.pos[i];
            let step = self.proposed[i] - p;
            if step.length_squared() < 1e-18 {
                done[i] = true;
                continue;
            }
            let step_m = step.length();
            let reach = min_d + step_m + longest_m;
            // Each neighbour with how far it moves this step (0 while it has not acted): one
            // farther than the contact distance plus both moves cannot come within it.
            near.clear();
            grid.for_each_near(p, |j| {
                if j == i {
                    return;
                }
                let d2 = self.pos[j].distance_squared(p);
                if d2 < reach * reach {
                    let moved_m = if done[j] { fin[j].distance(self.pos[j]) } else { 0.0 };
                    let can_meet = min_d + step_m + moved_m + 1e-9;
                    if d2 < can_meet * can_meet {
                        near.push(j);
                    }
                }
            });
            let side = self.detour[i].unwrap_or(Detour::CounterClockwiseRight);
            let rot = &turns[usize::from(side != Detour::ClockwiseLeft)];
            let candidate = |k: usize| match k {
                0 => step,
                1 => rot[0].rotate(step),
                2 => rot[1].rotate(step),
                3 => rot[2].rotate(step),
                4 => step * 0.5,
                5 => rot[3].rotate(step) * 0.5,
                6 => rot[4].rotate(step) * 0.5,
                7 => step * 0.25,
                _ => DVec2::ZERO,
            };
            let mut chosen = DVec2::ZERO;
            for c in (0..9).map(candidate) {
                let q = p + c;
                let mut clear = near.iter().all(|&j| {
                    let (b0, b1) = if done[j] { (self.pos[j], fin[j]) } else { (self.pos[j], self.pos[j]) };
                    closest_approach(p, q, b0, b1).0 >= min_d
                });
                if clear {
                    clear = self
                        .plan
                        .obstacles
                        .iter()
                        .all(|o| segment_obstacle_distance(p, q, &o.shape) >= r || o.shape.distance(p) < r);
                }
                if clear {
                    chosen = c;
                    break;
                }
            }
            fin[i] = p + chosen;
            done[i] = true;
            if chosen != DVec2::ZERO && chosen != step {
                self.detour[i] = Some(side);
            }
            if let Some(d) = self.detour[i] {
                self.detours[if d == Detour::ClockwiseLeft { 0 } else { 1 }] += 1;
            }
        }
        for ((v, f), p) in self.vel.iter_mut().zip(&fin).zip(&self.pos) {
            *v = (*f - *p) / self.dt_secs;
        }
        std::mem::swap(&mut self.pos, &mut fin);
        self.act_fin = fin;
        self.act_done = done;
        self.act_order = order;
        self.near = near;
    }

    /// Arrival: once the schedule has ended, a performer within [`ARRIVAL_TOLERANCE_M`] of its
    /// spot has arrived; within [`ARRIVE_M`] it stops and holds the spot until its next event.
    fn arrive(&mut self, t_next: f64) {
        for i in 0..self.pos.len() {
            let Some(a) = &self.active[i] else { continue };
            if t_next < a.t1_beats - 1e-9 {
                continue;
            }
            let left_m = self.pos[i].distance(a.target);
            let record = &mut self.moves[a.record];
            if left_m <= ARRIVAL_TOLERANCE_M && record.arrived_beats.is_none() {
                record.arrived_beats = Some(t_next);
            }
            if left_m <= ARRIVE_M {
                self.active[i] = None;
                self.vel[i] = DVec2::ZERO;
            }
        }
    }
}

/// What the correct phase reads: everyone's state at the start of the step.
struct Neighbourhood<'a> {
    plan: &'a Plan,
    grid: &'a Grid,
    pos: &'a [DVec2],
    vel: &'a [DVec2],
    active: &'a [Option<Active>],
    group_of: &'a [usize],
    desired: &'a [DVec2],
    shapes: &'a [ObstacleShape],
    polygons: &'a [(DVec2, f64, Vec<DVec2>)],
    cell_m: f64,
    dt_secs: f64,
}

impl Neighbourhood<'_> {
    /// Performer `i`'s next position and detour by Reynolds steering (`same_v`, `same_p`:
    /// scratch for its group's neighbours).
    fn steer(&self, i: usize, same_v: &mut Vec<DVec2>, same_p: &mut Vec<DVec2>) -> (DVec2, Option<Detour>) {
        let Some(a) = &self.active[i] else { return (self.pos[i], None) };
        let plan = self.plan;
        let r = plan.body.radius_m;
        let reach = 2.0 * r + 0.15;
        let sep_range = 2.0 * r + 0.5;
        let w = plan.steering;
        let max_speed = a.max_speed;
        let p = self.pos[i];
        let want = self.desired[i];
        let speed = want.length();
        same_v.clear();
        same_p.clear();
        let mut sep = DVec2::ZERO;
        let mut first_threat: Option<(f64, usize)> = None;
        self.grid.for_each_near(p, |j| {
            if j == i {
                return;
            }
            let q = self.pos[j];
            let d = q - p;
            let dist = d.length();
            if dist < sep_range {
                sep += steer::separation(p, std::iter::once(q));
            }
            if self.group_of[j] == self.group_of[i] && self.active[j].is_some() && dist < self.cell_m {
                same_v.push(self.vel[j]);
                same_p.push(q);
            }
            if let Some(tc) = steer::threat(d, want - self.vel[j], reach, HORIZON_SECS)
                && first_threat.is_none_or(|(best, bj)| tc < best || (tc == best && j < bj))
            {
                first_threat = Some((tc, j));
            }
        });
        let mut v = want;
        v += sep * (w.separation * r * speed.max(0.2));
        v += steer::alignment(self.vel[i], same_v) * w.alignment;
        v += steer::cohesion(p, same_p) * (w.cohesion / HORIZON_SECS);
        let mut detour = None;
        if let Some((tc, j)) = first_threat
            && speed > 1e-6
        {
            let kind = Detour::classify(want, self.pos[j] - p);
            detour = Some(kind);
            v += kind.side(want) * (speed * (1.0 - tc / HORIZON_SECS));
        }
        if !a.routed {
            let heading = if speed > 1e-6 { want } else { self.vel[i] };
            let feeler = heading.length() * HORIZON_SECS + r;
            v += steer::avoid_obstacles(p, heading, feeler, self.shapes, r + FEELER_MARGIN_M)
                * (w.avoidance * max_speed);
        }
        let dv = steer::truncate(v - self.vel[i], MAX_ACCEL_MPS2 * self.dt_secs);
        let v_new = steer::truncate(self.vel[i] + dv, max_speed);
        (p + v_new * self.dt_secs, detour)
    }

    /// Performer `i`'s next position and detour by ORCA: the neighbours in the 3×3 cells and the
    /// obstacles' polygons bound the velocity nearest the schedule's; a turn to the left counts
    /// as a clockwise-left detour.
    fn orca(&self, i: usize, scratch: &mut orca::Scratch, near: &mut Vec<usize>) -> (DVec2, Option<Detour>) {
        let Some(a) = &self.active[i] else { return (self.pos[i], None) };
        let p = self.pos[i];
        let want = self.desired[i];
        near.clear();
        self.grid.for_each_near(p, |j| {
            if j != i {
                near.push(j);
            }
        });
        let neighbours = near.iter().map(|&j| orca::Neighbour {
            position: self.pos[j],
            velocity: self.vel[j],
            moving: self.active[j].is_some(),
        });
        let v = orca::avoiding_velocity(
            p,
            self.vel[i],
            want,
            a.max_speed,
            self.plan.body.radius_m,
            neighbours,
            self.polygons,
            self.dt_secs,
            scratch,
        );
        let turn = want.perp_dot(v);
        let mut detour = None;
        if want.length_squared() > 1e-12 && turn.abs() > 1e-6 * want.length() * v.length() {
            detour = Some(if turn > 0.0 { Detour::ClockwiseLeft } else { Detour::CounterClockwiseRight });
        }
        (p + v * self.dt_secs, detour)
    }
}

/// The schedule's arc-length fraction at time fraction `tau`: speeding up over the first
/// [`RAMP`] of the move, constant in the middle, slowing down over the last.
pub fn ramp_profile(tau: f64) -> f64 {
    let t = tau.clamp(0.0, 1.0);
    let v = 1.0 / (1.0 - RAMP);
    if t < RAMP {
        v * t * t / (2.0 * RAMP)
    } else if t <= 1.0 - RAMP {
        v * (t - RAMP * 0.5)
    } else {
        1.0 - v * (1.0 - t) * (1.0 - t) / (2.0 * RAMP)
    }
}

fn mean(points: &[DVec2]) -> DVec2 {
    if points.is_empty() {
        return DVec2::ZERO;
    }
    points.iter().copied().sum::<DVec2>() / points.len() as f64
}

/// Each member's target for a behaviour event, from their current positions `from` (in member
/// order) and everyone's positions `all` (for merges).
pub fn targets_for(plan: &Plan, ev: &Behaviour, from: &[DVec2], all: &[DVec2]) -> Vec<DVec2> {
    match &ev.method {
        Method::Shortest(fi) => {
            let spots = &plan.formations[*fi].spots;
            assign::min_squared_travel(from, spots).into_iter().map(|j| spots[j]).collect()
        }
        Method::Order(fi) => {
            let spots = &plan.formations[*fi].spots;
            assign::order_preserving(from, spots, assign::principal_axis(from)).into_iter().map(|j| spots[j]).collect()
        }
        Method::Keep { reference, scale, move_m } => {
            let centre = match reference {
                Reference::Centre => mean(from),
                Reference::Performer(k) => from.get(*k).copied().unwrap_or_else(|| mean(from)),
                Reference::Row(k) => {
                    let rows = rows_of(from);
                    let row = &rows[(*k).min(rows.len() - 1)];
                    mean(&row.iter().map(|&i| from[i]).collect::<Vec<_>>())
                }
            };
            from.iter().map(|p| centre + (*p - centre) * *scale + *move_m).collect()
        }
        Method::Merge(other) => {
            let g = &plan.groups[*other];
            let line: Vec<DVec2> = all[g.first..g.first + g.count].to_vec();
            let gaps = merge_gaps(&line, from.len());
            let axis = assign::principal_axis(&line);
            assign::order_preserving(from, &gaps, axis).into_iter().map(|j| gaps[j]).collect()
        }
        Method::Hold { .. } => from.to_vec(),
    }
}

/// Rows of a formation, front first: performers whose y differs by less than a third of the
/// typical spacing share a row. Indices into `points`, each row left to right.
pub fn rows_of(points: &[DVec2]) -> Vec<Vec<usize>> {
    let mut idx: Vec<usize> = (0..points.len()).collect();
    idx.sort_by(|a, b| points[*a].y.total_cmp(&points[*b].y).then(points[*a].x.total_cmp(&points[*b].x)));
    let spacing = super::shapes::min_spacing(points);
    let tol = if spacing.is_finite() { spacing / 3.0 } else { 0.1 };
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for i in idx {
        match rows.last_mut() {
            Some(row) if (points[i].y - points[row[0]].y).abs() < tol => row.push(i),
            _ => rows.push(vec![i]),
        }
    }
    for row in &mut rows {
        row.sort_by(|a, b| points[*a].x.total_cmp(&points[*b].x));
    }
    rows
}

/// The gaps of a line of performers a merging line fills: midpoints between neighbours along
/// the line and one beyond each end, the `count` nearest the middle, in line order.
pub fn merge_gaps(line: &[DVec2], count: usize) -> Vec<DVec2> {
    let axis = assign::principal_axis(line);
    let mut sorted = line.to_vec();
    sorted.sort_by(|a, b| a.dot(axis).total_cmp(&b.dot(axis)));
    let mut gaps = Vec::new();
    if sorted.len() >= 2 {
        let first_half = (sorted[1] - sorted[0]) * 0.5;
        let last_half = (sorted[sorted.len() - 1] - sorted[sorted.len() - 2]) * 0.5;
        gaps.push(sorted[0] - first_half);
        for w in sorted.windows(2) {
            gaps.push((w[0] + w[1]) * 0.5);
        }
        gaps.push(sorted[sorted.len() - 1] + last_half);
    } else if let Some(p) = sorted.first() {
        gaps.push(*p - axis * 0.5);
        gaps.push(*p + axis * 0.5);
    }
    let mid = (gaps.len() as f64 - 1.0) * 0.5;
    let mut by_middle: Vec<usize> = (0..gaps.len()).collect();
    by_middle.sort_by(|a, b| (*a as f64 - mid).abs().total_cmp(&(*b as f64 - mid).abs()).then(a.cmp(b)));
    let mut keep: Vec<usize> = by_middle.into_iter().take(count).collect();
    keep.sort_unstable();
    keep.into_iter().map(|k| gaps[k]).collect()
}

/// Simulates the whole plan.
pub fn simulate(plan: &Plan) -> Motion {
    Simulation::new(plan).run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_profile_is_monotone_and_ends_at_one() {
        let mut last = 0.0;
        for k in 0..=100 {
            let u = ramp_profile(k as f64 / 100.0);
            assert!(u >= last - 1e-12);
            last = u;
        }
        assert!((ramp_profile(1.0) - 1.0).abs() < 1e-12 && ramp_profile(0.0) == 0.0);
        assert!((ramp_profile(0.5) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn merge_gaps_interleave_a_line() {
        let line: Vec<DVec2> = (0..4).map(|k| DVec2::new(k as f64 * 2.0, 0.0)).collect();
        let gaps = merge_gaps(&line, 3);
        assert_eq!(gaps, vec![DVec2::new(1.0, 0.0), DVec2::new(3.0, 0.0), DVec2::new(5.0, 0.0)]);
    }
}
