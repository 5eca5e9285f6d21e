//! Shared test helpers: where the real scores are, and golden-file comparison.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(dead_code)]

#[cfg(feature = "viewer")]
pub mod golden_image;

use std::path::{Path, PathBuf};

/// The score file at `path` read and composed; panics with the rendered diagnostics.
#[track_caller]
pub fn load_score(path: &Path) -> labanplay::score::Score {
    match labanplay::read::load(path) {
        Ok(loaded) => labanplay::score::Score::from_document(&loaded.document),
        Err(e) => panic!("{}", e.render()),
    }
}

/// A score file's bytes and its document, or the reader's diagnostics; panics when the file
/// cannot be read at all.
pub struct LoadedFile {
    /// The raw bytes.
    pub bytes: Vec<u8>,
    /// The document, or why it could not be read.
    pub document: Result<labanplay::read::Document, labanplay::diag::Diagnostics>,
}

/// [`LoadedFile`] of `path`.
#[track_caller]
pub fn load_file(path: &Path) -> LoadedFile {
    match labanplay::read::load(path) {
        Ok(loaded) => LoadedFile { bytes: loaded.bytes, document: Ok(loaded.document) },
        Err(labanplay::read::LoadError::Unreadable { bytes, diagnostics, .. }) => {
            LoadedFile { bytes, document: Err(diagnostics) }
        }
        Err(e) => panic!("{e}"),
    }
}

/// `../shared/scores/real`, or `None` (with a printed SKIP line) when it is absent.
pub fn real_scores_dir(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/scores/real"));
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("SKIP {test}: {} is absent (the real-score corpus lives beside the repo, not in it)", dir.display());
        None
    }
}

/// Compares `actual` with `tests/golden/<rel>`; `UPDATE_SNAPSHOTS=1` rewrites the file.
#[track_caller]
pub fn assert_golden(rel: &str, actual: &str) {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden")).join(rel);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("golden file {} missing; run with UPDATE_SNAPSHOTS=1", path.display()));
    if expected != actual {
        let new_path = path.with_extension("new");
        std::fs::write(&new_path, actual).unwrap();
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from golden at line {}:\n  expected: {:?}\n  actual:   {:?}\nfull output in {}; UPDATE_SNAPSHOTS=1 accepts it",
            path.display(),
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first),
            new_path.display()
        );
    }
}
