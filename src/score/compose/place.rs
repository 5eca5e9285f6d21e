//! The place pass: every symbol that is not score structure gets its staff (the nearest one),
//! its signed column on that staff and its start and end in beats.

use super::{Page, Placed};
use crate::diag::Diagnostic;
use crate::read::SymbolKind;
use crate::score::staves::{column_of, nearest_staff};

impl<'a> Page<'a> {
    /// The placed symbols, in file order. Bar lines, staff lines, texts and outliers are not
    /// placed; symbols with a non-finite box or beside no staff are skipped with a warning.
    pub(super) fn place(&self, warnings: &mut Vec<Diagnostic>) -> Vec<Placed<'a>> {
        let mut placed: Vec<Placed> = Vec::new();
        for (si, sym) in self.doc.symbols.iter().enumerate() {
            match sym.kind {
                SymbolKind::BarLine | SymbolKind::StaffLine { .. } => continue,
                SymbolKind::Text(_) => continue,
                _ => {}
            }
            if self.outliers.contains(&si) {
                continue;
            }
            if !(sym.x.is_finite() && sym.y.is_finite() && sym.w.is_finite() && sym.h.is_finite()) {
                warnings
                    .push(Diagnostic::warning(sym.span, format!("`{}` has a non-finite position; skipped", sym.code)));
                continue;
            }
            let Some(staff) = nearest_staff(&self.staves_geo, sym.x_mid()) else {
                warnings.push(Diagnostic::warning(
                    sym.span,
                    format!("`{}` at x={} y={} is not beside any staff; skipped", sym.code, sym.x, sym.y),
                ));
                continue;
            };
            let column = column_of(&self.staves_geo[staff], sym.x_mid());
            let start_beats = self.timeline.beats_at(sym.y);
            let end_beats = self.timeline.beats_at(sym.y_top()).max(start_beats);
            placed.push(Placed { sym, staff, column, start_beats, end_beats });
        }
        placed
    }
}
