//! Rendering into an offscreen texture and reading it back as an `image::RgbaImage` (headless
//! mode, golden-image tests, benches). Handles wgpu's 256-byte row alignment and turns GPU
//! validation errors into [`RenderError`] instead of panics.

use crate::render::error::RenderError;
use crate::render::gpu::Gpu;
use crate::render::renderer::Renderer;
use crate::stage::camera::OrbitCamera;
use crate::stage::scene::Scene;

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
        let swap_red_blue = swaps_red_blue(format)?;
        let max_side = gpu.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max_side || height > max_side {
            return Err(RenderError::InvalidSize { width, height, max_side });
        }
        let padded_bytes_per_row = padded_row_bytes(width);
        let texture = offscreen_colour_texture(&gpu.device, format, [width, height]);
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("labanplay offscreen colour view"),
            ..Default::default()
        });
        let readback = readback_buffer(&gpu.device, padded_bytes_per_row, height);
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
        copy_to_buffer(&mut encoder, &self.texture, &self.readback, self.padded_bytes_per_row);
        gpu.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Maps the read-back buffer, strips the row padding and unmaps.
    fn read_back(&self, gpu: &Gpu) -> Result<image::RgbaImage, RenderError> {
        map_pixels(gpu, &self.readback, self.size_px, self.padded_bytes_per_row, self.swap_red_blue)
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

/// An offscreen colour texture of one 8-bit RGBA/BGRA format with COPY_SRC, for screenshots.
pub fn offscreen_colour_texture(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    size_px: [u32; 2],
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("labanplay offscreen colour target"),
        size: wgpu::Extent3d { width: size_px[0].max(1), height: size_px[1].max(1), depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// Copies `texture` (an 8-bit RGBA or BGRA format, sRGB or not) to the CPU: RGBA8 as stored
/// (gamma-encoded for sRGB and for egui-painted targets), row 0 at the top.
pub fn read_texture(gpu: &Gpu, texture: &wgpu::Texture) -> Result<image::RgbaImage, RenderError> {
    let swap_red_blue = swaps_red_blue(texture.format())?;
    let size_px = [texture.width(), texture.height()];
    let padded = padded_row_bytes(size_px[0]);
    let buffer = readback_buffer(&gpu.device, padded, size_px[1]);
    let mut encoder =
        gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("labanplay read-back") });
    copy_to_buffer(&mut encoder, texture, &buffer, padded);
    gpu.queue.submit([encoder.finish()]);
    map_pixels(gpu, &buffer, size_px, padded, swap_red_blue)
}

/// Whether pixels of `format` come back as BGRA (an error for formats we cannot read back).
fn swaps_red_blue(format: wgpu::TextureFormat) -> Result<bool, RenderError> {
    match format {
        wgpu::TextureFormat::Rgba8UnormSrgb | wgpu::TextureFormat::Rgba8Unorm => Ok(false),
        wgpu::TextureFormat::Bgra8UnormSrgb | wgpu::TextureFormat::Bgra8Unorm => Ok(true),
        _ => Err(RenderError::UnsupportedReadbackFormat { format }),
    }
}

/// Bytes per row of an RGBA8 copy `width` pixels wide, padded to wgpu's 256-byte alignment.
fn padded_row_bytes(width: u32) -> u32 {
    (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

fn readback_buffer(device: &wgpu::Device, padded_bytes_per_row: u32, height: u32) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("labanplay read-back buffer"),
        size: u64::from(padded_bytes_per_row) * u64::from(height),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    })
}

/// Records a copy of the whole `texture` into `buffer` with padded rows.
fn copy_to_buffer(
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    buffer: &wgpu::Buffer,
    padded_bytes_per_row: u32,
) {
    let (width, height) = (texture.width(), texture.height());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded_bytes_per_row),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
    );
}

/// Waits for `buffer` (filled by [`copy_to_buffer`]), strips the row padding, unmaps, and
/// returns RGBA8 pixels.
fn map_pixels(
    gpu: &Gpu,
    buffer: &wgpu::Buffer,
    size_px: [u32; 2],
    padded_bytes_per_row: u32,
    swap_red_blue: bool,
) -> Result<image::RgbaImage, RenderError> {
    let readback_error = |reason: String| RenderError::Readback { reason };
    let (sender, receiver) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        // The receiver outlives the poll below; a send error only means nobody listens.
        let _ = sender.send(result);
    });
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| readback_error(e.to_string()))?;
    match receiver.recv() {
        Ok(Ok(())) => {}
        Ok(Err(error)) => return Err(readback_error(error.to_string())),
        Err(_) => return Err(readback_error("map callback never ran".to_owned())),
    }
    let [width, height] = size_px;
    let row_bytes = width as usize * 4;
    let mut pixels = Vec::with_capacity(row_bytes * height as usize);
    {
        let mapped = buffer.get_mapped_range(..).map_err(|e| readback_error(e.to_string()))?;
        for row in mapped.chunks(padded_bytes_per_row as usize).take(height as usize) {
            pixels.extend_from_slice(row.get(..row_bytes).unwrap_or(row));
        }
    }
    buffer.unmap();
    if swap_red_blue {
        for pixel in pixels.chunks_exact_mut(4) {
            pixel.swap(0, 2);
        }
    }
    image::RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| readback_error("read-back buffer too short".to_owned()))
}
