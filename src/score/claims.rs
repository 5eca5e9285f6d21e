//! Body-part pre-signs: a pre-sign names the movement symbol directly above it in its column (x
//! ranges overlapping, just above; of two side by side, the one it overlaps most), never a
//! neighbour sideways. See [`find_claims`] for how far a claim reaches.
//!
//! A pre-sign directly below a symbol names the part of that symbol and of the symbols that
//! continue it in its column without a pause, up to one another pre-sign names; a symbol of the
//! starting position is continued by nothing. In a gesture column (a leg gesture column or
//! outside the staff) a pre-sign with no symbol directly above it, or one written in the starting
//! position under the column's first symbol of the dance, heads the column: it claims the symbols
//! above it there until another heading. A pre-sign with nothing above it is a warning.

use super::compose::Placed;
use crate::read::{BodyPart, PageSymbol, SymbolKind, VolumeSign};
use std::collections::BTreeSet;

/// Two symbols share a column when their x ranges overlap by this fraction of the narrower one.
const SAME_COLUMN_OVERLAP: f32 = 0.3;

/// The symbol a pre-sign names starts at least this fraction of the pre-sign's height above
/// the pre-sign's bottom (hand-drawn signs overlap the symbol they name).
const PRE_SIGN_OVERLAP: f32 = 0.35;

/// Symbols starting within this fraction of the pre-sign's height of the lowest one above it
/// are side by side: the pre-sign names the one it overlaps most.
const SIDE_BY_SIDE: f32 = 0.2;

/// A pre-sign names the symbols that follow its target in the column until a pause longer than
/// this, beats.
const PHRASE_PAUSE_BEATS: f64 = 0.25;

/// A claim by a body-part pre-sign.
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
    /// The claim names the part of that one symbol only (false: a column heading).
    pub only_target: bool,
}

/// The fraction of the narrower of `a` and `b` their x ranges overlap by (negative: apart).
fn x_overlap_fraction(a: &PageSymbol, b: &PageSymbol) -> f32 {
    let overlap = (a.x + a.w).min(b.x + b.w) - a.x.max(b.x);
    overlap / a.w.min(b.w).max(1.0)
}

/// True when `a` and `b` share a column on the page: their x ranges overlap by at least 30 % of
/// the narrower one.
pub(super) fn x_overlaps(a: &PageSymbol, b: &PageSymbol) -> bool {
    x_overlap_fraction(a, b) >= SAME_COLUMN_OVERLAP
}

/// Symbols a pre-sign can name the part of: direction, turn and hold signs.
fn is_movement(kind: &SymbolKind) -> bool {
    matches!(kind, SymbolKind::Direction { .. } | SymbolKind::Turn(_) | SymbolKind::Volume(VolumeSign::Hold))
}

/// A gesture column: a leg gesture column or one outside the staff (not a support column).
fn is_gesture_column(column: i32) -> bool {
    column.abs() >= 2
}

/// The movement symbols above `placed[pre]` in its column: same staff, x ranges overlapping,
/// bottom at least 0.35 of the pre-sign's height above the pre-sign's bottom (hand-drawn signs
/// overlap the symbol they name: thigh.lbn's measure-3 hip sign by 0.37) and, with
/// `max_gap_units`, at most that far (or the pre-sign's height) over its top. Symbols in `skip`
/// are not candidates. Of those starting within a fifth of the pre-sign's height of the lowest, the
/// one the pre-sign overlaps most (twists.lbn: a hand sign under the hand's column, touching the
/// palm's column beside it).
fn lowest_above(pre: usize, placed: &[Placed], skip: &BTreeSet<usize>, max_gap_units: Option<f32>) -> Option<usize> {
    let p = placed.get(pre)?;
    let lowest = p.sym.y + PRE_SIGN_OVERLAP * p.sym.h;
    let highest = max_gap_units.map_or(f32::INFINITY, |g| p.sym.y_top() + g.max(p.sym.h));
    let above: Vec<(usize, &Placed)> = placed
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
        .collect();
    let first_y = above.iter().map(|(_, q)| q.sym.y).fold(f32::INFINITY, f32::min);
    above
        .into_iter()
        .filter(|(_, q)| q.sym.y <= first_y + SIDE_BY_SIDE * p.sym.h)
        .max_by(|a, b| {
            x_overlap_fraction(p.sym, a.1.sym)
                .total_cmp(&x_overlap_fraction(p.sym, b.1.sym))
                .then(b.1.sym.y.total_cmp(&a.1.sym.y))
                .then(b.0.cmp(&a.0))
        })
        .map(|(i, _)| i)
}

/// The movement symbol directly above `placed[pre]`: see [`lowest_above`], at most
/// `max_gap_units` (or the pre-sign's height) over the pre-sign's top.
pub(super) fn target_above(pre: usize, placed: &[Placed], skip: &BTreeSet<usize>, max_gap_units: f32) -> Option<usize> {
    lowest_above(pre, placed, skip, Some(max_gap_units))
}

