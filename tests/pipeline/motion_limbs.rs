//! Limbs as written: hand-made scores with one arm or leg symbol per direction × level (all 27)
//! on each side: every limb points the notated way at the end of its symbol and holds it until
//! the next one, the left side mirrors the right within 1°, and a limb stays in its starting
//! position (or natural standing) until its first symbol.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use glam::{Quat, Vec3};
use labanplay::animation::{Animation, compile};
use labanplay::motion::rules::{MotionOptions, cross_in_front, gesture_dir_in_body, leg_cross, mirrored_direction};
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::{Direction, Level, read};
use labanplay::score::Score;
use std::fmt::Write as _;

use crate::support;

/// Seconds per beat (the default 120 bpm).
const BEAT_SECS: f64 = 0.5;

/// Column x (left edge of a 10-unit wide symbol) on a staff centred at 133: symmetric pairs.
const ARM_R: i32 = 187;
const ARM_L: i32 = 69;
const LEG_R: i32 = 159;
const LEG_L: i32 = 97;
const SUPPORT_R: i32 = 134;
const SUPPORT_L: i32 = 122;

/// The 27 targets: nine directions (place first) at low, middle and high.
fn targets() -> Vec<(Direction, Level)> {
    Direction::ALL.iter().flat_map(|d| [Level::Low, Level::Middle, Level::High].map(|l| (*d, l))).collect()
}

fn led_item(d: Direction) -> u8 {
    match d {
        Direction::Forward => 1,
        Direction::RightForward => 2,
        Direction::Right => 3,
        Direction::RightBackward => 4,
        Direction::Backward => 5,
        Direction::LeftBackward => 7,
        Direction::Left => 8,
        Direction::LeftForward => 9,
        Direction::Place => 11,
    }
}

/// One symbol: column, start beat, length in beats, direction, level.
type Symbol = (i32, f64, f64, Direction, Level);

/// An LED score: a staff, the starting position (both feet in place) below the double bar at
/// beat 0, two-beat measures, and `symbols`.
fn led(symbols: &[Symbol], beats: f64) -> String {
    let top = 96 + (beats * 24.0).ceil() as i32 + 24;
    let mut s = format!("Stav 0 96 12 1 1 {top} B\nStav 2 170 12 1 1 {top} B\nStav 1 133 48 1 1 {} L\n", top - 36);
    s.push_str("Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\n");
    let mut bar = 2;
    let mut y = 96 + 48;
    while y <= 96 + (beats * 24.0) as i32 {
        writeln!(s, "Bars {bar} 30 {y} 1 177 3 B").unwrap();
        bar += 1;
        y += 48;
    }
    s.push_str("Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n");
    for (x, beat, len, d, l) in symbols {
        let level = match l {
            Level::Low => 'L',
            Level::Middle => 'M',
            Level::High => 'H',
            Level::Blank => 'B',
        };
        let y = 97 + (beat * 24.0) as i32;
        let h = (len * 24.0) as i32 - 1;
        writeln!(s, "Dirn {} {x} {y} 4 10 {h} {level}", led_item(*d)).unwrap();
    }
    s
}

fn animation(text: &str) -> Animation {
    animation_of(text, &Proportions::default())
}

fn animation_of(text: &str, proportions: &Proportions) -> Animation {
    let doc = read(text.as_bytes(), Some("lbn")).unwrap();
    compile(&Score::from_document(&doc), &MotionOptions::default(), proportions)
}

/// Every target for one limb column: symbol k over beats 2k+2..2k+3, then a beat of nothing.
/// Legs stand on the other foot (a support symbol over beats 0–1).
fn all_targets(column: i32, mirror: bool, support: Option<i32>) -> (String, Vec<(Direction, Level, f64)>) {
    let mut symbols = Vec::new();
    let mut at = Vec::new();
    if let Some(x) = support {
        symbols.push((x, 0.0, 1.0, Direction::Place, Level::Middle));
    }
    for (k, (d, l)) in targets().into_iter().enumerate() {
        let d = if mirror { mirrored_direction(d) } else { d };
        let beat = 2.0 + 2.0 * k as f64;
        symbols.push((column, beat, 1.0, d, l));
        at.push((d, l, beat));
    }
    (led(&symbols, 2.0 + 2.0 * at.len() as f64), at)
}

