//! Each sign of the palette beyond directions, turns and holds: inserted, written as `.lbn`,
//! read back, the composed score has its meaning and the motion (or its report) changes.
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use super::signs::PreSign;
use super::*;
use crate::animation::{Animation, compile};
use crate::motion::plan::{Contact, Foot};
use crate::motion::rules::MotionOptions;
use crate::pose::fk::local_to_world;
use crate::pose::skeleton::{JOINT_COUNT, JointId};
use crate::read::{BodyPart, Direction, Level, PathSign, VolumeSign};
use crate::score::{ChannelKind, Entry, EntryKind, Modifier, Score};
use crate::side::Side;
use glam::{Mat4, Vec3};

fn walk() -> Editor {
    Editor::new(crate::read::read(crate::demo::WALK_ARMS_TURN_LBN, Some("lbn")).unwrap()).unwrap().0
}

/// The editor's document written as `.lbn` and read back, composed; nothing left out.
fn through_lbn(editor: &Editor) -> Score {
    let written = crate::write::write_lbn(editor.document());
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    Score::from_document(&crate::read::read(written.text.as_bytes(), Some("lbn")).unwrap())
}

fn insert(editor: &mut Editor, column: i32, start_beats: f64, duration_beats: f64, sign: Sign) {
    editor.apply(&Edit::Insert { staff: 0, column, start_beats, duration_beats, sign }).unwrap();
}

fn entry_at(score: &Score, kind: ChannelKind, start_beats: f64) -> Entry {
    let channel = score.staves[0].channel(kind).unwrap_or_else(|| panic!("no {kind:?} channel"));
    channel.entries.iter().find(|e| (e.start_beats - start_beats).abs() < 1e-9).cloned().unwrap()
}

fn animate(score: &Score) -> Animation {
    compile(score, &MotionOptions::default(), &crate::pose::Proportions::default())
}

/// Joint `joint` in the world at `t_secs` (the demo is at 60 bpm: seconds are beats).
fn joint(animation: &Animation, joint: JointId, t_secs: f64) -> Vec3 {
    let mut poses = Vec::new();
    animation.sample(t_secs, &mut poses);
    let mut world = [Mat4::IDENTITY; JOINT_COUNT];
    local_to_world(&animation.skeleton, &poses[0], &mut world).unwrap();
    world[joint.index()].w_axis.truncate()
}

fn wrist_from_shoulder(animation: &Animation, t_secs: f64) -> Vec3 {
    joint(animation, JointId::WristR, t_secs) - joint(animation, JointId::ShoulderR, t_secs)
}

/// A right arm gesture forward middle over beats 10–12 (free in the demo).
fn with_arm_forward(editor: &mut Editor) {
    let sign = Sign::Direction { direction: Direction::Forward, level: Level::Middle };
    insert(editor, 3, 10.0, 2.0, sign);
}

#[test]
fn a_bent_sign_bends_the_arm_and_a_stretched_one_lengthens_the_step() {
    let mut editor = walk();
    with_arm_forward(&mut editor);
    let straight = wrist_from_shoulder(&animate(&through_lbn(&editor)), 11.9).length();
    insert(&mut editor, 3, 10.0, 0.25, Sign::Volume(VolumeSign::Bent));
    assert_eq!(editor.describe(editor.selection()[0]).unwrap(), "right arm, bent");
    let score = through_lbn(&editor);
    let arm = entry_at(&score, ChannelKind::Arm(Side::Right), 10.0);
    assert!(arm.modifiers.contains(&Modifier::Volume(VolumeSign::Bent)), "{:?}", arm.modifiers);
    let bent = wrist_from_shoulder(&animate(&score), 11.9).length();
    assert!(bent < straight - 0.1, "the bent arm reaches less far: {bent} against {straight}");

    // `Dirn 10 122 121`: the left step forward at beat 1.
    let stride = |score: &Score| {
        let a = animate(score);
        (joint(&a, JointId::Pelvis, 1.95) - joint(&a, JointId::Pelvis, 1.0)).length()
    };
    let before = stride(&through_lbn(&editor));
    insert(&mut editor, -1, 1.0, 0.25, Sign::Volume(VolumeSign::Stretched));
    let score = through_lbn(&editor);
    let step = entry_at(&score, ChannelKind::Support(Side::Left), 1.0);
    assert!(step.modifiers.contains(&Modifier::Volume(VolumeSign::Stretched)), "{:?}", step.modifiers);
    let after = stride(&score);
    assert!(after > before + 0.03, "a stretched step is longer: {after} against {before}");
}

