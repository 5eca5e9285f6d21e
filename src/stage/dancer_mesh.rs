//! Dancer models for the player: a skinned mesh bound to the pose skeleton, its proportions and
//! its skinning palette. [`builtin_models`] lists what the model dropdown offers; the built-in
//! "mannequin" is generated here from the skeleton (one rigid capsule per bone).

use crate::pose::fk::{Pose, local_to_world, world_rot_pos};
use crate::pose::skeleton::{JOINT_COUNT, JointId, Proportions, Skeleton};
use crate::stage::SkinnedMeshData;
use glam::{Mat4, Vec3};
use std::path::{Path, PathBuf};

/// Why a dancer model could not be built, rigged or opened.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The mesh breaks a rule the renderer relies on.
    #[error(transparent)]
    Mesh(#[from] crate::stage::scene::MeshError),
    /// The mesh names a joint the skeleton does not have.
    #[error("model `{name}` uses joint index {joint_index} but the skeleton has {JOINT_COUNT} joints")]
    JointOutOfRange {
        /// The model.
        name: String,
        /// The largest joint index the mesh uses.
        joint_index: usize,
    },
    /// The bind pose could not be computed.
    #[error(transparent)]
    BindPose(#[from] crate::pose::fk::BufferTooSmall),
    /// No generated body has this name.
    #[error("unknown body model `{name}`")]
    UnknownBody {
        /// The name asked for.
        name: String,
    },
    /// A generated body could not be built or rigged.
    #[error("model `{name}`: {source}")]
    Body {
        /// The body.
        name: String,
        /// Why.
        #[source]
        source: crate::body::BodyError,
    },
    /// No model of the dropdown has this name.
    #[error("unknown model `{name}`; available: {}", available.join(", "))]
    UnknownModel {
        /// The name asked for.
        name: String,
        /// The names that exist.
        available: Vec<&'static str>,
    },
    /// A mesh file could not be read or rigged.
    #[error("{}: {source}", path.display())]
    MeshFile {
        /// The mesh file.
        path: PathBuf,
        /// Why.
        #[source]
        source: crate::rig::RigError,
    },
    /// The rigging thread could not be started.
    #[error("cannot start rigging {}: {source}", path.display())]
    RigThread {
        /// The mesh file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The rigging thread ended without an answer.
    #[error("rigging {} stopped", path.display())]
    RigStopped {
        /// The mesh file.
        path: PathBuf,
    },
}

/// A mesh skinned to the [`Skeleton`] of `proportions`, in that skeleton's rest pose.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DancerModel {
    /// Name shown in the model dropdown.
    pub name: String,
    /// Body proportions: the animation is compiled for these so the feet meet the floor.
    pub proportions: Proportions,
    /// The mesh in rest-pose model space (metres, feet on y = 0, facing +Z); joint indices are
    /// [`JointId::index`] values.
    pub mesh: SkinnedMeshData,
    /// Inverse bind matrices, one per joint ([`JOINT_COUNT`] entries): the inverse of each
    /// joint's bind-pose transform in model space.
    pub joint_from_model_at_bind: Vec<Mat4>,
}

impl DancerModel {
    /// A model from a mesh modelled in the rest pose of `Skeleton::new(&proportions)`; the bind
    /// matrices come from that skeleton. Fails when the mesh is inconsistent or names a joint
    /// the skeleton does not have.
    pub fn from_rest_pose_mesh(
        name: &str,
        proportions: Proportions,
        mesh: SkinnedMeshData,
    ) -> Result<DancerModel, ModelError> {
        mesh.validate()?;
        if mesh.required_palette_len() > JOINT_COUNT {
            let joint_index = mesh.required_palette_len() - 1;
            return Err(ModelError::JointOutOfRange { name: name.to_owned(), joint_index });
        }
        let skeleton = Skeleton::new(&proportions);
        let rest = Pose::rest(&skeleton);
        let mut world_from_joint = [Mat4::IDENTITY; JOINT_COUNT];
        local_to_world(&skeleton, &rest, &mut world_from_joint)?;
        let joint_from_model_at_bind = world_from_joint.iter().map(Mat4::inverse).collect();
        Ok(DancerModel { name: name.to_owned(), proportions, mesh, joint_from_model_at_bind })
    }

    /// Writes the skinning palette (`world_from_joint × joint_from_model_at_bind`, one per
    /// joint; [`crate::body::rig::pose_palette`]) for `pose` of `skeleton` into `out` (cleared
    /// first). `skeleton` should be built from [`DancerModel::proportions`].
    pub fn palette(&self, skeleton: &Skeleton, pose: &Pose, out: &mut Vec<Mat4>) {
        crate::body::rig::pose_palette(skeleton, pose, &self.joint_from_model_at_bind, out);
    }
}

/// One entry of the model dropdown: a built-in body's or the mannequin's name (building may be
/// slow for generated bodies, so the player builds a model only when it is chosen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelEntry {
    /// Name shown in the dropdown.
    pub name: &'static str,
}

