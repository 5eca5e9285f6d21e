//! Thigh and lower-leg columns (a knee or ankle pre-sign in a leg gesture column names the
//! segment it ends): each segment points where its symbol says in the dancer's frame, the other
//! keeps its own direction, left mirrors right, and the motion has no jumps.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::motion::plan::{Foot, world_from_body};
use labanplay::motion::rules::{MotionOptions, gesture_dir_in_body, leg_cross};
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::{BodyPart, Side, lbn};
use labanplay::score::{ChannelKind, EntryKind, Score};

/// One LED staff (centre 133: supports at x 122/134, leg gestures at 97/159), bars every 48
/// units (2 beats), the starting position on both feet, then `body`.
fn one_staff(body: &str) -> Score {
    let mut s = String::from(
        "Stav 0 96 12 1 1 638 B\nStav 1 170 12 1 1 638 B\nStav 2 133 48 1 1 602 L\nBars 0 30 48 1 177 3 B\n\
         Bars 1 30 96 1 177 3 L\nDirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n",
    );
    for k in 2..10 {
        s.push_str(&format!("Bars {k} 30 {} 1 177 3 B\n", 96 + 48 * (k - 1)));
    }
    s.push_str(body);
    Score::from_document(&lbn::read(s.as_bytes()).expect("the test score reads"))
}

/// Standing on the other foot (beat 0–1), one leg's thigh (knee sign) forward middle (beat 1–2),
/// then its lower leg (ankle sign) down (beat 3–4), then its thigh diagonally forward to its own
/// side, middle (beat 5–6): the lower leg stays down.
/// `right`: the right leg (column x 159, knee `Limb 17`, ankle `Limb 18`), else the left one.
fn thigh_then_lower_leg(right: bool) -> Score {
    let (support, x, knee, ankle, diagonal) = if right { (122, 159, 17, 18, 2) } else { (134, 97, 12, 13, 9) };
    let pre = x - 2;
    one_staff(&format!(
        "Dirn 11 {support} 97 4 10 23 M\nLimb {knee} {pre} 97 4 12 24 B\nDirn 1 {x} 122 4 10 23 M\n\
         Limb {ankle} {pre} 146 4 12 24 B\nDirn 11 {x} 171 4 10 23 L\nLimb {knee} {pre} 194 4 12 24 B\n\
         Dirn {diagonal} {x} 219 4 10 23 M\n"
    ))
}

fn leg_joints(side: Side) -> [JointId; 3] {
    match side {
        Side::Left => [JointId::HipL, JointId::KneeL, JointId::AnkleL],
        Side::Right => [JointId::HipR, JointId::KneeR, JointId::AnkleR],
    }
}

/// Thigh and lower-leg directions of `side` at `t_secs`, world frame, and whether the motion
/// report flags that leg out of reach (clamped, or stopped by its joint limits).
fn segments_at(anim: &Animation, t_secs: f64, side: Side) -> (Vec3, Vec3, bool) {
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(&anim.skeleton);
    let report = d.sample_into(&anim.skeleton, t_secs, &mut pose);
    let [h, k, a] = leg_joints(side).map(|j| joint_world(&anim.skeleton, &pose, j).1);
    let i = usize::from(side == Side::Right);
    ((k - h).normalize(), (a - k).normalize(), report.legs_clamped[i] || report.legs_limited[i])
}

/// No joint of the legs pops at 60 fps (more than 3 cm in a frame and 4× its neighbours).
fn assert_no_leg_pops(anim: &Animation) {
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(&anim.skeleton);
    let joints = [JointId::KneeL, JointId::AnkleL, JointId::BallL, JointId::KneeR, JointId::AnkleR, JointId::BallR];
    let n = (anim.duration_secs * 60.0) as usize;
    let track: Vec<Vec<Vec3>> = (0..=n)
        .map(|i| {
            d.sample_into(&anim.skeleton, i as f64 / 60.0, &mut pose);
            joints.iter().map(|j| joint_world(&anim.skeleton, &pose, *j).1).collect()
        })
        .collect();
    for (ji, j) in joints.iter().enumerate() {
        let steps: Vec<f32> = track.windows(2).map(|w| w[0][ji].distance(w[1][ji])).collect();
        for i in 1..steps.len().saturating_sub(1) {
            let around = steps[i - 1].max(steps[i + 1]);
            assert!(!(steps[i] > 0.03 && steps[i] > 4.0 * around), "{j:?} jumps {:.3} m at frame {}", steps[i], i + 1);
        }
    }
}

