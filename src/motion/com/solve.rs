//! Levenberg–Marquardt over one segment: Gauss–Newton normal equations (see [`super::normal`])
//! assembled straight into a skyline (banded) matrix and solved by sparse Cholesky,
//! O(unknowns) per iteration.
//!
//! Deterministic: fixed evaluation order, no threads, no clocks.

use glam::DVec3;

use super::normal::{Chain, LinearGradientSink, NormalSink, assemble, cost_at};
use super::problem::SegmentProblem;
use super::skyline::Skyline;

/// Converged when an accepted step lowers the objective by less than this fraction...
const RELATIVE_DECREASE: f64 = 1e-7;
/// ...or moves no unknown by more than this (metres).
const SMALLEST_STEP: f64 = 1e-6;
/// A step no larger than this (metres) whose predicted decrease is below
/// [`RELATIVE_DECREASE`] ends the solve without its trial cost.
const UNTRIED_STEP: f64 = 1e-4;

/// The iteration before which the height targets are re-aimed (see
/// [`SegmentProblem::retarget_heights`]): after two steps the horizontal path has settled.
const RETARGET_AT: usize = 3;
/// The reach weight starts at this fraction for the first iterations (until the height
/// targets are re-aimed): a stiff reach term on a rough first guess makes a front of
/// samples enter and leave the active set one span per iteration.
const REACH_START: f64 = 0.1;

/// Outcome of one segment solve.
#[derive(Clone, Debug)]
pub(crate) struct SegmentSolution {
    pub z: Vec<DVec3>,
    pub iterations: usize,
    /// The objective at the first guess, its reach term weighed as the first iterations weigh
    /// it (see [`REACH_START`]).
    pub initial_cost: f64,
    /// The objective as the iterations left it: its linear part kept up to date through its
    /// matrix (not summed again), before the last step of a converged solve.
    pub final_cost: f64,
    pub converged: bool,
}

/// Minimises the segment objective from its initial guess.
pub(crate) fn solve_segment(problem: &mut SegmentProblem<'_>, max_iterations: u32) -> SegmentSolution {
    if problem.blocks == 0 {
        let z = problem.initial.clone();
        let cost = cost_at::<true, true>(problem, &z, &mut Vec::with_capacity(problem.ctrl.len()));
        return SegmentSolution { z, iterations: 0, initial_cost: cost, final_cost: cost, converged: true };
    }
    SegmentSolver::new(problem, max_iterations).run()
}

/// How one Levenberg–Marquardt iteration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// A step lowered the objective; iterate on.
    Taken,
    /// The step taken (or a step too small to try) gains next to nothing.
    Converged,
    /// No downhill step even with heavy damping: a (local) minimum.
    NoDescent,
}

/// A trial point's objective.
#[derive(Clone, Copy, Debug)]
struct Trial {
    /// The linear rows' cost, through their matrix.
    linear_cost: f64,
    /// The whole objective.
    cost: f64,
    /// Whether its matrix and gradient were assembled into `next_work` and `next_gradient`.
    assembled: bool,
}

/// The state of one segment solve. The linear rows (most of them) have their matrix summed
/// once, and their gradient and cost kept up to date exactly through it (g(z + δ) = g(z) +
/// H·δ, C(z + δ) = C(z) + 2gᵀδ + δᵀHδ), so iterations only visit the other rows.
struct SegmentSolver<'p, 'a> {
    problem: &'p mut SegmentProblem<'a>,
    max_iterations: usize,
    /// How each span's sums reach the unknowns.
    chains: Vec<Chain>,
    /// The linear rows' Gauss–Newton matrix.
    constant: Skyline,
    /// The matrix at `z` (damped while a step is solved).
    work: Skyline,
    /// The whole gradient at `z`.
    gradient: Vec<f64>,
    /// A trial point's matrix and gradient, assembled in the same visit as its cost: the step
    /// is nearly always taken, and the next iteration starts from it.
    next_work: Skyline,
    next_gradient: Vec<f64>,
    /// The linear rows' gradient and cost at `z`.
    linear_gradient: Vec<f64>,
    linear_cost: f64,
    /// The linear rows' matrix times the step.
    linear_step: Vec<f64>,
    /// The damping scale per unknown (the undamped diagonal, at least `floor`).
    diag: Vec<f64>,
    floor: f64,
    /// The gradient of a retry's rebuild, thrown away.
    scratch: Vec<f64>,
    step: Vec<f64>,
    /// Free unknowns: the current point and the trial.
    z: Vec<DVec3>,
    trial: Vec<DVec3>,
    /// Control points of the point whose cost was taken last.
    x: Vec<DVec3>,
    cost: f64,
    lambda: f64,
    /// Whether `work` and `gradient` hold the undamped matrix and the gradient at `z`.
    assembled: bool,
    iterations: usize,
}

