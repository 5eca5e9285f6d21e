//! Page symbols → composite score: staves, measures, columns, channels and modifiers.
//!
//! Symbols are placed by geometry only (file order means nothing), timed through the per-measure
//! [`Timeline`], sorted into channels, and modifiers are attached to the symbol they touch. The
//! page is read in passes over one page context, a file each: its frame (staves, timing, meter,
//! tempo), then place, claim, pins, channels and attach.

mod attach;
mod channels;
mod claim;
mod frame;
mod pins;
mod place;

pub use frame::LED_STAFF_HALF_WIDTH;

use super::staves::{ColumnConvention, StaffGeometry, Zone};
use super::timeline::{LED_UNITS_PER_BEAT, Timeline};
use super::types::*;
use crate::diag::Diagnostic;
use crate::read::{Document, Format, PageSymbol};
use std::collections::{BTreeMap, BTreeSet};

/// LED's step grid, beats: `.lbn` starts and ends snap to it.
pub const LED_STEP_BEATS: f64 = 0.25;

/// Gaps in the support columns shorter than this are not flights, beats (labanotation-rules §3).
pub const FLIGHT_MIN_BEATS: f64 = 0.125;

/// Knobs of the page interpretation, chosen per format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageOptions {
    /// Which columns outside the staff mean what.
    pub convention: ColumnConvention,
    /// Page units per beat, to count beats in a measure when no meter is written.
    pub units_per_beat: f32,
    /// Starts and ends snap to multiples of this many beats (0 = no snapping).
    pub quantum_beats: f64,
    /// Gaps in the support columns shorter than this are not flights (labanotation-rules §3).
    pub gap_tolerance_beats: f64,
}

impl PageOptions {
    /// The options for a format: LED's 24 units per beat (4 steps of 6 units) and its step
    /// grid for `.lbn`; textbook columns and no snapping otherwise.
    pub fn for_format(format: Format) -> Self {
        match format {
            Format::Lbn => PageOptions {
                convention: ColumnConvention::Lintel,
                units_per_beat: LED_UNITS_PER_BEAT,
                quantum_beats: LED_STEP_BEATS,
                gap_tolerance_beats: FLIGHT_MIN_BEATS,
            },
            _ => PageOptions {
                convention: ColumnConvention::Standard,
                units_per_beat: LED_UNITS_PER_BEAT,
                quantum_beats: 0.0,
                gap_tolerance_beats: FLIGHT_MIN_BEATS,
            },
        }
    }
}

/// A symbol with its staff, column and time.
#[derive(Clone, Debug)]
pub(super) struct Placed<'a> {
    /// The symbol as read.
    pub sym: &'a PageSymbol,
    /// Index of its staff.
    pub staff: usize,
    /// Its signed column on that staff.
    pub column: i32,
    /// Start, beats.
    pub start_beats: f64,
    /// End, beats.
    pub end_beats: f64,
}

/// The page being read: what every pass reads.
struct Page<'a> {
    /// The document.
    doc: &'a Document,
    /// The format's knobs.
    opts: PageOptions,
    /// The staves, found or guessed.
    staves_geo: Vec<StaffGeometry>,
    /// Page y → beats, with the measures.
    timeline: Timeline,
    /// The tempo, written or default.
    tempo: TempoMap,
    /// The meter, written or inferred.
    meter: Meter,
    /// Indices of the symbols kept out of everything (mistyped coordinates).
    outliers: BTreeSet<usize>,
}

/// Builds the composite score from a graphical document.
pub fn compose_page(doc: &Document, opts: PageOptions) -> Score {
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let page = Page::read(doc, opts, &mut warnings);
    let placed = page.place(&mut warnings);
    let duration_beats = page.timeline.end_beats().max(placed.iter().map(|p| p.end_beats).fold(0.0, f64::max));
    let mut builders: Vec<StaffBuilder> =
        page.staves_geo.iter().enumerate().map(|(i, g)| StaffBuilder::new(i, *g)).collect();
    let claimed = page.claim(&placed, duration_beats, &mut warnings);
    let inner_pins = page.pins(&placed, &mut builders);
    page.channels(&placed, &claimed, &inner_pins, &mut builders, &mut warnings);
    page.attach(&placed, &mut builders, &mut warnings);

    let staves: Vec<Staff> = builders.into_iter().map(|b| b.finish()).collect();
    let contacts: Vec<Contact> = claimed
        .contacts
        .into_iter()
        .map(|mut c| {
            c.end_beats = c.end_beats.min(duration_beats);
            c
        })
        .collect();
    warnings.extend(doc.warnings.iter().cloned());
    warnings.sort_by_key(|d| (d.span.line, d.span.col));
    Score {
        title: doc.title.clone(),
        format: doc.format,
        tempo: page.tempo,
        meter: page.meter,
        measures: page.timeline.measures,
        staves,
        duration_beats,
        contacts,
        warnings,
    }
}

