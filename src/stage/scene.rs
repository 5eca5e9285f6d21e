//! Plain data the renderer draws: skinned meshes, dancers (mesh + palette + colour), instances of
//! shared poses (crowds), floor marks, contact shadows, lines, the stage and its lighting. It knows nothing about scores or motion; world space is
//! metres, +Y up, floor at y = 0, audience at +Z. Colours are linear RGBA in [0, 1].

use crate::side::Side;
use glam::{Mat4, Vec3};

/// Handle of a mesh uploaded to the renderer (`render::Renderer::upload_mesh`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MeshId(pub u32);

/// A triangle mesh skinned to at most 4 joints per vertex, in bind-pose (mesh) space.
///
/// All per-vertex vectors have the same length; `indices` lists triangles (3 per face,
/// counter-clockwise seen from outside). Joint indices address the dancer's palette.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SkinnedMeshData {
    /// Vertex positions in mesh space, metres.
    pub positions: Vec<[f32; 3]>,
    /// Vertex normals in mesh space (need not be unit length; zero is allowed but renders dark).
    pub normals: Vec<[f32; 3]>,
    /// Up to 4 palette indices per vertex.
    pub joints: Vec<[u16; 4]>,
    /// Weights of `joints`; renormalised on upload (all-zero weights mean joint 0 only).
    pub weights: Vec<[f32; 4]>,
    /// Triangle list indices into the vertex arrays.
    pub indices: Vec<u32>,
}

/// The first rule a [`SkinnedMeshData`] breaks ([`SkinnedMeshData::validate`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    /// No vertices or no indices.
    #[error("the mesh has no vertices or no indices")]
    Empty,
    /// A per-vertex attribute's length differs from the positions'.
    #[error("{attribute} has {len} entries but positions has {vertex_count}")]
    LengthMismatch {
        /// `normals`, `joints` or `weights`.
        attribute: &'static str,
        /// Its length.
        len: usize,
        /// Number of positions.
        vertex_count: usize,
    },
    /// The index count is not a multiple of three.
    #[error("{index_count} indices is not a whole number of triangles")]
    PartialTriangle {
        /// Number of indices.
        index_count: usize,
    },
    /// An index points past the last vertex.
    #[error("index {index} is out of range for {vertex_count} vertices")]
    IndexOutOfRange {
        /// The first such index.
        index: u32,
        /// Number of vertices.
        vertex_count: usize,
    },
    /// A position or normal is NaN or infinite.
    #[error("a position or normal is not finite")]
    NonFiniteVertex,
    /// A skinning weight is negative, NaN or infinite.
    #[error("a weight is negative or not finite")]
    BadWeight,
}

impl SkinnedMeshData {
    /// Checks the invariants the GPU relies on; the error names the first broken rule.
    pub fn validate(&self) -> Result<(), MeshError> {
        let vertex_count = self.positions.len();
        if vertex_count == 0 || self.indices.is_empty() {
            return Err(MeshError::Empty);
        }
        for (attribute, len) in
            [("normals", self.normals.len()), ("joints", self.joints.len()), ("weights", self.weights.len())]
        {
            if len != vertex_count {
                return Err(MeshError::LengthMismatch { attribute, len, vertex_count });
            }
        }
        if !self.indices.len().is_multiple_of(3) {
            return Err(MeshError::PartialTriangle { index_count: self.indices.len() });
        }
        if let Some(&index) = self.indices.iter().find(|&&index| index as usize >= vertex_count) {
            return Err(MeshError::IndexOutOfRange { index, vertex_count });
        }
        let all_finite = |values: &[[f32; 3]]| values.iter().flatten().all(|v| v.is_finite());
        if !all_finite(&self.positions) || !all_finite(&self.normals) {
            return Err(MeshError::NonFiniteVertex);
        }
        if self.weights.iter().flatten().any(|w| !w.is_finite() || *w < 0.0) {
            return Err(MeshError::BadWeight);
        }
        Ok(())
    }

    /// Palette length this mesh needs: its largest joint index with non-zero weight, plus one.
    pub fn required_palette_len(&self) -> usize {
        self.joints
            .iter()
            .zip(&self.weights)
            .flat_map(|(joints, weights)| joints.iter().zip(weights))
            .filter(|(_, weight)| **weight > 0.0)
            .map(|(joint, _)| usize::from(*joint) + 1)
            .max()
            .unwrap_or(1)
    }
}

