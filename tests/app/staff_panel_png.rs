//! Renders the staff panel offscreen (egui → egui-wgpu on a software adapter) for the demo
//! walk and duet at t = 2 beats and writes `target/staff_panel.png` to look at. Runs only with
//! `--ignored`; skips with a message when no adapter exists.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use labanplay::read::read;
use labanplay::render::gpu::{AdapterPreference, Gpu, create_headless_with};
use labanplay::score::Score;
use labanplay::viewer::gpu_frame::render_ui_to_image;
use labanplay::viewer::staff_layout::StaffLayout;
use labanplay::viewer::staff_ui::staff_ui;

const PIXELS_PER_POINT: f32 = 2.0;

/// Runs the panel for two frames and paints the last one into an RGBA image.
fn render_panel(gpu: &Gpu, layout: &StaffLayout, t_beats: f64, size_points: [f32; 2]) -> image::RgbaImage {
    let size_px =
        [(size_points[0] * PIXELS_PER_POINT).round() as u32, (size_points[1] * PIXELS_PER_POINT).round() as u32];
    render_ui_to_image(gpu, size_px, PIXELS_PER_POINT, 2, |ui| {
        let response = staff_ui(ui, layout, t_beats, false, 40.0);
        assert!(response.seek_to_beats.is_none(), "no input, no seek");
    })
    .unwrap()
}

fn count(img: &image::RgbaImage, pred: impl Fn([u8; 4]) -> bool) -> usize {
    img.pixels().filter(|p| pred(p.0)).count()
}

#[test]
#[ignore = "a look-at-it tool: `cargo test --test app staff_panel_png -- --ignored` renders target/staff_panel.png"]
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
