//! `labanplay convert` of keyframe `.json` scores. Every real keyframe score (both layouts) laid
//! out and written as `.lbn` reads back without errors and composes, per channel (head, each
//! upper and lower arm), to the same keys (direction, level, in order) starting and ending within
//! an eighth of a beat of the written tempo (half of `.lbn`'s quarter-beat grid; the tempo is
//! chosen so that no time moves further), with no flight between its turn signs; every keyframe
//! not written is a warning. A fixed sample of twenty moves its elbows and wrists (in the pelvis's
//! frame) through the original's poses, each within an eighth of a beat of when the original
//! does; a score whose rotations are whole eighths of a turn faces the same way throughout. The
//! hand-made fixture's signs stand on the lines worked out by hand.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::cli::convert::convert;
use labanplay::diag::Span;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, world_rot_pos};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::{BodyPart, Document};
use labanplay::score::{ChannelKind, EntryKind, Score};
use labanplay::write::{LaidOut, lay_out_keyframes, write_lbn};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Sampling rate of the motion comparison, frames per second.
const FPS: f64 = 10.0;
/// How many scores the motion comparison samples.
const MOTION_SAMPLE: usize = 20;
/// The most an elbow or wrist may differ (in the pelvis's frame) between the original and the
/// converted motion at the same time, metres; see the test.
const SAME_TIME_BOUND_M: f32 = 0.3;
/// The most an elbow or wrist may lie from the original's poses within an eighth of a beat of
/// the same time, metres.
const SHIFTED_BOUND_M: f32 = 0.005;
/// The most the converted dancer may face away from the original, degrees.
const FACING_BOUND_DEG: f32 = 0.5;
/// Steps each way of the time shift tried.
const SHIFT_STEPS: i32 = 20;

/// Every `.json` of the real corpus, sorted, with a short name.
fn json_files() -> Vec<(String, PathBuf)> {
    let Some(dir) = support::real_scores_dir("the keyframe conversion over the real scores") else {
        return Vec::new();
    };
    let mut files: Vec<(String, PathBuf)> = labanplay::cli::check::collect_files(std::slice::from_ref(&dir))
        .into_iter()
        .filter(|p| labanplay::read::score_extension(p).as_deref() == Some("json"))
        .map(|p| (p.strip_prefix(&dir).unwrap().display().to_string(), p))
        .collect();
    files.sort();
    files
}

/// A keyframe document laid out, written and read back.
struct Converted {
    laid: LaidOut,
    back: Document,
}

fn converted(name: &str, doc: &Document) -> Converted {
    let laid = lay_out_keyframes(doc);
    let written = write_lbn(&laid.document);
    assert!(written.warnings.is_empty(), "{name}: the writer warned: {:?}", written.warnings);
    let back = labanplay::read::read(written.text.as_bytes(), Some("lbn"))
        .unwrap_or_else(|e| panic!("{name}: the written text does not read:\n{}", e.render(name, None)));
    Converted { laid, back }
}

/// One key of a channel: direction and level (or `start` for the starting position), start and
/// end seconds.
type Key = (String, f64, f64);

/// The head's and each arm segment's keys, by channel name (the head's column as the page
/// claims it is the head), in order.
fn arm_and_head_keys(score: &Score) -> BTreeMap<String, Vec<Key>> {
    let mut out: BTreeMap<String, Vec<Key>> = BTreeMap::new();
    let Some(staff) = score.staves.first() else { return out };
    let start = staff.start_position.iter().map(|(kind, e)| (*kind, e, "start "));
    let timed = staff.channels.iter().flat_map(|c| c.entries.iter().map(move |e| (c.kind, e, "")));
    for (kind, e, tag) in start.chain(timed) {
        let channel = match kind {
            ChannelKind::Head | ChannelKind::Part(BodyPart::Head) => "head".to_string(),
            ChannelKind::Part(BodyPart::Elbow(_) | BodyPart::Wrist(_)) => kind.name(),
            _ => continue,
        };
        let EntryKind::Direction { direction, level } = e.kind else { continue };
        let what = format!("{tag}{direction:?} {level:?}");
        out.entry(channel).or_default().push((what, e.start_secs, e.start_secs + e.duration_secs));
    }
    out
}

