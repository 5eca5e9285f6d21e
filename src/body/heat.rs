//! Bone-heat skinning weights (Baran & Popović, "Automatic Rigging and Animation of 3D
//! Characters", SIGGRAPH 2007): per joint j solve (L + A·H)·w_j = A·H·p_j with one sparse
//! Cholesky factorisation, then keep the four largest weights per vertex.
//!
//! - L: cotangent stiffness matrix with edge weights cot α + cot β (positive semi-definite,
//!   L·1 = 0). An edge whose weight is negative (non-Delaunay edge) is clamped to 0, which
//!   makes the system an M-matrix, so every solved weight lies in [0, 1] (discrete maximum
//!   principle).
//! - A: per-vertex area Σ|e₁ × e₂| over the one-ring (twice the incident triangle area, m²).
//!   This is the normalisation of the authors' reference code, so `heat_constant` = 1 means
//!   what c = 1 means there; the screening length of the weights is about d/√3.
//! - H: `heat_constant / d²` (1/m²), d = distance to the nearest *visible* bone segment;
//!   p_j = 1 where that bone moves with joint j. Bones within 1.00001·d all count, once per
//!   distinct joint (a vertex nearest to a point shared by two joints' bones splits its heat;
//!   several bones of one joint meeting there do not outweigh a single bone of another).
//!   A vertex that sees no bone gets H = 0 and takes its weights from its neighbours.
//! - Visibility: the straight segment from the vertex to its closest point on the bone must
//!   cross no triangle of the mesh (ray–mesh test with an AABB tree; the vertex's own triangles and
//!   hits within the first 0.01 % of the segment are ignored). For a closed mesh this means
//!   the segment stays inside the body.

use faer::Side;
use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMat, Triplet};
use glam::Vec3;

use super::BodyError;
use super::aabb_tree::TriangleAabbTree;
use super::lbs::{MAX_INFLUENCES, VertexInfluences};
use super::mesh::TriMesh;

/// A bone for skinning: a segment in the bind pose that moves rigidly with one joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneSegment {
    /// Index of the joint whose transform moves this bone (the palette index).
    pub joint: usize,
    /// The parent joint of `joint`, if any (used to tell adjacent bones).
    pub parent_joint: Option<usize>,
    /// Start of the segment in model space at bind (metres).
    pub head_in_model: Vec3,
    /// End of the segment in model space at bind (metres).
    pub tail_in_model: Vec3,
}

impl BoneSegment {
    /// Closest point of the segment to `p_in_model`.
    pub fn closest_point(&self, p_in_model: Vec3) -> Vec3 {
        super::segment::closest_on_segment(p_in_model, self.head_in_model, self.tail_in_model)
    }

    /// Distance from `p_in_model` to the segment, metres.
    pub fn distance_m(&self, p_in_model: Vec3) -> f32 {
        (p_in_model - self.closest_point(p_in_model)).length()
    }
}

/// Inputs of [`heat_weights`] besides the mesh and bones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeatParams {
    /// c in H = c / d² (the paper and Pinocchio use 1.0).
    pub heat_constant: f64,
    /// Distances are clamped below to this (metres) so H stays finite. Default 1 mm.
    pub min_distance_m: f32,
    /// Weights below this (after the solve) are dropped before renormalising. Default 1e-4.
    pub min_weight: f32,
}

impl Default for HeatParams {
    fn default() -> Self {
        Self { heat_constant: 1.0, min_distance_m: 1e-3, min_weight: 1e-4 }
    }
}

