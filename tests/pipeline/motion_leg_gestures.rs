//! Leg gestures over the demos and every real `.lbn` score: at the end of each held gesture the
//! leg (hip → ankle) points the notated way; the pelvis tilts (hip hike for side gestures,
//! forward tilt for back gestures) so gestures beyond the hip's range are still reached, and the
//! chest leans less than the pelvis tilts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::{Quat, Vec3};
use labanplay::animation::{Animation, compile};
use labanplay::motion::plan::{Foot, LimbId, world_from_body};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::read;
use labanplay::score::Score;

fn animation(bytes: &[u8]) -> Option<Animation> {
    let doc = read(bytes, Some("lbn")).ok()?;
    Some(compile(&Score::from_document(&doc), &MotionOptions::default(), &Proportions::default()))
}

fn scores() -> Vec<(String, Animation)> {
    let mut all = vec![("jumps".to_string(), animation(labanplay::demo::JUMPS_LBN).unwrap())];
    if let Some(dir) = support::real_scores_dir("leg gestures on real scores") {
        for p in labanplay::cli::check::collect_files(&[dir]) {
            if labanplay::read::score_extension(&p).as_deref() != Some("lbn") {
                continue;
            }
            if let Some(a) = std::fs::read(&p).ok().and_then(|b| animation(&b)) {
                all.push((p.display().to_string(), a));
            }
        }
    }
    all
}

/// Standing on the left foot, the right leg gestures side middle, side high, back middle, back
/// high, forward high, forward middle, then hangs down (120 bpm: half a second each).
const ONE_LEG: &str = "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\nDirn 11 122 97 4 10 23 M\n\
Dirn 3 159 97 4 10 23 M\nDirn 3 159 121 4 10 23 H\nDirn 5 159 145 4 10 23 M\nDirn 5 159 169 4 10 23 H\n\
Dirn 1 159 193 4 10 23 H\nDirn 1 159 217 4 10 23 M\nDirn 11 159 241 4 10 23 L\n";

/// (score name, limb, key end time, angle between the notated and the sampled leg, degrees)
/// for every leg gesture that arrives before the next one leaves and whose leg does not take
/// weight right then.
/// Gestures the leg cannot reach (the IK flags them) are counted in `unreachable` instead.
fn leg_gesture_errors(name: &str, anim: &Animation, unreachable: &mut usize) -> Vec<(String, f32)> {
    let sk = &anim.skeleton;
    let mut pose = Pose::rest(sk);
    let mut out = Vec::new();
    for d in &anim.dancers {
        for (limb, foot, hip, ankle) in [
            (LimbId::LegLeft, Foot::Left, JointId::HipL, JointId::AnkleL),
            (LimbId::LegRight, Foot::Right, JointId::HipR, JointId::AnkleR),
        ] {
            let Some(track) = d.plan.limbs.get(&limb) else { continue };
            for (k, key) in track.keys.iter().enumerate() {
                let next_starts = track.keys.get(k + 1).map(|n| n.t_start_secs).unwrap_or(f64::INFINITY);
                if key.value.dir_in_body == Vec3::ZERO
                    || key.value.bend_rad != 0.0
                    || next_starts < key.t_end_secs - 1e-9
                {
                    continue;
                }
                let t = key.t_end_secs;
                // A tap (a gesture with a foot hook) rests the foot on the floor whatever its
                // level: `motion_hooks` checks those.
                if d.plan.leg_taps.get(&limb).is_some_and(|taps| taps.value_at(t, 0.0) > 0.0) {
                    continue;
                }
                // A gesture that ends as the leg takes weight again has no held end to check.
                if d.plan.footprints.iter().any(|f| {
                    f.foot == foot && f.t_step_start_secs > key.t_start_secs && f.t_step_start_secs <= t + 1.0 / 60.0
                }) {
                    continue;
                }
                let report = d.sample_into(sk, t, &mut pose);
                if report.legs_clamped[usize::from(foot == Foot::Right)] {
                    *unreachable += 1;
                    continue;
                }
                let want = world_from_body(key.value.dir_in_body, d.yaw_at(t)).normalize();
                let got = (joint_world(sk, &pose, ankle).1 - joint_world(sk, &pose, hip).1).normalize();
                out.push((format!("{name}: {limb:?} at {t:.2} s"), want.angle_between(got).to_degrees()));
            }
        }
    }
    out
}

#[test]
fn held_leg_gestures_reach_their_notated_direction() {
    let mut all = scores();
    all.push(("one leg".into(), animation(ONE_LEG.as_bytes()).unwrap()));
    let mut unreachable = 0;
    let errors: Vec<(String, f32)> =
        all.iter().flat_map(|(name, a)| leg_gesture_errors(name, a, &mut unreachable)).collect();
    assert!(errors.len() >= 6, "only {} leg gestures checked", errors.len());
    for (what, err) in &errors {
        assert!(*err < 3.0, "{what} is {err:.2}° off");
    }
    eprintln!(
        "{} leg gestures reached, worst {:.2}°; {unreachable} out of reach",
        errors.len(),
        errors.iter().map(|e| e.1).fold(0.0, f32::max)
    );
    // The one-leg score is all within reach once the pelvis helps.
    let mut none = 0;
    let one_leg = leg_gesture_errors("one leg", &animation(ONE_LEG.as_bytes()).unwrap(), &mut none);
    assert_eq!((one_leg.len(), none), (7, 0), "{one_leg:?}");
}