#[derive(Clone, Copy, Debug)]
struct Chain {
    root: JointId,
    mid: JointId,
    end: JointId,
}

const ARM_CHAIN_R: Chain = Chain { root: JointId::ShoulderR, mid: JointId::ElbowR, end: JointId::WristR };
const ARM_CHAIN_L: Chain = Chain { root: JointId::ShoulderL, mid: JointId::ElbowL, end: JointId::WristL };
const LEG_CHAIN_R: Chain = Chain { root: JointId::HipR, mid: JointId::KneeR, end: JointId::AnkleR };
const LEG_CHAIN_L: Chain = Chain { root: JointId::HipL, mid: JointId::KneeL, end: JointId::AnkleL };

/// The limb's segments (root → mid, mid → end) and whole direction (root → end), in the
/// dancer's frame (right, up, forward) for a dancer facing `yaw`.
fn limb_in_body(anim: &Animation, pose: &Pose, chain: Chain, yaw: f32) -> [Vec3; 3] {
    let sk = &anim.skeleton;
    let p = |j| joint_world(sk, pose, j).1;
    let to_body = |v: Vec3| {
        let v = Quat::from_rotation_y(-yaw) * v;
        Vec3::new(-v.x, v.y, v.z).normalize_or_zero()
    };
    let (r, m, e) = (p(chain.root), p(chain.mid), p(chain.end));
    [to_body(m - r), to_body(e - m), to_body(e - r)]
}

fn deg(a: Vec3, b: Vec3) -> f32 {
    a.angle_between(b).to_degrees()
}

fn mirror(v: Vec3) -> Vec3 {
    Vec3::new(-v.x, v.y, v.z)
}

/// What one target gave: the notated direction and level, the direction the rules aim for
/// (the notated one, or round the body when it points across it), degrees off that aim at the
/// symbol's end, degrees moved by the end of the following beat, whether the sampler flagged
/// the limb out of reach, and the limb's segments and whole direction at the end.
#[derive(Clone, Copy, Debug)]
struct Reached {
    dir: Direction,
    level: Level,
    aim: Vec3,
    off_deg: f32,
    moved_deg: f32,
    clamped: bool,
    limb: [Vec3; 3],
}

fn reach_and_hold(anim: &Animation, chain: Chain, at: &[(Direction, Level, f64)]) -> Vec<Reached> {
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(&anim.skeleton);
    let right = chain.root.side() == Some(labanplay::pose::skeleton::Side::Right);
    let arm = matches!(chain.root, JointId::ShoulderL | JointId::ShoulderR);
    at.iter()
        .map(|&(dir, level, beat)| {
            let t_end = (beat + 1.0) * BEAT_SECS;
            let r = d.sample_into(&anim.skeleton, t_end, &mut pose);
            let clamped = if arm { r.arms_clamped[usize::from(right)] } else { r.legs_clamped[usize::from(right)] };
            let limb = limb_in_body(anim, &pose, chain, d.yaw_at(t_end));
            let table = gesture_dir_in_body(dir, level);
            let aim = if arm { cross_in_front(table, right) } else { leg_cross(table, right) };
            let off_deg = if aim == Vec3::ZERO { 0.0 } else { deg(limb[2], aim) };
            d.sample_into(&anim.skeleton, t_end + BEAT_SECS - 0.02, &mut pose);
            let later = limb_in_body(anim, &pose, chain, d.yaw_at(t_end));
            let moved_deg = deg(limb[2], later[2]).max(deg(limb[0], later[0]));
            Reached { dir, level, aim, off_deg, moved_deg, clamped, limb }
        })
        .collect()
}

