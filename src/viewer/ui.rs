//! The player's egui interface: menu bar (File ▸ Open, recent files, demos), the staff panel on
//! the left, controls and warnings on the right, the transport bar at the bottom and the 3D
//! stage (a texture) in the middle with camera buttons and the mirror switch, the music panel
//! (track, offset, tempo, tap to align) and the loop passage. It edits the [`Player`] directly
//! and returns what needs the GPU, the audio device or the file system as [`UiAction`]s.

pub use super::plan_ui::PlanPanel;
use crate::rehearse::loop_range::LoopRange;
use crate::rehearse::sync::speed_note;
use crate::rehearse::tap::{TapError, TapFit};
use crate::stage::camera_input::{CameraView, PointerInput, stage_uv_x};
use crate::stage::playback::{MAX_SPEED, MIN_SPEED};
use crate::stage::player::Player;
use crate::viewer::staff_ui::staff_ui_with_loop;
use std::path::PathBuf;

/// Something the UI asks the application to do.
#[derive(Clone, Debug, PartialEq)]
pub enum UiAction {
    /// Open this score file.
    Open(PathBuf),
    /// Choose a file to open: the desktop's file dialog, else the built-in browser.
    OpenDialog,
    /// The built-in browser chose this file for this purpose.
    Browsed(BrowsePurpose, PathBuf),
    /// Open bundled demo number `index` of [`crate::stage::DEMOS`].
    OpenDemo(usize),
    /// Switch to model number `index` of the model list.
    SelectModel(usize),
    /// Move the camera to a view.
    CameraView(CameraView),
    /// Turn the metronome on or off.
    Metronome(bool),
    /// Show the file dialog for a music track.
    OpenMusicDialog,
    /// Show the file dialog for a mesh to rig as the dancer.
    OpenMeshDialog,
    /// Use this music file for the score.
    OpenMusic(PathBuf),
    /// Drop the score's music track.
    ClearMusic,
    /// Turn the music on or off.
    Music(bool),
    /// Set where beat 0 falls in the music and the tempo (`None`: the score's).
    Align {
        /// Seconds into the audio of beat 0.
        offset_secs: f64,
        /// Tempo override, bpm.
        bpm: Option<f64>,
    },
    /// A tap of "tap the beats" (button or T key).
    Tap,
    /// Use the tapped tempo and offset.
    ApplyTaps,
    /// Forget the taps.
    ClearTaps,
    /// Write the music, offset and tempo into the sidecar beside the score.
    SaveSidecar,
    /// Write a video (MP4, with the music) of what the player shows.
    ExportVideo,
    /// Save the score (as itself when it is an `.lbn` file, else through Save as).
    Save,
    /// Choose a name and save the score as `.lbn`.
    SaveAs,
    /// Start a new empty score in edit mode.
    NewScore,
    /// Close the window.
    Quit,
}

/// UI state that lives between frames (not part of the player).
#[derive(Clone, Debug, PartialEq)]
pub struct UiState {
    /// Names in the model dropdown.
    pub model_names: Vec<String>,
    /// The chosen model.
    pub model_index: usize,
    /// The last camera view chosen.
    pub camera_view: CameraView,
    /// The built-in file browser, while it is open.
    pub browser: Option<FileBrowser>,
    /// A video export is running: its progress text.
    pub exporting: Option<String>,
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
    /// The stage shown mirrored left–right.
    pub mirror: bool,
    /// Music on.
    pub music_on: bool,
    /// Why the music cannot sound, when it cannot (no device).
    pub music_unavailable: Option<String>,
    /// The music panel's view of the app's state.
    pub music: MusicPanel,
    /// Text of the "music path" field.
    pub music_path_text: String,
    /// Measures picked for the loop, first and last.
    pub loop_measures: [u32; 2],
    /// Seconds picked for the loop of a capture, first and last.
    pub loop_secs: [f64; 2],
    /// Lit while a beat sounds (true: the first beat of a measure).
    pub beat_flash: Option<bool>,
    /// The ensemble plan's panel, when a plan is open (filled in by the app each frame).
    pub plan: Option<PlanPanel>,
    /// The score editor (edit mode, its session).
    pub edit: crate::viewer::edit_ui::EditPanel,
}

