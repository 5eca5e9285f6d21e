//! Basic formation shapes as spots in stage metres: line, block, circle, arc and wedge.
//! Plain functions of their parameters; the spot order is the shape's natural order.

use glam::DVec2;

/// Evenly spaced spots from `from` to `to`, both ends included (the middle point for one).
pub fn line(from: DVec2, to: DVec2, count: usize) -> Vec<DVec2> {
    if count == 1 {
        return vec![(from + to) * 0.5];
    }
    (0..count).map(|k| from.lerp(to, k as f64 / (count - 1) as f64)).collect()
}

/// A rectangular block of `rows` × `columns` spots `spacing_m` apart, centred at `centre`,
/// rotated by `rotate_rad` counter-clockwise; rows run from the front (low y) to the back.
pub fn block(centre: DVec2, rows: usize, columns: usize, spacing_m: f64, rotate_rad: f64) -> Vec<DVec2> {
    let rot = DVec2::from_angle(rotate_rad);
    let mut out = Vec::with_capacity(rows * columns);
    for r in 0..rows {
        for c in 0..columns {
            let local = DVec2::new(
                (c as f64 - (columns as f64 - 1.0) * 0.5) * spacing_m,
                (r as f64 - (rows as f64 - 1.0) * 0.5) * spacing_m,
            );
            out.push(centre + rot.rotate(local));
        }
    }
    out
}

/// Rows and columns of the most nearly square block of exactly `count` spots that fits
/// `size_m` (columns along x), with its spacing: `count` is split as `rows × columns` with the
/// spacing as large as possible; the last row may be shorter.
pub fn block_of_count(size_m: DVec2, count: usize) -> (usize, usize, f64) {
    let mut best = (1, count.max(1), 0.0);
    for rows in 1..=count.max(1) {
        let columns = count.div_ceil(rows);
        let sx = if columns > 1 { size_m.x / (columns - 1) as f64 } else { f64::INFINITY };
        let sy = if rows > 1 { size_m.y / (rows - 1) as f64 } else { f64::INFINITY };
        let spacing = sx.min(sy);
        if spacing > best.2 && spacing.is_finite() || (best.2 == 0.0 && spacing.is_finite()) {
            best = (rows, columns, spacing);
        }
    }
    if !best.2.is_finite() || best.2 == 0.0 {
        best.2 = size_m.x.max(size_m.y).max(1.0);
    }
    best
}

/// A block of exactly `count` spots in `size_m`; the last (back) row holds the remainder,
/// centred.
pub fn block_count(centre: DVec2, size_m: DVec2, count: usize, rotate_rad: f64) -> Vec<DVec2> {
    let (rows, columns, spacing) = block_of_count(size_m, count);
    let full = block(centre, rows, columns, spacing, rotate_rad);
    let extra = rows * columns - count;
    if extra == 0 {
        return full;
    }
    let rot = DVec2::from_angle(rotate_rad);
    let mut out: Vec<DVec2> = full[..(rows - 1) * columns].to_vec();
    let last = columns - extra;
    for c in 0..last {
        let local = DVec2::new(
            (c as f64 - (last as f64 - 1.0) * 0.5) * spacing,
            ((rows - 1) as f64 - (rows as f64 - 1.0) * 0.5) * spacing,
        );
        out.push(centre + rot.rotate(local));
    }
    out
}

/// `count` spots evenly round a circle, the first one at the front (towards the audience, −y).
pub fn circle(centre: DVec2, radius_m: f64, count: usize) -> Vec<DVec2> {
    let start = -std::f64::consts::FRAC_PI_2;
    (0..count)
        .map(|k| centre + DVec2::from_angle(start + std::f64::consts::TAU * k as f64 / count as f64) * radius_m)
        .collect()
}

