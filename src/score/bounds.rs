//! The bounds every score keeps, whatever its file says: at most [`MAX_SCORE_SECS`] (four hours)
//! long, so that what is allocated per frame, per measure or per step stays bounded. The readers
//! and the composers keep single symbols and keyframes within their own bounds (a symbol at most
//! [`super::geometry::OUTLIER_SIZE_MEASURES`] measures long, a keyframe time finite and near the
//! rest of the score); [`cap_duration`] cuts whatever a page's geometry still makes longer.

use super::types::Score;
use crate::diag::{Diagnostic, Span};
use crate::read::{Document, SymbolKind};

/// The longest score, seconds: four hours, far beyond any real dance score.
pub const MAX_SCORE_SECS: f64 = 4.0 * 3600.0;

/// Where the score (composed from `doc`) first runs past `max_beats`: the first entry that does,
/// else the bar line that closes the first measure that does, else the first symbol.
fn first_past(score: &Score, doc: &Document, max_beats: f64) -> Span {
    let entry = score
        .staves
        .iter()
        .flat_map(|s| &s.channels)
        .flat_map(|c| &c.entries)
        .find_map(|e| (e.start_beats + e.duration_beats > max_beats).then_some(e.span));
    let bar = || {
        let m = score.measures.iter().find(|m| m.start_beats + m.beats > max_beats)?;
        doc.symbols.iter().find(|s| s.kind == SymbolKind::BarLine && s.y == m.y_top).map(|s| s.span)
    };
    entry.or_else(bar).or_else(|| doc.symbols.first().map(|s| s.span)).unwrap_or_default()
}

/// Cuts `score` (composed from `doc`) at [`MAX_SCORE_SECS`] with a warning: measures, entries,
/// flights and contacts that start later are dropped, and those that run past the end end there.
pub fn cap_duration(score: &mut Score, doc: &Document) {
    let max_beats = score.tempo.beats_from_secs(MAX_SCORE_SECS);
    if score.duration_beats <= max_beats {
        return;
    }
    let span = first_past(score, doc, max_beats);
    score.warnings.push(
        Diagnostic::warning(
            span,
            format!(
                "the score lasts {:.0} hours, more than the longest score ({} hours); cut there",
                score.duration_secs() / 3600.0,
                MAX_SCORE_SECS / 3600.0
            ),
        )
        .with_help("a mistyped coordinate or length? this is where the score first runs past the cut"),
    );
    score.duration_beats = max_beats;
    score.measures.retain(|m| m.start_beats < max_beats);
    if let Some(last) = score.measures.last_mut() {
        last.beats = last.beats.min(max_beats - last.start_beats);
    }
    for staff in &mut score.staves {
        for channel in &mut staff.channels {
            channel.entries.retain(|e| e.start_beats < max_beats);
            for e in &mut channel.entries {
                let beats = e.duration_beats.min(max_beats - e.start_beats);
                if beats < e.duration_beats {
                    e.duration_secs *= beats / e.duration_beats;
                    e.duration_beats = beats;
                }
            }
        }
        staff.gaps.retain(|g| g.start_beats < max_beats);
        for g in &mut staff.gaps {
            g.end_beats = g.end_beats.min(max_beats);
        }
    }
    score.contacts.retain(|c| c.start_beats < max_beats);
    for c in &mut score.contacts {
        c.end_beats = c.end_beats.min(max_beats);
    }
}
