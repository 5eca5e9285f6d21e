//! Foot hooks (LED `Misc` 4–9) attached to leg symbols (labanotation-rules §5.3). On a leg gesture
//! a hook means the foot touches the floor (a tap or tendu: LINTEL's `lhastap` reads all six so);
//! on a step the whole-foot hook (`Misc` 8/9) lands the foot flat.
//!
//! A tap rests the foot on its ball with the toes flat, pitched 60°, on the floor in the gesture's
//! horizontal direction, as far out as the straight leg reaches from the standing hip, whatever the
//! level written. The leg keeps that line wherever the hip goes: in a hop on the other foot the
//! foot rises with the body, and in a plié the solve keeps it on the floor. How far a gesture taps
//! is a track of its own (`DancerPlan::leg_taps`), blended over the symbols, so a tap brushes out
//! from the standing foot and blends into a gesture in the air without a jump (`feets.lbn`). The
//! whole-foot hook (`Misc` 8/9, "right/left whole foot" in Laban-tk's glyph table) lands a step
//! flat, with no heel strike (`laban2.lbn`). `Misc` 4–7 are quarter-round corners that the glyph
//! table does not name, so which is the ball and which the heel is not established: on a step they
//! are a warning and the step lands as its level says. A hook on any other symbol is a warning.

use super::{Interpretation, Walker, place};
use crate::diag::Diagnostic;
use crate::motion::plan::{Contact, Key, LimbId};
use crate::score::{Entry, Modifier};

/// The hook of a symbol, if it has one: the format's item number.
pub(super) fn hook_of(e: &Entry) -> Option<i32> {
    e.modifiers.iter().find_map(|m| match m {
        Modifier::Hook { item } => Some(*item),
        _ => None,
    })
}

/// Whether a hook item is LED's whole-foot hook (`Misc` 8 right, 9 left in Laban-tk's glyph table).
fn is_whole_foot(item: i32) -> bool {
    matches!(item, 8 | 9)
}

/// Keys the leg's tap track ([`crate::motion::plan::DancerPlan::leg_taps`]) for one leg
/// gesture over its symbol: 1 where the gesture carries a hook (the foot rests on the floor, a
/// tap or tendu), 0 where it is made in the air.
pub(super) fn push_touch(w: &mut Walker, limb: LimbId, tap: bool, t0: f64, t1: f64) {
    let value = if tap { 1.0 } else { 0.0 };
    w.plan.leg_taps.entry(limb).or_default().push(Key { t_start_secs: t0, t_end_secs: t1.max(t0), value });
}

/// The contact a step lands with when it carries a hook, warning where the hook names a part of
/// the foot we cannot tell: `Misc` 4–7 are drawn as quarter-round corners (Laban-tk's glyph
/// table gives them no names), so which is the ball and which the heel is not established.
pub(super) fn step_contact(e: &Entry, staff: usize, contact: Contact, report: &mut Interpretation) -> Contact {
    match hook_of(e) {
        None => contact,
        Some(item) if is_whole_foot(item) => Contact::Flat,
        Some(item) => {
            let what = format!(
                "foot hook `Misc {item}` on a step: which part of the foot it names is not established; \
                 the step lands as its level says"
            );
            report.skipped.push(Diagnostic::warning(e.span, place(e, staff, &what)));
            contact
        }
    }
}

/// A hook on a symbol that is neither a step nor a leg gesture: reported, no effect.
pub(super) fn warn_stray(e: &Entry, staff: usize, report: &mut Interpretation) {
    if let Some(item) = hook_of(e) {
        let what = format!("foot hook `Misc {item}` on a symbol that is not a step or a leg gesture; ignored");
        report.skipped.push(Diagnostic::warning(e.span, place(e, staff, &what)));
    }
}
