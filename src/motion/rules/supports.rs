//! One support group (the support-column signs that start together): turns pivot the standing
//! feet on their balls (a turn sign turns on the foot that bears the weight, whichever support
//! column it stands in, while the other leg gestures or holds its gesture; a foot in the air that
//! is to turn comes down as the turn starts), holds keep the weight, and direction signs are
//! steps: each foot lands at its target (half a step from the centre when both feet take weight
//! at once), the other foot lets go once the weight has travelled, the centre of weight and the
//! level follow, and the supports on other parts written with them are read last.

use super::floor::{FootSteps, floor_group, hand_held};
use super::limbs::leg;
use super::paths::circle_turn_for_step;
use super::{Interpretation, Walker, hooks, place, step_dir_in_body, whole_body_rotation};
use crate::diag::Diagnostic;
use crate::motion::floor::FloorPart;
use crate::motion::plan::{Contact, Foot, Key, forward_of, key_end_secs, right_of};
use crate::read::{Direction, Level, Side};
use crate::score::{Entry, EntryKind, JumpForm, SupportGap, TempoMap};
use glam::Vec3;

/// A step target closer than this to where the foot stands is a step in place (a change of
/// level or a weight transfer): the foot stays, metres.
const SAME_PLACE_M: f32 = 0.02;

/// A pivoting foot in the air steps into place over this part of the turn sign…
const STEP_IN_FRACTION: f64 = 0.25;

/// …and at most this long, seconds [impl. choice].
const STEP_IN_MAX_SECS: f64 = 0.2;

/// A direction sign in a support column: a step of one foot.
#[derive(Clone, Copy)]
struct Step<'e> {
    /// The foot that steps.
    foot: Foot,
    /// Where it steps.
    direction: Direction,
    /// Its level (plié, middle, relevé).
    level: Level,
    /// The sign.
    entry: &'e Entry,
}

/// Steps, turns and holds that start together; `landing` is the flight this group lands.
pub(super) fn support_group(
    w: &mut Walker,
    staff: usize,
    group: &[(Side, &Entry)],
    floor_group_entries: &[(FloorPart, &Entry)],
    landing: Option<&SupportGap>,
    tempo: TempoMap,
    report: &mut Interpretation,
) {
    let steps: Vec<Step> = group
        .iter()
        .filter_map(|(side, e)| match e.kind {
            EntryKind::Direction { direction, level } => Some(Step { foot: *side, direction, level, entry: *e }),
            _ => None,
        })
        .collect();
    for (side, e) in group {
        support_sign(w, staff, *side, e, &steps, report);
    }
    if steps.is_empty() {
        floor_group(w, staff, floor_group_entries, FootSteps::default(), report);
        return;
    }
    take_steps(w, staff, &steps, floor_group_entries, landing, tempo, report);
}

/// A sign of the group other than a step: a turn, a hold, or a sign not interpreted here.
fn support_sign(w: &mut Walker, staff: usize, side: Side, e: &Entry, steps: &[Step], report: &mut Interpretation) {
    if !matches!(e.kind, EntryKind::Direction { .. }) {
        hooks::warn_stray(e, staff, report);
    }
    match &e.kind {
        EntryKind::Turn { clockwise, amount_deg, both_feet } => {
            let (Some(cw), Some(amount)) = (clockwise, amount_deg) else {
                let what = match whole_body_rotation(&e.code) {
                    Some(name) => {
                        format!("{name} sign (`{}`): rolls over the floor are not animated; no turn", e.code)
                    }
                    None => "turn without a known sense or amount; no turn".to_string(),
                };
                report.skipped.push(Diagnostic::warning(e.span, place(e, staff, &what)));
                return;
            };
            let t1 = e.start_secs + e.duration_secs;
            let pivot_feet: Vec<Foot> =
                if *both_feet { vec![Foot::Left, Foot::Right] } else { vec![turning_foot(w, side, e.start_secs, t1)] };
            support_turn(w, e, *cw, *amount, &pivot_feet, steps);
            report.interpreted += 1;
        }
        EntryKind::Hold => {
            w.plan.still_intervals.push((e.start_secs, e.start_secs + e.duration_secs));
            report.interpreted += 1;
        }
        EntryKind::Direction { .. } => {}
        _ => report
            .skipped
            .push(Diagnostic::warning(e.span, place(e, staff, "sign in a support column not interpreted"))),
    }
}

