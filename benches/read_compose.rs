//! Read + compose throughput: over the real corpus (if present) and over a generated
//! 100-measure, two-staff `.lbn` score. Reports MB/s and symbols/s through criterion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use labanplay::read::read;
use labanplay::score::Score;
use std::hint::black_box;
use std::path::PathBuf;

/// A 100-measure, two-staff LED score: steps on every beat, arm gestures every other beat,
/// a turn with a pin every fourth measure, 4 beats a measure at 24 units a beat.
pub fn generated_duet(measures: usize) -> String {
    let mut out = String::from("# generated duet\n");
    let mut n = 0;
    let mut line = |out: &mut String, s: String| {
        n += 1;
        out.push_str(&format!("{s} # {n}\n"));
    };
    let top = 96 + measures * 96 + 20;
    for centre in [133, 303] {
        line(&mut out, format!("Stav   0 {} 12 1 1 {top} B", centre - 37));
        line(&mut out, format!("Stav   2 {} 12 1 1 {top} B", centre + 37));
        line(&mut out, format!("Stav   1 {centre} 48 1 1 {top} L"));
    }
    line(&mut out, "Bars   0 30 48 1 464 3 B".into());
    for m in 0..=measures {
        let y = 96 + m * 96;
        line(&mut out, format!("Bars {} 30 {y} 1 464 3 {}", m + 1, if m == 0 { "L" } else { "B" }));
        if m == measures {
            break;
        }
        for centre in [133, 303] {
            for beat in 0..4 {
                let yb = y + 1 + beat * 24;
                let (x, item) = if beat % 2 == 0 { (centre + 1, 1) } else { (centre - 11, 10) };
                if m % 4 == 3 && beat == 2 {
                    line(&mut out, format!("Rotn 2 {} {yb} 4 10 23 M", centre + 1));
                    line(&mut out, format!("Pins 3 {} {} 1 18 18 L", centre - 3, yb + 3));
                } else {
                    line(&mut out, format!("Dirn {item} {x} {yb} 4 10 23 M"));
                }
                if beat % 2 == 0 {
                    line(&mut out, format!("Dirn 3 {} {yb} 4 10 23 H", centre + 48));
                    line(&mut out, format!("Dirn 8 {} {yb} 4 10 23 H", centre - 58));
                }
            }
        }
    }
    out
}

fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/scores/real"));
    labanplay::cli::check::collect_files(&[dir])
        .into_iter()
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .collect()
}

fn read_compose(bytes: &[u8], ext: Option<&str>) -> usize {
    match read(bytes, ext) {
        Ok(doc) => {
            let score = Score::from_document(&doc);
            doc.symbol_count() + score.staves.len()
        }
        Err(d) => d.0.len(),
    }
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    let total_bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let total_symbols: usize = files
        .iter()
        .filter_map(|(p, b)| read(b, p.extension().and_then(|e| e.to_str())).ok())
        .map(|d| d.symbol_count())
        .sum();
    if !files.is_empty() {
        let mut g = c.benchmark_group("corpus");
        g.throughput(Throughput::Bytes(total_bytes as u64));
        g.bench_function("read+compose bytes", |b| {
            b.iter(|| {
                files
                    .iter()
                    .map(|(p, bytes)| read_compose(black_box(bytes), p.extension().and_then(|e| e.to_str())))
                    .sum::<usize>()
            })
        });
        g.throughput(Throughput::Elements(total_symbols as u64));
        g.bench_function("read+compose symbols", |b| {
            b.iter(|| {
                files
                    .iter()
                    .map(|(p, bytes)| read_compose(black_box(bytes), p.extension().and_then(|e| e.to_str())))
                    .sum::<usize>()
            })
        });
        g.finish();
    } else {
        eprintln!("SKIP corpus benchmark: ../shared/scores/real is absent");
    }
    let duet = generated_duet(100);
    let symbols = read(duet.as_bytes(), Some("lbn")).map(|d| d.symbol_count()).unwrap_or(0);
    let mut g = c.benchmark_group("generated_duet_100_measures");
    g.throughput(Throughput::Bytes(duet.len() as u64));
    g.bench_function("read+compose bytes", |b| b.iter(|| read_compose(black_box(duet.as_bytes()), Some("lbn"))));
    g.throughput(Throughput::Elements(symbols as u64));
    g.bench_function("read+compose symbols", |b| b.iter(|| read_compose(black_box(duet.as_bytes()), Some("lbn"))));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
