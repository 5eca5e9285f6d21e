//! The editor in the player, driven headless through egui with key events: E starts edit mode,
//! H and 6 write a right arm gesture "side high" at the cursor, the dancer's arm moves before
//! the next frame, Ctrl+Z takes it back; Ctrl+S and Ctrl+Shift+S ask to save, in edit mode or not.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use egui::{Event, Key, Modifiers};
use labanplay::pose::fk::local_to_world;
use labanplay::pose::skeleton::{JOINT_COUNT, JointId};
use labanplay::stage::dancer_mesh::mannequin;
use labanplay::stage::player::{Player, ScoreSource};
use labanplay::viewer::gpu_frame::offscreen_raw_input;
use labanplay::viewer::ui::{UiAction, UiOutput, UiState, draw};

fn key(key: Key, modifiers: Modifiers) -> Event {
    Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers }
}

fn pass(ctx: &egui::Context, state: &mut UiState, player: &mut Player, events: Vec<Event>) -> UiOutput {
    let mut raw = offscreen_raw_input([1280, 800], 1.0);
    raw.events = events;
    let mut out = UiOutput::default();
    let mut full_output = ctx.run_ui(raw, |ui| {
        out = draw(ui, state, player, None);
    });
    full_output.textures_delta.clear();
    out
}

/// The right wrist relative to the right shoulder in the player's current pose.
fn right_arm(player: &mut Player) -> glam::Vec3 {
    player.sample();
    let mut world = [glam::Mat4::IDENTITY; JOINT_COUNT];
    local_to_world(&player.animation().skeleton, &player.poses()[0], &mut world).unwrap();
    let at = |j: JointId| world[j.index()].w_axis.truncate();
    at(JointId::WristR) - at(JointId::ShoulderR)
}

#[test]
fn keys_write_an_arm_sign_and_the_dancer_raises_the_arm_at_once_and_undo_lowers_it() {
    let model = mannequin(&labanplay::pose::Proportions::default()).unwrap();
    let mut player = Player::new(labanplay::demo::default_score(), ScoreSource::Demo("walk"), model, false);
    let mut state = UiState { model_names: vec!["mannequin".to_owned()], ..UiState::default() };
    let ctx = egui::Context::default();
    pass(&ctx, &mut state, &mut player, Vec::new());
    // Beat 9.5: the arms hang (the last measure holds them low).
    player.playback.seek(9.5);
    let hanging = right_arm(&mut player);
    pass(&ctx, &mut state, &mut player, vec![key(Key::E, Modifiers::NONE)]);
    assert!(state.edit.active && state.edit.session.is_some(), "E starts edit mode");
    pass(&ctx, &mut state, &mut player, vec![key(Key::H, Modifiers::NONE), key(Key::Num6, Modifiers::NONE)]);
    let session = state.edit.session.as_ref().unwrap();
    assert_eq!(session.status.as_deref(), Some("right arm, right side high, 1 beat"));
    assert!(state.edit.is_dirty());
    assert_eq!(player.playback.t_beats(), 10.5, "the cursor goes to the sign's end: the pose it reaches");
    let raised = right_arm(&mut player);
    assert!(raised.y > hanging.y + 0.4, "side high raises the wrist above the shoulder: {hanging} → {raised}");
    pass(&ctx, &mut state, &mut player, vec![key(Key::Z, Modifiers::COMMAND)]);
    assert!(!state.edit.is_dirty(), "undo: nothing left to save");
    player.playback.seek(9.5);
    let undone = right_arm(&mut player);
    assert!((undone - hanging).length() < 1e-4, "{undone} vs {hanging}");
    // Outside edit mode the arrows step the transport again.
    pass(&ctx, &mut state, &mut player, vec![key(Key::E, Modifiers::NONE)]);
    pass(&ctx, &mut state, &mut player, vec![key(Key::ArrowRight, Modifiers::NONE)]);
    assert_eq!(player.playback.t_beats(), 10.0, "→ steps to the next beat");
}

