//! Turns on the foot that bears the weight: a turn sign in a support column turns the dancer on
//! the standing foot, whichever column it stands in, while the other leg gestures or holds its
//! gesture; the raised leg stays up through the turn. A foot in the air that is to turn comes down
//! as the turn starts (its gesture reaches its end first). The pivoting foot turns on its ball
//! with the heel lifted, its ball staying where it is (within 2 mm). Checked on a hand-written
//! pirouette with the leg held side high, a change of support into a turn, and
//! `laban-tk/turn1.lbn` (alternating whole turns, the free leg side middle).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, DancerAnimation, compile};
use labanplay::motion::plan::{Foot, LimbId, world_from_body};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions, Skeleton};
use labanplay::read::read;
use labanplay::score::Score;

fn animation(bytes: &[u8]) -> Animation {
    let doc = read(bytes, Some("lbn")).unwrap();
    compile(&Score::from_document(&doc), &MotionOptions::default(), &Proportions::default())
}

/// Standing on both feet; the weight goes to the left foot as the right leg rises side high
/// (beat 0, one beat), a hold sign keeps it there, and a half turn right is written in the
/// right support column (beats 1–3) with its pin inside: the dancer turns on the left foot.
/// 120 bpm: the turn runs from 0.5 s to 1.5 s.
const PIROUETTE: &str = "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Dirn 11 122 97 4 10 23 M\nDirn 3 159 97 4 10 23 H\nVolm 7 159 121 4 10 6 M\n\
Rotn 2 134 121 8 10 46 M\nPins 5 135 135 4 10 6 L\n";

fn joint(sk: &Skeleton, pose: &Pose, j: JointId) -> Vec3 {
    joint_world(sk, pose, j).1
}

/// Angle of hip → ankle above the horizontal, degrees.
fn leg_elevation_deg(sk: &Skeleton, pose: &Pose, hip: JointId, ankle: JointId) -> f32 {
    let v = (joint(sk, pose, ankle) - joint(sk, pose, hip)).normalize();
    v.y.asin().to_degrees()
}

/// The point of the sole under the ball joint (on the floor when the foot stands flat).
fn ball_contact(sk: &Skeleton, pose: &Pose, ball: JointId) -> Vec3 {
    let rest_height = joint(sk, &Pose::rest(sk), ball).y;
    let (ankle_rot, _) = joint_world(sk, pose, ball.parent().unwrap());
    joint(sk, pose, ball) + ankle_rot * Vec3::new(0.0, -rest_height, 0.0)
}

/// How far the ball of `foot` (its sole under the ball joint) moves over the floor between `t0` and `t1` (its largest
/// distance from where it was at `t0`), and the lowest the ankle stands above its flat height
/// over that time, metres.
fn pivot_ball_travel_and_heel_lift(anim: &Animation, d: &DancerAnimation, foot: Foot, t0: f64, t1: f64) -> (f32, f32) {
    let sk = &anim.skeleton;
    let (ankle, ball) = match foot {
        Foot::Left => (JointId::AnkleL, JointId::BallL),
        Foot::Right => (JointId::AnkleR, JointId::BallR),
    };
    let rest = Pose::rest(sk);
    let ankle_flat_y = joint(sk, &rest, ankle).y;
    let mut pose = Pose::rest(sk);
    let flat = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    d.sample_into(sk, t0, &mut pose);
    let start = flat(ball_contact(sk, &pose, ball));
    let (mut travel, mut lift) = (0.0f32, f32::MAX);
    let frames = ((t1 - t0) * 60.0).floor() as usize;
    for f in 0..=frames {
        d.sample_into(sk, t0 + f as f64 / 60.0, &mut pose);
        travel = travel.max(flat(ball_contact(sk, &pose, ball)).distance(start));
        lift = lift.min(joint(sk, &pose, ankle).y - ankle_flat_y);
    }
    (travel, lift)
}

#[test]
fn a_pirouette_with_the_leg_held_side_high_turns_on_the_standing_foot() {
    let anim = animation(PIROUETTE.as_bytes());
    let sk = &anim.skeleton;
    let d = &anim.dancers[0];
    // The turn is on the left foot: it pivots; the right foot takes no weight until the end.
    let pivots: Vec<_> = d.plan.footprints.iter().filter(|f| f.pivot_secs.is_some()).collect();
    assert_eq!(pivots.len(), 1, "{:?}", d.plan.footprints);
    assert_eq!(pivots[0].foot, Foot::Left);
    assert!(
        !d.plan.footprints.iter().any(|f| f.foot == Foot::Right && f.t_land_secs > 0.0),
        "the raised right foot lands: {:?}",
        d.plan.footprints
    );
    assert!((d.yaw_at(1.5).to_degrees() + 180.0).abs() < 1.0, "half turn right: {}", d.yaw_at(1.5).to_degrees());
    // The right leg stays up, side high, all through the turn.
    let mut pose = Pose::rest(sk);
    let key = d.plan.limbs[&LimbId::LegRight].keys.iter().find(|k| k.t_end_secs > 0.0).unwrap().value;
    for f in 0..=30 {
        let t = 0.5 + f as f64 / 30.0;
        d.sample_into(sk, t, &mut pose);
        let elevation = leg_elevation_deg(sk, &pose, JointId::HipR, JointId::AnkleR);
        assert!(elevation > 30.0, "right leg at {elevation:.1}° above the horizontal at {t:.2} s");
        let want = world_from_body(key.dir_in_body, d.yaw_at(t)).normalize();
        let got = (joint(sk, &pose, JointId::AnkleR) - joint(sk, &pose, JointId::HipR)).normalize();
        let off = want.angle_between(got).to_degrees();
        assert!(off < 10.0, "right leg {off:.1}° off side high at {t:.2} s");
    }
    // The left foot turns on its ball, heel lifted, and its ball stays put.
    let (travel, lift) = pivot_ball_travel_and_heel_lift(&anim, d, Foot::Left, 0.55, 1.45);
    assert!(travel < 0.002, "the pivoting ball moved {:.1} mm", travel * 1000.0);
    assert!(lift > 0.01, "the heel is up only {:.1} mm", lift * 1000.0);
}

