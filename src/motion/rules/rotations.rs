//! Rotation signs in body columns: a turn sign in a limb, torso or head column turns that part
//! about its own long axis (labanotation-rules §4.1 last row, §5.5): keys of
//! [`DancerPlan::rotations`](crate::motion::plan::DancerPlan); a supporting foot swivels instead.
//!
//! The rotation arrives at the top of the sign and is held. Per column: in the torso column (a
//! chest pre-sign, e.g. LED `Area 9`) the chest twists against the pelvis (up to 60°); in the head
//! column the head turns (up to 80°); in an arm column the whole arm turns about the shoulder →
//! wrist line, and with an upper-arm (`Limb 2/7`) or lower-arm (`Limb 3/8`) pre-sign the upper arm
//! twists at the shoulder or the forearm at the wrist (90°); in a leg column, or with a thigh
//! (`Limb 12/17`) or lower-leg (`Limb 13/18`) pre-sign, a gesturing leg twists at the hip (45°; the
//! lower leg at the ankle, 25°).
//!
//! A supporting leg's rotation swivels its standing foot on the floor, the body's facing unchanged:
//! a flat foot turns on its heel with the toes lifted 6° (the ankle keeps its height, so the
//! standing knee stays straight), a foot on half-toe turns on its ball; at most 35° from the
//! untwisted foot (a pin asking for more is a warning), held until the foot steps
//! (`knee_rotate.lbn`, `jump_rotate.lbn`). A rotation while the foot pivots in a turn is a warning.
//!
//! "Right" is clockwise seen from above in the standing pose (outward for the right limbs, inward
//! for the left). The pin gives the amount from the untwisted state (beyond the joints' range: a
//! warning and the range); without a pin 45° is taken. The composite turn sign (LED `Rotn 7`)
//! returns the part to untwisted. The somersault and cartwheel signs (`Rotn 3–6`) are warnings that
//! name the sign; `Rotn 8` has no established meaning and is a warning too.

use super::{Interpretation, Walker, place};
use crate::diag::Diagnostic;
use crate::motion::plan::{Contact, Foot, Footprint, Key, Rotated, Track, forward_of, key_end_secs};
use crate::read::{BodyPart, Side};
use crate::score::{ChannelKind, Entry, EntryKind};

/// A foot that lands (or rises) as its leg rotates stands this long before it swivels, seconds.
const SETTLE_SECS: f64 = 0.15;

/// The toes lift (or the heel rises) over this long before a foot swivels, seconds.
const PIVOT_LIFT_SECS: f64 = 0.08;

/// Amount used when a rotation sign holds no pin (the score warns about it) [impl. choice].
pub const DEFAULT_ROTATION_DEG: f64 = 45.0;

/// The part a turn sign in a channel of `kind` rotates; `None` for supports, whole-body turn
/// channels and parts that have no rotation here (hands, palms, hips, pelvis).
pub(super) fn part_of(kind: ChannelKind) -> Option<Rotated> {
    Some(match kind {
        ChannelKind::Arm(s) | ChannelKind::Part(BodyPart::Shoulder(s) | BodyPart::Arm(s)) => Rotated::Arm(s),
        ChannelKind::Part(BodyPart::Elbow(s)) => Rotated::UpperArm(s),
        ChannelKind::Part(BodyPart::Wrist(s)) => Rotated::Forearm(s),
        ChannelKind::LegGesture(s) | ChannelKind::Part(BodyPart::Leg(s)) => Rotated::Leg(s),
        ChannelKind::Part(BodyPart::Knee(s)) => Rotated::Thigh(s),
        ChannelKind::Part(BodyPart::Ankle(s)) => Rotated::LowerLeg(s),
        ChannelKind::Head | ChannelKind::Part(BodyPart::Head) => Rotated::Head,
        ChannelKind::Body(_) | ChannelKind::Part(BodyPart::Chest | BodyPart::Torso) => Rotated::Chest,
        _ => return None,
    })
}

/// The largest rotation of each part either way, degrees: the joints' twist ranges added up
/// (pose::skeleton limits: chest 35 + spine 25, head 35 + neck 45, shoulder 90, hip 45 in / 60 out
/// (45 used both ways), wrist 90, ankle 25).
pub fn max_rotation_deg(part: Rotated) -> f64 {
    match part {
        Rotated::Chest => 60.0,
        Rotated::Head => 80.0,
        Rotated::Arm(_) | Rotated::UpperArm(_) | Rotated::Forearm(_) => 90.0,
        Rotated::Leg(_) | Rotated::Thigh(_) => 45.0,
        Rotated::LowerLeg(_) => 25.0,
        Rotated::Pelvis => 2.0 * super::hips::HIP_SHIFT_TURN_RAD.to_degrees() as f64,
    }
}

