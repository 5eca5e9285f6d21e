//! The signs an editor writes, as page symbols in the `.lbn` reader's terms (group, item and
//! level, so a writer and the reader agree): direction signs, turn signs with their amount pin,
//! holds, body-part pre-signs (`Limb`, `Area 9`), flexion signs (`Volm` 1–4), the whole-foot hook
//! (`Misc` 8/9), front signs (`Face`) and straight path signs (a direction between `Ways 1` ⊥ and
//! `Ways 2` ⊤); and how a direction sign's drawing follows its side of the staff.
//!
//! A pre-sign, a flexion sign and a hook stand just below the start of the symbol they belong to,
//! in its column (half a beat high, as LED draws them), where the reader's claim and attach passes
//! find them.

use crate::diag::Span;
use crate::read::{BodyPart, Direction, Level, PageSymbol, PathSign, Side, SymbolKind, TurnSign, VolumeSign};

/// A sign to place, before it has a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// A direction sign.
    Direction {
        /// Which way.
        direction: Direction,
        /// Its level (shading).
        level: Level,
    },
    /// A turn sign, a quarter turn (its pin inside).
    Turn {
        /// Clockwise seen from above (a right turn).
        clockwise: bool,
    },
    /// A hold sign (keep the part where it is).
    Hold,
    /// A body-part pre-sign under the symbol starting at the place (its side from the column's).
    PreSign(PreSign),
    /// A flexion sign (bent, stretched, straight, relaxed) under the symbol starting at the place.
    Volume(VolumeSign),
    /// The whole-foot hook under the step or leg gesture starting at the place (its side from the
    /// column's): a step lands flat, a leg gesture touches the floor.
    Hook,
    /// A front sign: the dancer faces `eighths` × 45° clockwise from the audience.
    Front {
        /// 0..=7.
        eighths: u8,
    },
    /// A straight path: the direction the dancer travels, between a ⊥ below its start and a ⊤
    /// above its end.
    Path {
        /// Which way the path goes.
        direction: Direction,
    },
}

/// The body parts a pre-sign can name in `.lbn` (the format has no head pre-sign).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreSign {
    /// Upper arm (LED's elbow sign, `Limb` 2/7).
    UpperArm,
    /// Lower arm (LED's wrist sign, `Limb` 3/8).
    LowerArm,
    /// Hand (`Limb` 4/9): a hand support in a leg column.
    Hand,
    /// Hip (`Limb` 11/16): sitting, in a support column.
    Hip,
    /// Knee (`Limb` 12/17): kneeling in a support column, the thigh in a leg column.
    Knee,
    /// Foot (`Limb` 14/19): back on the foot.
    Foot,
    /// Chest (`Area` 9): the chest's gestures in a body column, lying in a support column.
    Chest,
}

impl PreSign {
    /// The body part on `side`.
    pub fn part(self, side: Side) -> BodyPart {
        match self {
            PreSign::UpperArm => BodyPart::Elbow(side),
            PreSign::LowerArm => BodyPart::Wrist(side),
            PreSign::Hand => BodyPart::Hand(side),
            PreSign::Hip => BodyPart::Hip(side),
            PreSign::Knee => BodyPart::Knee(side),
            PreSign::Foot => BodyPart::Foot(side),
            PreSign::Chest => BodyPart::Chest,
        }
    }

    /// LED's group and item for the part on `side` (left items first, right ones 5 on).
    pub fn code(self, side: Side) -> (&'static str, i32) {
        let sided = |left: i32| if side == Side::Left { left } else { left + 5 };
        match self {
            PreSign::UpperArm => ("Limb", sided(2)),
            PreSign::LowerArm => ("Limb", sided(3)),
            PreSign::Hand => ("Limb", sided(4)),
            PreSign::Hip => ("Limb", sided(11)),
            PreSign::Knee => ("Limb", sided(12)),
            PreSign::Foot => ("Limb", sided(14)),
            PreSign::Chest => ("Area", 9),
        }
    }
}

/// LED's `Volm` item of a flexion sign; `None` for the hold and unknown items.
pub fn volume_item(volume: VolumeSign) -> Option<i32> {
    match volume {
        VolumeSign::Relaxed => Some(1),
        VolumeSign::Straight => Some(2),
        VolumeSign::Bent => Some(3),
        VolumeSign::Stretched => Some(4),
        VolumeSign::Hold | VolumeSign::Other(_) => None,
    }
}

