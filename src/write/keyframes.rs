//! A keyframe document (the JSON formats) laid out as an `.lbn` page that composes to the same
//! keys: one LED staff ([`crate::edit::blank::blank_score`], without its starting position), each
//! keyframe one sign at the start and end seconds the keyframe composer gives it.
//!
//! Columns (LED's, `.lbn` reads 3 to 5 beside the centre as arm columns): the upper arms (elbow
//! pre-sign `Limb 2`/`7`) in columns ±3, the lower arms (wrist pre-sign `Limb 3`/`8`) in ±4 and
//! the head (text `C`) in +5; each pre-sign heads its column from below the staff. A keyframe of
//! the starting position stands under the first double bar. A whole-body rotation is a turn sign
//! across both support columns holding the pin of its amount (eighths of a turn).
//!
//! Time: the tempo (`q=`, 20 to 400) is the one whose quarter-beat grid leaves the fewest keys
//! lasting no time (keys closer together than a step), then lies nearest every start and end
//! (120, the reader's default, on a tie; otherwise the slowest), so that no time moves by more
//! than an eighth of a beat. A keyframe `.lbn` cannot say (a rotation of less than half an
//! eighth of a turn, a channel with no column) is a warning at its place and left out.

use crate::diag::{Diagnostic, Span};
use crate::read::{BodyPart, Document, Format, Level, PageSymbol, Side, SymbolKind, TurnSign};
use crate::score::compose::LED_STEP_BEATS;
use crate::score::geometry::{OUTLIER_SIZE_MEASURES, PLAUSIBLE_BPM};
use crate::score::timeline::LED_UNITS_PER_BEAT;
use crate::score::{ChannelKind, Entry, EntryKind, Score};
use std::collections::BTreeSet;

/// Beats per measure of the page.
pub const BEATS_PER_MEASURE: u32 = 4;
/// The tempo chosen when several lie equally near every time: the reader's default.
const PREFERRED_BPM: u32 = 120;
/// Page y of beat 0 (the first double bar of [`crate::edit::blank::blank_score`]).
const BEAT0_Y: f32 = 96.0;
/// A sign of the starting position: bottom and height (between the start bar and beat 0).
const START_POSITION_Y: f32 = 70.0;
const START_POSITION_H: f32 = 23.0;
/// x of the staff's centre line.
const STAFF_CENTRE_X: f32 = 133.0;
/// Width of a direction sign.
const SIGN_W: f32 = 10.0;
/// The pre-signs stand this low, so that the first sign of their column is more than the
/// reach of a pre-sign above them: they head the column instead of naming one sign.
const PRE_SIGN_Y: f32 = 12.0;
const PRE_SIGN_H: f32 = 12.0;
/// A turn sign across both support columns (LED's) and the pin inside it.
const TURN_X: f32 = 122.0;
const TURN_W: f32 = 22.0;
const PIN_X: f32 = 124.0;
const PIN_SIZE: f32 = 18.0;
/// Degrees a pin's orientation steps by.
const PIN_STEP_DEG: f64 = 45.0;
/// A sign is at most this many beats tall, a measure short of the height the reader sets aside
/// as mistyped.
const MAX_SIGN_BEATS: f64 = (OUTLIER_SIZE_MEASURES as f64 - 1.0) * BEATS_PER_MEASURE as f64;

/// A keyframe document laid out as a page.
#[derive(Clone, Debug, PartialEq)]
pub struct LaidOut {
    /// The page (format `.lbn`): every sign of a keyframe carries that keyframe's place in the
    /// source file; the staff, bars, texts and pre-signs carry none.
    pub document: Document,
    /// The tempo written, quarter-note beats per minute.
    pub bpm: u32,
    /// How many of the document's keyframes (gestures and rotations) have a sign.
    pub keys_written: usize,
    /// One warning per keyframe left out, at its place in the source file.
    pub warnings: Vec<Diagnostic>,
}

/// The column x of a channel's signs, or `None` when `.lbn` has no column for it.
fn column_x(channel: ChannelKind) -> Option<f32> {
    Some(match channel {
        ChannelKind::Part(BodyPart::Elbow(Side::Right)) => 171.0,
        ChannelKind::Part(BodyPart::Wrist(Side::Right)) => 184.0,
        ChannelKind::Head | ChannelKind::Part(BodyPart::Head) => 196.0,
        ChannelKind::Part(BodyPart::Elbow(Side::Left)) => 85.0,
        ChannelKind::Part(BodyPart::Wrist(Side::Left)) => 73.0,
        _ => return None,
    })
}

