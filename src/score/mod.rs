//! The channelled composite score, built from any reader's [`Document`].
//!
//! Symbols are timed per measure, sorted into one channel per body part and column for each staff
//! (dancer), modifiers attached by proximity, and gaps in the supports classified as jumps.
//!
//! Per staff: the starting position (everything below the first double bar), then channels for
//! support L/R, leg gesture L/R, body, arm L/R, head and the columns claimed by body-part
//! pre-signs, plus front and path channels. Each entry has its start and duration in beats and
//! seconds, measure and beat, direction and level (or turn sense and amount, hold, facing) and its
//! modifiers (pins inside turn signs, bent/stretched/relaxed, hooks, pins beside steps).
//!
//! Tempo comes from text on the page (`q=60`, `96 bpm`) when there is any, else 120 bpm, which
//! `inspect` reports as a default; the meter comes from text (`3/4`) or is inferred from the bar
//! spacing. Time is 24 page units a beat, calibrated per measure from the bar lines (`timeline`);
//! columns are fractions of the staff's half width (`staves`). On the way, `geometry` sets
//! implausible symbols aside, `claims` gives body-part pre-signs their symbols, `bows` makes
//! contacts, `outside` places symbols beyond the body columns, `repeats` plays repeated sections
//! twice and `gaps` finds the flights; `bounds` cuts a score longer than four hours.

pub mod bounds;
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
        let mut score = match doc.format {
            Format::Json => keyframes::compose_keyframes(doc),
            Format::Lbn | Format::Lw => {
                let opts = compose::PageOptions::for_format(doc.format);
                let mut score = compose::compose_page(doc, opts);
                // Repeat marks play their sections again (the entries keep their source lines).
                let mut warnings = Vec::new();
                let found = repeats::find_repeats(doc, &score, &mut warnings);
                repeats::expand(&mut score, &found);
                score.warnings.extend(warnings);
                gaps::find_flights(&mut score, opts.gap_tolerance_beats);
                score
            }
        };
        bounds::cap_duration(&mut score, doc);
        score
    }
}
