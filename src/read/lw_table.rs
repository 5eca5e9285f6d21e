//! The one data-driven table of `.lw` record layouts: class → fields → [`SymbolKind`], each with
//! its evidence. The class names are SEEN (S1); every field order below is INFERRED (no real LW4
//! file or field table could be found), so only exact matches are decoded.
//!
//! The rows: `Staff x y w h` (three staff lines, the centre midway), `Measure x y w h` (a bar
//! line), `Direction x y w h dir level` (dir 1–11 as LED's `Dirn` numbering, level `L|M|H|B`),
//! `Turn x y w h L|R`, `Path x y w h S|R|L` (straight, circular clockwise, circular
//! counter-clockwise; a pin inside gives the circle's fraction), `Pin x y 1–8 B|W`, `Text x y
//! text…`. Real files may use numeric record codes: the `aliases` column takes them.
//!
//! Sources: S1, "LabanWriter 4 file format" (OSU, 2003), only its opening section; S2, the
//! LabanWriter 4.7.2 distribution's help text. See `docs/lw4-format.md`.

use super::document::{Direction, Level, PageSymbol, PathSign, SymbolKind, TurnSign};
use super::lw::RawRecord;
use crate::diag::Span;

/// The type a token must have to fill a field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldType {
    /// A decimal integer.
    Int,
    /// A decimal integer in `min..=max`.
    IntIn {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A finite number with magnitude at most [`COORD_LIMIT`] (a page coordinate).
    Float,
    /// Like `Float`, but not negative (a width or height).
    Size,
    /// Any token.
    Word,
    /// One of these words, matched case-insensitively.
    Choice(&'static [&'static str]),
    /// All remaining tokens (at least one), joined by single spaces. Only last in a row.
    TextRest,
}

impl FieldType {
    /// What the type expects, for messages.
    pub fn describe(self) -> String {
        match self {
            FieldType::Int => "an integer".into(),
            FieldType::IntIn { min, max } => format!("an integer in {min}..={max}"),
            FieldType::Float => "a number".into(),
            FieldType::Size => "a number ≥ 0".into(),
            FieldType::Word => "a word".into(),
            FieldType::Choice(words) => format!("one of {}", words.join(", ")),
            FieldType::TextRest => "text".into(),
        }
    }
}

/// One field of a record layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    /// Short name, used by the emit rules (`x`, `y`, `w`, `h`, `dir`, `level`, …).
    pub name: &'static str,
    /// Token type.
    pub ty: FieldType,
    /// What it means.
    pub meaning: &'static str,
    /// Why we think so.
    pub evidence: &'static str,
}

/// How a decoded row becomes page symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// Three vertical [`SymbolKind::StaffLine`]s at x, x + w/2 (centre) and x + w.
    StaffLines,
    /// One [`SymbolKind::BarLine`].
    BarLine,
    /// A [`SymbolKind::Direction`] from field `dir` (see [`DIRECTION_CODES`]) and `level`.
    Direction,
    /// A [`SymbolKind::Turn`] from field `side` (`L` / `R`).
    Turn,
    /// A [`SymbolKind::Pin`] from fields `orientation` and `colour` (`B` / `W`).
    Pin,
    /// A [`SymbolKind::Path`] from field `sense` (`S` straight, `R` clockwise, `L` counter-clockwise).
    Path,
    /// A [`SymbolKind::Text`] from field `text`.
    Text,
}

/// One record class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassRow {
    /// The class name as the record head (matched case-insensitively).
    pub class: &'static str,
    /// Other heads meaning the same class (e.g. numeric class codes once they are known).
    pub aliases: &'static [&'static str],
    /// The fields after the head, in order.
    pub fields: &'static [Field],
    /// How it becomes page symbols.
    pub emit: Emit,
    /// What the class is.
    pub meaning: &'static str,
    /// Why we think so.
    pub evidence: &'static str,
}

/// Largest page coordinate magnitude accepted, so no sum of two coordinates overflows.
pub const COORD_LIMIT: f32 = 1.0e7;

