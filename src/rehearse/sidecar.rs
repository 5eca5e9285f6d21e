//! The music sidecar: a small JSON file beside a score naming its music track, the offset and
//! optionally a tempo. For `dance.lbn` (or `dance.lw`, `dance.json`) it is `dance.music.json`:
//!
//! ```json
//! { "music": "dance.ogg", "offset_secs": 1.25, "bpm": 96 }
//! ```
//!
//! `music` is relative to the sidecar's folder (or absolute); `offset_secs` (default 0) is where
//! beat 0 of the score falls in the audio; `bpm` (default: the score's tempo) overrides the tempo.
//!
//! Unknown keys are errors at their line and column. The player's "Save beside the score" writes
//! the file; a score's settings in the player win over its sidecar.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The sidecar's extension after the score's stem.
pub const SIDECAR_SUFFIX: &str = ".music.json";

/// A sidecar as written in the file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sidecar {
    /// The music file, relative to the sidecar's folder or absolute.
    pub music: Option<PathBuf>,
    /// Seconds into the audio where beat 0 falls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_secs: Option<f64>,
    /// Tempo override, beats per minute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bpm: Option<f64>,
}

/// A sidecar that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SidecarError {
    /// The file exists but cannot be read.
    #[error("{path}: cannot read the music sidecar: {source}")]
    Io {
        /// The sidecar.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not the expected JSON.
    #[error(
        "{path}:{line}:{col}: error: {message} (expected {{\"music\": \"FILE\", \"offset_secs\": SECONDS, \"bpm\": BPM}})"
    )]
    Syntax {
        /// The sidecar.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What serde said.
        message: String,
    },
    /// A value out of range.
    #[error("{path}: error: {message}")]
    Value {
        /// The sidecar.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// The sidecar path of `score_path`: the score's stem plus [`SIDECAR_SUFFIX`], in its folder.
pub fn sidecar_path(score_path: &Path) -> PathBuf {
    let stem = score_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    score_path.with_file_name(format!("{stem}{SIDECAR_SUFFIX}"))
}

impl Sidecar {
    /// Parses sidecar text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Sidecar, SidecarError> {
        let shown = path.display().to_string();
        let sidecar: Sidecar = serde_json::from_str(text).map_err(|e| SidecarError::Syntax {
            path: shown.clone(),
            line: e.line(),
            col: e.column(),
            message: e.to_string().split(" at line ").next().unwrap_or_default().to_owned(),
        })?;
        if let Some(offset) = sidecar.offset_secs
            && !offset.is_finite()
        {
            return Err(SidecarError::Value { path: shown, message: format!("offset_secs {offset} is not a number") });
        }
        if let Some(bpm) = sidecar.bpm
            && !(bpm.is_finite() && bpm > 0.0 && bpm <= 1000.0)
        {
            return Err(SidecarError::Value { path: shown, message: format!("bpm {bpm} must be between 0 and 1000") });
        }
        Ok(sidecar)
    }

    /// The sidecar beside `score_path`: `Ok(None)` when there is none.
    pub fn load_beside(score_path: &Path) -> Result<Option<(PathBuf, Sidecar)>, SidecarError> {
        let path = sidecar_path(score_path);
        match std::fs::read_to_string(&path) {
            Ok(text) => Sidecar::parse(&text, &path).map(|s| Some((path, s))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(SidecarError::Io { path: path.display().to_string(), source }),
        }
    }

    /// The music path resolved against the sidecar at `sidecar_path`.
    pub fn music_path(&self, sidecar_path: &Path) -> Option<PathBuf> {
        let music = self.music.as_ref()?;
        Some(if music.is_absolute() {
            music.clone()
        } else {
            sidecar_path.parent().unwrap_or(Path::new("")).join(music)
        })
    }

    /// The JSON text written for this sidecar (pretty, one key a line).
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Writes a sidecar for `score_path` naming `music` (made relative to the score's folder
    /// when it is inside it). Returns where it went.
    pub fn write_beside(
        score_path: &Path,
        music: &Path,
        offset_secs: f64,
        bpm: Option<f64>,
    ) -> Result<PathBuf, SidecarError> {
        let path = sidecar_path(score_path);
        let folder = std::path::absolute(path.parent().unwrap_or(Path::new("."))).unwrap_or_default();
        let music_abs = std::path::absolute(music).unwrap_or_else(|_| music.to_path_buf());
        let relative = music_abs.strip_prefix(&folder).map(Path::to_path_buf).unwrap_or(music_abs);
        let sidecar =
            Sidecar { music: Some(relative), offset_secs: Some(round_ms(offset_secs)), bpm: bpm.map(round_ms) };
        std::fs::write(&path, sidecar.to_text())
            .map_err(|source| SidecarError::Io { path: path.display().to_string(), source })?;
        Ok(path)
    }
}

/// `x` rounded to 1/1000 (the sidecar is read by people).
fn round_ms(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A score's music setup after combining what the user set with the sidecar.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResolvedMusic {
    /// The music file, when there is one.
    pub music: Option<PathBuf>,
    /// Seconds into the audio where beat 0 falls.
    pub offset_secs: f64,
    /// Tempo override, bpm (`None`: the score's tempo).
    pub bpm: Option<f64>,
}

/// Field by field: the user's value (`user_*`, e.g. from the settings or the command line),
/// else the sidecar's, else no music, offset 0 and the score's tempo. A user music path that is
/// empty means "no music" even when the sidecar names one.
pub fn resolve_music(
    user_music: Option<&Path>,
    user_offset_secs: Option<f64>,
    user_bpm: Option<f64>,
    sidecar: Option<(&Path, &Sidecar)>,
) -> ResolvedMusic {
    let sidecar_music = sidecar.and_then(|(path, s)| s.music_path(path));
    let music = match user_music {
        Some(path) if path.as_os_str().is_empty() => None,
        Some(path) => Some(path.to_path_buf()),
        None => sidecar_music,
    };
    let offset_secs =
        user_offset_secs.or_else(|| sidecar.and_then(|(_, s)| s.offset_secs)).filter(|o| o.is_finite()).unwrap_or(0.0);
    let bpm = user_bpm.or_else(|| sidecar.and_then(|(_, s)| s.bpm)).filter(|b| b.is_finite() && *b > 0.0);
    ResolvedMusic { music, offset_secs, bpm }
}
