//! Body-part pre-signs as the notation defines them, on hand-written scores and on twists.lbn: a
//! pre-sign directly below a symbol names that symbol (and the ones continuing it without a
//! pause), so a wrist sign under the starting position's arm symbols does not make the later arm
//! symbols the forearms'; a pre-sign with no symbol directly above it heads its column; a hand
//! sign under the hand's column never redirects the arm beside it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::reading::{one_staff, score};
use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::motion::plan::world_from_body;
use labanplay::motion::rules::{MotionOptions, gesture_dir_in_body};
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::{BodyPart, Direction, Level, Side};
use labanplay::score::{ChannelKind, EntryKind, Score, Staff};

fn animate(s: &Score) -> Animation {
    compile(s, &MotionOptions::default(), &Proportions::default())
}

/// The directions (`fwdM`, `placeH`, …) and starts of a channel's entries.
fn channel(staff: &Staff, kind: ChannelKind) -> Vec<(f64, String)> {
    staff
        .channel(kind)
        .map(|c| {
            c.entries
                .iter()
                .filter_map(|e| match &e.kind {
                    EntryKind::Direction { direction, level } => {
                        Some((e.start_beats, format!("{}{}", direction.short(), level.letter())))
                    }
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The angle (degrees) between the whole arm (shoulder → wrist) of dancer 0 at `t_secs` and the
/// direction `direction`/`level` for a dancer facing where the pelvis faces.
fn arm_off_deg(anim: &Animation, t_secs: f64, side: Side, direction: Direction, level: Level) -> f32 {
    let mut pose = Pose::rest(&anim.skeleton);
    anim.dancers[0].sample_into(&anim.skeleton, t_secs, &mut pose);
    let (shoulder, wrist) = match side {
        Side::Left => (JointId::ShoulderL, JointId::WristL),
        Side::Right => (JointId::ShoulderR, JointId::WristR),
    };
    let arm = joint_world(&anim.skeleton, &pose, wrist).1 - joint_world(&anim.skeleton, &pose, shoulder).1;
    let pelvis_forward = joint_world(&anim.skeleton, &pose, JointId::Pelvis).0 * Vec3::Z;
    let yaw = pelvis_forward.x.atan2(pelvis_forward.z);
    arm.angle_between(world_from_body(gesture_dir_in_body(direction, level), yaw)).to_degrees()
}

/// The salutation's start: forearms up (place high) under wrist pre-signs in the starting
/// position, both arms' columns; then both arms place high over measure 1 (beats 0–2).
const FOREARMS_UP_THEN_ARMS_UP: &str = "Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Dirn 11 184 70 4 10 23 H\nLimb 8 183 47 4 12 24 B\nDirn 11 72 70 4 10 23 H\nLimb 3 71 47 4 12 24 B\n\
Dirn 11 184 97 4 10 47 H\nDirn 11 72 97 4 10 47 H\n";

#[test]
fn a_wrist_sign_under_the_starting_position_names_that_symbol_only() {
    let s = score(&one_staff(FOREARMS_UP_THEN_ARMS_UP));
    let staff = &s.staves[0];
    let start: Vec<ChannelKind> = staff.start_position.iter().map(|(k, _)| *k).collect();
    for side in [Side::Left, Side::Right] {
        assert!(start.contains(&ChannelKind::Part(BodyPart::Wrist(side))), "{start:?}");
        assert!(staff.channel(ChannelKind::Part(BodyPart::Wrist(side))).is_none(), "{staff:#?}");
        assert_eq!(channel(staff, ChannelKind::Arm(side)), vec![(0.0, "placeH".into())], "{side:?}");
    }
    // The arms rise overhead: shoulder → wrist straight up at the end of measure 1.
    let anim = animate(&s);
    let t = s.tempo.secs_from_beats(2.0);
    for side in [Side::Left, Side::Right] {
        let off = arm_off_deg(&anim, t, side, Direction::Place, Level::High);
        assert!(off < 20.0, "{side:?} arm {off:.1}° off place high");
    }
}

#[test]
fn a_pre_sign_with_no_symbol_directly_above_heads_its_column() {
    // Right arm column: a wrist sign at the bottom, the column's first symbol two beats above it;
    // its symbols after a pause are the lower arm's too. A hand sign far above, a heading of its
    // own, takes the column over. The left arm column has no sign: its symbols are the arm's.
    let s = score(&one_staff(
        "Limb 8 184 52 4 12 24 B\nDirn 3 184 121 4 10 23 H\nDirn 1 184 193 4 10 23 M\n\
         Limb 9 184 230 4 12 24 B\nDirn 11 184 313 4 10 23 H\nDirn 8 72 121 4 10 23 M\n",
    ));
    let staff = &s.staves[0];
    assert_eq!(
        channel(staff, ChannelKind::Part(BodyPart::Wrist(Side::Right))),
        vec![(1.0, "rightH".into()), (4.0, "fwdM".into())]
    );
    assert_eq!(channel(staff, ChannelKind::Part(BodyPart::Hand(Side::Right))), vec![(9.0, "placeH".into())]);
    assert!(staff.channel(ChannelKind::Arm(Side::Right)).is_none(), "{staff:#?}");
    assert_eq!(channel(staff, ChannelKind::Arm(Side::Left)), vec![(1.0, "leftM".into())]);
}

/// twists.lbn's measure 4, left side: the arm forward middle (x 70–80), the hand's place high
/// beside it under a hand sign (x 56–68, touching the palm's column) and the palm forward under a
/// palm sign (x 49–61), over beats 1–3.
const ARM_HAND_PALM: &str = "Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Dirn 10 70 97 8 10 47 M\nLimb 4 56 92 4 12 24 B\nLimb 21 49 97 4 12 24 B\n\
Dirn 10 49 109 6 10 35 M\nDirn 11 59 109 6 10 35 H\n";

#[test]
fn a_hand_sign_beside_the_arm_never_redirects_it() {
    let s = score(&one_staff(ARM_HAND_PALM));
    let staff = &s.staves[0];
    assert_eq!(channel(staff, ChannelKind::Arm(Side::Left)), vec![(0.0, "fwdM".into())], "{staff:#?}");
    assert_eq!(channel(staff, ChannelKind::Part(BodyPart::Hand(Side::Left))), vec![(0.5, "placeH".into())]);
    assert_eq!(channel(staff, ChannelKind::Part(BodyPart::Palm)), vec![(0.5, "fwdM".into())]);
    let anim = animate(&s);
    let off = arm_off_deg(&anim, s.tempo.secs_from_beats(2.0), Side::Left, Direction::Forward, Level::Middle);
    assert!(off < 20.0, "left arm {off:.1}° off forward middle");
}

#[test]
fn real_twists_left_arm_points_forward_under_the_hands_place_high() {
    let Some(dir) = support::real_scores_dir("twists left arm") else { return };
    let s = support::load_score(&dir.join("laban-tk/twists.lbn"));
    let staff = &s.staves[0];
    // Line 35: the left arm forward middle over measure 4; line 42: the left hand's place high.
    assert_eq!(channel(staff, ChannelKind::Arm(Side::Left)).last(), Some(&(6.0, "fwdM".into())), "{staff:#?}");
    assert_eq!(channel(staff, ChannelKind::Part(BodyPart::Hand(Side::Left))), vec![(6.5, "placeH".into())]);
    let anim = animate(&s);
    let off = arm_off_deg(&anim, s.tempo.secs_from_beats(7.9), Side::Left, Direction::Forward, Level::Middle);
    assert!(off < 22.5, "twists.lbn line 35: left arm {off:.1}° off forward middle");
}
