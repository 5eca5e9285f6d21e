//! Microsoft LabanotationSuite / gestureBotDesignKit `.json` keyframe reader.
//!
//! Layout A (LabanotationSuite): `{ "<name>": { "Position0": { "start time": ["<ms>"], "head":
//! [dir, level], …, "rotation": ["ToRight", "<deg>"] }, … } }`, keyframes ordered by N. Layout B
//! (gestureBotDesignKit): `[ { "time": s, "head": { "dur": s, "dir", "lvl" }, … } ]`. Keys and
//! words match ignoring case, spaces, `_` and `-`; numbers may be strings.
//!
//! A layout A time is when the pose is reached. Read: the head, the upper arms (`elbow`), the lower
//! arms (`wrist`) and whole-body rotations.

use super::document::{Direction, Document, Format, Gesture, GesturePart, Level, Rotation, Side};
use super::json_value::{self, Kind, Member, Value};
use crate::diag::{Diagnostic, Diagnostics, LineIndex, Span};

/// Most warnings kept per file; the rest are counted in one last warning.
const MAX_WARNINGS: usize = 500;

const DIRECTION_HELP: &str = "directions are Place, Forward, Backward, Left, Right, Left Forward, Right Forward, Left Backward and Right Backward";
const LEVEL_HELP: &str = "levels are High, Normal (or Middle) and Low";
const SHAPE_HELP: &str = "expected LabanotationSuite `{\"name\": {\"Position0\": {\"start time\": [\"0\"], \"head\": [\"Forward\", \"Normal\"], …}}}` or gestureBotDesignKit `[{\"time\": 0.0, \"head\": {\"dur\": 1.0, \"dir\": \"Forward\", \"lvl\": \"Normal\"}, …}]`";

/// Reads a JSON keyframe score (either layout, detected from the top-level shape).
///
/// Times come out in seconds exactly as written (layout A's `start time` is the keyframe's
/// time, layout B's `time` is when the move starts and `dur` how long it takes); negative
/// durations read as 0 (`-1` is the suites' "hold" marker). A part with an unknown direction
/// or level is skipped with a warning; text that is not JSON, a wrong top-level shape or a
/// file with no readable keyframe is an error.
pub fn read(bytes: &[u8]) -> Result<Document, Diagnostics> {
    let bom_len = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let body = bytes.get(bom_len..).unwrap_or_default();
    let root = match json_value::parse(body) {
        Ok(root) => root,
        Err(e) => {
            let mut span = Span::of_offset(body, e.offset);
            span.offset += bom_len;
            let mut d = Diagnostic::error(span, e.message);
            if let Some(help) = e.help {
                d = d.with_help(help);
            }
            return Err(d.into());
        }
    };
    let mut reader = Reader {
        lines: LineIndex::new(body),
        bom_len,
        doc: Document::new(Format::Json),
        errors: Vec::new(),
        suppressed: 0,
    };
    match &root.kind {
        Kind::Object(members) => reader.layout_a(members),
        Kind::Array(items) => reader.layout_b(items),
        other => {
            let message = format!("expected a JSON object or array at the top level, found {}", other.describe());
            reader.error(root.offset, message, SHAPE_HELP);
        }
    }
    if reader.errors.is_empty() && reader.doc.symbol_count() == 0 {
        reader.error(root.offset, "no keyframe with a readable body part was found in this file".into(), SHAPE_HELP);
    }
    if reader.suppressed > 0 {
        let message = format!("{} more warnings not shown", reader.suppressed);
        let span = reader.span(body.len());
        reader.doc.warnings.push(Diagnostic::warning(span, message));
    }
    if reader.errors.is_empty() {
        Ok(reader.doc)
    } else {
        let mut all = reader.doc.warnings;
        all.append(&mut reader.errors);
        Err(Diagnostics(all))
    }
}

/// Reading state: the output document and the line index for spans.
struct Reader<'b> {
    lines: LineIndex<'b>,
    bom_len: usize,
    doc: Document,
    errors: Vec<Diagnostic>,
    suppressed: usize,
}

