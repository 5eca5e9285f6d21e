//! Rendering into an offscreen texture and reading it back as an `image::RgbaImage` (headless
//! mode, golden-image tests, benches). Handles wgpu's 256-byte row alignment and turns GPU
//! validation errors into [`RenderError`] instead of panics.

use crate::render::camera::OrbitCamera;
use crate::render::error::RenderError;
use crate::render::gpu::Gpu;
use crate::render::renderer::Renderer;
use crate::render::scene::Scene;

/// A colour texture plus a read-back buffer of one size, reusable frame after frame.
#[derive(Debug)]
pub struct OffscreenTarget {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    readback: wgpu::Buffer,
    size_px: [u32; 2],
    padded_bytes_per_row: u32,
    swap_red_blue: bool,
}

impl OffscreenTarget {
    /// A `width` × `height` target matching `renderer`'s colour format, which must be an
    /// 8-bit RGBA or BGRA format.
    pub fn new(gpu: &Gpu, renderer: &Renderer, width: u32, height: u32) -> Result<Self, RenderError> {
        let format = renderer.config().colour_format;
        let swap_red_blue = match format {
            wgpu::TextureFormat::Rgba8UnormSrgb | wgpu::TextureFormat::Rgba8Unorm => false,
            wgpu::TextureFormat::Bgra8UnormSrgb | wgpu::TextureFormat::Bgra8Unorm => true,
            _ => return Err(RenderError::UnsupportedReadbackFormat { format }),
        };
        let max_side = gpu.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max_side || height > max_side {
            return Err(RenderError::InvalidSize { width, height, max_side });
        }
        let padded_bytes_per_row = (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("labanplay offscreen colour target"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("labanplay offscreen colour view"),
            ..Default::default()
        });
        let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("labanplay offscreen read-back buffer"),
            size: u64::from(padded_bytes_per_row) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Ok(Self { texture, view, readback, size_px: [width, height], padded_bytes_per_row, swap_red_blue })
    }

    /// [width, height] in pixels.
    pub fn size_px(&self) -> [u32; 2] {
        self.size_px
    }

    /// Draws `scene` from `camera` and waits for the pixels (sRGB-encoded RGBA8, row 0 = top).
    pub fn render(
        &self,
        gpu: &Gpu,
        renderer: &mut Renderer,
        scene: &Scene,
        camera: &OrbitCamera,
    ) -> Result<image::RgbaImage, RenderError> {
        let device = &gpu.device;
        let oom_scope = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation_scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let drawn = self.draw_and_copy(gpu, renderer, scene, camera);
        let validation_error = pollster::block_on(validation_scope.pop());
        let oom_error = pollster::block_on(oom_scope.pop());
        if let Some(error) = validation_error.or(oom_error) {
            return Err(RenderError::Gpu { reason: error.to_string() });
        }
        drawn?;
        self.read_back(gpu)
    }

    fn draw_and_copy(
        &self,
        gpu: &Gpu,
        renderer: &mut Renderer,
        scene: &Scene,
        camera: &OrbitCamera,
    ) -> Result<(), RenderError> {
        renderer.prepare(&gpu.device, &gpu.queue, scene, camera, self.size_px)?;
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("labanplay offscreen frame") });
        renderer.render(&mut encoder, &self.view);
        let [width, height] = self.size_px;
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_bytes_per_row),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
        gpu.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Maps the read-back buffer, strips the row padding and unmaps.
    fn read_back(&self, gpu: &Gpu) -> Result<image::RgbaImage, RenderError> {
        let (sender, receiver) = std::sync::mpsc::channel();
        self.readback.map_async(wgpu::MapMode::Read, .., move |result| {
            // The receiver outlives the poll below; a send error only means nobody listens.
            let _ = sender.send(result);
        });
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|error| RenderError::Readback { reason: error.to_string() })?;
        match receiver.recv() {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                return Err(RenderError::Readback { reason: error.to_string() });
            }
            Err(_) => {
                return Err(RenderError::Readback { reason: "map callback never ran".to_owned() });
            }
        }
        let [width, height] = self.size_px;
        let row_bytes = width as usize * 4;
        let mut pixels = Vec::with_capacity(row_bytes * height as usize);
        {
            let mapped = self
                .readback
                .get_mapped_range(..)
                .map_err(|error| RenderError::Readback { reason: error.to_string() })?;
            for row in mapped.chunks(self.padded_bytes_per_row as usize).take(height as usize) {
                pixels.extend_from_slice(row.get(..row_bytes).unwrap_or(row));
            }
        }
        self.readback.unmap();
        if self.swap_red_blue {
            for pixel in pixels.chunks_exact_mut(4) {
                pixel.swap(0, 2);
            }
        }
        image::RgbaImage::from_raw(width, height, pixels)
            .ok_or_else(|| RenderError::Readback { reason: "read-back buffer too short".to_owned() })
    }
}

/// One-shot helper: renders `scene` from `camera` into a fresh `width` × `height` target and
/// returns the pixels. `renderer` must use an 8-bit RGBA/BGRA colour format (the default does).
pub fn render_to_image(
    gpu: &Gpu,
    renderer: &mut Renderer,
    scene: &Scene,
    camera: &OrbitCamera,
    width: u32,
    height: u32,
) -> Result<image::RgbaImage, RenderError> {
    OffscreenTarget::new(gpu, renderer, width, height)?.render(gpu, renderer, scene, camera)
}
