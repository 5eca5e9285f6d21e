//! What `check` says about a plan as a drill designer would read it: spots, `via` points and
//! paths off the stage (the wings count when the plan names them), a staff the score lacks, an
//! event whose spots crowd, steps blamed on the move they belong to, and an arrival a few
//! centimetres off its spot counted as arrived. Small plans written for the tests.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::ensemble::targets::OffFloorKind;
use labanplay::ensemble::{self, conflicts, simulate};
use labanplay::read::Files;
use std::path::Path;

fn demo_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble")
}

fn read(text: &str) -> Result<ensemble::Plan, String> {
    ensemble::read_plan(text.as_bytes(), &demo_dir(), &mut Files)
        .map_err(|d| d.render("test.plan.toml", Some(text.as_bytes())))
}

/// The first error of a plan that must not read, with its place.
fn first_error(text: &str) -> String {
    match read(text) {
        Ok(_) => panic!("the plan reads, but should not:\n{text}"),
        Err(e) => e,
    }
}

/// The plan's findings rendered as `check` prints them, one per line (messages only).
fn findings(text: &str) -> (ensemble::Plan, ensemble::Motion, conflicts::Report, Vec<String>) {
    let plan = read(text).unwrap();
    let motion = ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    let lines = labanplay::cli::ensemble::diagnostics(&plan, &motion, &report)
        .iter()
        .map(|d| d.render("test.plan.toml", None))
        .collect();
    (plan, motion, report, lines)
}

/// A 10 × 8 m stage, a line of five and a circle of five.
const LINE_TO_CIRCLE: &str = r#"ensemble = 1
[stage]
width_m = 10
depth_m = 8
[[formation]]
name = "line"
shape = "line"
from = [-4, 1]
to = [4, 1]
count = 5
[[formation]]
name = "circle"
shape = "circle"
centre = [0, 5]
radius_m = 2
count = 5
[[group]]
name = "g"
formation = "line"
[[event]]
at = "1:1"
group = "g"
to = "circle"
beats = 12
"#;

#[test]
fn spots_and_via_points_off_the_stage_are_errors_at_their_place() {
    // The circle moved 4 m to the right: two spots fall past the right edge (x = 5).
    let text = LINE_TO_CIRCLE.replace("centre = [0, 5]", "centre = [4, 5]");
    let err = first_error(&text);
    assert!(err.starts_with("test.plan.toml:11:1: error: 2 spots of formation `circle` lie off the stage"), "{err}");
    assert!(
        err.contains("the farthest, spot 3 at (5.90, 4.38), is 0.90 m outside the stage (x -5.00 to 5.00 m"),
        "{err}"
    );
    // The wings give the room, at the sides only.
    let winged = text.replace("depth_m = 8", "depth_m = 8\nwings_m = 1");
    assert!(read(&winged).is_ok());
    let in_front = LINE_TO_CIRCLE
        .replace("centre = [0, 5]", "centre = [0, 1.5]")
        .replace("depth_m = 8", "depth_m = 8\nwings_m = 3");
    let err = first_error(&in_front);
    assert!(err.contains("spot 1 of formation `circle` at (0.00, -0.50) is 0.50 m outside"), "{err}");
    // A `via` point 15 m off the stage, at the `via`.
    let via = format!("{LINE_TO_CIRCLE}path = \"bezier\"\nvia = [[0, 4], [20, 4]]\n");
    let err = first_error(&via);
    assert!(err.starts_with("test.plan.toml:26:7: error: `via` point 2 (20.00, 4.00) is 15.00 m outside"), "{err}");
    let negative = LINE_TO_CIRCLE.replace("depth_m = 8", "depth_m = 8\nwings_m = -1");
    assert!(first_error(&negative).starts_with("test.plan.toml:5:11: error: `wings_m` must be 0"));
}

#[test]
fn keep_scaled_spots_and_paths_off_the_stage_are_found_by_check() {
    // A keep that doubles the line: its ends land 4 m past the sides.
    let keep = LINE_TO_CIRCLE.replace("to = \"circle\"", "method = \"keep\"\nscale = 2");
    let (_, _, report, lines) = findings(&keep);
    let spots: Vec<_> = report.off_floor.iter().filter(|o| o.kind == OffFloorKind::Spot).collect();
    assert_eq!(spots.len(), 2, "{lines:#?}");
    assert!(spots.iter().all(|o| (o.outside_m - 3.0).abs() < 1e-9), "{spots:?}");
    let first = lines.iter().find(|l| l.contains("off the stage")).unwrap();
    assert!(
        first.starts_with("test.plan.toml:20:1: error: off the stage: `g` #1's spot reaches (-8.00, 1.00)"),
        "{first}"
    );
    // A Bézier through a point near the right edge: each performer's curve is shifted by its
    // offset from the group's centre, so the right-hand performers swing out past x = 5.
    let swing = format!("{LINE_TO_CIRCLE}path = \"bezier\"\nvia = [[4.5, 3]]\n");
    let (plan, motion, report, lines) = findings(&swing);
    let paths: Vec<_> = report.off_floor.iter().filter(|o| o.kind == OffFloorKind::Path).collect();
    assert!(!paths.is_empty(), "{lines:#?}");
    let floor = plan.floor();
    for o in &paths {
        // The finding is the simulated point; the path's keys pass within their tolerance of it.
        let p = motion.position_at(o.performer, o.at_beats);
        assert!(p.distance(o.point) <= ensemble::stream::keys::KEY_TOLERANCE_M + 1e-5, "{o:?} {p}");
        assert!((floor.outside_m(o.point) - o.outside_m).abs() < 1e-9 && o.outside_m > 0.3, "{o:?}");
    }
    assert!(
        lines.iter().any(|l| l.starts_with("test.plan.toml:20:1: error: off the stage: `g` #5's path")),
        "{lines:#?}"
    );
}

