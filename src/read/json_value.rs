//! A small JSON parser (nom) that keeps the byte offset of every value and key.
//!
//! Used by the keyframe reader (`super::json`). Errors say what was expected and where; nesting
//! is capped at [`MAX_DEPTH`]; no input makes it panic or loop.

use nom::bytes::complete::{tag, take_while, take_while_m_n};
use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{opt, recognize};
use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Parser};
use std::borrow::Cow;

/// Deepest nesting of arrays and objects accepted (the top-level value is depth 1).
pub const MAX_DEPTH: usize = 128;

/// One JSON value and the byte offset where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// Byte offset of the value's first byte in the parsed input.
    pub offset: usize,
    /// What it is.
    pub kind: Kind,
}

/// The kinds of JSON value. Object members keep their file order (duplicates included).
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number (may be infinite when the literal overflows `f64`; never NaN).
    Number(f64),
    /// A string, escapes decoded.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, members in file order.
    Object(Vec<Member>),
}

impl Kind {
    /// "an object", "a string", … for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Number(_) => "a number",
            Kind::String(_) => "a string",
            Kind::Array(_) => "an array",
            Kind::Object(_) => "an object",
        }
    }
}

/// One `"key": value` member of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The key, escapes decoded.
    pub key: String,
    /// Byte offset of the key's opening quote.
    pub key_offset: usize,
    /// The value.
    pub value: Value,
}

/// Why the input is not JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    /// Byte offset of the problem in the parsed input.
    pub offset: usize,
    /// What was expected, as one sentence without a trailing period.
    pub message: String,
    /// A hint, when there is a useful one.
    pub help: Option<&'static str>,
}

/// Parses one JSON document from `bytes` (UTF-8, no BOM: the caller strips it).
pub fn parse(bytes: &[u8]) -> Result<Value, SyntaxError> {
    let src = std::str::from_utf8(bytes).map_err(|e| {
        let bad = bytes.get(e.valid_up_to()).copied().unwrap_or(0);
        SyntaxError {
            offset: e.valid_up_to(),
            message: format!("the file is not valid UTF-8 (byte 0x{bad:02X})"),
            help: Some("save the file as UTF-8"),
        }
    })?;
    let to_error =
        |f: Fail<'_>| SyntaxError { offset: src.len() - f.at.len(), message: f.message.into_owned(), help: f.help };
    let parser = JsonParser { src_len: src.len() };
    let (rest, value) = parser.value(ws(src), 0).map_err(|e| match e {
        nom::Err::Error(f) | nom::Err::Failure(f) => to_error(f),
        nom::Err::Incomplete(_) => {
            SyntaxError { offset: src.len(), message: "unexpected end of the file".into(), help: None }
        }
    })?;
    let rest = ws(rest);
    if !rest.is_empty() {
        return Err(to_error(Fail::new(
            rest,
            format!("expected the end of the file after the JSON value, {}", found(rest)),
        )));
    }
    Ok(value)
}

/// The parser's error: where (the remaining input) and what was expected.
#[derive(Debug)]
struct Fail<'a> {
    at: &'a str,
    /// Borrowed for nom's own (usually backtracked) errors, so that failing is cheap.
    message: Cow<'static, str>,
    help: Option<&'static str>,
}

impl<'a> Fail<'a> {
    fn new(at: &'a str, message: impl Into<Cow<'static, str>>) -> Self {
        Self { at, message: message.into(), help: None }
    }
}

impl<'a> ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        Fail::new(at, "unexpected input")
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type PResult<'a, T> = IResult<&'a str, T, Fail<'a>>;

/// A committed failure (no backtracking past it).
fn fail<'a, T>(at: &'a str, message: impl Into<Cow<'static, str>>) -> PResult<'a, T> {
    Err(nom::Err::Failure(Fail::new(at, message)))
}

fn fail_help<'a, T>(at: &'a str, message: impl Into<Cow<'static, str>>, help: &'static str) -> PResult<'a, T> {
    Err(nom::Err::Failure(Fail { at, message: message.into(), help: Some(help) }))
}

/// "found `x`" / "found the end of the file", for messages.
fn found(at: &str) -> String {
    match at.chars().next() {
        None => "found the end of the file".into(),
        Some(c) if c.is_control() || c.is_whitespace() => format!("found {c:?}"),
        Some(c) => format!("found `{c}`"),
    }
}

