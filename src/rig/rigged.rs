//! A mesh rigged to the project's skeleton: the frame and repair it went through, the embedded
//! skeleton's proportions and bind pose (the per-bone correction from the mesh's own rest pose
//! to the project's), bone-heat weights on the repaired mesh and on the input's vertices.

use glam::{Mat4, Vec3};

use super::RigError;
use super::embed::{Embedding, embed_skeleton};
use super::frame::{FrameOptions, InputFrame, detect_frame};
use super::import::RawMesh;
use super::proxy::{proxy_mesh, transfer_weights};
use super::repair::{Repaired, repair};
use super::voxel::VoxelBody;
use crate::body::heat::{BoneSegment, HeatParams, heat_weights};
use crate::body::lbs::{VertexInfluences, skin};
use crate::body::mesh::TriMesh;
use crate::body::rig::{aim_bind_pose, pose_palette};
use crate::pose::fk::{Pose, world_rot_pos};
use crate::pose::skeleton::{JOINT_COUNT, JointId, Proportions, ProportionsError, Skeleton};

/// The fewest welded vertices a body can have: a trunk, a head, two arms and two legs, each a
/// closed solid of at least four corners. Real humanoid meshes have hundreds (the coarsest in the
/// test meshes, 369); fewer are refused before the (costly) skeleton search.
pub const MIN_BODY_VERTICES: usize = 24;

/// The fewest usable triangles a body can have: the six parts' four faces each.
pub const MIN_BODY_TRIANGLES: usize = 24;

/// Inputs of [`rig_mesh`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigOptions {
    /// Overrides of the frame detection.
    pub frame: FrameOptions,
    /// Voxels along the body's height for the embedding (default 150).
    pub voxels_per_height: f32,
    /// Voxels along the height for a proxy surface (default 100).
    pub proxy_voxels_per_height: f32,
    /// Bone-heat parameters.
    pub heat: HeatParams,
}

impl Default for RigOptions {
    fn default() -> Self {
        Self {
            frame: FrameOptions::default(),
            voxels_per_height: 150.0,
            proxy_voxels_per_height: 100.0,
            heat: HeatParams::default(),
        }
    }
}

/// The stages reported to the progress callback, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Units and axes.
    Frame,
    /// Welding, faces, holes.
    Repair,
    /// The voxel body and distance field.
    Voxelise,
    /// Spheres, graph, discrete search, refinement.
    Embed,
    /// A closed proxy surface (only for meshes that needed one).
    Proxy,
    /// Bone-heat weights (and their transfer).
    Weights,
}

impl Stage {
    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Frame => "frame",
            Stage::Repair => "repair",
            Stage::Voxelise => "voxelise",
            Stage::Embed => "embed",
            Stage::Proxy => "proxy",
            Stage::Weights => "weights",
        }
    }
}

/// A mesh rigged to the project's skeleton. Everything is in the rig frame (metres, +Y up,
/// facing +Z, left +X, feet on y = 0) unless named `_in_input`.
#[derive(Clone, Debug, PartialEq)]
pub struct RiggedMesh {
    /// How the input maps onto the rig frame.
    pub frame: InputFrame,
    /// What repair did and found.
    pub repaired: Repaired,
    /// Vertices of the closed proxy used for the heat solve, if one was needed.
    pub proxy_vertices: Option<usize>,
    /// The embedded skeleton (joint positions found in the body).
    pub embedding: Embedding,
    /// The animation skeleton with the embedded proportions.
    pub skeleton: Skeleton,
    /// The pose of `skeleton` that lies on the mesh (the per-bone rest-pose correction).
    pub bind_pose: Pose,
    /// The repaired mesh in the bind pose.
    pub mesh: TriMesh,
    /// Influences per vertex of `mesh`, on [`JointId::index`] joints.
    pub influences: Vec<VertexInfluences>,
    /// Influences per vertex of the input file.
    pub input_influences: Vec<VertexInfluences>,
    /// Joint transforms at bind.
    pub model_from_joint_at_bind: [Mat4; JOINT_COUNT],
    /// Inverse bind matrices.
    pub joint_from_model_at_bind: [Mat4; JOINT_COUNT],
}

