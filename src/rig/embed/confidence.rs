//! How sure the embedding is, joint by joint (1 = sure): left–right agreement of each limb pair,
//! whether the refinement found its landmark (crotch, ankle, armpit, a hand's wrist) or fell back
//! to a fixed fraction, whether the joint lies inside the body, whether the toes point forward,
//! and whether the leg, arm and shoulder proportions fall in a humanoid range. The rig's
//! confidence is a soft factor of the search's penalty times the mean and the worst of the limb
//! joints; calibrated with the `rig_calibrate` tool (no rig of the shared meshes, stored or
//! stretched, with a mean limb error above 5 % of the height reports 0.8 or more).

use glam::Vec3;

use super::BodyFrame;
use super::refine::{Arm, Leg};
use crate::pose::skeleton::{JOINT_COUNT, JointId};
use crate::rig::voxel::VoxelBody;

/// The twelve limb joints the confidence is made of.
const LIMBS: [JointId; 12] = [
    JointId::ShoulderL,
    JointId::ShoulderR,
    JointId::ElbowL,
    JointId::ElbowR,
    JointId::WristL,
    JointId::WristR,
    JointId::HipL,
    JointId::HipR,
    JointId::KneeL,
    JointId::KneeR,
    JointId::AnkleL,
    JointId::AnkleR,
];

/// Sureness of a fallback placement (a fixed fraction where the landmark was not found).
const FALLBACK: f32 = 0.55;

/// 1 inside `[lo, hi]`, falling linearly to 0 at `spread` beyond either end.
fn within(x: f32, lo: f32, hi: f32, spread: f32) -> f32 {
    let beyond = (lo - x).max(x - hi).max(0.0);
    (1.0 - beyond / spread).clamp(0.0, 1.0)
}

/// Per joint sureness (by [`JointId::index`]) and the rig's confidence.
pub(super) fn sureness(
    joints: &[Vec3; JOINT_COUNT],
    legs: &[Leg; 2],
    arms: &[Arm; 2],
    body: &VoxelBody,
    frame: &BodyFrame,
    penalty: f32,
) -> ([f32; JOINT_COUNT], f32) {
    use JointId::*;
    let h = frame.height;
    let mut sure = [1.0f32; JOINT_COUNT];
    let at = |j: JointId| joints[j.index()];
    let mut scale = |j: JointId, s: f32| sure[j.index()] *= s.clamp(0.0, 1.0);
    // Left–right agreement, mirrored about the pelvis.
    let pelvis_x = at(Pelvis).x;
    for (l, r) in
        [(ShoulderL, ShoulderR), (ElbowL, ElbowR), (WristL, WristR), (HipL, HipR), (KneeL, KneeR), (AnkleL, AnkleR)]
    {
        let (a, b) = (at(l), at(r));
        let off = a.distance(Vec3::new(2.0 * pelvis_x - b.x, b.y, b.z)) / h;
        let s = 1.0 - off / 0.08;
        scale(l, s);
        scale(r, s);
    }
    // Landmarks found, toes forward, leg proportions.
    for (leg, (hip, knee, ankle)) in legs.iter().zip([(HipL, KneeL, AnkleL), (HipR, KneeR, AnkleR)]) {
        if !leg.crotch_found {
            scale(hip, FALLBACK);
            scale(knee, FALLBACK);
        }
        if !leg.ankle_found {
            scale(ankle, FALLBACK);
            scale(knee, 0.8);
        }
        let toes_forward = (leg.toe_tip.z - leg.heel.z) > 0.0 && (leg.ball.z - leg.ankle.z) > 0.01 * h;
        if !toes_forward {
            scale(ankle, 0.4);
        }
        let hip_height = frame.rel_y(leg.hip);
        scale(hip, within(hip_height, 0.33, 0.58, 0.12));
        scale(knee, within(hip_height, 0.33, 0.58, 0.12));
        let thigh = leg.hip.distance(leg.knee);
        let shank = leg.knee.distance(leg.ankle);
        scale(knee, within(thigh / shank.max(1e-6), 0.7, 1.45, 0.5));
    }
    for (arm, (shoulder, elbow, wrist)) in arms.iter().zip([(ShoulderL, ElbowL, WristL), (ShoulderR, ElbowR, WristR)]) {
        if !arm.armpit_found {
            scale(shoulder, FALLBACK);
            scale(elbow, 0.8);
        }
        if !arm.hand_found {
            scale(wrist, 0.8);
        }
        let upper = arm.shoulder.distance(arm.elbow) / h;
        let fore = arm.elbow.distance(arm.wrist) / h;
        scale(elbow, within(upper / fore.max(1e-6), 0.75, 1.6, 0.5));
        scale(shoulder, within(frame.rel_y(arm.shoulder), 0.45, 0.86, 0.12));
        scale(wrist, within(upper + fore, 0.22, 0.42, 0.12));
    }
    let half_width = 0.5 * (at(ShoulderL).x - at(ShoulderR).x) / h;
    scale(ShoulderL, within(half_width, 0.06, 0.16, 0.08));
    scale(ShoulderR, within(half_width, 0.06, 0.16, 0.08));
    // Inside the body, at least a voxel deep.
    for j in LIMBS {
        let depth_cells = body.depth_at(at(j)) / body.cell_m;
        scale(j, 0.5 + 0.5 * (depth_cells / 1.5).min(1.0));
    }
    let limb: Vec<f32> = LIMBS.iter().map(|j| sure[j.index()]).collect();
    let mean = limb.iter().sum::<f32>() / limb.len() as f32;
    let worst = limb.iter().copied().fold(1.0f32, f32::min);
    // The search penalty measures unusual proportions more than misplaced joints (a big-headed
    // body scores 26 with its limbs within 3 %): a soft factor.
    let confidence = (-penalty / 30.0).exp() * mean * (0.6 + 0.4 * worst);
    (sure, confidence.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_is_one_inside_and_falls_off_outside() {
        assert_eq!(within(0.5, 0.4, 0.6, 0.1), 1.0);
        assert!((within(0.65, 0.4, 0.6, 0.1) - 0.5).abs() < 1e-5);
        assert_eq!(within(0.1, 0.4, 0.6, 0.1), 0.0);
    }
}
