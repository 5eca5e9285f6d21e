//! The four built-in dancer bodies (woman/man × modern/classical): joint rest positions, bone
//! segments and an implicit shape of blended volumes, all derived from a few proportions.
//! Rest pose: standing, arms abducted by [`ARM_ABDUCTION_RAD`], facing +Z, +Y up, feet on y = 0.

use glam::{Mat4, Quat, Vec3};

use super::BodyError;
use super::heat::BoneSegment;
use super::implicit::{BodyShape, SegmentVolume, VolumeShape};
use super::mesh::TriMesh;
use super::polygonise::{PolygoniseParams, polygonise};

/// Number of joints of every built-in model.
pub const JOINT_COUNT: usize = 21;

/// Joint names, in joint-index order. `_l` is the dancer's left (+X).
pub const JOINT_NAMES: [&str; JOINT_COUNT] = [
    "pelvis",
    "spine",
    "chest",
    "neck",
    "head",
    "clavicle_l",
    "clavicle_r",
    "shoulder_l",
    "shoulder_r",
    "elbow_l",
    "elbow_r",
    "wrist_l",
    "wrist_r",
    "hip_l",
    "hip_r",
    "knee_l",
    "knee_r",
    "ankle_l",
    "ankle_r",
    "ball_l",
    "ball_r",
];

/// Parent joint of each joint (the pelvis is the root).
pub const JOINT_PARENTS: [Option<usize>; JOINT_COUNT] = [
    None,
    Some(joint::PELVIS),
    Some(joint::SPINE),
    Some(joint::CHEST),
    Some(joint::NECK),
    Some(joint::CHEST),
    Some(joint::CHEST),
    Some(joint::CLAVICLE_L),
    Some(joint::CLAVICLE_R),
    Some(joint::SHOULDER_L),
    Some(joint::SHOULDER_R),
    Some(joint::ELBOW_L),
    Some(joint::ELBOW_R),
    Some(joint::PELVIS),
    Some(joint::PELVIS),
    Some(joint::HIP_L),
    Some(joint::HIP_R),
    Some(joint::KNEE_L),
    Some(joint::KNEE_R),
    Some(joint::ANKLE_L),
    Some(joint::ANKLE_R),
];

/// Joint indices into [`JOINT_NAMES`].
pub mod joint {
    #![allow(missing_docs)]
    pub const PELVIS: usize = 0;
    pub const SPINE: usize = 1;
    pub const CHEST: usize = 2;
    pub const NECK: usize = 3;
    pub const HEAD: usize = 4;
    pub const CLAVICLE_L: usize = 5;
    pub const CLAVICLE_R: usize = 6;
    pub const SHOULDER_L: usize = 7;
    pub const SHOULDER_R: usize = 8;
    pub const ELBOW_L: usize = 9;
    pub const ELBOW_R: usize = 10;
    pub const WRIST_L: usize = 11;
    pub const WRIST_R: usize = 12;
    pub const HIP_L: usize = 13;
    pub const HIP_R: usize = 14;
    pub const KNEE_L: usize = 15;
    pub const KNEE_R: usize = 16;
    pub const ANKLE_L: usize = 17;
    pub const ANKLE_R: usize = 18;
    pub const BALL_L: usize = 19;
    pub const BALL_R: usize = 20;
}

/// Arm abduction of the rest pose: 12° out from hanging straight down, in the frontal plane,
/// so the arms do not fuse with the torso.
pub const ARM_ABDUCTION_RAD: f32 = 12.0 * std::f32::consts::PI / 180.0;

/// A built-in dancer body in its rest pose (model space: metres, +Y up, facing +Z).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSpec {
    /// `woman-modern`, `woman-classical`, `man-modern` or `man-classical`.
    pub name: &'static str,
    /// Standing height (floor to top of head), metres.
    pub height_m: f32,
    /// Rest position of each joint (index order of [`JOINT_NAMES`]), model space.
    pub joint_rest_in_model: Vec<Vec3>,
    /// Parent of each joint (same as [`JOINT_PARENTS`]).
    pub joint_parents: Vec<Option<usize>>,
    /// Bone segments for skinning (several may share a joint, e.g. the pelvis).
    pub bones: Vec<BoneSegment>,
    /// The implicit rest-pose body.
    pub shape: BodyShape,
}