impl RiggedMesh {
    /// The proportions to compile the score with.
    pub fn proportions(&self) -> &Proportions {
        self.skeleton.proportions()
    }

    /// Joint positions of the bound skeleton at bind, rig frame.
    pub fn bind_joints(&self) -> [Vec3; JOINT_COUNT] {
        world_rot_pos(&self.skeleton, &self.bind_pose).1
    }

    /// The same rig as a [`crate::body::rig::Rig`] (for the glTF writer and the viewer).
    pub fn to_body_rig(&self) -> crate::body::rig::Rig {
        crate::body::rig::Rig {
            name: "rigged-mesh",
            skeleton: self.skeleton.clone(),
            bind_pose: self.bind_pose.clone(),
            mesh: self.mesh.clone(),
            influences: self.influences.clone(),
            model_from_joint_at_bind: self.model_from_joint_at_bind,
            joint_from_model_at_bind: self.joint_from_model_at_bind,
        }
    }

    /// CPU skinning of `pose` (see [`skin`]).
    pub fn skin(
        &self,
        pose: &Pose,
        positions_out: &mut Vec<Vec3>,
        normals_out: &mut Vec<Vec3>,
    ) -> Result<(), RigError> {
        let mut palette = Vec::with_capacity(JOINT_COUNT);
        pose_palette(&self.skeleton, pose, &self.joint_from_model_at_bind, &mut palette);
        skin(
            &self.mesh.positions_in_model,
            &self.mesh.normals_in_model,
            &self.influences,
            &palette,
            positions_out,
            normals_out,
        )?;
        Ok(())
    }
}

