//! Poses and forward kinematics: local joint rotations → world transforms and joint positions.
//!
//! A [`Pose`] is the pelvis position plus one local rotation per joint; [`local_to_world`]
//! turns it into one rigid world transform per joint, written into a caller-owned buffer.

use glam::{Mat4, Quat, Vec3};

use super::limits::normalized_or_identity;
use super::skeleton::{JOINT_COUNT, JointId, Skeleton};

/// One body configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    /// World position of the pelvis joint, metres.
    pub pelvis_in_world: Vec3,
    /// Rotation of each joint's frame relative to its parent's frame, indexed by
    /// [`JointId::index`]; the pelvis entry is relative to the world. Identity everywhere is the
    /// rest pose. Non-unit values are normalised by the solvers; non-finite ones count as identity.
    pub local_rot: [Quat; JOINT_COUNT],
}

impl Pose {
    /// The rest pose of `skeleton`: standing on the floor, facing +Z, arms at the sides.
    pub fn rest(skeleton: &Skeleton) -> Pose {
        Pose { pelvis_in_world: skeleton.rest_offset(JointId::Pelvis), local_rot: [Quat::IDENTITY; JOINT_COUNT] }
    }

    /// Local rotation of `joint` (relative to its parent).
    pub fn local(&self, joint: JointId) -> Quat {
        self.local_rot[joint.index()]
    }

    /// Sets the local rotation of `joint`.
    pub fn set_local(&mut self, joint: JointId, parent_from_joint_rot: Quat) {
        self.local_rot[joint.index()] = parent_from_joint_rot;
    }
}

/// The output buffer is shorter than [`JOINT_COUNT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("output buffer holds {got} entries but the skeleton has {needed} joints")]
pub struct BufferTooSmall {
    /// Entries needed ([`JOINT_COUNT`]).
    pub needed: usize,
    /// Entries given.
    pub got: usize,
}

/// World rotation and position of every joint, in [`JointId`] order.
///
/// Non-finite or zero rotations count as identity and a non-finite pelvis position as the
/// origin, so the output is always finite.
pub fn world_rot_pos(skeleton: &Skeleton, pose: &Pose) -> ([Quat; JOINT_COUNT], [Vec3; JOINT_COUNT]) {
    let mut rot = [Quat::IDENTITY; JOINT_COUNT];
    let mut pos = [Vec3::ZERO; JOINT_COUNT];
    for joint in JointId::ALL {
        let i = joint.index();
        let local = normalized_or_identity(pose.local_rot[i]);
        match joint.parent() {
            Some(parent) => {
                let (parent_rot, parent_pos) = (rot[parent.index()], pos[parent.index()]);
                rot[i] = (parent_rot * local).normalize();
                pos[i] = parent_pos + parent_rot * skeleton.rest_offset(joint);
            }
            None => {
                rot[i] = local;
                pos[i] = if pose.pelvis_in_world.is_finite() { pose.pelvis_in_world } else { Vec3::ZERO };
            }
        }
    }
    (rot, pos)
}

/// Writes `world_from_joint` (a rigid transform) for every joint into `out`, in [`JointId`] order.
///
/// `out` must hold at least [`JOINT_COUNT`] entries; extra entries are left untouched.
pub fn local_to_world(skeleton: &Skeleton, pose: &Pose, out: &mut [Mat4]) -> Result<(), BufferTooSmall> {
    let Some(out) = out.get_mut(..JOINT_COUNT) else {
        return Err(BufferTooSmall { needed: JOINT_COUNT, got: out.len() });
    };
    let (rot, pos) = world_rot_pos(skeleton, pose);
    for ((slot, r), p) in out.iter_mut().zip(rot).zip(pos) {
        *slot = Mat4::from_rotation_translation(r, p);
    }
    Ok(())
}

/// Writes the world position of every joint into `out` (metres), in [`JointId`] order.
pub fn joint_positions(skeleton: &Skeleton, pose: &Pose, out: &mut [Vec3]) -> Result<(), BufferTooSmall> {
    let Some(out) = out.get_mut(..JOINT_COUNT) else {
        return Err(BufferTooSmall { needed: JOINT_COUNT, got: out.len() });
    };
    let (_, pos) = world_rot_pos(skeleton, pose);
    out.copy_from_slice(&pos);
    Ok(())
}