/// The LW y axis. INFERRED: LabanWriter is a Macintosh program [S2: "cmd-R"], and QuickDraw
/// page coordinates grow downward with (x, y) the top-left corner; time runs up the page.
/// [`PageSymbol`] y grows upward, so a box (x, y, w, h) becomes bottom edge `-(y + h)`.
pub const Y_AXIS_EVIDENCE: &str =
    "INFERRED: LW y grows down the page (Mac QuickDraw), (x, y) = top-left; converted to y-up as bottom = -(y + h)";

/// A symbol's bottom edge in y-up page units from its LW top edge and height.
pub fn y_up_from_lw(y_lw: f32, h: f32) -> f32 {
    -(y_lw + h)
}

const GEOMETRY_EVIDENCE: &str =
    "INFERRED: S1 says symbols are 'a series of numbers'; a position and size is the least any drawn symbol needs";

const X: Field =
    Field { name: "x", ty: FieldType::Float, meaning: "left edge, page units", evidence: GEOMETRY_EVIDENCE };
const Y: Field =
    Field { name: "y", ty: FieldType::Float, meaning: "top edge, page units, y down", evidence: Y_AXIS_EVIDENCE };
const W: Field = Field { name: "w", ty: FieldType::Size, meaning: "width, page units", evidence: GEOMETRY_EVIDENCE };
const H: Field = Field {
    name: "h",
    ty: FieldType::Size,
    meaning: "height, page units (the duration of a stretch symbol)",
    evidence: "INFERRED: S1 says stretch symbols are drawn from their characteristics, so their length must be stored",
};

/// Direction codes (field `dir` of `Direction`): code, direction, left-side form.
/// INFERRED placeholder: LW's own codes are UNKNOWN; this borrows the LED `.lbn` `Dirn 1..11`
/// numbering (SEEN in Laban-tk `docs/lbnfileformat.md`) so the two readers agree.
pub const DIRECTION_CODES: [(i64, Direction, bool); 11] = [
    (1, Direction::Forward, false),
    (2, Direction::RightForward, false),
    (3, Direction::Right, false),
    (4, Direction::RightBackward, false),
    (5, Direction::Backward, false),
    (6, Direction::Backward, true),
    (7, Direction::LeftBackward, false),
    (8, Direction::Left, false),
    (9, Direction::LeftForward, false),
    (10, Direction::Forward, true),
    (11, Direction::Place, false),
];

const CLASS_SEEN: &str = "SEEN: class name in the LW4 class list [S1]; INFERRED: the name is the record head (S1 says records are 'numbers and text'; real files may use a numeric class code — add it to `aliases`)";

