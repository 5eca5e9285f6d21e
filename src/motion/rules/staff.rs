//! One staff → one [`DancerPlan`], in steps: the starting position, the channels read (gestures
//! and path signs at once, supports collected), the arm segments and hips resolved, the flights,
//! the support groups walked in time order, then the checks and the leg segments that need the
//! footprints (leg gestures in a flight arriving by its apex), and the footprints' open ends
//! closed.

use super::floor::{FootSteps, floor_group};
use super::gestures::{gesture, leg_gestures_shape_the_flights};
use super::limbs::{hands_follow_arms, start_in_natural_standing};
use super::paths::{check_front, count_circle_steps, path_sign, report_unused_circles};
use super::supports::support_group;
use super::{Interpretation, MotionOptions, Walker, hips, rotations, segments};
use crate::motion::floor::{FloorPart, weight_bearing_part};
use crate::motion::plan::{Contact, DancerPlan, Flight, Foot, Footprint, Key, LimbId};
use crate::read::{Level, Side};
use crate::score::{ChannelKind, Entry, EntryKind, Score, Staff, SupportGap, TempoMap};
use glam::Vec3;

/// The staff's events that wait for the support walk, as read from its channels.
struct Events<'s> {
    /// Foot supports (support columns, and feet named by a pre-sign), sorted by start.
    supports: Vec<(Side, &'s Entry)>,
    /// Supports on other body parts.
    floor_supports: Vec<(FloorPart, &'s Entry)>,
    /// Front signs, checked once the turns are known.
    fronts: Vec<&'s Entry>,
}

/// Plans one staff's dancer, standing at `origin` before the music starts.
pub(super) fn plan_staff<'a>(
    score: &Score,
    staff: &'a Staff,
    origin: Vec3,
    opts: &'a MotionOptions,
    report: &mut Interpretation,
) -> DancerPlan {
    let tempo = score.tempo;
    let end_secs = tempo.secs_from_beats(score.duration_beats);
    let mut w = Walker::new(staff, origin, opts, end_secs);
    start_position(&mut w, staff, report);
    let mut events = read_channels(&mut w, staff, report);
    // Leg segments wait for the footprints (a step in between lets the thigh hang again).
    let (leg_segments, arm_segments): (Vec<_>, Vec<_>) =
        std::mem::take(&mut w.segments).into_iter().partition(|p| matches!(p.limb, LimbId::LegLeft | LimbId::LegRight));
    segments::resolve(&mut w.plan.limbs, arm_segments, |_, _, _| false);
    hips::resolve(&mut w);
    hands_follow_arms(&mut w.plan);
    start_in_natural_standing(&mut w.plan);
    events.supports.sort_by(|a, b| a.1.start_beats.total_cmp(&b.1.start_beats).then(a.0.cmp(&b.0)));
    count_circle_steps(&mut w.circles, &events.supports, &events.fronts);
    let flights: Vec<&SupportGap> = staff.gaps.iter().collect();
    for g in &flights {
        w.plan.flights.push(Flight {
            t_takeoff_secs: tempo.secs_from_beats(g.start_beats),
            t_land_secs: tempo.secs_from_beats(g.end_beats),
            form: g.form,
        });
    }
    walk_supports(&mut w, staff.index, &mut events, &flights, tempo, report);
    report_unused_circles(&w.circles, staff.index, report);
    for e in events.fronts {
        check_front(&w, staff.index, e, report);
    }
    rotations::swivel_supporting_feet(&mut w, report);
    let leg_segments = segments::drop_supporting(&mut w.plan, leg_segments, report);
    let footprints = &w.plan.footprints;
    let landed_between = |limb: LimbId, a: f64, b: f64| {
        let foot = if limb == LimbId::LegLeft { Foot::Left } else { Foot::Right };
        footprints.iter().any(|f| f.foot == foot && f.t_land_secs >= a - 1e-9 && f.t_land_secs <= b + 1e-9)
    };
    segments::resolve(&mut w.plan.limbs, leg_segments, landed_between);
    leg_gestures_shape_the_flights(&mut w.plan);
    start_in_natural_standing(&mut w.plan);
    leg_gestures_take_the_weight(&mut w.plan);
    close_footprints(&mut w.plan, end_secs);
    w.plan
}

