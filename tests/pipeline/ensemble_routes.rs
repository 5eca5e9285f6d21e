//! Routes round set pieces: a wall across the straight paths of a block of 24 performers, which
//! local avoidance alone cannot pass, is walked round, everyone arriving when the time allows.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::ensemble::{self, conflicts};
use labanplay::read::Files;
use std::path::Path;

/// 24 performers in a 3 × 8 block 1.2 m apart (8.4 m wide), a 9 × 0.6 m wall between them and
/// their spots 6 m upstage.
const WALL: &str = r#"ensemble = 1
tempo_bpm = 120
[stage]
width_m = 20
depth_m = 12
[[obstacle]]
name = "wall"
centre = [0, 5]
size_m = [9, 0.6]
[[formation]]
name = "south"
shape = "block"
centre = [0, 2]
rows = 3
columns = 8
spacing_m = 1.2
[[formation]]
name = "north"
shape = "block"
centre = [0, 8]
rows = 3
columns = 8
spacing_m = 1.2
[[group]]
name = "g"
formation = "south"
[[event]]
at = "1:1"
group = "g"
to = "north"
beats = 40
"#;

fn run(text: &str) -> (ensemble::Plan, ensemble::Motion, conflicts::Report, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble");
    let plan = ensemble::read_plan(text.as_bytes(), &dir, &mut Files)
        .map_err(|d| d.render("wall.plan.toml", Some(text.as_bytes())))
        .unwrap();
    let motion = ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    let lines = labanplay::cli::ensemble::diagnostics(&plan, &motion, &report)
        .iter()
        .take(8)
        .map(|d| d.render("wall.plan.toml", None))
        .collect();
    (plan, motion, report, lines)
}

#[test]
fn performers_walk_round_a_wall_across_their_paths() {
    let (plan, motion, report, lines) = run(WALL);
    assert_eq!(plan.performers.len(), 24);
    let arrived = motion.moves.iter().filter(|m| m.arrived_beats.is_some()).count();
    assert_eq!(arrived, 24, "{arrived} of 24 arrive:\n{}", lines.join("\n"));
    assert!(report.is_clean(), "{}", lines.join("\n"));
    // Every one of them went round an end of the wall (its half-length is 4.5 m).
    for i in 0..24 {
        let widest = motion.tracks[i].keys().iter().map(|k| f64::from(k.position.x.abs())).fold(0.0, f64::max);
        assert!(widest > 4.5, "performer {} never passed an end of the wall ({widest:.2} m)", i + 1);
    }
    // ORCA correcting follows the same routes: everyone arrives (a few beats later), no one
    // touches the wall or another.
    let orca = WALL.replace("[stage]", "[simulation]\nmethod = \"orca\"\n[stage]");
    let (_, motion, report, lines) = run(&orca);
    assert!(motion.moves.iter().all(|m| m.arrived_beats.is_some()), "{}", lines.join("\n"));
    assert!(report.pairs.is_empty() && report.obstacles.is_empty(), "{}", lines.join("\n"));
}

#[test]
fn a_path_clear_of_the_set_pieces_is_not_rerouted() {
    // The wall moved aside: the straight paths miss it and stay straight.
    let (plan, motion, report, lines) = run(&WALL.replace("centre = [0, 5]", "centre = [10, 5]"));
    assert!(report.is_clean(), "{}", lines.join("\n"));
    for i in 0..24 {
        let start_x = plan.performers[i].start.x;
        let keys = motion.tracks[i].keys();
        let drift = keys.iter().map(|k| (f64::from(k.position.x) - start_x).abs()).fold(0.0, f64::max);
        assert!(drift < 0.3, "performer {} strays {drift:.2} m sideways", i + 1);
    }
}
