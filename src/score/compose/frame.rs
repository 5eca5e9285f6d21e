//! The page's frame, read before any symbol is placed: staves (or one guessed around the
//! direction signs), bar lines and their timeline, the meter and the tempo.

use super::{Page, PageOptions};
use crate::diag::{Diagnostic, Span};
use crate::read::{Document, Format, Level, PageSymbol, SymbolKind};
use crate::score::geometry::{PLAUSIBLE_BEATS_PER_MEASURE, PLAUSIBLE_BPM, page_outliers};
use crate::score::staves::{StaffGeometry, find_staves};
use crate::score::timeline::{BarMark, Timeline};
use crate::score::types::{Measure, Meter, TempoMap};
use std::collections::{BTreeMap, BTreeSet};

/// Half width (centre line to outer line, page units) of a staff as LED draws it; the size of a
/// staff guessed where no staff lines are written.
pub const LED_STAFF_HALF_WIDTH: f32 = 37.0;

/// Meter assumed when neither a meter text nor the bar spacing gives one.
const DEFAULT_BEATS_PER_MEASURE: u32 = 4;

impl<'a> Page<'a> {
    /// Reads the frame of `doc`: outliers set aside, staves, timeline, tempo and meter, with a
    /// warning in `warnings` for everything guessed or implausible.
    pub(super) fn read(doc: &'a Document, opts: PageOptions, warnings: &mut Vec<Diagnostic>) -> Self {
        let symbols = &doc.symbols;
        // A symbol far beyond the rest or far too large (a mistyped number) is kept out of everything.
        let (outliers, outlier_warnings) = page_outliers(symbols, opts.units_per_beat);
        warnings.extend(outlier_warnings);
        let outliers: BTreeSet<usize> = outliers.into_iter().collect();
        let mut staves_geo = find_staves(symbols);
        if staves_geo.is_empty()
            && let Some(g) = guessed_staff(symbols)
        {
            warnings.push(Diagnostic::warning(
                symbols.first().map(|s| s.span).unwrap_or_default(),
                "no staff lines found; a staff was assumed around the direction signs",
            ));
            staves_geo.push(g);
        }
        let bars: Vec<BarMark> = symbols
            .iter()
            .enumerate()
            .filter(|(i, s)| s.kind == SymbolKind::BarLine && !outliers.contains(i))
            .map(|(_, s)| BarMark { y: s.y, double: s.level == Level::Low && doc.format == Format::Lbn })
            .collect();
        let meter_written = written_meter(symbols, warnings);
        let timeline = Timeline::from_bars(&bars, opts.units_per_beat, meter_written, opts.quantum_beats);
        if timeline.origin_guessed && !bars.is_empty() {
            warnings.push(Diagnostic::warning(
                symbols.iter().find(|s| s.kind == SymbolKind::BarLine).map(|s| s.span).unwrap_or_default(),
                "no double bar line found; the lowest bar line is taken as the start",
            ));
        }
        let tempo = match written_tempo(symbols, warnings) {
            Some(bpm) => TempoMap { bpm, is_default: false },
            None => TempoMap { bpm: TempoMap::DEFAULT_BPM, is_default: true },
        };
        let meter = Meter {
            beats_per_measure: meter_written.unwrap_or_else(|| most_common_measure_beats(&timeline.measures)),
            inferred: meter_written.is_none(),
        };
        if meter.inferred && !PLAUSIBLE_BEATS_PER_MEASURE.contains(&meter.beats_per_measure) {
            warnings.push(implausible_meter(symbols, meter.beats_per_measure));
        }
        warnings.extend(long_measures(&timeline.measures, symbols));
        Page { doc, opts, staves_geo, timeline, tempo, meter, outliers }
    }
}

/// The most common whole number of beats among `measures` (the fewer beats on a tie).
fn most_common_measure_beats(measures: &[Measure]) -> u32 {
    let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
    for m in measures {
        *counts.entry(m.beats as u64).or_default() += 1;
    }
    counts
        .iter()
        .max_by_key(|(b, n)| (**n, std::cmp::Reverse(**b)))
        .map(|(b, _)| *b as u32)
        .unwrap_or(DEFAULT_BEATS_PER_MEASURE)
}

