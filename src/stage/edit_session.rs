//! The player's editor without a window: an [`Editor`] on the open score's page document, the
//! caret (staff and column; its time is the staff's cursor line) and the level of the next sign,
//! and the commands the keys give. After each edit the score is recomposed and the player
//! recompiles its motion before the next frame is drawn.

use crate::diag::Span;
use crate::edit::signs::PreSign;
use crate::edit::{Edit, EditError, Editor, GRID_BEATS, NotEditable, Sign, snap_beats, step_column};
use crate::read::{Direction, Document, Level, SymbolKind, VolumeSign};
use crate::stage::player::{Player, ScoreSource};

/// Where the next sign goes: a staff and a signed column (never 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caret {
    /// Staff index.
    pub staff: usize,
    /// Signed column.
    pub column: i32,
}

/// What a key asks the editor to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EditCommand {
    /// Write this direction (or give it to the selected direction sign).
    Direction(Direction),
    /// Use this level (and give it to the selected direction sign).
    Level(Level),
    /// Write a quarter turn, clockwise or not.
    Turn(bool),
    /// Write a hold sign.
    Hold,
    /// Write a body-part pre-sign under the selected sign (or at the caret and cursor).
    PreSign(PreSign),
    /// Write a flexion sign (bent, stretched, …) under the selected sign (or at the caret).
    Volume(VolumeSign),
    /// Write the whole-foot hook under the selected sign (or at the caret).
    Hook,
    /// Write a front sign facing the audience at the caret (digits then turn it).
    Front,
    /// Write a straight path forward at the caret (digits then give its direction).
    Path,
    /// Join the right hand of the caret's dancer to the left hand of the next one at the cursor
    /// (a contact bow).
    JoinHands,
    /// Let go of the contact bows between the caret's dancer and the next one at the cursor.
    ReleaseHands,
    /// Put the caret in column `magnitude` (1 support, 2 leg, 3 arm …) on its side.
    Column(u32),
    /// Move the selection (or the caret) this many columns right.
    StepColumn(i32),
    /// Move the selection this many beats later (or the cursor line).
    StepTime(f64),
    /// Lengthen the selection by this many beats.
    Stretch(f64),
    /// Delete the selection.
    Delete,
    /// Take back the last edit.
    Undo,
    /// Make the last undone edit again.
    Redo,
    /// Copy the selection.
    Copy,
    /// Paste at the caret's staff and the cursor line.
    Paste,
    /// Insert an empty measure before the one at the cursor line.
    InsertMeasure,
    /// Delete the measure at the cursor line.
    DeleteMeasure,
    /// Clear the selection.
    Deselect,
}

/// An open editing session on the player's score.
#[derive(Clone, Debug, PartialEq)]
pub struct EditSession {
    editor: Editor,
    /// Where the next sign goes.
    pub caret: Caret,
    /// The level of the next direction sign.
    pub level: Level,
    /// The last command's outcome in words (an error, a description of the selection).
    pub status: Option<String>,
}

/// The page document of what the player shows: the file re-read, or the bundled demo.
pub fn document_of(source: &ScoreSource) -> Result<Document, String> {
    match source {
        ScoreSource::File(path) => crate::read::load(path).map(|l| l.document).map_err(|e| e.to_string()),
        ScoreSource::Demo(name) => {
            let bytes = crate::stage::DEMOS
                .iter()
                .find(|(n, _)| n == name)
                .map_or(crate::demo::WALK_ARMS_TURN_LBN, |(_, b)| *b);
            crate::read::read(bytes, Some("lbn")).map_err(|e| e.to_string())
        }
    }
}

impl EditSession {
    /// Starts editing the player's score (re-read from its source); the player shows the
    /// document's own composition from now on.
    pub fn start(player: &mut Player) -> Result<EditSession, String> {
        let doc = document_of(player.source())?;
        Self::with_document(doc, player).map_err(|e: NotEditable| e.to_string())
    }

