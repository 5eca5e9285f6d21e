//! What a written score says differently from its source: both documents are composed and each
//! entry (staff, channel, what, when, for how long, modifiers) compared, keyed by the source
//! symbol it came from. A score read from another format can mean something else in `.lbn`
//! even when every symbol is written as it was: LED's columns (3 to 5 are arm columns) and its
//! step grid are not the other formats'. Each difference is a warning at the source symbol,
//! except times only moved onto the grid (by less than half a step), which are counted in one
//! warning at the first of them.

use crate::diag::{Diagnostic, Span};
use crate::read::Document;
use crate::score::compose::LED_STEP_BEATS;
use crate::score::{ChannelKind, Entry, Score};
use std::collections::BTreeMap;

/// Two times closer than this are the same, beats.
const SAME_BEATS: f64 = 1e-6;

/// One entry's meaning: staff, channel, start and duration (beats), what it is.
#[derive(Clone, Debug)]
struct Meaning {
    staff: usize,
    channel: ChannelKind,
    start_beats: f64,
    duration_beats: f64,
    what: String,
}

impl Meaning {
    fn of(staff: usize, channel: ChannelKind, entry: &Entry) -> Meaning {
        let modifiers: Vec<String> = entry.modifiers.iter().map(|m| m.label()).collect();
        Meaning {
            staff,
            channel,
            start_beats: entry.start_beats,
            duration_beats: entry.duration_beats,
            what: format!("{:?} {}", entry.kind, modifiers.join(" ")),
        }
    }

    /// How far the times moved, beats, when everything else is the same.
    fn moved_beats(&self, other: &Meaning) -> Option<f64> {
        ((self.staff, self.channel, &self.what) == (other.staff, other.channel, &other.what)).then(|| {
            let ends = (self.start_beats + self.duration_beats) - (other.start_beats + other.duration_beats);
            (self.start_beats - other.start_beats).abs().max(ends.abs())
        })
    }

    fn words(&self) -> String {
        format!(
            "staff {} {}, beats {:.2} to {:.2}",
            self.staff + 1,
            self.channel.name(),
            self.start_beats,
            self.start_beats + self.duration_beats
        )
    }
}

/// Every entry of `score` (starting positions included), by the line of the symbol it came
/// from, mapped through `key`.
fn meanings(score: &Score, key: impl Fn(&Span) -> Option<usize>) -> BTreeMap<usize, Vec<Meaning>> {
    let mut out: BTreeMap<usize, Vec<Meaning>> = BTreeMap::new();
    for staff in &score.staves {
        let start = staff.start_position.iter().map(|(kind, e)| (*kind, e));
        let timed = staff.channels.iter().flat_map(|c| c.entries.iter().map(move |e| (c.kind, e)));
        for (channel, entry) in start.chain(timed) {
            if let Some(k) = key(&entry.span) {
                out.entry(k).or_default().push(Meaning::of(staff.index, channel, entry));
            }
        }
    }
    out
}

/// The warnings for entries of `source` that `written` (read back from the text written for
/// it; `written_of[j]` is the index in `source` of its symbol `j`) composes differently, at the
/// source symbols.
pub fn changed_meanings(source: &Document, written: &Document, written_of: &[usize]) -> Vec<Diagnostic> {
    let index_of_line = |doc: &Document| -> BTreeMap<u32, usize> {
        doc.symbols.iter().enumerate().map(|(i, s)| (s.span.line, i)).collect()
    };
    let (source_lines, written_lines) = (index_of_line(source), index_of_line(written));
    let before = meanings(&Score::from_document(source), |span| source_lines.get(&span.line).copied());
    let after = meanings(&Score::from_document(written), |span| {
        written_lines.get(&span.line).and_then(|&j| written_of.get(j)).copied()
    });
    let mut warnings = Vec::new();
    let mut snapped: Option<(Span, usize, f64)> = None;
    let empty = Vec::new();
    let keys: std::collections::BTreeSet<usize> = before.keys().chain(after.keys()).copied().collect();
    for index in keys {
        let (was, now) = (before.get(&index).unwrap_or(&empty), after.get(&index).unwrap_or(&empty));
        // A symbol left out has its own warning.
        let Some(symbol) = source.symbols.get(index).filter(|_| written_of.contains(&index)) else { continue };
        let moved = (was.len() == now.len())
            .then(|| was.iter().zip(now).map(|(a, b)| a.moved_beats(b)).try_fold(0.0f64, |m, d| Some(m.max(d?))))
            .flatten();
        match moved {
            Some(beats) if beats < SAME_BEATS => {}
            Some(beats) if beats < LED_STEP_BEATS / 2.0 => {
                let (_, count, most) = snapped.get_or_insert((symbol.span, 0, 0.0));
                (*count, *most) = (*count + 1, most.max(beats));
            }
            _ => warnings.push(changed_warning(symbol, was, now)),
        }
    }
    if let Some((span, count, most_beats)) = snapped {
        warnings.push(Diagnostic::warning(
            span,
            format!(
                "{count} sign(s) from here on start or end on `.lbn`'s quarter-beat grid, moved by at most {most_beats:.3} beats"
            ),
        ));
    }
    warnings
}

/// The warning for a symbol whose entries were `was` and are `now`.
fn changed_warning(symbol: &crate::read::PageSymbol, was: &[Meaning], now: &[Meaning]) -> Diagnostic {
    let list = |m: &[Meaning]| match m {
        [] => "nothing".to_owned(),
        _ => m.iter().map(Meaning::words).collect::<Vec<_>>().join("; "),
    };
    Diagnostic::warning(
        symbol.span,
        format!("`{}` means {} here but {} in the `.lbn`", symbol.code, list(was), list(now)),
    )
    .with_help("`.lbn` has LED's columns (3 to 5 beside the centre are arm columns) and step grid")
}