/// Rigs `raw`: frame → repair → voxels → embedding → proportions and bind pose → weights (on
/// the repaired mesh when it is one closed shell, else on a closed proxy and transferred).
/// `progress(stage, done)` is called at the start (done = false) and end (true) of each stage.
pub fn rig_mesh(
    raw: &RawMesh,
    options: &RigOptions,
    progress: &mut dyn FnMut(Stage, bool),
) -> Result<RiggedMesh, RigError> {
    progress(Stage::Frame, false);
    let frame_options = FrameOptions {
        y_up_by_format: options.frame.y_up_by_format || raw.format == Some(super::import::MeshFormat::Gltf),
        ..options.frame
    };
    let frame = detect_frame(&raw.positions_in_input, &raw.triangles, &frame_options)?;
    let positions: Vec<Vec3> = raw.positions_in_input.iter().map(|&p| frame.to_rig(p)).collect();
    progress(Stage::Frame, true);
    progress(Stage::Repair, false);
    let repaired = repair(&positions, &raw.triangles);
    if repaired.mesh.positions_in_model.len() < MIN_BODY_VERTICES {
        return Err(RigError::Unriggable(format!(
            "only {} distinct vertices: too few to shape a head, two arms and two legs (a body has at least {MIN_BODY_VERTICES})",
            repaired.mesh.positions_in_model.len()
        )));
    }
    if repaired.mesh.triangles.len() < MIN_BODY_TRIANGLES {
        return Err(RigError::Unriggable(format!(
            "only {} usable faces are left after dropping degenerate and duplicate ones; a body has at least {MIN_BODY_TRIANGLES}",
            repaired.mesh.triangles.len()
        )));
    }
    if let Some((lo, hi)) = repaired.mesh.bounds_in_model() {
        let (tall, wide, deep) = (hi.y - lo.y, hi.x - lo.x, hi.z - lo.z);
        let across = wide.max(deep);
        // Lying: less than half as tall as it is long, and thinner up than across both ways (a
        // cartoon with long arms in a T-pose is wider than twice its height, yet taller than deep).
        if tall < 0.5 * across && tall < wide.min(deep) {
            let found =
                format!("in this frame it is {tall:.2} m tall and {across:.2} m across: it lies rather than stands");
            return Err(with_frame_hint(RigError::Unriggable(found), &frame));
        }
    }
    progress(Stage::Repair, true);
    progress(Stage::Voxelise, false);
    let height_m = repaired.mesh.bounds_in_model().map_or(0.0, |(lo, hi)| hi.y - lo.y);
    let body = VoxelBody::build(&repaired.mesh, height_m / options.voxels_per_height)
        .ok_or_else(|| RigError::Absurd("the mesh's bounds give no usable voxel grid".into()))?;
    let filled = body.inside_count() as f32 / body.inside.len().max(1) as f32;
    if body.inside_count() == 0 {
        return Err(RigError::Unriggable(
            "the surface encloses no volume (open sheets only); close it or export it as a solid".into(),
        ));
    }
    if filled > 0.6 {
        return Err(RigError::Unriggable(format!(
            "{:.0} % of its bounding box is inside: a block, not a body with limbs",
            filled * 100.0
        )));
    }
    progress(Stage::Voxelise, true);
    progress(Stage::Embed, false);
    let embedding = embed_skeleton(&body).map_err(|e| with_frame_hint(e, &frame))?;
    let proportions = proportions_of(&embedding).map_err(|e| with_frame_hint(e, &frame))?;
    let skeleton = Skeleton::new(&proportions);
    let bind_pose = bind_pose_of(&skeleton, &embedding);
    let pos_at_bind = world_rot_pos(&skeleton, &bind_pose).1;
    let (model_from_joint_at_bind, joint_from_model_at_bind) = bind_matrices(&skeleton, &bind_pose);
    progress(Stage::Embed, true);
    let bones = bone_segments(&pos_at_bind, &embedding);
    let (influences, proxy_vertices) = if repaired.is_single_closed_shell() {
        progress(Stage::Weights, false);
        (heat_weights(&repaired.mesh, &bones, &options.heat)?, None)
    } else {
        progress(Stage::Proxy, false);
        let cell = height_m / options.proxy_voxels_per_height;
        let coarse = VoxelBody::build(&repaired.mesh, cell)
            .ok_or_else(|| RigError::Absurd("the mesh's bounds give no usable voxel grid".into()))?;
        let proxy = proxy_mesh(&coarse, 3);
        if proxy.triangles.is_empty() {
            return Err(RigError::Unriggable("no closed proxy surface could be built".into()));
        }
        progress(Stage::Proxy, true);
        progress(Stage::Weights, false);
        let proxy_influences = heat_weights(&proxy, &bones, &options.heat)?;
        let moved =
            transfer_weights(&proxy.positions_in_model, &proxy_influences, &repaired.mesh.positions_in_model, cell);
        (moved, Some(proxy.vertex_count()))
    };
    let input_influences =
        repaired.input_to_mesh.iter().map(|&v| influences.get(v as usize).copied().unwrap_or_default()).collect();
    progress(Stage::Weights, true);
    Ok(RiggedMesh {
        frame,
        mesh: repaired.mesh.clone(),
        repaired,
        proxy_vertices,
        embedding,
        skeleton,
        bind_pose,
        influences,
        input_influences,
        model_from_joint_at_bind,
        joint_from_model_at_bind,
    })
}

/// An embedding failure, with the frame it was tried in and the flags that choose another.
fn with_frame_hint(error: RigError, frame: &InputFrame) -> RigError {
    match error {
        RigError::Unriggable(message) => RigError::Unriggable(format!(
            "{message}. The body was taken as standing with up {} and facing {} ({}); if it lies, stands on its \
             head or faces elsewhere, give the file's axes with --up AXIS and --forward AXIS (x, y, z, -x, -y, -z); \
             a body whose arms or legs touch the trunk or each other rigs once they are apart (an A- or T-pose)",
            frame.up.name(),
            frame.forward.name(),
            frame.reasons.join(", ")
        )),
        other => other,
    }
}

