//! The edge that reads files. [`load`] takes a score file's path and gives its bytes and
//! [`Document`], or a [`LoadError`] whose diagnostics stay structured until `cli` or the viewer
//! renders them. [`Sources`] is how the modules above (an ensemble plan's scores, pictures and
//! music) read the files they are given by name without opening them: [`Files`] reads the disk,
//! a test may hand in its own.

use super::Document;
use crate::diag::{Diagnostic, Diagnostics, Span};
use std::path::{Path, PathBuf};

/// A score file read from disk.
#[derive(Clone, Debug)]
pub struct LoadedScore {
    /// Where it was read.
    pub path: PathBuf,
    /// The raw bytes (kept for rendering diagnostics).
    pub bytes: Vec<u8>,
    /// The document, its warnings included.
    pub document: Document,
}

/// Why a score file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{}: error: cannot read file: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The reader found errors (warnings found with them are kept too).
    #[error("{}", first_line(path, diagnostics))]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Its bytes (for rendering the diagnostics with their source lines).
        bytes: Vec<u8>,
        /// Errors and warnings at their lines and columns.
        diagnostics: Diagnostics,
    },
}

/// `file:line:col: error: message` of the first diagnostic in file order.
fn first_line(path: &Path, diagnostics: &Diagnostics) -> String {
    let first = diagnostics.0.iter().min_by_key(|d| (d.span.line, d.span.col));
    first.map(|d| d.render(&path.display().to_string(), None)).unwrap_or_else(|| path.display().to_string())
}

impl LoadError {
    /// The file that could not be loaded.
    pub fn path(&self) -> &Path {
        match self {
            LoadError::Io { path, .. } | LoadError::Unreadable { path, .. } => path,
        }
    }

    /// Every diagnostic as `file:line:col: error: message` with its source line and caret.
    pub fn render(&self) -> String {
        match self {
            LoadError::Io { .. } => self.to_string(),
            LoadError::Unreadable { path, bytes, diagnostics } => {
                diagnostics.render(&path.display().to_string(), Some(bytes))
            }
        }
    }
}

/// Reads files by name for a reader that is given them (an ensemble plan's scores, pictures
/// and music cues).
pub trait Sources {
    /// The bytes of the file at `path`.
    fn bytes(&mut self, path: &Path) -> std::io::Result<Vec<u8>>;
    /// True when `path` names a file that can be read.
    fn is_file(&self, path: &Path) -> bool;
}

/// [`Sources`] on the file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Files;

impl Sources for Files {
    fn bytes(&mut self, path: &Path) -> std::io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }
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

/// The largest score file read: far above any real score, low enough that reading one stays
/// well under a second and a few hundred MB.
pub const MAX_SCORE_BYTES: usize = 32_000_000;

/// Reads the score file at `path` from disk (see [`load_from`]); a file over
/// [`MAX_SCORE_BYTES`] is refused by its size before any of it is read.
pub fn load(path: &Path) -> Result<LoadedScore, LoadError> {
    if let Ok(metadata) = std::fs::metadata(path)
        && metadata.len() > MAX_SCORE_BYTES as u64
    {
        return Err(too_large(path, metadata.len()));
    }
    load_from(&mut Files, path)
}

/// The error for a file of `len_bytes`, over [`MAX_SCORE_BYTES`].
fn too_large(path: &Path, len_bytes: u64) -> LoadError {
    let error = Diagnostic::error(
        Span::at(1, 1),
        format!(
            "the file is {:.1} MB; scores are read up to {} MB (the largest real scores are a few hundred KB)",
            len_bytes as f64 / 1e6,
            MAX_SCORE_BYTES / 1_000_000
        ),
    )
    .with_help("is this the score itself? a video, an archive or a data dump cannot be read as one");
    LoadError::Unreadable { path: path.to_path_buf(), bytes: Vec::new(), diagnostics: error.into() }
}

/// Reads the score file at `path` through `sources` and runs the right reader on it (chosen by
/// content, the extension breaking ties). A file whose name has an empty stem gets a warning at
/// line 1 (it is easily lost: most tools hide it).
pub fn load_from(sources: &mut dyn Sources, path: &Path) -> Result<LoadedScore, LoadError> {
    let bytes = sources.bytes(path).map_err(|source| LoadError::Io { path: path.to_path_buf(), source })?;
    if bytes.len() > MAX_SCORE_BYTES {
        return Err(too_large(path, bytes.len() as u64));
    }
    let ext = score_extension(path);
    let mut document = super::read(&bytes, ext.as_deref());
    if has_empty_stem(path) {
        let warning = Diagnostic::warning(
            Span::at(1, 1),
            "the file name has an empty stem (only an extension); it is read, but most tools hide such files",
        )
        .with_help("rename it, e.g. to `untitled.lbn`");
        match &mut document {
            Ok(doc) => doc.warnings.insert(0, warning),
            Err(diags) => diags.0.insert(0, warning),
        }
    }
    match document {
        Ok(document) => Ok(LoadedScore { path: path.to_path_buf(), bytes, document }),
        Err(diagnostics) => Err(LoadError::Unreadable { path: path.to_path_buf(), bytes, diagnostics }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One file of `len` bytes of `.lbn`-looking text.
    struct Huge(usize);

    impl Sources for Huge {
        fn bytes(&mut self, _path: &Path) -> std::io::Result<Vec<u8>> {
            Ok(b"Dirn 11 134 70 4 10 23 M\n".iter().copied().cycle().take(self.0).collect())
        }
        fn is_file(&self, _path: &Path) -> bool {
            true
        }
    }

    #[test]
    fn a_file_larger_than_any_score_is_refused_by_size_with_the_limit_named() {
        let error = load_from(&mut Huge(MAX_SCORE_BYTES + 1), Path::new("big.lbn")).unwrap_err();
        let text = error.render();
        assert!(text.contains("scores are read up to 32 MB"), "{text}");
        assert_eq!(text.lines().filter(|l| l.contains("error:")).count(), 1, "{text}");
    }

    #[test]
    fn a_file_on_disk_over_the_limit_is_refused_before_it_is_read() {
        let path = std::env::temp_dir().join(format!("labanplay-huge-{}.lbn", std::process::id()));
        // 200 MB, sparse: nothing is written, and nothing may be read.
        std::fs::File::create(&path).unwrap().set_len(200_000_000).unwrap();
        let text = load(&path).unwrap_err().render();
        let _ = std::fs::remove_file(&path);
        assert!(text.contains("the file is 200.0 MB; scores are read up to 32 MB"), "{text}");
    }
}
