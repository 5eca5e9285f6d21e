//! CPU time of one frame of the player loop without rendering: advance the transport, sample
//! every dancer, build the renderer's `Scene` (palettes, footprints, trails, shadows) and lay out
//! the staff panel's glyphs — for the walking demo (one dancer) and the duet (two dancers).

use criterion::{Criterion, criterion_group, criterion_main};
use labanplay::body::models::DEFAULT_MODEL;
use labanplay::stage::dancer_mesh::build_model;
use labanplay::stage::player::{Player, ScoreSource};
use labanplay::stage::staff_layout::StaffView;
use labanplay::stage::{MeshId, Scene};
use std::hint::black_box;
use std::time::Duration;

fn bench_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("viewer_frame_cpu");
    group.sample_size(40).measurement_time(Duration::from_secs(6)).warm_up_time(Duration::from_secs(1));
    for (label, index) in [("demo_walk", 0usize), ("duet", 2usize)] {
        let Some((name, score)) = labanplay::stage::demo_score(index) else { continue };
        let Ok(model) = build_model(DEFAULT_MODEL) else { return };
        let mut player = Player::new(score, ScoreSource::Demo(name), model, false);
        player.playback.play();
        let mut scene = Scene::default();
        let view = StaffView { width_px: 240.0, height_px: 700.0, cursor_y_px: 525.0, px_per_beat: 36.0 };
        group.bench_function(label, |b| {
            b.iter(|| {
                // One 60 Hz frame; the loop wraps at the end of the score.
                player.playback.advance(1.0 / 60.0);
                player.sample();
                player.build_scene(MeshId(0), &mut scene);
                let glyphs = player.layout().glyphs(&view, player.playback.t_beats());
                black_box((scene.dancers.len(), scene.floor_marks.len(), glyphs.len()))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_frame);
criterion_main!(benches);
