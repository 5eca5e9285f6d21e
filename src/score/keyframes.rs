//! Keyframe documents (the JSON formats) → composite score: one staff, one channel per part.
//!
//! A gestureBot key moves over `[time, time + dur]`; a LabanotationSuite key (or any key without a
//! duration) arrives at its time, moving from the previous key of that part. The first key at
//! time 0 is the start position.
//!
//! Bounds: a keyframe outside them is warned about with its place and left out of the timing.
//! Times and durations are finite and not negative; a move lasts at most [`MAX_MOVE_SECS`]; every
//! keyframe ends within [`MAX_SCORE_SECS`]; a rotation turns at most [`MAX_TURN_DEG`]; and a
//! keyframe more than [`OUTLIER_GAP_SECS`] of stillness away from the rest of the score (a mistyped
//! time) is set aside, as a symbol far beyond the rest of a page is ([`super::geometry`]).

use super::bounds::MAX_SCORE_SECS;
use super::types::*;
use crate::diag::Diagnostic;
use crate::read::{BodyPart, Document, GesturePart};
use std::collections::BTreeMap;

fn channel_of(part: GesturePart) -> ChannelKind {
    match part {
        GesturePart::Head => ChannelKind::Head,
        GesturePart::UpperArm(side) => ChannelKind::Part(BodyPart::Elbow(side)),
        GesturePart::LowerArm(side) => ChannelKind::Part(BodyPart::Wrist(side)),
    }
}

fn entry(
    kind: EntryKind,
    start_secs: f64,
    end_secs: f64,
    tempo: TempoMap,
    code: String,
    span: crate::diag::Span,
) -> Entry {
    let start_beats = tempo.beats_from_secs(start_secs);
    let duration_beats = tempo.beats_from_secs((end_secs - start_secs).max(0.0));
    Entry {
        kind,
        start_beats,
        duration_beats,
        start_secs,
        duration_secs: (end_secs - start_secs).max(0.0),
        measure: 0,
        beat_in_measure: 0.0,
        column: 0,
        modifiers: Vec::new(),
        code,
        span,
    }
}

/// The longest a single keyframe move may take, seconds: the real keyframe scores' longest is 9 s.
pub const MAX_MOVE_SECS: f64 = 120.0;

/// Stillness between a keyframe and the rest of the score that makes it a mistyped time, seconds
/// (the real keyframe scores leave at most four minutes between two keyframes).
pub const OUTLIER_GAP_SECS: f64 = 600.0;

/// The largest turn one rotation keyframe may ask for, degrees (ten turns).
pub const MAX_TURN_DEG: f64 = 3600.0;

/// `secs` as written when it is short, else in scientific notation.
fn shown(secs: f64) -> String {
    if secs.abs() < 1e9 { format!("{secs}") } else { format!("{secs:.3e}") }
}

/// Why a keyframe's numbers are out of bounds (the score's length aside), or `None` when they are
/// within them.
fn out_of_bounds(start_secs: f64, duration_secs: f64) -> Option<String> {
    if !(start_secs.is_finite() && duration_secs.is_finite()) || start_secs < 0.0 || duration_secs < 0.0 {
        return Some("keyframe with a negative or non-finite time; skipped".into());
    }
    if duration_secs > MAX_MOVE_SECS {
        let d = shown(duration_secs);
        return Some(format!("a move of {d} s is longer than {MAX_MOVE_SECS} s; keyframe skipped"));
    }
    None
}

/// Why a keyframe ending at `end_secs` makes the score too long, or `None`.
fn beyond_longest_score(end_secs: f64) -> Option<String> {
    (end_secs > MAX_SCORE_SECS).then(|| {
        let hours = MAX_SCORE_SECS / 3600.0;
        format!("keyframe ending at {} s is beyond the longest score ({hours} hours); skipped", shown(end_secs))
    })
}

/// The keyframes (by their times, in any order) that lie more than [`OUTLIER_GAP_SECS`] away from
/// the main body of the score: indices into `times_secs`. The main body is the group of keyframes
/// with no such gap inside that holds the most keyframes (the earliest on a tie).
fn time_outliers(times_secs: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..times_secs.len()).collect();
    order.sort_by(|&a, &b| times_secs[a].total_cmp(&times_secs[b]));
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for k in 1..order.len() {
        if times_secs[order[k]] - times_secs[order[k - 1]] > OUTLIER_GAP_SECS {
            groups.push(start..k);
            start = k;
        }
    }
    groups.push(start..order.len());
    let main = groups.iter().enumerate().max_by_key(|(i, g)| (g.len(), std::cmp::Reverse(*i))).map(|(_, g)| g.clone());
    let main = main.unwrap_or(0..order.len());
    order.iter().enumerate().filter(|(k, _)| !main.contains(k)).map(|(_, &i)| i).collect()
}

