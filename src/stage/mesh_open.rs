//! Opening a mesh file as the dancer in the player: rigging runs on its own thread (through
//! the rig cache) so the window keeps playing; the app polls the job each frame.

use crate::stage::dancer_mesh::{DancerModel, ModelError};
use crate::stage::mesh_cache::{Origin, cached_mesh_model};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};

/// What a finished job gives: the model and where it came from, or why it failed.
pub type MeshResult = Result<(DancerModel, Origin), ModelError>;

/// A mesh being rigged in the background.
#[derive(Debug)]
pub struct MeshJob {
    /// The mesh file.
    pub path: PathBuf,
    receiver: Receiver<MeshResult>,
}

impl MeshJob {
    /// Starts rigging `path` (cached in `cache_dir`).
    pub fn start(path: &Path, cache_dir: Option<PathBuf>) -> Result<MeshJob, ModelError> {
        let (sender, receiver) = std::sync::mpsc::channel();
        let job_path = path.to_path_buf();
        std::thread::Builder::new()
            .name("labanplay rig".to_owned())
            .spawn(move || {
                let _ = sender.send(cached_mesh_model(&job_path, cache_dir.as_deref()));
            })
            .map_err(|source| ModelError::RigThread { path: path.to_path_buf(), source })?;
        Ok(MeshJob { path: path.to_path_buf(), receiver })
    }

    /// The result once the job is done.
    pub fn poll(&self) -> Option<MeshResult> {
        match self.receiver.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(ModelError::RigStopped { path: self.path.clone() })),
        }
    }

    /// The file's name, for the status line.
    pub fn name(&self) -> String {
        self.path.file_name().map_or_else(|| self.path.display().to_string(), |f| f.to_string_lossy().into_owned())
    }
}