/// Where a sign goes on the page: its column's middle, the column pitch, the page y of its
/// start (past LED's one-unit gap) and end, and a beat's page units there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignPlace {
    /// Middle of the column, page x.
    pub x_mid: f32,
    /// Column pitch, page units.
    pub pitch: f32,
    /// Bottom of the sign (its start), page y.
    pub y_start: f32,
    /// Top of the sign (its end), page y.
    pub y_end: f32,
    /// Page units of one beat at the start.
    pub units_per_beat: f32,
    /// The column is left of the centre line.
    pub left_side: bool,
}

/// LED's `Dirn` item for `direction`, in the left-side drawing when `left_side` (forward and
/// backward come in two drawings).
pub fn direction_item(direction: Direction, left_side: bool) -> i32 {
    match direction {
        Direction::Forward if left_side => 10,
        Direction::Forward => 1,
        Direction::RightForward => 2,
        Direction::Right => 3,
        Direction::RightBackward => 4,
        Direction::Backward if left_side => 6,
        Direction::Backward => 5,
        Direction::LeftBackward => 7,
        Direction::Left => 8,
        Direction::LeftForward => 9,
        Direction::Place => 11,
    }
}

/// A direction symbol's kind and code for its side of the staff.
pub fn direction_symbol(direction: Direction, left_side: bool) -> (SymbolKind, String) {
    let item = direction_item(direction, left_side);
    let left_form = matches!(item, 6 | 10);
    (SymbolKind::Direction { direction, left_form }, format!("Dirn {item}"))
}

/// Redraws a direction symbol for the side of the staff it now stands on (other symbols as they are).
pub fn redraw_for_side(symbol: &mut PageSymbol, left_side: bool) {
    if let SymbolKind::Direction { direction, .. } = symbol.kind {
        let (kind, code) = direction_symbol(direction, left_side);
        symbol.kind = kind;
        symbol.code = code;
    }
}

/// Width of a direction, turn or hold sign on a staff of column pitch `pitch` (LED: 10 of 12).
pub fn sign_width(pitch: f32) -> f32 {
    pitch * 10.0 / 12.0
}

/// A symbol of `kind` (code `code`) from (`x`, `y`), `w` × `h`, not yet read from a file.
fn symbol(kind: SymbolKind, code: String, [x, y, w, h]: [f32; 4], level: Level) -> PageSymbol {
    PageSymbol { kind, code, x, y, w, h, level, lbn_step: None, span: Span::default() }
}

