//! The rule engine: one rule per (symbol kind, body part), turning a composite score into a
//! [`DancerPlan`] per staff: footprints from supports, turns, jumps and holds; limb keys from
//! gestures; a pelvis height track from support levels (labanotation-rules.md §2–§5).
//!
//! Footprints say where and when each foot lands, pivots on the ball or rises; the pelvis level is
//! −0.12 leg lengths in plié and +0.07 in relevé; limb keys come from the 27-entry direction ×
//! level table (`directions`: gravity up, the dancer's own front). Jumps come from the score's
//! flights, turns from the pins in turn signs; holds keep the weight; a heel-or-toe preference
//! (`--toe`) chooses the first contact of a step. Every limb starts in the starting position
//! written below the double bar or, with none, in natural standing (arms by the sides, head and
//! chest upright), and moves only within its symbols' time. Hand and palm columns point the hand
//! and turn the palm (the arm turns about the shoulder → wrist line when the wrist alone cannot); a
//! back-to-normal entry straightens a limb and rights the head and torso.
//!
//! The rules for each part: `limbs` (crossing the body, hands), `segments` (joint pre-signs),
//! `hips` (hip signs), `rotations` (turn signs in body columns), `actions` (action strokes),
//! `hooks` (foot hooks), `paths` (circular paths and front signs), `floor` (supports on other
//! parts); step length in [`crate::motion::steps`].

mod actions;
mod directions;
mod floor;
mod hips;
mod hooks;
mod limbs;
mod paths;
mod rotations;
mod segments;

use super::floor::{FloorPart, FloorState, weight_bearing_part};
use super::plan::*;
use super::steps::StepTable;
use crate::diag::Diagnostic;
use crate::read::{BodyPart, Direction, Level, Side, VolumeSign};
use crate::score::{ChannelKind, Entry, EntryKind, Modifier, Score, Staff, SupportGap};
pub use directions::{gesture_dir_in_body, mirrored_direction, step_dir_in_body};
use glam::Vec3;
pub use hips::HIP_SHIFT_TURN_RAD;
pub use limbs::{ARM_CROSS_BEHIND_MAX_DEG, ARM_CROSS_MAX_DEG, LEG_CROSS_MAX_DEG, cross_in_front, leg_cross};
use limbs::{arm, hand, hands_follow_arms, is_hand_or_palm, leg, palm, start_in_natural_standing};
use paths::{Circle, check_front, circle_turn_for_step, count_circle_steps, path_sign, report_unused_circles};
pub use segments::{MAX_SEGMENT_BEND_RAD, limit_bend};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Knobs of the interpretation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MotionOptions {
    /// Dancer height, metres (step lengths scale with it).
    pub height_m: f32,
    /// Leg length (hip to floor), metres.
    pub leg_length_m: f32,
    /// Half the distance between the feet when standing together, metres.
    pub foot_half_spacing_m: f32,
    /// Step lengths (one table, in one place).
    pub steps: StepTable,
    /// Land steps on the ball of the foot first instead of the heel.
    pub toe_first: bool,
    /// Distance between dancers placed side by side when the score does not place them, metres.
    pub dancer_spacing_m: f32,
    /// Distance between dancers who start in a hold (a contact bow between their staves in the
    /// starting position), metres: close enough for the hands to meet.
    pub hold_spacing_m: f32,
    /// Fraction of a step symbol's duration the swinging foot takes to touch down.
    pub swing_fraction: f64,
    /// Distance from the ankle to the ball of the foot along the foot, metres (pivots turn
    /// about the ball).
    pub ball_forward_m: f32,
    /// Distance from the ankle back to the heel's contact, metres (a standing leg's rotation
    /// turns the foot about the heel).
    pub heel_back_m: f32,
    /// After the stepping foot touches down, the other foot lets go this fraction of the step's
    /// duration later (it cannot stay down while the weight travels a whole step length).
    pub release_after_touch_fraction: f64,
}

impl Default for MotionOptions {
    fn default() -> Self {
        MotionOptions {
            height_m: 1.75,
            leg_length_m: 0.88,
            foot_half_spacing_m: 0.09,
            steps: StepTable::default(),
            toe_first: false,
            dancer_spacing_m: 1.5,
            hold_spacing_m: 0.5,
            swing_fraction: 0.45,
            release_after_touch_fraction: 0.15,
            ball_forward_m: 0.14,
            heel_back_m: 0.05,
        }
    }
}