impl ModelSpec {
    /// Polygonises [`ModelSpec::shape`] (see [`polygonise`]).
    pub fn build_mesh(&self, params: &PolygoniseParams) -> Result<TriMesh, BodyError> {
        polygonise(&self.shape, params)
    }

    /// Bind matrices `model_from_joint_at_bind` for joint frames that sit at the rest
    /// positions with model-aligned axes (the inverse bind matrices of
    /// [`super::lbs::skinning_palette`] are their inverses). A skeleton with rotated joint
    /// frames uses its own rest transforms instead.
    pub fn model_from_joint_at_bind(&self) -> Vec<Mat4> {
        self.joint_rest_in_model.iter().map(|&p| Mat4::from_translation(p)).collect()
    }
}

/// Proportions that distinguish the builds (lengths as fractions of the height).
struct Build {
    name: &'static str,
    height_m: f32,
    female: bool,
    /// Hip joint height / height (leg length); 0.515 is average.
    hip_height_frac: f32,
    /// Shoulder (gleno-humeral) joint |x| / height.
    shoulder_half_frac: f32,
    /// Pelvis half-width / height.
    pelvis_half_frac: f32,
    /// Scale on limb and trunk radii (slimmer < 1).
    girth: f32,
}

/// Name of the model used when none is chosen (the player, `render`, plans, `export`).
pub const DEFAULT_MODEL: &str = "woman-modern";

/// The four built-in models, in the order woman-modern ([`DEFAULT_MODEL`]), woman-classical,
/// man-modern, man-classical. Classical builds: longer legs and slimmer; men: taller, broader shoulders.
pub fn builtin_models() -> Vec<ModelSpec> {
    let builds = [
        Build {
            name: DEFAULT_MODEL,
            height_m: 1.65,
            female: true,
            hip_height_frac: 0.512,
            shoulder_half_frac: 0.104,
            pelvis_half_frac: 0.101,
            girth: 1.0,
        },
        Build {
            name: "woman-classical",
            height_m: 1.68,
            female: true,
            hip_height_frac: 0.532,
            shoulder_half_frac: 0.102,
            pelvis_half_frac: 0.096,
            girth: 0.9,
        },
        Build {
            name: "man-modern",
            height_m: 1.78,
            female: false,
            hip_height_frac: 0.510,
            shoulder_half_frac: 0.118,
            pelvis_half_frac: 0.092,
            girth: 1.05,
        },
        Build {
            name: "man-classical",
            height_m: 1.84,
            female: false,
            hip_height_frac: 0.528,
            shoulder_half_frac: 0.116,
            pelvis_half_frac: 0.088,
            girth: 0.94,
        },
    ];
    builds.iter().map(model_from_build).collect()
}