/// Computes bone-heat skinning weights for every vertex of `mesh` (which should be closed:
/// visibility assumes an inside). Returns at most [`MAX_INFLUENCES`] influences per vertex,
/// sorted by decreasing weight, non-negative and summing to 1; joint indices are the bones'
/// `joint` fields.
pub fn heat_weights(
    mesh: &TriMesh,
    bones: &[BoneSegment],
    params: &HeatParams,
) -> Result<Vec<VertexInfluences>, BodyError> {
    let n = mesh.vertex_count();
    validate(mesh, bones)?;
    // Distinct joints → solve columns.
    let mut joints: Vec<usize> = bones.iter().map(|b| b.joint).collect();
    joints.sort_unstable();
    joints.dedup();

    let areas = vertex_areas_m2(mesh);
    let heat = nearest_visible_bones(mesh, bones, params);
    let mut triplets = cotangent_stiffness_lower(mesh);
    for (v, (area, h)) in areas.iter().zip(&heat).enumerate() {
        let diag = area * h.total_heat(params);
        // A tiny regulariser keeps a vertex with neither heat nor area solvable.
        triplets.push(Triplet::new(v, v, diag + 1e-14));
    }
    let matrix = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &triplets)
        .map_err(|e| BodyError::Solver(format!("{e:?}")))?;
    let llt = matrix.sp_cholesky(Side::Lower).map_err(|e| BodyError::Solver(e.to_string()))?;
    let mut rhs = faer::Mat::<f64>::zeros(n, joints.len());
    for (col, &joint) in joints.iter().enumerate() {
        let column = rhs.col_as_slice_mut(col);
        for (v, (area, h)) in areas.iter().zip(&heat).enumerate() {
            if let Some(x) = column.get_mut(v) {
                *x = area * h.heat_for_joint(joint, params);
            }
        }
    }
    llt.solve_in_place(rhs.as_mut());

    let columns: Vec<&[f64]> = (0..joints.len()).map(|c| rhs.col_as_slice(c)).collect();
    let mut out = Vec::with_capacity(n);
    let mut candidates: Vec<(f32, usize)> = Vec::with_capacity(joints.len());
    for (v, &p) in mesh.positions_in_model.iter().enumerate() {
        candidates.clear();
        for (&joint, column) in joints.iter().zip(&columns) {
            let w = column.get(v).copied().unwrap_or(0.0) as f32;
            if w.is_finite() && w >= params.min_weight {
                candidates.push((w.min(1.0), joint));
            }
        }
        if candidates.is_empty() {
            // Degenerate solve: fall back to the nearest bone.
            let nearest = nearest_bone(bones, p).map_or(0, |b| b.joint);
            candidates.push((1.0, nearest));
        }
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        candidates.truncate(MAX_INFLUENCES);
        out.push(VertexInfluences::from_pairs(&candidates));
    }
    Ok(out)
}

/// The bone nearest to `p_in_model` by straight distance (ties: the first listed).
pub fn nearest_bone(bones: &[BoneSegment], p_in_model: Vec3) -> Option<&BoneSegment> {
    bones.iter().min_by(|a, b| a.distance_m(p_in_model).total_cmp(&b.distance_m(p_in_model)))
}

fn validate(mesh: &TriMesh, bones: &[BoneSegment]) -> Result<(), BodyError> {
    let n = mesh.vertex_count();
    if n == 0 || mesh.triangles.is_empty() {
        return Err(BodyError::InvalidInput("empty mesh".into()));
    }
    if mesh.triangles.iter().flatten().any(|&i| i as usize >= n) {
        return Err(BodyError::InvalidInput("triangle index out of range".into()));
    }
    if mesh.positions_in_model.iter().any(|p| !p.is_finite()) {
        return Err(BodyError::InvalidInput("non-finite vertex position".into()));
    }
    if bones.is_empty() {
        return Err(BodyError::InvalidInput("no bones".into()));
    }
    for (i, b) in bones.iter().enumerate() {
        if b.joint > usize::from(u16::MAX) || !b.head_in_model.is_finite() || !b.tail_in_model.is_finite() {
            return Err(BodyError::InvalidInput(format!("bone {i}: joint index or position invalid")));
        }
    }
    Ok(())
}

/// The joints of the nearest visible bones of one vertex (all within 1.00001× of the
/// nearest), sorted and distinct.
#[derive(Clone, Debug, Default)]
struct VertexHeat {
    distance_m: f32,
    joints: Vec<usize>,
}

impl VertexHeat {
    fn heat_per_bone(&self, params: &HeatParams) -> f64 {
        let d = f64::from(self.distance_m.max(params.min_distance_m));
        params.heat_constant / (d * d)
    }

