//! The solved pelvis path: uniform cubic B-splines over support runs joined by exact
//! ballistic parabolas over flights; C2 inside runs, C1 everywhere.
//!
//! Also holds the B-spline basis shared with the solver.

use glam::{DVec3, Vec3};

/// Uniform cubic B-spline basis at local parameter `u` ∈ [0, 1] (weights of the 4 control
/// points of one span), and its first, second and third derivatives with respect to `u`.
pub(crate) fn basis(u: f64) -> [f64; 4] {
    let v = 1.0 - u;
    let (u2, u3) = (u * u, u * u * u);
    [v * v * v / 6.0, (3.0 * u3 - 6.0 * u2 + 4.0) / 6.0, (-3.0 * u3 + 3.0 * u2 + 3.0 * u + 1.0) / 6.0, u3 / 6.0]
}

pub(crate) fn basis_d1(u: f64) -> [f64; 4] {
    let v = 1.0 - u;
    [-0.5 * v * v, 0.5 * (3.0 * u * u - 4.0 * u), 0.5 * (-3.0 * u * u + 2.0 * u + 1.0), 0.5 * u * u]
}

pub(crate) fn basis_d2(u: f64) -> [f64; 4] {
    [1.0 - u, 3.0 * u - 2.0, 1.0 - 3.0 * u, u]
}

pub(crate) const BASIS_D3: [f64; 4] = [-1.0, 3.0, -3.0, 1.0];

/// The span of a spline of `points` control points (starting at `t_start_secs`, spans of
/// `dt_secs`) that holds `t_secs` (the first or last one outside), and where in it, 0..=1.
fn span_at(t_secs: f64, t_start_secs: f64, dt_secs: f64, points: usize) -> (usize, f64) {
    let spans = points.saturating_sub(3);
    let x = ((t_secs - t_start_secs) / dt_secs).clamp(0.0, spans as f64);
    let span = (x.floor() as usize).min(spans.saturating_sub(1));
    (span, x - span as f64)
}

/// Pelvis position, velocity and acceleration at one time, world space (m, m/s, m/s²).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComState {
    /// Position, metres.
    pub position_in_world: DVec3,
    /// Velocity, metres per second.
    pub velocity_in_world: DVec3,
    /// Acceleration, metres per second squared.
    pub acceleration_in_world: DVec3,
}

/// One time piece of a [`ComPath`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Piece {
    /// A support run: uniform cubic B-spline, `control_points.len() − 3` spans of `dt_secs`.
    Spline { t_start_secs: f64, dt_secs: f64, control_points_in_world: Vec<DVec3> },
    /// A flight: x(t) = p + v·τ − ½·g·τ²·ŷ with τ = t − t_start.
    Ballistic {
        t_start_secs: f64,
        duration_secs: f64,
        takeoff_position_in_world: DVec3,
        takeoff_velocity_in_world: DVec3,
        gravity_mps2: f64,
    },
}

impl Piece {
    fn t_start_secs(&self) -> f64 {
        match self {
            Piece::Spline { t_start_secs, .. } | Piece::Ballistic { t_start_secs, .. } => *t_start_secs,
        }
    }

    fn t_end_secs(&self) -> f64 {
        match self {
            Piece::Spline { t_start_secs, dt_secs, control_points_in_world } => {
                t_start_secs + dt_secs * control_points_in_world.len().saturating_sub(3) as f64
            }
            Piece::Ballistic { t_start_secs, duration_secs, .. } => t_start_secs + duration_secs,
        }
    }

    /// The position of [`Self::state_at`] alone (the same arithmetic).
    fn position_at(&self, t_secs: f64) -> DVec3 {
        match self {
            Piece::Spline { t_start_secs, dt_secs, control_points_in_world: c } => {
                let (span, u) = span_at(t_secs, *t_start_secs, *dt_secs, c.len());
                let b0 = basis(u);
                let mut position = DVec3::ZERO;
                for (k, p) in c.iter().skip(span).take(4).enumerate() {
                    position += b0[k] * *p;
                }
                position
            }
            Piece::Ballistic { .. } => self.state_at(t_secs).position_in_world,
        }
    }

    fn state_at(&self, t_secs: f64) -> ComState {
        match self {
            Piece::Spline { t_start_secs, dt_secs, control_points_in_world: c } => {
                let (span, u) = span_at(t_secs, *t_start_secs, *dt_secs, c.len());
                let (b0, b1, b2) = (basis(u), basis_d1(u), basis_d2(u));
                let mut state = ComState {
                    position_in_world: DVec3::ZERO,
                    velocity_in_world: DVec3::ZERO,
                    acceleration_in_world: DVec3::ZERO,
                };
                for (k, p) in c.iter().skip(span).take(4).enumerate() {
                    state.position_in_world += b0[k] * *p;
                    state.velocity_in_world += b1[k] / dt_secs * *p;
                    state.acceleration_in_world += b2[k] / (dt_secs * dt_secs) * *p;
                }
                state
            }
            Piece::Ballistic {
                t_start_secs,
                duration_secs,
                takeoff_position_in_world: p,
                takeoff_velocity_in_world: v,
                gravity_mps2: g,
            } => {
                let tau = (t_secs - t_start_secs).clamp(0.0, *duration_secs);
                ComState {
                    position_in_world: *p + *v * tau - DVec3::Y * (0.5 * g * tau * tau),
                    velocity_in_world: *v - DVec3::Y * (g * tau),
                    acceleration_in_world: -DVec3::Y * *g,
                }
            }
        }
    }
}

