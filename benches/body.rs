//! Criterion benches for the body module: mesh generation and bone-heat weights per built-in
//! model, and one frame of CPU linear blend skinning. Run with
//! `cargo bench --no-default-features --bench body`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Mat4, Quat, Vec3};
use labanplay::body::heat::{HeatParams, heat_weights};
use labanplay::body::lbs::skin;
use labanplay::body::models::{JOINT_PARENTS, builtin_models, joint};
use labanplay::body::polygonise::PolygoniseParams;

fn generation_and_weights(c: &mut Criterion) {
    let mut group = c.benchmark_group("body");
    group.sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(1));
    let params = PolygoniseParams::default();
    for model in builtin_models() {
        let Ok(mesh) = model.build_mesh(&params) else { continue };
        let name = format!("{} ({} vertices)", model.name, mesh.vertex_count());
        group.bench_function(format!("mesh {name}"), |b| b.iter(|| model.build_mesh(black_box(&params))));
        group.bench_function(format!("heat weights {name}"), |b| {
            b.iter(|| heat_weights(black_box(&mesh), &model.bones, &HeatParams::default()))
        });
    }
    group.finish();
}

fn skinning(c: &mut Criterion) {
    let Some(model) = builtin_models().into_iter().next() else { return };
    let Ok(mesh) = model.build_mesh(&PolygoniseParams::default()) else { return };
    let Ok(weights) = heat_weights(&mesh, &model.bones, &HeatParams::default()) else { return };
    // A pose: elbow and knee bent, hip flexed; palette = world_from_joint × joint_from_bind.
    let rest = &model.joint_rest_in_model;
    let rotations = [(joint::ELBOW_L, -1.5), (joint::HIP_R, -1.2), (joint::KNEE_R, 1.5)];
    let mut world = vec![Mat4::IDENTITY; rest.len()];
    for j in 0..rest.len() {
        let angle = rotations.iter().find(|(k, _)| *k == j).map_or(0.0, |(_, a)| *a);
        let (parent, offset) = match JOINT_PARENTS.get(j).copied().flatten() {
            Some(p) => (world[p], rest[j] - rest[p]),
            None => (Mat4::IDENTITY, rest[j]),
        };
        world[j] = parent * Mat4::from_translation(offset) * Mat4::from_quat(Quat::from_rotation_x(angle));
    }
    let palette: Vec<Mat4> = world.iter().zip(rest).map(|(w, r)| *w * Mat4::from_translation(-*r)).collect();
    let (mut positions, mut normals): (Vec<Vec3>, Vec<Vec3>) = (Vec::new(), Vec::new());
    c.bench_function(&format!("body skin one frame {} ({} vertices)", model.name, mesh.vertex_count()), |b| {
        b.iter(|| {
            skin(
                &mesh.positions_in_model,
                &mesh.normals_in_model,
                &weights,
                black_box(&palette),
                &mut positions,
                &mut normals,
            )
        })
    });
}

criterion_group!(benches, generation_and_weights, skinning);
criterion_main!(benches);
