//! Microsoft LabanotationSuite / gestureBotDesignKit `.json` keyframe reader (nom).
//! (Being written; see `read`.)

use super::document::{Document, Format};
use crate::diag::Diagnostics;

/// Reads a JSON keyframe score.
pub fn read(_bytes: &[u8]) -> Result<Document, Diagnostics> {
    Ok(Document::new(Format::Json))
}
