//! `labanplay convert IN OUT.lbn`: a score in any format the player reads written as `.lbn`
//! ([`crate::write::write_lbn`]); a keyframe score (`.json`) is laid out as a page first
//! ([`crate::write::lay_out_keyframes`]). What the output cannot hold is listed as a warning at
//! its place in IN: symbols or keyframes left out or changed, and (for a format other than
//! `.lbn`) records the reader could not read, which are therefore not in the output either, and
//! every symbol or keyframe that means something else read back as `.lbn`
//! ([`crate::write::changed_meanings`], [`crate::write::changed_keyframes`]).

use crate::diag::Diagnostic;
use crate::read::{Document, Format, score_extension};
use std::path::Path;

/// The output formats `convert` writes (file name endings).
pub const OUTPUT_EXTENSIONS: [&str; 1] = ["lbn"];

/// Why a conversion wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The output's extension names no format `convert` writes (a usage error).
    #[error("cannot write `{}`: convert writes {} files (give OUT.lbn)", .0.display(), OUTPUT_EXTENSIONS.join(", "))]
    UnknownOutput(std::path::PathBuf),
    /// The input could not be read (the rendered diagnostics).
    #[error("{0}")]
    Unreadable(String),
    /// The output could not be written.
    #[error("{}: error: cannot write file: {source}", path.display())]
    Io {
        /// The output.
        path: std::path::PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Converts `input` into `output`; the summary printed on success, with one warning per thing
/// not carried over. A keyframe score is laid out as a page first ([`crate::write::lay_out_keyframes`]).
pub fn convert(input: &Path, output: &Path) -> Result<String, ConvertError> {
    if !score_extension(output).is_some_and(|e| OUTPUT_EXTENSIONS.contains(&e.as_str())) {
        return Err(ConvertError::UnknownOutput(output.to_path_buf()));
    }
    let loaded = crate::read::load(input).map_err(|e| ConvertError::Unreadable(e.render()))?;
    let doc = &loaded.document;
    let keyframes = doc.symbols.is_empty() && doc.symbol_count() > 0;
    let (text, warnings, what) = if keyframes { keyframe_page(doc) } else { page(doc) };
    std::fs::write(output, &text).map_err(|source| ConvertError::Io { path: output.to_path_buf(), source })?;
    let file = input.display().to_string();
    let mut warnings = warnings;
    // An `.lbn` file's unread lines are written back as they were; another format's are lost.
    if doc.format != Format::Lbn {
        warnings.extend(doc.warnings.iter().cloned());
    }
    warnings.sort_by_key(|d| (d.span.line, d.span.col));
    let mut summary: String =
        warnings.iter().map(|d| format!("{}\n", d.render(&file, Some(&loaded.bytes)))).collect::<Vec<_>>().concat();
    let said = match warnings.len() {
        0 => "no warnings".to_owned(),
        1 => "1 warning (above)".to_owned(),
        n => format!("{n} warnings (above)"),
    };
    summary.push_str(&format!("wrote {what} from {file} to {}; {said}\n", output.display()));
    Ok(summary)
}

/// A page score written: (the text, the warnings, what was written in words).
fn page(doc: &Document) -> (String, Vec<Diagnostic>, String) {
    let written = crate::write::write_lbn(doc);
    let changed = match read_back(&written.text) {
        Ok(back) => crate::write::changed_meanings(doc, &back, &written.written_of),
        Err(warning) => vec![warning],
    };
    let what = format!("{} of {} symbols", written.written_of.len(), doc.symbols.len());
    let warnings = written.warnings.into_iter().chain(changed).collect();
    (written.text, warnings, what)
}

/// A keyframe score laid out and written: (the text, the warnings, what was written in words).
fn keyframe_page(doc: &Document) -> (String, Vec<Diagnostic>, String) {
    let laid = crate::write::lay_out_keyframes(doc);
    let written = crate::write::write_lbn(&laid.document);
    let changed = match read_back(&written.text) {
        Ok(back) => crate::write::changed_keyframes(doc, &laid.document, &back, &written.written_of, laid.bpm as f64),
        Err(warning) => vec![warning],
    };
    let what = format!("{} of {} keyframes (at q={})", laid.keys_written, doc.symbol_count(), laid.bpm);
    let warnings = laid.warnings.into_iter().chain(written.warnings).chain(changed).collect();
    (written.text, warnings, what)
}

/// The written text read back as `.lbn`, or a warning saying it does not read (a writer bug,
/// said as such; the spans are the output's, not the input's).
fn read_back(text: &str) -> Result<Document, Diagnostic> {
    crate::read::read(text.as_bytes(), Some("lbn")).map_err(|errors| {
        let first = errors.0.first().map(|d| format!("line {}: {}", d.span.line, d.message)).unwrap_or_default();
        Diagnostic::warning(Default::default(), format!("the written `.lbn` does not read back ({first})"))
    })
}
