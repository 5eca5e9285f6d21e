//! A driver for profilers (callgrind, perf) and for checking that a speed-up leaves the motion
//! alone: compiles the benchmark's generated 100-measure solo, samples its poses, or writes the
//! pelvis (centre-of-mass) path of the demos and the real corpus at 100 Hz for comparison.
//!
//! ```sh
//! cargo run --release --example motion_profile -- compile 5         # compile the solo 5 times
//! cargo run --release --example motion_profile -- compile-corpus 1  # compile the real lbn scores
//! valgrind --tool=callgrind target/release/examples/motion_profile sample 10000
//! valgrind --tool=callgrind target/release/examples/motion_profile fk 10000     # the yardstick
//! cargo run --release --example motion_profile -- dump before.txt   # pelvis paths, demos + corpus
//! cargo run --release --example motion_profile -- compare before.txt after.txt
//! cargo run --release --example motion_profile -- joints before.bin   # every joint at 60 fps
//! cargo run --release --example motion_profile -- compare-joints before.bin after.bin
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::animation::{PelvisPath, compile};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;
use labanplay::pose::skeleton::Proportions;
use labanplay::read::read;
use labanplay::score::Score;
use std::hint::black_box;
use std::path::{Path, PathBuf};

#[path = "../support/solo.rs"]
mod solo;

fn solo_score() -> Score {
    Score::from_document(&read(solo::generated_solo(100).as_bytes(), Some("lbn")).unwrap())
}

/// The demo scores and every real `.lbn` score (when `../shared` is there), sorted.
fn score_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs = [root.join("scores"), root.join("../shared/scores/real")];
    let mut files = labanplay::cli::check::collect_files(&dirs);
    files.retain(|p| p.extension().is_some_and(|e| e == "lbn" || e == "lw"));
    files.sort();
    files
}

/// The real corpus folder.
fn root_real() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/scores/real")
}

/// The generated solo, then the demos and the real corpus (see [`score_files`]), with names.
fn named_scores() -> Vec<(String, Score)> {
    let mut scores = vec![("generated solo".to_string(), solo_score())];
    for path in score_files() {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let ext = path.extension().and_then(|e| e.to_str());
        let Ok(doc) = read(&bytes, ext) else { continue };
        scores.push((path.display().to_string(), Score::from_document(&doc)));
    }
    scores
}

/// Reads a file of little-endian f32s.
fn read_f32(path: &str) -> Vec<f32> {
    let b = std::fs::read(path).expect("read a joints file");
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = |i: usize| args.get(i).and_then(|s| s.parse::<usize>().ok()).unwrap_or(1);
    let arg = |i: usize, what: &str| args.get(i).map(String::as_str).expect(what);
    let (opts, props) = (MotionOptions::default(), Proportions::default());
    match args.first().map(String::as_str) {
        Some("compile") => compile_solo(count(1), &opts, &props),
        Some("compile-corpus") => compile_corpus(count(1), &opts, &props),
        Some("sample") => sample_solo(count(1), &opts, &props),
        Some("fk") => fk_yardstick(count(1), &opts, &props),
        Some("dump") => dump_pelvis(arg(1, "dump OUT.txt"), &opts, &props),
        Some("joints") => dump_joints(arg(1, "joints OUT.bin"), &opts, &props),
        Some("compare-joints") => {
            compare_joints(arg(1, "compare-joints A B"), arg(2, "compare-joints A B"), &opts, &props)
        }
        Some("compare") => compare_pelvis(arg(1, "compare A B"), arg(2, "compare A B")),
        _ => eprintln!(
            "usage: motion_profile compile N | compile-corpus N | sample N | dump OUT | compare A B | joints OUT | compare-joints A B"
        ),
    }
}