/// The largest time difference between the same keys of `a` and `b`, seconds; panics (naming
/// `name`) when a channel's keys differ in number, direction or level.
fn largest_key_shift_secs(name: &str, a: &BTreeMap<String, Vec<Key>>, b: &BTreeMap<String, Vec<Key>>) -> f64 {
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "{name}: channels");
    let mut largest = 0.0f64;
    for (channel, keys) in a {
        let back = &b[channel];
        let what = |k: &[Key]| k.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        assert_eq!(what(keys), what(back), "{name}: {channel}: the keys");
        for (x, y) in keys.iter().zip(back) {
            largest = largest.max((x.1 - y.1).abs()).max((x.2 - y.2).abs());
        }
    }
    largest
}

#[test]
fn every_real_keyframe_score_converts_to_the_same_keys_within_an_eighth_of_a_beat() {
    let files = json_files();
    if files.is_empty() {
        return;
    }
    let (mut largest_secs, mut largest_beats, mut rotations, mut turns) = (0.0f64, 0.0f64, 0, 0);
    for (name, path) in &files {
        let Ok(loaded) = labanplay::read::load(path) else {
            println!("{name}: does not read (a known-bad file), not converted");
            continue;
        };
        let doc = &loaded.document;
        let c = converted(name, doc);
        let (score, back) = (Score::from_document(doc), Score::from_document(&c.back));
        let shift_secs = largest_key_shift_secs(name, &arm_and_head_keys(&score), &arm_and_head_keys(&back));
        let eighth_secs = 60.0 / c.laid.bpm as f64 / 8.0;
        assert!(shift_secs <= eighth_secs + 1e-6, "{name}: a key moved {shift_secs} s at q={}", c.laid.bpm);
        largest_secs = largest_secs.max(shift_secs);
        largest_beats = largest_beats.max(shift_secs / eighth_secs / 8.0);
        // Every keyframe not written is a warning at its place.
        let signs: BTreeSet<Span> = c.laid.document.symbols.iter().map(|s| s.span).collect();
        let warned: BTreeSet<Span> = c.laid.warnings.iter().map(|w| w.span).collect();
        let keys = doc.keyframes.gestures.iter().map(|g| g.span).chain(doc.keyframes.rotations.iter().map(|r| r.span));
        let left_out: Vec<Span> = keys.filter(|s| !signs.contains(s)).collect();
        assert_eq!(left_out.len(), doc.symbol_count() - c.laid.keys_written, "{name}");
        assert!(left_out.iter().all(|s| warned.contains(s)), "{name}: {left_out:?} left out, {:?}", c.laid.warnings);
        let turn_signs = |s: &Score| {
            s.staves[0]
                .channels
                .iter()
                .flat_map(|ch| &ch.entries)
                .filter(|e| matches!(e.kind, EntryKind::Turn { .. }))
                .count()
        };
        assert!(back.staves[0].gaps.is_empty(), "{name}: the turn signs leave flights: {:?}", back.staves[0].gaps);
        rotations += turn_signs(&score);
        turns += turn_signs(&back);
    }
    println!(
        "{} keyframe scores: keys moved by at most {largest_secs:.4} s ({largest_beats:.3} beats); {turns} of {rotations} rotations written as turn signs",
        files.len()
    );
}

/// The elbows and wrists of `motion` at `t_secs`, in the pelvis's frame (a turn sign pivots the
/// feet where a keyframe rotation turns the body; the stage position is not the arms' motion).
fn arms_at(motion: &Animation, t_secs: f64, pose: &mut Pose) -> [Vec3; 4] {
    motion.dancers[0].sample_into(&motion.skeleton, t_secs, pose);
    let (rot, pos) = world_rot_pos(&motion.skeleton, pose);
    let pelvis = JointId::Pelvis.index();
    [JointId::ElbowL, JointId::WristL, JointId::ElbowR, JointId::WristR]
        .map(|j| rot[pelvis].inverse() * (pos[j.index()] - pos[pelvis]))
}

fn farthest_m(a: &[Vec3; 4], b: &[Vec3; 4]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x.distance(*y)).fold(0.0, f32::max)
}

