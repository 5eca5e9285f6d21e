//! Saving what the player's editor holds, and starting a new score (File ▸ Save, Save as…,
//! New). Save writes the editor's document as `.lbn` ([`crate::write::write_lbn`]) to the open
//! file when that is an `.lbn` file; any other score (a `.lw`, a demo, a new score) is saved
//! through Save as, under a name ending in `.lbn`. After saving, the player's score is the
//! file's: a document of another format is read back from the written text, since `.lbn` has
//! LED's columns and grid, so the dancer shows what the file says.

use crate::diag::Diagnostic;
use crate::edit::blank_score;
use crate::read::Format;
use crate::stage::edit_session::EditSession;
use crate::stage::player::{Player, ScoreSource};
use std::path::{Path, PathBuf};

/// The source name of a new score, until it is saved.
pub const NEW_SCORE: &str = "new score";
/// Measures, beats per measure and tempo of a new score.
pub const NEW_SCORE_SHAPE: (usize, u32, u32) = (8, 4, 120);

/// What a save did.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    /// The file written.
    pub path: PathBuf,
    /// What `.lbn` could not say (see [`crate::write::Written::warnings`]), at source places.
    pub warnings: Vec<Diagnostic>,
    /// The score was read back from the written file (another format, or a writer that could
    /// not say everything): the edit history starts again.
    pub reread: bool,
}

impl Saved {
    /// The status line after saving.
    pub fn status(&self) -> String {
        let name = self.path.display();
        match self.warnings.first() {
            None => format!("saved {name}"),
            Some(first) => format!(
                "saved {name}; {} thing(s) `.lbn` cannot say, first at line {}: {}",
                self.warnings.len(),
                first.span.line,
                first.message
            ),
        }
    }
}

/// The file Save writes without asking: the open file when it is an `.lbn` score.
pub fn save_path(source: &ScoreSource) -> Option<PathBuf> {
    match source {
        ScoreSource::File(path) if crate::read::score_extension(path).as_deref() == Some("lbn") => Some(path.clone()),
        _ => None,
    }
}

/// `path` with the ending `.lbn` (added to a name without it, in place of a score's other
/// ending).
pub fn lbn_path(path: &Path) -> PathBuf {
    match crate::read::score_extension(path).as_deref() {
        Some("lbn") => path.to_path_buf(),
        Some("lw" | "json") => path.with_extension("lbn"),
        _ => {
            let mut name = path.as_os_str().to_owned();
            name.push(".lbn");
            PathBuf::from(name)
        }
    }
}

/// Writes the session's document to `path` as `.lbn` and makes it the player's file: the
/// title's unsaved mark goes, and the written file opens to the same score.
pub fn save(session: &mut EditSession, player: &mut Player, path: &Path) -> Result<Saved, String> {
    let doc = session.editor().document();
    let written = crate::write::write_lbn(doc);
    crate::stage::files::write_text(path, &written.text)?;
    let reread = doc.format != Format::Lbn || !written.warnings.is_empty();
    if reread {
        let back = crate::read::read(written.text.as_bytes(), Some("lbn"))
            .map_err(|e| format!("{} was written but does not read back: {e}", path.display()))?;
        let caret = session.caret;
        *session = EditSession::with_document(back, player).map_err(|e| e.to_string())?;
        session.caret = caret;
    } else {
        session.mark_saved();
    }
    player.set_source(ScoreSource::File(path.to_path_buf()));
    Ok(Saved { path: path.to_path_buf(), warnings: written.warnings, reread })
}

