//! The player's egui interface: menu bar (File ▸ Open, recent files, demos), the staff panel on
//! the left, controls and warnings on the right, the transport bar at the bottom and the 3D
//! stage (a texture) in the middle with camera buttons. It edits the [`Player`] directly and
//! returns what needs the GPU or the file system as [`UiAction`]s.

use crate::viewer::camera_input::{CameraView, PointerInput};
use crate::viewer::playback::{MAX_SPEED, MIN_SPEED};
use crate::viewer::player::Player;
use crate::viewer::staff_ui::staff_ui;
use std::path::PathBuf;

/// Something the UI asks the application to do.
#[derive(Clone, Debug, PartialEq)]
pub enum UiAction {
    /// Open this score file.
    Open(PathBuf),
    /// Show the native file dialog.
    OpenDialog,
    /// Open bundled demo number `index` of [`crate::viewer::DEMOS`].
    OpenDemo(usize),
    /// Switch to model number `index` of the model list.
    SelectModel(usize),
    /// Move the camera to a view.
    CameraView(CameraView),
    /// Turn the metronome on or off.
    Metronome(bool),
    /// Close the window.
    Quit,
}

/// UI state that lives between frames (not part of the player).
#[derive(Clone, Debug, PartialEq)]
pub struct UiState {
    /// Names in the model dropdown.
    pub model_names: Vec<&'static str>,
    /// The chosen model.
    pub model_index: usize,
    /// The last camera view chosen.
    pub camera_view: CameraView,
    /// Text of the "open path" field (used when there is no native dialog).
    pub open_path_text: String,
    /// True when a native file dialog is available.
    pub has_file_dialog: bool,
    /// A message for the status line (errors while opening, reloads).
    pub status: Option<String>,
    /// Staff zoom.
    pub staff_px_per_beat: f32,
    /// Recently opened files, most recent first.
    pub recent: Vec<PathBuf>,
    /// Metronome on.
    pub metronome_on: bool,
    /// Why the metronome cannot play, when it cannot.
    pub metronome_unavailable: Option<String>,
}

impl Default for UiState {
    fn default() -> Self {
        UiState {
            model_names: Vec::new(),
            model_index: 0,
            camera_view: CameraView::ThreeQuarter,
            open_path_text: String::new(),
            has_file_dialog: false,
            status: None,
            staff_px_per_beat: 36.0,
            recent: Vec::new(),
            metronome_on: false,
            metronome_unavailable: None,
        }
    }
}

/// What one UI pass produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiOutput {
    /// Requests for the application.
    pub actions: Vec<UiAction>,
    /// The stage area in logical points (where the 3D texture is shown).
    pub stage_rect: Option<egui::Rect>,
    /// Pointer input over the stage this pass.
    pub pointer: PointerInput,
}

/// Width of the staff panel, points.
pub const STAFF_PANEL_WIDTH: f32 = 240.0;
/// Width of the controls panel, points.
pub const CONTROLS_PANEL_WIDTH: f32 = 250.0;

/// Draws the whole interface for one frame. `stage_texture` is the 3D view drawn last frame
/// size (None before the first frame).
pub fn draw(
    ui: &mut egui::Ui,
    state: &mut UiState,
    player: &mut Player,
    stage_texture: Option<egui::TextureId>,
) -> UiOutput {
    let mut out = UiOutput::default();
    keyboard(ui, player);
    egui::Panel::top("menu").show(ui, |ui| menu_bar(ui, state, &mut out));
    egui::Panel::bottom("transport").show(ui, |ui| transport(ui, state, player));
    egui::Panel::left("staff").exact_size(STAFF_PANEL_WIDTH).resizable(false).show(ui, |ui| {
        let t_beats = player.playback.t_beats();
        let playing = player.playback.is_playing();
        let response = staff_ui(ui, player.layout(), t_beats, playing, state.staff_px_per_beat);
        if let Some(t) = response.seek_to_beats {
            player.playback.seek(t);
        }
    });
    egui::Panel::right("controls").exact_size(CONTROLS_PANEL_WIDTH).resizable(false).show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| controls(ui, state, player, &mut out));
    });
    egui::CentralPanel::no_frame().show(ui, |ui| stage(ui, state, stage_texture, &mut out));
    out
}

