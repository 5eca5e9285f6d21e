//! Edit operations: plain values applied to a page document's symbols on its [`PageGrid`].
//! Each returns the indices of the symbols it leaves selected; none touches the file or a window.
//! Times snap to the staff grid; structural symbols (staff and bar lines) move only with
//! measures.

use super::grid::{GRID_BEATS, PageGrid, snap_beats, step_column};
use super::signs::{Sign, SignPlace, redraw_for_side, sign_symbols};
use crate::read::{Document, Level, PageSymbol, PathSign, SymbolKind, VolumeSign};

/// A symbol copied for pasting: where it stood relative to its staff's centre and to the
/// earliest copied start.
#[derive(Clone, Debug, PartialEq)]
pub struct Copied {
    /// The symbol as it was.
    pub symbol: PageSymbol,
    /// Its left edge minus its staff's centre x, page units.
    pub dx_from_centre: f32,
    /// Its start minus the earliest copied start, beats.
    pub t_from_first_beats: f64,
    /// Its bottom edge above its own start's grid line, page units (LED: 1).
    pub y_above_grid: f32,
}

/// One edit of the score.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Writes `sign` in `column` of `staff` from `start_beats` for `duration_beats`, in place
    /// of a direction or turn sign starting there.
    Insert {
        /// Staff index.
        staff: usize,
        /// Signed column.
        column: i32,
        /// Start, beats (snapped to the grid).
        start_beats: f64,
        /// Duration, beats (at least one grid step).
        duration_beats: f64,
        /// The sign.
        sign: Sign,
    },
    /// Removes these symbols.
    Delete(Vec<usize>),
    /// Moves symbols by `d_beats` in time and `d_columns` columns (the centre line skipped).
    Move {
        /// Symbol indices.
        indices: Vec<usize>,
        /// Time shift, beats.
        d_beats: f64,
        /// Column steps, right positive.
        d_columns: i32,
    },
    /// Lengthens (or shortens) symbols by `d_beats`, never below one grid step.
    Stretch {
        /// Symbol indices.
        indices: Vec<usize>,
        /// Change of duration, beats.
        d_beats: f64,
    },
    /// Gives a direction sign another direction and level (a turn sign another sense, a front
    /// sign another facing).
    Change {
        /// Symbol index.
        index: usize,
        /// The new sign (a direction for a direction sign, a turn for a turn sign).
        sign: Sign,
    },
    /// Pastes copied symbols on `staff` from `start_beats`.
    Paste {
        /// What was copied.
        copied: Vec<Copied>,
        /// Target staff.
        staff: usize,
        /// Where the earliest copied symbol starts, beats.
        start_beats: f64,
    },
    /// Joins the right hand of dancer `staff` to the left hand of dancer `staff + 1` from
    /// `start_beats` (a contact bow with a hand sign at each end, outside the staves' arm
    /// columns), held to the end of the score.
    JoinHands {
        /// The left staff of the two.
        staff: usize,
        /// When the hands join, beats (snapped to the grid).
        start_beats: f64,
    },
    /// Lets go of the contact bows between dancers `staff` and `staff + 1` at `start_beats`: a
    /// release sign (LED `Misc 2`) under the middle of their bows, which ends every contact
    /// bowed there before it.
    ReleaseHands {
        /// The left staff of the two.
        staff: usize,
        /// When the hands let go, beats (snapped to the grid).
        start_beats: f64,
    },
    /// Inserts an empty measure, as long as measure `measure` (0-based), before it.
    InsertMeasure {
        /// Index of the measure the new one goes before.
        measure: usize,
    },
    /// Deletes measure `measure` (0-based) and everything written in it.
    DeleteMeasure {
        /// Measure index.
        measure: usize,
    },
}

/// Why an edit could not be applied (the score is left as it was).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EditError {
    /// A symbol index past the document's symbols.
    #[error("there is no symbol {0}")]
    NoSymbol(usize),
    /// A staff index past the score's staves.
    #[error("there is no staff {0}")]
    NoStaff(usize),
    /// A measure index past the score's measures.
    #[error("there is no measure {0}")]
    NoMeasure(usize),
    /// Deleting the only measure.
    #[error("a score keeps at least one measure")]
    LastMeasure,
    /// Nothing to change.
    #[error("nothing selected")]
    Empty,
    /// The sign cannot replace that symbol.
    #[error("{0}")]
    Mismatch(String),
}

