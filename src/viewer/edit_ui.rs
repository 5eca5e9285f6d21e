//! The editor in the player: keys that write and change signs on the staff (the table below,
//! shown in Help ▸ Editing keys), selecting a symbol by clicking it, and the editor's status
//! line. Edits go through [`EditSession`], which recompiles the dancer before the next frame.

use crate::edit::signs::PreSign;
use crate::read::{Direction, Level, VolumeSign};
use crate::stage::edit_session::{ARROW_STEP_BEATS, EditCommand, EditSession};
use crate::stage::player::Player;
use crate::stage::staff_layout::EntryRef;
use crate::viewer::ui::UiAction;
use egui::{Key, Modifiers};

/// The editing keys, as shown in the help: (keys, what they do).
pub const KEY_TABLE: [(&str, &str); 25] = [
    ("E", "edit mode on/off"),
    ("1–9 (as a numeric keypad)", "direction: 8 forward, 2 backward, 4 left, 6 right, 7 9 1 3 diagonals, 5 place"),
    ("L / M / H", "level low, middle, high (for the next sign and the selected one)"),
    ("S / G / A", "caret column: support, leg gesture, arm (on the caret's side)"),
    ("← / →", "move the selection (or the caret) one column"),
    ("↑ / ↓", "move the selection (or the cursor) a quarter beat later / earlier"),
    ("+ / −", "lengthen / shorten the selection by a quarter beat"),
    ("R / Shift+R", "quarter turn right / left at the caret"),
    ("O", "hold sign at the caret"),
    ("U / W / Shift+H", "upper arm / lower arm / hand pre-sign under the selected sign (or at the caret)"),
    ("I / K / Shift+F / C", "hip / knee / foot / chest pre-sign under the selected sign (or at the caret)"),
    ("B / Shift+B / N", "bent / stretched / straight sign under the selected sign (or at the caret)"),
    ("J", "whole-foot hook under the selected step or leg gesture (or at the caret)"),
    ("F, then 1–9", "front sign at the caret facing the audience; a digit turns the selected one (6: right)"),
    ("P, then 1–9", "straight path at the caret (⊥ direction ⊤); a digit gives its direction"),
    ("Shift+J", "contact bow: the caret's dancer's right hand holds the next dancer's left from the cursor"),
    ("Shift+O", "release sign: the caret's dancer and the next let go of their held hands at the cursor"),
    ("Delete / Backspace", "delete the selection"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo (Ctrl+Shift+Z redoes too)"),
    ("Ctrl+C / Ctrl+V", "copy the selection / paste it at the caret's staff and the cursor"),
    ("Ctrl+M / Ctrl+Shift+M", "insert a measure before / delete the measure at the cursor"),
    ("Esc", "clear the selection"),
    ("click a symbol", "select it (its meaning shows below the menu)"),
    ("Space / Home / End", "play / pause, start, end, as outside edit mode"),
    ("Ctrl+S / Ctrl+Shift+S", "save the score as .lbn / save it under another name (File menu)"),
];

/// The direction a digit gives, laid out as a numeric keypad seen from above the dancer.
pub fn keypad_direction(key: Key) -> Option<Direction> {
    Some(match key {
        Key::Num8 => Direction::Forward,
        Key::Num2 => Direction::Backward,
        Key::Num4 => Direction::Left,
        Key::Num6 => Direction::Right,
        Key::Num7 => Direction::LeftForward,
        Key::Num9 => Direction::RightForward,
        Key::Num1 => Direction::LeftBackward,
        Key::Num3 => Direction::RightBackward,
        Key::Num5 => Direction::Place,
        _ => return None,
    })
}

/// The command of one key press in edit mode.
pub fn command_of(key: Key, modifiers: Modifiers) -> Option<EditCommand> {
    if let Some(direction) = keypad_direction(key) {
        return Some(EditCommand::Direction(direction));
    }
    let command = modifiers.command || modifiers.ctrl;
    Some(match (key, command, modifiers.shift) {
        (Key::Z, true, false) => EditCommand::Undo,
        (Key::Z, true, true) | (Key::Y, true, _) => EditCommand::Redo,
        (Key::C, true, _) => EditCommand::Copy,
        (Key::V, true, _) => EditCommand::Paste,
        (Key::M, true, false) => EditCommand::InsertMeasure,
        (Key::M, true, true) => EditCommand::DeleteMeasure,
        (_, true, _) => return None,
        (Key::L, _, _) => EditCommand::Level(Level::Low),
        (Key::M, _, _) => EditCommand::Level(Level::Middle),
        (Key::H, _, true) => EditCommand::PreSign(PreSign::Hand),
        (Key::H, _, _) => EditCommand::Level(Level::High),
        (Key::U, _, _) => EditCommand::PreSign(PreSign::UpperArm),
        (Key::W, _, _) => EditCommand::PreSign(PreSign::LowerArm),
        (Key::I, _, _) => EditCommand::PreSign(PreSign::Hip),
        (Key::K, _, _) => EditCommand::PreSign(PreSign::Knee),
        (Key::F, _, true) => EditCommand::PreSign(PreSign::Foot),
        (Key::F, _, false) => EditCommand::Front,
        (Key::C, _, _) => EditCommand::PreSign(PreSign::Chest),
        (Key::B, _, false) => EditCommand::Volume(VolumeSign::Bent),
        (Key::B, _, true) => EditCommand::Volume(VolumeSign::Stretched),
        (Key::N, _, _) => EditCommand::Volume(VolumeSign::Straight),
        (Key::J, _, true) => EditCommand::JoinHands,
        (Key::J, _, false) => EditCommand::Hook,
        (Key::P, _, _) => EditCommand::Path,
        (Key::S, _, _) => EditCommand::Column(1),
        (Key::G, _, _) => EditCommand::Column(2),
        (Key::A, _, _) => EditCommand::Column(3),
        (Key::ArrowLeft, _, _) => EditCommand::StepColumn(-1),
        (Key::ArrowRight, _, _) => EditCommand::StepColumn(1),
        (Key::ArrowUp, _, _) => EditCommand::StepTime(ARROW_STEP_BEATS),
        (Key::ArrowDown, _, _) => EditCommand::StepTime(-ARROW_STEP_BEATS),
        (Key::Plus | Key::Equals, _, _) => EditCommand::Stretch(ARROW_STEP_BEATS),
        (Key::Minus, _, _) => EditCommand::Stretch(-ARROW_STEP_BEATS),
        (Key::R, _, shift) => EditCommand::Turn(!shift),
        (Key::O, _, true) => EditCommand::ReleaseHands,
        (Key::O, _, false) => EditCommand::Hold,
        (Key::Delete | Key::Backspace, _, _) => EditCommand::Delete,
        (Key::Escape, _, _) => EditCommand::Deselect,
        _ => return None,
    })
}

/// Runs the edit keys pressed this frame; returns true when the score changed.
pub fn keyboard(ui: &egui::Ui, session: &mut EditSession, player: &mut Player) -> bool {
    let presses: Vec<(Key, Modifiers)> = ui.input(|input| {
        input
            .events
            .iter()
            .filter_map(|event| match event {
                egui::Event::Key { key, pressed: true, modifiers, .. } => Some((*key, *modifiers)),
                _ => None,
            })
            .collect()
    });
    let mut changed = false;
    for (key, modifiers) in presses {
        if let Some(command) = command_of(key, modifiers) {
            changed |= session.command(command, player);
        }
    }
    changed
}

/// A click on the staff in edit mode: selects the symbol of `entry` (none: clears).
pub fn click(session: &mut EditSession, player: &Player, entry: Option<EntryRef>) {
    let span = entry.and_then(|e| {
        let staff = player.score()?.staves.get(e.staff)?;
        if e.in_start_position {
            staff.start_position.get(e.index).map(|(_, entry)| entry.span)
        } else {
            staff.channels.get(e.channel)?.entries.get(e.index).map(|entry| entry.span)
        }
    });
    session.select_entry(span.as_ref());
}

/// The editor's line under the menu: the caret, the level and the selection in words.
pub fn status_line(ui: &mut egui::Ui, session: &EditSession) {
    ui.horizontal(|ui| {
        ui.colored_label(egui::Color32::from_rgb(0, 125, 235), "EDIT");
        let caret = session.caret;
        ui.label(format!(
            "caret: staff {}, {} · level {}",
            caret.staff + 1,
            crate::edit::describe::column_words(caret.column, session.editor().convention()),
            crate::edit::describe::level_words(session.level)
        ));
        if let Some(status) = &session.status {
            ui.separator();
            ui.label(status);
        }
    });
}

/// The editor's part of the File menu: New score, Save, Save as….
pub fn file_menu(ui: &mut egui::Ui, actions: &mut Vec<UiAction>) {
    ui.separator();
    let items = [
        ("New score", "An empty score (one staff, the starting position), in edit mode", UiAction::NewScore),
        ("Save (Ctrl+S)", "Write the score as .lbn (a score of another format asks for a name)", UiAction::Save),
        ("Save as… (Ctrl+Shift+S)", "Write the score as .lbn under a name you choose", UiAction::SaveAs),
    ];
    for (label, hint, action) in items {
        if ui.button(label).on_hover_text(hint).clicked() {
            actions.push(action);
            ui.close();
        }
    }
}

/// Ctrl+S saves, Ctrl+Shift+S saves as, in edit mode or not.
pub fn save_keys(ui: &egui::Ui, actions: &mut Vec<UiAction>) {
    let shift = ui.input(|input| {
        input.events.iter().find_map(|event| match event {
            egui::Event::Key { key: Key::S, pressed: true, modifiers, .. } if modifiers.command => {
                Some(modifiers.shift)
            }
            _ => None,
        })
    });
    if let Some(shift) = shift {
        actions.push(if shift { UiAction::SaveAs } else { UiAction::Save });
    }
}

/// Help ▸ Editing keys: the key table.
pub fn key_table(ui: &mut egui::Ui) {
    egui::Grid::new("edit-keys").striped(true).show(ui, |ui| {
        for (keys, what) in KEY_TABLE {
            ui.monospace(keys);
            ui.label(what);
            ui.end_row();
        }
    });
}

/// The editor's part of the UI state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditPanel {
    /// The editing session (kept while edit mode is off, so its edits and history stay).
    pub session: Option<EditSession>,
    /// Edit mode: the keys write on the staff.
    pub active: bool,
    /// Edit mode was asked for from the menu (started at the next frame).
    pub toggle_requested: bool,
    /// The key table window is open.
    pub show_keys: bool,
    /// Quitting was asked for with unsaved edits: the question is shown.
    pub confirm_quit: bool,
    /// The user chose to quit without saving.
    pub quit_confirmed: bool,
    /// The window title marks unsaved edits now.
    pub title_marked: bool,
}

