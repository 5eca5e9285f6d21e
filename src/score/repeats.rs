//! Repeat signs: LED scores draw a repeat mark as `÷` built from keyboard items (`Keys 16` `.`,
//! `Keys 17` `_`, `Keys 16` `.` stacked) at a bar line. Marks pair up into sections that play
//! again: the timeline gets copies of their entries, shifted, each keeping its source position.
//!
//! Marks pair up in time order into sections (start, end); a last unpaired mark repeats from the
//! beginning, as in music. This reading is inferred from `barn.lbn` (marks at the start of measure
//! 1 and the end of measure 8) and `repeat.lbn` (bar 4): the sign's shape and place, no LED
//! documentation. A section plays once more right after itself: its entries are copied with shifted
//! times (same measure numbers and file lines, for messages and the staff), later entries move on
//! (the flights are found after). Contacts repeat too: a bow written inside the section is made again
//! in the repeat, a release sign inside it lets go again of the hold on the same parts, and a hold
//! still on at the section's end stays on; the starting position is not replayed.
//!
//! [`play_segments`], [`written_beats`] and [`played_beats`] map played and written time (for a
//! panel that shows the written score). Repeats to the other side and numbered repeats are not
//! read.

use super::types::*;
use crate::diag::{Diagnostic, Span};
use crate::read::{Document, PageSymbol, SymbolKind};

/// A section of the written score that is played again right after itself.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Repeat {
    /// Written start of the section, beats.
    pub from_beats: f64,
    /// Written end of the section (the repeat mark's bar line), beats.
    pub to_beats: f64,
    /// Where the mark that ends the section is in the file.
    pub span: Span,
}

/// A repeat mark found on the page: the page y of its bar stroke and where it is in the file.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Mark {
    y: f32,
    span: Span,
}

fn is_key(s: &PageSymbol, text: &str) -> bool {
    s.code.starts_with("Keys") && matches!(&s.kind, SymbolKind::Text(t) if t.trim() == text)
}

/// `÷` marks: a `_` with a `.` just below or on it and another just above, within a few units
/// across (LED draws keys 5–12 units wide).
fn find_marks(doc: &Document) -> Vec<Mark> {
    let dots: Vec<&PageSymbol> = doc.symbols.iter().filter(|s| is_key(s, ".")).collect();
    let mut marks: Vec<Mark> = doc
        .symbols
        .iter()
        .filter(|s| is_key(s, "_"))
        .filter(|bar| {
            let near = |d: &&&PageSymbol| (d.x_mid() - bar.x_mid()).abs() <= 6.0;
            let below = dots.iter().filter(near).any(|d| d.y >= bar.y - 10.0 && d.y <= bar.y);
            let above = dots.iter().filter(near).any(|d| d.y > bar.y && d.y <= bar.y + 10.0);
            below && above
        })
        .map(|bar| Mark { y: bar.y, span: bar.span })
        .collect();
    marks.sort_by(|a, b| a.y.total_cmp(&b.y));
    marks
}

/// The bar line (as a beat) nearest to page y `y`, within `max_units`.
fn bar_beats_at(measures: &[Measure], y: f32, max_units: f32) -> Option<f64> {
    let mut best: Option<(f32, f64)> = None;
    for m in measures {
        for (yb, beats) in [(m.y_bottom, m.start_beats), (m.y_top, m.start_beats + m.beats)] {
            let d = (yb - y).abs();
            if d <= max_units && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, beats));
            }
        }
    }
    best.map(|b| b.1)
}

/// The sections the repeat marks of `doc` enclose on `score`'s bar lines: marks pair up in time
/// order (start, end); a last unpaired mark repeats from the beginning (as in music).
pub fn find_repeats(doc: &Document, score: &Score, warnings: &mut Vec<Diagnostic>) -> Vec<Repeat> {
    let mut bars: Vec<(f64, Span)> = Vec::new();
    for m in find_marks(doc) {
        match bar_beats_at(&score.measures, m.y, 12.0) {
            Some(b) => bars.push((b, m.span)),
            None => warnings.push(Diagnostic::warning(m.span, "repeat mark `÷` is not at a bar line; ignored")),
        }
    }
    let mut out = Vec::new();
    let mut open: Option<f64> = None;
    for (i, (b, span)) in bars.iter().enumerate() {
        match open.take() {
            None if i + 1 < bars.len() => open = Some(*b),
            None => out.push(Repeat { from_beats: 0.0, to_beats: *b, span: *span }),
            Some(a) => out.push(Repeat { from_beats: a, to_beats: *b, span: *span }),
        }
    }
    out.retain(|r| r.to_beats > r.from_beats + 1e-6);
    out
}

fn shifted(e: &Entry, by_beats: f64, tempo: TempoMap) -> Entry {
    let mut c = e.clone();
    c.start_beats += by_beats;
    c.start_secs = tempo.secs_from_beats(c.start_beats);
    c
}

