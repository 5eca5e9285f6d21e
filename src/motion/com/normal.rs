//! The normal equations of a segment's least squares: sinks that sum the rows of
//! [`SegmentProblem::visit`] into the cost, the gradient Jᵀ·r and the Gauss–Newton matrix
//! Jᵀ·J (straight into the skyline profile, through the control-point expressions).

use glam::{DMat3, DVec3};

use super::problem::{CtrlExpr, SegmentProblem, SpanRows};
use super::residuals::{AXES_ALL, AXIS_X, AXIS_Y, AXIS_Z, Sink};
use super::skyline::{Block, Skyline};

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

/// Accumulates the gradient Jᵀ·r of the rows flagged `LINEAR` only, and their cost Σ r² (the
/// bits [`CostSink`] gives).
pub(super) struct LinearGradientSink<'a> {
    ctrl: &'a [CtrlExpr],
    gradient: &'a mut [f64],
    ctrl0: usize,
    local_g: [f64; 12],
    pub(super) cost: f64,
}

impl<'a> LinearGradientSink<'a> {
    /// Adds to `gradient` (one entry per unknown) through the control-point expressions `ctrl`.
    pub(super) fn new(ctrl: &'a [CtrlExpr], gradient: &'a mut [f64]) -> Self {
        Self { ctrl, gradient, ctrl0: 0, local_g: [0.0; 12], cost: 0.0 }
    }
}

impl Sink for LinearGradientSink<'_> {
    const GRAD: bool = true;
    const NONLINEAR_ROWS: bool = false;

    fn begin_span(&mut self, span: &SpanRows) {
        self.ctrl0 = span.ctrl0;
        self.local_g = [0.0; 12];
    }

    fn row(&mut self, r: f64, grads: &[DVec3; 4], axes: u8) {
        self.cost += r * r;
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

/// Rows whose gradient is w[k]·d for one weight vector w (see [`Sink::row_weighted`]),
/// summed as Σ r·d and Σ d·dᵀ (+ curvature) until the weights change: their share of the
/// span matrix is then (w·wᵀ) ⊗ M, added once instead of once per row.
#[derive(Clone, Copy)]
struct Pending {
    w: [f64; 4],
    /// Symmetric 3×3, row-major.
    m: Block,
    g: [f64; 3],
    active: bool,
}

impl Pending {
    const NONE: Pending = Pending { w: [0.0; 4], m: [0.0; 9], g: [0.0; 3], active: false };
}

/// How the sums of a span that is not plain (see [`SpanRows::plain_block`]) reach the
/// gradient and the skyline matrix through its control-point expressions (the chain rule),
/// laid out once per solve in the order the terms are added.
#[derive(Clone, Debug, Default)]
pub(super) struct Chain {
    /// (first gradient entry 3·b, span point k, coefficient).
    grad: Vec<(usize, usize, f64)>,
    /// (skyline storage index of block (b, b2 ≤ b), span points k and k2, scale): the block
    /// takes scale · the span's block (k, k2).
    blocks: Vec<(usize, usize, usize, f64)>,
}

impl Chain {
    /// The chains of `problem`'s spans (empty for plain spans) into `normal`'s profile.
    pub(super) fn of_spans(problem: &SegmentProblem<'_>, normal: &Skyline) -> Vec<Chain> {
        let n = 3 * problem.blocks;
        let ctrl = &problem.ctrl;
        problem
            .spans
            .iter()
            .map(|span| {
                let mut chain = Chain::default();
                if span.plain_block.is_some() {
                    return chain;
                }
                for k in 0..4 {
                    let Some(ek) = ctrl.get(span.ctrl0 + k) else { continue };
                    for t in 0..ek.terms.min(4) {
                        let (b, cb) = (ek.block[t], ek.coef[t]);
                        if 3 * b + 2 >= n {
                            continue;
                        }
                        chain.grad.push((3 * b, k, cb));
                        for k2 in 0..4 {
                            let Some(ek2) = ctrl.get(span.ctrl0 + k2) else { continue };
                            for t2 in 0..ek2.terms.min(4) {
                                let (b2, cb2) = (ek2.block[t2], ek2.coef[t2]);
                                if b2 <= b {
                                    chain.blocks.push((normal.block_index(b, b2), k, k2, cb * cb2));
                                }
                            }
                        }
                    }
                }
                chain
            })
            .collect()
    }
}

/// The lower half (with the diagonal) of a row-major 3×3 block.
const LOWER: [usize; 6] = [0, 3, 4, 6, 7, 8];

/// Index of the lower block (k, k2 ≤ k) of a span's 4×4 blocks.
#[inline]
fn tri(k: usize, k2: usize) -> usize {
    k * (k + 1) / 2 + k2
}

/// Accumulates Jᵀ·J (+ the Newton terms rows ask for) and Jᵀ·r over the free unknowns: first
/// over the 4 control points of one span (its 10 lower 3×3 blocks), then once per span
/// through the control-point expressions into the skyline matrix. `LINEAR`: of the rows
/// flagged `LINEAR` (once per solve: their matrix never changes); else of the others (every
/// iteration).
pub(super) struct NormalSink<'a, const LINEAR: bool> {
    chains: &'a [Chain],
    normal: &'a mut Skyline,
    gradient: &'a mut [f64],
    /// The span being summed (its index).
    span: usize,
    /// The span's first block when it is plain (see [`SpanRows::plain_block`]).
    plain_block: Option<usize>,
    /// The span's lower blocks (k, k2 ≤ k) at [`tri`]`(k, k2)`; of a diagonal block only the
    /// lower half (until [`Sink::end_span`] mirrors it).
    local: [Block; 10],
    local_g: [f64; 12],
    /// Pending weighted rows of the position (slot 0) and of the acceleration (slot 1).
    pending: [Pending; 2],
    touched: bool,
    /// Σ r² of the rows received, in the order [`CostSink`] sums them (so the same bits).
    pub(super) cost: f64,
}

