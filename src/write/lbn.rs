//! The `.lbn` writer: one line per symbol, `<Group> <item> <x> <y> <step> <width> <height>
//! <level> [<text>]  # <n>`, in the document's order, LED's columns aligned.
//!
//! A symbol read from `.lbn` keeps its group and item (several items can mean the same sign);
//! any other symbol gets the item [`crate::read::lbn::kind_of`] reads back as its kind. The
//! level letter is the one written, except where the format spells the kind with it (a centre
//! staff line is `L`, a white pin `H`). Coordinates are LED's integer units (rounded); the size
//! step is the one read, or one derived from the height. The header comments are the kept ones
//! when they still give the document's title and comments, else `# <title>` and `# <comment>`
//! lines. Kept lines (comments, unknown items) go back before the symbol they preceded.

use crate::diag::Diagnostic;
use crate::read::lbn::{GROUPS, LbnLine, kind_of};
use crate::read::{BodyPart, Document, Level, PageSymbol, PathSign, Side, SymbolKind, TurnSign, VolumeSign};

/// A written score: its text, and what the format could not say.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// The file's text.
    pub text: String,
    /// One warning per thing left out or changed, at its place in the source file.
    pub warnings: Vec<Diagnostic>,
    /// For each symbol line written, in order, the index of its symbol in the document (those
    /// missing were left out, each with its warning).
    pub written_of: Vec<usize>,
}

/// Writes `doc`'s symbols as an `.lbn` file (a keyframe document has none: lay it out first).
pub fn write_lbn(doc: &Document) -> Written {
    let mut text = String::new();
    let mut warnings = Vec::new();
    let (header, header_kept) = header_lines(doc);
    for line in header {
        push_line(&mut text, &line);
    }
    let mut kept = doc.kept_lines.iter().skip(header_kept).peekable();
    let mut counters = Counters::default();
    let mut written_of = Vec::new();
    for (index, sym) in doc.symbols.iter().enumerate() {
        while let Some(k) = kept.next_if(|k| k.before_symbol <= index) {
            push_line(&mut text, &k.text);
        }
        match symbol_line(sym, &mut counters) {
            Ok((line, warning)) => {
                push_line(&mut text, &line);
                written_of.push(index);
                warnings.extend(warning);
            }
            Err(why) => warnings.push(Diagnostic::warning(sym.span, format!("`{}` left out: {why}", sym.code))),
        }
    }
    for k in kept {
        push_line(&mut text, &k.text);
    }
    Written { text, warnings, written_of }
}

fn push_line(text: &mut String, line: &str) {
    text.push_str(line);
    text.push('\n');
}

/// The header: (its lines, how many leading kept lines it stands for).
fn header_lines(doc: &Document) -> (Vec<String>, usize) {
    let run = doc.kept_lines.iter().take_while(|k| k.before_symbol == 0 && k.is_comment()).count();
    let kept = &doc.kept_lines[..run];
    let said: Vec<String> = kept.iter().map(|k| comment_text(&k.text)).filter(|t| !t.is_empty()).collect();
    if said == doc.comments && doc.title.as_ref() == doc.comments.first() {
        return (kept.iter().map(|k| k.text.clone()).collect(), run);
    }
    let mut lines = Vec::new();
    if let Some(title) = &doc.title
        && doc.comments.first() != Some(title)
    {
        lines.push(format!("# {}", one_line(title)));
    }
    lines.extend(doc.comments.iter().map(|c| format!("# {}", one_line(c))));
    (lines, run)
}

/// What the reader makes of a comment line: the text after `#`, trimmed.
fn comment_text(line: &str) -> String {
    line.trim_start().strip_prefix('#').unwrap_or(line).trim().to_string()
}

/// `text` on one line: control characters become blanks.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().trim().to_string()
}

/// Running numbers: bar lines (their item when it is not kept) and symbol lines (the `# n`
/// trailer LED writes).
#[derive(Default)]
struct Counters {
    bars: i32,
    lines: usize,
}