/// The foot a turn sign in the `side` support column turns on: the foot that bears the weight.
/// That is the column's foot, unless its leg is in the air through the turn (a gesture written
/// over it, or a hold sign since the foot last stood) while the other foot stands with its leg
/// free: then the other foot, and the raised leg stays up.
fn turning_foot(w: &Walker, side: Foot, t0: f64, t1: f64) -> Foot {
    let other = side.other();
    if leg_in_the_air(w, side, t0, t1) && stands(w, other, t0) && !leg_in_the_air(w, other, t0, t1) {
        other
    } else {
        side
    }
}

/// Whether `foot` stands on the floor at `t_secs`: planted, its leg not gesturing since.
fn stands(w: &Walker, foot: Foot, t_secs: f64) -> bool {
    let Some(fp) = w.planted.get(&foot).and_then(|i| w.plan.footprints.get(*i)) else { return false };
    let gestures = w.plan.leg_gestures.get(&leg(foot)).map(Vec::as_slice).unwrap_or(&[]);
    !gestures.iter().any(|&(g0, _)| g0 >= fp.t_land_secs - 1e-9 && g0 < t_secs - 1e-9)
}

/// Whether the leg of `foot` gestures during `t0..t1` (seconds), or holds a gesture by a hold
/// sign written since its foot last took weight.
fn leg_in_the_air(w: &Walker, foot: Foot, t0: f64, t1: f64) -> bool {
    let gestures = w.plan.leg_gestures.get(&leg(foot)).map(Vec::as_slice).unwrap_or(&[]);
    if gestures.iter().any(|&(g0, g1)| g0 < t1 - 1e-9 && g1 > t0 + 1e-9) {
        return true;
    }
    let landed_secs = w
        .plan
        .footprints
        .iter()
        .filter(|f| f.foot == foot && f.t_land_secs < t1)
        .map(|f| f.t_land_secs)
        .fold(f64::NEG_INFINITY, f64::max);
    w.leg_holds.iter().any(|&(f, h0)| f == foot && h0 >= landed_secs - 1e-9 && h0 < t1 - 1e-9)
}

