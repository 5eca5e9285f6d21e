//! The player's persisted settings: model, camera, mirror, stage toggles, speed, and per score
//! its music, offset, tempo and loop. One JSON file, `settings.json`, in `$LABANPLAY_CONFIG_DIR`
//! (tests), else `$XDG_CONFIG_HOME/labanplay`, else `~/.config/labanplay`. An unreadable file
//! gives the defaults and a warning (it is kept beside as `settings.json.bad`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The settings file's name.
pub const SETTINGS_FILE: &str = "settings.json";
/// Environment variable naming the settings folder (overrides the platform's config folder).
pub const CONFIG_DIR_ENV: &str = "LABANPLAY_CONFIG_DIR";
/// Format version written; newer files still load (unknown fields are ignored).
pub const SETTINGS_VERSION: u32 = 1;

/// Everything the player restores at start. Absent fields keep the player's defaults.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Format version.
    pub version: u32,
    /// Dancer model name.
    pub model: Option<String>,
    /// Camera view name (as `labanplay render --camera` takes).
    pub camera: Option<String>,
    /// Mirror view on.
    pub mirror: bool,
    /// Steps land on the toe first.
    pub toe_first: bool,
    /// Stage and sound toggles.
    pub toggles: Toggles,
    /// Playback speed factor.
    pub speed: Option<f64>,
    /// Loop the whole score.
    pub looping: Option<bool>,
    /// Staff zoom, pixels per beat.
    pub staff_px_per_beat: Option<f32>,
    /// The last score open (a path, or `demo:N`).
    pub last_score: Option<String>,
    /// Per score, keyed by [`score_key`].
    pub scores: BTreeMap<String, ScoreSettings>,
}

/// On/off switches; `None` keeps the player's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Toggles {
    /// Footprints on the floor.
    pub footprints: Option<bool>,
    /// Facing arrows.
    pub facing_arrows: Option<bool>,
    /// Pelvis trails.
    pub trails: Option<bool>,
    /// Contact shadows.
    pub shadows: Option<bool>,
    /// Metronome clicks.
    pub metronome: Option<bool>,
    /// Music playback.
    pub music: Option<bool>,
}

/// What the user set for one score (each `None` falls back to the sidecar, then the score).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScoreSettings {
    /// The music file.
    pub music: Option<PathBuf>,
    /// Seconds into the audio where beat 0 falls.
    pub offset_secs: Option<f64>,
    /// Tempo override, beats per minute.
    pub bpm: Option<f64>,
    /// Loop range `[start, end]` in beats.
    pub loop_beats: Option<[f64; 2]>,
}

/// Settings read from disk, with a warning when the file was unreadable.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The settings (defaults when unreadable).
    pub settings: Settings,
    /// What went wrong, for the status line.
    pub warning: Option<String>,
}

/// The settings file for the environment `var`: [`CONFIG_DIR_ENV`], else
/// `$XDG_CONFIG_HOME/labanplay`, else `$HOME/.config/labanplay`; `None` when none is set.
pub fn settings_path_from(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let dir = set(CONFIG_DIR_ENV)
        .or_else(|| set("XDG_CONFIG_HOME").map(|d| d.join("labanplay")))
        .or_else(|| set("HOME").map(|h| h.join(".config").join("labanplay")))?;
    Some(dir.join(SETTINGS_FILE))
}

/// [`settings_path_from`] the process environment.
pub fn default_settings_path() -> Option<PathBuf> {
    settings_path_from(|name| std::env::var_os(name))
}

/// The key of a score in [`Settings::scores`]: the absolute path of a file, `demo:NAME` for a demo.
pub fn score_key(path: Option<&Path>, demo_name: &str) -> String {
    match path {
        Some(path) => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()).to_string_lossy().into_owned(),
        None => format!("demo:{demo_name}"),
    }
}

impl Settings {
    /// Reads `path`. A missing file gives the defaults silently; an unreadable or malformed one
    /// gives the defaults and a warning, and is copied to `settings.json.bad` so the next save
    /// does not lose it unseen.
    pub fn load(path: &Path) -> Loaded {
        let text = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Loaded { settings: Settings::default(), warning: None };
            }
            Err(e) => {
                return Loaded {
                    settings: Settings::default(),
                    warning: Some(format!("cannot read the settings {}: {e}; using defaults", path.display())),
                };
            }
        };
        match serde_json::from_slice::<Settings>(&text) {
            Ok(settings) => Loaded { settings: settings.sanitized(), warning: None },
            Err(e) => {
                let backup = path.with_extension("json.bad");
                let kept = std::fs::write(&backup, &text).is_ok();
                let mut warning = format!(
                    "the settings file {}:{}:{} is unreadable ({e}); using defaults",
                    path.display(),
                    e.line(),
                    e.column()
                );
                if kept {
                    warning.push_str(&format!(" (the old file is kept as {})", backup.display()));
                }
                Loaded { settings: Settings::default(), warning: Some(warning) }
            }
        }
    }

    /// Writes to `path` (creating its folder) through a temporary file and a rename, so a crash
    /// never leaves half a file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut out = self.clone();
        out.version = SETTINGS_VERSION;
        let mut text = serde_json::to_string_pretty(&out).map_err(std::io::Error::other)?;
        text.push('\n');
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, path)
    }

    /// A copy with non-finite or absurd numbers dropped (they fall back to the defaults).
    pub fn sanitized(mut self) -> Settings {
        self.speed = self.speed.filter(|s| s.is_finite() && *s > 0.0);
        self.staff_px_per_beat = self.staff_px_per_beat.filter(|s| s.is_finite() && *s > 0.0);
        for score in self.scores.values_mut() {
            score.offset_secs = score.offset_secs.filter(|o| o.is_finite());
            score.bpm = score.bpm.filter(|b| b.is_finite() && *b > 0.0);
            score.loop_beats = score.loop_beats.filter(|[a, b]| a.is_finite() && b.is_finite());
        }
        self
    }
}
