//! Interaction with the staff panel through egui with synthetic pointer input (no GPU): a click
//! on empty staff seeks to the beat under the pointer, a click on a symbol seeks to its start,
//! dragging scrubs, hovering reports the symbol, and nothing seeks while playing.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use egui::{Event, Modifiers, PointerButton, Pos2, RawInput, Rect};
use labanplay::read::read;
use labanplay::score::Score;
use labanplay::stage::staff_layout::{GlyphKind, StaffLayout, StaffView};
use labanplay::viewer::staff_ui::{StaffResponse, staff_ui};

const SIZE: [f32; 2] = [420.0, 600.0];
const PX_PER_BEAT: f32 = 40.0;

struct Panel {
    ctx: egui::Context,
    layout: StaffLayout,
    frame: u32,
}

impl Panel {
    fn new() -> Panel {
        let score = Score::from_document(&read(labanplay::demo::WALK_ARMS_TURN_LBN, Some("lbn")).unwrap());
        let mut panel = Panel { ctx: egui::Context::default(), layout: StaffLayout::new(&score), frame: 0 };
        panel.run(Vec::new(), 2.0, false);
        panel
    }

    /// The view `staff_ui` builds for the whole screen.
    fn view(&self) -> StaffView {
        StaffView::new(SIZE[0], SIZE[1], PX_PER_BEAT)
    }

    fn run(&mut self, events: Vec<Event>, t_beats: f64, playing: bool) -> StaffResponse {
        self.frame += 1;
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(SIZE[0], SIZE[1]))),
            time: Some(f64::from(self.frame) * 0.02),
            events,
            ..Default::default()
        };
        let mut response = StaffResponse::default();
        let output = self.ctx.run_ui(input, |ui| response = staff_ui(ui, &self.layout, t_beats, playing, PX_PER_BEAT));
        output.drop_without_applying_deltas();
        response
    }

    fn click(&mut self, pos: Pos2, t_beats: f64, playing: bool) -> StaffResponse {
        self.run(vec![Event::PointerMoved(pos)], t_beats, playing);
        self.run(vec![button(pos, true)], t_beats, playing);
        self.run(vec![button(pos, false)], t_beats, playing)
    }
}

fn button(pos: Pos2, pressed: bool) -> Event {
    Event::PointerButton { pos, button: PointerButton::Primary, pressed, modifiers: Modifiers::default() }
}

#[test]
fn clicking_empty_staff_seeks_to_the_beat_under_the_pointer() {
    let mut panel = Panel::new();
    let view = panel.view();
    // A point in the left margin, one and a half beats above the cursor.
    let pos = Pos2::new(2.0, view.cursor_y_px - 1.5 * PX_PER_BEAT);
    let response = panel.click(pos, 2.0, false);
    let expected = panel.layout.beats_at_y(&view, 2.0, pos.y);
    let seek = response.seek_to_beats.expect("a click seeks");
    assert!((seek - expected).abs() < 1e-3 && (seek - 3.5).abs() < 1e-3, "seek {seek}, expected {expected}");
}

#[test]
fn clicking_a_symbol_seeks_to_its_start_and_hover_reports_it() {
    let mut panel = Panel::new();
    let view = panel.view();
    let glyphs = panel.layout.glyphs(&view, 2.0);
    let symbol = glyphs
        .iter()
        .find(|g| matches!(g.kind, GlyphKind::Direction { .. }) && g.entry.is_some_and(|e| e.start_beats > 3.0))
        .unwrap();
    let r = symbol.rect_px;
    let centre = Pos2::new(0.5 * (r[0] + r[2]), 0.5 * (r[1] + r[3]));
    let hover = panel.run(vec![Event::PointerMoved(centre)], 2.0, true);
    assert_eq!(hover.hovered, symbol.entry, "hover");
    assert!(hover.seek_to_beats.is_none());
    let response = panel.click(centre, 2.0, false);
    assert_eq!(response.seek_to_beats, Some(symbol.entry.unwrap().start_beats));
}

#[test]
fn nothing_seeks_while_playing() {
    let mut panel = Panel::new();
    let pos = Pos2::new(2.0, 100.0);
    assert!(panel.click(pos, 2.0, true).seek_to_beats.is_none());
}

#[test]
fn dragging_the_paper_up_scrubs_forward() {
    let mut panel = Panel::new();
    let start = Pos2::new(2.0, 300.0);
    panel.run(vec![Event::PointerMoved(start)], 2.0, false);
    panel.run(vec![button(start, true)], 2.0, false);
    let mut t = 2.0;
    let mut y = start.y;
    let mut seeks = Vec::new();
    for _ in 0..6 {
        y -= 10.0;
        let response = panel.run(vec![Event::PointerMoved(Pos2::new(2.0, y))], t, false);
        if let Some(seek) = response.seek_to_beats {
            t = seek;
            seeks.push(seek);
        }
    }
    panel.run(vec![button(Pos2::new(2.0, y), false)], t, false);
    assert!(!seeks.is_empty(), "dragging seeks");
    assert!(seeks.windows(2).all(|w| w[1] > w[0]), "moving up goes forward: {seeks:?}");
    // 60 px up, less whatever egui keeps as its drag threshold, at 40 px per beat.
    assert!(t > 2.0 && t <= 2.0 + 60.0 / f64::from(PX_PER_BEAT) + 1e-6, "t {t}");
}
