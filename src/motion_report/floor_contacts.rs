//! Floor supports the body could not keep: a kneeling knee, a hand bearing weight or the seat
//! that is not on its place on the floor while the score holds the body on it.

use super::{Compromise, Part};
use crate::animation::DancerAnimation;
use crate::motion::floor::{KNEE_CONTACT_HEIGHT_M, LegSupport, SEAT_HIP_HEIGHT_M};
use crate::pose::fk::{Pose, joint_world};
use crate::pose::skeleton::{JointId, Skeleton};
use glam::Vec3;

/// A supporting knee, hand or seat farther than this from its place counts as off the floor,
/// metres (the floor poses keep them within 1.5 cm; the hand's wrist may stay a little higher
/// where it cannot lay the hand flat).
pub(super) const SUPPORT_MISS_M: f32 = 0.03;

/// The supports `dancer` misses at `t_secs` with its body in `pose` (already sampled at that
/// time): (kind, part, metres off). A part is checked while it stays on the same place from one
/// floor state to the next (or has settled there), not while it moves onto or off the floor.
pub(super) fn floor_support_misses(
    skeleton: &Skeleton,
    dancer: &DancerAnimation,
    t_secs: f64,
    pose: &Pose,
) -> Vec<(Compromise, Part, f32)> {
    let Some((from, Some(state), s)) = dancer.plan.floor.segment_at(t_secs) else { return Vec::new() };
    // What the body was on before: the same as now once the blend is over.
    let Some(from) = (if s >= 1.0 { Some(state) } else { from }) else { return Vec::new() };
    let at = |j: JointId| joint_world(skeleton, pose, j).1;
    let flat = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    let mut out = Vec::new();
    for (i, knee, wrist, hand, leg, arm) in [
        (0, JointId::KneeL, JointId::WristL, JointId::HandL, Part::LeftLeg, Part::LeftArm),
        (1, JointId::KneeR, JointId::WristR, JointId::HandR, Part::RightLeg, Part::RightArm),
    ] {
        if let (LegSupport::Knee(place), true) = (state.legs[i], from.legs[i] == state.legs[i]) {
            let miss = at(knee).distance(Vec3::new(place.x, KNEE_CONTACT_HEIGHT_M, place.z));
            if miss > SUPPORT_MISS_M {
                out.push((Compromise::KneeOffFloor, leg, miss));
            }
        }
        if let (Some(place), true) = (state.hands[i], from.hands[i] == state.hands[i]) {
            let (w, h) = (at(wrist), at(hand));
            let miss = flat(w).distance(flat(place)).max(w.y.min(h.y));
            if miss > SUPPORT_MISS_M {
                out.push((Compromise::HandOffFloor, arm, miss));
            }
        }
    }
    if state.seat.is_some() && from.seat == state.seat {
        let hips = (at(JointId::HipL) + at(JointId::HipR)) * 0.5;
        let miss = (hips.y - SEAT_HIP_HEIGHT_M).abs();
        if miss > SUPPORT_MISS_M {
            out.push((Compromise::SeatOffFloor, Part::Body, miss));
        }
    }
    out
}
