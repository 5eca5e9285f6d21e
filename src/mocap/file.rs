//! Capture files: [`load`] reads a `.bvh` from disk with its joint-name override file
//! `NAME.map.toml` beside it (when there is one) and retargets it onto a skeleton, giving the
//! motion and the [`CaptureTimeline`] it plays on. Errors keep their file, line and column until
//! `cli` or the viewer renders them.

use super::{BvhError, CaptureMotion, MapFileError, MocapError, RetargetError, capture_motion, looks_like_bvh};
use crate::diag::Diagnostic;
use crate::pose::skeleton::Skeleton;
use std::path::{Path, PathBuf};

/// The timeline a capture plays on: 60 beats a minute (a beat is a second) in 4/4, as long as
/// the capture, so the player's transport and `render`'s frame times run in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CaptureTimeline {
    /// Beats per minute (60: a beat is a second).
    pub bpm: f64,
    /// Beats per measure.
    pub beats_per_measure: u32,
    /// Length in beats (the capture's seconds).
    pub duration_beats: f64,
    /// Frames in the capture.
    pub frames: usize,
    /// Seconds between frames.
    pub frame_secs: f64,
}

impl CaptureTimeline {
    /// The timeline of `motion`.
    pub fn of(motion: &CaptureMotion) -> CaptureTimeline {
        CaptureTimeline {
            bpm: 60.0,
            beats_per_measure: 4,
            duration_beats: motion.duration_secs(),
            frames: motion.frames.len(),
            frame_secs: motion.frame_secs,
        }
    }

    /// What the player's header says: frames, frame rate and length.
    pub fn summary(&self) -> String {
        let rate_hz = if self.frame_secs > 0.0 { 1.0 / self.frame_secs } else { 0.0 };
        format!(
            "capture · {} frames at {:.0} fps · {:.1} s",
            self.frames,
            rate_hz,
            self.duration_beats * 60.0 / self.bpm
        )
    }
}

/// A capture file read and retargeted.
#[derive(Clone, Debug)]
pub struct LoadedCapture {
    /// Where it was read.
    pub path: PathBuf,
    /// Its poses on the skeleton it was retargeted onto.
    pub motion: CaptureMotion,
    /// The timeline it plays on.
    pub timeline: CaptureTimeline,
}

/// Why a capture file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CaptureLoadError {
    /// The capture file could not be read.
    #[error("{}: error: cannot read file: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The override file beside it is not UTF-8 text.
    #[error("{}: error: the file is not UTF-8 text", path.display())]
    MapNotText {
        /// The override file.
        path: PathBuf,
    },
    /// The BVH file is malformed.
    #[error("{}:{}:{}: error: {}", path.display(), error.span.line, error.span.col, error.message)]
    Bvh {
        /// The capture file.
        path: PathBuf,
        /// Its bytes (for rendering the source line).
        bytes: Vec<u8>,
        /// Where and what.
        error: BvhError,
    },
    /// The override file is malformed.
    #[error("{}:{}:{}: error: {}", path.display(), error.span.line, error.span.col, error.message)]
    MapFile {
        /// The override file.
        path: PathBuf,
        /// Its text.
        text: String,
        /// Where and what.
        error: MapFileError,
    },
    /// The capture cannot drive the skeleton.
    #[error("{}: error: {source}", path.display())]
    Retarget {
        /// The capture file.
        path: PathBuf,
        /// Why.
        #[source]
        source: RetargetError,
    },
}

impl CaptureLoadError {
    /// The message as `file:line:col: error: …` with the source line and caret where there is one.
    pub fn render(&self) -> String {
        match self {
            CaptureLoadError::Bvh { path, bytes, error } => {
                Diagnostic::error(error.span, error.message.clone()).render(&path.display().to_string(), Some(bytes))
            }
            CaptureLoadError::MapFile { path, text, error } => Diagnostic::error(error.span, error.message.clone())
                .render(&path.display().to_string(), Some(text.as_bytes())),
            _ => self.to_string(),
        }
    }
}

/// True when `path` names a BVH capture (by its extension, or by its first word when it has
/// another one).
pub fn is_capture_file(path: &Path) -> bool {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("bvh")) {
        return true;
    }
    let mut head = [0u8; 64];
    let n = std::fs::File::open(path).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
    looks_like_bvh(head.get(..n).unwrap_or_default())
}

/// The override file beside `bvh`: `walk.bvh` → `walk.map.toml`.
pub fn map_file_beside(bvh: &Path) -> PathBuf {
    bvh.with_extension("map.toml")
}

/// Reads the capture at `path` (and its `NAME.map.toml`, when there is one), retargeted onto
/// `skeleton`.
pub fn load(path: &Path, skeleton: &Skeleton) -> Result<LoadedCapture, CaptureLoadError> {
    let bytes = std::fs::read(path).map_err(|source| CaptureLoadError::Io { path: path.to_path_buf(), source })?;
    let map_path = map_file_beside(path);
    let overrides = match std::fs::read(&map_path) {
        Ok(b) => Some(String::from_utf8(b).map_err(|_| CaptureLoadError::MapNotText { path: map_path.clone() })?),
        Err(_) => None,
    };
    match capture_motion(&bytes, overrides.as_deref(), skeleton) {
        Ok(motion) => {
            let timeline = CaptureTimeline::of(&motion);
            Ok(LoadedCapture { path: path.to_path_buf(), motion, timeline })
        }
        Err(MocapError::Bvh(error)) => Err(CaptureLoadError::Bvh { path: path.to_path_buf(), bytes, error }),
        Err(MocapError::MapFile(error)) => {
            Err(CaptureLoadError::MapFile { path: map_path, text: overrides.unwrap_or_default(), error })
        }
        Err(MocapError::Retarget(source)) => Err(CaptureLoadError::Retarget { path: path.to_path_buf(), source }),
    }
}