#[test]
fn pre_signs_name_the_lower_arm_the_chest_and_the_knee() {
    let mut editor = walk();
    let sign = Sign::Direction { direction: Direction::Right, level: Level::Middle };
    insert(&mut editor, 3, 10.0, 2.0, sign);
    let whole = wrist_from_shoulder(&animate(&through_lbn(&editor)), 11.9);
    insert(&mut editor, 3, 10.0, 0.25, Sign::PreSign(PreSign::LowerArm));
    assert_eq!(editor.describe(editor.selection()[0]).unwrap(), "right arm, right lower arm pre-sign");
    let score = through_lbn(&editor);
    entry_at(&score, ChannelKind::Part(BodyPart::Wrist(Side::Right)), 10.0);
    let lower = wrist_from_shoulder(&animate(&score), 11.9);
    assert!((lower - whole).length() > 0.1, "only the lower arm goes side: {lower} against {whole}");

    let mut editor = walk();
    with_arm_forward(&mut editor);
    let head = |score: &Score| joint(&animate(score), JointId::Head, 11.9);
    let arm_only = head(&through_lbn(&editor));
    insert(&mut editor, 3, 10.0, 0.25, Sign::PreSign(PreSign::Chest));
    let score = through_lbn(&editor);
    entry_at(&score, ChannelKind::Part(BodyPart::Chest), 10.0);
    let chest = head(&score);
    assert!((chest - arm_only).length() > 0.05, "the chest tilts forward: head {chest} against {arm_only}");

    // `Dirn 11 134 289 8 10 47 L`: the right foot's low support over beats 8–10.
    let mut editor = walk();
    let knee_y = |score: &Score| joint(&animate(score), JointId::KneeR, 9.9).y;
    let standing = knee_y(&through_lbn(&editor));
    insert(&mut editor, 1, 8.0, 0.25, Sign::PreSign(PreSign::Knee));
    let score = through_lbn(&editor);
    entry_at(&score, ChannelKind::Part(BodyPart::Knee(Side::Right)), 8.0);
    let kneeling = knee_y(&score);
    assert!(kneeling < 0.15 && kneeling < standing - 0.1, "the right knee down: {kneeling} against {standing}");
}

#[test]
fn a_whole_foot_hook_lands_the_step_flat() {
    // `Dirn 10 122 121`: the left step forward at beat 1 (at 60 bpm, 1 s).
    let landing = |a: &Animation| {
        let prints = &a.dancers[0].plan.footprints;
        let left = prints.iter().find(|f| f.foot == Foot::Left && (f.t_step_start_secs - 1.0).abs() < 0.05);
        left.map(|f| f.contact).unwrap()
    };
    let ball_height =
        |a: &Animation| (0..10).map(|i| joint(a, JointId::BallL, 1.0 + 0.1 * f64::from(i)).y).collect::<Vec<_>>();
    let mut editor = walk();
    let plain = animate(&through_lbn(&editor));
    assert_eq!(landing(&plain), Contact::Heel);
    insert(&mut editor, -1, 1.0, 0.25, Sign::Hook);
    assert_eq!(editor.describe(editor.selection()[0]).unwrap(), "left support, whole-foot hook");
    let score = through_lbn(&editor);
    let step = entry_at(&score, ChannelKind::Support(Side::Left), 1.0);
    assert!(step.modifiers.contains(&Modifier::Hook { item: 9 }), "{:?}", step.modifiers);
    let hooked = animate(&score);
    assert_eq!(landing(&hooked), Contact::Flat);
    assert_eq!(hooked.interpretation.skipped.len(), plain.interpretation.skipped.len(), "no warning for the hook");
    let moved = ball_height(&hooked).iter().zip(ball_height(&plain)).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    assert!(moved > 0.005, "the ball of the foot moves otherwise on landing: {moved} m at most");
}