impl Page<'_> {
    /// Where `p` stands, for messages: staff, measure, beat and column.
    fn place_text(&self, p: &Placed) -> String {
        let (m, b) = measure_in(&self.timeline.measures, p.start_beats);
        format!("staff {}, measure {m}, beat {:.2}, column {}", p.staff + 1, b + 1.0, side_label(p.column))
    }

    /// The entry of kind `kind` for `p`: timed in beats and seconds, in its measure (measure 0,
    /// no duration, for symbols before the music starts).
    fn entry(&self, p: &Placed, kind: EntryKind) -> Entry {
        let (measures, tempo) = (&self.timeline.measures, self.tempo);
        let (start, dur) = if p.end_beats <= 0.0 {
            (0.0, 0.0)
        } else {
            (p.start_beats.max(0.0), p.end_beats - p.start_beats.max(0.0))
        };
        let (measure, beat_in_measure) = measure_in(measures, start);
        let measure = if p.end_beats <= 0.0 { 0 } else { measure };
        Entry {
            kind,
            start_beats: start,
            duration_beats: dur,
            start_secs: tempo.secs_from_beats(start),
            duration_secs: tempo.secs_from_beats(dur),
            measure,
            beat_in_measure,
            column: p.column,
            modifiers: Vec::new(),
            code: p.sym.code.clone(),
            span: p.sym.span,
        }
    }
}

/// A column as `L3` / `R1`.
fn side_label(column: i32) -> String {
    format!("{}{}", if column < 0 { "L" } else { "R" }, column.abs())
}

/// True when the centre of `inner` lies inside `outer`'s box grown by `grow` of its size.
fn contains_centre(outer: &PageSymbol, inner: &PageSymbol, grow: f32) -> bool {
    let (cx, cy) = (inner.x_mid(), inner.y + inner.h * 0.5);
    let gx = outer.w * grow;
    let gy = outer.h * 0.1;
    cx >= outer.x - gx && cx <= outer.x + outer.w + gx && cy >= outer.y - gy && cy <= outer.y_top() + gy
}

/// Degrees turned by a turn sign of sense `clockwise` holding a pin of orientation `k`
/// (labanotation-rules §4.1: right = 45·(k−1), left = 45·(9−k), pin up = a full turn).
pub fn pin_turn_degrees(clockwise: bool, k: u8) -> f64 {
    let k = k.clamp(1, 8) as f64;
    let deg = if clockwise { 45.0 * (k - 1.0) } else { 45.0 * (9.0 - k) };
    if deg == 0.0 || deg >= 360.0 { 360.0 } else { deg }
}

/// [`measure_at`], with the beat reported as 0 outside any measure (the starting position).
fn measure_in(measures: &[Measure], t_beats: f64) -> (u32, f64) {
    match measure_at(measures, t_beats) {
        (0, _) => (0, 0.0),
        found => found,
    }
}

fn channel_of_zone(zone: Zone) -> ChannelKind {
    match zone {
        Zone::Support(s) => ChannelKind::Support(s),
        Zone::LegGesture(s) => ChannelKind::LegGesture(s),
        Zone::Body(s) => ChannelKind::Body(s),
        Zone::Arm(s) => ChannelKind::Arm(s),
        Zone::Head => ChannelKind::Head,
        Zone::Extra(s) => ChannelKind::Arm(s),
    }
}

/// Collects one staff's entries while the page is read.
struct StaffBuilder {
    index: usize,
    geo: StaffGeometry,
    dancer: Option<DancerSign>,
    /// (channel, entry, index into placed)
    entries: Vec<(ChannelKind, Entry, usize)>,
    loose: Vec<(usize, Modifier)>,
}

impl StaffBuilder {
    fn new(index: usize, geo: StaffGeometry) -> Self {
        Self { index, geo, dancer: None, entries: Vec::new(), loose: Vec::new() }
    }

    fn push(&mut self, kind: ChannelKind, entry: Entry, placed_index: usize) {
        self.entries.push((kind, entry, placed_index));
    }

    /// The staff, its flights not yet found ([`super::gaps::find_flights`] finds them once the
    /// repeats are played).
    fn finish(self) -> Staff {
        let mut channels: BTreeMap<ChannelKind, Vec<Entry>> = BTreeMap::new();
        let mut start_position = Vec::new();
        let mut start_facing_deg = 0.0;
        for (kind, entry, _) in self.entries {
            if entry.measure == 0 && entry.duration_beats == 0.0 {
                if let EntryKind::Front { facing_deg } = entry.kind {
                    start_facing_deg = facing_deg;
                }
                start_position.push((kind, entry));
            } else {
                channels.entry(kind).or_default().push(entry);
            }
        }
        let channels: Vec<Channel> = channels
            .into_iter()
            .map(|(kind, mut entries)| {
                entries.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats).then(a.column.cmp(&b.column)));
                Channel { kind, entries }
            })
            .collect();
        start_position.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.column.cmp(&b.1.column)));
        Staff {
            index: self.index,
            dancer: self.dancer,
            centre_x: self.geo.centre_x,
            half_width: self.geo.half_width,
            start_facing_deg,
            start_position,
            channels,
            gaps: Vec::new(),
        }
    }
}
