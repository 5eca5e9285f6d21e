//! Criterion benches for rigging a built-in model (mesh + bone-heat weights on the animation
//! skeleton, what a viewer does at start-up) and for one frame of a rigged dancer: palette of a
//! demo pose plus CPU skinning. Run with `cargo bench --no-default-features --bench rig`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use labanplay::animation::compile;
use labanplay::body::models::builtin_models;
use labanplay::body::polygonise::PolygoniseParams;
use labanplay::body::rig::rig_model;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;

fn rigging(c: &mut Criterion) {
    let mut group = c.benchmark_group("rig");
    group.sample_size(10).measurement_time(Duration::from_secs(6)).warm_up_time(Duration::from_secs(1));
    let params = PolygoniseParams::default();
    for model in builtin_models() {
        group.bench_function(format!("rig_model {}", model.name), |b| b.iter(|| rig_model(black_box(&model), &params)));
    }
    group.finish();
}

fn one_frame(c: &mut Criterion) {
    let Some(model) = builtin_models().into_iter().next() else { return };
    let Ok(rig) = rig_model(&model, &PolygoniseParams::default()) else { return };
    let Ok(doc) = labanplay::read::read(labanplay::demo::WALK_ARMS_TURN_LBN, Some("lbn")) else { return };
    let anim = compile(&labanplay::score::Score::from_document(&doc), &MotionOptions::default(), rig.proportions());
    let Some(dancer) = anim.dancers.first() else { return };
    let mut pose = Pose::rest(&anim.skeleton);
    dancer.sample_into(&anim.skeleton, anim.duration_secs * 0.4, &mut pose);
    let (mut palette, mut positions, mut normals) = (Vec::new(), Vec::new(), Vec::new());
    let vertices = rig.mesh.vertex_count();
    c.bench_function("rig palette one frame", |b| b.iter(|| rig.palette(black_box(&pose), &mut palette)));
    c.bench_function(&format!("rig palette + skin one frame {} ({vertices} vertices)", rig.name), |b| {
        b.iter(|| rig.skin(black_box(&pose), &mut palette, &mut positions, &mut normals))
    });
}

criterion_group!(benches, rigging, one_frame);
criterion_main!(benches);
