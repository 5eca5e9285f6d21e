//! Retargeting a capture onto the project skeleton: the capture's up and left axes (Y-up or Z-up,
//! any facing), each mapped bone's world rotation carried over relative to its rest direction, the
//! root path scaled by the leg-length ratio and set on the floor.
//!
//! Up is the coordinate axis nearest the rest pose's root → head, left the one nearest right hip →
//! left hip; `C` turns them onto +Y and +X. Each mapped joint's world rotation is `C·R·C⁻¹·A`: `R`
//! the capture joint's world rotation, `A` the rotation from the project bone's rest direction
//! (towards its main child) onto the capture bone's (towards the capture joint driving that child,
//! else its first child or End Site). So rotations are transferred in a shared rest frame, and a
//! T-pose capture drives the arms-down skeleton by where its bones point. Joints without a capture
//! joint keep their parent's orientation. The root path is the capture root's, scaled by the ratio
//! of the leg lengths (hip → knee → ankle) and moved up or down once so that the lowest foot point
//! (heel, ball, toe tip, ankle) of the whole capture touches the floor.

use glam::{DQuat, DVec3, Vec3};

use super::capture::Capture;
use super::names::JointMap;
use crate::pose::fk::{Pose, world_rot_pos};
use crate::pose::skeleton::{JOINT_COUNT, JointId, Skeleton};

/// Why a capture cannot drive the project skeleton.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RetargetError {
    /// Joints the retargeting needs have no capture joint.
    #[error(
        "no capture joint drives {missing}; the capture's joints are {found} (name them in a `NAME.map.toml` beside the file, e.g. `LeftUpLeg = \"HipL\"`)"
    )]
    Missing {
        /// The project joints missing, comma-separated.
        missing: String,
        /// The capture's joint names, comma-separated.
        found: String,
    },
    /// The rest pose gives no usable up or left direction.
    #[error("cannot tell the capture's {0} from its rest pose (are the legs or the head mapped to the wrong joints?)")]
    Axes(&'static str),
}

/// A capture retargeted onto a skeleton: one pose per capture frame, sampled with interpolation.
#[derive(Clone, Debug, PartialEq)]
pub struct CaptureMotion {
    /// The skeleton the poses are for.
    pub skeleton: Skeleton,
    /// One pose per capture frame.
    pub frames: Vec<Pose>,
    /// Seconds between frames.
    pub frame_secs: f64,
    /// What was found: axes, scale, mapping.
    pub report: RetargetReport,
}

/// How the capture was read.
#[derive(Clone, Debug, PartialEq)]
pub struct RetargetReport {
    /// The capture's up axis in its own coordinates (`+Y`, `+Z`, …).
    pub up: &'static str,
    /// The capture's left (the performer's own left) in its own coordinates.
    pub left: &'static str,
    /// Metres per capture unit (leg length ratio).
    pub metres_per_unit: f64,
    /// Project joint → capture joint name, in joint order.
    pub mapping: Vec<(JointId, String)>,
    /// Project joints no capture joint drives (they keep their parent's orientation).
    pub unmapped: Vec<JointId>,
    /// Height the root path was moved by to put the lowest foot point on the floor, metres.
    pub floor_shift_m: f64,
    /// Frame rows after the file's `Frames:` count, left out.
    pub extra_rows: usize,
    /// Frames lifted so that no joint or end site is below the floor, and the largest lift.
    pub lifted_frames: usize,
    /// The largest such lift, metres.
    pub max_lift_m: f64,
}

impl CaptureMotion {
    /// Length in seconds.
    pub fn duration_secs(&self) -> f64 {
        self.frames.len().saturating_sub(1) as f64 * self.frame_secs
    }

    /// The pose at `t_secs` (clamped to the capture), interpolated between the two nearest
    /// frames: the pelvis linearly, every rotation by slerp.
    pub fn sample(&self, t_secs: f64) -> Pose {
        let last = self.frames.len().saturating_sub(1);
        let f = if t_secs.is_finite() { (t_secs / self.frame_secs).clamp(0.0, last as f64) } else { 0.0 };
        let i = (f.floor() as usize).min(last);
        let (Some(a), Some(b)) = (self.frames.get(i), self.frames.get((i + 1).min(last))) else {
            return Pose::rest(&self.skeleton);
        };
        let w = (f - i as f64) as f32;
        if w <= 0.0 {
            return a.clone();
        }
        let mut pose = a.clone();
        pose.pelvis_in_world = a.pelvis_in_world.lerp(b.pelvis_in_world, w);
        for (q, (qa, qb)) in pose.local_rot.iter_mut().zip(a.local_rot.iter().zip(&b.local_rot)) {
            *q = qa.slerp(*qb, w).normalize();
        }
        pose
    }
}