/// The table. Order does not matter; heads are unique case-insensitively.
pub const TABLE: &[ClassRow] = &[
    ClassRow {
        class: "Staff",
        aliases: &[],
        fields: &[X, Y, W, H],
        emit: Emit::StaffLines,
        meaning: "a three-line staff: outer lines at x and x + w, centre line midway",
        evidence: CLASS_SEEN,
    },
    ClassRow {
        class: "Measure",
        aliases: &[],
        fields: &[X, Y, W, H],
        emit: Emit::BarLine,
        meaning: "a bar line across the staff (a ScoreArea [S1])",
        evidence: CLASS_SEEN,
    },
    ClassRow {
        class: "Direction",
        aliases: &[],
        fields: &[
            X,
            Y,
            W,
            H,
            Field {
                name: "dir",
                ty: FieldType::IntIn { min: 1, max: 11 },
                meaning: "direction code, see DIRECTION_CODES",
                evidence: "INFERRED: S1's prose names a class of stretch symbols that 'take level'; code numbering UNKNOWN (LED's borrowed)",
            },
            Field {
                name: "level",
                ty: FieldType::Choice(&["L", "M", "H", "B"]),
                meaning: "level: low, middle, high, blank",
                evidence: "INFERRED: letters borrowed from LED `.lbn`; LW's level encoding is UNKNOWN",
            },
        ],
        emit: Emit::Direction,
        meaning: "a direction sign; its column (body part) comes from x against the staff",
        evidence: CLASS_SEEN,
    },
    ClassRow {
        class: "Turn",
        aliases: &[],
        fields: &[
            X,
            Y,
            W,
            H,
            Field {
                name: "side",
                ty: FieldType::Choice(&["L", "R"]),
                meaning: "L = counter-clockwise, R = clockwise",
                evidence: "INFERRED: LW's turn encoding is UNKNOWN",
            },
        ],
        emit: Emit::Turn,
        meaning: "a turn sign (a stretch symbol [S1])",
        evidence: CLASS_SEEN,
    },
    ClassRow {
        class: "Path",
        aliases: &[],
        fields: &[
            X,
            Y,
            W,
            H,
            Field {
                name: "sense",
                ty: FieldType::Choice(&["S", "R", "L"]),
                meaning: "S = straight, R = circular clockwise, L = circular counter-clockwise",
                evidence: "INFERRED: LW's path encoding is UNKNOWN; letters follow the Turn row",
            },
        ],
        emit: Emit::Path,
        meaning: "a path sign beside the staff (a stretch symbol [S1]); a pin inside gives the circle's fraction",
        evidence: CLASS_SEEN,
    },
    ClassRow {
        class: "Pin",
        aliases: &[],
        fields: &[
            X,
            Y,
            Field {
                name: "orientation",
                ty: FieldType::IntIn { min: 1, max: 8 },
                meaning: "1..=8, clockwise from pointing up the page",
                evidence: "INFERRED: S1 groups pins with rotating symbols; eight orientations as LED `Pins 1..8`",
            },
            Field {
                name: "colour",
                ty: FieldType::Choice(&["B", "W"]),
                meaning: "B = black (filled), W = white",
                evidence: "INFERRED: LW's pin encoding is UNKNOWN",
            },
        ],
        emit: Emit::Pin,
        meaning: "a pin (non-stretch, drawn from the LW font [S1]); no size stored",
        evidence: CLASS_SEEN,
    },
    ClassRow {
        class: "Text",
        aliases: &[],
        fields: &[
            X,
            Y,
            Field {
                name: "text",
                ty: FieldType::TextRest,
                meaning: "the text, to the record's `;`",
                evidence: "INFERRED: S1 says records hold 'numbers and text'; quoting and escaping are UNKNOWN",
            },
        ],
        emit: Emit::Text,
        meaning: "text written on the page",
        evidence: CLASS_SEEN,
    },
];

/// The row whose class or alias equals `head`, ignoring ASCII case.
pub fn row_for(head: &str) -> Option<&'static ClassRow> {
    TABLE
        .iter()
        .find(|row| row.class.eq_ignore_ascii_case(head) || row.aliases.iter().any(|a| a.eq_ignore_ascii_case(head)))
}

/// A field value that matched its type.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `Int`, `IntIn`.
    Int(i64),
    /// `Float`, `Size`.
    Float(f32),
    /// `Word`, `Choice` (spelled as in the table).
    Word(String),
    /// `TextRest`.
    Text(String),
}

/// Why a record was not decoded, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct NotDecoded {
    /// One clause, e.g. "no table entry".
    pub reason: String,
    /// The record head, or the token that did not match.
    pub span: Span,
}

fn parse_value(ty: FieldType, text: &str) -> Option<Value> {
    match ty {
        FieldType::Int => text.parse().ok().map(Value::Int),
        FieldType::IntIn { min, max } => text.parse().ok().filter(|v| (min..=max).contains(v)).map(Value::Int),
        FieldType::Float | FieldType::Size => {
            let min = if ty == FieldType::Size { 0.0 } else { -COORD_LIMIT };
            let v: f32 = text.parse().ok()?;
            (v.is_finite() && (min..=COORD_LIMIT).contains(&v)).then_some(Value::Float(v))
        }
        FieldType::Word => Some(Value::Word(text.to_string())),
        FieldType::Choice(words) => {
            words.iter().find(|w| w.eq_ignore_ascii_case(text)).map(|w| Value::Word((*w).to_string()))
        }
        FieldType::TextRest => Some(Value::Text(text.to_string())),
    }
}

