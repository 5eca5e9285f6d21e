//! A leg gesture takes the weight off that leg (T8) until a support of its own puts the foot
//! down: the other foot's relevé and plié leave the raised leg up, and a support "place" in its
//! column brings it down. On a hand-written score and on knee.lbn (line 28).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::reading::{one_staff, score};
use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::motion::plan::world_from_body;
use labanplay::motion::rules::{MotionOptions, gesture_dir_in_body};
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::{Direction, Level};

/// The angle (degrees) between the right leg (hip → ankle) of dancer 0 at `t_secs` and the
/// direction `direction`/`level` for a dancer facing where the pelvis faces; and the ankle's
/// height, metres.
fn right_leg(anim: &Animation, t_secs: f64, direction: Direction, level: Level) -> (f32, f32) {
    let mut pose = Pose::rest(&anim.skeleton);
    anim.dancers[0].sample_into(&anim.skeleton, t_secs, &mut pose);
    let at = |j| joint_world(&anim.skeleton, &pose, j).1;
    let pelvis_forward = joint_world(&anim.skeleton, &pose, JointId::Pelvis).0 * Vec3::Z;
    let yaw = pelvis_forward.x.atan2(pelvis_forward.z);
    let want = world_from_body(gesture_dir_in_body(direction, level), yaw);
    ((at(JointId::AnkleR) - at(JointId::HipR)).angle_between(want).to_degrees(), at(JointId::AnkleR).y)
}

/// Standing on both feet; over beat 1 the left foot rises (place high) while the right leg
/// gestures to the side middle; over beat 2 the left foot sinks (place low); over beat 3 both
/// feet stand in place (place middle).
const SIDE_LEG_OVER_RISE_AND_SINK: &str = "Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Dirn 11 122 97 4 10 23 H\nDirn 3 159 97 4 10 23 M\nDirn 11 122 121 4 10 23 L\n\
Dirn 11 122 145 4 10 23 M\nDirn 11 134 145 4 10 23 M\n";

#[test]
fn a_raised_leg_stays_up_while_the_other_foot_rises_and_sinks() {
    let s = score(&one_staff(SIDE_LEG_OVER_RISE_AND_SINK));
    let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    for beats in [1.0, 1.5, 1.95] {
        let (off, _) = right_leg(&anim, s.tempo.secs_from_beats(beats), Direction::Right, Level::Middle);
        assert!(off < 22.5, "beat {beats}: right leg {off:.1}° off right middle");
    }
    // The support in its own column puts the foot down again.
    let (off, ankle_y) = right_leg(&anim, s.tempo.secs_from_beats(3.0), Direction::Place, Level::Low);
    assert!(off < 15.0 && ankle_y < 0.15, "beat 3: right leg {off:.1}° off hanging, ankle at {ankle_y:.2} m");
}

#[test]
fn real_knee_right_leg_stays_to_the_side_over_the_left_foot_s_plie() {
    let Some(dir) = support::real_scores_dir("knee right leg") else { return };
    let s = support::load_score(&dir.join("laban-tk/knee.lbn"));
    let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    // Line 28: the right leg right middle over measure 3's beat 2 (beats 9-10); the left foot
    // rises, then sinks over beat 3 while the leg stays out.
    for beats in [10.0, 10.5] {
        let (off, _) = right_leg(&anim, s.tempo.secs_from_beats(beats), Direction::Right, Level::Middle);
        assert!(off < 22.5, "knee.lbn beat {beats}: right leg {off:.1}° off right middle");
    }
}
