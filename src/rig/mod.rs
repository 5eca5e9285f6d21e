//! Any humanoid mesh rigged to the project's skeleton: import (OBJ, glTF/GLB, PLY, STL), unit and
//! axis detection, repair (weld, degenerate faces, holes, a closed voxel proxy when the mesh cannot
//! be mended), skeleton embedding after Baran & Popović's Pinocchio, bone-heat weights.
//!
//! Pipeline: [`import::read_mesh`] → [`frame::detect_frame`] → [`repair::repair`] →
//! [`voxel::VoxelBody`] → [`embed::embed_skeleton`] → [`rigged::rig_mesh`]. Pure CPU code; the CLI
//! (`labanplay rig`) and the viewer (`--model PATH`) call [`rig_file`].
//!
//! - Import: the format by content, the extension breaks ties; a skinned glTF mesh is read in its
//!   bind space, static nodes with their transforms. Empty files, non-finite coordinates,
//!   out-of-range indices and truncated files are errors naming the format.
//! - Bounds: a mesh of fewer than [`rigged::MIN_BODY_VERTICES`] welded vertices or
//!   [`rigged::MIN_BODY_TRIANGLES`] usable faces cannot shape a body and is refused right after
//!   repair, before the voxel body and the skeleton search.
//! - Frame: up is Y when it is one of the two largest extents, else Z (the smallest is the depth; a
//!   glTF is never turned over, other files are when the top is far wider than the feet);
//!   left–right is the wider horizontal extent; forward is where the toes point; metres for 0.3–3
//!   units tall, inches for 40–118, centimetres for 30–300, millimetres for 300–3000, else scaled
//!   to 1.75 m. `--up`,
//!   `--forward` and `--height-m` override.
//! - Repair (each step counted in the report): weld seams, drop degenerate and duplicate faces,
//!   orient each piece consistently and outwards, fill holes of at most 64 edges. A mesh that is
//!   not one closed shell gets a closed proxy: the voxel body (inside by winding-number votes along
//!   three axes, cavities filled, the largest piece kept) polygonised by marching tetrahedra;
//!   weights are solved on it and carried back to the original vertices (inverse-distance blend of
//!   the 4 nearest proxy vertices).
//! - Embedding gives the skeleton's proportions (the score's motion uses the mesh's own leg lengths
//!   and foot) and a bind pose that aims every bone at the embedded joints. A body whose hips are
//!   below half its height steps like a body of these legs at ordinary proportions
//!   (`animation::STEP_LEG_FRACTION`).
//! - Weights: the bone-heat solve of [`crate::body::heat`], 4 influences, on the repaired mesh or
//!   the proxy.

pub mod cache;
pub mod embed;
pub mod frame;
pub mod import;
pub mod proxy;
pub mod repair;
pub mod rigged;
pub mod voxel;

use std::path::Path;

pub use frame::{Axis, FrameOptions, InputFrame};
pub use rigged::{RigOptions, RiggedMesh, rig_mesh};

use crate::body::BodyError;

/// Why a mesh could not be read or rigged. Every message names the file's problem plainly.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RigError {
    /// The file could not be read.
    #[error("{path}: cannot read: {message}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's reason.
        message: String,
    },
    /// The file is not a mesh in any format we read, or is malformed.
    #[error("malformed {format} file: {message}")]
    Malformed {
        /// `OBJ`, `glTF`, `PLY`, `STL` or `mesh` when unknown.
        format: &'static str,
        /// What was wrong.
        message: String,
    },
    /// The file has no triangles (after triangulating polygons).
    #[error("the {format} file has no triangles{detail}")]
    Empty {
        /// The format.
        format: &'static str,
        /// More detail (", only points and lines", …), may be empty.
        detail: String,
    },
    /// The mesh's numbers make no sense as a body (non-finite, flat, enormous).
    #[error("the mesh is not usable as a body: {0}")]
    Absurd(String),
    /// An option is invalid (`--up`, `--forward`, `--height-m`).
    #[error("invalid option: {0}")]
    BadOption(String),
    /// The mesh was read but no humanoid skeleton fits it.
    #[error("cannot rig this mesh: {0}")]
    Unriggable(String),
    /// The skinning weights failed.
    #[error("skinning weights failed: {0}")]
    Weights(#[from] BodyError),
}

/// Reads, repairs, embeds and skins the mesh at `path` (see [`rig_mesh`]).
pub fn rig_file(path: &Path, options: &RigOptions) -> Result<RiggedMesh, RigError> {
    let bytes =
        std::fs::read(path).map_err(|e| RigError::Io { path: path.display().to_string(), message: e.to_string() })?;
    let raw = import::read_mesh(&bytes, path.extension().and_then(|e| e.to_str()), path.parent())?;
    rig_mesh(&raw, options, &mut |_, _| {})
}

/// True when `path` names a mesh file this module reads (by extension).
pub fn is_mesh_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".obj", ".gltf", ".glb", ".ply", ".stl"].iter().any(|ext| lower.ends_with(ext))
}