/// The warning for a meter inferred from the bar spacing that no score uses.
fn implausible_meter(symbols: &[PageSymbol], beats_per_measure: u32) -> Diagnostic {
    let bar_span = symbols.iter().find(|s| s.kind == SymbolKind::BarLine).map(|s| s.span).unwrap_or_default();
    Diagnostic::warning(
        bar_span,
        format!(
            "the bar spacing gives {} beats per measure, outside the meters scores use ({}–{})",
            beats_per_measure,
            PLAUSIBLE_BEATS_PER_MEASURE.start(),
            PLAUSIBLE_BEATS_PER_MEASURE.end()
        ),
    )
    .with_help("check the bar lines' y, or write the meter as text (`3/4`)")
}

/// Meter written as text (`3/4`), if any; a meter text no score uses is a warning.
fn written_meter(symbols: &[PageSymbol], warnings: &mut Vec<Diagnostic>) -> Option<u32> {
    symbols.iter().find_map(|s| match &s.kind {
        SymbolKind::Text(t) => {
            let (a, b) = t.trim().split_once('/')?;
            let n: u32 = a.trim().parse().ok()?;
            let d: u32 = b.trim().parse().ok()?;
            if !PLAUSIBLE_BEATS_PER_MEASURE.contains(&n) && [2, 4, 8, 16].contains(&d) {
                warnings.push(Diagnostic::warning(
                    s.span,
                    format!("meter `{}` is outside the meters scores use (1–16 beats); ignored", t.trim()),
                ));
                return None;
            }
            (PLAUSIBLE_BEATS_PER_MEASURE.contains(&n) && [2, 4, 8, 16].contains(&d)).then_some(n)
        }
        _ => None,
    })
}

/// Tempo written as text (`♩=96`, `=96`, `96 bpm`, `mm 96`), if any; a tempo no score uses is a
/// warning and is ignored.
fn written_tempo(symbols: &[PageSymbol], warnings: &mut Vec<Diagnostic>) -> Option<f64> {
    symbols.iter().find_map(|s| match &s.kind {
        SymbolKind::Text(t) => {
            let lower = t.to_lowercase();
            let marked = lower.contains('=') || lower.contains("bpm") || lower.starts_with("mm");
            if !marked {
                return None;
            }
            let digits: String = lower
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let bpm: f64 = digits.parse().ok()?;
            if !PLAUSIBLE_BPM.contains(&bpm) {
                warnings.push(Diagnostic::warning(
                    s.span,
                    format!(
                        "tempo `{}` is outside the tempos scores use ({}–{} bpm); ignored",
                        t.trim(),
                        PLAUSIBLE_BPM.start(),
                        PLAUSIBLE_BPM.end()
                    ),
                ));
                return None;
            }
            Some(bpm)
        }
        _ => None,
    })
}

/// A staff with no lines: guessed around the direction signs, LED-sized.
fn guessed_staff(symbols: &[PageSymbol]) -> Option<StaffGeometry> {
    let mut xs: Vec<f32> = symbols
        .iter()
        .filter(|s| matches!(s.kind, SymbolKind::Direction { .. }))
        .map(|s| s.x_mid())
        .filter(|x| x.is_finite())
        .collect();
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f32::total_cmp);
    let centre_x = xs[xs.len() / 2];
    let y_bottom = symbols.iter().map(|s| s.y).fold(f32::INFINITY, f32::min);
    Some(StaffGeometry { centre_x, half_width: LED_STAFF_HALF_WIDTH, y_bottom })
}

/// Measures far longer than the others (a bar line typed too high): a warning each, with the bar
/// line's place. The timing keeps them as written.
fn long_measures(measures: &[Measure], symbols: &[PageSymbol]) -> Vec<Diagnostic> {
    if measures.len() < 3 {
        return Vec::new();
    }
    let mut beats: Vec<f64> = measures.iter().map(|m| m.beats).collect();
    beats.sort_by(f64::total_cmp);
    let median = beats[beats.len() / 2];
    let bar_span = |y: f32| -> Span {
        symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::BarLine)
            .min_by(|a, b| (a.y - y).abs().total_cmp(&(b.y - y).abs()))
            .map(|s| s.span)
            .unwrap_or_default()
    };
    measures
        .iter()
        .filter(|m| m.beats > 4.0 * median && m.beats > 16.0)
        .map(|m| {
            Diagnostic::warning(
                bar_span(m.y_top),
                format!(
                    "measure {} is {:.0} beats long, the measures around it about {median:.0}; check its bar lines",
                    m.number, m.beats
                ),
            )
        })
        .collect()
}