/// Matches `record`'s tokens after the head against `row`: exact count (or at least one text
/// token for a `TextRest` row) and every type.
pub fn match_fields(row: &ClassRow, record: &RawRecord) -> Result<Vec<(&'static str, Value)>, NotDecoded> {
    let args = record.tokens.get(1..).unwrap_or_default();
    let has_rest = row.fields.last().is_some_and(|f| f.ty == FieldType::TextRest);
    let count_ok = if has_rest { args.len() >= row.fields.len() } else { args.len() == row.fields.len() };
    if !count_ok {
        let names: Vec<&str> = row.fields.iter().map(|f| f.name).collect();
        let (at_least, rest_mark) = if has_rest { ("at least ", "…") } else { ("", "") };
        return Err(NotDecoded {
            reason: format!(
                "{} expects {at_least}{} tokens (`{} {}{rest_mark}`), found {}",
                row.class,
                row.fields.len() + 1,
                row.class,
                names.join(" "),
                record.tokens.len()
            ),
            span: record.span(),
        });
    }
    let mut values = Vec::with_capacity(row.fields.len());
    for (i, field) in row.fields.iter().enumerate() {
        let Some(token) = args.get(i) else { break };
        let text: std::borrow::Cow<'_, str> = if field.ty == FieldType::TextRest {
            args.get(i..).unwrap_or_default().iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ").into()
        } else {
            token.text.as_str().into()
        };
        let Some(v) = parse_value(field.ty, &text) else {
            return Err(NotDecoded {
                reason: format!(
                    "field `{}` (token {}) expects {}, found `{}`",
                    field.name,
                    i + 2,
                    field.ty.describe(),
                    token.text
                ),
                span: token.span,
            });
        };
        values.push((field.name, v));
    }
    Ok(values)
}

/// Named values of one matched record.
struct Values(Vec<(&'static str, Value)>);

impl Values {
    fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
    fn float(&self, name: &str) -> f32 {
        match self.get(name) {
            Some(Value::Float(v)) => *v,
            _ => 0.0,
        }
    }
    fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Some(Value::Int(v)) => *v,
            _ => 0,
        }
    }
    fn word(&self, name: &str) -> &str {
        match self.get(name) {
            Some(Value::Word(w) | Value::Text(w)) => w,
            _ => "",
        }
    }
}