/// The sign heading a channel's column: a limb pre-sign, or the head's text `C`.
fn heading(channel: ChannelKind) -> Option<(SymbolKind, &'static str)> {
    Some(match channel {
        ChannelKind::Head | ChannelKind::Part(BodyPart::Head) => (SymbolKind::Text("C".into()), "Keys 0"),
        ChannelKind::Part(part @ BodyPart::Elbow(Side::Left)) => (SymbolKind::BodyPart(part), "Limb 2"),
        ChannelKind::Part(part @ BodyPart::Wrist(Side::Left)) => (SymbolKind::BodyPart(part), "Limb 3"),
        ChannelKind::Part(part @ BodyPart::Elbow(Side::Right)) => (SymbolKind::BodyPart(part), "Limb 7"),
        ChannelKind::Part(part @ BodyPart::Wrist(Side::Right)) => (SymbolKind::BodyPart(part), "Limb 8"),
        _ => return None,
    })
}

fn symbol(kind: SymbolKind, code: &str, xywh: [f32; 4], level: Level, span: Span) -> PageSymbol {
    let [x, y, w, h] = xywh;
    PageSymbol { kind, code: code.to_owned(), x, y, w, h, level, lbn_step: None, span }
}

/// `beats` on LED's quarter-beat grid.
fn on_grid(beats: f64) -> f64 {
    (beats / LED_STEP_BEATS).round() * LED_STEP_BEATS
}

/// How the grid at `bpm` fits keys from and to `intervals_secs`: how many that last some time
/// last none on it (closer together than a grid step), and the largest distance, seconds, between
/// a start or end and the grid.
fn grid_fit(intervals_secs: &[(f64, f64)], bpm: f64) -> (usize, f64) {
    let grid = |t: f64| on_grid(t * bpm / 60.0);
    let collapsed = intervals_secs.iter().filter(|(s, e)| e - s > 1e-9 && grid(*s) == grid(*e)).count();
    let error =
        intervals_secs.iter().flat_map(|&(s, e)| [s, e]).map(|t| (grid(t) * 60.0 / bpm - t).abs()).fold(0.0, f64::max);
    (collapsed, error)
}

/// The tempo whose grid fits the keys from and to `intervals_secs` best (the fewest keys that
/// last no time on it, then the smallest distance of a start or end to it) among those at which
/// no key is taller than the reader accepts: [`PREFERRED_BPM`] when it fits as well as any, else
/// the slowest of the best.
pub fn best_bpm(intervals_secs: &[(f64, f64)]) -> u32 {
    let longest_secs = intervals_secs.iter().map(|(s, e)| e - s).fold(0.0, f64::max);
    let (lo, hi) = (*PLAUSIBLE_BPM.start() as u32, *PLAUSIBLE_BPM.end() as u32);
    let fits = |bpm: u32| longest_secs * bpm as f64 / 60.0 <= MAX_SIGN_BEATS;
    let candidates: Vec<u32> = match (lo..=hi).filter(|&b| fits(b)).collect::<Vec<_>>() {
        fitting if !fitting.is_empty() => fitting,
        _ => vec![lo],
    };
    let scored: Vec<(u32, (usize, f64))> =
        candidates.iter().map(|&b| (b, grid_fit(intervals_secs, b as f64))).collect();
    let Some(best) = scored.iter().map(|s| s.1).min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1))) else {
        return PREFERRED_BPM;
    };
    let as_good = |fit: (usize, f64)| fit.0 == best.0 && fit.1 <= best.1 + 1e-9;
    if scored.iter().any(|&(b, fit)| b == PREFERRED_BPM && as_good(fit)) {
        return PREFERRED_BPM;
    }
    scored.iter().find(|s| as_good(s.1)).map_or(PREFERRED_BPM, |s| s.0)
}

/// One entry of the keyframe composite to lay out: its channel, the entry, and whether it is of
/// the starting position.
struct Key<'s> {
    channel: ChannelKind,
    entry: &'s Entry,
    start_position: bool,
}

/// The entries of `score`'s staff, the starting position first, in time order per channel.
fn keys_of(score: &Score) -> Vec<Key<'_>> {
    let Some(staff) = score.staves.first() else { return Vec::new() };
    let start =
        staff.start_position.iter().map(|(channel, entry)| Key { channel: *channel, entry, start_position: true });
    let timed = staff
        .channels
        .iter()
        .flat_map(|c| c.entries.iter().map(move |entry| Key { channel: c.kind, entry, start_position: false }));
    start.chain(timed).collect()
}

