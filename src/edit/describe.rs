//! A page symbol in words, for tooltips and the status line: "right arm, forward high, 2 beats".

use super::grid::PageGrid;
use crate::read::{BodyPart, Direction, Level, PageSymbol, PathSign, Side, SymbolKind, TurnSign, VolumeSign};
use crate::score::staves::{ColumnConvention, Zone, zone_of};

/// The words for a direction.
pub fn direction_words(direction: Direction) -> &'static str {
    match direction {
        Direction::Place => "place",
        Direction::Forward => "forward",
        Direction::RightForward => "right forward diagonal",
        Direction::Right => "right side",
        Direction::RightBackward => "right backward diagonal",
        Direction::Backward => "backward",
        Direction::LeftBackward => "left backward diagonal",
        Direction::Left => "left side",
        Direction::LeftForward => "left forward diagonal",
    }
}

/// The words for a level.
pub fn level_words(level: Level) -> &'static str {
    match level {
        Level::Low => "low",
        Level::Middle => "middle",
        Level::High => "high",
        Level::Blank => "no level",
    }
}

/// The body part a column stands for under `convention`.
pub fn column_words(column: i32, convention: ColumnConvention) -> String {
    let side = |s: Side| if s == Side::Left { "left" } else { "right" };
    match zone_of(column, convention) {
        Zone::Support(s) => format!("{} support", side(s)),
        Zone::LegGesture(s) => format!("{} leg", side(s)),
        Zone::Body(s) => format!("{} side of the body", side(s)),
        Zone::Arm(s) => format!("{} arm", side(s)),
        Zone::Head => "head".to_owned(),
        Zone::Extra(s) => format!("{} column {}", side(s), column.abs()),
    }
}

/// A body part in words ("right upper arm").
pub fn body_part_words(part: BodyPart) -> String {
    let side = |s: Side| if s == Side::Left { "left" } else { "right" };
    match part {
        BodyPart::Shoulder(s) => format!("{} shoulder", side(s)),
        BodyPart::Elbow(s) => format!("{} upper arm", side(s)),
        BodyPart::Wrist(s) => format!("{} lower arm", side(s)),
        BodyPart::Hand(s) => format!("{} hand", side(s)),
        BodyPart::Hip(s) => format!("{} hip", side(s)),
        BodyPart::Knee(s) => format!("{} knee", side(s)),
        BodyPart::Ankle(s) => format!("{} ankle", side(s)),
        BodyPart::Foot(s) => format!("{} foot", side(s)),
        BodyPart::Toe(s) => format!("{} toes", side(s)),
        BodyPart::Arm(s) => format!("{} arm", side(s)),
        BodyPart::Leg(s) => format!("{} leg", side(s)),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// A front sign's facing in words: "the audience", "90° clockwise from the audience", ….
pub fn front_words(eighths: u8) -> String {
    match eighths % 8 {
        0 => "the audience".to_owned(),
        k => format!("{}° clockwise from the audience", u32::from(k) * 45),
    }
}

/// Beats in words: "1 beat", "2 beats", "1.5 beats".
pub fn beats_words(beats: f64) -> String {
    let rounded = (beats * 100.0).round() / 100.0;
    if (rounded - 1.0).abs() < 1e-9 { "1 beat".to_owned() } else { format!("{rounded} beats") }
}

/// What `symbol` says, placed on `grid` ("right arm, forward high, 2 beats"); staff and bar
/// lines are named as such.
pub fn describe(symbol: &PageSymbol, grid: &PageGrid, convention: ColumnConvention) -> String {
    let staff = grid.staff_at_x(symbol.x_mid());
    let column = staff.and_then(|s| grid.column_at_x(s, symbol.x_mid()));
    let part = column.map(|c| column_words(c, convention)).unwrap_or_else(|| "outside the staves".to_owned());
    let start = grid.beats_of_y(symbol.y);
    let duration = beats_words(super::grid::snap_beats(grid.beats_of_y(symbol.y_top()) - start));
    let what = match &symbol.kind {
        SymbolKind::Direction { direction, .. } => {
            format!("{} {}", direction_words(*direction), level_words(symbol.level))
        }
        SymbolKind::Turn(TurnSign::Right) => "turn right (clockwise)".to_owned(),
        SymbolKind::Turn(TurnSign::Left) => "turn left (counter-clockwise)".to_owned(),
        SymbolKind::Turn(_) => "rotation sign".to_owned(),
        SymbolKind::Volume(VolumeSign::Hold) => return format!("{part}, hold"),
        SymbolKind::Volume(v) => return format!("{part}, {}", format!("{v:?}").to_lowercase()),
        SymbolKind::BodyPart(body) => return format!("{part}, {} pre-sign", body_part_words(*body)),
        SymbolKind::Misc(8 | 9) => return format!("{part}, whole-foot hook"),
        SymbolKind::Misc(1) => return "contact bow".to_owned(),
        SymbolKind::Misc(2 | 3) => return "release sign (the hands let go)".to_owned(),
        SymbolKind::Front(eighths) => {
            return format!("front sign: facing {}", front_words(*eighths));
        }
        SymbolKind::Path(PathSign::Other(1)) => return format!("{part}, path sign (foot)"),
        SymbolKind::Path(PathSign::Other(2)) => return format!("{part}, path sign (head)"),
        SymbolKind::Pin { orientation, black } => {
            return format!("{} pin, pointing {}", if *black { "black" } else { "white" }, orientation);
        }
        SymbolKind::BarLine => return "bar line".to_owned(),
        SymbolKind::StaffLine { .. } => return "staff line".to_owned(),
        SymbolKind::Text(text) => return format!("text \"{text}\""),
        other => return format!("{part}, {other:?}").to_lowercase(),
    };
    format!("{part}, {what}, {duration}")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn a_right_arm_gesture_reads_as_the_notator_says_it() {
        let doc = crate::read::read(crate::demo::WALK_ARMS_TURN_LBN, Some("lbn")).unwrap();
        let grid = PageGrid::of_score(&crate::score::Score::from_document(&doc));
        // `Dirn 1 171 217 8 10 47 H`: right arm forward high for two beats.
        let arm = doc.symbols.iter().find(|s| s.code == "Dirn 1" && s.x == 171.0).unwrap();
        assert_eq!(describe(arm, &grid, ColumnConvention::Lintel), "right arm, forward high, 2 beats");
        let step = doc.symbols.iter().find(|s| s.code == "Dirn 10" && s.x == 122.0).unwrap();
        assert_eq!(describe(step, &grid, ColumnConvention::Lintel), "left support, forward middle, 1 beat");
    }
}
