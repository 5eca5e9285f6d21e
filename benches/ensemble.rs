//! Ensemble costs: one simulation step (64 / 1,000 / 10,000 performers crossing between two
//! blocks, with the plain steering and with ORCA), assignment (256 / 1,024 / 4,096: Kuhn–Munkres
//! where it is used, the exact auction and the sparse one the simulation uses), and preparing
//! one frame of crowd poses (1,000 / 10,000 performers walking or dancing).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::DVec2;
use glam::Vec3;
use labanplay::crowd::{Crowd, CrowdFrame, View};
use labanplay::ensemble::plan::Avoidance;
use labanplay::ensemble::{Simulation, assign, read_plan};
use labanplay::pose::skeleton::Proportions;
use std::hint::black_box;

/// A plan of `n` performers in two square blocks that swap sides across the middle of the stage
/// (the densest crossing).
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
centre = [{l}, {y}]
rows = {rows}
columns = {cols}
spacing_m = 1.2
[[formation]]
name = "right"
shape = "block"
centre = [{r}, {y}]
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
        y = 2.0 * w,
        beats = (w * 1.5 / 0.6).ceil()
    )
}

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("ensemble_step");
    for (name, method) in [("steering", Avoidance::Steering), ("orca", Avoidance::Orca)] {
        for n in [64usize, 1_000, 10_000] {
            let text = swap_plan(n);
            let mut plan = read_plan(text.as_bytes(), std::path::Path::new("."), &mut labanplay::read::Files).unwrap();
            plan.steering.method = method;
            let mut sim = Simulation::new(&plan);
            // Into the crossing: the blocks are moving and meeting.
            let steps = (plan.behaviours[0].duration_beats * f64::from(plan.steering.steps_per_beat) * 0.4) as usize;
            for _ in 0..steps {
                sim.step();
            }
            group.bench_function(BenchmarkId::new(name, plan.performers.len()), |b| {
                // By reference: dropping the clone is not timed. The clone takes one step untimed
                // first, so its fresh memory is touched before the timed step.
                let warm = || {
                    let mut s = sim.clone();
                    s.step();
                    s
                };
                b.iter_batched_ref(warm, |s| s.step(), BatchSize::LargeInput)
            });
        }
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
        group.bench_function(BenchmarkId::new("auction_sparse", n), |b| {
            b.iter(|| assign::auction_sparse(black_box(&from), black_box(&to)))
        });
        if n <= 1_024 {
            group.bench_function(BenchmarkId::new("kuhn_munkres", n), |b| {
                b.iter(|| assign::hungarian(black_box(&from), black_box(&to)))
            });
        }
    }
    group.finish();
}

/// `n` performers in one block dancing the demo score, then walking 4 m forward in 8 beats.
fn forward_plan(n: usize) -> String {
    let cols = ((n as f64).sqrt() * 1.5).ceil() as usize;
    let rows = n.div_ceil(cols);
    let score = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/walk-arms-turn.lbn");
    format!(
        r#"ensemble = 1
tempo_bpm = 120
[stage]
width_m = {w}
depth_m = {d}
[[formation]]
name = "block"
shape = "block"
centre = [0, {c}]
rows = {rows}
columns = {cols}
spacing_m = 1.2
[[group]]
name = "all"
formation = "block"
score = "{score}"
[[event]]
at = "3:1"
group = "all"
from = "block"
method = "keep"
move = [0, 4]
beats = 8
"#,
        w = cols as f64 * 1.2 + 4.0,
        d = rows as f64 * 1.2 + 10.0,
        c = rows as f64 * 0.6 + 1.0,
        score = score.display()
    )
}

fn bench_crowd_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("crowd_frame");
    group.sample_size(20);
    for n in [1_000usize, 10_000] {
        let plan =
            read_plan(forward_plan(n).as_bytes(), std::path::Path::new("."), &mut labanplay::read::Files).unwrap();
        let count = plan.performers.len();
        let motion = labanplay::ensemble::simulate(&plan);
        let crowd = Crowd::new(plan, motion, &Proportions::default()).unwrap();
        // A camera in front of the stage; the 64 nearest within 15 m are posed on their own.
        let view = View {
            eye_in_world: Vec3::new(0.0, 6.0, 20.0),
            full_within_m: 15.0,
            max_full: 64,
            coarse_beyond_m: f32::INFINITY,
        };
        let mut frame = CrowdFrame::default();
        for (what, t_beats) in [("dancing", 4.3), ("walking", 12.3)] {
            group.bench_function(BenchmarkId::new(what, count), |b| {
                b.iter(|| crowd.prepare(black_box(t_beats), &view, &mut frame))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_step, bench_assign, bench_crowd_frame);
criterion_main!(benches);