/// The bone whose direction aligns each joint's rest: the joint's main child, or an end site.
fn main_child(joint: JointId) -> Option<JointId> {
    use JointId::*;
    Some(match joint {
        Pelvis => return None,
        Spine => Chest,
        Chest => Neck,
        Neck => Head,
        ClavicleL => ShoulderL,
        ShoulderL => ElbowL,
        ElbowL => WristL,
        WristL => HandL,
        ClavicleR => ShoulderR,
        ShoulderR => ElbowR,
        ElbowR => WristR,
        WristR => HandR,
        HipL => KneeL,
        KneeL => AnkleL,
        AnkleL => BallL,
        HipR => KneeR,
        KneeR => AnkleR,
        AnkleR => BallR,
        Head | HandL | HandR | BallL | BallR => return None,
    })
}

const AXES: [(DVec3, &str); 6] = [
    (DVec3::X, "+X"),
    (DVec3::NEG_X, "-X"),
    (DVec3::Y, "+Y"),
    (DVec3::NEG_Y, "-Y"),
    (DVec3::Z, "+Z"),
    (DVec3::NEG_Z, "-Z"),
];

/// The signed coordinate axis nearest to `v` (not along `not`).
fn snap(v: DVec3, not: Option<DVec3>) -> Option<(DVec3, &'static str)> {
    AXES.iter()
        .filter(|(a, _)| not.is_none_or(|n| a.dot(n).abs() < 0.5))
        .map(|&(a, name)| (a.dot(v), a, name))
        .filter(|(d, _, _)| *d > 0.0)
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, a, name)| (a, name))
}

/// Retargets `capture` onto `skeleton` with `map` (see [`super::names::auto_map`]).
///
/// The capture's up is the coordinate axis nearest its root → head (or neck) direction at rest,
/// its left the axis nearest its right hip → left hip; `C` turns those onto the project's +Y and
/// +X. Each mapped joint's world rotation is `C·R_capture·C⁻¹·A`, where `A` turns the project
/// bone's rest direction onto the capture bone's rest direction (in project axes), so a T-pose
/// capture drives the arms-down skeleton by where its bones point, not by its raw angles. A joint
/// without a capture joint keeps its parent's orientation. The root path is scaled by the ratio
/// of the legs (hip → knee → ankle) and moved up or down so the lowest foot point of the whole
/// capture touches the floor.
pub fn retarget(capture: &Capture, map: &JointMap, skeleton: &Skeleton) -> Result<CaptureMotion, RetargetError> {
    use JointId::*;
    let needed = [Pelvis, HipL, KneeL, AnkleL, HipR, KneeR, AnkleR];
    let mut missing: Vec<String> = needed.iter().filter(|j| !map.contains_key(j)).map(|j| format!("{j:?}")).collect();
    if !map.contains_key(&Head) && !map.contains_key(&Neck) {
        missing.push("Head (or Neck)".into());
    }
    if !missing.is_empty() {
        let found: Vec<&str> = capture.joints.iter().map(|j| j.name.as_str()).collect();
        return Err(RetargetError::Missing { missing: missing.join(", "), found: found.join(", ") });
    }
    let src = |j: JointId| map.get(&j).copied();
    let rest = capture.rest_positions();
    let rest_of = |j: JointId| src(j).and_then(|i| rest.get(i).copied()).unwrap_or(DVec3::ZERO);
    let top = if map.contains_key(&Head) { Head } else { Neck };
    let (up, up_name) = snap(rest_of(top) - rest_of(Pelvis), None).ok_or(RetargetError::Axes("up"))?;
    let (left, left_name) = snap(rest_of(HipL) - rest_of(HipR), Some(up)).ok_or(RetargetError::Axes("left"))?;
    let forward = left.cross(up);
    // C maps capture axes to project axes: left → +X, up → +Y, forward → +Z.
    let c = glam::DMat3::from_cols(left, up, forward).transpose();
    let c_rot = DQuat::from_mat3(&c);

    let leg = |hip: JointId, knee: JointId, ankle: JointId| {
        rest_of(hip).distance(rest_of(knee)) + rest_of(knee).distance(rest_of(ankle))
    };
    let source_leg = 0.5 * (leg(HipL, KneeL, AnkleL) + leg(HipR, KneeR, AnkleR));
    let target_leg = 0.5
        * f64::from(
            skeleton.bone_length_m(KneeL)
                + skeleton.bone_length_m(AnkleL)
                + skeleton.bone_length_m(KneeR)
                + skeleton.bone_length_m(AnkleR),
        );
    if !(source_leg.is_finite() && source_leg > 1e-9) {
        return Err(RetargetError::Axes("leg length (the hip, knee and ankle are in one place)"));
    }
    let scale = target_leg / source_leg;

    // A per joint: project rest bone direction → capture rest bone direction (project axes).
    let mut align = [DQuat::IDENTITY; JOINT_COUNT];
    for joint in JointId::ALL {
        let Some(s) = src(joint) else { continue };
        let target_dir = match main_child(joint) {
            Some(child) => skeleton.rest_offset(child),
            None => skeleton.end_sites().iter().find(|e| e.parent == joint).map_or(Vec3::ZERO, |e| e.offset_in_parent),
        }
        .as_dvec3();
        let mapped_child = main_child(joint).and_then(src).filter(|&ch| ch != s && capture.is_ancestor(s, ch));
        let source_dir = match mapped_child {
            Some(ch) => rest.get(ch).copied().unwrap_or_default() - rest.get(s).copied().unwrap_or_default(),
            None => fallback_dir(capture, s),
        };
        let source_dir = c * source_dir;
        if joint != Pelvis && target_dir.length() > 1e-9 && source_dir.length() > 1e-9 {
            align[joint.index()] = DQuat::from_rotation_arc(target_dir.normalize(), source_dir.normalize());
        }
    }

    let mut frames = Vec::with_capacity(capture.frame_count());
    let (mut rot, mut pos) = (Vec::new(), Vec::new());
    for f in 0..capture.frame_count() {
        capture.world(f, &mut rot, &mut pos);
        let mut world = [DQuat::IDENTITY; JOINT_COUNT];
        let mut pose = Pose::rest(skeleton);
        for joint in JointId::ALL {
            let parent_world = joint.parent().map_or(DQuat::IDENTITY, |p| world[p.index()]);
            let w = match src(joint).and_then(|s| rot.get(s)) {
                Some(r) => (c_rot * *r * c_rot.conjugate() * align[joint.index()]).normalize(),
                None => parent_world,
            };
            world[joint.index()] = w;
            let local = (parent_world.conjugate() * w).normalize();
            pose.local_rot[joint.index()] = local.as_quat();
        }
        let root = src(Pelvis).and_then(|s| pos.get(s).copied()).unwrap_or_default();
        pose.pelvis_in_world = (c * root * scale).as_vec3();
        frames.push(pose);
    }
    let floor_shift = -lowest_foot_point(skeleton, &frames);
    let floor_shift = if floor_shift.is_finite() { floor_shift } else { 0.0 };
    // No part of the body below the floor: a frame that reaches below it (the dancer's arms
    // are longer than the capture's, say, as a performer falls) is lifted by that much.
    let mut lifted_frames = 0usize;
    let mut max_lift_m = 0.0f64;
    for pose in &mut frames {
        pose.pelvis_in_world.y += floor_shift as f32;
        let (_, pos) = world_rot_pos(skeleton, pose);
        let ends = crate::pose::fk::end_site_positions(skeleton, pose);
        let lowest = pos.iter().chain(&ends).map(|p| p.y).fold(f32::INFINITY, f32::min);
        if lowest < 0.0 && lowest.is_finite() {
            pose.pelvis_in_world.y -= lowest;
            lifted_frames += 1;
            max_lift_m = max_lift_m.max(f64::from(-lowest));
        }
    }
    let mapping =
        JointId::ALL.into_iter().filter_map(|j| Some((j, capture.joints.get(src(j)?)?.name.clone()))).collect();
    let unmapped = JointId::ALL.into_iter().filter(|j| !map.contains_key(j)).collect();
    Ok(CaptureMotion {
        skeleton: skeleton.clone(),
        frames,
        frame_secs: capture.frame_secs,
        report: RetargetReport {
            up: up_name,
            left: left_name,
            metres_per_unit: scale,
            mapping,
            unmapped,
            floor_shift_m: floor_shift,
            extra_rows: capture.extra_rows,
            lifted_frames,
            max_lift_m,
        },
    })
}