/// What the music panel shows (filled in by the app each frame).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MusicPanel {
    /// The track's file name, when one is loaded.
    pub file_label: Option<String>,
    /// Its length, seconds.
    pub duration_secs: Option<f64>,
    /// Seconds into the audio of beat 0.
    pub offset_secs: f64,
    /// Tempo override, bpm.
    pub bpm_override: Option<f64>,
    /// The score's own tempo.
    pub score_bpm: f64,
    /// The music sounds now.
    pub sounding: bool,
    /// Taps so far.
    pub taps: usize,
    /// The fit of the taps so far (from 3 taps on).
    pub tap_fit: Option<Result<TapFit, TapError>>,
    /// The first tap is the first beat of this measure.
    pub first_tap_measure: u32,
    /// The score is a file (a sidecar can be written beside it).
    pub can_save_sidecar: bool,
    /// Where the values come from, e.g. "from dance.music.json".
    pub source_note: Option<String>,
}

impl Default for UiState {
    fn default() -> Self {
        UiState {
            model_names: Vec::new(),
            model_index: 0,
            camera_view: CameraView::ThreeQuarter,
            browser: None,
            exporting: None,
            status: None,
            staff_px_per_beat: 36.0,
            recent: Vec::new(),
            metronome_on: false,
            metronome_unavailable: None,
            mirror: false,
            music_on: true,
            music_unavailable: None,
            music: MusicPanel { first_tap_measure: 1, ..MusicPanel::default() },
            music_path_text: String::new(),
            loop_measures: [1, 2],
            loop_secs: [0.0, 2.0],
            beat_flash: None,
            plan: None,
            edit: Default::default(),
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
    /// Pointer input over the stage this pass (as the user moved it; mirror not undone).
    pub pointer: PointerInput,
    /// The M key was pressed (toggle the mirror).
    pub mirror_toggled: bool,
    /// The stage was clicked (not dragged) here: image coordinates in [-1, 1]² (x right, y up),
    /// the mirror undone.
    pub stage_click_ndc: Option<[f32; 2]>,
    /// Esc was pressed (deselect).
    pub escape: bool,
}

/// Width of the staff panel for one staff, points (wider for more staves, up to
/// [`STAFF_PANEL_MAX_DEFAULT_WIDTH`]; the user can drag its edge).
pub const STAFF_PANEL_WIDTH: f32 = 240.0;
/// The bar marking the selected dancer's staff.
const SELECTED_STAFF: egui::Color32 = egui::Color32::from_rgb(0, 125, 235);
/// The staff panel opens at most this wide, points; wider staves scroll sideways.
pub const STAFF_PANEL_MAX_DEFAULT_WIDTH: f32 = 560.0;
/// The staff panel can be narrowed to this, points.
pub const STAFF_PANEL_MIN_WIDTH: f32 = 160.0;
/// Width of the event timeline beside the staff when a plan is open, points.
pub const TIMELINE_WIDTH: f32 = 96.0;
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
    egui::Panel::top("menu").show(ui, |ui| menu_bar(ui, state, &mut out));
    crate::viewer::edit_ui::save_keys(ui, &mut out.actions);
    if !crate::viewer::edit_ui::frame(ui, &mut state.edit, player, &mut state.status) {
        keyboard(ui, player, &mut out);
    }
    egui::Panel::bottom("transport").show(ui, |ui| transport(ui, state, player));
    let timeline_px = if state.plan.is_some() { TIMELINE_WIDTH } else { 0.0 };
    let staves_px = player.layout().content_width_px(&crate::stage::staff_layout::StaffView::new(0.0, 0.0, 1.0));
    // The panel's own margins beside the staves.
    let staff_default_px = (staves_px + 16.0).clamp(STAFF_PANEL_WIDTH, STAFF_PANEL_MAX_DEFAULT_WIDTH);
    // A new id per staff count: a score with more staves opens the panel wide enough for them.
    let panel_id = ("staff", player.layout().staff_count(), state.plan.is_some());
    egui::Panel::left(panel_id)
        .default_size(staff_default_px + timeline_px)
        .min_size(STAFF_PANEL_MIN_WIDTH + timeline_px)
        .resizable(true)
        .show(ui, |ui| staff_panel(ui, state, player, staves_px, timeline_px));
    egui::Panel::right("controls").exact_size(CONTROLS_PANEL_WIDTH).resizable(false).show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| controls(ui, state, player, &mut out));
    });
    if out.mirror_toggled {
        state.mirror = !state.mirror;
    }
    egui::CentralPanel::no_frame().show(ui, |ui| stage(ui, state, stage_texture, &mut out));
    file_browser(ui, state, &mut out);
    out
}