/// The fields of one keyframe, first occurrence of each key.
#[derive(Default)]
struct Fields<'m> {
    time: Option<&'m Member>,
    duration: Option<&'m Member>,
    rotation: Option<&'m Member>,
    parts: Vec<(GesturePart, &'m Member)>,
}

impl Reader<'_> {
    fn span(&self, offset: usize) -> Span {
        let mut span = self.lines.span(offset);
        span.offset += self.bom_len;
        span
    }

    fn warn(&mut self, offset: usize, message: String, help: Option<&str>) {
        if self.doc.warnings.len() >= MAX_WARNINGS {
            self.suppressed += 1;
            return;
        }
        let mut d = Diagnostic::warning(self.span(offset), message);
        if let Some(help) = help {
            d = d.with_help(help);
        }
        self.doc.warnings.push(d);
    }

    fn error(&mut self, offset: usize, message: String, help: &str) {
        let d = Diagnostic::error(self.span(offset), message).with_help(help);
        self.errors.push(d);
    }

    /// Layout A: named gestures, or directly an object of `PositionN` keyframes.
    fn layout_a(&mut self, members: &[Member]) {
        self.doc.keyframes.time_is_arrival = true;
        if members.iter().any(|m| position_number(&m.key).is_some()) {
            self.positions(members);
            return;
        }
        let mut first_name: Option<&str> = None;
        for m in members {
            let keyframes_here = matches!(m.value.kind, Kind::Object(_) | Kind::Array(_));
            if !keyframes_here {
                let message = format!("`{}` is {}, not a gesture; skipped", m.key, m.value.kind.describe());
                self.warn(m.value.offset, message, Some("a gesture is an object of `PositionN` keyframes"));
                continue;
            }
            match first_name {
                None => {
                    first_name = Some(&m.key);
                    self.doc.title = Some(m.key.trim().to_string());
                }
                Some(first) => {
                    let message = format!("a second gesture `{}` is read on the same timeline as `{first}`", m.key);
                    self.warn(m.key_offset, message, None);
                }
            }
            match &m.value.kind {
                Kind::Object(positions) => self.positions(positions),
                Kind::Array(items) => self.layout_b(items),
                _ => {}
            }
        }
    }

    /// The `PositionN` keyframes of one gesture, read in order of N.
    fn positions(&mut self, members: &[Member]) {
        let mut numbered: Vec<(u64, &Member)> = Vec::with_capacity(members.len());
        for m in members {
            match position_number(&m.key) {
                Some(n) => numbered.push((n, m)),
                None => {
                    let message = format!("unknown key `{}` among the keyframes; skipped", m.key);
                    self.warn(m.key_offset, message, Some("keyframes are named `Position0`, `Position1`, …"));
                }
            }
        }
        numbered.sort_by_key(|&(n, _)| n);
        for pair in numbered.windows(2) {
            if let [(a, _), (b, later)] = pair
                && a == b
            {
                let message = format!("keyframe number {b} appears twice; both are read");
                self.warn(later.key_offset, message, None);
            }
        }
        for (_, m) in numbered {
            self.keyframe_a(m);
        }
    }

    /// Sorts one keyframe's members into [`Fields`], warning about unknown and repeated keys.
    /// `layout_b` selects the gestureBot keys (`text`, `midi`, `audio` are ignored there).
    fn fields<'m>(&mut self, members: &'m [Member], layout_b: bool) -> Fields<'m> {
        let mut fields = Fields::default();
        for m in members {
            let key = normalize(&m.key);
            let slot = match key.as_str() {
                "starttime" | "start" | "time" => &mut fields.time,
                "duration" | "dur" if !layout_b => &mut fields.duration,
                "rotation" | "rotate" if !layout_b => &mut fields.rotation,
                "text" | "midi" | "audio" if layout_b => continue,
                other => {
                    if let Some(part) = part_of(other) {
                        if fields.parts.iter().any(|&(p, _)| p == part) {
                            self.duplicate(m);
                        } else {
                            fields.parts.push((part, m));
                        }
                    } else {
                        let help = if layout_b {
                            "keyframe keys are time, head, relbow, rwrist, lelbow, lwrist, text, midi and audio"
                        } else {
                            "keyframe keys are start time, duration, head, right elbow, right wrist, left elbow, left wrist and rotation"
                        };
                        self.warn(m.key_offset, format!("unknown key `{}` in a keyframe; skipped", m.key), Some(help));
                    }
                    continue;
                }
            };
            if slot.is_some() {
                self.duplicate(m);
            } else {
                *slot = Some(m);
            }
        }
        fields
    }

    fn duplicate(&mut self, m: &Member) {
        self.warn(m.key_offset, format!("`{}` is given twice in this keyframe; the first one is used", m.key), None);
    }

    /// One layout-A keyframe (`"PositionN": {…}`); times in milliseconds.
    fn keyframe_a(&mut self, position: &Member) {
        let Kind::Object(members) = &position.value.kind else {
            let message =
                format!("`{}` is {}, not a keyframe object; skipped", position.key, position.value.kind.describe());
            self.warn(position.value.offset, message, None);
            return;
        };
        let fields = self.fields(members, false);
        let Some(time) = fields.time else {
            let message = format!("`{}` has no `start time`; keyframe skipped", position.key);
            self.warn(position.key_offset, message, None);
            return;
        };
        let Some(start_ms) = self.number(&time.value, "start time") else { return };
        let start_secs = self.start_secs(start_ms / 1000.0, start_ms, time.value.offset);
        let duration_secs = match fields.duration {
            Some(d) => match self.number(&d.value, "duration") {
                Some(ms) => self.duration_secs(ms / 1000.0, ms, d.value.offset),
                None => 0.0,
            },
            None => 0.0,
        };
        for (part, m) in fields.parts {
            self.part_a(part, m, start_secs, duration_secs);
        }
        if let Some(m) = fields.rotation {
            self.rotation_a(m, start_secs, duration_secs);
        }
    }

    /// `"right elbow": ["Forward", "Low"]`.
    fn part_a(&mut self, part: GesturePart, m: &Member, start_secs: f64, duration_secs: f64) {
        let Kind::Array(items) = &m.value.kind else {
            let message = format!(
                "expected `[direction, level]` for `{}`, found {}; part skipped",
                m.key,
                m.value.kind.describe()
            );
            self.warn(m.value.offset, message, None);
            return;
        };
        let [dir_value, level_value, extra @ ..] = items.as_slice() else {
            let message = format!("expected two strings `[direction, level]` for `{}`; part skipped", m.key);
            self.warn(m.value.offset, message, None);
            return;
        };
        if let Some(extra) = extra.first() {
            self.warn(extra.offset, "extra element after `[direction, level]` ignored".into(), None);
        }
        let direction = self.direction(dir_value);
        let level = self.level(level_value);
        if let (Some(direction), Some(level)) = (direction, level) {
            let span = self.span(m.key_offset);
            self.doc.keyframes.gestures.push(Gesture { part, start_secs, duration_secs, direction, level, span });
        }
    }

    /// `"rotation": ["ToRight", "60"]`: clockwise degrees; ToLeft is counter-clockwise.
    fn rotation_a(&mut self, m: &Member, start_secs: f64, duration_secs: f64) {
        let Kind::Array(items) = &m.value.kind else {
            let message = format!(
                "expected `[\"ToLeft\" or \"ToRight\", degrees]` for `rotation`, found {}; skipped",
                m.value.kind.describe()
            );
            self.warn(m.value.offset, message, None);
            return;
        };
        let [sense_value, degrees_value, ..] = items.as_slice() else {
            self.warn(
                m.value.offset,
                "expected `[\"ToLeft\" or \"ToRight\", degrees]` for `rotation`; skipped".into(),
                None,
            );
            return;
        };
        let sign = match &sense_value.kind {
            Kind::String(s) => match normalize(s).as_str() {
                "toright" | "right" | "clockwise" | "cw" => Some(1.0),
                "toleft" | "left" | "counterclockwise" | "anticlockwise" | "ccw" => Some(-1.0),
                _ => None,
            },
            _ => None,
        };
        let Some(sign) = sign else {
            self.warn(
                sense_value.offset,
                "unknown rotation sense; rotation skipped".into(),
                Some("expected `ToLeft` or `ToRight`"),
            );
            return;
        };
        let Some(degrees) = self.number(degrees_value, "rotation degrees") else { return };
        if degrees != 0.0 {
            let span = self.span(m.key_offset);
            self.doc.keyframes.rotations.push(Rotation { start_secs, duration_secs, degrees_cw: sign * degrees, span });
        }
    }

    /// Layout B: an array of keyframes; times in seconds.
    fn layout_b(&mut self, items: &[Value]) {
        for item in items {
            let Kind::Object(members) = &item.kind else {
                let message = format!(
                    "expected a keyframe object `{{\"time\": …, \"head\": …}}`, found {}; skipped",
                    item.kind.describe()
                );
                self.warn(item.offset, message, None);
                continue;
            };
            let fields = self.fields(members, true);
            if fields.parts.is_empty() {
                continue; // A bare `{"time": …}` marks the end of the gesture.
            }
            let Some(time) = fields.time else {
                self.warn(item.offset, "keyframe has no `time`; skipped".into(), None);
                continue;
            };
            let Some(t) = self.number(&time.value, "time") else { continue };
            let start_secs = self.start_secs(t, t, time.value.offset);
            for (part, m) in fields.parts {
                self.part_b(part, m, start_secs);
            }
        }
    }

    /// `"relbow": {"dur": 0.5, "dir": "forward", "lvl": "low"}`.
    fn part_b(&mut self, part: GesturePart, m: &Member, start_secs: f64) {
        let Kind::Object(members) = &m.value.kind else {
            let message = format!(
                "expected `{{\"dur\", \"dir\", \"lvl\"}}` for `{}`, found {}; part skipped",
                m.key,
                m.value.kind.describe()
            );
            self.warn(m.value.offset, message, None);
            return;
        };
        let (mut dur, mut dir, mut lvl) = (None, None, None);
        for g in members {
            let slot = match normalize(&g.key).as_str() {
                "dur" | "duration" => &mut dur,
                "dir" | "direction" => &mut dir,
                "lvl" | "level" => &mut lvl,
                _ => {
                    self.warn(
                        g.key_offset,
                        format!("unknown key `{}` in `{}`; skipped", g.key, m.key),
                        Some("expected `dur`, `dir` and `lvl`"),
                    );
                    continue;
                }
            };
            if slot.is_some() {
                self.duplicate(g);
            } else {
                *slot = Some(&g.value);
            }
        }
        let (Some(dir_value), Some(level_value)) = (dir, lvl) else {
            let missing = if dir.is_none() { "dir" } else { "lvl" };
            self.warn(m.value.offset, format!("`{}` has no `{missing}`; part skipped", m.key), None);
            return;
        };
        let duration_secs = match dur.map(|v| (v, self.number(v, "dur"))) {
            Some((v, Some(secs))) => self.duration_secs(secs, secs, v.offset),
            _ => 0.0,
        };
        let direction = self.direction(dir_value);
        let level = self.level(level_value);
        if let (Some(direction), Some(level)) = (direction, level) {
            let span = self.span(m.key_offset);
            self.doc.keyframes.gestures.push(Gesture { part, start_secs, duration_secs, direction, level, span });
        }
    }

    /// A finite number written as a number, a numeric string, or a one-element array of either.
    fn number(&mut self, value: &Value, what: &str) -> Option<f64> {
        let n = match &value.kind {
            Kind::Number(n) => Some(*n),
            Kind::String(s) => s.trim().parse::<f64>().ok(),
            Kind::Array(items) => {
                let Some(first) = items.first() else {
                    self.warn(value.offset, format!("`{what}` is an empty array; expected a number"), None);
                    return None;
                };
                if let Some(extra) = items.get(1) {
                    self.warn(extra.offset, format!("extra element in `{what}` ignored"), None);
                }
                if matches!(first.kind, Kind::Array(_)) {
                    self.warn(first.offset, format!("expected a number for `{what}`, found an array"), None);
                    return None;
                }
                return self.number(first, what);
            }
            _ => None,
        };
        match n {
            Some(n) if n.is_finite() => Some(n),
            _ => {
                let found = match &value.kind {
                    Kind::String(s) => format!("`{s}`"),
                    other => other.describe().to_string(),
                };
                self.warn(value.offset, format!("expected a number for `{what}`, found {found}"), None);
                None
            }
        }
    }

    /// A start time in seconds; negative ones are kept but warned about.
    fn start_secs(&mut self, secs: f64, written: f64, offset: usize) -> f64 {
        if secs < 0.0 {
            self.warn(offset, format!("negative start time {written} (kept as written)"), None);
        }
        secs
    }

    /// A duration in seconds; negative reads as 0 (silently for the `-1` hold marker).
    fn duration_secs(&mut self, secs: f64, written: f64, offset: usize) -> f64 {
        if secs >= 0.0 {
            return secs;
        }
        if written != -1.0 {
            self.warn(offset, format!("negative duration {written} read as 0"), None);
        }
        0.0
    }

    fn direction(&mut self, value: &Value) -> Option<Direction> {
        let Kind::String(text) = &value.kind else {
            let message = format!("expected a direction name, found {}; part skipped", value.kind.describe());
            self.warn(value.offset, message, Some(DIRECTION_HELP));
            return None;
        };
        let direction = parse_direction(&normalize(text));
        if direction.is_none() {
            self.warn(value.offset, format!("unknown direction `{text}`; part skipped"), Some(DIRECTION_HELP));
        }
        direction
    }

    fn level(&mut self, value: &Value) -> Option<Level> {
        let Kind::String(text) = &value.kind else {
            let message = format!("expected a level name, found {}; part skipped", value.kind.describe());
            self.warn(value.offset, message, Some(LEVEL_HELP));
            return None;
        };
        let level = match normalize(text).as_str() {
            "high" => Some(Level::High),
            "normal" | "middle" | "mid" | "medium" => Some(Level::Middle),
            "low" => Some(Level::Low),
            _ => None,
        };
        if level.is_none() {
            self.warn(value.offset, format!("unknown level `{text}`; part skipped"), Some(LEVEL_HELP));
        }
        level
    }
}