    /// Starts editing `doc`, which the player shows from now on.
    pub fn with_document(doc: Document, player: &mut Player) -> Result<EditSession, NotEditable> {
        let (editor, score) = Editor::new(doc)?;
        let source = player.source().clone();
        player.replace_score(score, source);
        let caret = Caret { staff: player.selected_dancer(), column: 3 };
        Ok(EditSession { editor, caret, level: Level::Middle, status: None })
    }

    /// The editor (document, selection, history).
    pub fn editor(&self) -> &Editor {
        &self.editor
    }

    /// Records that the document was saved.
    pub fn mark_saved(&mut self) {
        self.editor.mark_saved();
    }

    /// Selects the symbol a composed entry came from (none: clears the selection) and puts
    /// the caret in its staff and column.
    pub fn select_entry(&mut self, span: Option<&Span>) {
        let index = span.and_then(|s| self.editor.symbol_of_span(s));
        self.editor.select(index.into_iter().collect());
        if let Some(i) = index
            && let Some(symbol) = self.editor.document().symbols.get(i)
            && let Some(staff) = self.editor.grid().staff_at_x(symbol.x_mid())
            && let Some(column) = self.editor.grid().column_at_x(staff, symbol.x_mid())
        {
            self.caret = Caret { staff, column };
        }
        self.status = index.and_then(|i| self.editor.describe(i));
    }

    /// Goes to the symbol a warning at `span` is about: selects it, puts the caret in its staff
    /// and column and the cursor line at its start (the staff scrolls there). False when no
    /// symbol was read or written at `span`.
    pub fn go_to_span(&mut self, span: &Span, player: &mut Player) -> bool {
        let Some(place) = self.editor.place_of_span(span) else { return false };
        self.editor.select(vec![place.index]);
        self.caret = Caret { staff: place.staff, column: place.column };
        player.playback.pause();
        player.playback.seek(snap_beats(place.start_beats));
        self.status = self.editor.describe(place.index);
        true
    }

    /// The selected symbol in words, when one is selected.
    pub fn describe_selection(&self) -> Option<String> {
        self.editor.selection().first().and_then(|&i| self.editor.describe(i))
    }

    fn selected_direction(&self) -> Option<(usize, Direction, Level)> {
        let &index = self.editor.selection().first()?;
        match self.editor.document().symbols.get(index)?.kind {
            SymbolKind::Direction { direction, .. } => {
                Some((index, direction, self.editor.document().symbols.get(index)?.level))
            }
            _ => None,
        }
    }

    /// The selected front sign's index, when one is selected.
    fn selected_front(&self) -> Option<usize> {
        let &index = self.editor.selection().first()?;
        matches!(self.editor.document().symbols.get(index)?.kind, SymbolKind::Front(_)).then_some(index)
    }

    /// Writes `sign` under the selected symbol (its staff, column and start; a selected sign
    /// written under another stands for that one), else at the caret and the cursor line.
    fn insert_under_selection(&self, player: &Player, sign: Sign) -> Edit {
        let grid = self.editor.grid();
        let place = self.editor.selection().first().and_then(|&i| {
            let symbol = self.editor.document().symbols.get(i)?;
            let staff = grid.staff_at_x(symbol.x_mid())?;
            let below_another = match symbol.kind {
                SymbolKind::BodyPart(_) | SymbolKind::Misc(_) => true,
                SymbolKind::Volume(v) => crate::edit::signs::volume_item(v).is_some(),
                _ => false,
            };
            // Pre-signs, flexion signs and hooks stand half a beat below the sign they belong to.
            let start = grid.beats_of_y(symbol.y) + if below_another { 0.5 } else { 0.0 };
            Some((staff, grid.column_at_x(staff, symbol.x_mid())?, snap_beats(start)))
        });
        match place {
            Some((staff, column, start_beats)) => {
                Edit::Insert { staff, column, start_beats, duration_beats: GRID_BEATS, sign }
            }
            None => self.insert_at_cursor(player, sign),
        }
    }

