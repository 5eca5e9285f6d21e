//! One independent segment of the COM problem as nonlinear least squares over free B-spline
//! control points: which control points are free and which follow exactly from fixed points
//! and flights, where residuals are sampled, the initial guess, and the resulting path pieces.
//!
//! The residual rows themselves are produced in [`super::residuals`].

use glam::{DVec2, DVec3};

use super::job::{ComError, ComWeights};
use super::path::{Piece, basis, basis_d1, basis_d2};
use super::residuals::EVENT_SECS;
use super::timeline::{Boundary, RunPlan, SegmentPlan, Timeline};

/// Gauss–Legendre points on [0, 1] (two per span; exact for cubic integrands).
const GAUSS_U: [f64; 2] = [0.211_324_865_405_187_1, 0.788_675_134_594_812_9];
/// Lowest pelvis height above the floor used in the balance term, metres.
pub(super) const MIN_BALANCE_HEIGHT_M: f64 = 0.1;

/// A control point as an affine function of the free unknown blocks (3-vectors):
/// Σₜ coef(t)·z(block(t)) + constant, the same scalar coefficients on every axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CtrlExpr {
    pub terms: usize,
    pub block: [usize; 4],
    pub coef: [f64; 4],
    pub constant: DVec3,
}

impl CtrlExpr {
    fn free(block: usize) -> Self {
        Self { terms: 1, block: [block, 0, 0, 0], coef: [1.0, 0.0, 0.0, 0.0], constant: DVec3::ZERO }
    }

    fn eval(&self, z: &[DVec3]) -> DVec3 {
        let mut x = self.constant;
        for t in 0..self.terms.min(4) {
            if let Some(zb) = z.get(self.block[t]) {
                x += self.coef[t] * *zb;
            }
        }
        x
    }
}

/// Coefficients making the flight between run A (span `dt_a`) and run B (span `dt_b`) an
/// exact ballistic arc of duration `t_flight`: A's last control point c_{n+1} and B's first
/// d_{−1} as combinations of [c_{n−1}, c_n, d_0, d_1] plus constants (gravity along −y).
///
/// The two conditions are: take-off velocity = (p_B − p_A)/T + ½gT·ŷ and landing velocity =
/// (p_B − p_A)/T − ½gT·ŷ, with p, v the B-spline end values.
pub(crate) fn flight_elimination(
    dt_a: f64,
    dt_b: f64,
    t_flight: f64,
    gravity: f64,
) -> ([f64; 4], DVec3, [f64; 4], DVec3) {
    let beta = 1.0 / (6.0 * t_flight);
    let alpha = 0.5 / dt_a + beta;
    let gamma = 0.5 / dt_b + beta;
    // α·u − β·w = r1,  β·u − γ·w = r2, with u = c_{n+1}, w = d_{−1}.
    let r1 = [0.5 / dt_a - beta, -4.0 * beta, 4.0 * beta, beta];
    let r2 = [-beta, -4.0 * beta, 4.0 * beta, beta - 0.5 / dt_b];
    let g1 = DVec3::Y * (0.5 * gravity * t_flight);
    let g2 = -g1;
    let det = beta * beta - alpha * gamma;
    let mut cu = [0.0; 4];
    let mut cw = [0.0; 4];
    for k in 0..4 {
        cu[k] = (-gamma * r1[k] + beta * r2[k]) / det;
        cw[k] = (-beta * r1[k] + alpha * r2[k]) / det;
    }
    ((cu), (-gamma * g1 + beta * g2) / det, cw, (-beta * g1 + alpha * g2) / det)
}

