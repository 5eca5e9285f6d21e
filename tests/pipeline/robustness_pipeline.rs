//! The whole pipeline on small generated inputs, as the fuzz targets (`tests/fuzz`) run it: `.lbn`
//! and `.json` scores through compose, compile and sampling of poses; ensemble plans through
//! reading and simulation; BVH captures through retargeting and sampling; OBJ meshes through
//! import (and the rig's early refusal). Every joint and position stays finite and every score
//! within its bounds. Few cases each: the suite runs in debug on two cores.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::animation::compile;
use labanplay::ensemble;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;
use labanplay::pose::skeleton::{Proportions, Skeleton};
use labanplay::read::{Sources, json, lbn};
use labanplay::rig::rigged::MIN_BODY_VERTICES;
use labanplay::rig::{RigError, RigOptions, import::read_mesh, rig_mesh};
use labanplay::score::Score;
use labanplay::score::bounds::MAX_SCORE_SECS;
use proptest::prelude::*;
use std::path::Path;

fn assert_finite(pose: &Pose, t_secs: f64) {
    assert!(pose.pelvis_in_world.is_finite(), "pelvis {:?} at {t_secs} s", pose.pelvis_in_world);
    assert!(pose.local_rot.iter().all(|q| q.is_finite()), "a joint at {t_secs} s");
}

/// Composes, compiles and samples `doc` at five instants; every joint finite.
fn poses_are_finite(doc: &labanplay::read::Document) {
    let score = Score::from_document(doc);
    let end = score.duration_secs();
    assert!(end.is_finite() && end <= MAX_SCORE_SECS, "{end} s");
    let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
    let mut poses = Vec::new();
    for k in 0..=4 {
        let t_secs = end * k as f64 / 4.0;
        anim.sample(t_secs, &mut poses);
        poses.iter().for_each(|p| assert_finite(p, t_secs));
    }
}

/// One `.lbn` symbol line: group and item, x offset from the staff centre, y, width, height, level.
fn lbn_symbol() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("Dirn"), Just("Rotn"), Just("Pins"), Just("Volm"), Just("Limb"), Just("Ways")],
        1i32..12,
        -60i32..60,
        prop_oneof![90i32..400, -2_000_000i32..2_000_000],
        prop_oneof![4i32..30, 0i32..2_000_000],
        prop_oneof![10i32..100, 0i32..2_000_000],
        "[LMHB]",
    )
        .prop_map(|(g, item, dx, y, w, h, lvl)| format!("{g} {item} {} {y} 4 {w} {h} {lvl}\n", 133 + dx))
}

/// Keyframe times, durations and turns: mostly ordinary, some huge, negative or non-finite.
fn keyframe_number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0.0f64..8.0).prop_map(|v| format!("{v:.2}")),
        1 => prop_oneof![Just("1e308"), Just("-1"), Just("32565"), Just("01e308"), Just("1e-300"), Just("14400")]
            .prop_map(String::from),
    ]
}