fn report(what: &str, rows: &[Reached]) {
    for r in rows {
        let table = gesture_dir_in_body(r.dir, r.level);
        let across = if r.aim != table {
            format!(" (across: {:.1}° from the table)", deg(r.aim, table))
        } else {
            String::new()
        };
        println!(
            "{what} {:>6} {:?}: {:6.2}° off, moved {:5.2}° while held{}{across}",
            r.dir.short(),
            r.level,
            r.off_deg,
            r.moved_deg,
            if r.clamped { ", out of reach" } else { "" }
        );
    }
}

#[test]
fn arms_point_where_written_and_mirror_each_other() {
    // Both arms at once: the right arm through the 27 targets, the left arm through their mirrors.
    let (_, right_at) = all_targets(ARM_R, false, None);
    let (_, left_at) = all_targets(ARM_L, true, None);
    let mut symbols: Vec<Symbol> = Vec::new();
    for (x, list) in [(ARM_R, &right_at), (ARM_L, &left_at)] {
        symbols.extend(list.iter().map(|(d, l, b)| (x, *b, 1.0, *d, *l)));
    }
    let anim = animation(&led(&symbols, 2.0 + 2.0 * right_at.len() as f64));
    let right = reach_and_hold(&anim, ARM_CHAIN_R, &right_at);
    let left = reach_and_hold(&anim, ARM_CHAIN_L, &left_at);
    report("arm R", &right);
    report("arm L", &left);
    check_limbs("arm", &right, &left, ARMS_BEYOND_REACH);
}

/// The notation's rule for an arm across the body: it is directed from its own shoulder, so the
/// right arm's "left side" lays it across the front of the body (round it, not through it), as
/// far as that body's shoulder lets it towards the written direction. With every built-in body,
/// each arm to the other side and the forward diagonal across, low, middle and high: the arm
/// ends within 3° of the direction the rules aim for, or, where the sampler says the shoulder
/// kept it back, in front of the body, across it, and within 25° of that aim; it holds, and the
/// left arm mirrors the right.
#[test]
fn arms_across_the_body_reach_as_far_as_each_body_can() {
    use labanplay::body::rig::{find_model, model_names, model_proportions};
    let across = [Direction::Left, Direction::LeftForward];
    let targets: Vec<(Direction, Level)> =
        across.iter().flat_map(|d| [Level::Low, Level::Middle, Level::High].map(|l| (*d, l))).collect();
    let at = |mirror: bool| -> Vec<(Direction, Level, f64)> {
        let pick = |d: Direction| if mirror { mirrored_direction(d) } else { d };
        targets.iter().enumerate().map(|(k, &(d, l))| (pick(d), l, 2.0 + 2.0 * k as f64)).collect()
    };
    let (right_at, left_at) = (at(false), at(true));
    let mut symbols: Vec<Symbol> = Vec::new();
    for (x, list) in [(ARM_R, &right_at), (ARM_L, &left_at)] {
        symbols.extend(list.iter().map(|(d, l, b)| (x, *b, 1.0, *d, *l)));
    }
    let text = led(&symbols, 2.0 + 2.0 * right_at.len() as f64);
    for model in model_names() {
        let proportions = model_proportions(&find_model(model).expect("a built-in model"));
        let anim = animation_of(&text, &proportions);
        let right = reach_and_hold(&anim, ARM_CHAIN_R, &right_at);
        let left = reach_and_hold(&anim, ARM_CHAIN_L, &left_at);
        for (side, rows) in [("R", &right), ("L", &left)] {
            for r in rows.iter() {
                let name = format!("{model} arm {side} {:?} {:?}", r.dir, r.level);
                println!("{name}: {:.1}° off{}", r.off_deg, if r.clamped { ", at the shoulder's limit" } else { "" });
                assert!(r.moved_deg < 1.0, "{name}: moved {:.2}° while held", r.moved_deg);
                let whole = r.limb[2];
                let towards_other_side = if side == "R" { -whole.x } else { whole.x };
                assert!(whole.z > 0.2, "{name}: only {:.2} in front of the body", whole.z);
                assert!(towards_other_side > 0.0, "{name}: does not cross the body ({whole})");
                let max = if r.clamped { 25.0 } else { 3.0 };
                assert!(r.off_deg < max, "{name}: {:.1}° off where it aims (at most {max}°)", r.off_deg);
            }
        }
        for (r, l) in right.iter().zip(&left) {
            let m = deg(r.limb[2], mirror(l.limb[2]));
            assert!(m < 1.0, "{model} {:?} {:?}: left and right differ {m:.2}° from mirrored", r.dir, r.level);
        }
    }
}

