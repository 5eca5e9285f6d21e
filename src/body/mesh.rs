//! Indexed triangle mesh (positions, smooth normals, triangles) with topology checks:
//! closed (no boundary edge), 2-manifold (every edge in exactly two triangles, every vertex a
//! single fan) and consistently oriented (each edge used once in each direction).

use glam::Vec3;

/// An indexed triangle mesh in model space (metres). Triangles wind counter-clockwise when
/// seen from outside, so `(b − a) × (c − a)` points out of the body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TriMesh {
    /// Vertex positions in model space, metres.
    pub positions_in_model: Vec<Vec3>,
    /// Unit vertex normals in model space (same length as `positions_in_model`).
    pub normals_in_model: Vec<Vec3>,
    /// Vertex indices, three per triangle.
    pub triangles: Vec<[u32; 3]>,
}

/// What [`TriMesh::topology`] found. A closed, consistently oriented 2-manifold has every
/// count except `components` equal to zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TopologyReport {
    /// Triangles with an index past the vertex array.
    pub out_of_range_indices: usize,
    /// Triangles that repeat a vertex index.
    pub degenerate_triangles: usize,
    /// Undirected edges used by exactly one triangle.
    pub boundary_edges: usize,
    /// Undirected edges used by three or more triangles.
    pub non_manifold_edges: usize,
    /// Edges used by two triangles in the same direction (inconsistent winding).
    pub misoriented_edges: usize,
    /// Vertices whose incident triangles form more than one fan (pinch points).
    pub non_manifold_vertices: usize,
    /// Vertices used by no triangle.
    pub isolated_vertices: usize,
    /// Connected components (through shared vertices).
    pub components: usize,
    /// Number of distinct undirected edges.
    pub edge_count: usize,
    /// Euler characteristic V − E + F (2 for a sphere-like closed surface).
    pub euler_characteristic: i64,
}

impl TopologyReport {
    /// True for a closed, consistently oriented 2-manifold without stray vertices.
    pub fn is_closed_manifold(&self) -> bool {
        self.out_of_range_indices == 0
            && self.degenerate_triangles == 0
            && self.boundary_edges == 0
            && self.non_manifold_edges == 0
            && self.misoriented_edges == 0
            && self.non_manifold_vertices == 0
            && self.isolated_vertices == 0
    }
}

impl TriMesh {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions_in_model.len()
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The three corner positions of a triangle, or `None` if an index is out of range.
    pub fn triangle_corners(&self, triangle: [u32; 3]) -> Option<[Vec3; 3]> {
        let p = |i: u32| self.positions_in_model.get(i as usize).copied();
        Some([p(triangle[0])?, p(triangle[1])?, p(triangle[2])?])
    }

    /// Recomputes smooth vertex normals: the area-weighted sum of incident face normals,
    /// normalised (a vertex without area gets +Y). Triangles with bad indices are skipped.
    pub fn recompute_normals(&mut self) {
        let mut sums = vec![Vec3::ZERO; self.positions_in_model.len()];
        for &tri in &self.triangles {
            let Some([a, b, c]) = self.triangle_corners(tri) else { continue };
            let area_normal = (b - a).cross(c - a);
            for i in tri {
                if let Some(s) = sums.get_mut(i as usize) {
                    *s += area_normal;
                }
            }
        }
        self.normals_in_model = sums.into_iter().map(|s| s.try_normalize().unwrap_or(Vec3::Y)).collect();
    }

    /// Signed enclosed volume in m³ (positive for outward-facing triangles).
    pub fn signed_volume_m3(&self) -> f64 {
        let mut six_volume = 0.0f64;
        for &tri in &self.triangles {
            let Some([a, b, c]) = self.triangle_corners(tri) else { continue };
            six_volume += f64::from(a.dot(b.cross(c)));
        }
        six_volume / 6.0
    }

    /// Axis-aligned bounds `(min, max)` of the vertices, `None` for an empty mesh.
    pub fn bounds_in_model(&self) -> Option<(Vec3, Vec3)> {
        let first = *self.positions_in_model.first()?;
        Some(self.positions_in_model.iter().fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p))))
    }

    /// Sorted, de-duplicated one-ring neighbours of every vertex (bad triangles skipped).
    pub fn vertex_neighbours(&self) -> Vec<Vec<u32>> {
        let n = self.positions_in_model.len();
        let mut rings: Vec<Vec<u32>> = vec![Vec::new(); n];
        for &[a, b, c] in &self.triangles {
            if a as usize >= n || b as usize >= n || c as usize >= n {
                continue;
            }
            for (u, v) in [(a, b), (b, c), (c, a)] {
                if let Some(r) = rings.get_mut(u as usize) {
                    r.push(v);
                }
                if let Some(r) = rings.get_mut(v as usize) {
                    r.push(u);
                }
            }
        }
        for r in &mut rings {
            r.sort_unstable();
            r.dedup();
        }
        rings
    }

    /// Checks the topology (see [`TopologyReport`]). O(T log T).
    pub fn topology(&self) -> TopologyReport {
        let n = self.positions_in_model.len();
        let mut report = TopologyReport::default();
        // Directed edges of the valid triangles, keyed by their undirected edge.
        let mut edges: Vec<(u32, u32, bool)> = Vec::with_capacity(self.triangles.len() * 3);
        let mut valid = Vec::with_capacity(self.triangles.len());
        for &[a, b, c] in &self.triangles {
            if a as usize >= n || b as usize >= n || c as usize >= n {
                report.out_of_range_indices += 1;
                continue;
            }
            if a == b || b == c || c == a {
                report.degenerate_triangles += 1;
                continue;
            }
            valid.push([a, b, c]);
            for (u, v) in [(a, b), (b, c), (c, a)] {
                edges.push((u.min(v), u.max(v), u < v));
            }
        }
        edges.sort_unstable();
        let mut i = 0;
        while i < edges.len() {
            let Some(&(lo, hi, _)) = edges.get(i) else { break };
            let mut j = i;
            let mut forward = 0usize;
            while let Some(&(l2, h2, fwd)) = edges.get(j) {
                if (l2, h2) != (lo, hi) {
                    break;
                }
                forward += usize::from(fwd);
                j += 1;
            }
            match j - i {
                1 => report.boundary_edges += 1,
                2 if forward != 1 => report.misoriented_edges += 1,
                2 => {}
                _ => report.non_manifold_edges += 1,
            }
            report.edge_count += 1;
            i = j;
        }
        report.non_manifold_vertices = count_pinched_vertices(n, &valid);
        let mut union = UnionFind::new(n);
        let mut used = vec![false; n];
        for &[a, b, c] in &valid {
            union.join(a as usize, b as usize);
            union.join(a as usize, c as usize);
            for v in [a, b, c] {
                if let Some(u) = used.get_mut(v as usize) {
                    *u = true;
                }
            }
        }
        report.isolated_vertices = used.iter().filter(|&&u| !u).count();
        report.components = (0..n).filter(|&v| used.get(v) == Some(&true) && union.find(v) == v).count();
        report.euler_characteristic = n as i64 - report.edge_count as i64 + valid.len() as i64;
        report
    }
}

