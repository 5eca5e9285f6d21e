//! egui painting of the scrolling staff: real Labanotation shapes for the glyphs that
//! `staff_layout` places (direction signs with level shading, turn signs, holds, pins, front and
//! path signs), bars, the cursor line, seeking by clicking or dragging the staff, and marking a
//! passage to loop by shift-dragging it (the loop range is drawn as a band beside the staff);
//! and an ensemble plan's event timeline beside it, on the same beat scale and cursor line.

use crate::read::{Direction, Level};
use crate::stage::plan_events::{BarKind, TimelineBar};
use crate::stage::staff_layout::{EntryRef, GlyphKind, PlacedGlyph, StaffLayout, StaffView};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Vec2, pos2, vec2};

/// What the user did with the staff this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StaffResponse {
    /// The user asked to jump to this beat (click, drag, or click on a symbol).
    pub seek_to_beats: Option<f64>,
    /// The symbol under the pointer.
    pub hovered: Option<EntryRef>,
    /// A shift-drag finished marking this beat range (in drag order) to loop.
    pub loop_marked: Option<(f64, f64)>,
}

/// The loop band's colour.
const LOOP_BAND: Color32 = Color32::from_rgba_premultiplied(30, 140, 60, 46);
/// The loop band's edges.
const LOOP_EDGE: Color32 = Color32::from_rgb(20, 130, 50);

/// Colours and strokes of the staff panel.
const PAPER: Color32 = Color32::from_rgb(252, 251, 246);
const INK: Color32 = Color32::from_rgb(20, 20, 24);
const FAINT_INK: Color32 = Color32::from_rgb(120, 120, 128);
const CURSOR: Color32 = Color32::from_rgb(215, 40, 40);
const ACTIVE: Color32 = Color32::from_rgb(0, 125, 235);
const ACTIVE_TINT: Color32 = Color32::from_rgba_premultiplied(0, 60, 120, 40);
const HOVER: Color32 = Color32::from_rgb(240, 150, 0);
/// Distance between the stripes of a high-level sign, in pixels.
const STRIPE_SPACING_PX: f32 = 3.5;

/// Draws the staff panel filling the available space and handles seeking. Time flows up; the
/// symbol at `t_beats` sits on the cursor line. While `playing`, clicks and drags do not seek
/// (hover still works).
pub fn staff_ui(
    ui: &mut egui::Ui,
    layout: &StaffLayout,
    t_beats: f64,
    playing: bool,
    px_per_beat: f32,
) -> StaffResponse {
    staff_ui_with_loop(ui, layout, t_beats, playing, px_per_beat, None)
}

