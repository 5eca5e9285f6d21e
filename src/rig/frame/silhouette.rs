//! A body's outline seen along one axis: its triangles projected onto the plane of the other two
//! axes and rasterised. Read for the frame: across which axis the outline is mirror-symmetric
//! (left–right), and which end of the up axis has a gap in the middle (between the legs).

use glam::{Vec2, Vec3};

/// Cells along the longer side of the outline.
pub const CELLS_ON_LONGEST: usize = 128;

/// The rasterised outline in the plane of input axes `axes[0]` (columns) and `axes[1]` (rows).
#[derive(Clone, Debug)]
pub struct Silhouette {
    /// The two input axes spanning the plane.
    pub axes: [usize; 2],
    /// Cells along each of the two axes.
    cells: [usize; 2],
    /// Occupied cells, row-major (`row * cells[0] + column`).
    occupied: Vec<bool>,
}

impl Silhouette {
    /// Projects the triangles of `points` along the third axis onto the plane of `axes` and marks
    /// every cell whose centre a triangle covers. `None` for a flat outline.
    pub fn build(points: &[Vec3], triangles: &[[u32; 3]], axes: [usize; 2]) -> Option<Silhouette> {
        let project = |p: Vec3| Vec2::new(p[axes[0]], p[axes[1]]);
        let first = project(*points.first()?);
        let (lo, hi) = points.iter().fold((first, first), |(lo, hi), &p| (lo.min(project(p)), hi.max(project(p))));
        let extent = hi - lo;
        let cell = extent.max_element() / CELLS_ON_LONGEST as f32;
        if !(cell.is_finite() && cell > 0.0) {
            return None;
        }
        let cells = [((extent.x / cell).ceil() as usize).max(1), ((extent.y / cell).ceil() as usize).max(1)];
        let mut occupied = vec![false; cells[0] * cells[1]];
        let to_cell = |p: Vec2| (p - lo) / cell;
        for t in triangles {
            let corner = |k: usize| points.get(t[k] as usize).map(|&p| to_cell(project(p)));
            let (Some(a), Some(b), Some(c)) = (corner(0), corner(1), corner(2)) else { continue };
            let area = (b - a).perp_dot(c - a);
            if area.abs() < 1e-12 {
                continue;
            }
            let (tlo, thi) = (a.min(b).min(c), a.max(b).max(c));
            let i0 = (tlo.x - 0.5).ceil().max(0.0) as usize;
            let i1 = ((thi.x - 0.5).floor().max(-1.0) as isize).min(cells[0] as isize - 1);
            let j0 = (tlo.y - 0.5).ceil().max(0.0) as usize;
            let j1 = ((thi.y - 0.5).floor().max(-1.0) as isize).min(cells[1] as isize - 1);
            for j in j0 as isize..=j1 {
                for i in i0 as isize..=i1 {
                    let p = Vec2::new(i as f32 + 0.5, j as f32 + 0.5);
                    let w = [(c - b).perp_dot(p - b), (a - c).perp_dot(p - c), (b - a).perp_dot(p - a)];
                    if w.iter().all(|&x| x * area >= 0.0) {
                        occupied[j as usize * cells[0] + i as usize] = true;
                    }
                }
            }
        }
        Some(Silhouette { axes, cells, occupied })
    }

    fn at(&self, column: usize, row: usize) -> bool {
        self.occupied[row * self.cells[0] + column]
    }

    /// `(index along axis k, index along the other)` → occupied.
    fn at_along(&self, k: usize, along: usize, across: usize) -> bool {
        if k == 0 { self.at(along, across) } else { self.at(across, along) }
    }

    /// The fraction of occupied cells whose mirror image across the middle of axis `k` (0 or 1) is
    /// occupied too: near 1 across a body's left–right axis, lower across its up axis.
    pub fn mirror_overlap(&self, k: usize) -> f32 {
        let n = self.cells[k];
        let m = self.cells[1 - k];
        let (mut both, mut all) = (0usize, 0usize);
        for along in 0..n {
            for across in 0..m {
                if self.at_along(k, along, across) {
                    all += 1;
                    if self.at_along(k, n - 1 - along, across) {
                        both += 1;
                    }
                }
            }
        }
        if all == 0 { 0.0 } else { both as f32 / all as f32 }
    }