/// What the engine did with the score.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Interpretation {
    /// Entries turned into motion.
    pub interpreted: usize,
    /// Entries skipped, each with its place in the score.
    pub skipped: Vec<Diagnostic>,
}

fn place(e: &Entry, staff: usize, what: &str) -> String {
    format!(
        "staff {}, measure {}, beat {:.2}, column {}: {what}",
        staff + 1,
        e.measure,
        e.beat_in_measure + 1.0,
        e.column
    )
}

fn side_foot(side: Side) -> Foot {
    match side {
        Side::Left => Foot::Left,
        Side::Right => Foot::Right,
    }
}

pub(super) fn bend_of(modifiers: &[Modifier]) -> f32 {
    let mut bend = 0.0f32;
    for m in modifiers {
        if let Modifier::Volume(v) = m {
            bend = match v {
                VolumeSign::Bent => 90f32.to_radians(),
                VolumeSign::Relaxed => 45f32.to_radians(),
                VolumeSign::Straight | VolumeSign::Stretched => 0.0,
                _ => bend,
            };
        }
    }
    bend
}

/// Interprets every staff of the score.
pub fn plan_score(score: &Score, opts: &MotionOptions) -> (Vec<DancerPlan>, Interpretation) {
    let mut report = Interpretation::default();
    let n = score.staves.len();
    let hold_from_start = score.contacts.iter().any(|c| c.between_dancers() && c.start_beats <= 0.0);
    let spacing = if hold_from_start { opts.hold_spacing_m } else { opts.dancer_spacing_m };
    let plans = score
        .staves
        .iter()
        .enumerate()
        .map(|(i, staff)| {
            // Staves left to right on the page are the dancers from their own left to right (the
            // reader faces where the dancers face): the first staff stands on the dancers' left,
            // +X when they face the audience (+Z).
            let x = ((n as f32 - 1.0) * 0.5 - i as f32) * spacing;
            plan_staff(score, staff, Vec3::new(x, 0.0, 0.0), opts, &mut report)
        })
        .collect();
    // A repeated section reads its symbols again: say each thing about a symbol once.
    let mut seen = BTreeSet::new();
    report.skipped.retain(|d| seen.insert((d.span.offset, d.message.clone())));
    (plans, report)
}

/// Mutable state while walking one staff's supports in time order.
struct Walker<'a> {
    opts: &'a MotionOptions,
    plan: DancerPlan,
    com: Vec3,
    yaw: f32,
    /// Index of the footprint each foot stands on, if planted.
    planted: BTreeMap<Foot, usize>,
    level_offset: f32,
    /// Circular path signs of this staff.
    circles: Vec<Circle<'a>>,
    /// Leg rotations, applied to the supporting feet once the footprints exist.
    swivels: Vec<rotations::LegSwivel>,
    /// Supports on other body parts now (`None`: standing on the feet).
    floor: Option<FloorState>,
    /// Segment gestures (upper/lower arm, thigh, lower leg), put on the tracks in time order
    /// once every channel is read.
    segments: Vec<segments::Pending>,
    /// Hip displacements, put on the pelvis turn track once every channel is read.
    hips: Vec<hips::Shift>,
}

