//! Bodies made from the shared meshes whose true skeleton is still known, shared by the rig
//! tests and the rig tools: each maps the mesh (and, where the body's shape moves, its reference
//! skeleton alike) so that the embedding is put to a test — a cartoon (big head about the neck,
//! legs compressed below the hips, arms stretched along their axis), legs pressed together, arms
//! swung down against the trunk, a crouch, a piece cut away, every vertex shaken. Y up, X left–right.

#![allow(dead_code)] // Each user takes the variants it needs.

use glam::{Quat, Vec3};
use labanplay::body::models::{ModelSpec, joint};

/// A reference skeleton: (joint name, position in the mesh's coordinates).
pub type Reference = Vec<(String, Vec3)>;

/// A built-in body's rest joints as a reference skeleton, named as Mixamo names them (the limb
/// joints and the neck).
pub fn builtin_reference(model: &ModelSpec) -> Reference {
    [
        (joint::SHOULDER_L, "mixamorig:LeftArm"),
        (joint::SHOULDER_R, "mixamorig:RightArm"),
        (joint::ELBOW_L, "mixamorig:LeftForeArm"),
        (joint::ELBOW_R, "mixamorig:RightForeArm"),
        (joint::WRIST_L, "mixamorig:LeftHand"),
        (joint::WRIST_R, "mixamorig:RightHand"),
        (joint::HIP_L, "mixamorig:LeftUpLeg"),
        (joint::HIP_R, "mixamorig:RightUpLeg"),
        (joint::KNEE_L, "mixamorig:LeftLeg"),
        (joint::KNEE_R, "mixamorig:RightLeg"),
        (joint::ANKLE_L, "mixamorig:LeftFoot"),
        (joint::ANKLE_R, "mixamorig:RightFoot"),
        (joint::NECK, "mixamorig:Neck"),
    ]
    .iter()
    .map(|&(j, name)| (name.to_owned(), model.joint_rest_in_model[j]))
    .collect()
}

/// The first joint of `reference` with one of `names`.
pub fn find_joint(reference: &[(String, Vec3)], names: &[&str]) -> Option<Vec3> {
    reference.iter().find(|(n, _)| names.contains(&n.as_str())).map(|r| r.1)
}

const NECK: [&str; 3] = ["mixamorig:Neck", "Neck", "neck_01"];
const HIPS: [[&str; 3]; 2] =
    [["mixamorig:LeftUpLeg", "Hip.L", "thigh_l"], ["mixamorig:RightUpLeg", "Hip.R", "thigh_r"]];
const SHOULDERS: [[&str; 3]; 2] =
    [["mixamorig:LeftArm", "UpperArm.L", "upperarm_l"], ["mixamorig:RightArm", "UpperArm.R", "upperarm_r"]];
const ELBOWS: [[&str; 3]; 2] =
    [["mixamorig:LeftForeArm", "ForeArm.L", "lowerarm_l"], ["mixamorig:RightForeArm", "ForeArm.R", "lowerarm_r"]];
const WRISTS: [[&str; 3]; 2] =
    [["mixamorig:LeftHand", "Hand.L", "hand_l"], ["mixamorig:RightHand", "Hand.R", "hand_r"]];
const KNEES: [[&str; 3]; 2] = [["mixamorig:LeftLeg", "Shin.L", "calf_l"], ["mixamorig:RightLeg", "Shin.R", "calf_r"]];
const ANKLES: [[&str; 3]; 2] =
    [["mixamorig:LeftFoot", "Foot.L", "foot_l"], ["mixamorig:RightFoot", "Foot.R", "foot_r"]];

fn pair(reference: &[(String, Vec3)], names: &[[&str; 3]; 2]) -> Option<[Vec3; 2]> {
    Some([find_joint(reference, &names[0])?, find_joint(reference, &names[1])?])
}

/// Lowest and highest y of `points`.
pub fn y_range(points: &[Vec3]) -> (f32, f32) {
    points.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)))
}

