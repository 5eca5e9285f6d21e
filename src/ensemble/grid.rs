//! Uniform grid over the stage for neighbour queries: square cells of a given size (a whole
//! multiple of the performer footprint), points bucketed by a counting sort, and queries that look
//! only at the 3×3 cells around a point (seed 001's nine-cell check). The grid has at most
//! [`MAX_CELLS_PER_POINT`] cells per point (plus [`MIN_CELLS`]): points spread far apart, as a
//! mistyped coordinate spreads them, get larger cells instead of an unbounded grid.

use glam::DVec2;

/// Cells per point beyond which the cells are made larger.
pub const MAX_CELLS_PER_POINT: usize = 64;

/// Cells any grid may have, however few its points.
pub const MIN_CELLS: usize = 1 << 16;

/// Points bucketed into square cells. Built once per simulation step.
#[derive(Clone, Debug)]
pub struct Grid {
    origin: DVec2,
    cell_m: f64,
    nx: i64,
    ny: i64,
    /// `cell_start[c]..cell_start[c + 1]` indexes `order` for cell `c` (row-major).
    cell_start: Vec<u32>,
    /// Point indices sorted by cell, ascending within a cell.
    order: Vec<u32>,
}

/// `v.floor() as i64` without a call to the C library's `floor`.
fn floor_i64(v: f64) -> i64 {
    let t = v as i64;
    if (t as f64) > v { t.saturating_sub(1) } else { t }
}

impl Grid {
    /// Buckets `points` into cells of `cell_m` metres, or larger ones (see [`Grid::cell_m`]) when
    /// the points spread over more than [`MAX_CELLS_PER_POINT`] cells per point.
    pub fn build(points: &[DVec2], cell_m: f64) -> Self {
        let mut cell_m = if cell_m.is_finite() && cell_m > 0.0 { cell_m } else { 1.0 };
        let (lo, hi) = match points.first() {
            Some(first) => points.iter().fold((*first, *first), |(lo, hi), p| (lo.min(*p), hi.max(*p))),
            None => (DVec2::ZERO, DVec2::ZERO),
        };
        let max_cells = (points.len().saturating_mul(MAX_CELLS_PER_POINT)).max(MIN_CELLS) as f64;
        let cells_along = |extent: f64, cell_m: f64| ((extent / cell_m).floor() + 1.0).clamp(1.0, (1u64 << 40) as f64);
        let wanted = cells_along(hi.x - lo.x, cell_m) * cells_along(hi.y - lo.y, cell_m);
        if wanted > max_cells {
            cell_m *= (wanted / max_cells).sqrt() * 1.01 + 1.0;
        }
        let nx = (((hi.x - lo.x) / cell_m).floor() as i64 + 1).clamp(1, 1 << 20);
        let ny = (((hi.y - lo.y) / cell_m).floor() as i64 + 1).clamp(1, 1 << 20);
        let mut grid = Self { origin: lo, cell_m, nx, ny, cell_start: Vec::new(), order: Vec::new() };
        let cells = (nx * ny) as usize;
        let mut counts = vec![0u32; cells + 1];
        let mut cell_of = Vec::with_capacity(points.len());
        for p in points {
            let c = grid.cell_index(*p);
            cell_of.push(c);
            counts[c + 1] += 1;
        }
        for c in 0..cells {
            counts[c + 1] += counts[c];
        }
        let mut next = counts.clone();
        let mut order = vec![0u32; points.len()];
        for (i, c) in cell_of.iter().enumerate() {
            order[next[*c] as usize] = i as u32;
            next[*c] += 1;
        }
        grid.cell_start = counts;
        grid.order = order;
        grid
    }

    /// The cell size in metres: the size asked for, or larger for points spread far apart.
    pub fn cell_m(&self) -> f64 {
        self.cell_m
    }

    fn cell_xy(&self, p: DVec2) -> (i64, i64) {
        let q = (p - self.origin) / self.cell_m;
        (floor_i64(q.x), floor_i64(q.y))
    }

    fn cell_index(&self, p: DVec2) -> usize {
        let (x, y) = self.cell_xy(p);
        (y.clamp(0, self.ny - 1) * self.nx + x.clamp(0, self.nx - 1)) as usize
    }

    /// Calls `f(j)` for every point in the 3×3 cells around `p` (`p`'s own index included when
    /// it is one of the points). Every point closer to `p` than one cell is visited.
    pub fn for_each_near(&self, p: DVec2, mut f: impl FnMut(usize)) {
        let (cx, cy) = self.cell_xy(p);
        for y in (cy - 1).max(0)..=(cy + 1).min(self.ny - 1) {
            for x in (cx - 1).max(0)..=(cx + 1).min(self.nx - 1) {
                let c = (y * self.nx + x) as usize;
                for &j in &self.order[self.cell_start[c] as usize..self.cell_start[c + 1] as usize] {
                    f(j as usize);
                }
            }
        }
    }

    /// The indices within `radius_m` of `p` (needs `radius_m ≤ cell_m`), ascending.
    pub fn within(&self, points: &[DVec2], p: DVec2, radius_m: f64) -> Vec<usize> {
        let mut out = Vec::new();
        let r2 = radius_m * radius_m;
        self.for_each_near(p, |j| {
            if points[j].distance_squared(p) <= r2 {
                out.push(j);
            }
        });
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_i64_is_the_floor() {
        for v in [-2.5, -2.0, -0.1, -0.0, 0.0, 0.3, 1.0, 7.9, 1e300, -1e300, f64::NAN, f64::INFINITY, f64::NEG_INFINITY]
        {
            assert_eq!(floor_i64(v), v.floor() as i64, "{v}");
        }
    }

    #[test]
    fn points_a_million_metres_apart_get_larger_cells_not_a_huge_grid() {
        let points = [DVec2::new(-1e6, -1e6), DVec2::new(1e6, 1e6), DVec2::new(1e6, 1e6 - 0.3)];
        let grid = Grid::build(&points, 0.5);
        assert!(grid.cell_start.len() <= MIN_CELLS + 1, "{} cells", grid.cell_start.len() - 1);
        assert!(grid.cell_m() > 0.5);
        assert_eq!(grid.within(&points, points[1], 0.5), vec![1, 2]);
    }

    #[test]
    fn nine_cells_find_exactly_the_brute_force_neighbours() {
        // A deterministic scatter (Weyl sequence) over a 20 × 12 m stage.
        let points: Vec<DVec2> = (0..2000)
            .map(|k| {
                let k = k as f64;
                DVec2::new((k * 0.618_033_988_75).fract() * 20.0 - 10.0, (k * 0.754_877_666_2).fract() * 12.0)
            })
            .collect();
        for cell in [0.5, 1.0, 1.5] {
            let grid = Grid::build(&points, cell);
            for (i, p) in points.iter().enumerate().step_by(7) {
                let near = grid.within(&points, *p, cell);
                let brute: Vec<usize> =
                    (0..points.len()).filter(|&j| points[j].distance_squared(*p) <= cell * cell).collect();
                assert_eq!(near, brute, "point {i}, cell {cell}");
            }
        }
    }
}
