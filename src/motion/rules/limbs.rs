//! Limb-specific rules: which track a side's arm, leg, hand or palm uses, arms that cross the
//! body passing in front of it, and hands and palms that follow their arm.

use crate::motion::plan::{DancerPlan, Key, LimbId, LimbTarget};
use crate::read::Side;
use glam::{Vec2, Vec3};

/// How far past straight forward an arm reaches across the body, degrees.
pub const ARM_CROSS_MAX_DEG: f32 = 35.0;

/// An arm direction that points across the body (towards the other side, or behind it) passes
/// in front of the body instead of through it **[impl. choice]**: its horizontal part turns to at
/// most [`ARM_CROSS_MAX_DEG`] past forward, keeping its level. Other directions are unchanged.
pub fn cross_in_front(dir_in_body: Vec3, right_arm: bool) -> Vec3 {
    let horizontal = Vec2::new(dir_in_body.x, dir_in_body.z);
    let h = horizontal.length();
    if h < 1e-4 {
        return dir_in_body;
    }
    let across_sign = if right_arm { -1.0 } else { 1.0 };
    let across = dir_in_body.x * across_sign;
    let azimuth = across.atan2(dir_in_body.z);
    let max = ARM_CROSS_MAX_DEG.to_radians();
    if across <= 0.0 || azimuth <= max {
        return dir_in_body;
    }
    Vec3::new(across_sign * h * max.sin(), dir_in_body.y, h * max.cos())
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
        // Back across (right arm, left-back) comes round to the front too.
        assert!(cross_in_front(Vec3::new(-0.7, 0.0, -0.7).normalize(), true).z > 0.0);
    }
}
