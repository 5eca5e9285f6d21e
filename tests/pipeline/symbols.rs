//! The rest of the LED symbol set: rotation signs in body columns (chest twists, head turns, limb
//! rotations, a supporting foot swivelling on the floor, the composite sign untwisting), on small
//! hand-written scores and on the real scores that use them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::motion::plan::{Foot, Rotated};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::limits::swing_twist_angles;
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::{Side, read};
use labanplay::score::Score;

fn animation(bytes: &[u8]) -> Animation {
    let doc = read(bytes, Some("lbn")).unwrap();
    let score = Score::from_document(&doc);
    compile(&score, &MotionOptions::default(), &Proportions::default())
}

fn pose_at(anim: &Animation, t: f64) -> Pose {
    let mut pose = Pose::rest(&anim.skeleton);
    anim.dancers[0].sample_into(&anim.skeleton, t, &mut pose);
    pose
}

/// Signed angle (degrees) about +Y from `a` to `b` in the floor plane; clockwise seen from above
/// is negative.
fn yaw_between_deg(a: Vec3, b: Vec3) -> f32 {
    let (a, b) = (Vec3::new(a.x, 0.0, a.z).normalize(), Vec3::new(b.x, 0.0, b.z).normalize());
    a.cross(b).y.atan2(a.dot(b)).to_degrees()
}

/// Where the chest faces relative to the pelvis, degrees (clockwise negative).
fn chest_twist_deg(anim: &Animation, pose: &Pose) -> f32 {
    let sk = &anim.skeleton;
    let pelvis = joint_world(sk, pose, JointId::Pelvis).0 * Vec3::Z;
    let chest = joint_world(sk, pose, JointId::Chest).0 * Vec3::Z;
    yaw_between_deg(pelvis, chest)
}

/// Standing on both feet at 120 bpm (0.5 s a beat). The chest column (Area 9 beside the staff)
/// twists right by ⅛ (pin up-right, 45°) over beat 1, holds, and untwists with the composite
/// turn sign over beat 3.
const TWIST_LBN: &str = "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Area 9 169 84 3 15 15 B\nRotn 2 171 97 4 10 23 M\nPins 2 167 100 1 18 18 L\nRotn 7 171 145 4 10 23 M\n";

#[test]
fn the_chest_twists_right_by_its_pin_holds_and_untwists_with_the_composite_sign() {
    let anim = animation(TWIST_LBN.as_bytes());
    assert!(anim.interpretation.skipped.is_empty(), "{:?}", anim.interpretation.skipped);
    let twist = |t: f64| chest_twist_deg(&anim, &pose_at(&anim, t));
    assert!(twist(0.0).abs() < 0.5, "{}", twist(0.0));
    // Half-way through the symbol it is on the way, at its top it has arrived, and it holds.
    assert!(twist(0.25) < -10.0 && twist(0.25) > -35.0, "{}", twist(0.25));
    assert!((twist(0.5) + 45.0).abs() < 1.5, "{}", twist(0.5));
    assert!((twist(0.9) + 45.0).abs() < 1.5, "{}", twist(0.9));
    // The composite sign brings it back over its own length.
    assert!((twist(1.5)).abs() < 1.0, "{}", twist(1.5));
    // The pelvis (and the facing) does not turn.
    let pose = pose_at(&anim, 0.7);
    let pelvis = joint_world(&anim.skeleton, &pose, JointId::Pelvis).0 * Vec3::Z;
    assert!(yaw_between_deg(Vec3::Z, pelvis).abs() < 1.0);
    // Continuous: no joint moves more than 2 cm between 60 Hz frames.
    assert_no_jumps(&anim, 0.02);
}

/// Standing on both feet; the right leg column rotates right (outward) by ¼ (pin right), more
/// than a standing foot swivels (35°): the supporting foot turns out on its heel as far as it goes
/// (a warning says so), stays turned out, and the composite sign turns it back.
const SWIVEL_LBN: &str = "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Rotn 2 159 97 4 10 23 M\nPins 3 156 100 1 18 18 L\nRotn 7 159 145 4 10 23 M\n";

/// How far a foot's toes point outward from the pelvis's facing, degrees (to the dancer's left
/// for the left foot, to the right for the right foot).
fn toes_out_deg(anim: &Animation, pose: &Pose, foot: Foot) -> f32 {
    let sk = &anim.skeleton;
    let (ankle, ball) = match foot {
        Foot::Left => (JointId::AnkleL, JointId::BallL),
        Foot::Right => (JointId::AnkleR, JointId::BallR),
    };
    let toes = joint_world(sk, pose, ball).1 - joint_world(sk, pose, ankle).1;
    let facing = joint_world(sk, pose, JointId::Pelvis).0 * Vec3::Z;
    let counter_clockwise = yaw_between_deg(facing, toes);
    if foot == Foot::Left { counter_clockwise } else { -counter_clockwise }
}

