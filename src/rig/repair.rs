//! Mesh repair before rigging, each step counted: weld vertices split at seams, drop degenerate
//! and duplicate faces, orient each piece consistently and outwards, fill small holes, and say
//! what is left (pieces, holes, non-manifold edges and vertices) so the caller can build a proxy.

use std::collections::HashMap;

use glam::Vec3;

use crate::body::mesh::{TopologyReport, TriMesh};

/// Holes with at most this many edges are filled (larger ones are left to the proxy).
pub const MAX_FILLED_HOLE_EDGES: usize = 64;

/// One repair step and what it changed.
#[derive(Clone, Debug, PartialEq)]
pub struct RepairStep {
    /// Short name (`weld`, `degenerate faces`, …).
    pub name: &'static str,
    /// How many things it changed (vertices merged, faces dropped, holes filled…).
    pub count: usize,
    /// One line saying what it did.
    pub detail: String,
}

/// The repaired mesh and the way back to the input's vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct Repaired {
    /// Welded, cleaned, oriented mesh (rig frame, metres), with normals. Hole fills add
    /// vertices at the end (past every input vertex's image).
    pub mesh: TriMesh,
    /// For every input vertex, its vertex in `mesh`.
    pub input_to_mesh: Vec<u32>,
    /// The steps, in order.
    pub steps: Vec<RepairStep>,
    /// Topology after repair.
    pub topology: TopologyReport,
    /// Boundary loops left open after filling.
    pub open_holes: usize,
}

impl Repaired {
    /// True when the repaired mesh is one closed, consistently oriented 2-manifold shell (the
    /// heat solve can run on it directly).
    pub fn is_single_closed_shell(&self) -> bool {
        self.topology.is_closed_manifold() && self.topology.components == 1
    }
}

/// Repairs `triangles` over `positions_in_rig` (metres). Never fails: an empty result is the
/// caller's to refuse.
pub fn repair(positions_in_rig: &[Vec3], triangles: &[[u32; 3]]) -> Repaired {
    let mut steps = Vec::new();
    let diagonal = crate::rig::frame::bounds(positions_in_rig).map_or(1.0, |(lo, hi)| (hi - lo).length().max(1e-6));
    // 1. Weld positions closer than 1e-5 of the diagonal (same quantised cell).
    let eps = 1e-5 * diagonal;
    let mut cells: HashMap<[i64; 3], u32> = HashMap::with_capacity(positions_in_rig.len());
    let mut positions = Vec::with_capacity(positions_in_rig.len());
    let input_to_mesh: Vec<u32> = positions_in_rig
        .iter()
        .map(|&p| {
            let key = (p / eps).round().as_i64vec3().to_array();
            *cells.entry(key).or_insert_with(|| {
                positions.push(p);
                (positions.len() - 1) as u32
            })
        })
        .collect();
    let merged = positions_in_rig.len() - positions.len();
    steps.push(RepairStep {
        name: "weld",
        count: merged,
        detail: format!("{merged} vertices merged into others at the same position (seams)"),
    });
    // 2. Degenerate faces: a repeated corner, or no area.
    let min_area2 = (1e-12 * diagonal * diagonal).powi(2);
    let mut faces: Vec<[u32; 3]> = Vec::with_capacity(triangles.len());
    let mut degenerate = 0;
    for t in triangles {
        let t = t.map(|i| input_to_mesh.get(i as usize).copied().unwrap_or(0));
        let [a, b, c] = t.map(|i| positions.get(i as usize).copied().unwrap_or(Vec3::ZERO));
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] || (b - a).cross(c - a).length_squared() <= min_area2 {
            degenerate += 1;
        } else {
            faces.push(t);
        }
    }
    steps.push(RepairStep {
        name: "degenerate faces",
        count: degenerate,
        detail: format!("{degenerate} faces with a repeated corner or no area dropped"),
    });
    // 3. Duplicate faces (same three vertices, either winding): keep the first.
    let mut seen: HashMap<[u32; 3], ()> = HashMap::with_capacity(faces.len());
    let before = faces.len();
    faces.retain(|t| {
        let mut key = *t;
        key.sort_unstable();
        seen.insert(key, ()).is_none()
    });
    let duplicates = before - faces.len();
    steps.push(RepairStep {
        name: "duplicate faces",
        count: duplicates,
        detail: format!("{duplicates} faces repeating another's vertices dropped"),
    });
    // 4. Orientation: consistent across manifold edges, outward per closed piece.
    let flipped = orient(&positions, &mut faces);
    steps.push(RepairStep {
        name: "orientation",
        count: flipped,
        detail: format!("{flipped} faces turned over to wind like their neighbours and face outwards"),
    });
    // 5. Small holes.
    let (filled, open_holes) = fill_small_holes(&mut positions, &mut faces);
    steps.push(RepairStep {
        name: "fill holes",
        count: filled,
        detail: format!(
            "{filled} holes of at most {MAX_FILLED_HOLE_EDGES} edges closed with a fan; {open_holes} left open"
        ),
    });
    let mut mesh = TriMesh { positions_in_model: positions, normals_in_model: Vec::new(), triangles: faces };
    let topology = mesh.topology();
    steps.push(RepairStep {
        name: "check",
        count: topology.components,
        detail: format!(
            "{} pieces, {} boundary edges, {} non-manifold edges, {} non-manifold vertices, {} isolated vertices",
            topology.components,
            topology.boundary_edges,
            topology.non_manifold_edges,
            topology.non_manifold_vertices,
            topology.isolated_vertices
        ),
    });
    mesh.recompute_normals();
    Repaired { mesh, input_to_mesh, steps, topology, open_holes }
}

