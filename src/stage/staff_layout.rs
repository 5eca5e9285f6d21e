//! Pure layout of the scrolling Labanotation staff: every staff of a score side by side, with
//! lines, bars, the starting position and one glyph per entry, placed in panel pixels for a view
//! and a time. Time flows up; the symbol at `t_beats` sits on the horizontal cursor line.
//! No egui types here: `staff_ui` paints what this returns.

use crate::read::{BodyPart, Direction, Level, Side, VolumeSign};
use crate::score::{ChannelKind, Entry, EntryKind, Modifier, Score};
use crate::stage::playback::MeasureGrid;

/// Width of one column in panel pixels (the staff is four columns wide: ±1 support, ±2 leg).
pub const COLUMN_WIDTH_PX: f32 = 18.0;
/// Left margin holding the measure numbers and the meter, in pixels.
pub const MARGIN_LEFT_PX: f32 = 30.0;
/// Space between two staves (outermost columns), in pixels.
pub const STAFF_GAP_PX: f32 = 18.0;
/// Right margin, in pixels.
pub const MARGIN_RIGHT_PX: f32 = 8.0;
/// Height of the starting-position area below the first double bar, in beats.
pub const START_AREA_BEATS: f64 = 1.25;
/// Smallest drawn height of a symbol (zero-duration entries), in pixels.
pub const MIN_GLYPH_HEIGHT_PX: f32 = 10.0;
/// Horizontal inset of a symbol inside its column, in pixels (each side).
const GLYPH_INSET_X_PX: f32 = 2.5;
/// Vertical gap left between a symbol and its neighbours, in pixels (each end).
const GLYPH_GAP_Y_PX: f32 = 1.5;
/// Side of a pin, hold, volume or pre-sign square, in pixels.
const SMALL_SIGN_PX: f32 = 10.0;
/// Extra pixels searched beyond the view so that signs hanging below a symbol are not lost.
const SEARCH_SLACK_PX: f64 = 40.0;

/// The panel a layout is queried for: its size, where the cursor line is, and the time scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StaffView {
    /// Panel width in pixels.
    pub width_px: f32,
    /// Panel height in pixels.
    pub height_px: f32,
    /// y of the horizontal cursor line, pixels from the panel top.
    pub cursor_y_px: f32,
    /// Vertical pixels per beat.
    pub px_per_beat: f32,
}

impl StaffView {
    /// A view with the cursor line at three quarters of the height (the coming symbols show above it).
    pub fn new(width_px: f32, height_px: f32, px_per_beat: f32) -> StaffView {
        StaffView { width_px, height_px, cursor_y_px: 0.75 * height_px, px_per_beat }
    }
}

/// What a placed glyph is.
#[derive(Clone, Debug, PartialEq)]
pub enum GlyphKind {
    /// A vertical staff line (the rect has zero width).
    StaffLine,
    /// A single bar line across the staff, at the bottom of `measure` (zero height).
    BarLine {
        /// Number of the measure that starts here.
        measure: u32,
    },
    /// A double bar line: the start (beat 0) or the end of the score; both rect edges are lines.
    DoubleBar,
    /// A beat tick on the centre line (zero height).
    BeatTick,
    /// A direction symbol; its length is its duration.
    Direction {
        /// Which way.
        direction: Direction,
        /// Level (the shading).
        level: Level,
        /// The column is left of the centre line (picks the mirror form of forward/backward).
        left_side: bool,
        /// Signed column.
        column: i32,
    },
    /// A turn sign.
    Turn {
        /// Clockwise seen from above; `None` for other rotation signs.
        clockwise: Option<bool>,
    },
    /// A hold sign (a small circle at the bottom of the rect).
    Hold,
    /// An action stroke: a plain vertical line, its length the duration.
    ActionStroke,
    /// A pin: `orientation` 1..=8 clockwise from up the page.
    Pin {
        /// 1..=8.
        orientation: u8,
        /// Black (filled) or white pin.
        black: bool,
    },
    /// A front (facing) sign, drawn at the bottom of the rect.
    Front {
        /// Facing, degrees clockwise from the audience (up the page).
        facing_deg: f64,
    },
    /// A path sign: a long vertical bracket; circular ones curl at the top towards their sense.
    Path {
        /// `Some(true)` clockwise circle, `Some(false)` counter-clockwise, `None` straight/other.
        circle_clockwise: Option<bool>,
    },
    /// A body-part pre-sign claiming a column, as a short label.
    BodyPart(String),
    /// Text: measure numbers, meter, dancer numbers, flexion signs.
    Text(String),
    /// The horizontal cursor line (zero height), across all staves.
    Cursor,
}

