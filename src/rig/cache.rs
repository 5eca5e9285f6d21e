//! Rigged meshes cached by content hash: rigging takes a fraction of a second to seconds, so the
//! result (the mesh, weights, proportions and bind pose) is kept as JSON in a cache folder and a
//! second open of the same file — by `export`, `render` or the player — reads it back instead.
//!
//! The key is FNV-1a of the file's bytes and a format version (a glTF's external `.bin` is not part
//! of it). The folder is `$LABANPLAY_CACHE_DIR`, else `$XDG_CACHE_HOME/labanplay/rigs`, else
//! `~/.cache/labanplay/rigs`. A damaged entry is rigged again.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};

use super::rigged::bind_matrices;
use super::{RigError, RigOptions, rig_file};
use crate::body::lbs::VertexInfluences;
use crate::body::mesh::TriMesh;
use crate::body::rig::Rig;
use crate::pose::fk::Pose;
use crate::pose::skeleton::{JOINT_COUNT, Proportions, Skeleton};

/// Environment variable naming the cache folder (tests; overrides the platform's).
pub const CACHE_DIR_ENV: &str = "LABANPLAY_CACHE_DIR";
/// Bumped whenever rigging or the cached format changes, so old entries are not reused.
pub const RIG_CACHE_VERSION: u64 = 3;

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

/// The cache entry of a file with these bytes in `dir`.
pub fn entry_path(dir: &Path, bytes: &[u8]) -> PathBuf {
    dir.join(format!("{:016x}.json", content_hash(bytes)))
}

/// Where a rig came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Read from the cache.
    Cache,
    /// Rigged now (and stored when a cache folder exists).
    Rigged,
}

/// What is kept of a rigged mesh: enough to skin and animate it (the skeleton and bind matrices
/// are rebuilt from the proportions and the bind pose).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Entry {
    proportions: Proportions,
    pelvis_at_bind: [f32; 3],
    local_rot_at_bind: Vec<[f32; 4]>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    triangles: Vec<[u32; 3]>,
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
}

impl Entry {
    fn of(rig: &Rig) -> Entry {
        Entry {
            proportions: *rig.proportions(),
            pelvis_at_bind: rig.bind_pose.pelvis_in_world.to_array(),
            local_rot_at_bind: rig.bind_pose.local_rot.iter().map(|q| q.to_array()).collect(),
            positions: rig.mesh.positions_in_model.iter().map(|p| p.to_array()).collect(),
            normals: rig.mesh.normals_in_model.iter().map(|n| n.to_array()).collect(),
            triangles: rig.mesh.triangles.clone(),
            joints: rig.influences.iter().map(|i| i.joints).collect(),
            weights: rig.influences.iter().map(|i| i.weights).collect(),
        }
    }

    /// The rig back, or `None` when the entry is inconsistent (a damaged or foreign file).
    fn to_rig(&self) -> Option<Rig> {
        let n = self.positions.len();
        let consistent = self.proportions.check().is_ok()
            && self.local_rot_at_bind.len() == JOINT_COUNT
            && self.normals.len() == n
            && self.joints.len() == n
            && self.weights.len() == n
            && !self.triangles.is_empty()
            && self.triangles.iter().flatten().all(|&i| (i as usize) < n)
            && self.joints.iter().flatten().all(|&j| usize::from(j) < JOINT_COUNT);
        if !consistent {
            return None;
        }
        let skeleton = Skeleton::new(&self.proportions);
        let mut bind_pose = Pose::rest(&skeleton);
        bind_pose.pelvis_in_world = Vec3::from_array(self.pelvis_at_bind);
        for (q, r) in bind_pose.local_rot.iter_mut().zip(&self.local_rot_at_bind) {
            *q = Quat::from_array(*r);
        }
        let (model_from_joint_at_bind, joint_from_model_at_bind) = bind_matrices(&skeleton, &bind_pose);
        Some(Rig {
            name: "rigged-mesh",
            skeleton,
            bind_pose,
            mesh: TriMesh {
                positions_in_model: self.positions.iter().map(|&p| Vec3::from_array(p)).collect(),
                normals_in_model: self.normals.iter().map(|&p| Vec3::from_array(p)).collect(),
                triangles: self.triangles.clone(),
            },
            influences: self
                .joints
                .iter()
                .zip(&self.weights)
                .map(|(&joints, &weights)| VertexInfluences { joints, weights })
                .collect(),
            model_from_joint_at_bind,
            joint_from_model_at_bind,
        })
    }
}

/// The rig of mesh file `path`, from `cache_dir` when it holds this content, else rigged now
/// (and stored there; a cache that cannot be written only costs the next open its time). A
/// damaged entry is rigged again and overwritten.
pub fn cached_rig(path: &Path, cache_dir: Option<&Path>) -> Result<(Rig, Origin), RigError> {
    let bytes =
        std::fs::read(path).map_err(|e| RigError::Io { path: path.display().to_string(), message: e.to_string() })?;
    let entry = cache_dir.map(|dir| entry_path(dir, &bytes));
    if let Some(file) = &entry
        && let Ok(text) = std::fs::read(file)
        && let Ok(cached) = serde_json::from_slice::<Entry>(&text)
        && let Some(rig) = cached.to_rig()
    {
        return Ok((rig, Origin::Cache));
    }
    let raw = super::import::read_mesh(&bytes, path.extension().and_then(|e| e.to_str()), path.parent())?;
    let rig = super::rig_mesh(&raw, &RigOptions::default(), &mut |_, _| {})?.to_body_rig();
    // Stored as it will be read back, so a cached open gives the same rig bit for bit.
    let stored = Entry::of(&rig);
    let rig = stored.to_rig().unwrap_or(rig);
    if let Some(file) = &entry {
        let _ = store(file, &stored);
    }
    Ok((rig, Origin::Rigged))
}

fn store(file: &Path, entry: &Entry) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_vec(entry).map_err(std::io::Error::other)?;
    let tmp = file.with_extension("json.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, file)
}

/// [`cached_rig`] in [`default_cache_dir`]; `rig_file` when no cache folder is known.
pub fn cached_rig_default(path: &Path) -> Result<(Rig, Origin), RigError> {
    match default_cache_dir() {
        Some(dir) => cached_rig(path, Some(&dir)),
        None => Ok((rig_file(path, &RigOptions::default())?.to_body_rig(), Origin::Rigged)),
    }
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