/// Makes windings agree across every edge shared by exactly two faces (breadth-first from the
/// first face of each piece), then turns over each piece whose signed volume is negative.
/// Returns how many faces were turned over.
fn orient(positions: &[Vec3], faces: &mut [[u32; 3]]) -> usize {
    let mut edges: Vec<(u32, u32, u32)> = Vec::with_capacity(faces.len() * 3);
    for (f, t) in faces.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            edges.push((a.min(b), a.max(b), f as u32));
        }
    }
    edges.sort_unstable();
    let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); faces.len()];
    let mut i = 0;
    while i < edges.len() {
        let mut j = i;
        while j < edges.len() && (edges[j].0, edges[j].1) == (edges[i].0, edges[i].1) {
            j += 1;
        }
        if j - i == 2 {
            let (f, g) = (edges[i].2, edges[i + 1].2);
            neighbours[f as usize].push(g);
            neighbours[g as usize].push(f);
        }
        i = j;
    }
    let directed = |t: &[u32; 3], a: u32, b: u32| (0..3).any(|k| t[k] == a && t[(k + 1) % 3] == b);
    let mut flipped = vec![false; faces.len()];
    let mut piece = vec![u32::MAX; faces.len()];
    let mut pieces = 0u32;
    let mut queue = std::collections::VecDeque::new();
    for start in 0..faces.len() {
        if piece[start] != u32::MAX {
            continue;
        }
        piece[start] = pieces;
        queue.push_back(start);
        while let Some(f) = queue.pop_front() {
            let tf = faces[f];
            for &g in &neighbours[f] {
                let g = g as usize;
                if piece[g] != u32::MAX {
                    continue;
                }
                piece[g] = pieces;
                // Shared edge must run in opposite directions.
                let tg = faces[g];
                let shared: Vec<u32> = tf.iter().copied().filter(|v| tg.contains(v)).collect();
                if let [a, b] = shared[..] {
                    let f_ab = directed(&tf, a, b);
                    let g_ab = directed(&tg, a, b);
                    if f_ab == g_ab {
                        faces[g].swap(1, 2);
                        flipped[g] = !flipped[g];
                    }
                }
                queue.push_back(g);
            }
        }
        pieces += 1;
    }
    let mut volume = vec![0.0f64; pieces as usize];
    for (f, t) in faces.iter().enumerate() {
        let [a, b, c] = t.map(|i| positions.get(i as usize).copied().unwrap_or(Vec3::ZERO).as_dvec3());
        volume[piece[f] as usize] += a.dot(b.cross(c));
    }
    for (f, t) in faces.iter_mut().enumerate() {
        if volume[piece[f] as usize] < 0.0 {
            t.swap(1, 2);
            flipped[f] = !flipped[f];
        }
    }
    flipped.iter().filter(|&&x| x).count()
}