/// Plays each repeated section again: its entries are copied right after it (same measure
/// numbers, same source spans), everything later moves on by the section's length (the
/// flights are found after, by [`super::gaps::find_flights`]).
pub fn expand(score: &mut Score, repeats: &[Repeat]) {
    // Later sections first, so earlier shifts do not move the written positions still to use.
    let mut sorted: Vec<&Repeat> = repeats.iter().collect();
    sorted.sort_by(|a, b| b.to_beats.total_cmp(&a.to_beats));
    let tempo = score.tempo;
    for r in sorted {
        let len = r.to_beats - r.from_beats;
        let inside = |t: f64| t >= r.from_beats - 1e-9 && t < r.to_beats - 1e-9;
        for staff in &mut score.staves {
            for ch in &mut staff.channels {
                let mut out: Vec<Entry> = Vec::with_capacity(ch.entries.len());
                let mut copies: Vec<Entry> = Vec::new();
                for e in &ch.entries {
                    if e.start_beats >= r.to_beats - 1e-9 {
                        out.push(shifted(e, len, tempo));
                    } else {
                        if inside(e.start_beats) {
                            copies.push(shifted(e, len, tempo));
                        }
                        out.push(e.clone());
                    }
                }
                out.extend(copies);
                out.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats).then(a.column.cmp(&b.column)));
                ch.entries = out;
            }
        }
        score.contacts = repeated_contacts(&score.contacts, r);
        let mut measures: Vec<Measure> = Vec::new();
        for m in &score.measures {
            if m.start_beats >= r.to_beats - 1e-9 {
                measures.push(Measure { start_beats: m.start_beats + len, ..m.clone() });
            } else {
                measures.push(m.clone());
                if inside(m.start_beats) {
                    measures.push(Measure { start_beats: m.start_beats + len, ..m.clone() });
                }
            }
        }
        measures.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats));
        score.measures = measures;
        score.duration_beats += len;
    }
}

/// The contacts once section `r` plays twice: later contacts move on with the entries (a contact
/// held past the section's end is held on through the repeat); a bow written inside the section
/// is made again in the repeat, and a release sign inside it releases again, in the repeat, the
/// hold on the same parts then (the starting position is not played again) [INFERRED, as music
/// repeats: barn.lbn releases its opening hold in measure 2 and takes it again in measure 4].
fn repeated_contacts(contacts: &[Contact], r: &Repeat) -> Vec<Contact> {
    let len = r.to_beats - r.from_beats;
    let inside = |t: f64| t >= r.from_beats - 1e-9 && t < r.to_beats - 1e-9;
    let mut out: Vec<Contact> = Vec::with_capacity(contacts.len());
    let mut copies = Vec::new();
    for c in contacts {
        let mut moved = c.clone();
        if c.start_beats >= r.to_beats - 1e-9 {
            moved.start_beats += len;
        }
        if c.end_beats >= r.to_beats - 1e-9 {
            moved.end_beats += len;
        }
        if inside(c.start_beats) && c.measure >= 1 {
            copies.push(Contact { start_beats: c.start_beats + len, end_beats: c.end_beats + len, ..c.clone() });
        }
        out.push(moved);
    }
    out.extend(copies);
    let parts = |c: &Contact| {
        let mut p = [(c.ends[0].staff, c.ends[0].part), (c.ends[1].staff, c.ends[1].part)];
        p.sort();
        p
    };
    for c in contacts.iter().filter(|c| c.released && inside(c.end_beats)) {
        let t = c.end_beats + len;
        for d in out.iter_mut().filter(|d| parts(d) == parts(c)) {
            if d.start_beats < t - 1e-9 && d.end_beats > t + 1e-9 {
                d.end_beats = t;
                d.released = true;
            }
        }
    }
    out.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats));
    out
}

/// One measure of the played timeline and where it is written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaySegment {
    /// Played start, beats.
    pub played_start_beats: f64,
    /// Written start, beats (where the staff shows it).
    pub written_start_beats: f64,
    /// Its length, beats.
    pub beats: f64,
    /// A repeat's second time.
    pub again: bool,
}

/// The played timeline of `measures` measure by measure; empty when nothing repeats (played and
/// written times are then the same). A measure played again keeps its number and page position,
/// so its first occurrence is the written one; written starts add up the written measures in
/// page order.
pub fn play_segments(measures: &[Measure]) -> Vec<PlaySegment> {
    let key = |m: &Measure| (m.number, m.y_bottom.to_bits());
    let mut firsts: Vec<&Measure> = Vec::new();
    for m in measures {
        if !firsts.iter().any(|f| key(f) == key(m)) {
            firsts.push(m);
        }
    }
    if firsts.len() == measures.len() {
        return Vec::new();
    }
    let mut written: Vec<(&Measure, f64)> = Vec::new();
    let mut order = firsts.clone();
    order.sort_by(|a, b| a.y_bottom.total_cmp(&b.y_bottom).then(a.number.cmp(&b.number)));
    let mut at = order.first().map_or(0.0, |m| m.start_beats);
    for m in order {
        written.push((m, at));
        at += m.beats;
    }
    measures
        .iter()
        .map(|m| {
            let w = written.iter().find(|(f, _)| key(f) == key(m)).map_or(m.start_beats, |x| x.1);
            let again = !firsts.iter().any(|f| std::ptr::eq(*f, m));
            PlaySegment { played_start_beats: m.start_beats, written_start_beats: w, beats: m.beats, again }
        })
        .collect()
}

/// The written beat shown at played beat `t_played`, and whether it is a repeat's second time
/// (identity for an empty timeline; before the first measure, times are as written).
pub fn written_beats(segments: &[PlaySegment], t_played: f64) -> (f64, bool) {
    let idx = segments.partition_point(|s| s.played_start_beats <= t_played + 1e-9);
    match idx.checked_sub(1).and_then(|i| segments.get(i)) {
        Some(s) => (t_played - s.played_start_beats + s.written_start_beats, s.again),
        None => (t_played, false),
    }
}

/// The first played beat that shows written beat `t_written` (the inverse of [`written_beats`]
/// for a section's first time).
pub fn played_beats(segments: &[PlaySegment], t_written: f64) -> f64 {
    let first = segments
        .iter()
        .filter(|s| !s.again && s.written_start_beats <= t_written + 1e-9)
        .max_by(|a, b| a.written_start_beats.total_cmp(&b.written_start_beats));
    match first {
        Some(s) => s.played_start_beats + (t_written - s.written_start_beats),
        None => t_written,
    }
}