impl ModelEntry {
    /// Builds the model: a generated body rigged to the skeleton, or the mannequin.
    pub fn build(&self) -> Result<DancerModel, ModelError> {
        if self.name == MANNEQUIN { mannequin(&Proportions::default()) } else { rig_to_dancer_model(self.name) }
    }
}

/// The procedural capsule figure (quick to build; useful to see the skeleton).
pub const MANNEQUIN: &str = "mannequin";

/// The models the player offers: the built-in bodies ([`crate::body::rig::model_names`], the
/// default first), then the mannequin.
pub fn builtin_models() -> Vec<ModelEntry> {
    crate::body::rig::model_names().into_iter().chain([MANNEQUIN]).map(|name| ModelEntry { name }).collect()
}

/// A rigged triangle mesh and its per-vertex joint influences as the renderer's skinned mesh.
pub fn skinned_mesh(
    mesh: &crate::body::mesh::TriMesh,
    influences: &[crate::body::lbs::VertexInfluences],
) -> SkinnedMeshData {
    SkinnedMeshData {
        positions: mesh.positions_in_model.iter().map(|p| p.to_array()).collect(),
        normals: mesh.normals_in_model.iter().map(|n| n.to_array()).collect(),
        joints: influences.iter().map(|i| i.joints).collect(),
        weights: influences.iter().map(|i| i.weights).collect(),
        indices: mesh.triangles.iter().flatten().copied().collect(),
    }
}

/// One of the four generated dancers (`crate::body`), rigged to the animation skeleton: the
/// mesh, bone-heat weights and inverse bind matrices of its bind pose.
pub fn rig_to_dancer_model(name: &str) -> Result<DancerModel, ModelError> {
    use crate::body::polygonise::PolygoniseParams;
    let spec = crate::body::rig::find_model(name).ok_or_else(|| ModelError::UnknownBody { name: name.to_owned() })?;
    let rig = crate::body::rig::rig_model(&spec, &PolygoniseParams::default())
        .map_err(|source| ModelError::Body { name: name.to_owned(), source })?;
    let mesh = skinned_mesh(&rig.mesh, &rig.influences);
    mesh.validate()?;
    Ok(DancerModel {
        name: rig.name.to_owned(),
        proportions: *rig.proportions(),
        mesh,
        joint_from_model_at_bind: rig.joint_from_model_at_bind.to_vec(),
    })
}

/// A mesh file rigged to the animation skeleton, from the rig cache when this content was
/// rigged before ([`crate::stage::mesh_cache`]).
pub fn mesh_file_model(path: &Path) -> Result<DancerModel, ModelError> {
    let cache = crate::stage::mesh_cache::default_cache_dir();
    crate::stage::mesh_cache::cached_mesh_model(path, cache.as_deref()).map(|(model, _)| model)
}

/// Builds the model called `name` (case-insensitive), or says which names exist. A name that
/// is a mesh file (`.obj`, `.gltf`, `.glb`, `.ply`, `.stl`) is rigged ([`crate::rig`]).
pub fn build_model(name: &str) -> Result<DancerModel, ModelError> {
    if crate::rig::is_mesh_path(name) {
        return mesh_file_model(Path::new(name));
    }
    let models = builtin_models();
    match models.iter().find(|m| m.name.eq_ignore_ascii_case(name)) {
        Some(entry) => entry.build(),
        None => {
            Err(ModelError::UnknownModel { name: name.to_owned(), available: models.iter().map(|m| m.name).collect() })
        }
    }
}

/// The procedural mannequin for `proportions`: tapered capsules along the bones, each rigidly
/// bound to the bone's parent joint, a head with a nose (to show the facing) and flat feet.
pub fn mannequin(proportions: &Proportions) -> Result<DancerModel, ModelError> {
    mannequin_with(proportions, MeshBuilder::default(), MANNEQUIN)
}

