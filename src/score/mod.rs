//! The channelled composite score, built from any reader's [`Document`](crate::read::Document).
//!
//! Symbols are timed per measure, sorted into one channel per body part and column for each
//! staff (dancer), modifiers attached by proximity, and gaps in the supports classified as jumps.

mod bows;
mod claims;
pub mod compose;
pub mod gaps;
pub mod geometry;
pub mod keyframes;
mod outside;
pub mod repeats;
pub mod staves;
pub mod table;
pub mod timeline;
pub mod types;

pub use types::*;

use crate::read::{Document, Format};

impl Score {
    /// Builds the composite score from a document of any format. Never fails: everything that
    /// could not be placed or interpreted is listed in [`Score::warnings`].
    pub fn from_document(doc: &Document) -> Score {
        match doc.format {
            Format::Json => keyframes::compose_keyframes(doc),
            Format::Lbn | Format::Lw => {
                let opts = compose::PageOptions::for_format(doc.format);
                let mut score = compose::compose_page(doc, opts);
                // Repeat marks play their sections again (the entries keep their source lines).
                let mut warnings = Vec::new();
                let found = repeats::find_repeats(doc, &score, &mut warnings);
                repeats::expand(&mut score, &found, opts.gap_tolerance_beats);
                score.warnings.extend(warnings);
                score
            }
        }
    }
}
