//! Body-part pre-signs: a pre-sign claims the movement symbol directly above it in its column (x
//! ranges overlapping, just above), never a neighbour sideways. How far the claim reaches (the
//! column, a phrase, one symbol) follows where it is written; see [`find_claims`].
//!
//! Outside the staff, a pre-sign written in the starting position designates its column for the
//! whole score, and a later one names the part of that one symbol. Inside the staff it names the
//! part of the symbol above it and of those that follow it without a pause. A pre-sign with nothing
//! above it is a warning.

use super::compose::Placed;
use crate::read::{BodyPart, PageSymbol, SymbolKind, VolumeSign};
use std::collections::BTreeSet;

/// Two symbols share a column when their x ranges overlap by this fraction of the narrower one.
const SAME_COLUMN_OVERLAP: f32 = 0.3;

/// The symbol a pre-sign names starts at least this fraction of the pre-sign's height above
/// the pre-sign's bottom (hand-drawn signs overlap the symbol they name).
const PRE_SIGN_OVERLAP: f32 = 0.35;

/// Inside the staff a pre-sign names the symbols that follow its target in the column until a
/// pause longer than this, beats.
const PHRASE_PAUSE_BEATS: f64 = 0.25;

/// A column claimed by a body-part pre-sign.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Claim {
    /// Staff index.
    pub staff: usize,
    /// The claimed column (the target's).
    pub column: i32,
    /// Start of the claimed symbol, beats.
    pub start_beats: f64,
    /// The body part it names.
    pub part: BodyPart,
    /// Index (into the placed symbols) of the claimed symbol; `None` for text claims.
    pub target: Option<usize>,
    /// Inside the staff a pre-sign names the part of that one symbol only.
    pub only_target: bool,
}

/// True when `a` and `b` share a column on the page: their x ranges overlap by at least 30 % of
/// the narrower one.
pub(super) fn x_overlaps(a: &PageSymbol, b: &PageSymbol) -> bool {
    let overlap = (a.x + a.w).min(b.x + b.w) - a.x.max(b.x);
    let narrower = a.w.min(b.w).max(1.0);
    overlap >= SAME_COLUMN_OVERLAP * narrower
}

/// Symbols a pre-sign can name the part of: direction, turn and hold signs.
fn is_movement(kind: &SymbolKind) -> bool {
    matches!(kind, SymbolKind::Direction { .. } | SymbolKind::Turn(_) | SymbolKind::Volume(VolumeSign::Hold))
}

/// The movement symbol directly above `placed[pre]`: same staff, x ranges overlapping, its
/// bottom at least 0.35 of the pre-sign's height above the pre-sign's bottom (hand-drawn signs
/// overlap the symbol they name: thigh.lbn's measure-3 hip sign by 0.37) and at most
/// `max_gap_units` (or the pre-sign's height) over its top; the lowest such symbol. Symbols in
/// `skip` are not candidates.
pub(super) fn target_above(pre: usize, placed: &[Placed], skip: &BTreeSet<usize>, max_gap_units: f32) -> Option<usize> {
    let p = placed.get(pre)?;
    let lowest = p.sym.y + PRE_SIGN_OVERLAP * p.sym.h;
    let highest = p.sym.y_top() + max_gap_units.max(p.sym.h);
    placed
        .iter()
        .enumerate()
        .filter(|(i, q)| {
            *i != pre
                && !skip.contains(i)
                && q.staff == p.staff
                && is_movement(&q.sym.kind)
                && q.sym.y >= lowest
                && q.sym.y <= highest
                && x_overlaps(p.sym, q.sym)
        })
        .min_by(|a, b| a.1.sym.y.total_cmp(&b.1.sym.y).then(a.0.cmp(&b.0)))
        .map(|(i, _)| i)
}

/// Every pre-sign's claim, sorted by time, and the pre-signs (indices into `placed`) with no
/// movement symbol directly above them. Pre-signs in `consumed` (the ends of contact bows) claim
/// nothing. Outside the staff a pre-sign claims its column until the next pre-sign there (the
/// column keeps that meaning, as LINTEL reads LED files); inside the staff it names the part of
/// that symbol and of the ones that follow it in the column without a pause.
pub(super) fn find_claims(
    placed: &[Placed],
    consumed: &BTreeSet<usize>,
    max_gap_units: f32,
) -> (Vec<Claim>, Vec<usize>) {
    let mut claims = Vec::new();
    let mut unclaimed = Vec::new();
    for (pi, p) in placed.iter().enumerate() {
        let SymbolKind::BodyPart(part) = p.sym.kind else { continue };
        if consumed.contains(&pi) {
            continue;
        }
        let Some((t, q)) =
            target_above(pi, placed, consumed, max_gap_units).and_then(|t| placed.get(t).map(|q| (t, q)))
        else {
            unclaimed.push(pi);
            continue;
        };
        let inside = q.column.abs() <= 2;
        claims.push(Claim {
            staff: q.staff,
            column: q.column,
            start_beats: q.start_beats,
            part,
            target: Some(t),
            only_target: inside,
        });
        if inside {
            // The symbols that continue it in its column without a pause.
            let mut end = q.end_beats;
            let mut following: Vec<(usize, &Placed)> = placed
                .iter()
                .enumerate()
                .filter(|(i, r)| {
                    *i != t
                        && !consumed.contains(i)
                        && r.staff == q.staff
                        && r.column == q.column
                        && r.start_beats > q.start_beats
                        && is_movement(&r.sym.kind)
                })
                .collect();
            following.sort_by(|a, b| a.1.start_beats.total_cmp(&b.1.start_beats).then(a.0.cmp(&b.0)));
            for (i, r) in following {
                if r.start_beats > end + PHRASE_PAUSE_BEATS {
                    break;
                }
                end = end.max(r.end_beats);
                claims.push(Claim {
                    staff: r.staff,
                    column: r.column,
                    start_beats: r.start_beats,
                    part,
                    target: Some(i),
                    only_target: true,
                });
            }
        }
    }
    claims.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats));
    (claims, unclaimed)
}

/// The part that claims placed symbol `pi` (at `p`), if any: the latest claim of its column that
/// starts at or before it, when that claim still holds the column.
pub(super) fn claim_for(claims: &[Claim], pi: usize, p: &Placed) -> Option<BodyPart> {
    claims
        .iter()
        .rfind(|c| {
            c.staff == p.staff
                && c.column == p.column
                && c.start_beats <= p.start_beats + 1e-6
                && (!c.only_target || c.target == Some(pi))
        })
        .map(|c| c.part)
}
