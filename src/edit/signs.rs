//! The signs an editor writes, as page symbols in the `.lbn` reader's terms (group, item and
//! level, so a writer and the reader agree): direction signs, turn signs with their amount pin,
//! holds; and how a direction sign's drawing follows its side of the staff.

use crate::diag::Span;
use crate::read::{Direction, Level, PageSymbol, SymbolKind, TurnSign, VolumeSign};

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

/// The symbols of `sign` with its lower left corner at (`x`, `y`), `h` high (a hold is a small
/// square), on the side given by `left_side`: one symbol, or a turn sign and its pin.
pub fn sign_symbols(sign: Sign, x: f32, y: f32, w: f32, h: f32, left_side: bool) -> Vec<PageSymbol> {
    let at =
        |kind, code: String, level| PageSymbol { kind, code, x, y, w, h, level, lbn_step: None, span: Span::default() };
    match sign {
        Sign::Direction { direction, level } => {
            let (kind, code) = direction_symbol(direction, left_side);
            vec![at(kind, code, level)]
        }
        Sign::Turn { clockwise } => {
            let (turn, item) = if clockwise { (TurnSign::Right, 2) } else { (TurnSign::Left, 1) };
            let pin_side = w * 1.8;
            let pin = PageSymbol {
                kind: SymbolKind::Pin { orientation: 3, black: true },
                code: "Pins 3".into(),
                x: x + 0.5 * w - 0.5 * pin_side,
                y: y + 0.125 * h,
                w: pin_side,
                h: pin_side,
                level: Level::Low,
                lbn_step: None,
                span: Span::default(),
            };
            vec![at(SymbolKind::Turn(turn), format!("Rotn {item}"), Level::Middle), pin]
        }
        Sign::Hold => {
            let side = w * 1.2;
            vec![PageSymbol {
                kind: SymbolKind::Volume(VolumeSign::Hold),
                code: "Volm 7".into(),
                x: x + 0.5 * w - 0.5 * side,
                y,
                w: side,
                h: side,
                level: Level::Blank,
                lbn_step: None,
                span: Span::default(),
            }]
        }
    }
}