/// [`staff_ui`] with the loop passage `loop_beats` drawn as a green band, and shift-drag (while
/// playing too) marking a new one, reported in [`StaffResponse::loop_marked`] when released.
pub fn staff_ui_with_loop(
    ui: &mut egui::Ui,
    layout: &StaffLayout,
    t_beats: f64,
    playing: bool,
    px_per_beat: f32,
    loop_beats: Option<(f64, f64)>,
) -> StaffResponse {
    let size = ui.available_size().max(vec2(1.0, 1.0));
    let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
    let rect = response.rect;
    let view = StaffView::new(rect.width(), rect.height(), px_per_beat);
    let glyphs = layout.glyphs(&view, t_beats);
    let local = |p: Pos2| p - rect.min.to_vec2();

    let hovered = response.hover_pos().and_then(|p| entry_at(&glyphs, local(p)));
    let mut seek_to_beats = None;
    // Shift-drag marks a loop: the beat under the press is remembered (the staff scrolls while
    // playing), the band follows the pointer, the range is reported on release.
    let shift = ui.input(|i| i.modifiers.shift);
    let anchor_id = response.id.with("loop-anchor");
    let mut pending: Option<(f64, f64)> = None;
    let mut loop_marked = None;
    if response.drag_started()
        && shift
        && let Some(origin) = ui.input(|i| i.pointer.press_origin())
    {
        let anchor = layout.beats_at_y(&view, t_beats, local(origin).y);
        ui.data_mut(|d| d.insert_temp(anchor_id, anchor));
    }
    let anchor: Option<f64> = ui.data(|d| d.get_temp(anchor_id));
    if let (Some(anchor), Some(p)) = (anchor, response.interact_pointer_pos().or(response.hover_pos())) {
        let here = layout.beats_at_y(&view, t_beats, local(p).y).clamp(0.0, layout.end_beats().max(0.0));
        let anchor = anchor.clamp(0.0, layout.end_beats().max(0.0));
        if response.drag_stopped() {
            loop_marked = Some((anchor, here));
            ui.data_mut(|d| d.remove::<f64>(anchor_id));
        } else if response.dragged() {
            pending = Some((anchor, here));
        } else {
            ui.data_mut(|d| d.remove::<f64>(anchor_id));
        }
    }
    let marking = anchor.is_some();
    if !playing && !marking {
        if response.dragged() {
            // Grab the paper: dragging it up shows later beats at the cursor.
            let delta_y = response.drag_delta().y;
            if delta_y != 0.0 {
                let ppb = f64::from(view.px_per_beat.max(1e-3));
                seek_to_beats = Some(t_beats - f64::from(delta_y) / ppb);
            }
        } else if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            seek_to_beats = Some(match entry_at(&glyphs, local(p)) {
                Some(entry) => entry.start_beats,
                None => layout.beats_at_y(&view, t_beats, local(p).y),
            });
        }
    }
    let seek_to_beats = seek_to_beats.map(|t| t.clamp(0.0, layout.end_beats().max(0.0)));

    paint_staff(&painter, rect, &glyphs, hovered);
    if let Some((a, b)) = pending.or(loop_beats) {
        let y0 = layout.y_of_beats(&view, t_beats, a.min(b)) + rect.min.y;
        let y1 = layout.y_of_beats(&view, t_beats, a.max(b)) + rect.min.y;
        paint_loop_band(&painter, rect, y0.max(y1), y0.min(y1), pending.is_some());
    }
    StaffResponse { seek_to_beats, hovered, loop_marked }
}

/// What the user did with the event timeline this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimelineResponse {
    /// A bar was clicked: go to its start.
    pub seek_to_beats: Option<f64>,
    /// The bar under the pointer (index into the bars).
    pub hovered: Option<usize>,
}

/// Widest lane of the event timeline, pixels.
pub const TIMELINE_LANE_MAX_PX: f32 = 26.0;

/// Fill colour of a timeline bar of `kind` (current: brighter).
fn bar_colour(kind: BarKind, current: bool) -> Color32 {
    let (r, g, b) = match kind {
        BarKind::Behaviour => (70, 120, 200),
        BarKind::Lights => (215, 165, 40),
        BarKind::Camera => (90, 170, 110),
        BarKind::Music => (175, 90, 175),
    };
    if current { Color32::from_rgb(r, g, b) } else { Color32::from_rgba_unmultiplied(r, g, b, 110) }
}

/// Panel rects of `bars` (x from the panel's left, y down) in a view of `view`'s size and scale
/// when the cursor shows plan beat `t_beats`: time flows up as on the staff, lanes side by side.
pub fn timeline_bar_rects(bars: &[TimelineBar], view: &StaffView, t_beats: f64) -> Vec<[f32; 4]> {
    let lanes = bars.iter().map(|b| b.lane + 1).max().unwrap_or(1) as f32;
    let lane_w = ((view.width_px - 4.0).max(1.0) / lanes).min(TIMELINE_LANE_MAX_PX);
    let y_of = |b: f64| view.cursor_y_px - ((b - t_beats) * f64::from(view.px_per_beat)) as f32;
    bars.iter()
        .map(|b| {
            let x0 = 2.0 + b.lane as f32 * lane_w;
            [x0 + 1.0, y_of(b.end_beats), x0 + lane_w - 1.0, y_of(b.start_beats)]
        })
        .collect()
}

