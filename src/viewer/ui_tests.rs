//! Headless egui passes over the player's UI: keys drive the transport, shift-drag on the staff
//! marks a loop, T taps and M mirrors.
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use super::*;
use crate::stage::dancer_mesh::mannequin;
use crate::stage::player::ScoreSource;
use crate::viewer::gpu_frame::offscreen_raw_input;

fn key(key: egui::Key, shift: bool) -> egui::Event {
    let modifiers = if shift { egui::Modifiers::SHIFT } else { egui::Modifiers::NONE };
    egui::Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers }
}

/// Runs one UI pass (CPU only: egui lays out and tessellates nothing here) with `events`.
fn pass(ctx: &egui::Context, state: &mut UiState, player: &mut Player, events: Vec<egui::Event>) -> UiOutput {
    let mut raw = offscreen_raw_input([1280, 800], 1.0);
    raw.events = events;
    let mut out = UiOutput::default();
    let mut full_output = ctx.run_ui(raw, |ui| out = draw(ui, state, player, None));
    // No GPU here: the font atlas upload is intentionally dropped.
    full_output.textures_delta.clear();
    out
}

#[test]
fn keyboard_drives_the_transport_and_the_stage_gets_the_middle() {
    let model = mannequin(&crate::pose::Proportions::default()).unwrap();
    let mut player = Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false);
    let mut state = UiState { model_names: vec!["mannequin".to_owned()], ..UiState::default() };
    let ctx = egui::Context::default();
    let out = pass(&ctx, &mut state, &mut player, Vec::new());
    let stage = out.stage_rect.unwrap();
    assert!(
        stage.left() >= STAFF_PANEL_WIDTH - 1.0 && stage.right() <= 1280.0 - CONTROLS_PANEL_WIDTH + 1.0,
        "{stage:?}"
    );
    assert!(stage.height() > 600.0, "{stage:?}");
    assert!(out.actions.is_empty());

    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::Space, false)]);
    assert!(player.playback.is_playing());
    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::Space, false)]);
    assert!(!player.playback.is_playing());
    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::ArrowRight, false)]);
    assert_eq!(player.playback.t_beats(), 1.0);
    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::ArrowRight, true)]);
    let next_measure = player.playback.t_beats();
    assert!(next_measure > 1.0, "shift+→ goes to the next measure start");
    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::ArrowLeft, false)]);
    assert_eq!(player.playback.t_beats(), next_measure - 1.0);
    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::End, false)]);
    assert_eq!(player.playback.t_beats(), player.playback.timeline().duration_beats);
    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::Home, false)]);
    assert_eq!(player.playback.t_beats(), 0.0);
}

/// One pass with the shift key held and `events`.
fn shift_pass(ctx: &egui::Context, state: &mut UiState, player: &mut Player, events: Vec<egui::Event>) -> UiOutput {
    let mut raw = offscreen_raw_input([1280, 800], 1.0);
    raw.events = [egui::Event::ModifiersChanged(egui::Modifiers::SHIFT)].into_iter().chain(events).collect();
    let mut out = UiOutput::default();
    let mut full_output = ctx.run_ui(raw, |ui| out = draw(ui, state, player, None));
    full_output.textures_delta.clear();
    out
}