/// Applies `edit` to `doc` on `grid`; returns the symbols now selected.
pub fn apply(doc: &mut Document, grid: &PageGrid, edit: &Edit) -> Result<Vec<usize>, EditError> {
    match edit {
        Edit::Insert { staff, column, start_beats, duration_beats, sign } => {
            insert(doc, grid, *staff, *column, *start_beats, *duration_beats, *sign)
        }
        Edit::Delete(indices) => {
            check_indices(doc, indices)?;
            let mut sorted = indices.clone();
            sorted.sort_unstable();
            sorted.dedup();
            for index in sorted.into_iter().rev() {
                doc.symbols.remove(index);
            }
            Ok(Vec::new())
        }
        Edit::Move { indices, d_beats, d_columns } => move_symbols(doc, grid, indices, *d_beats, *d_columns),
        Edit::Stretch { indices, d_beats } => stretch(doc, grid, indices, *d_beats),
        Edit::Change { index, sign } => change(doc, *index, *sign),
        Edit::Paste { copied, staff, start_beats } => paste(doc, grid, copied, *staff, *start_beats),
        Edit::JoinHands { staff, start_beats } => join_hands(doc, grid, *staff, *start_beats),
        Edit::ReleaseHands { staff, start_beats } => release_hands(doc, grid, *staff, *start_beats),
        Edit::InsertMeasure { measure } => super::measures::insert_measure(doc, grid, *measure),
        Edit::DeleteMeasure { measure } => super::measures::delete_measure(doc, grid, *measure),
    }
}

fn check_indices(doc: &Document, indices: &[usize]) -> Result<(), EditError> {
    if indices.is_empty() {
        return Err(EditError::Empty);
    }
    match indices.iter().find(|&&i| i >= doc.symbols.len()) {
        Some(&i) => Err(EditError::NoSymbol(i)),
        None => Ok(()),
    }
}

/// True for staff and bar lines (they move only with measures).
pub fn is_structural(symbol: &PageSymbol) -> bool {
    matches!(symbol.kind, SymbolKind::StaffLine { .. } | SymbolKind::BarLine)
}

/// LED leaves one unit of 24 between a beat's line and a sign: the gap for this grid.
fn grid_gap(grid: &PageGrid, t_beats: f64) -> f32 {
    grid.units_per_beat(t_beats) / 24.0
}

fn insert(
    doc: &mut Document,
    grid: &PageGrid,
    staff: usize,
    column: i32,
    start_beats: f64,
    duration_beats: f64,
    sign: Sign,
) -> Result<Vec<usize>, EditError> {
    let mid = grid.column_mid_x(staff, column).ok_or(EditError::NoStaff(staff))?;
    let start = snap_beats(start_beats);
    let end = start + snap_beats(duration_beats).max(GRID_BEATS);
    let y_start = grid.y_of_beats(start) + grid_gap(grid, start);
    let place = SignPlace {
        x_mid: mid,
        pitch: grid.column_pitch(staff),
        y_start,
        y_end: grid.y_of_beats(end),
        units_per_beat: grid.units_per_beat(start),
        left_side: column < 0,
    };
    let symbols = sign_symbols(sign, &place);
    if symbols.is_empty() {
        return Err(EditError::Mismatch(format!("{sign:?} is not a sign the editor writes")));
    }
    // A sign written over one of its kind in the same column at the same place replaces it
    // (a direction, turn or path over a direction or turn sign starting there).
    let movement = matches!(sign, Sign::Direction { .. } | Sign::Turn { .. } | Sign::Path { .. });
    let starts: Vec<(&SymbolKind, f64)> = symbols.iter().map(|n| (&n.kind, snap_beats(grid.beats_of_y(n.y)))).collect();
    doc.symbols.retain(|s| {
        let in_column = grid.staff_at_x(s.x_mid()) == Some(staff) && grid.column_at_x(staff, s.x_mid()) == Some(column);
        let s_start = snap_beats(grid.beats_of_y(s.y));
        let replaced = if movement {
            s_start == start && matches!(s.kind, SymbolKind::Direction { .. } | SymbolKind::Turn(_))
        } else {
            starts.iter().any(|(kind, t)| same_family(kind, &s.kind) && *t == s_start)
        };
        !(in_column && replaced)
    });
    let first = doc.symbols.len();
    doc.symbols.extend(symbols);
    Ok((first..doc.symbols.len()).collect())
}

/// The outermost arm column (LED), where a contact's hand signs stand.
const HAND_CONTACT_COLUMN: i32 = 5;