/// One dancer to draw this frame.
#[derive(Clone, Debug, PartialEq)]
pub struct DancerInstance {
    /// The uploaded mesh.
    pub mesh_id: MeshId,
    /// Skinning palette: `world_from_joint * joint_from_model_at_bind` per joint (maps mesh-space
    /// bind-pose positions to world space). Must cover [`SkinnedMeshData::required_palette_len`].
    pub palette: Vec<Mat4>,
    /// Base colour, linear RGBA (alpha is ignored: dancers are opaque).
    pub colour: [f32; 4],
}

/// One instance of a shared pose: drawn with `Scene::poses[pose]` (pose space) carried to the
/// world by `world_from_pose`. Performers in unison share one palette, uploaded once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseInstance {
    /// The uploaded mesh.
    pub mesh_id: MeshId,
    /// Index into [`Scene::poses`].
    pub pose: u32,
    /// Pose space → world (rigid).
    pub world_from_pose: Mat4,
    /// Base colour, linear RGBA (alpha is ignored).
    pub colour: [f32; 4],
}

/// The scene's light: a key light (the sun) and a hemisphere ambient (sky above, ground below).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lighting {
    /// Direction toward the key light, world (need not be unit length).
    pub sun_dir_in_world: Vec3,
    /// Linear RGB radiance of the key light.
    pub sun_colour: [f32; 3],
    /// Linear RGB ambient from above.
    pub sky_colour: [f32; 3],
    /// Linear RGB ambient from below.
    pub ground_colour: [f32; 3],
}

impl Default for Lighting {
    /// Front-right of the audience, high; warm white key, cool sky, dark ground.
    fn default() -> Self {
        Lighting {
            sun_dir_in_world: Vec3::new(0.38, 0.80, 0.46),
            sun_colour: [0.85, 0.80, 0.72],
            sky_colour: [0.30, 0.33, 0.40],
            ground_colour: [0.10, 0.09, 0.08],
        }
    }
}

/// What a floor mark looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloorMarkKind {
    /// A sole outline 0.26 m long and 0.10 m wide (at unit scale), toes toward mark +Z.
    Footprint {
        /// Which foot (the outline is mirrored for the left foot).
        side: Side,
    },
    /// A round spot of radius 0.12 m (at unit scale), e.g. a stage position marker.
    Spot,
}

/// A flat mark lying on the floor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorMark {
    /// The mark's shape.
    pub kind: FloorMarkKind,
    /// Mark space → world. The mark lies in its local XZ plane, centred on the origin; the
    /// renderer draws it just above y = 0 wherever the transform puts it.
    pub world_from_mark: Mat4,
    /// Linear RGBA; alpha blends the mark over the floor.
    pub colour: [f32; 4],
}

impl FloorMark {
    /// A footprint centred at `centre_in_world` (y ignored), toes pointing along
    /// `heading_rad` (0 = toward +Z / the audience, positive = turning toward +X).
    pub fn footprint(side: Side, centre_in_world: Vec3, heading_rad: f32, colour: [f32; 4]) -> Self {
        let world_from_mark = Mat4::from_translation(Vec3::new(centre_in_world.x, 0.0, centre_in_world.z))
            * Mat4::from_rotation_y(heading_rad);
        Self { kind: FloorMarkKind::Footprint { side }, world_from_mark, colour }
    }
}

/// A soft dark blob on the floor under a body part (pelvis, feet) to anchor it visually.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactShadow {
    /// The body point casting the shadow, world metres; the blob goes straight below it.
    pub centre_in_world: Vec3,
    /// Blob radius in metres.
    pub radius_m: f32,
    /// Darkness at the centre when the point touches the floor, 0..1; it fades out linearly as
    /// the point rises to 1.5 m.
    pub opacity: f32,
}

/// A polyline drawn as 1-pixel lines (trails, facing arrows, path previews).
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline {
    /// The points in order, world metres; fewer than two draws nothing.
    pub points_in_world: Vec<Vec3>,
    /// Linear RGBA.
    pub colour: [f32; 4],
}

