//! A closed stand-in for a mesh that cannot be mended in place (several pieces, open holes,
//! non-manifold parts): the voxel body's signed distance polygonised with the project's
//! marching tetrahedra and smoothed; and the transfer of its skinning weights back onto the
//! original vertices (inverse-distance blend of the nearest proxy vertices).

use std::collections::HashMap;

use glam::{IVec3, Vec3};

use super::voxel::VoxelBody;
use crate::body::lbs::{MAX_INFLUENCES, VertexInfluences};
use crate::body::mesh::TriMesh;
use crate::body::polygonise::{ScalarGrid, keep_largest_component, marching_tetrahedra};

/// The proxy surface of `body`: closed and 2-manifold by construction, outward wound, with
/// normals; empty when the body has no inside voxels.
pub fn proxy_mesh(body: &VoxelBody, smoothing_passes: u32) -> TriMesh {
    let values_m: Vec<f32> = body.depth_m.iter().zip(&body.outside_m).map(|(&d, &o)| o - d).collect();
    let grid = ScalarGrid { origin_in_model: body.origin_m, cell_m: body.cell_m, dims: body.dims, values_m };
    let mut mesh = keep_largest_component(&marching_tetrahedra(&grid));
    let rings = mesh.vertex_neighbours();
    for _ in 0..smoothing_passes {
        for factor in [0.5f32, -0.53] {
            let next: Vec<Vec3> = mesh
                .positions_in_model
                .iter()
                .zip(&rings)
                .map(|(&p, ring)| {
                    if ring.is_empty() {
                        return p;
                    }
                    let mean = ring.iter().filter_map(|&v| mesh.positions_in_model.get(v as usize)).sum::<Vec3>()
                        / ring.len() as f32;
                    p + (mean - p) * factor
                })
                .collect();
            mesh.positions_in_model = next;
        }
    }
    mesh.recompute_normals();
    mesh
}

/// A uniform-grid index of points for nearest-neighbour queries.
pub struct PointGrid<'a> {
    points: &'a [Vec3],
    cell_m: f32,
    buckets: HashMap<IVec3, Vec<u32>>,
}

impl<'a> PointGrid<'a> {
    /// Indexes `points` in buckets of `cell_m` metres.
    pub fn new(points: &'a [Vec3], cell_m: f32) -> Self {
        let mut buckets: HashMap<IVec3, Vec<u32>> = HashMap::new();
        for (i, &p) in points.iter().enumerate() {
            buckets.entry((p / cell_m).floor().as_ivec3()).or_default().push(i as u32);
        }
        Self { points, cell_m, buckets }
    }

    /// The `k` nearest points to `q` as (distance, index), nearest first (ties by index).
    pub fn nearest(&self, q: Vec3, k: usize, out: &mut Vec<(f32, u32)>) {
        out.clear();
        // Never ask for more points than there are (the ring search would not end).
        let k = k.min(self.points.len());
        if k == 0 {
            return;
        }
        let centre = (q / self.cell_m).floor().as_ivec3();
        let mut ring = 0i32;
        loop {
            // A point far from every bucket (a vertex of a piece the proxy left out) would take
            // ring after ring, each larger: once a ring's cube holds an eighth as many cells as
            // there are points, measuring every point is cheaper.
            let side = 2 * ring as usize + 1;
            if side * side * side > self.points.len() / 8 + 26 {
                self.all_nearest(q, k, out);
                return;
            }
            for x in -ring..=ring {
                for y in -ring..=ring {
                    for z in -ring..=ring {
                        if x.abs().max(y.abs()).max(z.abs()) != ring {
                            continue;
                        }
                        if let Some(list) = self.buckets.get(&(centre + IVec3::new(x, y, z))) {
                            out.extend(list.iter().map(|&i| (self.points[i as usize].distance(q), i)));
                        }
                    }
                }
            }
            out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            // Every point within ring·cell is found once this ring is scanned.
            let covered = ring as f32 * self.cell_m;
            if out.len() >= k && out.get(k - 1).is_some_and(|&(d, _)| d <= covered) || ring > 4096 {
                out.truncate(k);
                return;
            }
            ring += 1;
        }
    }

    /// [`PointGrid::nearest`] by measuring every point.
    fn all_nearest(&self, q: Vec3, k: usize, out: &mut Vec<(f32, u32)>) {
        out.clear();
        out.extend(self.points.iter().enumerate().map(|(i, p)| (p.distance(q), i as u32)));
        let order = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if k < out.len() {
            out.select_nth_unstable_by(k, order);
            out.truncate(k);
        }
        out.sort_by(order);
    }
}

/// Influences for every point of `targets` blended from the 4 nearest `source_positions`
/// (weights 1/(d + ε)), at most four joints kept, summing to 1.
pub fn transfer_weights(
    source_positions: &[Vec3],
    source_influences: &[VertexInfluences],
    targets: &[Vec3],
    cell_m: f32,
) -> Vec<VertexInfluences> {
    let grid = PointGrid::new(source_positions, cell_m.max(1e-4));
    let mut near = Vec::new();
    let mut sums: Vec<(f32, usize)> = Vec::new();
    targets
        .iter()
        .map(|&p| {
            grid.nearest(p, 4, &mut near);
            sums.clear();
            for &(d, i) in &near {
                let Some(inf) = source_influences.get(i as usize) else { continue };
                let w = 1.0 / (d + 0.25 * cell_m);
                for slot in 0..MAX_INFLUENCES {
                    let (j, x) = (usize::from(inf.joints[slot]), inf.weights[slot]);
                    if x <= 0.0 {
                        continue;
                    }
                    match sums.iter_mut().find(|s| s.1 == j) {
                        Some(s) => s.0 += w * x,
                        None => sums.push((w * x, j)),
                    }
                }
            }
            sums.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            VertexInfluences::from_pairs(&sums)
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn nearest_points_are_found_in_order() {
        let points: Vec<Vec3> = (0..50).map(|i| Vec3::new(i as f32 * 0.1, 0.0, 0.0)).collect();
        let grid = PointGrid::new(&points, 0.07);
        let mut out = Vec::new();
        grid.nearest(Vec3::new(2.02, 0.3, 0.0), 3, &mut out);
        assert_eq!(out.iter().map(|o| o.1).collect::<Vec<_>>(), [20, 21, 19]);
        // Far from every bucket: the same answer as measuring every point.
        let far = Vec3::new(-30.0, 12.0, 5.0);
        grid.nearest(far, 4, &mut out);
        let mut every: Vec<(f32, u32)> = points.iter().enumerate().map(|(i, p)| (p.distance(far), i as u32)).collect();
        every.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        assert_eq!(out, every[..4]);
        let infl = [VertexInfluences::from_pairs(&[(1.0, 3)]), VertexInfluences::from_pairs(&[(1.0, 5)])];
        let moved = transfer_weights(&points[..2], &infl, &[Vec3::new(0.01, 0.0, 0.0)], 0.05);
        assert_eq!(moved[0].joints[0], 3);
        assert!((moved[0].weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