/// Skips JSON whitespace (space, tab, LF, CR).
fn ws(i: &str) -> &str {
    let r: PResult<'_, &str> = take_while(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))(i);
    r.map_or(i, |(rest, _)| rest)
}

/// True when `i` starts with `c` and returns the input after it.
fn eat(i: &str, c: char) -> Option<&str> {
    let r: PResult<'_, char> = char(c)(i);
    r.ok().map(|(rest, _)| rest)
}

struct JsonParser {
    src_len: usize,
}

impl JsonParser {
    fn offset(&self, at: &str) -> usize {
        self.src_len - at.len()
    }

    /// A value; `depth` is the number of containers around it.
    fn value<'a>(&self, i: &'a str, depth: usize) -> PResult<'a, Value> {
        let offset = self.offset(i);
        let (rest, kind) = match i.chars().next() {
            Some('{') => self.object(i, depth + 1)?,
            Some('[') => self.array(i, depth + 1)?,
            Some('"') => string(i).map(|(r, s)| (r, Kind::String(s)))?,
            Some('-' | '0'..='9') => number(i)?,
            Some('t') => literal(i, "true", Kind::Bool(true))?,
            Some('f') => literal(i, "false", Kind::Bool(false))?,
            Some('n') => literal(i, "null", Kind::Null)?,
            None => return fail(i, "expected a JSON value, found the end of the file"),
            Some(_) => {
                return fail_help(
                    i,
                    format!("expected a JSON value, {}", found(i)),
                    "a value is an object `{…}`, an array `[…]`, a string `\"…\"`, a number, `true`, `false` or `null`",
                );
            }
        };
        Ok((rest, Value { offset, kind }))
    }

    fn check_depth<'a>(&self, i: &'a str, depth: usize) -> PResult<'a, ()> {
        if depth > MAX_DEPTH {
            return fail(i, format!("arrays and objects nest deeper than {MAX_DEPTH} levels here"));
        }
        Ok((i, ()))
    }

    fn object<'a>(&self, i: &'a str, depth: usize) -> PResult<'a, Kind> {
        let (i, ()) = self.check_depth(i, depth)?;
        let (i, _) = char('{')(i)?;
        let mut members = Vec::new();
        let mut i = ws(i);
        if let Some(rest) = eat(i, '}') {
            return Ok((rest, Kind::Object(members)));
        }
        loop {
            if !i.starts_with('"') {
                if members.is_empty() {
                    return fail(i, format!("expected a string key or `}}` after `{{`, {}", found(i)));
                }
                if i.starts_with('}') {
                    return fail_help(
                        i,
                        "expected a string key after `,`, found `}`",
                        "JSON does not allow a comma before `}`",
                    );
                }
                return fail(i, format!("expected a string key after `,`, {}", found(i)));
            }
            let key_offset = self.offset(i);
            let (rest, key) = string(i)?;
            let rest = ws(rest);
            let Some(rest) = eat(rest, ':') else {
                return fail(rest, format!("expected `:` after object key, {}", found(rest)));
            };
            let (rest, value) = self.value(ws(rest), depth)?;
            members.push(Member { key, key_offset, value });
            let rest = ws(rest);
            if let Some(after) = eat(rest, ',') {
                i = ws(after);
            } else if let Some(after) = eat(rest, '}') {
                return Ok((after, Kind::Object(members)));
            } else {
                return fail(rest, format!("expected `,` or `}}` after object member, {}", found(rest)));
            }
        }
    }

    fn array<'a>(&self, i: &'a str, depth: usize) -> PResult<'a, Kind> {
        let (i, ()) = self.check_depth(i, depth)?;
        let (i, _) = char('[')(i)?;
        let mut items = Vec::new();
        let mut i = ws(i);
        if let Some(rest) = eat(i, ']') {
            return Ok((rest, Kind::Array(items)));
        }
        loop {
            if i.starts_with(']') {
                return fail_help(i, "expected a value after `,`, found `]`", "JSON does not allow a comma before `]`");
            }
            let (rest, value) = self.value(i, depth)?;
            items.push(value);
            let rest = ws(rest);
            if let Some(after) = eat(rest, ',') {
                i = ws(after);
            } else if let Some(after) = eat(rest, ']') {
                return Ok((after, Kind::Array(items)));
            } else {
                return fail(rest, format!("expected `,` or `]` after array element, {}", found(rest)));
            }
        }
    }
}