#[test]
fn a_thigh_sign_moves_the_thigh_and_an_ankle_sign_the_lower_leg_left_mirroring_right() {
    let mut seen = Vec::new();
    for right in [true, false] {
        let s = thigh_then_lower_leg(right);
        assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
        let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
        let texts: Vec<&str> = anim.interpretation.skipped.iter().map(|d| d.message.as_str()).collect();
        assert!(!texts.iter().any(|m| m.contains("not animated")), "{texts:?}");
        let side = if right { Side::Right } else { Side::Left };
        let yaw = anim.dancers[0].yaw_at(0.0);
        let world = |v: Vec3| world_from_body(v, yaw).normalize();
        let outward = if right { 1.0 } else { -1.0 };
        let (forward, down, diagonal) = (world(Vec3::Z), world(-Vec3::Y), world(Vec3::new(outward, 0.0, 1.0)));
        // (beat the symbol ends, thigh, lower leg) as written.
        for (beat, thigh_want, shin_want) in [(2.0, forward, forward), (4.0, forward, down), (6.0, diagonal, down)] {
            let (thigh, shin, clamped) = segments_at(&anim, s.tempo.secs_from_beats(beat), side);
            let (e_thigh, e_shin) =
                (thigh.angle_between(thigh_want).to_degrees(), shin.angle_between(shin_want).to_degrees());
            assert!(!clamped, "{side:?} beat {beat}: out of reach");
            assert!(
                e_thigh < 3.0 && e_shin < 3.0,
                "{side:?} beat {beat}: thigh {e_thigh:.1}°, lower leg {e_shin:.1}° off"
            );
            seen.push((thigh, shin));
        }
        assert_no_leg_pops(&anim);
    }
    // The left leg's segments are the right leg's mirrored (x is the dancer's side axis here).
    let mirror = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
    for i in 0..3 {
        let (r, l) = (seen[i], seen[i + 3]);
        assert!(mirror(r.0).angle_between(l.0).to_degrees() < 0.5 && mirror(r.1).angle_between(l.1).to_degrees() < 0.5);
    }
}

/// knee.lbn (its thigh and lower-leg columns, all on a leg in the air): at the end of each
/// segment symbol the segment it names points the written way, within 5°, or the sampler
/// reports the leg out of reach; a symbol that ends as its leg steps is only listed.
#[test]
fn real_knee_score_points_each_segment_its_written_way() {
    let Some(dir) = support::real_scores_dir("thigh and lower-leg columns") else { return };
    let s = crate::support::load_score(&dir.join("laban-tk/knee.lbn"));
    let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    let texts: Vec<&str> = anim.interpretation.skipped.iter().map(|d| d.message.as_str()).collect();
    assert!(!texts.iter().any(|m| m.contains("not animated")), "{texts:?}");
    let mut checked = Vec::new();
    for side in [Side::Left, Side::Right] {
        for (part, lower) in [(BodyPart::Knee(side), false), (BodyPart::Ankle(side), true)] {
            let Some(ch) = s.staves[0].channel(ChannelKind::Part(part)) else { continue };
            for e in &ch.entries {
                let EntryKind::Direction { direction, level } = e.kind else { continue };
                let t = e.start_secs + e.duration_secs;
                // A gesture that ends as the leg steps has no held end to check (the foot is on
                // its way to the floor).
                let foot = if side == Side::Left { Foot::Left } else { Foot::Right };
                if anim.dancers[0].plan.footprints.iter().any(|f| {
                    f.foot == foot && f.t_step_start_secs > e.start_secs && f.t_step_start_secs <= t + 1.0 / 60.0
                }) {
                    checked.push(format!(
                        "{side:?} {} at {t:.2} s: steps at its end",
                        if lower { "lower leg" } else { "thigh" }
                    ));
                    continue;
                }
                let mut written = gesture_dir_in_body(direction, level);
                if !lower {
                    written = leg_cross(written, side == Side::Right);
                }
                let want = world_from_body(written, anim.dancers[0].yaw_at(t)).normalize();
                let (thigh, shin, clamped) = segments_at(&anim, t, side);
                let err = if lower { shin } else { thigh }.angle_between(want).to_degrees();
                checked.push(format!(
                    "{side:?} {} at {:.2} s: {err:.1}°{}",
                    if lower { "lower leg" } else { "thigh" },
                    t,
                    if clamped { " (out of reach)" } else { "" }
                ));
                assert!(clamped || err < 5.0, "{checked:#?}");
            }
        }
    }
    assert_eq!(checked.len(), 6, "{checked:#?}");
    eprintln!("{checked:#?}");
    assert_no_leg_pops(&anim);
}

