//! A score danced on a spot: its steps taken in place (marking time). Each step lands beside the
//! other foot at the body's foot spacing, in its written heading and timing, so the feet stay
//! planted while the score's travel is left out; and how a repetition follows on from the last.
//!
//! Heading, pivots, levels, jumps and gestures are kept; only the travel is left out (the part of
//! each step from the other foot that is not the stance beside it). A foot that stays down keeps
//! its place, the centre of weight keeps its place among the supports, and the pelvis path is
//! solved again through the moved footprints. A staff that does not travel is danced exactly as
//! written. Each repetition starts where and as the last one ended (walk-arms-turn ends with a half
//! turn, so every second repetition starts facing upstage, and the stances turn about the spot);
//! only what the staff's end and start differ in jumps where it repeats.

use crate::motion::plan::{DancerPlan, Foot, Key, Track, right_of};
use glam::{Mat4, Vec3};

/// Offsets smaller than this (metres) are no travel.
const NO_TRAVEL_M: f32 = 1e-3;

/// `plan` with its steps taken in place, or `None` when it does not travel (then it is danced
/// as written). Every footprint is moved rigidly (a pivot keeps its path round the ball) by the
/// travel of its step: the part of the step from the other foot that is not the stance beside
/// it (`2 × foot_half_spacing_m` to the side, in the landing heading). A foot that stays down
/// from one print to the next keeps its offset. The centre of weight keeps its place among the
/// supports (between two planted feet in the same proportion, over a single one as written).
pub fn in_place(plan: &DancerPlan, foot_half_spacing_m: f32) -> Option<DancerPlan> {
    let prints = &plan.footprints;
    let mut offsets: Vec<Vec3> = Vec::with_capacity(prints.len());
    for (k, fp) in prints.iter().enumerate() {
        let same = prints[..k].iter().rposition(|p| p.foot == fp.foot);
        let other = prints[..k].iter().rposition(|p| p.foot != fp.foot);
        let stays_down = same.is_some_and(|s| {
            prints[s].t_lift_secs >= fp.t_land_secs - 1e-9
                && prints[s].position_end_in_world.distance(fp.position_in_world) < NO_TRAVEL_M
        });
        // The starting position is danced as written.
        let starting = fp.t_land_secs <= prints[0].t_land_secs + 1e-9;
        let offset = match (same, other) {
            _ if starting => Vec3::ZERO,
            (Some(s), _) if stays_down => offsets[s],
            (_, Some(o)) => {
                let step = fp.position_in_world - prints[o].position_end_in_world;
                let beside = right_of(fp.yaw_start_rad)
                    * (fp.foot.right_sign() - prints[o].foot.right_sign())
                    * foot_half_spacing_m;
                offsets[o] + step - beside
            }
            _ => Vec3::ZERO,
        };
        offsets.push(Vec3::new(offset.x, 0.0, offset.z));
    }
    if offsets.iter().all(|o| o.length() < NO_TRAVEL_M) {
        return None;
    }
    let mut out = plan.clone();
    for (fp, o) in out.footprints.iter_mut().zip(&offsets) {
        fp.position_in_world -= *o;
        fp.position_end_in_world -= *o;
    }
    let mut com = Track::default();
    for key in &plan.com_ground.keys {
        let o = offset_at(plan, &offsets, key.t_end_secs, key.value);
        com.push(Key { value: key.value - o, ..*key });
    }
    out.com_ground = com;
    Some(out)
}