/// Draws the event timeline of a plan filling the available space: the bars (behaviour events
/// blue, lights amber, camera green, music purple; the current ones bright and outlined) with
/// their labels, the cursor line at the staff's; hovering shows a bar's label, clicking a bar
/// goes to its start.
pub fn timeline_ui(
    ui: &mut egui::Ui,
    bars: &[TimelineBar],
    t_beats: f64,
    _playing: bool,
    px_per_beat: f32,
) -> TimelineResponse {
    let size = ui.available_size().max(vec2(1.0, 1.0));
    let (response, painter) = ui.allocate_painter(size, Sense::click());
    let rect = response.rect;
    let view = StaffView::new(rect.width(), rect.height(), px_per_beat);
    let rects = timeline_bar_rects(bars, &view, t_beats);
    let to_screen =
        |r: &[f32; 4]| Rect::from_min_max(pos2(r[0], r[1]) + rect.min.to_vec2(), pos2(r[2], r[3]) + rect.min.to_vec2());
    painter.rect_filled(rect, 0.0, Color32::from_rgb(38, 40, 46));
    let hovered = response.hover_pos().and_then(|p| rects.iter().rposition(|r| to_screen(r).expand(1.0).contains(p)));
    for (k, (bar, r)) in bars.iter().zip(&rects).enumerate() {
        let r = to_screen(r);
        if !r.intersects(rect) {
            continue;
        }
        let current = bar.is_current(t_beats);
        painter.rect_filled(r, 2.0, bar_colour(bar.kind, current));
        if current {
            painter.rect_stroke(r, 2.0, Stroke::new(1.5, Color32::WHITE), StrokeKind::Inside);
        } else if hovered == Some(k) {
            painter.rect_stroke(r, 2.0, Stroke::new(1.0, HOVER), StrokeKind::Inside);
        }
        // The label runs up the bar from its start (clipped to the bar).
        let galley = painter.layout_no_wrap(bar.label.clone(), FontId::proportional(10.0), Color32::WHITE);
        let clip = r.intersect(rect);
        let text = egui::epaint::TextShape::new(pos2(r.center().x - 5.0, r.bottom() - 2.0), galley, Color32::WHITE)
            .with_angle(-std::f32::consts::FRAC_PI_2);
        painter.with_clip_rect(clip).add(text);
    }
    let y = rect.top() + view.cursor_y_px;
    painter.line_segment([pos2(rect.left(), y), pos2(rect.right(), y)], Stroke::new(1.5, CURSOR));
    let mut seek_to_beats = None;
    if let Some(k) = hovered {
        if response.clicked() {
            seek_to_beats = Some(bars[k].start_beats);
        }
        response
            .on_hover_text(format!("{} (beats {:.1}–{:.1})", bars[k].label, bars[k].start_beats, bars[k].end_beats));
    }
    TimelineResponse { seek_to_beats, hovered }
}

/// The loop band between screen heights `y_start` (bottom, earlier) and `y_end` (top, later):
/// a translucent strip over the staff with a bracket on its left edge.
fn paint_loop_band(painter: &Painter, rect: Rect, y_start: f32, y_end: f32, pending: bool) {
    let top = y_end.max(rect.top());
    let bottom = y_start.min(rect.bottom());
    if bottom <= top {
        return;
    }
    let band = Rect::from_min_max(pos2(rect.left(), top), pos2(rect.right(), bottom));
    painter.rect_filled(band, 0.0, LOOP_BAND);
    let stroke = Stroke::new(if pending { 1.5 } else { 2.5 }, LOOP_EDGE);
    let x = rect.left() + 3.0;
    for y in [y_start, y_end] {
        if (rect.top()..=rect.bottom()).contains(&y) {
            painter.line_segment([pos2(x, y), pos2(rect.right() - 3.0, y)], Stroke::new(1.0, LOOP_EDGE));
            painter.line_segment([pos2(x, y), pos2(x + 8.0, y)], stroke);
        }
    }
    painter.line_segment([pos2(x, top), pos2(x, bottom)], stroke);
    painter.text(pos2(x + 4.0, top + 2.0), Align2::LEFT_TOP, "loop", FontId::proportional(10.0), LOOP_EDGE);
}

/// The topmost symbol whose rect (grown by 2 px) holds `p`, in panel coordinates.
pub fn entry_at(glyphs: &[PlacedGlyph], p: Pos2) -> Option<EntryRef> {
    glyphs.iter().rev().find_map(|g| {
        let entry = g.entry?;
        let r = g.rect_px;
        let inside = p.x >= r[0] - 2.0 && p.x <= r[2] + 2.0 && p.y >= r[1] - 2.0 && p.y <= r[3] + 2.0;
        inside.then_some(entry)
    })
}

