//! Circular path signs (labanotation-rules §4.3, test phrase P8): the steps they span travel on
//! a circle whose centre is on the side the path turns to, and the facing turns by the path's
//! amount, shared among the steps. Also: front signs are checked against the finished turns.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::motion::plan::{forward_of, right_of};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::skeleton::Proportions;
use labanplay::read::read;
use labanplay::score::{Channel, ChannelKind, EntryKind, Modifier, Score};
use std::f32::consts::{PI, TAU};

const CIRCLE_LW: &[u8] = include_bytes!("../../scores/circle.lw");

fn score() -> Score {
    Score::from_document(&read(CIRCLE_LW, Some("lw")).unwrap())
}

fn animate(score: &Score) -> Animation {
    compile(score, &MotionOptions::default(), &Proportions::default())
}

fn flat(v: Vec3) -> Vec3 {
    Vec3::new(v.x, 0.0, v.z)
}

fn angle_deg(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(TAU);
    d.min(TAU - d).to_degrees()
}

/// Centre-of-weight targets (one per step) landing inside `[t0, t1]`, plus the one before.
fn com_keys(anim: &Animation, t0: f64, t1: f64) -> Vec<Vec3> {
    let keys = &anim.dancers[0].plan.com_ground.keys;
    let before = keys.iter().rfind(|k| k.t_end_secs <= t0 + 1e-6).map(|k| k.value);
    before
        .into_iter()
        .chain(keys.iter().filter(|k| k.t_end_secs > t0 + 1e-6 && k.t_end_secs <= t1 + 1e-6).map(|k| k.value))
        .collect()
}

