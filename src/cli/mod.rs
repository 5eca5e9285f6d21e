//! Command-line commands that need no GPU: `check` (scores and ensemble plans) and `inspect` (the `viewer` feature adds
//! `play` and `render` in the binary). Each returns text and an exit status; `main` prints.

pub mod capture;
pub mod check;
pub mod ensemble;
pub mod export;
pub mod inspect;
pub mod motion_check;
pub mod plan_export;
pub mod rig;
pub mod survey;

/// Reads and composes `path`, or the rendered diagnostics (the player's score loader).
pub fn load_score(path: &std::path::Path) -> Result<(crate::score::Score, Vec<u8>), String> {
    let loaded = crate::read::load(path).map_err(|e| e.render())?;
    Ok((crate::score::Score::from_document(&loaded.document), loaded.bytes))
}
