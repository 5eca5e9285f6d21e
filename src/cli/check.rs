//! `labanplay check PATH…`: read every score, print its errors and warnings, and a summary per
//! format. Folders are walked recursively for `.lbn`, `.json` and `.lw` files, in sorted order.

use crate::diag::Severity;
use crate::read::{Format, LoadError};
use crate::score::Score;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Options of `check`.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Print warnings (errors are always printed).
    pub show_warnings: bool,
}

/// Per-format counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormatSummary {
    /// Files of this format seen.
    pub files: usize,
    /// Files read into a score.
    pub read: usize,
    /// Files with at least one error.
    pub failed: usize,
    /// Warnings over all files.
    pub warnings: usize,
    /// Staves over all scores.
    pub staves: usize,
}

/// What `check` found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Everything to print, in order.
    pub text: String,
    /// Per format name (`lbn`, `json`, `lw`, `unknown`).
    pub summary: BTreeMap<String, FormatSummary>,
    /// True when any file had an error.
    pub any_error: bool,
}

const EXTENSIONS: [&str; 3] = ["lbn", "json", "lw"];

/// Expands folders into their score files (sorted, recursive); files are kept as given.
pub fn collect_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found);
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if crate::read::score_extension(&p).is_some_and(|e| EXTENSIONS.contains(&e.as_str()))
            || super::ensemble::is_plan_name(&p)
        {
            out.push(p);
        }
    }
}

/// Checks every file under `paths`.
pub fn check(paths: &[PathBuf], opts: &CheckOptions) -> CheckReport {
    let mut report = CheckReport::default();
    for path in collect_files(paths) {
        let name = path.display().to_string();
        if crate::read::score_extension(&path).as_deref() == Some("toml") {
            // An ensemble plan: read, simulate, report conflicts.
            let checked = super::ensemble::check_plan(&path, opts.show_warnings);
            report.text.push_str(&checked.text);
            let s = report.summary.entry("plan".into()).or_default();
            s.files += 1;
            if checked.failed {
                s.failed += 1;
                report.any_error = true;
            } else {
                s.read += 1;
            }
            continue;
        }
        let (bytes, document) = match crate::read::load(&path) {
            Ok(loaded) => (loaded.bytes, Ok(loaded.document)),
            Err(LoadError::Unreadable { bytes, diagnostics, .. }) => (bytes, Err(diagnostics)),
            Err(error @ LoadError::Io { .. }) => {
                let _ = writeln!(report.text, "{error}");
                report.any_error = true;
                let s = report.summary.entry("unknown".into()).or_default();
                s.files += 1;
                s.failed += 1;
                continue;
            }
        };
        let ext = crate::read::score_extension(&path);
        let format = crate::read::detect(&bytes, ext.as_deref()).map(Format::name).unwrap_or("unknown");
        let s = report.summary.entry(format.to_string()).or_default();
        s.files += 1;
        match document {
            Err(diags) => {
                s.failed += 1;
                s.warnings += diags.0.iter().filter(|d| d.severity == Severity::Warning).count();
                report.any_error = true;
                let _ = writeln!(report.text, "{}", diags.render(&name, Some(&bytes)));
            }
            Ok(doc) => {
                let score = Score::from_document(&doc);
                s.read += 1;
                s.staves += score.staves.len();
                s.warnings += score.warnings.len();
                if score.staves.is_empty() {
                    let _ = writeln!(report.text, "{name}: warning: no staff found; nothing to animate");
                }
                if opts.show_warnings {
                    for w in &score.warnings {
                        let _ = writeln!(report.text, "{}", w.render(&name, Some(&bytes)));
                    }
                }
            }
        }
    }
    for (format, s) in &report.summary {
        let _ = writeln!(
            report.text,
            "{format}: {} files, {} read, {} with errors, {} staves, {} warnings",
            s.files, s.read, s.failed, s.staves, s.warnings
        );
    }
    report
}
