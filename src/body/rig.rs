//! A built-in dancer model rigged to the animation skeleton: [`Proportions`] measured from the
//! model, a bind pose of that skeleton that lies on the model's joints, bone-heat weights on
//! skeleton joint indices ([`JointId::index`]) and the skinning palette of any [`Pose`].
//!
//! Both sides share one frame: metres, +Y up, the dancer faces +Z, the dancer's left is +X
//! (right = −X), feet on y = 0; model space is the skeleton's world space at bind. The
//! skeleton's rest pose hangs the arms straight down, while the models are built with the arms
//! abducted by [`ARM_ABDUCTION_RAD`]; the bind pose ([`Rig::bind_pose`]) aims each limb
//! bone along the model's, so the rest pose differs from the bind pose mainly at the shoulders.

use glam::{Mat4, Quat, Vec3};

use super::BodyError;
use super::heat::{BoneSegment, HeatParams, heat_weights};
use super::implicit::BodyShape;
use super::lbs::{VertexInfluences, palette_from_joints, skin};
use super::mesh::TriMesh;
#[cfg(doc)]
use super::models::ARM_ABDUCTION_RAD;
use super::models::{ModelSpec, builtin_models, joint};
use super::polygonise::PolygoniseParams;
use crate::pose::fk::{Pose, local_to_world, world_rot_pos};
use crate::pose::skeleton::{JOINT_COUNT, JointId, Proportions, Skeleton};

/// One built-in model bound to a [`Skeleton`] of its own proportions.
#[derive(Clone, Debug, PartialEq)]
pub struct Rig {
    /// The model's name (`woman-modern`, …).
    pub name: &'static str,
    /// The animation skeleton; `Skeleton::new(rig.skeleton.proportions())` rebuilds it, so
    /// compile the score with [`Rig::proportions`] to animate this body.
    pub skeleton: Skeleton,
    /// The skeleton pose in which the mesh was modelled (skinning it reproduces `mesh`).
    pub bind_pose: Pose,
    /// The body in the bind pose, model space (= world space at bind), metres.
    pub mesh: TriMesh,
    /// Per-vertex influences; joint indices are [`JointId::index`] values (0..23).
    pub influences: Vec<VertexInfluences>,
    /// World transform of every joint in the bind pose, in [`JointId`] order.
    pub model_from_joint_at_bind: [Mat4; JOINT_COUNT],
    /// Inverse bind matrices: the inverses of `model_from_joint_at_bind`.
    pub joint_from_model_at_bind: [Mat4; JOINT_COUNT],
}

impl Rig {
    /// The proportions of [`Rig::skeleton`].
    pub fn proportions(&self) -> &Proportions {
        self.skeleton.proportions()
    }

    /// Skinning palette of `pose`: `world_from_joint × joint_from_model_at_bind` for every
    /// joint, in [`JointId`] order (`out` is cleared and refilled with [`JOINT_COUNT`] matrices;
    /// non-finite pose values count as identity/origin, as in [`local_to_world`]).
    pub fn palette(&self, pose: &Pose, out: &mut Vec<Mat4>) {
        pose_palette(&self.skeleton, pose, &self.joint_from_model_at_bind, out);
    }

    /// CPU linear blend skinning of the mesh in `pose` (see [`skin`]); `palette` is scratch.
    pub fn skin(
        &self,
        pose: &Pose,
        palette: &mut Vec<Mat4>,
        positions_in_world_out: &mut Vec<Vec3>,
        normals_in_world_out: &mut Vec<Vec3>,
    ) -> Result<(), BodyError> {
        self.palette(pose, palette);
        skin(
            &self.mesh.positions_in_model,
            &self.mesh.normals_in_model,
            &self.influences,
            palette,
            positions_in_world_out,
            normals_in_world_out,
        )
    }
}

