//! The window's GPU side: surface configuration, the stage renderer and its texture, egui
//! painting into the surface, and saving a frame as PNG (the same frame painted into an
//! offscreen texture and read back).

use crate::render::{AdapterPreference, Gpu, Renderer};

use crate::stage::dancer_mesh::DancerModel;
use crate::stage::{MeshId, OrbitCamera, Scene};
use crate::viewer::gpu_frame::{
    EguiPainter, StageTexture, offscreen_colour_texture, read_texture, stage_renderer_config,
};
use std::sync::Arc;
use winit::window::Window;

/// Background behind the UI (only visible where no panel covers the window).
const CLEAR: wgpu::Color = wgpu::Color { r: 0.02, g: 0.02, b: 0.025, a: 1.0 };

/// Everything the window draws with.
pub struct WindowGpu {
    /// Device and queue.
    pub gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    stage_renderer: Renderer,
    stage: Option<(StageTexture, egui::TextureId)>,
    mesh_id: MeshId,
    painter: EguiPainter,
}

impl std::fmt::Debug for WindowGpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowGpu").field("format", &self.config.format).finish_non_exhaustive()
    }
}

/// What [`WindowGpu::draw`] needs from the frame.
pub struct FrameInput<'a> {
    /// The scene to draw on the stage.
    pub scene: &'a Scene,
    /// The stage camera.
    pub camera: &'a OrbitCamera,
    /// egui's tessellated output.
    pub jobs: &'a [egui::ClippedPrimitive],
    /// egui texture changes (drained).
    pub textures_delta: &'a mut egui::TexturesDelta,
    /// Points → pixels.
    pub pixels_per_point: f32,
    /// Also paint this frame offscreen and return it.
    pub capture: bool,
}