/// The entry a glyph stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EntryRef {
    /// Staff index in `score.staves`.
    pub staff: usize,
    /// Channel index in the staff's `channels` (for a starting-position entry: the channel of the
    /// same kind, or `usize::MAX` when the staff has none).
    pub channel: usize,
    /// Entry index in that channel (for a starting-position entry: index in `start_position`).
    pub index: usize,
    /// Start of the entry in beats (0 for the starting position).
    pub start_beats: f64,
    /// True when the entry belongs to the starting position.
    pub in_start_position: bool,
}

/// A glyph placed in the panel.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedGlyph {
    /// What to draw.
    pub kind: GlyphKind,
    /// x0, y0, x1, y1 in panel pixels, y down (x0 ≤ x1, y0 ≤ y1).
    pub rect_px: [f32; 4],
    /// Staff index (0 for the cursor and the measure numbers).
    pub staff: usize,
    /// The score entry, for symbols and their attached signs.
    pub entry: Option<EntryRef>,
    /// The entry spans the current time: `start <= t < end`.
    pub active: bool,
}

/// Horizontal span relative to the staff centre line, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SpanX {
    x0: f32,
    x1: f32,
}

/// A sign attached to a symbol, placed relative to it.
#[derive(Clone, Debug, PartialEq)]
struct Attached {
    kind: GlyphKind,
    place: AttachPlace,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum AttachPlace {
    /// Centred inside the symbol.
    Inside,
    /// At the bottom corner toward the centre line.
    BottomInner,
    /// At the bottom corner away from the centre line.
    BottomOuter,
    /// Just below the symbol, same column.
    Below,
}

/// One symbol of a staff, laid out once.
#[derive(Clone, Debug, PartialEq)]
struct Item {
    start_beats: f64,
    end_beats: f64,
    span: SpanX,
    outer_is_right: bool,
    kind: GlyphKind,
    entry: EntryRef,
    attached: Vec<Attached>,
}

/// One staff, laid out once.
#[derive(Clone, Debug, PartialEq)]
struct StaffColumns {
    /// Staff centre line, pixels from the content's left edge.
    centre_x: f32,
    /// Columns used left and right of the centre line (at least 2: the staff itself).
    left_columns: i32,
    right_columns: i32,
    dancer: Option<(u8, bool)>,
    /// Starting-position symbols (drawn inside the start area).
    start_items: Vec<Item>,
    /// Symbols sorted by start, then column.
    items: Vec<Item>,
    /// Longest item, beats (for the visible-window search).
    max_item_beats: f64,
}

/// The laid-out staves of one score. Built once; queried every frame with [`StaffLayout::glyphs`].
#[derive(Clone, Debug, PartialEq)]
pub struct StaffLayout {
    staves: Vec<StaffColumns>,
    /// Bar lines after the first double bar: (beat, number of the measure starting there).
    bars: Vec<(f64, u32)>,
    /// Measure starts with their numbers, including measure 1 at the double bar.
    measure_starts: Vec<(f64, u32)>,
    /// Beat ticks (not on bar lines), sorted.
    ticks: Vec<f64>,
    end_beats: f64,
    content_width_px: f32,
    meter_text: String,
}

/// The default column of a channel when the entry has none (keyframe scores write column 0).
fn default_column(kind: ChannelKind) -> i32 {
    let signed = |side: Side, magnitude: i32| if side == Side::Left { -magnitude } else { magnitude };
    match kind {
        ChannelKind::Support(side) => signed(side, 1),
        ChannelKind::LegGesture(side) => signed(side, 2),
        ChannelKind::Body(side) => signed(side, 3),
        ChannelKind::Arm(side) => signed(side, 4),
        ChannelKind::Head => 5,
        ChannelKind::Part(part) => match part {
            BodyPart::Elbow(side) | BodyPart::Knee(side) | BodyPart::Shoulder(side) | BodyPart::Hip(side) => {
                signed(side, 3)
            }
            BodyPart::Wrist(side) | BodyPart::Ankle(side) | BodyPart::Arm(side) | BodyPart::Leg(side) => {
                signed(side, 4)
            }
            BodyPart::Hand(side) | BodyPart::Foot(side) | BodyPart::Toe(side) => signed(side, 5),
            BodyPart::Head => 5,
            BodyPart::Palm | BodyPart::Chest | BodyPart::Pelvis | BodyPart::Torso => 3,
        },
        ChannelKind::BodyTurn => 1,
        ChannelKind::Front => -6,
        ChannelKind::Path => 6,
    }
}

/// Short label of a body-part pre-sign.
pub fn part_label(part: BodyPart) -> String {
    let side = |s: Side| if s == Side::Left { "l" } else { "r" };
    let (name, s) = match part {
        BodyPart::Shoulder(s) => ("Sh", Some(s)),
        BodyPart::Elbow(s) => ("UA", Some(s)),
        BodyPart::Wrist(s) => ("LA", Some(s)),
        BodyPart::Hand(s) => ("H", Some(s)),
        BodyPart::Hip(s) => ("Hp", Some(s)),
        BodyPart::Knee(s) => ("Th", Some(s)),
        BodyPart::Ankle(s) => ("LL", Some(s)),
        BodyPart::Foot(s) => ("F", Some(s)),
        BodyPart::Toe(s) => ("T", Some(s)),
        BodyPart::Arm(s) => ("A", Some(s)),
        BodyPart::Leg(s) => ("L", Some(s)),
        BodyPart::Palm => ("P", None),
        BodyPart::Head => ("C", None),
        BodyPart::Chest => ("Ch", None),
        BodyPart::Pelvis => ("Pv", None),
        BodyPart::Torso => ("To", None),
    };
    match s {
        Some(s) => format!("{name}{}", side(s)),
        None => name.to_string(),
    }
}

/// Horizontal span of a signed column around the centre line, in pixels (column 0 straddles it).
fn column_span(column: i32) -> SpanX {
    let w = COLUMN_WIDTH_PX;
    let c = column as f32;
    match column {
        0 => SpanX { x0: -0.5 * w, x1: 0.5 * w },
        c_pos if c_pos > 0 => SpanX { x0: (c - 1.0) * w, x1: c * w },
        _ => SpanX { x0: c * w, x1: (c + 1.0) * w },
    }
}

fn inset(span: SpanX, by_px: f32) -> SpanX {
    SpanX { x0: span.x0 + by_px, x1: span.x1 - by_px }
}

fn finite_or(value: f64, fallback: f64) -> f64 {
    if value.is_finite() { value } else { fallback }
}

/// The glyph of an entry, its horizontal span and the signs attached to it.
fn entry_glyph(kind: ChannelKind, entry: &Entry) -> (GlyphKind, SpanX, Vec<Attached>) {
    let column = if entry.column == 0 { default_column(kind) } else { entry.column };
    let column_px = inset(column_span(column), GLYPH_INSET_X_PX);
    let mut attached = Vec::new();
    let (glyph, span) = match &entry.kind {
        EntryKind::Direction { direction, level } => {
            (GlyphKind::Direction { direction: *direction, level: *level, left_side: column < 0, column }, column_px)
        }
        EntryKind::Turn { clockwise, both_feet, .. } => {
            let span = if *both_feet || kind == ChannelKind::BodyTurn {
                inset(SpanX { x0: -COLUMN_WIDTH_PX, x1: COLUMN_WIDTH_PX }, GLYPH_INSET_X_PX)
            } else {
                column_px
            };
            (GlyphKind::Turn { clockwise: *clockwise }, span)
        }
        EntryKind::Hold => (GlyphKind::Hold, column_px),
        EntryKind::BackToNormal => (GlyphKind::Text("N".into()), column_px),
        EntryKind::Action => (GlyphKind::ActionStroke, column_px),
        EntryKind::Front { facing_deg } => (GlyphKind::Front { facing_deg: finite_or(*facing_deg, 0.0) }, column_px),
        EntryKind::Path { sign, .. } => {
            let circle_clockwise = match sign {
                crate::read::PathSign::Circular { clockwise } => Some(*clockwise),
                _ => None,
            };
            (GlyphKind::Path { circle_clockwise }, column_px)
        }
    };
    for modifier in &entry.modifiers {
        match modifier {
            Modifier::TurnPin { orientation } => attached.push(Attached {
                kind: GlyphKind::Pin { orientation: *orientation, black: true },
                place: AttachPlace::Inside,
            }),
            Modifier::Pin { orientation, black } => attached.push(Attached {
                kind: GlyphKind::Pin { orientation: *orientation, black: *black },
                place: AttachPlace::BottomInner,
            }),
            Modifier::Volume(volume) => {
                let text = match volume {
                    VolumeSign::Bent => Some("X"),
                    VolumeSign::Stretched => Some("N"),
                    VolumeSign::Straight => Some("="),
                    VolumeSign::Relaxed => Some("~"),
                    VolumeSign::Hold | VolumeSign::Other(_) => None,
                };
                match (volume, text) {
                    (VolumeSign::Hold, _) => {
                        attached.push(Attached { kind: GlyphKind::Hold, place: AttachPlace::Below })
                    }
                    (_, Some(text)) => attached
                        .push(Attached { kind: GlyphKind::Text(text.to_string()), place: AttachPlace::BottomOuter }),
                    _ => {}
                }
            }
            // A foot hook: a small "J" at the sign's foot, on the outer side.
            Modifier::Hook { .. } => {
                attached.push(Attached { kind: GlyphKind::Text("J".into()), place: AttachPlace::BottomOuter })
            }
        }
    }
    (glyph, span, attached)
}

/// Whether `a` (the closed-open rect) touches the view rectangle.
fn intersects(rect: [f32; 4], width_px: f32, height_px: f32) -> bool {
    rect[2] >= 0.0 && rect[0] <= width_px && rect[3] >= 0.0 && rect[1] <= height_px
}

impl StaffLayout {
    /// Lays out every staff of `score` side by side. Never fails; non-finite times are skipped.
    pub fn new(score: &Score) -> StaffLayout {
        let (staves, content_width_px) = lay_out_staves(score);
        StaffLayout::with_staves(staves, content_width_px, MeasureGrid::of_score(score), score.duration_beats)
    }