    fn insert_at_cursor(&self, player: &Player, sign: Sign) -> Edit {
        let start_beats = snap_beats(player.playback.t_beats());
        Edit::Insert { staff: self.caret.staff, column: self.caret.column, start_beats, duration_beats: 1.0, sign }
    }

    /// The edit a command makes, or `None` when it only moves the caret or the cursor.
    fn edit_for(&mut self, command: EditCommand, player: &mut Player) -> Option<Edit> {
        let selection = self.editor.selection().to_vec();
        let t_beats = player.playback.t_beats();
        let measure = self.editor.grid().measure_index_at(t_beats).unwrap_or(0);
        match command {
            EditCommand::Direction(direction) => Some(match (self.selected_direction(), self.selected_front()) {
                (Some((index, _, level)), _) => Edit::Change { index, sign: Sign::Direction { direction, level } },
                (None, Some(index)) => {
                    Edit::Change { index, sign: Sign::Front { eighths: facing_eighths(direction)? } }
                }
                (None, None) => self.insert_at_cursor(player, Sign::Direction { direction, level: self.level }),
            }),
            EditCommand::Level(level) => {
                self.level = level;
                let (index, direction, _) = self.selected_direction()?;
                Some(Edit::Change { index, sign: Sign::Direction { direction, level } })
            }
            EditCommand::Turn(clockwise) => Some(self.insert_at_cursor(player, Sign::Turn { clockwise })),
            EditCommand::Hold => Some(self.insert_at_cursor(player, Sign::Hold)),
            EditCommand::PreSign(pre) => Some(self.insert_under_selection(player, Sign::PreSign(pre))),
            EditCommand::Volume(volume) => Some(self.insert_under_selection(player, Sign::Volume(volume))),
            EditCommand::Hook => Some(self.insert_under_selection(player, Sign::Hook)),
            EditCommand::Front => Some(self.insert_at_cursor(player, Sign::Front { eighths: 0 })),
            EditCommand::Path => Some(self.insert_at_cursor(player, Sign::Path { direction: Direction::Forward })),
            EditCommand::JoinHands => {
                Some(Edit::JoinHands { staff: self.caret.staff, start_beats: snap_beats(player.playback.t_beats()) })
            }
            EditCommand::ReleaseHands => {
                Some(Edit::ReleaseHands { staff: self.caret.staff, start_beats: snap_beats(player.playback.t_beats()) })
            }
            EditCommand::Column(magnitude) => {
                let side = if self.caret.column < 0 { -1 } else { 1 };
                self.caret.column = side * magnitude.max(1) as i32;
                None
            }
            EditCommand::StepColumn(step) if selection.is_empty() => {
                self.caret.column = step_column(self.caret.column, step);
                None
            }
            EditCommand::StepColumn(step) => Some(Edit::Move { indices: selection, d_beats: 0.0, d_columns: step }),
            EditCommand::StepTime(d_beats) if selection.is_empty() => {
                player.playback.seek((snap_beats(t_beats) + d_beats).max(0.0));
                None
            }
            EditCommand::StepTime(d_beats) => Some(Edit::Move { indices: selection, d_beats, d_columns: 0 }),
            EditCommand::Stretch(d_beats) => Some(Edit::Stretch { indices: selection, d_beats }),
            EditCommand::Delete => Some(Edit::Delete(selection)),
            EditCommand::InsertMeasure => Some(Edit::InsertMeasure { measure }),
            EditCommand::DeleteMeasure => Some(Edit::DeleteMeasure { measure }),
            EditCommand::Copy => {
                let count = self.editor.copy_selection();
                self.status = Some(format!("{count} symbol(s) copied"));
                None
            }
            EditCommand::Deselect => {
                self.editor.select(Vec::new());
                None
            }
            EditCommand::Undo | EditCommand::Redo | EditCommand::Paste => None,
        }
    }