/// Signed rotation (degrees, right = positive) a turn entry asks for, from the untwisted state:
/// `None` when the sign has no sense (an unknown rotation sign).
fn signed_amount(e: &Entry) -> Option<(f64, bool)> {
    let EntryKind::Turn { clockwise, amount_deg, .. } = e.kind else { return None };
    match (clockwise, amount_deg) {
        (Some(cw), amount) => {
            let a = amount.unwrap_or(DEFAULT_ROTATION_DEG);
            Some((if cw { a } else { -a }, amount.is_none()))
        }
        // The composite sign: back to untwisted.
        (None, Some(0.0)) => Some((0.0, false)),
        (None, _) => None,
    }
}

/// Largest swivel of a supporting foot, radians (35°).
const MAX_SWIVEL_RAD: f32 = 35.0 * std::f32::consts::PI / 180.0;

/// A swivel that starts this soon after its foot lands turns the landing footprint itself, seconds.
const LANDS_WITH_SWIVEL_SECS: f64 = 0.05;

/// A supporting leg's rotation, kept until the footprints exist.
#[derive(Clone, Debug)]
pub(super) struct LegSwivel {
    foot: Foot,
    t0: f64,
    t1: f64,
    /// Rotation to reach, radians, right positive (from the untwisted foot).
    target_rad: f32,
    /// The warning when the foot pivots through the sign (the swivel is not animated then).
    pivoting: Diagnostic,
    /// The warning when a pin asks for more than a standing foot swivels.
    clamped: Option<Diagnostic>,
}

/// The rotation rule: a key on the part's rotation track (reached at the top of the symbol, held
/// afterwards; pins give the amount from the untwisted state, within the part's range). Leg
/// rotations are also kept for [`swivel_supporting_feet`].
pub(super) fn rotation(
    w: &mut Walker,
    staff: usize,
    part: Rotated,
    e: &Entry,
    t0: f64,
    t1: f64,
    report: &mut Interpretation,
) {
    let Some((deg, defaulted)) = signed_amount(e) else {
        report.skipped.push(Diagnostic::warning(
            e.span,
            place(e, staff, &format!("rotation sign `{}` of unknown meaning; no rotation", e.code)),
        ));
        return;
    };
    let max = max_rotation_deg(part);
    // A rotation sign turns the part from its normal (untwisted) state: the amount is where it
    // ends, beyond the part's range only as far as the joints go.
    let used = deg.clamp(-max, max);
    if (used - deg).abs() > 1e-6 && !defaulted {
        report.skipped.push(Diagnostic::warning(
            e.span,
            place(e, staff, &format!("rotation of {:.0}° is beyond the joints' range; {:.0}° used", deg.abs(), max)),
        ));
    }
    let value = (used as f32).to_radians();
    // Untwisted until the first sign (the track would otherwise hold its first value from 0).
    let track = w.plan.rotations.entry(part).or_insert_with(|| {
        let mut tr = Track::default();
        tr.push(Key { t_start_secs: 0.0, t_end_secs: 0.0, value: 0.0 });
        tr
    });
    track.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0), value });
    if let Rotated::Leg(s) | Rotated::Thigh(s) | Rotated::LowerLeg(s) = part {
        let foot = if s == Side::Left { Foot::Left } else { Foot::Right };
        let pivoting = Diagnostic::warning(
            e.span,
            place(
                e,
                staff,
                "rotation of a supporting leg while its foot pivots: the foot does not swivel; not animated",
            ),
        );
        let clamped = (!defaulted).then(|| {
            Diagnostic::warning(
                e.span,
                place(
                    e,
                    staff,
                    &format!(
                        "rotation of a supporting leg by {:.0}°: a standing foot swivels at most {:.0}°; {:.0}° used",
                        used.abs(),
                        MAX_SWIVEL_RAD.to_degrees(),
                        MAX_SWIVEL_RAD.to_degrees()
                    ),
                ),
            )
        });
        w.swivels.push(LegSwivel { foot, t0, t1: key_end_secs(t0, t1), target_rad: value, pivoting, clamped });
    }
    report.interpreted += 1;
}