/// Paints `glyphs` (panel coordinates) into `rect` on a paper background.
pub fn paint_staff(painter: &Painter, rect: Rect, glyphs: &[PlacedGlyph], hovered: Option<EntryRef>) {
    painter.rect_filled(rect, 0.0, PAPER);
    let offset = rect.min.to_vec2();
    for glyph in glyphs {
        let r = glyph.rect_px;
        let g_rect = Rect::from_min_max(pos2(r[0], r[1]) + offset, pos2(r[2], r[3]) + offset);
        let is_hovered = glyph.entry.is_some() && glyph.entry == hovered;
        if glyph.active && glyph.entry.is_some() {
            painter.rect_filled(g_rect.expand(2.0), 2.0, ACTIVE_TINT);
        }
        paint_glyph(painter, &glyph.kind, g_rect);
        if glyph.active && glyph.entry.is_some() {
            painter.rect_stroke(g_rect.expand(2.0), 2.0, Stroke::new(1.5, ACTIVE), StrokeKind::Middle);
        } else if is_hovered {
            painter.rect_stroke(g_rect.expand(2.0), 2.0, Stroke::new(1.0, HOVER), StrokeKind::Middle);
        }
    }
}

/// Paints one glyph into `r` (screen coordinates).
pub fn paint_glyph(painter: &Painter, kind: &GlyphKind, r: Rect) {
    let ink = Stroke::new(1.2, INK);
    match kind {
        GlyphKind::StaffLine => {
            painter.line_segment([r.center_top(), r.center_bottom()], Stroke::new(1.0, INK));
        }
        GlyphKind::BarLine { .. } => {
            painter.line_segment([r.left_center(), r.right_center()], Stroke::new(1.0, INK));
        }
        GlyphKind::DoubleBar => {
            painter.line_segment([r.left_top(), r.right_top()], Stroke::new(1.0, INK));
            painter.line_segment([r.left_bottom(), r.right_bottom()], Stroke::new(1.0, INK));
        }
        GlyphKind::BeatTick => {
            painter.line_segment([r.left_center(), r.right_center()], Stroke::new(1.0, FAINT_INK));
        }
        GlyphKind::Direction { direction, level, left_side, .. } => {
            paint_direction(painter, *direction, *level, *left_side, r);
        }
        GlyphKind::Turn { clockwise } => {
            let outline = turn_outline(*clockwise, r);
            painter.add(Shape::convex_polygon(outline, PAPER, ink));
        }
        GlyphKind::Hold => {
            let radius = (0.5 * r.width().min(r.height())).clamp(2.0, 4.5);
            painter.circle_stroke(pos2(r.center().x, r.bottom() - radius), radius, ink);
        }
        GlyphKind::Pin { orientation, black } => paint_pin(painter, *orientation, *black, r),
        GlyphKind::Front { facing_deg } => {
            let side = r.width().min(r.height()).min(12.0);
            let square = Rect::from_center_size(pos2(r.center().x, r.bottom() - 0.5 * side), Vec2::splat(side));
            painter.rect(square, 0.0, PAPER, ink, StrokeKind::Middle);
            let angle = facing_deg.to_radians() as f32;
            let dir = vec2(angle.sin(), -angle.cos());
            let c = square.center();
            painter.line_segment([c, c + dir * (0.5 * side - 1.0)], Stroke::new(1.5, INK));
            painter.circle_filled(c, 1.5, INK);
        }
        GlyphKind::ActionStroke => {
            painter.line_segment([pos2(r.center().x, r.top()), pos2(r.center().x, r.bottom())], ink);
        }
        GlyphKind::Path { circle_clockwise } => {
            let x = r.left() + 2.0;
            let tick = (r.width() - 4.0).clamp(2.0, 6.0);
            let points =
                vec![pos2(x + tick, r.top()), pos2(x, r.top()), pos2(x, r.bottom()), pos2(x + tick, r.bottom())];
            painter.add(Shape::line(points, ink));
            if let Some(clockwise) = circle_clockwise {
                // A small arc above the bracket, curling right for clockwise, left otherwise.
                let sense = if *clockwise { 1.0 } else { -1.0 };
                let radius = tick.max(3.0);
                let centre = pos2(x + sense * radius, r.top());
                let arc: Vec<Pos2> = (0..=8)
                    .map(|i| {
                        let a = std::f32::consts::PI * i as f32 / 8.0;
                        pos2(centre.x - sense * radius * a.cos(), centre.y - radius * a.sin())
                    })
                    .collect();
                painter.add(Shape::line(arc, ink));
            }
        }
        GlyphKind::BodyPart(label) => {
            painter.text(r.center(), Align2::CENTER_CENTER, label, FontId::proportional(9.0), INK);
        }
        GlyphKind::Text(text) => {
            let size = r.height().clamp(7.0, 13.0);
            painter.text(r.right_center(), Align2::RIGHT_CENTER, text, FontId::proportional(size), INK);
        }
        GlyphKind::Cursor => {
            painter.line_segment([r.left_center(), r.right_center()], Stroke::new(1.5, CURSOR));
        }
    }
}