/// Joint positions and bones of a build; the shape is added by [`body_shape`].
fn model_from_build(b: &Build) -> ModelSpec {
    let h = b.height_m;
    let hip_y = b.hip_height_frac * h;
    // Height fraction `f` of an average body (hip joint at 0.515) → metres for this build.
    let y_of = |f: f32| {
        if f <= 0.515 { f / 0.515 * hip_y } else { hip_y + (f - 0.515) / (1.0 - 0.515) * (h - hip_y) }
    };
    let at = |x: f32, y: f32, z: f32| Vec3::new(x * h, y_of(y), z * h);
    let arm_down = |side: f32| Vec3::new(side * ARM_ABDUCTION_RAD.sin(), -ARM_ABDUCTION_RAD.cos(), 0.0);

    let mut j = [Vec3::ZERO; JOINT_COUNT];
    j[joint::PELVIS] = at(0.0, 0.545, 0.0);
    j[joint::SPINE] = at(0.0, 0.62, -0.006);
    j[joint::CHEST] = at(0.0, 0.70, -0.004);
    j[joint::NECK] = at(0.0, 0.825, -0.012);
    j[joint::HEAD] = at(0.0, 0.878, -0.004);
    for (side, clav, sh, el, wr) in [
        (1.0, joint::CLAVICLE_L, joint::SHOULDER_L, joint::ELBOW_L, joint::WRIST_L),
        (-1.0, joint::CLAVICLE_R, joint::SHOULDER_R, joint::ELBOW_R, joint::WRIST_R),
    ] {
        j[clav] = at(side * 0.02, 0.805, 0.012);
        j[sh] = at(side * b.shoulder_half_frac, 0.805, -0.004);
        j[el] = j[sh] + arm_down(side) * (0.172 * h);
        j[wr] = j[el] + arm_down(side) * (0.146 * h);
    }
    for (side, hip, knee, ankle, ball) in [
        (1.0, joint::HIP_L, joint::KNEE_L, joint::ANKLE_L, joint::BALL_L),
        (-1.0, joint::HIP_R, joint::KNEE_R, joint::ANKLE_R, joint::BALL_R),
    ] {
        j[hip] = at(side * 0.055, 0.515, 0.0);
        j[knee] = at(side * 0.050, 0.285, 0.004);
        j[ankle] = Vec3::new(side * 0.048 * h, 0.045 * h, -0.004 * h);
        j[ball] = Vec3::new(side * 0.054 * h, 0.016 * h, 0.088 * h);
    }

    let bone = |joint: usize, head: Vec3, tail: Vec3| BoneSegment {
        joint,
        parent_joint: JOINT_PARENTS.get(joint).copied().flatten(),
        head_in_model: head,
        tail_in_model: tail,
    };
    let mut bones = vec![
        bone(joint::PELVIS, j[joint::PELVIS], j[joint::SPINE]),
        bone(joint::PELVIS, j[joint::PELVIS], j[joint::HIP_L]),
        bone(joint::PELVIS, j[joint::PELVIS], j[joint::HIP_R]),
        // Iliac crests: the flanks above the hip joints move with the pelvis, not the thighs.
        bone(joint::PELVIS, j[joint::PELVIS], at(0.075, 0.565, -0.004)),
        bone(joint::PELVIS, j[joint::PELVIS], at(-0.075, 0.565, -0.004)),
        // Sacrum: the buttocks' inner halves and the lower back follow the pelvis.
        bone(joint::PELVIS, j[joint::PELVIS], at(0.0, 0.50, -0.045)),
        bone(joint::SPINE, j[joint::SPINE], j[joint::CHEST]),
        // Lateral "rib" segments bring the trunk's flanks within reach of their own joints, so
        // the skin under the armpits follows the chest rather than the raised upper arm.
        bone(joint::SPINE, j[joint::SPINE], at(0.05, 0.625, -0.004)),
        bone(joint::SPINE, j[joint::SPINE], at(-0.05, 0.625, -0.004)),
        bone(joint::CHEST, j[joint::CHEST], at(0.062, 0.712, -0.004)),
        bone(joint::CHEST, j[joint::CHEST], at(-0.062, 0.712, -0.004)),
        bone(joint::CHEST, j[joint::CHEST], j[joint::NECK]),
        bone(joint::CHEST, j[joint::CHEST], j[joint::CLAVICLE_L]),
        bone(joint::CHEST, j[joint::CHEST], j[joint::CLAVICLE_R]),
        bone(joint::NECK, j[joint::NECK], j[joint::HEAD]),
        bone(joint::HEAD, j[joint::HEAD], at(0.0, 0.965, 0.0)),
    ];
    for (side, clav, sh, el, wr) in [
        (1.0, joint::CLAVICLE_L, joint::SHOULDER_L, joint::ELBOW_L, joint::WRIST_L),
        (-1.0, joint::CLAVICLE_R, joint::SHOULDER_R, joint::ELBOW_R, joint::WRIST_R),
    ] {
        bones.push(bone(clav, j[clav], j[sh]));
        bones.push(bone(sh, j[sh], j[el]));
        bones.push(bone(el, j[el], j[wr]));
        bones.push(bone(wr, j[wr], j[wr] + arm_down(side) * (0.08 * h)));
    }
    for (side, hip, knee, ankle, ball) in [
        (1.0, joint::HIP_L, joint::KNEE_L, joint::ANKLE_L, joint::BALL_L),
        (-1.0, joint::HIP_R, joint::KNEE_R, joint::ANKLE_R, joint::BALL_R),
    ] {
        bones.push(bone(hip, j[hip], j[knee]));
        bones.push(bone(knee, j[knee], j[ankle]));
        bones.push(bone(ankle, j[ankle], j[ball]));
        bones.push(bone(ball, j[ball], Vec3::new(side * 0.056 * h, 0.012 * h, 0.112 * h)));
    }
    let shape = body_shape(b, &j, &at, &arm_down);
    ModelSpec {
        name: b.name,
        height_m: h,
        joint_rest_in_model: j.to_vec(),
        joint_parents: JOINT_PARENTS.to_vec(),
        bones,
        shape,
    }
}

