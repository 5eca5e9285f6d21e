//! Uniform grid over the stage for neighbour queries: square cells of a given size (a whole
//! multiple of the performer footprint), points sorted by cell (a radix sort) and also kept in cell
//! order, and queries that look only at the 3×3 cells around a point (seed 001's nine-cell check)
//! or at the cells within a radius, as runs of slots one row of cells long. The grid has at most
//! [`MAX_CELLS_PER_POINT`] cells per point (plus [`MIN_CELLS`]): points spread far apart, as a
//! mistyped coordinate spreads them, get larger cells instead of an unbounded grid. The bounds and
//! the points' cells are found on all threads; the grid is the same on any number of them.

use glam::DVec2;
use rayon::prelude::*;
use std::ops::Range;

/// Points per piece of work shared among threads while the grid is built.
const CHUNK: usize = 4096;

/// Cells per point beyond which the cells are made larger.
pub const MAX_CELLS_PER_POINT: usize = 64;

/// Cells any grid may have, however few its points.
pub const MIN_CELLS: usize = 1 << 16;

/// Points bucketed into square cells. Built once per simulation step (into the same storage).
#[derive(Clone, Debug, Default)]
pub struct Grid {
    origin: DVec2,
    cell_m: f64,
    nx: i64,
    ny: i64,
    /// `cell_start[c]..cell_start[c + 1]` indexes `order` for cell `c` (row-major).
    cell_start: Vec<u32>,
    /// Point indices sorted by cell, ascending within a cell.
    order: Vec<u32>,
    /// The points in the same order.
    points: Vec<DVec2>,
    /// Scratch of the sort: each point's cell above its index, and the sort's second buffer.
    keys: Vec<u64>,
    spare: Vec<u64>,
}

