//! Partners joined by a contact come together before it is reached and travel together while it
//! holds (`contact::together`): two dancers placed 1.5 m apart face each other, step sideways
//! the same way, join hands at beat 4 and step on with different travel.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::motion_invariants::{STRICT, assert_feet, check_invariants};
use crate::reading::{animate, poses_at, score};
use labanplay::animation::{Animation, compile};
use labanplay::contact::solve::{PALM_HALF_THICKNESS_M, palm_in_world, point_in_world};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::skeleton::Proportions;
use labanplay::pose::skeleton::Side;
use labanplay::score::Score;

/// Two staves (centres 133 and 303), 24 page units a beat from y = 96, feet together in the
/// starting position.
fn couple(body: &str) -> Score {
    let mut s = String::from(
        "Stav 0 96 12 1 1 638 B\nStav 1 170 12 1 1 638 B\nStav 2 133 48 1 1 602 L\n\
         Stav 3 266 12 1 1 638 B\nStav 4 340 12 1 1 638 B\nStav 5 303 48 1 1 602 L\n\
         Bars 0 30 48 1 464 3 B\nBars 1 30 96 1 464 3 L\n\
         Dirn 11 122 70 4 10 23 M\nDirn 11 134 70 4 10 23 M\nDirn 11 292 70 4 10 23 M\nDirn 11 304 70 4 10 23 M\n",
    );
    for k in 2..8 {
        s.push_str(&format!("Bars {k} 30 {} 1 464 3 B\n", 96 + 48 * (k - 1)));
    }
    s.push_str(body);
    score(&s)
}

/// Four steps from beat `from` (a beat each), right foot first, on the staff whose support
/// columns are at `left_x`, `left_x + 12`: the right foot to `codes[0]`, the left to `codes[1]`.
fn steps(left_x: i32, from: i32, codes: [u8; 2]) -> String {
    (0..4)
        .map(|i| {
            let y = 97 + 24 * (from + i);
            if i % 2 == 0 {
                format!("Dirn {} {} {y} 4 10 23 M\n", codes[0], left_x + 12)
            } else {
                format!("Dirn {} {left_x} {y} 4 10 23 M\n", codes[1])
            }
        })
        .collect()
}

/// Four steps in place from beat `from`.
fn step_in_place(left_x: i32, from: i32) -> String {
    steps(left_x, from, [11, 11])
}

/// Four steps travelling to the right (the right foot to the side, the left closing).
fn step_to_the_right(left_x: i32, from: i32) -> String {
    steps(left_x, from, [3, 11])
}

/// Four steps travelling to the left (the right foot closing, the left to the side).
fn step_to_the_left(left_x: i32, from: i32) -> String {
    steps(left_x, from, [11, 8])
}

/// Four steps travelling backward (the right foot back, the left closing).
fn step_back(left_x: i32, from: i32) -> String {
    steps(left_x, from, [5, 11])
}

/// They face each other (he on the dancers' left turned to his right, she to her left). At
/// beat 4 he raises his right arm forward and she her left arm; a bow joins his right hand and
/// her left hand (held to the end).
const JOIN_HANDS_AT_BEAT_4: &str = "Face 3 50 60 1 18 18 B\nFace 7 400 60 1 18 18 B\n\
     Dirn 1 171 193 4 10 23 M\nDirn 10 255 193 4 10 23 M\n\
     Limb 10 185 194 4 12 24 B\nLimb 4 241 194 4 12 24 B\nMisc 1 188 184 13 58 24 B\n";

fn hand_gap_m(anim: &Animation, t_secs: f64) -> f32 {
    let poses = poses_at(anim, t_secs);
    palm_in_world(&anim.skeleton, &poses[0], Side::Right).distance(palm_in_world(&anim.skeleton, &poses[1], Side::Left))
}

/// The same score compiled with each staff travelling as written.
fn as_written(s: &Score) -> Animation {
    let opts = MotionOptions { partners_together: false, ..MotionOptions::default() };
    compile(s, &opts, &Proportions::default())
}

