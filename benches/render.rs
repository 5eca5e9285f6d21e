//! Frame time of the renderer at 1280×720 on whatever adapter `create_headless` picks (the
//! software rasteriser on machines without a GPU): empty stage, and one ~20k-vertex skinned
//! figure with footprints and shadows. Each iteration = prepare + draw + read-back.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/render_figure/mod.rs"]
mod render_figure;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use labanplay::render::{
    CameraPreset, ContactShadow, DancerInstance, FloorMark, FootSide, OffscreenTarget, OrbitCamera, Renderer,
    RendererConfig, Scene, create_headless,
};
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
        for (side, x) in [(FootSide::Left, 0.1), (FootSide::Right, -0.1)] {
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

criterion_group!(benches, bench_render);
criterion_main!(benches);
