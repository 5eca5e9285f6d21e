//! Renders the staff panel offscreen (egui → egui-wgpu on a software adapter) for the demo
//! walk and duet at t = 2 beats and writes `target/staff_panel.png` to look at. Runs only with
//! `--ignored`; skips with a message when no adapter exists.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use labanplay::read::read;
use labanplay::render::gpu::{AdapterPreference, Gpu, create_headless_with};
use labanplay::score::Score;
use labanplay::viewer::staff_layout::StaffLayout;
use labanplay::viewer::staff_ui::staff_ui;

const PIXELS_PER_POINT: f32 = 2.0;

/// Runs the panel for two frames and paints the last one into an RGBA image.
fn render_panel(gpu: &Gpu, layout: &StaffLayout, t_beats: f64, size_points: [f32; 2]) -> image::RgbaImage {
    let ctx = egui::Context::default();
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let mut renderer = egui_wgpu::Renderer::new(&gpu.device, format, egui_wgpu::RendererOptions::PREDICTABLE);
    let size_px =
        [(size_points[0] * PIXELS_PER_POINT).round() as u32, (size_points[1] * PIXELS_PER_POINT).round() as u32];
    let mut last = None;
    for frame in 0..2 {
        let mut input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size_points[0], size_points[1]))),
            time: Some(f64::from(frame) / 60.0),
            ..Default::default()
        };
        input.viewports.entry(egui::ViewportId::ROOT).or_default().native_pixels_per_point = Some(PIXELS_PER_POINT);
        let mut output = ctx.run_ui(input, |ui| {
            let response = staff_ui(ui, layout, t_beats, false, 40.0);
            assert!(response.seek_to_beats.is_none(), "no input, no seek");
        });
        for (id, deltas) in output.textures_delta.set.drain() {
            for delta in &deltas {
                renderer.update_texture(&gpu.device, &gpu.queue, id, delta);
            }
        }
        let freed: Vec<_> = output.textures_delta.free.drain().collect();
        for id in &freed {
            renderer.free_texture(id);
        }
        let primitives = ctx.tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
        last = Some((primitives, output.pixels_per_point));
    }
    let (primitives, pixels_per_point) = last.unwrap();
    let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: size_px, pixels_per_point };

    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("staff panel"),
        size: wgpu::Extent3d { width: size_px[0], height: size_px[1], depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let padded_row = (size_px[0] * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("staff panel read-back"),
        size: u64::from(padded_row) * u64::from(size_px[1]),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("staff panel") });
    let extra = renderer.update_buffers(&gpu.device, &gpu.queue, &mut encoder, &primitives, &screen);
    {
        let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("staff panel"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::WHITE), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let mut pass = pass.forget_lifetime();
        renderer.render(&mut pass, &primitives, &screen);
    }
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &readback,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded_row),
                rows_per_image: Some(size_px[1]),
            },
        },
        wgpu::Extent3d { width: size_px[0], height: size_px[1], depth_or_array_layers: 1 },
    );
    gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
    let (sender, receiver) = std::sync::mpsc::channel();
    readback.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = sender.send(r);
    });
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    receiver.recv().unwrap().unwrap();
    let mapped = readback.get_mapped_range(..).unwrap();
    let mut pixels = Vec::with_capacity((size_px[0] * size_px[1] * 4) as usize);
    for row in mapped.chunks(padded_row as usize).take(size_px[1] as usize) {
        pixels.extend_from_slice(&row[..(size_px[0] * 4) as usize]);
    }
    drop(mapped);
    readback.unmap();
    image::RgbaImage::from_raw(size_px[0], size_px[1], pixels).unwrap()
}

fn count(img: &image::RgbaImage, pred: impl Fn([u8; 4]) -> bool) -> usize {
    img.pixels().filter(|p| pred(p.0)).count()
}

#[test]
#[ignore = "a look-at-it tool: `cargo test --test staff_panel_png -- --ignored` renders target/staff_panel.png"]
fn staff_panel_png() {
    let gpu = match create_headless_with(AdapterPreference::SoftwareFirst) {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("skipped: no graphics adapter: {error}");
            return;
        }
    };
    eprintln!("adapter: {}", gpu.adapter_summary());
    let out_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut panels = Vec::new();
    for (name, bytes) in [("walk", labanplay::demo::WALK_ARMS_TURN_LBN), ("duet", labanplay::demo::DUET_LBN)] {
        let score = Score::from_document(&read(bytes, Some("lbn")).unwrap());
        let layout = StaffLayout::new(&score);
        let view = labanplay::viewer::staff_layout::StaffView::new(1.0, 1.0, 40.0);
        let width = layout.content_width_px(&view) + 16.0;
        let img = render_panel(&gpu, &layout, 2.0, [width, 560.0]);
        // Ink, the red cursor line and the blue outline of the active symbols are all there.
        let ink = count(&img, |p| p[0] < 60 && p[1] < 60 && p[2] < 60);
        let red = count(&img, |p| p[0] > 180 && p[1] < 90 && p[2] < 90);
        let blue = count(&img, |p| p[2] > 180 && p[0] < 60 && p[1] > 80 && p[1] < 170);
        eprintln!("{name}: {}x{} px, ink {ink}, cursor {red}, active {blue}", img.width(), img.height());
        assert!(ink > 2_000, "{name}: too little ink ({ink})");
        assert!(red > 200, "{name}: no cursor line ({red})");
        assert!(blue > 50, "{name}: no active highlight ({blue})");
        let path = out_dir.join(format!("staff_panel_{name}.png"));
        img.save(&path).unwrap();
        eprintln!("wrote {}", path.display());
        panels.push(img);
    }
    let gap = 16;
    let width = panels.iter().map(|p| p.width()).sum::<u32>() + gap;
    let height = panels.iter().map(|p| p.height()).max().unwrap();
    let mut both = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 200, 200, 255]));
    let mut x = 0;
    for p in &panels {
        image::imageops::replace(&mut both, p, i64::from(x), 0);
        x += p.width() + gap;
    }
    let path = out_dir.join("staff_panel.png");
    both.save(&path).unwrap();
    eprintln!("wrote {}", path.display());
}