impl Walker<'_> {
    fn lateral(&self, foot: Foot) -> Vec3 {
        right_of(self.yaw) * foot.right_sign() * self.opts.foot_half_spacing_m
    }

    fn lift(&mut self, foot: Foot, t_secs: f64) {
        if let Some(i) = self.planted.remove(&foot)
            && let Some(fp) = self.plan.footprints.get_mut(i)
        {
            fp.t_lift_secs = fp.t_lift_secs.min(t_secs).max(fp.t_land_secs);
        }
    }

    fn land(&mut self, foot: Foot, position: Vec3, t_secs: f64, contact: Contact, releve: bool) {
        self.land_after(foot, position, t_secs, t_secs, contact, releve);
    }

    fn land_after(
        &mut self,
        foot: Foot,
        position: Vec3,
        t_step_start: f64,
        t_secs: f64,
        contact: Contact,
        releve: bool,
    ) {
        self.lift(foot, t_step_start.min(t_secs));
        let fp = Footprint {
            foot,
            position_in_world: Vec3::new(position.x, 0.0, position.z),
            position_end_in_world: Vec3::new(position.x, 0.0, position.z),
            yaw_start_rad: self.yaw,
            yaw_end_rad: self.yaw,
            pivot_secs: None,
            pivot_on_heel: false,
            t_step_start_secs: t_step_start.min(t_secs),
            t_land_secs: t_secs,
            t_lift_secs: f64::INFINITY,
            contact,
            releve,
            releve_ramp_secs: None,
        };
        self.plan.footprints.push(fp);
        self.planted.insert(foot, self.plan.footprints.len() - 1);
    }

    fn planted_pos(&self, foot: Foot) -> Option<Vec3> {
        self.planted.get(&foot).and_then(|i| self.plan.footprints.get(*i)).map(|f| f.position_end_in_world)
    }

    fn set_level(&mut self, level: Level, t0: f64, t1: f64) {
        let offset = match level {
            Level::Low => -0.12 * self.opts.leg_length_m,
            Level::High => 0.07 * self.opts.leg_length_m,
            _ => 0.0,
        };
        if (offset - self.level_offset).abs() > 1e-6 {
            self.plan.pelvis_offset.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0 + 1e-3), value: offset });
            self.level_offset = offset;
        }
        let releve = level == Level::High;
        let planted: Vec<(Foot, usize)> = self.planted.iter().map(|(f, i)| (*f, *i)).collect();
        for (foot, i) in planted {
            let Some(fp) = self.plan.footprints.get(i).cloned() else { continue };
            if fp.releve == releve {
                continue;
            }
            if fp.t_land_secs >= t0 - 1e-9 {
                // Landed with this symbol: it lands at the new level.
                if let Some(f) = self.plan.footprints.get_mut(i) {
                    f.releve = releve;
                }
            } else {
                // Already standing: rise or come down in place, without a new contact.
                let yaw = fp.yaw_end_rad;
                self.land(foot, fp.position_end_in_world, t0, Contact::Flat, releve);
                if let Some(f) = self.plan.footprints.last_mut() {
                    f.yaw_start_rad = yaw;
                    f.yaw_end_rad = yaw;
                    f.releve_ramp_secs = Some((t0, t1.max(t0 + 1e-3)));
                }
            }
        }
    }
}

