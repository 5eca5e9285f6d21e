//! Opening files in the player window: a dropped or chosen file by its kind (score, capture,
//! plan, music, mesh), the desktop's file dialog with the built-in browser where there is none,
//! rigging a mesh in the background, and reloading the open file when it changes on disk.

use super::*;

impl Running {
    /// Opens `path`, keeping the current score when it cannot be read (the error goes to the
    /// status line).
    pub(super) fn open_file(&mut self, path: &Path) {
        if file_kind(path) == FileKind::Mesh {
            self.open_mesh(path);
            return;
        }
        if crate::stage::files::is_music_path(path) {
            self.rehearsal.open_music(path, &self.player, &mut self.ui_state);
            return;
        }
        if let Some(refusal) = self.ui_state.edit.unsaved_refusal() {
            self.ui_state.status = Some(refusal);
            return;
        }
        match open_path(path, &self.player.model().proportions) {
            Ok(opened) => {
                self.ui_state.edit.close();
                self.rehearsal.store_score(&self.player);
                self.player.replace_opened(opened, ScoreSource::File(path.to_path_buf()));
                self.player.playback.go_to_start();
                self.rehearsal.open_score(&mut self.player, &mut self.ui_state);
                self.player.playback.play();
                self.recent.remember(path);
                self.ui_state.recent = self.recent.paths().to_vec();
                self.ui_state.status = None;
                let clock_secs = self.started.elapsed().as_secs_f64();
                self.watch = Some(FileWatch::new(path.to_path_buf(), clock_secs));
                self.reframe();
                self.window.set_title(&format!("labanplay — {}", self.player.source().label()));
            }
            Err(error) => self.ui_state.status = Some(error.to_string()),
        }
    }

    /// Shows the native file dialog (XDG desktop portal, or zenity) on its own thread so the
    /// window keeps drawing; the answer is picked up by [`Self::poll_dialog`].
    pub(super) fn open_dialog(&mut self, purpose: BrowsePurpose) {
        if self.dialog.is_some() {
            return;
        }
        if self.builtin_browser || purpose.saves() {
            self.open_browser(purpose);
            return;
        }
        let (sender, receiver) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new().name("labanplay file dialog".to_owned()).spawn(move || {
            let opened_at = Instant::now();
            let dialog = match purpose {
                BrowsePurpose::Music => rfd::FileDialog::new()
                    .set_title("Open a music track")
                    .add_filter("Music", &crate::stage::files::MUSIC_EXTENSIONS),
                BrowsePurpose::Any => rfd::FileDialog::new()
                    .set_title("Open a Labanotation score")
                    .add_filter("Labanotation scores", &["lbn", "lw", "json"]),
                BrowsePurpose::Mesh | BrowsePurpose::Save => rfd::FileDialog::new()
                    .set_title("Open a humanoid mesh to dance")
                    .add_filter("Meshes", &["obj", "gltf", "glb", "ply", "stl"]),
            };
            let picked = dialog.add_filter("All files", &["*"]).pick_file();
            // The window may have closed meanwhile; then nobody needs the answer.
            let _ = sender.send((picked, opened_at.elapsed().as_secs_f64()));
        });
        match spawned {
            Ok(_) => self.dialog = Some((purpose, receiver)),
            Err(_) => self.open_browser(purpose),
        }
    }

    /// Opens the built-in file browser for `purpose`, in the folder of the file open now (else
    /// the working folder).
    pub(super) fn open_browser(&mut self, purpose: BrowsePurpose) {
        let open_file = match self.player.source() {
            ScoreSource::File(path) => path.parent().map(Path::to_path_buf),
            ScoreSource::Demo(_) => None,
        };
        let dir = open_file
            .filter(|d| d.is_dir())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        self.ui_state.browser = Some(FileBrowser::open(purpose, &dir));
    }

