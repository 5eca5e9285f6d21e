//! The player's capture loader: [`crate::mocap::load`] with its errors rendered.

use crate::animation::Animation;
use crate::pose::skeleton::{Proportions, Skeleton};
use std::path::Path;

pub use crate::mocap::is_capture_file;

/// Reads the capture at `path`, retargeted onto a skeleton of `proportions`; errors rendered.
pub fn load_capture(path: &Path, proportions: &Proportions) -> Result<Animation, String> {
    let capture = crate::mocap::load(path, &Skeleton::new(proportions)).map_err(|e| e.render())?;
    Ok(Animation::from_capture(capture.motion))
}

/// A score with no staves on the capture's timeline (60 bpm, a beat a second).
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
