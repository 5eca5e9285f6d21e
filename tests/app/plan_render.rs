//! Ensemble plans on the stage: the medium demo plan (200 performers) rendered on the software
//! rasteriser against a golden image, every performer drawn in its group's colour, the top view
//! with paths and spots, and `labanplay render PLAN -o DIR/` end to end. SKIP without an adapter.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use crate::support;
use support::golden_image::{Tolerance, assert_golden, gpu_or_skip};

use image::RgbaImage;
use labanplay::crowd::{Crowd, CrowdFrame};
use labanplay::render::{Gpu, Renderer, RendererConfig, Scene, render_to_image};
use labanplay::viewer::camera_input::{CameraView, framed_camera};
use labanplay::viewer::dancer_mesh::{DancerModel, low_detail_mannequin, mannequin};
use labanplay::viewer::plan_render::plan_view;
use labanplay::viewer::plan_stage::{PlanMeshes, PlanOptions, build_plan_scene, open_plan, plan_bounds};
use std::path::{Path, PathBuf};

const WIDTH: u32 = 320;
const HEIGHT: u32 = 192;

fn plan_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble").join(name)
}

/// The plan at `t_beats` through `view`'s framed camera, the same without the performers, and
/// the scene drawn.
fn render_plan(
    gpu: &Gpu,
    crowd: &Crowd,
    models: &[DancerModel; 2],
    view: CameraView,
    t_beats: f64,
) -> (RgbaImage, RgbaImage, Scene) {
    let config = RendererConfig::recommended_for(gpu, wgpu::TextureFormat::Rgba8UnormSrgb);
    let mut renderer = Renderer::new(&gpu.device, config);
    let full = renderer.upload_mesh(&gpu.device, &models[0].mesh).unwrap();
    let low = renderer.upload_mesh(&gpu.device, &models[1].mesh).unwrap();
    let mut camera = framed_camera(view, &plan_bounds(crowd), WIDTH as f32 / HEIGHT as f32);
    camera.far_m = camera.far_m.max(4.0 * camera.distance_m);
    let meshes = PlanMeshes { full: (&models[0], full), low: (&models[1], low) };
    let options = PlanOptions { paths_and_spots: view == CameraView::Top };
    let (mut scene, mut frame) = (Scene::default(), CrowdFrame::default());
    build_plan_scene(crowd, t_beats, &plan_view(camera.eye_in_world()), meshes, options, &mut frame, &mut scene);
    let image = render_to_image(gpu, &mut renderer, &scene, &camera, WIDTH, HEIGHT).unwrap();
    let mut empty = scene.clone();
    empty.dancers.clear();
    let without = render_to_image(gpu, &mut renderer, &empty, &camera, WIDTH, HEIGHT).unwrap();
    (image, without, scene)
}

fn models() -> [DancerModel; 2] {
    let full = mannequin(&Default::default()).unwrap();
    let low = low_detail_mannequin(&full.proportions).unwrap();
    [full, low]
}

#[test]
fn the_medium_plan_matches_its_golden_image() {
    let Some(gpu) = gpu_or_skip("the_medium_plan_matches_its_golden_image") else { return };
    let models = models();
    let crowd = open_plan(&plan_path("two-hundred.plan.toml"), &models[0]).unwrap();
    // Beat 6: both blocks walking into the heart, the two lines standing at the front.
    let (image, without, scene) = render_plan(&gpu, &crowd, &models, CameraView::ThreeQuarter, 6.0);
    assert_eq!(scene.dancers.len(), 200);
    // The performers cover a good part of the picture, and both blocks' colours are on it
    // (blue is nowhere else on the stage).
    let (covered, _) = support::golden_image::compare(&image, &without, 24);
    println!("performers cover {covered} pixels");
    assert!(covered > 1500, "{covered} pixels show performers");
    let blue =
        image.pixels().filter(|p| p.0[2] > p.0[0].saturating_add(40) && p.0[2] > p.0[1].saturating_add(20)).count();
    assert!(blue > 300, "{blue} blue pixels");
    assert_golden("plan_two_hundred", &image, Tolerance { channel_threshold: 24, max_failed_pixels: 300 });
}

#[test]
fn the_top_view_draws_paths_spots_and_the_set_piece() {
    let Some(gpu) = gpu_or_skip("the_top_view_draws_paths_spots_and_the_set_piece") else { return };
    let models = models();
    let crowd = open_plan(&plan_path("two-hundred.plan.toml"), &models[0]).unwrap();
    let (image, _, scene) = render_plan(&gpu, &crowd, &models, CameraView::Top, 6.0);
    // One path and one spot per performer with a transition still to come, and the riser.
    let to_come = crowd.legs.iter().filter(|l| l.iter().any(|l| l.end_beats() > 6.0)).count();
    assert_eq!(scene.floor_marks.len(), to_come);
    assert!(scene.lines.len() >= to_come + 2, "{} lines", scene.lines.len());
    // The riser's outline (pale yellow lines) is drawn in the upper right quarter.
    let riser = image
        .enumerate_pixels()
        .filter(|(x, y, p)| {
            *x > WIDTH / 2 && *y < HEIGHT / 2 && p.0[0] > 200 && p.0[1] > 190 && p.0[2] > 120 && p.0[2] + 20 < p.0[0]
        })
        .count();
    assert!(riser > 20, "{riser} riser pixels");
    assert_golden("plan_two_hundred_top", &image, Tolerance { channel_threshold: 24, max_failed_pixels: 300 });
}

#[test]
fn render_writes_a_plan_to_numbered_pngs() {
    if labanplay::render::create_headless().is_err() {
        eprintln!("SKIP render_writes_a_plan_to_numbered_pngs: no graphics adapter");
        return;
    }
    let dir = std::env::temp_dir().join(format!("labanplay-plan-render-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = format!("{}/", dir.display());
    let plan = plan_path("eight.plan.toml");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_labanplay"))
        .args(["render", plan.to_str().unwrap(), "-o", &out, "--from", "2", "--to", "2.5", "--fps", "4"])
        .args(["--size", "160x96", "--model", "mannequin"])
        .env_remove("DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let mut frames: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    frames.sort();
    // Beats 2 to 2.5 at 4 frames a second of 60 bpm (the score's tempo).
    assert!(frames.len() >= 2, "{frames:?}");
    let first = image::open(&frames[0]).unwrap().to_rgba8();
    let last = image::open(frames.last().unwrap()).unwrap().to_rgba8();
    assert_eq!(first.dimensions(), (160, 96));
    // The dancers move between the frames.
    let (changed, _) = support::golden_image::compare(&first, &last, 24);
    assert!(changed > 10, "{changed} pixels changed");
    let _ = std::fs::remove_dir_all(&dir);
}
