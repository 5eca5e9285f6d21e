//! Implicit body → closed 2-manifold triangle mesh: sample the field on a grid, extract the
//! zero set with marching tetrahedra (Kuhn split of each cube, manifold by construction with
//! the sign rule "inside iff value < 0"), keep the largest component, then relax and smooth.

use glam::Vec3;

use super::BodyError;
use super::implicit::{BodyShape, smooth_min};
use super::mesh::{TriMesh, UnionFind};

/// Inputs of [`polygonise`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolygoniseParams {
    /// Grid cell edge in metres (default 0.019; vertex count grows as 1/cell²).
    pub cell_m: f32,
    /// Tangential relaxation steps, each followed by a projection back onto the surface
    /// (evens out the slivers that marching tetrahedra makes). Default 8.
    pub relax_iterations: u32,
    /// Taubin λ|μ smoothing passes (λ = 0.5, μ = −0.53) at the end. Default 2.
    pub taubin_passes: u32,
    /// Refuse grids with more points than this (default 20 million).
    pub max_grid_points: usize,
}

impl Default for PolygoniseParams {
    fn default() -> Self {
        Self { cell_m: 0.019, relax_iterations: 8, taubin_passes: 2, max_grid_points: 20_000_000 }
    }
}

/// The body field sampled at grid points `origin + (i, j, k)·cell`. Far from every volume the
/// samples hold a positive cap instead of the exact value (only the sign matters there).
#[derive(Clone, Debug, PartialEq)]
pub struct ScalarGrid {
    /// Position of grid point (0, 0, 0), model space.
    pub origin_in_model: Vec3,
    /// Cell edge, metres.
    pub cell_m: f32,
    /// Number of points along x, y, z (each ≥ 2).
    pub dims: [usize; 3],
    /// Field values in metres, x fastest.
    pub values_m: Vec<f32>,
}

/// Value stored where no volume is near.
const FAR_M: f32 = 1.0e3;

impl ScalarGrid {
    /// Samples `shape` with cells of `cell_m` metres over its bounds plus a margin. Each volume
    /// is evaluated only inside its own bounds grown by `3·cell + 2·max blend`, which is exact
    /// in the band that the surface extraction reads.
    pub fn sample(shape: &BodyShape, cell_m: f32, max_points: usize) -> Result<Self, BodyError> {
        shape.validate()?;
        if !(cell_m.is_finite() && cell_m > 1e-4) {
            return Err(BodyError::InvalidInput(format!("cell size {cell_m} m")));
        }
        let Some((lo, hi)) = shape.bounds_in_model() else { return Err(BodyError::NoSurface) };
        let pad = Vec3::splat(2.0 * cell_m);
        let origin = lo - pad;
        let extent = (hi + pad - origin) / cell_m;
        let dims = [extent.x.ceil() as usize + 1, extent.y.ceil() as usize + 1, extent.z.ceil() as usize + 1];
        let count = dims[0].saturating_mul(dims[1]).saturating_mul(dims[2]);
        if count > max_points {
            return Err(BodyError::GridTooLarge { cells: count, limit: max_points });
        }
        let mut values_m = vec![FAR_M; count];
        let margin = Vec3::splat(3.0 * cell_m + 2.0 * shape.max_blend_m());
        let to_index = |x: f32, n: usize| (x.max(0.0) as usize).min(n - 1);
        for volume in &shape.volumes {
            let (vlo, vhi) = volume.shape.bounds_in_model();
            let a = (vlo - margin - origin) / cell_m;
            let b = (vhi + margin - origin) / cell_m;
            let (i0, i1) = (to_index(a.x.floor(), dims[0]), to_index(b.x.ceil(), dims[0]));
            let (j0, j1) = (to_index(a.y.floor(), dims[1]), to_index(b.y.ceil(), dims[1]));
            let (k0, k1) = (to_index(a.z.floor(), dims[2]), to_index(b.z.ceil(), dims[2]));
            for k in k0..=k1 {
                for j in j0..=j1 {
                    let row = (k * dims[1] + j) * dims[0];
                    for i in i0..=i1 {
                        let p = origin + Vec3::new(i as f32, j as f32, k as f32) * cell_m;
                        if let Some(v) = values_m.get_mut(row + i) {
                            *v = smooth_min(*v, volume.shape.signed_distance_m(p), volume.blend_m);
                        }
                    }
                }
            }
        }
        Ok(Self { origin_in_model: origin, cell_m, dims, values_m })
    }