/// Over the time both last, sampled at [`FPS`]: the largest distance between the same elbow or
/// wrist of `original` and `converted` at the same time, and the largest distance between the
/// converted arms and the nearest pose the original arms take within `shift_secs` of that time
/// (tried in [`SHIFT_STEPS`] steps each way).
fn arm_differences_m(original: &Animation, converted: &Animation, shift_secs: f64) -> (f32, f32) {
    let frames = (original.duration_secs.min(converted.duration_secs) * FPS).floor() as usize + 1;
    let (mut pose_a, mut pose_b) = (Pose::rest(&original.skeleton), Pose::rest(&converted.skeleton));
    let (mut same_time, mut shifted) = (0.0f32, 0.0f32);
    for f in 0..frames {
        let t_secs = f as f64 / FPS;
        let now = arms_at(converted, t_secs, &mut pose_b);
        same_time = same_time.max(farthest_m(&arms_at(original, t_secs, &mut pose_a), &now));
        let nearest = (-SHIFT_STEPS..=SHIFT_STEPS)
            .map(|k| (t_secs + shift_secs * k as f64 / SHIFT_STEPS as f64).max(0.0))
            .map(|t| farthest_m(&arms_at(original, t, &mut pose_a), &now))
            .fold(f32::INFINITY, f32::min);
        shifted = shifted.max(nearest);
    }
    (same_time, shifted)
}

/// How many keys of `a` that last some time last none in `b` (the same keys, in order).
fn keys_collapsed(a: &BTreeMap<String, Vec<Key>>, b: &BTreeMap<String, Vec<Key>>) -> usize {
    let lasts = |k: &Key| k.2 - k.1 > 1e-6;
    a.iter().flat_map(|(channel, keys)| keys.iter().zip(&b[channel])).filter(|(x, y)| lasts(x) && !lasts(y)).count()
}

/// Keys move by up to an eighth of a beat, and not all the same way, so at the same time the
/// converted arms can be part of a move away from the original's: that difference is bounded
/// loosely ([`SAME_TIME_BOUND_M`], the Kinect captures change direction every 33 ms). The
/// converted arms pass through the original's poses, each within an eighth of a beat of when the
/// original does ([`SHIFTED_BOUND_M`]), unless keys closer together than a grid step were written
/// lasting no time (the Kinect captures again: a grid step is at least 37.5 ms): those scores are
/// reported, and bounded by the loose bound only.
#[test]
fn a_sample_of_converted_keyframe_scores_moves_the_arms_as_the_originals_do() {
    let files = json_files();
    if files.is_empty() {
        return;
    }
    let every = (files.len() / MOTION_SAMPLE).max(1);
    let proportions = Proportions::default();
    let options = MotionOptions::default();
    let (mut same_time, mut shifted): ((f32, &str), (f32, &str)) = ((0.0, ""), (0.0, ""));
    for (name, path) in files.iter().step_by(every).take(MOTION_SAMPLE) {
        let Ok(loaded) = labanplay::read::load(path) else { continue };
        let c = converted(name, &loaded.document);
        let (score, back) = (Score::from_document(&loaded.document), Score::from_document(&c.back));
        let collapsed = keys_collapsed(&arm_and_head_keys(&score), &arm_and_head_keys(&back));
        let (motion, motion_back) = (compile(&score, &options, &proportions), compile(&back, &options, &proportions));
        let eighth_secs = 60.0 / c.laid.bpm as f64 / 8.0;
        let (now_m, near_m) = arm_differences_m(&motion, &motion_back, eighth_secs);
        println!(
            "{name}: q={}, {collapsed} keys last no time; elbows and wrists within {now_m:.4} m, \
             {near_m:.4} m of a pose an eighth of a beat away",
            c.laid.bpm
        );
        if now_m > same_time.0 {
            same_time = (now_m, name);
        }
        if collapsed == 0 && near_m > shifted.0 {
            shifted = (near_m, name);
        }
    }
    println!(
        "largest elbow or wrist difference: {:.4} m ({}); {:.4} m allowing an eighth of a beat ({})",
        same_time.0, same_time.1, shifted.0, shifted.1
    );
    assert!(same_time.0 <= SAME_TIME_BOUND_M, "{}: an elbow or wrist moved {} m", same_time.1, same_time.0);
    assert!(
        shifted.0 <= SHIFTED_BOUND_M,
        "{}: an elbow or wrist is {} m from the original's poses",
        shifted.1,
        shifted.0
    );
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/json/convert-keys.json")
}

