//! The shoulder girdle lifts an arm over the head: an arm reaching up over a chest tilted to its
//! side, or high across to the other side, leans past the chest's vertical towards the head,
//! which the shoulder joint alone cannot (its swing ends straight up); the clavicle's elevation
//! tilts the shoulder's frame that far. The clavicle rises by the arm's lean past the vertical,
//! up to [`MAX_ELEVATION_RAD`]; every other arm keeps it at rest and moves as before.

use crate::motion::plan::smoothstep;
use crate::pose::skeleton::Side;
use glam::{Quat, Vec3};

/// The most the clavicle rises for an arm, radians (30°, about what the collarbone gives of a
/// full arm elevation; its limits allow 35°).
const MAX_ELEVATION_RAD: f32 = 30.0 * std::f32::consts::PI / 180.0;
/// The shoulder-to-wrist reach, as a share of the straight arm's, at and below which the
/// clavicle stays down whatever the direction (about an elbow bent by 90°): a bent arm's
/// direction (shoulder to wrist) says little of where its upper arm points…
const BENT_REACH: f32 = 0.7;
/// …and from which it rises in full (an arm straight but for a slight bend).
const STRAIGHT_REACH: f32 = 0.95;
/// The arm's upward component (chest frame) below which the clavicle stays at rest (17° above
/// the shoulder's height: an arm across the chest is not over the head)…
const LOW_UP: f32 = 0.3;
/// …and from which it follows the lean in full (37° above).
const HIGH_UP: f32 = 0.6;
/// The arm's forward component (chest frame) from which the clavicle stays at rest: an arm high
/// in front crosses in front of the face, not over the head…
const FRONT_NONE: f32 = 0.7;
/// …and up to which it follows the lean in full.
const FRONT_FULL: f32 = 0.4;
/// Likewise behind the body (an arm back high, where the shoulder's range ends both over the top
/// and straight back, and its clamp keeps the one it has)…
const BACK_NONE: f32 = -0.45;
/// …and from which in full.
const BACK_FULL: f32 = -0.15;

/// The clavicle's elevation on `side`, radians, for an arm along `dir_in_chest` (the chest's
/// frame: +X the dancer's left, +Y up the spine, +Z forward; any length) reaching `reach_share`
/// of the straight arm's length: its lean past the vertical towards the other side (in the
/// chest's frontal plane), up to [`MAX_ELEVATION_RAD`]; faded out as the arm bends, lowers, or
/// turns to the front or back. Continuous in both.
pub(super) fn clavicle_elevation_rad(side: Side, dir_in_chest: Vec3, reach_share: f32) -> f32 {
    let Some(d) = dir_in_chest.try_normalize() else { return 0.0 };
    let towards_head = if side == Side::Left { -d.x } else { d.x };
    let weight = smoothstep((reach_share - BENT_REACH) / (STRAIGHT_REACH - BENT_REACH))
        * smoothstep((d.y - LOW_UP) / (HIGH_UP - LOW_UP))
        * smoothstep((FRONT_NONE - d.z) / (FRONT_NONE - FRONT_FULL))
        * smoothstep((d.z - BACK_NONE) / (BACK_FULL - BACK_NONE));
    if weight <= 0.0 || towards_head <= 0.0 {
        return 0.0;
    }
    weight * towards_head.atan2(d.y).min(MAX_ELEVATION_RAD)
}

/// The clavicle's local rotation for `elevation_rad` on `side` (its limits' +z elevates the left
/// one; the right is mirrored).
pub(super) fn clavicle_local(side: Side, elevation_rad: f32) -> Quat {
    match side {
        Side::Left => Quat::from_rotation_z(elevation_rad),
        Side::Right => Quat::from_rotation_z(-elevation_rad),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::fk::{Pose, joint_world};
    use crate::pose::skeleton::{JointId, Proportions, Skeleton};

    #[test]
    fn only_an_arm_leaning_over_the_head_raises_the_clavicle_and_smoothly() {
        for side in [Side::Left, Side::Right] {
            let inward = if side == Side::Left { -1.0 } else { 1.0 };
            for d in [Vec3::NEG_Y, Vec3::Y, Vec3::Z, Vec3::new(-inward, 1.0, 0.0), Vec3::new(inward, 0.0, 0.0)] {
                assert_eq!(clavicle_elevation_rad(side, d, 1.0), 0.0, "{side:?} {d}");
            }
            let mut last = 0.0;
            for k in 0..=900 {
                // Straight up, then leaning over the head to the other side's middle level, in
                // tenths of a degree: the clavicle turns less than 3.5° per degree of the arm.
                let a = (k as f32 * 0.1).to_radians();
                let e = clavicle_elevation_rad(side, Vec3::new(inward * a.sin(), a.cos(), 0.0), 1.0);
                assert!((e - last).abs() < 0.006, "{side:?} {k}: {e} after {last}");
                if k == 300 {
                    assert!((e - MAX_ELEVATION_RAD).abs() < 1e-4, "{side:?}: {e} at 30° over the head");
                }
                last = e;
            }
            assert_eq!(last, 0.0, "{side:?} at the other side's middle level");
            let over = Vec3::new(inward * 0.5, 0.87, 0.0);
            assert_eq!(clavicle_elevation_rad(side, over, BENT_REACH), 0.0, "{side:?} bent");
        }
    }

    #[test]
    fn elevation_raises_each_shoulder_within_the_clavicle_limits() {
        let skeleton = Skeleton::new(&Proportions::default());
        for (side, clavicle, shoulder) in [
            (Side::Left, JointId::ClavicleL, JointId::ShoulderL),
            (Side::Right, JointId::ClavicleR, JointId::ShoulderR),
        ] {
            let mut pose = Pose::rest(&skeleton);
            let rest = joint_world(&skeleton, &pose, shoulder).1;
            let local = clavicle_local(side, MAX_ELEVATION_RAD);
            assert!(skeleton.limits(clavicle).contains(local), "{side:?}");
            pose.set_local(clavicle, local);
            let raised = joint_world(&skeleton, &pose, shoulder).1;
            assert!(raised.y > rest.y + 0.02, "{side:?}: {rest} → {raised}");
            assert!(raised.x.abs() < rest.x.abs(), "{side:?} moves in as it rises: {rest} → {raised}");
        }
    }
}
