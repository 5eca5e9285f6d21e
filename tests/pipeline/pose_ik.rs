//! Tests of the analytic limb IK: job validity, reach over deterministic target grids, clamping
//! of unreachable targets, joint limits, end orientation, and degenerate inputs (no NaN out).

#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use glam::{Quat, Vec3};
use labanplay::pose::fk::{joint_positions, joint_world};
use labanplay::pose::ik::{IkError, LimbGoal, LimbIkJob, LimbIkSolution, limb_job, solve_arm, solve_leg, solve_limb};
use labanplay::pose::limits::rotation_angle_between;
use labanplay::pose::{JOINT_COUNT, JointId, Limb, Pose, Side, Skeleton};

fn generic_job(target: Vec3) -> LimbIkJob {
    LimbIkJob {
        parent_rot_in_world: Quat::from_rotation_y(0.6) * Quat::from_rotation_x(-0.3),
        hinge_max_rad: 150f32.to_radians(),
        ..LimbIkJob::new(Vec3::new(0.1, 1.2, -0.3), 0.30, 0.25, target)
    }
}

/// Distances from the root that the generic job can reach.
fn shell(job: &LimbIkJob) -> (f32, f32) {
    let (a, b) = (job.upper_len_m, job.lower_len_m);
    let at = |flex: f32| (a * a + b * b + 2.0 * a * b * flex.cos()).sqrt();
    (at(job.hinge_max_rad), at(job.hinge_min_rad))
}

#[track_caller]
fn assert_finite(s: &LimbIkSolution) {
    assert!(s.root_local.is_finite() && s.mid_local.is_finite(), "{s:?}");
    assert!(s.end_local.is_none_or(|q| q.is_finite()), "{s:?}");
    assert!(s.mid_in_world.is_finite() && s.end_in_world.is_finite(), "{s:?}");
    assert!(s.hinge_rad.is_finite() && s.swivel_rad.is_finite(), "{s:?}");
}

/// Positions recomputed from the solution's rotations, independently of the solver.
fn chain_positions(job: &LimbIkJob, s: &LimbIkSolution) -> (Vec3, Vec3) {
    let root_world = job.parent_rot_in_world * s.root_local;
    let dir = job.rest_dir_in_local.normalize();
    let mid = job.root_in_world + root_world * (dir * job.upper_len_m);
    let end = mid + root_world * s.mid_local * (dir * job.lower_len_m);
    (mid, end)
}

fn grid(half_extent: f32, steps: i32) -> impl Iterator<Item = Vec3> {
    let step = half_extent / steps as f32;
    (-steps..=steps).flat_map(move |i| {
        (-steps..=steps)
            .flat_map(move |j| (-steps..=steps).map(move |k| Vec3::new(i as f32, j as f32, k as f32) * step))
    })
}

