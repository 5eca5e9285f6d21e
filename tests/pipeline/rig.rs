//! Tests of a rigged built-in model (`body::rig`): skinning in the bind pose reproduces the
//! mesh, the weights live on skeleton joints, and a pose sampled from the demo score keeps the
//! skinned feet on the skeleton's ankles, on the floor, and free of NaN.

#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use std::sync::OnceLock;

use glam::Vec3;
use labanplay::animation::compile;
use labanplay::body::polygonise::PolygoniseParams;
use labanplay::body::rig::{Rig, find_model, rig_model};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_positions};
use labanplay::pose::{JOINT_COUNT, JointId, Skeleton};

fn rig() -> &'static Rig {
    static RIG: OnceLock<Rig> = OnceLock::new();
    RIG.get_or_init(|| rig_model(&find_model("man-classical").unwrap(), &PolygoniseParams::default()).unwrap())
}

fn demo_score(bytes: &[u8]) -> labanplay::score::Score {
    labanplay::score::Score::from_document(&labanplay::read::read(bytes, Some("lbn")).unwrap())
}

#[test]
fn bind_pose_skins_to_the_bind_mesh_and_weights_use_skeleton_joints() {
    let rig = rig();
    assert_eq!(Skeleton::new(rig.proportions()), rig.skeleton);
    let (mut palette, mut positions, mut normals) = (Vec::new(), Vec::new(), Vec::new());
    rig.skin(&rig.bind_pose, &mut palette, &mut positions, &mut normals).unwrap();
    assert_eq!(palette.len(), JOINT_COUNT);
    assert_eq!(positions.len(), rig.mesh.vertex_count());
    for ((p, q), (n, m)) in
        positions.iter().zip(&rig.mesh.positions_in_model).zip(normals.iter().zip(&rig.mesh.normals_in_model))
    {
        assert!(p.distance(*q) < 1e-5, "{p} vs {q}");
        assert!(n.distance(*m) < 1e-4, "{n} vs {m}");
    }
    let mut used = [false; JOINT_COUNT];
    for inf in &rig.influences {
        assert!((inf.weights.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        for (&j, &w) in inf.joints.iter().zip(&inf.weights) {
            assert!(usize::from(j) < JOINT_COUNT);
            if w > 0.0 {
                used[usize::from(j)] = true;
            }
        }
    }
    // Every model joint moves some skin; the knuckles have no model bone.
    for joint in JointId::ALL {
        let expected = !matches!(joint, JointId::HandL | JointId::HandR);
        assert_eq!(used[joint.index()], expected, "{joint:?}");
    }
    // Left-side skin (x > 0 at bind) follows left joints: the sides are not swapped.
    for (p, inf) in rig.mesh.positions_in_model.iter().zip(&rig.influences) {
        let side = JointId::from_index(inf.dominant_joint()).and_then(|j| j.side());
        if let Some(side) = side
            && p.x.abs() > 0.05
        {
            assert_eq!(side.sign_x(), p.x.signum(), "vertex at {p}");
        }
    }
}

#[test]
fn rest_pose_moves_only_the_limbs() {
    let rig = rig();
    let (mut palette, mut positions, mut normals) = (Vec::new(), Vec::new(), Vec::new());
    rig.skin(&Pose::rest(&rig.skeleton), &mut palette, &mut positions, &mut normals).unwrap();
    let trunk = [JointId::Pelvis, JointId::Spine, JointId::Chest, JointId::Neck, JointId::Head];
    let mut trunk_vertices = 0;
    for ((p, q), inf) in positions.iter().zip(&rig.mesh.positions_in_model).zip(&rig.influences) {
        assert!(p.is_finite());
        if inf.weights[0] > 0.9 && trunk.iter().any(|j| j.index() == inf.dominant_joint()) {
            trunk_vertices += 1;
            // The bind pose bends the spine and neck slightly (the model's spine curve).
            assert!(p.distance(*q) < 0.03, "trunk vertex moved from {q} to {p}");
        }
    }
    assert!(trunk_vertices > 300, "{trunk_vertices}");
}

#[test]
fn skinned_feet_follow_the_ankles_in_the_demo() {
    let rig = rig();
    let anim = compile(&demo_score(labanplay::demo::WALK_ARMS_TURN_LBN), &MotionOptions::default(), rig.proportions());
    assert_eq!(anim.skeleton, rig.skeleton, "the animation must run on the rig's skeleton");
    let dancer = anim.dancers.first().unwrap();
    // Per foot: the vertices that move with the ankle or ball, and their largest bind distance.
    let mut bind_joints = [glam::Vec3::ZERO; JOINT_COUNT];
    joint_positions(&rig.skeleton, &rig.bind_pose, &mut bind_joints).unwrap();
    let feet = [(JointId::AnkleL, JointId::BallL), (JointId::AnkleR, JointId::BallR)].map(|(ankle, ball)| {
        let vertices: Vec<usize> = (0..rig.mesh.vertex_count())
            .filter(|&v| {
                [ankle.index(), ball.index()].contains(&rig.influences[v].dominant_joint())
                    && rig.influences[v].weights[0] > 0.9
            })
            .collect();
        let reach_m = vertices
            .iter()
            .map(|&v| rig.mesh.positions_in_model[v].distance(bind_joints[ankle.index()]))
            .fold(0.0f32, f32::max);
        (ankle, vertices, reach_m)
    });
    assert!(feet.iter().all(|(_, v, reach)| v.len() > 50 && *reach < 0.3), "{:?}", feet.map(|f| (f.1.len(), f.2)));
    let (mut pose, mut palette, mut positions, mut normals) =
        (Pose::rest(&anim.skeleton), Vec::new(), Vec::new(), Vec::new());
    let mut joints = [Vec3::ZERO; JOINT_COUNT];
    let mut lowest_m = f32::INFINITY;
    let steps = 40;
    for k in 0..=steps {
        let t_secs = anim.duration_secs * f64::from(k) / f64::from(steps);
        dancer.sample_into(&anim.skeleton, t_secs, &mut pose);
        rig.skin(&pose, &mut palette, &mut positions, &mut normals).unwrap();
        assert!(positions.iter().chain(&normals).all(|p| p.is_finite()), "NaN at {t_secs} s");
        joint_positions(&anim.skeleton, &pose, &mut joints).unwrap();
        for (ankle, vertices, reach_m) in &feet {
            let ankle_in_world = joints[ankle.index()];
            for &v in vertices {
                let d = positions[v].distance(ankle_in_world);
                assert!(d < reach_m + 0.01, "t = {t_secs} s: {ankle:?} vertex {d} m from the ankle (bind {reach_m})");
                lowest_m = lowest_m.min(positions[v].y);
            }
        }
    }
    // The feet touch the floor but do not sink through it.
    assert!((-0.03..0.02).contains(&lowest_m), "lowest foot vertex at y = {lowest_m}");
}
