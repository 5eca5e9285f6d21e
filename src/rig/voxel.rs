//! The body as voxels: inside/outside by winding-number votes along the three axes (so several
//! overlapping closed pieces make their union, and a few holes do not leak), cavities filled,
//! the largest piece kept, and exact Euclidean distances to the surface on both sides.

use glam::{IVec3, Vec3};

use crate::body::mesh::TriMesh;

/// A voxelised body in the rig frame. Voxel (i, j, k) has its centre at
/// `origin_m + (i, j, k) · cell_m`; arrays are x fastest.
#[derive(Clone, Debug, PartialEq)]
pub struct VoxelBody {
    /// Centre of voxel (0, 0, 0), metres.
    pub origin_m: Vec3,
    /// Voxel edge, metres.
    pub cell_m: f32,
    /// Voxels along x, y, z.
    pub dims: [usize; 3],
    /// Inside the body (largest piece, cavities filled).
    pub inside: Vec<bool>,
    /// Inside: distance to the surface (≥ ½ cell), metres; outside: 0.
    pub depth_m: Vec<f32>,
    /// Outside: distance to the body, metres; inside: 0.
    pub outside_m: Vec<f32>,
    /// Inside voxels that belonged to smaller separate pieces and were dropped.
    pub dropped_voxels: usize,
}

/// Largest voxel count accepted.
pub const MAX_VOXELS: usize = 16_000_000;

impl VoxelBody {
    /// Voxelises `mesh` with cells of `cell_m` metres (2 cells of margin).
    pub fn build(mesh: &TriMesh, cell_m: f32) -> Option<VoxelBody> {
        let (lo, hi) = mesh.bounds_in_model()?;
        if !(cell_m.is_finite() && cell_m > 0.0) {
            return None;
        }
        let origin_m = lo - Vec3::splat(2.0 * cell_m);
        let span = (hi - origin_m) / cell_m;
        let dims = [span.x as usize + 3, span.y as usize + 3, span.z as usize + 3];
        let total = dims[0].checked_mul(dims[1])?.checked_mul(dims[2])?;
        if total > MAX_VOXELS {
            return None;
        }
        let mut votes_in = vec![0u8; total];
        let mut votes_out = vec![0u8; total];
        for axis in 0..3 {
            vote_along(mesh, origin_m, cell_m, dims, axis, &mut votes_in, &mut votes_out);
        }
        let mut inside: Vec<bool> = votes_in.iter().zip(&votes_out).map(|(&i, &o)| i > o).collect();
        fill_cavities(&mut inside, dims);
        let dropped_voxels = keep_largest_piece(&mut inside, dims);
        let depth_m = distance_field(&inside, dims, true).iter().map(|&d2| d2_to_m(d2, cell_m)).collect();
        let outside_m = distance_field(&inside, dims, false).iter().map(|&d2| d2_to_m(d2, cell_m)).collect();
        Some(VoxelBody { origin_m, cell_m, dims, inside, depth_m, outside_m, dropped_voxels })
    }

    /// Linear index of voxel `v`, `None` outside the grid.
    pub fn index(&self, v: IVec3) -> Option<usize> {
        let [nx, ny, nz] = self.dims.map(|d| d as i32);
        ((0..nx).contains(&v.x) && (0..ny).contains(&v.y) && (0..nz).contains(&v.z))
            .then(|| ((v.z as usize * self.dims[1]) + v.y as usize) * self.dims[0] + v.x as usize)
    }

    /// The voxel whose centre is nearest to `p_m`.
    pub fn voxel_of(&self, p_m: Vec3) -> IVec3 {
        ((p_m - self.origin_m) / self.cell_m).round().as_ivec3()
    }

    /// Centre of voxel `v`, metres.
    pub fn centre(&self, v: IVec3) -> Vec3 {
        self.origin_m + v.as_vec3() * self.cell_m
    }

    /// Voxel of linear index `i`.
    pub fn voxel(&self, i: usize) -> IVec3 {
        let x = i % self.dims[0];
        let y = (i / self.dims[0]) % self.dims[1];
        let z = i / (self.dims[0] * self.dims[1]);
        IVec3::new(x as i32, y as i32, z as i32)
    }

    /// Whether the voxel nearest `p_m` is inside.
    pub fn is_inside(&self, p_m: Vec3) -> bool {
        self.index(self.voxel_of(p_m)).is_some_and(|i| self.inside[i])
    }

    /// Depth below the surface at the voxel nearest `p_m` (0 outside), metres.
    pub fn depth_at(&self, p_m: Vec3) -> f32 {
        self.index(self.voxel_of(p_m)).map_or(0.0, |i| self.depth_m[i])
    }

    /// Number of inside voxels.
    pub fn inside_count(&self) -> usize {
        self.inside.iter().filter(|&&b| b).count()
    }

    /// Bounds of the inside voxels' centres (metres), `None` when empty.
    pub fn inside_bounds(&self) -> Option<(Vec3, Vec3)> {
        let mut out: Option<(Vec3, Vec3)> = None;
        for (i, _) in self.inside.iter().enumerate().filter(|(_, b)| **b) {
            let c = self.centre(self.voxel(i));
            out = Some(out.map_or((c, c), |(lo, hi)| (lo.min(c), hi.max(c))));
        }
        out
    }
}

