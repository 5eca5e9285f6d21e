//! GPU plumbing shared by the window and the offscreen tests: the stage texture the 3D scene is
//! drawn into (shown by egui as an image), painting egui output into any texture view, reading
//! a texture back into an `image::RgbaImage`, and rendering a whole egui UI offscreen.

pub use crate::render::offscreen::{offscreen_colour_texture, read_texture};
use crate::render::{Gpu, RenderError, Renderer, RendererConfig};
use crate::stage::{OrbitCamera, Scene};

/// Colour format of the stage texture: gamma-encoded RGBA, what egui expects of user textures
/// (the renderer encodes sRGB itself for non-sRGB targets).
pub const STAGE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The 3D stage: a renderer drawing into a texture of the stage area's size, registered with
/// egui so the UI can show it.
#[derive(Debug)]
pub struct StageTexture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    size_px: [u32; 2],
}

impl StageTexture {
    /// A `size_px` texture (each side at least 1) usable as render target, egui image and copy
    /// source.
    pub fn new(device: &wgpu::Device, size_px: [u32; 2]) -> StageTexture {
        let max_side = device.limits().max_texture_dimension_2d.max(1);
        let size_px = size_px.map(|side| side.clamp(1, max_side));
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("labanplay stage texture"),
            size: wgpu::Extent3d { width: size_px[0], height: size_px[1], depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: STAGE_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        StageTexture { texture, view, size_px }
    }

    /// [width, height] in pixels.
    pub fn size_px(&self) -> [u32; 2] {
        self.size_px
    }

    /// The texture view (render target and egui image).
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// The texture (for read-back).
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
    }

    /// Records `scene` seen by `camera` into this texture with `renderer` (built for
    /// [`STAGE_FORMAT`]).
    pub fn draw(
        &self,
        gpu: &Gpu,
        renderer: &mut Renderer,
        encoder: &mut wgpu::CommandEncoder,
        scene: &Scene,
        camera: &OrbitCamera,
    ) -> Result<(), RenderError> {
        renderer.prepare(&gpu.device, &gpu.queue, scene, camera, self.size_px)?;
        renderer.render(encoder, &self.view);
        Ok(())
    }
}

/// The renderer configuration for the stage texture on `gpu`.
pub fn stage_renderer_config(gpu: &Gpu) -> RendererConfig {
    RendererConfig::recommended_for(gpu, STAGE_FORMAT)
}

/// Paints egui's output into texture views of one colour format.
pub struct EguiPainter {
    renderer: egui_wgpu::Renderer,
    format: wgpu::TextureFormat,
}

impl std::fmt::Debug for EguiPainter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EguiPainter").field("format", &self.format).finish_non_exhaustive()
    }
}

impl EguiPainter {
    /// A painter for views of `format` (no dithering, so frames are reproducible).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> EguiPainter {
        let options = egui_wgpu::RendererOptions { dithering: false, ..egui_wgpu::RendererOptions::default() };
        EguiPainter { renderer: egui_wgpu::Renderer::new(device, format, options), format }
    }

    /// The colour format it paints into.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// The underlying egui-wgpu renderer (to register native textures).
    pub fn renderer_mut(&mut self) -> &mut egui_wgpu::Renderer {
        &mut self.renderer
    }

    /// Uploads new and changed egui textures, draining `delta.set`; the ids in `delta.free` are
    /// drained into the returned list, to free with [`Self::free_textures`] after the frame.
    pub fn update_textures(&mut self, gpu: &Gpu, delta: &mut egui::TexturesDelta) -> Vec<egui::TextureId> {
        // Deltas of different textures are independent; those of one texture stay in order.
        for (id, image_deltas) in delta.set.drain() {
            for image_delta in &image_deltas {
                self.renderer.update_texture(&gpu.device, &gpu.queue, id, image_delta);
            }
        }
        delta.free.drain().collect()
    }

    /// Frees textures egui no longer uses.
    pub fn free_textures(&mut self, ids: &[egui::TextureId]) {
        for id in ids {
            self.renderer.free_texture(id);
        }
    }

    /// Uploads the vertex data of `jobs` (call once per frame before [`Self::paint`]).
    pub fn prepare(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        jobs: &[egui::ClippedPrimitive],
        screen: &egui_wgpu::ScreenDescriptor,
    ) -> Vec<wgpu::CommandBuffer> {
        self.renderer.update_buffers(&gpu.device, &gpu.queue, encoder, jobs, screen)
    }

    /// Clears `view` to `clear` and paints `jobs` over it.
    pub fn paint(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        view: &wgpu::TextureView,
        jobs: &[egui::ClippedPrimitive],
        screen: &egui_wgpu::ScreenDescriptor,
        clear: wgpu::Color,
    ) {
        let mut pass = encoder
            .begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("labanplay egui pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            })
            .forget_lifetime();
        self.renderer.render(&mut pass, jobs, screen);
    }
}

/// Input for one offscreen egui pass of `size_px` at `pixels_per_point`, at a fixed time.
pub fn offscreen_raw_input(size_px: [u32; 2], pixels_per_point: f32) -> egui::RawInput {
    let ppp = if pixels_per_point.is_finite() && pixels_per_point > 0.0 { pixels_per_point } else { 1.0 };
    let size_points = egui::vec2(size_px[0] as f32 / ppp, size_px[1] as f32 / ppp);
    let mut raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size_points)),
        time: Some(0.0),
        focused: true,
        ..egui::RawInput::default()
    };
    raw.viewports.entry(raw.viewport_id).or_default().native_pixels_per_point = Some(ppp);
    raw
}

/// Runs `ui_fn` for `passes` egui passes (layout settles after the first) on a fresh context
/// and paints the last pass into a `size_px` image on `gpu`.
pub fn render_ui_to_image(
    gpu: &Gpu,
    size_px: [u32; 2],
    pixels_per_point: f32,
    passes: usize,
    mut ui_fn: impl FnMut(&mut egui::Ui),
) -> Result<image::RgbaImage, RenderError> {
    let ctx = egui::Context::default();
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let mut painter = EguiPainter::new(&gpu.device, format);
    let mut output = ctx.run_ui(offscreen_raw_input(size_px, pixels_per_point), &mut ui_fn);
    let mut pending_free = Vec::new();
    for _ in 1..passes.max(1) {
        pending_free.extend(painter.update_textures(gpu, &mut output.textures_delta));
        output = ctx.run_ui(offscreen_raw_input(size_px, pixels_per_point), &mut ui_fn);
    }
    pending_free.extend(painter.update_textures(gpu, &mut output.textures_delta));
    let jobs = ctx.tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
    let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: size_px, pixels_per_point: output.pixels_per_point };
    let texture = offscreen_colour_texture(&gpu.device, format, size_px);
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let mut encoder =
        gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("labanplay offscreen ui") });
    let extra = painter.prepare(gpu, &mut encoder, &jobs, &screen);
    painter.paint(&mut encoder, &view, &jobs, &screen, wgpu::Color::BLACK);
    gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
    painter.free_textures(&pending_free);
    read_texture(gpu, &texture)
}
