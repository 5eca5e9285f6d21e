//! Floor work (kneeling, hands, sitting, lying, a plank) on the demos `scores/kneel-floor.lbn`,
//! `scores/hands-and-feet.lbn` and `scores/plank.lbn`, on small inline scores and on the real corpus: the parts that bear
//! weight stay on the floor at their contact height and do not slide, nothing goes through the
//! floor (joint centres, and end sites: fingertips, toe tips, head top) with any built-in body, no
//! joint jumps between 60 fps frames, left and right mirror, and the corpus's floor supports
//! animate.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::body::rig::{find_model, model_names, model_proportions};
use labanplay::motion::floor::{
    FloorState, KNEE_CONTACT_HEIGHT_M, LegSupport, SEAT_HIP_HEIGHT_M, WRIST_CONTACT_HEIGHT_M,
};
use labanplay::motion::rules::{MotionOptions, plan_score};
use labanplay::pose::fk::{Pose, end_site_positions, joint_world};
use labanplay::pose::skeleton::{JOINT_COUNT, JointId, Proportions};
use labanplay::read::read;
use labanplay::score::Score;

const FPS: f64 = 60.0;

fn compile_text(text: &str) -> Animation {
    let doc = read(text.as_bytes(), Some("lbn")).unwrap();
    compile(&Score::from_document(&doc), &MotionOptions::default(), &Proportions::default())
}

fn demo() -> Animation {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scores/kneel-floor.lbn")).unwrap();
    compile_text(&text)
}

/// `text` compiled for the built-in body `model`.
fn compile_for(text: &str, model: &str) -> Animation {
    let doc = read(text.as_bytes(), Some("lbn")).unwrap();
    let body = model_proportions(&find_model(model).expect("a built-in model"));
    compile(&Score::from_document(&doc), &MotionOptions::default(), &body)
}

/// The most an end site (a point on the body's surface) may go below the floor, metres.
const MAX_END_SITE_SINK_M: f32 = 0.01;

/// Every end site's world position at every frame of dancer 0 (order of `Skeleton::end_sites`).
fn end_site_frames(anim: &Animation) -> Vec<Vec<Vec3>> {
    let n = (anim.duration_secs * FPS).floor() as usize + 1;
    let mut pose = Pose::rest(&anim.skeleton);
    (0..n)
        .map(|f| {
            anim.dancers[0].sample_into(&anim.skeleton, f as f64 / FPS, &mut pose);
            end_site_positions(&anim.skeleton, &pose)
        })
        .collect()
}

/// No joint centre below the floor and no end site more than [`MAX_END_SITE_SINK_M`] below it
/// (`open`: end sites still allowed deeper, by name, until they are fixed).
fn assert_nothing_through_the_floor(
    what: &str,
    joints: &[[Vec3; JOINT_COUNT]],
    ends: &[Vec<Vec3>],
    anim: &Animation,
    open: &[(&str, f32)],
) {
    for (i, (p, e)) in joints.iter().zip(ends).enumerate() {
        for (j, v) in JointId::ALL.iter().zip(p) {
            assert!(v.y >= 0.0, "{what} frame {i}: {j:?} below the floor at y = {:.3}", v.y);
        }
        for (site, v) in anim.skeleton.end_sites().iter().zip(e) {
            let allowed = open.iter().find(|o| o.0 == site.name).map_or(MAX_END_SITE_SINK_M, |o| o.1);
            assert!(v.y >= -allowed, "{what} frame {i}: {} at y = {:.3}", site.name, v.y);
        }
    }
}

/// Every joint's world position at every frame of dancer 0.
fn frames(anim: &Animation) -> Vec<[Vec3; JOINT_COUNT]> {
    let n = (anim.duration_secs * FPS).floor() as usize + 1;
    let mut pose = Pose::rest(&anim.skeleton);
    (0..n)
        .map(|f| {
            anim.dancers[0].sample_into(&anim.skeleton, f as f64 / FPS, &mut pose);
            JointId::ALL.map(|j| joint_world(&anim.skeleton, &pose, j).1)
        })
        .collect()
}

