//! The one error type of the renderer: what failed on the GPU side and, where a person can
//! fix it (missing drivers, a bad mesh), what to do about it.

use crate::stage::scene::MeshId;

/// Shell command that installs the software rasterisers the headless renderer can fall back to.
pub const SOFTWARE_RENDERER_INSTALL_HINT: &str = "install a software renderer: \
`apt-get install mesa-vulkan-drivers libvulkan1` (Vulkan lavapipe) or \
`apt-get install libegl1 libgl1-mesa-dri` (OpenGL llvmpipe)";

/// Everything that can go wrong while setting up the GPU or drawing a frame.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No graphics adapter at all could be opened (no GPU and no software rasteriser).
    #[error("no usable graphics adapter found ({details}); {hint}", hint = SOFTWARE_RENDERER_INSTALL_HINT)]
    NoAdapter {
        /// What was tried and why each candidate was rejected.
        details: String,
    },
    /// An adapter was found but refused to open a device.
    #[error("the graphics adapter `{adapter}` could not open a device: {source}")]
    RequestDevice {
        /// Adapter name and backend.
        adapter: String,
        /// wgpu's reason.
        #[source]
        source: wgpu::RequestDeviceError,
    },
    /// A mesh handed to [`crate::render::Renderer::upload_mesh`] is inconsistent.
    #[error("invalid skinned mesh: {reason}")]
    InvalidMesh {
        /// Which rule the mesh breaks (attribute counts, index range, non-finite values).
        reason: String,
    },
    /// A dancer refers to a mesh that was never uploaded to this renderer.
    #[error("dancer {dancer_index} refers to unknown mesh {mesh_id:?}")]
    UnknownMesh {
        /// Position of the figure: dancers first, then [`crate::stage::Scene::instances`].
        dancer_index: usize,
        /// The unknown id.
        mesh_id: MeshId,
    },
    /// An instance refers to a pose the scene does not have.
    #[error("dancer {dancer_index} refers to pose {pose} but the scene has {poses} poses")]
    UnknownPose {
        /// Position of the figure: dancers first, then [`crate::stage::Scene::instances`].
        dancer_index: usize,
        /// The pose asked for.
        pose: u32,
        /// How many the scene has.
        poses: usize,
    },
    /// A dancer's palette has fewer matrices than its mesh's joint indices need.
    #[error(
        "dancer {dancer_index}: mesh {mesh_id:?} uses joint indices up to {needed_len} - 1 \
         but the palette has {palette_len} matrices"
    )]
    PaletteTooShort {
        /// Position of the dancer in [`crate::stage::Scene::dancers`].
        dancer_index: usize,
        /// The dancer's mesh.
        mesh_id: MeshId,
        /// Palette length the mesh needs (largest joint index + 1).
        needed_len: usize,
        /// Palette length given.
        palette_len: usize,
    },
    /// The scene needs bigger GPU buffers than the device allows.
    #[error("the scene's {what} need {bytes} bytes but the device allows {limit_bytes}")]
    SceneTooLarge {
        /// Which data overflowed.
        what: &'static str,
        /// Bytes needed.
        bytes: u64,
        /// The device limit in bytes.
        limit_bytes: u64,
    },
    /// A requested image or target size is zero or larger than the device allows.
    #[error("render size {width}x{height} px is invalid (each side must be 1..={max_side})")]
    InvalidSize {
        /// Requested width in pixels.
        width: u32,
        /// Requested height in pixels.
        height: u32,
        /// The device's largest 2D texture side.
        max_side: u32,
    },
    /// The renderer was built for a colour format that offscreen read-back cannot convert.
    #[error("offscreen read-back needs a renderer built for Rgba8UnormSrgb or Rgba8Unorm, not {format:?}")]
    UnsupportedReadbackFormat {
        /// The renderer's colour format.
        format: wgpu::TextureFormat,
    },
    /// Mapping the read-back buffer or waiting for the GPU failed.
    #[error("reading the rendered image back from the GPU failed: {reason}")]
    Readback {
        /// wgpu's reason.
        reason: String,
    },
    /// wgpu reported a validation or out-of-memory error while drawing (a renderer bug or an
    /// exhausted device).
    #[error("the GPU rejected a command: {reason}")]
    Gpu {
        /// wgpu's description.
        reason: String,
    },
}
