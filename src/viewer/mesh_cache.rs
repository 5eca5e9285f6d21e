//! Rigged mesh models cached by content hash: rigging a mesh takes seconds, so the result (the
//! skinned mesh, its proportions and bind matrices) is kept as JSON in the cache folder and a
//! second open of the same file is instant. Keyed by the file's bytes (FNV-1a 64) and a version.

use crate::viewer::dancer_mesh::DancerModel;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Environment variable naming the cache folder (tests; overrides the platform's).
pub const CACHE_DIR_ENV: &str = "LABANPLAY_CACHE_DIR";
/// Bumped whenever rigging or the cached format changes, so old entries are not reused.
pub const RIG_CACHE_VERSION: u64 = 1;

/// Where rigged models are cached: [`CACHE_DIR_ENV`], else `$XDG_CACHE_HOME/labanplay/rigs`,
/// else `$HOME/.cache/labanplay/rigs`; `None` when none is set.
pub fn cache_dir_from(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    set(CACHE_DIR_ENV)
        .or_else(|| set("XDG_CACHE_HOME").map(|d| d.join("labanplay").join("rigs")))
        .or_else(|| set("HOME").map(|h| h.join(".cache").join("labanplay").join("rigs")))
}

/// [`cache_dir_from`] the process environment.
pub fn default_cache_dir() -> Option<PathBuf> {
    cache_dir_from(|name| std::env::var_os(name))
}

/// FNV-1a 64 of `bytes`, seeded with [`RIG_CACHE_VERSION`].
pub fn content_hash(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64 ^ RIG_CACHE_VERSION;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Where the model came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Read from the cache.
    Cache,
    /// Rigged now (and stored when a cache folder exists).
    Rigged,
}

/// The model of mesh file `path`, from `cache_dir` when it holds this content, else rigged
/// (and stored there). A damaged cache entry is rigged again and overwritten.
pub fn cached_mesh_model(path: &Path, cache_dir: Option<&Path>) -> Result<(DancerModel, Origin), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let name = path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
    let entry = cache_dir.map(|dir| dir.join(format!("{:016x}.json", content_hash(&bytes))));
    if let Some(entry) = &entry
        && let Ok(text) = std::fs::read(entry)
        && let Ok(mut model) = serde_json::from_slice::<DancerModel>(&text)
        && model.mesh.validate().is_ok()
        && model.joint_from_bind.len() == crate::pose::skeleton::JOINT_COUNT
    {
        model.name = name;
        return Ok((model, Origin::Cache));
    }
    let model = super::dancer_mesh::rig_mesh_model(path)?;
    if let Some(entry) = &entry {
        // A cache that cannot be written only costs the next open its time.
        let _ = store(entry, &model);
    }
    Ok((model, Origin::Rigged))
}

fn store(entry: &Path, model: &DancerModel) -> std::io::Result<()> {
    if let Some(dir) = entry.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_vec(model).map_err(std::io::Error::other)?;
    let tmp = entry.with_extension("json.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_folder_follows_the_environment_and_the_hash_the_bytes() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
        };
        assert_eq!(cache_dir_from(env(&[(CACHE_DIR_ENV, "/c"), ("HOME", "/h")])), Some(PathBuf::from("/c")));
        assert_eq!(cache_dir_from(env(&[("XDG_CACHE_HOME", "/x")])), Some(PathBuf::from("/x/labanplay/rigs")));
        assert_eq!(cache_dir_from(env(&[("HOME", "/h")])), Some(PathBuf::from("/h/.cache/labanplay/rigs")));
        assert_eq!(cache_dir_from(env(&[])), None);
        assert_ne!(content_hash(b"v 0 0 0"), content_hash(b"v 0 0 1"));
        assert_eq!(content_hash(b"same"), content_hash(b"same"));
    }
}