/// The floor state the body is fully in at `t` (not moving into or out of one).
fn settled_state(anim: &Animation, t: f64) -> Option<FloorState> {
    let (from, to, s) = anim.dancers[0].plan.floor.segment_at(t)?;
    if s >= 1.0 || from == to { to } else { None }
}

fn idx(j: JointId) -> usize {
    j.index()
}

#[test]
fn the_demo_plays_through_on_the_optimised_path() {
    let anim = demo();
    assert!(anim.notes.is_empty(), "{:?}", anim.notes);
    assert!(anim.interpretation.skipped.is_empty(), "{:?}", anim.interpretation.skipped);
    let f = frames(&anim);
    assert!(f.len() > 24 * 60);
    assert!(f.iter().all(|p| p.iter().all(|v| v.is_finite())));
    // The phrase reaches every kind of floor support.
    let plan = &anim.dancers[0].plan;
    let states: Vec<FloorState> = plan.floor.keys.iter().filter_map(|k| k.value).collect();
    assert!(states.iter().any(|s| s.legs.iter().filter(|l| matches!(l, LegSupport::Knee(_))).count() == 1));
    assert!(states.iter().any(|s| s.hands.iter().all(Option::is_some)));
    assert!(states.iter().any(|s| s.seat.is_some()));
    assert!(states.iter().any(|s| s.lying.is_some()));
    assert_eq!(plan.floor.keys.last().unwrap().value, None, "stands up at the end");
}

#[test]
fn bearing_parts_sit_on_the_floor_and_nothing_goes_through_it() {
    let anim = demo();
    let f = frames(&anim);
    let (mut knees, mut hands, mut seats) = (0, 0, 0);
    for (i, p) in f.iter().enumerate() {
        let t = i as f64 / FPS;
        for (j, v) in JointId::ALL.iter().zip(p) {
            assert!(v.y >= 0.0, "frame {i} t={t:.2}: {j:?} below the floor at y = {:.3}", v.y);
        }
        let Some(st) = settled_state(&anim, t) else { continue };
        for (side, knee) in [(0, JointId::KneeL), (1, JointId::KneeR)] {
            if let LegSupport::Knee(at) = st.legs[side] {
                let k = p[idx(knee)];
                assert!((k.y - KNEE_CONTACT_HEIGHT_M).abs() < 0.015, "t={t:.2} {knee:?} at y = {:.3}", k.y);
                let d = Vec3::new(k.x - at.x, 0.0, k.z - at.z).length();
                assert!(d < 0.03, "t={t:.2} {knee:?} {d:.3} m from its contact point");
                knees += 1;
            }
        }
        for (side, wrist, hand) in [(0, JointId::WristL, JointId::HandL), (1, JointId::WristR, JointId::HandR)] {
            if let Some(at) = st.hands[side] {
                // The hand touches the floor: its lowest joint within 3 cm of it, the wrist at
                // its contact height or a little above where the wrist cannot lay the hand flat.
                let (w, h) = (p[idx(wrist)], p[idx(hand)]);
                assert!(w.y.min(h.y) < 0.03, "t={t:.2} {wrist:?} {:.3}, {hand:?} {:.3}", w.y, h.y);
                assert!(w.y >= WRIST_CONTACT_HEIGHT_M - 0.015, "t={t:.2} {wrist:?} at y = {:.3}", w.y);
                let d = Vec3::new(w.x - at.x, 0.0, w.z - at.z).length();
                assert!(d < 0.03, "t={t:.2} {wrist:?} {d:.3} m from its contact point");
                hands += 1;
            }
        }
        if st.seat.is_some() {
            for hip in [JointId::HipL, JointId::HipR] {
                assert!((p[idx(hip)].y - SEAT_HIP_HEIGHT_M).abs() < 0.03, "t={t:.2} {hip:?} {:.3}", p[idx(hip)].y);
            }
            seats += 1;
        }
    }
    println!("frames with a knee / hand / seat on the floor: {knees} / {hands} / {seats}");
    assert!(knees > 60 && hands > 60 && seats > 30);
}

