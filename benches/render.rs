//! Frame time of the renderer at 1280×720 on whatever adapter `create_headless` picks (the
//! software rasteriser on machines without a GPU): empty stage, and one ~20k-vertex skinned
//! figure with footprints and shadows; and a crowd on the software rasteriser (lavapipe, as the
//! goldens pick it): one low-detail performer against 1,000 (instanced, 8 shared poses, one
//! draw per mesh). Each iteration = prepare + draw + read-back.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/render_figure/mod.rs"]
mod render_figure;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use labanplay::render::{OffscreenTarget, Renderer, RendererConfig, create_headless};
use labanplay::side::Side;
use labanplay::stage::{CameraPreset, ContactShadow, DancerInstance, FloorMark, OrbitCamera, Scene};
use std::time::Duration;

fn bench_render(c: &mut Criterion) {
    let gpu = match create_headless() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("SKIP render bench: {error}");
            return;
        }
    };
    eprintln!("render bench on {}", gpu.adapter_summary());
    let camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, Vec3::new(0.0, 0.8, 0.0), 3.5);
    let mesh = render_figure::build_figure(40, 20);
    eprintln!("figure: {} vertices, {} triangles", mesh.positions.len(), mesh.indices.len() / 3);

    let mut group = c.benchmark_group("render_1280x720");
    group.sample_size(20).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(2));
    for (label, sample_count) in [("msaa4", 4), ("msaa1", 1)] {
        let config = RendererConfig { sample_count, ..RendererConfig::default() };
        let mut renderer = Renderer::new(&gpu.device, config);
        let Ok(target) = OffscreenTarget::new(&gpu, &renderer, 1280, 720) else {
            return;
        };
        let Ok(mesh_id) = renderer.upload_mesh(&gpu.device, &mesh) else {
            return;
        };

        let empty = Scene::default();
        group.bench_function(format!("empty_stage_{label}"), |b| {
            b.iter(|| target.render(&gpu, &mut renderer, &empty, &camera).map(|image| image.len()))
        });

        let mut figure = Scene::default();
        let palette = render_figure::posed_palette(Vec3::ZERO, 0.4, 0.3, -0.2);
        figure.dancers.push(DancerInstance { mesh_id, palette, colour: [0.75, 0.72, 0.68, 1.0] });
        for (side, x) in [(Side::Left, 0.1), (Side::Right, -0.1)] {
            figure.floor_marks.push(FloorMark::footprint(side, Vec3::new(x, 0.0, 0.0), 0.4, [0.9, 0.5, 0.2, 0.9]));
            figure.contact_shadows.push(ContactShadow {
                centre_in_world: Vec3::new(x, 0.0, 0.0),
                radius_m: 0.16,
                opacity: 0.5,
            });
        }
        group.bench_function(format!("skinned_figure_20k_{label}"), |b| {
            b.iter(|| target.render(&gpu, &mut renderer, &figure, &camera).map(|image| image.len()))
        });
    }
    group.finish();
}