#[test]
fn job_validity() {
    let ok = generic_job(Vec3::new(0.1, 0.8, 0.0));
    assert!(ok.validate().is_ok());
    type Case = (LimbIkJob, fn(&IkError) -> bool);
    let cases: Vec<Case> = vec![
        (LimbIkJob { target_in_world: Vec3::NAN, ..ok }, |e| matches!(e, IkError::NonFinite("target_in_world"))),
        (LimbIkJob { target_in_world: Vec3::INFINITY, ..ok }, |e| matches!(e, IkError::NonFinite(_))),
        (LimbIkJob { root_in_world: Vec3::new(0.0, f32::NEG_INFINITY, 0.0), ..ok }, |e| {
            matches!(e, IkError::NonFinite(_))
        }),
        (LimbIkJob { pole_in_world: Some(Vec3::NAN), ..ok }, |e| matches!(e, IkError::NonFinite(_))),
        (LimbIkJob { parent_rot_in_world: Quat::from_xyzw(0.0, f32::NAN, 0.0, 1.0), ..ok }, |e| {
            matches!(e, IkError::NonFinite(_))
        }),
        (LimbIkJob { end_rot_in_world: Some(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)), ..ok }, |e| {
            matches!(e, IkError::NonFinite(_))
        }),
        (LimbIkJob { upper_len_m: 0.0, ..ok }, |e| matches!(e, IkError::BadLength { .. })),
        (LimbIkJob { lower_len_m: -0.1, ..ok }, |e| matches!(e, IkError::BadLength { .. })),
        (LimbIkJob { lower_len_m: f32::NAN, ..ok }, |e| matches!(e, IkError::NonFinite(_))),
        (LimbIkJob { upper_len_m: 0.0, lower_len_m: 0.0, ..ok }, |e| matches!(e, IkError::BadLength { .. })),
        (LimbIkJob { hinge_axis_in_local: Vec3::ZERO, ..ok }, |e| matches!(e, IkError::BadAxes)),
        (LimbIkJob { hinge_axis_in_local: Vec3::new(0.3, -1.0, 0.0), ..ok }, |e| matches!(e, IkError::BadAxes)),
        (LimbIkJob { hinge_min_rad: 1.0, hinge_max_rad: 0.5, ..ok }, |e| matches!(e, IkError::BadHingeRange { .. })),
        (LimbIkJob { hinge_max_rad: 4.0, ..ok }, |e| matches!(e, IkError::BadHingeRange { .. })),
    ];
    for (job, expected) in cases {
        let err = solve_limb(&job).unwrap_err();
        assert!(expected(&err), "{job:?} gave {err:?}");
    }
}

#[test]
fn generic_limb_reaches_every_reachable_grid_target_and_clamps_the_rest() {
    let (mut reached, mut clamped) = (0, 0);
    for offset in grid(0.7, 10) {
        let job = generic_job(Vec3::new(0.1, 1.2, -0.3) + offset);
        let s = solve_limb(&job).unwrap();
        assert_finite(&s);
        let (mid, end) = chain_positions(&job, &s);
        assert!(mid.distance(s.mid_in_world) < 1e-5 && end.distance(s.end_in_world) < 1e-5);
        assert!((mid.distance(job.root_in_world) - job.upper_len_m).abs() < 1e-5);
        assert!((end.distance(mid) - job.lower_len_m).abs() < 1e-5);
        assert!(s.hinge_rad >= job.hinge_min_rad - 1e-6 && s.hinge_rad <= job.hinge_max_rad + 1e-6);
        // The hinge rotation is about the hinge axis only.
        assert!(s.mid_local.xyz().cross(job.hinge_axis_in_local).length() < 1e-6);
        let (lo, hi) = shell(&job);
        let d = offset.length();
        if d > lo + 1e-5 && d < hi - 1e-5 {
            assert!(s.reached && !s.clamped, "{offset} d={d}: {s:?}");
            assert!(end.distance(job.target_in_world) < 1e-4, "{offset}: miss {}", end.distance(job.target_in_world));
            reached += 1;
        } else if d < lo - 1e-5 || d > hi + 1e-5 {
            assert!(s.clamped && !s.reached, "{offset} d={d}: {s:?}");
            let reach = end.distance(job.root_in_world);
            assert!((reach - d.clamp(lo, hi)).abs() < 1e-4, "{offset}: reach {reach}");
            if d > 1e-3 {
                let dir = (end - job.root_in_world).normalize();
                assert!(dir.dot(offset.normalize()) > 1.0 - 1e-5, "{offset}");
            }
            clamped += 1;
        }
        // Free limits: always within them.
        assert!(s.within_limits && s.end_rot_reached);
    }
    assert!(reached > 1500 && clamped > 1500, "reached {reached}, clamped {clamped}");
}