/// Marks `range` as the loop and goes to its start.
fn mark_loop(player: &mut Player, range: LoopRange) {
    player.playback.set_loop_range(Some(range));
    if !range.contains(player.playback.t_beats()) {
        player.playback.seek(range.start_beats());
    }
}

/// Space: play/pause; ←/→: beat; shift+←/→: measure; Home/End; T: tap the beat; M: mirror.
/// Ignored while typing.
fn keyboard(ui: &mut egui::Ui, player: &mut Player, out: &mut UiOutput) {
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
        let command_o = input.events.iter().any(|event| {
            matches!(event, egui::Event::Key { key: egui::Key::O, pressed: true, modifiers, .. } if modifiers.command)
        });
        if command_o {
            out.actions.push(UiAction::OpenDialog);
        } else if input.key_pressed(egui::Key::T) {
            out.actions.push(UiAction::Tap);
        }
        if input.key_pressed(egui::Key::M) {
            out.mirror_toggled = true;
        }
        if input.key_pressed(egui::Key::Escape) {
            out.escape = true;
        }
    });
}

fn menu_bar(ui: &mut egui::Ui, state: &mut UiState, out: &mut UiOutput) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            let hint = "A score (.lbn, .lw, .json), a BVH capture, a plan, a music track or a mesh (Ctrl+O)";
            if ui.button("Open…").on_hover_text(hint).clicked() {
                out.actions.push(UiAction::OpenDialog);
                ui.close();
            }
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
                for (index, (name, _)) in crate::stage::DEMOS.iter().enumerate() {
                    if ui.button(*name).clicked() {
                        out.actions.push(UiAction::OpenDemo(index));
                        ui.close();
                    }
                }
            });
            crate::viewer::edit_ui::file_menu(ui, &mut out.actions);
            ui.separator();
            if ui.button("Quit").clicked() {
                out.actions.push(UiAction::Quit);
            }
        });
        crate::viewer::edit_ui::edit_menu(ui, &mut state.edit);
        ui.separator();
        ui.label("Camera:");
        for view in CameraView::ALL {
            if ui.selectable_label(state.camera_view == view, view.label()).clicked() {
                state.camera_view = view;
                out.actions.push(UiAction::CameraView(view));
            }
        }
        ui.separator();
        ui.toggle_value(&mut state.mirror, "Mirror").on_hover_text("The stage as in a studio mirror (M)");
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
        beat_light(ui, state.beat_flash);
        ui.monospace(playback.position_text());
        if state.music.file_label.is_some()
            && let Some(note) = speed_note(playback.speed())
        {
            ui.colored_label(egui::Color32::from_rgb(230, 150, 30), "music muted").on_hover_text(note);
        }
        let duration = playback.timeline().duration_beats;
        let mut t = playback.t_beats();
        let scrub = egui::Slider::new(&mut t, 0.0..=duration.max(1e-3)).show_value(false);
        let response = ui.add_sized([ui.available_width().max(60.0), 18.0], scrub);
        if response.changed() {
            playback.seek(t);
        }
        if let Some(range) = playback.loop_range() {
            paint_loop_on_timeline(ui, response.rect, duration, range);
        }
    });
}

