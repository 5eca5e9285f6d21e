//! `labanplay check --motion`: each kind of compromise on a small hand-written score, episodes
//! coalesced into ranges, measure:beat in the text, and a clean score that reports nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::animation::{Animation, compile};
use labanplay::motion::rules::MotionOptions;
use labanplay::motion_report::{Compromise, Episode, Part, compromises, render};
use labanplay::pose::skeleton::Proportions;
use labanplay::read::read;
use labanplay::score::Score;

/// A one-staff LED score of two 4/4 measures at 60 bpm with `body` added (the arms' columns
/// are x = 171 right and 85 left, the supports 134 right and 122 left; beat b of measure m
/// starts at y = 97 + 96 (m − 1) + 24 b).
fn score(body: &str) -> Score {
    let text = format!(
        "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
         Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
         Keys 0 18 30 2 20 12 B 4/4\nKeys 0 18 14 2 30 12 B q=60\n\
         Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n{body}"
    );
    Score::from_document(&read(text.as_bytes(), Some("lbn")).unwrap())
}

fn report(body: &str) -> (Score, Animation, Vec<Episode>) {
    let s = score(body);
    let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    let episodes = compromises(&anim);
    (s, anim, episodes)
}

fn of_kind(episodes: &[Episode], kind: Compromise, part: Part) -> Vec<&Episode> {
    episodes.iter().filter(|e| e.kind == kind && e.part == part).collect()
}

#[test]
fn standing_with_the_arms_down_reports_nothing() {
    let (s, _, episodes) = report("");
    assert!(episodes.is_empty(), "{episodes:?}");
    assert_eq!(render("x.lbn", &s, &episodes), "x.lbn: motion: 0 compromise(s)\n");
}

#[test]
fn an_arm_folded_to_its_shoulder_is_out_of_reach_over_one_range() {
    // Right arm "place" over beats 1–2 of measure 1: the hand would sit 12 cm from the
    // shoulder, closer than the elbow folds.
    let (s, _, episodes) = report("Dirn 11 171 97 8 10 47 M\n");
    let found = of_kind(&episodes, Compromise::OutOfReach, Part::RightArm);
    assert_eq!(found.len(), 1, "one episode, not one per frame: {episodes:?}");
    let e = found[0];
    assert!(e.t_end_secs - e.t_start_secs > 0.5, "{e:?}");
    assert!(e.worst > 0.01, "{e:?}");
    assert!(of_kind(&episodes, Compromise::OutOfReach, Part::LeftArm).is_empty(), "{episodes:?}");
    let text = render("fold.lbn", &s, &episodes);
    assert!(text.contains("fold.lbn: dancer 1, 1:"), "{text}");
    assert!(text.contains("warning: right arm: target out of reach"), "{text}");
}

#[test]
fn an_arm_straight_back_and_high_hits_the_shoulder_limits() {
    // Right arm back high (beyond the shoulder's 60° extension) for two beats.
    let (s, _, episodes) = report("Dirn 5 171 97 8 10 47 H\n");
    let found = of_kind(&episodes, Compromise::JointLimits, Part::RightArm);
    assert_eq!(found.len(), 1, "{episodes:?}");
    let e = found[0];
    // It starts while the arm rises and lasts to the end of the score (the arm holds).
    let (m, _) = s.measure_at(s.tempo.beats_from_secs(e.t_start_secs));
    assert_eq!(m, 1, "{e:?}");
    assert!(e.worst > 0.05, "{e:?}");
    assert!(render("back.lbn", &s, &episodes).contains("right arm: joint limits hit"));
}

#[test]
fn the_plie_after_the_turn_in_the_walk_demo_lowers_the_pelvis_in_measure_2() {
    // Late in measure 2 (the turn, then the plié) the planted feet need the pelvis lower than its
    // path puts it.
    let s = Score::from_document(&read(labanplay::demo::WALK_ARMS_TURN_LBN, Some("lbn")).unwrap());
    let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    let episodes = compromises(&anim);
    let found = of_kind(&episodes, Compromise::PelvisLowered, Part::Body);
    assert_eq!(found.len(), 1, "{episodes:?}");
    let (m, _) = s.measure_at(s.tempo.beats_from_secs(found[0].t_start_secs));
    assert_eq!(m, 2, "{:?}", found[0]);
    let text = render("walk.lbn", &s, &episodes);
    assert!(text.contains("walk.lbn: dancer 1, 2:"), "{text}");
    assert!(text.contains("body: pelvis lowered to keep the feet on the floor"), "{text}");
}

