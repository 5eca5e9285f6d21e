//! Golden snapshots of `labanplay inspect` for real `.lbn` scores (one with two staves).
//!
//! What the snapshots show, checked by hand against labanotation-rules.md:
//! - `jump1.lbn` measures 1, 2 and 7: m1 right leg gesture side-low on beat 1 and left leg
//!   gesture side-low on beat 2 with both support columns blank after the start position (place
//!   middle on both feet) → standing on the left foot while the right leg gestures, then a
//!   flight 1–2 beats off the left foot once both legs gesture, landing on both (assemblé); m2 place middle on both
//!   feet on beat 1 (2–3 beats); m7 side steps on both feet on beat 1 (12–13) then blank → jump.
//!   Bars every 48–49 units at 24 units a beat → 2 beats per measure.
//! - `turn1.lbn` measures 1, 2, 5 and 6: m1 a right turn sign in the right support column over
//!   2 beats with a pin pointing up inside → 360° clockwise, left leg gesture side-middle beside
//!   it; m2 the mirror (left turn on the left foot, 360°); m5/m6 arm side-high in the columns
//!   outside the staff (LED puts arms in the three columns outside).
//! - `barn.lbn` measure 1, both staves: staff 1 (black pin, start facing 45° from `Face 2`)
//!   left-forward middle on the left foot beat 1, left-forward high on the right foot beat 2,
//!   place high on the left foot beat 4; staff 2 (white pin, facing 315° from `Face 8`)
//!   right-forward middle on the right foot beat 1. Bars 96→193 → 4 beats per measure.
//! - `walk1.lbn` measures 1–2: forward steps right then left (1 beat each); m2 beat 1 arms to
//!   the side (middle) with the support columns blank → a flight landing on both feet
//!   (assemblé) on beat 2; the hold signs are in the support columns.
//! - `arm_gestures.lbn` measure 1: side-low arm gestures outside the staff on each side.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use labanplay::cli::inspect::inspect;

const FILES: [&str; 5] = [
    "laban-tk/jump1.lbn",
    "laban-tk/turn1.lbn",
    "laban-tk/barn.lbn",
    "labanotation-renderer/walk1.lbn",
    "laban-tk/arm_gestures.lbn",
];

#[test]
fn inspect_tables_match_the_hand_checked_goldens() {
    let Some(dir) = support::real_scores_dir("golden_inspect") else { return };
    for rel in FILES {
        let text = inspect(&dir.join(rel), false).unwrap();
        let name = rel.rsplit('/').next().unwrap().replace(".lbn", ".txt");
        support::assert_golden(&format!("inspect/{name}"), &text);
    }
}

#[test]
fn barn_has_two_staves_with_dancer_pins_and_facings() {
    let Some(dir) = support::real_scores_dir("barn") else { return };
    let score = crate::support::load_score(&dir.join("laban-tk/barn.lbn"));
    assert_eq!(score.staves.len(), 2);
    let s1 = &score.staves[0];
    let s2 = &score.staves[1];
    assert!(s1.dancer.is_some_and(|d| d.black));
    assert!(s2.dancer.is_some_and(|d| !d.black));
    assert_eq!((s1.start_facing_deg, s2.start_facing_deg), (45.0, 315.0));
    assert_eq!(score.meter.beats_per_measure, 4);
    assert_eq!(score.title.as_deref(), Some("Barn Dance"));
}

#[test]
fn inspect_json_is_valid_json_with_the_same_staves() {
    let Some(dir) = support::real_scores_dir("inspect_json") else { return };
    let text = inspect(&dir.join("laban-tk/barn.lbn"), true).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["staves"].as_array().unwrap().len(), 2);
    assert_eq!(v["format"], "Lbn");
}
