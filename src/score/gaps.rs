//! Gaps in the support columns: when both feet are off the floor, and which jump it is.
//!
//! Supports are the step, turn and hold signs of the two support columns; a hold keeps the weight
//! until the next support sign, and the last support holds to the end of the score. A gap shorter
//! than the tolerance (⅛ beat) is hand-placement slop, not a flight (labanotation-rules §3, §4.5).
//!
//! A flight's form follows from the feet it leaves and lands on: both to both is a jump, both to
//! one a sissonne, one to both an assemblé, one foot to the same foot a hop, to the other a leap.

use super::types::{Channel, ChannelKind, Entry, EntryKind, Feet, JumpForm, SupportGap};
use crate::read::{BodyPart, Side};

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
}

fn support_intervals(channels: &[Channel], start_position: &[(ChannelKind, Entry)], end_beats: f64) -> Vec<Interval> {
    let mut out: Vec<(Interval, bool)> = Vec::new();
    for (kind, e) in start_position {
        if let Some(side) = support_side(*kind, e)
            && matches!(e.kind, EntryKind::Direction { .. } | EntryKind::Hold)
        {
            out.push((Interval { start: 0.0, end: 0.0, left: side == Side::Left, right: side == Side::Right }, false));
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
            out.push((Interval { start: e.start_beats, end: e.end_beats(), left, right }, hold));
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

/// Finds the flights of one staff.
pub fn find_gaps(
    channels: &[Channel],
    start_position: &[(ChannelKind, Entry)],
    tolerance_beats: f64,
    end_beats: f64,
) -> Vec<SupportGap> {
    let intervals = support_intervals(channels, start_position, end_beats);
    let mut gaps = Vec::new();
    let Some(first) = intervals.first() else { return gaps };
    let mut covered_until = first.end;
    for iv in intervals.iter().skip(1) {
        if iv.start - covered_until > tolerance_beats {
            let (gap_start, gap_end) = (covered_until, iv.start);
            let near = |t: f64, x: f64| (t - x).abs() <= tolerance_beats;
            let off: Vec<&Interval> =
                intervals.iter().filter(|i| i.end <= gap_start + 1e-9 && near(i.end, gap_start)).collect();
            let on: Vec<&Interval> =
                intervals.iter().filter(|i| i.start >= gap_end - 1e-9 && near(i.start, gap_end)).collect();
            let takeoff = feet_of(off.iter().any(|i| i.left), off.iter().any(|i| i.right));
            let landing = feet_of(on.iter().any(|i| i.left), on.iter().any(|i| i.right));
            let form = match (takeoff, landing) {
                (Some(a), Some(b)) => Some(classify(a, b)),
                _ => None,
            };
            gaps.push(SupportGap { start_beats: gap_start, end_beats: gap_end, takeoff, landing, form });
        }
        covered_until = covered_until.max(iv.end);
    }
    gaps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::read::{Direction, Level};

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
            let gaps = find_gaps(&c, &[], 0.125, 2.0);
            assert_eq!(gaps.len(), 1, "{form:?}");
            assert_eq!(gaps[0].form, Some(form));
            assert_eq!((gaps[0].start_beats, gaps[0].end_beats), (1.0, 1.5));
        }
    }

    #[test]
    fn hold_bridges_and_tiny_gaps_are_not_flights() {
        // P5 B: a hold in the right column fills beat 2.
        let held = chans(vec![step(2.0, 1.0)], vec![step(0.0, 1.0), hold(1.0)]);
        assert!(find_gaps(&held, &[], 0.125, 3.0).is_empty());
        // P5 A: the same without the hold is a leap.
        let leap = chans(vec![step(2.0, 1.0)], vec![step(0.0, 1.0)]);
        assert_eq!(find_gaps(&leap, &[], 0.125, 3.0)[0].form, Some(JumpForm::Leap));
        // P5 C: a 0.1-beat gap is a walk.
        let walk = chans(vec![step(1.1, 1.0)], vec![step(0.0, 1.0)]);
        assert!(find_gaps(&walk, &[], 0.125, 2.1).is_empty());
    }

    #[test]
    fn no_supports_no_gaps() {
        assert!(find_gaps(&[], &[], 0.125, 8.0).is_empty());
    }
}