fn join_hands(doc: &mut Document, grid: &PageGrid, staff: usize, start_beats: f64) -> Result<Vec<usize>, EditError> {
    let right_mid = grid.column_mid_x(staff, HAND_CONTACT_COLUMN).ok_or(EditError::NoStaff(staff))?;
    let left_mid = grid.column_mid_x(staff + 1, -HAND_CONTACT_COLUMN).ok_or(EditError::NoStaff(staff + 1))?;
    if left_mid <= right_mid {
        return Err(EditError::Mismatch(format!("staves {} and {} overlap: no room for a bow", staff + 1, staff + 2)));
    }
    let start = snap_beats(start_beats);
    let y_start = grid.y_of_beats(start) + grid_gap(grid, start);
    let pitch = grid.column_pitch(staff).min(grid.column_pitch(staff + 1));
    let first = doc.symbols.len();
    doc.symbols.extend(super::signs::hands_bow_symbols(
        right_mid,
        left_mid,
        y_start,
        pitch,
        grid.units_per_beat(start),
    ));
    Ok((first..doc.symbols.len()).collect())
}

fn release_hands(doc: &mut Document, grid: &PageGrid, staff: usize, start_beats: f64) -> Result<Vec<usize>, EditError> {
    let right_mid = grid.column_mid_x(staff, HAND_CONTACT_COLUMN).ok_or(EditError::NoStaff(staff))?;
    let left_mid = grid.column_mid_x(staff + 1, -HAND_CONTACT_COLUMN).ok_or(EditError::NoStaff(staff + 1))?;
    if left_mid <= right_mid {
        return Err(EditError::Mismatch(format!(
            "staves {} and {} overlap: no bow between them",
            staff + 1,
            staff + 2
        )));
    }
    let start = snap_beats(start_beats);
    let y_start = grid.y_of_beats(start) + grid_gap(grid, start);
    let pitch = grid.column_pitch(staff).min(grid.column_pitch(staff + 1));
    let first = doc.symbols.len();
    doc.symbols.push(super::signs::release_symbol(
        0.5 * (right_mid + left_mid),
        y_start,
        pitch,
        grid.units_per_beat(start),
    ));
    Ok((first..doc.symbols.len()).collect())
}

/// Signs of one family replace each other at one place: pre-signs, flexion signs, hooks, front
/// signs, holds.
fn same_family(a: &SymbolKind, b: &SymbolKind) -> bool {
    let hold = SymbolKind::Volume(VolumeSign::Hold);
    match (*a == hold, *b == hold) {
        (true, true) => true,
        (false, false) => std::mem::discriminant(a) == std::mem::discriminant(b),
        _ => false,
    }
}

fn move_symbols(
    doc: &mut Document,
    grid: &PageGrid,
    indices: &[usize],
    d_beats: f64,
    d_columns: i32,
) -> Result<Vec<usize>, EditError> {
    check_indices(doc, indices)?;
    let d_beats = snap_beats(d_beats);
    for &index in indices {
        let Some(symbol) = doc.symbols.get_mut(index) else { continue };
        if is_structural(symbol) {
            continue;
        }
        let start = snap_beats(grid.beats_of_y(symbol.y));
        let above_grid = symbol.y - grid.y_of_beats(start);
        symbol.y = grid.y_of_beats(start + d_beats) + above_grid;
        if d_columns != 0
            && let Some(staff) = grid.staff_at_x(symbol.x_mid())
            && let Some(column) = grid.column_at_x(staff, symbol.x_mid())
            && let Some(mid_from) = grid.column_mid_x(staff, column)
        {
            let to = step_column(column, d_columns);
            let mid_to = grid.column_mid_x(staff, to).unwrap_or(mid_from);
            symbol.x += mid_to - mid_from;
            redraw_for_side(symbol, to < 0);
        }
    }
    Ok(indices.to_vec())
}

fn stretch(doc: &mut Document, grid: &PageGrid, indices: &[usize], d_beats: f64) -> Result<Vec<usize>, EditError> {
    check_indices(doc, indices)?;
    for &index in indices {
        let Some(symbol) = doc.symbols.get_mut(index) else { continue };
        if is_structural(symbol) || !matches!(symbol.kind, SymbolKind::Direction { .. } | SymbolKind::Turn(_)) {
            continue;
        }
        let start = snap_beats(grid.beats_of_y(symbol.y));
        let end = snap_beats(grid.beats_of_y(symbol.y_top()) + d_beats).max(start + GRID_BEATS);
        let (old_top, x_range) = (symbol.y_top(), (symbol.x, symbol.x + symbol.w));
        symbol.h = grid.y_of_beats(end) - symbol.y;
        symbol.lbn_step = None;
        let new_top = symbol.y_top();
        if matches!(symbol.kind, SymbolKind::Direction { .. }) {
            move_path_head(doc, old_top, new_top, x_range);
        }
    }
    Ok(indices.to_vec())
}