/// Name of the low-detail crowd body.
pub const LOW_DETAIL: &str = "low-detail";

/// The mannequin with six sides a capsule and flat-ish caps (about 1,000 triangles instead of
/// 6,000): the body of performers far from the camera in a crowd.
pub fn low_detail_mannequin(proportions: &Proportions) -> Result<DancerModel, ModelError> {
    let builder = MeshBuilder { segments: 6, cap_rings: 1, ..MeshBuilder::default() };
    mannequin_with(proportions, builder, LOW_DETAIL)
}

/// Name of the coarsest crowd body.
pub const COARSE: &str = "coarse";

/// The farthest performers' body: fourteen four-sided prisms with pointed ends, one per long
/// bone (torso in two, shoulders, head, upper and lower arms with the hand, thighs, shins,
/// feet), 224 triangles — under a quarter of the low-detail body's.
pub fn coarse_mannequin(proportions: &Proportions) -> Result<DancerModel, ModelError> {
    let skeleton = Skeleton::new(proportions);
    let rest = RestPoints::new(&skeleton);
    let (at, end_site) = (|joint: JointId| rest.joint(joint), |name: &str| rest.end_site(name));
    let s = skeleton.proportions().height_m / 1.75;
    let mut builder = MeshBuilder { segments: 4, cap_rings: 1, no_slivers: true, ..MeshBuilder::default() };
    use JointId::*;
    let mut bone = |from: Vec3, to: Vec3, r_from: f32, r_to: f32, joint: JointId| {
        builder.capsule(from, to, r_from * s, r_to * s, joint);
    };
    bone(at(Pelvis) - Vec3::Y * 0.05 * s, at(Spine), 0.12, 0.11, Pelvis);
    bone(at(Spine), at(Neck), 0.11, 0.12, Chest);
    bone(at(ShoulderR), at(ShoulderL), 0.06, 0.06, Chest);
    let head_top = end_site("HeadTop");
    // Each prism's pointed ends reach one radius past its ends.
    bone(at(Neck), head_top - Vec3::Y * 0.09 * s, 0.06, 0.09, Head);
    for (shoulder, elbow, fingertip) in [(ShoulderL, ElbowL, "LeftFingertip"), (ShoulderR, ElbowR, "RightFingertip")] {
        bone(at(shoulder), at(elbow), 0.05, 0.04, shoulder);
        bone(at(elbow), end_site(fingertip), 0.04, 0.03, elbow);
    }
    for (hip, knee, ankle, toe_tip) in [(HipL, KneeL, AnkleL, "LeftToeTip"), (HipR, KneeR, AnkleR, "RightToeTip")] {
        bone(at(hip), at(knee), 0.08, 0.055, hip);
        bone(at(knee), at(ankle), 0.055, 0.04, knee);
        let heel = at(ankle) + skeleton.heel_in_ankle();
        let tip = end_site(toe_tip);
        let r_foot = 0.035;
        let along = Vec3::new(tip.x - heel.x, 0.0, tip.z - heel.z).normalize_or(Vec3::Z) * (r_foot * s);
        let (heel_c, tip_c) =
            (Vec3::new(heel.x, r_foot * s, heel.z) + along, Vec3::new(tip.x, r_foot * s, tip.z) - along);
        bone(heel_c, tip_c, r_foot, r_foot, ankle);
    }
    DancerModel::from_rest_pose_mesh(COARSE, *skeleton.proportions(), builder.mesh)
}

/// Joint centres and end sites of a skeleton's rest pose, model space: where the built-in
/// bodies put their capsules.
struct RestPoints<'a> {
    skeleton: &'a Skeleton,
    joint_in_model: [Vec3; JOINT_COUNT],
}

