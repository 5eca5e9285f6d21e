//! Foot hooks (LED `Misc` 4–9): a hooked leg gesture rests the foot on the floor at the notated
//! direction (a tap), an unhooked one stays in the air; a whole-foot hook lands a step flat (no
//! heel strike); hooks whose foot part is not established are warnings with their staff
//! position. On small inline scores, mirrored left and right, and on the real scores with hooks.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, DancerAnimation, compile};
use labanplay::motion::plan::{Foot, LimbId, world_from_body};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, end_site_positions, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::read;
use labanplay::read::{Direction, Side};
use labanplay::score::{ChannelKind, EntryKind, Modifier, Score};

fn compile_text(text: &str) -> Animation {
    let doc = read(text.as_bytes(), Some("lbn")).unwrap();
    compile(&Score::from_document(&doc), &MotionOptions::default(), &Proportions::default())
}

/// The staff (lines at x 96, 133, 170), the bars and the starting position (both feet, place).
const HEAD: &str = "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n";

/// Standing on one foot for two beats, the other leg gestures side low over the first beat, with
/// a hook beside the gesture (right leg: `Misc 5` to its left; left leg: `Misc 4` to its right,
/// the mirror image) or without.
fn side_gesture(right: bool, hook: bool) -> String {
    let mut s = HEAD.to_string();
    if right {
        s += "Dirn 11 122 97 4 10 46 M\nDirn 3 159 97 4 10 23 L\n";
        if hook {
            s += "Misc 5 149 111 4 12 12 B\n";
        }
    } else {
        s += "Dirn 11 134 97 4 10 46 M\nDirn 8 97 97 4 10 23 L\n";
        if hook {
            s += "Misc 4 105 111 4 12 12 B\n";
        }
    }
    s
}

/// The toe tip and the lowest of heel, ball and toe tip (world) of `foot`, and the hip and ankle
/// joints of its leg, at `t`.
fn foot_at(d: &DancerAnimation, anim: &Animation, foot: Foot, t: f64) -> [Vec3; 4] {
    let sk = &anim.skeleton;
    let mut pose = Pose::rest(sk);
    d.sample_into(sk, t, &mut pose);
    let (toe, hip, ankle, ball) = match foot {
        Foot::Left => (end_site_positions(sk, &pose)[3], JointId::HipL, JointId::AnkleL, JointId::BallL),
        Foot::Right => (end_site_positions(sk, &pose)[4], JointId::HipR, JointId::AnkleR, JointId::BallR),
    };
    let ankle = joint_world(sk, &pose, ankle);
    // Points of the foot that can go through the floor: the heel, the ball joint, the toe tip
    // (`motion_invariants` checks the whole sole over the corpus).
    let heel = ankle.1 + ankle.0 * sk.heel_in_ankle();
    let ball = joint_world(sk, &pose, ball).1;
    let lowest = [heel, ball, toe].into_iter().min_by(|a, b| a.y.total_cmp(&b.y)).unwrap();
    [toe, lowest, joint_world(sk, &pose, hip).1, ankle.1]
}

/// The toe tip (world) of `foot` at `t`.
fn toe_at(d: &DancerAnimation, anim: &Animation, foot: Foot, t: f64) -> Vec3 {
    foot_at(d, anim, foot, t)[0]
}

/// When the leg gesture of `foot` whose key ends first after `after` arrives.
fn gesture_end(d: &DancerAnimation, foot: Foot, after: f64) -> f64 {
    let limb = if foot == Foot::Left { LimbId::LegLeft } else { LimbId::LegRight };
    d.plan.limbs[&limb].keys.iter().map(|k| k.t_end_secs).find(|t| *t > after).unwrap()
}

#[test]
fn a_hooked_leg_gesture_taps_the_floor_at_its_direction_and_an_unhooked_one_stays_up() {
    for right in [true, false] {
        let foot = if right { Foot::Right } else { Foot::Left };
        let tap = compile_text(&side_gesture(right, true));
        let lifted = compile_text(&side_gesture(right, false));
        assert!(tap.interpretation.skipped.is_empty(), "{:?}", tap.interpretation.skipped);
        let d = &tap.dancers[0];
        let t = gesture_end(d, foot, 0.0);
        // At the gesture's end and held half a beat later.
        for at in [t, t + 0.25] {
            let [toe, lowest, hip, ankle] = foot_at(d, &tap, foot, at);
            assert!(toe.y < 0.01, "{foot:?} tap at {at:.2} s: toe tip {:.3} m above the floor", toe.y);
            assert!(lowest.y > -0.005, "{foot:?} tap at {at:.2} s: the foot {:.3} m into the floor", lowest.y);
            // Out to the notated side: the toes touch well away from under the hip, sideways,
            // and the leg (hip → ankle) leans that way.
            let side = world_from_body(if right { Vec3::X } else { -Vec3::X }, d.yaw_at(at));
            let flat = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
            let reach = flat(toe - hip).dot(side);
            assert!(reach > 0.25, "{foot:?} tap: the toes touch only {reach:.3} m out to the side");
            let off_deg = flat(ankle - hip).angle_between(side).to_degrees();
            assert!(off_deg < 15.0, "{foot:?} tap: the leg leans {off_deg:.1}° off the notated side");
            let toe_up = toe_at(&lifted.dancers[0], &lifted, foot, at);
            assert!(toe_up.y > 0.08, "{foot:?} without a hook the low gesture's toe is at {:.3} m", toe_up.y);
        }
    }
}

