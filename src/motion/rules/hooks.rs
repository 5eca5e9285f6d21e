//! Foot hooks (LED `Misc` 4–9) attached to leg symbols (labanotation-rules §5.3). On a step the
//! whole-foot hook (`Misc` 8/9) lands the foot flat; on a leg gesture a hook means the foot
//! touches the floor (a tap or tendu: LINTEL's `lhastap` reads all six so), reported for now.

use super::{Interpretation, place};
use crate::diag::Diagnostic;
use crate::motion::plan::Contact;
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

/// A hook on a leg gesture: the foot touches the floor there (a tap or tendu). Not animated yet:
/// the gesture is made in the air as written, and the warning says so. (Tried: aiming the leg
/// steeply enough for the pointed toes to rest on the floor. The toes did rest within 4 mm, but
/// a foot that close to the floor jumped 5 cm where a hop on the other foot landed, as the
/// sampler's toe model for a free foot changes from the flight's to the ground's.)
pub(super) fn warn_tap(e: &Entry, staff: usize, report: &mut Interpretation) {
    if let Some(item) = hook_of(e) {
        let what = format!(
            "foot hook `Misc {item}` on a leg gesture (the foot touching the floor, a tap) not animated yet; \
             the gesture is made in the air"
        );
        report.skipped.push(Diagnostic::warning(e.span, place(e, staff, &what)));
    }
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
