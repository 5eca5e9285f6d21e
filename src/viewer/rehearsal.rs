//! The player's rehearsal state: the score's music track on the device, the clock that makes
//! the picture follow it, the taps, and the settings file (restored at start, written back when
//! something changes). The window ([`crate::viewer::app`]) owns one and calls it each frame.

use crate::rehearse::clock::MusicSync;
use crate::rehearse::loop_range::LoopRange;
use crate::rehearse::settings::{ScoreSettings, Settings, score_key};
use crate::rehearse::sidecar::{Sidecar, resolve_music, sidecar_path};
use crate::rehearse::sync::Alignment;
use crate::rehearse::tap::{TapRecorder, fit_taps};
use crate::stage::playback::Advanced;
use crate::stage::player::{Player, ScoreSource};
use crate::viewer::metronome::beat_schedule;
use crate::viewer::music::{MusicPlayer, probe_track};
use crate::viewer::ui::UiState;
use std::path::{Path, PathBuf};

/// Settings are written at most this often while something changes, seconds.
const SAVE_INTERVAL_SECS: f64 = 0.5;
/// How long the beat light stays lit, seconds.
const FLASH_SECS: f64 = 0.12;

/// See the module docs.
#[derive(Debug)]
pub struct Rehearsal {
    /// The music on the device.
    pub music: MusicPlayer,
    /// The clock.
    pub sync: MusicSync,
    /// The taps of "tap the beats".
    pub taps: TapRecorder,
    settings: Settings,
    settings_path: Option<PathBuf>,
    saved: Option<Settings>,
    last_save_secs: f64,
    score_key: String,
    score_path: Option<PathBuf>,
    user: ScoreSettings,
    source_note: Option<String>,
    flash: Option<(f64, bool)>,
}

impl Rehearsal {
    /// Starts with `settings` (read from `settings_path`, which later saves go to).
    pub fn new(music: MusicPlayer, settings: Settings, settings_path: Option<PathBuf>) -> Rehearsal {
        let saved = Some(settings.clone());
        Rehearsal {
            music,
            sync: MusicSync::new(Alignment::default(), 0.0),
            taps: TapRecorder::default(),
            settings,
            settings_path,
            saved,
            last_save_secs: f64::NEG_INFINITY,
            score_key: String::new(),
            score_path: None,
            user: ScoreSettings::default(),
            source_note: None,
            flash: None,
        }
    }