    /// A seconds ruler for a motion capture of `duration_secs` (at 60 bpm, a beat is a second):
    /// one empty staff with a bar and its number every second, the meter shown as "sec".
    pub fn seconds(duration_secs: f64) -> StaffLayout {
        let ruler = StaffColumns {
            centre_x: MARGIN_LEFT_PX + 2.0 * COLUMN_WIDTH_PX,
            left_columns: 2,
            right_columns: 2,
            dancer: None,
            start_items: Vec::new(),
            items: Vec::new(),
            max_item_beats: 0.0,
        };
        let width_px = MARGIN_LEFT_PX + 4.0 * COLUMN_WIDTH_PX + MARGIN_RIGHT_PX;
        let grid = MeasureGrid { measures: &[], beats_per_measure: 1 };
        let mut layout = StaffLayout::with_staves(vec![ruler], width_px, grid, duration_secs);
        // Each bar is named by the second it marks, from 0.
        for (_, number) in layout.measure_starts.iter_mut().chain(layout.bars.iter_mut()) {
            *number -= 1;
        }
        layout.meter_text = "sec".to_owned();
        layout
    }

    /// `staves` over the bars of `grid` until `duration_beats`.
    fn with_staves(
        staves: Vec<StaffColumns>,
        content_width_px: f32,
        grid: MeasureGrid<'_>,
        duration_beats: f64,
    ) -> StaffLayout {
        // Measures: the grid's, or the meter's when it lists none.
        let mut measure_starts: Vec<(f64, f64, u32)> = grid
            .measures
            .iter()
            .filter(|m| m.start_beats.is_finite() && m.beats.is_finite() && m.beats > 0.0)
            .map(|m| (m.start_beats, m.beats, m.number))
            .collect();
        let score_end = finite_or(duration_beats, 0.0).max(0.0);
        if measure_starts.is_empty() {
            let per = f64::from(grid.beats_per_measure.max(1));
            let count = (score_end / per).ceil().max(1.0) as u32;
            measure_starts = (0..count).map(|i| (f64::from(i) * per, per, i + 1)).collect();
        }
        measure_starts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let last_measure_end = measure_starts.iter().map(|(s, b, _)| s + b).fold(0.0, f64::max);
        let end_beats = score_end.max(last_measure_end);
        let bars = measure_starts.iter().filter(|(s, _, _)| *s > 1e-6).map(|(s, _, n)| (*s, *n)).collect();
        let mut ticks = Vec::new();
        for (start, beats, _) in &measure_starts {
            let mut k = 1.0;
            while k < beats - 1e-6 && ticks.len() < 1_000_000 {
                ticks.push(start + k);
                k += 1.0;
            }
        }
        ticks.sort_by(f64::total_cmp);
        let meter_text = format!("{}/4", grid.beats_per_measure);
        StaffLayout {
            staves,
            bars,
            measure_starts: measure_starts.iter().map(|(s, _, n)| (*s, *n)).collect(),
            ticks,
            end_beats,
            content_width_px,
            meter_text,
        }
    }

