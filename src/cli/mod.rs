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

use crate::diag::Diagnostics;
use crate::read::Document;
use crate::score::Score;
use std::path::Path;

/// A score file loaded from disk.
pub struct Loaded {
    /// The raw bytes (kept for rendering diagnostics).
    pub bytes: Vec<u8>,
    /// The document, or why it could not be read.
    pub document: Result<Document, Diagnostics>,
}

/// The score extension of `path`, lower-case. Unlike [`Path::extension`] this also sees the
/// extension of a file whose stem is empty (`.lbn`), which Rust treats as a hidden file name.
pub fn score_extension(path: &Path) -> Option<String> {
    if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
        return Some(ext.to_ascii_lowercase());
    }
    let name = path.file_name()?.to_str()?;
    let rest = name.strip_prefix('.')?;
    (!rest.is_empty() && !rest.contains('.')).then(|| rest.to_ascii_lowercase())
}

/// True when the file name is only an extension (`.lbn`).
pub fn has_empty_stem(path: &Path) -> bool {
    path.extension().is_none() && score_extension(path).is_some()
}

/// Reads `path` and runs the right reader on it. A file whose name has an empty stem gets a
/// warning at line 1 (it is easily lost: most tools hide it).
pub fn load(path: &Path) -> std::io::Result<Loaded> {
    let bytes = std::fs::read(path)?;
    let ext = score_extension(path);
    let mut document = crate::read::read(&bytes, ext.as_deref());
    if has_empty_stem(path) {
        let warning = crate::diag::Diagnostic::warning(
            crate::diag::Span::at(1, 1),
            "the file name has an empty stem (only an extension); it is read, but most tools hide such files",
        )
        .with_help("rename it, e.g. to `untitled.lbn`");
        match &mut document {
            Ok(doc) => doc.warnings.insert(0, warning),
            Err(diags) => diags.0.insert(0, warning),
        }
    }
    Ok(Loaded { bytes, document })
}

/// Reads and composes `path`, with its diagnostics rendered, or an error text.
pub fn load_score(path: &Path) -> Result<(Score, Vec<u8>), String> {
    let loaded = load(path).map_err(|e| format!("{}: error: cannot read file: {e}", path.display()))?;
    match loaded.document {
        Ok(doc) => Ok((Score::from_document(&doc), loaded.bytes)),
        Err(diags) => Err(diags.render(&path.display().to_string(), Some(&loaded.bytes))),
    }
}