#[test]
fn degenerate_inputs_give_finite_flagged_results() {
    let root = Vec3::new(0.1, 1.2, -0.3);
    let jobs = [
        generic_job(root),
        generic_job(root + Vec3::splat(1e-9)),
        generic_job(Vec3::splat(1e30)),
        generic_job(Vec3::new(-3e38, 3e38, 0.0)),
        LimbIkJob { pole_in_world: Some(Vec3::ZERO), ..generic_job(root + Vec3::Y * 0.3) },
        LimbIkJob { pole_in_world: Some(Vec3::Y), ..generic_job(root + Vec3::Y * 0.3) },
        LimbIkJob { pole_in_world: Some(Vec3::new(0.0, 1e-30, 0.0)), ..generic_job(root + Vec3::X * 0.3) },
        // Equal lengths and a full hinge: the target at the root is (almost) reachable.
        LimbIkJob { upper_len_m: 0.3, lower_len_m: 0.3, hinge_max_rad: std::f32::consts::PI, ..generic_job(root) },
        LimbIkJob { upper_len_m: 1e-30, lower_len_m: 1e-30, ..generic_job(root + Vec3::X) },
        LimbIkJob { upper_len_m: 1e30, lower_len_m: 1e-30, ..generic_job(root + Vec3::X) },
        LimbIkJob { parent_rot_in_world: Quat::from_xyzw(0.0, 0.0, 0.0, 1e-3), ..generic_job(root + Vec3::X * 0.3) },
        LimbIkJob { end_rot_in_world: Some(Quat::from_xyzw(3.0, 0.0, 0.0, 1.0)), ..generic_job(root) },
    ];
    for job in jobs {
        let s = solve_limb(&job).unwrap();
        assert_finite(&s);
        let d = job.target_in_world.distance(job.root_in_world);
        if d < 0.01 && job.upper_len_m != job.lower_len_m {
            assert!(s.clamped && !s.reached, "{job:?}");
        }
        if d > 1e3 {
            assert!(s.clamped && !s.reached, "{job:?}");
        }
    }
}

/// Largest distance from the limb root that the skeleton limb can reach, and the smallest.
fn skeleton_shell(skeleton: &Skeleton, limb: Limb) -> (f32, f32) {
    let job = limb_job(skeleton, &Pose::rest(skeleton), limb, &LimbGoal::default());
    shell(&job)
}

fn check_limb_grid(limb: Limb, body_turn: Quat, center_offset: Vec3) -> (usize, usize) {
    let skeleton = Skeleton::default();
    let mut base = Pose::rest(&skeleton);
    base.set_local(JointId::Pelvis, body_turn);
    let (_, root_pos) = joint_world(&skeleton, &base, limb.root);
    let (lo, hi) = skeleton_shell(&skeleton, limb);
    let (mut total, mut in_limits) = (0, 0);
    let mut positions = [Vec3::ZERO; JOINT_COUNT];
    for offset in grid(hi, 8) {
        let offset = offset + center_offset;
        let d = offset.length();
        if d < lo + 1e-3 || d > hi - 1e-3 {
            continue;
        }
        let target = root_pos + offset;
        let mut pose = base.clone();
        let goal = LimbGoal { end_in_world: target, ..LimbGoal::default() };
        let s = if limb == Limb::arm(Side::Left) || limb == Limb::arm(Side::Right) {
            let side = limb.root.side().unwrap();
            solve_arm(&skeleton, &mut pose, side, &goal).unwrap()
        } else {
            let side = limb.root.side().unwrap();
            solve_leg(&skeleton, &mut pose, side, &goal).unwrap()
        };
        assert_finite(&s);
        joint_positions(&skeleton, &pose, &mut positions).unwrap();
        let end = positions[limb.end.index()];
        assert!(s.reached && !s.clamped, "{limb:?} {offset}: {s:?}");
        assert!(end.distance(target) < 1e-4, "{limb:?} {offset}: miss {} m", end.distance(target));
        for joint in JointId::ALL {
            if let Some(parent) = joint.parent() {
                let len = positions[joint.index()].distance(positions[parent.index()]);
                assert!((len - skeleton.bone_length_m(joint)).abs() < 1e-5, "{joint:?}");
            }
        }
        // The hinge always respects its range; the root does when the solver says so.
        assert!(skeleton.limits(limb.mid).contains(pose.local(limb.mid)), "{limb:?} {offset}");
        if s.within_limits {
            assert!(skeleton.limits(limb.root).contains(pose.local(limb.root)), "{limb:?} {offset}");
            in_limits += 1;
        }
        total += 1;
    }
    (total, in_limits)
}