fn d2_to_m(d2: f32, cell_m: f32) -> f32 {
    if d2 <= 0.0 { 0.0 } else { (d2.sqrt() - 0.5) * cell_m }
}

/// Casts one ray per grid column along `axis` and votes inside/outside for each voxel centre
/// by the winding number there. Columns whose winding does not return to 0 (a hole) abstain.
fn vote_along(
    mesh: &TriMesh,
    origin: Vec3,
    cell: f32,
    dims: [usize; 3],
    axis: usize,
    votes_in: &mut [u8],
    votes_out: &mut [u8],
) {
    let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
    let (nu, nv, na) = (dims[u], dims[v], dims[axis]);
    let mut crossings: Vec<Vec<(f32, i8)>> = vec![Vec::new(); nu * nv];
    for &t in &mesh.triangles {
        let Some([a, b, c]) = mesh.triangle_corners(t) else { continue };
        let g = |p: Vec3| (p - origin) / cell;
        let (a, b, c) = (g(a), g(b), g(c));
        let normal = (b - a).cross(c - a);
        if normal[axis].abs() < 1e-12 {
            continue;
        }
        let sign: i8 = if normal[axis] > 0.0 { 1 } else { -1 };
        let (u0, u1) = (a[u].min(b[u]).min(c[u]).ceil().max(0.0), a[u].max(b[u]).max(c[u]).floor());
        let (v0, v1) = (a[v].min(b[v]).min(c[v]).ceil().max(0.0), a[v].max(b[v]).max(c[v]).floor());
        let edge = |p: Vec3, q: Vec3, x: f32, y: f32| (q[u] - p[u]) * (y - p[v]) - (q[v] - p[v]) * (x - p[u]);
        let mut y = v0;
        while y <= v1 && (y as usize) < nv {
            let mut x = u0;
            while x <= u1 && (x as usize) < nu {
                let (e0, e1, e2) = (edge(a, b, x, y), edge(b, c, x, y), edge(c, a, x, y));
                let inside = (e0 >= 0.0 && e1 >= 0.0 && e2 >= 0.0) || (e0 <= 0.0 && e1 <= 0.0 && e2 <= 0.0);
                if inside {
                    let total = e0 + e1 + e2;
                    if total.abs() > 1e-12 {
                        // Barycentric interpolation of the axis coordinate.
                        let at = (e1 * a[axis] + e2 * b[axis] + e0 * c[axis]) / total;
                        crossings[y as usize * nu + x as usize].push((at, sign));
                    }
                }
                x += 1.0;
            }
            y += 1.0;
        }
    }
    for (column, list) in crossings.iter_mut().enumerate() {
        let (x, y) = (column % nu, column / nu);
        list.sort_by(|p, q| p.0.total_cmp(&q.0));
        let closes = list.iter().map(|c| i32::from(c.1)).sum::<i32>() == 0;
        let mut winding = 0i32;
        let mut next = 0;
        for k in 0..na {
            while let Some(&(at, s)) = list.get(next) {
                if at > k as f32 {
                    break;
                }
                winding -= i32::from(s);
                next += 1;
            }
            let mut cell_index = [0usize; 3];
            cell_index[axis] = k;
            cell_index[u] = x;
            cell_index[v] = y;
            let i = (cell_index[2] * dims[1] + cell_index[1]) * dims[0] + cell_index[0];
            if !closes {
                continue;
            }
            if winding != 0 {
                votes_in[i] += 1;
            } else {
                votes_out[i] += 1;
            }
        }
    }
}

const FACES: [IVec3; 6] = [IVec3::X, IVec3::NEG_X, IVec3::Y, IVec3::NEG_Y, IVec3::Z, IVec3::NEG_Z];

fn unindex(i: usize, dims: [usize; 3]) -> IVec3 {
    IVec3::new((i % dims[0]) as i32, ((i / dims[0]) % dims[1]) as i32, (i / (dims[0] * dims[1])) as i32)
}

fn index_of(v: IVec3, dims: [usize; 3]) -> Option<usize> {
    let ok = v.x >= 0 && v.y >= 0 && v.z >= 0 && (v.x as usize) < dims[0] && (v.y as usize) < dims[1];
    (ok && (v.z as usize) < dims[2]).then(|| (v.z as usize * dims[1] + v.y as usize) * dims[0] + v.x as usize)
}

