//! Glue between the support walk and [`crate::motion::floor`]: a group of supports on other body
//! parts (or a foot step while on the floor) becomes a floor-state key, lifts the feet that stop
//! bearing weight and moves the centre of weight.

use super::{Interpretation, Walker, place};
use crate::diag::Diagnostic;
use crate::motion::floor::{FloorInput, FloorPart, FloorPartEntry, FloorState, plan_floor_support};
use crate::motion::plan::{Foot, Key, key_end_secs};
use crate::score::{Entry, EntryKind};

/// The foot steps of a support group, as the floor rules need them.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct FootSteps {
    /// Left and right: the foot steps in this group.
    pub(super) written: [bool; 2],
    /// Both feet step in place (standing up, or sinking, where they are): held hands come off.
    pub(super) both_in_place: bool,
    /// The steps' start and end, seconds.
    pub(super) span: Option<(f64, f64)>,
}

/// Applies one support group's floor-part entries (`floor`) to the walker, with the group's foot
/// steps (`feet`).
pub(super) fn floor_group(
    w: &mut Walker,
    staff: usize,
    floor: &[(FloorPart, &Entry)],
    feet: FootSteps,
    report: &mut Interpretation,
) {
    let (feet_written, steps_span) = (feet.written, feet.span);
    let previous = w.floor;
    if floor.is_empty() && previous.is_none() {
        return;
    }
    let mut entries = Vec::new();
    for (part, e) in floor {
        match e.kind {
            EntryKind::Direction { direction, level } => entries.push(FloorPartEntry { part: *part, direction, level }),
            // The part keeps the weight (T5).
            EntryKind::Hold => {
                w.plan.still_intervals.push((e.start_secs, e.start_secs + e.duration_secs));
                report.interpreted += 1;
            }
            _ => report.skipped.push(Diagnostic::warning(
                e.span,
                place(e, staff, "sign in a support column on another body part not interpreted"),
            )),
        }
    }
    let span_of = |es: &[(FloorPart, &Entry)]| {
        es.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, e)| {
            (a.min(e.start_secs), b.max(e.start_secs + e.duration_secs))
        })
    };
    let (t0, t1) = match (steps_span, floor.is_empty()) {
        (Some((a, b)), true) => (a, b),
        (Some((a, b)), false) => {
            let (c, d) = span_of(floor);
            (a.min(c), b.max(d))
        }
        (None, _) => span_of(floor),
    };
    if !t0.is_finite() || !t1.is_finite() {
        return;
    }
    if entries.is_empty() && feet_written == [false; 2] {
        return; // only holds: the floor state continues
    }
    let out = plan_floor_support(&FloorInput {
        previous,
        entries: &entries,
        feet_written,
        hands_kept: [0, 1].map(|i| !feet.both_in_place && hand_held(w, i, t0)),
        planted_feet_in_world: [w.planted_pos(Foot::Left), w.planted_pos(Foot::Right)],
        centre_in_world: w.com,
        yaw_rad: w.yaw,
        leg_length_m: w.opts.leg_length_m,
        hip_half_width_m: w.opts.foot_half_spacing_m,
    });
    for (i, foot) in [Foot::Left, Foot::Right].into_iter().enumerate() {
        if out.lift_feet[i] && !feet_written[i] {
            w.lift(foot, t0);
        }
    }
    let t_end = key_end_secs(t0, t1);
    if w.plan.floor.keys.is_empty() && t0 > 0.0 {
        // Standing until the first floor support.
        w.plan.floor.push(Key { t_start_secs: 0.0, t_end_secs: 0.0, value: None });
    }
    if out.state != previous {
        w.plan.floor.push(Key { t_start_secs: t0, t_end_secs: t_end, value: out.state });
    }
    if out.centre_in_world.distance(w.com) > 1e-4 {
        w.com = out.centre_in_world;
        w.plan.com_ground.push(Key { t_start_secs: t0, t_end_secs: t_end, value: w.com });
    }
    for i in 0..2 {
        let down = |s: Option<FloorState>| s.is_some_and(|s| s.hands[i].is_some());
        if down(out.state) && !down(previous) {
            w.hands_down_secs[i] = t0;
        }
    }
    w.floor = out.state;
    report.interpreted += out.interpreted;
}

/// Whether hand `i` (0 left) on the floor is held at `t_secs`: a hold sign in its column (read
/// with the hand or as the leg's) since it went down (T5 carried over to the hands).
pub(super) fn hand_held(w: &Walker, i: usize, t_secs: f64) -> bool {
    let foot = if i == 0 { Foot::Left } else { Foot::Right };
    let since = |h0: f64| h0 >= w.hands_down_secs[i] - 1e-9 && h0 <= t_secs + 1e-9;
    w.floor.is_some_and(|s| s.hands[i].is_some())
        && (w.leg_holds.iter().any(|&(f, h0)| f == foot && since(h0))
            || w.hand_holds.iter().any(|&(h, h0)| h == i && since(h0)))
}