fn joined_after_stepping_sideways(second_part: [&str; 2]) -> (Score, Animation) {
    let body = format!(
        "{}{}{JOIN_HANDS_AT_BEAT_4}{}{}",
        step_to_the_right(122, 0),
        step_to_the_left(292, 0),
        second_part[0],
        second_part[1]
    );
    let s = couple(&body);
    assert_eq!(s.contacts.len(), 1, "{:#?}\n{:#?}", s.contacts, s.warnings);
    assert!(s.contacts[0].between_dancers() && s.contacts[0].start_beats > 3.5, "{:#?}", s.contacts);
    let anim = animate(&s);
    (s, anim)
}

/// The gap between the two palms' surfaces (joined palms' centres stay a palm's thickness apart).
fn palm_surface_gap_m(anim: &Animation, t_secs: f64) -> f32 {
    hand_gap_m(anim, t_secs) - 2.0 * PALM_HALF_THICKNESS_M
}

#[test]
fn partners_apart_step_towards_each_other_and_their_hands_meet_at_the_reach() {
    let (s, anim) = joined_after_stepping_sideways([&step_in_place(122, 5), &step_in_place(292, 5)]);
    let c = &anim.contacts[0];
    let start_x = [0, 1].map(|d| anim.dancers[d].pelvis_at(0.0).x);
    assert!((start_x[0] - start_x[1]).abs() > 1.4, "they start 1.5 m apart: {start_x:?}");
    let gap = palm_surface_gap_m(&anim, c.t_full_secs);
    println!("palms {:.1} cm apart at the reach ({:.2} s)", gap * 100.0, c.t_full_secs);
    assert!(gap < 0.02, "palms {:.1} cm apart at the reach", gap * 100.0);
    assert!(
        anim.interpretation.skipped.iter().all(|d| !d.message.contains("out of reach")),
        "{:#?}",
        anim.interpretation.skipped
    );
    // They came together over the steps before the reach: closer there than at the start.
    let x_at_reach = [0, 1].map(|d| anim.dancers[d].pelvis_at(c.t_full_secs).x);
    assert!((x_at_reach[0] - x_at_reach[1]).abs() < 1.2, "{x_at_reach:?}");
    assert_feet(&check_invariants("join at beat 4", &anim), STRICT, "join at beat 4");
    // Each staff travelling as written, the hands cannot meet.
    let apart = as_written(&s);
    let gap_as_written = palm_surface_gap_m(&apart, c.t_full_secs);
    println!("as written: palms {:.1} cm apart at the reach", gap_as_written * 100.0);
    assert!(gap_as_written > 0.1, "as written the palms are {:.1} cm apart", gap_as_written * 100.0);
}

#[test]
fn a_couple_in_a_hold_travels_together_when_their_staves_travel_apart() {
    // After joining hands he steps to his right while she steps back, away from him.
    let (s, anim) = joined_after_stepping_sideways([&step_to_the_right(122, 5), &step_back(292, 5)]);
    let c = &anim.contacts[0];
    let end = anim.duration_secs - 1e-3;
    let mut worst = 0.0f32;
    let n = 40;
    for i in 0..=n {
        let t = c.t_full_secs + (end - c.t_full_secs) * f64::from(i) / f64::from(n);
        worst = worst.max(palm_surface_gap_m(&anim, t));
    }
    println!("palms at most {:.1} cm apart while held", worst * 100.0);
    assert!(worst < 0.03, "palms {:.1} cm apart during the hold", worst * 100.0);
    assert_feet(&check_invariants("hold apart", &anim), STRICT, "hold apart");
    // Each staff travelling as written, they part.
    let apart = as_written(&s);
    let gap_as_written = palm_surface_gap_m(&apart, end);
    println!("as written: palms {:.1} cm apart at the end", gap_as_written * 100.0);
    assert!(gap_as_written > 0.3, "as written the palms end {:.1} cm apart", gap_as_written * 100.0);
    // The couple travels by the mean of what the staves say (the stance trails its placement by
    // half a step while stepping on; the last step before a stop leads by at most 10 cm).
    // (From the bow, standing after the approach, to the end, standing after the last steps.)
    let travel = |a: &Animation, d: usize| a.dancers[d].pelvis_at(end) - a.dancers[d].pelvis_at(c.t_start_secs);
    let mean = (travel(&apart, 0) + travel(&apart, 1)) * 0.5;
    let moved = [travel(&anim, 0), travel(&anim, 1)];
    println!("written {:.2?} and {:.2?}; together {moved:.2?}", travel(&apart, 0), travel(&apart, 1));
    assert!(mean.length() > 0.2, "the mean of the written travel is {mean:?}");
    assert!(moved.iter().all(|m| m.distance(mean) < 0.15), "travelled {moved:?}, the mean is {mean:?}");
}