/// Frames where a joint moves more than 3 cm and more than 4× its larger neighbouring step.
fn jumps(f: &[[Vec3; JOINT_COUNT]]) -> Vec<(usize, JointId, f32)> {
    let mut out = Vec::new();
    for i in 1..f.len().saturating_sub(1) {
        for j in JointId::ALL {
            let step = |a: usize| f[a][idx(j)].distance(f[a - 1][idx(j)]);
            let here = step(i);
            let before = if i >= 2 { step(i - 1) } else { 0.0 };
            let after = step(i + 1);
            if here > 0.03 && here > 4.0 * before.max(after) {
                out.push((i, j, here));
            }
        }
    }
    out
}

#[test]
fn transitions_are_continuous() {
    let anim = demo();
    let f = frames(&anim);
    let j = jumps(&f);
    let detail: Vec<String> = j
        .iter()
        .take(4)
        .map(|(i, joint, _)| format!("{joint:?} {:?}", (i - 1..=i + 1).map(|k| f[k][idx(*joint)]).collect::<Vec<_>>()))
        .collect();
    assert!(j.is_empty(), "joint jumps (frame, joint, metres): {j:?}\n{detail:#?}");
}

/// Kneel on one knee (backward), then the other, then stand: the `side` knee goes first.
fn one_knee_first(right_first: bool) -> Animation {
    let (a, b, pa, pb, da) = if right_first { (134, 122, 131, 122, 5) } else { (122, 134, 122, 131, 6) };
    let (ka, kb) = if right_first { (17, 12) } else { (12, 17) };
    let (fa, fb) = if right_first { (19, 14) } else { (14, 19) };
    let text = format!(
        "Stav 0 96 12 1 1 400 B\nStav 2 170 12 1 1 400 B\nStav 1 133 48 1 1 364 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 L\n\
Keys 0 18 30 2 20 12 B 4/4\nKeys 0 18 14 2 30 12 B q=60\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\nVolm 7 122 97 1 12 12 B\nVolm 7 134 97 1 12 12 B\n\
Limb {ka} {pa} 109 4 12 24 B\nDirn {da} {a} 121 8 10 47 H\nVolm 7 {b} 121 1 12 12 B\n\
Limb {kb} {pb} 157 4 12 24 B\nDirn 11 {b} 169 8 10 47 H\nVolm 7 {a} 169 1 12 12 B\n\
Limb {fa} {pa} 205 4 12 24 B\nDirn 11 {a} 217 8 10 47 M\nVolm 7 {b} 217 1 12 12 B\n\
Limb {fb} {pb} 253 4 12 24 B\nDirn 11 {b} 265 4 10 23 M\nVolm 7 {a} 265 1 12 12 B\n"
    );
    compile_text(&text)
}

#[test]
fn left_and_right_kneeling_mirror() {
    let (r, l) = (frames(&one_knee_first(true)), frames(&one_knee_first(false)));
    assert_eq!(r.len(), l.len());
    let mirror = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
    let other = JointId::mirrored;
    let mut worst = (0.0f32, 0, JointId::Pelvis);
    for (i, (a, b)) in r.iter().zip(&l).enumerate() {
        for j in JointId::ALL {
            let d = a[idx(j)].distance(mirror(b[idx(other(j))]));
            if d > worst.0 {
                worst = (d, i, j);
            }
        }
    }
    assert!(
        worst.0 < 0.01,
        "right-first and left-first differ by {:.3} m at frame {} ({:?})",
        worst.0,
        worst.1,
        worst.2
    );
    // And the kneeling really happens (both knees down at beat 5).
    let knee_y = r[5 * 60][idx(JointId::KneeR)].y.max(r[5 * 60][idx(JointId::KneeL)].y);
    assert!(knee_y < KNEE_CONTACT_HEIGHT_M + 0.015, "knees at {knee_y:.3}");
}