/// Starts a new empty score in the player (one staff, the starting position, empty measures)
/// with an editing session on it.
pub fn new_score(player: &mut Player) -> Result<EditSession, String> {
    let (measures, beats, bpm) = NEW_SCORE_SHAPE;
    let mut session =
        EditSession::with_document(blank_score(measures, beats, bpm), player).map_err(|e| e.to_string())?;
    player.set_source(ScoreSource::Demo(NEW_SCORE));
    player.playback.go_to_start();
    session.caret.staff = 0;
    Ok(session)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use crate::read::{Direction, Level};
    use crate::stage::dancer_mesh::mannequin;
    use crate::stage::edit_session::EditCommand;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("labanplay-save-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn player() -> Player {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false)
    }

    #[test]
    fn names_end_in_lbn_and_only_an_lbn_file_saves_without_asking() {
        assert_eq!(lbn_path(Path::new("a/b.lw")), Path::new("a/b.lbn"));
        assert_eq!(lbn_path(Path::new("a/b.LBN")), Path::new("a/b.LBN"));
        assert_eq!(lbn_path(Path::new("a/my.solo")), Path::new("a/my.solo.lbn"));
        assert_eq!(save_path(&ScoreSource::File("x.lbn".into())), Some(PathBuf::from("x.lbn")));
        assert_eq!(save_path(&ScoreSource::File("x.lw".into())), None);
        assert_eq!(save_path(&ScoreSource::Demo(NEW_SCORE)), None);
    }

    /// An arm sign written with the keys, saved: the mark goes, the file read back holds the
    /// sign and composes to the score the player shows; undo still works after a save.
    #[test]
    fn an_edit_saved_is_in_the_file_and_the_file_opens_to_the_same_score() {
        let dir = scratch("edit");
        let source = dir.join("walk.lbn");
        std::fs::write(&source, crate::demo::WALK_ARMS_TURN_LBN).unwrap();
        let mut player = player();
        let score = crate::read::load(&source).map(|l| crate::score::Score::from_document(&l.document)).unwrap();
        player.replace_score(score, ScoreSource::File(source.clone()));
        let mut session = EditSession::start(&mut player).unwrap();
        player.playback.seek(9.0);
        session.command(EditCommand::Level(Level::High), &mut player);
        assert!(session.command(EditCommand::Direction(Direction::Forward), &mut player));
        assert!(session.editor().is_dirty());
        let path = save_path(player.source()).unwrap();
        let saved = save(&mut session, &mut player, &path).unwrap();
        assert!(saved.warnings.is_empty() && !saved.reread, "{saved:?}");
        assert!(!session.editor().is_dirty());
        let back = crate::read::load(&path).unwrap().document;
        let facts = |d: &crate::read::Document| -> Vec<_> {
            d.symbols.iter().map(|s| (s.kind.clone(), s.x, s.y, s.w, s.h, s.level)).collect()
        };
        assert_eq!(facts(&back), facts(session.editor().document()));
        let arm_high = |d: &crate::read::Document| {
            d.symbols.iter().filter(|s| s.level == Level::High && s.x > 133.0 && s.x < 200.0).count()
        };
        let original = crate::read::read(crate::demo::WALK_ARMS_TURN_LBN, Some("lbn")).unwrap();
        assert_eq!(arm_high(&back), arm_high(&original) + 1, "the new sign is in the file");
        let shown = crate::score::table::render_table(player.score().unwrap());
        assert_eq!(crate::score::table::render_table(&crate::score::Score::from_document(&back)), shown);
        assert!(session.command(EditCommand::Undo, &mut player), "the history survives a save");
        assert!(session.editor().is_dirty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A `.lw` score has no Save of its own: saved as `.lbn`, the player shows the written file's
    /// score (LED's grid), a fresh history, and the file as its source.
    #[test]
    fn a_lw_score_saved_as_lbn_is_read_back_from_the_file() {
        let dir = scratch("lw");
        let lw = dir.join("walk.lw");
        let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/scores/walk-arms-turn.lw");
        std::fs::copy(demo, &lw).unwrap();
        let mut player = player();
        let score = crate::read::load(&lw).map(|l| crate::score::Score::from_document(&l.document)).unwrap();
        player.replace_score(score, ScoreSource::File(lw.clone()));
        let mut session = EditSession::start(&mut player).unwrap();
        assert_eq!(save_path(player.source()), None);
        let path = lbn_path(&lw);
        let saved = save(&mut session, &mut player, &path).unwrap();
        assert!(saved.reread && saved.path == dir.join("walk.lbn"), "{saved:?}");
        assert_eq!(session.editor().document().format, Format::Lbn);
        assert!(!session.editor().can_undo() && !session.editor().is_dirty());
        let back = crate::score::Score::from_document(&crate::read::load(&path).unwrap().document);
        let table = crate::score::table::render_table;
        assert_eq!(table(&back), table(player.score().unwrap()));
        assert_eq!(player.source(), &ScoreSource::File(path));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A new score: one staff, edit mode's session on it, nothing to save yet; saved as a name
    /// without an ending it becomes `NAME.lbn`, which opens to the same score.
    #[test]
    fn a_new_score_saved_as_opens_to_the_same_score() {
        let dir = scratch("new");
        let mut player = player();
        let mut session = new_score(&mut player).unwrap();
        assert_eq!(player.score().unwrap().staves.len(), 1);
        assert_eq!(player.source(), &ScoreSource::Demo(NEW_SCORE));
        assert!(save_path(player.source()).is_none(), "a new score is saved through Save as");
        player.playback.seek(1.0);
        assert!(session.command(EditCommand::Direction(Direction::Right), &mut player));
        let path = lbn_path(&dir.join("mine"));
        let saved = save(&mut session, &mut player, &path).unwrap();
        assert_eq!(saved.path, dir.join("mine.lbn"));
        assert_eq!(player.source(), &ScoreSource::File(dir.join("mine.lbn")));
        let back = crate::score::Score::from_document(&crate::read::load(&path).unwrap().document);
        let table = crate::score::table::render_table;
        assert_eq!(table(&back), table(player.score().unwrap()));
        assert!(saved.status().starts_with("saved "), "{}", saved.status());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