/// The symbols that continue `placed[t]` in its column without a pause (a pause: more than
/// [`PHRASE_PAUSE_BEATS`] between one's end and the next one's start), in time order, up to one
/// in `stops` (named by a pre-sign of its own). Outside the staff, where columns are drawn by
/// hand, a symbol in line with the one before it continues it even where it drifted into the
/// next column.
fn continuing(t: usize, placed: &[Placed], consumed: &BTreeSet<usize>, stops: &BTreeSet<usize>) -> Vec<usize> {
    let Some(q) = placed.get(t) else { return Vec::new() };
    let mut following: Vec<(usize, &Placed)> = placed
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            *i != t
                && !consumed.contains(i)
                && r.staff == q.staff
                && r.column.signum() == q.column.signum()
                && (r.column == q.column || (q.column.abs() > 2 && r.column.abs() > 2))
                && r.start_beats > q.start_beats
                && is_movement(&r.sym.kind)
        })
        .collect();
    following.sort_by(|a, b| a.1.start_beats.total_cmp(&b.1.start_beats).then(a.0.cmp(&b.0)));
    let (mut end, mut last) = (q.end_beats, q);
    let mut chain = Vec::new();
    for (i, r) in following {
        if r.start_beats > end + PHRASE_PAUSE_BEATS {
            break;
        }
        if r.column != q.column && !x_overlaps(last.sym, r.sym) {
            continue;
        }
        if stops.contains(&i) {
            break;
        }
        end = end.max(r.end_beats);
        last = r;
        chain.push(i);
    }
    chain
}

/// Every pre-sign's claim, sorted by time (a column heading before the claims of single symbols
/// starting with it), and the pre-signs (indices into `placed`) with no movement symbol above
/// them. Pre-signs in `consumed` (the ends of contact bows) claim nothing. A pre-sign names the
/// part of the symbol directly above it (at most `max_gap_units` over its top) and of those that
/// continue it without a pause up to one another pre-sign names, unless it is a symbol of the
/// starting position; in a gesture column a pre-sign with no symbol directly above it, or one in
/// the starting position under the first symbol of the dance, heads the column from the first
/// symbol above it on.
pub(super) fn find_claims(
    placed: &[Placed],
    consumed: &BTreeSet<usize>,
    max_gap_units: f32,
) -> (Vec<Claim>, Vec<usize>) {
    let mut claims = Vec::new();
    let mut unclaimed = Vec::new();
    // The symbol each pre-sign names directly, or heads the column from.
    let mut named: Vec<(BodyPart, usize, bool)> = Vec::new();
    for (pi, p) in placed.iter().enumerate() {
        let SymbolKind::BodyPart(part) = p.sym.kind else { continue };
        if consumed.contains(&pi) {
            continue;
        }
        if let Some(t) = target_above(pi, placed, consumed, max_gap_units) {
            // Written in the starting position under the column's first symbol of the dance
            // (no symbol of the starting position above it): a column heading.
            let q = &placed[t];
            let heading = p.start_beats < 0.0 && q.end_beats > 0.0 && is_gesture_column(q.column);
            named.push((part, t, !heading));
            continue;
        }
        match lowest_above(pi, placed, consumed, None) {
            Some(t) if placed.get(t).is_some_and(|q| is_gesture_column(q.column)) => named.push((part, t, false)),
            _ => unclaimed.push(pi),
        }
    }
    let stops: BTreeSet<usize> = named.iter().filter(|n| n.2).map(|n| n.1).collect();
    let claim = |part: BodyPart, i: usize, only_target: bool| Claim {
        staff: placed[i].staff,
        column: placed[i].column,
        start_beats: placed[i].start_beats,
        part,
        target: Some(i),
        only_target,
    };
    for &(part, t, only_target) in &named {
        claims.push(claim(part, t, only_target));
        let q = &placed[t];
        if only_target && q.end_beats > 0.0 {
            claims.extend(continuing(t, placed, consumed, &stops).into_iter().map(|i| claim(part, i, true)));
        }
    }
    sort_claims(&mut claims);
    (claims, unclaimed)
}

/// Sorts claims by start, a column heading before the claims of single symbols starting with it
/// (the latest claim that holds a symbol names its part).
pub(super) fn sort_claims(claims: &mut [Claim]) {
    claims.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats).then(a.only_target.cmp(&b.only_target)));
}

/// The part that claims placed symbol `pi` (at `p`), if any: the latest claim of it, or of its
/// column by a heading, that starts at or before it.
pub(super) fn claim_for(claims: &[Claim], pi: usize, p: &Placed) -> Option<BodyPart> {
    claims
        .iter()
        .rfind(|c| {
            c.staff == p.staff
                && c.start_beats <= p.start_beats + 1e-6
                && if c.only_target { c.target == Some(pi) } else { c.column == p.column }
        })
        .map(|c| c.part)
}
