//! The residual rows of the COM objective (see the [`super`] module doc), sampled on each
//! spline span and sent to a [`Sink`]: the solver's cost, gradient and Gauss–Newton matrix
//! accumulators.

use glam::{DMat3, DVec2, DVec3};

use super::path::BASIS_D3;
use super::problem::{MIN_BALANCE_HEIGHT_M, SegmentProblem, SpanRows, Terms, Weights};

/// Axis masks for residual rows.
pub(crate) const AXIS_X: u8 = 1;
pub(crate) const AXIS_Y: u8 = 2;
pub(crate) const AXIS_Z: u8 = 4;
pub(crate) const AXES_ALL: u8 = 7;
/// Flag on a row whose gradient does not depend on the unknowns (its Gauss–Newton matrix
/// contribution is the same every iteration and is assembled once).
pub(crate) const LINEAR: u8 = 8;

/// Softness of the one-sided terms (see [`soft_hinge`]): the width of the rounded corner.
/// Kept tiny: a wide corner makes the penalty quartic there and Newton steps fall short.
const REACH_SOFTNESS_M: f64 = 1e-4;
const PUSH_SOFTNESS_MPS2: f64 = 0.05;
/// Weight of the reach term at a touch-down or lift-off, as seconds of reach weight: the
/// legs are most stretched at these instants, so they count as much as a stretch of time.
pub(super) const EVENT_SECS: f64 = 0.25;
/// Weight of the capture term at a free end, as seconds of balance weight.
const CAPTURE_SECS: f64 = 0.5;

/// Receives residual rows span by span: value r and, when `GRAD`, ∂r/∂(each of the span's 4
/// control points), nonzero only on the axes in `axes`.
pub(crate) trait Sink {
    const GRAD: bool;
    /// Whether this sink wants the rows flagged [`LINEAR`]...
    const LINEAR_ROWS: bool = true;
    /// ...and the others.
    const NONLINEAR_ROWS: bool = true;
    fn begin_span(&mut self, _span: &SpanRows) {}
    fn row(&mut self, r: f64, grads: &[DVec3; 4], axes: u8);
    /// A row r with ∂r/∂(control point k) = w[k]·d: a row of the position alone (w the
    /// position weights) or of the acceleration alone (the acceleration weights).
    #[inline]
    fn row_weighted(&mut self, r: f64, w: &[f64; 4], d: DVec3, axes: u8) {
        let mut grads = [DVec3::ZERO; 4];
        if Self::GRAD {
            for (g, wk) in grads.iter_mut().zip(w) {
                *g = *wk * d;
            }
        }
        self.row(r, &grads, axes);
    }
    /// Adds `m` (symmetric, with respect to the sampled position c) to the Gauss–Newton
    /// matrix, through the position weights `pos_w` of the span's control points.
    fn curvature(&mut self, _pos_w: &[f64; 4], _m: &DMat3) {}
    fn end_span(&mut self) {}
}

/// Emits the rows of one sample: maps ∂r/∂c and ∂r/∂a to the span's control points.
struct Rows<'a, S: Sink> {
    sink: &'a mut S,
    weights: &'a Weights,
    /// Quadrature weight of the sample, seconds.
    quad: f64,
}

impl<S: Sink> Rows<'_, S> {
    /// A row r with ∂r/∂c = `dc` and ∂r/∂a = `da`.
    fn emit(&mut self, r: f64, dc: DVec3, da: DVec3, axes: u8) {
        self.emit_cva(r, dc, DVec3::ZERO, da, axes);
    }

    /// A row r with ∂r/∂c = `dc` only.
    #[inline]
    fn emit_c(&mut self, r: f64, dc: DVec3, axes: u8) {
        if Self::wanted(axes) {
            self.sink.row_weighted(r, &self.weights.pos, dc, axes);
        }
    }

    /// A row r with ∂r/∂a = `da` only.
    #[inline]
    fn emit_a(&mut self, r: f64, da: DVec3, axes: u8) {
        if Self::wanted(axes) {
            self.sink.row_weighted(r, &self.weights.acc, da, axes);
        }
    }

    #[inline]
    fn wanted(axes: u8) -> bool {
        if axes & LINEAR != 0 { S::LINEAR_ROWS } else { S::NONLINEAR_ROWS }
    }

    /// A row r with ∂r/∂c = `dc`, ∂r/∂ċ = `dv` and ∂r/∂a = `da`.
    #[inline]
    fn emit_cva(&mut self, r: f64, dc: DVec3, dv: DVec3, da: DVec3, axes: u8) {
        if !Self::wanted(axes) {
            return;
        }
        let mut grads = [DVec3::ZERO; 4];
        if S::GRAD {
            let w = self.weights;
            for (k, g) in grads.iter_mut().enumerate() {
                *g = w.pos[k] * dc + w.vel[k] * dv + w.acc[k] * da;
            }
        }
        self.sink.row(r, &grads, axes);
    }

    /// The second-order part r·∇²r of a row that depends on c only (full Newton for that
    /// row). Only for terms where it keeps the matrix positive definite in practice.
    #[inline]
    fn curve(&mut self, m: DMat3) {
        if S::GRAD && S::NONLINEAR_ROWS {
            self.sink.curvature(&self.weights.pos, &m);
        }
    }
}