/// Skinning palette of `pose` of `skeleton` for a mesh bound with `joint_from_model_at_bind`
/// (inverse bind matrices in [`JointId`] order): `world_from_joint × joint_from_model_at_bind`
/// per joint into `out` (cleared first). Non-finite pose values count as identity/origin, as
/// in [`local_to_world`].
pub fn pose_palette(skeleton: &Skeleton, pose: &Pose, joint_from_model_at_bind: &[Mat4], out: &mut Vec<Mat4>) {
    let mut world_from_joint = [Mat4::IDENTITY; JOINT_COUNT];
    // Cannot fail: the buffer holds exactly JOINT_COUNT matrices.
    let _ = local_to_world(skeleton, pose, &mut world_from_joint);
    palette_from_joints(&world_from_joint, joint_from_model_at_bind, out);
}

/// Names of the built-in models, in [`builtin_models`] order.
pub fn model_names() -> Vec<&'static str> {
    builtin_models().into_iter().map(|m| m.name).collect()
}

/// The built-in model called `name` (ASCII case-insensitive, surrounding spaces ignored).
pub fn find_model(name: &str) -> Option<ModelSpec> {
    let name = name.trim();
    builtin_models().into_iter().find(|m| m.name.eq_ignore_ascii_case(name))
}

/// A one-line description of a built-in model (empty for unknown names).
pub fn model_description(name: &str) -> &'static str {
    match name {
        "woman-modern" => "woman, modern dance build: average leg length, fuller figure",
        "woman-classical" => "woman, classical ballet build: long legs, slim",
        "man-modern" => "man, modern dance build: broad shoulders, average legs",
        "man-classical" => "man, classical ballet build: tall, long legs, lean",
        _ => "",
    }
}

/// The skeleton joint that a model joint ([`joint`] index) drives. Every model joint has
/// one; the skeleton's knuckle joints (`HandL`, `HandR`) have no model counterpart.
pub fn skeleton_joint(model_joint: usize) -> Option<JointId> {
    use JointId::*;
    Some(match model_joint {
        joint::PELVIS => Pelvis,
        joint::SPINE => Spine,
        joint::CHEST => Chest,
        joint::NECK => Neck,
        joint::HEAD => Head,
        joint::CLAVICLE_L => ClavicleL,
        joint::CLAVICLE_R => ClavicleR,
        joint::SHOULDER_L => ShoulderL,
        joint::SHOULDER_R => ShoulderR,
        joint::ELBOW_L => ElbowL,
        joint::ELBOW_R => ElbowR,
        joint::WRIST_L => WristL,
        joint::WRIST_R => WristR,
        joint::HIP_L => HipL,
        joint::HIP_R => HipR,
        joint::KNEE_L => KneeL,
        joint::KNEE_R => KneeR,
        joint::ANKLE_L => AnkleL,
        joint::ANKLE_R => AnkleR,
        joint::BALL_L => BallL,
        joint::BALL_R => BallR,
        _ => return None,
    })
}

/// Model joint positions as an array by [`joint`] index, or an error when the spec is short
/// or not finite.
fn model_joints(spec: &ModelSpec) -> Result<[Vec3; 21], BodyError> {
    let mut out = [Vec3::ZERO; 21];
    if spec.joint_rest_in_model.len() != out.len() || spec.joint_rest_in_model.iter().any(|p| !p.is_finite()) {
        return Err(BodyError::InvalidInput(format!(
            "model {} has {} joint positions (need 21 finite ones)",
            spec.name,
            spec.joint_rest_in_model.len()
        )));
    }
    out.copy_from_slice(&spec.joint_rest_in_model);
    Ok(out)
}

/// Distance from `from` (inside the body) along unit `dir` to the body's surface, metres, or
/// `None` if `from` is outside or no surface is met within `max_m`.
fn surface_distance_m(shape: &BodyShape, from: Vec3, dir: Vec3, max_m: f32) -> Option<f32> {
    const STEP_M: f32 = 0.002;
    // A NaN field value counts as outside.
    let inside = |t: f32| shape.field_m(from + dir * t) < 0.0;
    if !inside(0.0) {
        return None;
    }
    let mut inside_m = 0.0f32;
    let mut t = STEP_M;
    while t <= max_m {
        if !inside(t) {
            let (mut lo, mut hi) = (inside_m, t);
            for _ in 0..16 {
                let mid = 0.5 * (lo + hi);
                if inside(mid) { lo = mid } else { hi = mid }
            }
            return Some(0.5 * (lo + hi));
        }
        inside_m = t;
        t += STEP_M;
    }
    None
}