/// The gestures and rotations of `doc` within bounds, each out-of-bounds one warned about.
fn keyframes_in_bounds<'d>(
    doc: &'d Document,
    warnings: &mut Vec<Diagnostic>,
) -> (Vec<&'d crate::read::Gesture>, Vec<&'d crate::read::Rotation>) {
    let mut gestures = Vec::new();
    for g in &doc.keyframes.gestures {
        match out_of_bounds(g.start_secs, g.duration_secs) {
            Some(why) => warnings.push(Diagnostic::warning(g.span, why)),
            None => gestures.push(g),
        }
    }
    let mut rotations = Vec::new();
    for r in &doc.keyframes.rotations {
        if !(r.start_secs.is_finite() && r.duration_secs.is_finite() && r.degrees_cw.is_finite()) {
            warnings.push(Diagnostic::warning(r.span, "rotation with a non-finite value; skipped"));
        } else if r.degrees_cw.abs() > MAX_TURN_DEG {
            let why = format!("a rotation of {}° is more than {MAX_TURN_DEG}°; skipped", shown(r.degrees_cw.abs()));
            warnings.push(Diagnostic::warning(r.span, why));
        } else if let Some(why) = out_of_bounds(r.start_secs, r.duration_secs.max(0.0)) {
            warnings.push(Diagnostic::warning(r.span, why));
        } else {
            rotations.push(r);
        }
    }
    let times: Vec<f64> = gestures.iter().map(|g| g.start_secs).chain(rotations.iter().map(|r| r.start_secs)).collect();
    let mut keep = vec![true; times.len()];
    for i in time_outliers(&times) {
        keep[i] = false;
        let span = match gestures.get(i) {
            Some(g) => g.span,
            None => rotations[i - gestures.len()].span,
        };
        warnings.push(
            Diagnostic::warning(
                span,
                format!(
                    "keyframe at {} s lies more than {OUTLIER_GAP_SECS} s beyond the rest of the score; \
                     left out of the timing and skipped",
                    shown(times[i])
                ),
            )
            .with_help("a mistyped time? correct it to place the keyframe in the score"),
        );
    }
    let n = gestures.len();
    let mut kept = |i: usize, span: crate::diag::Span, end_secs: f64| {
        let why = if keep[i] { beyond_longest_score(end_secs) } else { return false };
        why.map(|why| warnings.push(Diagnostic::warning(span, why))).is_none()
    };
    let gestures: Vec<_> = gestures
        .into_iter()
        .enumerate()
        .filter(|(i, g)| kept(*i, g.span, g.start_secs + g.duration_secs))
        .map(|(_, g)| g)
        .collect();
    let rotations = rotations
        .into_iter()
        .enumerate()
        .filter(|(i, r)| kept(n + *i, r.span, r.start_secs + r.duration_secs.max(0.0)))
        .map(|(_, r)| r)
        .collect();
    (gestures, rotations)
}

/// Builds the score of a keyframe document.
pub fn compose_keyframes(doc: &Document) -> Score {
    let tempo = TempoMap { bpm: TempoMap::DEFAULT_BPM, is_default: true };
    let meter = Meter { beats_per_measure: 4, inferred: true };
    let mut warnings: Vec<Diagnostic> = doc.warnings.clone();
    let mut channels: BTreeMap<ChannelKind, Vec<Entry>> = BTreeMap::new();
    let mut start_position: Vec<(ChannelKind, Entry)> = Vec::new();
    let mut prev_end: BTreeMap<GesturePart, f64> = BTreeMap::new();
    let (mut gestures, rotations) = keyframes_in_bounds(doc, &mut warnings);
    gestures.sort_by(|a, b| a.start_secs.total_cmp(&b.start_secs));
    for g in gestures {
        let kind = EntryKind::Direction { direction: g.direction, level: g.level };
        let code = format!("{:?}", g.part);
        let ch = channel_of(g.part);
        let (start, end) = if !doc.keyframes.time_is_arrival && g.duration_secs > 0.0 {
            (g.start_secs, g.start_secs + g.duration_secs)
        } else {
            (prev_end.get(&g.part).copied().unwrap_or(g.start_secs).min(g.start_secs), g.start_secs)
        };
        if !prev_end.contains_key(&g.part) && end <= 0.01 {
            start_position.push((ch, entry(kind, 0.0, 0.0, tempo, code, g.span)));
        } else {
            channels.entry(ch).or_default().push(entry(kind, start, end, tempo, code, g.span));
        }
        prev_end.insert(g.part, end);
    }
    for r in rotations {
        let kind = EntryKind::Turn {
            clockwise: Some(r.degrees_cw >= 0.0),
            amount_deg: Some(r.degrees_cw.abs()),
            both_feet: true,
        };
        let e = entry(kind, r.start_secs, r.start_secs + r.duration_secs.max(0.0), tempo, "rotation".into(), r.span);
        channels.entry(ChannelKind::BodyTurn).or_default().push(e);
    }
    let end_secs = channels.values().flatten().map(|e| e.start_secs + e.duration_secs).fold(0.0, f64::max);
    let end_beats = tempo.beats_from_secs(end_secs);
    let per = meter.beats_per_measure as f64;
    let count = (end_beats / per).ceil().max(1.0) as u32;
    let measures: Vec<Measure> = (0..count)
        .map(|i| Measure { number: i + 1, start_beats: i as f64 * per, beats: per, y_bottom: 0.0, y_top: 0.0 })
        .collect();
    let mut channels: Vec<Channel> = channels
        .into_iter()
        .map(|(kind, mut entries)| {
            entries.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats));
            Channel { kind, entries }
        })
        .collect();
    for e in channels.iter_mut().flat_map(|c| c.entries.iter_mut()) {
        (e.measure, e.beat_in_measure) = measure_at(&measures, e.start_beats);
    }
    Score {
        title: doc.title.clone(),
        format: doc.format,
        tempo,
        meter,
        duration_beats: count as f64 * per,
        contacts: Vec::new(),
        measures,
        staves: vec![Staff {
            index: 0,
            dancer: None,
            centre_x: 0.0,
            half_width: 1.0,
            start_facing_deg: 0.0,
            start_position,
            channels,
            gaps: Vec::new(),
        }],
        warnings,
    }
}
