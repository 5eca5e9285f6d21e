//! Score readers: bytes in, a raw [`Document`] (or line-accurate diagnostics) out.
//!
//! One module per format, each built with nom and never panicking. [`read`] picks the format
//! from the content (magic word, shape) and falls back to the file extension. [`load`] is the
//! one place that reads a score file from disk ([`file`](mod@file)).

pub mod document;
pub mod file;
pub mod json;
mod json_value;
pub mod lbn;
pub mod lw;
pub mod lw_survey;
pub mod lw_table;
pub mod lw_text;

pub use document::*;
pub use file::{Files, LoadError, LoadedScore, Sources, has_empty_stem, load, load_from, score_extension};

use crate::diag::{Diagnostic, Diagnostics, Span};

/// The first meaningful bytes of `bytes`: after a UTF-8 BOM and leading whitespace.
fn content_start(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    &bytes[start..]
}

/// Guesses the format from the content; `extension` (without the dot) breaks ties.
pub fn detect(bytes: &[u8], extension: Option<&str>) -> Option<Format> {
    let head = content_start(bytes);
    if matches!(head.first(), Some(b'{') | Some(b'[')) {
        return Some(Format::Json);
    }
    // Skip `#` comment lines, then look at the first word.
    let mut rest = head;
    while rest.first() == Some(&b'#') {
        let end = rest.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(rest.len());
        rest = content_start(&rest[end..]);
    }
    let word_end = rest.iter().position(|&b| b.is_ascii_whitespace() || b == b';').unwrap_or(rest.len());
    let word = &rest[..word_end];
    if word.eq_ignore_ascii_case(b"labanwriter") {
        return Some(Format::Lw);
    }
    if lbn::GROUPS.iter().any(|g| g.as_bytes() == word) {
        return Some(Format::Lbn);
    }
    match extension.map(|e| e.to_ascii_lowercase()).as_deref() {
        Some("lbn") => Some(Format::Lbn),
        Some("json") => Some(Format::Json),
        Some("lw") => Some(Format::Lw),
        _ => None,
    }
}

/// Reads a score in any supported format. `extension` is only a hint.
pub fn read(bytes: &[u8], extension: Option<&str>) -> Result<Document, Diagnostics> {
    match detect(bytes, extension) {
        Some(Format::Lbn) => lbn::read(bytes),
        Some(Format::Json) => json::read(bytes),
        Some(Format::Lw) => lw::read(bytes),
        None => Err(Diagnostic::error(Span::of_offset(bytes, 0), "not a score file this program can read")
            .with_help("expected a LabanWriter `.lw` file (first word `LabanWriter`), an LED/LINTEL `.lbn` file (lines like `Dirn 11 134 70 4 10 23 M`), or a LabanotationSuite `.json` file")
            .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_content_before_extension() {
        assert_eq!(detect(b"  {\"a\": 1}", Some("lbn")), Some(Format::Json));
        assert_eq!(detect(b"# c\nlabanWRITER; 4000;", None), Some(Format::Lw));
        assert_eq!(detect(b"#\n# Barn\nStav 0 96 12 1 1 600 B # 1", Some("txt")), Some(Format::Lbn));
        assert_eq!(detect(b"garbage", Some("LBN")), Some(Format::Lbn));
        assert_eq!(detect(b"garbage", None), None);
    }
}