/// Space: play/pause; ←/→: beat; shift+←/→: measure; Home/End. Ignored while typing.
fn keyboard(ui: &mut egui::Ui, player: &mut Player) {
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    ui.input(|input| {
        let shift = input.modifiers.shift;
        if input.key_pressed(egui::Key::Space) {
            player.playback.toggle_play();
        }
        if input.key_pressed(egui::Key::ArrowRight) {
            if shift { player.playback.step_measure(true) } else { player.playback.step_beat(true) }
        }
        if input.key_pressed(egui::Key::ArrowLeft) {
            if shift { player.playback.step_measure(false) } else { player.playback.step_beat(false) }
        }
        if input.key_pressed(egui::Key::Home) {
            player.playback.go_to_start();
        }
        if input.key_pressed(egui::Key::End) {
            player.playback.go_to_end();
        }
    });
}

fn menu_bar(ui: &mut egui::Ui, state: &mut UiState, out: &mut UiOutput) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if state.has_file_dialog && ui.button("Open…").clicked() {
                out.actions.push(UiAction::OpenDialog);
                ui.close();
            }
            ui.label("Open a path:");
            ui.horizontal(|ui| {
                let field = ui.add(
                    egui::TextEdit::singleline(&mut state.open_path_text)
                        .hint_text("score.lbn / .lw / .json")
                        .desired_width(220.0),
                );
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if (ui.button("Open").clicked() || enter) && !state.open_path_text.trim().is_empty() {
                    out.actions.push(UiAction::Open(PathBuf::from(state.open_path_text.trim())));
                    ui.close();
                }
            });
            ui.menu_button("Open recent", |ui| {
                if state.recent.is_empty() {
                    ui.label("(none yet)");
                }
                for path in &state.recent {
                    if ui.button(path.display().to_string()).clicked() {
                        out.actions.push(UiAction::Open(path.clone()));
                        ui.close();
                    }
                }
            });
            ui.menu_button("Demo scores", |ui| {
                for (index, (name, _)) in crate::viewer::DEMOS.iter().enumerate() {
                    if ui.button(*name).clicked() {
                        out.actions.push(UiAction::OpenDemo(index));
                        ui.close();
                    }
                }
            });
            ui.separator();
            if ui.button("Quit").clicked() {
                out.actions.push(UiAction::Quit);
            }
        });
        ui.separator();
        ui.label("Camera:");
        for view in CameraView::ALL {
            if ui.selectable_label(state.camera_view == view, view.label()).clicked() {
                state.camera_view = view;
                out.actions.push(UiAction::CameraView(view));
            }
        }
        if let Some(status) = &state.status {
            ui.separator();
            ui.label(status);
        }
    });
}

fn transport(ui: &mut egui::Ui, state: &mut UiState, player: &mut Player) {
    ui.horizontal(|ui| {
        let playback = &mut player.playback;
        if ui.button("Stop").on_hover_text("Stop (back to the start)").clicked() {
            playback.stop();
        }
        if ui.button("« measure").on_hover_text("Previous measure (shift+←)").clicked() {
            playback.step_measure(false);
        }
        if ui.button("‹ beat").on_hover_text("Previous beat (←)").clicked() {
            playback.step_beat(false);
        }
        let play_label = if playback.is_playing() { "Pause" } else { "Play" };
        if ui.button(play_label).on_hover_text("Space").clicked() {
            playback.toggle_play();
        }
        if ui.button("beat ›").on_hover_text("Next beat (→)").clicked() {
            playback.step_beat(true);
        }
        if ui.button("measure »").on_hover_text("Next measure (shift+→)").clicked() {
            playback.step_measure(true);
        }
        let mut looping = playback.is_looping();
        if ui.checkbox(&mut looping, "Loop").changed() {
            playback.set_looping(looping);
        }
        let mut speed = playback.speed();
        let slider = egui::Slider::new(&mut speed, MIN_SPEED..=MAX_SPEED)
            .text("speed")
            .suffix("×")
            .step_by(0.05)
            .fixed_decimals(2);
        if ui.add(slider).changed() {
            playback.set_speed(speed);
        }
        ui.separator();
        ui.monospace(playback.position_text());
        let duration = playback.timeline().duration_beats;
        let mut t = playback.t_beats();
        let scrub = egui::Slider::new(&mut t, 0.0..=duration.max(1e-3)).show_value(false);
        if ui.add_sized([ui.available_width().max(60.0), 18.0], scrub).changed() {
            playback.seek(t);
        }
        let _ = state;
    });
}