/// Outside voxels not reachable from the grid's border become inside.
fn fill_cavities(inside: &mut [bool], dims: [usize; 3]) {
    let mut reached = vec![false; inside.len()];
    let mut stack = vec![0usize];
    if inside.first() == Some(&true) {
        return;
    }
    reached[0] = true;
    while let Some(i) = stack.pop() {
        let v = unindex(i, dims);
        for d in FACES {
            if let Some(j) = index_of(v + d, dims)
                && !reached[j]
                && !inside[j]
            {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    for (x, r) in inside.iter_mut().zip(&reached) {
        if !*r {
            *x = true;
        }
    }
}

/// Keeps the largest face-connected inside piece; returns the number of voxels dropped.
fn keep_largest_piece(inside: &mut [bool], dims: [usize; 3]) -> usize {
    let mut label = vec![u32::MAX; inside.len()];
    let mut sizes = Vec::new();
    for start in 0..inside.len() {
        if !inside[start] || label[start] != u32::MAX {
            continue;
        }
        let id = sizes.len() as u32;
        let mut size = 0usize;
        let mut stack = vec![start];
        label[start] = id;
        while let Some(i) = stack.pop() {
            size += 1;
            let v = unindex(i, dims);
            for d in FACES {
                if let Some(j) = index_of(v + d, dims)
                    && inside[j]
                    && label[j] == u32::MAX
                {
                    label[j] = id;
                    stack.push(j);
                }
            }
        }
        sizes.push(size);
    }
    let Some(best) = (0..sizes.len()).max_by(|&a, &b| sizes[a].cmp(&sizes[b]).then(b.cmp(&a))) else { return 0 };
    let mut dropped = 0;
    for (x, &l) in inside.iter_mut().zip(&label) {
        if *x && l != best as u32 {
            *x = false;
            dropped += 1;
        }
    }
    dropped
}

/// Squared distance (in cells²) from each voxel with `inside == from_inside` to the nearest
/// voxel of the other kind; 0 for voxels of the other kind (Felzenszwalb–Huttenlocher).
fn distance_field(inside: &[bool], dims: [usize; 3], from_inside: bool) -> Vec<f32> {
    const INF: f32 = 1e20;
    let mut d: Vec<f32> = inside.iter().map(|&x| if x == from_inside { INF } else { 0.0 }).collect();
    let max_n = dims.iter().copied().max().unwrap_or(1);
    let mut f = vec![0f32; max_n];
    let mut out = vec![0f32; max_n];
    let mut v = vec![0usize; max_n];
    let mut z = vec![0f32; max_n + 1];
    for axis in 0..3 {
        let n = dims[axis];
        let stride = match axis {
            0 => 1,
            1 => dims[0],
            _ => dims[0] * dims[1],
        };
        let (o1, o2) = ((axis + 1) % 3, (axis + 2) % 3);
        for b in 0..dims[o2] {
            for a in 0..dims[o1] {
                let mut base = [0usize; 3];
                base[o1] = a;
                base[o2] = b;
                let start = (base[2] * dims[1] + base[1]) * dims[0] + base[0];
                for (k, x) in f.iter_mut().enumerate().take(n) {
                    *x = d[start + k * stride];
                }
                edt_1d(&f[..n], &mut out[..n], &mut v, &mut z);
                for (k, &x) in out.iter().enumerate().take(n) {
                    d[start + k * stride] = x;
                }
            }
        }
    }
    d
}

/// 1-D squared distance transform of sampled function `f` (lower envelope of parabolas).
fn edt_1d(f: &[f32], out: &mut [f32], v: &mut [usize], z: &mut [f32]) {
    let n = f.len();
    if n == 0 {
        return;
    }
    let mut k = 0usize;
    v[0] = 0;
    z[0] = f32::NEG_INFINITY;
    z[1] = f32::INFINITY;
    for q in 1..n {
        loop {
            let p = v[k];
            let s = ((f[q] + (q * q) as f32) - (f[p] + (p * p) as f32)) / (2.0 * (q as f32 - p as f32));
            if s <= z[k] && k > 0 {
                k -= 1;
                continue;
            }
            if s <= z[k] {
                // k == 0 and the new parabola dominates from −∞.
                v[0] = q;
                z[1] = f32::INFINITY;
                break;
            }
            k += 1;
            v[k] = q;
            z[k] = s;
            z[k + 1] = f32::INFINITY;
            break;
        }
    }
    k = 0;
    for (q, o) in out.iter_mut().enumerate().take(n) {
        while z[k + 1] < q as f32 {
            k += 1;
        }
        let p = v[k];
        let dq = q as f32 - p as f32;
        *o = dq * dq + f[p];
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn a_cube_voxelises_with_depth_at_its_centre() {
        let corner = |i: u32| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32);
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        let mut mesh = TriMesh { positions_in_model: (0..8).map(corner).collect(), ..Default::default() };
        for q in quads {
            mesh.triangles.push([q[0], q[1], q[2]]);
            mesh.triangles.push([q[0], q[2], q[3]]);
        }
        let body = VoxelBody::build(&mesh, 0.05).unwrap();
        let count = body.inside_count();
        assert!((7000..=9300).contains(&count), "{count}");
        let depth = body.depth_at(Vec3::splat(0.5));
        assert!((depth - 0.5).abs() < 0.06, "{depth}");
        assert!(!body.is_inside(Vec3::splat(1.2)));
        let outside = body.outside_m[body.index(body.voxel_of(Vec3::new(0.5, 0.5, 1.08))).unwrap()];
        assert!((outside - 0.08).abs() < 0.05, "{outside}");
    }
}