    /// With axis `k` as up: of the rows between `from` and `to` (fractions of the length along
    /// `k`, counted from its high end when `from_high`), the fraction whose middle cell (halfway
    /// between the row's outermost occupied cells) is empty: near 1 across two legs apart, 0 across
    /// a head or a trunk.
    pub fn middle_gap(&self, k: usize, from: f32, to: f32, from_high: bool) -> f32 {
        let n = self.cells[k];
        let first = (from * n as f32).floor() as usize;
        let last = ((to * n as f32).ceil() as usize).min(n);
        let (mut gaps, mut rows) = (0usize, 0usize);
        for step in first..last {
            let Some(empty) = self.middle_empty(k, step, from_high) else { continue };
            rows += 1;
            if empty {
                gaps += 1;
            }
        }
        if rows == 0 { 0.0 } else { gaps as f32 / rows as f32 }
    }

    /// With axis `k` as up, counted from its high end when `from_high`: where the legs join (the
    /// crotch), as a fraction of the length: the first row with its middle cell filled above rows
    /// with the middle empty that start in the lowest fifth. `None` when the legs show no gap.
    pub fn legs_join(&self, k: usize, from_high: bool) -> Option<f32> {
        let n = self.cells[k];
        let first_gap = (0..n / 5).find(|&step| self.middle_empty(k, step, from_high) == Some(true))?;
        let join = (first_gap..n).find(|&step| self.middle_empty(k, step, from_high) == Some(false))?;
        Some(join as f32 / n as f32)
    }

    /// Whether row `step` along axis `k` (from the high end when `from_high`) has its middle cell
    /// (halfway between its outermost occupied cells) empty; `None` for an empty row.
    fn middle_empty(&self, k: usize, step: usize, from_high: bool) -> Option<bool> {
        let n = self.cells[k];
        let along = if from_high { n - 1 - step } else { step };
        let mut filled = (0..self.cells[1 - k]).filter(|&across| self.at_along(k, along, across));
        let lo = filled.next()?;
        let hi = filled.next_back().unwrap_or(lo);
        Some(!self.at_along(k, along, (lo + hi) / 2))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    /// Two boxes: `(lo, hi)` corners, 12 triangles each.
    fn boxes(parts: &[(Vec3, Vec3)]) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let (mut points, mut triangles) = (Vec::new(), Vec::new());
        for &(lo, hi) in parts {
            let base = points.len() as u32;
            for k in 0..8 {
                points.push(Vec3::new(
                    if k & 1 == 0 { lo.x } else { hi.x },
                    if k & 2 == 0 { lo.y } else { hi.y },
                    if k & 4 == 0 { lo.z } else { hi.z },
                ));
            }
            for [a, b, c, d] in [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]] {
                triangles.push([base + a, base + b, base + c]);
                triangles.push([base + a, base + c, base + d]);
            }
        }
        (points, triangles)
    }

    #[test]
    fn a_stick_figure_is_symmetric_across_its_width_and_has_a_gap_between_its_legs() {
        // Legs x ±(0.05..0.15), y 0..0.9; trunk and head x ±0.15, y 0.9..1.7; depth z ±0.1.
        let (points, triangles) = boxes(&[
            (Vec3::new(-0.15, 0.0, -0.1), Vec3::new(-0.05, 0.9, 0.1)),
            (Vec3::new(0.05, 0.0, -0.1), Vec3::new(0.15, 0.9, 0.1)),
            (Vec3::new(-0.15, 0.9, -0.1), Vec3::new(0.15, 1.7, 0.1)),
        ]);
        let s = Silhouette::build(&points, &triangles, [0, 1]).unwrap();
        assert!(s.mirror_overlap(0) > 0.95, "{}", s.mirror_overlap(0));
        assert!(s.mirror_overlap(1) < 0.9, "{}", s.mirror_overlap(1));
        assert!(s.middle_gap(1, 0.07, 0.12, false) > 0.9);
        assert!(s.middle_gap(1, 0.07, 0.12, true) < 0.1);
        let join = s.legs_join(1, false).unwrap();
        assert!((join - 0.9 / 1.7).abs() < 0.02, "{join}");
        assert_eq!(s.legs_join(1, true), None, "no legs part at the head's end");
    }
}
