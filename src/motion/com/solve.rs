//! Levenberg–Marquardt over one segment: Gauss–Newton normal equations assembled straight
//! into a skyline (banded) matrix and solved by sparse Cholesky, O(unknowns) per iteration.
//!
//! Deterministic: fixed evaluation order, no threads, no clocks.

use glam::{DMat3, DVec3};

use super::problem::{CtrlExpr, SegmentProblem};
use super::residuals::{AXES_ALL, Sink};
use super::skyline::{Block, Skyline};

/// Converged when an accepted step lowers the objective by less than this fraction...
const RELATIVE_DECREASE: f64 = 1e-7;
/// ...or moves no unknown by more than this (metres).
const SMALLEST_STEP: f64 = 1e-6;

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
    pub initial_cost: f64,
    pub final_cost: f64,
    pub converged: bool,
}

/// Sums squared residuals of the rows flagged `LINEAR` (when `L`) and of the others (when `N`).
struct CostSink<const L: bool, const N: bool> {
    cost: f64,
}

impl<const L: bool, const N: bool> Sink for CostSink<L, N> {
    const GRAD: bool = false;
    const LINEAR_ROWS: bool = L;
    const NONLINEAR_ROWS: bool = N;
    fn row(&mut self, r: f64, _grads: &[DVec3; 4], _axes: u8) {
        self.cost += r * r;
    }
}

/// Accumulates the gradient Jᵀ·r of the rows flagged `LINEAR` only.
struct LinearGradientSink<'a> {
    ctrl: &'a [CtrlExpr],
    gradient: &'a mut [f64],
    ctrl0: usize,
    local_g: [f64; 12],
}

impl Sink for LinearGradientSink<'_> {
    const GRAD: bool = true;
    const NONLINEAR_ROWS: bool = false;

    fn begin_span(&mut self, ctrl0: usize) {
        self.ctrl0 = ctrl0;
        self.local_g = [0.0; 12];
    }

    fn row(&mut self, r: f64, grads: &[DVec3; 4], axes: u8) {
        for (k, g) in grads.iter().enumerate() {
            for (a, v) in g.to_array().into_iter().enumerate() {
                if axes & (1 << a) != 0 {
                    self.local_g[3 * k + a] += r * v;
                }
            }
        }
    }

    fn end_span(&mut self) {
        for k in 0..4 {
            let Some(e) = self.ctrl.get(self.ctrl0 + k) else { continue };
            for t in 0..e.terms.min(4) {
                for a in 0..3 {
                    if let Some(g) = self.gradient.get_mut(3 * e.block[t] + a) {
                        *g += e.coef[t] * self.local_g[3 * k + a];
                    }
                }
            }
        }
    }
}

/// Accumulates Jᵀ·J (+ the Newton terms rows ask for; lower half) and Jᵀ·r over the free
/// unknowns: first densely over the 12 coordinates of one span's control points, then once
/// per span through the control-point expressions into the skyline matrix. `LINEAR`: of the
/// rows flagged `LINEAR` (once per solve: their matrix never changes); else of the others
/// (every iteration).
struct NormalSink<'a, const LINEAR: bool> {
    ctrl: &'a [CtrlExpr],
    normal: &'a mut Skyline,
    gradient: &'a mut [f64],
    ctrl0: usize,
    /// Lower triangle of the span's 12×12 matrix, index 12·i + j with j ≤ i; i = 3·point + axis.
    local_h: [f64; 144],
    local_g: [f64; 12],
    touched: bool,
}

impl<'a, const LINEAR: bool> NormalSink<'a, LINEAR> {
    fn new(ctrl: &'a [CtrlExpr], normal: &'a mut Skyline, gradient: &'a mut [f64]) -> Self {
        Self { ctrl, normal, gradient, ctrl0: 0, local_h: [0.0; 144], local_g: [0.0; 12], touched: false }
    }