    /// End of the score (the final double bar), in beats.
    pub fn end_beats(&self) -> f64 {
        self.end_beats
    }

    /// Number of staves laid out.
    pub fn staff_count(&self) -> usize {
        self.staves.len()
    }

    /// Width the staves need, in pixels.
    pub fn content_width_px(&self, _view: &StaffView) -> f32 {
        self.content_width_px
    }

    /// x of a staff's centre line in the panel, pixels (None for an unknown staff).
    pub fn staff_centre_x(&self, view: &StaffView, staff: usize) -> Option<f32> {
        self.staves.get(staff).map(|s| self.x_offset(view) + s.centre_x)
    }

    /// Content is centred when the panel is wider than it.
    fn x_offset(&self, view: &StaffView) -> f32 {
        let spare = view.width_px - self.content_width_px;
        if spare.is_finite() && spare > 0.0 { 0.5 * spare } else { 0.0 }
    }

    /// Beat shown at panel height `y_px` when the cursor shows `t_beats_now` (exact inverse of
    /// [`StaffLayout::y_of_beats`]).
    pub fn beats_at_y(&self, view: &StaffView, t_beats_now: f64, y_px: f32) -> f64 {
        let now = finite_or(t_beats_now, 0.0);
        let y = finite_or(f64::from(y_px), f64::from(view.cursor_y_px));
        now + (cursor_y(view) - y) / px_per_beat(view)
    }

