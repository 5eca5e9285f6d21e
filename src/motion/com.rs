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
//! Minimised over the free control points: integrals over support time of squared
//! residuals (Gauss quadrature per span), each with its weight in [`ComWeights`]. c is the
//! pelvis position, a its acceleration, h_ref the target height above the floor, L the leg
//! length, and "ankle" each planted ankle.
//!
//! - **reach** (near-hard, one-sided): max(0, |c − ankle| − max_reach_ratio·L)² per planted
//!   foot. Also sampled, with extra weight, at every touch-down and lift-off, where legs are
//!   most stretched.
//! - **balance** (physical plausibility, linear inverted pendulum): in support the contacts
//!   must produce the horizontal acceleration, a_h = (g/h_ref)·(c_h − p). This requires the
//!   centre of pressure p* = c_h − (h_ref/g)·a_h, and p* must stay near the expected one: on
//!   the single planted foot, or moving from the old foot to the new across double support
//!   (a point inside the support polygon). Residual p* − p_ref, in metres.
//! - **push**: feet push but do not pull: max(0, −(g + a_y))².
//! - **comfort**: (|c − ankle| − rest)² per planted foot; rest = rest_leg_ratio·L, shortened
//!   by a negative (plié) level offset.
//! - **height**: (c_y − target)². The target is the desired height, lowered where the planted
//!   legs cannot reach it. It is re-aimed once, after two iterations, from the pelvis's then
//!   horizontal position, so height and reach do not fight.
//! - **centre**: a weak pull of c_h toward the middle of the planted feet. It keeps the
//!   problem well posed where nothing else holds the horizontal position.
//! - **smoothness**: ∫|c⃛|² over every support run.
//! - At a **free end** (no fixed point there): the capture point c_h ± ċ_h/ω must lie on p_ref,
//!   and the vertical velocity must be zero. Otherwise the inverted pendulum would be left
//!   falling away from the feet.
//!
//! Flights have no soft terms: they are ballistic by construction.
//!
//! # Solver
//!
//! Levenberg–Marquardt (Nielsen damping) with a full Newton term for the reach rows. The
//! Gauss–Newton normal equations are block-banded: a span touches 4 control points. They are
//! assembled into a 3×3-block skyline matrix and factored by block Cholesky in O(unknowns)
//! per iteration.
//!
//! Most rows are linear in the unknowns. Their part of the matrix is built once; their
//! gradient and cost are updated exactly from it. Iterations only revisit the nonlinear rows
//! (comfort, reach, push).
//!
//! The dense solvers of `levenberg-marquardt` and `argmin` factor an m×n Jacobian or an n×n
//! matrix at O(n³) per step, which cannot fit the thousands of unknowns of a long phrase.
//!
//! Everything is deterministic: the same job gives a bit-identical path.

mod job;
mod path;
mod problem;
mod residuals;
mod skyline;
mod solve;
mod timeline;

pub use job::{
    ComError, ComJob, ComWeights, Contact, FixedPoint, Foot, HeightSample, MAX_SPANS, MIN_CONTACT_SECS, MIN_RUN_SECS,
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
        path::Piece::Spline { control_points_in_world, .. } => control_points_in_world.iter().all(|c| c.is_finite()),
        path::Piece::Ballistic { takeoff_position_in_world, takeoff_velocity_in_world, .. } => {
            takeoff_position_in_world.is_finite() && takeoff_velocity_in_world.is_finite()
        }
    })
}
