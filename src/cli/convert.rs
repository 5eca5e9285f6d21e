//! `labanplay convert IN OUT.lbn`: a score in any format the player reads written as `.lbn`
//! ([`crate::write::write_lbn`]). What the output cannot hold is listed as a warning at its place
//! in IN: symbols the writer left out or changed, and (for a format other than `.lbn`) records
//! the reader could not read, which are therefore not in the output either, and every symbol
//! that means something else read back as `.lbn` ([`crate::write::changed_meanings`]).

use crate::diag::Diagnostic;
use crate::read::{Format, score_extension};
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
    /// The input has no page to write.
    #[error("{}: error: {why}", path.display())]
    NoPage {
        /// The input.
        path: std::path::PathBuf,
        /// Why, in words.
        why: String,
    },
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
/// not carried over.
pub fn convert(input: &Path, output: &Path) -> Result<String, ConvertError> {
    if !score_extension(output).is_some_and(|e| OUTPUT_EXTENSIONS.contains(&e.as_str())) {
        return Err(ConvertError::UnknownOutput(output.to_path_buf()));
    }
    let loaded = crate::read::load(input).map_err(|e| ConvertError::Unreadable(e.render()))?;
    let doc = &loaded.document;
    if doc.symbols.is_empty() && doc.symbol_count() > 0 {
        let why = format!(
            "a {} keyframe score has timed poses, not a staff page; the `.lbn` writer writes page scores (`.lbn`, `.lw`)",
            doc.format.name()
        );
        return Err(ConvertError::NoPage { path: input.to_path_buf(), why });
    }
    let written = crate::write::write_lbn(doc);
    let changed = match crate::read::read(written.text.as_bytes(), Some("lbn")) {
        Ok(back) => crate::write::changed_meanings(doc, &back, &written.written_of),
        // A writer bug, said as such (the spans are the output's, not the input's).
        Err(errors) => {
            let first = errors.0.first().map(|d| format!("line {}: {}", d.span.line, d.message)).unwrap_or_default();
            vec![Diagnostic::warning(Default::default(), format!("the written `.lbn` does not read back ({first})"))]
        }
    };
    std::fs::write(output, &written.text).map_err(|source| ConvertError::Io { path: output.to_path_buf(), source })?;
    let file = input.display().to_string();
    let mut warnings: Vec<&Diagnostic> = written.warnings.iter().chain(&changed).collect();
    // An `.lbn` file's unread lines are written back as they were; another format's are lost.
    if doc.format != Format::Lbn {
        warnings.extend(&doc.warnings);
    }
    warnings.sort_by_key(|d| (d.span.line, d.span.col));
    let mut text: String =
        warnings.iter().map(|d| format!("{}\n", d.render(&file, Some(&loaded.bytes)))).collect::<Vec<_>>().concat();
    let said = match warnings.len() {
        0 => "no warnings".to_owned(),
        1 => "1 warning (above)".to_owned(),
        n => format!("{n} warnings (above)"),
    };
    text.push_str(&format!(
        "wrote {} of {} symbols from {file} to {}; {said}\n",
        written.written_of.len(),
        doc.symbols.len(),
        output.display()
    ));
    Ok(text)
}
