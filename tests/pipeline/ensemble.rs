//! Ensemble plans: formations from pictures and shapes, assignment, the predict–correct–act
//! simulation and its exact conflict check, over the bundled demo plans and small fixtures.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use glam::DVec2;
use labanplay::ensemble::{self, conflicts, simulate};
use labanplay::read::{Files, Sources};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble")
}

// ---------------------------------------------------------------------------------------------
// The demo pictures, drawn by code (black shape on white) so they can be regenerated exactly.

fn draw(width: u32, height: u32, inside: impl Fn(f64, f64) -> bool) -> image::GrayImage {
    image::GrayImage::from_fn(width, height, |x, y| {
        // Pixel centre in [-1, 1]², y up.
        let u = (f64::from(x) + 0.5) / f64::from(width) * 2.0 - 1.0;
        let v = 1.0 - (f64::from(y) + 0.5) / f64::from(height) * 2.0;
        image::Luma([if inside(u, v) { 0 } else { 255 }])
    })
}

fn arrow(u: f64, v: f64) -> bool {
    let head = v > 0.1 && v < 0.9 && u.abs() < (0.9 - v) * 0.9;
    let shaft = v <= 0.1 && v > -0.9 && u.abs() < 0.22;
    head || shaft
}

fn heart(u: f64, v: f64) -> bool {
    let (x, y) = (u * 1.25, v * 1.3 + 0.15);
    (x * x + y * y - 1.0).powi(3) - x * x * y.powi(3) <= 0.0
}

fn star(u: f64, v: f64) -> bool {
    // Five-pointed star: inside when the radius is under the star outline at that angle.
    let r = (u * u + v * v).sqrt();
    let a = v.atan2(u) - std::f64::consts::FRAC_PI_2;
    let sector = std::f64::consts::TAU / 5.0;
    let t = (a.rem_euclid(sector) / sector - 0.5).abs() * 2.0; // 1 at a point, 0 between
    let outer = 0.95;
    let inner = 0.45;
    r <= inner + (outer - inner) * t.powf(1.6)
}

fn demo_pictures() -> Vec<(&'static str, image::GrayImage)> {
    vec![("arrow.png", draw(32, 32, arrow)), ("heart.png", draw(96, 88, heart)), ("star.png", draw(200, 200, star))]
}

/// Writes the demo pictures into `scores/ensemble/` after a change to their drawing.
#[test]
#[ignore = "a tool: `cargo test --test pipeline write_demo_pictures -- --ignored`"]
fn write_demo_pictures() {
    for (name, img) in demo_pictures() {
        img.save(demo_dir().join(name)).unwrap();
    }
}

#[test]
fn bundled_pictures_are_the_generated_ones() {
    for (name, img) in demo_pictures() {
        let on_disk = image::open(demo_dir().join(name)).unwrap().to_luma8();
        assert_eq!(on_disk, img, "{name}: rerun `cargo test --test pipeline write_demo_pictures -- --ignored`");
    }
}

// ---------------------------------------------------------------------------------------------
// Plans: reading, errors with positions.

fn read_text(text: &str) -> Result<ensemble::Plan, String> {
    ensemble::read_plan(text.as_bytes(), &demo_dir(), &mut Files)
        .map_err(|d| d.render("test.plan.toml", Some(text.as_bytes())))
}

const MINIMAL: &str = r#"ensemble = 1
[stage]
width_m = 10
depth_m = 8
[[formation]]
name = "a"
shape = "line"
from = [-2, 1]
to = [2, 1]
count = 5
[[formation]]
name = "b"
shape = "circle"
centre = [0, 4]
radius_m = 2
count = 5
[[group]]
name = "g"
formation = "a"
[[event]]
at = "1:1"
group = "g"
to = "b"
beats = 8
"#;

