//! LabanWriter 4 `.lw` reader: the container grammar (header `LabanWriter; NNNN;`, `#` comment
//! lines, `;`-terminated records of whitespace-separated tokens) built with nom, then per-record
//! decoding through the table in `lw_table`. Undecoded records become warnings.
//!
//! The only primary source is the opening of OSU's "LabanWriter 4 file format" page (2003, S1); no
//! real LW4 file and no other LW reader could be found. So the container is split exactly as S1
//! documents it and records are decoded only through a table of guessed layouts:
//!
//! - SEEN in S1, implemented exactly: the header (magic matched ignoring case; versions 4000–4999
//!   read silently, any other integer with a warning); lines beginning with `#` are comments
//!   (leading blanks allowed; a `#` mid-line is literal); `;` ends a record; tokens are separated
//!   by whitespace; records may span lines; CR, LF and CRLF all work; the class names (`Staff`,
//!   `Measure`, `Direction`, `Turn`, `Pin`, `Text`, …).
//! - Chosen: text is UTF-8 when valid, else Latin-1 if the file uses CRLF, else Mac Roman
//!   (LabanWriter is a Mac program). Control bytes (NUL, binary) are an error.
//! - INFERRED (`lw_table`): that the class name is the record head, and every field order. LW's y
//!   axis is taken to grow down (Mac QuickDraw, (x, y) the top left); symbols are flipped to y-up.
//! - A record is decoded only when its token count and every token type match its row exactly. Any
//!   other record (unknown class, other layout, cut off by the end of the file) is kept as a
//!   warning naming its class, token count and line, never dropped.
//!
//! To work out the real layouts from a real file, run `labanplay check --survey FILE.lw` (every
//! record head with its token-count histogram and how many the table decoded), then edit one row of
//! the table. The fixtures in `tests/fixtures/lw/` and the demos `scores/*.lw` are written to the
//! inferred layout.

use super::document::{Document, Format};
use super::lw_table;
use super::lw_text::{self, Encoding, LineEndings, SpanTracker};
use crate::diag::{Diagnostic, Diagnostics, Span};
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till, take_while1};
use nom::character::complete::char;
use nom::combinator::{all_consuming, map, value};
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// Versions read without a warning: LabanWriter 4.x (`4000` = 4.0 [S1]; INFERRED major·1000).
pub const LW4_VERSIONS: std::ops::RangeInclusive<i64> = 4000..=4999;

/// Longest record text quoted in a warning, in characters.
const QUOTE_MAX_CHARS: usize = 60;

/// One whitespace-separated token of a record, decoded to text.
#[derive(Clone, Debug, PartialEq)]
pub struct RawToken {
    /// The token's text.
    pub text: String,
    /// Where it starts.
    pub span: Span,
}

/// One `;`-terminated record, as read: never empty.
#[derive(Clone, Debug, PartialEq)]
pub struct RawRecord {
    /// The tokens, first one the record head (its class).
    pub tokens: Vec<RawToken>,
    /// False for a last record that the file ends before its `;`.
    pub terminated: bool,
}

impl RawRecord {
    /// The record head (first token).
    pub fn head(&self) -> &str {
        self.tokens.first().map_or("", |t| t.text.as_str())
    }

    /// Where the record starts (its first token).
    pub fn span(&self) -> Span {
        self.tokens.first().map(|t| t.span).unwrap_or_default()
    }

    /// The tokens joined by single spaces, cut to a readable length.
    pub fn quote(&self) -> String {
        let joined = self.tokens.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ");
        if joined.chars().count() <= QUOTE_MAX_CHARS {
            return joined;
        }
        let mut cut: String = joined.chars().take(QUOTE_MAX_CHARS).collect();
        cut.push('…');
        cut
    }
}

/// An `.lw` file split into its container parts, before any record is decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct Container {
    /// The header's version number (`4000` = 4.0).
    pub version: i64,
    /// How the bytes were decoded (see `lw_text::choose_encoding`).
    pub encoding: Encoding,
    /// The file's line-ending style.
    pub line_endings: LineEndings,
    /// Comment lines, without the `#` and trimmed, in file order.
    pub comments: Vec<String>,
    /// The body records (the two header records removed), in file order.
    pub records: Vec<RawRecord>,
    /// Warnings about the container (version outside 4000–4999).
    pub warnings: Vec<Diagnostic>,
}

/// One lexical piece of the file.
#[derive(Clone, Debug, PartialEq)]
enum Piece<'a> {
    Break,
    Blank,
    Semi,
    Comment(&'a [u8]),
    Token(&'a [u8]),
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0B | 0x0C)
}

fn is_token_byte(b: u8) -> bool {
    !is_blank(b) && !matches!(b, b'\r' | b'\n' | b';')
}