/// Proportions of the animation skeleton for `spec`, measured from its joints (left side;
/// half-widths average both sides) and its implicit shape: the heel, toe tip and fingertip are
/// where rays from the ankle (backwards, at half its height), the ball (forwards) and the
/// wrist (along the forearm) leave the body; palm and fingers split the hand in halves. The
/// shank is shortened so the ankle keeps the model's height when the leg hangs straight.
/// Values the model cannot give fall back to [`Proportions::default`]; the result may still
/// fail [`Proportions::check`] for a malformed spec ([`rig_model`] checks it).
pub fn model_proportions(spec: &ModelSpec) -> Proportions {
    let defaults = Proportions::default();
    let Ok(j) = model_joints(spec) else { return defaults };
    let h = spec.height_m;
    if !(h.is_finite() && h > 0.0) {
        return defaults;
    }
    let frac = |m: f32| m / h;
    let half_width = |l: usize, r: usize| frac(0.5 * (j[l].x - j[r].x).abs());
    let hip_height = frac(j[joint::HIP_L].y);
    let thigh = frac(j[joint::HIP_L].distance(j[joint::KNEE_L]));
    let ankle_height = frac(j[joint::ANKLE_L].y);
    let (ankle, ball, wrist) = (j[joint::ANKLE_L], j[joint::BALL_L], j[joint::WRIST_L]);
    let heel_from = Vec3::new(ankle.x, 0.5 * ankle.y, ankle.z);
    let heel_back = surface_distance_m(&spec.shape, heel_from, Vec3::NEG_Z, 0.3 * h).map_or(defaults.heel_back, frac);
    let toes = surface_distance_m(&spec.shape, ball, Vec3::Z, 0.3 * h).map_or(defaults.toes, frac);
    let forearm_dir = (wrist - j[joint::ELBOW_L]).normalize_or(Vec3::NEG_Y);
    let hand =
        surface_distance_m(&spec.shape, wrist, forearm_dir, 0.3 * h).map_or(defaults.palm + defaults.fingers, frac);
    Proportions {
        height_m: h,
        pelvis_height: frac(j[joint::PELVIS].y),
        spine_height: frac(j[joint::SPINE].y),
        chest_height: frac(j[joint::CHEST].y),
        neck_height: frac(j[joint::NECK].y),
        head_height: frac(j[joint::HEAD].y),
        clavicle_height: frac(j[joint::CLAVICLE_L].y),
        clavicle_half_width: half_width(joint::CLAVICLE_L, joint::CLAVICLE_R),
        shoulder_height: frac(j[joint::SHOULDER_L].y),
        shoulder_half_width: half_width(joint::SHOULDER_L, joint::SHOULDER_R),
        upper_arm: frac(j[joint::SHOULDER_L].distance(j[joint::ELBOW_L])),
        forearm: frac(j[joint::ELBOW_L].distance(wrist)),
        palm: 0.5 * hand,
        fingers: 0.5 * hand,
        hip_height,
        hip_half_width: half_width(joint::HIP_L, joint::HIP_R),
        thigh,
        shank: hip_height - thigh - ankle_height,
        ball_forward: frac(ball.z - ankle.z),
        ball_height: frac(ball.y),
        toes,
        heel_back,
    }
}