#[test]
fn a_minimal_plan_reads_and_simulates_cleanly() {
    let plan = read_text(MINIMAL).unwrap();
    assert_eq!(plan.performers.len(), 5);
    assert_eq!(plan.behaviours.len(), 1);
    let motion = ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    assert!(report.is_clean(), "{report:?}");
    // Everyone ends on a spot of the circle, each spot taken once.
    let last = &motion.last;
    let spots = &plan.formations[1].spots;
    let mut taken: Vec<usize> = last
        .iter()
        .map(|p| (0..spots.len()).min_by(|a, b| spots[*a].distance(*p).total_cmp(&spots[*b].distance(*p))).unwrap())
        .collect();
    assert!(last.iter().zip(&taken).all(|(p, k)| p.distance(spots[*k]) <= simulate::ARRIVE_M));
    taken.sort_unstable();
    taken.dedup();
    assert_eq!(taken.len(), 5);
}

/// Checks that `text` fails with its first error at `line_col` mentioning `words`; returns what
/// went wrong instead, so one run shows every mismatch.
fn error_mismatch(text: &str, line_col: &str, words: &str) -> Option<String> {
    let Err(err) = read_text(text) else { return Some(format!("no error; expected {line_col} {words:?}")) };
    let first = err.lines().next().unwrap();
    let ok = first.starts_with(&format!("test.plan.toml:{line_col}: error:")) && err.contains(words);
    (!ok).then(|| format!("expected {line_col} {words:?}, got:\n{err}"))
}

