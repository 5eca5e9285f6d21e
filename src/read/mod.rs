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

/// How much of a file's start is looked at to tell text from binary data.
const TEXT_PROBE_BYTES: usize = 64 * 1024;

/// The offset of the first control byte (NUL included) when they are more than 1 % of the first
/// [`TEXT_PROBE_BYTES`] (and more than 8): binary data, not a text file with a stray byte (which
/// its reader reports at its place).
pub fn binary_offset(bytes: &[u8]) -> Option<usize> {
    let probe = &bytes[..bytes.len().min(TEXT_PROBE_BYTES)];
    let is_control = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)) || b == 0x7f;
    let controls = probe.iter().filter(|&&b| is_control(b)).count();
    if controls > (probe.len() / 100).max(8) { probe.iter().position(|&b| is_control(b)) } else { None }
}

/// Reads a score in any supported format. `extension` is only a hint.
pub fn read(bytes: &[u8], extension: Option<&str>) -> Result<Document, Diagnostics> {
    if let Some(offset) = binary_offset(bytes) {
        let help = if extension.is_some_and(|e| e.eq_ignore_ascii_case("lw")) {
            "LabanWriter files before version 4 are binary and cannot be read; save the score from LabanWriter 4 or later"
        } else {
            "a picture, a sound or a program renamed to a score's extension cannot be read; open the `.lw`, `.lbn` or `.json` score itself"
        };
        return Err(Diagnostic::error(
            Span::of_offset(bytes, offset),
            format!("this is not a text file (byte 0x{:02x} is binary data): scores are text", bytes[offset]),
        )
        .with_help(help)
        .into());
    }
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
    fn binary_data_is_refused_with_one_error_and_text_is_not() {
        let png: Vec<u8> = b"\x89PNG\r\n\x1a\n".iter().copied().chain((0..=255u8).cycle().take(4000)).collect();
        let errors = read(&png, Some("lbn")).unwrap_err();
        assert_eq!(errors.0.len(), 1, "{errors}");
        assert!(errors.0[0].message.contains("not a text file"), "{errors}");
        assert_eq!(binary_offset(b"Dirn 11 134 70 4 10 23 M\r\n\tBars\x0c"), None);
        assert_eq!(binary_offset(b"Keys 0 283 39 2 75 75\0 # 3\n"), None, "one stray byte is the reader's to report");
        let lw = read(b"LabanWriter\x01\x02\x03\x04\x05\x06\x07\x08\x0b", Some("lw")).unwrap_err();
        assert!(lw.0[0].help.as_deref().is_some_and(|h| h.contains("before version 4")), "{lw}");
    }

    #[test]
    fn detects_by_content_before_extension() {
        assert_eq!(detect(b"  {\"a\": 1}", Some("lbn")), Some(Format::Json));
        assert_eq!(detect(b"# c\nlabanWRITER; 4000;", None), Some(Format::Lw));
        assert_eq!(detect(b"#\n# Barn\nStav 0 96 12 1 1 600 B # 1", Some("txt")), Some(Format::Lbn));
        assert_eq!(detect(b"garbage", Some("LBN")), Some(Format::Lbn));
        assert_eq!(detect(b"garbage", None), None);
    }
}