    /// Panel height of beat `t_beats` when the cursor shows `t_beats_now`: later is higher.
    pub fn y_of_beats(&self, view: &StaffView, t_beats_now: f64, t_beats: f64) -> f32 {
        let now = finite_or(t_beats_now, 0.0);
        let t = finite_or(t_beats, now);
        (cursor_y(view) - (t - now) * px_per_beat(view)) as f32
    }

    /// The glyphs that touch the view at time `t_beats`, in drawing order: per staff its lines,
    /// ticks, bars and texts, then the starting position, then the symbols by start time (each
    /// followed by its attached signs); the cursor line last.
    pub fn glyphs(&self, view: &StaffView, t_beats: f64) -> Vec<PlacedGlyph> {
        let now = finite_or(t_beats, 0.0);
        let ppb = px_per_beat(view);
        let (w, h) = (view.width_px, view.height_px);
        let mut out = Vec::new();
        if !(w.is_finite() && h.is_finite()) || w <= 0.0 || h <= 0.0 {
            return out;
        }
        let x_off = self.x_offset(view);
        let y = |t: f64| self.y_of_beats(view, now, t);
        // Visible beats, with slack for signs hanging outside a symbol.
        let slack_beats = SEARCH_SLACK_PX / ppb;
        let t_top = self.beats_at_y(view, now, 0.0) + slack_beats;
        let t_bottom = self.beats_at_y(view, now, h) - slack_beats;
        let min_height_beats = f64::from(MIN_GLYPH_HEIGHT_PX) / ppb;
        let push = |out: &mut Vec<PlacedGlyph>, glyph: PlacedGlyph| {
            if intersects(glyph.rect_px, w, h) {
                out.push(glyph);
            }
        };
        let bottom_beats = -START_AREA_BEATS - 0.6;
        for (staff_index, staff) in self.staves.iter().enumerate() {
            let cx = x_off + staff.centre_x;
            let outer = 2.0 * COLUMN_WIDTH_PX;
            // Staff lines from the bottom of the starting position to the final double bar.
            let (line_top, line_bottom) = (y(self.end_beats).max(-2.0), y(-START_AREA_BEATS).min(h + 2.0));
            for x in [cx - outer, cx, cx + outer] {
                if line_top <= line_bottom {
                    push(&mut out, simple(GlyphKind::StaffLine, [x, line_top, x, line_bottom], staff_index));
                }
            }
            // Beat ticks on the centre line.
            let first = self.ticks.partition_point(|&t| t < t_bottom);
            for &t in self.ticks.get(first..).unwrap_or(&[]).iter().take_while(|&&t| t <= t_top) {
                let ty = y(t);
                push(&mut out, simple(GlyphKind::BeatTick, [cx - 3.0, ty, cx + 3.0, ty], staff_index));
            }
            // Bars and double bars.
            let (bx0, bx1) = (cx - outer - 2.0, cx + outer + 2.0);
            let y0 = y(0.0);
            push(&mut out, simple(GlyphKind::DoubleBar, [bx0, y0, bx1, y0 + 3.0], staff_index));
            let first = self.bars.partition_point(|&(t, _)| t < t_bottom);
            for &(t, measure) in self.bars.get(first..).unwrap_or(&[]).iter().take_while(|(t, _)| *t <= t_top) {
                if t < self.end_beats - 1e-6 {
                    let by = y(t);
                    push(&mut out, simple(GlyphKind::BarLine { measure }, [bx0, by, bx1, by], staff_index));
                }
            }
            let ye = y(self.end_beats);
            push(&mut out, simple(GlyphKind::DoubleBar, [bx0, ye - 3.0, bx1, ye], staff_index));
            // Measure numbers and the meter in the left margin (once, beside the first staff).
            if staff_index == 0 {
                let first = self.measure_starts.partition_point(|&(t, _)| t < t_bottom);
                for &(t, number) in
                    self.measure_starts.get(first..).unwrap_or(&[]).iter().take_while(|(t, _)| *t <= t_top)
                {
                    let ny = y(t);
                    let rect = [x_off + 2.0, ny - 14.0, x_off + MARGIN_LEFT_PX - 6.0, ny - 2.0];
                    push(&mut out, simple(GlyphKind::Text(number.to_string()), rect, 0));
                }
                let my = y(-0.5 * START_AREA_BEATS);
                let rect = [x_off + 2.0, my - 7.0, x_off + MARGIN_LEFT_PX - 6.0, my + 7.0];
                push(&mut out, simple(GlyphKind::Text(self.meter_text.clone()), rect, 0));
            }
            // The dancer's sign (or number) under the staff.
            let dy = y(bottom_beats + 0.3);
            let sign_rect = [cx - 6.0, dy - 6.0, cx + 6.0, dy + 6.0];
            let sign = match staff.dancer {
                Some((orientation, black)) => GlyphKind::Pin { orientation, black },
                None => GlyphKind::Text((staff_index + 1).to_string()),
            };
            push(&mut out, simple(sign, sign_rect, staff_index));
            // The starting position, below the double bar.
            for item in &staff.start_items {
                self.place_item(&mut out, item, cx, view, now, false);
            }
            // The symbols: search by start time, then test each rect.
            let lo_start = t_bottom - staff.max_item_beats.max(min_height_beats);
            let first = staff.items.partition_point(|i| i.start_beats < lo_start);
            for item in staff.items.get(first..).unwrap_or(&[]).iter().take_while(|i| i.start_beats <= t_top) {
                let active = item.start_beats <= now && now < item.end_beats;
                self.place_item(&mut out, item, cx, view, now, active);
            }
        }
        // The cursor line across all staves.
        let cy = cursor_y(view) as f32;
        let right = x_off + self.content_width_px;
        push(&mut out, simple(GlyphKind::Cursor, [x_off, cy, right.max(x_off), cy], 0));
        out
    }

