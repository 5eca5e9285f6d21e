//! Score writers: a raw [`Document`](crate::read::Document) in, the text of a score file out.
//! A keyframe document has no page: [`lay_out_keyframes`] lays one out, and
//! [`changed_keyframes`] lists what the written page composes differently from the keyframes.
//!
//! [`write_lbn`] writes LED's `.lbn` format as [`crate::read::lbn`] reads it: reading the text
//! back gives the same symbols, so the same composite score and motion. Lines the reader kept as
//! written (comments, items of unknown meaning) are written back untouched at their places.
//! Whatever a document holds that `.lbn` cannot say is a warning at its place in the source
//! file, never dropped silently; [`changed_meanings`] lists what a written score means
//! differently from its source (another format's columns and grid are not LED's). Nothing here
//! reads or writes files: `cli` does.

pub mod changed;
pub mod keyframes;
pub mod keyframes_changed;
pub mod lbn;

pub use changed::changed_meanings;
pub use keyframes::{LaidOut, lay_out_keyframes};
pub use keyframes_changed::changed_keyframes;
pub use lbn::{Written, lbn_code, write_lbn};