    fn at(&self, i: usize, j: usize, k: usize) -> f32 {
        self.values_m.get((k * self.dims[1] + j) * self.dims[0] + i).copied().unwrap_or(FAR_M)
    }

    /// Trilinear value (metres) and gradient of the sampled field at `p_in_model` (clamped
    /// into the grid).
    pub fn value_and_gradient(&self, p_in_model: Vec3) -> (f32, Vec3) {
        let g = (p_in_model - self.origin_in_model) / self.cell_m;
        let cell = |x: f32, n: usize| -> (usize, f32) {
            let top = n.saturating_sub(2);
            let c = (x.floor().max(0.0) as usize).min(top);
            (c, (x - c as f32).clamp(0.0, 1.0))
        };
        let (i, u) = cell(g.x, self.dims[0]);
        let (j, v) = cell(g.y, self.dims[1]);
        let (k, w) = cell(g.z, self.dims[2]);
        let c = |di, dj, dk| self.at(i + di, j + dj, k + dk);
        let (c000, c100, c010, c110) = (c(0, 0, 0), c(1, 0, 0), c(0, 1, 0), c(1, 1, 0));
        let (c001, c101, c011, c111) = (c(0, 0, 1), c(1, 0, 1), c(0, 1, 1), c(1, 1, 1));
        let x00 = c000 + (c100 - c000) * u;
        let x10 = c010 + (c110 - c010) * u;
        let x01 = c001 + (c101 - c001) * u;
        let x11 = c011 + (c111 - c011) * u;
        let y0 = x00 + (x10 - x00) * v;
        let y1 = x01 + (x11 - x01) * v;
        let value = y0 + (y1 - y0) * w;
        let lerp2 = |a: f32, b: f32, c: f32, d: f32, s: f32, t: f32| {
            let e = a + (b - a) * s;
            let f = c + (d - c) * s;
            e + (f - e) * t
        };
        let dx = lerp2(c100 - c000, c110 - c010, c101 - c001, c111 - c011, v, w);
        let dy = lerp2(c010 - c000, c110 - c100, c011 - c001, c111 - c101, u, w);
        let dz = lerp2(c001 - c000, c101 - c100, c011 - c010, c111 - c110, u, v);
        (value, Vec3::new(dx, dy, dz) / self.cell_m)
    }
}

/// The six tetrahedra of the Kuhn (Freudenthal) split of a cube around the diagonal 0–7;
/// corner `c` sits at offset `(c & 1, c >> 1 & 1, c >> 2 & 1)`. Neighbouring cubes split
/// their shared faces the same way, so the tetrahedra tile space.
const KUHN_TETS: [[u8; 4]; 6] = [[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]];

fn corner_offset(c: u8) -> Vec3 {
    Vec3::new(f32::from(c & 1), f32::from(c >> 1 & 1), f32::from(c >> 2 & 1))
}