/// Start and end beats of a timed key at `bpm`, on the grid; a key that ends after beat 0 still
/// does (else the reader takes it for the starting position).
fn grid_times(entry: &Entry, bpm: f64) -> (f64, f64) {
    let start = on_grid(entry.start_secs * bpm / 60.0).max(0.0);
    let end = on_grid((entry.start_secs + entry.duration_secs) * bpm / 60.0).max(start);
    if end <= 0.0 { (0.0, LED_STEP_BEATS) } else { (start, end) }
}

/// y and height of a sign from `start` to `end` beats.
fn y_h(start_beats: f64, end_beats: f64) -> (f32, f32) {
    let units = LED_UNITS_PER_BEAT as f64;
    ((BEAT0_Y as f64 + start_beats * units) as f32, ((end_beats - start_beats) * units) as f32)
}

/// The turn sign and pin of a rotation key, or why it has none.
fn turn_signs(entry: &Entry, bpm: f64) -> Result<[PageSymbol; 2], String> {
    let EntryKind::Turn { clockwise: Some(clockwise), amount_deg: Some(amount_deg), .. } = entry.kind else {
        return Err("a turn without a sense or amount has no `.lbn` sign".into());
    };
    let eighths = (amount_deg / PIN_STEP_DEG).round();
    if eighths < 1.0 {
        return Err(format!("a turn of {amount_deg}° is less than half of the eighth of a turn a pin can say"));
    }
    let eighths = eighths.min(8.0) as u8;
    // Right: 45·(k−1) degrees; left: 45·(9−k); pin 1 (pointing up) is a whole turn.
    let orientation = if clockwise { eighths % 8 + 1 } else { 9 - eighths };
    let (start, end) = grid_times(entry, bpm);
    let (y, h) = y_h(start, end);
    let (sign, code) = if clockwise { (TurnSign::Right, "Rotn 2") } else { (TurnSign::Left, "Rotn 1") };
    let turn = symbol(SymbolKind::Turn(sign), code, [TURN_X, y, TURN_W, h], Level::Middle, entry.span);
    let pin_y = y + h / 2.0 - PIN_SIZE / 2.0;
    let pin = symbol(
        SymbolKind::Pin { orientation, black: true },
        &format!("Pins {orientation}"),
        [PIN_X, pin_y, PIN_SIZE, PIN_SIZE],
        Level::Low,
        entry.span,
    );
    Ok([turn, pin])
}

/// The direction sign of a gesture key in its channel's column, or why it has none.
fn direction_sign(key: &Key, bpm: f64) -> Result<PageSymbol, String> {
    let EntryKind::Direction { direction, level } = key.entry.kind else {
        return Err(format!("`.lbn` has no sign for {:?} in this layout", key.entry.kind));
    };
    let Some(x) = column_x(key.channel) else {
        return Err(format!("`.lbn` has no column for the {} in this layout", key.channel.name()));
    };
    let (y, h) = if key.start_position {
        (START_POSITION_Y, START_POSITION_H)
    } else {
        let (start, end) = grid_times(key.entry, bpm);
        y_h(start, end)
    };
    // Forward and backward are drawn in their left-side form left of the staff.
    let (kind, code) = crate::edit::signs::direction_symbol(direction, x < STAFF_CENTRE_X);
    Ok(symbol(kind, &code, [x, y, SIGN_W, h], level, key.entry.span))
}

/// Start and end of every timed key, seconds.
fn key_intervals_secs(keys: &[Key]) -> Vec<(f64, f64)> {
    keys.iter()
        .filter(|k| !k.start_position)
        .map(|k| (k.entry.start_secs, k.entry.start_secs + k.entry.duration_secs))
        .collect()
}

