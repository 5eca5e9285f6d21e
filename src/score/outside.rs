//! Symbols outside the staff's body columns: straight path signs (a direction between LED's `Ways
//! 1` ⊥ and `Ways 2` ⊤ brackets) and direction signs in columns no pre-sign claims, which join the
//! arm column beside them only when drawn in line with its symbols.
//!
//! A direction in a column beyond the body columns is an arm gesture only when a pre-sign claims
//! that column or it is drawn in line with the arm column beside it; otherwise it is a warning.

use super::claims::x_overlaps;
use super::compose::Placed;
use crate::read::{PathSign, SymbolKind};
use std::collections::BTreeSet;

/// A straight path sign: the ⊥ at its foot, the ⊤ at its head, the direction signs between.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PathBracket {
    /// Index (into the placed symbols) of the `Ways 1` foot.
    pub foot: usize,
    /// Index of the `Ways 2` head.
    pub head: usize,
    /// The direction signs inside.
    pub inner: Vec<usize>,
}

/// Pairs each ⊥ with the nearest ⊤ above it in the same column (x ranges overlapping), with the
/// direction signs between them. Brackets with nothing inside are not paths.
pub(super) fn find_path_brackets(placed: &[Placed]) -> Vec<PathBracket> {
    let is = |p: &Placed, item: i32| p.sym.kind == SymbolKind::Path(PathSign::Other(item));
    let mut used: BTreeSet<usize> = BTreeSet::new();
    let mut out = Vec::new();
    let mut feet: Vec<(usize, &Placed)> = placed.iter().enumerate().filter(|(_, p)| is(p, 1)).collect();
    feet.sort_by(|a, b| a.1.sym.y.total_cmp(&b.1.sym.y).then(a.0.cmp(&b.0)));
    for (fi, f) in feet {
        let head = placed
            .iter()
            .enumerate()
            .filter(|(hi, h)| {
                is(h, 2) && !used.contains(hi) && h.staff == f.staff && h.sym.y >= f.sym.y && x_overlaps(f.sym, h.sym)
            })
            .min_by(|a, b| a.1.sym.y.total_cmp(&b.1.sym.y).then(a.0.cmp(&b.0)));
        let Some((hi, h)) = head else { continue };
        let inner: Vec<usize> = placed
            .iter()
            .enumerate()
            .filter(|(_, d)| {
                matches!(d.sym.kind, SymbolKind::Direction { .. })
                    && d.staff == f.staff
                    && d.sym.y >= f.sym.y
                    && d.sym.y_top() <= h.sym.y_top()
                    && (x_overlaps(d.sym, f.sym) || x_overlaps(d.sym, h.sym))
            })
            .map(|(i, _)| i)
            .collect();
        if inner.is_empty() {
            continue;
        }
        used.insert(hi);
        out.push(PathBracket { foot: fi, head: hi, inner });
    }
    out
}

/// For a direction sign beyond the body columns (|column| ≥ `first_extra`), the arm column next
/// to it when the sign is drawn in line with a direction sign of that column (x ranges
/// overlapping): hand-placed columns drift outward.
pub(super) fn drifted_column(pi: usize, placed: &[Placed], first_extra: i32) -> Option<i32> {
    let p = placed.get(pi)?;
    if p.column.abs() < first_extra {
        return None;
    }
    let inner = p.column.signum() * (first_extra - 1);
    placed
        .iter()
        .enumerate()
        .any(|(qi, q)| {
            qi != pi
                && q.staff == p.staff
                && q.column == inner
                && matches!(q.sym.kind, SymbolKind::Direction { .. })
                && x_overlaps(p.sym, q.sym)
        })
        .then_some(inner)
}