/// The heel of `foot` (its contact point behind the ankle) in the sampled pose.
fn heel(anim: &Animation, pose: &Pose, foot: Foot) -> Vec3 {
    let j = if foot == Foot::Left { JointId::AnkleL } else { JointId::AnkleR };
    let (rot, pos) = joint_world(&anim.skeleton, pose, j);
    pos + rot * anim.skeleton.heel_in_ankle()
}

#[test]
fn a_supporting_leg_rotation_swivels_the_planted_foot_out_and_back() {
    let anim = animation(SWIVEL_LBN.as_bytes());
    let skipped: Vec<&str> = anim.interpretation.skipped.iter().map(|d| d.message.as_str()).collect();
    assert!(
        skipped
            .iter()
            .any(|m| m.starts_with("staff 1, measure 1, beat 1.00, column 2")
                && m.contains("swivels at most 35°; 35° used")),
        "{skipped:?}"
    );
    assert!(!skipped.iter().any(|m| m.contains("not animated")), "{skipped:?}");
    let d = &anim.dancers[0];
    let sk = &anim.skeleton;
    // 120 bpm: the rotation over beat 1 (0–0.5 s), held, the composite sign over beat 3 (1–1.5 s).
    let before = toes_out_deg(&anim, &pose_at(&anim, 0.0), Foot::Right);
    let left_before = toes_out_deg(&anim, &pose_at(&anim, 0.0), Foot::Left);
    for (t, out) in [(0.5, 35.0), (0.9, 35.0), (1.5, 0.0), (1.9, 0.0)] {
        let pose = pose_at(&anim, t);
        let turned = toes_out_deg(&anim, &pose, Foot::Right) - before;
        assert!((turned - out).abs() < 1.5, "t={t}: right toes turned out {turned:.1}°, written {out}°");
        let left = toes_out_deg(&anim, &pose, Foot::Left) - left_before;
        assert!(left.abs() < 0.5, "t={t}: the left foot turned {left:.1}°");
    }
    // Planted throughout, the heel on the floor and in one place while the foot turns on it (the
    // toes lifted a little, so the standing leg stays as long); the body faces front.
    let body = d.yaw_at(0.0).to_degrees();
    let heel_at_start = heel(&anim, &pose_at(&anim, 0.0), Foot::Right);
    let mut t = 0.0;
    while t <= 2.0 {
        let s = d.foot_state(sk, Foot::Right, t);
        assert!(s.planted && (d.yaw_at(t).to_degrees() - body).abs() < 0.5, "t={t}");
        let now = heel(&anim, &pose_at(&anim, t), Foot::Right);
        assert!(
            now.distance(heel_at_start) < 0.001,
            "t={t}: the heel moved {:.1} mm",
            now.distance(heel_at_start) * 1000.0
        );
        t += 0.05;
    }
    // The rotation track holds the (hip-limited) amount for when the leg gestures.
    let track = d.plan.rotations.get(&Rotated::Leg(Side::Right)).unwrap();
    assert!((track.value_at(0.5, 0.0).to_degrees() - 45.0).abs() < 1e-3);
    assert_no_jumps(&anim, 0.02);
}

/// No joint moves more than `max_m` between frames at 60 Hz over the whole score.
#[track_caller]
fn assert_no_jumps(anim: &Animation, max_m: f32) {
    let sk = &anim.skeleton;
    let frames = (anim.duration_secs * 60.0) as usize;
    let joints_at = |t: f64| {
        let pose = pose_at(anim, t);
        JointId::ALL.map(|j| joint_world(sk, &pose, j).1)
    };
    let mut prev = joints_at(0.0);
    for f in 1..=frames {
        let now = joints_at(f as f64 / 60.0);
        for (j, (a, b)) in JointId::ALL.iter().zip(prev.iter().zip(now.iter())) {
            assert!(b.is_finite(), "frame {f}: {j:?} not finite");
            assert!(a.distance(*b) < max_m, "frame {f}: {j:?} moved {:.3} m", a.distance(*b));
        }
        prev = now;
    }
}

fn real(name: &str) -> Option<Animation> {
    let dir = support::real_scores_dir(name)?;
    let bytes = std::fs::read(dir.join("laban-tk").join(name)).unwrap();
    Some(animation(&bytes))
}

