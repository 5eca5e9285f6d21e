//! Centre-of-mass (pelvis) path from footprints and timing, after van de Panne, "From
//! footprints to animation" (CGF 16(4), 1997): footprints and timing are hard constraints;
//! an optimiser shapes the pelvis path to be physically plausible, comfortable and smooth.
//!
//! # Job
//!
//! [`ComJob`]: [`Contact`]s (a foot planted at a floor point over a time interval; two feet may
//! overlap = double support; a gap of at least [`ComJob::min_flight_secs`] with no foot planted
//! is a flight), [`FixedPoint`]s (exact pelvis position and velocity: start, end, holds, pivot
//! turns), a desired height (explicit [`HeightSample`]s, or the standing height plus each
//! contact's level offset: plié lower, relevé higher), leg length, gravity, knot rate and
//! [`ComWeights`]. [`solve_com_path`] returns a [`ComPath`]; the pelvis stands in for the COM.
//!
//! # Path
//!
//! Fixed points split the job into independent segments. Flights split a segment into support
//! runs. Each run is a uniform cubic B-spline with knots at ≥ `knot_rate_hz` (C2 inside the
//! run). Each flight is an **exact** ballistic parabola: acceleration (0, −g, 0), constant
//! horizontal velocity. The take-off and landing states of the neighbouring runs are tied to
//! it exactly (C1), by eliminating the runs' outer control points. A fixed point is met
//! exactly, in the same way. The free unknowns are the remaining control points.
//!
//! # Objective
//!
//! Minimised over the free control points, as integrals over support time (2-point Gauss
//! quadrature per span) of squared residuals, each with its weight in [`ComWeights`]:
//!
//! - **reach** (near-hard): for every planted foot, max(0, |c − ankle| − max_reach_ratio·L)²,
//!   also sampled exactly at every touch-down and lift-off;
//! - **balance** (physical plausibility): in support the contacts must produce the horizontal
//!   acceleration. A point mass needs its centre of pressure at p* = c_h − h·a_h/(g + a_y)
//!   (the inverted-pendulum law a_h = (g + a_y)/h · (c_h − p) solved for p; h = pelvis height
//!   above the floor). Penalise the distance of p* outside the support region: discs of radius
//!   `foot_support_radius_m` around the planted floor points and the capsule between two;
//! - **push**: feet push but do not pull: max(0, −(g + a_y))²;
//! - **comfort**: (|c − ankle| − rest)² per planted foot, rest = rest_leg_ratio·L (shortened
//!   by a negative level offset);
//! - **height**: (c_y − desired height)²;
//! - **centre**: a weak pull of the horizontal position toward the middle of the planted feet
//!   (keeps the problem well posed where balance is slack);
//! - **smoothness**: ∫|c⃛|² over the whole path.
//!
//! Flights have no soft terms: they are ballistic by construction.
//!
//! # Solver
//!
//! Levenberg–Marquardt. The Gauss–Newton normal equations are banded (a span touches 4
//! control points). They are assembled into a skyline matrix and factored by Cholesky in
//! O(unknowns) time per iteration. The dense solvers in `levenberg-marquardt` and `argmin`
//! need O(unknowns³) per step; see the module's bench notes for the comparison.
//! Everything is deterministic: same job, bit-identical path.

mod job;
mod path;
mod problem;
mod residuals;
mod skyline;
mod solve;
mod timeline;

pub use job::{
    ComError, ComJob, ComWeights, Contact, FixedPoint, Foot, HeightSample, MAX_SPANS, MIN_CONTACT_SECS,
    MIN_RUN_SECS,
};
pub use path::{ComPath, ComSolveStats, ComState};

/// Solves `job`: checks it, optimises each independent segment, and returns the pelvis path.
///
/// Errors: any [`ComError`] from checking the job (no contacts, NaN, overlapping contacts of
/// one foot, a fixed point outside the span or in a flight, …). Never panics and never
/// returns NaN.
pub fn solve_com_path(job: &ComJob) -> Result<ComPath, ComError> {
    let timeline = timeline::Timeline::build(job)?;
    let mut pieces = Vec::new();
    let mut stats = ComSolveStats { converged: true, ..ComSolveStats::default() };
    for plan in &timeline.segments {
        let mut problem = problem::SegmentProblem::new(&timeline, plan, job.weights)?;
        let solution = solve::solve_segment(&mut problem, job.max_iterations);
        stats.segments += 1;
        stats.unknowns += 3 * problem.blocks;
        stats.iterations += solution.iterations;
        stats.initial_cost += solution.initial_cost;
        stats.final_cost += solution.final_cost;
        stats.converged &= solution.converged;
        pieces.extend(problem.pieces(&solution.z));
    }
    if pieces.is_empty() || !pieces_are_finite(&pieces) || !stats.final_cost.is_finite() {
        return Err(ComError::NumericalFailure);
    }
    Ok(ComPath::new(pieces, stats))
}

fn pieces_are_finite(pieces: &[path::Piece]) -> bool {
    pieces.iter().all(|p| match p {
        path::Piece::Spline { control_points_in_world, .. } => {
            control_points_in_world.iter().all(|c| c.is_finite())
        }
        path::Piece::Ballistic { takeoff_position_in_world, takeoff_velocity_in_world, .. } => {
            takeoff_position_in_world.is_finite() && takeoff_velocity_in_world.is_finite()
        }
    })
}
