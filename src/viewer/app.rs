//! The player window: a winit 0.30 `ApplicationHandler` that owns the [`Player`], the egui
//! context, the GPU and the [`Rehearsal`] (music, clock, settings). It reads the wall clock (the
//! only place that does) and feeds it, with the music output's clock, to the transport; polls
//! the open file for hot reload; handles dropped files and UI actions; restores the settings at
//! start and writes them back when they change.
//!
//! Test hooks: `LABANPLAY_EXIT_AFTER_FRAMES=N` closes the window after N frames and
//! `LABANPLAY_SCREENSHOT=path.png` saves the last frame (painted offscreen) before closing;
//! `LABANPLAY_SELECT=N` selects performer N of a plan at the start; `LABANPLAY_FRAME_SECS=S` moves
//! the clock S seconds each frame instead of the wall clock's step.

use crate::rehearse::settings::{Settings, default_settings_path};
use crate::stage::camera_input::{
    CameraView, apply_motion, camera_motion, follow, follow_from_behind, framed_camera, unmirrored_pointer,
};
use crate::stage::dancer_mesh::DancerModel;
use crate::stage::dancer_mesh::{ModelEntry, builtin_models};
use crate::stage::file_browser::{BrowsePurpose, FileBrowser};
use crate::stage::files::{FileKind, file_kind};
use crate::stage::files::{FileWatch, RecentFiles};
use crate::stage::mesh_cache::{Origin, default_cache_dir};
use crate::stage::mesh_open::MeshJob;
use crate::stage::player::{Opened, open_path};
use crate::stage::player::{Player, ScoreSource};
use crate::stage::{OrbitCamera, Scene};
use crate::viewer::metronome::Metronome;
use crate::viewer::music::MusicPlayer;
use crate::viewer::rehearsal::Rehearsal;
use crate::viewer::ui::{UiAction, UiState};
use crate::viewer::video_export::{self, ExportState, VideoExport};
use crate::viewer::window_gpu::{FrameInput, WindowGpu};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::event::{StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

mod opening;
mod plan_panel;
mod save;
mod save_score;

/// How the window starts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WindowOptions {
    /// The score to open (the first bundled demo when `None`).
    pub file: Option<PathBuf>,
    /// Close after this many frames (tests).
    pub exit_after_frames: Option<u64>,
    /// Save the last frame here as PNG before closing (tests).
    pub screenshot: Option<PathBuf>,
    /// Select this performer (from 1) of a plan at the start (tests).
    pub select_performer: Option<usize>,
    /// Each frame moves the clock this many seconds instead of the wall clock's step, so what a
    /// frame shows does not depend on how fast the machine draws (tests).
    pub frame_secs: Option<f64>,
    /// The dancer: a built-in model's name or a mesh file (instead of the one chosen last time).
    pub model: Option<String>,
}

impl WindowOptions {
    /// Options for `file`, with the test hooks read from `LABANPLAY_EXIT_AFTER_FRAMES` and
    /// `LABANPLAY_SCREENSHOT`.
    pub fn from_env(file: Option<PathBuf>) -> WindowOptions {
        let exit_after_frames = std::env::var("LABANPLAY_EXIT_AFTER_FRAMES").ok().and_then(|v| v.trim().parse().ok());
        let screenshot = std::env::var_os("LABANPLAY_SCREENSHOT").filter(|v| !v.is_empty()).map(PathBuf::from);
        let select_performer = std::env::var("LABANPLAY_SELECT").ok().and_then(|v| v.trim().parse().ok());
        let frame_secs = std::env::var("LABANPLAY_FRAME_SECS")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .filter(|secs: &f64| secs.is_finite() && *secs >= 0.0);
        WindowOptions { file, exit_after_frames, screenshot, select_performer, frame_secs, model: None }
    }
}

