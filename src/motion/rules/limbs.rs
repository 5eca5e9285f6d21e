//! Limb-specific rules: which track a side's arm, leg, hand or palm uses, arms that cross the body
//! passing in front of it, and hands and palms that follow their arm.
//!
//! An arm pointing across the body passes in front of it instead of through it: the arm is
//! directed from its own shoulder, so the left arm's "right side" lays it across the front of the
//! chest, its horizontal part at most 70° past forward (the shoulder adducts to 85°); a high arm
//! across reaches 35° past forward, beside the head. Where a body's shoulder cannot take the
//! direction, the arm points as near it as that shoulder lets it (the sampler's arm reach). Across
//! behind the body it points straight back (the shoulder extends to 90°). A low leg gesture across the standing leg passes
//! in front of it, or behind it for the back diagonals, at most 20° past forward or back (so does
//! a high one); a leg at middle level (hip height) clears the standing leg and crosses in front
//! as far as the forward diagonal (45°), as far as the hip lets it.

use crate::motion::plan::{DancerPlan, Key, LimbId, LimbTarget};
use crate::read::Side;
use glam::{Vec2, Vec3};

/// How far past straight forward an arm at middle or low level reaches across the body (laid
/// across the chest or the hips), degrees.
pub const ARM_CROSS_MAX_DEG: f32 = 70.0;
/// How far past straight forward a high arm reaches across the body, degrees: the clavicle lifts
/// it over the head (`animation::sample::shoulder_rhythm`), so the other side's high diagonal is
/// reached within about 18°.
pub const ARM_CROSS_HIGH_MAX_DEG: f32 = 65.0;
/// How far past straight back an arm reaches across behind the body, degrees.
pub const ARM_CROSS_BEHIND_MAX_DEG: f32 = 0.0;
/// How far past straight forward (or straight back) a low leg gesture crosses the standing leg,
/// degrees.
pub const LEG_CROSS_MAX_DEG: f32 = 20.0;
/// How far past straight forward a leg gesture at middle level crosses (at hip height, clear of
/// the standing leg: the forward diagonal), degrees.
pub const LEG_CROSS_MIDDLE_MAX_DEG: f32 = 45.0;

/// A direction whose vertical part is within this of level is at middle level (low and high:
/// ∓1/√2).
const MIDDLE_MAX_UP: f32 = 0.5;

/// An arm direction that points across the body (towards the other side) passes in front of
/// the body instead of through it **[impl. choice]**: its horizontal part turns to at most
/// [`ARM_CROSS_MAX_DEG`] past forward ([`ARM_CROSS_HIGH_MAX_DEG`] for a high arm), keeping its
/// level; one that points across behind the body
/// stays behind it, at most [`ARM_CROSS_BEHIND_MAX_DEG`] past straight back. Other directions
/// are unchanged.
pub fn cross_in_front(dir_in_body: Vec3, right_arm: bool) -> Vec3 {
    let high = dir_in_body.y >= MIDDLE_MAX_UP;
    let front_max_deg = if high { ARM_CROSS_HIGH_MAX_DEG } else { ARM_CROSS_MAX_DEG };
    cross_around(dir_in_body, right_arm, front_max_deg, ARM_CROSS_BEHIND_MAX_DEG)
}

/// A leg gesture across the standing leg passes round it **[impl. choice]**: in front of it
/// (forward and side across) or behind it (back across), at most [`LEG_CROSS_MAX_DEG`] past
/// straight forward or back, keeping its level; at middle level it clears the standing leg and
/// crosses in front as far as [`LEG_CROSS_MIDDLE_MAX_DEG`] (barn.lbn's legs forward across), the
/// hip's range permitting.
pub fn leg_cross(dir_in_body: Vec3, right_leg: bool) -> Vec3 {
    let middle = dir_in_body.y.abs() < MIDDLE_MAX_UP;
    let front_max_deg = if middle { LEG_CROSS_MIDDLE_MAX_DEG } else { LEG_CROSS_MAX_DEG };
    cross_around(dir_in_body, right_leg, front_max_deg, LEG_CROSS_MAX_DEG)
}