    /// Runs `command`; when it changes the score, the player recompiles its motion (keeping the
    /// time). Returns true when the score changed.
    pub fn command(&mut self, command: EditCommand, player: &mut Player) -> bool {
        let t_beats = snap_beats(player.playback.t_beats());
        // A new sign moves the cursor line to its end, like a caret after typing: the dancer
        // shows the pose it reaches and the next sign follows it.
        let mut advance_to = None;
        let result: Option<Result<crate::score::Score, EditError>> = match command {
            EditCommand::Undo => self.editor.undo().map(Ok),
            EditCommand::Redo => self.editor.redo().map(Ok),
            EditCommand::Paste => Some(self.editor.paste(self.caret.staff, t_beats)),
            other => self.edit_for(other, player).map(|edit| {
                if let Edit::Insert { start_beats, duration_beats, sign, .. } = edit
                    && moves_on(sign)
                {
                    advance_to = Some(start_beats + duration_beats);
                }
                self.editor.apply(&edit)
            }),
        };
        match result {
            Some(Ok(score)) => {
                let source = player.source().clone();
                player.replace_score(score, source);
                if let Some(t) = advance_to {
                    player.playback.seek(t);
                }
                self.status = self.describe_selection();
                true
            }
            Some(Err(error)) => {
                self.status = Some(error.to_string());
                false
            }
            None => false,
        }
    }
}

/// Whether writing `sign` moves the cursor line to its end (signs that take time do; those
/// written under another sign, and front signs, do not).
fn moves_on(sign: Sign) -> bool {
    matches!(sign, Sign::Direction { .. } | Sign::Turn { .. } | Sign::Hold | Sign::Path { .. })
}

/// The front sign's eighths of a turn clockwise from the audience for a keypad direction (8 the
/// audience, 6 the right, …); none for place.
pub fn facing_eighths(direction: Direction) -> Option<u8> {
    Some(match direction {
        Direction::Forward => 0,
        Direction::RightForward => 1,
        Direction::Right => 2,
        Direction::RightBackward => 3,
        Direction::Backward => 4,
        Direction::LeftBackward => 5,
        Direction::Left => 6,
        Direction::LeftForward => 7,
        Direction::Place => return None,
    })
}

/// The quarter-beat step of the arrow keys, beats.
pub const ARROW_STEP_BEATS: f64 = GRID_BEATS;

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
pub(crate) mod tests {
    use super::*;
    use crate::stage::dancer_mesh::mannequin;