/// The pose of `skeleton` that best matches the model's joints: every joint with a single
/// child (or, for the wrists, the hand bone) is turned by the shortest arc that points its
/// bone along the model's; the pelvis and chest keep the identity.
pub fn bind_pose(spec: &ModelSpec, skeleton: &Skeleton) -> Result<Pose, BodyError> {
    use JointId::*;
    let j = model_joints(spec)?;
    // The hand bone's tip, or the forearm extended when the model has no hand bone.
    let hand_tip = |wrist: usize, elbow: usize| {
        spec.bones.iter().find(|b| b.joint == wrist).map_or(2.0 * j[wrist] - j[elbow], |b| b.tail_in_model)
    };
    // (joint, child whose rest offset is aimed, target of that offset in model space)
    let aims: [(JointId, JointId, Vec3); 16] = [
        (Spine, Chest, j[joint::CHEST]),
        (Neck, Head, j[joint::HEAD]),
        (ClavicleL, ShoulderL, j[joint::SHOULDER_L]),
        (ShoulderL, ElbowL, j[joint::ELBOW_L]),
        (ElbowL, WristL, j[joint::WRIST_L]),
        (WristL, HandL, hand_tip(joint::WRIST_L, joint::ELBOW_L)),
        (ClavicleR, ShoulderR, j[joint::SHOULDER_R]),
        (ShoulderR, ElbowR, j[joint::ELBOW_R]),
        (ElbowR, WristR, j[joint::WRIST_R]),
        (WristR, HandR, hand_tip(joint::WRIST_R, joint::ELBOW_R)),
        (HipL, KneeL, j[joint::KNEE_L]),
        (KneeL, AnkleL, j[joint::ANKLE_L]),
        (AnkleL, BallL, j[joint::BALL_L]),
        (HipR, KneeR, j[joint::KNEE_R]),
        (KneeR, AnkleR, j[joint::ANKLE_R]),
        (AnkleR, BallR, j[joint::BALL_R]),
    ];
    Ok(aim_bind_pose(skeleton, Vec3::new(0.0, j[joint::PELVIS].y, 0.0), &aims))
}

/// The pose of `skeleton` with the pelvis at `pelvis_in_model` in which each listed joint is
/// turned by the shortest arc that points its bone to `child` at the target (model space);
/// joints not listed keep the identity. Parents are aimed before their children.
pub fn aim_bind_pose(skeleton: &Skeleton, pelvis_in_model: Vec3, aims: &[(JointId, JointId, Vec3)]) -> Pose {
    let mut pose = Pose::rest(skeleton);
    pose.pelvis_in_world = pelvis_in_model;
    // Parents come first in JointId order, so each aim sees its parent's final world frame.
    for joint_id in JointId::ALL {
        let Some(&(_, child, target)) = aims.iter().find(|a| a.0 == joint_id) else { continue };
        let (world_rot, world_pos) = world_rot_pos(skeleton, &pose);
        let i = joint_id.index();
        let parent_rot = joint_id.parent().map_or(Quat::IDENTITY, |p| world_rot[p.index()]);
        let rest_dir = skeleton.rest_offset(child).normalize_or_zero();
        let want_dir = (target - world_pos[i]).normalize_or_zero();
        if rest_dir == Vec3::ZERO || want_dir == Vec3::ZERO {
            continue;
        }
        // The bone's direction in world at rest of this joint is parent_rot · rest_dir.
        let world_aim = Quat::from_rotation_arc(parent_rot * rest_dir, want_dir) * parent_rot;
        pose.local_rot[i] = (parent_rot.conjugate() * world_aim).normalize();
    }
    pose
}