/// Paints a direction sign: its shape, then its level shading.
fn paint_direction(painter: &Painter, direction: Direction, level: Level, left_side: bool, r: Rect) {
    let shape = direction_shape(direction, left_side, r);
    let ink = Stroke::new(1.2, INK);
    match level {
        Level::Low => {
            for piece in &shape.pieces {
                painter.add(Shape::convex_polygon(piece.clone(), INK, Stroke::NONE));
            }
        }
        Level::High => {
            for [a, b] in stripe_segments(&shape.outline, STRIPE_SPACING_PX) {
                painter.line_segment([a, b], Stroke::new(1.0, INK));
            }
        }
        Level::Middle => {
            let radius = (0.16 * r.width().min(r.height())).clamp(1.5, 2.6);
            painter.circle_filled(shape.dot_at, radius, INK);
        }
        Level::Blank => {}
    }
    painter.add(Shape::closed_line(shape.outline, ink));
}

/// The outline of a direction sign, the convex pieces that fill it, and where the middle dot goes.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectionShape {
    /// Closed outline, clockwise on screen.
    pub outline: Vec<Pos2>,
    /// Convex pieces covering the inside exactly (for solid low-level fill).
    pub pieces: Vec<Vec<Pos2>>,
    /// Centre of the middle-level dot.
    pub dot_at: Pos2,
}