#[test]
fn arms_reach_grid_targets_within_a_tenth_of_a_millimetre() {
    let turn = Quat::from_rotation_y(0.8) * Quat::from_rotation_x(0.2);
    for side in [Side::Left, Side::Right] {
        let (total, in_limits) = check_limb_grid(Limb::arm(side), turn, Vec3::ZERO);
        println!("arm {side:?}: {total} targets, {in_limits} within limits");
        assert!(total > 500 && in_limits * 2 > total, "{total} {in_limits}");
    }
}

#[test]
fn legs_reach_grid_targets_within_a_tenth_of_a_millimetre() {
    for side in [Side::Left, Side::Right] {
        let (total, in_limits) = check_limb_grid(Limb::leg(side), Quat::from_rotation_y(-2.0), Vec3::ZERO);
        println!("leg {side:?}: {total} targets, {in_limits} within limits");
        assert!(total > 500 && in_limits * 3 > total, "{total} {in_limits}");
    }
}

/// For many targets, if sweeping the pole by hand finds a limit-respecting swivel interval at
/// least 6° wide, the searching solver must find a limit-respecting solution too.
#[test]
fn joint_limits_hold_whenever_a_feasible_swivel_exists() {
    let skeleton = Skeleton::default();
    let pose = Pose::rest(&skeleton);
    let (mut feasible, mut infeasible) = (0, 0);
    for (limb, scale) in [(Limb::arm(Side::Left), 0.55), (Limb::leg(Side::Right), 0.9)] {
        let (_, root_pos) = joint_world(&skeleton, &pose, limb.root);
        for offset in grid(scale, 4) {
            let goal = LimbGoal { end_in_world: root_pos + offset, ..LimbGoal::default() };
            let job = limb_job(&skeleton, &pose, limb, &goal);
            let axis = offset.normalize_or(Vec3::Y);
            let (u, v) = axis.any_orthonormal_pair();
            let sweep: Vec<bool> = (0..360)
                .map(|deg| {
                    let a = (deg as f32).to_radians();
                    let pole = u * a.cos() + v * a.sin();
                    let forced = LimbIkJob { pole_in_world: Some(pole), search_swivel: false, ..job };
                    solve_limb(&forced).unwrap().within_limits
                })
                .collect();
            // Longest circular run of feasible samples.
            let mut longest = 0;
            let mut run = 0;
            for ok in sweep.iter().chain(sweep.iter()) {
                run = if *ok { run + 1 } else { 0 };
                longest = longest.max(run.min(360));
            }
            let s = solve_limb(&job).unwrap();
            assert_finite(&s);
            if longest >= 7 {
                assert!(s.within_limits, "{limb:?} {offset}: feasible run {longest}° but solver failed");
                let root_local = s.root_local;
                assert!(skeleton.limits(limb.root).contains(root_local));
                feasible += 1;
            } else if longest == 0 {
                assert!(!s.within_limits, "{limb:?} {offset}");
                infeasible += 1;
            }
        }
    }
    println!("{feasible} targets with a feasible swivel, {infeasible} without");
    assert!(feasible > 100);
}