/// A capture joint's own bone direction when its main child is not mapped: towards its first
/// child with a non-zero offset, else its End Site.
fn fallback_dir(capture: &Capture, joint: usize) -> DVec3 {
    capture
        .joints
        .iter()
        .filter(|j| j.parent == Some(joint))
        .map(|j| j.offset)
        .find(|o| o.length() > 1e-9)
        .or_else(|| capture.joints.get(joint).and_then(|j| j.end_site))
        .unwrap_or(DVec3::ZERO)
}

/// The lowest height any foot point (ankle, ball, heel, toe tip) reaches over `frames`.
pub fn lowest_foot_point(skeleton: &Skeleton, frames: &[Pose]) -> f64 {
    let toe_tips: Vec<_> =
        skeleton.end_sites().iter().filter(|e| matches!(e.parent, JointId::BallL | JointId::BallR)).collect();
    let mut lowest = f64::INFINITY;
    for pose in frames {
        let (rot, pos) = world_rot_pos(skeleton, pose);
        for (ankle, ball) in [(JointId::AnkleL, JointId::BallL), (JointId::AnkleR, JointId::BallR)] {
            let heel = pos[ankle.index()] + rot[ankle.index()] * skeleton.heel_in_ankle();
            let mut points = vec![pos[ankle.index()], pos[ball.index()], heel];
            for tip in toe_tips.iter().filter(|e| e.parent == ball) {
                points.push(pos[ball.index()] + rot[ball.index()] * tip.offset_in_parent);
            }
            for p in points {
                lowest = lowest.min(f64::from(p.y));
            }
        }
    }
    lowest
}