/// The starting position: supports (feet planted, the level set), supports on other parts, and
/// gestures at time 0.
fn start_position<'a>(w: &mut Walker<'a>, staff: &'a Staff, report: &mut Interpretation) {
    let mut start_feet: Vec<(Foot, Level)> = Vec::new();
    let mut start_floor: Vec<(FloorPart, &Entry)> = Vec::new();
    for (kind, e) in &staff.start_position {
        let floor_part = match kind {
            ChannelKind::Part(p) => weight_bearing_part(*p, e),
            _ => None,
        };
        match (kind, &e.kind, floor_part) {
            (ChannelKind::Support(side), EntryKind::Direction { level, .. }, _) => start_feet.push((*side, *level)),
            (_, EntryKind::Direction { level, .. }, Some(FloorPart::Foot(side))) => start_feet.push((side, *level)),
            (_, _, Some(part)) => start_floor.push((part, e)),
            (_, EntryKind::Front { .. }, _) => report.interpreted += 1,
            _ => gesture(w, staff.index, *kind, e, 0.0, 0.0, report),
        }
    }
    let stand_level = start_feet.first().map(|f| f.1).unwrap_or(Level::Middle);
    let feet: Vec<Foot> =
        if start_feet.is_empty() { vec![Foot::Left, Foot::Right] } else { start_feet.iter().map(|f| f.0).collect() };
    for foot in [Foot::Left, Foot::Right] {
        if feet.contains(&foot) {
            let p = w.com + w.lateral(foot);
            w.land(foot, p, f64::NEG_INFINITY, Contact::Flat, stand_level == Level::High);
        }
    }
    report.interpreted += start_feet.len();
    w.set_level(stand_level, 0.0, 0.0);
    w.plan.com_ground.push(Key { t_start_secs: 0.0, t_end_secs: 0.0, value: w.com });
    floor_group(w, staff.index, &start_floor, FootSteps::default(), report);
}

/// Reads every channel: gestures and path signs go on the plan now; supports, floor supports and
/// front signs are collected for the support walk.
fn read_channels<'a>(w: &mut Walker<'a>, staff: &'a Staff, report: &mut Interpretation) -> Events<'a> {
    let mut supports: Vec<(Side, &Entry)> = Vec::new();
    let mut floor_supports: Vec<(FloorPart, &Entry)> = Vec::new();
    let mut fronts: Vec<&Entry> = Vec::new();
    for ch in &staff.channels {
        match ch.kind {
            ChannelKind::Support(side) => supports.extend(ch.entries.iter().map(|e| (side, e))),
            // Supports on other body parts (and feet named by a pre-sign).
            ChannelKind::Part(p) if ch.entries.iter().any(|e| weight_bearing_part(p, e).is_some()) => {
                for e in &ch.entries {
                    match weight_bearing_part(p, e) {
                        Some(FloorPart::Foot(side)) => supports.push((side, e)),
                        Some(part) => {
                            if let (FloorPart::Hand(side), EntryKind::Hold) = (part, &e.kind) {
                                w.hand_holds.push((side.index(), e.start_secs));
                            }
                            floor_supports.push((part, e));
                        }
                        None => {
                            let (t0, t1) = (e.start_secs, e.start_secs + e.duration_secs);
                            gesture(w, staff.index, ch.kind, e, t0, t1, report);
                        }
                    }
                }
            }
            // Front signs are checked once the turns are known; path signs shape the steps.
            ChannelKind::Front => fronts.extend(ch.entries.iter()),
            ChannelKind::Path => {
                for e in &ch.entries {
                    path_sign(w, staff.index, e, report);
                }
            }
            kind => {
                for e in &ch.entries {
                    let (t0, t1) = (e.start_secs, e.start_secs + e.duration_secs);
                    if let (ChannelKind::LegGesture(side), EntryKind::Hold) = (kind, &e.kind) {
                        w.leg_holds.push((side, t0));
                    }
                    gesture(w, staff.index, kind, e, t0, t1, report);
                }
            }
        }
    }
    Events { supports, floor_supports, fronts }
}

