//! Action strokes in gesture columns (LED's `Ways 3`, a plain vertical line): with a
//! space-measurement sign below it (bent, relaxed, straight, stretched) an arm bends (90°, 45°) or
//! stretches in place over the stroke's time and keeps its direction (labanotation-rules §5.1).
//! Without such a sign, or for a leg or the torso, an action stroke is a warning with its staff
//! position. The other `Ways` items (LED draws ⊥, ⊤, V/Λ and bows; LINTEL ignores them) are not
//! path signs that can be named, so they are reported, not guessed.

use super::{Interpretation, Walker, bend_of, place};
use crate::diag::Diagnostic;
use crate::motion::plan::{Key, LimbId, LimbTarget};
use crate::read::VolumeSign;
use crate::score::{Entry, Modifier};
use glam::Vec3;

/// An action stroke for `limb` (`whole`: in the limb's own column, not a segment's).
pub(super) fn action(
    w: &mut Walker,
    staff: usize,
    (limb, whole): (LimbId, bool),
    e: &Entry,
    (t0, t1): (f64, f64),
    report: &mut Interpretation,
) {
    let measured = e.modifiers.iter().any(|m| {
        matches!(
            m,
            Modifier::Volume(VolumeSign::Bent | VolumeSign::Relaxed | VolumeSign::Straight | VolumeSign::Stretched)
        )
    });
    let arm = matches!(limb, LimbId::ArmLeft | LimbId::ArmRight);
    if !(arm && whole && measured) {
        let why = if !measured {
            "action stroke with no space-measurement sign (some movement, not said which); not animated"
        } else {
            "action stroke (bend or stretch in place) in this column not animated yet: only a whole arm's is"
        };
        report.skipped.push(Diagnostic::warning(e.span, place(e, staff, why)));
        return;
    }
    let track = w.plan.limbs.entry(limb).or_default();
    // The arm keeps the direction it has (its last key's, natural standing before any).
    let dir_in_body = track.keys.last().map_or(-Vec3::Y, |k| k.value.dir_in_body);
    let value =
        LimbTarget { dir_in_body, bend_rad: bend_of(&e.modifiers), upper_dir_in_body: None, lower_dir_in_body: None };
    track.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0), value });
    report.interpreted += 1;
}