/// Turns the horizontal part of a direction that points across the body (towards the other
/// side than `right`'s) to at most `front_max_deg` past forward when it points forward or to
/// the side, or `back_max_deg` past back when it points backwards. The rule only looks at how
/// far across the direction points, so mirrored directions give mirrored results.
fn cross_around(dir_in_body: Vec3, right: bool, front_max_deg: f32, back_max_deg: f32) -> Vec3 {
    let horizontal = Vec2::new(dir_in_body.x, dir_in_body.z);
    let h = horizontal.length();
    if h < 1e-4 {
        return dir_in_body;
    }
    let across_sign = if right { -1.0 } else { 1.0 };
    let across = dir_in_body.x * across_sign;
    if across <= 1e-6 {
        return dir_in_body;
    }
    let behind = dir_in_body.z < -1e-6;
    let (azimuth, max) = if behind {
        (across.atan2(-dir_in_body.z), back_max_deg.to_radians())
    } else {
        (across.atan2(dir_in_body.z), front_max_deg.to_radians())
    };
    if azimuth <= max {
        return dir_in_body;
    }
    let z = if behind { -h * max.cos() } else { h * max.cos() };
    Vec3::new(across_sign * h * max.sin(), dir_in_body.y, z)
}

pub(super) fn arm(side: Side) -> LimbId {
    if side == Side::Left { LimbId::ArmLeft } else { LimbId::ArmRight }
}

pub(super) fn leg(side: Side) -> LimbId {
    if side == Side::Left { LimbId::LegLeft } else { LimbId::LegRight }
}

pub(super) fn hand(side: Side) -> LimbId {
    if side == Side::Left { LimbId::HandLeft } else { LimbId::HandRight }
}

pub(super) fn palm(side: Side) -> LimbId {
    if side == Side::Left { LimbId::PalmLeft } else { LimbId::PalmRight }
}

pub(super) fn is_hand_or_palm(limb: LimbId) -> bool {
    matches!(limb, LimbId::HandLeft | LimbId::HandRight | LimbId::PalmLeft | LimbId::PalmRight)
}

/// Retention of hand and palm signs: a hand direction or palm facing holds until the next sign
/// in its column, or until an arm gesture on that side that no hand (palm) sign accompanies —
/// one overlapping it in time — which brings the hand back in line with the forearm (the palm
/// back to its natural facing) over that gesture.
pub(super) fn hands_follow_arms(plan: &mut DancerPlan) {
    const EPS_SECS: f64 = 1e-6;
    for (arm, parts) in [
        (LimbId::ArmLeft, [LimbId::HandLeft, LimbId::PalmLeft]),
        (LimbId::ArmRight, [LimbId::HandRight, LimbId::PalmRight]),
    ] {
        let arm_keys: Vec<(f64, f64)> = match plan.limbs.get(&arm) {
            Some(track) => track.keys.iter().map(|k| (k.t_start_secs, k.t_end_secs)).collect(),
            None => continue,
        };
        for part in parts {
            let Some(track) = plan.limbs.get_mut(&part) else { continue };
            for &(t0, t1) in &arm_keys {
                let accompanied =
                    track.keys.iter().any(|k| k.t_start_secs < t1 + EPS_SECS && k.t_end_secs > t0 - EPS_SECS);
                let held = track.keys.iter().rev().find(|k| k.t_end_secs <= t0 + EPS_SECS).map(|k| k.value);
                if accompanied || held.is_none_or(|v| v.dir_in_body == Vec3::ZERO && v.bend_rad == 0.0) {
                    continue;
                }
                let value = LimbTarget {
                    dir_in_body: Vec3::ZERO,
                    bend_rad: 0.0,
                    upper_dir_in_body: None,
                    lower_dir_in_body: None,
                };
                track.push(Key { t_start_secs: t0, t_end_secs: t1.max(t0), value });
            }
        }
    }
}

/// Natural standing for a gesture part: arms hang by the sides, head and chest upright, hands
/// in line with the forearms, palms at their natural facing. `None` for the legs, whose natural
/// state is the supports'.
pub(super) fn natural_target(limb: LimbId) -> Option<LimbTarget> {
    let dir_in_body = match limb {
        LimbId::ArmLeft | LimbId::ArmRight => -Vec3::Y,
        LimbId::Head | LimbId::Chest => Vec3::Y,
        LimbId::HandLeft | LimbId::HandRight | LimbId::PalmLeft | LimbId::PalmRight => Vec3::ZERO,
        LimbId::LegLeft | LimbId::LegRight => return None,
    };
    Some(LimbTarget { dir_in_body, bend_rad: 0.0, upper_dir_in_body: None, lower_dir_in_body: None })
}

