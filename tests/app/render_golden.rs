//! Golden-image tests for the renderer: fixed scenes rendered at 256×192 on the software
//! rasteriser and compared with `tests/golden/<name>.png` (per-channel threshold + a maximum
//! count of differing pixels). `UPDATE_GOLDEN=1` rewrites the PNGs; without an adapter the tests
//! print SKIP, unless `REQUIRE_GPU=1`, which turns a missing adapter into a failure.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use crate::render_figure;
use crate::support;

use support::golden_image::{Tolerance, assert_golden, compare, golden_dir, gpu_or_skip};

use glam::Vec3;
use image::RgbaImage;
use labanplay::render::{Gpu, Renderer, RendererConfig, render_to_image};
use labanplay::side::Side;
use labanplay::stage::{CameraPreset, ContactShadow, DancerInstance, FloorMark, OrbitCamera, Polyline, Scene};

const WIDTH: u32 = 256;
const HEIGHT: u32 = 192;

fn render(gpu: &Gpu, renderer: &mut Renderer, scene: &Scene, camera: &OrbitCamera) -> RgbaImage {
    render_to_image(gpu, renderer, scene, camera, WIDTH, HEIGHT).unwrap()
}

/// The figure mid-step: footprints behind it, shadows under feet and pelvis, a trail line.
fn figure_scene(renderer: &mut Renderer, gpu: &Gpu, bend_rad: f32) -> Scene {
    let mesh_id = renderer.upload_mesh(&gpu.device, &render_figure::build_figure(8, 2)).unwrap();
    let root_in_world = Vec3::new(0.2, 0.0, 0.3);
    let heading_rad = 0.3;
    let palette = render_figure::posed_palette(root_in_world, heading_rad, bend_rad, -0.35);
    let left_print = [0.20, 0.45, 0.95, 0.9];
    let right_print = [0.95, 0.55, 0.15, 0.9];
    let mut scene = Scene::default();
    scene.dancers.push(DancerInstance { mesh_id, palette, colour: [0.75, 0.72, 0.68, 1.0] });
    let step_dir = Vec3::new(heading_rad.sin(), 0.0, heading_rad.cos());
    let side_dir = Vec3::new(step_dir.z, 0.0, -step_dir.x);
    for step in 0..4 {
        let back_m = 0.45 * (3 - step) as f32;
        let (side, colour, sign) =
            if step % 2 == 0 { (Side::Left, left_print, 1.0) } else { (Side::Right, right_print, -1.0) };
        let centre = root_in_world - step_dir * back_m + side_dir * (0.1 * sign) + step_dir * 0.02;
        scene.floor_marks.push(FloorMark::footprint(side, centre, heading_rad, colour));
    }
    let right_now = root_in_world + side_dir * -0.1 + step_dir * 0.02;
    scene.floor_marks.push(FloorMark::footprint(Side::Right, right_now, heading_rad, right_print));
    scene.floor_marks.push(FloorMark {
        kind: labanplay::stage::FloorMarkKind::Spot,
        world_from_mark: glam::Mat4::from_translation(Vec3::new(-1.0, 0.0, 1.0)),
        colour: [0.3, 0.8, 0.4, 0.8],
    });
    for foot_x in [-0.1, 0.1] {
        let foot = root_in_world + side_dir * foot_x;
        scene.contact_shadows.push(ContactShadow { centre_in_world: foot, radius_m: 0.16, opacity: 0.5 });
    }
    scene.contact_shadows.push(ContactShadow {
        centre_in_world: root_in_world + Vec3::Y * 0.9,
        radius_m: 0.5,
        opacity: 0.9,
    });
    scene.lines.push(Polyline {
        points_in_world: (0..=12)
            .map(|k| root_in_world - step_dir * (k as f32 * 0.12) + side_dir * (0.08 * (k as f32 * 0.8).sin()))
            .collect(),
        colour: [1.0, 0.9, 0.3, 1.0],
    });
    scene
}

fn figure_camera() -> OrbitCamera {
    let mut camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, Vec3::new(0.35, 0.7, -0.1), 3.4);
    camera.orbit(0.0, 0.2);
    camera
}

