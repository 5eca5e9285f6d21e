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

/// A 100-measure solo in LED format: walks, arm gestures, a quarter turn and a jump every
/// other measure.
fn generated_solo(measures: usize) -> String {
    let c = 133;
    let mut out = String::new();
    let top = 96 + measures * 96 + 20;
    out.push_str(&format!(
        "Stav 0 {} 12 1 1 {top} B\nStav 2 {} 12 1 1 {top} B\nStav 1 {c} 48 1 1 {top} L\nBars 0 30 48 1 177 3 B\n",
        c - 37,
        c + 37
    ));
    out.push_str("Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n");
    for m in 0..=measures {
        let y = 96 + m * 96;
        out.push_str(&format!("Bars {} 30 {y} 1 177 3 {}\n", m + 1, if m == 0 { "L" } else { "B" }));
        if m == measures {
            break;
        }
        let yb = |b: usize| y + 1 + b * 24;
        if m % 2 == 0 {
            out.push_str(&format!("Dirn 1 134 {} 4 10 23 M\nDirn 10 122 {} 4 10 23 M\n", yb(0), yb(1)));
            out.push_str(&format!("Rotn 2 122 {} 4 10 23 M\nPins 3 118 {} 1 18 18 L\n", yb(2), yb(2) + 3));
            out.push_str(&format!("Dirn 11 134 {} 4 10 23 M\n", yb(3)));
            out.push_str(&format!("Dirn 3 171 {} 8 10 47 H\nDirn 8 85 {} 8 10 47 H\n", yb(0), yb(0)));
        } else {
            out.push_str(&format!("Dirn 11 134 {} 4 10 23 L\nDirn 11 122 {} 4 10 23 L\n", yb(0), yb(0)));
            out.push_str(&format!("Dirn 11 134 {} 4 10 23 L\nDirn 11 122 {} 4 10 23 L\n", yb(2), yb(2)));
            out.push_str(&format!("Dirn 11 134 {} 4 10 23 M\nDirn 11 122 {} 4 10 23 M\n", yb(3), yb(3)));
            out.push_str(&format!("Dirn 1 171 {} 8 10 47 M\nDirn 10 85 {} 8 10 47 M\n", yb(0), yb(0)));
        }
    }
    out
}

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