/// Lays out the keyframes of `doc` (a JSON document) as an `.lbn` page.
pub fn lay_out_keyframes(doc: &Document) -> LaidOut {
    let score = Score::from_document(doc);
    // Keyframes the composer left out (out of bounds) are its warnings beyond the reader's.
    let mut warnings: Vec<Diagnostic> = score.warnings.iter().filter(|w| !doc.warnings.contains(w)).cloned().collect();
    let keys = keys_of(&score);
    let bpm = best_bpm(&key_intervals_secs(&keys));
    let bpm_f = bpm as f64;
    let mut signs: Vec<PageSymbol> = Vec::new();
    let mut headed: BTreeSet<ChannelKind> = BTreeSet::new();
    for key in &keys {
        let laid = match key.channel {
            ChannelKind::BodyTurn => turn_signs(key.entry, bpm_f).map(Vec::from),
            _ => direction_sign(key, bpm_f).map(|s| vec![s]),
        };
        match laid {
            Ok(laid) => {
                signs.extend(laid);
                headed.insert(key.channel);
            }
            Err(why) => warnings.push(Diagnostic::warning(key.entry.span, format!("keyframe left out: {why}"))),
        }
    }
    let end_beats = signs.iter().map(|s| (s.y_top() - BEAT0_Y) as f64 / LED_UNITS_PER_BEAT as f64).fold(0.0, f64::max);
    // Past the last sign (else a sign of no length there is beyond every measure), and at least
    // as long as the keyframe score lasts.
    let per_measure = BEATS_PER_MEASURE as f64;
    let lasts_beats = score.duration_secs() * bpm_f / 60.0;
    let measures = ((end_beats / per_measure).floor() as usize + 1).max((lasts_beats / per_measure).ceil() as usize);
    let mut page = crate::edit::blank::blank_score(measures, BEATS_PER_MEASURE, bpm);
    // The blank score's starting position (feet together, arms down) is not the keyframes'.
    page.symbols.retain(|s| !matches!(s.kind, SymbolKind::Direction { .. }));
    page.symbols.iter_mut().for_each(|s| s.span = Span::default());
    for channel in &headed {
        if let (Some(x), Some((kind, code))) = (column_x(*channel), heading(*channel)) {
            page.symbols.push(symbol(kind, code, [x, PRE_SIGN_Y, SIGN_W, PRE_SIGN_H], Level::Blank, Span::default()));
        }
    }
    page.symbols.extend(signs);
    page.format = Format::Lbn;
    page.title = doc.title.clone();
    page.comments = doc.title.iter().cloned().collect();
    let written: BTreeSet<Span> = page.symbols.iter().map(|s| s.span).filter(|s| *s != Span::default()).collect();
    let keys_written = doc
        .keyframes
        .gestures
        .iter()
        .map(|g| g.span)
        .chain(doc.keyframes.rotations.iter().map(|r| r.span))
        .filter(|s| written.contains(s))
        .count();
    warnings.sort_by_key(|d| (d.span.line, d.span.col));
    LaidOut { document: page, bpm, keys_written, warnings }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tempo_is_120_where_its_grid_holds_every_key_else_the_slowest_that_fits_best() {
        assert_eq!(best_bpm(&[(0.0, 0.5), (0.5, 1.75)]), 120);
        // 50 ms keys: a quarter beat is 50 ms at 300 bpm (and at its multiples, none allowed).
        assert_eq!(best_bpm(&[(0.0, 0.05), (0.05, 1.05), (1.05, 1.1)]), 300);
        // A key of 100 s is at most 60 beats tall: at most 36 bpm.
        let bpm = best_bpm(&[(0.0, 100.0), (100.0, 100.05)]);
        assert!(bpm as f64 * 100.0 / 60.0 <= MAX_SIGN_BEATS, "{bpm}");
    }

    #[test]
    fn each_part_is_written_in_its_column_and_reads_back_in_its_channel() {
        let json = br#"[{"time": 0.0, "head": {"dur": 0.5, "dir": "left", "lvl": "high"},
            "relbow": {"dur": 0.5, "dir": "right", "lvl": "normal"}, "rwrist": {"dur": 0.5, "dir": "forward", "lvl": "low"},
            "lelbow": {"dur": 0.5, "dir": "left", "lvl": "normal"}, "lwrist": {"dur": 0.5, "dir": "backward", "lvl": "high"}}]"#;
        let doc = crate::read::json::read(json).unwrap();
        let laid = lay_out_keyframes(&doc);
        assert_eq!((laid.keys_written, laid.bpm, laid.warnings.len()), (5, 120, 0));
        let back = crate::read::lbn::read(super::super::write_lbn(&laid.document).text.as_bytes()).unwrap();
        let score = Score::from_document(&back);
        let mut channels: Vec<(String, String)> = score.staves[0]
            .channels
            .iter()
            .flat_map(|c| c.entries.iter().map(move |e| (c.kind.name(), format!("{:?}", e.kind))))
            .collect();
        channels.sort();
        let mut expected: Vec<(String, String)> = Score::from_document(&doc).staves[0]
            .channels
            .iter()
            .flat_map(|c| c.entries.iter().map(move |e| (c.kind.name(), format!("{:?}", e.kind))))
            .collect();
        expected.sort();
        let expected: Vec<(String, String)> =
            expected.into_iter().map(|(c, k)| (if c == "head" { "part head".into() } else { c }, k)).collect();
        assert_eq!(channels, expected);
    }
}
