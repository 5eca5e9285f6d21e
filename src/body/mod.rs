//! Dancer bodies: procedurally generated closed meshes, bone-heat skinning weights and CPU
//! linear blend skinning. Pure CPU code over plain data (no skeleton type, no GPU crates):
//! the caller hands in joint indices, bone segments and palettes as plain arrays.
//!
//! Pipeline: [`models::builtin_models`] (a [`implicit::BodyShape`] of blended segment volumes
//! plus joint rest positions and [`heat::BoneSegment`]s) → [`polygonise::polygonise`] (marching
//! tetrahedra + relaxation → closed 2-manifold [`mesh::TriMesh`]) → [`heat::heat_weights`]
//! (Baran & Popović 2007) → [`lbs::skin`] every frame with a palette of
//! `world_from_joint × joint_from_bind` matrices. [`segment`] holds the point–segment
//! distance the rig's confidence shares.
//!
//! Conventions (rest pose): metres, +Y up, the dancer faces +Z, feet on y = 0, the dancer's
//! right is −X (so "left" joints have x > 0).

pub mod aabb_tree;
pub mod heat;
pub mod implicit;
pub mod lbs;
pub mod mesh;
pub mod models;
pub mod polygonise;
pub mod rig;
pub mod segment;

/// Errors of the body module (mesh generation, skinning weights, skinning).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BodyError {
    /// The shape has no volumes, or a volume has a non-finite or non-positive size.
    #[error("invalid body shape: {0}")]
    InvalidShape(String),
    /// The sampling grid would be too large (cell size too small for the shape's extent).
    #[error("sampling grid of {cells} cells exceeds the limit of {limit}")]
    GridTooLarge {
        /// Number of grid points requested.
        cells: usize,
        /// Largest allowed number of grid points.
        limit: usize,
    },
    /// The iso-surface extraction found no surface.
    #[error("the implicit body has no surface on the sampling grid")]
    NoSurface,
    /// A mesh index, joint index or array length is inconsistent.
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// The mesh is not closed and 2-manifold where that is required.
    #[error("mesh is not a closed 2-manifold: {0}")]
    NotManifold(String),
    /// The sparse factorisation failed (matrix not positive definite).
    #[error("sparse solver failed: {0}")]
    Solver(String),
}