/// The stage floor's size and look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stage {
    /// Half the stage width along X, metres.
    pub half_width_m: f32,
    /// Half the stage depth along Z, metres.
    pub half_depth_m: f32,
    /// Grid line spacing, metres.
    pub grid_spacing_m: f32,
    /// Depth of the coloured band along the audience (+Z) edge, metres.
    pub audience_band_m: f32,
    /// Floor colour, linear RGB.
    pub floor_colour: [f32; 3],
    /// Audience band colour, linear RGB.
    pub audience_colour: [f32; 3],
    /// Background (clear) colour, linear RGB.
    pub background_colour: [f32; 3],
}

impl Default for Stage {
    fn default() -> Self {
        Self {
            half_width_m: 4.0,
            half_depth_m: 4.0,
            grid_spacing_m: 1.0,
            audience_band_m: 0.25,
            floor_colour: [0.17, 0.14, 0.11],
            audience_colour: [0.55, 0.12, 0.08],
            background_colour: [0.055, 0.06, 0.075],
        }
    }
}

/// Everything drawn in one frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The floor.
    pub stage: Stage,
    /// Dancers, drawn opaque.
    pub dancers: Vec<DancerInstance>,
    /// Shared skinning palettes (`world_from_joint * joint_from_model_at_bind` in pose space), each
    /// uploaded once however many [`Scene::instances`] use it.
    pub poses: Vec<Vec<Mat4>>,
    /// Instances of shared poses, drawn opaque (one draw per mesh with the dancers).
    pub instances: Vec<PoseInstance>,
    /// The light.
    pub lighting: Lighting,
    /// Footprints and spots, drawn over the floor in order.
    pub floor_marks: Vec<FloorMark>,
    /// Soft shadows on the floor.
    pub contact_shadows: Vec<ContactShadow>,
    /// Lines, drawn last (depth-tested).
    pub lines: Vec<Polyline>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    fn triangle() -> SkinnedMeshData {
        SkinnedMeshData {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            normals: vec![[0.0, 0.0, 1.0]; 3],
            joints: vec![[0, 0, 0, 0], [2, 7, 0, 0], [1, 0, 0, 0]],
            weights: vec![[1.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.5, 0.0], [1.0, 0.0, 0.0, 0.0]],
            indices: vec![0, 1, 2],
        }
    }

    #[test]
    fn validate_accepts_a_good_mesh_and_rejects_broken_ones() {
        assert!(triangle().validate().is_ok());
        let mut short = triangle();
        short.normals.pop();
        assert!(short.validate().unwrap_err().to_string().contains("normals"));
        let mut out_of_range = triangle();
        out_of_range.indices[1] = 3;
        assert!(out_of_range.validate().unwrap_err().to_string().contains("out of range"));
        let mut ragged = triangle();
        ragged.indices.push(0);
        assert!(ragged.validate().is_err());
        let mut nan = triangle();
        nan.positions[0][1] = f32::NAN;
        assert!(nan.validate().is_err());
        assert!(SkinnedMeshData::default().validate().is_err());
    }

    #[test]
    fn required_palette_len_ignores_zero_weight_joints() {
        // Joint 7 appears only with weight 0; joint 2 with weight 0.5.
        assert_eq!(triangle().required_palette_len(), 3);
    }

    #[test]
    fn footprint_helper_points_toes_along_the_heading() {
        let mark = FloorMark::footprint(Side::Left, Vec3::new(1.0, 5.0, 2.0), 0.0, [1.0; 4]);
        let toe_in_world = mark.world_from_mark.transform_point3(Vec3::new(0.0, 0.0, 0.13));
        assert!((toe_in_world - Vec3::new(1.0, 0.0, 2.13)).length() < 1e-6);
        let turned = FloorMark::footprint(Side::Right, Vec3::ZERO, std::f32::consts::FRAC_PI_2, [1.0; 4]);
        let toe_in_world = turned.world_from_mark.transform_point3(Vec3::new(0.0, 0.0, 0.13));
        assert!((toe_in_world - Vec3::new(0.13, 0.0, 0.0)).length() < 1e-6);
    }
}