/// The settings' model entry for `--model NAME|MESH`: a built-in model's name, or an existing
/// mesh file (as an absolute path, as the player stores it).
fn chosen_model(model: &str, models: &[ModelEntry]) -> Result<String, String> {
    if models.iter().any(|m| m.name == model) {
        return Ok(model.to_owned());
    }
    let path = Path::new(model);
    if path.is_file() && file_kind(path) == FileKind::Mesh {
        return Ok(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()).to_string_lossy().into_owned());
    }
    let names: Vec<&str> = models.iter().map(|m| m.name).collect();
    Err(format!(
        "unknown model `{model}`: give one of {} (see `labanplay models`) or a mesh file (.obj, .gltf, .glb, .ply, .stl)",
        names.join(", ")
    ))
}

/// Opens the player window and runs until it is closed. Errors (no display, no GPU, an
/// unreadable score) come back as a message for the user.
pub fn run(mut options: WindowOptions) -> Result<(), String> {
    let settings_path = default_settings_path();
    let loaded = settings_path.as_deref().map(Settings::load);
    let (mut settings, settings_warning) = match loaded {
        Some(loaded) => (loaded.settings, loaded.warning),
        None => (Settings::default(), None),
    };
    if let Some(warning) = &settings_warning {
        eprintln!("labanplay: {warning}");
    }
    let models = builtin_models();
    // A mesh given as the file is the dancer, not a score.
    if let Some(mesh) = options.file.take_if(|p| file_kind(p) == FileKind::Mesh) {
        options.model = Some(mesh.to_string_lossy().into_owned());
    }
    if let Some(model) = &options.model {
        settings.model = Some(chosen_model(model, &models)?);
    }
    let model_index =
        settings.model.as_deref().and_then(|name| models.iter().position(|m| m.name == name)).unwrap_or(0);
    let entry = models.get(model_index).or(models.first()).ok_or("no dancer models are built in")?;
    let model = entry.build().map_err(|e| e.to_string())?;
    // The file asked for, else the score open last time (when it still opens), else the demo.
    let last = settings.last_score.as_deref();
    let last_file = last.filter(|k| !k.starts_with("demo:")).map(PathBuf::from).filter(|p| p.is_file());
    let last_demo = last
        .and_then(|k| k.strip_prefix("demo:"))
        .and_then(|name| crate::stage::DEMOS.iter().position(|(n, _)| *n == name));
    // An ensemble plan plays its crowd; the staff beside it is its first group's score.
    let plan = match options.file.as_deref().filter(|p| file_kind(p) == FileKind::Plan) {
        Some(path) => Some(crate::stage::plan_stage::PlanPlayback::open(path, &model).map_err(|e| e.to_string())?),
        None => None,
    };
    let wanted = match &plan {
        Some(p) => p.shown_opened(),
        None => match options.file.clone().or(last_file) {
            Some(path) => Some((open_path(&path, &model.proportions).map_err(|e| e.render())?, path)),
            None => None,
        },
    };
    let mut capture = None;
    let (score, source) = match wanted {
        Some((opened, path)) => match opened {
            Opened::Score(score) => (score, ScoreSource::File(path)),
            Opened::Capture(animation) => {
                capture = Some((animation, path));
                let (name, score) = crate::stage::demo_score(0).ok_or("no demo score")?;
                (score, ScoreSource::Demo(name))
            }
        },
        None => {
            let (name, score) = crate::stage::demo_score(last_demo.unwrap_or(0)).ok_or("no demo score")?;
            (score, ScoreSource::Demo(name))
        }
    };
    let mut player = Player::new(score, source, model, settings.toe_first);
    if let Some((animation, path)) = capture {
        player.replace_opened(Opened::Capture(animation), ScoreSource::File(path));
    }
    let toggles = settings.toggles;
    let stage = &mut player.stage_options;
    stage.footprints = toggles.footprints.unwrap_or(stage.footprints);
    stage.facing_arrows = toggles.facing_arrows.unwrap_or(stage.facing_arrows);
    stage.trails = toggles.trails.unwrap_or(stage.trails);
    stage.shadows = toggles.shadows.unwrap_or(stage.shadows);
    if let Some(speed) = settings.speed {
        player.playback.set_speed(speed);
    }
    if let Some(looping) = settings.looping {
        player.playback.set_looping(looping);
    }
    player.playback.play();
    let event_loop = EventLoop::new().map_err(|e| {
        format!(
            "cannot open a window: {e}. Run it on a desktop session (DISPLAY or WAYLAND_DISPLAY must be set), \
             or use `labanplay render FILE -o out.gif` for headless output"
        )
    })?;
    let mut recent = RecentFiles::load_default();
    if let ScoreSource::File(path) = player.source() {
        recent.remember(path);
    }
    let boot = Boot { player, models, model_index, recent, options, settings, settings_path, settings_warning, plan };
    let mut app = App { boot: Some(boot), running: None, error: None };
    event_loop.run_app(&mut app).map_err(|e| format!("the window's event loop failed: {e}"))?;
    match app.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// State before the window exists.
struct Boot {
    player: Player,
    models: Vec<ModelEntry>,
    model_index: usize,
    recent: RecentFiles,
    options: WindowOptions,
    settings: Settings,
    settings_path: Option<PathBuf>,
    settings_warning: Option<String>,
    plan: Option<crate::stage::plan_stage::PlanPlayback>,
}

/// A desktop file dialog that answers "nothing chosen" sooner than this after it opened was
/// never shown (no portal, no zenity): the built-in browser is used instead, from then on.
const UNSHOWN_DIALOG_SECS: f64 = 0.6;

struct App {
    boot: Option<Boot>,
    running: Option<Running>,
    error: Option<String>,
}

struct Running {
    window: Arc<Window>,
    gpu: WindowGpu,
    egui_state: egui_winit::State,
    player: Player,
    models: Vec<ModelEntry>,
    recent: RecentFiles,
    options: WindowOptions,
    ui_state: UiState,
    camera: OrbitCamera,
    scene: Scene,
    metronome: Metronome,
    rehearsal: Rehearsal,
    watch: Option<FileWatch>,
    /// The file dialog running on its own thread, when one is open, and what it is for.
    dialog: Option<(BrowsePurpose, std::sync::mpsc::Receiver<(Option<PathBuf>, f64)>)>,
    /// The desktop has no file dialog: the built-in browser opens directly.
    builtin_browser: bool,
    /// The framed view follows a dance too large to frame whole (until the user moves it).
    tracking: bool,
    /// A mesh being rigged for the dancer, when one is.
    mesh_job: Option<MeshJob>,
    /// Meshes opened as models: shown after the built-in models in the dropdown.
    mesh_models: Vec<(PathBuf, DancerModel)>,
    /// The video export running in a child process, when one is.
    video: Option<VideoExport>,
    started: Instant,
    last_frame: Instant,
    /// When each key or button press since the last frame arrived (taps are timed from these).
    presses: std::collections::VecDeque<Instant>,
    frames: u64,
    stage_size_px: [u32; 2],
    /// The ensemble plan playing, when one was opened.
    plan: Option<crate::stage::plan_stage::PlanPlayback>,
    /// The plan's commands carried out last: camera cut and music cue (indices into its commands).
    plan_cut: Option<usize>,
    plan_cue: Option<usize>,
    /// The lights error already shown on the status line.
    plan_lights_error: Option<crate::stage::plan_events::PlanEventError>,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        let Some(boot) = self.boot.take() else { return };
        match Running::start(event_loop, boot) {
            Ok(running) => {
                running.window.request_redraw();
                self.running = Some(running);
            }
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    fn new_events(&mut self, _event_loop: &ActiveEventLoop, cause: StartCause) {
        if let (StartCause::ResumeTimeReached { .. }, Some(running)) = (cause, &self.running) {
            running.window.request_redraw();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _window_id: WindowId, event: WindowEvent) {
        let Some(running) = &mut self.running else { return };
        let response = running.egui_state.on_window_event(&running.window, &event);
        if response.repaint {
            running.window.request_redraw();
        }
        let pressed = match &event {
            WindowEvent::KeyboardInput { event, .. } => event.state.is_pressed() && !event.repeat,
            WindowEvent::MouseInput { state, .. } => state.is_pressed(),
            _ => false,
        };
        if pressed {
            running.presses.push_back(Instant::now());
        }
        match event {
            WindowEvent::CloseRequested if running.ui_state.edit.ask_before_quit() => running.window.request_redraw(),
            WindowEvent::CloseRequested => {
                running.save_settings(true);
                event_loop.exit();
            }
            WindowEvent::Resized(size) => {
                running.gpu.resize(size.width, size.height);
                running.window.request_redraw();
            }
            WindowEvent::DroppedFile(path) => {
                running.open_file(&path);
                running.window.request_redraw();
            }
            WindowEvent::RedrawRequested => match running.frame() {
                Ok(FrameEnd::Continue) => {}
                Ok(FrameEnd::Quit) => {
                    running.save_settings(true);
                    event_loop.exit();
                }
                Err(error) => {
                    self.error = Some(error);
                    event_loop.exit();
                }
            },
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = &self.running else { return };
        if running.player.playback.is_playing() || running.options.exit_after_frames.is_some() {
            event_loop.set_control_flow(ControlFlow::Poll);
            running.window.request_redraw();
        } else {
            // Idle: wake up a few times a second for hot reload and the metronome toggle.
            event_loop.set_control_flow(ControlFlow::WaitUntil(Instant::now() + Duration::from_millis(250)));
        }
    }
}

enum FrameEnd {
    Continue,
    Quit,
}

impl Running {
    fn start(event_loop: &ActiveEventLoop, boot: Boot) -> Result<Running, String> {
        let Boot {
            mut player,
            models,
            model_index,
            recent,
            options,
            settings,
            settings_path,
            settings_warning,
            mut plan,
        } = boot;
        let attributes = Window::default_attributes()
            .with_title(format!("labanplay — {}", player.source().label()))
            .with_inner_size(winit::dpi::LogicalSize::new(1280.0, 800.0));
        let window =
            Arc::new(event_loop.create_window(attributes).map_err(|e| format!("cannot create the window: {e}"))?);
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        )));
        let mut gpu = WindowGpu::new(instance, window.clone(), player.model())?;
        if let Some(plan) = &mut plan {
            plan.low_mesh = Some(gpu.upload_extra_mesh(&plan.low)?);
            plan.coarse_mesh = Some(gpu.upload_extra_mesh(&plan.coarse)?);
        }
        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx,
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.max_texture_side()),
        );
        let mut metronome = Metronome::new();
        let music = MusicPlayer::new(metronome.mixer(), metronome.unavailable_reason().map(str::to_owned));
        let defaults = UiState::default();
        let metronome_on = settings.toggles.metronome.unwrap_or(false) && metronome.unavailable_reason().is_none();
        metronome.set_enabled(metronome_on);
        let mut ui_state = UiState {
            model_names: models.iter().map(|m| m.name.to_owned()).collect(),
            model_index,
            camera_view: settings.camera.as_deref().and_then(CameraView::from_name).unwrap_or(defaults.camera_view),
            mirror: settings.mirror,
            metronome_on,
            metronome_unavailable: metronome.unavailable_reason().map(str::to_owned),
            music_on: settings.toggles.music.unwrap_or(true),
            staff_px_per_beat: settings
                .staff_px_per_beat
                .map(|z| z.clamp(12.0, 96.0))
                .unwrap_or(defaults.staff_px_per_beat),
            recent: recent.paths().to_vec(),
            status: settings_warning,
            ..defaults
        };
        // A mesh chosen last time is opened again (instantly, from the rig cache).
        let restore_mesh = settings
            .model
            .as_deref()
            .filter(|m| crate::rig::is_mesh_path(m))
            .map(PathBuf::from)
            .filter(|p| p.is_file());
        let mut rehearsal = Rehearsal::new(music, settings, settings_path);
        rehearsal.open_score(&mut player, &mut ui_state);
        if let Some(plan) = &plan {
            set_plan_timeline(&mut player, plan);
            ui_state.plan = Some(crate::viewer::ui::PlanPanel::default());
        }
        let bounds = match &plan {
            Some(p) => crate::stage::plan_stage::plan_bounds(&p.crowd),
            None => *player.floor_bounds(),
        };
        let mut camera = framed_camera(ui_state.camera_view, &bounds, 16.0 / 9.0);
        camera.far_m = camera.far_m.max(4.0 * camera.distance_m);
        let now = Instant::now();
        let watch = match player.source() {
            ScoreSource::File(path) => Some(FileWatch::new(path.clone(), 0.0)),
            ScoreSource::Demo(_) => None,
        };
        let mut running = Running {
            window,
            gpu,
            egui_state,
            player,
            models,
            recent,
            options,
            ui_state,
            camera,
            scene: Scene::default(),
            metronome,
            rehearsal,
            watch,
            dialog: None,
            builtin_browser: std::env::var("LABANPLAY_FILE_BROWSER").is_ok_and(|v| v == "builtin"),
            tracking: true,
            mesh_job: None,
            mesh_models: Vec::new(),
            video: None,
            started: now,
            last_frame: now,
            presses: std::collections::VecDeque::new(),
            frames: 0,
            stage_size_px: [1, 1],
            plan,
            plan_cut: None,
            plan_cue: None,
            plan_lights_error: None,
        };
        if let Some(mesh) = restore_mesh {
            running.open_mesh(&mesh);
        }
        Ok(running)
    }

    fn start_video(&mut self) {
        let started = video_export::request_from(&self.player, &self.ui_state, &self.rehearsal).and_then(|request| {
            let program = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
            VideoExport::start(&program, &request).map(|export| (export, request.out))
        });
        match started {
            Ok((export, out)) => {
                self.ui_state.status = Some(format!("exporting {}…", out.display()));
                self.ui_state.exporting = Some("starting…".to_owned());
                self.video = Some(export);
            }
            Err(error) => self.ui_state.status = Some(error),
        }
    }

    fn poll_video(&mut self) {
        let Some(export) = &mut self.video else { return };
        match export.poll() {
            ExportState::Running(progress) => {
                let text = progress.map(|(done, all)| format!("frame {done} of {all}"));
                self.ui_state.exporting = Some(text.unwrap_or_else(|| "starting…".to_owned()));
            }
            ExportState::Done(result) => {
                self.ui_state.status = Some(result.unwrap_or_else(|error| error));
                self.ui_state.exporting = None;
                self.video = None;
            }
        }
    }

    fn reframe(&mut self) {
        let aspect = self.stage_size_px[0] as f32 / self.stage_size_px[1].max(1) as f32;
        let bounds = match &self.plan {
            Some(p) => crate::stage::plan_stage::plan_bounds(&p.crowd),
            None => *self.player.floor_bounds(),
        };
        self.camera = framed_camera(self.ui_state.camera_view, &bounds, aspect);
        self.camera.far_m = self.camera.far_m.max(4.0 * self.camera.distance_m);
        self.tracking = true;
    }

    /// A dance too large to frame whole keeps its dancers framed as they travel, until the
    /// user moves the camera (a view button starts it again).
    fn track_dancers(&mut self) {
        if !self.tracking || self.plan.is_some() {
            return;
        }
        if let Some(now) = self.player.tracking_frame(self.ui_state.camera_view) {
            let aspect = self.stage_size_px[0] as f32 / self.stage_size_px[1].max(1) as f32;
            self.camera = framed_camera(self.ui_state.camera_view, &now, aspect);
            self.camera.far_m = self.camera.far_m.max(4.0 * self.camera.distance_m);
        }
    }

    fn apply(&mut self, action: UiAction) -> FrameEnd {
        match action {
            UiAction::Open(path) => self.open_file(&path),
            UiAction::OpenDialog => self.open_dialog(BrowsePurpose::Any),
            UiAction::OpenMusicDialog => self.open_dialog(BrowsePurpose::Music),
            UiAction::OpenMeshDialog => self.open_dialog(BrowsePurpose::Mesh),
            UiAction::Browsed(purpose, path) => self.open_for(purpose, &path),
            UiAction::OpenMusic(path) => self.rehearsal.open_music(&path, &self.player, &mut self.ui_state),
            UiAction::ClearMusic => self.rehearsal.clear_music(),
            UiAction::Music(_) => {}
            UiAction::Align { offset_secs, bpm } => self.rehearsal.align(offset_secs, bpm, &mut self.player),
            UiAction::Tap => {
                // The press that made this tap, timed when it arrived rather than when the frame read it.
                let pressed_at = self.presses.pop_back().unwrap_or(self.last_frame);
                let secs_before_frame = self.last_frame.saturating_duration_since(pressed_at).as_secs_f64();
                self.rehearsal.tap(secs_before_frame, &self.player);
            }
            UiAction::ClearTaps => self.rehearsal.taps.clear(),
            UiAction::ApplyTaps => {
                let status = self.rehearsal.apply_taps(&mut self.player, self.ui_state.music.first_tap_measure);
                // The confirmation: the metronome clicks (and the beat light flashes) with the music.
                if self.metronome.unavailable_reason().is_none() {
                    self.metronome.set_enabled(true);
                    self.ui_state.metronome_on = true;
                }
                self.ui_state.status = Some(status);
            }
            UiAction::SaveSidecar => self.ui_state.status = Some(self.rehearsal.save_sidecar()),
            UiAction::ExportVideo => self.start_video(),
            UiAction::OpenDemo(_) if self.ui_state.edit.is_dirty() => {
                self.ui_state.status = self.ui_state.edit.unsaved_refusal();
            }
            UiAction::OpenDemo(index) => {
                if let Some((name, score)) = crate::stage::demo_score(index) {
                    self.ui_state.edit.close();
                    self.rehearsal.store_score(&self.player);
                    self.player.replace_score(score, ScoreSource::Demo(name));
                    self.player.playback.go_to_start();
                    self.rehearsal.open_score(&mut self.player, &mut self.ui_state);
                    self.player.playback.play();
                    self.watch = None;
                    self.reframe();
                    self.window.set_title(&format!("labanplay — {}", self.player.source().label()));
                }
            }
            UiAction::SelectModel(index) => {
                let mesh = index.checked_sub(self.models.len()).and_then(|i| self.mesh_models.get(i));
                let built = match mesh {
                    Some((_, model)) => Ok(model.clone()),
                    None => self
                        .models
                        .get(index)
                        .ok_or_else(|| "no such model".to_owned())
                        .and_then(|entry| entry.build().map_err(|e| e.to_string())),
                };
                match built.and_then(|model| self.gpu.set_model(&model).map(|()| model)) {
                    Ok(model) => {
                        self.player.set_model(model);
                        self.ui_state.model_index = index;
                    }
                    Err(error) => self.ui_state.status = Some(error),
                }
            }
            UiAction::CameraView(view) => {
                self.ui_state.camera_view = view;
                self.reframe();
            }
            UiAction::Metronome(on) => self.metronome.set_enabled(on),
            UiAction::Save => self.save_score(None),
            UiAction::SaveAs => self.ask_save_name(),
            UiAction::NewScore => self.new_score(),
            UiAction::Quit if self.ui_state.edit.ask_before_quit() => {}
            UiAction::Quit => return FrameEnd::Quit,
        }
        FrameEnd::Continue
    }

    fn frame(&mut self) -> Result<FrameEnd, String> {
        let now = Instant::now();
        let dt_secs = self.options.frame_secs.unwrap_or_else(|| now.duration_since(self.last_frame).as_secs_f64());
        self.last_frame = now;
        let clock_secs = now.duration_since(self.started).as_secs_f64();
        let advanced = self.rehearsal.advance(dt_secs, clock_secs, &mut self.player, &self.ui_state);
        if self.metronome.enabled() {
            for (from_beats, to_beats) in advanced.spans() {
                self.metronome.advance(self.player.measure_grid(), *from_beats, *to_beats);
            }
        }
        self.hot_reload(clock_secs);
        self.poll_dialog();
        self.poll_mesh(clock_secs);
        self.poll_video();
        self.rehearsal.fill_panel(&self.player, &mut self.ui_state, clock_secs);
        self.fill_plan_panel();

        let raw_input = self.egui_state.take_egui_input(&self.window);
        let stage_texture = self.gpu.stage_texture_id();
        let mut ui_output = crate::viewer::ui::UiOutput::default();
        let ctx = self.egui_state.egui_ctx().clone();
        let mut full_output = ctx.run_ui(raw_input, |ui| {
            ui_output = crate::viewer::ui::draw(ui, &mut self.ui_state, &mut self.player, stage_texture);
        });
        self.egui_state.handle_platform_output(&self.window, std::mem::take(&mut full_output.platform_output));
        let mut end = FrameEnd::Continue;
        for action in std::mem::take(&mut ui_output.actions) {
            if let FrameEnd::Quit = self.apply(action) {
                end = FrameEnd::Quit;
            }
        }
        self.presses.clear();
        if self.ui_state.edit.quit_confirmed {
            end = FrameEnd::Quit;
        }
        if let Some(title) = self.ui_state.edit.title_change(&self.player.source().label()) {
            self.window.set_title(&title);
        }

        self.select_on_stage(&ui_output);
        self.select_dancer_on_stage(&ui_output);
        self.rehearsal.follow_transport(&self.player);

        let pointer = unmirrored_pointer(&ui_output.pointer, self.ui_state.mirror);
        let motion = camera_motion(&pointer, &self.camera);
        if motion.pans() && self.ui_state.camera_view.follows_dancer() {
            self.ui_state.camera_view = CameraView::ThreeQuarter;
        }
        let orbits = motion.orbit_yaw_rad != 0.0 || motion.orbit_pitch_rad != 0.0;
        if orbits && self.ui_state.camera_view == CameraView::Behind {
            // Turning the camera by hand ends "from behind" but keeps following the dancer.
            self.ui_state.camera_view = CameraView::FollowDancer;
        }
        apply_motion(&mut self.camera, &motion);
        if orbits || motion.pans() || motion.zoom_factor != 1.0 {
            self.tracking = false;
        }
        self.player.sample();
        self.track_dancers();
        self.carry_out_plan_commands();
        // With a plan, "follow" follows the selected performer (else the first).
        let followed = match &self.plan {
            Some(plan) => {
                let i = plan.selected.unwrap_or(0);
                plan.frame.performers.get(i).map(|p| p.ground_in_world + glam::Vec3::Y * 0.9)
            }
            None => self.player.selected_pelvis_in_world(),
        };
        if let Some(pelvis) = followed {
            match self.ui_state.camera_view {
                CameraView::FollowDancer => follow(&mut self.camera, pelvis),
                CameraView::Behind => {
                    let facing = self.player.selected_facing_in_world().unwrap_or(glam::Vec3::Z);
                    follow_from_behind(&mut self.camera, pelvis, facing, dt_secs as f32);
                }
                _ => {}
            }
        }
        self.save_settings(false);
        match &mut self.plan {
            Some(plan) => {
                use crate::stage::plan_stage::{PlanMeshes, PlanOptions, build_plan_scene};
                let full = (self.player.model(), self.gpu.mesh_id());
                let low = (&plan.low, plan.low_mesh.unwrap_or(self.gpu.mesh_id()));
                let coarse = (&plan.coarse, plan.coarse_mesh.unwrap_or(self.gpu.mesh_id()));
                let paths_and_spots = self.ui_state.camera_view == CameraView::Top;
                let paths = self.ui_state.plan.as_ref().map(|p| p.paths).unwrap_or_default();
                let options = PlanOptions { paths_and_spots, paths, selected: plan.selected };
                let view = crate::stage::plan_stage::plan_view(&self.camera, self.stage_size_px[1]);
                let t_beats = self.player.playback.t_beats();
                let meshes = PlanMeshes { full, low, coarse };
                build_plan_scene(&plan.crowd, t_beats, &view, meshes, options, &mut plan.frame, &mut self.scene);
                if paths_and_spots {
                    crate::stage::plan_stage::push_conflicts(&plan.crowd, &plan.report, &mut self.scene);
                }
                let (lighting, error) = crate::stage::plan_events::lighting_at(&plan.crowd.plan, t_beats);
                self.scene.lighting = lighting;
                if error.is_some() && error != self.plan_lights_error {
                    self.ui_state.status = error.as_ref().map(ToString::to_string);
                    self.plan_lights_error = error;
                }
            }
            None => {
                self.player.build_scene(self.gpu.mesh_id(), &mut self.scene);
                self.scene.lighting = crate::stage::Lighting::default();
            }
        }

        let pixels_per_point = full_output.pixels_per_point;
        if let Some(rect) = ui_output.stage_rect {
            let size_px = [
                (rect.width() * pixels_per_point).round().max(1.0) as u32,
                (rect.height() * pixels_per_point).round().max(1.0) as u32,
            ];
            if size_px != self.stage_size_px && self.frames == 0 {
                self.stage_size_px = size_px;
                self.reframe();
            }
            self.stage_size_px = size_px;
            self.gpu.ensure_stage_size(size_px);
        }
        let jobs = ctx.tessellate(std::mem::take(&mut full_output.shapes), pixels_per_point);
        self.frames += 1;
        let last_frame = self.options.exit_after_frames.is_some_and(|n| self.frames >= n);
        let capture = last_frame && self.options.screenshot.is_some();
        let image = self.gpu.draw(FrameInput {
            scene: &self.scene,
            camera: &self.camera,
            jobs: &jobs,
            textures_delta: &mut full_output.textures_delta,
            pixels_per_point,
            capture,
        })?;
        if capture && image.is_none() {
            // The surface skipped this frame: capture the next one.
            return Ok(end);
        }
        if let (Some(image), Some(path)) = (image, &self.options.screenshot) {
            image.save(path).map_err(|e| format!("cannot save the screenshot {}: {e}", path.display()))?;
        }
        let repaint_now =
            full_output.viewport_output.get(&egui::ViewportId::ROOT).is_some_and(|v| v.repaint_delay.is_zero());
        if repaint_now {
            self.window.request_redraw();
        }
        Ok(if last_frame { FrameEnd::Quit } else { end })
    }
}

/// The plan's timeline on the player's transport: its clock, to the end of its last transition.
fn set_plan_timeline(player: &mut Player, plan: &crate::stage::plan_stage::PlanPlayback) {
    let mut timeline = player.playback.timeline().clone();
    timeline.bpm = plan.crowd.plan.clock.tempo.bpm;
    timeline.duration_beats = plan.crowd.end_beats() + 2.0;
    player.playback.set_timeline(timeline);
}