/// Builds the mesh of `spec`, its skeleton ([`model_proportions`]), bind pose ([`bind_pose`])
/// and bone-heat weights (the model's bone segments, remapped by [`skeleton_joint`]).
/// Errors when the proportions fail [`Proportions::check`] or the mesh or weights fail.
pub fn rig_model(spec: &ModelSpec, params: &PolygoniseParams) -> Result<Rig, BodyError> {
    let proportions = model_proportions(spec);
    proportions.check().map_err(|e| BodyError::InvalidInput(format!("model {}: {e}", spec.name)))?;
    let skeleton = Skeleton::new(&proportions);
    let bind_pose = bind_pose(spec, &skeleton)?;
    // Rigid transforms, inverted as such: the bottom rows stay exactly (0, 0, 0, 1).
    let (rot_at_bind, pos_at_bind) = world_rot_pos(&skeleton, &bind_pose);
    let mut model_from_joint_at_bind = [Mat4::IDENTITY; JOINT_COUNT];
    let mut joint_from_model_at_bind = [Mat4::IDENTITY; JOINT_COUNT];
    let slots = model_from_joint_at_bind.iter_mut().zip(joint_from_model_at_bind.iter_mut());
    for ((forward, inverse), (&rot, &pos)) in slots.zip(rot_at_bind.iter().zip(&pos_at_bind)) {
        let inverse_rot = rot.conjugate();
        *forward = Mat4::from_rotation_translation(rot, pos);
        *inverse = Mat4::from_rotation_translation(inverse_rot, -(inverse_rot * pos));
    }
    let bones = spec
        .bones
        .iter()
        .map(|b| {
            let Some(j) = skeleton_joint(b.joint) else {
                return Err(BodyError::InvalidInput(format!("model {}: bone on unknown joint {}", spec.name, b.joint)));
            };
            Ok(BoneSegment { joint: j.index(), parent_joint: j.parent().map(JointId::index), ..*b })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mesh = spec.build_mesh(params)?;
    let influences = heat_weights(&mesh, &bones, &HeatParams::default())?;
    Ok(Rig {
        name: spec.name,
        skeleton,
        bind_pose,
        mesh,
        influences,
        model_from_joint_at_bind,
        joint_from_model_at_bind,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn every_model_has_valid_proportions_and_a_bind_pose_on_its_joints() {
        for spec in builtin_models() {
            let p = model_proportions(&spec);
            p.check().unwrap();
            assert_eq!(p.height_m, spec.height_m);
            let skeleton = Skeleton::new(&p);
            assert_eq!(skeleton.proportions(), &p, "{}: proportions were replaced", spec.name);
            let pose = bind_pose(&spec, &skeleton).unwrap();
            let (_, at_bind) = world_rot_pos(&skeleton, &pose);
            for (model_joint, &p_model) in spec.joint_rest_in_model.iter().enumerate() {
                let j = skeleton_joint(model_joint).unwrap();
                let miss_m = at_bind[j.index()].distance(p_model);
                // Limb joints sit on the model's; the skeleton's spine is straight and its
                // sternoclavicular joints lie in the chest's coronal plane (the model's are
                // ~2 cm further forward), so those miss by up to a few centimetres.
                let tolerance_m = match j {
                    JointId::ClavicleL | JointId::ClavicleR => 0.045,
                    JointId::Spine | JointId::Chest | JointId::Neck | JointId::Head => 0.015,
                    _ => 0.002,
                };
                assert!(miss_m < tolerance_m, "{} {j:?}: bind joint {miss_m} m off the model's", spec.name);
            }
            // The feet stand on the floor at rest: heel and toe tip at y = 0.
            let rest = Pose::rest(&skeleton);
            let (_, at_rest) = world_rot_pos(&skeleton, &rest);
            let heel = at_rest[JointId::AnkleL.index()] + skeleton.heel_in_ankle();
            assert!(heel.y.abs() < 1e-4, "{}: heel at {heel}", spec.name);
            // The hand measured from the shape is a plausible length (7–13 % of the height).
            assert!((0.07..0.13).contains(&(p.palm + p.fingers)), "{}: hand {}", spec.name, p.palm + p.fingers);
            assert!((0.02..0.06).contains(&p.heel_back) && (0.02..0.07).contains(&p.toes), "{p:?}");
        }
    }

    #[test]
    fn models_are_found_by_name_case_insensitively() {
        assert_eq!(model_names(), ["woman-modern", "woman-classical", "man-modern", "man-classical"]);
        assert_eq!(find_model(" Man-Classical ").map(|m| m.name), Some("man-classical"));
        assert!(find_model("robot").is_none());
        assert!(model_names().iter().all(|n| !model_description(n).is_empty()));
        // Every model joint maps to a distinct skeleton joint with the same side and parent.
        let mut seen = Vec::new();
        for (m, parent) in super::super::models::JOINT_PARENTS.iter().enumerate() {
            let j = skeleton_joint(m).unwrap();
            assert!(!seen.contains(&j));
            seen.push(j);
            let name = super::super::models::JOINT_NAMES[m];
            let side = j.side().map(|s| s == crate::pose::Side::Left);
            assert_eq!(
                side,
                name.strip_suffix("_l").map(|_| true).or(name.strip_suffix("_r").map(|_| false)),
                "{name}"
            );
            assert_eq!(parent.and_then(skeleton_joint), j.parent(), "{name}");
        }
    }
}