/// A round light that flashes on every beat (red on the first of a measure).
fn beat_light(ui: &mut egui::Ui, flash: Option<bool>) {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
    let colour = match flash {
        Some(true) => egui::Color32::from_rgb(235, 60, 50),
        Some(false) => egui::Color32::from_rgb(250, 200, 40),
        None => egui::Color32::from_gray(70),
    };
    ui.painter().circle_filled(rect.center(), 6.0, colour);
    response.on_hover_text("Flashes on every beat (red: first beat of a measure)");
}

/// The loop passage as a green bar under the timeline slider's rail.
fn paint_loop_on_timeline(ui: &egui::Ui, rect: egui::Rect, duration_beats: f64, range: LoopRange) {
    if duration_beats <= 0.0 {
        return;
    }
    // The slider's rail is inset by about half the handle on each side.
    let inset = rect.height() / 2.0;
    let (x0, x1) = (rect.left() + inset, rect.right() - inset);
    let x_at = |t: f64| x0 + (x1 - x0) * (t / duration_beats).clamp(0.0, 1.0) as f32;
    let band = egui::Rect::from_min_max(
        egui::pos2(x_at(range.start_beats()), rect.bottom() - 4.0),
        egui::pos2(x_at(range.end_beats()), rect.bottom()),
    );
    ui.painter().rect_filled(band, 1.0, egui::Color32::from_rgb(40, 170, 70));
}

/// The staff panel: every staff of the score side by side (scrolled sideways when they are wider
/// than the panel), with the plan's event timeline beside them when a plan is open.
fn staff_panel(ui: &mut egui::Ui, state: &mut UiState, player: &mut Player, staves_px: f32, timeline_px: f32) {
    let t_beats = player.playback.t_beats();
    let playing = player.playback.is_playing();
    let loop_beats = player.playback.loop_range().map(|r| (r.start_beats(), r.end_beats()));
    let px_per_beat = state.staff_px_per_beat;
    // With a plan: the staff in the shown score's beats, the timeline in the plan's beside it.
    let staff_t = state.plan.as_ref().map_or(t_beats, |p| p.staff_t_beats);
    let mut seek = None;
    let response = if let Some(plan) = &state.plan {
        let full = ui.available_rect_before_wrap();
        let split = full.right() - timeline_px;
        let staff_rect = egui::Rect::from_min_max(full.min, egui::pos2(split, full.bottom()));
        let line_rect = egui::Rect::from_min_max(egui::pos2(split, full.top()), full.max);
        let mut line_ui = ui.new_child(egui::UiBuilder::new().max_rect(line_rect));
        let line = crate::viewer::staff_ui::timeline_ui(&mut line_ui, &plan.bars, t_beats, playing, px_per_beat);
        seek = line.seek_to_beats;
        // The children do not take space in the panel: claim it, or a resizable panel shrinks.
        ui.advance_cursor_after_rect(full);
        let mut staff_ui = ui.new_child(egui::UiBuilder::new().max_rect(staff_rect));
        scrolled_staves(&mut staff_ui, staves_px, None, |ui| {
            staff_ui_with_loop(ui, player.layout(), staff_t, playing, px_per_beat, None)
        })
    } else {
        let selected = (player.layout().staff_count() > 1).then(|| (player.layout(), player.selected_dancer()));
        scrolled_staves(ui, staves_px, selected, |ui| {
            staff_ui_with_loop(ui, player.layout(), t_beats, playing, px_per_beat, loop_beats)
        })
    };
    crate::viewer::edit_ui::staff_response(&mut state.edit, player, &response);
    // A seek on the staff moves the plan by as many beats.
    if let Some(t) = response.seek_to_beats.map(|t| t_beats + (t - staff_t)).or(seek) {
        player.playback.seek(t.max(0.0));
    }
    if let Some((a, b)) = response.loop_marked
        && let Some(range) = LoopRange::new(a, b)
    {
        mark_loop(player, range.snapped_to_beats());
    }
}

