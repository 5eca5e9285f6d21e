//! `labanplay inspect FILE [--json]`: the composite score as a table or as JSON.

use crate::score::table::{render_json, render_table};
use std::path::Path;

/// The text `inspect` prints, or the rendered read errors.
pub fn inspect(path: &Path, json: bool) -> Result<String, String> {
    let loaded = crate::read::load(path).map_err(|e| e.render())?;
    let score = crate::score::Score::from_document(&loaded.document);
    Ok(if json { render_json(&score) } else { render_table(&score) })
}
