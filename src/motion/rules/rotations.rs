//! Rotation signs in body columns: a turn sign in a limb, torso or head column turns that part
//! about its own long axis (labanotation-rules §4.1 last row, §5.5): keys of
//! [`DancerPlan::rotations`](crate::motion::plan::DancerPlan); a supporting foot swivels instead.

use super::{Interpretation, Walker, place};
use crate::diag::Diagnostic;
use crate::motion::plan::{Contact, Foot, Footprint, Key, Rotated, Track, forward_of};
use crate::read::{BodyPart, Side};
use crate::score::{ChannelKind, Entry, EntryKind};

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

/// A supporting leg's rotation, kept until the footprints exist.
#[derive(Clone, Debug)]
pub(super) struct LegSwivel {
    foot: Foot,
    t0: f64,
    t1: f64,
    /// Rotation to reach, radians, right positive (from the untwisted foot).
    target_rad: f32,
    /// The sign, for the warning when its foot stands.
    warning: Diagnostic,
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
        let warning = Diagnostic::warning(
            e.span,
            place(e, staff, "rotation of a supporting leg: the foot does not swivel on the floor yet"),
        );
        w.swivels.push(LegSwivel { foot, t0, t1: t1.max(t0 + 1e-3), target_rad: value, warning });
    }
    report.interpreted += 1;
}

/// Leg rotations of a foot that stands on the floor turn the foot there (on its ball, like a
/// pivot, the body's facing unchanged); the foot keeps the new heading until it steps.
/// Not used yet: swivelling planted feet this way lets the contact point slide (the pivot turns
/// about the ball while the foot's anchor is its flat contact) and pushes the hip past its range;
/// a standing leg's rotation is reported instead (see [`report_supporting_rotations`]).
#[allow(dead_code)]
pub(super) fn swivel_supporting_feet(w: &mut Walker) {
    let ball_forward = w.opts.ball_forward_m;
    let swivels = std::mem::take(&mut w.swivels);
    let mut sorted: Vec<&LegSwivel> = swivels.iter().collect();
    sorted.sort_by(|a, b| a.t0.total_cmp(&b.t0).then(a.foot.cmp(&b.foot)));
    // Footprints this rule made, with the heading of the step they continue: (foot, landing, yaw).
    let mut made: Vec<(Foot, f64, f32)> = Vec::new();
    for sw in sorted {
        let standing = w.plan.footprints.iter().enumerate().rev().find(|(_, f)| {
            f.foot == sw.foot
                && f.t_land_secs <= sw.t0 + 1e-9
                && f.t_lift_secs > sw.t1 - 1e-9
                && f.pivot_secs.is_none_or(|(_, b)| b <= sw.t0 + 1e-9)
        });
        let Some((i, fp)) = standing.map(|(i, f)| (i, f.clone())) else { continue };
        // The rotation is measured from the heading of the step that put the foot there.
        let untwisted = made
            .iter()
            .find(|(foot, t, _)| *foot == fp.foot && same_time(*t, fp.t_land_secs))
            .map_or(fp.yaw_end_rad, |m| m.2);
        // The leg above a planted foot turns in the hip, which the IK must keep inside its range
        // with the knee over the toes: the foot swivels at most 35° either way.
        let yaw_end = untwisted - sw.target_rad.clamp(-MAX_SWIVEL_RAD, MAX_SWIVEL_RAD);
        if (yaw_end - fp.yaw_end_rad).abs() < 1e-4 {
            continue;
        }
        let ball = fp.position_end_in_world + forward_of(fp.yaw_end_rad) * ball_forward;
        let end = ball - forward_of(yaw_end) * ball_forward;
        // The heel comes up over the first moment (planted_state raises it over 0.08 s before
        // a pivot), then the foot turns.
        // A foot that lands (or rises) in the same instant settles first.
        let settle = (fp.t_land_secs + 0.15).max(sw.t0);
        let pivot = ((settle + 0.08).min(sw.t0 + 0.5 * (sw.t1 - sw.t0)).max(sw.t0), sw.t1);
        if fp.pivot_secs.is_none() {
            // The footprint's first turn: it pivots where it stands (no new contact).
            if let Some(f) = w.plan.footprints.get_mut(i) {
                f.pivot_secs = Some(pivot);
                f.yaw_end_rad = yaw_end;
                f.position_end_in_world = end;
            }
            made.push((sw.foot, fp.t_land_secs, untwisted));
            follow_in_place(w, i, (fp.position_end_in_world, fp.yaw_end_rad), &mut made);
            continue;
        }
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
                t_step_start_secs: sw.t0,
                t_land_secs: sw.t0,
                t_lift_secs: fp.t_lift_secs,
                // On the ball, as the footprint before it rolls off onto it.
                contact: Contact::Ball,
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

/// A rotation of a leg whose foot stands on the floor over the whole sign is reported: the foot
/// should swivel, which is not animated yet (a gesturing leg twists at the hip in the sampler).
pub(super) fn report_supporting_rotations(w: &mut Walker, report: &mut Interpretation) {
    let swivels = std::mem::take(&mut w.swivels);
    for sw in swivels {
        let standing = w
            .plan
            .footprints
            .iter()
            .any(|f| f.foot == sw.foot && f.t_land_secs <= sw.t0 + 1e-9 && f.t_lift_secs > sw.t1 - 1e-9);
        if standing && sw.target_rad != 0.0 {
            report.interpreted = report.interpreted.saturating_sub(1);
            report.skipped.push(sw.warning);
        }
    }
}

/// Equal times, the starting position's −∞ included.
fn same_time(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() < 1e-9
}

/// Footprint `i` now ends elsewhere than `old_end` (position, heading): the later footprints of
/// its foot that continue it in place (rises, pivots: no swing) start from its new end instead,
/// and keep their own turn on top of it.
fn follow_in_place(w: &mut Walker, i: usize, old_end: (glam::Vec3, f32), made: &mut Vec<(Foot, f64, f32)>) {
    let ball_forward = w.opts.ball_forward_m;
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
            let ball = new_pos + forward_of(f.yaw_start_rad) * ball_forward;
            ball - forward_of(f.yaw_end_rad) * ball_forward
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