/// One symbol's line and the warning it needs (text changed to fit the format), or why it
/// cannot be written.
fn symbol_line(sym: &PageSymbol, counters: &mut Counters) -> Result<(String, Option<Diagnostic>), String> {
    let (group, mut item, level) = lbn_code(sym)?;
    if group == "Bars" && !sym.code.starts_with("Bars") {
        item = counters.bars;
    }
    if group == "Bars" {
        counters.bars += 1;
    }
    let [x, y, w, h] = [sym.x, sym.y, sym.w, sym.h].map(led_units);
    let (Some(x), Some(y), Some(w), Some(h)) = (x, y, w, h) else {
        return Err(format!(
            "its position x={} y={} w={} h={} is not a number of page units",
            sym.x, sym.y, sym.w, sym.h
        ));
    };
    let step = sym.lbn_step.unwrap_or_else(|| derived_step(group, h));
    let (text, warning) = match &sym.kind {
        SymbolKind::Text(t) => {
            let written = keys_text(t);
            let warning = (written != t.trim()).then(|| {
                Diagnostic::warning(
                    sym.span,
                    format!("text `{t}` written as `{written}` (`.lbn` text is one line without `#`)"),
                )
            });
            (written, warning)
        }
        _ => (String::new(), None),
    };
    counters.lines += 1;
    let (letter, n) = (level.letter(), counters.lines);
    let line = format!("{group} {item:>3} {x:>3} {y:>4} {step:>3} {w:>3} {h:>4} {letter} {text}  # {n}");
    Ok((line, warning))
}

/// A coordinate in LED's integer units, `None` when it is not a finite number in range.
fn led_units(v: f32) -> Option<i32> {
    (v.is_finite() && v.abs() < 1.0e9).then(|| v.round() as i32)
}

/// Keys text as the reader gives it back: one line, no `#` (the reader stops there), trimmed.
fn keys_text(text: &str) -> String {
    text.chars().map(|c| if c.is_control() || c == '#' { ' ' } else { c }).collect::<String>().trim().to_string()
}

/// LED's size step for a symbol of `height_units` without one: six units a step.
fn derived_step(group: &str, height_units: i32) -> i32 {
    let sixths = height_units as f32 / 6.0;
    let step = match group {
        "Dirn" | "Rotn" | "Ways" => (sixths + 1.0 / 6.0).round(),
        "Area" | "Limb" => sixths.round(),
        "Volm" => sixths.round() - 1.0,
        "Keys" | "Misc" => 2.0,
        _ => 1.0,
    };
    step.max(1.0) as i32
}

/// The group, item and level letter that `.lbn` writes `sym` with, or why it has none. A symbol
/// whose code is an `.lbn` code the reader reads as its kind keeps that code.
pub fn lbn_code(sym: &PageSymbol) -> Result<(&'static str, i32, Level), String> {
    let level = written_level(&sym.kind, sym.level);
    if let Some((group, item)) = own_code(&sym.code) {
        let text = match &sym.kind {
            SymbolKind::Text(t) => keys_text(t),
            _ => String::new(),
        };
        let line = LbnLine { group: group.to_string(), item, x: 0, y: 0, step: 0, width: 0, height: 0, level, text };
        let mut kind = sym.kind.clone();
        if let SymbolKind::Text(t) = &mut kind {
            *t = keys_text(t);
        }
        if kind_of(&line) == Some(kind) {
            return Ok((group, item, level));
        }
    }
    let (group, item) = derived_code(&sym.kind)?;
    Ok((group, item, level))
}

/// `Group item` when `code` is one of the format's codes.
fn own_code(code: &str) -> Option<(&'static str, i32)> {
    let mut words = code.split_whitespace();
    let first = words.next()?;
    let group = GROUPS.iter().find(|g| **g == first)?;
    let item = words.next()?.parse().ok()?;
    words.next().is_none().then_some((*group, item))
}

/// The level letter that keeps the kind: the format spells centre staff lines and white pins
/// with it.
fn written_level(kind: &SymbolKind, level: Level) -> Level {
    match kind {
        SymbolKind::StaffLine { centre_hint: true } => Level::Low,
        SymbolKind::StaffLine { centre_hint: false } if level == Level::Low => Level::Blank,
        SymbolKind::Pin { black: false, .. } => Level::High,
        SymbolKind::Pin { black: true, .. } if level == Level::High => Level::Low,
        _ => level,
    }
}