    /// The settings as last loaded or stored.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets up the music, tempo, offset and loop of the score now open in `player`: what the
    /// user set for it before (settings), else its sidecar. Problems go to the status line. Call
    /// [`Self::store_score`] before replacing the previous score.
    pub fn open_score(&mut self, player: &mut Player, ui: &mut UiState) {
        let (path, demo_name) = match player.source() {
            ScoreSource::File(path) => (Some(path.clone()), ""),
            ScoreSource::Demo(name) => (None, *name),
        };
        self.score_key = score_key(path.as_deref(), demo_name);
        self.score_path = path.clone();
        self.user = self.settings.scores.get(&self.score_key).cloned().unwrap_or_default();
        let sidecar = match &path {
            Some(path) => match Sidecar::load_beside(path) {
                Ok(found) => found,
                Err(error) => {
                    ui.status = Some(error.to_string());
                    None
                }
            },
            None => None,
        };
        let resolved = resolve_music(
            self.user.music.as_deref(),
            self.user.offset_secs,
            self.user.bpm,
            sidecar.as_ref().map(|(p, s)| (p.as_path(), s)),
        );
        self.source_note = sidecar.as_ref().map(|(p, _)| {
            format!("sidecar: {}", p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
        });
        self.music.set_track(None);
        if let Some(music) = &resolved.music {
            match probe_track(music) {
                Ok(track) => self.music.set_track(Some(track)),
                Err(error) => ui.status = Some(error),
            }
        }
        player.set_tempo_override(resolved.bpm);
        let loop_range = self.user.loop_beats.and_then(|[a, b]| LoopRange::new(a, b));
        player.playback.set_loop_range(loop_range);
        let bpm = player.playback.timeline().bpm;
        self.sync = MusicSync::new(Alignment::new(resolved.offset_secs, bpm), player.playback.t_beats());
        self.taps.clear();
    }

    /// Loads `path` as the score's music (its start stays where the offset says).
    pub fn open_music(&mut self, path: &Path, player: &Player, ui: &mut UiState) {
        match probe_track(path) {
            Ok(track) => {
                ui.status = Some(format!("music: {}", track.path.display()));
                self.user.music = Some(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
                self.music.set_track(Some(track));
                self.sync.seek(player.playback.t_beats(), &mut self.music);
            }
            Err(error) => ui.status = Some(error),
        }
    }

    /// Drops the music (also over a sidecar's: stored as an empty path).
    pub fn clear_music(&mut self) {
        self.music.set_track(None);
        self.user.music = Some(PathBuf::new());
        self.sync.seek(self.sync.t_beats(), &mut self.music);
    }

    /// Sets the offset and tempo override, keeping the picture where it is.
    pub fn align(&mut self, offset_secs: f64, bpm: Option<f64>, player: &mut Player) {
        let t_beats = player.playback.t_beats();
        player.set_tempo_override(bpm);
        self.user.offset_secs = Some(offset_secs);
        self.user.bpm = player.tempo_override();
        let alignment = Alignment::new(offset_secs, player.playback.timeline().bpm);
        self.sync.set_alignment(alignment, t_beats, &mut self.music);
    }

    /// Records a tap made `secs_before_frame` of wall time before the frame the clock last
    /// advanced to, at its place in the music.
    pub fn tap(&mut self, secs_before_frame: f64, player: &Player) {
        let rate = if player.playback.is_playing() { player.playback.speed() } else { 0.0 };
        self.taps.tap(self.sync.audio_secs_before_frame(secs_before_frame, rate));
    }

    /// Beat of the first tap: the start of measure `measure` (beat 0 when it does not exist).
    fn first_tap_beats(player: &Player, measure: u32) -> f64 {
        let starts = &player.playback.timeline().measure_starts;
        starts.iter().find(|(n, _)| *n == measure).map(|(_, s)| *s).unwrap_or(0.0)
    }

    /// Uses the taps' tempo and offset; returns the status text.
    pub fn apply_taps(&mut self, player: &mut Player, first_tap_measure: u32) -> String {
        match fit_taps(self.taps.taps(), Self::first_tap_beats(player, first_tap_measure)) {
            Ok(fit) => {
                self.align(fit.alignment.offset_secs, Some(fit.alignment.bpm), player);
                self.taps.clear();
                format!(
                    "aligned from {} taps: {:.1} bpm, beat 0 at {:.3} s; the metronome now clicks with the music",
                    fit.taps, fit.alignment.bpm, fit.alignment.offset_secs
                )
            }
            Err(error) => error.to_string(),
        }
    }

    /// Writes the sidecar beside the score file; returns the status text.
    pub fn save_sidecar(&self) -> String {
        let (Some(score), Some(track)) = (&self.score_path, self.music.track()) else {
            return "a sidecar needs a score file and a music track".to_owned();
        };
        let alignment = self.sync.alignment();
        let bpm = self.user.bpm;
        match Sidecar::write_beside(score, &track.path, alignment.offset_secs, bpm) {
            Ok(path) => format!("wrote {} (labanplay render uses it)", path.display()),
            Err(error) => error.to_string(),
        }
    }

    /// One frame of playback on the music clock: the output follows the transport, the picture
    /// follows the output; a loop wrap moves the music too. Returns what was played.
    pub fn advance(&mut self, dt_secs: f64, clock_secs: f64, player: &mut Player, ui: &UiState) -> Advanced {
        let transport = crate::rehearse::clock::TransportState {
            playing: player.playback.is_playing(),
            speed: player.playback.speed(),
            music_on: ui.music_on,
        };
        let target = self.sync.frame(dt_secs, transport, &mut self.music);
        if !transport.playing {
            return Advanced::default();
        }
        let advanced = player.playback.advance_beats(target - player.playback.t_beats());
        if advanced.wrapped() || !player.playback.is_playing() {
            self.sync.seek(player.playback.t_beats(), &mut self.music);
        }
        for (from, to) in advanced.spans() {
            if let Some(click) = beat_schedule(player.measure_grid(), *from, *to).last() {
                self.flash = Some((clock_secs + FLASH_SECS, click.accent));
            }
        }
        advanced
    }

    /// After the UI ran: a seek, step or click on the staff moved the transport, so the clock
    /// and the music jump there too.
    pub fn follow_transport(&mut self, player: &Player) {
        if (player.playback.t_beats() - self.sync.t_beats()).abs() > 1e-6 {
            self.sync.seek(player.playback.t_beats(), &mut self.music);
        }
    }

    /// Fills the music panel of `ui` for this frame.
    pub fn fill_panel(&self, player: &Player, ui: &mut UiState, clock_secs: f64) {
        let panel = &mut ui.music;
        panel.file_label = self
            .music
            .track()
            .map(|t| t.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        panel.duration_secs = self.music.track().and_then(|t| t.duration_secs);
        panel.offset_secs = self.sync.alignment().offset_secs;
        panel.bpm_override = player.tempo_override();
        panel.score_bpm = player.bpm();
        panel.sounding = self.sync.is_sounding();
        panel.taps = self.taps.taps().len();
        panel.tap_fit = (self.taps.taps().len() >= crate::rehearse::tap::MIN_TAPS)
            .then(|| fit_taps(self.taps.taps(), Self::first_tap_beats(player, panel.first_tap_measure)));
        panel.can_save_sidecar = self.score_path.is_some();
        panel.source_note = self.source_note.clone();
        ui.music_unavailable = self.music.unavailable_reason().map(str::to_owned);
        ui.beat_flash = self.flash.filter(|(until, _)| clock_secs < *until).map(|(_, accent)| accent);
        if let Some(error) = self.music.error()
            && ui.status.is_none()
        {
            ui.status = Some(error.to_owned());
        }
    }

    /// Puts the open score's music, offset, tempo and loop into the settings (before another
    /// score replaces it, and when saving).
    pub fn store_score(&mut self, player: &Player) {
        if self.score_key.is_empty() {
            return;
        }
        let mut user = self.user.clone();
        user.loop_beats = player.playback.loop_range().map(|r| [r.start_beats(), r.end_beats()]);
        if user == ScoreSettings::default() {
            self.settings.scores.remove(&self.score_key);
        } else {
            self.settings.scores.insert(self.score_key.clone(), user);
        }
        self.settings.last_score = Some(self.score_key.clone());
    }

    /// Updates the settings from the player (`global` fills in the window's part) and writes
    /// them when they changed, at most every half second unless `force`.
    pub fn save_settings(&mut self, player: &Player, global: impl FnOnce(&mut Settings), clock_secs: f64, force: bool) {
        self.store_score(player);
        global(&mut self.settings);
        if self.saved.as_ref() == Some(&self.settings)
            || (!force && clock_secs - self.last_save_secs < SAVE_INTERVAL_SECS)
        {
            return;
        }
        self.last_save_secs = clock_secs;
        let Some(path) = &self.settings_path else { return };
        match self.settings.save(path) {
            Ok(()) => self.saved = Some(self.settings.clone()),
            Err(error) => {
                eprintln!("labanplay: cannot save the settings {}: {error}", path.display());
                // Do not retry every frame.
                self.saved = Some(self.settings.clone());
            }
        }
    }

    /// The sidecar path of the open score file, if it is a file.
    pub fn sidecar_path(&self) -> Option<PathBuf> {
        self.score_path.as_deref().map(sidecar_path)
    }
}
