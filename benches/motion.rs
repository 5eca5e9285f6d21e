//! Motion benchmarks: compiling the motion (rule engine + paths) for the real corpus and for a
//! generated 100-measure solo, and sampling one pose, with `fk/local_to_world_23_joints` in the
//! same run so the cost of a pose is printed as a multiple of one forward-kinematics pass.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group};
use labanplay::animation::compile;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;
use labanplay::pose::skeleton::Proportions;
use labanplay::read::read;
use labanplay::score::Score;
use std::hint::black_box;
use std::path::PathBuf;

#[path = "support/solo.rs"]
mod solo;
use solo::generated_solo;

fn scores() -> Vec<Score> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/scores/real"));
    labanplay::cli::check::collect_files(&[dir])
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "lbn"))
        .filter_map(|p| std::fs::read(&p).ok())
        .filter_map(|b| read(&b, Some("lbn")).ok())
        .map(|d| Score::from_document(&d))
        .collect()
}

fn bench(c: &mut Criterion) {
    let opts = MotionOptions::default();
    let props = Proportions::default();
    let corpus = scores();
    if corpus.is_empty() {
        eprintln!("SKIP corpus motion benchmark: ../shared/scores/real is absent");
    } else {
        c.bench_function(&format!("compile motion, real corpus ({} lbn scores)", corpus.len()), |b| {
            b.iter(|| corpus.iter().map(|s| compile(black_box(s), &opts, &props).dancers.len()).sum::<usize>())
        });
    }
    if !corpus.is_empty() {
        // Every dancer of every real score, cycling through time: leg gestures with the pelvis
        // tilt, hand and palm columns, flights with their kick keys.
        let anims: Vec<_> = corpus.iter().map(|s| compile(s, &opts, &props)).collect();
        let dancers: Vec<_> = anims.iter().flat_map(|a| a.dancers.iter().map(move |d| (a, d))).collect();
        let mut pose = Pose::rest(&anims[0].skeleton);
        let (mut i, mut t) = (0usize, 0.0f64);
        c.bench_function("sample one pose, real corpus dancers in turn", |b| {
            b.iter(|| {
                i = (i + 1) % dancers.len();
                let (a, d) = dancers[i];
                t = (t + 0.137) % a.duration_secs.max(0.01);
                d.sample_into(&a.skeleton, black_box(t), &mut pose)
            })
        });
    }
    let solo = Score::from_document(&read(generated_solo(100).as_bytes(), Some("lbn")).unwrap());
    c.bench_function("compile motion, generated 100-measure solo", |b| {
        b.iter(|| compile(black_box(&solo), &opts, &props))
    });
    let anim = compile(&solo, &opts, &props);
    // The yardstick, as in benches/ik.rs: FK of a posed 23-joint skeleton.
    let mut posed = Pose::rest(&anim.skeleton);
    for (i, q) in posed.local_rot.iter_mut().enumerate() {
        *q = glam::Quat::from_scaled_axis(glam::Vec3::new(0.1, 0.2, -0.1) * i as f32);
    }
    c.bench_function(FK_ID, |b| {
        let mut out = [glam::Mat4::IDENTITY; labanplay::pose::JOINT_COUNT];
        b.iter(|| labanplay::pose::fk::local_to_world(&anim.skeleton, black_box(&posed), black_box(&mut out)))
    });
    let mut pose = Pose::rest(&anim.skeleton);
    let mut t = 0.0;
    c.bench_function(SAMPLE_ID, |b| {
        b.iter(|| {
            t = (t + 0.137) % anim.duration_secs;
            anim.dancers[0].sample_into(&anim.skeleton, black_box(t), &mut pose)
        })
    });
}

const FK_ID: &str = "fk/local_to_world_23_joints";
const SAMPLE_ID: &str = "sample one pose";

/// The median of a benchmark of this run, nanoseconds, from criterion's `estimates.json`.
fn median_ns(id: &str) -> Option<f64> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/target")));
    // Criterion's own file-name rule (criterion 0.5 `make_filename_safe`).
    let dir: String = id.chars().map(|c| if "?\"/\\*<>:|^".contains(c) { '_' } else { c }).collect();
    let text = std::fs::read_to_string(target.join("criterion").join(dir).join("new/estimates.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["median"]["point_estimate"].as_f64()
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    match (median_ns(SAMPLE_ID), median_ns(FK_ID)) {
        (Some(sample), Some(fk)) => println!(
            "sample one pose = {:.1} x fk/local_to_world_23_joints ({sample:.0} ns / {fk:.1} ns, medians of this run; goal <= 10 x)",
            sample / fk
        ),
        _ => println!("(ratio not printed: run both `{SAMPLE_ID}` and `{FK_ID}` in one run)"),
    }
}