/// `twists.lbn`: the chest column (Area 9 + hold beside the right of the staff) twists right ⅛
/// (pin 2) over measure 1, then left ¼ (pin 7) over measure 2: 45° right, then 60° left (the
/// ¼ turn is beyond what spine and chest allow).
#[test]
fn real_twists_score_twists_the_chest_by_its_pins() {
    let Some(anim) = real("twists.lbn") else { return };
    let rot = anim.dancers[0].plan.rotations.get(&Rotated::Chest).expect("chest rotations");
    // The start (untwisted), the two signs, and the left chest column's ¼ turn in measure 4 (its
    // pre-sign claims the column outside the staff): right again, held at the 60° range.
    assert_eq!(rot.keys.len(), 4, "{:?}", rot.keys);
    assert!((rot.keys[3].value - 60f32.to_radians()).abs() < 1e-4, "{:?}", rot.keys);
    let end0 = rot.keys[1].t_end_secs;
    let end1 = rot.keys[2].t_end_secs;
    // Spine and chest share the twist inside their ranges; seen from above (with the walk's
    // posture) the chest faces that far round from the pelvis.
    let local = |t: f64| {
        let pose = pose_at(&anim, t);
        [JointId::Spine, JointId::Chest].map(|j| swing_twist_angles(pose.local(j)).y.to_degrees()).iter().sum::<f32>()
    };
    assert!((local(end0) + 45.0).abs() < 1.0, "{}", local(end0));
    assert!((local(end1) - 60.0).abs() < 1.0, "{}", local(end1));
    let twist = |t: f64| chest_twist_deg(&anim, &pose_at(&anim, t));
    assert!((twist(end0) + 45.0).abs() < 6.0, "{}", twist(end0));
    assert!((twist(end1) - 60.0).abs() < 6.0, "{}", twist(end1));
    let texts: Vec<String> = anim.interpretation.skipped.iter().map(|d| d.message.clone()).collect();
    assert!(!texts.iter().any(|m| m.contains("not animated yet")), "{texts:?}");
}

/// `knee_rotate.lbn`: thigh and lower-leg pre-signs (`Limb 12/17`, `13/18`) with rotation signs
/// in the leg columns, both feet standing: measure 1 turns both thighs out (left leg to the
/// left, right leg to the right) over beat 2 and in over beat 3, without pins; the standing feet
/// swivel with them, mirrored, and the motion is continuous.
#[test]
fn real_knee_rotate_score_swivels_its_standing_feet() {
    let Some(anim) = real("knee_rotate.lbn") else { return };
    let texts: Vec<String> = anim.interpretation.skipped.iter().map(|d| d.message.clone()).collect();
    assert!(!texts.iter().any(|m| m.contains("not animated") || m.contains("rotation of a limb")), "{texts:?}");
    // 120 bpm, 3/4: measure 1 is 0–1.5 s, its beats 2 and 3 end at 1.0 and 1.5 s.
    let out =
        |t: f64, foot| toes_out_deg(&anim, &pose_at(&anim, t), foot) - toes_out_deg(&anim, &pose_at(&anim, 0.0), foot);
    for foot in [Foot::Left, Foot::Right] {
        assert!((out(1.0, foot) - 35.0).abs() < 2.0, "{foot:?} toes out {:.1}° at the end of beat 2", out(1.0, foot));
        assert!((out(1.5, foot) + 35.0).abs() < 2.0, "{foot:?} toes out {:.1}° at the end of beat 3", out(1.5, foot));
    }
    assert_no_jumps(&anim, 0.05);
}

/// `laban4.lbn`: an upper-arm pre-sign (`Limb 7`) claims the right arm column, whose last sign
/// is a ¼ right rotation (pin 3): the shoulder's twist turns by about −90° (as far as it goes).
#[test]
fn real_laban4_rotates_the_upper_arm() {
    let Some(anim) = real("laban4.lbn") else { return };
    let rot = anim.dancers[0].plan.rotations.get(&Rotated::UpperArm(Side::Right)).expect("upper-arm rotation");
    let key = rot.keys.last().unwrap();
    let twist = |t: f64| swing_twist_angles(pose_at(&anim, t).local(JointId::ShoulderR)).y.to_degrees();
    let turned = twist(key.t_end_secs) - twist(key.t_start_secs - 0.01);
    let values: Vec<f32> = (0..40).map(|i| twist(key.t_start_secs - 1.0 + i as f64 * 0.05)).collect();
    assert!(turned < -45.0, "turned {turned}: {values:?} {:?}", rot.keys);
    let limits = anim.skeleton.limits(JointId::ShoulderR);
    assert!(limits.violation_rad(pose_at(&anim, key.t_end_secs).local(JointId::ShoulderR)) < 1e-3);
}