/// Which terms a residual sample carries.
#[derive(Clone, Copy, Debug)]
pub(super) enum Terms {
    /// Quadrature point of the dynamic terms (balance, centre, push, reach) for the feet
    /// planted in `phase`; `height_m` is the target height (for the pendulum length).
    Support { phase: usize, height_m: f64, pressure_xz: Option<DVec2> },
    /// Touch-down or lift-off of `contact`: leg reach only.
    Event { contact: usize },
    /// Quadrature point of the level terms (height, leg comfort), one per span. `height_m`
    /// is the target: the desired height `desired_m` lowered where the planted legs cannot
    /// reach it (see [`SegmentProblem::retarget_heights`]).
    Level { phase: usize, height_m: f64, desired_m: f64 },
    /// A free end of the job: the motion must be stoppable (end) or startable (start) there.
    /// The capture point c + sign·ċ/ω (ω = √(g/h)) must sit on the expected centre of
    /// pressure, else the inverted pendulum would be left falling away (or falling in).
    Capture { sign: f64, omega: f64, pressure_xz: DVec2 },
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Sample {
    /// First of the 4 control points of the span.
    pub ctrl0: usize,
    /// The basis weights where it sits in the span (computed once: every solver pass visits
    /// every sample).
    pub w: Weights,
    /// Quadrature weight, seconds.
    pub quad_secs: f64,
    pub terms: Terms,
}

/// B-spline basis weights of one sample: position, velocity (÷dt), acceleration (÷dt²).
#[derive(Clone, Copy, Debug)]
pub(super) struct Weights {
    pub pos: [f64; 4],
    pub vel: [f64; 4],
    pub acc: [f64; 4],
}

impl Weights {
    pub fn at(u: f64, dt: f64) -> Self {
        let inv = 1.0 / dt;
        Self { pos: basis(u), vel: basis_d1(u).map(|w| w * inv), acc: basis_d2(u).map(|w| w * inv * inv) }
    }
}

/// The rows of one spline span: its samples and its jerk.
#[derive(Clone, Debug)]
pub(super) struct SpanRows {
    /// Index in [`SegmentProblem::spans`].
    pub index: usize,
    /// First of the span's 4 control points.
    pub ctrl0: usize,
    /// Jerk row scale √(w·dt)/dt³.
    pub jerk_scale: f64,
    /// The span's first block when its 4 control points are free, unscaled and consecutive
    /// blocks `b..b + 4` of the segment's: its rows then reach the normal matrix without the
    /// chain rule.
    pub plain_block: Option<usize>,
    /// Range in [`SegmentProblem::samples`].
    pub samples: std::ops::Range<usize>,
}

#[derive(Clone, Copy, Debug)]
struct RunLayout {
    t_start_secs: f64,
    dt_secs: f64,
    spans: usize,
    first_ctrl: usize,
    /// Flight after this run: its duration, seconds.
    flight_after_secs: Option<f64>,
}

/// The least-squares problem of one segment.
#[derive(Clone, Debug)]
pub(crate) struct SegmentProblem<'a> {
    pub(super) timeline: &'a Timeline,
    pub(super) weights: ComWeights,
    runs: Vec<RunLayout>,
    pub ctrl: Vec<CtrlExpr>,
    pub blocks: usize,
    /// Per block, the first block it couples with in the normal matrix.
    pub block_first: Vec<usize>,
    /// Residual samples, grouped by span (in span order).
    pub(super) samples: Vec<Sample>,
    pub(super) spans: Vec<SpanRows>,
    /// Initial guess, one 3-vector per block.
    pub initial: Vec<DVec3>,
}

impl<'a> SegmentProblem<'a> {
    /// Lays out the segment `plan` of `timeline`.
    pub fn new(timeline: &'a Timeline, plan: &SegmentPlan, weights: ComWeights) -> Result<Self, ComError> {
        let runs = run_layouts(plan);
        let controls = Controls::new(plan, &runs, timeline.gravity_mps2)?;
        let mut layout = SampleLayout::new(timeline, &controls, &runs);
        for (lay, plan_run) in runs.iter().zip(&plan.runs) {
            layout.add_run(lay, plan_run, weights.jerk);
        }
        let SampleLayout { block_first, spans, samples, .. } = layout.finish();
        let Controls { ctrl, block_of, blocks } = controls;
        let mut problem =
            Self { timeline, weights, runs, ctrl, blocks, block_first, samples, spans, initial: Vec::new() };
        problem.initial = problem.initial_guess(&block_of);
        Ok(problem)
    }

    /// Free blocks at the support centre and the desired height (capped by leg reach).
    fn initial_guess(&self, block_of: &[Option<usize>]) -> Vec<DVec3> {
        let tl = self.timeline;
        let mut z = vec![DVec3::ZERO; self.blocks];
        for lay in &self.runs {
            let t_end = lay.t_start_secs + lay.dt_secs * lay.spans as f64;
            for local in 0..lay.spans + 3 {
                let Some(Some(b)) = block_of.get(lay.first_ctrl + local) else { continue };
                let t = (lay.t_start_secs + (local as f64 - 1.0) * lay.dt_secs).clamp(lay.t_start_secs, t_end);
                let centre = tl.support_centre_xz(t);
                let y = tl.target_height_m(t, tl.phase_index_at(t));
                if let Some(zb) = z.get_mut(*b) {
                    *zb = DVec3::new(centre.x, y, centre.y);
                }
            }
        }
        z
    }

