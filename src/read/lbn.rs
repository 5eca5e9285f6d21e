//! LED / LINTEL `.lbn` reader (nom): one symbol per line, `<Group> <item> <x> <y> <step> <width>
//! <height> <level> [<text>] # <n> [# bar <n>]`.
//!
//! All twelve groups are decoded into [`SymbolKind`]s; leading `#` lines are kept as comments.
//! Every comment line and every line of an unknown item is also kept as written
//! ([`Document::kept_lines`]) for the writer, and each symbol keeps its size step. Every
//! malformed line gets a line:col error and reading goes on with the next line.
//!
//! Item meanings: `Dirn` 1–11 (forward, the diagonals, sides, back, place); `Limb` 1–22 (joints, as
//! column pre-signs); `Area` 9 the chest; `Volm` 1–4 relaxed, straight, bent, stretched and 7 a
//! hold; `Face` 1–8 front signs; `Pins` 1–8 (inside turn signs the amount, under the staff the
//! dancer); `Rotn` 1/2 left and right turns, 7 the composite turn sign (back to untwisted), 3–6
//! somersault forward/backward and cartwheel left/right (named by Laban-tk's LED glyph table,
//! `docs/lbnfileformat.md`; not animated, a warning names the sign); `Keys` 16/17 the dots and bar
//! of a repeat mark. Bar lines with level `L` are double bars: the first one is beat 0 and
//! everything below it is the starting position. Staves are found from their three lines, not from
//! LED's item numbers ([`crate::score`]).

use super::document::{
    BodyPart, Direction, Document, Format, KeptLine, Level, PageSymbol, PathSign, Side, SymbolKind, TurnSign,
    VolumeSign,
};
use crate::diag::{Diagnostic, Diagnostics, Severity, Span};
use nom::bytes::complete::{tag, take_till, take_while_m_n};
use nom::character::complete::{digit1, one_of, space0, space1};
use nom::combinator::{opt, recognize};
use nom::sequence::pair;
use nom::{IResult, Parser};

/// The twelve symbol groups of the format.
pub const GROUPS: [&str; 12] =
    ["Bars", "Stav", "Dirn", "Limb", "Area", "Volm", "Ways", "Face", "Misc", "Pins", "Rotn", "Keys"];

/// One line as written, before its group and item are interpreted.
#[derive(Clone, Debug, PartialEq)]
pub struct LbnLine {
    /// Group name (`Dirn`).
    pub group: String,
    /// Item number within the group.
    pub item: i32,
    /// Left edge.
    pub x: i32,
    /// Bottom edge; y grows with time.
    pub y: i32,
    /// LED's size step.
    pub step: i32,
    /// Width.
    pub width: i32,
    /// Height.
    pub height: i32,
    /// Level letter.
    pub level: Level,
    /// Text (Keys only), trimmed; empty when absent.
    pub text: String,
}

type Res<'a, T> = IResult<&'a [u8], T>;

fn int(input: &[u8]) -> Res<'_, i32> {
    let (rest, digits) = recognize(pair(opt(one_of("+-")), digit1)).parse(input)?;
    let text = std::str::from_utf8(digits).unwrap_or("0");
    match text.parse::<i32>() {
        Ok(v) => Ok((rest, v)),
        Err(_) => Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Digit))),
    }
}

fn level(input: &[u8]) -> Res<'_, Level> {
    let (rest, c) = one_of("LMHB").parse(input)?;
    let lvl = match c {
        'L' => Level::Low,
        'M' => Level::Middle,
        'H' => Level::High,
        _ => Level::Blank,
    };
    Ok((rest, lvl))
}

fn group(input: &[u8]) -> Res<'_, &[u8]> {
    take_while_m_n(4, 4, |c: u8| c.is_ascii_alphabetic()).parse(input)
}