/// Standing on the right foot, the left leg rises side middle (beat 0, one beat); then a half
/// turn left in the left support column while the right leg rises side middle (beats 1–3): the
/// left foot comes down and takes the weight as the turn starts, not before its gesture ends.
const CHANGE_OF_SUPPORT: &str = "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Dirn 11 134 97 4 10 23 M\nDirn 8 103 97 4 10 23 M\n\
Rotn 1 122 121 8 10 46 M\nPins 5 123 135 4 10 6 L\nDirn 3 159 121 4 10 46 M\n";

#[test]
fn a_turn_on_the_foot_that_gestured_before_it_starts_when_the_gesture_ends() {
    let anim = animation(CHANGE_OF_SUPPORT.as_bytes());
    let sk = &anim.skeleton;
    let d = &anim.dancers[0];
    let pivots: Vec<_> = d.plan.footprints.iter().filter(|f| f.pivot_secs.is_some()).collect();
    assert_eq!(pivots.len(), 1, "{:?}", d.plan.footprints);
    assert_eq!(pivots[0].foot, Foot::Left);
    assert!(pivots[0].t_land_secs > 0.5 && pivots[0].t_step_start_secs >= 0.5 - 1e-9, "{:?}", pivots[0]);
    // 95 % of the way through its symbol the left leg is side middle.
    let mut pose = Pose::rest(sk);
    let t = 0.475;
    d.sample_into(sk, t, &mut pose);
    let key = d.plan.limbs[&LimbId::LegLeft].keys.iter().find(|k| k.t_end_secs > 0.0).unwrap().value;
    let want = world_from_body(key.dir_in_body, d.yaw_at(t)).normalize();
    let got = (joint(sk, &pose, JointId::AnkleL) - joint(sk, &pose, JointId::HipL)).normalize();
    let off = want.angle_between(got).to_degrees();
    assert!(off < 20.0, "left leg {off:.1}° off side middle at {t:.2} s");
    let (a, b) = pivots[0].pivot_secs.unwrap();
    let (travel, lift) = pivot_ball_travel_and_heel_lift(&anim, d, Foot::Left, a + 0.05, b - 0.05);
    assert!(travel < 0.002, "the pivoting ball moved {:.1} mm", travel * 1000.0);
    assert!(lift > 0.01, "the heel is up only {:.1} mm", lift * 1000.0);
}

/// `laban-tk/turn1.lbn` at 120 bpm: whole turns of one measure (1 s) alternately on the right foot
/// (odd measures) and the left (even), the free leg written side middle in measures 1–4.
#[test]
fn turn1_turns_on_alternate_feet_with_the_free_leg_side_middle() {
    let Some(dir) = support::real_scores_dir("turns in turn1.lbn") else { return };
    let anim = animation(&std::fs::read(dir.join("laban-tk/turn1.lbn")).unwrap());
    let sk = &anim.skeleton;
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(sk);
    // The free leg reaches side middle as its symbol ends (95 % of the way through, as the
    // notation oracle measures it) and is still there then.
    for (limb, hip, ankle) in
        [(LimbId::LegLeft, JointId::HipL, JointId::AnkleL), (LimbId::LegRight, JointId::HipR, JointId::AnkleR)]
    {
        for key in d.plan.limbs[&limb].keys.iter().filter(|k| k.t_end_secs > 0.0 && k.value.dir_in_body != Vec3::ZERO) {
            let t = key.t_start_secs + 0.95 * (key.t_end_secs - key.t_start_secs);
            d.sample_into(sk, t, &mut pose);
            let want = world_from_body(key.value.dir_in_body, d.yaw_at(t)).normalize();
            let got = (joint(sk, &pose, ankle) - joint(sk, &pose, hip)).normalize();
            let off = want.angle_between(got).to_degrees();
            assert!(off < 20.0, "{limb:?} {off:.1}° off side middle at {t:.2} s");
        }
    }
    // Every whole turn pivots on the ball, heel up, the ball staying where it is.
    let pivots: Vec<_> = d.plan.footprints.iter().filter(|f| f.pivot_secs.is_some()).cloned().collect();
    assert_eq!(pivots.len(), 10, "{pivots:?}");
    for (i, fp) in pivots.iter().enumerate() {
        let want = if i % 2 == 0 { Foot::Right } else { Foot::Left };
        assert_eq!(fp.foot, want, "turn {}", i + 1);
        let (a, b) = fp.pivot_secs.unwrap();
        let (travel, lift) = pivot_ball_travel_and_heel_lift(&anim, d, fp.foot, a + 0.05, b - 0.05);
        assert!(travel < 0.002, "turn {}: the pivoting ball moved {:.1} mm", i + 1, travel * 1000.0);
        assert!(lift > 0.01, "turn {}: the heel is up only {:.1} mm", i + 1, lift * 1000.0);
    }
}