/// Decodes one record through the table into page symbols (three for a staff, else one).
pub fn decode(record: &RawRecord) -> Result<Vec<PageSymbol>, NotDecoded> {
    let Some(row) = row_for(record.head()) else {
        return Err(NotDecoded { reason: "no table entry".into(), span: record.span() });
    };
    let v = Values(match_fields(row, record)?);
    let (x, w, h) = (v.float("x"), v.float("w"), v.float("h"));
    let y = y_up_from_lw(v.float("y"), h);
    let symbol = |kind: SymbolKind, x: f32, w: f32, level: Level| PageSymbol {
        kind,
        code: format!("lw:{}", row.class),
        x,
        y,
        w,
        h,
        level,
        lbn_step: None,
        span: record.span(),
    };
    let level = match v.word("level") {
        "L" => Level::Low,
        "M" => Level::Middle,
        "H" => Level::High,
        _ => Level::Blank,
    };
    let one = |kind| Ok(vec![symbol(kind, x, w, level)]);
    match row.emit {
        Emit::StaffLines => Ok([(x, false), (x + w * 0.5, true), (x + w, false)]
            .into_iter()
            .map(|(line_x, centre_hint)| symbol(SymbolKind::StaffLine { centre_hint }, line_x, 0.0, Level::Blank))
            .collect()),
        Emit::BarLine => one(SymbolKind::BarLine),
        Emit::Direction => {
            let code = v.int("dir");
            let Some(&(_, direction, left_form)) = DIRECTION_CODES.iter().find(|(c, _, _)| *c == code) else {
                return Err(NotDecoded { reason: format!("direction code {code} has no entry"), span: record.span() });
            };
            one(SymbolKind::Direction { direction, left_form })
        }
        Emit::Turn => one(SymbolKind::Turn(if v.word("side").eq_ignore_ascii_case("L") {
            TurnSign::Left
        } else {
            TurnSign::Right
        })),
        Emit::Path => one(SymbolKind::Path(match v.word("sense").to_ascii_uppercase().as_str() {
            "R" => PathSign::Circular { clockwise: true },
            "L" => PathSign::Circular { clockwise: false },
            _ => PathSign::Straight,
        })),
        Emit::Pin => {
            let orientation = u8::try_from(v.int("orientation")).unwrap_or(1);
            one(SymbolKind::Pin { orientation, black: v.word("colour").eq_ignore_ascii_case("B") })
        }
        Emit::Text => one(SymbolKind::Text(v.word("text").to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for (i, row) in TABLE.iter().enumerate() {
            assert!(row.evidence.starts_with("SEEN") || row.evidence.starts_with("INFERRED"), "{}", row.class);
            assert_eq!(row_for(&row.class.to_ascii_uppercase()).map(|r| r.class), Some(row.class));
            for other in TABLE.iter().skip(i + 1) {
                assert!(!other.class.eq_ignore_ascii_case(row.class), "duplicate {}", row.class);
            }
            for (j, field) in row.fields.iter().enumerate() {
                assert!(field.evidence.starts_with("INFERRED") || field.evidence.starts_with("SEEN"));
                if field.ty == FieldType::TextRest {
                    assert_eq!(j + 1, row.fields.len(), "{}: text-rest must be last", row.class);
                }
            }
            let names: Vec<&str> = row.fields.iter().map(|f| f.name).collect();
            let needs: &[&str] = match row.emit {
                Emit::StaffLines | Emit::BarLine => &["x", "y", "w", "h"],
                Emit::Direction => &["x", "y", "w", "h", "dir", "level"],
                Emit::Turn => &["x", "y", "w", "h", "side"],
                Emit::Path => &["x", "y", "w", "h", "sense"],
                Emit::Pin => &["x", "y", "orientation", "colour"],
                Emit::Text => &["x", "y", "text"],
            };
            assert!(needs.iter().all(|n| names.contains(n)), "{} lacks fields for {:?}", row.class, row.emit);
        }
    }

    #[test]
    fn direction_codes_cover_every_direction() {
        for d in Direction::ALL {
            assert!(DIRECTION_CODES.iter().any(|(_, dir, _)| *dir == d), "{d:?}");
        }
        let dir_field =
            TABLE.iter().find(|r| r.class == "Direction").and_then(|r| r.fields.iter().find(|f| f.name == "dir"));
        let Some(Field { ty: FieldType::IntIn { min, max }, .. }) = dir_field else { panic!("dir field") };
        assert!((*min..=*max).all(|c| DIRECTION_CODES.iter().any(|(code, _, _)| *code == c)));
    }

    #[test]
    fn values_reject_non_finite_and_out_of_range() {
        assert_eq!(parse_value(FieldType::Float, "NaN"), None);
        assert_eq!(parse_value(FieldType::Float, "inf"), None);
        assert_eq!(parse_value(FieldType::Float, "2e7"), None);
        assert_eq!(parse_value(FieldType::Size, "-1"), None);
        assert_eq!(parse_value(FieldType::Float, "-12.5"), Some(Value::Float(-12.5)));
        assert_eq!(parse_value(FieldType::IntIn { min: 1, max: 8 }, "9"), None);
        assert_eq!(parse_value(FieldType::Choice(&["L", "R"]), "r"), Some(Value::Word("R".into())));
    }
}