/// thigh.lbn: the hip signs (`Limb` 11/16) in the leg columns displace the hips: the left hip
/// forward turns the pelvis to the right (the left hip joint comes forward), both hips displaced
/// opposite ways turn it twice as far, the chest keeps facing the front, a standing foot stays
/// where it is, and place middle brings the pelvis back.
#[test]
fn real_thigh_score_displaces_the_hips_with_the_feet_standing() {
    let Some(dir) = support::real_scores_dir("hip columns") else { return };
    let s = crate::support::load_score(&dir.join("laban-tk/thigh.lbn"));
    let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    let texts: Vec<&str> = anim.interpretation.skipped.iter().map(|d| d.message.as_str()).collect();
    assert!(!texts.iter().any(|m| m.contains("not animated")), "{texts:?}");
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(&anim.skeleton);
    // How far the hip line and the shoulder line have turned to the right (clockwise from
    // above), degrees, and the left ankle, at `beats`.
    let mut at = |beats: f64| {
        d.sample_into(&anim.skeleton, s.tempo.secs_from_beats(beats), &mut pose);
        let p = |j| joint_world(&anim.skeleton, &pose, j).1;
        let turn = |l: Vec3, r: Vec3| {
            let across = l - r; // the dancer's left, when facing +Z: +X
            across.z.atan2(across.x).to_degrees()
        };
        (
            turn(p(JointId::HipL), p(JointId::HipR)),
            turn(p(JointId::ShoulderL), p(JointId::ShoulderR)),
            p(JointId::AnkleL),
        )
    };
    assert_eq!(d.yaw_at(0.0), 0.0, "the dancer faces +Z");
    let (hips0, shoulders0, ankle0) = at(0.4);
    assert!(hips0.abs() < 0.1 && shoulders0.abs() < 0.1, "{hips0} {shoulders0}");
    // Measure 2, beat 1.5 (beat 3 of the score): the left hip forward, the right one in place.
    let (hips, shoulders, ankle) = at(3.0);
    let one = labanplay::motion::rules::HIP_SHIFT_TURN_RAD.to_degrees();
    assert!((hips - one).abs() < 0.5, "hips turned {hips:.1}°");
    assert!(shoulders.abs() < 1.0, "shoulders turned {shoulders:.1}°");
    assert!(ankle.distance(ankle0) < 1e-3, "left ankle moved {:.4} m", ankle.distance(ankle0));
    // Place middle (measure 2, beat 2, to beat 4) brings the pelvis back.
    let (hips, _, _) = at(4.0);
    assert!(hips.abs() < 0.5, "hips turned {hips:.1}° after place middle");
    // Measure 3, beat 1.5 (beat 5): the left hip back and the right one forward (its sign is
    // drawn overlapping its direction symbol; read as the whole right leg it lifted the leg).
    let (hips, shoulders, _) = at(5.0);
    assert!((hips + 2.0 * one).abs() < 0.5 && shoulders.abs() < 1.0, "hips {hips:.1}°, shoulders {shoulders:.1}°");
    // Measure 4, beat 1 (beat 7): the left hip forward and the right one back, twice as far.
    let (hips, shoulders, _) = at(7.0);
    assert!((hips - 2.0 * one).abs() < 0.5 && shoulders.abs() < 1.0, "hips {hips:.1}°, shoulders {shoulders:.1}°");
    // Measure 4, beat 2: both back in place; measure 5, beat 1.5 (beat 9): the right hip forward.
    let (hips, _, _) = at(8.0);
    assert!(hips.abs() < 0.5, "hips turned {hips:.1}° after place middle");
    let (hips, _, _) = at(9.0);
    assert!((hips + one).abs() < 0.5, "hips turned {hips:.1}°");
    assert_no_leg_pops(&anim);
}

/// A thigh sign on the leg that bears the weight alone (a step forward onto the left foot lifts
/// the right one; then the left thigh forward) modifies the support: a warning with its staff
/// position, and the left foot stays on the floor.
#[test]
fn a_thigh_sign_on_the_supporting_leg_is_a_warning_not_a_gesture() {
    let s = one_staff("Dirn 1 122 97 4 10 23 M\nLimb 12 95 122 4 12 24 B\nDirn 1 97 146 4 10 23 M\n");
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
    let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    let texts: Vec<&str> = anim.interpretation.skipped.iter().map(|d| d.message.as_str()).collect();
    assert!(
        texts.iter().any(|m| m.contains("supporting leg") && m.starts_with("staff 1, measure 2, beat 1.00, column -2")),
        "{texts:?}"
    );
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(&anim.skeleton);
    let mut ankle = |beats: f64| {
        d.sample_into(&anim.skeleton, s.tempo.secs_from_beats(beats), &mut pose);
        joint_world(&anim.skeleton, &pose, JointId::AnkleL).1
    };
    let (a, b) = (ankle(1.5), ankle(3.0));
    assert!(a.distance(b) < 1e-3 && b.y < 0.1, "left ankle {a:?} -> {b:?}");
}
