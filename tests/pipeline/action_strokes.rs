//! Action strokes (a plain vertical line) in the arm columns: with a space-measurement sign
//! below them the arm bends or stretches in place and keeps its direction; judged against the
//! symbols on a score written here and on the real `near-far.lbn`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::reading::{animate, assert_no_pops, one_staff, poses_at, score, world_of};
use crate::support;
use glam::Vec3;
use labanplay::animation::Animation;
use labanplay::motion::rules::gesture_dir_in_body;
use labanplay::pose::fk::joint_world;
use labanplay::pose::skeleton::JointId;
use labanplay::read::{Side, VolumeSign};
use labanplay::score::{ChannelKind, EntryKind, Modifier, Score};

/// (elbow bend in degrees, shoulder → wrist direction in the world) of the right or left arm.
fn arm_at(anim: &Animation, t_secs: f64, side: Side) -> (f32, Vec3) {
    let poses = poses_at(anim, t_secs);
    let joints = match side {
        Side::Left => [JointId::ShoulderL, JointId::ElbowL, JointId::WristL],
        Side::Right => [JointId::ShoulderR, JointId::ElbowR, JointId::WristR],
    };
    let [sh, el, wr] = joints.map(|j| joint_world(&anim.skeleton, &poses[0], j).1);
    ((el - sh).angle_between(wr - el).to_degrees(), (wr - sh).normalize())
}

fn bend_deg_of(v: VolumeSign) -> Option<f32> {
    match v {
        VolumeSign::Bent => Some(90.0),
        VolumeSign::Relaxed => Some(45.0),
        VolumeSign::Straight | VolumeSign::Stretched => Some(0.0),
        _ => None,
    }
}

/// Every arm action stroke of staff 0 with a space-measurement sign: at the stroke's end the
/// elbow has the sign's bend (within 4°) and the arm still points where its last direction symbol
/// (natural standing: down) said (within 5°). Returns how many were checked.
fn check_actions(s: &Score, anim: &Animation) -> usize {
    let mut checked = 0;
    for side in [Side::Left, Side::Right] {
        let Some(ch) = s.staves[0].channel(ChannelKind::Arm(side)) else { continue };
        let start = s.staves[0].start_position.iter().filter(|(k, _)| *k == ChannelKind::Arm(side)).map(|(_, e)| e);
        let mut written = -Vec3::Y;
        for e in start.chain(&ch.entries) {
            match &e.kind {
                EntryKind::Direction { direction, level } => {
                    written = world_of(gesture_dir_in_body(*direction, *level))
                }
                EntryKind::Action => {
                    let bend = e.modifiers.iter().find_map(|m| match m {
                        Modifier::Volume(v) => bend_deg_of(*v),
                        _ => None,
                    });
                    let Some(bend) = bend else { continue };
                    let (elbow, dir) = arm_at(anim, e.start_secs + e.duration_secs + 0.02, side);
                    let at = format!("{side:?} arm, action at beat {:.2}", e.start_beats);
                    assert!((elbow - bend).abs() < 4.0, "{at}: elbow {elbow:.1}°, the sign says {bend}°");
                    let off = dir.angle_between(written).to_degrees();
                    assert!(off < 5.0, "{at}: the arm points {off:.1}° away from its written direction");
                    checked += 1;
                }
                _ => {}
            }
        }
    }
    checked
}

#[test]
fn an_action_stroke_with_a_bent_sign_bends_the_arm_in_place_and_a_straight_sign_stretches_it() {
    // Right arm to the side (beat 0–1); bent + action stroke (beat 2.7–3.7); straight + action
    // stroke (beat 4.7–5.7).
    let s = score(&one_staff(
        "Dirn 3 184 97 4 10 23 M\nVolm 3 183 146 1 12 12 B\nWays 3 186 160 6 12 24 B\n\
         Volm 2 183 194 1 12 12 B\nWays 3 186 208 6 12 24 B\n",
    ));
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
    let anim = animate(&s);
    assert!(anim.interpretation.skipped.is_empty(), "{:#?}", anim.interpretation.skipped);
    assert_eq!(check_actions(&s, &anim), 2);
    // Before the first stroke the arm is straight, to the side.
    let (elbow, dir) = arm_at(&anim, s.tempo.secs_from_beats(2.0), Side::Right);
    assert!(elbow < 3.0 && dir.angle_between(world_of(Vec3::X)).to_degrees() < 5.0, "{elbow} {dir:?}");
    // Halfway through the bend the elbow is on its way (the bend takes the stroke's time).
    let (elbow, _) = arm_at(&anim, s.tempo.secs_from_beats(3.17), Side::Right);
    assert!(elbow > 20.0 && elbow < 70.0, "mid-stroke elbow {elbow:.1}°");
    assert_no_pops(&anim, &[JointId::ElbowR, JointId::WristR, JointId::HandR]);
}

#[test]
fn an_action_stroke_without_a_space_measurement_sign_is_a_warning_with_its_place() {
    let s = score(&one_staff("Dirn 3 184 97 4 10 23 M\nWays 3 186 160 6 12 24 B\n"));
    let anim = animate(&s);
    let w: Vec<_> = anim.interpretation.skipped.iter().filter(|d| d.message.contains("action stroke")).collect();
    assert_eq!(w.len(), 1, "{:#?}", anim.interpretation.skipped);
    assert!(w[0].message.contains("measure") && w[0].message.contains("column 4"), "{}", w[0].message);
}

#[test]
fn near_far_arms_contract_and_extend_where_the_action_strokes_say() {
    let Some(dir) = support::real_scores_dir("action strokes") else { return };
    let s = crate::support::load_score(&dir.join("laban-tk/near-far.lbn"));
    assert!(
        s.warnings.iter().all(|w| !w.message.contains("Ways 3") && !w.message.contains("could modify")),
        "{:#?}",
        s.warnings
    );
    let anim = animate(&s);
    // Of the ten strokes, nine have a bent, relaxed or straight sign below them. Under the left
    // arm's stroke in measure 8 the sign is `Volm 7` (a hold, read as such): a warning.
    let left: Vec<_> = anim.interpretation.skipped.iter().filter(|d| d.message.contains("action stroke")).collect();
    assert_eq!(left.len(), 1, "{left:#?}");
    assert!(left[0].message.contains("measure 8, beat 1.50, column -4"), "{}", left[0].message);
    assert_eq!(check_actions(&s, &anim), 9);
}