/// A turn of `amount_deg` (clockwise or not) on `pivot_feet`: a foot that neither pivots nor
/// steps lifts once the pivoting feet bear the weight; each pivoting foot swings its ankle round
/// its ball; on one foot the body turns about that ball. A pivoting foot in the air first steps
/// into place under the body, over the turn's first quarter (at most 0.2 s), then turns.
fn support_turn(w: &mut Walker, e: &Entry, cw: bool, amount_deg: f64, pivot_feet: &[Foot], steps: &[Step]) {
    let (t0, t1) = (e.start_secs, e.start_secs + e.duration_secs);
    let delta = (amount_deg as f32).to_radians() * if cw { -1.0 } else { 1.0 };
    // (Landing from a flight, no foot stands: the pivoting feet land as the turn starts.)
    let standing = [Foot::Left, Foot::Right].map(|f| stands(w, f, t0));
    let steps_in = standing.contains(&true) && pivot_feet.iter().any(|f| !standing[f.index()]);
    let t_pivot = if steps_in { t0 + (STEP_IN_FRACTION * (t1 - t0)).min(STEP_IN_MAX_SECS) } else { t0 };
    for foot in [Foot::Left, Foot::Right] {
        if !pivot_feet.contains(&foot) && steps.iter().all(|s| s.foot != foot) {
            w.lift(foot, t_pivot);
        }
    }
    let ball_fwd = w.opts.ball_forward_m;
    let yaw_before = w.yaw;
    for foot in pivot_feet {
        let pos = w.planted_pos(*foot).unwrap_or(w.com + w.lateral(*foot));
        let releve = w.planted.get(foot).and_then(|i| w.plan.footprints.get(*i)).is_some_and(|f| f.releve);
        if standing[foot.index()] {
            w.land(*foot, pos, t_pivot, Contact::Ball, releve);
        } else {
            w.land_after(*foot, pos, t0, t_pivot, Contact::Ball, releve);
        }
        // The ankle swings round the ball of the foot.
        let ball = pos + forward_of(yaw_before) * ball_fwd;
        let end = ball - forward_of(yaw_before + delta) * ball_fwd;
        if let Some(fp) = w.plan.footprints.last_mut() {
            fp.yaw_end_rad = fp.yaw_start_rad + delta;
            fp.pivot_secs = Some((t_pivot, t1));
            fp.position_end_in_world = end;
        }
        if pivot_feet.len() == 1 {
            // On one foot the body turns about that ball.
            let rel = w.com - ball;
            w.com = ball + glam::Quat::from_rotation_y(delta) * rel;
            w.com.y = 0.0;
        }
    }
    w.yaw += delta;
    w.plan.yaw.push(Key { t_start_secs: t_pivot, t_end_secs: key_end_secs(t_pivot, t1), value: w.yaw });
    w.plan.still_intervals.push((t0, t1));
    w.plan.com_ground.push(Key { t_start_secs: t0, t_end_secs: key_end_secs(t0, t1), value: w.com });
}

