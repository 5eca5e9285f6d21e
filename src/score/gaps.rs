//! Gaps in the support columns: when both feet are off the floor, and which jump it is.
//!
//! Supports are the step, turn and hold signs of the two support columns; a hold keeps the weight
//! until the next support sign, the starting position's supports hold until the first sign in a
//! support column, and the last support holds to the end of the score. A gap is a time when no
//! support column holds weight: a jump leaves both columns blank, while between the steps of a
//! walk the feet overlap and a blank column beside a support is a free leg, not a flight.
//!
//! A gap is a flight only when a body could be in the air that long: at most [`FLIGHT_MAX_SECS`]
//! (0.8 s) at the score's tempo. A longer gap keeps the weight where it was (standing), with a
//! warning at the gap's place; a gap shorter than the tolerance (⅛ beat) is hand-placement slop
//! (labanotation-rules §3, §4.5). Leg gestures in such a gap say which leg stands: one leg
//! gesturing stands on the other, and once both legs gesture the body is in the air, a flight
//! from the second leg's gesture to the landing when that is short enough (a pas de chat).
//!
//! A flight's form follows from the feet it leaves and lands on: both to both is a jump, both to
//! one a sissonne, one to both an assemblé, one foot to the same foot a hop, to the other a leap.

use super::types::{Channel, ChannelKind, Entry, EntryKind, Feet, JumpForm, Score, SupportGap};
use crate::diag::{Diagnostic, Span};
use crate::read::{BodyPart, Side};

/// The longest a body stays in the air, seconds: a gap in the support columns longer than this is
/// read as standing. A vertical jump of 0.8 s rises 78 cm, about what the best jumpers reach.
pub const FLIGHT_MAX_SECS: f64 = 0.8;

/// Which gaps count: shorter ones are slop, longer ones standing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GapLimits {
    /// A gap this short or shorter is not a flight (the feet touch), beats.
    pub tolerance_beats: f64,
    /// A gap longer than this is standing, not a flight, beats.
    pub max_flight_beats: f64,
}

/// A gap in the support columns too long to be a flight: the weight stays where it was.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StandingGap {
    /// Start of the gap, beats.
    pub start_beats: f64,
    /// End of the gap (the next support sign), beats.
    pub end_beats: f64,
    /// The support sign that ends the gap.
    pub span: Span,
}

/// One staff's gaps: the flights, and the gaps read as standing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StaffGaps {
    /// Flights, in time order.
    pub flights: Vec<SupportGap>,
    /// Gaps too long to be flights, in time order.
    pub standing: Vec<StandingGap>,
}

/// True when a body-part pre-sign in staff column `column` makes that part bear weight: inside
/// the support columns (±1) knees, hips/pelvis, chest/torso, feet and toes; hands in the
/// leg-gesture columns (±2), beside the knees or feet they join (a hand sign in a support column
/// stays a hand gesture). The chest or torso bears weight only at low level (lying; above it a
/// chest sign there is read as before, a tilt). Such supports are not flights.
pub fn part_bears_weight(part: BodyPart, e: &Entry) -> bool {
    if matches!(part, BodyPart::Chest | BodyPart::Torso)
        && matches!(e.kind, EntryKind::Direction { level, .. } if level != crate::read::Level::Low)
    {
        return false;
    }
    matches!(
        (part, e.column.abs()),
        (BodyPart::Hand(_), 2)
            | (
                BodyPart::Knee(_)
                    | BodyPart::Hip(_)
                    | BodyPart::Pelvis
                    | BodyPart::Chest
                    | BodyPart::Torso
                    | BodyPart::Foot(_)
                    | BodyPart::Toe(_),
                0 | 1,
            )
    )
}

/// The support column side of `kind` for `e`: the support columns themselves, and columns
/// claimed by a weight-bearing body part.
fn support_side(kind: ChannelKind, e: &Entry) -> Option<Side> {
    match kind {
        ChannelKind::Support(side) => Some(side),
        ChannelKind::Part(part) if part_bears_weight(part, e) => {
            Some(if e.column < 0 { Side::Left } else { Side::Right })
        }
        _ => None,
    }
}

