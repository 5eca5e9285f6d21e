//! Path and front signs for the rule engine: circular paths put the steps they span on a circle and
//! share the path's turn among them (labanotation-rules §4.3); front signs are checked against the
//! facing the turns give (§4.2).
//!
//! The facing turns by the path's amount (its pin, or the front sign that closes it), shared
//! equally among the steps, each step travelling along the chord. A circular path with neither is a
//! warning and walks straight. A front sign is a check: a warning when the turns disagree with it
//! by more than 22.5°.

use super::{Interpretation, Walker, place};
use crate::diag::Diagnostic;
use crate::read::{PathSign, Side};
use crate::score::{Entry, EntryKind};

/// How far (degrees) the facing may be from a front sign's before the sign is reported: half
/// the 45° between front signs.
const FRONT_TOLERANCE_DEG: f64 = 22.5;

/// A circular path sign: the steps that start inside `[t0, t1)` travel on a circle and the
/// facing turns by the path's amount, shared equally among them (labanotation-rules §4.3).
pub(super) struct Circle<'a> {
    entry: &'a Entry,
    t0_secs: f64,
    t1_secs: f64,
    clockwise: bool,
    /// Signed facing change over the whole path (radians), once known.
    total_rad: Option<f32>,
    /// Facing (degrees clockwise from the audience) of the front sign that closes the path, if any.
    front_after_deg: Option<f64>,
    /// Step groups that start inside the path.
    steps: usize,
    /// A step has used it (it counts once as interpreted).
    used: bool,
}

/// A path sign: circular ones are kept for the steps they span; straight ones change nothing.
pub(super) fn path_sign<'a>(w: &mut Walker<'a>, staff: usize, e: &'a Entry, report: &mut Interpretation) {
    let EntryKind::Path { sign, amount_deg } = e.kind else {
        report.skipped.push(Diagnostic::warning(e.span, place(e, staff, "sign not interpreted in the path column")));
        return;
    };
    match sign {
        PathSign::Straight => report.interpreted += 1,
        PathSign::Circular { clockwise } => {
            let total_rad = amount_deg.map(|a| (a as f32).to_radians() * if clockwise { -1.0 } else { 1.0 });
            w.circles.push(Circle {
                entry: e,
                t0_secs: e.start_secs,
                t1_secs: e.start_secs + e.duration_secs,
                clockwise,
                total_rad,
                front_after_deg: None,
                steps: 0,
                used: false,
            });
        }
        PathSign::Other(_) => report.skipped.push(Diagnostic::warning(
            e.span,
            place(e, staff, &format!("`{}` is not a known path sign; the steps travel straight", e.code)),
        )),
    }
}

/// Counts the step groups inside each circular path and finds the front sign that closes it.
pub(super) fn count_circle_steps(circles: &mut [Circle], supports: &[(Side, &Entry)], fronts: &[&Entry]) {
    const EPS: f64 = 1e-6;
    for c in circles.iter_mut() {
        let mut starts: Vec<f64> = supports
            .iter()
            .filter(|(_, e)| matches!(e.kind, EntryKind::Direction { .. }))
            .map(|(_, e)| e.start_secs)
            .filter(|t| *t >= c.t0_secs - EPS && *t < c.t1_secs - EPS)
            .collect();
        starts.dedup_by(|a, b| (*a - *b).abs() < EPS);
        c.steps = starts.len();
        // A front sign written at the end of the path (up to a beat's worth of slack after it).
        let slack = (c.t1_secs - c.t0_secs).max(0.0) * 0.25 + 0.5;
        c.front_after_deg = fronts
            .iter()
            .filter(|f| f.start_secs >= c.t0_secs && f.start_secs <= c.t1_secs + slack)
            .filter_map(|f| match f.kind {
                EntryKind::Front { facing_deg } => Some(facing_deg),
                _ => None,
            })
            .next_back();
    }
}

/// Warns about circular path signs that span no step (and were not reported already).
pub(super) fn report_unused_circles(circles: &[Circle], staff: usize, report: &mut Interpretation) {
    for c in circles {
        if c.steps == 0 && !c.used {
            report.skipped.push(Diagnostic::warning(
                c.entry.span,
                place(c.entry, staff, "circular path sign spans no step; nothing to circle"),
            ));
        }
    }
}

/// The facing change for the step group starting at `t0_secs` when it lies on a circular path.
pub(super) fn circle_turn_for_step(
    w: &mut Walker,
    staff: usize,
    t0_secs: f64,
    report: &mut Interpretation,
) -> Option<f32> {
    let yaw_now = w.yaw;
    let c = w.circles.iter_mut().find(|c| t0_secs >= c.t0_secs - 1e-6 && t0_secs < c.t1_secs - 1e-6)?;
    if c.steps == 0 {
        return None;
    }
    if c.total_rad.is_none() {
        // No pin: circle until the closing front sign's facing is reached.
        let Some(facing_deg) = c.front_after_deg else {
            report.skipped.push(Diagnostic::warning(
                c.entry.span,
                place(
                    c.entry,
                    staff,
                    "circular path without a pin or a closing front sign; amount unknown, no circling",
                ),
            ));
            c.steps = 0;
            c.used = true;
            return None;
        };
        let target = -(facing_deg as f32).to_radians();
        let tau = std::f32::consts::TAU;
        let mut turn =
            if c.clockwise { -(yaw_now - target).rem_euclid(tau) } else { (target - yaw_now).rem_euclid(tau) };
        if turn.abs() < 1e-3 {
            turn = if c.clockwise { -tau } else { tau };
        }
        c.total_rad = Some(turn);
    }
    if !c.used {
        c.used = true;
        report.interpreted += 1;
    }
    Some(c.total_rad? / c.steps as f32)
}

/// Compares a front sign with the facing the turns give at its time (a check, §4.2).
pub(super) fn check_front(w: &Walker, staff: usize, e: &Entry, report: &mut Interpretation) {
    if let EntryKind::Front { facing_deg } = e.kind {
        // Written beside a turn, the sign gives the facing once that turn is over, or (as in
        // barn.lbn's rotary chassés, where each sign stands at the start of its turn) the
        // facing the turn starts from: either agrees.
        let t_after_turn = w
            .plan
            .yaw
            .keys
            .iter()
            .filter(|k| k.t_start_secs <= e.start_secs + 1e-6 && k.t_end_secs > e.start_secs)
            .map(|k| k.t_end_secs)
            .fold(e.start_secs + e.duration_secs, f64::max);
        let off_by = |t_secs: f64| {
            let facing = -w.plan.yaw.value_at(t_secs, w.yaw).to_degrees() as f64;
            let diff = (facing - facing_deg).rem_euclid(360.0);
            (diff.min(360.0 - diff), facing)
        };
        let (diff, facing_now) = [off_by(e.start_secs), off_by(t_after_turn)]
            .into_iter()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap_or((0.0, facing_deg));
        if diff > FRONT_TOLERANCE_DEG {
            report.skipped.push(Diagnostic::warning(
                e.span,
                place(
                    e,
                    staff,
                    &format!(
                        "front sign says {facing_deg:.0}° but the turns so far give {:.0}°",
                        facing_now.round().rem_euclid(360.0).abs()
                    ),
                ),
            ));
        }
    }
    report.interpreted += 1;
}