/// The travel taken out at `t_secs` for a centre of weight at `com`: a planted foot's offset,
/// between two planted feet their offsets in the proportion the centre stands between them, in
/// the air the offsets of the last support and the next landing in the proportion of the time.
fn offset_at(plan: &DancerPlan, offsets: &[Vec3], t_secs: f64, com: Vec3) -> Vec3 {
    let prints = &plan.footprints;
    let planted: Vec<usize> = [Foot::Left, Foot::Right]
        .iter()
        .filter_map(|&foot| prints.iter().rposition(|p| p.foot == foot && p.planted_at(t_secs)))
        .collect();
    match planted.as_slice() {
        [one] => offsets[*one],
        [a, b] => {
            let (pa, pb) = (prints[*a].position_end_in_world, prints[*b].position_end_in_world);
            let ab = pb - pa;
            let s = if ab.length_squared() > 1e-8 {
                ((com - pa).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
            } else {
                0.5
            };
            offsets[*a].lerp(offsets[*b], s)
        }
        _ => {
            let before = prints.iter().rposition(|p| p.t_lift_secs <= t_secs);
            let after = prints.iter().position(|p| p.t_land_secs >= t_secs);
            match (before, after) {
                (Some(b), Some(a)) => {
                    let (t0, t1) = (prints[b].t_lift_secs, prints[a].t_land_secs);
                    let s = if t1 > t0 { ((t_secs - t0) / (t1 - t0)).clamp(0.0, 1.0) as f32 } else { 1.0 };
                    offsets[b].lerp(offsets[a], s)
                }
                (Some(i), None) | (None, Some(i)) => offsets[i],
                (None, None) => Vec3::ZERO,
            }
        }
    }
}

/// The stance at `t_secs` as a frame on the floor: the middle of the two feet's last prints
/// (the one there is, with only one), turned to the dancer's heading `yaw_rad`.
pub fn stance_frame(plan: &DancerPlan, t_secs: f64, yaw_rad: f32) -> Mat4 {
    let last = |foot: Foot| {
        plan.footprints
            .iter()
            .rfind(|p| p.foot == foot && p.t_land_secs <= t_secs + 1e-9)
            .map(|p| if t_secs >= p.t_lift_secs { p.position_end_in_world } else { p.position_in_world })
    };
    let mid = match (last(Foot::Left), last(Foot::Right)) {
        (Some(l), Some(r)) => 0.5 * (l + r),
        (Some(p), None) | (None, Some(p)) => p,
        (None, None) => plan.com_ground.keys.first().map_or(Vec3::ZERO, |k| k.value),
    };
    Mat4::from_translation(Vec3::new(mid.x, 0.0, mid.z)) * Mat4::from_rotation_y(yaw_rad)
}

/// The floor point a repetition turns the stance about: the fixed point of `repeat` (a turn
/// about +Y and a move along the floor), so a staff whose end stance is turned from its start
/// comes round its spot instead of wandering; the origin when `repeat` hardly turns (a staff
/// that does not turn keeps its start stance on the spot).
pub fn fixed_point(repeat: Mat4) -> Vec3 {
    let (cos, sin) = (repeat.x_axis.x, repeat.x_axis.z);
    if sin.hypot(1.0 - cos) < 0.1 {
        return Vec3::ZERO;
    }
    // (I − R) c = t over (x, z).
    let a = glam::Mat2::from_cols(
        glam::Vec2::new(1.0 - cos, -sin),
        glam::Vec2::new(-repeat.z_axis.x, 1.0 - repeat.z_axis.z),
    );
    let c = a.inverse() * glam::Vec2::new(repeat.w_axis.x, repeat.w_axis.z);
    Vec3::new(c.x, 0.0, c.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::plan::{Contact, Footprint};

    fn print(foot: Foot, x: f32, z: f32, land: f64, lift: f64) -> Footprint {
        Footprint {
            foot,
            position_in_world: Vec3::new(x, 0.0, z),
            position_end_in_world: Vec3::new(x, 0.0, z),
            yaw_start_rad: 0.0,
            yaw_end_rad: 0.0,
            pivot_secs: None,
            pivot_on_heel: false,
            t_step_start_secs: land,
            t_land_secs: land,
            t_lift_secs: lift,
            contact: Contact::Heel,
            releve: false,
            releve_ramp_secs: None,
        }
    }

    #[test]
    fn a_walk_forward_marks_time_beside_the_other_foot() {
        // Right at −X, left at +X (facing +Z); three steps of 0.7 m, the weight over each.
        let mut plan = DancerPlan {
            footprints: vec![
                print(Foot::Left, 0.09, 0.0, 0.0, 0.95),
                print(Foot::Right, -0.09, 0.0, 0.0, 0.5),
                print(Foot::Right, -0.09, 0.7, 0.9, 1.95),
                print(Foot::Left, 0.09, 1.4, 1.9, 3.0),
            ],
            ..DancerPlan::default()
        };
        for (t, z) in [(0.0, 0.0), (1.0, 0.7), (2.0, 1.4)] {
            plan.com_ground.push(Key {
                t_start_secs: (t - 1.0f64).max(0.0),
                t_end_secs: t,
                value: Vec3::new(0.0, 0.0, z),
            });
        }
        let out = in_place(&plan, 0.09).unwrap();
        for fp in &out.footprints {
            assert!(fp.position_in_world.z.abs() < 1e-6, "{fp:?}");
            assert!((fp.position_in_world.x + 0.09 * fp.foot.right_sign()).abs() < 1e-6, "{fp:?}");
        }
        for k in &out.com_ground.keys {
            assert!(k.value.length() < 1e-6, "{k:?}");
        }
        // A half turn that ends 0.28 m on: the stances turn about the point half way.
        let repeat = Mat4::from_translation(Vec3::new(0.18, 0.0, 0.28)) * Mat4::from_rotation_y(std::f32::consts::PI);
        let c = fixed_point(repeat);
        assert!(
            repeat.transform_point3(c).distance(c) < 1e-5 && (c - Vec3::new(0.09, 0.0, 0.14)).length() < 1e-5,
            "{c:?}"
        );
        assert_eq!(fixed_point(Mat4::from_translation(Vec3::X)), Vec3::ZERO);
        // A score that does not travel is danced as written.
        plan.footprints.truncate(2);
        assert!(in_place(&plan, 0.09).is_none());
    }
}