#[derive(Clone, Copy, Debug)]
struct Interval {
    start: f64,
    end: f64,
    left: bool,
    right: bool,
    /// A support of the starting position.
    starting: bool,
    /// A hold sign.
    hold: bool,
    /// The sign.
    span: Span,
}

/// The support intervals of one staff, sorted by start. Holds keep the weight until the next
/// support sign starts; the last support holds to `end_beats`.
fn support_intervals(channels: &[Channel], start_position: &[(ChannelKind, Entry)], end_beats: f64) -> Vec<Interval> {
    let mut out: Vec<(Interval, bool)> = Vec::new();
    for (kind, e) in start_position {
        if let Some(side) = support_side(*kind, e)
            && matches!(e.kind, EntryKind::Direction { .. } | EntryKind::Hold)
        {
            let (left, right) = (side == Side::Left, side == Side::Right);
            let iv = Interval { start: 0.0, end: 0.0, left, right, starting: true, hold: false, span: e.span };
            out.push((iv, false));
        }
    }
    for ch in channels {
        for e in &ch.entries {
            let Some(side) = support_side(ch.kind, e) else { continue };
            let (left, right, hold) = match &e.kind {
                EntryKind::Direction { .. } => (side == Side::Left, side == Side::Right, false),
                EntryKind::Turn { both_feet, .. } => {
                    (side == Side::Left || *both_feet, side == Side::Right || *both_feet, false)
                }
                EntryKind::Hold => (side == Side::Left, side == Side::Right, true),
                _ => continue,
            };
            let (start, end, span) = (e.start_beats, e.end_beats(), e.span);
            out.push((Interval { start, end, left, right, starting: false, hold, span }, hold));
        }
    }
    out.sort_by(|a, b| a.0.start.total_cmp(&b.0.start));
    // A hold keeps the weight until the next support sign starts.
    let starts: Vec<f64> = out.iter().map(|(i, _)| i.start).collect();
    for (idx, (iv, hold)) in out.iter_mut().enumerate() {
        if *hold {
            let next = starts.iter().skip(idx + 1).copied().find(|s| *s > iv.start + 1e-9).unwrap_or(end_beats);
            iv.end = iv.end.max(next);
        }
    }
    // The end of the score holds the last support.
    if let Some(last_end) = out.iter().map(|(i, _)| i.end).reduce(f64::max) {
        for (iv, _) in out.iter_mut() {
            if (iv.end - last_end).abs() < 1e-9 {
                iv.end = iv.end.max(end_beats);
            }
        }
    }
    out.into_iter().map(|(i, _)| i).collect()
}

fn feet_of(left: bool, right: bool) -> Option<Feet> {
    match (left, right) {
        (true, true) => Some(Feet::Both),
        (true, false) => Some(Feet::Left),
        (false, true) => Some(Feet::Right),
        (false, false) => None,
    }
}

/// The jump form from take-off and landing feet (labanotation-rules §4.5).
pub fn classify(takeoff: Feet, landing: Feet) -> JumpForm {
    match (takeoff, landing) {
        (Feet::Both, Feet::Both) => JumpForm::Jump,
        (Feet::Both, _) => JumpForm::Sissonne,
        (_, Feet::Both) => JumpForm::Assemble,
        (a, b) if a == b => JumpForm::Hop,
        _ => JumpForm::Leap,
    }
}