/// The group and item the reader reads back as `kind`, or why there is none.
fn derived_code(kind: &SymbolKind) -> Result<(&'static str, i32), String> {
    Ok(match kind {
        SymbolKind::BarLine => ("Bars", 0),
        SymbolKind::StaffLine { centre_hint } => ("Stav", i32::from(*centre_hint)),
        SymbolKind::Direction { direction, left_form } => {
            ("Dirn", crate::edit::signs::direction_item(*direction, *left_form))
        }
        SymbolKind::BodyPart(part) => body_part_code(*part)?,
        SymbolKind::Area(item) if (1..=8).contains(item) => ("Area", *item),
        SymbolKind::Volume(volume) => ("Volm", volume_item(*volume)?),
        SymbolKind::Path(PathSign::Other(item)) if (1..=7).contains(item) => ("Ways", *item),
        SymbolKind::Path(path) => {
            return Err(format!("`.lbn` has no path sign {path:?} (LED's `Ways` are other signs)"));
        }
        SymbolKind::Front(facing) if *facing < 8 => ("Face", i32::from(*facing) + 1),
        SymbolKind::Misc(item) if (0..=9).contains(item) => ("Misc", *item),
        SymbolKind::Pin { orientation, .. } if (1..=8).contains(orientation) => ("Pins", i32::from(*orientation)),
        SymbolKind::Turn(turn) => ("Rotn", turn_item(*turn)?),
        SymbolKind::Text(_) => ("Keys", 0),
        other => return Err(format!("`.lbn` has no item for {other:?}")),
    })
}

fn body_part_code(part: BodyPart) -> Result<(&'static str, i32), String> {
    let sided = |side: Side, left: i32| if side == Side::Left { left } else { left + 5 };
    Ok(match part {
        BodyPart::Shoulder(s) => ("Limb", sided(s, 1)),
        BodyPart::Elbow(s) => ("Limb", sided(s, 2)),
        BodyPart::Wrist(s) => ("Limb", sided(s, 3)),
        BodyPart::Hand(s) => ("Limb", sided(s, 4)),
        BodyPart::Hip(s) => ("Limb", sided(s, 11)),
        BodyPart::Knee(s) => ("Limb", sided(s, 12)),
        BodyPart::Ankle(s) => ("Limb", sided(s, 13)),
        BodyPart::Foot(s) => ("Limb", sided(s, 14)),
        BodyPart::Toe(s) => ("Limb", sided(s, 15)),
        BodyPart::Palm => ("Limb", 21),
        BodyPart::Chest => ("Area", 9),
        other => return Err(format!("`.lbn` has no pre-sign for the body part {other:?}")),
    })
}

fn volume_item(volume: VolumeSign) -> Result<i32, String> {
    Ok(match volume {
        VolumeSign::Relaxed => 1,
        VolumeSign::Straight => 2,
        VolumeSign::Bent => 3,
        VolumeSign::Stretched => 4,
        VolumeSign::Hold => 7,
        VolumeSign::Other(item @ (5 | 6)) => item,
        VolumeSign::Other(item) => return Err(format!("`.lbn` has no `Volm` item {item}")),
    })
}

