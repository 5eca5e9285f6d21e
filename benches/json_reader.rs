//! Criterion benchmark of the JSON keyframe reader: a synthetic 2000-keyframe LabanotationSuite
//! score, the same as a gestureBot array, and (when present) every real `.json` score in turn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use labanplay::read::json;
use std::fmt::Write as _;
use std::path::Path;

const DIRECTIONS: [&str; 5] = ["Place", "Forward", "Left Forward", "Right", "Right Forward"];
const LEVELS: [&str; 3] = ["Low", "Normal", "High"];

/// A layout-A score with `n` keyframes in the suite's own pretty-printed style.
fn synthetic_layout_a(n: usize) -> String {
    let mut s = String::from("{\n    \"bench\": {\n");
    for i in 0..n {
        let sep = if i + 1 == n { "" } else { "," };
        let _ = write!(
            s,
            "        \"Position{i}\": {{\n            \"start time\": [\n                \"{}\"\n            ], \n            \"duration\": [\n                \"1\"\n            ], \n",
            i * 250
        );
        for (k, part) in ["head", "right elbow", "right wrist", "left elbow", "left wrist"].iter().enumerate() {
            let d = DIRECTIONS[(i + k) % DIRECTIONS.len()];
            let l = LEVELS[(i * 7 + k) % LEVELS.len()];
            let _ = write!(
                s,
                "            \"{part}\": [\n                \"{d}\", \n                \"{l}\"\n            ], \n"
            );
        }
        let _ = write!(
            s,
            "            \"rotation\": [\n                \"ToLeft\", \n                \"{}\"\n            ]\n        }}{sep}\n",
            i % 2 * 30
        );
    }
    s.push_str("    }\n}\n");
    s
}

/// A layout-B score with `n` keyframes.
fn synthetic_layout_b(n: usize) -> String {
    let mut s = String::from("[\n");
    for i in 0..n {
        let sep = if i + 1 == n { "" } else { "," };
        let _ = write!(s, "  {{\n    \"time\": {},\n", i as f64 * 0.25);
        for (k, part) in ["head", "relbow", "rwrist", "lelbow", "lwrist"].iter().enumerate() {
            let d = DIRECTIONS[(i + k) % DIRECTIONS.len()].to_lowercase();
            let l = LEVELS[(i * 7 + k) % LEVELS.len()].to_lowercase();
            let comma = if k == 4 { "" } else { "," };
            let _ = write!(
                s,
                "    \"{part}\": {{\n      \"dur\": 0.25,\n      \"dir\": \"{d}\",\n      \"lvl\": \"{l}\"\n    }}{comma}\n"
            );
        }
        let _ = writeln!(s, "  }}{sep}");
    }
    s.push_str("]\n");
    s
}

fn real_files() -> Vec<Vec<u8>> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/scores/real"));
    let root = std::env::var_os("LABANPLAY_REAL_SCORES").map_or_else(|| root.to_path_buf(), Into::into);
    let mut files = Vec::new();
    let mut dirs = vec![root.join("labanotationsuite"), root.join("gesturebotdesignkit")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.extend(std::fs::read(&path).ok());
            }
        }
    }
    files
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("json_read");
    for (name, text) in [("layout_a_2000", synthetic_layout_a(2000)), ("layout_b_2000", synthetic_layout_b(2000))] {
        assert!(json::read(text.as_bytes()).is_ok_and(|d| d.keyframes.gestures.len() == 10_000));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(name, |b| b.iter(|| json::read(black_box(text.as_bytes()))));
    }
    let real = real_files();
    if real.is_empty() {
        eprintln!("real scores not found; skipping the real_all benchmark");
    } else {
        group.throughput(Throughput::Bytes(real.iter().map(|f| f.len() as u64).sum()));
        group.bench_function("real_all", |b| {
            b.iter(|| real.iter().map(|f| json::read(black_box(f)).map_or(0, |d| d.symbol_count())).sum::<usize>())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
