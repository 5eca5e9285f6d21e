//! Foot hooks (LED `Misc` 4–9): a whole-foot hook lands a step flat (no heel strike); a hook on a
//! leg gesture (a tap) and hooks whose foot part is not established are warnings with their staff
//! position, never silently dropped. On small inline scores and on the real scores that use hooks.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, DancerAnimation, compile};
use labanplay::motion::plan::{Foot, LimbId};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, end_site_positions};
use labanplay::pose::skeleton::Proportions;
use labanplay::read::Side;
use labanplay::read::read;
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

/// The toe tip (world) of `foot` at `t`.
fn toe_at(d: &DancerAnimation, anim: &Animation, foot: Foot, t: f64) -> Vec3 {
    let sk = &anim.skeleton;
    let mut pose = Pose::rest(sk);
    d.sample_into(sk, t, &mut pose);
    end_site_positions(sk, &pose)[if foot == Foot::Left { 3 } else { 4 }]
}

/// When the leg gesture of `foot` whose key ends first after `after` arrives.
fn gesture_end(d: &DancerAnimation, foot: Foot, after: f64) -> f64 {
    let limb = if foot == Foot::Left { LimbId::LegLeft } else { LimbId::LegRight };
    d.plan.limbs[&limb].keys.iter().map(|k| k.t_end_secs).find(|t| *t > after).unwrap()
}

#[test]
fn a_hooked_leg_gesture_is_reported_and_made_as_written() {
    for right in [true, false] {
        let foot = if right { Foot::Right } else { Foot::Left };
        let hooked = compile_text(&side_gesture(right, true));
        let plain = compile_text(&side_gesture(right, false));
        assert!(plain.interpretation.skipped.is_empty(), "{:?}", plain.interpretation.skipped);
        let warnings: Vec<_> = hooked.interpretation.skipped.iter().map(|w| w.message.as_str()).collect();
        let column = if right { "column 2" } else { "column -2" };
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("measure 1, beat 1.00") && warnings[0].contains(column) && warnings[0].contains("tap"),
            "{}",
            warnings[0]
        );
        // The gesture itself is made as written: the same pose with or without the hook.
        let t = gesture_end(&hooked.dancers[0], foot, 0.0);
        let toe = toe_at(&hooked.dancers[0], &hooked, foot, t);
        let toe_plain = toe_at(&plain.dancers[0], &plain, foot, t);
        assert!(toe.distance(toe_plain) < 1e-5, "{foot:?}: {toe:?} against {toe_plain:?}");
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
fn hooks_on_the_real_scores_land_flat_or_are_reported() {
    let Some(dir) = support::real_scores_dir("foot hooks on real scores") else { return };
    let load = |name: &str| compile_text(&std::fs::read_to_string(dir.join("laban-tk").join(name)).unwrap());

    // feets.lbn writes three of its four right-leg side gestures with a hook (taps): each is a
    // warning at its place.
    let feets = load("feets.lbn");
    let taps: Vec<_> = feets.interpretation.skipped.iter().filter(|w| w.message.contains("a tap)")).collect();
    let places: Vec<_> = taps.iter().map(|w| w.message.split(": foot hook").next().unwrap()).collect();
    assert_eq!(
        places,
        [
            "staff 1, measure 4, beat 1.00, column 2",
            "staff 2, measure 3, beat 1.00, column 2",
            "staff 2, measure 4, beat 1.00, column 2"
        ],
        "{taps:?}"
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