#[test]
fn the_pelvis_hikes_and_tips_for_a_gesturing_leg_while_the_standing_foot_stays() {
    let anim = animation(ONE_LEG.as_bytes()).unwrap();
    let sk = &anim.skeleton;
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(sk);
    let at = |t: f64, pose: &mut Pose| {
        d.sample_into(sk, t, pose);
        let yaw = Quat::from_rotation_y(d.yaw_at(t));
        let pelvis = joint_world(sk, pose, JointId::Pelvis).0;
        let chest = joint_world(sk, pose, JointId::Chest).0;
        let hip_rise = joint_world(sk, pose, JointId::HipR).1.y - joint_world(sk, pose, JointId::HipL).1.y;
        // Up axes in the facing frame (x right = −X local, z forward).
        (yaw.inverse() * (pelvis * Vec3::Y), yaw.inverse() * (chest * Vec3::Y), hip_rise)
    };
    // Hanging leg at the start: level pelvis.
    let (up, _, rise) = at(0.0, &mut pose);
    assert!(up.angle_between(Vec3::Y).to_degrees() < 0.5 && rise.abs() < 1e-3);
    // Side high (ends at 1.0 s): the gesture side's hip is higher.
    let (_, _, rise) = at(1.0, &mut pose);
    assert!(rise > 0.05, "right hip {rise:.3} m above the left");
    // Side middle: a small hike only.
    let (_, _, rise_mid) = at(0.5, &mut pose);
    assert!(rise_mid > 0.0 && rise_mid < rise, "{rise_mid} vs {rise}");
    // Back middle (1.5 s) and back high (2.0 s): the pelvis tips forward, more for high; the chest
    // leans less than the pelvis.
    let (up_mid, chest_mid, _) = at(1.5, &mut pose);
    let (up_high, chest_high, _) = at(2.0, &mut pose);
    assert!(up_mid.z > 0.3 && up_high.z > up_mid.z, "{up_mid:?} {up_high:?}");
    for (p, c) in [(up_mid, chest_mid), (up_high, chest_high)] {
        assert!(c.angle_between(Vec3::Y) < 0.6 * p.angle_between(Vec3::Y), "chest {c:?} pelvis {p:?}");
    }
    // Forward high (2.5 s): a slight tuck, back under the body.
    let (up, _, _) = at(2.5, &mut pose);
    assert!(up.z < 0.0 && up.z > -0.3, "{up:?}");
    // Down again at the end: level.
    let (up, _, rise) = at(4.0, &mut pose);
    assert!(up.angle_between(Vec3::Y).to_degrees() < 0.5 && rise.abs() < 1e-3, "{up:?} {rise}");

    // Throughout: the standing (left) foot does not move and every joint stays within limits.
    let mut first: Option<Vec3> = None;
    for f in 0..=240 {
        let t = f as f64 / 60.0;
        d.sample_into(sk, t, &mut pose);
        let ankle = joint_world(sk, &pose, JointId::AnkleL).1;
        let a0 = *first.get_or_insert(ankle);
        assert!(ankle.distance(a0) < 1e-3, "standing ankle moved {} m at {t}", ankle.distance(a0));
        for j in JointId::ALL {
            let v = sk.limits(j).violation_rad(pose.local(j));
            assert!(v < 1e-3, "{j:?} {v} rad outside its limits at {t}");
        }
    }
}

/// Standing on the left foot, the right leg rises to the side high over beat 2, a hold sign in
/// its column keeps it there, and the left foot pivots a full turn to the right over beats 3–4
/// (120 bpm: half a second a beat), then half a beat more.
const HELD_THROUGH_TURN: &str = "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\nDirn 11 122 97 4 10 23 M\n\
Dirn 3 159 121 4 10 23 H\nVolm 7 158 146 1 12 12 B\n\
Rotn 2 122 145 8 10 46 M\nPins 1 116 155 1 18 18 L\nDirn 11 122 193 4 10 23 M\n";

#[test]
fn a_held_leg_gesture_stays_through_a_pivot_turn() {
    let anim = animation(HELD_THROUGH_TURN.as_bytes()).unwrap();
    let sk = &anim.skeleton;
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(sk);
    let want_in_body =
        labanplay::motion::rules::gesture_dir_in_body(labanplay::read::Direction::Right, labanplay::read::Level::High);
    assert!((d.yaw_at(2.0).to_degrees() + 360.0).abs() < 1.0, "a full turn right: {}", d.yaw_at(2.0).to_degrees());
    let mut worst = 0f32;
    // From the gesture's end (1 s) through the turn (1–2 s) to the end of the hold.
    for f in 0..=60 {
        let t = 1.0 + f as f64 / 60.0;
        let report = d.sample_into(sk, t, &mut pose);
        let want = world_from_body(want_in_body, d.yaw_at(t)).normalize();
        let got = (joint_world(sk, &pose, JointId::AnkleR).1 - joint_world(sk, &pose, JointId::HipR).1).normalize();
        let off = want.angle_between(got).to_degrees();
        worst = worst.max(off);
        assert!(off < 3.0, "right leg {off:.1}° off side high at {t:.2} s (clamped: {:?})", report.legs_clamped);
    }
    eprintln!("held leg: worst {worst:.2}° off side high through the turn");
}
