//! Ensemble plans: formations from pictures and shapes, assignment, the predict–correct–act
//! simulation and its exact conflict check, over the bundled demo plans and small fixtures.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use glam::DVec2;
use labanplay::ensemble::{self, conflicts, simulate};
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

/// Writes the demo pictures into `scores/ensemble/` (run with `--ignored` after changing them).
#[test]
#[ignore]
fn write_demo_pictures() {
    for (name, img) in demo_pictures() {
        img.save(demo_dir().join(name)).unwrap();
    }
}

#[test]
fn bundled_pictures_are_the_generated_ones() {
    for (name, img) in demo_pictures() {
        let on_disk = image::open(demo_dir().join(name)).unwrap().to_luma8();
        assert_eq!(on_disk, img, "{name}: rerun `cargo test --test ensemble -- --ignored write_demo_pictures`");
    }
}

// ---------------------------------------------------------------------------------------------
// Plans: reading, errors with positions.

fn read_text(text: &str) -> Result<ensemble::Plan, String> {
    ensemble::read_plan(text.as_bytes(), &demo_dir()).map_err(|d| d.render("test.plan.toml", Some(text.as_bytes())))
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
    let last = motion.frames.last().unwrap();
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
    let mut cases: Vec<(String, &str, &str)> = Vec::new();
    cases.push(("ensemble = 1\n[stage]\nwidth_m = 10\ndepth_m = \n".to_string(), "4:11", ""));
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
    let failures: Vec<String> = cases.iter().filter_map(|(text, at, words)| error_mismatch(text, at, words)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_broken_picture_is_an_error_at_its_formation() {
    let dir = std::env::temp_dir().join(format!("labanplay-ensemble-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = std::fs::read(demo_dir().join("arrow.png")).unwrap();
    std::fs::write(dir.join("cut.png"), &png[..png.len() / 2]).unwrap();
    let text =
        MINIMAL.replace("shape = \"circle\"\ncentre = [0, 4]\nradius_m = 2", "picture = \"cut.png\"\nsize_m = [4, 4]");
    let err = ensemble::read_plan(text.as_bytes(), &dir).unwrap_err().render("t", Some(text.as_bytes()));
    assert!(err.starts_with("t:13:11: error: picture `cut.png`: the Png picture cannot be decoded"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// The bundled plans: zero conflicts, everyone on time, deterministic.

fn demo(name: &str) -> (ensemble::Plan, ensemble::Motion, conflicts::Report) {
    let (plan, _) =
        ensemble::read_plan_file(&demo_dir().join(name)).map_err(|(d, b)| d.render(name, Some(&b))).unwrap();
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
    let last = motion.frames.last().unwrap();
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

#[test]
#[ignore]
fn stadium_auction_timing() {
    let (plan, _) = ensemble::read_plan_file(&demo_dir().join("stadium.plan.toml")).unwrap();
    let from: Vec<DVec2> = plan.performers.iter().map(|p| p.start).collect();
    let to = plan.formations[2].spots.clone();
    let t0 = std::time::Instant::now();
    let a = labanplay::ensemble::assign::auction_sparse(&from, &to);
    eprintln!("TIMING auction {:?} cost {}", t0.elapsed(), labanplay::ensemble::assign::total_cost_mm2(&from, &to, &a));
    let t0 = std::time::Instant::now();
    let a = labanplay::ensemble::assign::auction(&from, &to);
    eprintln!("TIMING exact {:?} cost {}", t0.elapsed(), labanplay::ensemble::assign::total_cost_mm2(&from, &to, &a));
}