/// A comment: `#` to the end of the line (only tried at a line start, after blanks).
fn comment(input: &[u8]) -> IResult<&[u8], &[u8]> {
    preceded(char('#'), take_till(|b| b == b'\r' || b == b'\n')).parse(input)
}

/// The next piece. Every byte belongs to some piece, so this only fails on empty input.
fn piece(input: &[u8], at_line_start: bool) -> IResult<&[u8], Piece<'_>> {
    if at_line_start && let Ok((rest, text)) = comment(input) {
        return Ok((rest, Piece::Comment(text)));
    }
    alt((
        value(Piece::Break, alt((tag(&b"\r\n"[..]), tag(&b"\r"[..]), tag(&b"\n"[..])))),
        value(Piece::Blank, take_while1(is_blank)),
        value(Piece::Semi, char(';')),
        map(take_while1(is_token_byte), Piece::Token),
    ))
    .parse(input)
}

/// The first byte that is not text (a C0 control other than tab, LF, VT, FF, CR; or DEL).
fn first_control_byte(bytes: &[u8]) -> Option<(usize, u8)> {
    bytes
        .iter()
        .position(|&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r')) || b == 0x7F)
        .and_then(|i| bytes.get(i).map(|&b| (i, b)))
}

/// Splits `bytes` into comments and records. Never panics; always makes progress.
fn tokenize(bytes: &[u8], encoding: Encoding) -> Result<(Vec<String>, Vec<RawRecord>), Diagnostic> {
    let body_start = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let mut rest = bytes.get(body_start..).unwrap_or_default();
    let mut tracker = SpanTracker::new(bytes);
    let (mut comments, mut records, mut tokens) = (Vec::new(), Vec::new(), Vec::new());
    let mut at_line_start = true;
    while !rest.is_empty() {
        let offset = bytes.len() - rest.len();
        let Ok((next, piece)) = piece(rest, at_line_start) else {
            return Err(Diagnostic::error(tracker.span_at(offset), "cannot read this byte"));
        };
        if next.len() >= rest.len() {
            return Err(Diagnostic::error(tracker.span_at(offset), "reader made no progress here"));
        }
        match piece {
            Piece::Break => at_line_start = true,
            Piece::Blank => {}
            Piece::Comment(text) => comments.push(lw_text::decode(text, encoding).trim().to_string()),
            Piece::Token(text) => {
                let span = tracker.span_at(offset);
                tokens.push(RawToken { text: lw_text::decode(text, encoding), span });
                at_line_start = false;
            }
            Piece::Semi => {
                if !tokens.is_empty() {
                    records.push(RawRecord { tokens: std::mem::take(&mut tokens), terminated: true });
                }
                at_line_start = false;
            }
        }
        rest = next;
    }
    if !tokens.is_empty() {
        records.push(RawRecord { tokens, terminated: false });
    }
    Ok((comments, records))
}

const HEADER_HELP: &str =
    "an LW4 file starts with the header `LabanWriter; 4000;` (comment lines beginning with `#` may come first)";

/// Checks the two header records and returns the version.
fn parse_header(records: &[RawRecord]) -> Result<(i64, Vec<Diagnostic>), Diagnostic> {
    let Some(magic) = records.first() else {
        return Err(Diagnostic::error(Span::at(1, 1), "missing `LabanWriter; NNNN;` header: the file has no records")
            .with_help(HEADER_HELP));
    };
    let is_magic = |text: &str| all_consuming(tag_no_case::<_, _, ()>("labanwriter")).parse(text).is_ok();
    if !is_magic(magic.head()) {
        return Err(Diagnostic::error(
            magic.span(),
            format!("missing `LabanWriter; NNNN;` header: the first record starts with `{}`", magic.head()),
        )
        .with_help(HEADER_HELP));
    }
    if magic.tokens.len() != 1 {
        return Err(Diagnostic::error(
            magic.span(),
            format!(
                "the header record `{}` has {} tokens; `LabanWriter` must stand alone",
                magic.quote(),
                magic.tokens.len()
            ),
        )
        .with_help("write `LabanWriter; 4000;`: the magic word and the version are two `;`-terminated records"));
    }
    let Some(version_record) = records.get(1) else {
        return Err(Diagnostic::error(magic.span(), "the header ends after `LabanWriter`: no version number")
            .with_help(HEADER_HELP));
    };
    let version_text = version_record.head();
    let parsed = all_consuming(nom::character::complete::i64::<_, ()>).parse(version_text);
    let (Ok((_, version)), 1) = (parsed, version_record.tokens.len()) else {
        return Err(Diagnostic::error(
            version_record.span(),
            format!("the header version `{}` is not an integer", version_record.quote()),
        )
        .with_help("the version is one integer record, e.g. `4000;` for LabanWriter 4.0"));
    };
    let mut warnings = Vec::new();
    if !version_record.terminated {
        warnings.push(Diagnostic::warning(version_record.span(), "the header version is not followed by `;`"));
    }
    if !LW4_VERSIONS.contains(&version) {
        warnings.push(Diagnostic::warning(
            version_record.span(),
            format!("version {version} is not a LabanWriter 4 version (4000–4999); reading it as LW4 anyway"),
        ));
    }
    Ok((version, warnings))
}

/// Splits an `.lw` file into header, comments and raw records. Errors: a control byte (the
/// file is not text), a missing or malformed header.
pub fn parse_container(bytes: &[u8]) -> Result<Container, Diagnostics> {
    if let Some((offset, byte)) = first_control_byte(bytes) {
        return Err(Diagnostic::error(
            Span::of_offset(bytes, offset),
            format!("byte 0x{byte:02X} is not text: an LW4 file is plain text"),
        )
        .with_help("this looks like a binary file (LabanWriter before version 4 saved a binary format)")
        .into());
    }
    let line_endings = lw_text::detect_line_endings(bytes);
    let encoding = lw_text::choose_encoding(bytes, line_endings);
    let (comments, mut records) = tokenize(bytes, encoding)?;
    let (version, warnings) = parse_header(&records)?;
    records.drain(..2.min(records.len()));
    Ok(Container { version, encoding, line_endings, comments, records, warnings })
}

/// The warning for a record that is kept raw.
fn undecoded(record: &RawRecord, span: Span, reason: &str) -> Diagnostic {
    Diagnostic::warning(
        span,
        format!(
            "record `{}` (class {}, {} tokens) not decoded: {reason}",
            record.quote(),
            record.head(),
            record.tokens.len()
        ),
    )
}

/// Reads a LabanWriter 4 file. Records whose class and layout match a row of
/// `lw_table::TABLE` become [`PageSymbol`](super::PageSymbol)s; every other record is kept as
/// a warning naming its class, token count and line.
pub fn read(bytes: &[u8]) -> Result<Document, Diagnostics> {
    let container = parse_container(bytes)?;
    let mut doc = Document::new(Format::Lw);
    doc.comments = container.comments;
    doc.warnings = container.warnings;
    for record in &container.records {
        if !record.terminated {
            let reason = "the file ends before its `;` (it may be truncated)";
            doc.warnings.push(undecoded(record, record.span(), reason));
            continue;
        }
        match lw_table::decode(record) {
            Ok(symbols) => doc.symbols.extend(symbols),
            Err(why) => doc.warnings.push(undecoded(record, why.span, &why.reason)),
        }
    }
    Ok(doc)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn records_span_lines_and_skip_comments() {
        let input = b"# hi\r\nlabanWRITER ;4000;\n  # indented comment\nStaff 1\n 2 3 4;;\rFoo a#b;";
        let c = parse_container(input).unwrap();
        assert_eq!(c.version, 4000);
        assert_eq!(c.comments, vec!["hi".to_string(), "indented comment".to_string()]);
        assert_eq!(c.records.len(), 2);
        assert_eq!(c.records[0].tokens.len(), 5);
        let staff_at = input.windows(5).position(|w| w == b"Staff").unwrap();
        assert_eq!(c.records[0].span(), Span::of_offset(input, staff_at));
        assert_eq!(c.records[0].span().line, 4);
        assert_eq!(c.records[1].head(), "Foo");
        assert_eq!(c.records[1].tokens[1].text, "a#b", "mid-line # is literal");
        assert_eq!(c.line_endings, LineEndings::Mixed);
    }

    #[test]
    fn unknown_version_warns_and_unterminated_is_flagged() {
        let c = parse_container(b"LabanWriter; 3100; Foo 1").unwrap();
        assert_eq!(c.warnings.len(), 1);
        assert_eq!(parse_container(b"LabanWriter; 4000").unwrap().warnings.len(), 1);
        assert!(!c.records[0].terminated);
        let doc = read(b"LabanWriter; 4720; Foo 1 2 3;").unwrap();
        assert_eq!(doc.warnings.len(), 1);
        assert!(doc.warnings[0].message.contains("class Foo, 4 tokens"), "{}", doc.warnings[0].message);
    }

    #[test]
    fn header_errors() {
        for input in
            [&b""[..], b"# only\n", b"Staff 1 2 3 4;", b"LabanWriter 4000;", b"LabanWriter;", b"LabanWriter; four;"]
        {
            let err = parse_container(input).unwrap_err();
            assert!(err.has_errors(), "{:?}", String::from_utf8_lossy(input));
        }
    }
}