    #[test]
    fn keys_insert_change_and_undo_and_the_player_recompiles() {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        let mut player = Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false);
        let mut session = EditSession::start(&mut player).unwrap();
        player.playback.seek(9.0);
        let arm_entries = |p: &Player| {
            let staff = &p.score().unwrap().staves[0];
            staff.channel(crate::score::ChannelKind::Arm(crate::side::Side::Right)).map_or(0, |c| c.entries.len())
        };
        let before = arm_entries(&player);
        session.command(EditCommand::Level(Level::High), &mut player);
        assert!(session.command(EditCommand::Direction(Direction::Forward), &mut player));
        assert_eq!(arm_entries(&player), before + 1);
        assert_eq!(session.status.as_deref(), Some("right arm, forward high, 1 beat"));
        assert!(session.command(EditCommand::Stretch(1.0), &mut player));
        assert_eq!(session.describe_selection().unwrap(), "right arm, forward high, 2 beats");
        assert!(session.command(EditCommand::Undo, &mut player));
        assert!(session.command(EditCommand::Undo, &mut player));
        assert_eq!(arm_entries(&player), before);
        assert!(!session.editor().is_dirty());
        assert_eq!(player.playback.t_beats(), 10.0, "the cursor went to the new sign's end and stays");
    }

    #[test]
    fn an_arm_edit_reuses_the_pelvis_path_and_dances_as_a_fresh_compile() {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        let mut player = Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false);
        let mut session = EditSession::start(&mut player).unwrap();
        let reused = player.com_paths_reused();
        player.playback.seek(9.0);
        session.command(EditCommand::Level(Level::High), &mut player);
        assert!(session.command(EditCommand::Direction(Direction::Forward), &mut player));
        assert_eq!(player.com_paths_reused(), reused + 1, "an arm sign moves no support: the path was kept");
        // A step written over another moves the later footprints: the path is solved again.
        session.command(EditCommand::Deselect, &mut player);
        session.caret = Caret { staff: 0, column: 1 };
        player.playback.seek(5.0);
        assert!(session.command(EditCommand::Direction(Direction::Backward), &mut player));
        assert_eq!(session.status.as_deref(), Some("right support, backward high, 1 beat"));
        assert_eq!(player.com_paths_reused(), reused + 1, "a step moves the supports: solved again");
        let fresh = crate::animation::compile(
            player.score().unwrap(),
            &crate::motion::rules::MotionOptions::default(),
            &crate::pose::Proportions::default(),
        );
        for t_secs in [0.0, 2.5, 5.0, 7.5] {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            player.animation().sample(t_secs, &mut a);
            fresh.sample(t_secs, &mut b);
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "at {t_secs} s");
        }
    }

    /// The walk demo in an editing session with a whole-foot hook written at beat 11 in the right
    /// arm column, where no sign above it takes it (composing warns at its place): the player,
    /// the session and the hook's symbol index.
    pub(crate) fn walk_with_a_stray_hook() -> (Player, EditSession, usize) {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        let mut player = Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false);
        let mut session = EditSession::start(&mut player).unwrap();
        player.playback.seek(11.0);
        assert!(session.command(EditCommand::Hook, &mut player));
        let hook = session.editor().selection()[0];
        (player, session, hook)
    }

    #[test]
    fn a_warning_leads_to_its_symbol_and_the_staff_scrolls_there() {
        let (mut player, mut session, hook) = walk_with_a_stray_hook();
        let item = player.warnings().iter().find(|w| w.text.contains("could modify")).cloned().unwrap();
        session.command(EditCommand::Deselect, &mut player);
        session.caret = Caret { staff: 0, column: -1 };
        player.playback.seek(0.0);
        assert!(session.go_to_span(&item.span, &mut player));
        assert_eq!(session.editor().selection(), &[hook]);
        assert_eq!(session.caret, Caret { staff: 0, column: 3 });
        assert_eq!(player.playback.t_beats(), 10.5, "the hook stands half a beat below the beat it was written at");
        assert_eq!(session.status.as_deref(), Some("right arm, whole-foot hook"));
        assert!(!session.go_to_span(&Span::at(9999, 1), &mut player), "no symbol there");
    }

    #[test]
    fn join_hands_bows_the_caret_dancer_to_the_next_and_undo_parts_them() {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        let mut player = Player::new(crate::demo::default_score(), ScoreSource::Demo("Duet"), model, false);
        let mut session = EditSession::start(&mut player).unwrap();
        let contacts = |p: &Player| p.score().unwrap().contacts.len();
        assert_eq!(contacts(&player), 0);
        player.playback.seek(0.0);
        assert!(session.command(EditCommand::JoinHands, &mut player));
        assert_eq!(contacts(&player), 1);
        assert_eq!(session.status.as_deref(), Some("contact bow"));
        assert!(session.command(EditCommand::Undo, &mut player));
        assert_eq!(contacts(&player), 0);
        // Joined at beat 0, let go at beat 4: the contact ends there, released.
        assert!(session.command(EditCommand::Redo, &mut player));
        player.playback.seek(4.0);
        assert!(session.command(EditCommand::ReleaseHands, &mut player));
        assert_eq!(session.status.as_deref(), Some("release sign (the hands let go)"));
        let contact = &player.score().unwrap().contacts[0];
        assert!(contact.released && (contact.end_beats - 4.0).abs() < 0.1, "{contact:?}");
        assert!(session.command(EditCommand::Undo, &mut player));
        assert!(!player.score().unwrap().contacts[0].released, "undo takes the release back");
        session.caret.staff = 1;
        assert!(!session.command(EditCommand::JoinHands, &mut player), "no dancer right of the last");
        assert_eq!(session.status.as_deref(), Some("there is no staff 2"));
    }
}
