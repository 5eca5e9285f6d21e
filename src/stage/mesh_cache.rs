//! Rigged mesh models for the player and `render`, through the pure rig cache
//! ([`crate::rig::cache`], shared with `export`): a second open of the same file is instant.

use crate::stage::dancer_mesh::{DancerModel, ModelError, skinned_mesh};
use std::path::Path;

pub use crate::rig::cache::{
    CACHE_DIR_ENV, Origin, RIG_CACHE_VERSION, cache_dir_from, content_hash, default_cache_dir,
};

/// The model of mesh file `path`, from `cache_dir` when it holds this content, else rigged
/// (and stored there). A damaged cache entry is rigged again and overwritten.
pub fn cached_mesh_model(path: &Path, cache_dir: Option<&Path>) -> Result<(DancerModel, Origin), ModelError> {
    let (rig, origin) = crate::rig::cache::cached_rig(path, cache_dir)
        .map_err(|source| ModelError::MeshFile { path: path.to_path_buf(), source })?;
    let name = path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
    let mesh = skinned_mesh(&rig.mesh, &rig.influences);
    mesh.validate()?;
    let model = DancerModel {
        name,
        proportions: *rig.proportions(),
        mesh,
        joint_from_model_at_bind: rig.joint_from_model_at_bind.to_vec(),
    };
    Ok((model, origin))
}