/// Runs `staff` in a sideways scroll area at least `staves_px` wide (the staff itself scrolls in
/// time by dragging, so the area scrolls only by its bar and the wheel); `selected` (a layout of
/// several staves and the selected one) marks that staff with a bar along its top.
fn scrolled_staves(
    ui: &mut egui::Ui,
    staves_px: f32,
    selected: Option<(&crate::stage::staff_layout::StaffLayout, usize)>,
    staff: impl FnOnce(&mut egui::Ui) -> crate::viewer::staff_ui::StaffResponse,
) -> crate::viewer::staff_ui::StaffResponse {
    let source = egui::scroll_area::ScrollSource::SCROLL_BAR | egui::scroll_area::ScrollSource::MOUSE_WHEEL;
    egui::ScrollArea::horizontal()
        .auto_shrink(false)
        .scroll_source(source)
        .show(ui, |ui| {
            let height_px = ui.available_height();
            ui.set_min_size(egui::vec2(ui.available_width().max(staves_px), height_px));
            let rect =
                egui::Rect::from_min_size(ui.cursor().min, egui::vec2(ui.available_width().max(staves_px), height_px));
            let mut inner = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            let response = staff(&mut inner);
            if let Some((layout, staff_index)) = selected {
                let view = crate::stage::staff_layout::StaffView::new(rect.width(), rect.height(), 1.0);
                if let Some(centre_x) = layout.staff_centre_x(&view, staff_index) {
                    let half_px = 2.0 * crate::stage::staff_layout::COLUMN_WIDTH_PX;
                    let x = rect.left() + centre_x;
                    let bar = egui::Rect::from_min_max(
                        egui::pos2(x - half_px, rect.top()),
                        egui::pos2(x + half_px, rect.top() + 4.0),
                    );
                    ui.painter().rect_filled(bar, 1.0, SELECTED_STAFF);
                }
            }
            response
        })
        .inner
}

