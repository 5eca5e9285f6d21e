//! Golden images of the player, rendered offscreen through the same `Player` scene building and
//! camera framing the window uses: the demo at rest (t = 0), mid-step, with footprints from
//! above, and the egui staff panel at a fixed time. 320×180 on the software rasteriser;
//! `UPDATE_GOLDEN=1` rewrites; `.new.png`/`.diff.png` on mismatch; SKIP without an adapter
//! unless `REQUIRE_GPU=1`.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use image::RgbaImage;
use labanplay::body::models::DEFAULT_MODEL;
use labanplay::render::{Gpu, Renderer, RendererConfig, render_to_image};
use labanplay::stage::Scene;
use labanplay::stage::camera_input::{CameraView, follow, framed_camera};
use labanplay::stage::dancer_mesh::build_model;
use labanplay::stage::player::{Player, ScoreSource};
use labanplay::viewer::gpu_frame::render_ui_to_image;
use labanplay::viewer::staff_ui::staff_ui;
use std::path::PathBuf;

use crate::support;

use support::golden_image::{Tolerance, assert_golden_in, compare, gpu_or_skip};

const WIDTH: u32 = 320;
const HEIGHT: u32 = 180;

fn assert_golden(name: &str, actual: &RgbaImage, tolerance: Tolerance) {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/viewer"));
    assert_golden_in(&dir, name, actual, tolerance);
}

fn demo_player() -> Player {
    let model = build_model(DEFAULT_MODEL).unwrap();
    let (name, score) = labanplay::stage::demo_score(0).unwrap();
    Player::new(score, ScoreSource::Demo(name), model, false)
}

/// The stage at `t_beats` through the window's code path (Player → Scene), seen from `view`'s
/// angles 3.2 m from dancer 1's pelvis (closer than the window's whole-floor framing, so the
/// small images show detail).
fn stage_image(gpu: &Gpu, player: &mut Player, t_beats: f64, view: CameraView) -> RgbaImage {
    // One sample per pixel on every adapter, so a real GPU gives the same edges as lavapipe.
    let config = RendererConfig { colour_format: wgpu::TextureFormat::Rgba8UnormSrgb, sample_count: 1 };
    let mut renderer = Renderer::new(&gpu.device, config);
    let mesh_id = renderer.upload_mesh(&gpu.device, &player.model().mesh).unwrap();
    player.playback.seek(t_beats);
    player.sample();
    let mut scene = Scene::default();
    player.build_scene(mesh_id, &mut scene);
    let mut camera = framed_camera(view, player.floor_bounds(), WIDTH as f32 / HEIGHT as f32);
    follow(&mut camera, player.selected_pelvis_in_world().unwrap());
    camera.distance_m = 3.2;
    render_to_image(gpu, &mut renderer, &scene, &camera, WIDTH, HEIGHT).unwrap()
}

/// Fraction of pixels that differ from the background colour by more than 30 in some channel.
fn non_background_fraction(image: &RgbaImage) -> f64 {
    let background = *image.get_pixel(0, 0);
    let differing = image.pixels().filter(|p| p.0.iter().zip(background.0).any(|(a, b)| a.abs_diff(b) > 30)).count();
    differing as f64 / f64::from(image.width() * image.height())
}

const STAGE_TOLERANCE: Tolerance = Tolerance { channel_threshold: 24, max_failed_pixels: 160 };

#[test]
fn rest_pose_at_time_zero() {
    let Some(gpu) = gpu_or_skip("rest_pose_at_time_zero") else { return };
    let mut player = demo_player();
    let image = stage_image(&gpu, &mut player, 0.0, CameraView::Front);
    // The dancer stands in the middle: the centre column has body pixels well above the floor.
    let fraction = non_background_fraction(&image);
    assert!(fraction > 0.3, "the stage and dancer fill the frame ({fraction})");
    // The dancer (light body colour) stands in the middle third.
    let body = |x: u32, y: u32| image.get_pixel(x, y).0.iter().take(3).all(|c| *c > 150);
    let centre_body =
        (WIDTH / 3..2 * WIDTH / 3).flat_map(|x| (0..HEIGHT).map(move |y| (x, y))).filter(|&(x, y)| body(x, y)).count();
    let side_body = (0..WIDTH / 3).flat_map(|x| (0..HEIGHT).map(move |y| (x, y))).filter(|&(x, y)| body(x, y)).count();
    assert!(centre_body > 400 && side_body < centre_body / 10, "dancer centred: {centre_body} vs {side_body}");
    assert_golden("rest_front", &image, STAGE_TOLERANCE);
}

#[test]
fn mid_step_of_the_demo() {
    let Some(gpu) = gpu_or_skip("mid_step_of_the_demo") else { return };
    let mut player = demo_player();
    let rest = stage_image(&gpu, &mut player, 0.0, CameraView::ThreeQuarter);
    let mid_step = stage_image(&gpu, &mut player, 1.5, CameraView::ThreeQuarter);
    let (changed, _) = compare(&mid_step, &rest, 24);
    assert!(changed > 200, "the dancer moved between t = 0 and mid-step ({changed} pixels changed)");
    assert_golden("mid_step_three_quarter", &mid_step, STAGE_TOLERANCE);
}

#[test]
fn footprints_from_above() {
    let Some(gpu) = gpu_or_skip("footprints_from_above") else { return };
    let mut player = demo_player();
    let image = stage_image(&gpu, &mut player, 6.0, CameraView::Top);
    // Footprint colours (left blue, right orange) are present.
    let blue = image.pixels().filter(|p| p.0[2] > 150 && p.0[0] < 120).count();
    let orange = image.pixels().filter(|p| p.0[0] > 170 && p.0[1] > 90 && p.0[2] < 90).count();
    assert!(blue > 20 && orange > 20, "left ({blue}) and right ({orange}) footprints visible");
    player.stage_options.footprints = false;
    let without = stage_image(&gpu, &mut player, 6.0, CameraView::Top);
    let blue_without = without.pixels().filter(|p| p.0[2] > 150 && p.0[0] < 120).count();
    assert!(blue_without < blue / 4, "the toggle hides them ({blue_without} vs {blue})");
    assert_golden("footprints_top", &image, STAGE_TOLERANCE);
}

#[test]
fn staff_panel_at_a_fixed_time() {
    let Some(gpu) = gpu_or_skip("staff_panel_at_a_fixed_time") else { return };
    let player = demo_player();
    let image = render_ui_to_image(&gpu, [240, 360], 1.0, 3, |ui| {
        egui::CentralPanel::default_margins().show(ui, |ui| {
            let _ = staff_ui(ui, player.layout(), 2.5, false, 36.0);
        });
    })
    .unwrap();
    let dark = image.pixels().filter(|p| p.0[0] < 70 && p.0[1] < 70 && p.0[2] < 70).count();
    let light = image.pixels().filter(|p| p.0[0] > 200 && p.0[1] > 200 && p.0[2] > 200).count();
    assert!(dark > 300, "staff lines and symbols are drawn ({dark} dark pixels)");
    assert!(light > 10_000, "on a light paper background ({light} light pixels)");
    assert_golden("staff_panel", &image, Tolerance { channel_threshold: 40, max_failed_pixels: 400 });
}