    /// Lowers each level sample's height target to what the planted legs can reach with the
    /// pelvis where control points `x` put it horizontally (instead of over the middle of the
    /// feet, the first guess). Height and reach then rarely fight, so the one-sided reach
    /// term rarely switches on and Gauss–Newton converges in a few steps. Only constants of
    /// linear rows change: their Gauss–Newton matrix stays valid.
    pub fn retarget_heights(&mut self, x: &[DVec3]) {
        let tl = self.timeline;
        let reach = tl.target_reach_m;
        for s in &mut self.samples {
            let Terms::Level { phase, height_m, desired_m } = &mut s.terms else { continue };
            let Some(pts) = x.get(s.ctrl0..s.ctrl0 + 4) else { continue };
            let pos = s.w.pos;
            let c: DVec3 = (0..4).map(|k| pos[k] * pts[k]).sum();
            let mut target = *desired_m;
            for foot in tl.phases.get(*phase).into_iter().flat_map(|p| p.planted()).filter_map(|id| tl.contacts.get(id))
            {
                let d = DVec2::new(c.x - foot.ankle_in_world.x, c.z - foot.ankle_in_world.z).length();
                target = target.min(foot.ankle_in_world.y + (reach * reach - d * d).max(0.0).sqrt());
            }
            *height_m = target;
        }
    }

    /// Control points from the free blocks `z`, into `x`.
    pub fn control_points(&self, z: &[DVec3], x: &mut Vec<DVec3>) {
        x.clear();
        x.extend(self.ctrl.iter().map(|e| e.eval(z)));
    }

    /// The path pieces of this segment at free blocks `z`.
    pub fn pieces(&self, z: &[DVec3]) -> Vec<Piece> {
        let mut x = Vec::new();
        self.control_points(z, &mut x);
        let mut pieces = Vec::with_capacity(2 * self.runs.len());
        for lay in &self.runs {
            let points = x.get(lay.first_ctrl..lay.first_ctrl + lay.spans + 3).unwrap_or(&[]).to_vec();
            let (Some(&c0), Some(&c1), Some(&c2)) =
                (points.get(lay.spans), points.get(lay.spans + 1), points.get(lay.spans + 2))
            else {
                continue;
            };
            pieces.push(Piece::Spline {
                t_start_secs: lay.t_start_secs,
                dt_secs: lay.dt_secs,
                control_points_in_world: points,
            });
            if let Some(duration_secs) = lay.flight_after_secs {
                pieces.push(Piece::Ballistic {
                    t_start_secs: lay.t_start_secs + lay.dt_secs * lay.spans as f64,
                    duration_secs,
                    takeoff_position_in_world: (c0 + 4.0 * c1 + c2) / 6.0,
                    takeoff_velocity_in_world: (c2 - c0) / (2.0 * lay.dt_secs),
                    gravity_mps2: self.timeline.gravity_mps2,
                });
            }
        }
        pieces
    }
}

/// Each run's spans and first control point (a run of n spans has n + 3 control points,
/// stored one run after another), and the flight after it.
fn run_layouts(plan: &SegmentPlan) -> Vec<RunLayout> {
    let mut runs = Vec::with_capacity(plan.runs.len());
    let mut total = 0usize;
    for (i, r) in plan.runs.iter().enumerate() {
        let flight_after_secs = match (r.end, plan.runs.get(i + 1)) {
            (Boundary::Flight, Some(next)) => Some(next.t_start_secs - r.t_end_secs),
            _ => None,
        };
        runs.push(RunLayout {
            t_start_secs: r.t_start_secs,
            dt_secs: r.dt_secs(),
            spans: r.spans,
            first_ctrl: total,
            flight_after_secs,
        });
        total += r.spans + 3;
    }
    runs
}

/// The control points of a segment as expressions of its free blocks.
struct Controls {
    ctrl: Vec<CtrlExpr>,
    /// Per control point, its block when it is free.
    block_of: Vec<Option<usize>>,
    blocks: usize,
}