#[test]
fn shift_drag_on_the_staff_loops_whole_beats_and_t_and_m_tap_and_mirror() {
    let model = mannequin(&crate::pose::Proportions::default()).unwrap();
    let mut player = Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false);
    let mut state = UiState { model_names: vec!["mannequin".to_owned()], ..UiState::default() };
    let ctx = egui::Context::default();
    pass(&ctx, &mut state, &mut player, Vec::new());
    assert!(player.playback.loop_range().is_none());
    // Press on the staff above the cursor line (later beats are higher) and drag upwards.
    let x = STAFF_PANEL_WIDTH * 0.5;
    let (from, to) = (egui::pos2(x, 520.0), egui::pos2(x, 300.0));
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::SHIFT,
    };
    shift_pass(&ctx, &mut state, &mut player, vec![egui::Event::PointerMoved(from)]);
    shift_pass(&ctx, &mut state, &mut player, vec![button(from, true)]);
    for k in 1..=8 {
        let p = from + (to - from) * (k as f32 / 8.0);
        shift_pass(&ctx, &mut state, &mut player, vec![egui::Event::PointerMoved(p)]);
        assert!(player.playback.loop_range().is_none(), "the loop is set on release, not while dragging");
    }
    shift_pass(&ctx, &mut state, &mut player, vec![button(to, false)]);
    shift_pass(&ctx, &mut state, &mut player, Vec::new());
    let range = player.playback.loop_range().expect("the shift-drag marked a loop");
    let (a, b) = (range.start_beats(), range.end_beats());
    assert!(b > a, "{a}..{b}");
    assert_eq!((a.fract(), b.fract()), (0.0, 0.0), "snapped to whole beats: {a}..{b}");
    let pixels_per_beat = f64::from(state.staff_px_per_beat);
    let dragged_beats = f64::from(from.y - to.y) / pixels_per_beat;
    assert!(((b - a) - dragged_beats).abs() <= 1.0, "{a}..{b} for a drag of {dragged_beats:.2} beats");
    assert!(range.contains(player.playback.t_beats()), "the playhead goes into the loop");

    let out = pass(&ctx, &mut state, &mut player, vec![key(egui::Key::T, false)]);
    assert!(out.actions.contains(&UiAction::Tap), "{:?}", out.actions);
    assert!(!state.mirror);
    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::M, false)]);
    assert!(state.mirror, "M turns the mirror on");
    pass(&ctx, &mut state, &mut player, vec![key(egui::Key::M, false)]);
    assert!(!state.mirror, "and off");
}

