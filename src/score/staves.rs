//! Finding staves on the page and the column of each symbol.
//!
//! A staff is three vertical lines, the centre one midway between the outer ones. Columns are
//! measured from the centre line as a fraction of the staff's half width, never in fixed units.

use crate::read::{PageSymbol, Side, SymbolKind};

/// A staff found on the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StaffGeometry {
    /// x of the centre line.
    pub centre_x: f32,
    /// Centre to outer line.
    pub half_width: f32,
    /// Lowest y of its lines.
    pub y_bottom: f32,
}

/// Which convention assigns the columns outside the staff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnConvention {
    /// Textbook: 1st column outside = body, 2nd = arm, 3rd = head (right side).
    Standard,
    /// LED/LINTEL practice: the three columns outside are all arm columns unless claimed.
    Lintel,
}

/// The region of a staff a symbol's centre falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    /// Support column.
    Support(Side),
    /// Leg gesture column.
    LegGesture(Side),
    /// Body column (standard convention only).
    Body(Side),
    /// Arm column.
    Arm(Side),
    /// Head column (right, standard convention only).
    Head,
    /// Further out: free for claimed parts.
    Extra(Side),
}

/// Finds staves from the staff lines. Centre lines marked by the format are tried first; any
/// three consecutive lines with the middle one midway between the others form a staff.
pub fn find_staves(symbols: &[PageSymbol]) -> Vec<StaffGeometry> {
    let mut lines: Vec<(f32, bool, f32)> = symbols
        .iter()
        .filter_map(|s| match s.kind {
            SymbolKind::StaffLine { centre_hint } => Some((s.x_mid(), centre_hint, s.y)),
            _ => None,
        })
        .filter(|(x, _, _)| x.is_finite())
        .collect();
    lines.sort_by(|a, b| a.0.total_cmp(&b.0));
    lines.dedup_by(|a, b| (a.0 - b.0).abs() < 0.5);
    let mut used = vec![false; lines.len()];
    let mut staves = Vec::new();
    let symmetric = |l: f32, c: f32, r: f32| {
        let (a, b) = (c - l, r - c);
        a > 0.0 && b > 0.0 && (a - b).abs() <= 0.2 * a.max(b)
    };
    // Pass 1: hinted centre lines with their nearest unused neighbours.
    for i in 0..lines.len() {
        if !lines[i].1 || used[i] {
            continue;
        }
        let left = (0..i).rev().find(|&j| !used[j] && !lines[j].1);
        let right = (i + 1..lines.len()).find(|&j| !used[j] && !lines[j].1);
        if let (Some(l), Some(r)) = (left, right)
            && symmetric(lines[l].0, lines[i].0, lines[r].0)
        {
            for k in [l, i, r] {
                used[k] = true;
            }
            staves.push(geometry(lines[l], lines[i], lines[r]));
        }
    }
    // Pass 2: any remaining symmetric triple of consecutive unused lines.
    let mut i = 0;
    while i + 2 < lines.len() {
        let free: Vec<usize> = (i..lines.len()).filter(|&k| !used[k]).take(3).collect();
        if let [a, b, c] = free[..] {
            if symmetric(lines[a].0, lines[b].0, lines[c].0) {
                for k in [a, b, c] {
                    used[k] = true;
                }
                staves.push(geometry(lines[a], lines[b], lines[c]));
            }
            i = a + 1;
        } else {
            break;
        }
    }
    staves.sort_by(|a, b| a.centre_x.total_cmp(&b.centre_x));
    staves
}

fn geometry(l: (f32, bool, f32), c: (f32, bool, f32), r: (f32, bool, f32)) -> StaffGeometry {
    StaffGeometry { centre_x: c.0, half_width: ((r.0 - l.0) * 0.5).max(1.0), y_bottom: l.2.min(c.2).min(r.2) }
}

/// Index of the staff a symbol belongs to: the nearest centre line, if within reach
/// (the staff and six columns each side of it).
pub fn nearest_staff(staves: &[StaffGeometry], x: f32) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, s) in staves.iter().enumerate() {
        let d = (x - s.centre_x).abs();
        if d <= s.half_width * 3.0 && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((i, d));
        }
    }
    best.map(|(i, _)| i)
}