#[test]
fn malformed_plans_are_errors_with_line_and_column() {
    let mut cases: Vec<(String, &str, &str)> =
        vec![("ensemble = 1\n[stage]\nwidth_m = 10\ndepth_m = \n".to_string(), "4:11", "")];
    cases.push((MINIMAL.replace("ensemble = 1", "ensemble = 7").to_string(), "1:12", "version 7"));
    cases.push((
        MINIMAL.replace("radius_m = 2\n", "radius_m = 2\ncolor = 1\n").to_string(),
        "16:1",
        "unknown field `color`",
    ));
    cases.push((MINIMAL.replace("to = \"b\"", "to = \"c\"").to_string(), "23:6", "no formation named `c`"));
    cases.push((MINIMAL.replace("at = \"1:1\"", "at = \"1.1\"").to_string(), "21:6", "measure:beat"));
    cases.push((MINIMAL.replace("shape = \"circle\"", "shape = \"star\"").to_string(), "13:9", "unknown shape `star`"));
    cases.push((
        MINIMAL.replace("count = 5\n[[group]]", "count = 6\n[[group]]").to_string(),
        "23:6",
        "6 spots for 5 performers",
    ));
    cases.push((
        MINIMAL.replace("radius_m = 2\n", "radius_m = 0.3\n").to_string(),
        "11:1",
        "closer than two performers",
    ));
    cases.push((
        MINIMAL.replace("formation = \"a\"", "formation = \"a\"\nmodel = \"robot\"").to_string(),
        "20:9",
        "unknown model",
    ));
    let picture = MINIMAL
        .replace("shape = \"circle\"\ncentre = [0, 4]\nradius_m = 2", "picture = \"missing.png\"\nsize_m = [4, 4]");
    cases.push((picture.to_string(), "13:11", "cannot read the picture `missing.png`"));
    let not_png = MINIMAL
        .replace("shape = \"circle\"\ncentre = [0, 4]\nradius_m = 2", "picture = \"eight.plan.toml\"\nsize_m = [4, 4]");
    cases.push((not_png.to_string(), "13:11", "not a picture"));
    let overlap =
        format!("{MINIMAL}[[event]]\nat = \"2:2\"\ngroup = \"g\"\nmethod = \"keep\"\nscale = 1.2\nbeats = 2\n");
    cases.push((overlap.to_string(), "25:1", "still moving"));
    let obstacle = MINIMAL.replace(
        "[[formation]]\nname = \"b\"",
        "[[obstacle]]\ncentre = [1.18, 5.62]\nradius_m = 0.3\n[[formation]]\nname = \"b\"",
    );
    cases.push((obstacle.to_string(), "14:1", "spot 5 of formation `b` (1.18, 5.62) is inside `obstacle 1`"));
    // A hold keeps the groups where they are: anything that moves them is an error, and only a
    // hold turns them.
    let hold = format!("{MINIMAL}[[event]]\nat = \"5:1\"\ngroup = \"g\"\nmethod = \"hold\"\nto = \"a\"\nbeats = 2\n");
    cases.push((hold, "25:1", "a `hold` keeps the groups on their spots; `to` moves them"));
    let facing = MINIMAL.replace("beats = 8\n", "beats = 8\nfacing_deg = 90\n");
    cases.push((facing, "25:14", "`facing_deg` turns the groups of a `hold` event"));
    // Command events: a lights preset, a colour, a camera the player does not have.
    let command = |line: &str| format!("{MINIMAL}[[event]]\nat = \"2:1\"\n{line}\n");
    cases.push((command("lights = \"disco\""), "27:10", "unknown lights preset `disco`"));
    cases.push((command("lights = \"#ff00zz\""), "27:10", "`#ff00zz` is not a colour"));
    cases.push((command("lights = \"#fff\""), "27:10", "`#fff` is not a colour"));
    cases.push((command("camera = \"crane\""), "27:10", "unknown camera `crane`"));
    let failures: Vec<String> = cases.iter().filter_map(|(text, at, words)| error_mismatch(text, at, words)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // What the player knows reads cleanly, in any case.
    let lines = [
        "lights = \"Warm\"",
        "lights = \"#ff8800\"",
        "camera = \"three-quarter\"",
        "camera = \"behind\"",
        "music = \"heart.png\"",
    ];
    for line in lines {
        let plan = read_text(&command(line)).unwrap();
        assert!(plan.warnings.is_empty(), "{line}: {:?}", plan.warnings);
    }
}

#[test]
fn a_music_cue_without_its_file_is_a_warning_at_the_cue() {
    let text = format!("{MINIMAL}[[event]]\nat = \"2:1\"\nmusic = \"missing.wav\"\n");
    let plan = read_text(&text).unwrap();
    assert_eq!(plan.warnings.len(), 1, "{:?}", plan.warnings);
    let w = plan.warnings[0].render("test.plan.toml", Some(text.as_bytes()));
    assert!(w.starts_with("test.plan.toml:27:9: warning: music cue `missing.wav`: no such file"), "{w}");
    assert!(w.contains("without sound"), "{w}");
    // `labanplay check` prints it (and it does not fail the plan).
    let dir = std::env::temp_dir().join(format!("labanplay-music-cue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cue.plan.toml");
    std::fs::write(&path, &text).unwrap();
    let checked = labanplay::cli::ensemble::check_plan(&path, true);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(checked.text.contains("cue.plan.toml:27:9: warning: music cue `missing.wav`"), "{}", checked.text);
    assert!(!checked.failed, "{}", checked.text);
}

#[test]
fn a_broken_picture_is_an_error_at_its_formation() {
    let dir = std::env::temp_dir().join(format!("labanplay-ensemble-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = std::fs::read(demo_dir().join("arrow.png")).unwrap();
    std::fs::write(dir.join("cut.png"), &png[..png.len() / 2]).unwrap();
    let text =
        MINIMAL.replace("shape = \"circle\"\ncentre = [0, 4]\nradius_m = 2", "picture = \"cut.png\"\nsize_m = [4, 4]");
    let err = ensemble::read_plan(text.as_bytes(), &dir, &mut Files).unwrap_err().render("t", Some(text.as_bytes()));
    assert!(err.starts_with("t:13:11: error: picture `cut.png`: the Png picture cannot be decoded"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Reads from disk and counts how often each file is asked for.
#[derive(Default)]
struct CountingFiles {
    reads: BTreeMap<PathBuf, usize>,
}

impl Sources for CountingFiles {
    fn bytes(&mut self, path: &Path) -> std::io::Result<Vec<u8>> {
        *self.reads.entry(path.to_path_buf()).or_default() += 1;
        std::fs::read(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }
}

#[test]
fn a_plan_reads_each_file_once_through_its_sources_and_carries_its_scores() {
    let mut sources = CountingFiles::default();
    let file = ensemble::read_plan_file(&demo_dir().join("two-hundred.plan.toml"), &mut sources).unwrap();
    assert!(sources.reads.len() >= 3, "the plan, its picture and its score: {:?}", sources.reads);
    for (path, n) in &sources.reads {
        assert_eq!(*n, 1, "{} read {n} times", path.display());
    }
    let named: Vec<&PathBuf> = file.plan.groups.iter().filter_map(|g| g.score.as_ref()).collect();
    assert!(!named.is_empty());
    for path in named {
        let score = file.plan.score(path).expect("every group's score travels with the plan");
        assert!(score.duration_beats > 0.0);
    }
}

/// Files served from memory: the plan reader opens nothing itself.
#[derive(Default)]
struct MemoryFiles {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl Sources for MemoryFiles {
    fn bytes(&mut self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.files.get(path).cloned().ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }
}

#[test]
fn a_plan_reads_its_scores_through_the_sources_it_is_given() {
    let dir = PathBuf::from("/in-memory");
    let mut sources = MemoryFiles::default();
    sources.files.insert(dir.join("walk.lbn"), labanplay::demo::WALK_ARMS_TURN_LBN.to_vec());
    let text = MINIMAL.replace("formation = \"a\"\n", "formation = \"a\"\nscore = \"walk.lbn\"\n");
    let plan = ensemble::read_plan(text.as_bytes(), &dir, &mut sources).unwrap();
    assert_eq!(plan.groups[0].score.as_deref(), Some(dir.join("walk.lbn").as_path()));
    assert_eq!(plan.scores.len(), 1);
    assert!(plan.score(&dir.join("walk.lbn")).is_some_and(|s| !s.staves.is_empty()));

    let missing = MINIMAL.replace("formation = \"a\"\n", "formation = \"a\"\nscore = \"gone.lbn\"\n");
    let err = ensemble::read_plan(missing.as_bytes(), &dir, &mut sources).unwrap_err();
    let d = &err.0[0];
    assert_eq!(d.message, "the score `gone.lbn` cannot be read");
    let help = d.help.as_deref().unwrap_or_default();
    assert!(help.starts_with("/in-memory/gone.lbn: error: cannot read file"), "{help}");
}

// ---------------------------------------------------------------------------------------------
// The bundled plans: zero conflicts, everyone on time, deterministic.

fn demo(name: &str) -> (ensemble::Plan, ensemble::Motion, conflicts::Report) {
    let plan = ensemble::read_plan_file(&demo_dir().join(name), &mut Files).map_err(|e| e.render()).unwrap().plan;
    let motion = ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    (plan, motion, report)
}

#[track_caller]
fn assert_clean(name: &str, plan: &ensemble::Plan, motion: &ensemble::Motion, report: &conflicts::Report) {
    let diags = labanplay::cli::ensemble::diagnostics(plan, motion, report);
    let shown: Vec<String> = diags.iter().take(10).map(|d| d.render(name, None)).collect();
    assert!(report.is_clean(), "{} findings, first:\n{}", diags.len(), shown.join("\n"));
}

#[test]
fn eight_dancers_plan_is_clean() {
    let (plan, motion, report) = demo("eight.plan.toml");
    assert_eq!(plan.performers.len(), 8);
    assert_clean("eight", &plan, &motion, &report);
    assert_eq!(motion.moves.len(), 8 * plan.behaviours.len());
    assert!(motion.moves.iter().all(|m| m.arrived_beats.is_some()));
}

#[test]
fn simulation_is_deterministic_and_detours_both_ways() {
    let (_, a, _) = demo("eight.plan.toml");
    let (_, b, _) = demo("eight.plan.toml");
    assert_eq!(a, b);
    let (_, m, _) = demo("two-hundred.plan.toml");
    assert!(m.detours[0] > 0 && m.detours[1] > 0, "{:?}", m.detours);
}

#[test]
fn two_hundred_plan_is_clean() {
    let (plan, motion, report) = demo("two-hundred.plan.toml");
    assert_eq!(plan.performers.len(), 200);
    assert_clean("two-hundred", &plan, &motion, &report);
}

#[test]
fn stadium_plan_is_clean() {
    let (plan, motion, report) = demo("stadium.plan.toml");
    assert!(plan.performers.len() >= 2000);
    // Everyone ends in the parade block, each spot taken once.
    let spots = &plan.formations.iter().find(|f| f.name == "parade").unwrap().spots;
    let last = &motion.last;
    let grid = labanplay::ensemble::grid::Grid::build(spots, 1.0);
    let mut taken = vec![false; spots.len()];
    for p in last {
        let near = grid.within(spots, *p, simulate::ARRIVE_M);
        assert_eq!(near.len(), 1, "{p} is on no spot");
        assert!(!taken[near[0]]);
        taken[near[0]] = true;
    }
    assert_clean("stadium", &plan, &motion, &report);
}

// ---------------------------------------------------------------------------------------------
// ORCA as the avoidance method, measured against the plain steering.

fn demo_with(name: &str, method: ensemble::plan::Avoidance) -> (ensemble::Plan, ensemble::Motion, conflicts::Report) {
    let mut plan = ensemble::read_plan_file(&demo_dir().join(name), &mut Files).map_err(|e| e.render()).unwrap().plan;
    plan.steering.method = method;
    let motion = ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    (plan, motion, report)
}

/// Total path length walked (m), and the latest arrival after its due beat (beats, 0 if all
/// were on time).
fn travel_and_lateness(motion: &ensemble::Motion) -> (f64, f64) {
    let mut length = 0.0;
    for track in &motion.tracks {
        length += track.keys().windows(2).map(|w| w[0].position.distance(w[1].position) as f64).sum::<f64>();
    }
    let late = motion
        .moves
        .iter()
        .map(|m| m.arrived_beats.map_or(f64::INFINITY, |a| (a - m.due_beats).max(0.0)))
        .fold(0.0, f64::max);
    (length, late)
}

#[test]
fn orca_is_an_avoidance_method_a_plan_can_choose() {
    let text = MINIMAL.replace("[stage]", "[simulation]\nmethod = \"orca\"\n[stage]");
    let plan = read_text(&text).unwrap();
    assert_eq!(plan.steering.method, ensemble::plan::Avoidance::Orca);
    let motion = ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    assert!(report.is_clean(), "{report:?}");
    let bad = MINIMAL.replace("[stage]", "[simulation]\nmethod = \"rvo\"\n[stage]");
    let failure = error_mismatch(&bad, "3:10", "unknown avoidance method `rvo`; expected `steering` or `orca`");
    assert!(failure.is_none(), "{}", failure.unwrap_or_default());
    // The eight plan (a pillar in the ring's middle): the act phase keeps every pair apart
    // whichever method corrects, and ORCA gets everyone there on time.
    let (plan, motion, report) = demo_with("eight.plan.toml", ensemble::plan::Avoidance::Orca);
    assert_clean("eight (orca)", &plan, &motion, &report);
    let (_, steering, _) = demo("eight.plan.toml");
    assert_ne!(motion.tracks, steering.tracks, "ORCA and steering move differently");
}

/// Prints ORCA against the steering on the bundled plans: conflicts, late arrivals, long
/// steps, path length, the latest arrival, detours and the wall time.
#[test]
#[ignore = "a tool: `cargo test --release --test pipeline orca_versus -- --ignored --nocapture`"]
fn orca_versus_steering_on_the_bundled_plans() {
    use ensemble::plan::Avoidance;
    for name in ["eight.plan.toml", "two-hundred.plan.toml", "stadium.plan.toml"] {
        for method in [Avoidance::Steering, Avoidance::Orca] {
            let t0 = std::time::Instant::now();
            let (plan, motion, report) = demo_with(name, method);
            let secs = t0.elapsed().as_secs_f64();
            let (length, late) = travel_and_lateness(&motion);
            let steps = motion.steps;
            println!(
                "COMPARE {name} {method:?}: {} performers, {} pairs, {} obstacle, {} late, {} long steps, \
                 path {length:.1} m, latest {late:.3} beats, detours {:?}, {steps} steps in {secs:.2} s \
                 (simulate + check)",
                plan.performers.len(),
                report.pairs.len(),
                report.obstacles.len(),
                report.late.len(),
                report.long_steps.len(),
                motion.detours
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Group methods of seed 001: keeping formation about a reference, merging, serial composites,
// and what `check` reports when a plan asks too much.

const BLOCK: &str = r#"ensemble = 1
tempo_bpm = 120
[stage]
width_m = 20
depth_m = 16
[[formation]]
name = "block"
shape = "block"
centre = [0, 5]
rows = 3
columns = 4
spacing_m = 1.2
[[group]]
name = "g"
formation = "block"
"#;

/// The targets of the plan's first behaviour from where everyone starts.
fn first_targets(plan: &ensemble::Plan) -> Vec<DVec2> {
    let from: Vec<DVec2> = plan.performers.iter().map(|p| p.start).collect();
    ensemble::simulate::targets_for(plan, &plan.behaviours[0], &from, &from)
}

#[test]
fn keeping_formation_scales_about_the_reference_performer_or_row() {
    // About performer 6: it stays, everyone else moves away from it by the scale.
    let text = format!(
        "{BLOCK}[[event]]\nat = \"1:1\"\ngroup = \"g\"\nmethod = \"keep\"\nreference = 6\nscale = 1.5\nbeats = 4\n"
    );
    let plan = read_text(&text).unwrap();
    let targets = first_targets(&plan);
    let start: Vec<DVec2> = plan.performers.iter().map(|p| p.start).collect();
    let pivot = start[5];
    assert!(targets[5].distance(pivot) < 1e-9, "the reference performer stays put");
    for (p, t) in start.iter().zip(&targets) {
        assert!((*t - (pivot + (*p - pivot) * 1.5)).length() < 1e-9);
    }
    let motion = ensemble::simulate(&plan);
    assert!(conflicts::check(&plan, &motion).is_clean());
    // About the front row (row 1: the smallest y), with a move: that row only moves by `move`.
    let text = format!(
        "{BLOCK}[[event]]\nat = \"1:1\"\ngroup = \"g\"\nmethod = \"keep\"\nreference_row = 1\nscale = 1.25\nmove = [1, 0]\nbeats = 4\n"
    );
    let plan = read_text(&text).unwrap();
    let targets = first_targets(&plan);
    let front_y = start.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
    let row_centre = {
        let row: Vec<DVec2> = start.iter().copied().filter(|p| (p.y - front_y).abs() < 1e-9).collect();
        assert_eq!(row.len(), 4);
        row.iter().copied().sum::<DVec2>() / 4.0
    };
    for (p, t) in start.iter().zip(&targets) {
        let want = row_centre + (*p - row_centre) * 1.25 + DVec2::new(1.0, 0.0);
        assert!((*t - want).length() < 1e-9, "{p} → {t}, want {want}");
        if (p.y - front_y).abs() < 1e-9 {
            assert!((t.y - p.y).abs() < 1e-9, "the front row keeps its line");
        }
    }
    let motion = ensemble::simulate(&plan);
    assert!(conflicts::check(&plan, &motion).is_clean());
}

#[test]
fn a_line_merges_into_the_gaps_of_another_in_order() {
    let text = r#"ensemble = 1
[stage]
width_m = 20
depth_m = 12
[[formation]]
name = "front"
shape = "line"
from = [-6, 2]
to = [6, 2]
count = 7
[[formation]]
name = "back"
shape = "line"
from = [-5, 6]
to = [5, 6]
count = 6
[[group]]
name = "a"
formation = "front"
[[group]]
name = "b"
formation = "back"
[[event]]
at = "1:1"
group = "b"
method = "merge"
merge_into = "a"
beats = 8
"#;
    let plan = read_text(text).unwrap();
    let all: Vec<DVec2> = plan.performers.iter().map(|p| p.start).collect();
    let from: Vec<DVec2> = all[7..].to_vec();
    let targets = ensemble::simulate::targets_for(&plan, &plan.behaviours[0], &from, &all);
    // Each merging performer lands midway between two neighbours of the front line, in order.
    for (k, t) in targets.iter().enumerate() {
        let want = DVec2::new(-5.0 + 2.0 * k as f64, 2.0);
        assert!(t.distance(want) < 1e-9, "performer {} → {t}, want {want}", k + 1);
    }
    let motion = ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    assert_clean("merge", &plan, &motion, &report);
    // The final line alternates a, b, a, b, … from left to right.
    let last = &motion.last;
    let mut order: Vec<usize> = (0..13).collect();
    order.sort_by(|x, y| last[*x].x.total_cmp(&last[*y].x));
    let groups: Vec<usize> = order.iter().map(|&i| plan.performers[i].group).collect();
    assert_eq!(groups, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
}

#[test]
fn through_chains_formations_in_equal_shares_of_the_event() {
    let text = format!(
        "{BLOCK}[[formation]]\nname = \"ring\"\nshape = \"circle\"\ncentre = [0, 8]\nradius_m = 3\ncount = 12\n\
         [[formation]]\nname = \"line\"\nshape = \"line\"\nfrom = [-7, 3]\nto = [7, 3]\ncount = 12\n\
         [[event]]\nat = \"1:1\"\ngroup = \"g\"\nthrough = [\"ring\"]\nto = \"line\"\nbeats = 24\n"
    );
    let plan = read_text(&text).unwrap();
    assert_eq!(plan.behaviours.len(), 2, "a serial composite of two moves");
    assert_eq!((plan.behaviours[0].start_beats, plan.behaviours[0].duration_beats), (0.0, 12.0));
    assert_eq!((plan.behaviours[1].start_beats, plan.behaviours[1].duration_beats), (12.0, 12.0));
    let motion = ensemble::simulate(&plan);
    assert_clean("through", &plan, &motion, &report_of(&plan, &motion));
    // At the half-way beat everyone stands on a ring spot; at the end on a line spot.
    let ring = &plan.formations[1].spots;
    for i in 0..12 {
        let p = motion.position_at(i, 12.0);
        let d = ring.iter().map(|s| s.distance(p)).fold(f64::INFINITY, f64::min);
        assert!(d < 0.05, "performer {} is {d} m from the ring at beat 12", i + 1);
    }
}

fn report_of(plan: &ensemble::Plan, motion: &ensemble::Motion) -> conflicts::Report {
    conflicts::check(plan, motion)
}

#[test]
fn a_performer_who_cannot_arrive_in_time_is_reported_at_its_event() {
    // Five metres in one beat at 120 bpm: no walk does that.
    let text = MINIMAL.replace("beats = 8", "beats = 1").replace("centre = [0, 4]", "centre = [0, 6]");
    let plan = read_text(&text).unwrap();
    let motion = ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    assert!(report.pairs.is_empty() && report.long_steps.is_empty(), "{report:?}");
    assert_eq!(report.late.len(), 5, "{report:?}");
    let diags = labanplay::cli::ensemble::diagnostics(&plan, &motion, &report);
    let first = diags[0].render("test.plan.toml", Some(text.as_bytes()));
    assert!(first.starts_with("test.plan.toml:20:1: error:"), "{first}");
    assert!(first.contains("late: `g` #1 is due at 1:2"), "{first}");
}

#[test]
fn a_step_longer_than_a_body_takes_at_the_tempo_is_reported() {
    let plan = read_text(MINIMAL).unwrap();
    let motion = ensemble::simulate(&plan);
    assert!(motion.findings.long_steps.is_empty(), "{:?}", motion.findings.long_steps);
    // The same frames, with performer 1 teleported by two metres within one beat of its move.
    let mut sim = ensemble::Simulation::new(&plan);
    let mut frames = vec![sim.positions().to_vec()];
    while frames.len() <= motion.steps {
        sim.step();
        frames.push(sim.positions().to_vec());
    }
    let k = (2.0 / motion.dt_beats) as usize;
    for frame in &mut frames[k..] {
        frame[0].x += 2.0;
    }
    let replayed = ensemble::Motion::from_frames(&plan, motion.dt_beats, &frames, motion.moves.clone());
    let long = &replayed.findings.long_steps;
    assert!(!long.is_empty() && long.iter().all(|l| l.performer == 0), "{long:?}");
    assert!(long[0].length_m > long[0].max_m);
}

#[test]
fn pair_conflicts_on_the_grid_equal_all_pairs() {
    // Performers crossing each other without avoidance: a deterministic scatter moving straight.
    let n = 300;
    let start: Vec<DVec2> = (0..n)
        .map(|k| DVec2::new((k as f64 * 0.618_033_988_75).fract() * 30.0, (k as f64 * 0.754_877_666_2).fract() * 20.0))
        .collect();
    let vel: Vec<DVec2> =
        (0..n).map(|k| DVec2::from_angle((k as f64 * 0.569_840_29).fract() * std::f64::consts::TAU) * 0.2).collect();
    let frames: Vec<Vec<DVec2>> =
        (0..40).map(|f| start.iter().zip(&vel).map(|(p, v)| *p + *v * f as f64).collect()).collect();
    let radius = 0.25;
    let grid = conflicts::pair_conflicts(&frames, radius, 0.125);
    // All pairs, every step, closest approach in closed form.
    let mut brute: std::collections::BTreeMap<(usize, usize), f64> = Default::default();
    for f in 0..frames.len() - 1 {
        for i in 0..n {
            for j in i + 1..n {
                let (d, _) =
                    conflicts::closest_approach(frames[f][i], frames[f + 1][i], frames[f][j], frames[f + 1][j]);
                if d < 2.0 * radius - conflicts::CONTACT_TOLERANCE_M {
                    let e = brute.entry((i, j)).or_insert(f64::INFINITY);
                    *e = e.min(d);
                }
            }
        }
    }
    let mut found: std::collections::BTreeMap<(usize, usize), f64> = Default::default();
    for c in &grid {
        let e = found.entry((c.a, c.b)).or_insert(f64::INFINITY);
        *e = e.min(c.distance_m);
    }
    assert!(brute.len() > 20, "the scatter should cross: {} pairs", brute.len());
    assert_eq!(found.keys().collect::<Vec<_>>(), brute.keys().collect::<Vec<_>>());
    for (k, d) in &brute {
        assert!((found[k] - d).abs() < 1e-12, "{k:?}");
    }
}

/// Prints a digest of every simulated position of the bundled plans, to compare two builds of
/// the simulation bit for bit.
#[test]
#[ignore = "a tool: `cargo test --test pipeline motion_digest -- --ignored --nocapture`"]
fn motion_digest() {
    for name in ["eight.plan.toml", "two-hundred.plan.toml", "stadium.plan.toml"] {
        let (_, motion, report) = demo(name);
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let keys = motion.tracks.iter().flat_map(|t| t.keys().iter().map(|k| k.position.as_dvec2()));
        for p in keys.chain(motion.last.iter().copied()) {
            for v in [p.x.to_bits(), p.y.to_bits()] {
                h = (h ^ v).wrapping_mul(0x0100_0000_01b3);
            }
        }
        println!(
            "{name}: {} steps, detours {:?}, {} pairs {} late, digest {h:016x}",
            motion.steps,
            motion.detours,
            report.pairs.len(),
            report.late.len()
        );
    }
}
