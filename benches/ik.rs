//! Benchmarks of the pose hot paths: one arm IK solve, one leg IK solve (with a foot
//! orientation), and `local_to_world` for the whole skeleton.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Mat4, Quat, Vec3};
use labanplay::pose::fk::{joint_world, local_to_world};
use labanplay::pose::ik::{LimbGoal, solve_arm, solve_leg};
use labanplay::pose::{JOINT_COUNT, JointId, Pose, Side, Skeleton};

fn pose_benches(c: &mut Criterion) {
    let skeleton = Skeleton::default();
    let rest = Pose::rest(&skeleton);
    let (_, shoulder) = joint_world(&skeleton, &rest, JointId::ShoulderL);
    let (_, ankle) = joint_world(&skeleton, &rest, JointId::AnkleR);

    // Arm reaching forward and out at chest height.
    let arm_goal = LimbGoal { end_in_world: shoulder + Vec3::new(0.2, -0.05, 0.4), ..LimbGoal::default() };
    c.bench_function("ik/arm_solve", |b| {
        let mut pose = rest.clone();
        b.iter(|| solve_arm(&skeleton, black_box(&mut pose), Side::Left, black_box(&arm_goal)))
    });

    // Forward reach with the elbow asked to point up: the pole breaks the shoulder twist limit,
    // so the swivel search samples 9 steps per side and bisects to the limit boundary (~45°).
    let arm_goal_search = LimbGoal {
        end_in_world: shoulder + Vec3::new(0.1, -0.1, 0.35),
        pole_in_world: Some(Vec3::Y),
        end_rot_in_world: None,
    };
    c.bench_function("ik/arm_solve_swivel_search", |b| {
        let mut pose = rest.clone();
        b.iter(|| solve_arm(&skeleton, black_box(&mut pose), Side::Left, black_box(&arm_goal_search)))
    });

    // Worst case: a target behind the back that no swivel makes feasible (all 72 samples).
    let arm_goal_infeasible = LimbGoal { end_in_world: shoulder + Vec3::new(-0.3, 0.0, -0.3), ..LimbGoal::default() };
    c.bench_function("ik/arm_solve_no_feasible_swivel", |b| {
        let mut pose = rest.clone();
        b.iter(|| solve_arm(&skeleton, black_box(&mut pose), Side::Left, black_box(&arm_goal_infeasible)))
    });

    // Planted foot under a lowered pelvis (plié), foot turned out.
    let mut plie = rest.clone();
    plie.pelvis_in_world.y -= 0.12;
    let leg_goal =
        LimbGoal { end_in_world: ankle, end_rot_in_world: Some(Quat::from_rotation_y(-0.3)), pole_in_world: None };
    c.bench_function("ik/leg_solve_with_foot_rotation", |b| {
        let mut pose = plie.clone();
        b.iter(|| solve_leg(&skeleton, black_box(&mut pose), Side::Right, black_box(&leg_goal)))
    });

    let mut posed = rest.clone();
    for (i, q) in posed.local_rot.iter_mut().enumerate() {
        *q = Quat::from_scaled_axis(Vec3::new(0.1, 0.2, -0.1) * i as f32);
    }
    c.bench_function("fk/local_to_world_23_joints", |b| {
        let mut out = [Mat4::IDENTITY; JOINT_COUNT];
        b.iter(|| local_to_world(&skeleton, black_box(&posed), black_box(&mut out)))
    });
}

criterion_group!(benches, pose_benches);
criterion_main!(benches);