/// Joint transforms at bind and their inverses (as [`super::rig_mesh`] computes them).
pub fn bind_matrices(skeleton: &Skeleton, bind_pose: &Pose) -> ([Mat4; JOINT_COUNT], [Mat4; JOINT_COUNT]) {
    let (rot_at_bind, pos_at_bind) = world_rot_pos(skeleton, bind_pose);
    let mut model_from_joint = [Mat4::IDENTITY; JOINT_COUNT];
    let mut joint_from_model = [Mat4::IDENTITY; JOINT_COUNT];
    for j in 0..JOINT_COUNT {
        let (rot, pos) = (rot_at_bind[j], pos_at_bind[j]);
        model_from_joint[j] = Mat4::from_rotation_translation(rot, pos);
        joint_from_model[j] = Mat4::from_rotation_translation(rot.conjugate(), -(rot.conjugate() * pos));
    }
    (model_from_joint, joint_from_model)
}

/// The skeleton's proportions measured from the embedding (sides averaged; the shank keeps
/// the ankle's height with the leg hanging straight). Errors when they fail
/// [`Proportions::check`].
pub fn proportions_of(e: &Embedding) -> Result<Proportions, RigError> {
    use JointId::*;
    let h = e.height_m;
    let j = |id: JointId| e.joints_in_rig[id.index()];
    let mean = |l: JointId, r: JointId, f: &dyn Fn(JointId) -> f32| 0.5 * (f(l) + f(r)) / h;
    let y = |id: JointId| j(id).y;
    let half = |l: JointId, r: JointId| 0.5 * (j(l).x - j(r).x).abs() / h;
    let len = |a: JointId, b: JointId| j(a).distance(j(b));
    let side_len = |al: JointId, bl: JointId, ar: JointId, br: JointId| 0.5 * (len(al, bl) + len(ar, br)) / h;
    let hip_height = mean(HipL, HipR, &y);
    let ankle_height = mean(AnkleL, AnkleR, &y);
    let thigh = side_len(HipL, KneeL, HipR, KneeR);
    let fingers = 0.5 * (j(HandL).distance(e.fingertips[0]) + j(HandR).distance(e.fingertips[1])) / h;
    let forward = |k: usize, a: JointId, b: Vec3| b.z - j(a).z + 0.0 * k as f32;
    let ball_forward = 0.5 * (forward(0, AnkleL, j(BallL)) + forward(1, AnkleR, j(BallR))) / h;
    let toes = 0.5 * ((e.toe_tips[0].z - j(BallL).z) + (e.toe_tips[1].z - j(BallR).z)) / h;
    let heel_back = 0.5 * ((j(AnkleL).z - e.heels[0].z) + (j(AnkleR).z - e.heels[1].z)) / h;
    let p = Proportions {
        height_m: h,
        pelvis_height: y(Pelvis) / h,
        spine_height: y(Spine) / h,
        chest_height: y(Chest) / h,
        neck_height: y(Neck) / h,
        head_height: y(Head) / h,
        clavicle_height: mean(ClavicleL, ClavicleR, &y),
        clavicle_half_width: half(ClavicleL, ClavicleR),
        shoulder_height: mean(ShoulderL, ShoulderR, &y),
        shoulder_half_width: half(ShoulderL, ShoulderR),
        upper_arm: side_len(ShoulderL, ElbowL, ShoulderR, ElbowR),
        forearm: side_len(ElbowL, WristL, ElbowR, WristR),
        palm: side_len(WristL, HandL, WristR, HandR),
        fingers,
        hip_height,
        hip_half_width: half(HipL, HipR),
        thigh,
        shank: hip_height - thigh - ankle_height,
        ball_forward: ball_forward.max(0.02),
        // Below the ankle however low the ankle was found.
        ball_height: (0.5 * (y(BallL) + y(BallR)) / h).min(0.6 * ankle_height).max(0.005),
        toes: toes.max(0.01),
        heel_back: heel_back.max(0.01),
    };
    p.check().map_err(|err| RigError::Unriggable(implausible(&err)))?;
    Ok(p)
}