/// Lower-case with spaces, `_` and `-` removed: `"Left_Forward"` → `"leftforward"`.
fn normalize(text: &str) -> String {
    let kept = text.chars().filter(|c| !c.is_whitespace() && *c != '_' && *c != '-');
    if text.is_ascii() {
        kept.map(|c| c.to_ascii_lowercase()).collect()
    } else {
        kept.flat_map(char::to_lowercase).collect()
    }
}

/// `N` of a `PositionN` key (any case, spaces allowed).
fn position_number(key: &str) -> Option<u64> {
    let digits = normalize(key).strip_prefix("position")?.to_string();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The body part a normalized key names, in either layout.
fn part_of(key: &str) -> Option<GesturePart> {
    Some(match key {
        "head" => GesturePart::Head,
        "rightelbow" | "relbow" => GesturePart::UpperArm(Side::Right),
        "rightwrist" | "rwrist" => GesturePart::LowerArm(Side::Right),
        "leftelbow" | "lelbow" => GesturePart::UpperArm(Side::Left),
        "leftwrist" | "lwrist" => GesturePart::LowerArm(Side::Left),
        _ => return None,
    })
}

/// A normalized direction name.
fn parse_direction(word: &str) -> Option<Direction> {
    Some(match word {
        "place" => Direction::Place,
        "forward" | "fwd" => Direction::Forward,
        "backward" | "back" => Direction::Backward,
        "left" => Direction::Left,
        "right" => Direction::Right,
        "leftforward" | "forwardleft" => Direction::LeftForward,
        "rightforward" | "forwardright" => Direction::RightForward,
        "leftbackward" | "backwardleft" | "leftback" => Direction::LeftBackward,
        "rightbackward" | "backwardright" | "rightback" => Direction::RightBackward,
        _ => return None,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::diag::Severity;

    const LAYOUT_A: &str = r#"{
  "wave": {
    "Position10": {"start time": ["2000"], "duration": ["-1"], "head": ["Forward", "Normal"],
      "rotation": ["ToLeft", "45"]},
    "Position2": {"start time": ["1000"], "duration": ["100"],
      "right elbow": ["Right Forward", "High"], "left wrist": ["Place", "Low"],
      "rotation": ["ToRight", "0"]},
    "Position9": {"start time": ["1500"], "duration": ["1"], "right wrist": ["Left", "Low"],
      "rotation": ["ToRight", "60"]}
  }
}"#;

    fn warnings_of(doc: &Document) -> Vec<(u32, u32, &str)> {
        doc.warnings.iter().map(|w| (w.span.line, w.span.col, w.message.as_str())).collect()
    }

    fn first_error(bytes: &[u8]) -> Diagnostic {
        let errors = read(bytes).unwrap_err();
        errors.0.into_iter().find(|d| d.severity == Severity::Error).unwrap()
    }

    #[test]
    fn layout_a_orders_keyframes_by_position_number() {
        let doc = read(LAYOUT_A.as_bytes()).unwrap();
        assert_eq!(doc.title.as_deref(), Some("wave"));
        assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
        let g = &doc.keyframes.gestures;
        let summary: Vec<_> = g.iter().map(|g| (g.part, g.start_secs, g.direction, g.level)).collect();
        assert_eq!(
            summary,
            vec![
                (GesturePart::UpperArm(Side::Right), 1.0, Direction::RightForward, Level::High),
                (GesturePart::LowerArm(Side::Left), 1.0, Direction::Place, Level::Low),
                (GesturePart::LowerArm(Side::Right), 1.5, Direction::Left, Level::Low),
                (GesturePart::Head, 2.0, Direction::Forward, Level::Middle),
            ]
        );
        assert!((g[0].duration_secs - 0.1).abs() < 1e-12);
        assert_eq!(g[3].duration_secs, 0.0, "the -1 hold marker reads as 0");
        assert_eq!((g[0].span.line, g[0].span.col), (6, 7));
        let r: Vec<_> = doc.keyframes.rotations.iter().map(|r| (r.start_secs, r.degrees_cw)).collect();
        assert_eq!(r, vec![(1.5, 60.0), (2.0, -45.0)], "0-degree rotation dropped, ToLeft negative");
    }

    #[test]
    fn positions_object_without_a_name_and_numbers_as_numbers() {
        let src = r#"{"Position1": {"start time": 250, "head": ["left", "high"]},
                      "position 0": {"start time": [0], "duration": 0.5, "head": ["place", "low"]}}"#;
        let doc = read(src.as_bytes()).unwrap();
        assert_eq!(doc.title, None);
        let g = &doc.keyframes.gestures;
        assert_eq!(g.len(), 2);
        assert_eq!((g[0].start_secs, g[0].duration_secs, g[0].direction), (0.0, 0.0005, Direction::Place));
        assert_eq!((g[1].start_secs, g[1].direction, g[1].level), (0.25, Direction::Left, Level::High));
    }

    #[test]
    fn keys_and_words_ignore_case_spaces_underscores_and_hyphens() {
        let src = r#"{"G": {"POSITION0": {"Start_Time": [" 1000 "], "DURATION": ["0"],
            "Right  Elbow": ["LEFT-FORWARD", "middle"], "left_wrist": ["right backward", "NORMAL"],
            "Rotation": ["toright", "30"]}}}"#;
        let doc = read(src.as_bytes()).unwrap();
        assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
        let g = &doc.keyframes.gestures;
        assert_eq!(g[0].part, GesturePart::UpperArm(Side::Right));
        assert_eq!((g[0].direction, g[0].level), (Direction::LeftForward, Level::Middle));
        assert_eq!(
            (g[1].part, g[1].direction, g[1].level),
            (GesturePart::LowerArm(Side::Left), Direction::RightBackward, Level::Middle)
        );
        assert_eq!(doc.keyframes.rotations[0].degrees_cw, 30.0);
    }

    #[test]
    fn unknown_direction_or_level_skips_only_that_part() {
        let src = "{\"g\": {\"Position0\": {\"start time\": [\"0\"],\n  \"head\": [\"Upward\", \"Low\"],\n  \"right elbow\": [\"Left\", \"Sideways\"],\n  \"left elbow\": [\"Left\", \"Low\"]}}}";
        let doc = read(src.as_bytes()).unwrap();
        assert_eq!(doc.keyframes.gestures.len(), 1);
        assert_eq!(doc.keyframes.gestures[0].part, GesturePart::UpperArm(Side::Left));
        assert_eq!(
            warnings_of(&doc),
            vec![
                (2, 12, "unknown direction `Upward`; part skipped"),
                (3, 27, "unknown level `Sideways`; part skipped")
            ]
        );
        assert!(doc.warnings[0].help.as_deref().unwrap_or("").contains("Left Forward"));
    }

    #[test]
    fn layout_a_warnings_for_missing_time_unknown_keys_and_negative_values() {
        let src = r#"{"g": {
  "Position0": {"start time": ["-5"], "duration": ["-3"], "head": ["Place", "Low"]},
  "Position1": {"duration": ["1"], "head": ["Place", "Low"]},
  "Frame2": {},
  "Position3": {"start time": ["x"], "head": ["Place", "Low"]},
  "Position4": {"start time": ["9"], "nose": ["Place", "Low"], "head": ["Place", "Low"], "head": []}
}}"#;
        let doc = read(src.as_bytes()).unwrap();
        let lines: Vec<u32> = doc.warnings.iter().map(|w| w.span.line).collect();
        assert_eq!(lines, vec![4, 2, 2, 3, 5, 6, 6], "{:#?}", doc.warnings);
        assert!(doc.warnings[3].message.contains("has no `start time`"));
        let g = &doc.keyframes.gestures;
        assert_eq!(g.len(), 2);
        assert_eq!((g[0].start_secs, g[0].duration_secs), (-0.005, 0.0));
        assert_eq!(g[1].start_secs, 0.009);
    }

    #[test]
    fn layout_b_reads_seconds_and_ignores_text_midi_audio() {
        let src = r#"[
  {"time": 0.5, "head": {"dur": 1.0, "dir": "Forward", "lvl": "Normal"},
   "rwrist": {"dur": 0.25, "dir": "left forward", "lvl": "high"},
   "text": {"dur": 0.8, "phrase": "hi"}, "midi": {"notes": "C1"}, "audio": {"file": "a.mp3"},
   "tail": 1},
  {"time": 2, "lelbow": {"dir": "right", "lvl": "low", "speed": 3}},
  {"time": 232.0}
]"#;
        let doc = read(src.as_bytes()).unwrap();
        assert_eq!(doc.title, None);
        let g: Vec<_> = doc
            .keyframes
            .gestures
            .iter()
            .map(|g| (g.part, g.start_secs, g.duration_secs, g.direction, g.level))
            .collect();
        assert_eq!(
            g,
            vec![
                (GesturePart::Head, 0.5, 1.0, Direction::Forward, Level::Middle),
                (GesturePart::LowerArm(Side::Right), 0.5, 0.25, Direction::LeftForward, Level::High),
                (GesturePart::UpperArm(Side::Left), 2.0, 0.0, Direction::Right, Level::Low),
            ]
        );
        assert_eq!(
            warnings_of(&doc),
            vec![
                (5, 4, "unknown key `tail` in a keyframe; skipped"),
                (6, 56, "unknown key `speed` in `lelbow`; skipped")
            ]
        );
    }

    #[test]
    fn malformed_input_errors_point_at_line_and_column() {
        let e = first_error(
            b"{\n  \"g\": {\n    \"Position0\": {\"start time\": [\"0\"]\n    \"head\": [\"Place\", \"Low\"]}}}",
        );
        assert_eq!((e.span.line, e.span.col), (4, 5));
        assert_eq!(e.message, "expected `,` or `}` after object member, found `\"`");
        let e = first_error(b"[\n  {\"time\": 0,},\n]");
        assert_eq!((e.span.line, e.span.col), (2, 14));
        let e = first_error(b"\xEF\xBB\xBF{\"a\": tru}");
        assert_eq!((e.span.line, e.span.col, e.span.offset), (1, 7, 9));
        let e = first_error(b"{\"\xC3\xA9\": \"\xFF\"}");
        assert_eq!((e.span.line, e.span.col), (1, 8));
        assert!(e.message.contains("UTF-8"));
        let e = first_error(b"[1] [2]");
        assert_eq!(
            (e.span.col, e.message.as_str()),
            (5, "expected the end of the file after the JSON value, found `[`")
        );
    }

    #[test]
    fn wrong_shapes_and_empty_files_are_errors() {
        assert!(first_error(b"  42").message.contains("found a number"));
        assert!(first_error(b"{}").message.contains("no keyframe"));
        assert!(first_error(b"[]").message.contains("no keyframe"));
        let all = read(br#"{"version": "1"}"#).unwrap_err();
        assert_eq!(all.0.len(), 2, "the warning about `version` comes with the error: {all:?}");
        let deep = format!("{{\"g\": {}{}}}", "[".repeat(200), "]".repeat(200));
        assert!(first_error(deep.as_bytes()).message.contains("nest deeper than 128"));
        assert!(first_error(b"").message.contains("end of the file"));
    }

    #[test]
    fn warnings_are_capped() {
        let one = r#"{"time": 0, "head": {"dir": "up", "lvl": "low"}},"#;
        let src = format!(
            "[{}{{\"time\": 1, \"head\": {{\"dir\": \"place\", \"lvl\": \"low\"}}}}]",
            one.repeat(MAX_WARNINGS + 20)
        );
        let doc = read(src.as_bytes()).unwrap();
        assert_eq!(doc.warnings.len(), MAX_WARNINGS + 1);
        assert_eq!(doc.warnings[MAX_WARNINGS].message, "20 more warnings not shown");
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_json_like_text_never_panics(text in r#"[\[\]{}",:0-9.eE+\-a-zA-Z \n\\\u{e9}]{0,200}"#) {
            if let Err(e) = read(text.as_bytes()) {
                proptest::prop_assert!(e.has_errors());
            }
        }
    }

    #[test]
    fn mangled_inputs_never_panic() {
        for fixture in [LAYOUT_A.as_bytes(), br#"[{"time": 0.5, "head": {"dur": 1, "dir": "Left", "lvl": "Low"}}]"#] {
            for i in 0..fixture.len() {
                let truncated = read(fixture.get(..i).unwrap());
                assert!(truncated.is_err(), "prefix of {i} bytes should not read");
                for b in [b'"', b'{', b']', b'\\', b',', b':', 0xFF, b'0'] {
                    let mut bytes = fixture.to_vec();
                    bytes[i] = b;
                    if let Err(e) = read(&bytes) {
                        assert!(e.has_errors() && e.0.iter().all(|d| d.span.line >= 1 && d.span.offset <= bytes.len()));
                    }
                }
            }
        }
    }
}
