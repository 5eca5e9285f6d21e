//! Staff benchmarks: laying out a 100-measure duet once, and the per-frame glyph query that the
//! viewer runs every frame while the staff scrolls.

#![allow(clippy::unwrap_used)] // Bench set-up on the demo score.

use criterion::{Criterion, criterion_group, criterion_main};
use labanplay::read::read;
use labanplay::score::{Measure, Score};
use labanplay::stage::playback::MeasureGrid;
use labanplay::stage::staff_layout::{StaffLayout, StaffView};
use labanplay::viewer::metronome::beat_schedule;
use std::hint::black_box;

/// The demo duet repeated until it has `measure_count` measures (entries and measures shifted).
fn long_duet(measure_count: usize) -> Score {
    let base = Score::from_document(&read(labanplay::demo::DUET_LBN, Some("lbn")).unwrap());
    let period = base.measures.iter().map(|m| m.start_beats + m.beats).fold(0.0, f64::max).max(1.0);
    let per_copy = base.measures.len().max(1);
    let copies = measure_count.div_ceil(per_copy);
    let mut score = base.clone();
    score.measures.clear();
    for staff in &mut score.staves {
        for channel in &mut staff.channels {
            channel.entries.clear();
        }
    }
    for copy in 0..copies {
        let shift = copy as f64 * period;
        for m in &base.measures {
            if score.measures.len() < measure_count {
                let number = score.measures.len() as u32 + 1;
                score.measures.push(Measure { number, start_beats: m.start_beats + shift, ..m.clone() });
            }
        }
        for (staff, base_staff) in score.staves.iter_mut().zip(&base.staves) {
            for (channel, base_channel) in staff.channels.iter_mut().zip(&base_staff.channels) {
                channel.entries.extend(base_channel.entries.iter().map(|e| {
                    let mut e = e.clone();
                    e.start_beats += shift;
                    e
                }));
            }
        }
    }
    score.duration_beats = score.measures.last().map(|m| m.start_beats + m.beats).unwrap_or(0.0);
    score
}

fn bench(c: &mut Criterion) {
    let score = long_duet(100);
    let entries: usize = score.staves.iter().flat_map(|s| &s.channels).map(|c| c.entries.len()).sum();
    eprintln!("100-measure duet: {} measures, {entries} entries, {} beats", score.measures.len(), score.duration_beats);
    c.bench_function("staff layout: build, 100-measure duet", |b| b.iter(|| StaffLayout::new(black_box(&score))));
    let layout = StaffLayout::new(&score);
    let view = StaffView::new(420.0, 800.0, 40.0);
    let shown: Vec<usize> = [0.0, 50.0, 200.0, 399.0].iter().map(|&t| layout.glyphs(&view, t).len()).collect();
    eprintln!("glyphs per frame (420x800 px, 40 px/beat) at t = 0, 50, 200, 399: {shown:?}");
    let mut t = 0.0;
    c.bench_function("staff layout: glyphs for one frame, 100-measure duet", |b| {
        b.iter(|| {
            t = (t + 0.0137) % score.duration_beats;
            layout.glyphs(black_box(&view), black_box(t)).len()
        })
    });
    let mut from = 0.0;
    c.bench_function("metronome: beat schedule for one frame", |b| {
        b.iter(|| {
            let to = from + 0.02;
            let n = beat_schedule(MeasureGrid::of_score(black_box(&score)), from, to).len();
            from = if to > score.duration_beats { 0.0 } else { to };
            n
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