/// A tiny BVH: a hips root with two chained joints, `frames` rows of `values`.
fn bvh(frames: usize, frame_secs: &str, values: &[f64]) -> String {
    let mut text = String::from(
        "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n \
         JOINT LeftUpLeg\n {\n  OFFSET 0.1 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  JOINT LeftLeg\n  {\n   \
         OFFSET 0 -0.45 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n   End Site\n   {\n    OFFSET 0 -0.45 0\n   }\n  }\n }\n}\n",
    );
    text.push_str(&format!("MOTION\nFrames: {frames}\nFrame Time: {frame_secs}\n"));
    for f in 0..frames {
        let row: Vec<String> = (0..12).map(|c| format!("{}", values[(f * 12 + c) % values.len()])).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

/// Every score a plan names is the bundled walk.
struct OneScore;

impl Sources for OneScore {
    fn bytes(&mut self, path: &Path) -> std::io::Result<Vec<u8>> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("lbn") => Ok(labanplay::demo::WALK_ARMS_TURN_LBN.to_vec()),
            _ => Err(std::io::Error::from(std::io::ErrorKind::NotFound)),
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "lbn")
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn small_lbn_scores_sample_finite_poses(symbols in proptest::collection::vec(lbn_symbol(), 1..8)) {
        let mut text = String::from(
            "Stav 0 96 12 1 1 638 B\nStav 1 170 12 1 1 638 B\nStav 2 133 48 1 1 602 L\nBars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\n",
        );
        symbols.iter().for_each(|s| text.push_str(s));
        if let Ok(doc) = lbn::read(text.as_bytes()) {
            poses_are_finite(&doc);
        }
    }

    #[test]
    fn small_keyframe_scores_sample_finite_poses(
        keys in proptest::collection::vec((keyframe_number(), keyframe_number(), "(forward|left|right|place)"), 1..5),
        turn in (keyframe_number(), keyframe_number(), keyframe_number()),
    ) {
        let b: Vec<String> = keys
            .iter()
            .map(|(t, d, dir)| format!(r#"{{"time": {t}, "head": {{"dur": {d}, "dir": "{dir}", "lvl": "normal"}}, "rwrist": {{"dur": {d}, "dir": "{dir}", "lvl": "high"}}}}"#))
            .collect();
        if let Ok(doc) = json::read(format!("[{}]", b.join(",")).as_bytes()) {
            poses_are_finite(&doc);
        }
        let (t, d, deg) = turn;
        let a = format!(
            r#"{{"x": {{"Position0": {{"start time": ["0"], "head": ["Forward", "Normal"]}}, "Position1": {{"start time": ["{t}"], "duration": ["{d}"], "rotation": ["ToLeft", "{deg}"]}}}}}}"#
        );
        if let Ok(doc) = json::read(a.as_bytes()) {
            poses_are_finite(&doc);
        }
    }

    #[test]
    fn small_captures_retarget_to_finite_poses(
        frames in 1usize..5,
        frame_secs in prop_oneof![Just("0.0083333"), Just("0"), Just("1e308"), Just("-1"), Just("1e-300")],
        values in proptest::collection::vec(prop_oneof![4 => -180.0f64..180.0, 1 => Just(1e300), 1 => Just(-1e300)], 1..30),
    ) {
        let skeleton = Skeleton::default();
        if let Ok(motion) = labanplay::mocap::capture_motion(bvh(frames, frame_secs, &values).as_bytes(), None, &skeleton) {
            let end = motion.duration_secs();
            for k in 0..=4 {
                let t_secs = end * k as f64 / 4.0;
                assert_finite(&motion.sample(t_secs), t_secs);
            }
        }
    }

    #[test]
    fn small_obj_meshes_import_finite_and_tiny_ones_are_refused_at_once(
        vertices in proptest::collection::vec(prop_oneof![4 => -2.0f32..2.0, 1 => Just(1e30f32), 1 => Just(0.0f32)], 3..90),
        faces in proptest::collection::vec(proptest::collection::vec(1usize..40, 3..5), 1..30),
    ) {
        let mut text = String::new();
        for v in vertices.chunks_exact(3) {
            text.push_str(&format!("v {} {} {}\n", v[0], v[1], v[2]));
        }
        for f in &faces {
            let idx: Vec<String> = f.iter().map(|i| i.to_string()).collect();
            text.push_str(&format!("f {}\n", idx.join(" ")));
        }
        if let Ok(raw) = read_mesh(text.as_bytes(), Some("obj"), None) {
            prop_assert!(raw.positions_in_input.iter().all(|p| p.is_finite()));
            if raw.positions_in_input.len() < MIN_BODY_VERTICES {
                let err = rig_mesh(&raw, &RigOptions::default(), &mut |_, _| {}).err();
                prop_assert!(matches!(err, Some(RigError::Unriggable(_) | RigError::Absurd(_) | RigError::BadOption(_))), "{err:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn small_plans_read_and_simulate_to_finite_positions(
        count in 1u32..6,
        x in prop_oneof![-4.0f64..4.0, Just(1e9), Just(-1e300)],
        beats in prop_oneof![1.0f64..16.0, Just(0.0), Just(1e12)],
        radius in prop_oneof![0.5f64..3.0, Just(1e9)],
    ) {
        let text = format!(
            "ensemble = 1\nscore = \"walk.lbn\"\n[stage]\nwidth_m = 10\ndepth_m = 8\n[[formation]]\nname = \"a\"\nshape = \"line\"\nfrom = [{x}, 1]\nto = [2, 1]\ncount = {count}\n\
             [[formation]]\nname = \"b\"\nshape = \"circle\"\ncentre = [0, 4]\nradius_m = {radius}\ncount = {count}\n\
             [[group]]\nname = \"g\"\nformation = \"a\"\n[[event]]\nat = \"1:1\"\ngroup = \"g\"\nto = \"b\"\nbeats = {beats}\n"
        );
        if let Ok(plan) = ensemble::read_plan(text.as_bytes(), Path::new("/in-memory"), &mut OneScore) {
            let motion = ensemble::simulate::simulate(&plan);
            let end = motion.end_beats();
            prop_assert!(end.is_finite());
            for i in 0..plan.performers.len() {
                for k in 0..=4 {
                    let t = end * k as f64 / 4.0;
                    prop_assert!(motion.position_at(i, t).is_finite(), "performer {i} at beat {t}");
                }
            }
        }
    }
}
