//! LabanWriter 4 `.lw` reader. (Being written; see `read`.)

use super::document::{Document, Format};
use crate::diag::Diagnostics;

/// Reads a LabanWriter 4 file.
pub fn read(_bytes: &[u8]) -> Result<Document, Diagnostics> {
    Ok(Document::new(Format::Lw))
}