impl Controls {
    /// Numbers the free control points, then writes those that follow from fixed points and
    /// flights in terms of them.
    fn new(plan: &SegmentPlan, runs: &[RunLayout], gravity_mps2: f64) -> Result<Self, ComError> {
        let total = runs.last().map_or(0, |lay| lay.first_ctrl + lay.spans + 3);
        let eliminated = eliminated_points(plan, runs, total);
        let mut block_of = vec![None; total];
        let mut blocks = 0usize;
        let mut ctrl = vec![CtrlExpr::free(0); total];
        for i in 0..total {
            if !eliminated[i] {
                block_of[i] = Some(blocks);
                ctrl[i] = CtrlExpr::free(blocks);
                blocks += 1;
            }
        }
        let mut controls = Controls { ctrl, block_of, blocks };
        controls.eliminate(plan, runs, gravity_mps2)?;
        Ok(controls)
    }

    fn free(&self, i: usize) -> Result<usize, ComError> {
        self.block_of.get(i).copied().flatten().ok_or(ComError::NumericalFailure)
    }

    /// The expressions of the control points [`eliminated_points`] marks: a fixed point
    /// (position and velocity) ties the two control points around one free one, a flight
    /// makes the join an exact ballistic arc (see [`flight_elimination`]).
    fn eliminate(&mut self, plan: &SegmentPlan, runs: &[RunLayout], gravity_mps2: f64) -> Result<(), ComError> {
        for (ri, (r, lay)) in plan.runs.iter().zip(runs).enumerate() {
            let (f, n, dt) = (lay.first_ctrl, lay.spans, lay.dt_secs);
            if let Boundary::Fixed { position: p, velocity: v } = r.start {
                let b = self.free(f + 1)?;
                self.ctrl[f] = single(b, -2.0, 3.0 * p - dt * v);
                self.ctrl[f + 2] = single(b, -2.0, 3.0 * p + dt * v);
            }
            match r.end {
                Boundary::Fixed { position: q, velocity: w } => {
                    let b = self.free(f + n + 1)?;
                    self.ctrl[f + n + 2] = single(b, -2.0, 3.0 * q + dt * w);
                    self.ctrl[f + n] = single(b, -2.0, 3.0 * q - dt * w);
                }
                Boundary::Flight => {
                    let (Some(next), Some(t_flight)) = (runs.get(ri + 1), lay.flight_after_secs) else {
                        return Err(ComError::NumericalFailure);
                    };
                    let fb = next.first_ctrl;
                    let refs = [self.free(f + n)?, self.free(f + n + 1)?, self.free(fb + 1)?, self.free(fb + 2)?];
                    let (cu, ku, cw, kw) = flight_elimination(dt, next.dt_secs, t_flight, gravity_mps2);
                    self.ctrl[f + n + 2] = CtrlExpr { terms: 4, block: refs, coef: cu, constant: ku };
                    self.ctrl[fb] = CtrlExpr { terms: 4, block: refs, coef: cw, constant: kw };
                }
                Boundary::Free => {}
            }
        }
        Ok(())
    }
}

/// Which control points follow from boundary conditions (local indices: c_j is j + 1).
fn eliminated_points(plan: &SegmentPlan, runs: &[RunLayout], total: usize) -> Vec<bool> {
    let mut eliminated = vec![false; total];
    for (r, lay) in plan.runs.iter().zip(runs) {
        let (f, n) = (lay.first_ctrl, lay.spans);
        match r.start {
            Boundary::Fixed { .. } => {
                eliminated[f] = true;
                eliminated[f + 2] = true;
            }
            Boundary::Flight => eliminated[f] = true,
            Boundary::Free => {}
        }
        match r.end {
            Boundary::Fixed { .. } => {
                eliminated[f + n] = true;
                eliminated[f + n + 2] = true;
            }
            Boundary::Flight => eliminated[f + n + 2] = true,
            Boundary::Free => {}
        }
    }
    eliminated
}

/// A touch-down or lift-off inside a run: the span it falls in, where in the span, which
/// contact.
#[derive(Clone, Copy, Debug)]
struct RunEvent {
    span: usize,
    u: f64,
    contact: usize,
}