/// `true`, `false` or `null`.
fn literal<'a>(i: &'a str, word: &'static str, kind: Kind) -> PResult<'a, Kind> {
    match tag::<_, _, Fail<'a>>(word)(i) {
        Ok((rest, _)) => Ok((rest, kind)),
        Err(_) => fail(i, format!("expected a JSON value (`{word}`?), {}", found(i))),
    }
}

/// A number: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn number(i: &str) -> PResult<'_, Kind> {
    let start = i;
    let (rest, text) = recognize(|i| -> PResult<'_, ()> {
        let (i, _) = opt(char('-')).parse(i)?;
        let Ok((i, int)) = digit1::<_, Fail>(i) else {
            return fail(i, format!("expected a digit after `-`, {}", found(i)));
        };
        if int.len() > 1 && int.starts_with('0') {
            return fail(start, "JSON numbers may not start with a leading zero");
        }
        let i = match eat(i, '.') {
            Some(r) => match digit1::<_, Fail>(r) {
                Ok((r, _)) => r,
                Err(_) => return fail(r, format!("expected a digit after the decimal point, {}", found(r))),
            },
            None => i,
        };
        let i = match one_of::<_, _, Fail>("eE")(i) {
            Ok((r, _)) => {
                let (r, _) = opt(one_of("+-")).parse(r)?;
                match digit1::<_, Fail>(r) {
                    Ok((r, _)) => r,
                    Err(_) => return fail(r, format!("expected a digit in the exponent, {}", found(r))),
                }
            }
            Err(_) => i,
        };
        Ok((i, ()))
    })
    .parse(i)?;
    match text.parse::<f64>() {
        Ok(n) if !n.is_nan() => Ok((rest, Kind::Number(n))),
        _ => fail(start, "this number cannot be read"),
    }
}

/// A string literal, escapes decoded. Lone UTF-16 surrogates become U+FFFD.
fn string(i: &str) -> PResult<'_, String> {
    let open = i;
    let (mut i, _) = char('"')(i)?;
    let mut out = String::new();
    loop {
        let (rest, chunk) = take_while(|c: char| c != '"' && c != '\\' && c >= '\u{20}')(i)?;
        out.push_str(chunk);
        i = rest;
        match i.chars().next() {
            None => {
                return fail(open, "this string is never closed: expected `\"` before the end of the file");
            }
            Some('"') => {
                let (rest, _) = char('"')(i)?;
                return Ok((rest, out));
            }
            Some('\\') => {
                let (rest, c) = escape(i)?;
                out.push(c);
                i = rest;
            }
            Some('\n' | '\r') => {
                return fail_help(
                    i,
                    "expected `\"` to close the string before the line break",
                    "write a line break inside a string as `\\n`",
                );
            }
            Some(c) => {
                return fail_help(
                    i,
                    format!("control character {c:?} inside a string"),
                    "write it as an escape such as `\\t` or `\\u0007`",
                );
            }
        }
    }
}

/// One escape sequence starting at the backslash.
fn escape(i: &str) -> PResult<'_, char> {
    let backslash = i;
    let (i, _) = char('\\')(i)?;
    let Some(c) = i.chars().next() else {
        return fail(backslash, "expected an escape after `\\`, found the end of the file");
    };
    let simple = match c {
        '"' => Some('"'),
        '\\' => Some('\\'),
        '/' => Some('/'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        _ => None,
    };
    if let Some(decoded) = simple {
        let (rest, _) = char(c)(i)?;
        return Ok((rest, decoded));
    }
    if c != 'u' {
        return fail_help(
            backslash,
            format!("unknown escape `\\{c}` in a string"),
            "the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a backslash as `\\\\`",
        );
    }
    let (rest, high) = hex4(backslash, i)?;
    if (0xD800..0xDC00).contains(&high) {
        // A high surrogate: combine with a following `\uDC00`–`\uDFFF` if there is one.
        if let Ok((after, _)) = char::<_, Fail>('\\')(rest)
            && let Ok((after, low)) = hex4(rest, after)
            && (0xDC00..0xE000).contains(&low)
        {
            let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            return Ok((after, char::from_u32(code).unwrap_or('\u{FFFD}')));
        }
        return Ok((rest, '\u{FFFD}'));
    }
    Ok((rest, char::from_u32(high).unwrap_or('\u{FFFD}')))
}

