//! The contact pass: given every dancer's pose at one time, moves the arms whose hand (or wrist)
//! is in an active contact so it meets the other end: two hands meet halfway, a hand goes to a
//! shoulder or elbow (its front or back). Analytic arm IK; nothing else of the pose changes.

use super::timing::{ContactPart, ContactPoint, TimedContact};
use crate::pose::fk::{Pose, joint_world};
use crate::pose::ik::{LimbGoal, solve_arm};
use crate::pose::skeleton::{JointId, Side, Skeleton};
use crate::score::ContactSurface;
use glam::Vec3;

/// Half the thickness of a hand: joined palms stop this far from their meeting point, metres.
pub const PALM_HALF_THICKNESS_M: f32 = 0.015;

/// A hand on a shoulder or elbow stops this far short of the joint centre, metres.
pub const SURFACE_OFFSET_M: f32 = 0.06;

/// What the pass did at one time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactReport {
    /// Contacts that pulled (weight above zero).
    pub active: usize,
    /// Active, fully held contacts whose ends stayed more than 3 cm apart (out of reach).
    pub out_of_reach: usize,
    /// The largest distance left between the two ends of a fully held contact, metres.
    pub max_gap_m: f32,
}

fn arm_joints(side: Side) -> (JointId, JointId, JointId, JointId) {
    match side {
        Side::Left => (JointId::ShoulderL, JointId::ElbowL, JointId::WristL, JointId::HandL),
        Side::Right => (JointId::ShoulderR, JointId::ElbowR, JointId::WristR, JointId::HandR),
    }
}

/// The palm of the hand on `side`: midway between the wrist and the knuckles, world space.
pub fn palm_in_world(skeleton: &Skeleton, pose: &Pose, side: Side) -> Vec3 {
    let (_, _, wrist, hand) = arm_joints(side);
    joint_world(skeleton, pose, wrist).1.lerp(joint_world(skeleton, pose, hand).1, 0.5)
}

/// Where contact end `p` is in `pose`, world space.
pub fn point_in_world(skeleton: &Skeleton, pose: &Pose, p: ContactPoint) -> Vec3 {
    let (shoulder, elbow, wrist, _) = arm_joints(p.part.side());
    let at = match p.part {
        ContactPart::Hand(s) => return palm_in_world(skeleton, pose, s),
        ContactPart::Wrist(_) => return joint_world(skeleton, pose, wrist).1,
        ContactPart::Elbow(_) => joint_world(skeleton, pose, elbow).1,
        ContactPart::Shoulder(_) => joint_world(skeleton, pose, shoulder).1,
    };
    let (chest_rot, _) = joint_world(skeleton, pose, JointId::Chest);
    let forward = chest_rot * Vec3::Z;
    match p.surface {
        ContactSurface::Any => at,
        ContactSurface::Front => at + forward * SURFACE_OFFSET_M,
        ContactSurface::Back => at - forward * SURFACE_OFFSET_M - Vec3::Y * SURFACE_OFFSET_M,
    }
}

/// How far the point of `p` can be from its shoulder (arm straight), metres.
fn arm_reach_m(skeleton: &Skeleton, pose: &Pose, p: ContactPoint) -> f32 {
    let (_, elbow, wrist, _) = arm_joints(p.part.side());
    let to_point = point_in_world(skeleton, pose, p).distance(joint_world(skeleton, pose, wrist).1);
    skeleton.bone_length_m(elbow) + skeleton.bone_length_m(wrist) + to_point
}

/// Where two hands meet: halfway between them, drawn towards their shoulders until both arms
/// reach it.
fn meeting_point(skeleton: &Skeleton, pa: &Pose, a: ContactPoint, pb: &Pose, b: ContactPoint, mid: Vec3) -> Vec3 {
    let shoulder = |pose: &Pose, p: ContactPoint| joint_world(skeleton, pose, arm_joints(p.part.side()).0).1;
    let (sa, sb) = (shoulder(pa, a), shoulder(pb, b));
    let (ra, rb) = (arm_reach_m(skeleton, pa, a) * 0.97, arm_reach_m(skeleton, pb, b) * 0.97);
    let centre = (sa + sb) * 0.5;
    let mut target = mid;
    for _ in 0..24 {
        if target.distance(sa) <= ra && target.distance(sb) <= rb {
            break;
        }
        target = target.lerp(centre, 0.15);
    }
    target
}

/// Moves the arm of `mover` so its point reaches `target`; returns the distance left.
fn reach(skeleton: &Skeleton, pose: &mut Pose, mover: ContactPoint, target: Vec3) -> f32 {
    let side = mover.part.side();
    let (_, _, wrist, _) = arm_joints(side);
    for _ in 0..3 {
        let now = point_in_world(skeleton, pose, mover);
        if now.distance(target) < 1e-3 {
            break;
        }
        let wrist_now = joint_world(skeleton, pose, wrist).1;
        let goal = LimbGoal { end_in_world: target - (now - wrist_now), pole_in_world: None, end_rot_in_world: None };
        if solve_arm(skeleton, pose, side, &goal).is_err() {
            break;
        }
    }
    point_in_world(skeleton, pose, mover).distance(target)
}

/// Applies every contact active at `t_secs` to `poses` (one per dancer, in staff order).
pub fn apply_contacts(
    skeleton: &Skeleton,
    contacts: &[TimedContact],
    t_secs: f64,
    poses: &mut [Pose],
) -> ContactReport {
    let mut report = ContactReport::default();
    let active: Vec<(&TimedContact, f32)> =
        contacts.iter().map(|c| (c, c.weight_at(t_secs))).filter(|(_, w)| *w > 0.0).collect();
    report.active = active.len();
    if active.is_empty() {
        return report;
    }
    // Two passes: a hand that goes to an elbow follows that arm once it has reached its own end.
    for _ in 0..2 {
        for &(c, w) in &active {
            let [a, b] = c.ends;
            let (Some(pa), Some(pb)) = (poses.get(a.dancer), poses.get(b.dancer)) else { continue };
            let (at_a, at_b) = (point_in_world(skeleton, pa, a), point_in_world(skeleton, pb, b));
            let along = (at_b - at_a).normalize_or_zero();
            let jobs: Vec<(ContactPoint, Vec3, Vec3)> = match (a.part.moves(), b.part.moves()) {
                (true, true) => {
                    let mid = meeting_point(skeleton, pa, a, pb, b, (at_a + at_b) * 0.5);
                    vec![(a, at_a, mid - along * PALM_HALF_THICKNESS_M), (b, at_b, mid + along * PALM_HALF_THICKNESS_M)]
                }
                (true, false) => vec![(a, at_a, at_b - along * PALM_HALF_THICKNESS_M)],
                (false, true) => vec![(b, at_b, at_a + along * PALM_HALF_THICKNESS_M)],
                (false, false) => Vec::new(),
            };
            for (mover, now, target) in jobs {
                if let Some(pose) = poses.get_mut(mover.dancer) {
                    reach(skeleton, pose, mover, now.lerp(target, w));
                }
            }
        }
    }
    for &(c, w) in &active {
        let [a, b] = c.ends;
        let (Some(pa), Some(pb)) = (poses.get(a.dancer), poses.get(b.dancer)) else { continue };
        if w >= 1.0 {
            let gap = point_in_world(skeleton, pa, a).distance(point_in_world(skeleton, pb, b));
            report.max_gap_m = report.max_gap_m.max(gap);
            if gap > 0.03 + 2.0 * PALM_HALF_THICKNESS_M {
                report.out_of_reach += 1;
            }
        }
    }
    report
}
