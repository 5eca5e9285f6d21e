//! Score files for the player: opening a file into a [`Score`] (through [`crate::read::load`],
//! its diagnostics left structured for the window to render), the recent-files list (in
//! memory and in `$XDG_CONFIG_HOME/labanplay/recent.txt`) and the hot-reload watcher that polls
//! the open file's modification time (the caller passes the clock in).

use crate::read::LoadError;
use crate::score::Score;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// File extensions of music tracks (the file dialog's filter, plan music cues).
pub const MUSIC_EXTENSIONS: [&str; 5] = ["wav", "flac", "ogg", "mp3", "oga"];

/// How many recent files are remembered.
pub const MAX_RECENT: usize = 10;
/// How often the watcher looks at the file, seconds.
pub const WATCH_INTERVAL_SECS: f64 = 0.5;

/// Reads and composes a score file.
pub fn open_score(path: &Path) -> Result<Score, LoadError> {
    crate::read::load(path).map(|loaded| Score::from_document(&loaded.document))
}

/// Most-recent-first list of opened files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecentFiles {
    paths: Vec<PathBuf>,
    store: Option<PathBuf>,
}

impl RecentFiles {
    /// An empty list that is never saved (tests, headless runs).
    pub fn in_memory() -> RecentFiles {
        RecentFiles::default()
    }

    /// The list stored at `store` (one path per line; a missing or unreadable file is an empty
    /// list), saved back there on every change.
    pub fn load_from(store: PathBuf) -> RecentFiles {
        let text = std::fs::read_to_string(&store).unwrap_or_default();
        let mut paths: Vec<PathBuf> = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let path = PathBuf::from(line);
            if !paths.contains(&path) && paths.len() < MAX_RECENT {
                paths.push(path);
            }
        }
        RecentFiles { paths, store: Some(store) }
    }

    /// The list at the default place (`$XDG_CONFIG_HOME/labanplay/recent.txt`, else
    /// `$HOME/.config/labanplay/recent.txt`); in memory only when neither variable is set.
    pub fn load_default() -> RecentFiles {
        match default_store_path() {
            Some(store) => RecentFiles::load_from(store),
            None => RecentFiles::in_memory(),
        }
    }

    /// Paths, most recent first.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Puts `path` first (absolute when it can be made so) and saves; write failures are ignored.
    pub fn remember(&mut self, path: &Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.paths.retain(|p| *p != path);
        self.paths.insert(0, path);
        self.paths.truncate(MAX_RECENT);
        self.save();
    }

    fn save(&self) {
        let Some(store) = &self.store else { return };
        if let Some(dir) = store.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let mut text = String::new();
        for path in &self.paths {
            text.push_str(&path.to_string_lossy());
            text.push('\n');
        }
        let _ = std::fs::write(store, text);
    }
}

/// `$XDG_CONFIG_HOME/labanplay/recent.txt`, or the same under `$HOME/.config`.
pub fn default_store_path() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("labanplay").join("recent.txt"))
}

/// Watches one file's modification time, looking at most every [`WATCH_INTERVAL_SECS`].
#[derive(Clone, Debug, PartialEq)]
pub struct FileWatch {
    path: PathBuf,
    last_modified: Option<SystemTime>,
    last_check_secs: f64,
}

impl FileWatch {
    /// Watches `path`, remembering its current modification time; `now_secs` is the caller's clock.
    pub fn new(path: PathBuf, now_secs: f64) -> FileWatch {
        let last_modified = modified(&path);
        FileWatch { path, last_modified, last_check_secs: now_secs }
    }

    /// The watched file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True when the file's modification time changed since the last look (and the file still
    /// exists). Looks at the file only when [`WATCH_INTERVAL_SECS`] have passed on the caller's
    /// clock since the last look.
    pub fn poll(&mut self, now_secs: f64) -> bool {
        let due = (now_secs - self.last_check_secs).partial_cmp(&WATCH_INTERVAL_SECS);
        if !matches!(due, Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)) {
            return false;
        }
        self.last_check_secs = now_secs;
        let now_modified = modified(&self.path);
        if now_modified.is_some() && now_modified != self.last_modified {
            self.last_modified = now_modified;
            return true;
        }
        false
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("labanplay-viewer-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn recent_files_are_most_recent_first_unique_bounded_and_persisted() {
        let dir = scratch_dir("recent");
        let store = dir.join("cfg").join("recent.txt");
        let mut recent = RecentFiles::load_from(store.clone());
        assert!(recent.paths().is_empty());
        for i in 0..12 {
            recent.remember(&dir.join(format!("{i}.lbn")));
        }
        recent.remember(&dir.join("5.lbn"));
        assert_eq!(recent.paths().len(), MAX_RECENT);
        assert_eq!(recent.paths()[0], dir.join("5.lbn"));
        assert_eq!(recent.paths()[1], dir.join("11.lbn"));
        let reloaded = RecentFiles::load_from(store);
        assert_eq!(reloaded.paths(), recent.paths());
        // An unwritable store is ignored.
        let mut broken = RecentFiles::load_from(PathBuf::from("/proc/labanplay-nope/recent.txt"));
        broken.remember(Path::new("/tmp/a.lbn"));
        assert_eq!(broken.paths().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn watch_reports_a_changed_file_only_after_the_interval() {
        let dir = scratch_dir("watch");
        let file = dir.join("score.lbn");
        std::fs::write(&file, "a").unwrap();
        let mut watch = FileWatch::new(file.clone(), 0.0);
        assert!(!watch.poll(1.0), "unchanged");
        // Make the modification time differ for sure.
        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::File::options().write(true).open(&file).unwrap().set_modified(later).unwrap();
        assert!(!watch.poll(1.2), "too soon after the last look");
        assert!(watch.poll(1.6));
        assert!(!watch.poll(2.2), "reported once");
        std::fs::remove_file(&file).unwrap();
        assert!(!watch.poll(3.0), "a deleted file is not a change");
        assert!(!watch.poll(f64::NAN));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn open_score_reads_a_file_and_explains_failures() {
        let dir = scratch_dir("open");
        let file = dir.join("walk.lbn");
        std::fs::write(&file, crate::demo::WALK_ARMS_TURN_LBN).unwrap();
        assert_eq!(open_score(&file).unwrap().staves.len(), 1);
        let error = open_score(&dir.join("missing.lbn")).unwrap_err().render();
        assert!(error.contains("cannot read"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