#[test]
fn legs_point_where_written_and_mirror_each_other() {
    let (text_r, right_at) = all_targets(LEG_R, false, Some(SUPPORT_L));
    let (text_l, left_at) = all_targets(LEG_L, true, Some(SUPPORT_R));
    let right = reach_and_hold(&animation(&text_r), LEG_CHAIN_R, &right_at);
    let left = reach_and_hold(&animation(&text_l), LEG_CHAIN_L, &left_at);
    report("leg R", &right);
    report("leg L", &left);
    check_limbs("leg", &right, &left, LEGS_BEYOND_REACH);
}

/// Arm targets (for the right arm; the left mirrors them) beyond the shoulder's range, with how
/// far off they may end, degrees; the sampler flags them out of reach. Back high needs 135° of
/// shoulder extension (90° allowed; a dancer arches the upper back, not done yet), the
/// back-right diagonal high 95°.
const ARMS_BEYOND_REACH: &[(Direction, Level, f32)] = &[
    (Direction::RightBackward, Level::High, 5.0),
    (Direction::Backward, Level::High, 46.0),
    (Direction::LeftBackward, Level::High, 46.0),
];
/// Leg targets beyond the hip's range even with the pelvis's help: a leg straight up (place
/// high), the back-right diagonal high, and high legs across the body; at middle level a leg
/// across aims at the forward diagonal, which the hip's adduction leaves about 25° short while
/// the other foot stands.
const LEGS_BEYOND_REACH: &[(Direction, Level, f32)] = &[
    (Direction::Place, Level::High, 80.0),
    (Direction::RightBackward, Level::High, 8.0),
    (Direction::Left, Level::Middle, 26.0),
    (Direction::LeftForward, Level::Middle, 26.0),
    (Direction::Left, Level::High, 2.0),
    (Direction::LeftForward, Level::High, 2.0),
];

fn check_limbs(what: &str, right: &[Reached], left: &[Reached], beyond: &[(Direction, Level, f32)]) {
    let mut worst_mirror = 0f32;
    for (r, l) in right.iter().zip(left) {
        for k in 0..3 {
            let m = deg(r.limb[k], mirror(l.limb[k]));
            worst_mirror = worst_mirror.max(m);
            assert!(m < 1.0, "{what} {:?} {:?}: segment {k} left/right differ {m:.2}° from mirrored", r.dir, r.level);
        }
    }
    println!("{what}: worst left/right mirror difference {worst_mirror:.3}°");
    for (side, rows) in [("R", right), ("L", left)] {
        for r in rows {
            let (d, l) = (r.dir, r.level);
            let name = format!("{what} {side} {d:?} {l:?}");
            assert!(r.moved_deg < 1.0, "{name}: moved {:.2}° while nothing released it", r.moved_deg);
            let right_dir = if side == "R" { d } else { mirrored_direction(d) };
            match beyond.iter().find(|b| b.0 == right_dir && b.1 == l) {
                Some(&(_, _, max)) => {
                    assert!(r.clamped, "{name}: listed as beyond reach but reached");
                    assert!(r.off_deg <= max, "{name}: {:.2}° off (at most {max}° expected)", r.off_deg);
                }
                None => assert!(r.off_deg < 3.0, "{name}: {:.2}° off where it aims", r.off_deg),
            }
            // Across the body: round it, in front (or behind) by a fifth of the limb's length.
            let table = gesture_dir_in_body(d, l);
            if r.aim != table {
                let forward = r.limb[2].z * if table.z < -1e-6 { -1.0 } else { 1.0 };
                assert!(forward > 0.2, "{name}: crosses the body only {forward:.2} in front of (behind) it");
            }
        }
    }
}