/// Finds the gaps of one staff: the flights, and the gaps too long for one. The starting
/// position's supports hold until the first support sign: a gap after them is never a flight;
/// nor is a gap that ends in hold signs only (a hold keeps the weight, it cannot land a jump).
pub fn find_gaps(
    channels: &[Channel],
    start_position: &[(ChannelKind, Entry)],
    limits: GapLimits,
    end_beats: f64,
) -> StaffGaps {
    let intervals = support_intervals(channels, start_position, end_beats);
    let mut gaps = StaffGaps::default();
    let Some(first) = intervals.first() else { return gaps };
    let tolerance = limits.tolerance_beats;
    let mut covered_until = first.end;
    let mut in_starting_position = first.starting;
    for iv in intervals.iter().skip(1) {
        let (gap_start, gap_end) = (covered_until, iv.start);
        let lands_on_holds = || intervals.iter().filter(|i| (i.start - gap_end).abs() < 1e-9).all(|i| i.hold);
        let near = |t: f64, x: f64| (t - x).abs() <= tolerance;
        let landing = || {
            let on: Vec<&Interval> =
                intervals.iter().filter(|i| i.start >= gap_end - 1e-9 && near(i.start, gap_end)).collect();
            feet_of(on.iter().any(|i| i.left), on.iter().any(|i| i.right))
        };
        let flight = |start_beats: f64, takeoff: Option<Feet>, landing: Option<Feet>| {
            let form = match (takeoff, landing) {
                (Some(a), Some(b)) => Some(classify(a, b)),
                _ => None,
            };
            SupportGap { start_beats, end_beats: gap_end, takeoff, landing, form }
        };
        let too_long = gap_end - gap_start > limits.max_flight_beats;
        let legs_up = both_legs_gesture(channels, gap_start, gap_end, tolerance)
            .filter(|(t, _)| gap_end - t > tolerance && gap_end - t <= limits.max_flight_beats);
        if gap_end - gap_start <= tolerance || lands_on_holds() {
            // Touching supports, or held.
        } else if let Some((t_off, last_foot)) = legs_up.filter(|_| too_long || in_starting_position) {
            // Standing on one leg while the other gestures, then off the floor once both do.
            gaps.flights.push(flight(t_off, Some(last_foot), landing()));
        } else if too_long {
            gaps.standing.push(StandingGap { start_beats: gap_start, end_beats: gap_end, span: iv.span });
        } else if !in_starting_position {
            let off: Vec<&Interval> =
                intervals.iter().filter(|i| i.end <= gap_start + 1e-9 && near(i.end, gap_start)).collect();
            let takeoff = feet_of(off.iter().any(|i| i.left), off.iter().any(|i| i.right));
            gaps.flights.push(flight(gap_start, takeoff, landing()));
        }
        covered_until = covered_until.max(iv.end);
        in_starting_position &= iv.starting;
    }
    gaps
}

/// When both legs gesture in the support gap `gap_start..gap_end` (each leg's first gesture
/// starting in it), the time the second leg leaves the floor and that leg's foot: the body stands
/// on one leg while the other gestures, and is in the air once both do (a pas de chat).
fn both_legs_gesture(channels: &[Channel], gap_start: f64, gap_end: f64, tolerance: f64) -> Option<(f64, Feet)> {
    let first_gesture = |side: Side| {
        channels
            .iter()
            .filter(|ch| ch.kind == ChannelKind::LegGesture(side))
            .flat_map(|ch| ch.entries.iter())
            .filter(|e| matches!(e.kind, EntryKind::Direction { .. }))
            .map(|e| e.start_beats)
            .filter(|t| *t >= gap_start - tolerance && *t < gap_end - tolerance)
            .reduce(f64::min)
    };
    let (left, right) = (first_gesture(Side::Left)?, first_gesture(Side::Right)?);
    Some(if left >= right { (left, Feet::Left) } else { (right, Feet::Right) })
}

/// Finds every staff's flights (into [`Staff::gaps`](super::types::Staff::gaps)) at the score's
/// tempo, and warns at each gap read as standing.
pub fn find_flights(score: &mut Score, tolerance_beats: f64) {
    let limits = GapLimits { tolerance_beats, max_flight_beats: score.tempo.beats_from_secs(FLIGHT_MAX_SECS) };
    let end_beats = score.duration_beats;
    let mut warnings = Vec::new();
    for staff in &mut score.staves {
        let gaps = find_gaps(&staff.channels, &staff.start_position, limits, end_beats);
        for g in &gaps.standing {
            let (measure, beat) = super::types::measure_at(&score.measures, g.start_beats);
            let beats = g.end_beats - g.start_beats;
            let what = format!(
                "staff {}, measure {measure}, beat {:.2}: a gap of {} beats in the support columns is read as \
                 standing; write a hold sign, or a jump",
                staff.index + 1,
                beat + 1.0,
                short_number(beats)
            );
            let help = format!(
                "{:.1} s at {} bpm; a flight lasts at most {FLIGHT_MAX_SECS} s",
                score.tempo.secs_from_beats(beats),
                short_number(score.tempo.bpm)
            );
            warnings.push(Diagnostic::warning(g.span, what).with_help(help));
        }
        staff.gaps = gaps.flights;
    }
    score.warnings.extend(warnings);
}