    /// The span's block when its 4 control points are free, unscaled and consecutive.
    fn plain_span(&self) -> Option<usize> {
        let first = self.ctrl.get(self.ctrl0)?;
        let b0 = first.block[0];
        let plain = (0..4).all(|k| {
            self.ctrl
                .get(self.ctrl0 + k)
                .is_some_and(|e| e.terms == 1 && e.coef[0] == 1.0 && e.block[0] == b0 + k && e.constant == DVec3::ZERO)
        });
        plain.then_some(b0)
    }
}

impl<const LINEAR_PASS: bool> Sink for NormalSink<'_, LINEAR_PASS> {
    const GRAD: bool = true;
    const LINEAR_ROWS: bool = LINEAR_PASS;
    const NONLINEAR_ROWS: bool = !LINEAR_PASS;

    fn begin_span(&mut self, ctrl0: usize) {
        self.ctrl0 = ctrl0;
        if self.touched {
            self.local_h = [0.0; 144];
        }
        self.local_g = [0.0; 12];
        self.touched = false;
    }

    fn row(&mut self, r: f64, grads: &[DVec3; 4], axes: u8) {
        self.touched = true;
        if axes & AXES_ALL == AXES_ALL {
            // Every coordinate (comfort and reach rows): the same sums without the index maps.
            let mut val = [0.0f64; 12];
            for (k, g) in grads.iter().enumerate() {
                val[3 * k..3 * k + 3].copy_from_slice(&g.to_array());
            }
            for (i, &vi) in val.iter().enumerate() {
                self.local_g[i] += r * vi;
                let row = &mut self.local_h[12 * i..12 * i + i + 1];
                for (h, vq) in row.iter_mut().zip(&val) {
                    *h += vi * vq;
                }
            }
            return;
        }
        let mut idx = [0usize; 12];
        let mut val = [0.0f64; 12];
        let mut m = 0usize;
        for (k, g) in grads.iter().enumerate() {
            for (a, v) in g.to_array().into_iter().enumerate() {
                if axes & (1 << a) != 0 {
                    idx[m] = 3 * k + a;
                    val[m] = v;
                    m += 1;
                }
            }
        }
        for p in 0..m {
            let (i, vi) = (idx[p], val[p]);
            self.local_g[i] += r * vi;
            let row = &mut self.local_h[12 * i..12 * i + 12];
            for q in 0..=p {
                row[idx[q]] += vi * val[q];
            }
        }
    }

    fn curvature(&mut self, pos_w: &[f64; 4], m: &DMat3) {
        self.touched = true;
        let m = m.to_cols_array_2d();
        for k in 0..4 {
            for k2 in 0..=k {
                let w = pos_w[k] * pos_w[k2];
                for a in 0..3 {
                    let i = 3 * k + a;
                    for (a2, col) in m.iter().enumerate() {
                        let j = 3 * k2 + a2;
                        if j <= i {
                            self.local_h[12 * i + j] += w * col[a];
                        }
                    }
                }
            }
        }
    }

    fn end_span(&mut self) {
        let n = self.gradient.len();
        // The symmetric local matrix (read from its lower half) as 4×4 blocks of 3×3, block
        // (k, k2) at 4·k + k2; only where a row touched it.
        let mut local: [Block; 16] = [[0.0; 9]; 16];
        if self.touched {
            let lower = &self.local_h;
            for (kk, m) in local.iter_mut().enumerate() {
                let (i0, j0) = (3 * (kk / 4), 3 * (kk % 4));
                for a in 0..3 {
                    for a2 in 0..3 {
                        let (i, j) = (i0 + a, j0 + a2);
                        m[3 * a + a2] = if j <= i { lower[12 * i + j] } else { lower[12 * j + i] };
                    }
                }
            }
        }
        if let Some(b0) = self.plain_span().filter(|b0| 3 * b0 + 12 <= n) {
            for (g, l) in self.gradient[3 * b0..3 * b0 + 12].iter_mut().zip(&self.local_g) {
                *g += l;
            }
            if self.touched {
                for k in 0..4 {
                    for k2 in 0..=k {
                        self.normal.add_block(b0 + k, b0 + k2, &local[4 * k + k2]);
                    }
                }
            }
            return;
        }
        // General case: chain rule through the control-point expressions.
        for k in 0..4 {
            let Some(ek) = self.ctrl.get(self.ctrl0 + k) else { continue };
            for t in 0..ek.terms.min(4) {
                let (b, cb) = (ek.block[t], ek.coef[t]);
                if 3 * b + 2 >= n {
                    continue;
                }
                for a in 0..3 {
                    self.gradient[3 * b + a] += cb * self.local_g[3 * k + a];
                }
                if !self.touched {
                    continue;
                }
                for k2 in 0..4 {
                    let Some(ek2) = self.ctrl.get(self.ctrl0 + k2) else { continue };
                    for t2 in 0..ek2.terms.min(4) {
                        let (b2, cb2) = (ek2.block[t2], ek2.coef[t2]);
                        if b2 <= b {
                            let scale = cb * cb2;
                            self.normal.add_block(b, b2, &local[4 * k + k2].map(|v| scale * v));
                        }
                    }
                }
            }
        }
    }
}

