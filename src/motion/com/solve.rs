//! Levenberg–Marquardt over one segment: Gauss–Newton normal equations assembled straight
//! into a skyline (banded) matrix and solved by sparse Cholesky, O(unknowns) per iteration.
//!
//! Deterministic: fixed evaluation order, no threads, no clocks.

use glam::DVec3;

use super::problem::{AXIS_X, AXIS_Y, AXIS_Z, CtrlExpr, SegmentProblem, Sink};
use super::skyline::Skyline;

/// Converged when an accepted step lowers the objective by less than this fraction...
const RELATIVE_DECREASE: f64 = 1e-7;
/// ...or moves no unknown by more than this (metres; velocities scaled alike).
const SMALLEST_STEP: f64 = 1e-6;

/// Outcome of one segment solve.
#[derive(Clone, Debug)]
pub(crate) struct SegmentSolution {
    pub z: Vec<DVec3>,
    pub iterations: usize,
    pub initial_cost: f64,
    pub final_cost: f64,
    pub converged: bool,
}

/// Sums squared residuals.
struct CostSink {
    cost: f64,
}

impl Sink for CostSink {
    const GRAD: bool = false;
    fn row(&mut self, r: f64, _ctrl0: usize, _grads: &[DVec3; 4], _axes: u8) {
        self.cost += r * r;
    }
}

/// Accumulates Jᵀ·J (lower half) and Jᵀ·r over the free unknowns.
struct NormalSink<'a> {
    ctrl: &'a [CtrlExpr],
    normal: &'a mut Skyline,
    gradient: &'a mut [f64],
    cost: f64,
}

const AXES: [(usize, u8); 3] = [(0, AXIS_X), (1, AXIS_Y), (2, AXIS_Z)];

impl Sink for NormalSink<'_> {
    const GRAD: bool = true;

    fn row(&mut self, r: f64, ctrl0: usize, grads: &[DVec3; 4], axes: u8) {
        self.cost += r * r;
        // Chain rule through the control-point expressions, merging repeated blocks.
        let mut ids = [0usize; 16];
        let mut gs = [DVec3::ZERO; 16];
        let mut m = 0usize;
        for (k, g) in grads.iter().enumerate() {
            let Some(e) = self.ctrl.get(ctrl0 + k) else { continue };
            for t in 0..e.terms.min(4) {
                let (b, gv) = (e.block[t], e.coef[t] * *g);
                match ids[..m].iter().position(|&i| i == b) {
                    Some(p) => gs[p] += gv,
                    None if m < ids.len() => {
                        ids[m] = b;
                        gs[m] = gv;
                        m += 1;
                    }
                    None => {}
                }
            }
        }
        let n = self.gradient.len();
        for p in 0..m {
            let (bp, gp) = (ids[p], gs[p].to_array());
            for &(a, mask) in &AXES {
                if axes & mask == 0 {
                    continue;
                }
                let i = 3 * bp + a;
                if i >= n {
                    continue;
                }
                self.gradient[i] += r * gp[a];
                for q in 0..m {
                    let (bq, gq) = (ids[q], gs[q].to_array());
                    if bq > bp {
                        continue;
                    }
                    for &(a2, mask2) in &AXES {
                        if axes & mask2 == 0 || (bq == bp && a2 > a) {
                            continue;
                        }
                        self.normal.add(i, 3 * bq + a2, gp[a] * gq[a2]);
                    }
                }
            }
        }
    }
}

fn cost_at(problem: &SegmentProblem<'_>, z: &[DVec3], x: &mut Vec<DVec3>) -> f64 {
    problem.control_points(z, x);
    let mut sink = CostSink { cost: 0.0 };
    problem.visit(x, &mut sink);
    sink.cost
}

/// Minimises the segment objective from its initial guess.
pub(crate) fn solve_segment(problem: &SegmentProblem<'_>, max_iterations: u32) -> SegmentSolution {
    let n = 3 * problem.blocks;
    let first: Vec<usize> = (0..n).map(|i| 3 * problem.block_first.get(i / 3).copied().unwrap_or(0)).collect();
    let mut normal = Skyline::new(first);
    let mut work = normal.clone();
    let mut gradient = vec![0.0; n];
    let mut step = vec![0.0; n];
    let mut x = Vec::with_capacity(problem.ctrl.len());
    let mut z = problem.initial.clone();
    let mut trial = z.clone();

    let initial_cost = cost_at(problem, &z, &mut x);
    let mut cost = initial_cost;
    let mut lambda = 1e-6;
    let mut iterations = 0usize;
    let mut converged = false;
    if n == 0 {
        return SegmentSolution { z, iterations, initial_cost, final_cost: cost, converged: true };
    }

    while iterations < max_iterations as usize {
        iterations += 1;
        problem.control_points(&z, &mut x);
        normal.clear();
        gradient.fill(0.0);
        let mut sink = NormalSink { ctrl: &problem.ctrl, normal: &mut normal, gradient: &mut gradient, cost: 0.0 };
        problem.visit(&x, &mut sink);
        let max_diag = (0..n).map(|i| normal.diag(i)).fold(0.0f64, f64::max);
        let floor = 1e-12 * max_diag.max(1e-300);

        let mut accepted = false;
        while lambda <= 1e12 {
            work.copy_values_from(&normal);
            for i in 0..n {
                work.add_diag(i, lambda * normal.diag(i).max(floor) + floor);
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
            let trial_cost = cost_at(problem, &trial, &mut x);
            if trial_cost.is_finite() && trial_cost <= cost {
                let decrease = cost - trial_cost;
                std::mem::swap(&mut z, &mut trial);
                cost = trial_cost;
                lambda = (lambda / 4.0).max(1e-9);
                accepted = true;
                let largest_step = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
                if decrease <= RELATIVE_DECREASE * cost + 1e-16 || largest_step < SMALLEST_STEP {
                    converged = true;
                }
                break;
            }
            lambda *= 8.0;
        }
        if !accepted {
            // No downhill step even with heavy damping: a (local) minimum.
            converged = true;
        }
        if converged {
            break;
        }
    }
    SegmentSolution { z, iterations, initial_cost, final_cost: cost, converged }
}