#[test]
fn real_scores_floor_supports_animate() {
    let Some(dir) = support::real_scores_dir("real_scores_floor_supports_animate") else { return };
    let mut not_animated_in_support_columns = Vec::new();
    let mut not_animated = 0;
    let mut with_floor = Vec::new();
    let mut files: Vec<_> = walk(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "lbn")).collect();
    files.sort();
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(doc) = read(&bytes, Some("lbn")) else { continue };
        let score = Score::from_document(&doc);
        let (plans, report) = plan_score(&score, &MotionOptions::default());
        for d in &report.skipped {
            if d.message.contains("not animated yet") {
                not_animated += 1;
                let floor_column = d.message.contains("column 1:") || d.message.contains("column -1:");
                if floor_column && d.message.contains("column for") {
                    not_animated_in_support_columns.push(format!("{}: {}", path.display(), d.message));
                }
            }
        }
        if plans.iter().any(|p| p.floor.keys.iter().any(|k| k.value.is_some())) {
            with_floor.push(path.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    println!(
        "\"not animated yet\" warnings over the corpus: {not_animated} (before floor work: 94, 26 of them in support columns)"
    );
    println!("scores with floor work: {with_floor:?}");
    assert!(not_animated_in_support_columns.is_empty(), "{not_animated_in_support_columns:#?}");
    for name in ["knee_walk.lbn", "kneesupport.lbn", "laban7.lbn"] {
        assert!(with_floor.iter().any(|f| f == name), "{name} has no floor work: {with_floor:?}");
    }
    // The knee walk animates with the knees on the floor.
    let text = std::fs::read_to_string(dir.join("laban-tk/knee_walk.lbn")).unwrap();
    let anim = compile_text(&text);
    let f = frames(&anim);
    let mut on_knees = 0;
    for (i, p) in f.iter().enumerate() {
        for (j, v) in JointId::ALL.iter().zip(p) {
            assert!(v.y >= 0.0, "knee_walk frame {i}: {j:?} below the floor at {v}");
        }
        if let Some(st) = settled_state(&anim, i as f64 / FPS)
            && st.legs.iter().all(|l| matches!(l, LegSupport::Knee(_)))
        {
            for k in [JointId::KneeL, JointId::KneeR] {
                assert!((p[idx(k)].y - KNEE_CONTACT_HEIGHT_M).abs() < 0.015, "knee_walk frame {i} {k:?}");
            }
            on_knees += 1;
        }
    }
    assert!(on_knees > 60, "knee_walk spends {on_knees} frames on both knees");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() { out.extend(walk(&p)) } else { out.push(p) }
    }
    out
}

/// The lowest point of the hand on `side` (wrist, knuckles, fingertip), metres above the floor.
fn hand_low(anim: &Animation, joints: &[Vec3; JOINT_COUNT], ends: &[Vec3], side: usize) -> f32 {
    let (wrist, knuckles) =
        if side == 0 { (JointId::WristL, JointId::HandL) } else { (JointId::WristR, JointId::HandR) };
    let tip = anim.skeleton.end_sites().iter().position(|s| s.parent == knuckles).unwrap();
    joints[idx(wrist)].y.min(joints[idx(knuckles)].y).min(ends[tip].y)
}