impl<'a, const LINEAR: bool> NormalSink<'a, LINEAR> {
    pub(super) fn new(chains: &'a [Chain], normal: &'a mut Skyline, gradient: &'a mut [f64]) -> Self {
        Self {
            chains,
            normal,
            gradient,
            span: 0,
            plain_block: None,
            local: [[0.0; 9]; 10],
            local_g: [0.0; 12],
            pending: [Pending::NONE; 2],
            touched: false,
            cost: 0.0,
        }
    }

    /// The pending slot for weights `w`: the one holding them, else a free one, else slot 0
    /// flushed.
    #[inline]
    fn slot(&mut self, w: &[f64; 4]) -> &mut Pending {
        self.touched = true;
        let i = match self.pending.iter().position(|p| p.active && p.w == *w) {
            Some(i) => i,
            None => {
                let i = self.pending.iter().position(|p| !p.active).unwrap_or(0);
                self.flush(i);
                self.pending[i] = Pending { w: *w, active: true, ..Pending::NONE };
                i
            }
        };
        &mut self.pending[i]
    }

    /// Adds a pending slot's (w·wᵀ) ⊗ M and w ⊗ g to the span's sums. M is symmetric, so in
    /// the pass of the other rows (whose every block is a sum of such terms) only the lower
    /// half of each block is summed, and [`Sink::end_span`] mirrors it.
    fn flush(&mut self, slot: usize) {
        let p = self.pending[slot];
        if !p.active {
            return;
        }
        self.pending[slot].active = false;
        for k in 0..4 {
            for a in 0..3 {
                self.local_g[3 * k + a] += p.w[k] * p.g[a];
            }
            for k2 in 0..=k {
                let s = p.w[k] * p.w[k2];
                let l = &mut self.local[tri(k, k2)];
                if LINEAR {
                    for (l, m) in l.iter_mut().zip(&p.m) {
                        *l += s * m;
                    }
                } else {
                    for i in LOWER {
                        l[i] += s * p.m[i];
                    }
                }
            }
        }
    }

    /// Block (k, k2) of the span's symmetric matrix (after the diagonal blocks are mirrored).
    fn block(&self, k: usize, k2: usize) -> Block {
        if k2 <= k {
            self.local[tri(k, k2)]
        } else {
            let m = self.local[tri(k2, k)];
            [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]
        }
    }
}

