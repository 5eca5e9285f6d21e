//! Score files for the player: opening a file into a [`Score`] (through [`crate::read::load`],
//! its diagnostics left structured for the window to render), the recent-files list (in
//! memory and in `$XDG_CONFIG_HOME/labanplay/recent.txt`) and the hot-reload watcher that polls
//! the open file's modification time (the caller passes the clock in), [`file_kind`]: what a
//! file is (score, capture, plan, mesh) from its first bytes, and [`write_text`], which writes a
//! saved score.

use crate::read::LoadError;
use crate::score::Score;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// File extensions of music tracks (the file dialog's filter, plan music cues).
pub const MUSIC_EXTENSIONS: [&str; 5] = ["wav", "flac", "ogg", "mp3", "oga"];

/// True when `path` names a music track (by its extension).
pub fn is_music_path(path: &Path) -> bool {
    let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    MUSIC_EXTENSIONS.contains(&extension.as_str())
}

/// How many recent files are remembered.
pub const MAX_RECENT: usize = 10;
/// How often the watcher looks at the file, seconds.
pub const WATCH_INTERVAL_SECS: f64 = 0.5;

/// What a file given to the player is, decided before it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A score (`.lbn`, `.json`, `.lw`, or anything not recognised as another kind).
    Score,
    /// A BVH motion capture.
    Capture,
    /// An ensemble plan (`*.plan.toml`).
    Plan,
    /// A humanoid mesh to rig as the dancer (OBJ, glTF, PLY, STL).
    Mesh,
}

/// How many bytes of a file [`file_kind`] looks at.
const SNIFF_BYTES: u64 = 4096;

/// The kind of the file at `path`, from its first bytes (a glTF binary's magic, a PLY or BVH
/// header, an STL solid or binary size, OBJ vertex and face lines), else from its name.
pub fn file_kind(path: &Path) -> FileKind {
    use std::io::Read;
    let mut head = Vec::new();
    let len = std::fs::File::open(path)
        .and_then(|file| {
            let len = file.metadata()?.len();
            file.take(SNIFF_BYTES).read_to_end(&mut head).map(|_| len)
        })
        .unwrap_or(0);
    match kind_from_head(&head, len) {
        Some(kind) => kind,
        None if crate::stage::plan_stage::is_plan_path(path) => FileKind::Plan,
        None if crate::rig::is_mesh_path(&path.to_string_lossy()) => FileKind::Mesh,
        None if crate::mocap::is_capture_file(path) => FileKind::Capture,
        None => FileKind::Score,
    }
}

/// The kind the first bytes `head` of a `len`-byte file show, when they show one.
fn kind_from_head(head: &[u8], len: u64) -> Option<FileKind> {
    let text = String::from_utf8_lossy(head);
    let start = text.trim_start();
    let binary_stl = head.len() >= 84
        && head.get(80..84).and_then(|b| <[u8; 4]>::try_from(b).ok()).is_some_and(|count| {
            let triangles = u64::from(u32::from_le_bytes(count));
            triangles > 0 && len == 84 + 50 * triangles
        });
    let obj_lines = |prefix: &str| text.lines().filter(|l| l.starts_with(prefix)).count();
    let gltf_json = start.starts_with('{') && text.contains("\"asset\"") && text.contains("\"version\"");
    if head.starts_with(b"glTF") || start.starts_with("ply") || binary_stl || gltf_json {
        return Some(FileKind::Mesh);
    }
    if start.starts_with("solid") && text.contains("facet") {
        return Some(FileKind::Mesh);
    }
    if obj_lines("v ") >= 3 && (obj_lines("f ") >= 1 || obj_lines("vn ") >= 1) {
        return Some(FileKind::Mesh);
    }
    if start.starts_with("HIERARCHY") {
        return Some(FileKind::Capture);
    }
    None
}

/// Reads and composes a score file.
pub fn open_score(path: &Path) -> Result<Score, LoadError> {
    crate::read::load(path).map(|loaded| Score::from_document(&loaded.document))
}

/// Writes a saved score's `text` to `path`: first beside it under a temporary name, then moved
/// over it, so a failed write leaves the old file whole.
pub fn write_text(path: &Path, text: &str) -> Result<(), String> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".saving");
    let temporary = PathBuf::from(temporary);
    let result = std::fs::write(&temporary, text).and_then(|()| std::fs::rename(&temporary, path));
    result.map_err(|error| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot write {}: {error}", path.display())
    })
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
    fn a_file_is_known_by_its_content_whatever_its_name() {
        let dir = scratch_dir("kind");
        let binary_stl = {
            let mut bytes = vec![0u8; 80];
            bytes.extend_from_slice(&2u32.to_le_bytes());
            bytes.extend(std::iter::repeat_n(0u8, 100));
            bytes
        };
        let cases: [(&str, Vec<u8>, FileKind); 8] = [
            ("model.lbn", b"glTF\x02\0\0\0\x10\0\0\0".to_vec(), FileKind::Mesh),
            ("body.txt", b"ply\nformat ascii 1.0\nelement vertex 3\n".to_vec(), FileKind::Mesh),
            ("body.dat", b"# exported\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".to_vec(), FileKind::Mesh),
            ("part.score", binary_stl, FileKind::Mesh),
            ("walk.json", b"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": []}".to_vec(), FileKind::Mesh),
            ("take.txt", b"HIERARCHY\nROOT Hips\n".to_vec(), FileKind::Capture),
            ("show.plan.toml", b"[stage]\nsize_m = [8, 6]\n".to_vec(), FileKind::Plan),
            ("solo.lbn", b"#LED\nstaff 1\n".to_vec(), FileKind::Score),
        ];
        for (name, bytes, kind) in cases {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(file_kind(&path), kind, "{name}");
        }
        assert_eq!(file_kind(&dir.join("missing.glb")), FileKind::Mesh, "a missing file is known by its name");
        let _ = std::fs::remove_dir_all(&dir);
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