/// Extracts the zero set of `grid` with marching tetrahedra. Returns positions and
/// outward-wound triangles (no normals yet); an empty mesh if `dims` does not match the
/// number of values. Non-finite samples give non-finite vertices (checked by [`polygonise`]).
pub fn marching_tetrahedra(grid: &ScalarGrid) -> TriMesh {
    let [nx, ny, nz] = grid.dims;
    let point_count = nx.checked_mul(ny).and_then(|n| n.checked_mul(nz));
    if point_count != Some(grid.values_m.len()) {
        return TriMesh::default();
    }
    let point = |i: usize, j: usize, k: usize| (k * ny + j) * nx + i;
    // Vertex id for the edge from grid point `p` in Kuhn direction `d` (1..=7).
    let mut edge_vertex = vec![u32::MAX; grid.values_m.len().saturating_mul(7)];
    let mut mesh = TriMesh::default();
    for k in 0..nz.saturating_sub(1) {
        for j in 0..ny.saturating_sub(1) {
            for i in 0..nx.saturating_sub(1) {
                let corner_value =
                    |c: u8| grid.at(i + usize::from(c & 1), j + usize::from(c >> 1 & 1), k + usize::from(c >> 2 & 1));
                let values: [f32; 8] = std::array::from_fn(|c| corner_value(c as u8));
                let inside_count = values.iter().filter(|&&v| v < 0.0).count();
                if inside_count == 0 || inside_count == 8 {
                    continue;
                }
                let cell_origin = grid.origin_in_model + Vec3::new(i as f32, j as f32, k as f32) * grid.cell_m;
                let mut vertex_on = |a: u8, b: u8, mesh: &mut TriMesh| -> u32 {
                    let (base, dir) = (a & b, a ^ b);
                    let p = point(
                        i + usize::from(base & 1),
                        j + usize::from(base >> 1 & 1),
                        k + usize::from(base >> 2 & 1),
                    );
                    let slot = p * 7 + usize::from(dir) - 1;
                    if let Some(&id) = edge_vertex.get(slot)
                        && id != u32::MAX
                    {
                        return id;
                    }
                    let (fa, fb) = (values[usize::from(a)], values[usize::from(b)]);
                    let t = (fa / (fa - fb)).clamp(0.01, 0.99);
                    let (pa, pb) = (corner_offset(a), corner_offset(b));
                    let position = cell_origin + (pa + (pb - pa) * t) * grid.cell_m;
                    let id = mesh.positions_in_model.len() as u32;
                    mesh.positions_in_model.push(position);
                    if let Some(s) = edge_vertex.get_mut(slot) {
                        *s = id;
                    }
                    id
                };
                for tet in KUHN_TETS {
                    let (ins, outs): (Vec<u8>, Vec<u8>) = tet.iter().partition(|&&c| values[usize::from(c)] < 0.0);
                    let edges: Vec<[(u8, u8); 3]> = match (ins.as_slice(), outs.as_slice()) {
                        ([a], [b, c, d]) | ([b, c, d], [a]) => vec![[(*a, *b), (*a, *c), (*a, *d)]],
                        ([a, b], [c, d]) => vec![[(*a, *c), (*a, *d), (*b, *d)], [(*a, *c), (*b, *d), (*b, *c)]],
                        _ => Vec::new(),
                    };
                    let centre = |cs: &[u8]| cs.iter().map(|&c| corner_offset(c)).sum::<Vec3>() / cs.len() as f32;
                    let outward = centre(&outs) - centre(&ins);
                    for tri in edges {
                        let mid = tri.map(|(a, b)| (corner_offset(a) + corner_offset(b)) * 0.5);
                        let flip = (mid[1] - mid[0]).cross(mid[2] - mid[0]).dot(outward) < 0.0;
                        let ids = tri.map(|(a, b)| vertex_on(a, b, &mut mesh));
                        mesh.triangles.push(if flip { [ids[0], ids[2], ids[1]] } else { ids });
                    }
                }
            }
        }
    }
    mesh
}

/// Keeps the connected component with the most triangles (ties: the one found first) and
/// renumbers its vertices in order of first use.
pub fn keep_largest_component(mesh: &TriMesh) -> TriMesh {
    let n = mesh.positions_in_model.len();
    let mut union = UnionFind::new(n);
    for &[a, b, c] in &mesh.triangles {
        union.join(a as usize, b as usize);
        union.join(a as usize, c as usize);
    }
    let mut tri_count = vec![0usize; n];
    for &[a, _, _] in &mesh.triangles {
        if let Some(t) = tri_count.get_mut(union.find(a as usize)) {
            *t += 1;
        }
    }
    let best = (0..n).fold(None::<(usize, usize)>, |best, r| match (best, tri_count.get(r)) {
        (Some((_, bc)), Some(&c)) if c <= bc => best,
        (_, Some(&c)) if c > 0 => Some((r, c)),
        _ => best,
    });
    let Some((root, _)) = best else { return TriMesh::default() };
    let mut remap = vec![u32::MAX; n];
    let mut out = TriMesh::default();
    for &tri in &mesh.triangles {
        if union.find(tri[0] as usize) != root {
            continue;
        }
        let mapped = tri.map(|v| {
            let slot = remap.get_mut(v as usize);
            match slot {
                Some(s) if *s != u32::MAX => *s,
                Some(s) => {
                    *s = out.positions_in_model.len() as u32;
                    out.positions_in_model.push(mesh.positions_in_model.get(v as usize).copied().unwrap_or(Vec3::ZERO));
                    *s
                }
                None => 0,
            }
        });
        out.triangles.push(mapped);
    }
    out
}

