//! Diagnostics: errors and warnings that point at a place in a score file.
//!
//! Every reader and the score builder report through these types; the CLI renders them as
//! `file:line:col: error: message`, the source line and a caret.

use std::fmt::Write as _;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was skipped or guessed; the rest of the score still plays.
    Warning,
    /// The file (or a part of it) could not be read.
    Error,
}

/// A place in a source file. Lines and columns count from 1; `offset` is a byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Span {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters of the decoded line.
    pub col: u32,
    /// Byte offset of the start of the span in the input.
    pub offset: usize,
}

impl Span {
    /// A span at `line`:`col` with an unknown byte offset.
    pub fn at(line: u32, col: u32) -> Self {
        Self { line, col, offset: 0 }
    }

    /// The span of byte `offset` in `input`, counting lines (LF, CR or CRLF) and columns.
    pub fn of_offset(input: &[u8], offset: usize) -> Self {
        let end = offset.min(input.len());
        let mut line = 1u32;
        let mut line_start = 0usize;
        let mut i = 0usize;
        while i < end {
            match input[i] {
                b'\n' => {
                    line += 1;
                    line_start = i + 1;
                }
                b'\r' if input.get(i + 1) != Some(&b'\n') => {
                    line += 1;
                    line_start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        let col = String::from_utf8_lossy(&input[line_start..end]).chars().count() as u32 + 1;
        Self { line, col, offset }
    }
}

/// One message about one place in a file.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where in the file.
    pub span: Span,
    /// What went wrong, as one sentence without a trailing period.
    pub message: String,
    /// What the reader expected or what to do about it, if there is something useful to say.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Self { severity: Severity::Error, span, message: message.into(), help: None }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Self { severity: Severity::Warning, span, message: message.into(), help: None }
    }

    /// The same diagnostic with a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Renders `file:line:col: severity: message`, then the source line with a caret under the
    /// column, then the help line. `source` is the whole file; pass `None` when it is not at hand.
    pub fn render(&self, file: &str, source: Option<&[u8]>) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = format!("{file}:{}:{}: {sev}: {}", self.span.line, self.span.col, self.message);
        if let Some(text) = source.and_then(|s| source_line(s, self.span.line)).filter(|t| looks_like_text(t)) {
            let shown: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            let gutter = self.span.line.to_string();
            let pad = " ".repeat(gutter.len());
            let caret_pad = " ".repeat(self.span.col.saturating_sub(1) as usize);
            let _ = write!(out, "\n{pad} |\n{gutter} | {shown}\n{pad} | {caret_pad}^");
        }
        if let Some(help) = &self.help {
            let _ = write!(out, "\n  = help: {help}");
        }
        out
    }
}

/// False for an empty line and for a line of binary data (many undecodable bytes), which is
/// never printed.
fn looks_like_text(line: &str) -> bool {
    !line.is_empty() && line.chars().filter(|&c| c == char::REPLACEMENT_CHARACTER).count() <= 8
}

/// The text of 1-based line `line` of `source` (LF, CR or CRLF endings), decoded leniently.
pub fn source_line(source: &[u8], line: u32) -> Option<String> {
    let mut current = 1u32;
    let mut start = 0usize;
    let mut i = 0usize;
    while i <= source.len() {
        let at_end = i == source.len();
        let is_break = !at_end && (source[i] == b'\n' || source[i] == b'\r');
        if at_end || is_break {
            if current == line {
                return Some(String::from_utf8_lossy(&source[start..i]).into_owned());
            }
            if at_end {
                return None;
            }
            if source[i] == b'\r' && source.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            current += 1;
            start = i + 1;
        }
        i += 1;
    }
    None
}

/// Line and column lookup in O(log n + 64) per offset, for readers that report many places, giving the same spans as
/// [`Span::of_offset`] on valid UTF-8 (which a parsed document is).
pub struct LineIndex<'b> {
    text: &'b [u8],
    /// Byte offset of every line start (after LF, after a CR not followed by LF).
    line_starts: Vec<usize>,
    /// Characters before each [`LineIndex::BLOCK`]-byte block.
    chars_before_block: Vec<usize>,
}

impl<'b> LineIndex<'b> {
    const BLOCK: usize = 64;