/// `u` and four hex digits; errors point at `backslash`.
fn hex4<'a>(backslash: &'a str, i: &'a str) -> PResult<'a, u32> {
    let (i, _) = char('u')(i)?;
    let Ok((rest, digits)) = take_while_m_n::<_, _, Fail>(4, 4, |c: char| c.is_ascii_hexdigit())(i) else {
        return fail(backslash, "expected four hex digits after `\\u`");
    };
    match u32::from_str_radix(digits, 16) {
        Ok(code) => Ok((rest, code)),
        Err(_) => fail(backslash, "expected four hex digits after `\\u`"),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn err(src: &str) -> (usize, String) {
        let e = parse(src.as_bytes()).unwrap_err();
        (e.offset, e.message)
    }

    fn ok(src: &str) -> Kind {
        parse(src.as_bytes()).unwrap().kind
    }

    #[test]
    fn scalars_and_offsets() {
        assert_eq!(ok(" true "), Kind::Bool(true));
        assert_eq!(ok("null"), Kind::Null);
        assert_eq!(ok("-0.5e1"), Kind::Number(-5.0));
        assert_eq!(ok("1E+2"), Kind::Number(100.0));
        assert_eq!(ok("1e999"), Kind::Number(f64::INFINITY));
        let Kind::Object(members) = ok("{\"a\" : [1, \"x\"]}") else { panic!() };
        assert_eq!(members[0].key_offset, 1);
        assert_eq!(members[0].value.offset, 7);
        let Kind::Array(items) = &members[0].value.kind else { panic!() };
        assert_eq!(items[1].offset, 11);
    }

    #[test]
    fn string_escapes() {
        assert_eq!(ok(r#""a\"b\\c\/d\n\t\u0041\u00e9""#), Kind::String("a\"b\\c/d\n\tAé".into()));
        assert_eq!(ok(r#""\ud83d\ude00""#), Kind::String("😀".into()));
        assert_eq!(ok(r#""\ud83dx""#), Kind::String("\u{FFFD}x".into()));
        assert_eq!(ok(r#""\ude00""#), Kind::String("\u{FFFD}".into()));
        assert_eq!(ok("\"héllo\""), Kind::String("héllo".into()));
        assert!(err(r#""\x""#).1.contains("unknown escape"));
        assert_eq!(err(r#"["\u12g4"]"#).0, 2);
        assert_eq!(err(r#""\u12"#).0, 1);
    }

    #[test]
    fn errors_say_what_was_expected_and_where() {
        assert_eq!(err(""), (0, "expected a JSON value, found the end of the file".into()));
        assert_eq!(err("{\"a\" 1}"), (5, "expected `:` after object key, found `1`".into()));
        assert_eq!(err("{\"a\":1 \"b\":2}"), (7, "expected `,` or `}` after object member, found `\"`".into()));
        assert_eq!(err("[1,]").0, 3);
        assert_eq!(err("{\"a\":1,}").0, 7);
        assert_eq!(err("[1 2]").1, "expected `,` or `]` after array element, found `2`");
        assert_eq!(err("{} x").0, 3);
        assert_eq!(err("\"abc").0, 0);
        assert_eq!(err("\"ab\ncd\"").0, 3);
        assert_eq!(err("-").1, "expected a digit after `-`, found the end of the file");
        assert_eq!(err("1.").0, 2);
        assert_eq!(err("1e+").0, 3);
        assert_eq!(err("012").0, 0);
        assert_eq!(err("tru").0, 0);
        assert_eq!(err("{1:2}").0, 1);
        assert!(err("Forward").1.starts_with("expected a JSON value"));
    }

    #[test]
    fn invalid_utf8_is_reported_at_the_bad_byte() {
        let e = parse(b"[\"ab\xFF\"]").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("UTF-8"));
    }

    #[test]
    fn nesting_is_capped() {
        let deep_ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(deep_ok.as_bytes()).is_ok());
        let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        let e = parse(too_deep.as_bytes()).unwrap_err();
        assert_eq!(e.offset, MAX_DEPTH);
        assert!(e.message.contains("nest deeper"));
        let hostile = "[{\"a\":".repeat(100_000);
        assert!(parse(hostile.as_bytes()).is_err());
    }

    #[test]
    fn every_prefix_of_a_document_fails_cleanly() {
        let doc = r#"{"a": [1, -2.5e3, "x\u00e9\n", true, false, null, {}], "b": {"c": []}}"#;
        assert!(parse(doc.as_bytes()).is_ok());
        for end in 0..doc.len() {
            if let Some(prefix) = doc.get(..end) {
                let e = parse(prefix.as_bytes()).unwrap_err();
                assert!(e.offset <= end, "prefix {end}: offset {} past the end", e.offset);
            }
        }
    }
}