/// World rotation and position of one joint, walking only its ancestors.
pub fn joint_world(skeleton: &Skeleton, pose: &Pose, joint: JointId) -> (Quat, Vec3) {
    match joint.parent() {
        Some(parent) => child_world(skeleton, pose, joint_world(skeleton, pose, parent), joint),
        None => {
            let pos = if pose.pelvis_in_world.is_finite() { pose.pelvis_in_world } else { Vec3::ZERO };
            (normalized_or_identity(pose.local(joint)), pos)
        }
    }
}

/// World rotation and position of `joint` from its parent's: bit for bit what [`joint_world`]
/// finds when `parent_world` is the parent's [`joint_world`] in the same pose.
pub fn child_world(skeleton: &Skeleton, pose: &Pose, parent_world: (Quat, Vec3), joint: JointId) -> (Quat, Vec3) {
    let (rot, pos) = parent_world;
    let local = normalized_or_identity(pose.local(joint));
    ((rot * local).normalize(), pos + rot * skeleton.rest_offset(joint))
}

/// World positions of the skeleton's end sites (same order as [`Skeleton::end_sites`]).
pub fn end_site_positions(skeleton: &Skeleton, pose: &Pose) -> Vec<Vec3> {
    let (rot, pos) = world_rot_pos(skeleton, pose);
    skeleton
        .end_sites()
        .iter()
        .map(|site| {
            let i = site.parent.index();
            pos[i] + rot[i] * site.offset_in_parent
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    /// Deterministic pseudo-random rotations (a fixed LCG, no `rand`).
    pub(crate) fn scrambled_pose(skeleton: &Skeleton, seed: u64) -> Pose {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0
        };
        let mut pose = Pose::rest(skeleton);
        pose.pelvis_in_world = Vec3::new(next(), 1.0 + next(), next());
        for q in pose.local_rot.iter_mut() {
            *q = Quat::from_scaled_axis(Vec3::new(next(), next(), next()) * 3.0);
        }
        pose
    }

    #[test]
    fn bone_lengths_stay_constant() {
        let skeleton = Skeleton::default();
        let mut positions = [Vec3::ZERO; JOINT_COUNT];
        for seed in 0..200 {
            let pose = scrambled_pose(&skeleton, seed);
            joint_positions(&skeleton, &pose, &mut positions).unwrap();
            for joint in JointId::ALL {
                let Some(parent) = joint.parent() else {
                    continue;
                };
                let len = positions[joint.index()].distance(positions[parent.index()]);
                let rest = skeleton.bone_length_m(joint);
                assert!((len - rest).abs() < 1e-5, "{joint:?}: {len} vs {rest}");
            }
        }
    }

    #[test]
    fn rest_pose_reproduces_rest_positions_and_matrices_agree() {
        let skeleton = Skeleton::default();
        let pose = Pose::rest(&skeleton);
        let mut mats = [Mat4::IDENTITY; JOINT_COUNT + 2];
        local_to_world(&skeleton, &pose, &mut mats).unwrap();
        let mut expected = Vec3::ZERO;
        for j in [JointId::Pelvis, JointId::HipL, JointId::KneeL, JointId::AnkleL] {
            expected += skeleton.rest_offset(j);
        }
        assert!(mats[JointId::AnkleL.index()].w_axis.truncate().distance(expected) < 1e-6);
        for seed in 0..20 {
            let pose = scrambled_pose(&skeleton, seed);
            local_to_world(&skeleton, &pose, &mut mats).unwrap();
            for joint in JointId::ALL {
                let (r, p) = joint_world(&skeleton, &pose, joint);
                let m = mats[joint.index()];
                assert!(m.w_axis.truncate().distance(p) < 1e-5);
                assert!(Mat4::from_quat(r).abs_diff_eq(Mat4::from_translation(-p) * m, 1e-5));
            }
        }
    }

    #[test]
    fn short_buffer_and_bad_values_do_not_panic() {
        let skeleton = Skeleton::default();
        let mut short = [Mat4::IDENTITY; 3];
        let err = local_to_world(&skeleton, &Pose::rest(&skeleton), &mut short).unwrap_err();
        assert_eq!(err, BufferTooSmall { needed: JOINT_COUNT, got: 3 });
        let mut pose = Pose::rest(&skeleton);
        pose.pelvis_in_world = Vec3::NAN;
        pose.local_rot[3] = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
        pose.local_rot[7] = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        let mut mats = [Mat4::IDENTITY; JOINT_COUNT];
        local_to_world(&skeleton, &pose, &mut mats).unwrap();
        assert!(mats.iter().all(|m| m.is_finite()));
        assert!(end_site_positions(&skeleton, &pose).iter().all(|p| p.is_finite()));
    }
}