/// Leg rotations of a foot that stands on the floor turn the foot there (it rises onto its ball
/// and swivels, the body's facing unchanged, at most 35° from the untwisted foot); the foot keeps
/// the new heading until it steps. A rotation while the foot pivots is reported, not animated.
pub(super) fn swivel_supporting_feet(w: &mut Walker, report: &mut Interpretation) {
    let swivels = std::mem::take(&mut w.swivels);
    let mut sorted: Vec<&LegSwivel> = swivels.iter().collect();
    sorted.sort_by(|a, b| a.t0.total_cmp(&b.t0).then(a.foot.cmp(&b.foot)));
    // Footprints this rule made, with the heading of the step they continue: (foot, landing, yaw).
    let mut made: Vec<(Foot, f64, f32)> = Vec::new();
    for sw in sorted {
        let stands = |f: &Footprint| f.foot == sw.foot && f.t_land_secs <= sw.t0 + 1e-9 && f.t_lift_secs > sw.t1 - 1e-9;
        let standing = w
            .plan
            .footprints
            .iter()
            .enumerate()
            .rev()
            .find(|(_, f)| stands(f) && f.pivot_secs.is_none_or(|(_, b)| b <= sw.t0 + 1e-9));
        let Some((i, fp)) = standing.map(|(i, f)| (i, f.clone())) else {
            if sw.target_rad != 0.0 && w.plan.footprints.iter().any(stands) {
                report.interpreted = report.interpreted.saturating_sub(1);
                report.skipped.push(sw.pivoting.clone());
            }
            continue;
        };
        // The rotation is measured from the heading of the step that put the foot there.
        let untwisted = made
            .iter()
            .find(|(foot, t, _)| *foot == fp.foot && same_time(*t, fp.t_land_secs))
            .map_or(fp.yaw_end_rad, |m| m.2);
        // The leg above a planted foot turns in the hip, which the IK must keep inside its range
        // with the knee over the toes: the foot swivels at most 35° either way.
        if let Some(clamped) = sw.clamped.as_ref().filter(|_| sw.target_rad.abs() > MAX_SWIVEL_RAD + 1e-4) {
            report.skipped.push(clamped.clone());
        }
        let yaw_end = untwisted - sw.target_rad.clamp(-MAX_SWIVEL_RAD, MAX_SWIVEL_RAD);
        if (yaw_end - fp.yaw_end_rad).abs() < 1e-4 {
            continue;
        }
        // A flat foot turns on its heel, the toes lifted a little (the ankle keeps its height,
        // so the standing knee stays straight); one on half-toe, or rising or sinking, turns on its
        // ball. The toes lift (or the heel rises) over 0.08 s before the pivot, then the foot turns.
        let on_heel = !fp.releve && fp.releve_ramp_secs.is_none();
        let end = pivot_end(
            fp.position_end_in_world,
            fp.yaw_end_rad,
            yaw_end,
            on_heel,
            w.opts.ball_forward_m,
            w.opts.heel_back_m,
        );
        // A foot that lands (or rises) in the same instant settles first.
        let settle = (fp.t_land_secs + SETTLE_SECS).max(sw.t0);
        let pivot = ((settle + PIVOT_LIFT_SECS).min(sw.t0 + 0.5 * (sw.t1 - sw.t0)).max(sw.t0), sw.t1);
        // (The starting position's feet stand from −∞: a swivel at the very start turns them.)
        if sw.t0 - fp.t_land_secs.max(0.0) < LANDS_WITH_SWIVEL_SECS && fp.pivot_secs.is_none() {
            // The foot lands as the leg rotates: it swivels as it arrives (no new contact).
            if let Some(f) = w.plan.footprints.get_mut(i) {
                f.pivot_secs = Some(pivot);
                f.pivot_on_heel = on_heel;
                f.yaw_end_rad = yaw_end;
                f.position_end_in_world = end;
            }
            made.push((sw.foot, fp.t_land_secs, untwisted));
            follow_in_place(w, i, (fp.position_end_in_world, fp.yaw_end_rad), &mut made);
            continue;
        }
        // Otherwise the foot rises onto its ball where it stands and turns there: a new contact,
        // so the flat foot before and after the swivel each keep their own place.
        if let Some(f) = w.plan.footprints.get_mut(i) {
            f.t_lift_secs = sw.t0;
        }
        w.plan.footprints.insert(
            i + 1,
            Footprint {
                foot: sw.foot,
                position_in_world: fp.position_end_in_world,
                position_end_in_world: end,
                yaw_start_rad: fp.yaw_end_rad,
                yaw_end_rad: yaw_end,
                pivot_secs: Some(pivot),
                pivot_on_heel: on_heel,
                t_step_start_secs: sw.t0,
                t_land_secs: sw.t0,
                t_lift_secs: fp.t_lift_secs,
                // Flat for a turn on the heel; on the ball, as the footprint before it rolls off
                // onto it, for a turn on the ball.
                contact: if on_heel { Contact::Flat } else { Contact::Ball },
                releve: fp.releve,
                // A rise or fall still running goes on through the swivel.
                releve_ramp_secs: fp.releve_ramp_secs,
            },
        );
        made.push((sw.foot, sw.t0, untwisted));
        follow_in_place(w, i + 1, (fp.position_end_in_world, fp.yaw_end_rad), &mut made);
    }
    // Landing order again (a stable sort keeps a swivel after the footprint it continues).
    w.plan.footprints.sort_by(|a, b| a.t_land_secs.total_cmp(&b.t_land_secs));
    w.planted.clear();
}

