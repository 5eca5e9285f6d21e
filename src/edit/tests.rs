//! Each edit operation and its undo on the demo scores, and an edit reaching the motion.
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use super::*;
use crate::animation::compile;
use crate::motion::rules::MotionOptions;
use crate::pose::fk::local_to_world;
use crate::pose::skeleton::{JOINT_COUNT, JointId};
use crate::read::{Direction, Level};
use crate::score::{ChannelKind, EntryKind, Score};
use crate::side::Side;
use glam::{Mat4, Vec3};

fn editor(bytes: &[u8]) -> (Editor, Score) {
    Editor::new(crate::read::read(bytes, Some("lbn")).unwrap()).unwrap()
}

fn walk() -> (Editor, Score) {
    editor(crate::demo::WALK_ARMS_TURN_LBN)
}

/// The entries of `kind` on staff `staff` as (start, duration, direction, level).
fn entries(score: &Score, staff: usize, kind: ChannelKind) -> Vec<(f64, f64, Option<Direction>, Option<Level>)> {
    let channel = score.staves[staff].channel(kind);
    channel
        .map(|c| {
            c.entries
                .iter()
                .map(|e| match e.kind {
                    EntryKind::Direction { direction, level } => {
                        (e.start_beats, e.duration_beats, Some(direction), Some(level))
                    }
                    _ => (e.start_beats, e.duration_beats, None, None),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Applies `edit`, checks undo gives the document back and redo the edited one.
fn round_trip(editor: &mut Editor, edit: &Edit) -> Score {
    let before = editor.document().clone();
    let was_dirty = editor.is_dirty();
    let score = editor.apply(edit).unwrap();
    let after = editor.document().clone();
    assert_ne!(before, after, "{edit:?} changed nothing");
    assert!(editor.is_dirty());
    editor.undo().unwrap();
    assert_eq!(editor.document(), &before, "undo of {edit:?}");
    assert_eq!(editor.is_dirty(), was_dirty, "undo brings back the saved state");
    editor.redo().unwrap();
    assert_eq!(editor.document(), &after, "redo of {edit:?}");
    score
}

#[test]
fn inserting_an_arm_gesture_adds_its_entry_on_the_grid_and_undo_removes_it() {
    let (mut editor, score) = walk();
    let arm = ChannelKind::Arm(Side::Right);
    let old = entries(&score, 0, arm);
    let sign = Sign::Direction { direction: Direction::Right, level: Level::High };
    let edit = Edit::Insert { staff: 0, column: 3, start_beats: 9.1, duration_beats: 2.0, sign };
    let score = round_trip(&mut editor, &edit);
    let new = entries(&score, 0, arm);
    assert_eq!(new.len(), old.len() + 1);
    assert!(new.contains(&(9.0, 2.0, Some(Direction::Right), Some(Level::High))), "{new:?}");
    let index = editor.selection()[0];
    assert_eq!(editor.describe(index).unwrap(), "right arm, right side high, 2 beats");
    // The new symbol leads back from its entry.
    let entry = score.staves[0].channel(arm).unwrap().entries.iter().find(|e| e.start_beats == 9.0).unwrap();
    assert_eq!(editor.symbol_of_span(&entry.span), Some(index));
    // Over `Dirn 3 171 97` (right arm side middle at beat 0): replaced, not doubled.
    let sign = Sign::Direction { direction: Direction::Forward, level: Level::Low };
    let edit = Edit::Insert { staff: 0, column: 3, start_beats: 0.0, duration_beats: 1.0, sign };
    let replaced = entries(&round_trip(&mut editor, &edit), 0, arm);
    assert_eq!(replaced.len(), new.len());
    assert!(replaced.contains(&(0.0, 1.0, Some(Direction::Forward), Some(Level::Low))), "{replaced:?}");
    assert!(!replaced.iter().any(|e| e.0 == 0.0 && e.2 == Some(Direction::Right)), "{replaced:?}");
}

#[test]
fn moving_in_time_and_across_the_centre_line_and_stretching_keep_the_grid() {
    let (mut editor, _) = walk();
    // `Dirn 1 134 97`: right support forward, beat 0.
    let step = editor.document().symbols.iter().position(|s| s.code == "Dirn 1" && s.y == 97.0).unwrap();
    let edit = Edit::Move { indices: vec![step], d_beats: 0.5, d_columns: -1 };
    let score = round_trip(&mut editor, &edit);
    let moved = &editor.document().symbols[step];
    assert_eq!((moved.y, moved.code.as_str()), (109.0, "Dirn 10"), "left-side drawing of forward");
    let left = entries(&score, 0, ChannelKind::Support(Side::Left));
    assert!(left.iter().any(|e| e.0 == 0.5 && e.2 == Some(Direction::Forward)), "{left:?}");
    let score = round_trip(&mut editor, &Edit::Stretch { indices: vec![step], d_beats: 1.0 });
    let left = entries(&score, 0, ChannelKind::Support(Side::Left));
    assert!(left.iter().any(|e| e.0 == 0.5 && e.1 == 2.0), "a step twice as long: {left:?}");
    // Never shorter than the grid.
    editor.apply(&Edit::Stretch { indices: vec![step], d_beats: -9.0 }).unwrap();
    assert_eq!(editor.document().symbols[step].h, 5.0, "a quarter beat less LED's one-unit gap");
}

#[test]
fn changing_a_sign_deleting_it_and_bad_indices() {
    let (mut editor, _) = walk();
    let arm = editor.document().symbols.iter().position(|s| s.code == "Dirn 1" && s.x == 171.0).unwrap();
    let sign = Sign::Direction { direction: Direction::Backward, level: Level::Low };
    round_trip(&mut editor, &Edit::Change { index: arm, sign });
    assert_eq!(editor.describe(arm).unwrap(), "right arm, backward low, 2 beats");
    let count = editor.document().symbols.len();
    round_trip(&mut editor, &Edit::Delete(vec![arm]));
    assert_eq!(editor.document().symbols.len(), count - 1);
    let before = editor.document().clone();
    assert_eq!(editor.apply(&Edit::Delete(vec![count + 5])), Err(EditError::NoSymbol(count + 5)));
    let turn = Sign::Turn { clockwise: true };
    assert!(matches!(editor.apply(&Edit::Change { index: 0, sign: turn }), Err(EditError::Mismatch(_))));
    assert_eq!(editor.document(), &before, "a refused edit changes nothing");
}

#[test]
fn copy_paste_across_staves_and_measures_in_and_out() {
    let (mut editor, score) = editor(crate::demo::DUET_LBN);
    assert_eq!(score.staves.len(), 2);
    let arm_l = ChannelKind::Arm(Side::Left);
    let first = score.staves[0].channel(arm_l).unwrap().entries.iter().find(|e| e.start_beats >= 0.0).unwrap();
    let index = editor.symbol_of_span(&first.span).unwrap();
    editor.select(vec![index]);
    assert_eq!(editor.copy_selection(), 1);
    let before = entries(&score, 1, arm_l);
    let pasted = editor.paste(1, 6.0).unwrap();
    let after = entries(&pasted, 1, arm_l);
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.iter().any(|e| e.0 == 6.0 && e.1 == first.duration_beats), "{after:?}");
    editor.undo().unwrap();

    let measures = score.measures.len();
    let late = entries(&score, 0, ChannelKind::Support(Side::Right));
    let with = round_trip(&mut editor, &Edit::InsertMeasure { measure: 1 });
    assert_eq!(with.measures.len(), measures + 1);
    let shift = score.measures[1].beats;
    let moved = entries(&with, 0, ChannelKind::Support(Side::Right));
    let measure_1_start = score.measures[1].start_beats;
    for (old, new) in late.iter().zip(&moved) {
        let expected = if old.0 >= measure_1_start { old.0 + shift } else { old.0 };
        assert_eq!(new.0, expected, "{old:?} → {new:?}");
    }
    editor.undo().unwrap();
    let without = round_trip(&mut editor, &Edit::DeleteMeasure { measure: 1 });
    assert_eq!(without.measures.len(), measures - 1);
    assert!((without.duration_beats - (score.duration_beats - shift)).abs() < 1e-9);
}

#[test]
fn a_new_score_has_its_measures_and_starting_position_and_takes_edits() {
    let doc = blank_score(4, 3, 90);
    let (mut editor, score) = Editor::new(doc).unwrap();
    assert_eq!((score.staves.len(), score.measures.len(), score.meter.beats_per_measure), (1, 4, 3));
    assert_eq!(score.tempo.bpm, 90.0);
    assert!(score.warnings.is_empty(), "{:?}", score.warnings);
    assert_eq!(score.staves[0].start_position.len(), 4, "feet in place and arms down");
    let sign = Sign::Direction { direction: Direction::Forward, level: Level::Middle };
    let score =
        editor.apply(&Edit::Insert { staff: 0, column: 1, start_beats: 0.0, duration_beats: 1.0, sign }).unwrap();
    assert_eq!(entries(&score, 0, ChannelKind::Support(Side::Right)).len(), 1);
    let one = blank_score(1, 4, 120);
    let (mut single, _) = Editor::new(one).unwrap();
    assert_eq!(single.apply(&Edit::DeleteMeasure { measure: 0 }), Err(EditError::LastMeasure));
    let keyframes = crate::read::Document::new(crate::read::Format::Json);
    assert!(Editor::new(keyframes).is_err(), "keyframes have no page");
}

/// Right wrist relative to the right shoulder, and the pelvis's yaw, at `t_secs`.
fn right_arm(score: &Score, t_secs: f64) -> (Vec3, f32) {
    let proportions = crate::pose::Proportions::default();
    let animation = compile(score, &MotionOptions::default(), &proportions);
    let mut poses = Vec::new();
    animation.sample(t_secs, &mut poses);
    let mut world = [Mat4::IDENTITY; JOINT_COUNT];
    local_to_world(&animation.skeleton, &poses[0], &mut world).unwrap();
    let at = |j: JointId| world[j.index()].w_axis.truncate();
    (at(JointId::WristR) - at(JointId::ShoulderR), animation.dancers[0].yaw_at(t_secs))
}

#[test]
fn an_edited_arm_sign_recompiles_to_the_changed_arm() {
    let (mut editor, score) = walk();
    // `Dirn 1 171 217 8 10 47 H`: right arm forward high, beats 5 to 7 (at 60 bpm, seconds).
    let arm = editor.document().symbols.iter().position(|s| s.code == "Dirn 1" && s.x == 171.0).unwrap();
    let t_secs = 6.9;
    let (before, _) = right_arm(&score, t_secs);
    assert!(before.y > 0.35, "forward high: the wrist well above the shoulder, {before}");
    let sign = Sign::Direction { direction: Direction::Right, level: Level::Middle };
    let edited = editor.apply(&Edit::Change { index: arm, sign }).unwrap();
    let (after, yaw) = right_arm(&edited, t_secs);
    assert!(after.y.abs() < 0.12, "side middle: the wrist at shoulder height, {after}");
    // Horizontal and to the dancer's right: across the facing.
    let forward = crate::motion::plan::forward_of(yaw);
    let flat = Vec3::new(after.x, 0.0, after.z);
    assert!(flat.length() > 0.4 && flat.normalize().dot(forward).abs() < 0.3, "{after} facing {forward}");
    assert!((before - after).length() > 0.3);
    let undone = editor.undo().unwrap();
    assert!((right_arm(&undone, t_secs).0 - before).length() < 1e-6, "undo gives the same motion");
}