/// Runs `parser` after optional blanks; on failure reports `what` at the failing column.
fn field<'a, T>(
    line: &'a [u8],
    input: &'a [u8],
    what: &str,
    parser: impl Fn(&'a [u8]) -> Res<'a, T>,
) -> Result<(&'a [u8], T), (usize, String)> {
    let (input, _) = space0::<_, nom::error::Error<&[u8]>>(input).map_err(|_| (0, String::new()))?;
    match parser(input) {
        Ok(ok) => Ok(ok),
        Err(_) => {
            let col = line.len() - input.len();
            let found = match input.first() {
                None => "end of line".to_string(),
                Some(b) if b.is_ascii_graphic() => {
                    let end = input.iter().position(|c| c.is_ascii_whitespace()).unwrap_or(input.len());
                    format!("`{}`", String::from_utf8_lossy(&input[..end.min(24)]))
                }
                Some(b) => format!("byte 0x{b:02X}"),
            };
            Err((col, format!("expected {what}, found {found}")))
        }
    }
}

/// Parses one non-comment line into its fields; on failure returns (column offset, message).
pub fn parse_line(line: &[u8]) -> Result<LbnLine, (usize, String)> {
    let (rest, g) = field(line, line, "a group name (Bars, Stav, Dirn, …)", group)?;
    let g = String::from_utf8_lossy(g).into_owned();
    if !GROUPS.contains(&g.as_str()) {
        return Err((0, format!("unknown group `{g}`")));
    }
    let (rest, item) = field(line, rest, "the item number (integer)", int)?;
    let (rest, x) = field(line, rest, "x (integer)", int)?;
    let (rest, y) = field(line, rest, "y (integer)", int)?;
    let (rest, step) = field(line, rest, "the step size (integer)", int)?;
    let (rest, width) = field(line, rest, "the width (integer)", int)?;
    let (rest, height) = field(line, rest, "the height (integer)", int)?;
    let (rest, lvl) = field(line, rest, "a level letter L, M, H or B", level)?;
    // The level letter must stand alone.
    if let Some(&b) = rest.first()
        && !b.is_ascii_whitespace()
        && b != b'#'
    {
        let col = line.len() - rest.len();
        return Err((col, "expected a blank after the level letter".to_string()));
    }
    let (rest, text) = take_till::<_, _, nom::error::Error<&[u8]>>(|c| c == b'#')
        .parse(rest)
        .map_err(|_| (line.len() - rest.len(), "unreadable text".to_string()))?;
    if let Some(pos) = text.iter().position(|&c| c.is_ascii_control() && c != b'\t') {
        let col = line.len() - rest.len() - text.len() + pos;
        return Err((col, format!("unexpected control byte 0x{:02X} in text", text[pos])));
    }
    // Trailer: `# <line>` and optionally `# bar <n>`; accepted loosely, never required.
    if let Ok((after, _)) = tag::<_, _, nom::error::Error<&[u8]>>("#").parse(rest) {
        let _ = space1::<_, nom::error::Error<&[u8]>>(after);
    }
    Ok(LbnLine {
        group: g,
        item,
        x,
        y,
        step,
        width,
        height,
        level: lvl,
        text: String::from_utf8_lossy(text).trim().to_string(),
    })
}

fn side_of(item: i32, left_first: i32) -> Side {
    if item < left_first + 5 { Side::Left } else { Side::Right }
}