impl<'a> RestPoints<'a> {
    fn new(skeleton: &'a Skeleton) -> RestPoints<'a> {
        RestPoints { skeleton, joint_in_model: world_rot_pos(skeleton, &Pose::rest(skeleton)).1 }
    }

    fn joint(&self, joint: JointId) -> Vec3 {
        self.joint_in_model[joint.index()]
    }

    /// The named end site (origin when the skeleton has none of that name).
    fn end_site(&self, name: &str) -> Vec3 {
        self.skeleton
            .end_sites()
            .iter()
            .find(|site| site.name == name)
            .map(|site| self.joint(site.parent) + site.offset_in_parent)
            .unwrap_or(Vec3::ZERO)
    }
}

fn mannequin_with(proportions: &Proportions, mut builder: MeshBuilder, name: &str) -> Result<DancerModel, ModelError> {
    let skeleton = Skeleton::new(proportions);
    let rest = RestPoints::new(&skeleton);
    let (at, end_site) = (|joint: JointId| rest.joint(joint), |name: &str| rest.end_site(name));
    // Radii are given for a 1.75 m dancer and scaled.
    let s = skeleton.proportions().height_m / 1.75;
    use JointId::*;
    let mut bone = |from: Vec3, to: Vec3, r_from: f32, r_to: f32, joint: JointId| {
        builder.capsule(from, to, r_from * s, r_to * s, joint);
    };
    // Torso.
    bone(at(HipR), at(HipL), 0.095, 0.095, Pelvis);
    bone(at(Pelvis), at(Spine), 0.105, 0.1, Pelvis);
    bone(at(Spine), at(Chest), 0.1, 0.11, Spine);
    bone(at(Chest), at(Neck) - Vec3::Y * 0.04 * s, 0.115, 0.1, Chest);
    bone(at(ShoulderR), at(ShoulderL), 0.06, 0.06, Chest);
    bone(at(Neck), at(Head), 0.045, 0.042, Neck);
    // Head and nose (facing +Z at rest).
    let head_top = end_site("HeadTop");
    let head_centre = at(Head) + (head_top - at(Head)) * 0.45;
    bone(head_centre - Vec3::Y * 0.015 * s, head_centre + Vec3::Y * 0.015 * s, 0.09, 0.085, Head);
    let nose = head_centre + Vec3::new(0.0, -0.01, 0.085) * s;
    bone(nose, nose + Vec3::new(0.0, -0.015, 0.02) * s, 0.018, 0.014, Head);
    for (shoulder, elbow, wrist, hand, clavicle, fingertip) in [
        (ShoulderL, ElbowL, WristL, HandL, ClavicleL, "LeftFingertip"),
        (ShoulderR, ElbowR, WristR, HandR, ClavicleR, "RightFingertip"),
    ] {
        bone(at(clavicle), at(shoulder), 0.045, 0.05, clavicle);
        bone(at(shoulder), at(elbow), 0.05, 0.04, shoulder);
        bone(at(elbow), at(wrist), 0.038, 0.03, elbow);
        bone(at(wrist), at(hand), 0.03, 0.032, wrist);
        bone(at(hand), end_site(fingertip), 0.028, 0.018, hand);
    }
    for (hip, knee, ankle, ball, toe_tip) in
        [(HipL, KneeL, AnkleL, BallL, "LeftToeTip"), (HipR, KneeR, AnkleR, BallR, "RightToeTip")]
    {
        bone(at(hip), at(knee), 0.08, 0.055, hip);
        bone(at(knee), at(ankle), 0.052, 0.036, knee);
        // Foot: heel to ball, resting on the floor, bound to the ankle.
        let heel = at(ankle) + skeleton.heel_in_ankle();
        let r_foot = 0.032;
        let heel_c = Vec3::new(heel.x, r_foot * s, heel.z + r_foot * s * 0.5);
        let ball_c = Vec3::new(at(ball).x, r_foot * s * 0.85, at(ball).z);
        bone(heel_c, ball_c, r_foot, r_foot * 0.85, ankle);
        bone(at(ankle), heel_c + (ball_c - heel_c) * 0.3, 0.036, r_foot, ankle);
        // Toes, bound to the ball joint.
        let tip = end_site(toe_tip);
        let r_toe = 0.02;
        bone(ball_c, Vec3::new(tip.x, r_toe * s, tip.z - r_toe * s), r_foot * 0.85, r_toe, ball);
    }
    DancerModel::from_rest_pose_mesh(name, *skeleton.proportions(), builder.mesh)
}

/// Accumulates rigid capsules into one skinned mesh.
struct MeshBuilder {
    mesh: SkinnedMeshData,
    /// Vertices around each ring of a capsule.
    segments: u32,
    /// Rings per hemispherical cap (pole excluded).
    cap_rings: u32,
    /// Leave out the zero-area triangles at the poles (kept in the older bodies so their
    /// buffers stay as they were).
    no_slivers: bool,
}

impl Default for MeshBuilder {
    fn default() -> Self {
        MeshBuilder {
            mesh: SkinnedMeshData::default(),
            segments: CAPSULE_SEGMENTS,
            cap_rings: CAPSULE_CAP_RINGS,
            no_slivers: false,
        }
    }
}

/// Vertices around each ring of a capsule.
const CAPSULE_SEGMENTS: u32 = 12;
/// Rings per hemispherical cap (pole excluded).
const CAPSULE_CAP_RINGS: u32 = 4;

impl MeshBuilder {
    /// A capsule around the segment `a`→`b` (model metres) with radius `r_a` at `a` and `r_b` at
    /// `b`, bound rigidly to `joint`. Degenerate input (zero length, non-finite) adds a sphere
    /// or nothing.
    fn capsule(&mut self, a: Vec3, b: Vec3, r_a: f32, r_b: f32, joint: JointId) {
        if !(a.is_finite() && b.is_finite() && r_a > 0.0 && r_b > 0.0) {
            return;
        }
        let axis = (b - a).normalize_or(Vec3::Y);
        let u = axis.any_orthonormal_vector();
        let v = axis.cross(u);
        let Ok(first) = u32::try_from(self.mesh.positions.len()) else { return };
        let segments = self.segments.max(3);
        // Rings from the pole at a (φ = −π/2) to the pole at b (φ = +π/2).
        let mut rings: Vec<(Vec3, f32, f32)> = Vec::new();
        let quarter = std::f32::consts::FRAC_PI_2;
        for k in 0..=self.cap_rings {
            let phi = -quarter + quarter * k as f32 / self.cap_rings as f32;
            rings.push((a, r_a, phi));
        }
        for k in 0..=self.cap_rings {
            let phi = quarter * k as f32 / self.cap_rings as f32;
            rings.push((b, r_b, phi));
        }
        for &(centre, radius, phi) in &rings {
            let (sin_phi, cos_phi) = phi.sin_cos();
            for j in 0..segments {
                let theta = std::f32::consts::TAU * j as f32 / segments as f32;
                let radial = u * theta.cos() + v * theta.sin();
                let normal = radial * cos_phi + axis * sin_phi;
                self.mesh.positions.push((centre + normal * radius).to_array());
                self.mesh.normals.push(normal.to_array());
                self.mesh.joints.push([joint.index() as u16, 0, 0, 0]);
                self.mesh.weights.push([1.0, 0.0, 0.0, 0.0]);
            }
        }
        let ring_count = rings.len() as u32;
        for i in 0..ring_count - 1 {
            for j in 0..segments {
                let j_next = (j + 1) % segments;
                let p = |ring: u32, seg: u32| first + ring * segments + seg;
                // Ring 0 and the last ring are the poles (every vertex at one point).
                if !(self.no_slivers && i == 0) {
                    self.mesh.indices.extend([p(i, j), p(i, j_next), p(i + 1, j_next)]);
                }
                if !(self.no_slivers && i + 2 == ring_count) {
                    self.mesh.indices.extend([p(i, j), p(i + 1, j_next), p(i + 1, j)]);
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use crate::body::segment::distance_to_segment;
    use glam::Quat;

    fn skin(model: &DancerModel, palette: &[Mat4], vertex: usize) -> Vec3 {
        let joint = usize::from(model.mesh.joints[vertex][0]);
        palette[joint].transform_point3(Vec3::from_array(model.mesh.positions[vertex]))
    }

    #[test]
    fn mannequin_is_a_valid_mesh_standing_on_the_floor_at_the_skeleton_height() {
        let model = mannequin(&Proportions::default()).unwrap();
        model.mesh.validate().unwrap();
        assert!(model.mesh.required_palette_len() <= JOINT_COUNT);
        let (min_y, max_y) =
            model.mesh.positions.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p[1]), hi.max(p[1])));
        assert!(min_y.abs() < 0.01, "feet on the floor: {min_y}");
        assert!((max_y - 1.75).abs() < 0.06, "head top near the height: {max_y}");
        // Outward normals: on average they point away from the vertex centroid.
        let centroid =
            model.mesh.positions.iter().map(|p| Vec3::from_array(*p)).sum::<Vec3>() / model.mesh.positions.len() as f32;
        let outward = model
            .mesh
            .positions
            .iter()
            .zip(&model.mesh.normals)
            .filter(|(p, n)| (Vec3::from_array(**p) - centroid).dot(Vec3::from_array(**n)) > 0.0)
            .count();
        assert!(outward * 10 > model.mesh.positions.len() * 6);
    }

    #[test]
    fn the_coarse_body_stands_as_tall_as_the_mannequin_in_under_a_quarter_of_the_low_detail_triangles() {
        let proportions = Proportions::default();
        let (full, low, coarse) = (
            mannequin(&proportions).unwrap(),
            low_detail_mannequin(&proportions).unwrap(),
            coarse_mannequin(&proportions).unwrap(),
        );
        coarse.mesh.validate().unwrap();
        let triangles = |m: &DancerModel| m.mesh.indices.len() / 3;
        assert_eq!(triangles(&coarse), 14 * 16);
        assert!(triangles(&coarse) * 4 < triangles(&low) && triangles(&low) < triangles(&full));
        let extent = |m: &DancerModel| {
            let (lo, hi) = m.mesh.positions.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| {
                (lo.min(Vec3::from_array(*p)), hi.max(Vec3::from_array(*p)))
            });
            (lo, hi)
        };
        let ((clo, chi), (flo, fhi)) = (extent(&coarse), extent(&full));
        assert!(clo.y.abs() < 0.005 && (chi.y - fhi.y).abs() < 0.03, "{clo:?} {chi:?} vs {fhi:?}");
        assert!((chi.x - clo.x - (fhi.x - flo.x)).abs() < 0.06, "as wide as the mannequin");
        // No zero-area triangle.
        for t in coarse.mesh.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from_array(coarse.mesh.positions[t[k] as usize]));
            assert!((b - a).cross(c - a).length() > 1e-8, "{t:?}");
        }
    }

    #[test]
    fn rest_pose_palette_is_identity_and_a_moved_pose_moves_the_bound_vertices() {
        let model = mannequin(&Proportions::default()).unwrap();
        let skeleton = Skeleton::new(&model.proportions);
        let mut palette = Vec::new();
        model.palette(&skeleton, &Pose::rest(&skeleton), &mut palette);
        assert_eq!(palette.len(), JOINT_COUNT);
        for m in &palette {
            assert!(m.abs_diff_eq(Mat4::IDENTITY, 1e-5), "{m:?}");
        }
        // Translate the whole body and bend the left elbow by 90°.
        let mut pose = Pose::rest(&skeleton);
        pose.pelvis_in_world += Vec3::new(1.0, 0.0, 2.0);
        pose.set_local(JointId::ElbowL, Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2));
        model.palette(&skeleton, &pose, &mut palette);
        let elbow_joint = JointId::ElbowL.index() as u16;
        let (_, elbow_in_world) = crate::pose::fk::joint_world(&skeleton, &pose, JointId::ElbowL);
        let (_, wrist_in_world) = crate::pose::fk::joint_world(&skeleton, &pose, JointId::WristL);
        for vertex in 0..model.mesh.positions.len() {
            let moved = skin(&model, &palette, vertex);
            let rest = Vec3::from_array(model.mesh.positions[vertex]);
            if model.mesh.joints[vertex][0] == elbow_joint {
                // Forearm vertices stay near the elbow→wrist segment.
                let d = distance_to_segment(moved, elbow_in_world, wrist_in_world);
                assert!(d < 0.06, "forearm vertex {vertex} is {d} m off the bone");
            } else if model.mesh.joints[vertex][0] == JointId::Pelvis.index() as u16 {
                assert!((moved - rest - Vec3::new(1.0, 0.0, 2.0)).length() < 1e-4);
            }
        }
    }

    #[test]
    fn model_list_has_the_default_first_and_unknown_names_are_errors() {
        let models = builtin_models();
        assert_eq!(models.first().map(|m| m.name), Some(crate::body::models::DEFAULT_MODEL));
        assert!(build_model("MANNEQUIN").is_ok());
        let error = build_model("nobody").unwrap_err().to_string();
        assert!(error.contains("mannequin"), "{error}");
    }

    #[test]
    fn meshes_naming_missing_joints_are_rejected() {
        let mut mesh = mannequin(&Proportions::default()).unwrap().mesh;
        mesh.joints[0] = [JOINT_COUNT as u16, 0, 0, 0];
        assert!(DancerModel::from_rest_pose_mesh("bad", Proportions::default(), mesh).is_err());
    }
}
