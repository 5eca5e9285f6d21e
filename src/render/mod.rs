//! GPU renderer (feature `viewer`): draws a stage floor, skinned dancers, floor marks, contact
//! shadows and lines into any texture view. It knows nothing about scores or motion — it takes
//! the plain scene description of [`crate::stage::scene`] (meshes, skinning palettes, floor
//! marks) and an orbit camera ([`crate::stage::camera`]).
//!
//! Draw recording overview:
//! 1. [`create_headless`] (or [`Gpu::from_instance`] with a window surface) opens a [`Gpu`].
//! 2. [`Renderer::new`] builds the pipelines for one colour format ([`RendererConfig`]; use
//!    [`RendererConfig::recommended_for`] to skip MSAA on software rasterisers);
//!    [`Renderer::upload_mesh`] turns a [`SkinnedMeshData`] into a [`MeshId`] once.
//! 3. Every frame: fill a [`Scene`] (dancers with palettes, or shared poses and their
//!    [`PoseInstance`]s, [`FloorMark`]s, [`ContactShadow`]s,
//!    [`Polyline`]s), call [`Renderer::prepare`] with an [`OrbitCamera`] and the target size, then
//!    [`Renderer::render`] into a command encoder and a texture view, and submit.
//! 4. Headless: [`render_to_image`] / [`OffscreenTarget`] do steps 3 and the read-back to an
//!    `image::RgbaImage`.
//!
//! Conventions: world metres, +Y up, floor at y = 0, audience at +Z; colours are linear RGBA.
//! Shaders live in `src/render/shaders/*.wgsl`.

pub mod error;
mod frame_data;
pub mod gpu;
mod gpu_data;
pub mod offscreen;
mod pipelines;
pub mod renderer;

pub use error::RenderError;
pub use gpu::{AdapterPreference, Gpu, create_headless, create_headless_with};
pub use offscreen::{OffscreenTarget, render_to_image};
pub use renderer::{Renderer, RendererConfig};

#[cfg(doc)]
use crate::stage::{ContactShadow, FloorMark, MeshId, OrbitCamera, Polyline, PoseInstance, Scene, SkinnedMeshData};