/// Before its first symbol a part is where the starting position put it or, with none, in
/// natural standing: a track whose first key is not at time 0 gets a natural key there, so its
/// first symbol moves from that state and only within its own time.
pub(super) fn start_in_natural_standing(plan: &mut DancerPlan) {
    for (limb, track) in plan.limbs.iter_mut() {
        let Some(value) = natural_target(*limb) else { continue };
        if track.keys.first().is_some_and(|k| k.t_end_secs > 0.0) {
            track.keys.insert(0, Key { t_start_secs: 0.0, t_end_secs: 0.0, value });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arms_cross_in_front_of_the_body() {
        // Right arm to the left side, middle: turned to 35° left of forward, still horizontal.
        let d = cross_in_front(Vec3::new(-1.0, 0.0, 0.0), true);
        assert!((d.angle_between(Vec3::Z).to_degrees() - ARM_CROSS_MAX_DEG).abs() < 1e-3 && d.x < 0.0, "{d:?}");
        assert!((d.length() - 1.0).abs() < 1e-5 && d.y.abs() < 1e-6);
        // Left arm to the right side, low: in front, still 45° down.
        let low = Vec3::new(1.0, -1.0, 0.0).normalize();
        let d = cross_in_front(low, false);
        assert!(d.z > 0.0 && d.x > 0.0 && (d.y - low.y).abs() < 1e-6, "{d:?}");
        // Its own side, forward, back, up and down are untouched; so is a slight crossing.
        for (v, right) in [
            (Vec3::X, true),
            (-Vec3::X, false),
            (Vec3::Z, true),
            (-Vec3::Z, true),
            (Vec3::Y, false),
            (-Vec3::Y, true),
            (Vec3::new(-0.3, 0.0, 1.0).normalize(), true),
        ] {
            assert_eq!(cross_in_front(v, right), v);
        }
        // Back across (right arm, left-back) stays behind: straight back.
        let d = cross_in_front(Vec3::new(-0.7, 0.0, -0.7).normalize(), true);
        assert!(d.angle_between(-Vec3::Z) < 1e-5, "{d:?}");
        // A leg across to the other side passes in front of the standing leg (low), clear of it
        // (middle: as far as the diagonal), or behind it.
        let low = Vec3::new(1.0, -1.0, 0.0).normalize();
        let d = leg_cross(low, false);
        let h = Vec3::new(d.x, 0.0, d.z);
        assert!((h.angle_between(Vec3::Z).to_degrees() - LEG_CROSS_MAX_DEG).abs() < 1e-3 && d.x > 0.0, "{d:?}");
        assert!((d.y - low.y).abs() < 1e-6, "{d:?}");
        let d = leg_cross(Vec3::new(1.0, 0.0, 0.0), false);
        assert!((d.angle_between(Vec3::Z).to_degrees() - LEG_CROSS_MIDDLE_MAX_DEG).abs() < 1e-3 && d.x > 0.0, "{d:?}");
        let diagonal = Vec3::new(1.0, 0.0, 1.0).normalize();
        assert_eq!(leg_cross(diagonal, false), diagonal);
        let d = leg_cross(Vec3::new(0.7, 0.0, -0.7).normalize(), false);
        assert!((d.angle_between(-Vec3::Z).to_degrees() - LEG_CROSS_MAX_DEG).abs() < 1e-3 && d.x > 0.0, "{d:?}");
        // Mirrored inputs, mirrored outputs.
        for v in [Vec3::new(-1.0, 0.3, 0.2), Vec3::new(-0.5, -0.5, -0.7), Vec3::new(-0.2, 0.9, 0.1)] {
            let m = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
            assert_eq!(m(cross_in_front(v, true)), cross_in_front(m(v), false));
            assert_eq!(m(leg_cross(v, true)), leg_cross(m(v), false));
        }
    }
}
