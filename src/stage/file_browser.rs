//! The player's own file browser, used when no desktop file dialog answers: one folder's
//! entries (folders first, then the files this purpose opens, each sorted by name; hidden
//! entries left out), moving up and into folders, and a typed path (absolute, `~/…`, or
//! relative to the folder shown) that opens a file or shows a folder; to save, a typed new name
//! is chosen too. The window draws it (`viewer::ui`); the file system is read only here, when a
//! folder is shown.

use std::path::{Path, PathBuf};

/// At most this many entries of one folder are listed (the rest are counted).
pub const MAX_ENTRIES: usize = 2000;

/// What the chosen file is for: it decides the files listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowsePurpose {
    /// Anything the player opens: a score, a BVH capture, an ensemble plan, a music track (for
    /// the open score) or a mesh (the dancer).
    Any,
    /// A music track.
    Music,
    /// A humanoid mesh to rig as the dancer.
    Mesh,
    /// Where to save the edited score: an `.lbn` file, new (a typed name) or to replace.
    Save,
}

impl BrowsePurpose {
    /// File name endings (lower case) listed for this purpose.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            BrowsePurpose::Any => &[
                "lbn", "lw", "json", "bvh", "toml", "wav", "flac", "ogg", "mp3", "oga", "obj", "gltf", "glb", "ply",
                "stl",
            ],
            BrowsePurpose::Music => &crate::stage::files::MUSIC_EXTENSIONS,
            BrowsePurpose::Mesh => &["obj", "gltf", "glb", "ply", "stl"],
            BrowsePurpose::Save => &["lbn"],
        }
    }

    /// The browser window's title.
    pub fn title(self) -> &'static str {
        match self {
            BrowsePurpose::Any => "Open a score, capture, plan, music or mesh",
            BrowsePurpose::Music => "Open a music track",
            BrowsePurpose::Mesh => "Open a humanoid mesh to dance",
            BrowsePurpose::Save => "Save the score as .lbn",
        }
    }

    /// True when the chosen file is written, not read.
    pub fn saves(self) -> bool {
        self == BrowsePurpose::Save
    }
}

/// One listed entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrowserEntry {
    /// File or folder name.
    pub name: String,
    /// True for a folder.
    pub is_dir: bool,
}

/// What a step in the browser did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrowseStep {
    /// This file was chosen: open it.
    Chosen(PathBuf),
    /// Another folder is shown.
    Entered,
    /// Nothing was done, for this reason (shown in the browser).
    Refused(String),
}

/// See the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileBrowser {
    /// What the chosen file is for.
    pub purpose: BrowsePurpose,
    /// The folder shown.
    dir: PathBuf,
    entries: Vec<BrowserEntry>,
    /// Entries of the folder not listed (beyond [`MAX_ENTRIES`]).
    pub more: usize,
    /// The typed path.
    pub typed: String,
    /// Why the last step did nothing, or why the folder could not be read.
    pub message: Option<String>,
    /// Show every file, not only this purpose's.
    pub all_files: bool,
    /// The typed-path field takes the keyboard when the browser is next drawn.
    pub focus_typed: bool,
}

impl FileBrowser {
    /// A browser for `purpose` showing `dir`.
    pub fn open(purpose: BrowsePurpose, dir: &Path) -> FileBrowser {
        let mut browser = FileBrowser {
            purpose,
            dir: dir.to_path_buf(),
            entries: Vec::new(),
            more: 0,
            typed: String::new(),
            message: None,
            all_files: false,
            focus_typed: true,
        };
        browser.refresh();
        browser
    }

    /// The folder shown.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder's entries, as listed.
    pub fn entries(&self) -> &[BrowserEntry] {
        &self.entries
    }