impl EditPanel {
    /// Ends editing and forgets the session (another score is shown now).
    pub fn close(&mut self) {
        self.session = None;
        self.active = false;
    }

    /// Why the score shown must not be replaced now (unsaved edits), in words.
    pub fn unsaved_refusal(&self) -> Option<String> {
        self.is_dirty()
            .then(|| "the score has unsaved edits: save them (Ctrl+S) or undo them (Ctrl+Z) first".to_owned())
    }

    /// True when there are edits not saved.
    pub fn is_dirty(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.editor().is_dirty())
    }

    /// A quit was asked for: true when it must wait for the user's answer (unsaved edits).
    pub fn ask_before_quit(&mut self) -> bool {
        let ask = self.is_dirty() && !self.quit_confirmed;
        self.confirm_quit |= ask;
        ask
    }

    /// The window title for `source_label` when the unsaved mark must change (`*` before the
    /// name while there are unsaved edits).
    pub fn title_change(&mut self, source_label: &str) -> Option<String> {
        let dirty = self.is_dirty();
        (dirty != self.title_marked).then(|| {
            self.title_marked = dirty;
            format!("labanplay — {}{source_label}", if dirty { "* " } else { "" })
        })
    }
}

/// The question asked when quitting with unsaved edits.
fn quit_question(ctx: &egui::Context, panel: &mut EditPanel) {
    egui::Window::new("Unsaved edits").collapsible(false).resizable(false).show(ctx, |ui| {
        ui.label("The score has edits that are not saved. Quit anyway?");
        ui.horizontal(|ui| {
            if ui.button("Quit without saving").clicked() {
                panel.quit_confirmed = true;
                panel.confirm_quit = false;
            }
            if ui.button("Cancel").clicked() {
                panel.confirm_quit = false;
            }
        });
    });
}