#[test]
fn an_overridden_arm_gesture_arrives_late() {
    // Right arm up over beats 1–4 of measure 1, but a second symbol in the same column (place
    // low: down) starts at beat 3 and ends with it: the first never gets there.
    let (s, _, episodes) = report("Dirn 11 171 97 16 10 95 H\nDirn 11 171 145 8 10 47 L\n");
    let late: Vec<&Episode> = episodes.iter().filter(|e| e.kind == Compromise::GestureLate).collect();
    if late.is_empty() {
        // The two symbols are not read as overlapping in one arm column: nothing to test here.
        let inspect = labanplay::score::table::render_table(&s);
        panic!("no late gesture; the score reads as:\n{inspect}\n{episodes:?}");
    }
    assert!(late[0].worst > 10.0);
    assert!(render("late.lbn", &s, &episodes).contains("gesture arrives late"));
}

#[test]
fn the_cli_lists_the_demo_compromises_and_exits_cleanly() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/scores"));
    let (text, ok) = labanplay::cli::motion_check::check_motion(std::slice::from_ref(&dir));
    assert!(ok, "{text}");
    assert!(text.contains("jumps.lbn: motion:"), "{text}");
    // One summary line per file.
    let files = labanplay::cli::check::collect_files(std::slice::from_ref(&dir))
        .iter()
        .filter(|p| !p.to_string_lossy().ends_with(".plan.toml"))
        .count();
    assert_eq!(text.lines().filter(|l| l.contains(": motion: ")).count(), files, "{text}");
    // Coalesced: no two lines name the same episode start.
    let warnings: Vec<&str> = text.lines().filter(|l| l.contains("warning:")).collect();
    let mut seen = std::collections::BTreeSet::new();
    for w in &warnings {
        assert!(seen.insert(*w), "duplicate line {w}");
    }
    let missing = labanplay::cli::motion_check::check_motion(&[std::path::PathBuf::from("/no/such/file.lbn")]);
    assert!(!missing.1 && missing.0.contains("cannot read file"), "{}", missing.0);
}

/// The kneeling and floor demo with its floor states as written, or with one support moved.
fn floor_demo(move_support: impl Fn(&mut labanplay::motion::floor::FloorState)) -> (Score, Animation) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scores/kneel-floor.lbn")).unwrap();
    let s = Score::from_document(&read(text.as_bytes(), Some("lbn")).unwrap());
    let mut anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    for key in &mut anim.dancers[0].plan.floor.keys {
        if let Some(state) = key.value.as_mut() {
            move_support(state);
        }
    }
    (s, anim)
}

#[test]
fn the_floor_demo_keeps_its_knees_hands_and_seat_on_the_floor() {
    let episodes = compromises(&floor_demo(|_| {}).1);
    let on_floor = [Compromise::KneeOffFloor, Compromise::HandOffFloor, Compromise::SeatOffFloor];
    let off: Vec<&Episode> = episodes.iter().filter(|e| on_floor.contains(&e.kind)).collect();
    assert!(off.is_empty(), "{off:#?}");
}

#[test]
fn a_knee_or_hand_support_out_of_reach_is_reported_off_the_floor() {
    use labanplay::motion::floor::LegSupport;
    // The left knee's place 1.5 m to the dancer's left of where the score put it: the thighs
    // cannot reach both knees from any pelvis, which sits between them.
    let (_, knee) = floor_demo(|st| {
        if let LegSupport::Knee(at) = &mut st.legs[0] {
            at.x += 1.5;
        }
    });
    let episodes = compromises(&knee);
    let worst = |part| of_kind(&episodes, Compromise::KneeOffFloor, part).iter().map(|e| e.worst).fold(0.0, f32::max);
    assert!(worst(Part::LeftLeg) > 0.3 && worst(Part::RightLeg) > 0.3, "{episodes:#?}");
    // A supporting right hand 1.5 m from its place: beyond the arm.
    let (s, hand) = floor_demo(|st| {
        if let Some(at) = &mut st.hands[1] {
            at.z += 1.5;
        }
    });
    let episodes = compromises(&hand);
    let off = of_kind(&episodes, Compromise::HandOffFloor, Part::RightArm);
    assert!(!off.is_empty() && off.iter().all(|e| e.worst > 0.3), "{episodes:#?}");
    let text = render("kneel-floor.lbn", &s, &episodes);
    assert!(text.contains("right arm: supporting hand could not stay on the floor"), "{text}");
}