    /// Places one symbol and its attached signs, keeping those that touch the view.
    fn place_item(&self, out: &mut Vec<PlacedGlyph>, item: &Item, cx: f32, view: &StaffView, now: f64, active: bool) {
        let (w, h) = (view.width_px, view.height_px);
        let y_bottom_raw = self.y_of_beats(view, now, item.start_beats);
        let y_top_raw = self.y_of_beats(view, now, item.end_beats);
        let length = y_bottom_raw - y_top_raw;
        let gap = GLYPH_GAP_Y_PX.min(0.1 * length.max(0.0));
        let y1 = y_bottom_raw - gap;
        let y0 = (y_top_raw + gap).min(y1 - MIN_GLYPH_HEIGHT_PX);
        let rect = [cx + item.span.x0, y0, cx + item.span.x1, y1];
        let staff = item.entry.staff;
        let glyph = PlacedGlyph { kind: item.kind.clone(), rect_px: rect, staff, entry: Some(item.entry), active };
        if intersects(rect, w, h) {
            out.push(glyph);
        }
        for sign in &item.attached {
            let s = SMALL_SIGN_PX;
            let (inner_x, outer_x) = if item.outer_is_right { (rect[0], rect[2]) } else { (rect[2], rect[0]) };
            let mid_x = 0.5 * (rect[0] + rect[2]);
            let r = match sign.place {
                AttachPlace::Inside => {
                    let mid_y = 0.5 * (rect[1] + rect[3]);
                    [mid_x - 0.5 * s, mid_y - 0.5 * s, mid_x + 0.5 * s, mid_y + 0.5 * s]
                }
                AttachPlace::BottomInner => [inner_x - 0.5 * s, rect[3] - s, inner_x + 0.5 * s, rect[3]],
                AttachPlace::BottomOuter => [outer_x - 0.5 * s, rect[3] - s, outer_x + 0.5 * s, rect[3]],
                AttachPlace::Below => [mid_x - 0.5 * s, rect[3] + 1.0, mid_x + 0.5 * s, rect[3] + 1.0 + s],
            };
            if intersects(r, w, h) {
                out.push(PlacedGlyph { kind: sign.kind.clone(), rect_px: r, staff, entry: Some(item.entry), active });
            }
        }
    }
}

/// Every staff of `score` laid out side by side, and the width they take with the margins.
fn lay_out_staves(score: &Score) -> (Vec<StaffColumns>, f32) {
    let mut staves = Vec::with_capacity(score.staves.len());
    let mut x_left = MARGIN_LEFT_PX;
    for (staff_index, staff) in score.staves.iter().enumerate() {
        let mut items = Vec::new();
        for (channel_index, channel) in staff.channels.iter().enumerate() {
            let mut presigned_columns: Vec<i32> = Vec::new();
            for (entry_index, entry) in channel.entries.iter().enumerate() {
                if !(entry.start_beats.is_finite() && entry.duration_beats.is_finite()) {
                    continue;
                }
                let (kind, span, mut attached) = entry_glyph(channel.kind, entry);
                if let ChannelKind::Part(part) = channel.kind
                    && !presigned_columns.contains(&entry.column)
                {
                    presigned_columns.push(entry.column);
                    attached.push(Attached { kind: GlyphKind::BodyPart(part_label(part)), place: AttachPlace::Below });
                }
                let start = entry.start_beats;
                items.push(Item {
                    start_beats: start,
                    end_beats: start + entry.duration_beats.max(0.0),
                    outer_is_right: span.x0 + span.x1 >= 0.0,
                    span,
                    kind,
                    entry: EntryRef {
                        staff: staff_index,
                        channel: channel_index,
                        index: entry_index,
                        start_beats: start,
                        in_start_position: false,
                    },
                    attached,
                });
            }
        }
        items.sort_by(|a, b| {
            a.start_beats
                .total_cmp(&b.start_beats)
                .then(a.span.x0.total_cmp(&b.span.x0))
                .then(a.entry.channel.cmp(&b.entry.channel))
                .then(a.entry.index.cmp(&b.entry.index))
        });
        let mut start_items = Vec::new();
        for (index, (kind, entry)) in staff.start_position.iter().enumerate() {
            let (glyph, span, attached) = entry_glyph(*kind, entry);
            let channel = staff.channels.iter().position(|c| c.kind == *kind).unwrap_or(usize::MAX);
            start_items.push(Item {
                start_beats: -START_AREA_BEATS + 0.15,
                end_beats: -0.15,
                outer_is_right: span.x0 + span.x1 >= 0.0,
                span,
                kind: glyph,
                entry: EntryRef { staff: staff_index, channel, index, start_beats: 0.0, in_start_position: true },
                attached,
            });
        }
        let mut left_columns = 2;
        let mut right_columns = 2;
        for item in items.iter().chain(start_items.iter()) {
            left_columns = left_columns.max((-item.span.x0 / COLUMN_WIDTH_PX).ceil() as i32);
            right_columns = right_columns.max((item.span.x1 / COLUMN_WIDTH_PX).ceil() as i32);
        }
        let max_item_beats = items.iter().map(|i| i.end_beats - i.start_beats).fold(0.0, f64::max);
        let centre_x = x_left + left_columns as f32 * COLUMN_WIDTH_PX;
        x_left = centre_x + right_columns as f32 * COLUMN_WIDTH_PX + STAFF_GAP_PX;
        staves.push(StaffColumns {
            centre_x,
            left_columns,
            right_columns,
            dancer: staff.dancer.map(|d| (d.orientation, d.black)),
            start_items,
            items,
            max_item_beats,
        });
    }
    let content_width_px =
        if staves.is_empty() { MARGIN_LEFT_PX + MARGIN_RIGHT_PX } else { x_left - STAFF_GAP_PX + MARGIN_RIGHT_PX };
    (staves, content_width_px)
}

fn simple(kind: GlyphKind, rect_px: [f32; 4], staff: usize) -> PlacedGlyph {
    PlacedGlyph { kind, rect_px, staff, entry: None, active: false }
}

/// Pixels per beat, guarded against zero, negative and non-finite values.
fn px_per_beat(view: &StaffView) -> f64 {
    let ppb = f64::from(view.px_per_beat);
    if ppb.is_finite() && ppb > 1e-3 { ppb } else { 1.0 }
}

fn cursor_y(view: &StaffView) -> f64 {
    let y = f64::from(view.cursor_y_px);
    if y.is_finite() { y } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_spans_are_ordered_and_adjacent() {
        for c in 1..8 {
            let right = column_span(c);
            let left = column_span(-c);
            assert!((right.x1 - right.x0 - COLUMN_WIDTH_PX).abs() < 1e-4);
            assert!((left.x0 + right.x1).abs() < 1e-4, "mirror");
            assert!((column_span(c + 1).x0 - right.x1).abs() < 1e-4, "adjacent");
            assert!(left.x1 <= 0.0 && right.x0 >= 0.0);
        }
    }

    #[test]
    fn px_per_beat_is_guarded() {
        let view = StaffView { width_px: 100.0, height_px: 100.0, cursor_y_px: 50.0, px_per_beat: 0.0 };
        assert_eq!(px_per_beat(&view), 1.0);
        let view = StaffView { px_per_beat: f32::NAN, ..view };
        assert_eq!(px_per_beat(&view), 1.0);
    }

    #[test]
    fn part_labels_are_short() {
        for part in [BodyPart::Hand(Side::Left), BodyPart::Head, BodyPart::Elbow(Side::Right), BodyPart::Torso] {
            let label = part_label(part);
            assert!(!label.is_empty() && label.chars().count() <= 3, "{label}");
        }
    }
}