/// The Edit menu: edit mode and the key table.
pub fn edit_menu(ui: &mut egui::Ui, panel: &mut EditPanel) {
    ui.menu_button("Edit", |ui| {
        let label = if panel.active { "Stop editing (E)" } else { "Edit the score (E)" };
        if ui.button(label).clicked() {
            panel.toggle_requested = true;
            ui.close();
        }
        if ui.button("Editing keys…").clicked() {
            panel.show_keys = true;
            ui.close();
        }
    });
}

/// Edit mode's part of a frame, before the rest of the UI: E (or the menu) switches it, its keys
/// edit the score. Returns true when edit mode has the keyboard this frame.
pub fn frame(ui: &mut egui::Ui, panel: &mut EditPanel, player: &mut Player, status: &mut Option<String>) -> bool {
    let typing = ui.ctx().egui_wants_keyboard_input();
    let e_pressed = !typing && ui.input(|i| i.key_pressed(Key::E) && !i.modifiers.command && !i.modifiers.ctrl);
    if e_pressed || std::mem::take(&mut panel.toggle_requested) {
        panel.active = !panel.active;
        if panel.active {
            // Editing writes at the cursor line: it stands still.
            player.playback.pause();
        }
        if panel.active && panel.session.is_none() {
            match EditSession::start(player) {
                Ok(session) => panel.session = Some(session),
                Err(message) => {
                    *status = Some(message);
                    panel.active = false;
                }
            }
        }
    }
    if panel.confirm_quit {
        quit_question(ui.ctx(), panel);
    }
    if panel.show_keys {
        egui::Window::new("Editing keys").open(&mut panel.show_keys).show(ui.ctx(), key_table);
    }
    let Some(session) = panel.session.as_mut().filter(|_| panel.active && !typing) else {
        return false;
    };
    keyboard(ui, session, player);
    ui.input(|i| {
        if i.key_pressed(Key::Space) {
            player.playback.toggle_play();
        }
        if i.key_pressed(Key::Home) {
            player.playback.go_to_start();
        }
        if i.key_pressed(Key::End) {
            player.playback.go_to_end();
        }
    });
    egui::Panel::top("edit-status").show(ui, |ui| status_line(ui, session));
    true
}

/// The staff panel's response in edit mode: a click selects the symbol under the pointer.
pub fn staff_response(panel: &mut EditPanel, player: &Player, response: &crate::viewer::staff_ui::StaffResponse) {
    if let Some(session) = panel.session.as_mut().filter(|_| panel.active)
        && response.seek_to_beats.is_some()
    {
        click(session, player, response.hovered);
    }
}