/// Walks the supports in time order, grouped by start (feet and other parts together); before
/// each group every take-off up to it lifts the planted feet.
fn walk_supports(
    w: &mut Walker,
    staff: usize,
    events: &mut Events,
    flights: &[&SupportGap],
    tempo: TempoMap,
    report: &mut Interpretation,
) {
    let (supports, floor_supports) = (&events.supports, &mut events.floor_supports);
    let takeoffs_secs: Vec<f64> = w.plan.flights.iter().map(|f| f.t_takeoff_secs).collect();
    let mut next_flight = 0usize;
    let mut i = 0;
    floor_supports.sort_by(|a, b| a.1.start_beats.total_cmp(&b.1.start_beats).then(a.0.cmp(&b.0)));
    let mut fi = 0;
    loop {
        let start = supports
            .get(i)
            .map(|s| s.1.start_beats)
            .unwrap_or(f64::INFINITY)
            .min(floor_supports.get(fi).map(|s| s.1.start_beats).unwrap_or(f64::INFINITY));
        let t0 = if start.is_finite() { tempo.secs_from_beats(start) } else { f64::INFINITY };
        // Take-offs up to this group: every planted foot leaves the floor.
        while let Some(&takeoff) = takeoffs_secs.get(next_flight).filter(|t| **t <= t0 + 1e-9) {
            for foot in [Foot::Left, Foot::Right] {
                let landed_before = w
                    .planted
                    .get(&foot)
                    .and_then(|i| w.plan.footprints.get(*i))
                    .is_some_and(|fp| fp.t_land_secs < takeoff);
                if landed_before {
                    w.lift(foot, takeoff);
                }
            }
            next_flight += 1;
        }
        if i == supports.len() && fi == floor_supports.len() {
            break;
        }
        let mut group: Vec<(Side, &Entry)> = Vec::new();
        while i < supports.len() && (supports[i].1.start_beats - start).abs() < 1e-6 {
            group.push(supports[i]);
            i += 1;
        }
        let mut floor_group: Vec<(FloorPart, &Entry)> = Vec::new();
        while fi < floor_supports.len() && (floor_supports[fi].1.start_beats - start).abs() < 1e-6 {
            floor_group.push(floor_supports[fi]);
            fi += 1;
        }
        let landing = flights.iter().find(|g| (g.end_beats - start).abs() < 1e-6).copied();
        support_group(w, staff, &group, &floor_group, landing, tempo, report);
    }
}

/// A leg gesture takes the weight off that leg (T8): a foot standing when the gesture starts
/// lifts then. Outside a flight the last foot on the floor keeps the weight (a body leaves the
/// floor only in a flight, [`crate::score::gaps`]): a gesture of that leg is not animated.
fn leg_gestures_take_the_weight(plan: &mut DancerPlan) {
    let mut gestures: Vec<(f64, LimbId, Foot)> = Vec::new();
    for (limb, foot) in [(LimbId::LegLeft, Foot::Left), (LimbId::LegRight, Foot::Right)] {
        let starts = plan.leg_gestures.get(&limb).map(|v| v.as_slice()).unwrap_or(&[]);
        gestures.extend(starts.iter().map(|g| (g.0, limb, foot)));
    }
    gestures.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
    let on_floor_otherwise = !plan.floor.keys.is_empty();
    for (g0, limb, foot) in gestures {
        let standing = |fp: &Footprint| fp.t_land_secs < g0 && fp.t_lift_secs > g0;
        let Some(i) = plan.footprints.iter().position(|f| f.foot == foot && standing(f)) else { continue };
        // The other foot stands, or is stepping to take the weight.
        let other_down = plan
            .footprints
            .iter()
            .any(|f| f.foot != foot && f.t_step_start_secs.min(f.t_land_secs) <= g0 && f.t_lift_secs > g0);
        let flying = plan.flights.iter().any(|f| g0 >= f.t_takeoff_secs - 1e-9 && g0 < f.t_land_secs);
        if other_down || flying || on_floor_otherwise {
            plan.footprints[i].t_lift_secs = g0;
        } else {
            if let Some(g) = plan.leg_gestures.get_mut(&limb) {
                g.retain(|(t, _)| (t - g0).abs() > 1e-9);
            }
            if let Some(track) = plan.limbs.get_mut(&limb) {
                track.keys.retain(|k| (k.t_start_secs - g0).abs() > 1e-9);
            }
        }
    }
}

/// Footprints still open at the end are lifted at `end_secs`; those of the starting position
/// land (and start their step) at time 0.
fn close_footprints(plan: &mut DancerPlan, end_secs: f64) {
    for fp in &mut plan.footprints {
        if fp.t_lift_secs.is_infinite() {
            fp.t_lift_secs = end_secs.max(fp.t_land_secs);
        }
        if fp.t_land_secs.is_infinite() {
            fp.t_land_secs = 0.0;
        }
        if fp.t_step_start_secs.is_infinite() {
            fp.t_step_start_secs = fp.t_land_secs;
        }
    }
}