/// The shape of a direction sign in `r` (screen coordinates, y down): place = rectangle;
/// forward/backward = rectangle with a notch at the top/bottom on the outer side (the mirror
/// form for left-side columns); right/left = triangle pointing right/left; diagonals = rectangle
/// with one corner cut, the slant rising toward the diagonal (labanotation-rules §2.1).
pub fn direction_shape(direction: Direction, left_side: bool, r: Rect) -> DirectionShape {
    let (x0, x1, y0, y1) = (r.left(), r.right(), r.top(), r.bottom());
    let (w, h) = (r.width(), r.height());
    let xm = 0.5 * (x0 + x1);
    let ym = 0.5 * (y0 + y1);
    // Notch and corner cuts: a third of the height, but never much more than the width.
    let notch = (h / 3.0).min(0.8 * w);
    let cut = (0.4 * h).min(1.1 * w);
    let rect_pts = vec![pos2(x0, y0), pos2(x1, y0), pos2(x1, y1), pos2(x0, y1)];
    let convex = |pts: Vec<Pos2>| {
        let dot_at = centroid(&pts);
        DirectionShape { pieces: vec![pts.clone()], outline: pts, dot_at }
    };
    match direction {
        Direction::Place => convex(rect_pts),
        Direction::Right => convex(vec![pos2(x0, y0), pos2(x1, ym), pos2(x0, y1)]),
        Direction::Left => convex(vec![pos2(x1, y0), pos2(x1, y1), pos2(x0, ym)]),
        // Corner cut so that the slanted edge rises toward the diagonal.
        Direction::RightForward => convex(vec![pos2(x0, y0 + cut), pos2(x1, y0), pos2(x1, y1), pos2(x0, y1)]),
        Direction::LeftForward => convex(vec![pos2(x0, y0), pos2(x1, y0 + cut), pos2(x1, y1), pos2(x0, y1)]),
        Direction::RightBackward => convex(vec![pos2(x0, y0), pos2(x1, y0), pos2(x1, y1), pos2(x0, y1 - cut)]),
        Direction::LeftBackward => convex(vec![pos2(x0, y0), pos2(x1, y0), pos2(x1, y1 - cut), pos2(x0, y1)]),
        Direction::Forward | Direction::Backward => {
            let top = direction == Direction::Forward;
            // The notch is on the outer half: right half for right-side columns.
            let (nx0, nx1) = if left_side { (x0, xm) } else { (xm, x1) };
            let (fx0, fx1) = if left_side { (xm, x1) } else { (x0, xm) };
            let (full, short) = if top {
                (
                    Rect::from_min_max(pos2(fx0, y0), pos2(fx1, y1)),
                    Rect::from_min_max(pos2(nx0, y0 + notch), pos2(nx1, y1)),
                )
            } else {
                (
                    Rect::from_min_max(pos2(fx0, y0), pos2(fx1, y1)),
                    Rect::from_min_max(pos2(nx0, y0), pos2(nx1, y1 - notch)),
                )
            };
            let outline = match (top, left_side) {
                (true, false) => vec![
                    pos2(x0, y0),
                    pos2(xm, y0),
                    pos2(xm, y0 + notch),
                    pos2(x1, y0 + notch),
                    pos2(x1, y1),
                    pos2(x0, y1),
                ],
                (true, true) => vec![
                    pos2(x0, y0 + notch),
                    pos2(xm, y0 + notch),
                    pos2(xm, y0),
                    pos2(x1, y0),
                    pos2(x1, y1),
                    pos2(x0, y1),
                ],
                (false, false) => vec![
                    pos2(x0, y0),
                    pos2(x1, y0),
                    pos2(x1, y1 - notch),
                    pos2(xm, y1 - notch),
                    pos2(xm, y1),
                    pos2(x0, y1),
                ],
                (false, true) => vec![
                    pos2(x0, y0),
                    pos2(x1, y0),
                    pos2(x1, y1),
                    pos2(xm, y1),
                    pos2(xm, y1 - notch),
                    pos2(x0, y1 - notch),
                ],
            };
            let rect_corners = |q: Rect| vec![q.left_top(), q.right_top(), q.right_bottom(), q.left_bottom()];
            DirectionShape { outline, pieces: vec![rect_corners(full), rect_corners(short)], dot_at: pos2(xm, ym) }
        }
    }
}

/// The outline of a turn sign in `r`: a rectangle with both ends slanted the same way. Clockwise
/// (right turn): the ends fall to the right, so the top-left and bottom-right corners are the
/// points; counter-clockwise is the mirror image; unknown sense: a plain rectangle.
pub fn turn_outline(clockwise: Option<bool>, r: Rect) -> Vec<Pos2> {
    let (x0, x1, y0, y1) = (r.left(), r.right(), r.top(), r.bottom());
    let slant = (0.6 * r.width()).min(0.3 * r.height());
    match clockwise {
        Some(true) => vec![pos2(x0, y0), pos2(x1, y0 + slant), pos2(x1, y1), pos2(x0, y1 - slant)],
        Some(false) => vec![pos2(x0, y0 + slant), pos2(x1, y0), pos2(x1, y1 - slant), pos2(x0, y1)],
        None => vec![pos2(x0, y0), pos2(x1, y0), pos2(x1, y1), pos2(x0, y1)],
    }
}

/// Paints a pin in `r`: a round head and a point toward `orientation` (1 = up the page,
/// then clockwise in 45° steps). Black pins have a filled head, white ones a hollow head.
fn paint_pin(painter: &Painter, orientation: u8, black: bool, r: Rect) {
    let angle = f32::from(orientation.clamp(1, 8) - 1) * std::f32::consts::FRAC_PI_4;
    let dir = vec2(angle.sin(), -angle.cos());
    let size = r.width().min(r.height());
    let c = r.center();
    let head = c - dir * (0.18 * size);
    let tip = c + dir * (0.45 * size);
    let radius = (0.22 * size).max(1.5);
    painter.line_segment([head, tip], Stroke::new(1.3, INK));
    if black {
        painter.circle_filled(head, radius, INK);
    } else {
        painter.circle(head, radius, PAPER, Stroke::new(1.2, INK));
    }
}