    fn total_heat(&self, params: &HeatParams) -> f64 {
        self.heat_per_bone(params) * self.joints.len() as f64
    }

    fn heat_for_joint(&self, joint: usize, params: &HeatParams) -> f64 {
        if self.joints.contains(&joint) { self.heat_per_bone(params) } else { 0.0 }
    }
}

/// For every vertex, the nearest bone(s) whose closest point it can see (see module doc).
fn nearest_visible_bones(mesh: &TriMesh, bones: &[BoneSegment], params: &HeatParams) -> Vec<VertexHeat> {
    let tree = TriangleAabbTree::build(mesh);
    let mut order: Vec<(f32, usize)> = Vec::with_capacity(bones.len());
    mesh.positions_in_model
        .iter()
        .enumerate()
        .map(|(v, &p)| {
            order.clear();
            order.extend(bones.iter().enumerate().map(|(i, b)| (b.distance_m(p), i)));
            order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut heat = VertexHeat::default();
            for &(d, i) in &order {
                if !heat.joints.is_empty() && d > heat.distance_m * 1.00001 + params.min_distance_m * 1e-3 {
                    break;
                }
                let Some(bone) = bones.get(i) else { continue };
                if !tree.segment_hits(p, bone.closest_point(p), 1e-4, v as u32) {
                    if heat.joints.is_empty() {
                        heat.distance_m = d;
                    }
                    heat.joints.push(bone.joint);
                }
            }
            heat.joints.sort_unstable();
            heat.joints.dedup();
            heat
        })
        .collect()
}

/// Vertex areas as in the reference implementation: Σ |(b − a) × (c − a)| over the incident
/// triangles (twice their area; six times the barycentric area), m².
fn vertex_areas_m2(mesh: &TriMesh) -> Vec<f64> {
    let mut areas = vec![0.0f64; mesh.vertex_count()];
    for &tri in &mesh.triangles {
        let Some([a, b, c]) = mesh.triangle_corners(tri) else { continue };
        let doubled = (b - a).as_dvec3().cross((c - a).as_dvec3()).length();
        for i in tri {
            if let Some(x) = areas.get_mut(i as usize) {
                *x += doubled;
            }
        }
    }
    areas
}

/// Lower triangle (plus diagonal) of the cotangent stiffness matrix as triplets, with each
/// edge weight cot α + cot β clamped to ≥ 0.
fn cotangent_stiffness_lower(mesh: &TriMesh) -> Vec<Triplet<usize, usize, f64>> {
    let mut edges: Vec<(u32, u32, f64)> = Vec::with_capacity(mesh.triangles.len() * 3);
    for &tri in &mesh.triangles {
        let Some(corners) = mesh.triangle_corners(tri) else { continue };
        for k in 0..3 {
            // Angle at corner k is opposite the edge (k+1, k+2).
            let (o, a, b) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
            let (u, w) = ((a - o).as_dvec3(), (b - o).as_dvec3());
            let cross = u.cross(w).length();
            let cot = if cross > 1e-30 { u.dot(w) / cross } else { 0.0 };
            let (i, j) = (tri[(k + 1) % 3], tri[(k + 2) % 3]);
            edges.push((i.max(j), i.min(j), cot));
        }
    }
    edges.sort_unstable_by_key(|e| (e.0, e.1));
    let mut triplets = Vec::with_capacity(edges.len() + mesh.vertex_count());
    let mut diag = vec![0.0f64; mesh.vertex_count()];
    let mut i = 0;
    while let Some(&(hi, lo, _)) = edges.get(i) {
        let mut w = 0.0;
        while let Some(&(h2, l2, c)) = edges.get(i) {
            if (h2, l2) != (hi, lo) {
                break;
            }
            w += c;
            i += 1;
        }
        let w = w.max(0.0);
        triplets.push(Triplet::new(hi as usize, lo as usize, -w));
        for v in [hi, lo] {
            if let Some(d) = diag.get_mut(v as usize) {
                *d += w;
            }
        }
    }
    triplets.extend(diag.iter().enumerate().map(|(v, &d)| Triplet::new(v, v, d)));
    triplets
}