#[test]
fn foot_orientation_targets_are_met_when_inside_the_ankle_limits() {
    let skeleton = Skeleton::default();
    let base = Pose::rest(&skeleton);
    let (_, hip) = joint_world(&skeleton, &base, JointId::HipL);
    let mut met = 0;
    for (i, offset) in grid(0.35, 3).enumerate() {
        let target = hip + Vec3::new(0.0, -0.6, 0.1) + offset;
        let foot = Quat::from_rotation_y(0.1 * (i % 7) as f32 - 0.2) * Quat::from_rotation_x(0.15 * (i % 5) as f32);
        let mut pose = base.clone();
        let goal = LimbGoal { end_in_world: target, end_rot_in_world: Some(foot), pole_in_world: None };
        let s = solve_leg(&skeleton, &mut pose, Side::Left, &goal).unwrap();
        assert_finite(&s);
        let (ankle_rot, ankle_pos) = joint_world(&skeleton, &pose, JointId::AnkleL);
        if !s.clamped {
            assert!(ankle_pos.distance(target) < 1e-4);
        }
        assert!(skeleton.limits(JointId::AnkleL).contains(pose.local(JointId::AnkleL)));
        if s.end_rot_reached {
            assert!(rotation_angle_between(ankle_rot, foot) < 1e-4, "{offset}");
            met += 1;
        }
    }
    assert!(met > 200, "{met}");
}

#[test]
fn bad_targets_leave_the_pose_unchanged() {
    let skeleton = Skeleton::default();
    let mut pose = Pose::rest(&skeleton);
    let before = pose.clone();
    let goal = LimbGoal { end_in_world: Vec3::new(f32::NAN, 1.0, 0.0), ..LimbGoal::default() };
    assert!(solve_arm(&skeleton, &mut pose, Side::Left, &goal).is_err());
    let goal = LimbGoal { end_in_world: Vec3::ONE, end_rot_in_world: Some(Quat::NAN), pole_in_world: None };
    assert!(solve_leg(&skeleton, &mut pose, Side::Right, &goal).is_err());
    assert_eq!(pose, before);
}

#[test]
fn rest_targets_give_the_rest_pose() {
    let skeleton = Skeleton::default();
    let rest = Pose::rest(&skeleton);
    for limb in [Limb::arm(Side::Left), Limb::arm(Side::Right), Limb::leg(Side::Left), Limb::leg(Side::Right)] {
        let (_, end) = joint_world(&skeleton, &rest, limb.end);
        // A target slightly above the straight limb's reach bends it a little, in the pole direction.
        let mut pose = rest.clone();
        let goal = LimbGoal { end_in_world: end + Vec3::Y * 0.01, ..LimbGoal::default() };
        let s = labanplay::pose::ik::solve_limb_in_pose(&skeleton, &mut pose, limb, &goal).unwrap();
        assert!(s.reached && s.within_limits, "{limb:?}");
        let (_, mid) = joint_world(&skeleton, &pose, limb.mid);
        let (_, mid_rest) = joint_world(&skeleton, &rest, limb.mid);
        let bend = mid - mid_rest;
        if limb.mid == JointId::KneeL || limb.mid == JointId::KneeR {
            assert!(bend.z > 0.005 && bend.x.abs() < 1e-4, "{limb:?} knee moved {bend}");
        } else {
            assert!(bend.z < -0.005 && bend.x.abs() < 1e-4, "{limb:?} elbow moved {bend}");
        }
        assert!(rotation_angle_between(pose.local(limb.root), Quat::IDENTITY) < 0.2);
    }
}

/// Mirror image across the body's midline (the YZ plane).
fn mirror_rot(q: Quat) -> Quat {
    Quat::from_xyzw(q.x, -q.y, -q.z, q.w)
}