/// The fixture's keys fall on 120 bpm's grid (half-second beats, 24 units a beat from the double
/// bar at y 96): the right upper arm's forward-high key from 0 s to 1 s is beats 0 to 2, the
/// head's right-forward-low key from 0 s to 1.5 s is beats 0 to 3, and the right turn of 90° at
/// 1 s is a turn sign at beat 2 holding pin 3 (45·(3−1) degrees) centred on it.
#[test]
fn the_fixture_converts_to_the_lines_worked_out_by_hand() {
    let dir = std::env::temp_dir().join(format!("labanplay-convert-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("keys.lbn");
    let summary = convert(&fixture(), &out).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let has = |start: &str| text.lines().any(|l| l.starts_with(start));
    for line in [
        "# convert keys",
        "Keys   0  18   14   2  20   12 B q=120",
        "Limb   7 171   12   2  10   12 B",
        "Limb   3  73   12   2  10   12 B",
        "Keys   0 196   12   2  10   12 B C",
        "Dirn  11 171   70   4  10   23 L",
        "Dirn   1 171   96   8  10   48 H",
        "Dirn   8  73   96   8  10   48 M",
        "Dirn   2 196   96  12  10   72 L",
        "Rotn   2 122  144   1  22    0 M",
        "Pins   3 124  135   1  18   18 L",
    ] {
        assert!(has(line), "no line `{line}` in\n{text}");
    }
    // 6 gestures and 3 rotations; the 10° turn is less than a pin can say.
    assert!(summary.contains("wrote 8 of 9 keyframes (at q=120)"), "{summary}");
    assert!(summary.contains("convert-keys.json:26:"), "the 10° turn's place: {summary}");
    assert!(summary.contains("less than half of the eighth of a turn"), "{summary}");
    // The 60° turn is written as the nearest eighth, 45°: a warning at its line.
    assert!(summary.contains("convert-keys.json:21:"), "the 60° turn's place: {summary}");
    assert!(summary.contains("amount_deg: Some(60.0)") && summary.contains("amount_deg: Some(45.0)"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pelvis's facing of `motion` at `t_secs`: the angle of its forward axis on the floor,
/// degrees.
fn facing_deg(motion: &Animation, t_secs: f64, pose: &mut Pose) -> f32 {
    motion.dancers[0].sample_into(&motion.skeleton, t_secs, pose);
    let (rot, _) = world_rot_pos(&motion.skeleton, pose);
    let forward = rot[JointId::Pelvis.index()] * Vec3::Z;
    forward.x.atan2(forward.z).to_degrees()
}

/// Every real keyframe score whose rotations are all whole eighths of a turn (a pin says those)
/// faces, converted, the way the original faces within [`FACING_BOUND_DEG`] at every frame, allowing
/// an eighth of a beat (a turn sign pivots on the feet where the keyframe turns the body, but both
/// end where the rotation says).
#[test]
fn rotations_of_whole_eighths_turn_the_converted_dancer_the_same_way() {
    let (proportions, options) = (Proportions::default(), MotionOptions::default());
    let (mut checked, mut largest_deg) = (0, 0.0f32);
    for (name, path) in &json_files() {
        let Ok(loaded) = labanplay::read::load(path) else { continue };
        let rotations = &loaded.document.keyframes.rotations;
        if rotations.is_empty() || rotations.iter().any(|r| r.degrees_cw % 45.0 != 0.0) {
            continue;
        }
        let c = converted(name, &loaded.document);
        let (score, back) = (Score::from_document(&loaded.document), Score::from_document(&c.back));
        let (a, b) = (compile(&score, &options, &proportions), compile(&back, &options, &proportions));
        let eighth_secs = 60.0 / c.laid.bpm as f64 / 8.0;
        let (mut pose_a, mut pose_b) = (Pose::rest(&a.skeleton), Pose::rest(&b.skeleton));
        let frames = (a.duration_secs.min(b.duration_secs) * FPS).floor() as usize + 1;
        for f in 0..frames {
            let t_secs = f as f64 / FPS;
            let now = facing_deg(&b, t_secs, &mut pose_b);
            let nearest = (-SHIFT_STEPS..=SHIFT_STEPS)
                .map(|k| (t_secs + eighth_secs * k as f64 / SHIFT_STEPS as f64).max(0.0))
                .map(|t| ((facing_deg(&a, t, &mut pose_a) - now + 540.0).rem_euclid(360.0) - 180.0).abs())
                .fold(f32::INFINITY, f32::min);
            assert!(
                nearest <= FACING_BOUND_DEG,
                "{name}: at {t_secs} s the converted dancer faces {now}°, {nearest}° off"
            );
            largest_deg = largest_deg.max(nearest);
        }
        checked += 1;
    }
    println!("{checked} scores turning in whole eighths face the same way within {largest_deg:.3}°");
}