/// The group's steps: the feet land at their targets (on a circular path each step also turns
/// the facing by its share), the other foot lets go, the centre of weight and the level follow,
/// then the group's supports on other parts.
fn take_steps(
    w: &mut Walker,
    staff: usize,
    steps: &[Step],
    floor_group_entries: &[(FloorPart, &Entry)],
    landing: Option<&SupportGap>,
    tempo: TempoMap,
    report: &mut Interpretation,
) {
    let t0 = steps.iter().map(|s| s.entry.start_secs).fold(f64::INFINITY, f64::min);
    let t1 = steps.iter().map(|s| s.entry.start_secs + s.entry.duration_secs).fold(0.0, f64::max);
    // On a circular path each step turns the facing by its share of the circle and travels
    // along the chord, so the steps trace a regular polygon round the centre.
    let mut travel_yaw = w.yaw;
    if let Some(delta) = circle_turn_for_step(w, staff, t0, report) {
        travel_yaw = w.yaw + 0.5 * delta;
        w.yaw += delta;
        w.plan.yaw.push(Key { t_start_secs: t0, t_end_secs: key_end_secs(t0, t1), value: w.yaw });
    }
    let air_secs = landing.map(|g| tempo.secs_from_beats(g.end_beats - g.start_beats)).unwrap_or(0.0);
    let form = landing.and_then(|g| g.form);
    let level = steps[0].level;
    let t_touch = if landing.is_some() { t0 } else { t0 + (t1 - t0) * w.opts.swing_fraction };
    let contact = match (landing.is_some(), level, w.opts.toe_first) {
        (true, _, _) | (_, Level::High, _) | (_, _, true) => Contact::Ball,
        (_, Level::Low, _) => Contact::Flat,
        _ => Contact::Heel,
    };
    // A whole-foot hook lands that step flat.
    let step_contacts: Vec<(Foot, Contact)> =
        steps.iter().map(|s| (s.foot, hooks::step_contact(s.entry, staff, contact, report))).collect();
    let com_old = w.com;
    let targets = step_targets(w, steps, com_old, travel_yaw, form, air_secs, report);
    let new_com = if steps.len() == 1 {
        let (foot, target) = targets[0];
        target - w.lateral(foot)
    } else {
        let mean = targets.iter().map(|t| t.1).sum::<Vec3>() / targets.len() as f32;
        Vec3::new(mean.x, 0.0, mean.z)
    };
    for (foot, target) in &targets {
        let unchanged =
            w.planted_pos(*foot).is_some_and(|p| p.distance(*target) < SAME_PLACE_M) && !w.in_the_air(*foot, t0);
        if unchanged {
            continue; // a change of level (plié, rise) or a weight transfer in place
        }
        let swing_start = if landing.is_none() { t0 } else { t_touch };
        let contact = step_contacts.iter().find(|c| c.0 == *foot).map_or(contact, |c| c.1);
        w.land_after(*foot, *target, swing_start, t_touch, contact, level == Level::High);
    }
    // One foot travelling: once the new foot has taken the weight (shortly after it lands),
    // the other foot lets go; closing steps in place keep both feet down, unless the body takes
    // off from this one foot right after (a hop or leap): then the other foot is free already.
    let takes_off_after = w.plan.flights.iter().any(|f| (f.t_takeoff_secs - t1).abs() < 1e-6);
    // Held hands on the floor share the weight: the other foot stays down (walking into a plank).
    let hands_bear = (0..2).any(|i| hand_held(w, i, t0));
    if steps.len() == 1
        && landing.is_none()
        && !hands_bear
        && (steps[0].direction != Direction::Place || takes_off_after)
    {
        let other = steps[0].foot.other();
        let release = t_touch + (t1 - t0) * w.opts.release_after_touch_fraction;
        if w.planted.contains_key(&other) {
            w.lift(other, release);
        }
    }
    w.com = new_com;
    // After a flight the centre travelled in the air: it moves from the take-off on.
    let com_from = landing.map(|g| tempo.secs_from_beats(g.start_beats)).unwrap_or(t0);
    w.plan.com_ground.push(Key { t_start_secs: com_from, t_end_secs: key_end_secs(t0, t1), value: new_com });
    w.set_level(level, t0, t1);
    let feet = FootSteps {
        written: [Foot::Left, Foot::Right].map(|f| steps.iter().any(|s| s.foot == f)),
        both_in_place: steps.len() > 1 && steps.iter().all(|s| s.direction == Direction::Place),
        span: Some((t0, t1)),
    };
    floor_group(w, staff, floor_group_entries, feet, report);
}

/// Where each step's foot lands, from the centre `com_old` travelling along `travel_yaw`.
/// When both feet take weight at once, each is placed half a step from the centre, so the feet
/// end one step length apart; a lone closing step lands beside the other foot.
fn step_targets(
    w: &Walker,
    steps: &[Step],
    com_old: Vec3,
    travel_yaw: f32,
    form: Option<JumpForm>,
    air_secs: f64,
    report: &mut Interpretation,
) -> Vec<(Foot, Vec3)> {
    let mut targets: Vec<(Foot, Vec3)> = Vec::new();
    let both_scale = if steps.len() > 1 { 0.5 } else { 1.0 };
    for Step { foot, direction, level, entry: e } in steps {
        let len = both_scale * w.opts.steps.length_m(w.opts.height_m, *direction, *level, form, air_secs, &e.modifiers);
        let d = step_dir_in_body(*direction);
        let v = right_of(travel_yaw) * d.x * len + forward_of(travel_yaw) * d.y * len;
        let target = if *direction == Direction::Place && steps.len() == 1 {
            // Closing: beside the other foot, or under the body when it is in the air.
            match w.planted_pos(foot.other()) {
                Some(other) => other + w.lateral(*foot) * 2.0,
                None => com_old + w.lateral(*foot),
            }
        } else {
            com_old + v + w.lateral(*foot)
        };
        targets.push((*foot, target));
        report.interpreted += 1;
    }
    targets
}