#[test]
fn front_signs_are_checked_against_the_turns_and_a_path_sign_makes_a_path() {
    // The half turn right over beat 4: from beat 5 the dancer faces upstage (180°).
    let mut editor = walk();
    insert(&mut editor, -4, 5.0, 1.0, Sign::Front { eighths: 4 });
    assert_eq!(editor.describe(editor.selection()[0]).unwrap(), "front sign: facing 180° clockwise from the audience");
    let score = through_lbn(&editor);
    assert!(
        matches!(entry_at(&score, ChannelKind::Front, 5.0).kind, EntryKind::Front { facing_deg } if facing_deg == 180.0)
    );
    let front_warnings = |score: &Score| {
        let a = animate(score);
        a.interpretation.skipped.iter().filter(|d| d.message.contains("front")).count()
    };
    let agreeing = front_warnings(&score);
    let index = editor.selection()[0];
    editor.apply(&Edit::Change { index, sign: Sign::Front { eighths: 2 } }).unwrap();
    let score = through_lbn(&editor);
    assert_eq!(front_warnings(&score), agreeing + 1, "a front sign the turns disagree with is reported");

    let mut editor = walk();
    insert(&mut editor, 6, 1.0, 2.0, Sign::Path { direction: Direction::Forward });
    let selected = editor.selection().to_vec();
    assert_eq!(selected.len(), 3, "the direction and its ⊥ ⊤ bracket");
    let score = through_lbn(&editor);
    let path = &score.staves[0].channel(ChannelKind::Path).unwrap().entries[0];
    assert!(matches!(path.kind, EntryKind::Path { sign: PathSign::Straight, .. }), "{:?}", path.kind);
    assert!(path.start_beats < 1.0 && path.start_beats + path.duration_beats > 3.0, "{path:?}");
    let a = animate(&score);
    assert!(!a.interpretation.skipped.iter().any(|d| d.message.contains("path")), "{:?}", a.interpretation.skipped);
    // Stretching the path's direction takes its ⊤ along: one path, a beat longer.
    editor.apply(&Edit::Stretch { indices: selected, d_beats: 1.0 }).unwrap();
    let score = through_lbn(&editor);
    let longer = &score.staves[0].channel(ChannelKind::Path).unwrap().entries;
    assert_eq!(longer.len(), 1, "{longer:?}");
    assert!((longer[0].duration_beats - path.duration_beats - 1.0).abs() < 0.05, "{:?} after {path:?}", longer[0]);
}

#[test]
fn a_bow_joins_the_hands_of_two_dancers() {
    let mut editor = Editor::new(crate::read::read(crate::demo::DUET_LBN, Some("lbn")).unwrap()).unwrap().0;
    // Right hand of dancer 1 and left hand of dancer 2, `t_secs` into the score.
    let apart = |score: &Score, t_secs: f64| {
        let a = animate(score);
        let mut poses = Vec::new();
        a.sample(t_secs, &mut poses);
        let hand = |dancer: usize, j: JointId| {
            let mut world = [Mat4::IDENTITY; JOINT_COUNT];
            local_to_world(&a.skeleton, &poses[dancer], &mut world).unwrap();
            world[j.index()].w_axis.truncate()
        };
        (hand(0, JointId::HandR) - hand(1, JointId::HandL)).length()
    };
    let score = through_lbn(&editor);
    assert!(score.contacts.is_empty());
    let t_secs = 2.0 * 60.0 / score.tempo.bpm;
    let before = apart(&score, t_secs);
    // From beat 0: the dancers stand at holding distance from the start.
    editor.apply(&Edit::JoinHands { staff: 0, start_beats: 0.0 }).unwrap();
    assert_eq!(editor.apply(&Edit::JoinHands { staff: 1, start_beats: 0.0 }), Err(EditError::NoStaff(2)));
    let score = through_lbn(&editor);
    assert_eq!(score.contacts.len(), 1, "{:?}", score.warnings);
    let contact = &score.contacts[0];
    let ends: Vec<(usize, BodyPart)> = contact.ends.iter().map(|e| (e.staff, e.part)).collect();
    assert_eq!(ends, [(0, BodyPart::Hand(Side::Right)), (1, BodyPart::Hand(Side::Left))]);
    assert!(contact.start_beats.abs() < 0.1 && !contact.released, "{contact:?}");
    let joined = apart(&score, t_secs);
    assert!(joined < 0.15 && joined < before - 0.1, "the hands meet: {joined} m apart, {before} m before");
}