#[test]
fn with_a_plan_the_timeline_sits_beside_the_staff_and_clicks_escape_and_the_top_view_reach_the_app() {
    use crate::stage::plan_events::{BarKind, TimelineBar};
    let model = mannequin(&crate::pose::Proportions::default()).unwrap();
    let mut player = Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false);
    let bar = |kind, lane, start_beats, end_beats| TimelineBar {
        kind,
        start_beats,
        end_beats,
        lane,
        label: format!("{kind:?}"),
    };
    let panel = PlanPanel {
        bars: vec![bar(BarKind::Behaviour, 0, 0.0, 12.0), bar(BarKind::Lights, 1, 0.0, 40.0)],
        staff_t_beats: 0.0,
        selected: None,
        top_view: false,
        paths: crate::stage::plan_stage::PathsShown::All,
        performers: 8,
        problems: 0,
    };
    let mut state = UiState { model_names: vec!["mannequin".to_owned()], plan: Some(panel), ..UiState::default() };
    let ctx = egui::Context::default();
    let out = pass(&ctx, &mut state, &mut player, Vec::new());
    let stage = out.stage_rect.unwrap();
    assert!(stage.left() >= STAFF_PANEL_WIDTH + TIMELINE_WIDTH - 1.0, "the timeline widens the left panel: {stage:?}");

    // A click on the timeline's first lane, on the cursor line (beat 0 is on it), seeks to the
    // bar's start; first move the playhead away.
    player.playback.seek(5.0);
    state.plan.as_mut().unwrap().staff_t_beats = 5.0;
    let lane_x = STAFF_PANEL_WIDTH + 10.0;
    let press = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    let on_bar = egui::pos2(lane_x, 500.0);
    pass(&ctx, &mut state, &mut player, vec![egui::Event::PointerMoved(on_bar)]);
    pass(&ctx, &mut state, &mut player, vec![press(on_bar, true)]);
    pass(&ctx, &mut state, &mut player, vec![press(on_bar, false)]);
    assert_eq!(player.playback.t_beats(), 0.0, "clicking the behaviour bar goes to its start");

    // A click in the middle of the stage comes back as image coordinates near (0, 0).
    let centre = stage.center();
    pass(&ctx, &mut state, &mut player, vec![egui::Event::PointerMoved(centre)]);
    pass(&ctx, &mut state, &mut player, vec![press(centre, true)]);
    let out = pass(&ctx, &mut state, &mut player, vec![press(centre, false)]);
    let [x, y] = out.stage_click_ndc.expect("a click on the stage");
    assert!(x.abs() < 0.02 && y.abs() < 0.02, "{x} {y}");
    let out = pass(&ctx, &mut state, &mut player, vec![key(egui::Key::Escape, false)]);
    assert!(out.escape);

    // The top-view checkbox asks for the top camera.
    let mut found = None;
    for y in (40..400).step_by(4) {
        let p = egui::pos2(1280.0 - CONTROLS_PANEL_WIDTH + 20.0, y as f32);
        pass(&ctx, &mut state, &mut player, vec![egui::Event::PointerMoved(p)]);
        pass(&ctx, &mut state, &mut player, vec![press(p, true)]);
        let out = pass(&ctx, &mut state, &mut player, vec![press(p, false)]);
        if out.actions.contains(&UiAction::CameraView(CameraView::Top)) {
            found = Some(y);
            break;
        }
    }
    assert!(found.is_some(), "no top-view checkbox in the controls");
    assert!(state.plan.as_ref().unwrap().top_view && state.camera_view == CameraView::Top);

    // In the top view the paths can be hidden (a radio button below the checkbox).
    let hidden = crate::stage::plan_stage::PathsShown::Hidden;
    let top_y = found.unwrap();
    'find: for y in (top_y + 8..top_y + 80).step_by(4) {
        for x in (20..CONTROLS_PANEL_WIDTH as usize - 10).step_by(6) {
            let p = egui::pos2(1280.0 - CONTROLS_PANEL_WIDTH + x as f32, y as f32);
            pass(&ctx, &mut state, &mut player, vec![egui::Event::PointerMoved(p)]);
            pass(&ctx, &mut state, &mut player, vec![press(p, true)]);
            pass(&ctx, &mut state, &mut player, vec![press(p, false)]);
            if state.plan.as_ref().unwrap().paths == hidden {
                break 'find;
            }
        }
    }
    assert_eq!(state.plan.as_ref().unwrap().paths, hidden, "no \"hidden\" paths choice in the top view");
}

#[test]
fn the_built_in_browser_opens_a_typed_file_and_keeps_the_letters_from_the_hotkeys() {
    use crate::stage::file_browser::{BrowsePurpose, FileBrowser};
    let scores = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scores");
    let model = mannequin(&crate::pose::Proportions::default()).unwrap();
    let mut player = Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false);
    let mut state = UiState { model_names: vec!["mannequin".to_owned()], ..UiState::default() };
    let ctx = egui::Context::default();
    let ctrl_o = egui::Event::Key {
        key: egui::Key::O,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::COMMAND,
    };
    let out = pass(&ctx, &mut state, &mut player, vec![ctrl_o]);
    assert_eq!(out.actions, [UiAction::OpenDialog], "Ctrl+O asks for a file");
    state.browser = Some(FileBrowser::open(BrowsePurpose::Any, &scores));
    pass(&ctx, &mut state, &mut player, Vec::new());
    ctx.memory_mut(|m| m.request_focus(egui::Id::unique("file browser path")));
    pass(&ctx, &mut state, &mut player, Vec::new());
    // "t" would tap and " " would play, were the letters not going to the path field.
    let out = pass(&ctx, &mut state, &mut player, vec![egui::Event::Text("t duet.lbn".to_owned())]);
    assert!(!out.actions.contains(&UiAction::Tap) && !player.playback.is_playing(), "{:?}", out.actions);
    assert_eq!(state.browser.as_ref().unwrap().typed, "t duet.lbn");
    state.browser.as_mut().unwrap().typed = "duet.lbn".to_owned();
    let out = pass(&ctx, &mut state, &mut player, vec![key(egui::Key::Enter, false)]);
    assert!(out.actions.contains(&UiAction::Browsed(BrowsePurpose::Any, scores.join("duet.lbn"))), "{:?}", out.actions);
    assert!(state.browser.is_none(), "choosing a file closes the browser");
}

