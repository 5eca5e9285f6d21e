//! Throughput of the `.lw` reader and survey on a synthetic LabanWriter 4 file: one staff,
//! bar lines, 10 000 direction signs, text and unknown-class records, LF line endings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use labanplay::read::{lw, lw_survey};

/// A synthetic score of about `signs` records.
fn synthetic_lw(signs: usize) -> Vec<u8> {
    let mut text = String::from("# synthetic benchmark score\nLabanWriter; 4000;\n");
    let length = signs * 24 + 48;
    text.push_str(&format!("Staff 100 0 36 {length};\n"));
    for i in 0..signs {
        let y = length - 24 * (i + 1);
        if i % 4 == 0 {
            text.push_str(&format!("Measure 100 {} 36 0;\n", y + 23));
        }
        text.push_str(&format!(
            "Direction {} {y} 10 23 {} {};\n",
            107 + 12 * (i % 2),
            1 + i % 11,
            ["L", "M", "H"][i % 3]
        ));
        if i % 50 == 0 {
            text.push_str(&format!("Text 20 {y} count {i};\nEffort 150 {y} 2 1 0 4;\n"));
        }
    }
    text.into_bytes()
}

fn bench_lw(c: &mut Criterion) {
    let bytes = synthetic_lw(10_000);
    let symbols = lw::read(&bytes).map(|d| d.symbols.len()).unwrap_or(0);
    assert!(symbols > 10_000, "synthetic file must decode");
    println!("synthetic file: {} bytes, {symbols} symbols", bytes.len());
    c.bench_function("lw_read_10k_directions", |b| b.iter(|| lw::read(black_box(&bytes))));
    c.bench_function("lw_container_10k_directions", |b| b.iter(|| lw::parse_container(black_box(&bytes))));
    c.bench_function("lw_survey_10k_directions", |b| b.iter(|| lw_survey::survey(black_box(&bytes))));
}

criterion_group!(benches, bench_lw);
criterion_main!(benches);