#[test]
fn left_and_right_taps_mirror_each_other() {
    let right = compile_text(&side_gesture(true, true));
    let left = compile_text(&side_gesture(false, true));
    let t_end = gesture_end(&right.dancers[0], Foot::Right, 0.0);
    for i in 0..=12 {
        let t = t_end * i as f64 / 8.0;
        let r = foot_at(&right.dancers[0], &right, Foot::Right, t);
        let l = foot_at(&left.dancers[0], &left, Foot::Left, t);
        let mirror = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
        for (k, name) in [(0, "toe"), (2, "hip"), (3, "ankle")] {
            let err = r[k].distance(mirror(l[k]));
            assert!(err < 0.01, "t {t:.2} s: right {name} {:?} is {err:.4} m from the mirrored left {:?}", r[k], l[k]);
        }
    }
}

/// One forward step of the right foot over a beat (then the left closes), with a whole-foot
/// hook (`Misc 8`) under the step or without.
fn forward_step(hook: bool) -> String {
    let mut s = HEAD.to_string() + "Dirn 1 134 97 4 10 23 M\nDirn 11 122 121 4 10 23 M\n";
    if hook {
        s += "Misc 8 130 86 4 12 12 B\n";
    }
    s
}

#[test]
fn a_whole_foot_hook_lands_the_step_flat() {
    for hook in [true, false] {
        let anim = compile_text(&forward_step(hook));
        assert!(anim.interpretation.skipped.is_empty(), "{:?}", anim.interpretation.skipped);
        let d = &anim.dancers[0];
        let print = d.plan.footprints.iter().find(|f| f.foot == Foot::Right && f.t_land_secs > 0.0).unwrap();
        let toe = toe_at(d, &anim, Foot::Right, print.t_land_secs);
        if hook {
            assert!(toe.y < 0.01, "whole-foot step: the toes are {:.3} m up as the foot lands", toe.y);
        } else {
            assert!(toe.y > 0.03, "heel-first step: the toes are only {:.3} m up as the heel lands", toe.y);
        }
    }
}

fn score_of(dir: &std::path::Path, name: &str) -> Score {
    let text = std::fs::read_to_string(dir.join("laban-tk").join(name)).unwrap();
    Score::from_document(&read(text.as_bytes(), Some("lbn")).unwrap())
}

#[test]
fn hooks_on_the_real_scores_tap_land_flat_or_are_reported() {
    let Some(dir) = support::real_scores_dir("foot hooks on real scores") else { return };
    let load = |name: &str| compile_text(&std::fs::read_to_string(dir.join("laban-tk").join(name)).unwrap());

    // feets.lbn: staff 1 gestures the right leg side low at 3:1 without a hook and at 4:1 with
    // one; staff 2 writes both with hooks. At each gesture's end (by the score's symbols) a tap
    // rests the toes on the floor, the plain low gesture keeps them up.
    let feets = load("feets.lbn");
    let feets_score = score_of(&dir, "feets.lbn");
    let mut seen = [0; 2];
    for (staff, d) in feets_score.staves.iter().zip(&feets.dancers) {
        for e in &staff.channel(ChannelKind::LegGesture(Side::Right)).unwrap().entries {
            if !matches!(e.kind, EntryKind::Direction { direction: Direction::Right, .. }) {
                continue;
            }
            let hooked = e.modifiers.iter().any(|m| matches!(m, Modifier::Hook { .. }));
            let t = e.start_secs + e.duration_secs;
            let toe = toe_at(d, &feets, Foot::Right, t);
            let at = format!("feets staff {} at {t:.2} s", staff.index + 1);
            if hooked {
                assert!(toe.y < 0.01, "{at}: the tap's toes {:.3} m up", toe.y);
            } else {
                assert!(toe.y > 0.08, "{at}: the low gesture's toes {:.3} m up", toe.y);
            }
            seen[usize::from(hooked)] += 1;
        }
    }
    assert_eq!(seen, [1, 3], "feets: (plain, hooked) side gestures of the right leg");
    assert!(
        feets.interpretation.skipped.iter().all(|w| !w.message.contains("hook")),
        "{:?}",
        feets.interpretation.skipped
    );

    // laban2.lbn: the steps written with a whole-foot hook (`Misc 8`/`9`) land flat.
    let score = score_of(&dir, "laban2.lbn");
    let laban2 = load("laban2.lbn");
    let d = &laban2.dancers[0];
    let mut checked = 0;
    for (side, foot) in [(Side::Left, Foot::Left), (Side::Right, Foot::Right)] {
        for e in &score.staves[0].channel(ChannelKind::Support(side)).unwrap().entries {
            let whole_foot = e.modifiers.iter().any(|m| matches!(m, Modifier::Hook { item: 8 | 9 }));
            if !whole_foot || !matches!(e.kind, EntryKind::Direction { .. }) {
                continue;
            }
            let (t0, t1) = (e.start_secs, e.start_secs + e.duration_secs);
            let Some(f) =
                d.plan.footprints.iter().find(|f| f.foot == foot && f.t_land_secs > t0 && f.t_land_secs <= t1)
            else {
                continue; // a weight transfer where the foot already stands
            };
            let toe = toe_at(d, &laban2, foot, f.t_land_secs);
            assert!(toe.y < 0.01, "laban2: the {foot:?} step at {:.2} s lands toes {:.3} m up", f.t_land_secs, toe.y);
            checked += 1;
        }
    }
    assert!(checked >= 5, "laban2: {checked} hooked steps checked");

    // augmented.lbn: `Misc 4` and `Misc 5` on the two supports of measure 3 name a part of the foot
    // we cannot tell: both are warnings with their staff position.
    let augmented = load("augmented.lbn");
    let hooks: Vec<_> = augmented.interpretation.skipped.iter().filter(|w| w.message.contains("foot hook")).collect();
    assert_eq!(hooks.len(), 2, "{hooks:?}");
    for w in hooks {
        assert!(w.message.contains("staff 1, measure 3, beat 1.00"), "{}", w.message);
    }
}
