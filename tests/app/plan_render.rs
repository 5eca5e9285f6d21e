//! Ensemble plans on the stage: the medium demo plan (200 performers) rendered on the software
//! rasteriser against a golden image, every performer drawn in its group's colour, the top view
//! with paths and spots, a lights command changing the light (golden), the stadium plan framed
//! whole, and `labanplay render PLAN -o DIR/` end to end. SKIP without an adapter.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use crate::support;
use support::golden_image::{Tolerance, assert_golden, gpu_or_skip};

use image::RgbaImage;
use labanplay::crowd::{Crowd, CrowdFrame};
use labanplay::render::{Gpu, Renderer, RendererConfig, render_to_image};
use labanplay::stage::MeshId;
use labanplay::stage::camera_input::{CameraView, framed_camera};
use labanplay::stage::dancer_mesh::{DancerModel, coarse_mannequin, low_detail_mannequin, mannequin};
use labanplay::stage::plan_events::{lighting_at, lighting_for};
use labanplay::stage::plan_stage::plan_view;
use labanplay::stage::plan_stage::{
    PlanMeshes, PlanOptions, PlanPlayback, SELECTED_COLOUR, build_plan_scene, open_plan, plan_bounds,
};
use labanplay::stage::{Lighting, Scene};
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
    models: &[DancerModel; 3],
    view: CameraView,
    t_beats: f64,
) -> (RgbaImage, RgbaImage, Scene) {
    render_plan_lit(gpu, crowd, models, view, t_beats, Lighting::default())
}

/// [`render_plan`] under `lighting`.
fn render_plan_lit(
    gpu: &Gpu,
    crowd: &Crowd,
    models: &[DancerModel; 3],
    view: CameraView,
    t_beats: f64,
    lighting: Lighting,
) -> (RgbaImage, RgbaImage, Scene) {
    let config = RendererConfig::recommended_for(gpu, wgpu::TextureFormat::Rgba8UnormSrgb);
    let mut renderer = Renderer::new(&gpu.device, config);
    let full = renderer.upload_mesh(&gpu.device, &models[0].mesh).unwrap();
    let low = renderer.upload_mesh(&gpu.device, &models[1].mesh).unwrap();
    let coarse = renderer.upload_mesh(&gpu.device, &models[2].mesh).unwrap();
    let mut camera = framed_camera(view, &plan_bounds(crowd), WIDTH as f32 / HEIGHT as f32);
    camera.far_m = camera.far_m.max(4.0 * camera.distance_m);
    let meshes = PlanMeshes { full: (&models[0], full), low: (&models[1], low), coarse: (&models[2], coarse) };
    let options = PlanOptions { paths_and_spots: view == CameraView::Top, ..PlanOptions::default() };
    let (mut scene, mut frame) = (Scene::default(), CrowdFrame::default());
    build_plan_scene(crowd, t_beats, &plan_view(&camera, HEIGHT), meshes, options, &mut frame, &mut scene);
    scene.lighting = lighting;
    let image = render_to_image(gpu, &mut renderer, &scene, &camera, WIDTH, HEIGHT).unwrap();
    let mut empty = scene.clone();
    empty.dancers.clear();
    empty.instances.clear();
    let without = render_to_image(gpu, &mut renderer, &empty, &camera, WIDTH, HEIGHT).unwrap();
    (image, without, scene)
}

fn models() -> [DancerModel; 3] {
    let full = mannequin(&Default::default()).unwrap();
    let low = low_detail_mannequin(&full.proportions).unwrap();
    let coarse = coarse_mannequin(&full.proportions).unwrap();
    [full, low, coarse]
}

