//! Coordinate sheets: every performer's spot at every set, metres from the stage centre, and the
//! counts to move there, written as one CSV file per performer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::ensemble::{self, sheets};
use labanplay::read::Files;
use std::path::Path;

/// Two groups on a 10 × 8 m stage: `a` moves into a circle, then `b` keeps its line and moves
/// forward while `a` holds, then both move at once.
const PLAN: &str = r#"ensemble = 1
tempo_bpm = 120
[stage]
width_m = 10
depth_m = 8
[[formation]]
name = "line"
shape = "line"
from = [-3, 1]
to = [3, 1]
count = 4
[[formation]]
name = "back"
shape = "line"
from = [-3, 7.5]
to = [3, 7.5]
count = 3
[[formation]]
name = "ring, wide"
shape = "circle"
centre = [0, 4]
radius_m = 2
count = 4
[[group]]
name = "a"
formation = "line"
[[group]]
name = "b c"
formation = "back"
[[event]]
at = "1:1"
group = "a"
to = "ring, wide"
beats = 8
[[event]]
at = "3:1"
group = "b c"
method = "keep"
move = [0, -0.5]
beats = 4
[[event]]
at = "5:1"
group = ["a", "b c"]
method = "keep"
move = [0.5, 0]
beats = 6
"#;

#[test]
fn each_performer_gets_its_spot_at_every_set_and_the_counts_to_move() {
    let plan = ensemble::read_plan(PLAN.as_bytes(), Path::new(""), &mut Files).unwrap();
    let motion = ensemble::simulate(&plan);
    assert!(ensemble::conflicts::check(&plan, &motion).is_clean());
    let sets = sheets::sets(&motion);
    let moves = sheets::moves_by_performer(&plan, &motion);
    let starts: Vec<f64> = sets.iter().map(|s| s.start_beats).collect();
    assert_eq!(starts, [0.0, 0.0, 8.0, 16.0], "the opening, then one set per start");
    for (i, own) in moves.iter().enumerate() {
        let rows = sheets::sheet(&plan, &sets, i, own);
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0].spot, plan.performers[i].start);
        // Every set's spot is the planned target of the performer's move in it.
        for row in &rows[1..] {
            let planned = motion.moves.iter().find(|m| m.performer == i && m.start_beats == row.set.start_beats);
            match planned {
                Some(m) => assert_eq!((row.spot, row.counts), (m.target, m.due_beats - m.start_beats)),
                None => assert_eq!(row.counts, 0.0, "a hold"),
            }
        }
        // The last move shifts everyone 0.5 m to the right of where the set before left them
        // (a keep moves performers from where they stand, within a step's settling of the spot).
        let shift = rows[3].spot - rows[2].spot;
        assert!((shift - glam::DVec2::new(0.5, 0.0)).length() <= ensemble::simulate::ARRIVE_M, "{shift}");
        // Where the simulation left the performer is its last spot.
        assert!(motion.last[i].distance(rows[3].spot) <= ensemble::simulate::ARRIVE_M);
    }
    // `a` #1 into the ring in 8 counts, holding while `b c` moves; `b c` #1 holds, then moves.
    let a1 = sheets::csv(&plan, &sheets::sheet(&plan, &sets, 0, &moves[0]));
    let lines: Vec<&str> = a1.lines().collect();
    assert_eq!(lines[0], "set,start,counts,formation,x_m,y_m,mark_m,from_mark_m");
    assert_eq!(lines[1], "1,1:1,0,,-3.00,-3.00,-3,0.00");
    assert!(lines[2].starts_with("2,1:1,8,\"ring, wide\","), "{a1}");
    assert!(lines[3].starts_with("3,3:1,0,,"), "{a1}");
    assert!(lines[4].starts_with("4,5:1,6,keep,"), "{a1}");
    let b1 = sheets::csv(&plan, &sheets::sheet(&plan, &sets, 4, &moves[4]));
    let lines: Vec<&str> = b1.lines().collect();
    assert_eq!(
        &lines[1..4],
        ["1,1:1,0,,-3.00,3.50,-3,0.00", "2,1:1,0,,-3.00,3.50,-3,0.00", "3,3:1,4,keep,-3.00,3.00,-3,0.00"]
    );
}

#[test]
fn the_sheets_command_writes_one_file_per_performer() {
    let dir = std::env::temp_dir().join(format!("labanplay-sheets-{}", std::process::id()));
    let plan_path = dir.join("drill.plan.toml");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&plan_path, PLAN).unwrap();
    let out = dir.join("sheets");
    let summary = labanplay::cli::sheets::write_sheets(&plan_path, &out).unwrap();
    assert!(summary.contains("7 coordinate sheets (4 sets each"), "{summary}");
    let mut names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let stems = ["a-1", "a-2", "a-3", "a-4", "b_c-1", "b_c-2", "b_c-3"];
    let expected: Vec<String> = stems.iter().flat_map(|s| [format!("{s}.csv"), format!("{s}.svg")]).collect();
    assert_eq!(names, expected);
    let text = std::fs::read_to_string(out.join("b_c-3.csv")).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    // The page: the performer's name, one numbered spot per set joined in order, the table.
    let page = std::fs::read_to_string(out.join("a-1.svg")).unwrap();
    assert!(page.starts_with("<svg") && page.trim_end().ends_with("</svg>"), "{page}");
    assert!(page.contains(">a-1</text>"), "{page}");
    assert_eq!(page.matches("<circle").count(), 4, "{page}");
    assert_eq!(page.matches("<polyline").count(), 1);
    assert!(page.contains(">ring, wide</text>") && page.contains(">keep</text>"), "{page}");
    assert!(page.contains(">audience</text>"));
    let missing = labanplay::cli::sheets::write_sheets(&dir.join("none.plan.toml"), &out).unwrap_err();
    assert!(missing.contains("cannot read the plan"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}