/// Compiles the generated solo `count` times, then prints its optimiser statistics.
fn compile_solo(count: usize, opts: &MotionOptions, props: &Proportions) {
    let score = solo_score();
    for _ in 0..count {
        let anim = compile(black_box(&score), opts, props);
        if let PelvisPath::Optimised(p) = &anim.dancers[0].path {
            black_box(p.stats());
        }
    }
    let anim = compile(&score, opts, props);
    if let PelvisPath::Optimised(p) = &anim.dancers[0].path {
        println!("{:?}", p.stats());
    }
}

/// Every real `.lbn` score, as the `compile motion, real corpus` benchmark compiles them,
/// `count` times; then the scores and their optimiser iterations.
fn compile_corpus(count: usize, opts: &MotionOptions, props: &Proportions) {
    let scores: Vec<Score> = score_files()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "lbn") && p.starts_with(root_real()))
        .filter_map(|p| std::fs::read(&p).ok())
        .filter_map(|b| read(&b, Some("lbn")).ok())
        .map(|d| Score::from_document(&d))
        .collect();
    for _ in 0..count {
        black_box(scores.iter().map(|s| compile(black_box(s), opts, props).dancers.len()).sum::<usize>());
    }
    let iterations: usize = scores
        .iter()
        .flat_map(|s| compile(s, opts, props).dancers)
        .filter_map(|d| match &d.path {
            PelvisPath::Optimised(p) => Some(p.stats().iterations),
            PelvisPath::Simple(_) => None,
        })
        .sum();
    println!("{} scores, {iterations} optimiser iterations", scores.len());
}

/// Samples the solo's pose `count` times at times spread over the piece.
fn sample_solo(count: usize, opts: &MotionOptions, props: &Proportions) {
    let anim = compile(&solo_score(), opts, props);
    let mut pose = Pose::rest(&anim.skeleton);
    let mut t = 0.0;
    for _ in 0..count {
        t = (t + 0.137) % anim.duration_secs;
        anim.dancers[0].sample_into(&anim.skeleton, black_box(t), &mut pose);
    }
    black_box(&pose);
}

/// The benchmark's yardstick, `count` times: FK of the solo's skeleton posed as in
/// benches/motion.rs.
fn fk_yardstick(count: usize, opts: &MotionOptions, props: &Proportions) {
    let anim = compile(&solo_score(), opts, props);
    let mut posed = Pose::rest(&anim.skeleton);
    for (i, q) in posed.local_rot.iter_mut().enumerate() {
        *q = glam::Quat::from_scaled_axis(glam::Vec3::new(0.1, 0.2, -0.1) * i as f32);
    }
    let mut out = [glam::Mat4::IDENTITY; labanplay::pose::JOINT_COUNT];
    for _ in 0..count {
        labanplay::pose::fk::local_to_world(&anim.skeleton, black_box(&posed), black_box(&mut out)).unwrap();
    }
    black_box(&out);
}

/// Writes each dancer's pelvis path at 100 Hz (with its optimiser statistics) to `out`.
fn dump_pelvis(out: &str, opts: &MotionOptions, props: &Proportions) {
    let mut text = String::new();
    for (name, score) in &named_scores() {
        let anim = compile(score, opts, props);
        for (i, d) in anim.dancers.iter().enumerate() {
            if let PelvisPath::Optimised(p) = &d.path {
                text.push_str(&format!("# {name} dancer {i} {:?}\n", p.stats()));
            }
            let steps = (anim.duration_secs * 100.0).ceil() as usize;
            for k in 0..=steps {
                let p = d.pelvis_at(k as f64 / 100.0);
                text.push_str(&format!("{} {} {}\n", p.x, p.y, p.z));
            }
        }
    }
    std::fs::write(out, text).expect("write the dump");
}