/// `count` spots evenly along an arc from `from_rad` to `to_rad` (counter-clockwise from +x),
/// both ends included.
pub fn arc(centre: DVec2, radius_m: f64, from_rad: f64, to_rad: f64, count: usize) -> Vec<DVec2> {
    if count == 1 {
        return vec![centre + DVec2::from_angle((from_rad + to_rad) * 0.5) * radius_m];
    }
    (0..count)
        .map(|k| {
            let a = from_rad + (to_rad - from_rad) * k as f64 / (count - 1) as f64;
            centre + DVec2::from_angle(a) * radius_m
        })
        .collect()
}

/// A wedge (flying V) of `count` spots: the apex at the front, row k behind it holding k + 1
/// spots `spacing_m` apart, rows `spacing_m` apart, rotated by `rotate_rad`.
pub fn wedge(apex: DVec2, spacing_m: f64, count: usize, rotate_rad: f64) -> Vec<DVec2> {
    let rot = DVec2::from_angle(rotate_rad);
    let mut out = Vec::with_capacity(count);
    let mut row = 0usize;
    while out.len() < count {
        let in_row = (row + 1).min(count - out.len());
        let width = row as f64 * spacing_m;
        for c in 0..in_row {
            let x = if row == 0 { 0.0 } else { -width * 0.5 + c as f64 * spacing_m };
            let x = if in_row < row + 1 { x + (row + 1 - in_row) as f64 * spacing_m * 0.5 } else { x };
            out.push(apex + rot.rotate(DVec2::new(x, row as f64 * spacing_m)));
        }
        row += 1;
    }
    out
}

/// The smallest distance between two spots (∞ for fewer than two), by brute force: formation
/// sizes are checked once per plan.
pub fn min_spacing(spots: &[DVec2]) -> f64 {
    let grid = super::grid::Grid::build(spots, min_spacing_guess(spots));
    let mut best = f64::INFINITY;
    for (i, p) in spots.iter().enumerate() {
        grid.for_each_near(*p, |j| {
            if j != i {
                best = best.min(p.distance(spots[j]));
            }
        });
    }
    if best.is_finite() {
        return best;
    }
    // Nothing within the 3×3 cells: fall back to all pairs.
    for i in 0..spots.len() {
        for j in i + 1..spots.len() {
            best = best.min(spots[i].distance(spots[j]));
        }
    }
    best
}

fn min_spacing_guess(spots: &[DVec2]) -> f64 {
    if spots.len() < 2 {
        return 1.0;
    }
    let (lo, hi) = spots.iter().fold((spots[0], spots[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let area = ((hi.x - lo.x).max(0.1)) * ((hi.y - lo.y).max(0.1));
    (area / spots.len() as f64).sqrt().max(0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_have_their_counts_and_spacing() {
        let l = line(DVec2::new(-2.0, 0.0), DVec2::new(2.0, 0.0), 5);
        assert_eq!(l.len(), 5);
        assert!((min_spacing(&l) - 1.0).abs() < 1e-12);
        let b = block(DVec2::ZERO, 3, 4, 1.5, 0.0);
        assert_eq!(b.len(), 12);
        assert!((min_spacing(&b) - 1.5).abs() < 1e-12);
        let c = circle(DVec2::new(1.0, 1.0), 3.0, 12);
        assert!(c.iter().all(|p| (p.distance(DVec2::new(1.0, 1.0)) - 3.0).abs() < 1e-12));
        assert!((c[0] - DVec2::new(1.0, -2.0)).length() < 1e-12);
        let a = arc(DVec2::ZERO, 2.0, 0.0, std::f64::consts::PI, 3);
        assert!((a[1] - DVec2::new(0.0, 2.0)).length() < 1e-12);
        let w = wedge(DVec2::ZERO, 1.0, 10, 0.0);
        assert_eq!(w.len(), 10);
        assert!((min_spacing(&w) - 1.0).abs() < 1e-12);
        let bc = block_count(DVec2::ZERO, DVec2::new(10.0, 4.0), 23, 0.0);
        assert_eq!(bc.len(), 23);
        assert!(min_spacing(&bc) > 0.9);
    }
}