impl<const LINEAR_PASS: bool> Sink for NormalSink<'_, LINEAR_PASS> {
    const GRAD: bool = true;
    const LINEAR_ROWS: bool = LINEAR_PASS;
    const NONLINEAR_ROWS: bool = !LINEAR_PASS;

    fn begin_span(&mut self, span: &SpanRows) {
        self.span = span.index;
        self.plain_block = span.plain_block;
        if self.touched {
            self.local = [[0.0; 9]; 10];
        }
        self.local_g = [0.0; 12];
        // (Each span's end flushed its slots; a slot taken is set afresh.)
        for p in &mut self.pending {
            p.active = false;
        }
        self.touched = false;
    }

    fn row(&mut self, r: f64, grads: &[DVec3; 4], axes: u8) {
        // The other rows all come weighted (their blocks are symmetric: see `flush`).
        debug_assert!(LINEAR_PASS, "a row that is not LINEAR must come through row_weighted");
        self.touched = true;
        self.cost += r * r;
        if axes & AXES_ALL == AXIS_X || axes & AXES_ALL == AXIS_Y || axes & AXES_ALL == AXIS_Z {
            // One axis (most linear rows): the same sums without the index maps.
            let a = (axes & AXES_ALL).trailing_zeros() as usize;
            let v = grads.map(|g| g.to_array()[a]);
            for k in 0..4 {
                self.local_g[3 * k + a] += r * v[k];
                for k2 in 0..=k {
                    self.local[tri(k, k2)][4 * a] += v[k] * v[k2];
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
            for q in 0..=p {
                let j = idx[q];
                self.local[tri(i / 3, j / 3)][3 * (i % 3) + j % 3] += vi * val[q];
            }
        }
    }

    #[inline]
    fn row_weighted(&mut self, r: f64, w: &[f64; 4], d: DVec3, _axes: u8) {
        self.cost += r * r;
        let p = self.slot(w);
        let d = d.to_array();
        for a in 0..3 {
            p.g[a] += r * d[a];
            for a2 in 0..3 {
                p.m[3 * a + a2] += d[a] * d[a2];
            }
        }
    }

    fn curvature(&mut self, pos_w: &[f64; 4], m: &DMat3) {
        let p = self.slot(pos_w);
        let m = m.to_cols_array();
        for (pm, v) in p.m.iter_mut().zip(m) {
            *pm += v;
        }
    }

    fn end_span(&mut self) {
        self.flush(0);
        self.flush(1);
        if self.touched {
            // Of the other rows every block was summed in its lower half only.
            let mirrored = if LINEAR_PASS { &[0, 2, 5, 9][..] } else { &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9][..] };
            for &i in mirrored {
                let d = &mut self.local[i];
                (d[1], d[2], d[5]) = (d[3], d[6], d[7]);
            }
        }
        if let Some(b0) = self.plain_block {
            for (g, l) in self.gradient[3 * b0..3 * b0 + 12].iter_mut().zip(&self.local_g) {
                *g += l;
            }
            if self.touched {
                // Block row b0 + k takes the span's blocks (k, 0..=k), which lie together.
                for k in 0..4 {
                    self.normal.add_to_row(b0 + k, b0, &self.local[tri(k, 0)..=tri(k, k)]);
                }
            }
            return;
        }
        // General case: chain rule through the control-point expressions.
        let Some(chain) = self.chains.get(self.span) else { return };
        for &(g, k, cb) in &chain.grad {
            for a in 0..3 {
                self.gradient[g + a] += cb * self.local_g[3 * k + a];
            }
        }
        if self.touched {
            for &(index, k, k2, scale) in &chain.blocks {
                self.normal.add_scaled_at(index, scale, &self.block(k, k2));
            }
        }
    }
}

/// The objective at `z`: rows flagged `LINEAR` (when `L`) and the others (when `N`).
pub(super) fn cost_at<const L: bool, const N: bool>(
    problem: &SegmentProblem<'_>,
    z: &[DVec3],
    x: &mut Vec<DVec3>,
) -> f64 {
    problem.control_points(z, x);
    let mut sink = CostSink::<L, N> { cost: 0.0 };
    problem.visit(x, &mut sink);
    sink.cost
}

/// The Gauss–Newton matrix and gradient at control points `x`: the linear rows' constant
/// matrix plus the other rows, into `work`, and the other rows' gradient added to `gradient`
/// (which holds the linear rows' gradient at `x`). Returns the other rows' cost at `x`, the
/// bits [`cost_at`]`::<false, true>` gives.
pub(super) fn assemble(
    problem: &SegmentProblem<'_>,
    chains: &[Chain],
    constant: &Skyline,
    x: &[DVec3],
    work: &mut Skyline,
    gradient: &mut [f64],
) -> f64 {
    work.copy_values_from(constant);
    let mut sink = NormalSink::<false>::new(chains, work, gradient);
    problem.visit(x, &mut sink);
    sink.cost
}