/// Signed column of x on a staff: ±1 support, ±2 leg gesture, ±3, ±4, … the columns outside,
/// each a third of the half width wide (LED's 12-unit pitch on a 37-unit half width).
pub fn column_of(staff: &StaffGeometry, x: f32) -> i32 {
    let d = x - staff.centre_x;
    let f = d.abs() / staff.half_width;
    let side = if d < 0.0 { -1 } else { 1 };
    // Inside: support up to two thirds (LINTEL puts turn signs at ±2 grid steps), then leg.
    let magnitude = if f <= 2.0 / 3.0 {
        1
    } else if f <= 1.0 + 0.05 {
        2
    } else {
        let pitch = 1.0 / 3.0;
        let band = ((f - 1.0) / pitch).ceil().max(1.0) as i32;
        2 + band
    };
    side * magnitude
}

/// The zone of a signed column under a convention.
pub fn zone_of(column: i32, convention: ColumnConvention) -> Zone {
    let side = if column < 0 { Side::Left } else { Side::Right };
    match (column.abs(), convention) {
        (0 | 1, _) => Zone::Support(side),
        (2, _) => Zone::LegGesture(side),
        (3, ColumnConvention::Standard) => Zone::Body(side),
        (4, ColumnConvention::Standard) => Zone::Arm(side),
        (5, ColumnConvention::Standard) if side == Side::Right => Zone::Head,
        (3..=5, ColumnConvention::Lintel) => Zone::Arm(side),
        _ => Zone::Extra(side),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::read::Level;

    fn line(x: f32, centre: bool) -> PageSymbol {
        PageSymbol {
            kind: SymbolKind::StaffLine { centre_hint: centre },
            code: "Stav".into(),
            x,
            y: 12.0,
            w: 1.0,
            h: 600.0,
            level: Level::Blank,
            lbn_step: None,
            span: Span::default(),
        }
    }

    #[test]
    fn finds_two_staves_with_or_without_hints() {
        let hinted = [
            line(96.0, false),
            line(170.0, false),
            line(266.0, false),
            line(340.0, false),
            line(133.0, true),
            line(303.0, true),
        ];
        let s = find_staves(&hinted);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].centre_x, 133.5);
        assert_eq!(s[1].centre_x, 303.5);
        assert_eq!(s[0].half_width, 37.0);
        let plain = [line(96.0, false), line(170.0, false), line(133.0, false)];
        assert_eq!(find_staves(&plain).len(), 1);
        // Wrong hint: the "centre" is an outer line; pass 2 still finds the staff.
        let wrong = [line(96.0, true), line(170.0, false), line(133.0, false)];
        assert_eq!(find_staves(&wrong).len(), 1);
    }

    #[test]
    fn columns_scale_with_staff_width() {
        let s = StaffGeometry { centre_x: 133.5, half_width: 37.0, y_bottom: 0.0 };
        assert_eq!(column_of(&s, 139.0), 1);
        assert_eq!(column_of(&s, 127.0), -1);
        assert_eq!(column_of(&s, 164.0), 2);
        assert_eq!(column_of(&s, 102.0), -2);
        assert_eq!(column_of(&s, 176.0), 3);
        assert_eq!(column_of(&s, 190.0), 4);
        assert_eq!(column_of(&s, 86.0), -3);
        let wide = StaffGeometry { centre_x: 0.0, half_width: 74.0, y_bottom: 0.0 };
        assert_eq!(column_of(&wide, 2.0 * (164.0 - 133.5)), 2);
        assert_eq!(zone_of(4, ColumnConvention::Standard), Zone::Arm(Side::Right));
        assert_eq!(zone_of(3, ColumnConvention::Standard), Zone::Body(Side::Right));
        assert_eq!(zone_of(-3, ColumnConvention::Lintel), Zone::Arm(Side::Left));
    }
}