/// The objective at `z`: rows flagged `LINEAR` (when `L`) and the others (when `N`).
fn cost_at<const L: bool, const N: bool>(problem: &SegmentProblem<'_>, z: &[DVec3], x: &mut Vec<DVec3>) -> f64 {
    problem.control_points(z, x);
    let mut sink = CostSink::<L, N> { cost: 0.0 };
    problem.visit(x, &mut sink);
    sink.cost
}

/// Minimises the segment objective from its initial guess.
pub(crate) fn solve_segment(problem: &mut SegmentProblem<'_>, max_iterations: u32) -> SegmentSolution {
    let n = 3 * problem.blocks;
    let mut work = Skyline::new(problem.block_first.clone());
    let mut constant = Skyline::new(problem.block_first.clone());
    let mut diag = vec![0.0; n];
    let mut scratch = vec![0.0; n];
    let mut gradient = vec![0.0; n];
    let mut step = vec![0.0; n];
    let mut x = Vec::with_capacity(problem.ctrl.len());
    let mut z = problem.initial.clone();
    let mut trial = z.clone();

    let mut iterations = 0usize;
    if n == 0 {
        let cost = cost_at::<true, true>(problem, &z, &mut x);
        return SegmentSolution { z, iterations, initial_cost: cost, final_cost: cost, converged: true };
    }
    // The linear rows (most of them): their matrix once, and their gradient and cost kept
    // up to date exactly through it (g(z + δ) = g(z) + H·δ, C(z + δ) = C(z) + 2gᵀδ + δᵀHδ),
    // so iterations only visit the other rows.
    let mut linear_gradient = vec![0.0; n];
    let mut linear_step = vec![0.0; n];
    let mut linear_cost = cost_at::<true, false>(problem, &z, &mut x);
    let mut sink = NormalSink::<true>::new(&problem.ctrl, &mut constant, &mut linear_gradient);
    problem.visit(&x, &mut sink);
    let initial_cost = linear_cost + cost_at::<false, true>(problem, &z, &mut x);
    let mut cost = initial_cost;
    let mut lambda = 1e-6;
    let mut converged = false;

    while iterations < max_iterations as usize {
        iterations += 1;
        if iterations == 1 {
            problem.weights.reach *= REACH_START;
            cost = linear_cost + cost_at::<false, true>(problem, &z, &mut x);
        }
        if iterations == RETARGET_AT {
            problem.weights.reach /= REACH_START;
            // Re-aim the height targets from where the pelvis now is (a changed objective:
            // refresh the linear rows' gradient and cost; their matrix is unchanged).
            problem.control_points(&z, &mut x);
            problem.retarget_heights(&x);
            linear_gradient.fill(0.0);
            let mut sink = LinearGradientSink {
                ctrl: &problem.ctrl,
                gradient: &mut linear_gradient,
                ctrl0: 0,
                local_g: [0.0; 12],
            };
            problem.visit(&x, &mut sink);
            linear_cost = cost_at::<true, false>(problem, &z, &mut x);
            cost = linear_cost + cost_at::<false, true>(problem, &z, &mut x);
        }
        // The Gauss–Newton matrix (constant part + the other rows) straight into `work`.
        problem.control_points(&z, &mut x);
        work.copy_values_from(&constant);
        gradient.copy_from_slice(&linear_gradient);
        let mut sink = NormalSink::<false>::new(&problem.ctrl, &mut work, &mut gradient);
        problem.visit(&x, &mut sink);
        for (i, d) in diag.iter_mut().enumerate() {
            *d = work.diag(i / 3, i % 3);
        }
        let max_diag = diag.iter().fold(0.0f64, |m, d| m.max(*d));
        let floor = 1e-12 * max_diag.max(1e-300);
        for d in &mut diag {
            *d = d.max(floor);
        }

        let mut accepted = false;
        let mut nu = 2.0;
        let mut undamped = true;
        while lambda <= 1e12 {
            if !undamped {
                // A retry (rare): rebuild the undamped matrix (`x` now holds the trial).
                problem.control_points(&z, &mut x);
                work.copy_values_from(&constant);
                scratch.fill(0.0);
                let mut sink = NormalSink::<false>::new(&problem.ctrl, &mut work, &mut scratch);
                problem.visit(&x, &mut sink);
            }
            undamped = false;
            for (i, d) in diag.iter().enumerate() {
                work.add_diag(i / 3, i % 3, lambda * d + floor);
            }
            if work.factor().is_err() {
                lambda *= 10.0;
                continue;
            }
            for (s, g) in step.iter_mut().zip(&gradient) {
                *s = -g;
            }
            work.solve(&mut step);
            for (b, t) in trial.iter_mut().enumerate() {
                let d = DVec3::new(step[3 * b], step[3 * b + 1], step[3 * b + 2]);
                *t = z.get(b).copied().unwrap_or(DVec3::ZERO) + d;
            }
            linear_step.fill(0.0);
            constant.mul_add(&step, &mut linear_step);
            let linear_trial = linear_cost
                + step.iter().zip(&linear_gradient).zip(&linear_step).map(|((s, g), h)| s * (2.0 * g + h)).sum::<f64>();
            let trial_cost = linear_trial + cost_at::<false, true>(problem, &trial, &mut x);
            // Gain ratio against the decrease the quadratic model predicts:
            // −2gᵀδ − δᵀHδ = −gᵀδ + λ·δᵀDδ with (H + λD)δ = −g.
            let mut predicted = 0.0;
            for ((s, g), d) in step.iter().zip(&gradient).zip(&diag) {
                predicted += -g * s + lambda * d * s * s;
            }
            let gain = (cost - trial_cost) / predicted.max(1e-300);
            if trial_cost.is_finite() && trial_cost <= cost {
                let decrease = cost - trial_cost;
                std::mem::swap(&mut z, &mut trial);
                cost = trial_cost;
                linear_cost = linear_trial;
                for (g, h) in linear_gradient.iter_mut().zip(&linear_step) {
                    *g += h;
                }
                // Nielsen's update: shrink λ a lot when the model predicted well.
                lambda = (lambda * (1.0 / 3.0f64).max(1.0 - (2.0 * gain - 1.0).powi(3))).max(1e-9);
                accepted = true;
                let largest_step = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
                if decrease <= RELATIVE_DECREASE * cost + 1e-16 || largest_step < SMALLEST_STEP {
                    converged = true;
                }
                break;
            }
            lambda *= nu;
            nu *= 2.0;
        }
        if !accepted {
            // No downhill step even with heavy damping: a (local) minimum.
            converged = true;
        }
        if converged {
            break;
        }
    }
    // The exact objective (the running one carries rounding from the updates).
    let final_cost = cost_at::<true, true>(problem, &z, &mut x);
    SegmentSolution { z, iterations, initial_cost, final_cost, converged }
}