/// Sorts `keys` by their bits `low..high` (a stable radix sort, 11 bits a pass); `spare` is
/// scratch.
fn radix_sort(keys: &mut Vec<u64>, spare: &mut Vec<u64>, low: u32, high: u32) {
    const BITS: u32 = 11;
    let mut counts = [0u32; 1 << BITS];
    let mut shift = low;
    while shift < high {
        let digit = |k: u64| ((k >> shift) & ((1 << BITS) - 1)) as usize;
        counts.fill(0);
        for k in keys.iter() {
            counts[digit(*k)] += 1;
        }
        let mut sum = 0;
        for c in &mut counts {
            (*c, sum) = (sum, sum + *c);
        }
        spare.clear();
        spare.resize(keys.len(), 0);
        for k in keys.iter() {
            let d = digit(*k);
            spare[counts[d] as usize] = *k;
            counts[d] += 1;
        }
        std::mem::swap(keys, spare);
        shift += BITS;
    }
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
        let mut grid = Self::default();
        grid.rebuild(points, cell_m);
        grid
    }

    /// [`Grid::build`] into this grid's storage.
    pub fn rebuild(&mut self, points: &[DVec2], cell_m: f64) {
        let mut cell_m = if cell_m.is_finite() && cell_m > 0.0 { cell_m } else { 1.0 };
        let bounds = |c: &[DVec2]| c.iter().fold((c[0], c[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let (lo, hi) = points
            .par_chunks(CHUNK)
            .map(bounds)
            .reduce_with(|a, b| (a.0.min(b.0), a.1.max(b.1)))
            .unwrap_or((DVec2::ZERO, DVec2::ZERO));
        // The sort's keys hold a cell above a point's index in 64 bits: the cells stay within
        // what the index leaves.
        let index_bits = u64::BITS - (points.len() as u64).leading_zeros();
        let key_cells = 2f64.powi(63 - index_bits as i32);
        let max_cells = ((points.len().saturating_mul(MAX_CELLS_PER_POINT)).max(MIN_CELLS) as f64).min(key_cells / 2.0);
        let cells_along = |extent: f64, cell_m: f64| ((extent / cell_m).floor() + 1.0).clamp(1.0, (1u64 << 40) as f64);
        let wanted = cells_along(hi.x - lo.x, cell_m) * cells_along(hi.y - lo.y, cell_m);
        if wanted > max_cells {
            cell_m *= (wanted / max_cells).sqrt() * 1.01 + 1.0;
        }
        self.origin = lo;
        self.cell_m = cell_m;
        self.nx = (((hi.x - lo.x) / cell_m).floor() as i64 + 1).clamp(1, 1 << 20);
        self.ny = (((hi.y - lo.y) / cell_m).floor() as i64 + 1).clamp(1, 1 << 20);
        let cells = (self.nx * self.ny) as usize;
        // Each point's key (its cell above its index) sorted by a radix sort, then each cell's
        // start filled in one pass: within a cell the points stay in ascending order, and no
        // pass runs over all the cells more than once.
        let cell_bits = u64::BITS - (cells as u64).leading_zeros();
        debug_assert!(index_bits + cell_bits <= u64::BITS, "{} points in {cells} cells", points.len());
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let this = &*self;
        keys.par_extend(
            points
                .par_iter()
                .enumerate()
                .with_min_len(CHUNK)
                .map(|(i, p)| (this.cell_index(*p) as u64) << index_bits | i as u64),
        );
        let mut spare = std::mem::take(&mut self.spare);
        radix_sort(&mut keys, &mut spare, index_bits, index_bits + cell_bits);
        let index_mask = (1u64 << index_bits) - 1;
        let mut starts = std::mem::take(&mut self.cell_start);
        starts.resize(cells + 1, 0);
        self.order.clear();
        self.points.clear();
        let mut next_cell = 0;
        for (slot, key) in keys.iter().enumerate() {
            let (c, i) = ((key >> index_bits) as usize, (key & index_mask) as usize);
            if c >= next_cell {
                starts[next_cell..=c].fill(slot as u32);
                next_cell = c + 1;
            }
            self.order.push(i as u32);
            self.points.push(points[i]);
        }
        starts[next_cell..].fill(points.len() as u32);
        self.cell_start = starts;
        self.keys = keys;
        self.spare = spare;
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

    /// The point indices sorted by cell (rows of cells from the lowest y, each from the lowest
    /// x; ascending within a cell): a point's slot is its place here.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// The points in the order of [`Grid::order`].
    pub fn points(&self) -> &[DVec2] {
        &self.points
    }

    /// Calls `f(j)` for every point in the 3×3 cells around `p` (`p`'s own index included when
    /// it is one of the points). Every point closer to `p` than one cell is visited.
    pub fn for_each_near(&self, p: DVec2, mut f: impl FnMut(usize)) {
        self.for_each_run_near(p, |run| {
            for &j in &self.order[run] {
                f(j as usize);
            }
        });
    }

    /// Calls `f` with the slots (places in [`Grid::order`]) of the 3×3 cells around `p`: one
    /// run per row of cells, in the order [`Grid::for_each_near`] visits them.
    pub fn for_each_run_near(&self, p: DVec2, mut f: impl FnMut(Range<usize>)) {
        for run in self.runs_near(p) {
            if !run.is_empty() {
                f(run);
            }
        }
    }

    /// The slots of the 3×3 cells around `p`, one run per row of cells (empty beyond the grid),
    /// in the order [`Grid::for_each_near`] visits them.
    pub fn runs_near(&self, p: DVec2) -> [Range<usize>; 3] {
        let (cx, cy) = self.cell_xy(p);
        let (x0, x1) = (cx.saturating_sub(1).max(0), cx.saturating_add(1).min(self.nx - 1));
        [-1, 0, 1].map(|dy| {
            let y = cy.saturating_add(dy);
            if x0 > x1 || y < 0 || y >= self.ny {
                return 0..0;
            }
            let row = y * self.nx;
            self.cell_start[(row + x0) as usize] as usize..self.cell_start[(row + x1 + 1) as usize] as usize
        })
    }

    /// Calls `f` with the slots of the cells that meet the square of half side `radius_m`
    /// around `p`, one run per row of cells: every point within `radius_m` of `p` is in them.
    pub fn for_each_run_within(&self, p: DVec2, radius_m: f64, f: impl FnMut(Range<usize>)) {
        self.runs_within(p, radius_m).for_each(f);
    }

    /// The runs of [`Grid::for_each_run_within`] as an iterator (non-empty runs, by row), so
    /// that a caller's loop over them keeps its sums in registers.
    pub fn runs_within(&self, p: DVec2, radius_m: f64) -> impl Iterator<Item = Range<usize>> + '_ {
        let (x0, y0) = self.cell_xy(p - DVec2::splat(radius_m));
        let (x1, y1) = self.cell_xy(p + DVec2::splat(radius_m));
        let (x0, x1) = (x0.max(0), x1.min(self.nx - 1));
        // No rows when no column is on the grid.
        let y1 = if x0 > x1 { -1 } else { y1.min(self.ny - 1) };
        (y0.max(0)..=y1).filter_map(move |y| {
            let row = y * self.nx;
            let start = self.cell_start[(row + x0) as usize] as usize;
            let end = self.cell_start[(row + x1 + 1) as usize] as usize;
            (start < end).then_some(start..end)
        })
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
    fn runs_within_a_radius_hold_every_point_that_near_and_fewer_cells() {
        let points: Vec<DVec2> = (0..3000)
            .map(|k| {
                let k = k as f64;
                DVec2::new((k * 0.618_033_988_75).fract() * 30.0 - 15.0, (k * 0.754_877_666_2).fract() * 20.0)
            })
            .collect();
        let grid = Grid::build(&points, 1.5);
        let (mut nine, mut runs) = (0, 0);
        for p in points.iter().step_by(5) {
            let radius_m = 0.9;
            let mut seen = Vec::new();
            grid.for_each_run_within(*p, radius_m, |run| {
                assert!(
                    grid.order()[run.clone()]
                        .iter()
                        .zip(&grid.points()[run.clone()])
                        .all(|(j, q)| points[*j as usize] == *q)
                );
                seen.extend(grid.order()[run].iter().map(|&j| j as usize));
            });
            runs += seen.len();
            grid.for_each_near(*p, |_| nine += 1);
            let brute = (0..points.len()).filter(|&j| points[j].distance(*p) <= radius_m);
            assert!(brute.into_iter().all(|j| seen.contains(&j)), "{p}");
        }
        assert!(runs * 3 < nine * 2, "{runs} visited within 0.9 m, {nine} in the nine cells");
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