/// The residual samples of a segment, laid out span by span, and the normal matrix's
/// profile (blocks referenced by one span couple with each other).
struct SampleLayout<'t> {
    timeline: &'t Timeline,
    ctrl: &'t [CtrlExpr],
    blocks: usize,
    /// Per block, the first block it couples with.
    block_first: Vec<usize>,
    spans: Vec<SpanRows>,
    samples: Vec<Sample>,
}

impl<'t> SampleLayout<'t> {
    fn new(timeline: &'t Timeline, controls: &'t Controls, runs: &[RunLayout]) -> Self {
        let total_spans: usize = runs.iter().map(|r| r.spans).sum();
        SampleLayout {
            timeline,
            ctrl: &controls.ctrl,
            blocks: controls.blocks,
            block_first: (0..controls.blocks).collect(),
            spans: Vec::with_capacity(total_spans),
            samples: Vec::with_capacity(3 * total_spans + timeline.contact_events.len() + 8),
        }
    }

    /// The spans of one run and their samples; `jerk_weight` scales the jerk rows.
    fn add_run(&mut self, lay: &RunLayout, plan_run: &RunPlan, jerk_weight: f64) {
        let dt = lay.dt_secs;
        let events = self.run_events(lay);
        let mut next_event = 0usize;
        let jerk_scale = (jerk_weight * dt).sqrt() / (dt * dt * dt);
        for j in 0..lay.spans {
            let ctrl0 = lay.first_ctrl + j;
            self.add_span(ctrl0, jerk_scale);
            // A free end is weakly held by interior samples alone: sample the end itself.
            let free_start = j == 0 && plan_run.start == Boundary::Free;
            let free_end = j + 1 == lay.spans && plan_run.end == Boundary::Free;
            let ends = [free_start.then_some(0.0), free_end.then_some(1.0)];
            for u in ends[0].into_iter().chain(GAUSS_U).chain(ends[1]) {
                self.add_support_samples(lay, j, u);
            }
            let t_mid = lay.t_start_secs + (j as f64 + 0.5) * dt;
            let tl = self.timeline;
            let phase = tl.phase_index_at(t_mid);
            let height_m = tl.target_height_m(t_mid, phase);
            let desired_m = tl.phases.get(phase).map_or(height_m, |p| tl.desired_height_m(t_mid, p));
            self.samples.push(sample(ctrl0, 0.5, dt, dt, Terms::Level { phase, height_m, desired_m }));
            while let Some(event) = events.get(next_event).filter(|e| e.span == j) {
                self.samples.push(sample(ctrl0, event.u, dt, EVENT_SECS, Terms::Event { contact: event.contact }));
                next_event += 1;
            }
        }
    }

    /// Every touch-down and lift-off inside the run, in time order.
    fn run_events(&self, lay: &RunLayout) -> Vec<RunEvent> {
        let dt = lay.dt_secs;
        let t_end = lay.t_start_secs + dt * lay.spans as f64;
        let events = &self.timeline.contact_events;
        let from = events.partition_point(|e| e.0 < lay.t_start_secs - 1e-9);
        events
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .take_while(|e| e.0 <= t_end + 1e-9)
            .map(|&(t, contact)| {
                let x = ((t - lay.t_start_secs) / dt).clamp(0.0, lay.spans as f64);
                let j = (x.floor() as usize).min(lay.spans - 1);
                RunEvent { span: j, u: x - j as f64, contact }
            })
            .collect()
    }

    /// The span starting at control point `ctrl0`: its blocks couple in the profile, and it
    /// is plain when its 4 control points are consecutive free blocks.
    fn add_span(&mut self, ctrl0: usize, jerk_scale: f64) {
        let span = self.ctrl.get(ctrl0..ctrl0 + 4).unwrap_or(&[]);
        let referenced = span.iter().flat_map(|e| e.block.iter().take(e.terms));
        let lowest = referenced.clone().min().copied().unwrap_or(0);
        for &b in referenced {
            if let Some(first) = self.block_first.get_mut(b) {
                *first = (*first).min(lowest);
            }
        }
        let plain_block = span.first().map(|e| e.block[0]).filter(|&b0| {
            span.len() == 4
                && b0 + 4 <= self.blocks
                && span
                    .iter()
                    .enumerate()
                    .all(|(k, e)| e.terms == 1 && e.coef[0] == 1.0 && e.block[0] == b0 + k && e.constant == DVec3::ZERO)
        });
        let index = self.spans.len();
        self.spans.push(SpanRows { index, ctrl0, jerk_scale, plain_block, samples: 0..0 });
    }

