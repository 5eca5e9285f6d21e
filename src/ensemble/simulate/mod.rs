//! The simulation: at each step every performer predicts where its schedule wants it, corrects that
//! with steering forces from the neighbours within one neighbourhood radius and the obstacles, then
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
//! shortened until clear (standing still always is); movers that cannot meet move together
//! (see `act.rs`). One grid per step serves all three and the pair checks. No hash order and no
//! randomness; the same motion on any number of threads.

mod act;
mod correct;
mod spots;

use super::grid::Grid;
use super::orca;
use super::path::{Path, performer_controls};
use super::plan::{Behaviour, Gait, Method, ObstacleShape, PathKind, Plan};
use super::route::Router;
use super::steer::{self, Detour};
use super::stream::Recorder;
use glam::DVec2;
use rayon::prelude::*;
use spots::mean;

pub use super::stream::Motion;
pub use spots::{merge_gaps, rows_of, targets_for};

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
    /// The neighbourhood radius the correct phase looks within, metres.
    cell_m: f64,
    /// The grid's cell size, metres.
    grid_cell_m: f64,
    pos: Vec<DVec2>,
    vel: Vec<DVec2>,
    group_of: Vec<usize>,
    active: Vec<Option<Active>>,
    /// Per performer, its group shifted left by one with the lowest bit set while it moves
    /// (see `correct::Body`), written by the predict phase so that the neighbours' copies need
    /// not read the move records in grid order.
    group_moving: Vec<u32>,
    /// Per performer, the end of its move's schedule in beats (infinite while it stands), so
    /// that the arrival check need not read every move record.
    due_beats: Vec<f64>,
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
    bodies: Vec<correct::Body>,
    /// The grid over the places at the start of the step.
    grid: Grid,
    act_scratch: act::Scratch,
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
        // The neighbourhood radius: a whole multiple of the footprint, covering the contact
        // distance plus two steps' motion and at least three footprints. The grid's cells are
        // one footprint, so that each query looks only at the cells its own radius meets.
        let needed = (footprint + 2.0 * vmax * dt_secs).max(3.0 * footprint);
        let cell_m = footprint * (needed / footprint).ceil();
        let grid_cell_m = footprint;
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
            grid_cell_m,
            vel: vec![DVec2::ZERO; n],
            group_of: plan.performers.iter().map(|p| p.group).collect(),
            active: vec![None; n],
            group_moving: vec![0; n],
            due_beats: vec![f64::INFINITY; n],
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
            bodies: Vec::new(),
            grid: Grid::default(),
            act_scratch: act::Scratch::default(),
            act_fin: Vec::new(),
        }
    }

    /// The neighbourhood radius in metres (a whole multiple of the footprint).
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
        let mut grid = std::mem::take(&mut self.grid);
        grid.rebuild(&self.pos, self.grid_cell_m);
        self.correct(&grid);
        self.act(&grid);
        self.arrive(t_next);
        self.frame += 1;
        let near = self.act_scratch.neighbours(&grid);
        self.recorder.frame(&self.pos, &self.plan.obstacles, &mut self.moves, Some(near));
        self.grid = grid;
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
            self.due_beats[i] = ev.end_beats();
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
        let group_of = &self.group_of;
        let out = self.desired.par_iter_mut().zip(self.lag.par_iter_mut()).zip(self.group_moving.par_iter_mut());
        out.enumerate().with_min_len(CHUNK).for_each(|(i, ((desired, lag), group_moving))| {
            *desired = DVec2::ZERO;
            *lag = 0.0;
            *group_moving = correct::group_moving(group_of[i], active[i].is_some());
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
        });
    }

    /// The farthest corner of a route, up to the schedule's point at fraction `u`, that `p`
    /// sees (the route's start when none does).
    fn corner_in_sight(router: &Router, path: &Path, p: DVec2, u: f64) -> DVec2 {
        let corners = &path.points()[..=path.point_before(u)];
        corners.iter().rev().copied().find(|c| router.clear(p, *c)).unwrap_or(corners[0])
    }

    /// Arrival: once the schedule has ended, a performer within [`ARRIVAL_TOLERANCE_M`] of its
    /// spot has arrived; within [`ARRIVE_M`] it stops and holds the spot until its next event.
    fn arrive(&mut self, t_next: f64) {
        for i in 0..self.pos.len() {
            if t_next < self.due_beats[i] - 1e-9 {
                continue;
            }
            let Some(a) = &self.active[i] else { continue };
            let left_m = self.pos[i].distance(a.target);
            let record = &mut self.moves[a.record];
            if left_m <= ARRIVAL_TOLERANCE_M && record.arrived_beats.is_none() {
                record.arrived_beats = Some(t_next);
            }
            if left_m <= ARRIVE_M {
                self.active[i] = None;
                self.due_beats[i] = f64::INFINITY;
                self.vel[i] = DVec2::ZERO;
            }
        }
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
}