/// The largest distance between the two ends of each contact while it is fully held, metres.
fn worst_held_gap_m(anim: &Animation) -> f32 {
    let mut worst = 0.0f32;
    for c in &anim.contacts {
        let n = 30;
        for i in 0..=n {
            let t = c.t_full_secs + (c.t_end_secs - c.t_full_secs) * f64::from(i) / f64::from(n);
            let poses = poses_at(anim, t.min(anim.duration_secs - 1e-3));
            let [a, b] = c.ends;
            let gap = point_in_world(&anim.skeleton, &poses[a.dancer], a).distance(point_in_world(
                &anim.skeleton,
                &poses[b.dancer],
                b,
            ));
            worst = worst.max(gap);
        }
    }
    worst
}

#[test]
fn the_barn_dance_couple_keeps_its_holds() {
    let Some(dir) = crate::support::real_scores_dir("barn dance holds") else { return };
    let s = crate::support::load_score(&dir.join("laban-tk/barn.lbn"));
    let (together, apart) = (animate(&s), as_written(&s));
    let out_of_reach =
        |a: &Animation| a.interpretation.skipped.iter().filter(|d| d.message.contains("out of reach")).count();
    let (worst, worst_as_written) = (worst_held_gap_m(&together), worst_held_gap_m(&apart));
    println!(
        "barn: held parts at most {:.1} cm apart ({:.1} cm as written); {} out of reach ({} as written)",
        worst * 100.0,
        worst_as_written * 100.0,
        out_of_reach(&together),
        out_of_reach(&apart)
    );
    // As written the partners drift apart in the third hold (measure 12 on).
    assert!(worst_as_written > 0.15, "as written: {:.1} cm", worst_as_written * 100.0);
    assert!(worst < 0.10, "held parts {:.1} cm apart", worst * 100.0);
    assert_eq!(out_of_reach(&together), 0, "{:#?}", together.interpretation.skipped);
}

/// The warnings that a contact turned an arm away from its written direction.
fn turned_arms(anim: &Animation) -> Vec<String> {
    let said = anim.interpretation.skipped.iter().map(|d| d.message.clone());
    said.filter(|m| m.contains("from the written arm direction")).collect()
}

#[test]
fn a_contact_that_turns_an_arm_from_its_written_direction_is_said() {
    // Facing each other, his right arm and her left arm forward: the hands meet as written.
    let forward =
        animate(&couple(&format!("{}{}{JOIN_HANDS_AT_BEAT_4}", step_in_place(122, 0), step_in_place(292, 0))));
    assert_eq!(turned_arms(&forward), Vec::<String>::new());
    // The same arms written back: the hands can only meet in front of them; kept, and said.
    let back =
        JOIN_HANDS_AT_BEAT_4.replace("Dirn 1 171 193", "Dirn 5 171 193").replace("Dirn 10 255 193", "Dirn 6 255 193");
    let turned = animate(&couple(&format!("{}{}{back}", step_in_place(122, 0), step_in_place(292, 0))));
    let said = turned_arms(&turned);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("contact 1 (measure 3, beat 1.00): the hand meets the other end"), "{said:?}");
    assert!(worst_held_gap_m(&turned) < 0.06, "the hands still meet");
}

#[test]
fn the_barn_dance_starting_hold_says_which_contacts_turn_the_arms() {
    let Some(dir) = crate::support::real_scores_dir("barn dance arms turned by the holds") else { return };
    let anim = animate(&crate::support::load_score(&dir.join("laban-tk/barn.lbn")));
    let lines: Vec<u32> = anim
        .interpretation
        .skipped
        .iter()
        .filter(|d| d.message.contains("from the written arm direction") && d.message.contains("starting position"))
        .map(|d| d.span.line)
        .collect();
    // Lines 37 and 38: the man's right hand on the back of her left shoulder and her left hand on
    // the front of his right elbow, while they face 90° apart with those arms written forward.
    assert_eq!(lines, [37, 38]);
}