/// What is wrong with the skeleton found, for someone bringing a mesh (not editing proportions).
fn implausible(err: &ProportionsError) -> String {
    match err {
        ProportionsError::BadHeight(h) => {
            format!("the body measures {h} m tall in the unit chosen; give its height with --height-m")
        }
        ProportionsError::BadRatio(name) => format!(
            "the skeleton found in it has no usable `{name}`: the two legs or arms were found on top of each \
             other, as in a body lying on its side, or fused into one (legs in a robe, arms against the sides)"
        ),
        ProportionsError::Inconsistent(what) => format!(
            "the joints found in it are out of order ({what}): the limbs may be fused with the trunk (arms \
             against the sides, legs in a robe), or the body is not standing in the frame taken"
        ),
    }
}

/// The bind pose: every limb and spine bone aimed at the embedded joint it leads to.
fn bind_pose_of(skeleton: &Skeleton, e: &Embedding) -> Pose {
    use JointId::*;
    let j = |id: JointId| e.joints_in_rig[id.index()];
    let aims = [
        (Spine, Chest, j(Chest)),
        (Chest, Neck, j(Neck)),
        (Neck, Head, j(Head)),
        (ClavicleL, ShoulderL, j(ShoulderL)),
        (ShoulderL, ElbowL, j(ElbowL)),
        (ElbowL, WristL, j(WristL)),
        (WristL, HandL, j(HandL)),
        (ClavicleR, ShoulderR, j(ShoulderR)),
        (ShoulderR, ElbowR, j(ElbowR)),
        (ElbowR, WristR, j(WristR)),
        (WristR, HandR, j(HandR)),
        (HipL, KneeL, j(KneeL)),
        (KneeL, AnkleL, j(AnkleL)),
        (AnkleL, BallL, j(BallL)),
        (HipR, KneeR, j(KneeR)),
        (KneeR, AnkleR, j(AnkleR)),
        (AnkleR, BallR, j(BallR)),
    ];
    aim_bind_pose(skeleton, j(Pelvis), &aims)
}

/// Heat bones: each joint's segments to its children (and to the end sites for the head,
/// knuckles and balls), at the bind positions.
fn bone_segments(at_bind: &[Vec3; JOINT_COUNT], e: &Embedding) -> Vec<BoneSegment> {
    let mut bones = Vec::new();
    let mut push = |joint: JointId, tail: Vec3| {
        bones.push(BoneSegment {
            joint: joint.index(),
            parent_joint: joint.parent().map(JointId::index),
            head_in_model: at_bind[joint.index()],
            tail_in_model: tail,
        });
    };
    for child in JointId::ALL {
        if let Some(parent) = child.parent() {
            push(parent, at_bind[child.index()]);
        }
    }
    let toe_tip = |k: usize, ball: JointId| {
        let d = e.toe_tips[k] - e.joints_in_rig[ball.index()];
        at_bind[ball.index()] + d
    };
    push(
        JointId::Head,
        Vec3::new(at_bind[JointId::Head.index()].x, e.head_top.y - 0.03 * e.height_m, at_bind[JointId::Head.index()].z),
    );
    push(JointId::HandL, at_bind[JointId::HandL.index()] + (e.fingertips[0] - e.joints_in_rig[JointId::HandL.index()]));
    push(JointId::HandR, at_bind[JointId::HandR.index()] + (e.fingertips[1] - e.joints_in_rig[JointId::HandR.index()]));
    push(JointId::BallL, toe_tip(0, JointId::BallL));
    push(JointId::BallR, toe_tip(1, JointId::BallR));
    bones
}