impl<'p, 'a> SegmentSolver<'p, 'a> {
    fn new(problem: &'p mut SegmentProblem<'a>, max_iterations: u32) -> Self {
        let n = 3 * problem.blocks;
        let constant = Skyline::new(problem.block_first.clone());
        let chains = Chain::of_spans(problem, &constant);
        let z = problem.initial.clone();
        Self {
            max_iterations: max_iterations as usize,
            chains,
            constant,
            work: Skyline::new(problem.block_first.clone()),
            gradient: vec![0.0; n],
            next_work: Skyline::new(problem.block_first.clone()),
            next_gradient: vec![0.0; n],
            linear_gradient: vec![0.0; n],
            linear_cost: 0.0,
            linear_step: vec![0.0; n],
            diag: vec![0.0; n],
            floor: 0.0,
            scratch: vec![0.0; n],
            step: vec![0.0; n],
            trial: z.clone(),
            z,
            x: Vec::with_capacity(problem.ctrl.len()),
            cost: 0.0,
            lambda: 1e-6,
            assembled: false,
            iterations: 0,
            problem,
        }
    }

    fn run(mut self) -> SegmentSolution {
        let initial_cost = self.start();
        let mut converged = false;
        while self.iterations < self.max_iterations {
            self.iterations += 1;
            if self.iterations == RETARGET_AT {
                self.retarget();
            }
            // (`x` holds the control points of `z`: the last cost was taken there, at the first
            // guess, the accepted trial or the re-aimed heights.)
            debug_assert!({
                let mut at_z = Vec::new();
                self.problem.control_points(&self.z, &mut at_z);
                at_z == self.x
            });
            if !self.assembled {
                self.assemble_at_x();
            }
            self.assembled = false;
            self.damping_scale();
            if self.damped_step() != Step::Taken {
                converged = true;
                break;
            }
        }
        SegmentSolution { z: self.z, iterations: self.iterations, initial_cost, final_cost: self.cost, converged }
    }

    /// The linear rows' matrix, gradient and cost at the first guess, then the whole matrix
    /// and objective there with the reach term weakened (see [`REACH_START`]). Returns the
    /// objective.
    fn start(&mut self) -> f64 {
        self.problem.control_points(&self.z, &mut self.x);
        let mut sink = NormalSink::<true>::new(&self.chains, &mut self.constant, &mut self.linear_gradient);
        self.problem.visit(&self.x, &mut sink);
        self.linear_cost = sink.cost;
        self.problem.weights.reach *= REACH_START;
        self.cost = self.linear_cost + self.assemble_at_x();
        self.assembled = true;
        self.cost
    }

    /// The matrix and gradient at control points `x` into `work` and `gradient`; returns the
    /// other rows' cost there.
    fn assemble_at_x(&mut self) -> f64 {
        self.gradient.copy_from_slice(&self.linear_gradient);
        assemble(self.problem, &self.chains, &self.constant, &self.x, &mut self.work, &mut self.gradient)
    }

    /// Re-aims the height targets from where the pelvis now is, with the reach term at full
    /// weight: a changed objective, so the linear rows' gradient and cost are refreshed (their
    /// matrix is unchanged).
    fn retarget(&mut self) {
        self.problem.weights.reach /= REACH_START;
        self.problem.control_points(&self.z, &mut self.x);
        self.problem.retarget_heights(&self.x);
        self.linear_gradient.fill(0.0);
        let mut sink = LinearGradientSink::new(&self.problem.ctrl, &mut self.linear_gradient);
        self.problem.visit(&self.x, &mut sink);
        self.linear_cost = sink.cost;
        self.cost = self.linear_cost + self.assemble_at_x();
        self.assembled = true;
    }

    /// The damping scale of each unknown from the undamped matrix's diagonal.
    fn damping_scale(&mut self) {
        for (i, d) in self.diag.iter_mut().enumerate() {
            *d = self.work.diag(i / 3, i % 3);
        }
        let max_diag = self.diag.iter().fold(0.0f64, |m, d| m.max(*d));
        let floor = 1e-12 * max_diag.max(1e-300);
        for d in &mut self.diag {
            *d = d.max(floor);
        }
        self.floor = floor;
    }

