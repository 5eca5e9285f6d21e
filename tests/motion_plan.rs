//! The rule engine on the demo scores: footprints, facing and flights match the notation.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::motion::plan::{Foot, LimbId};
use labanplay::motion::rules::{MotionOptions, plan_score};
use labanplay::read::read;
use labanplay::score::Score;

fn plan(bytes: &[u8]) -> Vec<labanplay::motion::plan::DancerPlan> {
    let score = Score::from_document(&read(bytes, Some("lbn")).unwrap());
    plan_score(&score, &MotionOptions::default()).0
}

#[test]
fn walk_demo_steps_forward_one_step_length_per_beat_then_turns_half() {
    let p = &plan(labanplay::demo::WALK_ARMS_TURN_LBN)[0];
    // ♩ = 60: four forward steps of 0.70 m (0.40 × 1.75) land at 0, 1, 2, 3 s (+ swing).
    let steps: Vec<_> = p.footprints.iter().filter(|f| f.t_land_secs > 0.0 && f.pivot_secs.is_none()).take(4).collect();
    assert_eq!(steps.len(), 4);
    for (k, f) in steps.iter().enumerate() {
        assert_eq!(f.foot, if k % 2 == 0 { Foot::Right } else { Foot::Left });
        assert!(
            (f.position_in_world.z - 0.70 * (k as f32 + 1.0)).abs() < 1e-4,
            "step {k} at z={}",
            f.position_in_world.z
        );
        assert!((f.t_land_secs - (k as f64 + 0.45)).abs() < 1e-9);
    }
    // Half turn clockwise on the left foot during beat 5 (t = 4..5 s).
    let yaw_end = p.yaw.value_at(5.0, 0.0).to_degrees();
    assert!((yaw_end + 180.0).abs() < 1e-3, "yaw {yaw_end}");
    let pivot = p.footprints.iter().find(|f| f.pivot_secs.is_some()).unwrap();
    assert_eq!(pivot.foot, Foot::Left);
    assert_eq!(pivot.pivot_secs, Some((4.0, 5.0)));
    // Arms: side middle arriving at t = 1.
    let arm = p.limbs.get(&LimbId::ArmRight).unwrap();
    let (_, to, s) = arm.segment_at(1.0).unwrap();
    assert!(s >= 0.999 || (to.dir_in_body - glam::Vec3::X).length() < 1e-6);
    assert!(p.flights.is_empty());
}

#[test]
fn jumps_demo_has_five_flights_with_feet_in_the_air() {
    let p = &plan(labanplay::demo::JUMPS_LBN)[0];
    assert_eq!(p.flights.len(), 5);
    for fl in &p.flights {
        let mid = 0.5 * (fl.t_takeoff_secs + fl.t_land_secs);
        let planted = p.footprints.iter().filter(|f| f.planted_at(mid)).count();
        assert_eq!(planted, 0, "a foot is planted in the flight at {mid}");
    }
}
