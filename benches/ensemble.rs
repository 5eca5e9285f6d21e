//! Ensemble costs: one simulation step (64 / 1,000 / 10,000 performers crossing between two
//! blocks), assignment (256 / 1,024 / 4,096: Kuhn–Munkres where it is used, and the auction).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::DVec2;
use labanplay::ensemble::{Simulation, assign, read_plan};
use std::hint::black_box;

/// A plan of `n` performers in two square blocks that swap sides (the densest crossing).
fn swap_plan(n: usize) -> String {
    let side = ((n / 2) as f64).sqrt().ceil() as usize;
    let rows = side;
    let cols = (n / 2).div_ceil(rows);
    let w = cols as f64 * 1.2;
    format!(
        r#"ensemble = 1
tempo_bpm = 120
[stage]
width_m = {stage}
depth_m = {stage}
[[formation]]
name = "left"
shape = "block"
centre = [{l}, 0]
rows = {rows}
columns = {cols}
spacing_m = 1.2
[[formation]]
name = "right"
shape = "block"
centre = [{r}, 0]
rows = {rows}
columns = {cols}
spacing_m = 1.2
[[group]]
name = "a"
formation = "left"
[[group]]
name = "b"
formation = "right"
[[event]]
at = "1:1"
group = "a"
to = "right"
beats = {beats}
[[event]]
at = "1:1"
group = "b"
to = "left"
beats = {beats}
"#,
        stage = 4.0 * w,
        l = -w * 0.75,
        r = w * 0.75,
        beats = (w * 1.5 / 0.6).ceil()
    )
}

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("ensemble_step");
    for n in [64usize, 1_000, 10_000] {
        let text = swap_plan(n);
        let plan = read_plan(text.as_bytes(), std::path::Path::new(".")).unwrap();
        let mut sim = Simulation::new(&plan);
        // Into the crossing: the blocks are moving and meeting.
        let steps = (plan.behaviours[0].duration_beats * f64::from(plan.steering.steps_per_beat) * 0.4) as usize;
        for _ in 0..steps {
            sim.step();
        }
        group.bench_function(BenchmarkId::from_parameter(plan.performers.len()), |b| {
            b.iter_batched(|| sim.clone(), |mut s| s.step(), BatchSize::LargeInput)
        });
    }
    group.finish();
}

fn scatter(n: usize, seed: f64, spread: f64, offset: DVec2) -> Vec<DVec2> {
    (1..=n)
        .map(|k| {
            let k = k as f64 + seed;
            offset + DVec2::new((k * 0.754_877_666).fract() * spread, (k * 0.569_840_29).fract() * spread)
        })
        .collect()
}

fn bench_assign(c: &mut Criterion) {
    let mut group = c.benchmark_group("ensemble_assign");
    group.sample_size(10);
    for n in [256usize, 1_024, 4_096] {
        let spread = (n as f64).sqrt() * 1.2;
        let from = scatter(n, 0.5, spread, DVec2::ZERO);
        let to = scatter(n, 77.7, spread * 0.8, DVec2::new(spread * 0.5, 3.0));
        group.bench_function(BenchmarkId::new("auction", n), |b| {
            b.iter(|| assign::auction(black_box(&from), black_box(&to)))
        });
        if n <= 1_024 {
            group.bench_function(BenchmarkId::new("kuhn_munkres", n), |b| {
                b.iter(|| assign::hungarian(black_box(&from), black_box(&to)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_step, bench_assign);
criterion_main!(benches);
