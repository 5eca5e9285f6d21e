//! Motion capture: BVH files read ([`raw`] → checked [`capture`]), their joints matched to the
//! project skeleton ([`names`]) and retargeted onto it ([`retarget`](mod@retarget)) as poses over
//! time. Bytes and text in, poses out; [`load`] ([`file`](mod@file)) is the one place that reads a
//! capture file.
//!
//! Frames are interpolated (the pelvis linearly, rotations by slerp) so any time can be sampled.
//! Not done: finger joints (the hands follow the wrist), non-root translation channels (bones keep
//! the project's lengths), per-bone twist from a second reference axis (the shortest-arc alignment
//! can leave a little twist on bones bent at rest), foot-contact clean-up (the capture's own
//! sliding stays), and several performers in one file.

pub mod capture;
pub mod file;
pub mod names;
pub mod raw;
pub mod retarget;

pub use capture::{Capture, read_capture};
pub use file::{CaptureLoadError, CaptureTimeline, LoadedCapture, is_capture_file, load, map_file_beside};
pub use names::{JointMap, MapFileError, apply_overrides, auto_map};
pub use raw::{BvhError, parse_bvh};
pub use retarget::{CaptureMotion, RetargetError, RetargetReport, retarget};

use crate::pose::skeleton::Skeleton;

/// Why a capture could not be turned into motion.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MocapError {
    /// The BVH file is malformed.
    #[error("{0}")]
    Bvh(#[from] BvhError),
    /// The joint-name override file is malformed.
    #[error("{0}")]
    MapFile(#[from] MapFileError),
    /// The capture cannot drive the skeleton.
    #[error("{0}")]
    Retarget(#[from] RetargetError),
}

/// Reads a BVH file, maps its joints (the automatic table, then `overrides`, the text of a
/// `NAME.map.toml`, when given) and retargets it onto `skeleton`.
pub fn capture_motion(bvh: &[u8], overrides: Option<&str>, skeleton: &Skeleton) -> Result<CaptureMotion, MocapError> {
    let capture = read_capture(bvh)?;
    let mut map = auto_map(&capture);
    if let Some(text) = overrides {
        apply_overrides(&capture, &mut map, text)?;
    }
    Ok(retarget(&capture, &map, skeleton)?)
}

/// True when `bytes` look like a BVH file (its first word is `HIERARCHY`).
pub fn looks_like_bvh(bytes: &[u8]) -> bool {
    let start = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let trimmed = start.iter().position(|b| !b.is_ascii_whitespace()).map_or(&start[..0], |i| &start[i..]);
    trimmed.len() >= 9 && trimmed[..9].eq_ignore_ascii_case(b"HIERARCHY")
}
