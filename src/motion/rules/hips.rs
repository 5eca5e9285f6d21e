//! Hip signs in a leg column (LED `Limb` 11/16): the hip joint displaced, not the leg lifted. A hip
//! forward or back turns the pelvis 12° about the vertical (both hips opposite ways, 24°) and the
//! spine turns the chest back so the shoulders keep facing the front; place middle brings it back.
//! `thigh.lbn` writes both hips at once with both feet down, which read as thigh gestures would be
//! a split in the air. Hips sideways, up or down are warnings.

use super::{Interpretation, Walker, gesture_dir_in_body, place};
use crate::diag::Diagnostic;
use crate::motion::plan::{Key, Rotated, key_end_secs};
use crate::read::{Direction, Side};
use crate::score::{Entry, EntryKind};

/// How far one hip displaced forward or back turns the pelvis, radians (12°) [impl. choice]:
/// the hip joint moves about 2 cm; both hips displaced opposite ways turn it twice as far.
pub const HIP_SHIFT_TURN_RAD: f32 = 12.0 * std::f32::consts::PI / 180.0;

/// One hip's displacement over a symbol: the pelvis turn it asks for (to the right, clockwise
/// from above, positive, as for every [`Rotated`] part).
#[derive(Clone, Copy, Debug)]
pub(super) struct Shift {
    side: Side,
    turn_rad: f32,
    t_start_secs: f64,
    t_end_secs: f64,
}

/// Reads one entry of a hip column. Why a displacement and not the thigh: thigh.lbn writes
/// the left hip forward and the right hip back at the same time, both feet on the floor, each
/// followed by place middle; as two leg gestures that would be a split in the air.
pub(super) fn hip_sign(w: &mut Walker, staff: usize, side: Side, e: &Entry, t0: f64, t1: f64, r: &mut Interpretation) {
    let EntryKind::Direction { direction, level } = e.kind else {
        let what = "sign in a hip column not interpreted (a direction displaces the hip)";
        r.skipped.push(Diagnostic::warning(e.span, place(e, staff, what)));
        return;
    };
    let forward = gesture_dir_in_body(direction, level).z;
    if direction != Direction::Place && forward.abs() < 1e-3 {
        let what = "column for hip not animated yet (a hip displaced sideways, up or down)";
        r.skipped.push(Diagnostic::warning(e.span, place(e, staff, &format!("{what}; {side:?} hip kept in place"))));
        return;
    }
    // The left hip forward turns the pelvis to the right (clockwise), the right hip forward to
    // the left.
    let sign = if side == Side::Left { 1.0 } else { -1.0 };
    w.hips.push(Shift { side, turn_rad: sign * forward * HIP_SHIFT_TURN_RAD, t_start_secs: t0, t_end_secs: t1 });
    r.interpreted += 1;
}

/// Puts the hips' displacements on the pelvis turn track ([`Rotated::Pelvis`]): each key turns
/// the pelvis by what both hips ask for once it ends.
pub(super) fn resolve(w: &mut Walker) {
    let mut shifts = std::mem::take(&mut w.hips);
    if shifts.is_empty() {
        return;
    }
    shifts.sort_by(|a, b| a.t_end_secs.total_cmp(&b.t_end_secs).then(a.t_start_secs.total_cmp(&b.t_start_secs)));
    let track = w.plan.rotations.entry(Rotated::Pelvis).or_default();
    track.push(Key { t_start_secs: 0.0, t_end_secs: 0.0, value: 0.0 });
    let mut now = [0.0f32; 2];
    for s in shifts {
        now[usize::from(s.side == Side::Right)] = s.turn_rad;
        let value = now[0] + now[1];
        track.push(Key { t_start_secs: s.t_start_secs, t_end_secs: key_end_secs(s.t_start_secs, s.t_end_secs), value });
    }
}