    /// The dynamic terms at `u` in span `j` of the run; at a free end (u = 0 or 1) also the
    /// level terms and, where there is a centre of pressure to aim at, the capture point.
    fn add_support_samples(&mut self, lay: &RunLayout, j: usize, u: f64) {
        let tl = self.timeline;
        let (dt, ctrl0) = (lay.dt_secs, lay.first_ctrl + j);
        let quad = dt / GAUSS_U.len() as f64;
        let t = lay.t_start_secs + (j as f64 + u) * dt;
        let phase = tl.phase_index_at(t);
        let height_m = tl.target_height_m(t, phase);
        let pressure_xz = tl.pressure_reference_xz(phase, t);
        let terms = Terms::Support { phase, height_m, pressure_xz };
        self.samples.push(sample(ctrl0, u, dt, quad, terms));
        if u == 0.0 || u == 1.0 {
            let desired_m = tl.phases.get(phase).map_or(height_m, |p| tl.desired_height_m(t, p));
            self.samples.push(sample(ctrl0, u, dt, 0.5 * dt, Terms::Level { phase, height_m, desired_m }));
        }
        if let (Some(pressure_xz), true) = (pressure_xz, u == 0.0 || u == 1.0) {
            let floor_y = tl.floor_height_m(phase);
            let omega = (tl.gravity_mps2 / (height_m - floor_y).max(MIN_BALANCE_HEIGHT_M)).sqrt();
            let sign = if u == 0.0 { -1.0 } else { 1.0 };
            self.samples.push(sample(ctrl0, u, dt, 0.0, Terms::Capture { sign, omega, pressure_xz }));
        }
    }

    /// Records each span's range of samples (they were pushed span by span).
    fn finish(mut self) -> Self {
        let mut next = 0usize;
        for span in &mut self.spans {
            let start = next;
            while self.samples.get(next).is_some_and(|s| s.ctrl0 == span.ctrl0) {
                next += 1;
            }
            span.samples = start..next;
        }
        self
    }
}

fn single(block: usize, coef: f64, constant: DVec3) -> CtrlExpr {
    CtrlExpr { terms: 1, block: [block, 0, 0, 0], coef: [coef, 0.0, 0.0, 0.0], constant }
}

fn sample(ctrl0: usize, u: f64, dt: f64, quad_secs: f64, terms: Terms) -> Sample {
    Sample { ctrl0, w: Weights::at(u, dt), quad_secs, terms }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::com::path::basis_d1;

    #[test]
    fn flight_elimination_gives_a_ballistic_join() {
        let (dt_a, dt_b, t, g) = (0.031, 0.027, 0.43, 9.81);
        let (cu, ku, cw, kw) = flight_elimination(dt_a, dt_b, t, g);
        let xs = [
            DVec3::new(0.1, 0.9, 0.2),
            DVec3::new(0.15, 0.93, 0.25),
            DVec3::new(0.6, 0.88, 0.4),
            DVec3::new(0.65, 0.86, 0.45),
        ];
        let combine = |c: [f64; 4], k: DVec3| k + (0..4).map(|i| c[i] * xs[i]).sum::<DVec3>();
        let (u, w) = (combine(cu, ku), combine(cw, kw));
        let (b0, b1) = (basis(1.0), basis_d1(1.0));
        let pa = b0[1] * xs[0] + b0[2] * xs[1] + b0[3] * u;
        let va = (b1[1] * xs[0] + b1[2] * xs[1] + b1[3] * u) / dt_a;
        let (b0, b1) = (basis(0.0), basis_d1(0.0));
        let pb = b0[0] * w + b0[1] * xs[2] + b0[2] * xs[3];
        let vb = (b1[0] * w + b1[1] * xs[2] + b1[2] * xs[3]) / dt_b;
        // The parabola from (pa, va) lands at pb with velocity vb.
        let land = pa + va * t - DVec3::Y * (0.5 * g * t * t);
        let land_v = va - DVec3::Y * (g * t);
        assert!((land - pb).length() < 1e-12, "{land} vs {pb}");
        assert!((land_v - vb).length() < 1e-10, "{land_v} vs {vb}");
    }
}