#[test]
fn the_medium_plan_matches_its_golden_image() {
    let Some(gpu) = gpu_or_skip("the_medium_plan_matches_its_golden_image") else { return };
    let models = models();
    let crowd = open_plan(&plan_path("two-hundred.plan.toml"), &models[0]).unwrap();
    // Beat 6: both blocks walking into the heart, the two lines standing at the front.
    let (image, without, scene) = render_plan(&gpu, &crowd, &models, CameraView::ThreeQuarter, 6.0);
    assert_eq!(scene.instances.len(), 200);
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
fn the_top_view_paths_can_be_faded_or_hidden_and_the_spots_stay() {
    use labanplay::stage::plan_stage::PathsShown;
    let models = models();
    let crowd = open_plan(&plan_path("two-hundred.plan.toml"), &models[0]).unwrap();
    let camera = framed_camera(CameraView::Top, &plan_bounds(&crowd), WIDTH as f32 / HEIGHT as f32);
    let ids = [MeshId(0), MeshId(1), MeshId(2)];
    let meshes = PlanMeshes { full: (&models[0], ids[0]), low: (&models[1], ids[1]), coarse: (&models[2], ids[2]) };
    let scene_with = |paths| {
        let options = PlanOptions { paths_and_spots: true, paths, selected: None };
        let (mut scene, mut frame) = (Scene::default(), CrowdFrame::default());
        build_plan_scene(&crowd, 6.0, &plan_view(&camera, HEIGHT), meshes, options, &mut frame, &mut scene);
        scene
    };
    let to_come = crowd.legs.iter().filter(|l| l.iter().any(|l| l.end_beats() > 6.0)).count();
    let path_lines = |scene: &Scene, alpha: f32| scene.lines.iter().filter(|l| l.colour[3] == alpha).count();
    let (all, faded, hidden) =
        (scene_with(PathsShown::All), scene_with(PathsShown::Faded), scene_with(PathsShown::Hidden));
    assert_eq!(path_lines(&all, 0.8), to_come);
    assert_eq!((path_lines(&faded, 0.8), path_lines(&faded, 0.2)), (0, to_come));
    assert_eq!(path_lines(&hidden, 0.8) + path_lines(&hidden, 0.2), 0);
    assert_eq!(hidden.lines.len() + to_come, all.lines.len(), "only the paths go: the set piece stays");
    for scene in [&faded, &hidden] {
        assert_eq!(scene.floor_marks.len(), all.floor_marks.len(), "the spots stay");
    }
}

/// Mean of (red − blue) over the image, 0–255 units.
fn warmth(image: &RgbaImage) -> f64 {
    let sum: f64 = image.pixels().map(|p| f64::from(p.0[0]) - f64::from(p.0[2])).sum();
    sum / f64::from(image.width() * image.height())
}

#[test]
fn the_lights_command_of_the_eight_plan_warms_the_stage() {
    let Some(gpu) = gpu_or_skip("the_lights_command_of_the_eight_plan_warms_the_stage") else { return };
    let models = models();
    let crowd = open_plan(&plan_path("eight.plan.toml"), &models[0]).unwrap();
    // eight.plan.toml sets `lights = "warm"` at 1:1; before any command the player's own light.
    let (warm_light, error) = lighting_at(&crowd.plan, 2.0);
    assert!(error.is_none());
    assert_ne!(warm_light, Lighting::default());
    let (plain, _, scene) = render_plan(&gpu, &crowd, &models, CameraView::ThreeQuarter, 2.0);
    let (warm, _, _) = render_plan_lit(&gpu, &crowd, &models, CameraView::ThreeQuarter, 2.0, warm_light);
    assert_eq!(scene.instances.len(), 8);
    let (changed, _) = support::golden_image::compare(&plain, &warm, 12);
    let (w0, w1) = (warmth(&plain), warmth(&warm));
    println!("warmth {w0:.1} -> {w1:.1}, {changed} pixels changed");
    assert!(w1 > w0 + 5.0, "the warm light makes the picture redder: {w0:.1} -> {w1:.1}");
    assert!(changed > (WIDTH * HEIGHT / 6) as usize, "{changed} pixels changed");
    // Night: darker overall.
    let (night, _, _) =
        render_plan_lit(&gpu, &crowd, &models, CameraView::ThreeQuarter, 2.0, lighting_for("night").unwrap());
    // Night: the stage (everything but the background's clear colour) far darker.
    let background = plain.get_pixel(0, 0).0;
    let luma = |i: &RgbaImage| {
        let on_stage = i.enumerate_pixels().filter(|(x, y, _)| plain.get_pixel(*x, *y).0 != background);
        on_stage.map(|(_, _, p)| u64::from(p.0[0]) + u64::from(p.0[1]) + u64::from(p.0[2])).sum::<u64>()
    };
    println!("stage luma {} plain, {} night", luma(&plain), luma(&night));
    assert!(luma(&night) * 10 < luma(&plain) * 6, "night is darker");
    assert_golden("plan_eight_warm", &warm, Tolerance { channel_threshold: 24, max_failed_pixels: 200 });
}

#[test]
fn the_stadium_plan_is_framed_whole_and_every_performer_is_instanced() {
    let models = models();
    let crowd = open_plan(&plan_path("stadium.plan.toml"), &models[0]).unwrap();
    let n = crowd.plan.performers.len();
    assert!(n >= 2000, "{n}");
    let aspect = 16.0 / 9.0;
    let bounds = plan_bounds(&crowd);
    for view in [CameraView::ThreeQuarter, CameraView::Front, CameraView::Top] {
        let camera = framed_camera(view, &bounds, aspect);
        let clip_from_world = camera.clip_from_world(aspect);
        // Everyone, at the start, half way and at the end, is inside the picture (head and feet).
        for t in [0.0, 0.5 * crowd.end_beats(), crowd.end_beats()] {
            for i in 0..n {
                for y in [0.0, 1.7] {
                    let p = crowd.ground_at(i, t) + glam::Vec3::Y * y;
                    let c = clip_from_world * p.extend(1.0);
                    let inside = c.w > 0.0 && (c.x / c.w).abs() <= 1.0 && (c.y / c.w).abs() <= 1.0 && c.z / c.w <= 1.0;
                    assert!(inside, "{view:?}: performer {i} at beat {t} is outside the picture: {c:?}");
                }
            }
        }
        assert!(camera.distance_m > 80.0, "{view:?}: {} m", camera.distance_m);
    }
    // One instance per performer, far fewer palettes than performers (shared poses).
    let meshes =
        PlanMeshes { full: (&models[0], MeshId(0)), low: (&models[1], MeshId(1)), coarse: (&models[2], MeshId(2)) };
    let camera = framed_camera(CameraView::ThreeQuarter, &bounds, aspect);
    let (mut scene, mut frame) = (Scene::default(), CrowdFrame::default());
    let t = 0.5 * crowd.end_beats();
    build_plan_scene(&crowd, t, &plan_view(&camera, 720), meshes, PlanOptions::default(), &mut frame, &mut scene);
    assert_eq!(scene.instances.len(), n);
    assert!(scene.dancers.is_empty());
    // Framed whole at 1280×720 a performer is under 48 px tall beyond about 52 m: nearly all of
    // them get the coarse body; each body by distance alone.
    let view = plan_view(&camera, 720);
    let per_mesh = |id: u32| scene.instances.iter().filter(|i| i.mesh_id == MeshId(id)).count();
    println!("full {}, low-detail {}, coarse {}", per_mesh(0), per_mesh(1), per_mesh(2));
    assert!(per_mesh(2) > n * 9 / 10, "{} coarse of {n}", per_mesh(2));
    for (instance, p) in scene.instances.iter().zip(&frame.performers) {
        let coarse = p.ground_in_world.distance(view.eye_in_world) > view.coarse_beyond_m;
        assert_eq!(instance.mesh_id == MeshId(2), coarse);
    }
    println!("{} performers share {} palettes at beat {t}", n, scene.poses.len());
    assert!(scene.poses.len() * 4 < n, "{} palettes", scene.poses.len());
    for (k, instance) in scene.instances.iter().enumerate() {
        let palette = &scene.poses[instance.pose as usize];
        let pelvis = instance.world_from_pose * palette[0] * glam::Vec4::new(0.0, 0.98, 0.0, 1.0);
        assert!((pelvis.truncate() - frame.performers[k].ground_in_world).length() < 2.0, "performer {k}");
    }
}

#[test]
fn clicking_a_performer_selects_it_and_the_stage_shows_its_path_and_its_score() {
    let models = models();
    let mut plan = PlanPlayback::open(&plan_path("eight.plan.toml"), &models[0]).unwrap();
    let aspect = 16.0 / 9.0;
    let camera = framed_camera(CameraView::Top, &plan_bounds(&plan.crowd), aspect);
    let meshes =
        PlanMeshes { full: (&models[0], MeshId(0)), low: (&models[1], MeshId(1)), coarse: (&models[2], MeshId(2)) };
    let view = plan_view(&camera, HEIGHT);
    let mut scene = Scene::default();
    let t = 30.0;
    build_plan_scene(&plan.crowd, t, &view, meshes, PlanOptions::default(), &mut plan.frame, &mut scene);
    let clip_from_world = camera.clip_from_world(aspect);
    for i in 0..8 {
        // A click on the image point over the performer's chest.
        let chest = plan.frame.performers[i].ground_in_world + glam::Vec3::Y * 1.3;
        let c = clip_from_world * chest.extend(1.0);
        let ndc = glam::Vec2::new(c.x / c.w, c.y / c.w);
        assert_eq!(plan.pick(&camera, aspect, ndc), Some(i), "performer {i} at {ndc}");
    }
    assert_eq!(plan.pick(&camera, aspect, glam::Vec2::new(-0.98, 0.98)), None, "the corner is empty");
    let plain_lines = scene.lines.len();
    plan.selected = Some(3);
    assert!(plan.shown_score().unwrap().ends_with("walk-arms-turn.lbn"));
    assert!(plan.describe(3).contains("performer 4 of 8"), "{}", plan.describe(3));
    let options = PlanOptions { selected: Some(3), ..PlanOptions::default() };
    build_plan_scene(&plan.crowd, t, &view, meshes, options, &mut plan.frame, &mut scene);
    assert_eq!(scene.lines.len(), plain_lines + 2, "its path and a ring");
    let path = &scene.lines[scene.lines.len() - 2];
    assert_eq!(path.colour, SELECTED_COLOUR);
    // The path runs through where it stands now and where it starts.
    let near = |p: glam::Vec3| path.points_in_world.iter().any(|q| (q.x - p.x).hypot(q.z - p.z) < 0.3);
    assert!(near(plan.frame.performers[3].ground_in_world) && near(plan.crowd.ground_at(3, 0.0)));
    let (selected, other) = (scene.instances[3].colour, scene.instances[2].colour);
    assert!(selected[1] > other[1] + 0.1, "the selected performer is lighter: {selected:?} vs {other:?}");
    // The staff follows its beat: the score repeats while the formation holds.
    let score_beats = 12.0;
    let b = plan.score_beat_at(t, score_beats);
    assert!((0.0..score_beats).contains(&b) && (b - t.rem_euclid(score_beats)).abs() < 1e-9, "{b}");
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