/// Every real score with rotation signs in body columns samples to finite poses, and what is
/// left unanimated is only what has no known meaning.
#[test]
fn real_rotation_scores_sample_and_leave_only_unknown_signs() {
    for name in ["head2.lbn", "jump_rotate.lbn", "laban4.lbn", "laban8.lbn", "twists.lbn", "knee_rotate.lbn"] {
        let Some(anim) = real(name) else { return };
        for d in &anim.interpretation.skipped {
            assert!(
                !d.message.contains("rotation of a limb not animated yet") || name == "laban8.lbn",
                "{name}: {}",
                d.message
            );
        }
        let mut t = 0.0;
        while t <= anim.duration_secs {
            let pose = pose_at(&anim, t);
            for j in JointId::ALL {
                assert!(joint_world(&anim.skeleton, &pose, j).1.is_finite(), "{name} t={t} {j:?}");
            }
            t += 0.1;
        }
    }
}

/// Two measures of 4 beats at 120 bpm: a step forward on beats 1 and 3 of measure 1 (right,
/// left), measure 2 empty, and a repeat mark `÷` (LED keys `.` `_` `.`) on the bar line between
/// them: measure 1 plays twice, then measure 2.
const REPEAT_LBN: &str = "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Dirn 1 134 97 8 10 47 M\nDirn 10 122 145 8 10 47 M\n\
Keys 16 33 187 2 12 12 B .\nKeys 17 34 192 2 12 12 B _\nKeys 16 33 193 2 12 12 B .\n";

#[test]
fn a_repeat_mark_plays_the_measures_before_it_again() {
    let doc = read(REPEAT_LBN.as_bytes(), Some("lbn")).unwrap();
    let score = Score::from_document(&doc);
    assert!(score.warnings.is_empty(), "{:?}", score.warnings);
    // 4 + 4 + 4 beats: measure 1, measure 1 again, measure 2.
    assert!((score.duration_beats - 12.0).abs() < 1e-9, "{}", score.duration_beats);
    let numbers: Vec<u32> = score.measures.iter().map(|m| m.number).collect();
    assert_eq!(numbers, [1, 1, 2]);
    let steps: Vec<(f64, u32, u32)> = score.staves[0]
        .channels
        .iter()
        .filter(|c| matches!(c.kind, labanplay::score::ChannelKind::Support(_)))
        .flat_map(|c| c.entries.iter().map(|e| (e.start_beats, e.measure, e.span.line)))
        .collect();
    let mut steps = steps;
    steps.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Each copy keeps its measure number and its line in the file.
    assert_eq!(steps, [(0.0, 1, 10), (2.0, 1, 11), (4.0, 1, 10), (6.0, 1, 11)]);
    // The dancer walks four steps: twice as far as the written two.
    let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
    let d = &anim.dancers[0];
    let fwd = |t: f64| d.pelvis_at(t).z;
    let one = fwd(2.0) - fwd(0.0);
    let two = fwd(4.0) - fwd(0.0);
    assert!(one > 0.5 && (two - 2.0 * one).abs() < 0.1, "{one} {two}");
    // Played and written time: the repeat's second time shows the written measure 1.
    let seg = labanplay::score::repeats::play_segments(&score.measures);
    assert_eq!(labanplay::score::repeats::written_beats(&seg, 5.0), (1.0, true));
    assert_eq!(labanplay::score::repeats::written_beats(&seg, 9.0), (5.0, false));
    assert_eq!(labanplay::score::repeats::played_beats(&seg, 5.0), 9.0);
}

/// `repeat.lbn` (a repeat mark on bar 4) plays measures 1–3 twice; `barn.lbn` (marks at the
/// start of measure 1 and the end of measure 8) plays the whole dance twice.
#[test]
fn real_repeat_marks_play_their_sections_again() {
    let Some(dir) = support::real_scores_dir("real_repeat_marks_play_their_sections_again") else { return };
    let load = |name: &str| {
        let bytes = std::fs::read(dir.join("laban-tk").join(name)).unwrap();
        Score::from_document(&read(&bytes, Some("lbn")).unwrap())
    };
    let repeat = load("repeat.lbn");
    let numbers: Vec<u32> = repeat.measures.iter().map(|m| m.number).collect();
    assert_eq!(&numbers[..7], [1, 2, 3, 1, 2, 3, 4]);
    let barn = load("barn.lbn");
    let numbers: Vec<u32> = barn.measures.iter().map(|m| m.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]);
    for staff in &barn.staves {
        let count = |from: f64, to: f64| {
            staff
                .channels
                .iter()
                .flat_map(|c| &c.entries)
                .filter(|e| e.start_beats >= from && e.start_beats < to)
                .count()
        };
        assert_eq!(count(0.0, 32.0), count(32.0, 64.0), "staff {}", staff.index);
    }
    let anim = compile(&barn, &MotionOptions::default(), &Proportions::default());
    assert!((anim.duration_secs - barn.duration_secs()).abs() < 1e-9);
    assert!(anim.duration_secs > 32.0);
}