    /// Indexes `text` once, in linear time.
    pub fn new(text: &'b [u8]) -> Self {
        let mut line_starts = vec![0];
        for (i, &b) in text.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')) {
                line_starts.push(i + 1);
            }
        }
        let mut chars_before_block = Vec::with_capacity(text.len() / Self::BLOCK + 1);
        let mut count = 0;
        for block in text.chunks(Self::BLOCK) {
            chars_before_block.push(count);
            count += char_starts(block);
        }
        Self { text, line_starts, chars_before_block }
    }

    fn chars_before(&self, offset: usize) -> usize {
        let block = offset / Self::BLOCK;
        let base = self.chars_before_block.get(block).copied().unwrap_or(0);
        base + self.text.get(block * Self::BLOCK..offset).map_or(0, char_starts)
    }

    /// The span of byte `offset`.
    pub fn span(&self, offset: usize) -> Span {
        let at = offset.min(self.text.len());
        let line_index = self.line_starts.partition_point(|&s| s <= at).saturating_sub(1);
        let line_start = self.line_starts.get(line_index).copied().unwrap_or(0);
        let col = self.chars_before(at) - self.chars_before(line_start) + 1;
        Span { line: line_index as u32 + 1, col: col as u32, offset }
    }
}

/// Number of UTF-8 characters starting in `bytes` (bytes that are not continuation bytes).
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// How many diagnostics [`Diagnostics::render`] shows before it counts the rest.
pub const MAX_RENDERED: usize = 30;

/// A list of diagnostics, the error type of every reader.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// True when at least one diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }

    /// Renders the first [`MAX_RENDERED`] diagnostics in file order, one block each, then a line
    /// that counts the rest: a file full of errors gives a screenful, not one block per line.
    pub fn render(&self, file: &str, source: Option<&[u8]>) -> String {
        let mut sorted: Vec<&Diagnostic> = self.0.iter().collect();
        sorted.sort_by_key(|d| (d.span.line, d.span.col));
        let mut blocks: Vec<String> = sorted.iter().take(MAX_RENDERED).map(|d| d.render(file, source)).collect();
        let rest = &sorted[sorted.len().min(MAX_RENDERED)..];
        if !rest.is_empty() {
            let errors = rest.iter().filter(|d| d.severity == Severity::Error).count();
            blocks.push(format!(
                "{file}: … and {} more ({errors} errors, {} warnings); fix the first ones, the rest often follow from them",
                rest.len(),
                rest.len() - errors
            ));
        }
        blocks.join("\n")
    }
}

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for d in &self.0 {
            writeln!(f, "{}:{}: {:?}: {}", d.span.line, d.span.col, d.severity, d.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Self(vec![d])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_cr_lf_and_crlf_as_one_break_each() {
        let input = b"ab\r\ncd\ref\ngh";
        assert_eq!(Span::of_offset(input, 4), Span { line: 2, col: 1, offset: 4 });
        assert_eq!(Span::of_offset(input, 7), Span { line: 3, col: 1, offset: 7 });
        assert_eq!(Span::of_offset(input, 11), Span { line: 4, col: 2, offset: 11 });
        assert_eq!(source_line(input, 3).as_deref(), Some("ef"));
        assert_eq!(source_line(input, 5), None);
    }

    #[test]
    fn line_index_matches_span_of_offset() {
        let text = "a\r\nbé\rc\n\n😀x\r\r\n  \"k\"".repeat(30);
        let lines = LineIndex::new(text.as_bytes());
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(lines.span(offset), Span::of_offset(text.as_bytes(), offset), "offset {offset}");
        }
    }

    #[test]
    fn render_counts_what_it_does_not_show() {
        let many = Diagnostics((0..100).map(|i| Diagnostic::error(Span::at(i + 1, 1), "bad")).collect());
        let text = many.render("f.lbn", Some(&b"x\n".repeat(100)));
        assert_eq!(text.matches(": error: bad").count(), MAX_RENDERED, "{text}");
        assert!(
            text.ends_with(
                "… and 70 more (70 errors, 0 warnings); fix the first ones, the rest often follow from them"
            )
        );
    }

    #[test]
    fn render_shows_line_and_caret() {
        let d = Diagnostic::error(Span::at(2, 3), "bad level").with_help("use L, M, H or B");
        let text = d.render("x.lbn", Some(b"one\ntwo X\n"));
        assert_eq!(text, "x.lbn:2:3: error: bad level\n  |\n2 | two X\n  |   ^\n  = help: use L, M, H or B");
    }
}