/// Jacobi step of uniform Laplacian smoothing: `p += factor · (mean(neighbours) − p)`, with the
/// displacement's component along `normal_of(p)` removed when `tangential` is set.
fn laplacian_step(
    positions: &mut Vec<Vec3>,
    rings: &[Vec<u32>],
    factor: f32,
    normal_of: Option<&dyn Fn(Vec3) -> Vec3>,
) {
    let next: Vec<Vec3> = positions
        .iter()
        .zip(rings)
        .map(|(&p, ring)| {
            if ring.is_empty() {
                return p;
            }
            let sum: Vec3 = ring.iter().filter_map(|&v| positions.get(v as usize)).sum();
            let mut d = sum / ring.len() as f32 - p;
            if let Some(normal_of) = normal_of {
                let n = normal_of(p);
                d -= n * n.dot(d);
            }
            p + d * factor
        })
        .collect();
    *positions = next;
}

/// Moves `p` onto the zero set of the grid field with two damped Newton steps.
fn project_onto_surface(grid: &ScalarGrid, mut p: Vec3) -> Vec3 {
    for _ in 0..2 {
        let (f, g) = grid.value_and_gradient(p);
        let g2 = g.length_squared();
        if g2 < 1e-6 {
            break;
        }
        let step = g * (f / g2);
        p -= step.clamp_length_max(grid.cell_m);
    }
    p
}

/// Builds the body mesh: sample, marching tetrahedra, largest component, `relax_iterations`
/// × (tangential relaxation + projection), `taubin_passes` × Taubin smoothing, normals.
/// Deterministic; the result is closed and 2-manifold (topology is fixed after extraction).
pub fn polygonise(shape: &BodyShape, params: &PolygoniseParams) -> Result<TriMesh, BodyError> {
    let grid = ScalarGrid::sample(shape, params.cell_m, params.max_grid_points)?;
    let mut mesh = keep_largest_component(&marching_tetrahedra(&grid));
    if mesh.triangles.is_empty() {
        return Err(BodyError::NoSurface);
    }
    let rings = mesh.vertex_neighbours();
    let normal_of = |p: Vec3| grid.value_and_gradient(p).1.normalize_or_zero();
    for _ in 0..params.relax_iterations {
        laplacian_step(&mut mesh.positions_in_model, &rings, 0.5, Some(&normal_of));
        for p in &mut mesh.positions_in_model {
            *p = project_onto_surface(&grid, *p);
        }
    }
    for _ in 0..params.taubin_passes {
        laplacian_step(&mut mesh.positions_in_model, &rings, 0.5, None);
        laplacian_step(&mut mesh.positions_in_model, &rings, -0.53, None);
    }
    if mesh.positions_in_model.iter().any(|p| !p.is_finite()) {
        return Err(BodyError::InvalidShape("non-finite vertex after smoothing".into()));
    }
    mesh.recompute_normals();
    untangle_folds(&mut mesh, &rings, 10);
    Ok(mesh)
}

/// Triangles whose face normal disagrees with the sum of their corners' smooth normals
/// (folded over, typically in a thin gap of about one cell such as the inner thighs).
pub fn folded_triangles(mesh: &TriMesh) -> Vec<usize> {
    let normal = |v: u32| mesh.normals_in_model.get(v as usize).copied().unwrap_or(Vec3::ZERO);
    (0..mesh.triangles.len())
        .filter(|&t| {
            let Some(&tri) = mesh.triangles.get(t) else { return false };
            let Some([a, b, c]) = mesh.triangle_corners(tri) else { return false };
            let smooth = normal(tri[0]) + normal(tri[1]) + normal(tri[2]);
            (b - a).cross(c - a).dot(smooth) <= 0.0
        })
        .collect()
}

/// Smooths the two-ring around folded triangles with plain Laplacian steps until none is
/// left (at most `max_rounds` rounds), recomputing normals after each.
fn untangle_folds(mesh: &mut TriMesh, rings: &[Vec<u32>], max_rounds: u32) {
    for _ in 0..max_rounds {
        let folded = folded_triangles(mesh);
        if folded.is_empty() {
            return;
        }
        let mut active = vec![false; mesh.vertex_count()];
        for t in folded {
            for &v in mesh.triangles.get(t).into_iter().flatten() {
                for &u in rings.get(v as usize).into_iter().flatten() {
                    for &w in rings.get(u as usize).into_iter().flatten() {
                        if let Some(a) = active.get_mut(w as usize) {
                            *a = true;
                        }
                    }
                }
            }
        }
        let before = mesh.positions_in_model.clone();
        laplacian_step(&mut mesh.positions_in_model, rings, 0.5, None);
        for ((p, old), on) in mesh.positions_in_model.iter_mut().zip(before).zip(&active) {
            if !on {
                *p = old;
            }
        }
        mesh.recompute_normals();
    }
}