/// Hands bearing weight in a plank point their fingers forward (+Z, where the dancer faces) along
/// the floor, the left the mirror image of the right.
fn assert_hands_flat_and_mirrored(anim: &Animation, joints: &[Vec3; JOINT_COUNT], ends: &[Vec3], what: &str) {
    let fingers = |knuckles: JointId| {
        let tip = anim.skeleton.end_sites().iter().position(|s| s.parent == knuckles).unwrap();
        (ends[tip] - joints[idx(knuckles)]).normalize()
    };
    let (left, right) = (fingers(JointId::HandL), fingers(JointId::HandR));
    for f in [left, right] {
        assert!(f.z > 0.8, "{what}: fingers point {f:.2}, not forward along the floor");
    }
    let mirrored = Vec3::new(-right.x, right.y, right.z);
    assert!(left.distance(mirrored) < 0.05, "{what}: left fingers {left:.2}, right {right:.2}: not mirrored");
}

/// The lowest point of the foot on `side` (ankle, ball, toe tip), metres above the floor.
fn foot_low(anim: &Animation, joints: &[Vec3; JOINT_COUNT], ends: &[Vec3], side: usize) -> f32 {
    let (ankle, ball) = if side == 0 { (JointId::AnkleL, JointId::BallL) } else { (JointId::AnkleR, JointId::BallR) };
    let tip = anim.skeleton.end_sites().iter().position(|s| s.parent == ball).unwrap();
    let ankle_height = joint_world(&anim.skeleton, &Pose::rest(&anim.skeleton), ankle).1.y;
    (joints[idx(ankle)].y - ankle_height).min(ends[tip].y)
}

#[test]
fn the_hands_and_feet_phrase_plays_on_the_floor_with_every_body() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scores/hands-and-feet.lbn")).unwrap();
    for model in model_names() {
        let anim = compile_for(&text, model);
        assert!(anim.notes.is_empty(), "{model}: {:?}", anim.notes);
        assert!(anim.interpretation.skipped.is_empty(), "{model}: {:?}", anim.interpretation.skipped);
        let states: Vec<FloorState> = anim.dancers[0].plan.floor.keys.iter().filter_map(|k| k.value).collect();
        assert!(states.iter().any(|s| s.hands.iter().all(Option::is_some)), "{model}: both hands never down");
        assert!(
            states.iter().any(|s| matches!(s.legs, [LegSupport::Foot, LegSupport::Knee(_)])),
            "{model}: no lunge with the right knee down"
        );
        assert_eq!(anim.dancers[0].plan.floor.keys.last().unwrap().value, None, "{model}: stands up at the end");
        let (joints, ends) = (frames(&anim), end_site_frames(&anim));
        assert_nothing_through_the_floor(model, &joints, &ends, &anim, &[]);
        let (mut hands, mut knees, mut feet) = (0, 0, 0);
        for (i, (p, e)) in joints.iter().zip(&ends).enumerate() {
            let t = i as f64 / FPS;
            let Some(st) = settled_state(&anim, t) else { continue };
            for side in 0..2 {
                if st.hands[side].is_some() {
                    let low = hand_low(&anim, p, e, side);
                    assert!(low <= 0.02, "{model} t={t:.2}: hand {side} bears weight {low:.3} m above the floor");
                    hands += 1;
                }
                match st.legs[side] {
                    LegSupport::Knee(_) => {
                        let k = p[idx([JointId::KneeL, JointId::KneeR][side])].y;
                        assert!((k - KNEE_CONTACT_HEIGHT_M).abs() < 0.015, "{model} t={t:.2}: knee {side} at {k:.3}");
                        knees += 1;
                    }
                    LegSupport::Foot => {
                        let low = foot_low(&anim, p, e, side);
                        assert!(low <= 0.02, "{model} t={t:.2}: foot {side} bears weight {low:.3} m above the floor");
                        feet += 1;
                    }
                    _ => {}
                }
            }
        }
        println!("{model}: frames with a hand / knee / foot bearing weight on the floor: {hands} / {knees} / {feet}");
        assert!(hands > 2 * 60 && knees > 2 * 60 && feet > 4 * 60, "{model}: {hands} / {knees} / {feet}");
        let j = jumps(&joints);
        assert!(j.is_empty(), "{model}: joint jumps (frame, joint, metres): {j:?}");
    }
}