#[test]
fn empty_stage_matches_golden() {
    let Some(gpu) = gpu_or_skip("empty_stage_matches_golden") else {
        return;
    };
    let mut renderer = Renderer::new(&gpu.device, RendererConfig::default());
    let scene = Scene::default();
    let camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, Vec3::ZERO, 9.0);
    let image = render(&gpu, &mut renderer, &scene, &camera);

    // Invariants that hold whatever the golden says: background at the top, floor in the centre.
    let background = scene.stage.background_colour.map(linear_to_srgb_u8);
    let corner = image.get_pixel(2, 2).0;
    for channel in 0..3 {
        assert!(corner[channel].abs_diff(background[channel]) <= 2, "top-left {corner:?} vs {background:?}");
    }
    let centre = image.get_pixel(WIDTH / 2, HEIGHT / 2).0;
    assert_ne!(&centre[..3], &background[..], "the floor must cover the image centre");
    // The audience (+Z) edge band is red where the camera maths says it is.
    let stage = scene.stage;
    let band_in_world = Vec3::new(1.0, 0.0, stage.half_depth_m - 0.5 * stage.audience_band_m);
    let band = pixel_at(&image, &camera, band_in_world);
    assert!(
        u16::from(band[0]) > 2 * u16::from(band[1].max(band[2])) && band[0] > 80,
        "audience band pixel {band:?} is not red"
    );
    let upstage = pixel_at(&image, &camera, Vec3::new(1.0, 0.0, -stage.half_depth_m + 0.5));
    assert!(u16::from(upstage[0]) < 2 * u16::from(upstage[1]), "upstage floor {upstage:?} must not be red");
    // Software rasterisers are exact on one machine; the slack covers other Mesa/LLVM builds
    // (anti-aliased grid edges and MSAA resolve rounding).
    assert_golden("empty_stage", &image, Tolerance { channel_threshold: 6, max_failed_pixels: 250 });
}

#[test]
fn skinned_figure_with_footprints_matches_golden() {
    let Some(gpu) = gpu_or_skip("skinned_figure_with_footprints_matches_golden") else {
        return;
    };
    let mut renderer = Renderer::new(&gpu.device, RendererConfig::default());
    let scene = figure_scene(&mut renderer, &gpu, 0.35);
    let image = render(&gpu, &mut renderer, &scene, &figure_camera());
    // GPU skinning agrees with the CPU palette: the head centre moved by palette[2] shows the
    // (light) dancer. Unskinned, the head would stand 0.36 m away, over the dark floor.
    let palette = &scene.dancers[0].palette;
    let head_in_bind = Vec3::new(0.0, 1.6, 0.0);
    let head = pixel_at(&image, &figure_camera(), palette[2].transform_point3(head_in_bind));
    assert!(head[0] > 150 && head[1] > 150, "posed head pixel {head:?} is not the dancer");
    assert_golden("skinned_figure", &image, Tolerance { channel_threshold: 6, max_failed_pixels: 400 });
}

#[test]
fn golden_comparison_catches_a_changed_pose() {
    // The tolerance above must not be so loose that a visibly different pose still passes.
    let Some(gpu) = gpu_or_skip("golden_comparison_catches_a_changed_pose") else {
        return;
    };
    let Ok(expected) = image::open(golden_dir().join("skinned_figure.png")).map(|image| image.to_rgba8()) else {
        eprintln!("SKIP golden_comparison_catches_a_changed_pose: no golden image yet");
        return;
    };
    let mut renderer = Renderer::new(&gpu.device, RendererConfig::default());
    let scene = figure_scene(&mut renderer, &gpu, 0.15);
    let image = render(&gpu, &mut renderer, &scene, &figure_camera());
    let (failed, _) = compare(&image, &expected, 6);
    eprintln!("changed pose: {failed} pixels over the threshold");
    assert!(failed > 400, "a 0.2 rad torso change moved only {failed} pixels");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let Some(gpu) = gpu_or_skip("bad_input_is_an_error_not_a_panic") else {
        return;
    };
    let mut renderer = Renderer::new(&gpu.device, RendererConfig::default());
    let camera = figure_camera();
    let mut scene = figure_scene(&mut renderer, &gpu, 0.0);
    assert!(render_to_image(&gpu, &mut renderer, &scene, &camera, 0, 10).is_err());
    scene.dancers[0].palette.truncate(2);
    let error = render_to_image(&gpu, &mut renderer, &scene, &camera, 32, 32).unwrap_err();
    assert!(error.to_string().contains("palette"), "{error}");
    scene.dancers[0].mesh_id = labanplay::stage::MeshId(99);
    assert!(render_to_image(&gpu, &mut renderer, &scene, &camera, 32, 32).is_err());
    let mut broken = render_figure::build_figure(1, 1);
    broken.indices.push(1_000_000);
    assert!(renderer.upload_mesh(&gpu.device, &broken).is_err());
    // Garbage numbers render (possibly nothing) without panicking or failing.
    let mut garbage = figure_scene(&mut renderer, &gpu, 0.0);
    garbage.dancers[0].palette[1] = glam::Mat4::from_cols_array(&[f32::NAN; 16]);
    garbage.contact_shadows[0].radius_m = f32::INFINITY;
    garbage.stage.half_width_m = -3.0;
    render_to_image(&gpu, &mut renderer, &garbage, &camera, 40, 30).unwrap();
}