/// A straight path's ⊤ (`Ways 2`) standing on a direction sign's top (within LED's rounding)
/// follows that top from `old_top` to `new_top`, so a stretched path stays one path.
fn move_path_head(doc: &mut Document, old_top: f32, new_top: f32, (x0, x1): (f32, f32)) {
    const ROUNDING_UNITS: f32 = 1.5;
    for head in &mut doc.symbols {
        let on_top = (head.y - old_top).abs() <= ROUNDING_UNITS && head.x < x1 && head.x + head.w > x0;
        if on_top && head.kind == SymbolKind::Path(PathSign::Other(2)) {
            head.y += new_top - old_top;
        }
    }
}

fn change(doc: &mut Document, index: usize, sign: Sign) -> Result<Vec<usize>, EditError> {
    let symbol = doc.symbols.get_mut(index).ok_or(EditError::NoSymbol(index))?;
    match (&symbol.kind, sign) {
        (SymbolKind::Direction { left_form, .. }, Sign::Direction { direction, level }) => {
            let left = *left_form || matches!(symbol.code.as_str(), "Dirn 6" | "Dirn 10");
            let (kind, code) = super::signs::direction_symbol(direction, left);
            symbol.kind = kind;
            symbol.code = code;
            symbol.level = level;
        }
        (SymbolKind::Turn(_), Sign::Turn { clockwise }) => {
            let (turn, item) =
                if clockwise { (crate::read::TurnSign::Right, 2) } else { (crate::read::TurnSign::Left, 1) };
            symbol.kind = SymbolKind::Turn(turn);
            symbol.code = format!("Rotn {item}");
        }
        (SymbolKind::Front(_), Sign::Front { eighths }) => {
            symbol.kind = SymbolKind::Front(eighths % 8);
            symbol.code = format!("Face {}", eighths % 8 + 1);
        }
        (kind, _) => return Err(EditError::Mismatch(format!("{kind:?} cannot become {sign:?}"))),
    }
    Ok(vec![index])
}

/// Copies `indices` (structural symbols left out) for [`Edit::Paste`].
pub fn copy(doc: &Document, grid: &PageGrid, indices: &[usize]) -> Vec<Copied> {
    let chosen: Vec<&PageSymbol> =
        indices.iter().filter_map(|&i| doc.symbols.get(i)).filter(|s| !is_structural(s)).collect();
    let starts: Vec<f64> = chosen.iter().map(|s| snap_beats(grid.beats_of_y(s.y))).collect();
    let first = starts.iter().copied().fold(f64::INFINITY, f64::min);
    chosen
        .iter()
        .zip(&starts)
        .map(|(s, &start)| {
            let centre = grid.staff_at_x(s.x_mid()).and_then(|i| grid.staves.get(i)).map_or(0.0, |g| g.centre_x);
            Copied {
                symbol: (*s).clone(),
                dx_from_centre: s.x - centre,
                t_from_first_beats: start - first,
                y_above_grid: s.y - grid.y_of_beats(start),
            }
        })
        .collect()
}

fn paste(
    doc: &mut Document,
    grid: &PageGrid,
    copied: &[Copied],
    staff: usize,
    start_beats: f64,
) -> Result<Vec<usize>, EditError> {
    let centre = grid.staves.get(staff).ok_or(EditError::NoStaff(staff))?.centre_x;
    if copied.is_empty() {
        return Err(EditError::Empty);
    }
    let first = doc.symbols.len();
    let start = snap_beats(start_beats);
    for c in copied {
        let t = start + c.t_from_first_beats;
        let end = t + snap_beats(grid.beats_of_y(c.symbol.y_top()) - grid.beats_of_y(c.symbol.y));
        let mut symbol = c.symbol.clone();
        symbol.span = crate::diag::Span::default();
        symbol.x = centre + c.dx_from_centre;
        symbol.y = grid.y_of_beats(t) + c.y_above_grid;
        if end > t && matches!(symbol.kind, SymbolKind::Direction { .. } | SymbolKind::Turn(_)) {
            symbol.h = grid.y_of_beats(end) - symbol.y;
            symbol.lbn_step = None;
        }
        doc.symbols.push(symbol);
    }
    Ok((first..doc.symbols.len()).collect())
}

/// The level a direction symbol has, when it is one.
pub fn direction_level(symbol: &PageSymbol) -> Option<Level> {
    matches!(symbol.kind, SymbolKind::Direction { .. }).then_some(symbol.level)
}