/// Writes every joint of every dancer at 60 fps to `out`, as f32 bits.
fn dump_joints(out: &str, opts: &MotionOptions, props: &Proportions) {
    let mut bytes = Vec::new();
    for (_, score) in &named_scores() {
        let anim = compile(score, opts, props);
        let mut poses = Vec::new();
        for k in 0..=(anim.duration_secs * 60.0).ceil() as usize {
            anim.sample(k as f64 / 60.0, &mut poses);
            for pose in &poses {
                let (_, pos) = labanplay::pose::fk::world_rot_pos(&anim.skeleton, pose);
                bytes.extend(pos.iter().flat_map(|p| p.to_array()).flat_map(f32::to_le_bytes));
            }
        }
    }
    std::fs::write(out, bytes).expect("write the joints");
}

/// Compares two files of [`dump_joints`]: how many joints differ and by how much, then which
/// scores (their parts of the files, in the order `joints` writes them).
fn compare_joints(path_a: &str, path_b: &str, opts: &MotionOptions, props: &Proportions) {
    let (a, b) = (read_f32(path_a), read_f32(path_b));
    let (mut worst, mut differ) = (0.0f32, 0usize);
    for (pa, pb) in a.chunks_exact(3).zip(b.chunks_exact(3)) {
        let d = (0..3).map(|i| (pa[i] - pb[i]).powi(2)).sum::<f32>().sqrt();
        differ += usize::from(pa.iter().zip(pb).any(|(x, y)| x.to_bits() != y.to_bits()));
        worst = worst.max(d);
    }
    println!("{} joint positions, {differ} differ in any bit; largest difference {:.6} mm", a.len() / 3, worst * 1e3);
    if a.len() != b.len() {
        println!("the files have different lengths");
    }
    let mut at = 0usize;
    for (name, score) in &named_scores() {
        let anim = compile(score, opts, props);
        let frames = (anim.duration_secs * 60.0).ceil() as usize + 1;
        let len = 3 * frames * anim.dancers.len() * labanplay::pose::skeleton::JOINT_COUNT;
        let (pa, pb) = (a.get(at..at + len).unwrap_or(&[]), b.get(at..at + len).unwrap_or(&[]));
        let differ = pa.iter().zip(pb).filter(|(x, y)| x.to_bits() != y.to_bits()).count();
        if differ > 0 {
            let worst = pa
                .chunks_exact(3)
                .zip(pb.chunks_exact(3))
                .map(|(p, q)| (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f32>().sqrt())
                .fold(0.0f32, f32::max);
            println!("  {name}: {differ} coordinates differ, largest {:.3} mm", worst * 1e3);
        }
        at += len;
    }
}

/// Compares two files of [`dump_pelvis`]: samples that differ, the largest difference and
/// where, and optimiser iteration counts that differ.
fn compare_pelvis(path_a: &str, path_b: &str) {
    let read_lines = |p: &str| std::fs::read_to_string(p).expect("read a dump");
    let (a, b) = (read_lines(path_a), read_lines(path_b));
    let (mut worst, mut at, mut name) = (0.0f32, String::new(), String::new());
    let (mut lines, mut differ) = (0usize, 0usize);
    for (la, lb) in a.lines().zip(b.lines()) {
        if la.starts_with('#') {
            name = la.to_string();
            // The costs' last digits may differ; the iteration counts tell more.
            let iterations = |l: &str| l.split("iterations: ").nth(1).map(|r| r.split(',').next().map(str::to_string));
            if iterations(la) != iterations(lb) {
                println!("iterations differ:\n{la}\n{lb}");
            }
            continue;
        }
        let pa: Vec<f32> = la.split(' ').map(|v| v.parse().unwrap()).collect();
        let pb: Vec<f32> = lb.split(' ').map(|v| v.parse().unwrap()).collect();
        let d = (0..3).map(|i| (pa[i] - pb[i]).powi(2)).sum::<f32>().sqrt();
        lines += 1;
        differ += usize::from(d > 0.0);
        if d > worst {
            (worst, at) = (d, name.clone());
        }
    }
    println!("{lines} samples, {differ} differ; largest pelvis difference {:.3} mm in {at}", worst * 1e3);
    if a.lines().count() != b.lines().count() {
        println!("the dumps have different lengths");
    }
}