/// 1 and 1,000 low-detail performers (the crowd body of plans) in a 40 × 25 block at 1.2 m,
/// framed whole, 1280×720, no MSAA (what software rasterisers get), on the software adapter.
fn bench_crowd(c: &mut Criterion) {
    use labanplay::render::{AdapterPreference, create_headless_with};
    use labanplay::stage::PoseInstance;
    use labanplay::stage::dancer_mesh::{coarse_mannequin, low_detail_mannequin, mannequin};
    let gpu = match create_headless_with(AdapterPreference::SoftwareFirst) {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("SKIP crowd render bench: {error}");
            return;
        }
    };
    eprintln!("crowd render bench on {}", gpu.adapter_summary());
    let full = mannequin(&Default::default()).unwrap();
    let low = low_detail_mannequin(&full.proportions).unwrap();
    let coarse = coarse_mannequin(&full.proportions).unwrap();
    eprintln!(
        "bodies: full {} triangles, low-detail {}, coarse {}",
        full.mesh.indices.len() / 3,
        low.mesh.indices.len() / 3,
        coarse.mesh.indices.len() / 3
    );
    let config = RendererConfig::recommended_for(&gpu, wgpu::TextureFormat::Rgba8UnormSrgb);
    let mut renderer = Renderer::new(&gpu.device, config);
    let target = OffscreenTarget::new(&gpu, &renderer, 1280, 720).unwrap();
    let mesh_id = renderer.upload_mesh(&gpu.device, &low.mesh).unwrap();
    // Eight poses: the rest pose turned at the arms and bent at the knees by different amounts.
    let skeleton = labanplay::pose::skeleton::Skeleton::new(&low.proportions);
    let poses: Vec<Vec<glam::Mat4>> = (0..8)
        .map(|k| {
            let mut pose = labanplay::pose::fk::Pose::rest(&skeleton);
            let a = 0.15 * k as f32;
            for (joint, axis) in [
                (labanplay::pose::skeleton::JointId::ShoulderL, glam::Vec3::Z),
                (labanplay::pose::skeleton::JointId::ShoulderR, -glam::Vec3::Z),
                (labanplay::pose::skeleton::JointId::KneeL, glam::Vec3::X),
            ] {
                pose.set_local(joint, pose.local(joint) * glam::Quat::from_axis_angle(axis, a));
            }
            let mut palette = Vec::new();
            low.palette(&skeleton, &pose, &mut palette);
            palette
        })
        .collect();
    let instance = |k: usize| {
        let (col, row) = ((k % 40) as f32, (k / 40) as f32);
        let at = glam::Vec3::new((col - 19.5) * 1.2, 0.0, (row - 12.0) * 1.2);
        PoseInstance {
            mesh_id,
            pose: (k % 8) as u32,
            world_from_pose: glam::Mat4::from_translation(at) * glam::Mat4::from_rotation_y(0.1 * k as f32),
            colour: [0.8, 0.3 + 0.05 * (k % 8) as f32, 0.25, 1.0],
        }
    };
    let stage = labanplay::stage::Stage { half_width_m: 26.0, half_depth_m: 17.0, ..Default::default() };
    let scene_of =
        |n: usize| Scene { stage, poses: poses.clone(), instances: (0..n).map(instance).collect(), ..Scene::default() };
    let camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, Vec3::new(0.0, 0.9, 0.0), 42.0);
    let mut group = c.benchmark_group("crowd_low_detail_1280x720");
    group.sample_size(20).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(2));
    for n in [1usize, 1000] {
        let scene = scene_of(n);
        group.bench_function(format!("performers_{n}"), |b| {
            b.iter(|| target.render(&gpu, &mut renderer, &scene, &camera).map(|image| image.len()))
        });
    }
    // The stadium plan half way (2,048 performers): posing the crowd and filling the scene (CPU),
    // and drawing that frame, framed as the player frames it.
    use labanplay::crowd::CrowdFrame;
    use labanplay::stage::camera_input::{CameraView, framed_camera};
    use labanplay::stage::plan_stage::plan_view;
    use labanplay::stage::plan_stage::{PlanMeshes, PlanOptions, build_plan_scene, open_plan, plan_bounds};
    let plan = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble/stadium.plan.toml");
    let crowd = open_plan(&plan, &full).unwrap();
    let full_id = renderer.upload_mesh(&gpu.device, &full.mesh).unwrap();
    let coarse_id = renderer.upload_mesh(&gpu.device, &coarse.mesh).unwrap();
    let meshes = PlanMeshes { full: (&full, full_id), low: (&low, mesh_id), coarse: (&coarse, coarse_id) };
    let camera = framed_camera(CameraView::ThreeQuarter, &plan_bounds(&crowd), 1280.0 / 720.0);
    let view = plan_view(&camera, 720);
    let t = 0.5 * crowd.end_beats();
    let (mut scene, mut frame) = (Scene::default(), CrowdFrame::default());
    group.bench_function("stadium_scene_cpu", |b| {
        b.iter(|| {
            build_plan_scene(&crowd, t, &view, meshes, PlanOptions::default(), &mut frame, &mut scene);
            scene.instances.len()
        })
    });
    let per_mesh = |id| scene.instances.iter().filter(|i| i.mesh_id == id).count();
    eprintln!(
        "stadium at beat {t}: {} performers ({} full, {} low-detail, {} coarse), {} palettes",
        scene.instances.len(),
        per_mesh(full_id),
        per_mesh(mesh_id),
        per_mesh(coarse_id),
        scene.poses.len()
    );
    group.bench_function("stadium_frame_render", |b| {
        b.iter(|| target.render(&gpu, &mut renderer, &scene, &camera).map(|image| image.len()))
    });
    group.finish();
}

criterion_group!(benches, bench_render, bench_crowd);
criterion_main!(benches);