/// Fills boundary loops of at most [`MAX_FILLED_HOLE_EDGES`] edges with a fan around their
/// centroid (one new vertex each). Loops through a vertex with several boundary edges are
/// left. Returns (filled, left open).
fn fill_small_holes(positions: &mut Vec<Vec3>, faces: &mut Vec<[u32; 3]>) -> (usize, usize) {
    let mut edge_use: HashMap<(u32, u32), usize> = HashMap::new();
    for t in faces.iter() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *edge_use.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    // Boundary half-edges a → b as wound in their face; the hole runs b → a.
    let mut next: Vec<(u32, u32)> = Vec::new();
    for t in faces.iter() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            if edge_use.get(&(a.min(b), a.max(b))) == Some(&1) {
                next.push((b, a));
            }
        }
    }
    next.sort_unstable();
    let mut outgoing: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(from, to) in &next {
        outgoing.entry(from).or_default().push(to);
    }
    let mut used: HashMap<(u32, u32), bool> = HashMap::new();
    let (mut filled, mut open) = (0, 0);
    for &(start_from, start_to) in &next {
        if used.contains_key(&(start_from, start_to)) {
            continue;
        }
        let mut ring = vec![start_from];
        let mut simple = true;
        let (mut from, mut to) = (start_from, start_to);
        loop {
            used.insert((from, to), true);
            if to == start_from {
                break;
            }
            if ring.len() > 4 * MAX_FILLED_HOLE_EDGES {
                simple = false;
                break;
            }
            ring.push(to);
            let outs = outgoing.get(&to).map(Vec::as_slice).unwrap_or_default();
            if outs.len() != 1 {
                simple = false;
                break;
            }
            from = to;
            to = outs[0];
            if used.contains_key(&(from, to)) {
                simple = false;
                break;
            }
        }
        if !simple || ring.len() < 3 || ring.len() > MAX_FILLED_HOLE_EDGES {
            open += 1;
            continue;
        }
        let centre = ring.iter().map(|&v| positions[v as usize]).sum::<Vec3>() / ring.len() as f32;
        let c = positions.len() as u32;
        positions.push(centre);
        for k in 0..ring.len() {
            faces.push([ring[k], ring[(k + 1) % ring.len()], c]);
        }
        filled += 1;
    }
    (filled, open)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    /// A unit cube as 12 triangles with every face's corners duplicated (a "seam" per face).
    fn split_cube() -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let corner = |i: u32| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32);
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        let (mut p, mut t) = (Vec::new(), Vec::new());
        for q in quads {
            let base = p.len() as u32;
            p.extend(q.iter().map(|&i| corner(i)));
            t.push([base, base + 1, base + 2]);
            t.push([base, base + 2, base + 3]);
        }
        (p, t)
    }

    #[test]
    fn welds_seams_and_reports_a_closed_shell() {
        let (p, t) = split_cube();
        let r = repair(&p, &t);
        assert_eq!(r.mesh.vertex_count(), 8);
        assert_eq!(r.steps[0].count, 16);
        assert!(r.is_single_closed_shell(), "{:?}", r.topology);
        assert!(r.mesh.signed_volume_m3() > 0.99);
    }

    #[test]
    fn drops_bad_faces_orients_and_fills_a_hole() {
        let (p, mut t) = split_cube();
        t.push(t[0]); // duplicate
        t.push([0, 0, 1]); // degenerate
        t[3].swap(1, 2); // misoriented
        t.remove(5); // a hole (one triangle of a face)
        let r = repair(&p, &t);
        let count = |name| r.steps.iter().find(|s| s.name == name).unwrap().count;
        assert_eq!((count("duplicate faces"), count("degenerate faces"), count("fill holes")), (1, 1, 1));
        assert!(count("orientation") >= 1);
        assert!(r.is_single_closed_shell(), "{:?}", r.topology);
        // Turned inside out as a whole: turned back.
        let inverted: Vec<[u32; 3]> = split_cube().1.iter().map(|t| [t[0], t[2], t[1]]).collect();
        let r = repair(&split_cube().0, &inverted);
        assert!(r.mesh.signed_volume_m3() > 0.99);
    }
}