    /// Opens `path`, chosen for `purpose`.
    pub(super) fn open_for(&mut self, purpose: BrowsePurpose, path: &Path) {
        match purpose {
            BrowsePurpose::Music => self.rehearsal.open_music(path, &self.player, &mut self.ui_state),
            BrowsePurpose::Any => self.open_file(path),
            BrowsePurpose::Mesh => self.open_mesh(path),
            BrowsePurpose::Save => self.save_score(Some(path.to_path_buf())),
        }
    }

    /// Rigs `path` in the background (or takes it from the rig cache); [`Self::poll_mesh`] makes
    /// it the dancer when it is ready.
    pub(super) fn open_mesh(&mut self, path: &Path) {
        if let Some(job) = &self.mesh_job {
            self.ui_state.status = Some(format!("still rigging {}", job.name()));
            return;
        }
        match MeshJob::start(path, default_cache_dir()) {
            Ok(job) => {
                self.ui_state.status = Some(format!("rigging {}…", job.name()));
                self.mesh_job = Some(job);
            }
            Err(error) => self.ui_state.status = Some(error.to_string()),
        }
    }

    pub(super) fn poll_mesh(&mut self, clock_secs: f64) {
        let Some(job) = &self.mesh_job else { return };
        let Some(result) = job.poll() else {
            let dots = ".".repeat(1 + (clock_secs * 2.0) as usize % 3);
            self.ui_state.status = Some(format!("rigging {}{dots} (the dance goes on meanwhile)", job.name()));
            return;
        };
        let (path, name) = (job.path.clone(), job.name());
        self.mesh_job = None;
        let ready = result
            .map_err(|e| e.to_string())
            .and_then(|(model, origin)| self.gpu.set_model(&model).map(|()| (model, origin)));
        match ready {
            Ok((model, origin)) => {
                let slot = match self.mesh_models.iter().position(|(p, _)| *p == path) {
                    Some(i) => i,
                    None => {
                        self.mesh_models.push((path, model.clone()));
                        self.ui_state.model_names.push(name.clone());
                        self.mesh_models.len() - 1
                    }
                };
                self.ui_state.model_index = self.models.len() + slot;
                self.player.set_model(model);
                self.reframe();
                self.ui_state.status = Some(match origin {
                    Origin::Cache => format!("{name}: from the rig cache"),
                    Origin::Rigged => format!("{name}: rigged"),
                });
            }
            Err(error) => self.ui_state.status = Some(error),
        }
    }

    pub(super) fn poll_dialog(&mut self) {
        let Some((purpose, receiver)) = &self.dialog else { return };
        let purpose = *purpose;
        // The dialog's thread times its own answer: a slow frame here must not make a dialog that
        // never showed look like one the user cancelled.
        match receiver.try_recv() {
            Ok((Some(path), _)) => {
                self.dialog = None;
                self.open_for(purpose, &path);
            }
            Ok((None, shown_secs)) if shown_secs >= UNSHOWN_DIALOG_SECS => {
                self.dialog = None;
                self.ui_state.status = Some("no file chosen".to_owned());
            }
            Ok((None, _)) | Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                self.dialog = None;
                self.builtin_browser = true;
                self.open_browser(purpose);
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
        }
    }

    pub(super) fn hot_reload(&mut self, clock_secs: f64) {
        let Some(watch) = &mut self.watch else { return };
        if !watch.poll(clock_secs) {
            return;
        }
        let path = watch.path().to_path_buf();
        if self.ui_state.edit.is_dirty() {
            self.ui_state.status = Some(format!("{} changed on disk; your unsaved edits are kept", path.display()));
            return;
        }
        match open_path(&path, &self.player.model().proportions) {
            Ok(opened) => {
                self.ui_state.edit.close();
                self.player.replace_opened(opened, ScoreSource::File(path.clone()));
                let message = format!("reloaded {}", path.display());
                eprintln!("labanplay: {message}");
                self.ui_state.status = Some(message);
            }
            Err(error) => {
                let message = format!("reload failed: {error}");
                eprintln!("labanplay: {message}");
                self.ui_state.status = Some(message);
            }
        }
    }
}