fn controls(ui: &mut egui::Ui, state: &mut UiState, player: &mut Player, out: &mut UiOutput) {
    crate::viewer::plan_ui::plan_controls(ui, state, out);
    ui.heading(player.title().unwrap_or("untitled score"));
    ui.label(egui::RichText::new(player.source().label()).small());
    ui.label(player.summary());
    ui.separator();
    ui.label("Dancer model");
    let selected = state.model_names.get(state.model_index).map_or("?", String::as_str);
    egui::ComboBox::from_id_salt("model").selected_text(selected).show_ui(ui, |ui| {
        for (index, name) in state.model_names.iter().enumerate() {
            if ui.selectable_label(index == state.model_index, name.as_str()).clicked() && index != state.model_index {
                out.actions.push(UiAction::SelectModel(index));
            }
        }
        if ui
            .selectable_label(false, "Open mesh…")
            .on_hover_text("A humanoid mesh (OBJ, glTF, PLY, STL) is rigged and dances; or drop one on the window")
            .clicked()
        {
            out.actions.push(UiAction::OpenMeshDialog);
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
    let available = state.metronome_unavailable.is_none();
    let mut metronome_on = state.metronome_on && available;
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
    music_panel(ui, state, out);
    ui.separator();
    loop_panel(ui, state, player);
    ui.separator();
    video_panel(ui, state, out);
    ui.separator();
    warnings(ui, player, &mut state.edit);
}

fn video_panel(ui: &mut egui::Ui, state: &UiState, out: &mut UiOutput) {
    ui.horizontal(|ui| {
        let idle = state.exporting.is_none();
        let button = ui.add_enabled(idle, egui::Button::new("Export video (MP4)"));
        if button
            .on_hover_text(
                "1280×720 with this camera, model, mirror and the music, beside the score (labanplay render)",
            )
            .clicked()
        {
            out.actions.push(UiAction::ExportVideo);
        }
        if let Some(progress) = &state.exporting {
            ui.label(progress.as_str());
        }
    });
}

/// The loop of a capture, in seconds (it has no measures).
fn capture_loop_panel(ui: &mut egui::Ui, state: &mut UiState, player: &mut Player) {
    egui::CollapsingHeader::new("Loop a passage").default_open(true).show(ui, |ui| {
        let timeline = player.playback.timeline().clone();
        let secs_of = |t_beats: f64| timeline.secs_from_beats(t_beats);
        match player.playback.loop_range() {
            Some(range) => {
                ui.label(format!("looping {:.2}–{:.2} s", secs_of(range.start_beats()), secs_of(range.end_beats())))
            }
            None => ui.label("Shift-drag on the ruler, or pick seconds:"),
        };
        let end_secs = secs_of(timeline.duration_beats);
        ui.horizontal(|ui| {
            ui.label("from");
            ui.add(egui::DragValue::new(&mut state.loop_secs[0]).range(0.0..=end_secs).speed(0.05).suffix(" s"));
            ui.label("to");
            ui.add(egui::DragValue::new(&mut state.loop_secs[1]).range(0.0..=end_secs).speed(0.05).suffix(" s"));
        });
        ui.horizontal(|ui| {
            if ui.button("Loop them").clicked() {
                let [from, to] = state.loop_secs.map(|secs| timeline.beats_from_secs(secs));
                match LoopRange::new(from, to) {
                    Some(range) => mark_loop(player, range),
                    None => state.status = Some("give a later second after the first".to_owned()),
                }
            }
            if player.playback.loop_range().is_some() && ui.button("Clear loop").clicked() {
                player.playback.set_loop_range(None);
            }
        });
    });
}

fn loop_panel(ui: &mut egui::Ui, state: &mut UiState, player: &mut Player) {
    if player.score().is_none() {
        capture_loop_panel(ui, state, player);
        return;
    }
    egui::CollapsingHeader::new("Loop a passage").default_open(true).show(ui, |ui| {
        let timeline = player.playback.timeline().clone();
        match player.playback.loop_range() {
            Some(range) => {
                let text = range.measures_text(|t| timeline.measure_at(t).0);
                ui.label(format!("looping {text} (beats {:.2}–{:.2})", range.start_beats(), range.end_beats()));
            }
            None => {
                ui.label("Shift-drag on the staff, or pick measures:");
            }
        }
        let last_measure = timeline.measure_starts.last().map(|(n, _)| *n).unwrap_or(1).max(1);
        ui.horizontal(|ui| {
            ui.label("measures");
            ui.add(egui::DragValue::new(&mut state.loop_measures[0]).range(0..=last_measure));
            ui.label("to");
            ui.add(egui::DragValue::new(&mut state.loop_measures[1]).range(0..=last_measure));
        });
        ui.horizontal(|ui| {
            if ui.button("Loop them").clicked() {
                let [first, last] = state.loop_measures;
                match LoopRange::of_measures(&timeline.measure_starts, timeline.duration_beats, first, last) {
                    Some(range) => mark_loop(player, range),
                    None => state.status = Some(format!("no measures {first}–{last} in this score")),
                }
            }
            if player.playback.loop_range().is_some() && ui.button("Clear loop").clicked() {
                player.playback.set_loop_range(None);
            }
        });
    });
}

/// The warnings list; a click on one goes to its symbol: in edit mode it selects the symbol and
/// the staff scrolls to it, otherwise the cursor goes to its time.
fn warnings(ui: &mut egui::Ui, player: &mut Player, edit: &mut crate::viewer::edit_ui::EditPanel) {
    let count = player.warnings().len();
    let mut clicked = None;
    let session = edit.session.as_ref().filter(|_| edit.active);
    egui::CollapsingHeader::new(format!("Warnings ({count})")).default_open(count > 0).show(ui, |ui| {
        if count == 0 {
            ui.label("Everything in the score was interpreted.");
        }
        for (i, item) in player.warnings().iter().enumerate() {
            let prefix = if item.from_motion { "motion" } else { "score" };
            let text = format!("[{prefix}] {}", item.text);
            let has_symbol = session.is_some_and(|s| s.editor().place_of_span(&item.span).is_some());
            if item.t_beats.is_some() || has_symbol {
                let hint = if has_symbol { "Click to select its symbol" } else { "Click to go there" };
                if ui.selectable_label(false, text).on_hover_text(hint).clicked() {
                    clicked = Some(i);
                }
            } else {
                ui.label(text);
            }
        }
    });
    let Some(item) = clicked.and_then(|i| player.warnings().get(i).cloned()) else { return };
    let selected =
        edit.session.as_mut().filter(|_| edit.active).is_some_and(|session| session.go_to_span(&item.span, player));
    if !selected && let Some(t) = item.t_beats {
        player.playback.pause();
        player.playback.seek(t);
    }
}

fn stage(ui: &mut egui::Ui, state: &UiState, stage_texture: Option<egui::TextureId>, out: &mut UiOutput) {
    let rect = ui.max_rect();
    let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
    if let Some(texture) = stage_texture {
        let [u_left, u_right] = stage_uv_x(state.mirror);
        let uv = egui::Rect::from_min_max(egui::pos2(u_left, 0.0), egui::pos2(u_right, 1.0));
        ui.painter().image(texture, rect, uv, egui::Color32::WHITE);
    }
    if state.mirror {
        mirror_badge(ui, rect);
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
    if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
        && rect.width() > 0.0
        && rect.height() > 0.0
    {
        let ndc_x = 2.0 * (p.x - rect.left()) / rect.width() - 1.0;
        let ndc_y = 1.0 - 2.0 * (p.y - rect.top()) / rect.height();
        out.stage_click_ndc = Some([crate::stage::camera_input::shown_ndc_x(ndc_x, state.mirror), ndc_y]);
    }
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
    let follow_text = match state.camera_view {
        CameraView::FollowDancer => Some("following dancer 1"),
        CameraView::Behind => Some("behind dancer 1"),
        _ => None,
    };
    if let Some(text) = follow_text {
        ui.painter().text(
            rect.left_top() + egui::vec2(8.0, 8.0),
            egui::Align2::LEFT_TOP,
            text,
            egui::FontId::proportional(13.0),
            egui::Color32::from_gray(200),
        );
    }
}

/// Colour of the mirror indicator.
pub const MIRROR_BADGE: egui::Color32 = egui::Color32::from_rgb(200, 40, 160);

/// The mirror indicator: a magenta frame round the stage and a "MIRROR" badge at its top right.
fn mirror_badge(ui: &egui::Ui, rect: egui::Rect) {
    let painter = ui.painter();
    painter.rect_stroke(rect.shrink(2.0), 0.0, egui::Stroke::new(4.0, MIRROR_BADGE), egui::StrokeKind::Inside);
    let text = "MIRROR";
    let font = egui::FontId::proportional(16.0);
    let galley = painter.layout_no_wrap(text.to_owned(), font, egui::Color32::WHITE);
    let size = galley.size() + egui::vec2(16.0, 8.0);
    let badge = egui::Rect::from_min_size(egui::pos2(rect.right() - size.x - 10.0, rect.top() + 10.0), size);
    painter.rect_filled(badge, 4.0, MIRROR_BADGE);
    painter.galley(badge.min + egui::vec2(8.0, 4.0), galley, egui::Color32::WHITE);
}

mod file_browser;
mod music_panel;
use crate::stage::file_browser::{BrowsePurpose, FileBrowser};
use file_browser::file_browser;
use music_panel::music_panel;

#[cfg(test)]
#[path = "ui_tests.rs"]
mod tests;
