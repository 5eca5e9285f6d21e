//! File ▸ Save, Save as… and New score in the window: saving goes through
//! [`crate::stage::edit_save`]; the built-in browser asks for a name (the open file's, ending in
//! `.lbn`, is offered). After a save the window's title names the file, the recent list has it
//! and the hot-reload watcher takes the written file as seen.

use super::*;
use crate::stage::edit_save;
use crate::stage::edit_session::EditSession;

impl Running {
    /// Saves the score to `path`, or to the open `.lbn` file; without either, asks for a name.
    pub(super) fn save_score(&mut self, path: Option<PathBuf>) {
        let Some(path) = path.or_else(|| edit_save::save_path(self.player.source())) else {
            self.ask_save_name();
            return;
        };
        let panel = &mut self.ui_state.edit;
        if panel.session.is_none() {
            match EditSession::start(&mut self.player) {
                Ok(session) => panel.session = Some(session),
                Err(error) => {
                    self.ui_state.status = Some(format!("cannot save: {error}"));
                    return;
                }
            }
        }
        let Some(session) = panel.session.as_mut() else { return };
        match edit_save::save(session, &mut self.player, &path) {
            Ok(saved) => {
                self.ui_state.status = Some(saved.status());
                self.recent.remember(&path);
                self.ui_state.recent = self.recent.paths().to_vec();
                let clock_secs = self.started.elapsed().as_secs_f64();
                self.watch = Some(FileWatch::new(path, clock_secs));
                self.ui_state.edit.title_marked = false;
                self.window.set_title(&format!("labanplay — {}", self.player.source().label()));
            }
            Err(error) => self.ui_state.status = Some(error),
        }
    }

    /// Opens the built-in browser to save, in the open file's folder, offering its name as `.lbn`.
    pub(super) fn ask_save_name(&mut self) {
        self.open_browser(BrowsePurpose::Save);
        let name = match self.player.source() {
            ScoreSource::File(path) => edit_save::lbn_path(path).file_name().map(|n| n.to_string_lossy().into_owned()),
            ScoreSource::Demo(_) => None,
        };
        if let Some(browser) = &mut self.ui_state.browser {
            browser.typed = name.unwrap_or_default();
        }
    }

    /// Starts a new empty score in edit mode (refused while there are unsaved edits).
    pub(super) fn new_score(&mut self) {
        if let Some(refusal) = self.ui_state.edit.unsaved_refusal() {
            self.ui_state.status = Some(refusal);
            return;
        }
        self.rehearsal.store_score(&self.player);
        match edit_save::new_score(&mut self.player) {
            Ok(session) => {
                self.ui_state.edit.session = Some(session);
                self.ui_state.edit.active = true;
                self.watch = None;
                self.ui_state.status = Some("a new score: E leaves edit mode, Ctrl+S saves".to_owned());
                self.reframe();
                self.window.set_title(&format!("labanplay — {}", self.player.source().label()));
            }
            Err(error) => self.ui_state.status = Some(error),
        }
    }
}
