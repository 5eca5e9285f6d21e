//! LED / LINTEL `.lbn` reader (nom). (Being written.)

use super::document::{Document, Format};
use crate::diag::Diagnostics;

/// The twelve symbol groups of the format.
pub const GROUPS: [&str; 12] =
    ["Bars", "Stav", "Dirn", "Limb", "Area", "Volm", "Ways", "Face", "Misc", "Pins", "Rotn", "Keys"];

/// Reads an `.lbn` file.
pub fn read(_bytes: &[u8]) -> Result<Document, Diagnostics> {
    Ok(Document::new(Format::Lbn))
}