#[test]
fn every_staff_of_a_duet_fits_the_staff_panel_it_opens() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/duet.lbn");
    let score = crate::stage::files::open_score(&path).unwrap();
    let model = mannequin(&crate::pose::Proportions::default()).unwrap();
    let mut player = Player::new(score, ScoreSource::File(path), model, false);
    assert_eq!(player.layout().staff_count(), 2);
    let staves_px = player.layout().content_width_px(&crate::stage::staff_layout::StaffView::new(0.0, 0.0, 1.0));
    let mut state = UiState { model_names: vec!["mannequin".to_owned()], ..UiState::default() };
    let ctx = egui::Context::default();
    let out = pass(&ctx, &mut state, &mut player, Vec::new());
    let stage = out.stage_rect.unwrap();
    assert!(staves_px > STAFF_PANEL_WIDTH, "two staves are wider than one: {staves_px}");
    assert!(stage.left() >= staves_px, "the panel opens wide enough for both staves: {stage:?}, {staves_px}");
}

/// Where the text starting with `prefix` was drawn in `shapes`, if anywhere.
fn text_rect(shapes: &[egui::epaint::ClippedShape], prefix: &str) -> Option<egui::Rect> {
    fn find(shape: &egui::Shape, prefix: &str) -> Option<egui::Rect> {
        match shape {
            egui::Shape::Text(text) if text.galley.text().starts_with(prefix) => {
                Some(text.galley.rect.translate(text.pos.to_vec2()))
            }
            egui::Shape::Vec(shapes) => shapes.iter().find_map(|s| find(s, prefix)),
            _ => None,
        }
    }
    shapes.iter().find_map(|clipped| find(&clipped.shape, prefix))
}

#[test]
fn a_click_on_a_warning_in_the_panel_selects_its_symbol_on_the_staff() {
    use crate::stage::edit_session::{Caret, EditCommand};
    let (mut player, mut session, hook) = crate::stage::edit_session::tests::walk_with_a_stray_hook();
    session.command(EditCommand::Deselect, &mut player);
    session.caret = Caret { staff: 0, column: -1 };
    player.playback.seek(0.0);
    let mut state = UiState { model_names: vec!["mannequin".to_owned()], ..UiState::default() };
    state.edit.session = Some(session);
    state.edit.active = true;

    // A window tall enough that the controls' scroll area shows the warnings at its foot.
    let ctx = egui::Context::default();
    let tall_pass = |state: &mut UiState, player: &mut Player, events: Vec<egui::Event>| {
        let mut raw = offscreen_raw_input([1280, 2400], 1.0);
        raw.events = events;
        let mut full_output = ctx.run_ui(raw, |ui| {
            draw(ui, state, player, None);
        });
        full_output.textures_delta.clear();
        full_output.shapes
    };
    tall_pass(&mut state, &mut player, Vec::new());
    let shapes = tall_pass(&mut state, &mut player, Vec::new());
    let at = text_rect(&shapes, "[score]").expect("the warning is listed in the controls").center();
    assert!(at.x > 1280.0 - CONTROLS_PANEL_WIDTH, "listed in the controls panel: {at:?}");
    let press = |pressed| egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    tall_pass(&mut state, &mut player, vec![egui::Event::PointerMoved(at)]);
    tall_pass(&mut state, &mut player, vec![press(true)]);
    tall_pass(&mut state, &mut player, vec![press(false)]);
    let session = state.edit.session.as_ref().unwrap();
    assert_eq!(session.editor().selection(), &[hook], "the click selected the hook the warning is about");
    assert_eq!(session.caret, Caret { staff: 0, column: 3 }, "the caret went to the hook's column");
    assert_eq!(player.playback.t_beats(), 10.5, "the cursor went to the hook");
}