fn plan_staff<'a>(
    score: &Score,
    staff: &'a Staff,
    origin: Vec3,
    opts: &'a MotionOptions,
    report: &mut Interpretation,
) -> DancerPlan {
    let tempo = score.tempo;
    let end_secs = tempo.secs_from_beats(score.duration_beats);
    let yaw0 = -(staff.start_facing_deg as f32).to_radians();
    let mut w = Walker {
        opts,
        plan: DancerPlan { staff: staff.index, end_secs, ..DancerPlan::default() },
        com: origin,
        yaw: yaw0,
        planted: BTreeMap::new(),
        level_offset: 0.0,
        circles: Vec::new(),
        swivels: Vec::new(),
        floor: None,
        segments: Vec::new(),
        hips: Vec::new(),
    };
    w.plan.yaw.push(Key { t_start_secs: 0.0, t_end_secs: 0.0, value: yaw0 });
    w.plan.pelvis_offset.push(Key { t_start_secs: 0.0, t_end_secs: 0.0, value: 0.0 });

    // Starting position: supports, then gestures at time 0.
    let mut start_feet: Vec<(Foot, Level)> = Vec::new();
    let mut start_floor: Vec<(FloorPart, &Entry)> = Vec::new();
    for (kind, e) in &staff.start_position {
        let floor_part = match kind {
            ChannelKind::Part(p) => weight_bearing_part(*p, e),
            _ => None,
        };
        match (kind, &e.kind, floor_part) {
            (ChannelKind::Support(side), EntryKind::Direction { level, .. }, _) => {
                start_feet.push((side_foot(*side), *level))
            }
            (_, EntryKind::Direction { level, .. }, Some(FloorPart::Foot(side))) => {
                start_feet.push((side_foot(side), *level))
            }
            (_, _, Some(part)) => start_floor.push((part, e)),
            (_, EntryKind::Front { .. }, _) => report.interpreted += 1,
            _ => gesture(&mut w, staff.index, *kind, e, 0.0, 0.0, report),
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
    floor::floor_group(&mut w, staff.index, &start_floor, [false; 2], None, report);

    // Events in time order: supports grouped by start, gestures, flights.
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
                        Some(part) => floor_supports.push((part, e)),
                        None => {
                            let (t0, t1) = (e.start_secs, e.start_secs + e.duration_secs);
                            gesture(&mut w, staff.index, ch.kind, e, t0, t1, report);
                        }
                    }
                }
            }
            // Front signs are checked once the turns are known; path signs shape the steps.
            ChannelKind::Front => fronts.extend(ch.entries.iter()),
            ChannelKind::Path => {
                for e in &ch.entries {
                    path_sign(&mut w, staff.index, e, report);
                }
            }
            kind => {
                for e in &ch.entries {
                    let (t0, t1) = (e.start_secs, e.start_secs + e.duration_secs);
                    gesture(&mut w, staff.index, kind, e, t0, t1, report);
                }
            }
        }
    }
    // Leg segments wait for the footprints (a step in between lets the thigh hang again).
    let (leg_segments, arm_segments): (Vec<_>, Vec<_>) =
        std::mem::take(&mut w.segments).into_iter().partition(|p| matches!(p.limb, LimbId::LegLeft | LimbId::LegRight));
    segments::resolve(&mut w.plan.limbs, arm_segments, |_, _, _| false);
    hips::resolve(&mut w);
    hands_follow_arms(&mut w.plan);
    start_in_natural_standing(&mut w.plan);
    supports.sort_by(|a, b| a.1.start_beats.total_cmp(&b.1.start_beats).then(a.0.cmp(&b.0)));
    count_circle_steps(&mut w.circles, &supports, &fronts);
    let flights: Vec<&SupportGap> = staff.gaps.iter().collect();
    for g in &flights {
        w.plan.flights.push(Flight {
            t_takeoff_secs: tempo.secs_from_beats(g.start_beats),
            t_land_secs: tempo.secs_from_beats(g.end_beats),
            form: g.form,
        });
    }

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
        support_group(&mut w, staff.index, &group, &floor_group, landing, tempo, report);
    }
    report_unused_circles(&w.circles, staff.index, report);
    for e in fronts {
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
    start_in_natural_standing(&mut w.plan);
    // A leg gesture takes the weight off that leg (T8).
    for (limb, foot) in [(LimbId::LegLeft, Foot::Left), (LimbId::LegRight, Foot::Right)] {
        for &(g0, _) in w.plan.leg_gestures.get(&limb).map(|v| v.as_slice()).unwrap_or(&[]) {
            for fp in w.plan.footprints.iter_mut().filter(|f| f.foot == foot) {
                if fp.t_land_secs < g0 && fp.t_lift_secs > g0 {
                    fp.t_lift_secs = g0;
                }
            }
        }
    }
    for fp in &mut w.plan.footprints {
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
    w.plan
}

/// The somersault and cartwheel signs of LED's rotation menu (`Rotn 3`–`6`), named as the
/// Laban-tk LED glyph table names them (`docs/lbnfileformat.md`: somersaulting forward and
/// backward, cartwheeling left and right). In a support column they turn the whole body over.
fn whole_body_rotation(code: &str) -> Option<&'static str> {
    Some(match code {
        "Rotn 3" => "somersault forward",
        "Rotn 4" => "somersault backward",
        "Rotn 5" => "cartwheel to the left",
        "Rotn 6" => "cartwheel to the right",
        _ => return None,
    })
}

