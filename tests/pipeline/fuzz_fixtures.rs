//! Every input that once crashed, hung or ballooned (`tests/fixtures/fuzz/`) gets its warning or
//! error, with its line, and the pipeline stays small and finite: the score within its bounds,
//! every joint of every pose finite at the start, the middle and the end.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::animation::compile;
use labanplay::diag::Diagnostic;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;
use labanplay::pose::skeleton::Proportions;
use labanplay::read::{json, lbn};
use labanplay::score::Score;
use labanplay::score::bounds::MAX_SCORE_SECS;
use std::path::PathBuf;

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The score of `doc`, checked: at most `max_secs` long, and every pose of its animation
/// (start, middle, end) finite.
fn composed_and_sampled(doc: &labanplay::read::Document, max_secs: f64) -> Score {
    let score = Score::from_document(doc);
    assert!(score.duration_secs() <= max_secs, "{} s", score.duration_secs());
    let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
    let end = score.duration_secs();
    let mut poses: Vec<Pose> = Vec::new();
    for t_secs in [0.0, 0.5 * end, end] {
        anim.sample(t_secs, &mut poses);
        for pose in &poses {
            assert!(pose.pelvis_in_world.is_finite(), "pelvis at {t_secs} s: {:?}", pose.pelvis_in_world);
            assert!(pose.local_rot.iter().all(|q| q.is_finite()), "a joint at {t_secs} s");
        }
    }
    score
}

/// The warnings whose message contains `needle`, as (line, message).
fn warned(score: &Score, needle: &str) -> Vec<(u32, String)> {
    let found: Vec<&Diagnostic> = score.warnings.iter().filter(|w| w.message.contains(needle)).collect();
    found.iter().map(|w| (w.span.line, w.message.clone())).collect()
}

#[test]
fn a_keyframe_move_of_1e308_seconds_is_skipped_with_its_line() {
    let doc = json::read(&fixture("keyframe-dur-1e308.json")).unwrap();
    let score = composed_and_sampled(&doc, 60.0);
    let w = warned(&score, "longer than");
    assert_eq!(w.len(), 1, "{:#?}", score.warnings);
    assert_eq!(w[0].0, 32, "{}", w[0].1);
    assert!(w[0].1.contains("1.000e308"), "{}", w[0].1);
    assert!(score.measures.len() < 10, "{} measures", score.measures.len());
}

#[test]
fn a_keyframe_typed_hours_after_the_rest_is_left_out_of_the_timing() {
    let doc = json::read(&fixture("keyframe-time-outlier.json")).unwrap();
    let score = composed_and_sampled(&doc, 60.0);
    let w = warned(&score, "beyond the rest of the score");
    assert_eq!(w.len(), 5, "one per part of the keyframe: {:#?}", score.warnings);
    assert_eq!(w[0].0, 172, "{}", w[0].1);
    assert!(score.duration_secs() < 10.0, "{} s", score.duration_secs());
}

#[test]
fn a_rotation_of_1e308_degrees_is_skipped_and_the_pelvis_stays_finite() {
    let doc = json::read(&fixture("keyframe-rotation-01e308.json")).unwrap();
    let score = composed_and_sampled(&doc, 60.0);
    let w = warned(&score, "rotation of");
    assert_eq!(w.len(), 1, "{:#?}", score.warnings);
    assert_eq!(w[0].0, 190, "{}", w[0].1);
}

#[test]
fn a_symbol_height_or_width_of_999999_is_skipped_with_its_line() {
    for (name, what, line) in
        [("lbn-height-999999.lbn", "a height of 999999", 22), ("lbn-width-999999.lbn", "a width of 999999", 16)]
    {
        let doc = lbn::read(&fixture(name)).unwrap();
        let score = composed_and_sampled(&doc, 60.0);
        let w = warned(&score, what);
        assert_eq!(w.len(), 1, "{name}: {:#?}", score.warnings);
        assert_eq!(w[0].0, line, "{name}: {}", w[0].1);
    }
}

#[test]
fn bar_lines_hours_apart_are_cut_at_the_longest_score() {
    let doc = lbn::read(&fixture("lbn-bars-hours-apart.lbn")).unwrap();
    let score = composed_and_sampled(&doc, MAX_SCORE_SECS);
    let w = warned(&score, "more than the longest score");
    assert_eq!(w.len(), 1, "{:#?}", score.warnings);
    assert_eq!(w[0].0, 6, "the bar line closing the first measure past the cut: {}", w[0].1);
}

#[test]
fn a_mesh_of_eleven_vertices_is_refused_before_the_skeleton_search() {
    use labanplay::rig::{RigError, RigOptions, import::read_mesh, rig_mesh};
    let raw = read_mesh(&fixture("mesh-11-vertices.obj"), Some("obj"), None).unwrap();
    let mut stages = Vec::new();
    let err = rig_mesh(&raw, &RigOptions::default(), &mut |stage, done| stages.push((stage, done))).unwrap_err();
    assert!(matches!(&err, RigError::Unriggable(m) if m.contains("distinct vertices")), "{err}");
    assert!(stages.iter().all(|(s, _)| !matches!(s, labanplay::rig::rigged::Stage::Embed)), "{stages:?}");
}

#[test]
fn a_formation_spot_a_million_kilometres_off_stage_is_an_error_at_its_formation() {
    let bytes = fixture("plan-spot-1e9.plan.toml");
    let err =
        labanplay::ensemble::read_plan(&bytes, std::path::Path::new("."), &mut labanplay::read::Files).unwrap_err();
    let d = err.0.iter().find(|d| d.message.contains("from the stage")).expect("the spot's error");
    assert_eq!(d.span.line, 7, "{}", d.message);
}

#[test]
fn a_glb_header_shorter_than_itself_is_a_malformed_file() {
    let err = labanplay::rig::import::read_mesh(&fixture("mesh-glb-length-2.glb"), None, None).unwrap_err();
    assert!(err.to_string().contains("less than the header"), "{err}");
}

#[test]
fn an_obj_texture_index_reaching_before_the_first_one_is_a_malformed_file() {
    let bytes = fixture("mesh-obj-texcoord-index-overflow.obj");
    let err = labanplay::rig::import::read_mesh(&bytes, Some("obj"), None).unwrap_err();
    assert!(err.to_string().contains("line 19: the index `-4`"), "{err}");
}

#[test]
fn a_capture_position_of_1e93_is_an_error_at_its_place() {
    let bytes = fixture("bvh-position-1e93.bvh");
    let skeleton = labanplay::pose::skeleton::Skeleton::new(&Proportions::default());
    let err = labanplay::mocap::capture_motion(&bytes, None, &skeleton).err().expect("an error");
    let text = err.to_string();
    assert!(text.contains("19:3") && text.contains("is not a finite number within ±1e7"), "{text}");
}
