//! Gesture rules: arms, legs, head and chest from their channels. A channel names a limb and
//! the part of it that moves (the whole limb, or the upper or lower segment for joint
//! pre-signs); a direction sign points it (crossing the body where the table says), a hold keeps
//! it, a back-to-normal sign straightens it, an action stroke bends or stretches it.

use super::limbs::{arm, cross_in_front, hand, is_hand_or_palm, leg, leg_cross, palm};
use super::paths::check_front;
use super::{
    Interpretation, Walker, actions, bend_of, gesture_dir_in_body, hips, hooks, place, rotations, segments,
    whole_body_rotation,
};
use crate::diag::Diagnostic;
use crate::motion::plan::{DancerPlan, Key, LimbId, LimbTarget, key_end_secs};
use crate::read::{BodyPart, Direction, Level, Side};
use crate::score::{ChannelKind, Entry, EntryKind};
use glam::Vec3;

/// Which part of a limb a gesture moves.
#[derive(Clone, Copy)]
enum Part {
    Whole,
    Upper,
    Lower,
}

/// What a gesture moves, and when.
#[derive(Clone, Copy)]
struct Moved {
    /// The limb.
    limb: LimbId,
    /// The part of it.
    part: Part,
    /// Start of the movement, seconds.
    t_start_secs: f64,
    /// End of the movement, seconds.
    t_end_secs: f64,
}

/// Gesture rules: arms, legs, head, chest, from their channels.
pub(super) fn gesture(
    w: &mut Walker,
    staff: usize,
    kind: ChannelKind,
    e: &Entry,
    t0: f64,
    t1: f64,
    report: &mut Interpretation,
) {
    if let Some(part) = rotations::handles(kind, e) {
        rotations::rotation(w, staff, part, e, t0, t1, report);
        return;
    }
    let Some((limb, part)) = limb_of(w, staff, kind, e, t0, t1, report) else { return };
    let moved = Moved { limb, part, t_start_secs: t0, t_end_secs: t1 };
    if !matches!(e.kind, EntryKind::Direction { .. }) {
        hooks::warn_stray(e, staff, report);
    }
    match &e.kind {
        EntryKind::Direction { direction, level } => direction_gesture(w, staff, moved, e, *direction, *level, report),
        EntryKind::Hold => {
            // Gestures are retained anyway (T6); a hold in a hand or palm column also says the
            // next arm gesture keeps that hand shape (see `hands_follow_arms`).
            if is_hand_or_palm(limb)
                && let Some(track) = w.plan.limbs.get_mut(&limb)
                && let Some(last) = track.keys.last().map(|k| k.value)
            {
                track.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0), value: last });
            }
            report.interpreted += 1
        }
        EntryKind::Action => actions::action(w, staff, (limb, matches!(part, Part::Whole)), e, (t0, t1), report),
        EntryKind::BackToNormal => {
            back_to_normal(w, limb, t0, t1);
            report.interpreted += 1;
        }
        EntryKind::Turn { .. } => {
            let what = match whole_body_rotation(&e.code) {
                // (laban8.lbn: under a finger sign in a support column.)
                Some(name) => format!("{name} sign (`{}`) in this column has no meaning we know; not animated", e.code),
                None => "rotation of a limb not animated yet".to_string(),
            };
            report.skipped.push(Diagnostic::warning(e.span, place(e, staff, &what)))
        }
        _ => report.skipped.push(Diagnostic::warning(e.span, place(e, staff, "sign not interpreted in this column"))),
    }
}

/// The limb and the part of it that channel `kind` moves; `None` when the channel is not a
/// limb's: its sign (a front sign, a body turn, a hip sign) is read here, or reported.
fn limb_of(
    w: &mut Walker,
    staff: usize,
    kind: ChannelKind,
    e: &Entry,
    t0: f64,
    t1: f64,
    report: &mut Interpretation,
) -> Option<(LimbId, Part)> {
    Some(match kind {
        ChannelKind::Arm(Side::Left) => (LimbId::ArmLeft, Part::Whole),
        ChannelKind::Arm(Side::Right) => (LimbId::ArmRight, Part::Whole),
        ChannelKind::LegGesture(Side::Left) => (LimbId::LegLeft, Part::Whole),
        ChannelKind::LegGesture(Side::Right) => (LimbId::LegRight, Part::Whole),
        ChannelKind::Head | ChannelKind::Part(BodyPart::Head) => (LimbId::Head, Part::Whole),
        ChannelKind::Body(_) | ChannelKind::Part(BodyPart::Chest | BodyPart::Torso) => (LimbId::Chest, Part::Whole),
        ChannelKind::Part(BodyPart::Shoulder(s) | BodyPart::Arm(s)) => (arm(s), Part::Whole),
        ChannelKind::Part(BodyPart::Elbow(s)) => (arm(s), Part::Upper),
        ChannelKind::Part(BodyPart::Wrist(s)) => (arm(s), Part::Lower),
        // Knee and ankle signs name the thigh and the lower leg; a hip sign displaces the hip.
        ChannelKind::Part(BodyPart::Hip(s)) => {
            hips::hip_sign(w, staff, s, e, t0, t1, report);
            return None;
        }
        ChannelKind::Part(BodyPart::Knee(s)) => (leg(s), Part::Upper),
        ChannelKind::Part(BodyPart::Ankle(s)) => (leg(s), Part::Lower),
        ChannelKind::Part(BodyPart::Leg(s)) => (leg(s), Part::Whole),
        ChannelKind::Part(BodyPart::Hand(s)) => (hand(s), Part::Whole),
        // The palm pre-sign has no side: the column's side of the staff gives it.
        ChannelKind::Part(BodyPart::Palm) => (palm(if e.column < 0 { Side::Left } else { Side::Right }), Part::Whole),
        ChannelKind::Front => {
            check_front(w, staff, e, report);
            return None;
        }
        ChannelKind::Path => {
            report
                .skipped
                .push(Diagnostic::warning(e.span, place(e, staff, "path sign in the starting position ignored")));
            return None;
        }
        ChannelKind::BodyTurn => {
            if let EntryKind::Turn { clockwise: Some(cw), amount_deg: Some(a), .. } = e.kind {
                let delta = (a as f32).to_radians() * if cw { -1.0 } else { 1.0 };
                w.yaw += delta;
                w.plan.yaw.push(Key { t_start_secs: t0, t_end_secs: key_end_secs(t0, t1), value: w.yaw });
                report.interpreted += 1;
            }
            return None;
        }
        ChannelKind::Part(p) => {
            report.skipped.push(Diagnostic::warning(
                e.span,
                place(e, staff, &format!("column for {} not animated yet", crate::score::part_name(&p))),
            ));
            return None;
        }
        ChannelKind::Support(_) => return None,
    })
}