/// Numbers from one solve, for logs and benches.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ComSolveStats {
    /// Independent pieces solved (fixed points split the job).
    pub segments: usize,
    /// Scalar unknowns over all segments.
    pub unknowns: usize,
    /// Levenberg–Marquardt iterations over all segments.
    pub iterations: usize,
    /// Objective before optimising (at the initial guess; the reach term weighed as the first
    /// iterations weigh it).
    pub initial_cost: f64,
    /// Objective at the returned path, as the iterations tracked it (to rounding; before the
    /// last step of a converged segment, which gains less than the convergence test asks).
    pub final_cost: f64,
    /// Whether every segment met the convergence test before `max_iterations`.
    pub converged: bool,
}

/// A pelvis (centre-of-mass) path over time; see [`super::solve_com_path`].
#[derive(Clone, Debug, PartialEq)]
pub struct ComPath {
    pieces: Vec<Piece>,
    stats: ComSolveStats,
}

impl ComPath {
    /// Pieces must be in time order and non-empty (checked by the solver).
    pub(crate) fn new(pieces: Vec<Piece>, stats: ComSolveStats) -> Self {
        Self { pieces, stats }
    }

    /// First time covered, seconds.
    pub fn t_start_secs(&self) -> f64 {
        self.pieces.first().map_or(0.0, Piece::t_start_secs)
    }

    /// Last time covered, seconds.
    pub fn t_end_secs(&self) -> f64 {
        self.pieces.last().map_or(0.0, Piece::t_end_secs)
    }

    /// Solver numbers.
    pub fn stats(&self) -> &ComSolveStats {
        &self.stats
    }

    /// Position, velocity and acceleration at `t_secs` (clamped to the path's span; NaN reads
    /// as the start).
    pub fn state_at(&self, t_secs: f64) -> ComState {
        match self.piece_at(t_secs) {
            Some((piece, t)) => piece.state_at(t),
            None => ComState {
                position_in_world: DVec3::ZERO,
                velocity_in_world: DVec3::ZERO,
                acceleration_in_world: DVec3::ZERO,
            },
        }
    }

    /// The piece that holds `t_secs` (a NaN time reads as the start) and the time to read it at.
    fn piece_at(&self, t_secs: f64) -> Option<(&Piece, f64)> {
        let t = if t_secs.is_nan() { self.t_start_secs() } else { t_secs };
        let i = self.pieces.partition_point(|p| p.t_start_secs() <= t).saturating_sub(1);
        self.pieces.get(i).map(|p| (p, t))
    }

    /// Pelvis position at `t_secs`, world space, metres.
    pub fn position_at(&self, t_secs: f64) -> Vec3 {
        self.piece_at(t_secs).map_or(DVec3::ZERO, |(piece, t)| piece.position_at(t)).as_vec3()
    }

    /// Pelvis velocity at `t_secs`, world space, metres per second.
    pub fn velocity_at(&self, t_secs: f64) -> Vec3 {
        self.state_at(t_secs).velocity_in_world.as_vec3()
    }

    /// Pelvis acceleration at `t_secs`, world space, metres per second squared.
    pub fn acceleration_at(&self, t_secs: f64) -> Vec3 {
        self.state_at(t_secs).acceleration_in_world.as_vec3()
    }

    /// All knot times (spline knots and flight ends), sorted, seconds.
    pub fn knot_times_secs(&self) -> Vec<f64> {
        let mut knots = Vec::new();
        for piece in &self.pieces {
            match piece {
                Piece::Spline { t_start_secs, dt_secs, control_points_in_world } => {
                    let spans = control_points_in_world.len().saturating_sub(3);
                    knots.extend((0..=spans).map(|j| t_start_secs + dt_secs * j as f64));
                }
                Piece::Ballistic { .. } => knots.extend([piece.t_start_secs(), piece.t_end_secs()]),
            }
        }
        knots.sort_by(f64::total_cmp);
        knots.dedup_by(|b, a| *b - *a <= 1e-9);
        knots
    }

    /// Flights as (take-off, landing) times, seconds.
    pub fn flights_secs(&self) -> Vec<(f64, f64)> {
        self.pieces
            .iter()
            .filter(|p| matches!(p, Piece::Ballistic { .. }))
            .map(|p| (p.t_start_secs(), p.t_end_secs()))
            .collect()
    }
}
