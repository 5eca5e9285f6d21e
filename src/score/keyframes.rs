//! Keyframe documents (the JSON formats) → composite score: one staff, one channel per part.
//!
//! A gestureBot key moves over `[time, time + dur]`; a LabanotationSuite key (or any key without a
//! duration) arrives at its time, moving from the previous key of that part. The first key at
//! time 0 is the start position.

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

/// Builds the score of a keyframe document.
pub fn compose_keyframes(doc: &Document) -> Score {
    let tempo = TempoMap { bpm: TempoMap::DEFAULT_BPM, is_default: true };
    let meter = Meter { beats_per_measure: 4, inferred: true };
    let mut warnings: Vec<Diagnostic> = doc.warnings.clone();
    let mut channels: BTreeMap<ChannelKind, Vec<Entry>> = BTreeMap::new();
    let mut start_position: Vec<(ChannelKind, Entry)> = Vec::new();
    let mut prev_end: BTreeMap<GesturePart, f64> = BTreeMap::new();
    let mut gestures: Vec<&crate::read::Gesture> = doc.keyframes.gestures.iter().collect();
    gestures.sort_by(|a, b| a.start_secs.total_cmp(&b.start_secs));
    for g in gestures {
        if !(g.start_secs.is_finite() && g.duration_secs.is_finite()) || g.start_secs < 0.0 || g.duration_secs < 0.0 {
            warnings.push(Diagnostic::warning(g.span, "keyframe with a negative or non-finite time; skipped"));
            continue;
        }
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
    for r in &doc.keyframes.rotations {
        if !(r.start_secs.is_finite() && r.duration_secs.is_finite() && r.degrees_cw.is_finite()) {
            warnings.push(Diagnostic::warning(r.span, "rotation with a non-finite value; skipped"));
            continue;
        }
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