#[test]
fn the_real_floor_scores_put_nothing_through_the_floor_with_every_body() {
    let Some(dir) = support::real_scores_dir("the_real_floor_scores_put_nothing_through_the_floor") else { return };
    for name in ["laban-tk/knee_walk.lbn", "laban-tk/laban7.lbn"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        for model in model_names() {
            let anim = compile_for(&text, model);
            let (joints, ends) = (frames(&anim), end_site_frames(&anim));
            assert_nothing_through_the_floor(&format!("{name} {model}"), &joints, &ends, &anim, &[]);
        }
    }
}

/// The angle at the hips between the thighs' line (ankles → hips) and the trunk's (hips →
/// shoulders), degrees: 0 in a straight plank.
fn hip_bend_deg(p: &[Vec3; JOINT_COUNT]) -> f32 {
    let mid = |a: JointId, b: JointId| (p[idx(a)] + p[idx(b)]) * 0.5;
    let (ankles, hips) = (mid(JointId::AnkleL, JointId::AnkleR), mid(JointId::HipL, JointId::HipR));
    let shoulders = mid(JointId::ShoulderL, JointId::ShoulderR);
    (hips - ankles).angle_between(shoulders - hips).to_degrees()
}

#[test]
fn the_feet_walk_back_into_a_plank_and_in_again_with_every_body() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scores/plank.lbn")).unwrap();
    for model in model_names() {
        let anim = compile_for(&text, model);
        assert!(anim.interpretation.skipped.is_empty(), "{model}: {:?}", anim.interpretation.skipped);
        let (joints, ends) = (frames(&anim), end_site_frames(&anim));
        assert_nothing_through_the_floor(model, &joints, &ends, &anim, &[]);
        let leg_m = anim.skeleton.bone_length_m(JointId::KneeL) + anim.skeleton.bone_length_m(JointId::AnkleL);
        let mut planks = 0;
        for (i, (p, e)) in joints.iter().zip(&ends).enumerate() {
            let t = i as f64 / FPS;
            let Some(st) = settled_state(&anim, t) else { continue };
            // Both hands stay on the floor while the feet walk back and in (the hold signs).
            assert!(st.hands.iter().all(Option::is_some), "{model} t={t:.2}: a hand came off the floor");
            for side in 0..2 {
                let low = hand_low(&anim, p, e, side);
                assert!(low <= 0.02, "{model} t={t:.2}: hand {side} bears weight {low:.3} m above the floor");
            }
            let hands_z = (st.hands[0].unwrap() + st.hands[1].unwrap()).z * 0.5;
            let feet_z = st.feet.iter().flatten().map(|f| f.z).sum::<f32>() / 2.0;
            if hands_z - feet_z > 1.5 * leg_m {
                // The plank: the pelvis low, the body in a line from the ankles to the shoulders.
                let pelvis_y = p[idx(JointId::Pelvis)].y;
                assert!(pelvis_y < 0.6 * leg_m, "{model} t={t:.2}: pelvis {pelvis_y:.2} m up in the plank");
                let bend = hip_bend_deg(p);
                assert!(bend < 20.0, "{model} t={t:.2}: the hips bend {bend:.0}° in the plank");
                for side in 0..2 {
                    let low = foot_low(&anim, p, e, side);
                    assert!(low <= 0.03, "{model} t={t:.2}: foot {side} {low:.3} m above the floor in the plank");
                }
                assert_hands_flat_and_mirrored(&anim, p, e, &format!("{model} t={t:.2}"));
                planks += 1;
            }
        }
        println!("{model}: {planks} frames in the plank");
        assert!(planks > 90, "{model}: the plank held {planks} frames");
        // Up to standing at the end, the hands off the floor.
        assert_eq!(anim.dancers[0].plan.floor.keys.last().unwrap().value, None, "{model}: stands up at the end");
        let j = jumps(&joints);
        assert!(j.is_empty(), "{model}: joint jumps (frame, joint, metres): {j:?}");
    }
}