/// Where the ankle stands (on the floor) after a foot standing at `ground` turns from heading
/// `yaw_start` to `yaw_end` about its heel (`heel_back_m` behind the ankle) or its ball
/// (`ball_forward_m` ahead).
fn pivot_end(
    ground: glam::Vec3,
    yaw_start: f32,
    yaw_end: f32,
    on_heel: bool,
    ball_forward_m: f32,
    heel_back_m: f32,
) -> glam::Vec3 {
    let reach = if on_heel { -heel_back_m } else { ball_forward_m };
    let about = ground + forward_of(yaw_start) * reach;
    about - forward_of(yaw_end) * reach
}

/// Equal times, the starting position's −∞ included.
fn same_time(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() < 1e-9
}

/// Footprint `i` now ends elsewhere than `old_end` (position, heading): the later footprints of
/// its foot that continue it in place (rises, pivots: no swing) start from its new end instead,
/// and keep their own turn on top of it.
fn follow_in_place(w: &mut Walker, i: usize, old_end: (glam::Vec3, f32), made: &mut Vec<(Foot, f64, f32)>) {
    let (ball_forward, heel_back) = (w.opts.ball_forward_m, w.opts.heel_back_m);
    let Some(first) = w.plan.footprints.get(i) else { return };
    let foot = first.foot;
    let (mut old_pos, mut old_yaw) = old_end;
    let (mut new_pos, mut new_yaw) = (first.position_end_in_world, first.yaw_end_rad);
    for j in i + 1..w.plan.footprints.len() {
        let Some(f) = w.plan.footprints.get_mut(j) else { break };
        if f.foot != foot {
            continue;
        }
        let in_place =
            (f.t_step_start_secs - f.t_land_secs).abs() < 1e-9 && f.position_in_world.distance(old_pos) < 1e-3;
        if !in_place {
            break;
        }
        let (was_end, was_yaw, was_start) = (f.position_end_in_world, f.yaw_end_rad, f.yaw_start_rad);
        let delta = new_yaw - old_yaw;
        f.position_in_world = new_pos;
        f.yaw_start_rad += delta;
        f.yaw_end_rad += delta;
        f.position_end_in_world = if f.pivot_secs.is_some() {
            pivot_end(new_pos, f.yaw_start_rad, f.yaw_end_rad, f.pivot_on_heel, ball_forward, heel_back)
        } else {
            new_pos
        };
        if !made.iter().any(|m| m.0 == foot && same_time(m.1, f.t_land_secs)) {
            made.push((foot, f.t_land_secs, was_start));
        }
        (old_pos, old_yaw) = (was_end, was_yaw);
        (new_pos, new_yaw) = (f.position_end_in_world, f.yaw_end_rad);
    }
}

/// Whether a turn entry in `kind` is a rotation this module handles.
pub(super) fn handles(kind: ChannelKind, e: &Entry) -> Option<Rotated> {
    matches!(e.kind, EntryKind::Turn { .. }).then(|| part_of(kind)).flatten()
}