impl WindowGpu {
    /// Opens the GPU for `window` and uploads `model`'s mesh.
    pub fn new(instance: wgpu::Instance, window: Arc<Window>, model: &DancerModel) -> Result<WindowGpu, String> {
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| format!("cannot create a drawing surface for the window: {e}"))?;
        let gpu = Gpu::from_instance(instance, Some(&surface), AdapterPreference::HardwareFirst)
            .map_err(|e| format!("cannot open the GPU for the window: {e}"))?;
        // wgpu's default handler panics on a GPU validation error; the window reports the first
        // few on stderr and keeps running instead.
        let reported = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        gpu.device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            if reported.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 5 {
                eprintln!("labanplay: GPU error (the frame may be incomplete): {error}");
            }
        }));
        let size = window.inner_size();
        let caps = surface.get_capabilities(&gpu.adapter);
        // egui prefers a gamma-space (non-sRGB) framebuffer; take one when offered.
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| matches!(f, wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Rgba8Unorm))
            .or_else(|| caps.formats.first().copied())
            .ok_or_else(|| format!("the adapter `{}` cannot present to this window", gpu.adapter_summary()))?;
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| format!("the adapter `{}` cannot present to this window", gpu.adapter_summary()))?;
        config.format = format;
        config.present_mode = if caps.present_modes.contains(&wgpu::PresentMode::Fifo) {
            wgpu::PresentMode::Fifo
        } else {
            config.present_mode
        };
        surface.configure(&gpu.device, &config);
        let mut stage_renderer = Renderer::new(&gpu.device, stage_renderer_config(&gpu));
        let mesh_id = stage_renderer
            .upload_mesh(&gpu.device, &model.mesh)
            .map_err(|e| format!("cannot upload the dancer model `{}`: {e}", model.name))?;
        let painter = EguiPainter::new(&gpu.device, format);
        Ok(WindowGpu { gpu, surface, config, stage_renderer, stage: None, mesh_id, painter })
    }

    /// The uploaded dancer mesh.
    pub fn mesh_id(&self) -> MeshId {
        self.mesh_id
    }

    /// Uploads another mesh (a crowd's low-detail body) beside the dancer's.
    pub fn upload_extra_mesh(&mut self, model: &DancerModel) -> Result<MeshId, String> {
        self.stage_renderer
            .upload_mesh(&self.gpu.device, &model.mesh)
            .map_err(|e| format!("cannot upload the model `{}`: {e}", model.name))
    }

    /// Replaces the dancer mesh.
    pub fn set_model(&mut self, model: &DancerModel) -> Result<(), String> {
        let new_id = self
            .stage_renderer
            .upload_mesh(&self.gpu.device, &model.mesh)
            .map_err(|e| format!("cannot upload the dancer model `{}`: {e}", model.name))?;
        self.stage_renderer.remove_mesh(self.mesh_id);
        self.mesh_id = new_id;
        Ok(())
    }

    /// The largest texture side (for egui).
    pub fn max_texture_side(&self) -> usize {
        self.gpu.device.limits().max_texture_dimension_2d as usize
    }

    /// Reconfigures the surface after a resize (zero sizes are skipped).
    pub fn resize(&mut self, width: u32, height: u32) {
        if width > 0 && height > 0 {
            self.config.width = width;
            self.config.height = height;
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    /// The egui texture showing the stage, once it exists.
    pub fn stage_texture_id(&self) -> Option<egui::TextureId> {
        self.stage.as_ref().map(|(_, id)| *id)
    }

    /// Makes the stage texture `size_px` (re-registering it with egui when it changes).
    pub fn ensure_stage_size(&mut self, size_px: [u32; 2]) {
        let size_px = size_px.map(|s| s.max(1));
        if self.stage.as_ref().is_some_and(|(texture, _)| texture.size_px() == size_px) {
            return;
        }
        let texture = StageTexture::new(&self.gpu.device, size_px);
        let filter = wgpu::FilterMode::Linear;
        let renderer = self.painter.renderer_mut();
        let id = match &self.stage {
            Some((_, id)) => {
                renderer.update_egui_texture_from_wgpu_texture(&self.gpu.device, texture.view(), filter, *id);
                *id
            }
            None => renderer.register_native_texture(&self.gpu.device, texture.view(), filter),
        };
        self.stage = Some((texture, id));
    }

    /// Draws the stage and the UI into the window; with `capture`, also returns the same frame
    /// as an image. Frames the surface cannot give are skipped (`Ok(None)`).
    pub fn draw(&mut self, frame: FrameInput<'_>) -> Result<Option<image::RgbaImage>, String> {
        let freed = self.painter.update_textures(&self.gpu, frame.textures_delta);
        let surface_texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture) | wgpu::CurrentSurfaceTexture::Suboptimal(texture) => texture,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.gpu.device, &self.config);
                self.painter.free_textures(&freed);
                return Ok(None);
            }
            _ => {
                self.painter.free_textures(&freed);
                return Ok(None);
            }
        };
        let view = surface_texture.texture.create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("labanplay window frame") });
        if let Some((stage, _)) = &self.stage {
            stage
                .draw(&self.gpu, &mut self.stage_renderer, &mut encoder, frame.scene, frame.camera)
                .map_err(|e| format!("cannot draw the stage: {e}"))?;
        }
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [self.config.width, self.config.height],
            pixels_per_point: frame.pixels_per_point,
        };
        let extra = self.painter.prepare(&self.gpu, &mut encoder, frame.jobs, &screen);
        self.painter.paint(&mut encoder, &view, frame.jobs, &screen, CLEAR);
        let capture = frame.capture.then(|| {
            let texture = offscreen_colour_texture(&self.gpu.device, self.config.format, screen.size_in_pixels);
            let capture_view = texture.create_view(&wgpu::TextureViewDescriptor::default());
            self.painter.paint(&mut encoder, &capture_view, frame.jobs, &screen, CLEAR);
            texture
        });
        self.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
        self.gpu.queue.present(surface_texture);
        self.painter.free_textures(&freed);
        match capture {
            Some(texture) => {
                read_texture(&self.gpu, &texture).map(Some).map_err(|e| format!("cannot read the frame back: {e}"))
            }
            None => Ok(None),
        }
    }
}
