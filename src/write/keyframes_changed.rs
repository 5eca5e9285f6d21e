//! What a keyframe score laid out and written as `.lbn` says differently from its source: both
//! are composed and each keyframe's entries (channel, what, start and end seconds) compared,
//! keyed by the keyframe's place in the source file.
//!
//! The page's channels are named as the layout writes them: the head's column claimed by its
//! text `C` is the head, a turn sign across the support columns is the body turn. Times only
//! moved onto the grid (by at most half a step, an eighth of a beat) are counted in one warning
//! at the first of them, with how many keys now last no time; every other difference is a
//! warning at its keyframe.

use crate::diag::{Diagnostic, Span};
use crate::read::{BodyPart, Document};
use crate::score::compose::LED_STEP_BEATS;
use crate::score::{ChannelKind, Entry, EntryKind, Modifier, Score};
use std::collections::{BTreeMap, BTreeSet};

/// Two times closer than this are the same, seconds.
const SAME_SECS: f64 = 1e-6;

/// One entry's meaning: channel, start and end seconds, what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyMeaning {
    /// The channel as the layout names it (`head`, `part upper-arm R`, `body turn`), with
    /// `start` for the starting position.
    pub channel: String,
    /// What it is (the entry kind and its modifiers but turn pins).
    pub what: String,
    /// Start, seconds.
    pub start_secs: f64,
    /// End, seconds.
    pub end_secs: f64,
}

impl KeyMeaning {
    fn of(channel: ChannelKind, entry: &Entry, start_position: bool) -> KeyMeaning {
        let name = match channel {
            ChannelKind::Part(BodyPart::Head) => ChannelKind::Head.name(),
            ChannelKind::Support(_) if matches!(entry.kind, EntryKind::Turn { .. }) => ChannelKind::BodyTurn.name(),
            other => other.name(),
        };
        let modifiers: Vec<String> =
            entry.modifiers.iter().filter(|m| !matches!(m, Modifier::TurnPin { .. })).map(|m| m.label()).collect();
        KeyMeaning {
            channel: if start_position { format!("{name} (starting position)") } else { name },
            what: format!("{:?} {}", entry.kind, modifiers.join(" ")).trim_end().to_string(),
            start_secs: entry.start_secs,
            end_secs: entry.start_secs + entry.duration_secs,
        }
    }

    /// How far the times moved, seconds, when everything else is the same.
    fn moved_secs(&self, other: &KeyMeaning) -> Option<f64> {
        ((&self.channel, &self.what) == (&other.channel, &other.what))
            .then(|| (self.start_secs - other.start_secs).abs().max((self.end_secs - other.end_secs).abs()))
    }

    fn words(&self) -> String {
        format!("{} {}, {:.3} s to {:.3} s", self.channel, self.what, self.start_secs, self.end_secs)
    }
}

/// Every entry of `score`'s staves (starting positions included) by the source place `key`
/// gives its span.
pub fn key_meanings(score: &Score, key: impl Fn(&Span) -> Option<Span>) -> BTreeMap<Span, Vec<KeyMeaning>> {
    let mut out: BTreeMap<Span, Vec<KeyMeaning>> = BTreeMap::new();
    for staff in &score.staves {
        let start = staff.start_position.iter().map(|(kind, e)| (*kind, e, true));
        let timed = staff.channels.iter().flat_map(|c| c.entries.iter().map(move |e| (c.kind, e, false)));
        for (channel, entry, start_position) in start.chain(timed) {
            if let Some(k) = key(&entry.span) {
                out.entry(k).or_default().push(KeyMeaning::of(channel, entry, start_position));
            }
        }
    }
    out
}

/// The warnings for keyframes of `source` (a JSON document) that `written` composes
/// differently. `written` was read back from the text written for `laid` (the laid-out page);
/// `written_of[j]` is the index in `laid` of `written`'s symbol `j`; `bpm` the tempo written.
pub fn changed_keyframes(
    source: &Document,
    laid: &Document,
    written: &Document,
    written_of: &[usize],
    bpm: f64,
) -> Vec<Diagnostic> {
    let line_to_symbol: BTreeMap<u32, usize> =
        written.symbols.iter().enumerate().map(|(i, s)| (s.span.line, i)).collect();
    let source_span = |span: &Span| -> Option<Span> {
        let j = *line_to_symbol.get(&span.line)?;
        let laid_span = laid.symbols.get(*written_of.get(j)?)?.span;
        (laid_span != Span::default()).then_some(laid_span)
    };
    let before = key_meanings(&Score::from_document(source), |span| Some(*span));
    let after = key_meanings(&Score::from_document(written), source_span);
    let laid_spans: BTreeSet<Span> = written_of.iter().filter_map(|&i| laid.symbols.get(i)).map(|s| s.span).collect();
    let half_step_secs = LED_STEP_BEATS / 2.0 * 60.0 / bpm;
    let mut warnings = Vec::new();
    // (first place, how many, the most moved, how many last no time now).
    let mut snapped: Option<(Span, usize, f64, usize)> = None;
    let empty = Vec::new();
    let spans: BTreeSet<Span> = before.keys().chain(after.keys()).copied().collect();
    for span in spans {
        // A keyframe left out has its own warning.
        if !laid_spans.contains(&span) {
            continue;
        }
        let (was, now) = (before.get(&span).unwrap_or(&empty), after.get(&span).unwrap_or(&empty));
        let moved = (was.len() == now.len())
            .then(|| was.iter().zip(now).map(|(a, b)| a.moved_secs(b)).try_fold(0.0f64, |m, d| Some(m.max(d?))))
            .flatten();
        match moved {
            Some(secs) if secs < SAME_SECS => {}
            Some(secs) if secs <= half_step_secs + SAME_SECS => {
                let lasts = |m: &[KeyMeaning]| m.iter().any(|k| k.end_secs - k.start_secs > SAME_SECS);
                let (_, count, most, collapsed) = snapped.get_or_insert((span, 0, 0.0, 0));
                (*count, *most) = (*count + 1, most.max(secs));
                *collapsed += usize::from(lasts(was) && !lasts(now));
            }
            _ => warnings.push(changed_warning(span, was, now)),
        }
    }
    if let Some((span, count, most_secs, collapsed)) = snapped {
        let collapsed = match collapsed {
            0 => String::new(),
            n => format!("; {n} of them last no time there (closer together than a step)"),
        };
        warnings.push(Diagnostic::warning(
            span,
            format!(
                "{count} keyframe(s) from here on start or end on `.lbn`'s quarter-beat grid at q={bpm}, \
                 moved by at most {most_secs:.3} s{collapsed}"
            ),
        ));
    }
    warnings
}

/// The warning for the keyframe at `span` whose entries were `was` and are `now`.
fn changed_warning(span: Span, was: &[KeyMeaning], now: &[KeyMeaning]) -> Diagnostic {
    let list = |m: &[KeyMeaning]| match m {
        [] => "nothing".to_owned(),
        _ => m.iter().map(KeyMeaning::words).collect::<Vec<_>>().join("; "),
    };
    Diagnostic::warning(span, format!("this keyframe means {} here but {} in the `.lbn`", list(was), list(now)))
        .with_help("`.lbn` times lie on a quarter-beat grid and a turn's pin says eighths of a turn")
}