/// The blended volumes of a build. Order: trunk, neck and head, arms, legs and feet.
fn body_shape(
    b: &Build,
    j: &[Vec3; JOINT_COUNT],
    at: &dyn Fn(f32, f32, f32) -> Vec3,
    arm_down: &dyn Fn(f32) -> Vec3,
) -> BodyShape {
    let h = b.height_m;
    let g = b.girth;
    let mut v = Vec::new();
    let (fem, man) = if b.female { (1.0, 0.0) } else { (0.0, 1.0) };
    // Trunk: pelvis, abdomen, rib cage, shoulder girdle, buttocks, breasts / pectorals.
    let id = Quat::IDENTITY;
    ellipsoid(&mut v, h, at(0.0, 0.535, -0.006), Vec3::new(b.pelvis_half_frac * g.sqrt(), 0.062, 0.062 * g), id, 0.0);
    ellipsoid(&mut v, h, at(0.0, 0.617, -0.002), Vec3::new((0.074 + 0.006 * man) * g, 0.072, 0.054 * g), id, 0.05);
    ellipsoid(&mut v, h, at(0.0, 0.705, -0.002), Vec3::new((0.086 + 0.014 * man) * g, 0.085, 0.062 * g), id, 0.05);
    ellipsoid(&mut v, h, at(0.0, 0.772, -0.008), Vec3::new(b.shoulder_half_frac * 0.85, 0.045, 0.052 * g), id, 0.04);
    // Trapezius / clavicle bars from the neck base out to each shoulder.
    for side in [1.0f32, -1.0] {
        let (neck_base, shoulder) = (at(0.0, 0.805, -0.012), at(side * b.shoulder_half_frac * 0.92, 0.798, -0.006));
        cone(&mut v, neck_base, shoulder, (0.036 + 0.004 * man) * g * h, 0.026 * g * h, 0.03 * h);
    }
    for side in [1.0f32, -1.0] {
        ellipsoid(&mut v, h, at(side * 0.042, 0.508, -0.036), Vec3::new(0.052, 0.052, 0.044) * g, id, 0.02);
        let chest_centre = at(side * (0.045 + 0.003 * man), 0.735 + 0.012 * man, 0.044 - 0.01 * man);
        let chest_semi = Vec3::new(0.036 + 0.014 * man, 0.032, 0.03 - 0.002 * man + 0.004 * fem) * g;
        ellipsoid(&mut v, h, chest_centre, chest_semi, id, 0.018);
    }
    // Neck and head (the head is not scaled by girth); a small nose shows the facing.
    let (neck_a, neck_b) = (at(0.0, 0.80, -0.012), at(0.0, 0.885, -0.002));
    cone(&mut v, neck_a, neck_b, (0.032 + 0.005 * man) * g * h, (0.030 + 0.004 * man) * g * h, 0.025 * h);
    ellipsoid(&mut v, h, at(0.0, 0.936, -0.004), Vec3::new(0.046, 0.062, 0.057), id, 0.012);
    ellipsoid(&mut v, h, at(0.0, 0.899, 0.02), Vec3::new(0.035 + 0.002 * man, 0.034, 0.038), id, 0.016);
    ellipsoid(&mut v, h, at(0.0, 0.925, 0.056), Vec3::new(0.007, 0.014, 0.01), Quat::from_rotation_x(-0.3), 0.006);
    // Arms: deltoid, upper arm, forearm, flat hand (palm towards the thigh).
    let arm = (1.0 + 0.1 * man) * g * h;
    for (side, sh, el, wr) in [
        (1.0f32, joint::SHOULDER_L, joint::ELBOW_L, joint::WRIST_L),
        (-1.0, joint::SHOULDER_R, joint::ELBOW_R, joint::WRIST_R),
    ] {
        let down = arm_down(side);
        let deltoid_top = j[sh] + Vec3::new(side * 0.002 * h, -0.004 * h, 0.0);
        cone(&mut v, deltoid_top, j[sh] + down * (0.07 * h), 0.027 * arm, 0.024 * arm, 0.02 * h);
        cone(&mut v, j[sh], j[el], 0.025 * arm, 0.019 * arm, 0.012 * h);
        cone(&mut v, j[el] - down * (0.01 * h), j[wr], 0.02 * arm, 0.0135 * arm, 0.01 * h);
        let hand_centre = j[wr] + down * (0.048 * h);
        ellipsoid(
            &mut v,
            h,
            hand_centre,
            Vec3::new(0.0125, 0.046, 0.024),
            Quat::from_rotation_z(side * ARM_ABDUCTION_RAD),
            0.01,
        );
    }
    // Legs: thigh, shin, calf muscle, foot (heel to ball) and toes, soles on y = 0.
    for (side, hip, knee, ankle, ball) in [
        (1.0f32, joint::HIP_L, joint::KNEE_L, joint::ANKLE_L, joint::BALL_L),
        (-1.0, joint::HIP_R, joint::KNEE_R, joint::ANKLE_R, joint::BALL_R),
    ] {
        let thigh_top = j[hip] + Vec3::new(0.0, 0.005 * h, 0.0);
        cone(&mut v, thigh_top, j[knee], (0.045 + 0.004 * fem) * g * h, 0.03 * g * h, 0.025 * h);
        cone(&mut v, j[knee], j[ankle], 0.029 * g * h, 0.018 * g * h, 0.012 * h);
        let calf = j[knee].lerp(j[ankle], 0.3) + Vec3::new(0.0, 0.0, -0.01 * h);
        ellipsoid(&mut v, h, calf, Vec3::new(0.026, 0.075, 0.026) * g, id, 0.015);
        let (r_heel, r_ball, r_toe) = (0.021 * h, 0.019 * h, 0.011 * h);
        let heel = Vec3::new(j[ankle].x, r_heel, -0.022 * h);
        let ball_pt = Vec3::new(j[ball].x, r_ball, j[ball].z);
        let toe = Vec3::new(side * 0.057 * h, r_toe, 0.122 * h);
        cone(&mut v, heel, ball_pt, r_heel, r_ball, 0.012 * h);
        cone(&mut v, ball_pt, toe, r_ball, r_toe, 0.008 * h);
    }
    BodyShape { volumes: v }
}

/// Appends an ellipsoid; `semi_frac` and `blend_frac` are fractions of the height `h`.
fn ellipsoid(v: &mut Vec<SegmentVolume>, h: f32, centre: Vec3, semi_frac: Vec3, rot: Quat, blend_frac: f32) {
    v.push(SegmentVolume {
        shape: VolumeShape::Ellipsoid { centre_in_model: centre, model_from_local: rot, semi_axes_m: semi_frac * h },
        blend_m: blend_frac * h,
    });
}

/// Appends a round cone (radii and blend in metres).
fn cone(v: &mut Vec<SegmentVolume>, a: Vec3, b: Vec3, radius_a_m: f32, radius_b_m: f32, blend_m: f32) {
    v.push(SegmentVolume {
        shape: VolumeShape::RoundCone { a_in_model: a, b_in_model: b, radius_a_m, radius_b_m },
        blend_m,
    });
}
