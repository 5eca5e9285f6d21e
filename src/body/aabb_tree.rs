//! Tree of axis-aligned bounding boxes over a mesh's triangles for segment–mesh intersection
//! queries (the visibility test of bone-heat skinning: does the segment from a vertex to its
//! bone stay inside the body?).

use glam::Vec3;

use super::mesh::TriMesh;

/// Triangles per leaf (at most).
const LEAF_SIZE: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Node {
    lo: Vec3,
    hi: Vec3,
    /// Leaf: first entry in `order`; inner: index of the left child (right = left + 1).
    first: u32,
    /// Leaf: number of triangles; inner: 0.
    count: u32,
}

/// A tree of axis-aligned boxes over a triangle mesh (median split on the longest axis). Immutable.
#[derive(Clone, Debug)]
pub struct TriangleAabbTree {
    nodes: Vec<Node>,
    /// Triangle indices in leaf order.
    order: Vec<u32>,
    /// Corner positions per triangle (by triangle index).
    corners: Vec<[Vec3; 3]>,
    /// Vertex indices per triangle (by triangle index), to skip incident triangles.
    triangles: Vec<[u32; 3]>,
}

impl TriangleAabbTree {
    /// Builds the tree. Triangles with out-of-range indices are left out.
    pub fn build(mesh: &TriMesh) -> Self {
        let mut corners = Vec::with_capacity(mesh.triangles.len());
        let mut triangles = Vec::with_capacity(mesh.triangles.len());
        for &tri in &mesh.triangles {
            if let Some(c) = mesh.triangle_corners(tri) {
                corners.push(c);
                triangles.push(tri);
            }
        }
        let centroids: Vec<Vec3> = corners.iter().map(|c| (c[0] + c[1] + c[2]) / 3.0).collect();
        let mut order: Vec<u32> = (0..corners.len() as u32).collect();
        let mut nodes = vec![Node { lo: Vec3::ZERO, hi: Vec3::ZERO, first: 0, count: 0 }];
        // (node index, range in `order`)
        let mut stack = vec![(0usize, 0usize, order.len())];
        while let Some((node, start, end)) = stack.pop() {
            let slice = order.get_mut(start..end).unwrap_or_default();
            let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
            let (mut clo, mut chi) = (lo, hi);
            for &t in slice.iter() {
                for &p in corners.get(t as usize).into_iter().flatten() {
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
                let c = centroids.get(t as usize).copied().unwrap_or(Vec3::ZERO);
                clo = clo.min(c);
                chi = chi.max(c);
            }
            let mut record = Node { lo, hi, first: start as u32, count: (end - start) as u32 };
            if end - start > LEAF_SIZE {
                let extent = chi - clo;
                let axis = if extent.x >= extent.y && extent.x >= extent.z {
                    0
                } else if extent.y >= extent.z {
                    1
                } else {
                    2
                };
                let mid = (end - start) / 2;
                let key = |t: &u32| centroids.get(*t as usize).map_or(0.0, |c| c[axis]);
                slice.select_nth_unstable_by(mid, |a, b| key(a).total_cmp(&key(b)).then(a.cmp(b)));
                let left = nodes.len();
                nodes.push(record);
                nodes.push(record);
                record.first = left as u32;
                record.count = 0;
                stack.push((left, start, start + mid));
                stack.push((left + 1, start + mid, end));
            }
            if let Some(n) = nodes.get_mut(node) {
                *n = record;
            }
        }
        Self { nodes, order, corners, triangles }
    }

    /// True if the segment `from → to` crosses a triangle at a parameter `t` in
    /// `(t_min, 1]`, ignoring triangles that use vertex `skip_vertex` (pass `u32::MAX` for
    /// none).
    pub fn segment_hits(&self, from: Vec3, to: Vec3, t_min: f32, skip_vertex: u32) -> bool {
        let dir = to - from;
        let inv = Vec3::ONE / dir;
        let mut stack: Vec<u32> = Vec::with_capacity(64);
        stack.push(0);
        while let Some(index) = stack.pop() {
            let Some(node) = self.nodes.get(index as usize) else { continue };
            if !segment_meets_box(from, inv, node.lo, node.hi) {
                continue;
            }
            if node.count == 0 {
                stack.push(node.first);
                stack.push(node.first + 1);
                continue;
            }
            let range = node.first as usize..(node.first + node.count) as usize;
            for &t in self.order.get(range).unwrap_or_default() {
                let (Some(c), Some(tri)) = (self.corners.get(t as usize), self.triangles.get(t as usize)) else {
                    continue;
                };
                if tri.contains(&skip_vertex) {
                    continue;
                }
                if let Some(s) = segment_triangle(from, dir, c)
                    && s > t_min
                    && s <= 1.0
                {
                    return true;
                }
            }
        }
        false
    }
}

/// Slab test of the segment `from + t·dir`, `t ∈ [0, 1]`, against a box (`inv = 1/dir`).
fn segment_meets_box(from: Vec3, inv: Vec3, lo: Vec3, hi: Vec3) -> bool {
    let a = (lo - from) * inv;
    let b = (hi - from) * inv;
    // NaN (0·∞ for a zero direction component on a slab face) counts as a hit: conservative.
    let t0 = a.min(b).max_element().max(0.0);
    let t1 = a.max(b).min_element().min(1.0);
    t0.partial_cmp(&t1) != Some(std::cmp::Ordering::Greater)
}

/// Möller–Trumbore: parameter `t` along `from + t·dir` where the line crosses the triangle.
fn segment_triangle(from: Vec3, dir: Vec3, c: &[Vec3; 3]) -> Option<f32> {
    let e1 = c[1] - c[0];
    let e2 = c[2] - c[0];
    let p = dir.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-20 {
        return None;
    }
    let inv_det = 1.0 / det;
    let s = from - c[0];
    let u = s.dot(p) * inv_det;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = dir.dot(q) * inv_det;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    Some(e2.dot(q) * inv_det)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn segment_hits_a_cube_face_only_when_crossing() {
        // Unit cube as 12 triangles.
        let p: Vec<Vec3> =
            (0..8).map(|c| Vec3::new((c & 1) as f32, (c >> 1 & 1) as f32, (c >> 2 & 1) as f32)).collect();
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        let triangles = quads.iter().flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]).collect();
        let mesh = TriMesh { positions_in_model: p, normals_in_model: Vec::new(), triangles };
        assert!(mesh.topology().is_closed_manifold());
        let tree = TriangleAabbTree::build(&mesh);
        let centre = Vec3::splat(0.5);
        assert!(!tree.segment_hits(centre, Vec3::new(0.9, 0.2, 0.7), 0.0, u32::MAX));
        assert!(tree.segment_hits(centre, Vec3::new(1.5, 0.5, 0.5), 0.0, u32::MAX));
        assert!(tree.segment_hits(Vec3::new(0.5, 0.5, -1.0), Vec3::new(0.5, 0.5, 2.0), 0.0, u32::MAX));
        // From a corner inwards: its own faces are skipped, the far face still counts.
        assert!(!tree.segment_hits(Vec3::ZERO, centre, 0.0, 0));
        assert!(tree.segment_hits(Vec3::ZERO, Vec3::new(1.5, 0.5, 0.5), 0.0, 0));
    }
}
