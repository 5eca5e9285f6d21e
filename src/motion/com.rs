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
//! Independent segments are solved on up to `MAX_THREADS` threads, each thread taking the next
//! unsolved segment. Everything is deterministic: the same job gives a bit-identical path,
//! whatever the threads.

mod job;
mod normal;
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

/// The most threads one job's segments are solved on.
const MAX_THREADS: usize = 8;
/// Fewer spline spans than this per thread are not worth a thread (a span costs about 3 µs
/// to optimise, starting a thread about 30 µs: a tenth of this many spans).
const MIN_SPANS_PER_THREAD: usize = 100;

/// Solves `job`: checks it, optimises each independent segment, and returns the pelvis path.
///
/// Segments are independent problems: a long job solves them on up to [`MAX_THREADS`] threads
/// (as many as the machine offers), each thread taking the next unsolved segment, and the
/// result is bit-identical to a solve on one thread.
///
/// Errors: any [`ComError`] from checking the job (no contacts, NaN, overlapping contacts of
/// one foot, a fixed point outside the span or in a flight, …). Never panics and never
/// returns NaN.
pub fn solve_com_path(job: &ComJob) -> Result<ComPath, ComError> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    solve_on_threads(job, threads)
}

/// [`solve_com_path`] on at most `threads` threads.
fn solve_on_threads(job: &ComJob, threads: usize) -> Result<ComPath, ComError> {
    let timeline = timeline::Timeline::build(job)?;
    let spans: Vec<usize> = timeline.segments.iter().map(|p| p.runs.iter().map(|r| r.spans).sum()).collect();
    let total: usize = spans.iter().sum();
    let threads = threads.min(MAX_THREADS).min(total / MIN_SPANS_PER_THREAD).clamp(1, spans.len().max(1));
    // Each thread takes the next unsolved segment until none is left (so a thread that drew
    // slow segments does not hold up the others); the answers are put back in segment order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> Vec<(usize, Result<Solved, ComError>)> {
        let mut solved = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(plan) = timeline.segments.get(i) else { return solved };
            solved.push((i, solve_one(&timeline, plan, job)));
        }
    };
    let mut solved: Vec<(usize, Result<Solved, ComError>)> = std::thread::scope(|scope| {
        // A thread that cannot be started leaves its share to the others.
        let others: Vec<_> = (1..threads)
            .filter_map(|_| std::thread::Builder::new().name("com-segments".into()).spawn_scoped(scope, work).ok())
            .collect();
        let mut solved = work();
        for other in others {
            match other.join() {
                Ok(part) => solved.extend(part),
                Err(_) => solved.push((usize::MAX, Err(ComError::NumericalFailure))),
            }
        }
        solved
    });
    solved.sort_by_key(|(i, _)| *i);
    if solved.len() != timeline.segments.len() {
        return Err(ComError::NumericalFailure);
    }
    let mut pieces = Vec::new();
    let mut stats = ComSolveStats { converged: true, ..ComSolveStats::default() };
    for (_, one) in solved {
        let one = one?;
        stats.segments += 1;
        stats.unknowns += one.unknowns;
        stats.iterations += one.solution.iterations;
        stats.initial_cost += one.solution.initial_cost;
        stats.final_cost += one.solution.final_cost;
        stats.converged &= one.solution.converged;
        pieces.extend(one.pieces);
    }
    if pieces.is_empty() || !pieces_are_finite(&pieces) || !stats.final_cost.is_finite() {
        return Err(ComError::NumericalFailure);
    }
    Ok(ComPath::new(pieces, stats))
}

/// One optimised segment.
struct Solved {
    solution: solve::SegmentSolution,
    unknowns: usize,
    pieces: Vec<path::Piece>,
}

fn solve_one(timeline: &timeline::Timeline, plan: &timeline::SegmentPlan, job: &ComJob) -> Result<Solved, ComError> {
    let mut problem = problem::SegmentProblem::new(timeline, plan, job.weights)?;
    let solution = solve::solve_segment(&mut problem, job.max_iterations);
    let pieces = problem.pieces(&solution.z);
    Ok(Solved { unknowns: 3 * problem.blocks, pieces, solution })
}

fn pieces_are_finite(pieces: &[path::Piece]) -> bool {
    pieces.iter().all(|p| match p {
        path::Piece::Spline { control_points_in_world, .. } => control_points_in_world.iter().all(|c| c.is_finite()),
        path::Piece::Ballistic { takeoff_position_in_world, takeoff_velocity_in_world, .. } => {
            takeoff_position_in_world.is_finite() && takeoff_velocity_in_world.is_finite()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A walk of `steps` steps with a hold (a fixed point) every fourth step.
    fn long_walk(steps: usize) -> ComJob {
        let mut contacts = Vec::new();
        let mut fixed = Vec::new();
        for i in 0..steps {
            let foot = if i % 2 == 0 { Foot::Left } else { Foot::Right };
            let x = if i % 2 == 0 { -0.1 } else { 0.1 };
            let t = 0.5 * i as f64;
            contacts.push(Contact::new(foot, Vec3::new(x, 0.0, 0.3 * i as f32), t, t + 0.7));
            if i % 4 == 3 {
                fixed.push(FixedPoint::at_rest(t + 0.6, Vec3::new(0.0, 0.9, 0.3 * i as f32)));
            }
        }
        ComJob { fixed_points: fixed, ..ComJob::new(contacts, 0.85) }
    }

    #[test]
    fn threads_give_the_bit_identical_path() {
        let job = long_walk(240);
        let one = solve_on_threads(&job, 1).unwrap_or_else(|e| panic!("{e}"));
        assert!(one.stats().segments > 20, "{:?}", one.stats());
        for threads in [2, 3, 8] {
            let many = solve_on_threads(&job, threads).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(many, one, "{threads} threads");
        }
    }
}