fn controls(ui: &mut egui::Ui, state: &mut UiState, player: &mut Player, out: &mut UiOutput) {
    let score = player.score();
    ui.heading(score.title.clone().unwrap_or_else(|| "untitled score".to_owned()));
    ui.label(egui::RichText::new(player.source().label()).small());
    ui.label(format!(
        "{} dancer(s) · {} measures · {:.0} bpm",
        score.staves.len(),
        score.measures.len(),
        score.tempo.bpm
    ));
    ui.separator();
    ui.label("Dancer model");
    let selected = state.model_names.get(state.model_index).copied().unwrap_or("?");
    egui::ComboBox::from_id_salt("model").selected_text(selected).show_ui(ui, |ui| {
        for (index, name) in state.model_names.iter().enumerate() {
            if ui.selectable_label(index == state.model_index, *name).clicked() && index != state.model_index {
                out.actions.push(UiAction::SelectModel(index));
            }
        }
    });
    ui.label("Steps land on");
    ui.horizontal(|ui| {
        let mut toe_first = player.toe_first();
        let heel = ui.radio_value(&mut toe_first, false, "heel first");
        let toe = ui.radio_value(&mut toe_first, true, "toe first");
        if heel.changed() || toe.changed() {
            player.set_toe_first(toe_first);
        }
    });
    ui.separator();
    ui.checkbox(&mut player.stage_options.footprints, "Footprints");
    ui.checkbox(&mut player.stage_options.facing_arrows, "Facing arrows");
    ui.checkbox(&mut player.stage_options.trails, "Pelvis trails");
    ui.checkbox(&mut player.stage_options.shadows, "Contact shadows");
    let mut metronome_on = state.metronome_on;
    let available = state.metronome_unavailable.is_none();
    let mut response = ui.add_enabled(available, egui::Checkbox::new(&mut metronome_on, "Metronome"));
    if let Some(reason) = &state.metronome_unavailable {
        response = response.on_disabled_hover_text(reason.as_str());
    }
    if response.changed() {
        state.metronome_on = metronome_on;
        out.actions.push(UiAction::Metronome(metronome_on));
    }
    ui.add(egui::Slider::new(&mut state.staff_px_per_beat, 12.0..=96.0).text("staff zoom"));
    ui.separator();
    warnings(ui, player);
}

fn warnings(ui: &mut egui::Ui, player: &mut Player) {
    let count = player.warnings().len();
    let mut seek = None;
    egui::CollapsingHeader::new(format!("Warnings ({count})")).default_open(count > 0).show(ui, |ui| {
        if count == 0 {
            ui.label("Everything in the score was interpreted.");
        }
        for item in player.warnings() {
            let prefix = if item.from_motion { "motion" } else { "score" };
            let text = format!("[{prefix}] {}", item.text);
            match item.t_beats {
                Some(t) => {
                    if ui.selectable_label(false, text).on_hover_text("Click to go there").clicked() {
                        seek = Some(t);
                    }
                }
                None => {
                    ui.label(text);
                }
            }
        }
    });
    if let Some(t) = seek {
        player.playback.pause();
        player.playback.seek(t);
    }
}

fn stage(ui: &mut egui::Ui, state: &UiState, stage_texture: Option<egui::TextureId>, out: &mut UiOutput) {
    let rect = ui.max_rect();
    let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
    if let Some(texture) = stage_texture {
        let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        ui.painter().image(texture, rect, uv, egui::Color32::WHITE);
    }
    out.stage_rect = Some(rect);
    let (scroll, pinch, shift, primary, secondary, middle) = ui.input(|i| {
        (
            i.smooth_scroll_delta,
            i.zoom_delta(),
            i.modifiers.shift,
            i.pointer.primary_down(),
            i.pointer.secondary_down(),
            i.pointer.middle_down(),
        )
    });
    let dragging = response.dragged();
    let delta = if dragging { response.drag_delta() } else { egui::Vec2::ZERO };
    let hovered = response.hovered() || dragging;
    out.pointer = PointerInput {
        drag_delta_px: [delta.x, delta.y],
        primary_down: dragging && primary,
        secondary_down: dragging && secondary,
        middle_down: dragging && middle,
        shift,
        scroll_delta_px: if hovered { [scroll.x, scroll.y] } else { [0.0, 0.0] },
        pinch_zoom: if hovered { pinch } else { 1.0 },
        viewport_height_px: rect.height(),
    };
    if state.camera_view == CameraView::FollowDancer {
        ui.painter().text(
            rect.left_top() + egui::vec2(8.0, 8.0),
            egui::Align2::LEFT_TOP,
            "following dancer 1",
            egui::FontId::proportional(13.0),
            egui::Color32::from_gray(200),
        );
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use crate::viewer::dancer_mesh::mannequin;
    use crate::viewer::gpu_frame::offscreen_raw_input;
    use crate::viewer::player::ScoreSource;

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
        let mut state = UiState { model_names: vec!["mannequin"], ..UiState::default() };
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
}
