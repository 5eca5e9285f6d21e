//! Each member's target spot for a behaviour event: the assignment to a formation, a kept shape
//! moved or scaled, or the gaps of a line to merge into.

use crate::ensemble::assign;
use crate::ensemble::plan::{Behaviour, Method, Plan, Reference};
use glam::DVec2;

/// The centroid of `points` (the origin for none).
pub(super) fn mean(points: &[DVec2]) -> DVec2 {
    if points.is_empty() {
        return DVec2::ZERO;
    }
    points.iter().copied().sum::<DVec2>() / points.len() as f64
}

/// Each member's target for a behaviour event, from their current positions `from` (in member
/// order) and everyone's positions `all` (for merges).
pub fn targets_for(plan: &Plan, ev: &Behaviour, from: &[DVec2], all: &[DVec2]) -> Vec<DVec2> {
    match &ev.method {
        Method::Shortest(fi) => {
            let spots = &plan.formations[*fi].spots;
            assign::min_squared_travel(from, spots).into_iter().map(|j| spots[j]).collect()
        }
        Method::Order(fi) => {
            let spots = &plan.formations[*fi].spots;
            assign::order_preserving(from, spots, assign::principal_axis(from)).into_iter().map(|j| spots[j]).collect()
        }
        Method::Keep { reference, scale, move_m } => {
            let centre = match reference {
                Reference::Centre => mean(from),
                Reference::Performer(k) => from.get(*k).copied().unwrap_or_else(|| mean(from)),
                Reference::Row(k) => {
                    let rows = rows_of(from);
                    let row = &rows[(*k).min(rows.len() - 1)];
                    mean(&row.iter().map(|&i| from[i]).collect::<Vec<_>>())
                }
            };
            from.iter().map(|p| centre + (*p - centre) * *scale + *move_m).collect()
        }
        Method::Merge(other) => {
            let g = &plan.groups[*other];
            let line: Vec<DVec2> = all[g.first..g.first + g.count].to_vec();
            let gaps = merge_gaps(&line, from.len());
            let axis = assign::principal_axis(&line);
            assign::order_preserving(from, &gaps, axis).into_iter().map(|j| gaps[j]).collect()
        }
        Method::Hold { .. } => from.to_vec(),
    }
}

/// Rows of a formation, front first: performers whose y differs by less than a third of the
/// typical spacing share a row. Indices into `points`, each row left to right.
pub fn rows_of(points: &[DVec2]) -> Vec<Vec<usize>> {
    let mut idx: Vec<usize> = (0..points.len()).collect();
    idx.sort_by(|a, b| points[*a].y.total_cmp(&points[*b].y).then(points[*a].x.total_cmp(&points[*b].x)));
    let spacing = crate::ensemble::shapes::min_spacing(points);
    let tol = if spacing.is_finite() { spacing / 3.0 } else { 0.1 };
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for i in idx {
        match rows.last_mut() {
            Some(row) if (points[i].y - points[row[0]].y).abs() < tol => row.push(i),
            _ => rows.push(vec![i]),
        }
    }
    for row in &mut rows {
        row.sort_by(|a, b| points[*a].x.total_cmp(&points[*b].x));
    }
    rows
}

/// The gaps of a line of performers a merging line fills: midpoints between neighbours along
/// the line and one beyond each end, the `count` nearest the middle, in line order.
pub fn merge_gaps(line: &[DVec2], count: usize) -> Vec<DVec2> {
    let axis = assign::principal_axis(line);
    let mut sorted = line.to_vec();
    sorted.sort_by(|a, b| a.dot(axis).total_cmp(&b.dot(axis)));
    let mut gaps = Vec::new();
    if sorted.len() >= 2 {
        let first_half = (sorted[1] - sorted[0]) * 0.5;
        let last_half = (sorted[sorted.len() - 1] - sorted[sorted.len() - 2]) * 0.5;
        gaps.push(sorted[0] - first_half);
        for w in sorted.windows(2) {
            gaps.push((w[0] + w[1]) * 0.5);
        }
        gaps.push(sorted[sorted.len() - 1] + last_half);
    } else if let Some(p) = sorted.first() {
        gaps.push(*p - axis * 0.5);
        gaps.push(*p + axis * 0.5);
    }
    let mid = (gaps.len() as f64 - 1.0) * 0.5;
    let mut by_middle: Vec<usize> = (0..gaps.len()).collect();
    by_middle.sort_by(|a, b| (*a as f64 - mid).abs().total_cmp(&(*b as f64 - mid).abs()).then(a.cmp(b)));
    let mut keep: Vec<usize> = by_middle.into_iter().take(count).collect();
    keep.sort_unstable();
    keep.into_iter().map(|k| gaps[k]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_gaps_interleave_a_line() {
        let line: Vec<DVec2> = (0..4).map(|k| DVec2::new(k as f64 * 2.0, 0.0)).collect();
        let gaps = merge_gaps(&line, 3);
        assert_eq!(gaps, vec![DVec2::new(1.0, 0.0), DVec2::new(3.0, 0.0), DVec2::new(5.0, 0.0)]);
    }
}