/// `x` with at most two decimals and no trailing zeros (6, 1.5, 0.38).
fn short_number(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::read::{Direction, Level};

    /// ⅛ beat of slop; at 120 bpm a flight lasts at most 1.6 beats.
    const LIMITS: GapLimits = GapLimits { tolerance_beats: 0.125, max_flight_beats: 1.6 };

    fn step(start: f64, dur: f64) -> Entry {
        Entry {
            kind: EntryKind::Direction { direction: Direction::Place, level: Level::Low },
            start_beats: start,
            duration_beats: dur,
            start_secs: start / 2.0,
            duration_secs: dur / 2.0,
            measure: 1,
            beat_in_measure: start,
            column: 1,
            modifiers: vec![],
            code: "Dirn 11".into(),
            span: Span::default(),
        }
    }

    fn hold(start: f64) -> Entry {
        Entry { kind: EntryKind::Hold, ..step(start, 0.5) }
    }

    fn chans(l: Vec<Entry>, r: Vec<Entry>) -> Vec<Channel> {
        vec![
            Channel { kind: ChannelKind::Support(Side::Left), entries: l },
            Channel { kind: ChannelKind::Support(Side::Right), entries: r },
        ]
    }

    #[test]
    fn the_five_jump_forms() {
        let cases = [
            (chans(vec![step(0.0, 1.0), step(1.5, 0.5)], vec![step(0.0, 1.0), step(1.5, 0.5)]), JumpForm::Jump),
            (chans(vec![], vec![step(0.0, 1.0), step(1.5, 0.5)]), JumpForm::Hop),
            (chans(vec![step(1.5, 0.5)], vec![step(0.0, 1.0)]), JumpForm::Leap),
            (chans(vec![step(1.5, 0.5)], vec![step(0.0, 1.0), step(1.5, 0.5)]), JumpForm::Assemble),
            (chans(vec![step(0.0, 1.0), step(1.5, 0.5)], vec![step(0.0, 1.0)]), JumpForm::Sissonne),
        ];
        for (c, form) in cases {
            let gaps = find_gaps(&c, &[], LIMITS, 2.0).flights;
            assert_eq!(gaps.len(), 1, "{form:?}");
            assert_eq!(gaps[0].form, Some(form));
            assert_eq!((gaps[0].start_beats, gaps[0].end_beats), (1.0, 1.5));
        }
    }

    #[test]
    fn hold_bridges_and_tiny_gaps_are_not_flights() {
        // P5 B: a hold in the right column fills beat 2.
        let held = chans(vec![step(2.0, 1.0)], vec![step(0.0, 1.0), hold(1.0)]);
        assert!(find_gaps(&held, &[], LIMITS, 3.0).flights.is_empty());
        // P5 A: the same without the hold is a leap.
        let leap = chans(vec![step(2.0, 1.0)], vec![step(0.0, 1.0)]);
        assert_eq!(find_gaps(&leap, &[], LIMITS, 3.0).flights[0].form, Some(JumpForm::Leap));
        // P5 C: a 0.1-beat gap is a walk.
        let walk = chans(vec![step(1.1, 1.0)], vec![step(0.0, 1.0)]);
        assert!(find_gaps(&walk, &[], LIMITS, 2.1).flights.is_empty());
    }

    #[test]
    fn no_supports_no_gaps() {
        assert!(find_gaps(&[], &[], LIMITS, 8.0) == StaffGaps::default());
    }

    #[test]
    fn the_starting_position_holds_until_the_first_support() {
        let start: Vec<(ChannelKind, Entry)> = [Side::Left, Side::Right]
            .into_iter()
            .map(|side| (ChannelKind::Support(side), Entry { start_beats: 0.0, duration_beats: 0.0, ..step(0.0, 0.0) }))
            .collect();
        // Half a beat before the first step: standing.
        assert_eq!(find_gaps(&chans(vec![step(0.5, 1.0)], vec![]), &start, LIMITS, 1.5), StaffGaps::default());
        // Six beats of arms and torso, then a step: standing (not a six-beat sissonne), said.
        let gaps = find_gaps(&chans(vec![step(6.0, 1.0)], vec![]), &start, LIMITS, 7.0);
        assert!(gaps.flights.is_empty());
        assert_eq!((gaps.standing[0].start_beats, gaps.standing[0].end_beats), (0.0, 6.0));
    }

    #[test]
    fn a_gap_longer_than_a_flight_is_standing() {
        let both = |gap: f64| {
            let col = || vec![step(0.0, 1.0), step(1.0 + gap, 1.0)];
            find_gaps(&chans(col(), col()), &[], LIMITS, 2.0 + gap)
        };
        // 1.5 beats at 120 bpm (0.75 s): a jump.
        assert_eq!(both(1.5).flights[0].form, Some(JumpForm::Jump));
        // 3 beats (1.5 s): standing until the next step.
        let standing = both(3.0);
        assert!(standing.flights.is_empty());
        assert_eq!(standing.standing.len(), 1);
        assert_eq!((standing.standing[0].start_beats, standing.standing[0].end_beats), (1.0, 4.0));
    }

    fn gesture(side: Side, start: f64, dur: f64) -> Channel {
        let e = Entry {
            kind: EntryKind::Direction { direction: Direction::Left, level: Level::Low },
            column: 2,
            ..step(start, dur)
        };
        Channel { kind: ChannelKind::LegGesture(side), entries: vec![e] }
    }

    #[test]
    fn both_legs_gesturing_in_a_gap_is_a_flight_from_the_second() {
        let start: Vec<(ChannelKind, Entry)> = [Side::Left, Side::Right]
            .into_iter()
            .map(|side| (ChannelKind::Support(side), Entry { duration_beats: 0.0, ..step(0.0, 0.0) }))
            .collect();
        // jump1.lbn: the right leg gestures on beat 1, the left on beat 2, both feet land on beat 3:
        // standing on the left, then a one-beat flight from the left foot (a pas de chat).
        let mut c = chans(vec![step(2.0, 1.0)], vec![step(2.0, 1.0)]);
        c.extend([gesture(Side::Right, 0.0, 1.0), gesture(Side::Left, 1.0, 1.0)]);
        let gaps = find_gaps(&c, &start, LIMITS, 3.0);
        assert!(gaps.standing.is_empty());
        let f = &gaps.flights[0];
        assert_eq!(
            (f.start_beats, f.end_beats, f.takeoff, f.form),
            (1.0, 2.0, Some(Feet::Left), Some(JumpForm::Assemble))
        );
        // One leg gesturing through a long gap stands on the other, said.
        let one = find_gaps(&[c[0].clone(), c[1].clone(), c[2].clone()], &start, LIMITS, 3.0);
        assert!(one.flights.is_empty() && one.standing.len() == 1);
        // Both legs up for longer than a flight: standing, said.
        let mut long = chans(vec![step(4.0, 1.0)], vec![step(4.0, 1.0)]);
        long.extend([gesture(Side::Right, 0.0, 1.0), gesture(Side::Left, 1.0, 3.0)]);
        let long_gaps = find_gaps(&long, &start, LIMITS, 5.0);
        assert!(long_gaps.flights.is_empty() && long_gaps.standing.len() == 1);
    }

    #[test]
    fn a_gap_that_ends_in_a_hold_is_held() {
        // palm1.lbn: a step, a quarter beat blank, then hold signs in both columns.
        let c = chans(vec![step(0.0, 1.0), hold(1.25)], vec![step(0.0, 1.0), hold(1.25)]);
        assert_eq!(find_gaps(&c, &[], LIMITS, 3.0), StaffGaps::default());
    }
}