#[test]
fn left_and_right_limbs_solve_mirrored_goals_symmetrically() {
    let skeleton = Skeleton::default();
    let rest = Pose::rest(&skeleton);
    let mirror = Vec3::new(-1.0, 1.0, 1.0);
    let mut compared = 0;
    for (left, right) in
        [(Limb::arm(Side::Left), Limb::arm(Side::Right)), (Limb::leg(Side::Left), Limb::leg(Side::Right))]
    {
        let (_, root) = joint_world(&skeleton, &rest, left.root);
        for (i, offset) in grid(0.7, 4).enumerate() {
            let target = root + offset;
            let foot = (i % 3 == 0).then(|| Quat::from_rotation_y(0.3) * Quat::from_rotation_x(0.2));
            let goal_l = LimbGoal { end_in_world: target, end_rot_in_world: foot, pole_in_world: None };
            let goal_r =
                LimbGoal { end_in_world: target * mirror, end_rot_in_world: foot.map(mirror_rot), pole_in_world: None };
            let (mut pose_l, mut pose_r) = (rest.clone(), rest.clone());
            let s_l = labanplay::pose::ik::solve_limb_in_pose(&skeleton, &mut pose_l, left, &goal_l).unwrap();
            let s_r = labanplay::pose::ik::solve_limb_in_pose(&skeleton, &mut pose_r, right, &goal_r).unwrap();
            assert_eq!(s_l.within_limits, s_r.within_limits, "{left:?} {offset}");
            assert_eq!(s_l.clamped, s_r.clamped, "{left:?} {offset}");
            for (jl, jr) in [(left.root, right.root), (left.mid, right.mid), (left.end, right.end)] {
                let err = rotation_angle_between(pose_l.local(jl), mirror_rot(pose_r.local(jr)));
                assert!(err < 1e-3, "{jl:?} {offset}: {err}");
            }
            compared += 1;
        }
    }
    assert!(compared > 1000);
}

/// A straight arm swept in 0.5° steps across the shoulder's limits (horizontally from the side
/// through forward to beyond the adduction limit across the front, and down the back past the
/// extension limit), solved and clamped to the limits as the sampler does: the elbow, wrist and
/// hand move at most a little more than the goal does in a step, and the upper arm's twist
/// changes by at most 2° (a straight arm's swivel changes no limit but the twist, and float noise
/// in its elbow angle once flipped that twist by up to 90° from one step to the next).
#[test]
fn a_straight_arm_swept_across_its_limits_never_jumps() {
    let skeleton = Skeleton::default();
    let rest = Pose::rest(&skeleton);
    for side in [Side::Left, Side::Right] {
        let limb = Limb::arm(side);
        let (_, shoulder) = joint_world(&skeleton, &rest, limb.root);
        let reach = skeleton.rest_offset(limb.mid).length() + skeleton.rest_offset(limb.end).length();
        let out = Vec3::X * side.sign_x();
        let hand = if side == Side::Left { JointId::HandL } else { JointId::HandR };
        // The two sweeps' directions at step i.
        let across = |i: usize| {
            let a = (90.0 - 0.5 * i as f32).to_radians();
            (out * a.cos() + Vec3::Z * a.sin()).normalize()
        };
        let back = |i: usize| {
            let a = (0.5 * i as f32).to_radians();
            (Vec3::NEG_Y * a.cos() - Vec3::Z * a.sin()).normalize()
        };
        for (name, n) in [("across", 330), ("back", 240)] {
            let dir = |i: usize| if name == "across" { across(i) } else { back(i) };
            let mut last: Option<(Vec3, Vec3, Vec3, f32)> = None;
            for i in 0..=n {
                let mut pose = rest.clone();
                let goal = LimbGoal { end_in_world: shoulder + dir(i) * reach, ..LimbGoal::default() };
                solve_arm(&skeleton, &mut pose, side, &goal).unwrap();
                for j in [limb.root, limb.mid] {
                    pose.set_local(j, skeleton.limits(j).clamp(pose.local(j)));
                }
                let at = |j: JointId| joint_world(&skeleton, &pose, j).1;
                let twist = labanplay::pose::limits::swing_twist_angles(pose.local(limb.root)).y;
                let now = (at(limb.mid), at(limb.end), at(hand), twist);
                if let Some(prev) = last {
                    let step_m = reach * 0.5f32.to_radians();
                    for (what, a, b) in [("elbow", prev.0, now.0), ("wrist", prev.1, now.1), ("hand", prev.2, now.2)] {
                        let moved = a.distance(b);
                        assert!(moved <= 2.0 * step_m + 1e-3, "{side:?} {name} step {i}: {what} moved {moved} m");
                    }
                    let turned = (now.3 - prev.3).abs().to_degrees();
                    assert!(turned <= 2.0, "{side:?} {name} step {i}: the upper arm's twist turned {turned}°");
                }
                last = Some(now);
            }
        }
    }
}
