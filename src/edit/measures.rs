//! Inserting and deleting measures: everything written later moves up or down by the measure's
//! height, the bar lines follow and the staff lines grow or shrink with the score.

use super::grid::{PageGrid, snap_beats};
use super::ops::{EditError, is_structural};
use crate::read::{Document, Level, SymbolKind};

/// Page units within which a symbol's bottom counts as on a bar line.
const ON_BAR_UNITS: f32 = 0.5;

/// Inserts an empty measure as long as measure `measure`, before it.
pub fn insert_measure(doc: &mut Document, grid: &PageGrid, measure: usize) -> Result<Vec<usize>, EditError> {
    let m = grid.measures.get(measure).ok_or(EditError::NoMeasure(measure))?;
    let (bottom, height) = (m.y_bottom, m.y_top - m.y_bottom);
    let template = doc
        .symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::BarLine)
        .min_by(|a, b| (a.y - bottom).abs().total_cmp(&(b.y - bottom).abs()))
        .cloned();
    for symbol in &mut doc.symbols {
        if matches!(symbol.kind, SymbolKind::StaffLine { .. }) {
            symbol.h += height;
            symbol.lbn_step = None;
        } else if symbol.y > bottom + ON_BAR_UNITS {
            symbol.y += height;
        }
    }
    if let Some(mut bar) = template {
        bar.y = bottom + height;
        bar.level = Level::Blank;
        doc.symbols.push(bar);
    }
    Ok(Vec::new())
}

/// Deletes measure `measure` with what starts in it; a later measure's contents move down.
pub fn delete_measure(doc: &mut Document, grid: &PageGrid, measure: usize) -> Result<Vec<usize>, EditError> {
    let m = grid.measures.get(measure).ok_or(EditError::NoMeasure(measure))?;
    if grid.measures.len() <= 1 {
        return Err(EditError::LastMeasure);
    }
    let (bottom, top, height) = (m.y_bottom, m.y_top, m.y_top - m.y_bottom);
    let (start, end) = (m.start_beats, m.start_beats + m.beats);
    // The first measure keeps its double bar (beat 0) and loses its top bar; later ones lose
    // their bottom bar and their top bar comes down to it.
    let bar_gone = if measure == 0 { top } else { bottom };
    doc.symbols.retain(|s| {
        if s.kind == SymbolKind::BarLine {
            return (s.y - bar_gone).abs() > ON_BAR_UNITS;
        }
        if is_structural(s) {
            return true;
        }
        let t = snap_beats(grid.beats_of_y(s.y));
        !(t >= start && t < end && s.y > bottom + ON_BAR_UNITS)
    });
    for symbol in &mut doc.symbols {
        if matches!(symbol.kind, SymbolKind::StaffLine { .. }) {
            symbol.h = (symbol.h - height).max(0.0);
            symbol.lbn_step = None;
        } else if symbol.y > top - ON_BAR_UNITS {
            symbol.y -= height;
        }
    }
    Ok(Vec::new())
}
