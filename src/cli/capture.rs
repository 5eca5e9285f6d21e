//! Motion-capture files for the commands: a `.bvh` read from disk with its joint-name override
//! file `NAME.map.toml` beside it (when there is one), retargeted onto a body's proportions.

use std::path::{Path, PathBuf};

use crate::animation::Animation;
use crate::diag::Diagnostic;
use crate::mocap::{MocapError, capture_motion, looks_like_bvh};
use crate::pose::skeleton::{Proportions, Skeleton};

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

/// Reads the capture at `path` (and its `NAME.map.toml`), retargeted onto a skeleton of
/// `proportions`; errors are rendered `file:line:col: error: …` with the source line.
pub fn load_capture(path: &Path, proportions: &Proportions) -> Result<Animation, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: error: cannot read file: {e}"))?;
    let map_path = map_file_beside(path);
    let overrides = match std::fs::read(&map_path) {
        Ok(b) => Some(
            String::from_utf8(b).map_err(|_| format!("{}: error: the file is not UTF-8 text", map_path.display()))?,
        ),
        Err(_) => None,
    };
    let skeleton = Skeleton::new(proportions);
    match capture_motion(&bytes, overrides.as_deref(), &skeleton) {
        Ok(motion) => Ok(Animation::from_capture(motion)),
        Err(MocapError::Bvh(e)) => Err(Diagnostic::error(e.span, e.message).render(&name, Some(&bytes))),
        Err(MocapError::MapFile(e)) => {
            let text = overrides.unwrap_or_default();
            Err(Diagnostic::error(e.span, e.message).render(&map_path.display().to_string(), Some(text.as_bytes())))
        }
        Err(MocapError::Retarget(e)) => Err(format!("{name}: error: {e}")),
    }
}

/// A score with no staves whose timeline is the capture's: 60 bpm (a beat is a second), as long
/// as the capture, so the player's transport and `render`'s frame times run in seconds.
pub fn capture_timeline(anim: &Animation, title: &str) -> crate::score::Score {
    crate::score::Score {
        title: Some(title.to_owned()),
        format: crate::read::document::Format::Lbn,
        tempo: crate::score::TempoMap { bpm: 60.0, is_default: false },
        meter: crate::score::Meter { beats_per_measure: 4, inferred: true },
        measures: Vec::new(),
        staves: Vec::new(),
        duration_beats: anim.duration_secs,
        contacts: Vec::new(),
        warnings: Vec::new(),
    }
}