/// The symbols of `sign` at `place`: one symbol, a turn sign and its pin, or a path's bracket
/// and direction. Direction, turn and path signs span the place's time; a hold is a small
/// square at its start; pre-signs, flexion signs and hooks stand below it.
pub fn sign_symbols(sign: Sign, place: &SignPlace) -> Vec<PageSymbol> {
    let w = sign_width(place.pitch);
    let (x, y, h) = (place.x_mid - 0.5 * w, place.y_start, place.y_end - place.y_start);
    let side = if place.left_side { Side::Left } else { Side::Right };
    // Flexion signs and hooks: half a beat high, ending at the start of the symbol they belong to
    // (LED: 12 × 12 under a 24-unit beat).
    let half_beat = 0.5 * place.units_per_beat;
    let below = |width: f32, height: f32| [place.x_mid - 0.5 * width, y - height, width, height];
    match sign {
        Sign::Direction { direction, level } => {
            let (kind, code) = direction_symbol(direction, place.left_side);
            vec![symbol(kind, code, [x, y, w, h], level)]
        }
        Sign::Turn { clockwise } => {
            let (turn, item) = if clockwise { (TurnSign::Right, 2) } else { (TurnSign::Left, 1) };
            let pin_side = w * 1.8;
            let pin = [x + 0.5 * w - 0.5 * pin_side, y + 0.125 * h, pin_side, pin_side];
            vec![
                symbol(SymbolKind::Turn(turn), format!("Rotn {item}"), [x, y, w, h], Level::Middle),
                symbol(SymbolKind::Pin { orientation: 3, black: true }, "Pins 3".into(), pin, Level::Low),
            ]
        }
        Sign::Hold => {
            let square = w * 1.2;
            let at = [x + 0.5 * w - 0.5 * square, y, square, square];
            vec![symbol(SymbolKind::Volume(VolumeSign::Hold), "Volm 7".into(), at, Level::Blank)]
        }
        Sign::PreSign(pre) => {
            let (group, item) = pre.code(side);
            // A beat high, half over the symbol it names, as LED places it (12 × 24 under a
            // 24-unit beat).
            let at = [place.x_mid - 0.5 * place.pitch, y - half_beat, place.pitch, 2.0 * half_beat];
            vec![symbol(SymbolKind::BodyPart(pre.part(side)), format!("{group} {item}"), at, Level::Blank)]
        }
        Sign::Volume(volume) => match volume_item(volume) {
            Some(item) => {
                let at = below(place.pitch, half_beat);
                vec![symbol(SymbolKind::Volume(volume), format!("Volm {item}"), at, Level::Blank)]
            }
            None => Vec::new(),
        },
        Sign::Hook => {
            let item = if place.left_side { 9 } else { 8 };
            vec![symbol(SymbolKind::Misc(item), format!("Misc {item}"), below(place.pitch, half_beat), Level::Blank)]
        }
        Sign::Front { eighths } => {
            let item = i32::from(eighths % 8) + 1;
            let square = 1.5 * place.pitch;
            let at = [place.x_mid - 0.5 * square, y, square, square];
            vec![symbol(SymbolKind::Front(eighths % 8), format!("Face {item}"), at, Level::Blank)]
        }
        Sign::Path { direction } => {
            // ⊥ a quarter beat below the start, the direction over the place's time, ⊤ a quarter
            // beat above its end: the reader's straight-path bracket.
            let quarter = 0.25 * place.units_per_beat;
            let (kind, code) = direction_symbol(direction, place.left_side);
            // The direction first: it is what the editor selects and the keys change.
            vec![
                symbol(kind, code, [x, y, w, h], Level::Middle),
                symbol(
                    SymbolKind::Path(PathSign::Other(1)),
                    "Ways 1".into(),
                    [x, y - quarter, w, quarter],
                    Level::Blank,
                ),
                symbol(SymbolKind::Path(PathSign::Other(2)), "Ways 2".into(), [x, y + h, w, quarter], Level::Blank),
            ]
        }
    }
}

/// A release sign (LED `Misc 2`) centred on page x `x_mid` from `y_start`: a column pitch wide
/// and a third of a beat high, as LED draws it.
pub fn release_symbol(x_mid: f32, y_start: f32, pitch: f32, units_per_beat: f32) -> PageSymbol {
    let at = [x_mid - 0.5 * pitch, y_start, pitch, units_per_beat / 3.0];
    symbol(SymbolKind::Misc(2), "Misc 2".into(), at, Level::Blank)
}

/// A contact bow joining two hands (LED `Misc 1` with a hand sign at each end, `Limb 9` the
/// right hand at `right_hand_mid`, `Limb 4` the left hand at `left_hand_mid`, page x, the right
/// hand's to the left): the part signs half a beat high from `y_start`, the bow between their
/// inner edges from the same start.
pub fn hands_bow_symbols(
    right_hand_mid: f32,
    left_hand_mid: f32,
    y_start: f32,
    pitch: f32,
    units_per_beat: f32,
) -> Vec<PageSymbol> {
    let h = 0.5 * units_per_beat;
    let right = [right_hand_mid - 0.5 * pitch, y_start, pitch, h];
    let left = [left_hand_mid - 0.5 * pitch, y_start, pitch, h];
    // LED's bow: 8 units high under a 24-unit beat.
    let bow_h = h / 1.5;
    let bow = [right[0] + pitch, y_start, (left[0] - right[0] - pitch).max(1.0), bow_h];
    vec![
        symbol(SymbolKind::Misc(1), "Misc 1".into(), bow, Level::Blank),
        symbol(SymbolKind::BodyPart(BodyPart::Hand(Side::Right)), "Limb 9".into(), right, Level::Blank),
        symbol(SymbolKind::BodyPart(BodyPart::Hand(Side::Left)), "Limb 4".into(), left, Level::Blank),
    ]
}