#[test]
fn unsaved_edits_mark_the_title_and_quitting_asks() {
    let model = mannequin(&labanplay::pose::Proportions::default()).unwrap();
    let mut player = Player::new(labanplay::demo::default_score(), ScoreSource::Demo("walk"), model, false);
    let mut state = UiState::default();
    let ctx = egui::Context::default();
    pass(&ctx, &mut state, &mut player, vec![key(Key::E, Modifiers::NONE)]);
    assert!(!state.edit.ask_before_quit(), "nothing edited: quit at once");
    assert_eq!(state.edit.title_change("x.lbn"), None);
    pass(&ctx, &mut state, &mut player, vec![key(Key::Num5, Modifiers::NONE)]);
    assert_eq!(state.edit.title_change("x.lbn").as_deref(), Some("labanplay — * x.lbn"));
    assert!(state.edit.ask_before_quit() && state.edit.confirm_quit, "unsaved: the question shows");
    pass(&ctx, &mut state, &mut player, vec![key(Key::Z, Modifiers::COMMAND)]);
    assert_eq!(state.edit.title_change("x.lbn").as_deref(), Some("labanplay — x.lbn"));
}

#[test]
fn ctrl_s_saves_and_ctrl_shift_s_saves_as_in_edit_mode_or_not_and_s_alone_does_not() {
    let model = mannequin(&labanplay::pose::Proportions::default()).unwrap();
    let mut player = Player::new(labanplay::demo::default_score(), ScoreSource::Demo("walk"), model, false);
    let mut state = UiState::default();
    let ctx = egui::Context::default();
    let save =
        |shift: bool| key(Key::S, if shift { Modifiers::COMMAND | Modifiers::SHIFT } else { Modifiers::COMMAND });
    let out = pass(&ctx, &mut state, &mut player, vec![save(false)]);
    assert_eq!(out.actions, [UiAction::Save]);
    pass(&ctx, &mut state, &mut player, vec![key(Key::E, Modifiers::NONE)]);
    let out = pass(&ctx, &mut state, &mut player, vec![save(true)]);
    assert_eq!(out.actions, [UiAction::SaveAs]);
    let column = state.edit.session.as_ref().unwrap().caret.column;
    let out = pass(&ctx, &mut state, &mut player, vec![key(Key::S, Modifiers::NONE)]);
    assert!(out.actions.is_empty(), "S alone is the support column: {:?}", out.actions);
    assert_eq!((column, state.edit.session.as_ref().unwrap().caret.column), (3, 1));
}

#[test]
fn b_bends_the_arm_just_written_u_names_its_upper_arm_and_f_then_6_turns_a_front_sign() {
    let model = mannequin(&labanplay::pose::Proportions::default()).unwrap();
    let mut player = Player::new(labanplay::demo::default_score(), ScoreSource::Demo("walk"), model, false);
    let mut state = UiState { model_names: vec!["mannequin".to_owned()], ..UiState::default() };
    let ctx = egui::Context::default();
    pass(&ctx, &mut state, &mut player, Vec::new());
    player.playback.seek(10.0);
    pass(&ctx, &mut state, &mut player, vec![key(Key::E, Modifiers::NONE)]);
    pass(&ctx, &mut state, &mut player, vec![key(Key::M, Modifiers::NONE), key(Key::Num8, Modifiers::NONE)]);
    player.playback.seek(10.9);
    let reach = right_arm(&mut player).length();
    pass(&ctx, &mut state, &mut player, vec![key(Key::B, Modifiers::NONE)]);
    let session = state.edit.session.as_ref().unwrap();
    assert_eq!(session.status.as_deref(), Some("right arm, bent"));
    player.playback.seek(10.9);
    let bent = right_arm(&mut player).length();
    assert!(bent < reach - 0.1, "B bends the arm just written: {reach} → {bent}");
    // U with the bent sign selected writes under the same arm sign.
    pass(&ctx, &mut state, &mut player, vec![key(Key::U, Modifiers::NONE)]);
    let session = state.edit.session.as_ref().unwrap();
    assert_eq!(session.status.as_deref(), Some("right arm, right upper arm pre-sign"));
    let doc = session.editor().document();
    let (pre, volume) = (
        doc.symbols.iter().find(|s| s.code == "Limb 7").unwrap(),
        doc.symbols.iter().find(|s| s.code == "Volm 3").unwrap(),
    );
    assert!(pre.y < volume.y_top() && pre.y_top() > volume.y_top(), "both under the arm sign's start");
    pass(&ctx, &mut state, &mut player, vec![key(Key::F, Modifiers::NONE), key(Key::Num6, Modifiers::NONE)]);
    let session = state.edit.session.as_ref().unwrap();
    assert_eq!(session.status.as_deref(), Some("front sign: facing 90° clockwise from the audience"));
}