#[test]
fn limbs_wait_in_their_starting_position_until_their_first_symbol() {
    // Left arm: nothing below the double bar (natural standing: hanging), first symbol forward
    // middle over beats 4–5. Right arm: side middle in the starting position, first symbol
    // forward high over beats 4–5.
    let mut text = led(
        &[(ARM_L, 4.0, 1.0, Direction::Forward, Level::Middle), (ARM_R, 4.0, 1.0, Direction::Forward, Level::High)],
        8.0,
    );
    text.push_str("Dirn 3 187 70 4 10 23 M\n");
    let anim = animation(&text);
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(&anim.skeleton);
    let mut arms_at = |t: f64| {
        d.sample_into(&anim.skeleton, t, &mut pose);
        (limb_in_body(&anim, &pose, ARM_CHAIN_L, 0.0)[2], limb_in_body(&anim, &pose, ARM_CHAIN_R, 0.0)[2])
    };
    let first = arms_at(0.0);
    for t in [0.0, 0.5, 1.0, 1.5, 2.0] {
        let (l, r) = arms_at(t);
        assert!(deg(l, -Vec3::Y) < 3.0, "left arm {:.1}° from hanging at {t} s", deg(l, -Vec3::Y));
        assert!(deg(r, Vec3::X) < 3.0, "right arm {:.1}° from its starting side middle at {t} s", deg(r, Vec3::X));
        assert!(deg(l, first.0) < 0.01 && deg(r, first.1) < 0.01, "an arm moved before its first symbol at {t} s");
    }
    // Within the symbol both move, from where they were, and arrive at its end.
    let (l, r) = arms_at(2.25);
    assert!(deg(l, -Vec3::Y) > 10.0 && deg(l, Vec3::Z) > 10.0, "left arm half way: {l:?}");
    assert!(deg(r, Vec3::X) > 10.0, "right arm half way: {r:?}");
    let (l, r) = arms_at(2.5);
    assert!(deg(l, Vec3::Z) < 3.0, "left arm {:.1}° off forward middle", deg(l, Vec3::Z));
    let fwd_high = gesture_dir_in_body(Direction::Forward, Level::High);
    assert!(deg(r, fwd_high) < 3.0, "right arm {:.1}° off forward high", deg(r, fwd_high));

    // The real case: in laban-tk/directions.lbn the left arm's first symbol is in measure 6
    // (beat 10, 5 s); it hangs by the side until then.
    let Some(dir) = support::real_scores_dir("starting position in directions.lbn") else { return };
    let Ok(bytes) = std::fs::read(dir.join("laban-tk/directions.lbn")) else { return };
    let anim = animation(std::str::from_utf8(&bytes).unwrap());
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(&anim.skeleton);
    for t in [0.0, 1.0, 2.5, 4.0, 4.9] {
        d.sample_into(&anim.skeleton, t, &mut pose);
        let l = limb_in_body(&anim, &pose, ARM_CHAIN_L, d.yaw_at(t))[2];
        assert!(deg(l, -Vec3::Y) < 5.0, "directions.lbn: left arm {:.1}° from hanging at {t} s", deg(l, -Vec3::Y));
    }
}