/// The pixel where `point_in_world` lands in an image rendered from `camera`.
#[track_caller]
fn pixel_at(image: &RgbaImage, camera: &OrbitCamera, point_in_world: Vec3) -> [u8; 4] {
    let aspect = image.width() as f32 / image.height() as f32;
    let clip = camera.clip_from_world(aspect) * point_in_world.extend(1.0);
    let (x_ndc, y_ndc) = (clip.x / clip.w, clip.y / clip.w);
    let x_px = ((x_ndc + 1.0) * 0.5 * image.width() as f32) as u32;
    let y_px = ((1.0 - y_ndc) * 0.5 * image.height() as f32) as u32;
    assert!(x_px < image.width() && y_px < image.height(), "{point_in_world} is off-screen");
    image.get_pixel(x_px, y_px).0
}

#[test]
fn other_colour_formats_give_the_same_picture() {
    // Non-sRGB targets get sRGB encoded in the shader; BGRA targets are swizzled on read-back.
    let Some(gpu) = gpu_or_skip("other_colour_formats_give_the_same_picture") else {
        return;
    };
    let camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, Vec3::ZERO, 9.0);
    let draw = |colour_format| {
        let config = RendererConfig { colour_format, ..RendererConfig::default() };
        let mut renderer = Renderer::new(&gpu.device, config);
        render(&gpu, &mut renderer, &Scene::default(), &camera)
    };
    let reference = draw(wgpu::TextureFormat::Rgba8UnormSrgb);
    let bgra = draw(wgpu::TextureFormat::Bgra8UnormSrgb);
    assert_eq!(compare(&bgra, &reference, 0).0, 0, "BGRA read-back must match exactly");
    let unorm = draw(wgpu::TextureFormat::Rgba8Unorm);
    // MSAA resolves and grid blends happen in encoded space there, so edges differ slightly.
    let (failed, _) = compare(&unorm, &reference, 3);
    assert!(failed < 500, "{failed} pixels differ between Rgba8Unorm and Rgba8UnormSrgb");
}

fn linear_to_srgb_u8(linear: f32) -> u8 {
    let c = linear.clamp(0.0, 1.0);
    let encoded = if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
    (encoded * 255.0).round() as u8
}

#[test]
fn footprints_and_shadows_top_view_matches_golden() {
    let Some(gpu) = gpu_or_skip("footprints_and_shadows_top_view_matches_golden") else {
        return;
    };
    let mut renderer = Renderer::new(&gpu.device, RendererConfig::default());
    let mut scene = Scene::default();
    // A left/right pair facing the audience, a right foot turned a quarter toward +X, a spot.
    let orange = [0.95, 0.55, 0.15, 0.9];
    let blue = [0.20, 0.45, 0.95, 0.9];
    scene.floor_marks.push(FloorMark::footprint(Side::Left, Vec3::new(0.12, 0.0, 0.0), 0.0, blue));
    scene.floor_marks.push(FloorMark::footprint(Side::Right, Vec3::new(-0.12, 0.0, 0.0), 0.0, orange));
    scene.floor_marks.push(FloorMark::footprint(
        Side::Right,
        Vec3::new(-0.5, 0.0, -0.25),
        std::f32::consts::FRAC_PI_2,
        orange,
    ));
    scene.floor_marks.push(FloorMark {
        kind: labanplay::stage::FloorMarkKind::Spot,
        world_from_mark: glam::Mat4::from_translation(Vec3::new(0.55, 0.0, -0.25)),
        colour: [0.3, 0.8, 0.4, 0.8],
    });
    scene.contact_shadows.push(ContactShadow {
        centre_in_world: Vec3::new(0.0, 0.0, 0.3),
        radius_m: 0.25,
        opacity: 0.8,
    });
    scene.contact_shadows.push(ContactShadow {
        centre_in_world: Vec3::new(0.5, 0.3, 0.3),
        radius_m: 0.25,
        opacity: 0.8,
    });
    let camera = OrbitCamera::from_preset(CameraPreset::Top, Vec3::new(0.0, 0.0, 0.0), 1.6);
    let image = render(&gpu, &mut renderer, &scene, &camera);
    assert_golden("footprints_top", &image, Tolerance { channel_threshold: 6, max_failed_pixels: 250 });
}