fn centroid(points: &[Pos2]) -> Pos2 {
    let n = points.len().max(1) as f32;
    let sum = points.iter().fold(Vec2::ZERO, |acc, p| acc + p.to_vec2());
    (sum / n).to_pos2()
}

/// Diagonal stripes (rising to the right on screen) spaced `spacing_px` apart, clipped to the
/// inside of the closed `outline` (any simple polygon, even-odd rule).
pub fn stripe_segments(outline: &[Pos2], spacing_px: f32) -> Vec<[Pos2; 2]> {
    let mut segments = Vec::new();
    if outline.len() < 3 || !(spacing_px.is_finite() && spacing_px > 0.1) {
        return segments;
    }
    // Lines x + y = c, direction (1, -1).
    let sums = outline.iter().map(|p| p.x + p.y);
    let (lo, hi) = sums.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), s| (lo.min(s), hi.max(s)));
    if !(lo.is_finite() && hi.is_finite()) {
        return segments;
    }
    let step = spacing_px * std::f32::consts::SQRT_2;
    let dir = vec2(1.0, -1.0);
    let mut c = lo + 0.5 * step;
    let mut crossings: Vec<f32> = Vec::new();
    while c < hi && segments.len() < 10_000 {
        let a = pos2(0.5 * c, 0.5 * c);
        crossings.clear();
        for (i, p) in outline.iter().enumerate() {
            let q = outline[(i + 1) % outline.len()];
            let side = |v: Pos2| dir.x * (v.y - a.y) - dir.y * (v.x - a.x);
            let (sp, sq) = (side(*p), side(q));
            if (sp > 0.0) != (sq > 0.0) {
                let k = sp / (sp - sq);
                let x = *p + (q - *p) * k;
                crossings.push((x - a).dot(dir) / dir.length_sq());
            }
        }
        crossings.sort_by(f32::total_cmp);
        for pair in crossings.chunks_exact(2) {
            segments.push([a + dir * pair[0], a + dir * pair[1]]);
        }
        c += step;
    }
    segments
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    fn area(points: &[Pos2]) -> f32 {
        let n = points.len();
        0.5 * (0..n)
            .map(|i| {
                let (p, q) = (points[i], points[(i + 1) % n]);
                p.x * q.y - q.x * p.y
            })
            .sum::<f32>()
            .abs()
    }

    fn inside(points: &[Pos2], p: Pos2) -> bool {
        let mut odd = false;
        for i in 0..points.len() {
            let (a, b) = (points[i], points[(i + 1) % points.len()]);
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                odd = !odd;
            }
        }
        odd
    }

    #[test]
    fn pieces_cover_the_outline_for_every_direction() {
        let r = Rect::from_min_max(pos2(10.0, 20.0), pos2(23.0, 60.0));
        for direction in Direction::ALL {
            for left_side in [false, true] {
                let shape = direction_shape(direction, left_side, r);
                let pieces: f32 = shape.pieces.iter().map(|p| area(p)).sum();
                assert!((pieces - area(&shape.outline)).abs() < 0.5, "{direction:?}");
                assert!(inside(&shape.outline, shape.dot_at), "{direction:?} dot outside");
                for p in &shape.outline {
                    assert!(r.expand(1e-3).contains(*p), "{direction:?} leaves its rect");
                }
            }
        }
    }

    #[test]
    fn side_triangles_point_the_right_way_and_diagonals_rise_toward_their_side() {
        let r = Rect::from_min_max(pos2(0.0, 0.0), pos2(12.0, 30.0));
        let right = direction_shape(Direction::Right, false, r).outline;
        let apex = right.iter().max_by(|a, b| a.x.total_cmp(&b.x)).unwrap();
        assert!((apex.y - 15.0).abs() < 1e-4 && apex.x == 12.0);
        let left = direction_shape(Direction::Left, false, r).outline;
        let apex = left.iter().min_by(|a, b| a.x.total_cmp(&b.x)).unwrap();
        assert!((apex.y - 15.0).abs() < 1e-4 && apex.x == 0.0);
        // Right-forward: the top edge is highest (smallest y) at the right.
        let rf = direction_shape(Direction::RightForward, false, r).outline;
        let top_left_y = rf.iter().filter(|p| p.x == 0.0).map(|p| p.y).fold(f32::INFINITY, f32::min);
        let top_right_y = rf.iter().filter(|p| p.x == 12.0).map(|p| p.y).fold(f32::INFINITY, f32::min);
        assert!(top_right_y < top_left_y);
    }

    #[test]
    fn forward_notch_is_on_the_outer_top_and_mirrors_on_the_left() {
        let r = Rect::from_min_max(pos2(0.0, 0.0), pos2(12.0, 30.0));
        let right_form = direction_shape(Direction::Forward, false, r).outline;
        assert!(!inside(&right_form, pos2(10.0, 2.0)) && inside(&right_form, pos2(2.0, 2.0)));
        let left_form = direction_shape(Direction::Forward, true, r).outline;
        assert!(inside(&left_form, pos2(10.0, 2.0)) && !inside(&left_form, pos2(2.0, 2.0)));
        let back = direction_shape(Direction::Backward, false, r).outline;
        assert!(!inside(&back, pos2(10.0, 28.0)) && inside(&back, pos2(10.0, 2.0)));
    }

    #[test]
    fn stripes_stay_inside_and_fill_the_shape() {
        let r = Rect::from_min_max(pos2(0.0, 0.0), pos2(12.0, 30.0));
        for direction in Direction::ALL {
            let shape = direction_shape(direction, false, r);
            let stripes = stripe_segments(&shape.outline, 3.0);
            assert!(stripes.len() >= 5, "{direction:?}: {}", stripes.len());
            for [a, b] in stripes {
                let mid = pos2(0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
                assert!(inside(&shape.outline, mid), "{direction:?} stripe outside");
            }
        }
    }

    #[test]
    fn timeline_bars_scroll_with_the_cursor_like_the_staff() {
        let bar = |lane, start_beats, end_beats| TimelineBar {
            kind: BarKind::Behaviour,
            start_beats,
            end_beats,
            lane,
            label: String::new(),
        };
        let bars = [bar(0, 0.0, 8.0), bar(1, 4.0, 6.0)];
        let view = StaffView::new(96.0, 400.0, 36.0);
        let at = |t: f64| timeline_bar_rects(&bars, &view, t);
        // At beat 5 both bars cross the cursor line; the second spans 2 beats of 36 px.
        let r = at(5.0);
        for b in &r {
            assert!(b[1] < view.cursor_y_px && b[3] > view.cursor_y_px, "{b:?}");
        }
        assert!(((r[1][3] - r[1][1]) - 72.0).abs() < 1e-3);
        assert!(r[0][2] <= r[1][0], "lanes side by side");
        // One beat later everything is one beat (36 px) lower, as the staff's symbols are.
        let later = at(6.0);
        assert!(((later[0][3] - r[0][3]) - 36.0).abs() < 1e-3);
        // The same scale as the staff layout's.
        let layout = crate::stage::staff_layout::StaffLayout::new(&crate::demo::default_score());
        let layout_y = layout.y_of_beats(&view, 5.0, 8.0);
        assert!((layout_y - r[0][1]).abs() < 1e-3, "{layout_y} vs {}", r[0][1]);
    }

    #[test]
    fn turn_signs_mirror() {
        let r = Rect::from_min_max(pos2(0.0, 0.0), pos2(12.0, 30.0));
        let cw = turn_outline(Some(true), r);
        let ccw = turn_outline(Some(false), r);
        for (p, q) in cw.iter().zip(ccw.iter()) {
            // Mirror about the vertical centre line maps cw's corners onto ccw's.
            assert!(ccw.iter().any(|m| (m.x - (12.0 - p.x)).abs() < 1e-4 && (m.y - p.y).abs() < 1e-4), "{p:?} {q:?}");
        }
        assert!((area(&cw) - area(&ccw)).abs() < 1e-3);
    }
}