    /// Solves damped steps, raising the damping until one lowers the objective.
    fn damped_step(&mut self) -> Step {
        let mut nu = 2.0;
        let mut undamped = true;
        while self.lambda <= 1e12 {
            if !undamped {
                // A retry (rare): rebuild the undamped matrix (`x` now holds the trial).
                self.problem.control_points(&self.z, &mut self.x);
                self.scratch.fill(0.0);
                assemble(self.problem, &self.chains, &self.constant, &self.x, &mut self.work, &mut self.scratch);
            }
            undamped = false;
            if !self.factor_damped() {
                self.lambda *= 10.0;
                continue;
            }
            let predicted = self.solve_step();
            let largest_step = self.step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            if largest_step < SMALLEST_STEP
                || (largest_step < UNTRIED_STEP && predicted <= RELATIVE_DECREASE * self.cost + 1e-16)
            {
                // Converged: a step this small that the model says gains nothing cannot make
                // the objective worse that matters (the final cost is computed exactly), so it
                // is taken untried.
                for (b, zb) in self.z.iter_mut().enumerate() {
                    *zb += DVec3::new(self.step[3 * b], self.step[3 * b + 1], self.step[3 * b + 2]);
                }
                return Step::Converged;
            }
            let trial = self.evaluate_trial();
            // Gain ratio against the decrease the quadratic model predicts.
            let gain = (self.cost - trial.cost) / predicted.max(1e-300);
            if trial.cost.is_finite() && trial.cost <= self.cost {
                return self.accept(trial, gain, largest_step);
            }
            self.lambda *= nu;
            nu *= 2.0;
        }
        Step::NoDescent
    }

    /// Adds λ·D (+ the floor) to the diagonal of `work` and factors it; false when that fails.
    fn factor_damped(&mut self) -> bool {
        for (i, d) in self.diag.iter().enumerate() {
            self.work.add_diag(i / 3, i % 3, self.lambda * d + self.floor);
        }
        self.work.factor().is_ok()
    }

    /// Solves (H + λD)δ = −g into `step`; returns the decrease the quadratic model predicts,
    /// −2gᵀδ − δᵀHδ = −gᵀδ + λ·δᵀDδ.
    fn solve_step(&mut self) -> f64 {
        for (s, g) in self.step.iter_mut().zip(&self.gradient) {
            *s = -g;
        }
        self.work.solve(&mut self.step);
        let mut predicted = 0.0;
        for ((s, g), d) in self.step.iter().zip(&self.gradient).zip(&self.diag) {
            predicted += -g * s + self.lambda * d * s * s;
        }
        predicted
    }

    /// The objective at `z` + `step`, into `trial`; its matrix too, unless the next iteration
    /// changes the objective first.
    fn evaluate_trial(&mut self) -> Trial {
        let step = &self.step;
        for (b, t) in self.trial.iter_mut().enumerate() {
            let d = DVec3::new(step[3 * b], step[3 * b + 1], step[3 * b + 2]);
            *t = self.z.get(b).copied().unwrap_or(DVec3::ZERO) + d;
        }
        self.linear_step.fill(0.0);
        self.constant.mul_add(step, &mut self.linear_step);
        let linear_cost = self.linear_cost
            + step
                .iter()
                .zip(&self.linear_gradient)
                .zip(&self.linear_step)
                .map(|((s, g), h)| s * (2.0 * g + h))
                .sum::<f64>();
        let assembled = self.iterations + 1 != RETARGET_AT && self.iterations < self.max_iterations;
        let cost = linear_cost
            + if assembled {
                self.problem.control_points(&self.trial, &mut self.x);
                for ((ng, g), h) in self.next_gradient.iter_mut().zip(&self.linear_gradient).zip(&self.linear_step) {
                    *ng = g + h;
                }
                assemble(
                    self.problem,
                    &self.chains,
                    &self.constant,
                    &self.x,
                    &mut self.next_work,
                    &mut self.next_gradient,
                )
            } else {
                cost_at::<false, true>(self.problem, &self.trial, &mut self.x)
            };
        Trial { linear_cost, cost, assembled }
    }

    /// Moves to the trial point and loosens the damping (Nielsen's update: shrink λ a lot when
    /// the model predicted well).
    fn accept(&mut self, trial: Trial, gain: f64, largest_step: f64) -> Step {
        let decrease = self.cost - trial.cost;
        std::mem::swap(&mut self.z, &mut self.trial);
        self.cost = trial.cost;
        self.linear_cost = trial.linear_cost;
        for (g, h) in self.linear_gradient.iter_mut().zip(&self.linear_step) {
            *g += h;
        }
        if trial.assembled {
            std::mem::swap(&mut self.work, &mut self.next_work);
            std::mem::swap(&mut self.gradient, &mut self.next_gradient);
            self.assembled = true;
        }
        self.lambda = (self.lambda * (1.0 / 3.0f64).max(1.0 - (2.0 * gain - 1.0).powi(3))).max(1e-9);
        if decrease <= RELATIVE_DECREASE * self.cost + 1e-16 || largest_step < SMALLEST_STEP {
            Step::Converged
        } else {
            Step::Taken
        }
    }
}