pub fn smoothstep(lo: f32, hi: f32, x: f32) -> f32 {
    let t = ((x - lo) / (hi - lo)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// How stylised: the head's scale about the neck, the legs' scale below the hips (height only),
/// the arms' scale beyond the shoulders (along the arm).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cartoon {
    pub head: f32,
    pub legs: f32,
    pub arms: f32,
}

/// The cartoon deformation of one body, from its reference skeleton.
pub struct Deform {
    pub cartoon: Cartoon,
    pub neck: Vec3,
    pub hip_y: f32,
    pub shoulders: [Vec3; 2],
    /// Unit shoulder → wrist direction of each arm.
    pub arm_dirs: [Vec3; 2],
    /// Half-width (x) of what the head scale takes in fully; beyond it the shift stays constant.
    pub head_half_width: f32,
    /// Height over which the head scale blends in above the neck.
    pub blend: f32,
}

impl Deform {
    /// The deformation of a body whose mesh spans `lo_y..hi_y`; `None` when the reference lacks
    /// the neck, hips, shoulders or wrists.
    pub fn new(cartoon: Cartoon, reference: &[(String, Vec3)], lo_y: f32, hi_y: f32) -> Option<Deform> {
        let shoulders = pair(reference, &SHOULDERS)?;
        let wrists = pair(reference, &WRISTS)?;
        let hips = pair(reference, &HIPS)?;
        Some(Deform {
            cartoon,
            neck: find_joint(reference, &NECK)?,
            hip_y: 0.5 * (hips[0].y + hips[1].y),
            shoulders,
            arm_dirs: [(wrists[0] - shoulders[0]).normalize(), (wrists[1] - shoulders[1]).normalize()],
            head_half_width: 0.75 * 0.5 * (shoulders[0].x - shoulders[1].x).abs(),
            blend: 0.03 * (hi_y - lo_y),
        })
    }

    /// Each step maps space one-to-one (the surface stays closed and does not cross itself).
    pub fn apply(&self, p: Vec3) -> Vec3 {
        self.big_head(self.long_arms(self.short_legs(p)))
    }

    /// Below the hips' height, heights above the floor shrink by `legs` (measured from the hips).
    fn short_legs(&self, p: Vec3) -> Vec3 {
        if p.y >= self.hip_y {
            return p;
        }
        Vec3::new(p.x, self.hip_y - self.cartoon.legs * (self.hip_y - p.y), p.z)
    }

    /// Points within 25° of an arm's axis beyond its shoulder move out along the axis by
    /// `arms - 1` times their distance along it (blending to nothing at 35°: the trunk's side
    /// and the hips stay put).
    fn long_arms(&self, p: Vec3) -> Vec3 {
        let mut out = p;
        for (shoulder, dir) in self.shoulders.iter().zip(&self.arm_dirs) {
            let q = p - *shoulder;
            let along = q.dot(*dir);
            if along <= 0.0 {
                continue;
            }
            let cos = along / q.length();
            let w = smoothstep(35f32.to_radians().cos(), 25f32.to_radians().cos(), cos);
            out += (self.cartoon.arms - 1.0) * along * w * *dir;
        }
        out
    }

    /// Above the neck, scaled about it by `head`, blending in over `blend`; left–right the
    /// scale holds within `head_half_width` and points beyond shift as the edge does.
    fn big_head(&self, p: Vec3) -> Vec3 {
        let up = p.y - self.neck.y;
        if up <= 0.0 {
            return p;
        }
        let s = (self.cartoon.head - 1.0) * smoothstep(0.0, self.blend, up);
        let across = (p.x - self.neck.x).clamp(-self.head_half_width, self.head_half_width);
        Vec3::new(p.x + s * across, self.neck.y + up * (1.0 + s), p.z + s * (p.z - self.neck.z))
    }
}

/// Each leg moved towards the middle by `share` of the height below 40 % of it, blending to
/// nothing at 52 %: thighs that touch (4 %) or legs fused into one (8 %).
pub fn legs_together(p: Vec3, floor_y: f32, height: f32, middle_x: f32, share: f32) -> Vec3 {
    let rel = (p.y - floor_y) / height;
    let blend = ((0.52 - rel) / 0.12).clamp(0.0, 1.0);
    let shift = share * height * blend;
    let x = p.x - middle_x;
    Vec3::new(middle_x + x.signum() * (x.abs() - shift).max(x.abs() * 0.2), p.y, p.z)
}

/// Arms swung down about their shoulders (in the body's front plane) by `degrees`: points within
/// 30° of an arm's axis turn fully, blending to nothing at 45°, so an arm swung far enough lies
/// against or inside the trunk (a limb fused to the body).
pub struct ArmsDown {
    shoulders: [Vec3; 2],
    arm_dirs: [Vec3; 2],
    radians: f32,
}

impl ArmsDown {
    pub fn new(reference: &[(String, Vec3)], degrees: f32) -> Option<ArmsDown> {
        let shoulders = pair(reference, &SHOULDERS)?;
        let elbows = pair(reference, &ELBOWS)?;
        let arm_dirs = [(elbows[0] - shoulders[0]).normalize(), (elbows[1] - shoulders[1]).normalize()];
        Some(ArmsDown { shoulders, arm_dirs, radians: degrees.to_radians() })
    }

    pub fn apply(&self, p: Vec3) -> Vec3 {
        for (side, (shoulder, dir)) in self.shoulders.iter().zip(&self.arm_dirs).enumerate() {
            let q = p - *shoulder;
            let along = q.dot(*dir);
            if along <= 0.0 {
                continue;
            }
            let w = smoothstep(45f32.to_radians().cos(), 30f32.to_radians().cos(), along / q.length());
            if w <= 0.0 {
                continue;
            }
            // Down for the left arm (+x) is a turn about -z; for the right about +z.
            let about = if side == 0 { Vec3::NEG_Z } else { Vec3::Z };
            return *shoulder + Quat::from_axis_angle(about, self.radians * w) * q;
        }
        p
    }
}

/// A crouch of `degrees`: the thighs turn forward about the hips, the shins back about the
/// knees by twice that, the feet forward again about the ankles, so the feet stay flat and the
/// knees come forward (a plié), each blended over 3 % of the height about its joint.
pub struct Crouch {
    joints: [[Vec3; 2]; 3],
    height: f32,
    radians: f32,
}

impl Crouch {
    pub fn new(reference: &[(String, Vec3)], height: f32, degrees: f32) -> Option<Crouch> {
        let joints = [pair(reference, &HIPS)?, pair(reference, &KNEES)?, pair(reference, &ANKLES)?];
        Some(Crouch { joints, height, radians: degrees.to_radians() })
    }

    pub fn apply(&self, p: Vec3) -> Vec3 {
        let side = if p.x >= 0.0 { 0 } else { 1 };
        let mut q = p;
        // From the foot up, each turn about its joint where the point lay before any turn.
        for (joint, turns) in [(2, -1.0f32), (1, 2.0), (0, -1.0)] {
            let at = self.joints[joint][side];
            let w = smoothstep(0.03 * self.height, -0.03 * self.height, p.y - at.y);
            if w > 0.0 {
                q = at + Quat::from_axis_angle(Vec3::X, turns * self.radians * w) * (q - at);
            }
        }
        q
    }
}

/// A piece cut away: every triangle with a corner within `radius_share` of the height of a point
/// `along` of the way from one reference joint to the next (a hand: wrist to past the wrist).
#[derive(Clone, Copy, Debug)]
pub enum Piece {
    /// The left hand.
    Hand,
    /// The left forearm and hand.
    Forearm,
    /// The left foot.
    Foot,
}

impl Piece {
    pub fn name(self) -> &'static str {
        match self {
            Piece::Hand => "cut hand",
            Piece::Forearm => "cut forearm",
            Piece::Foot => "cut foot",
        }
    }

    /// Triangles of `triangles` that stay, the rest cut.
    pub fn cut(
        self,
        positions: &[Vec3],
        triangles: &[[u32; 3]],
        reference: &[(String, Vec3)],
        height: f32,
    ) -> Option<Vec<[u32; 3]>> {
        let (centre, radius) = match self {
            Piece::Hand => {
                let (elbow, wrist) = (find_joint(reference, &ELBOWS[0])?, find_joint(reference, &WRISTS[0])?);
                (wrist + 0.5 * (wrist - elbow), 0.6 * wrist.distance(elbow))
            }
            Piece::Forearm => {
                let (elbow, wrist) = (find_joint(reference, &ELBOWS[0])?, find_joint(reference, &WRISTS[0])?);
                (wrist, 1.2 * wrist.distance(elbow))
            }
            Piece::Foot => {
                let (knee, ankle) = (find_joint(reference, &KNEES[0])?, find_joint(reference, &ANKLES[0])?);
                (ankle + Vec3::new(0.0, -0.02 * height, 0.04 * height), 0.3 * ankle.distance(knee))
            }
        };
        let kept = |t: &[u32; 3]| t.iter().all(|&v| positions[v as usize].distance(centre) > radius);
        Some(triangles.iter().copied().filter(kept).collect())
    }
}

/// Every point moved by up to `share` of `height` in a direction drawn from its index (the same
/// on every run).
pub fn shaken(points: &[Vec3], height: f32, share: f32) -> Vec<Vec3> {
    let unit = |seed: u64| {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0xD1B5_4A32_D192_ED03);
        x ^= x >> 31;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^= x >> 29;
        (x >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    points
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let i = i as u64 * 3;
            p + share * height * Vec3::new(unit(i), unit(i + 1), unit(i + 2))
        })
        .collect()
}