/// Steps, turns and holds that start together.
fn support_group(
    w: &mut Walker,
    staff: usize,
    group: &[(Side, &Entry)],
    floor_group: &[(FloorPart, &Entry)],
    landing: Option<&SupportGap>,
    tempo: crate::score::TempoMap,
    report: &mut Interpretation,
) {
    let steps: Vec<(Foot, Direction, Level, &Entry)> = group
        .iter()
        .filter_map(|(side, e)| match e.kind {
            EntryKind::Direction { direction, level } => Some((side_foot(*side), direction, level, *e)),
            _ => None,
        })
        .collect();
    for (side, e) in group {
        if !matches!(e.kind, EntryKind::Direction { .. }) {
            hooks::warn_stray(e, staff, report);
        }
        match &e.kind {
            EntryKind::Turn { clockwise, amount_deg, both_feet } => {
                let (t0, t1) = (e.start_secs, e.start_secs + e.duration_secs);
                let (Some(cw), Some(amount)) = (clockwise, amount_deg) else {
                    let what = match whole_body_rotation(&e.code) {
                        Some(name) => {
                            format!("{name} sign (`{}`): rolls over the floor are not animated; no turn", e.code)
                        }
                        None => "turn without a known sense or amount; no turn".to_string(),
                    };
                    report.skipped.push(Diagnostic::warning(e.span, place(e, staff, &what)));
                    continue;
                };
                let delta = (*amount as f32).to_radians() * if *cw { -1.0 } else { 1.0 };
                let pivot_feet: Vec<Foot> =
                    if *both_feet { vec![Foot::Left, Foot::Right] } else { vec![side_foot(*side)] };
                for foot in [Foot::Left, Foot::Right] {
                    if !pivot_feet.contains(&foot) && steps.iter().all(|s| s.0 != foot) {
                        w.lift(foot, t0);
                    }
                }
                let ball_fwd = w.opts.ball_forward_m;
                let yaw_before = w.yaw;
                for foot in &pivot_feet {
                    let pos = w.planted_pos(*foot).unwrap_or(w.com + w.lateral(*foot));
                    let releve = w.planted.get(foot).and_then(|i| w.plan.footprints.get(*i)).is_some_and(|f| f.releve);
                    w.land(*foot, pos, t0, Contact::Ball, releve);
                    // The ankle swings round the ball of the foot.
                    let ball = pos + forward_of(yaw_before) * ball_fwd;
                    let end = ball - forward_of(yaw_before + delta) * ball_fwd;
                    if let Some(fp) = w.plan.footprints.last_mut() {
                        fp.yaw_end_rad = fp.yaw_start_rad + delta;
                        fp.pivot_secs = Some((t0, t1));
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
                w.plan.yaw.push(Key { t_start_secs: t0, t_end_secs: t1, value: w.yaw });
                w.plan.still_intervals.push((t0, t1));
                w.plan.com_ground.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0 + 1e-3), value: w.com });
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
    if steps.is_empty() {
        floor::floor_group(w, staff, floor_group, [false; 2], None, report);
        return;
    }
    let t0 = steps.iter().map(|s| s.3.start_secs).fold(f64::INFINITY, f64::min);
    let t1 = steps.iter().map(|s| s.3.start_secs + s.3.duration_secs).fold(0.0, f64::max);
    // On a circular path each step turns the facing by its share of the circle and travels
    // along the chord, so the steps trace a regular polygon round the centre.
    let mut travel_yaw = w.yaw;
    if let Some(delta) = circle_turn_for_step(w, staff, t0, report) {
        travel_yaw = w.yaw + 0.5 * delta;
        w.yaw += delta;
        w.plan.yaw.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0 + 1e-3), value: w.yaw });
    }
    let air_secs = landing.map(|g| tempo.secs_from_beats(g.end_beats - g.start_beats)).unwrap_or(0.0);
    let form = landing.and_then(|g| g.form);
    let level = steps[0].2;
    let t_touch = if landing.is_some() { t0 } else { t0 + (t1 - t0) * w.opts.swing_fraction };
    let contact = match (landing.is_some(), level, w.opts.toe_first) {
        (true, _, _) | (_, Level::High, _) | (_, _, true) => Contact::Ball,
        (_, Level::Low, _) => Contact::Flat,
        _ => Contact::Heel,
    };
    // A whole-foot hook lands that step flat.
    let step_contacts: Vec<(Foot, Contact)> =
        steps.iter().map(|(foot, _, _, e)| (*foot, hooks::step_contact(e, staff, contact, report))).collect();
    let mut targets: Vec<(Foot, Vec3)> = Vec::new();
    let com_old = w.com;
    // When both feet take weight at once, each is placed half a step from the centre, so the
    // feet end one step length apart.
    let both_scale = if steps.len() > 1 { 0.5 } else { 1.0 };
    for (foot, direction, level, e) in &steps {
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
    let new_com = if steps.len() == 1 {
        let (foot, target) = targets[0];
        target - w.lateral(foot)
    } else {
        let mean = targets.iter().map(|t| t.1).sum::<Vec3>() / targets.len() as f32;
        Vec3::new(mean.x, 0.0, mean.z)
    };
    for (foot, target) in &targets {
        let unchanged = w.planted_pos(*foot).is_some_and(|p| p.distance(*target) < 0.02);
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
    if steps.len() == 1 && landing.is_none() && (steps[0].1 != Direction::Place || takes_off_after) {
        let other = steps[0].0.other();
        let release = t_touch + (t1 - t0) * w.opts.release_after_touch_fraction;
        if w.planted.contains_key(&other) {
            w.lift(other, release);
        }
    }
    w.com = new_com;
    // After a flight the centre travelled in the air: it moves from the take-off on.
    let com_from = landing.map(|g| tempo.secs_from_beats(g.start_beats)).unwrap_or(t0);
    w.plan.com_ground.push(Key { t_start_secs: com_from, t_end_secs: t1.max(t0 + 1e-3), value: new_com });
    w.set_level(level, t0, t1);
    let feet_written = [Foot::Left, Foot::Right].map(|f| steps.iter().any(|s| s.0 == f));
    floor::floor_group(w, staff, floor_group, feet_written, Some((t0, t1)), report);
}

/// Gesture rules: arms, legs, head, chest, from their channels.
fn gesture(w: &mut Walker, staff: usize, kind: ChannelKind, e: &Entry, t0: f64, t1: f64, report: &mut Interpretation) {
    if let Some(part) = rotations::handles(kind, e) {
        rotations::rotation(w, staff, part, e, t0, t1, report);
        return;
    }
    let (limb, part) = match kind {
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
        ChannelKind::Part(BodyPart::Hip(s)) => return hips::hip_sign(w, staff, s, e, t0, t1, report),
        ChannelKind::Part(BodyPart::Knee(s)) => (leg(s), Part::Upper),
        ChannelKind::Part(BodyPart::Ankle(s)) => (leg(s), Part::Lower),
        ChannelKind::Part(BodyPart::Leg(s)) => (leg(s), Part::Whole),
        ChannelKind::Part(BodyPart::Hand(s)) => (hand(s), Part::Whole),
        // The palm pre-sign has no side: the column's side of the staff gives it.
        ChannelKind::Part(BodyPart::Palm) => (palm(if e.column < 0 { Side::Left } else { Side::Right }), Part::Whole),
        ChannelKind::Front => {
            check_front(w, staff, e, report);
            return;
        }
        ChannelKind::Path => {
            report
                .skipped
                .push(Diagnostic::warning(e.span, place(e, staff, "path sign in the starting position ignored")));
            return;
        }
        ChannelKind::BodyTurn => {
            if let EntryKind::Turn { clockwise: Some(cw), amount_deg: Some(a), .. } = e.kind {
                let delta = (a as f32).to_radians() * if cw { -1.0 } else { 1.0 };
                w.yaw += delta;
                w.plan.yaw.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0 + 1e-3), value: w.yaw });
                report.interpreted += 1;
            }
            return;
        }
        ChannelKind::Part(p) => {
            report.skipped.push(Diagnostic::warning(
                e.span,
                place(e, staff, &format!("column for {} not animated yet", crate::score::part_name(&p))),
            ));
            return;
        }
        ChannelKind::Support(_) => return,
    };
    if !matches!(e.kind, EntryKind::Direction { .. }) {
        hooks::warn_stray(e, staff, report);
    }
    match &e.kind {
        EntryKind::Direction { direction, level } => {
            let is_leg = matches!(limb, LimbId::LegLeft | LimbId::LegRight);
            let tap = is_leg && matches!(part, Part::Whole) && hooks::hook_of(e).is_some();
            if !tap {
                hooks::warn_stray(e, staff, report);
            }
            let mut dir = gesture_dir_in_body(*direction, *level);
            if matches!(part, Part::Whole | Part::Upper) && matches!(limb, LimbId::ArmLeft | LimbId::ArmRight) {
                dir = cross_in_front(dir, limb == LimbId::ArmRight);
            }
            if matches!(part, Part::Whole | Part::Upper) && is_leg {
                dir = leg_cross(dir, limb == LimbId::LegRight);
            }
            let bend = bend_of(&e.modifiers);
            match part {
                Part::Whole => {
                    let value = LimbTarget {
                        dir_in_body: dir,
                        bend_rad: bend,
                        upper_dir_in_body: None,
                        lower_dir_in_body: None,
                    };
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

#[derive(Clone, Copy)]
enum Part {
    Whole,
    Upper,
    Lower,
}