    /// Reads the folder again (after toggling [`FileBrowser::all_files`], or to see new files).
    pub fn refresh(&mut self) {
        self.entries.clear();
        self.more = 0;
        self.message = None;
        let read = match std::fs::read_dir(&self.dir) {
            Ok(read) => read,
            Err(error) => {
                self.message = Some(format!("cannot read {}: {error}", self.dir.display()));
                return;
            }
        };
        let extensions = self.purpose.extensions();
        for entry in read.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let is_dir = entry.path().is_dir();
            let lower = name.to_ascii_lowercase();
            let listed = is_dir || self.all_files || extensions.iter().any(|e| lower.ends_with(&format!(".{e}")));
            if !listed {
                continue;
            }
            if self.entries.len() >= MAX_ENTRIES {
                self.more += 1;
                continue;
            }
            self.entries.push(BrowserEntry { name, is_dir });
        }
        self.entries.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.name.cmp(&b.name)));
    }

    /// Shows the parent folder.
    pub fn up(&mut self) -> BrowseStep {
        match self.dir.parent() {
            Some(parent) => self.show(parent.to_path_buf()),
            None => BrowseStep::Refused("this is the top folder".to_owned()),
        }
    }

    /// Activates entry `index`: a folder is shown, a file chosen.
    pub fn activate(&mut self, index: usize) -> BrowseStep {
        match self.entries.get(index) {
            Some(entry) => {
                let path = self.dir.join(&entry.name);
                self.go_to(path)
            }
            None => BrowseStep::Refused("no such entry".to_owned()),
        }
    }

    /// Activates the typed path (relative to the folder shown; `~` is the home folder).
    pub fn activate_typed(&mut self) -> BrowseStep {
        let typed = self.typed.trim();
        if typed.is_empty() {
            return BrowseStep::Refused("type a path first".to_owned());
        }
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let path = match (typed.strip_prefix("~/").or((typed == "~").then_some("")), home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => self.dir.join(typed),
        };
        let step = self.go_to(path);
        if step == BrowseStep::Entered {
            self.typed.clear();
        }
        step
    }

    /// Shows `path` when it is a folder, chooses it when it is a file (to save: any name in a
    /// folder that exists, given the ending `.lbn`).
    fn go_to(&mut self, path: PathBuf) -> BrowseStep {
        let in_a_folder = path.parent().is_some_and(|p| p.as_os_str().is_empty() || p.is_dir());
        if path.is_dir() {
            self.show(path)
        } else if self.purpose.saves() && in_a_folder {
            BrowseStep::Chosen(crate::stage::edit_save::lbn_path(&path))
        } else if path.is_file() {
            BrowseStep::Chosen(path)
        } else {
            let text = format!("{} does not exist", path.display());
            self.message = Some(text.clone());
            BrowseStep::Refused(text)
        }
    }

    fn show(&mut self, dir: PathBuf) -> BrowseStep {
        self.dir = dir;
        self.refresh();
        BrowseStep::Entered
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    fn scratch() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("labanplay-browser-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("solos")).unwrap();
        std::fs::create_dir_all(dir.join(".hidden")).unwrap();
        for name in ["b.lbn", "a.JSON", "notes.txt", "song.ogg", "body.glb", "solos/one.lw"] {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        dir
    }

    #[test]
    fn it_lists_folders_first_then_the_purposes_files_and_opens_what_is_typed_or_clicked() {
        let dir = scratch();
        let mut browser = FileBrowser::open(BrowsePurpose::Any, &dir);
        let names: Vec<&str> = browser.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["solos", "a.JSON", "b.lbn", "body.glb", "song.ogg"]);
        assert_eq!(browser.activate(2), BrowseStep::Chosen(dir.join("b.lbn")));
        assert!(!browser.entries().iter().any(|e| e.name == "notes.txt"), "only files the player opens");
        assert_eq!(browser.activate(0), BrowseStep::Entered);
        assert_eq!(browser.entries()[0].name, "one.lw");
        assert_eq!(browser.up(), BrowseStep::Entered);
        assert_eq!(browser.dir(), dir.as_path());
        browser.typed = "solos/one.lw".to_owned();
        assert_eq!(browser.activate_typed(), BrowseStep::Chosen(dir.join("solos/one.lw")));
        browser.typed = "nope.lbn".to_owned();
        assert!(matches!(browser.activate_typed(), BrowseStep::Refused(_)));
        assert!(browser.message.as_deref().unwrap().contains("does not exist"));
        browser.typed = dir.join("solos").display().to_string();
        assert_eq!(browser.activate_typed(), BrowseStep::Entered);
        assert!(browser.typed.is_empty());

        let music = FileBrowser::open(BrowsePurpose::Music, &dir);
        assert_eq!(music.entries().iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["solos", "song.ogg"]);
        let mut mesh = FileBrowser::open(BrowsePurpose::Mesh, &dir);
        assert_eq!(mesh.entries().len(), 2);
        mesh.all_files = true;
        mesh.refresh();
        assert_eq!(mesh.entries().len(), 6, "every file but the hidden folder");
        let missing = FileBrowser::open(BrowsePurpose::Mesh, &dir.join("gone"));
        assert!(missing.entries().is_empty() && missing.message.is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn to_save_it_lists_lbn_files_and_a_typed_new_name_is_chosen_ending_in_lbn() {
        let dir = std::env::temp_dir().join(format!("labanplay-browser-save-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("solos")).unwrap();
        for name in ["b.lbn", "a.lw"] {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let mut browser = FileBrowser::open(BrowsePurpose::Save, &dir);
        let names: Vec<&str> = browser.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["solos", "b.lbn"]);
        assert_eq!(browser.activate(1), BrowseStep::Chosen(dir.join("b.lbn")), "an existing file is replaced");
        browser.typed = "new".to_owned();
        assert_eq!(browser.activate_typed(), BrowseStep::Chosen(dir.join("new.lbn")));
        browser.typed = "a.lw".to_owned();
        assert_eq!(
            browser.activate_typed(),
            BrowseStep::Chosen(dir.join("a.lbn")),
            "never over a score of another format"
        );
        browser.typed = "solos".to_owned();
        assert_eq!(browser.activate_typed(), BrowseStep::Entered);
        browser.typed = "gone/x.lbn".to_owned();
        assert!(matches!(browser.activate_typed(), BrowseStep::Refused(_)), "no folder is made");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