impl SegmentProblem<'_> {
    /// Sends every residual row at control points `x` to `sink`, span by span.
    pub fn visit<S: Sink>(&self, x: &[DVec3], sink: &mut S) {
        for span in &self.spans {
            let Some(pts) = x.get(span.ctrl0..span.ctrl0 + 4) else { continue };
            sink.begin_span(span);
            for s in self.samples.get(span.samples.clone()).unwrap_or(&[]) {
                let w = &s.w;
                let mut c = DVec3::ZERO;
                let mut a = DVec3::ZERO;
                for ((p, wp), wa) in pts.iter().zip(w.pos).zip(w.acc) {
                    c += wp * *p;
                    a += wa * *p;
                }
                let mut rows = Rows { sink: &mut *sink, weights: w, quad: s.quad_secs };
                match s.terms {
                    Terms::Event { contact } => {
                        if let Some(foot) = self.timeline.contacts.get(contact) {
                            self.reach_rows(c, foot.ankle_in_world, &mut rows);
                        }
                    }
                    Terms::Support { phase, height_m, pressure_xz } => {
                        self.support_rows(c, a, phase, height_m, pressure_xz, &mut rows);
                    }
                    Terms::Level { phase, height_m, desired_m } => {
                        self.level_rows(c, phase, height_m, desired_m, &mut rows);
                    }
                    Terms::Capture { sign, omega, pressure_xz } if S::LINEAR_ROWS => {
                        let v: DVec3 = pts.iter().zip(w.vel).map(|(p, wv)| wv * *p).sum();
                        let sw = (self.weights.balance * CAPTURE_SECS).sqrt();
                        let kv = sign / omega;
                        let (dc, dv) = (sw * DVec3::X, sw * kv * DVec3::X);
                        rows.emit_cva(sw * (c.x + kv * v.x - pressure_xz.x), dc, dv, DVec3::ZERO, AXIS_X | LINEAR);
                        let (dc, dv) = (sw * DVec3::Z, sw * kv * DVec3::Z);
                        rows.emit_cva(sw * (c.z + kv * v.z - pressure_xz.y), dc, dv, DVec3::ZERO, AXIS_Z | LINEAR);
                        // Vertically, the end is at rest.
                        let sw = (self.weights.height * CAPTURE_SECS).sqrt() / omega;
                        rows.emit_cva(sw * v.y, DVec3::ZERO, sw * DVec3::Y, DVec3::ZERO, AXIS_Y | LINEAR);
                    }
                    Terms::Capture { .. } => {}
                }
            }
            let mut jerk = DVec3::ZERO;
            for k in 0..4 {
                jerk += BASIS_D3[k] * pts[k];
            }
            let scale = span.jerk_scale;
            let axes =
                if S::LINEAR_ROWS { &[(DVec3::X, AXIS_X), (DVec3::Y, AXIS_Y), (DVec3::Z, AXIS_Z)][..] } else { &[] };
            for &(axis, mask) in axes {
                let mut grads = [DVec3::ZERO; 4];
                if S::GRAD {
                    for k in 0..4 {
                        grads[k] = scale * BASIS_D3[k] * axis;
                    }
                }
                sink.row(scale * jerk.dot(axis), &grads, mask | LINEAR);
            }
            sink.end_span();
        }
    }

    fn reach_rows<S: Sink>(&self, c: DVec3, ankle: DVec3, rows: &mut Rows<'_, S>) {
        let quad = rows.quad;
        let d_vec = c - ankle;
        let d = d_vec.length();
        if d <= 1e-12 {
            return;
        }
        if let Some((value, slope, bend)) = soft_hinge(d - self.timeline.max_reach_m, REACH_SOFTNESS_M) {
            let w = self.weights.reach * quad;
            let sw = w.sqrt();
            let u = d_vec / d;
            rows.emit_c(sw * value, sw * slope * u, AXES_ALL);
            let along = outer(u);
            rows.curve(w * value * (bend * along + slope / d * (DMat3::IDENTITY - along)));
        }
    }

    /// Height near its target, and each planted leg near its rest length (comfort). With an
    /// explicit height profile the rest length follows the profile below standing height,
    /// as it follows a plié level otherwise.
    fn level_rows<S: Sink>(&self, c: DVec3, phase: usize, height_m: f64, desired_m: f64, rows: &mut Rows<'_, S>) {
        let quad = rows.quad;
        let sw = (self.weights.height * quad).sqrt();
        rows.emit(sw * (c.y - height_m), sw * DVec3::Y, DVec3::ZERO, AXIS_Y | LINEAR);
        let tl = self.timeline;
        let Some(phase) = tl.phases.get(phase) else { return };
        let w = self.weights.comfort * quad;
        let sw = w.sqrt();
        for foot in phase.planted().filter_map(|id| tl.contacts.get(id)) {
            let d_vec = c - foot.ankle_in_world;
            let d = d_vec.length();
            let u = if d > 1e-12 { d_vec / d } else { DVec3::Y };
            let rest = if tl.height_profile.is_empty() {
                foot.rest_leg_m
            } else {
                (tl.rest_leg_m + (desired_m - tl.standing_height_m).min(0.0)).max(tl.min_rest_leg_m)
            };
            let stretch = d - rest;
            rows.emit_c(sw * stretch, sw * u, AXES_ALL);
        }
    }

    fn support_rows<S: Sink>(
        &self,
        c: DVec3,
        a: DVec3,
        phase: usize,
        height_m: f64,
        pressure_xz: Option<DVec2>,
        rows: &mut Rows<'_, S>,
    ) {
        let quad = rows.quad;
        let tl = self.timeline;
        let w = &self.weights;
        let Some(phase) = tl.phases.get(phase) else { return };
        if phase.planted == [None, None] {
            return;
        }
        let g = tl.gravity_mps2;
        if S::NONLINEAR_ROWS {
            for foot in phase.planted().filter_map(|id| tl.contacts.get(id)) {
                self.reach_rows(c, foot.ankle_in_world, rows);
            }
            // Feet can push but not pull: vertical acceleration ≥ −g.
            if let Some((value, slope, _)) = soft_hinge(-(g + a.y), PUSH_SOFTNESS_MPS2) {
                let sw = (w.push * quad).sqrt();
                rows.emit_a(sw * value, -sw * slope * DVec3::Y, AXIS_Y);
            }
        }
        if !S::LINEAR_ROWS {
            return;
        }

        let centre = phase.centre_xz;
        let sw = (w.centre * quad).sqrt();
        rows.emit(sw * (c.x - centre.x), sw * DVec3::X, DVec3::ZERO, AXIS_X | LINEAR);
        rows.emit(sw * (c.z - centre.y), sw * DVec3::Z, DVec3::ZERO, AXIS_Z | LINEAR);

        // Balance (linear inverted pendulum): a_h = (g/h)·(c_h − p), so the centre of pressure
        // this acceleration needs is p* = c_h − (h/g)·a_h; penalise its distance from the
        // expected one (inside the support polygon). h is the desired height above the floor,
        // so p* is affine in the unknowns and the term is a linear least-squares term.
        let Some(pressure) = pressure_xz else { return };
        let h = (height_m - phase.floor_y).max(MIN_BALANCE_HEIGHT_M);
        let k = h / g;
        let sw = (w.balance * quad).sqrt();
        rows.emit(sw * (c.x - k * a.x - pressure.x), sw * DVec3::X, -sw * k * DVec3::X, AXIS_X | LINEAR);
        rows.emit(sw * (c.z - k * a.z - pressure.y), sw * DVec3::Z, -sw * k * DVec3::Z, AXIS_Z | LINEAR);
    }
}

/// A smooth one-sided penalty residual ≈ max(0, x) with its first and second derivatives:
/// 0 up to −softness, a parabola (x + softness)²/(4·softness) across the corner, x beyond
/// +softness (C1). `None` where it is zero. Rounding the corner lets Gauss–Newton converge in
/// a few steps where a hard hinge makes it zig-zag; being exactly zero in the slack region
/// keeps the term from nudging paths that are well within limits.
fn soft_hinge(x: f64, softness: f64) -> Option<(f64, f64, f64)> {
    if x <= -softness {
        None
    } else if x >= softness {
        Some((x, 1.0, 0.0))
    } else {
        let s = x + softness;
        Some((s * s / (4.0 * softness), s / (2.0 * softness), 1.0 / (2.0 * softness)))
    }
}

/// u·uᵀ.
fn outer(u: DVec3) -> DMat3 {
    DMat3::from_cols(u * u.x, u * u.y, u * u.z)
}