#[test]
fn clockwise_full_circle_returns_to_the_start_facing_the_start() {
    let anim = animate(&score());
    assert!(
        anim.interpretation.skipped.is_empty(),
        "{:?}",
        anim.interpretation.skipped.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    let d = &anim.dancers[0];
    let yaw0 = d.yaw_at(0.0);
    // A full clockwise circle: the facing decreases by 360° in total, 180° halfway.
    assert!((d.yaw_at(8.0) - yaw0 + TAU).abs().to_degrees() < 1.0, "{}", (d.yaw_at(8.0) - yaw0).to_degrees());
    assert!(angle_deg(d.yaw_at(4.0), yaw0 - PI) < 1.0, "{}", d.yaw_at(4.0).to_degrees());
    // Facing only ever turns clockwise along the path.
    let mut prev = d.yaw_at(0.0);
    for i in 1..=160 {
        let y = d.yaw_at(i as f64 * 0.05);
        assert!(y <= prev + 1e-5, "turned back at {}", i as f64 * 0.05);
        prev = y;
    }

    // The steps trace a polygon round a centre on the dancer's right.
    let keys = com_keys(&anim, 0.0, 8.0);
    assert_eq!(keys.len(), 9, "start + eight steps");
    let start = keys[0];
    let step_m: f32 = keys.windows(2).map(|w| w[0].distance(w[1])).sum::<f32>() / 8.0;
    let centre = keys[..8].iter().copied().sum::<Vec3>() / 8.0;
    let radius_m = 8.0 * step_m / TAU; // labanotation-rules §4.3: distance ÷ (2π × fraction)
    assert!(keys[8].distance(start) < 0.02, "ends {} m from the start", keys[8].distance(start));
    for k in &keys {
        let r = k.distance(centre);
        assert!((r - radius_m).abs() < 0.06 * radius_m, "vertex at {r:.3} m, circle radius {radius_m:.3} m");
    }
    let to_centre = centre - start;
    let right = right_of(yaw0);
    assert!(to_centre.normalize().angle_between(right).to_degrees() < 25.0, "centre is not on the right");
    // Halfway round, the dancer is a diameter to the right of the start and faces upstage.
    let half = keys[4] - start;
    assert!((half.dot(right) - 2.0 * to_centre.length()).abs() < 0.05, "{half:?}");

    // The pelvis itself circles the same centre (the optimiser smooths the polygon's corners).
    for i in 1..16 {
        let t = i as f64 * 0.5;
        let p = flat(d.pelvis_at(t));
        let r = p.distance(flat(centre));
        assert!(r > 0.8 * radius_m && r < 1.1 * radius_m, "t={t}: pelvis {r:.3} m from the centre");
    }
    let end = flat(d.pelvis_at(8.0));
    // Walking on into the next path, the pelvis passes within a few centimetres of where it began.
    assert!(end.distance(flat(d.pelvis_at(0.0))) < 0.1, "pelvis ends {} m away", end.distance(flat(d.pelvis_at(0.0))));
}

#[test]
fn counter_clockwise_half_circle_ends_a_diameter_to_the_left_facing_upstage() {
    let anim = animate(&score());
    let d = &anim.dancers[0];
    let yaw8 = d.yaw_at(8.0);
    assert!((d.yaw_at(12.0) - yaw8 - PI).abs().to_degrees() < 1.0, "{}", (d.yaw_at(12.0) - yaw8).to_degrees());
    let keys = com_keys(&anim, 8.0, 12.0);
    assert_eq!(keys.len(), 5, "start + four steps");
    let across = keys[4] - keys[0];
    let step_m: f32 = keys.windows(2).map(|w| w[0].distance(w[1])).sum::<f32>() / 4.0;
    // Four chords of an octagon: a diameter of its circumcircle.
    let diameter_m = step_m / (PI / 8.0).sin();
    assert!((across.dot(-right_of(yaw8)) - diameter_m).abs() < 0.03, "{across:?} vs {diameter_m}");
    assert!(across.dot(forward_of(yaw8)).abs() < 0.03, "{across:?}");
}

/// The score with the circular paths' pins taken away; `front` adds a front sign closing the
/// first path at the given facing.
fn without_pins(front: Option<f64>) -> Score {
    let mut score = score();
    let staff = &mut score.staves[0];
    let mut closing = None;
    for ch in &mut staff.channels {
        if ch.kind != ChannelKind::Path {
            continue;
        }
        for e in &mut ch.entries {
            if let EntryKind::Path { amount_deg, .. } = &mut e.kind {
                *amount_deg = None;
            }
            e.modifiers.retain(|m| !matches!(m, Modifier::TurnPin { .. }));
            if closing.is_none() {
                closing = Some(e.clone());
            }
        }
    }
    if let (Some(facing_deg), Some(mut e)) = (front, closing) {
        e.start_beats = e.end_beats() - 0.5;
        e.start_secs += e.duration_secs - 0.5;
        e.duration_beats = 0.5;
        e.duration_secs = 0.5;
        e.kind = EntryKind::Front { facing_deg };
        e.modifiers.clear();
        staff.channels.push(Channel { kind: ChannelKind::Front, entries: vec![e] });
    }
    score
}

#[test]
fn a_closing_front_sign_gives_the_amount_when_the_path_has_no_pin() {
    // Clockwise from facing the audience (0°) to facing stage right (90° clockwise): a quarter.
    let anim = animate(&without_pins(Some(90.0)));
    let d = &anim.dancers[0];
    let turned = (d.yaw_at(8.0) - d.yaw_at(0.0)).to_degrees();
    assert!((turned + 90.0).abs() < 1.0, "turned {turned}°");
    let front_warnings: Vec<_> =
        anim.interpretation.skipped.iter().filter(|w| w.message.contains("front sign says")).collect();
    assert!(front_warnings.is_empty(), "{front_warnings:?}");
}

#[test]
fn a_circular_path_without_pin_or_front_sign_is_reported_and_walks_straight() {
    let anim = animate(&without_pins(None));
    let d = &anim.dancers[0];
    assert!(angle_deg(d.yaw_at(16.0), d.yaw_at(0.0)) < 0.01);
    let msgs: Vec<&str> = anim.interpretation.skipped.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(msgs.iter().filter(|m| m.contains("circular path without a pin")).count(), 2, "{msgs:?}");
    // Straight: twelve forward steps end straight ahead of the start.
    let keys = com_keys(&anim, 0.0, 12.0);
    let travel = keys[keys.len() - 1] - keys[0];
    assert!(travel.dot(right_of(d.yaw_at(0.0))).abs() < 1e-3, "{travel:?}");
    assert!(travel.dot(forward_of(d.yaw_at(0.0))) > 5.0, "{travel:?}");
}

#[test]
fn lbn_ways_items_are_reported_not_guessed() {
    let Some(dir) = support::real_scores_dir("LED Ways items") else { return };
    let bytes = std::fs::read(dir.join("laban-tk/floor_paths.lbn")).unwrap();
    let score = Score::from_document(&read(&bytes, Some("lbn")).unwrap());
    let anim = animate(&score);
    let ways: Vec<&str> = anim
        .interpretation
        .skipped
        .iter()
        .map(|w| w.message.as_str())
        .filter(|m| m.contains("not a known path sign"))
        .collect();
    // The ⊥ … ⊤ pair (`Ways 1` … `Ways 2`) brackets a straight path sign since the composer
    // reads symbols outside the staff (score/outside.rs); no Ways item is left unexplained.
    assert!(ways.is_empty(), "{ways:?}");
}

#[test]
fn barn_dance_front_signs_agree_with_its_pinned_turns() {
    // The rotary chassés of barn.lbn: each pinned turn (pin 2 = 1/8, pin 3 = 1/4 turn right) has
    // a front sign written at its start, giving the facing it turns from; read that way, the
    // turns the pins state lead exactly through the written front signs (read as the facing
    // after the turn, 64 would disagree; one mismatch is left in measure 8).
    let Some(dir) = support::real_scores_dir("barn front signs") else { return };
    let bytes = std::fs::read(dir.join("laban-tk/barn.lbn")).unwrap();
    let score = Score::from_document(&read(&bytes, Some("lbn")).unwrap());
    let anim = animate(&score);
    let disagreeing: Vec<String> = anim
        .interpretation
        .skipped
        .iter()
        .filter(|w| w.message.contains("front sign says"))
        .map(|w| w.message.clone())
        .collect();
    assert!(disagreeing.len() <= 2, "{} front signs disagree:\n{}", disagreeing.len(), disagreeing.join("\n"));
}