/// Counts vertices whose link (the opposite edges of their triangles) has more than one
/// connected piece, i.e. the incident triangles form several fans.
fn count_pinched_vertices(vertex_count: usize, triangles: &[[u32; 3]]) -> usize {
    // (centre, a, b) for each corner: the link edge a–b of vertex `centre`.
    let mut corners: Vec<(u32, u32, u32)> = Vec::with_capacity(triangles.len() * 3);
    for &[a, b, c] in triangles {
        corners.push((a, b, c));
        corners.push((b, c, a));
        corners.push((c, a, b));
    }
    corners.sort_unstable();
    let mut pinched = 0;
    let mut i = 0;
    let mut link: Vec<u32> = Vec::new();
    while i < corners.len() {
        let Some(&(centre, _, _)) = corners.get(i) else { break };
        let mut j = i;
        link.clear();
        while let Some(&(c2, a, b)) = corners.get(j) {
            if c2 != centre {
                break;
            }
            link.push(a);
            link.push(b);
            j += 1;
        }
        // Union the link edges over the compacted link vertex ids.
        let mut ids = link.clone();
        ids.sort_unstable();
        ids.dedup();
        let mut union = UnionFind::new(ids.len());
        for pair in link.chunks_exact(2) {
            if let [a, b] = *pair
                && let (Ok(ia), Ok(ib)) = (ids.binary_search(&a), ids.binary_search(&b))
            {
                union.join(ia, ib);
            }
        }
        let pieces = (0..ids.len()).filter(|&k| union.find(k) == k).count();
        if pieces > 1 && (centre as usize) < vertex_count {
            pinched += 1;
        }
        i = j;
    }
    pinched
}

/// Minimal union–find with path halving; out-of-range indices are ignored.
pub(crate) struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// `n` singleton sets.
    pub(crate) fn new(n: usize) -> Self {
        Self { parent: (0..n).collect() }
    }

    /// Representative of `x`'s set (`x` itself when out of range).
    pub(crate) fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            if p == x {
                break;
            }
            let grand = self.parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(x) {
                *slot = grand;
            }
            x = grand;
        }
        x
    }

    /// Merges the sets of `a` and `b` (the smaller representative wins, for determinism).
    pub(crate) fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        if let Some(slot) = self.parent.get_mut(hi) {
            *slot = lo;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    fn tetrahedron() -> TriMesh {
        let mut mesh = TriMesh {
            positions_in_model: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z],
            normals_in_model: Vec::new(),
            triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
        };
        mesh.recompute_normals();
        mesh
    }

    #[test]
    fn tetrahedron_is_closed_manifold_with_positive_volume() {
        let mesh = tetrahedron();
        let report = mesh.topology();
        assert!(report.is_closed_manifold(), "{report:?}");
        assert_eq!(report.euler_characteristic, 2);
        assert_eq!(report.components, 1);
        assert!((mesh.signed_volume_m3() - 1.0 / 6.0).abs() < 1e-9);
    }

    #[test]
    fn defects_are_counted() {
        let mut open = tetrahedron();
        open.triangles.pop();
        assert_eq!(open.topology().boundary_edges, 3);

        let mut flipped = tetrahedron();
        flipped.triangles[3] = [1, 3, 2];
        assert_eq!(flipped.topology().misoriented_edges, 3);

        // Two tetrahedra sharing only vertex 0: every edge is fine, vertex 0 is pinched.
        let mut pinched = tetrahedron();
        pinched.positions_in_model.extend([-Vec3::X, -Vec3::Y, -Vec3::Z]);
        pinched.triangles.extend([[0, 4, 5], [0, 6, 4], [0, 5, 6], [4, 6, 5]]);
        let report = pinched.topology();
        assert_eq!(report.non_manifold_vertices, 1, "{report:?}");
        assert_eq!(report.boundary_edges + report.misoriented_edges, 0, "{report:?}");

        let mut bad = tetrahedron();
        bad.triangles.push([0, 9, 1]);
        assert_eq!(bad.topology().out_of_range_indices, 1);
    }
}