/// Interprets group + item; `None` when the item number is not known for the group.
pub fn kind_of(line: &LbnLine) -> Option<SymbolKind> {
    let item = line.item;
    Some(match line.group.as_str() {
        "Bars" => SymbolKind::BarLine,
        "Stav" => SymbolKind::StaffLine { centre_hint: line.level == Level::Low },
        "Dirn" => {
            let (direction, left_form) = match item {
                1 => (Direction::Forward, false),
                2 => (Direction::RightForward, false),
                3 => (Direction::Right, false),
                4 => (Direction::RightBackward, false),
                5 => (Direction::Backward, false),
                6 => (Direction::Backward, true),
                7 => (Direction::LeftBackward, false),
                8 => (Direction::Left, false),
                9 => (Direction::LeftForward, false),
                10 => (Direction::Forward, true),
                11 => (Direction::Place, false),
                _ => return None,
            };
            SymbolKind::Direction { direction, left_form }
        }
        "Limb" => SymbolKind::BodyPart(match item {
            1 | 6 => BodyPart::Shoulder(side_of(item, 1)),
            2 | 7 => BodyPart::Elbow(side_of(item, 1)),
            3 | 8 => BodyPart::Wrist(side_of(item, 1)),
            4 | 5 | 9 | 10 => BodyPart::Hand(side_of(item, 1)),
            11 | 16 => BodyPart::Hip(side_of(item, 11)),
            12 | 17 => BodyPart::Knee(side_of(item, 11)),
            13 | 18 => BodyPart::Ankle(side_of(item, 11)),
            14 | 19 => BodyPart::Foot(side_of(item, 11)),
            15 | 20 => BodyPart::Toe(side_of(item, 11)),
            21 | 22 => BodyPart::Palm,
            _ => return None,
        }),
        "Area" => match item {
            9 => SymbolKind::BodyPart(BodyPart::Chest),
            1..=8 => SymbolKind::Area(item),
            _ => return None,
        },
        "Volm" => SymbolKind::Volume(match item {
            1 => VolumeSign::Relaxed,
            2 => VolumeSign::Straight,
            3 => VolumeSign::Bent,
            4 => VolumeSign::Stretched,
            7 => VolumeSign::Hold,
            5 | 6 => VolumeSign::Other(item),
            _ => return None,
        }),
        // LED draws Ways 1..7 as ⊥, ⊤, a plain line, V, Λ and two vertical bows: none is a
        // circular-path sign, and LINTEL ignores the whole group (led.c `setsymbol`, lintel `laction`).
        "Ways" if (1..=7).contains(&item) => SymbolKind::Path(PathSign::Other(item)),
        "Face" if (1..=8).contains(&item) => SymbolKind::Front((item - 1) as u8),
        "Misc" if (0..=9).contains(&item) => SymbolKind::Misc(item),
        "Pins" if (1..=8).contains(&item) => {
            SymbolKind::Pin { orientation: item as u8, black: line.level != Level::High }
        }
        "Rotn" => SymbolKind::Turn(match item {
            1 => TurnSign::Left,
            2 => TurnSign::Right,
            // LED draws 7 as the right and left turn signs over each other (both ends notched).
            7 => TurnSign::Composite,
            3..=8 => TurnSign::Other(item),
            _ => return None,
        }),
        "Keys" => SymbolKind::Text(line.text.clone()),
        _ => return None,
    })
}

/// Splits `bytes` into lines (LF, CR or CRLF) with their byte offsets.
fn lines(bytes: &[u8]) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        if bytes[i] == b'\n' || bytes[i] == b'\r' {
            out.push((start, &bytes[start..i]));
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    if start < bytes.len() {
        out.push((start, &bytes[start..]));
    }
    out
}

/// Reads as much as possible: the document plus every diagnostic (errors included).
pub fn read_lenient(bytes: &[u8]) -> (Document, Vec<Diagnostic>) {
    let mut doc = Document::new(Format::Lbn);
    let mut diags = Vec::new();
    let mut seen_symbol = false;
    for (line_no, (offset, line)) in lines(bytes).into_iter().enumerate() {
        let line_no = line_no as u32 + 1;
        let trimmed_start = line.iter().position(|c| !c.is_ascii_whitespace());
        let Some(first) = trimmed_start else { continue };
        let body = &line[first..];
        let keep = |doc: &mut Document| {
            let text = String::from_utf8_lossy(line).into_owned();
            doc.kept_lines.push(KeptLine { before_symbol: doc.symbols.len(), text });
        };
        if body.starts_with(b"#") {
            keep(&mut doc);
            if !seen_symbol {
                let text = String::from_utf8_lossy(&body[1..]).trim().to_string();
                if !text.is_empty() {
                    if doc.title.is_none() {
                        doc.title = Some(text.clone());
                    }
                    doc.comments.push(text);
                }
            }
            continue;
        }
        let span_at = |col: usize| Span { line: line_no, col: col as u32 + 1, offset: offset + col };
        if body.starts_with(b"<<<<<<<") || body.starts_with(b"=======") || body.starts_with(b">>>>>>>") {
            diags.push(
                Diagnostic::error(span_at(first), "git merge-conflict marker in the score")
                    .with_help("resolve the conflict (keep one side) and delete the marker lines"),
            );
            continue;
        }
        match parse_line(line) {
            Ok(parsed) => {
                seen_symbol = true;
                let span = span_at(first);
                let Some(kind) = kind_of(&parsed) else {
                    diags.push(Diagnostic::warning(
                        span,
                        format!("unknown item {} in group {}; symbol skipped", parsed.item, parsed.group),
                    ));
                    keep(&mut doc);
                    continue;
                };
                if parsed.width < 0 || parsed.height < 0 {
                    diags.push(Diagnostic::warning(span, "negative width or height; symbol skipped"));
                    keep(&mut doc);
                    continue;
                }
                doc.symbols.push(PageSymbol {
                    kind,
                    code: format!("{} {}", parsed.group, parsed.item),
                    x: parsed.x as f32,
                    y: parsed.y as f32,
                    w: parsed.width as f32,
                    h: parsed.height as f32,
                    level: parsed.level,
                    lbn_step: Some(parsed.step),
                    span,
                });
            }
            Err((col, message)) => {
                diags.push(Diagnostic::error(span_at(col), message).with_help(
                    "an .lbn line is `<Group> <item> <x> <y> <step> <width> <height> <L|M|H|B> [text] # <n>`",
                ));
            }
        }
    }
    if doc.symbols.is_empty() && !diags.iter().any(|d| d.severity == Severity::Error) {
        diags.push(Diagnostic::error(Span::of_offset(bytes, bytes.len()), "no symbols in the file"));
    }
    (doc, diags)
}