#[test]
fn a_staff_the_score_lacks_is_an_error_listing_its_staves() {
    let text = LINE_TO_CIRCLE
        .replace("formation = \"line\"", "formation = \"line\"\nscore = \"../walk-arms-turn.lbn\"\nstaff = 9");
    let err = first_error(&text);
    assert!(
        err.starts_with(
            "test.plan.toml:21:9: error: the score `walk-arms-turn.lbn` has no staff 9: it has one staff, staff 1"
        ),
        "{err}"
    );
    assert!(read(&text.replace("staff = 9", "staff = 1")).is_ok());
}

#[test]
fn a_keep_that_crowds_the_spots_is_a_spacing_error_not_late_arrivals() {
    let text = LINE_TO_CIRCLE.replace("to = \"circle\"", "method = \"keep\"\nscale = 0.2");
    let (_, _, report, lines) = findings(&text);
    assert!(report.late.is_empty(), "{lines:#?}");
    assert_eq!(report.crowded.len(), 1, "{lines:#?}");
    assert!((report.crowded[0].distance_m - 0.4).abs() < 1e-9);
    assert!(
        lines[0].starts_with("test.plan.toml:20:1: error: this event puts the spots of `g` #1 and `g` #2 0.40 m apart"),
        "{lines:#?}"
    );
    let roomy = LINE_TO_CIRCLE.replace("to = \"circle\"", "method = \"keep\"\nscale = 0.5");
    assert!(findings(&roomy).2.is_clean());
}

#[test]
fn a_walk_that_never_arrives_is_not_blamed_for_the_run_after_it() {
    // 16 m in 4 beats walking cannot arrive; 8 beats later a run takes over and brings the
    // performers back. Every step of the run belongs to the run.
    let text = r#"ensemble = 1
tempo_bpm = 120
[stage]
width_m = 40
depth_m = 20
[[formation]]
name = "left"
shape = "line"
from = [-18, 2]
to = [-18, 6]
count = 3
[[formation]]
name = "right"
shape = "line"
from = [-2, 2]
to = [-2, 6]
count = 3
[[group]]
name = "g"
formation = "left"
[[event]]
at = "1:1"
group = "g"
to = "right"
beats = 4
[[event]]
at = "3:1"
group = "g"
to = "left"
gait = "run"
beats = 8
"#;
    let (plan, motion, report, lines) = findings(text);
    assert!(motion.moves.iter().filter(|m| m.behaviour == 0).all(|m| m.arrived_beats.is_none()));
    assert_eq!(report.late.iter().filter(|l| l.behaviour == 0).count(), 3, "{lines:#?}");
    assert!(report.long_steps.is_empty(), "{lines:#?}");
    // Steps of the run measured against the walk's limit would be too long.
    let walk_m = plan.body.max_step_m(ensemble::plan::Gait::Walk);
    let at = |f: usize| motion.position_at(0, f as f64 * motion.dt_beats);
    let fastest = (0..motion.steps - 8).map(|f| at(f + 8).distance(at(f))).fold(0.0, f64::max);
    assert!(fastest > walk_m, "the run steps {fastest} m a beat");
}

#[test]
fn a_performer_kept_a_few_centimetres_off_its_spot_has_arrived() {
    // `b`'s spot is 0.46 m from where `a` stands: the bodies need 0.5 m, so `b` stops about
    // 4 cm short, which counts as arrived.
    let text = r#"ensemble = 1
[stage]
width_m = 10
depth_m = 8
[[formation]]
name = "post"
shape = "line"
from = [0, 4]
to = [0, 4]
count = 1
[[formation]]
name = "start"
shape = "line"
from = [0.46, 1]
to = [0.46, 1]
count = 1
[[formation]]
name = "beside"
shape = "line"
from = [0.46, 4]
to = [0.46, 4]
count = 1
[[group]]
name = "a"
formation = "post"
[[group]]
name = "b"
formation = "start"
[[event]]
at = "1:1"
group = "b"
to = "beside"
beats = 8
"#;
    let (_, motion, report, lines) = findings(text);
    let last = &motion.last;
    let short_m = last[1].distance(glam::DVec2::new(0.46, 4.0));
    assert!(short_m > simulate::ARRIVE_M && short_m <= simulate::ARRIVAL_TOLERANCE_M, "{short_m}");
    assert!(motion.moves[0].arrived_beats.is_some_and(|a| a <= 8.0 + motion.dt_beats), "{:?}", motion.moves);
    assert!(report.is_clean(), "{lines:#?}");
}