fn turn_item(turn: TurnSign) -> Result<i32, String> {
    Ok(match turn {
        TurnSign::Left => 1,
        TurnSign::Right => 2,
        TurnSign::Composite => 7,
        TurnSign::Other(item @ (3..=6 | 8)) => item,
        TurnSign::Other(item) => return Err(format!("`.lbn` has no `Rotn` item {item}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{Direction, KeptLine, lbn};

    /// Every item of every group with every level, read, written and read again, is the same
    /// symbol, with the same code where the code is the format's.
    #[test]
    fn every_readable_item_writes_back_as_itself() {
        let mut checked = 0;
        for group in GROUPS {
            for item in -1..=30 {
                for level in ["L", "M", "H", "B"] {
                    let src = format!("{group} {item} 100 50 3 10 23 {level} q=60 # 1\n");
                    let Ok(doc) = lbn::read(src.as_bytes()) else { continue };
                    let Some(sym) = doc.symbols.first() else { continue };
                    let written = write_lbn(&doc);
                    assert!(written.warnings.is_empty(), "{src}: {:?}", written.warnings);
                    let again = lbn::read(written.text.as_bytes()).unwrap();
                    let back = &again.symbols[0];
                    assert_eq!((&back.kind, &back.code, back.level), (&sym.kind, &sym.code, sym.level), "{src}");
                    assert_eq!(back.lbn_step, Some(3), "{src}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 300, "only {checked} symbols checked");
    }

    /// A symbol from another format (its code not `.lbn`'s) gets the item the reader reads as
    /// its kind, and the level that spells it.
    #[test]
    fn a_symbol_of_another_format_gets_the_item_of_its_kind() {
        let kinds = [
            SymbolKind::StaffLine { centre_hint: true },
            SymbolKind::StaffLine { centre_hint: false },
            SymbolKind::Direction { direction: Direction::Backward, left_form: true },
            SymbolKind::BodyPart(BodyPart::Knee(Side::Right)),
            SymbolKind::BodyPart(BodyPart::Chest),
            SymbolKind::Pin { orientation: 3, black: false },
            SymbolKind::Pin { orientation: 8, black: true },
            SymbolKind::Turn(TurnSign::Composite),
            SymbolKind::Volume(VolumeSign::Hold),
            SymbolKind::Front(7),
            SymbolKind::Text("3/4".into()),
        ];
        for kind in kinds {
            let sym = PageSymbol {
                kind: kind.clone(),
                code: "lw:x".into(),
                x: 10.4,
                y: 20.0,
                w: 10.0,
                h: 23.0,
                level: Level::High,
                lbn_step: None,
                span: Default::default(),
            };
            let (group, item, level) = lbn_code(&sym).unwrap();
            let line = LbnLine {
                group: group.into(),
                item,
                x: 0,
                y: 0,
                step: 0,
                width: 0,
                height: 0,
                level,
                text: "3/4".into(),
            };
            assert_eq!(kind_of(&line), Some(kind));
        }
    }

    #[test]
    fn what_lbn_cannot_say_is_a_warning_at_its_place() {
        let mut doc = lbn::read(b"Dirn 11 134 70 4 10 23 M\nKeys 0 18 14 2 30 12 B q=60\n").unwrap();
        doc.symbols[0].kind = SymbolKind::BodyPart(BodyPart::Head);
        doc.symbols[1].kind = SymbolKind::Text("a # b\nc".into());
        let written = write_lbn(&doc);
        assert_eq!(written.warnings.len(), 2, "{:?}", written.warnings);
        assert_eq!(written.warnings[0].span.line, 1);
        assert!(written.warnings[0].message.contains("left out"), "{}", written.warnings[0].message);
        assert_eq!(written.warnings[1].span.line, 2);
        assert!(written.text.contains(" a   b c  #"), "{}", written.text);
    }

    #[test]
    fn kept_lines_go_back_untouched_at_their_places() {
        let src = "#\n#   A title\n# second\nStav 1 133 48 1 1 602 L # 1\n  # between\nFoo?\nDirn 99 1 2 3 4 5 M # odd\nDirn 11 134 70 4 10 23 M\n# end\n";
        let src = src.replace("Foo?\n", "");
        let doc = lbn::read(src.as_bytes()).unwrap();
        assert_eq!(doc.kept_lines.len(), 6);
        let written = write_lbn(&doc);
        let lines: Vec<&str> = written.text.lines().collect();
        assert_eq!(&lines[..3], &["#", "#   A title", "# second"]);
        assert!(lines[3].starts_with("Stav   1 133   48   1   1  602 L"), "{}", lines[3]);
        assert_eq!(&lines[4..6], &["  # between", "Dirn 99 1 2 3 4 5 M # odd"]);
        assert!(lines[6].starts_with("Dirn  11"), "{}", lines[6]);
        assert_eq!(lines[7], "# end");
        let again = lbn::read(written.text.as_bytes()).unwrap();
        assert_eq!((again.title, again.comments, again.kept_lines), (doc.title, doc.comments, doc.kept_lines));
    }

    #[test]
    fn a_changed_title_is_written_as_header_comments() {
        let mut doc = lbn::read(b"# old\nStav 1 133 48 1 1 602 L\n# kept\n").unwrap();
        doc.title = Some("New".into());
        doc.comments = vec!["New".into(), "line\ntwo".into()];
        doc.kept_lines.push(KeptLine { before_symbol: 9, text: "# last".into() });
        let written = write_lbn(&doc);
        let again = lbn::read(written.text.as_bytes()).unwrap();
        assert_eq!(again.title.as_deref(), Some("New"));
        assert_eq!(again.comments, ["New", "line two"]);
        assert!(written.text.ends_with("# kept\n# last\n"), "{}", written.text);
    }
}