/// A direction sign in a limb's channel: the whole limb (or one segment, resolved later) points
/// that way; a leg gesture also takes the weight off that leg and may tap the floor.
fn direction_gesture(
    w: &mut Walker,
    staff: usize,
    moved: Moved,
    e: &Entry,
    direction: Direction,
    level: Level,
    report: &mut Interpretation,
) {
    let Moved { limb, part, t_start_secs: t0, t_end_secs: t1 } = moved;
    let is_leg = matches!(limb, LimbId::LegLeft | LimbId::LegRight);
    let tap = is_leg && matches!(part, Part::Whole) && hooks::hook_of(e).is_some();
    if !tap {
        hooks::warn_stray(e, staff, report);
    }
    let mut dir = gesture_dir_in_body(direction, level);
    if matches!(part, Part::Whole | Part::Upper) && matches!(limb, LimbId::ArmLeft | LimbId::ArmRight) {
        dir = cross_in_front(dir, limb == LimbId::ArmRight);
    }
    if matches!(part, Part::Whole | Part::Upper) && is_leg {
        dir = leg_cross(dir, limb == LimbId::LegRight);
    }
    let bend = bend_of(&e.modifiers);
    match part {
        Part::Whole => {
            let value =
                LimbTarget { dir_in_body: dir, bend_rad: bend, upper_dir_in_body: None, lower_dir_in_body: None };
            w.plan.limbs.entry(limb).or_default().push(Key { t_start_secs: t0, t_end_secs: t1.max(t0), value });
        }
        Part::Upper | Part::Lower => w.segments.push(segments::Pending {
            limb,
            lower: matches!(part, Part::Lower),
            dir_in_body: dir,
            t_start_secs: t0,
            t_end_secs: t1.max(t0),
            span: e.span,
            place: place(e, staff, ""),
        }),
    }
    if is_leg {
        w.plan.leg_gestures.entry(limb).or_default().push((t0, t1));
        hooks::push_touch(w, limb, tap, t0, t1);
    }
    report.interpreted += 1;
}

/// A back-to-normal sign: head and torso return upright; a limb loses its bends and keeps its
/// direction.
fn back_to_normal(w: &mut Walker, limb: LimbId, t0: f64, t1: f64) {
    let track = w.plan.limbs.entry(limb).or_default();
    let previous = track.keys.last().map(|k| k.value);
    let value = match limb {
        // Head and torso return upright.
        LimbId::Head | LimbId::Chest => {
            LimbTarget { dir_in_body: Vec3::Y, bend_rad: 0.0, upper_dir_in_body: None, lower_dir_in_body: None }
        }
        // A limb loses its bends and keeps its direction (whole-limb direction when the
        // score gave the segments separately).
        _ => LimbTarget {
            dir_in_body: previous.map(|p| p.upper_dir_in_body.unwrap_or(p.dir_in_body)).unwrap_or(-Vec3::Y),
            bend_rad: 0.0,
            upper_dir_in_body: None,
            lower_dir_in_body: None,
        },
    };
    track.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0), value });
}

/// Leg gestures written in a flight shape the legs in the air (a straddle, a split leap, a pas
/// de chat): a gesture that starts in the air arrives by the flight's apex at the latest, so the
/// shape is there at the top of the jump and the legs leave it for the landing. Call once the
/// flights and the leg keys (segments resolved) are on the plan.
pub(super) fn leg_gestures_shape_the_flights(plan: &mut DancerPlan) {
    let apexes: Vec<(f64, f64, f64)> = plan
        .flights
        .iter()
        .map(|f| (f.t_takeoff_secs, 0.5 * (f.t_takeoff_secs + f.t_land_secs), f.t_land_secs))
        .collect();
    let arrive = |t0: f64, t1: f64| match apexes.iter().find(|(up, _, down)| t0 >= up - 1e-9 && t0 < *down) {
        Some(&(_, apex, _)) if t0 < apex && t1 > apex => apex,
        _ => t1,
    };
    for limb in [LimbId::LegLeft, LimbId::LegRight] {
        for g in plan.leg_gestures.get_mut(&limb).into_iter().flatten() {
            g.1 = arrive(g.0, g.1);
        }
        if let Some(track) = plan.limbs.get_mut(&limb) {
            for k in &mut track.keys {
                k.t_end_secs = arrive(k.t_start_secs, k.t_end_secs);
            }
            track.keys.sort_by(|a, b| a.t_end_secs.total_cmp(&b.t_end_secs));
        }
    }
}