/// Reads an `.lbn` file: the document with its warnings, or every error found.
pub fn read(bytes: &[u8]) -> Result<Document, Diagnostics> {
    let (mut doc, diags) = read_lenient(bytes);
    if diags.iter().any(|d| d.severity == Severity::Error) {
        return Err(Diagnostics(diags));
    }
    doc.warnings = diags;
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_direction_line() {
        let l = parse_line(b"Dirn  11 134   70   4  10   23 M   # 33").unwrap();
        assert_eq!((l.group.as_str(), l.item, l.x, l.y, l.width, l.height), ("Dirn", 11, 134, 70, 10, 23));
        assert_eq!(l.level, Level::Middle);
        assert_eq!(kind_of(&l), Some(SymbolKind::Direction { direction: Direction::Place, left_form: false }));
    }

    #[test]
    fn keeps_keys_text_and_bar_trailers() {
        let l = parse_line(b"Keys   0  65    3   2  50   15 L Barn_Dance # 1").unwrap();
        assert_eq!(l.text, "Barn_Dance");
        let b = parse_line(b"Bars   1  30   96   1 464    3 L   # 47 # bar 1").unwrap();
        assert_eq!((b.item, b.level), (1, Level::Low));
    }

    #[test]
    fn nul_level_is_an_error_at_its_column() {
        let src = b"Stav 1 133 48 1 1 602 L # 1\nKeys   0 283   39   2  75   75 \0  # 3\n";
        let err = read(src).unwrap_err();
        assert_eq!(err.0.len(), 1);
        assert_eq!(err.0[0].span.line, 2);
        assert_eq!(err.0[0].span.col, 32);
        assert!(err.0[0].message.contains("level letter"), "{}", err.0[0].message);
    }

    #[test]
    fn merge_markers_are_errors_and_reading_goes_on() {
        let src = b"<<<<<<< HEAD\nStav 1 133 48 1 1 602 L # 1\n=======\nDirn 11 134 70 4 10 23 M\n>>>>>>> abc\n";
        let (doc, diags) = read_lenient(src);
        assert_eq!(doc.symbols.len(), 2);
        let lines: Vec<u32> = diags.iter().map(|d| d.span.line).collect();
        assert_eq!(lines, vec![1, 3, 5]);
    }

    #[test]
    fn crlf_and_cr_line_endings() {
        let src = b"# title\r\nStav 1 133 48 1 1 602 L # 1\rDirn 11 134 70 4 10 23 M # 2\r\n";
        let doc = read(src).unwrap();
        assert_eq!(doc.title.as_deref(), Some("title"));
        assert_eq!(doc.symbols.len(), 2);
        assert_eq!(doc.symbols[1].span.line, 3);
    }

    #[test]
    fn unknown_group_and_short_line() {
        let err = read(b"Dirn 11 134\nFoo 1 2 3 4 5 6 M\n").unwrap_err();
        assert_eq!(err.0.len(), 2);
        assert!(err.0[0].message.contains("expected y"), "{}", err.0[0].message);
        assert_eq!(err.0[0].span.col, 12);
        assert!(err.0[1].message.contains("group"), "{}", err.0[1].message);
    }
}
