//! Criterion benches of the COM path job: the 4-step walk and a 100-measure phrase (400 beats
//! at 120 bpm, a step every beat, a two-foot jump every 8 beats).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use glam::Vec3;
use labanplay::motion::com::{ComJob, Contact, FixedPoint, Foot, solve_com_path};

const LEG_M: f64 = 0.9;

fn contact(side: usize, z: f32, t0: f64, t1: f64) -> Contact {
    let (foot, x) = if side == 0 { (Foot::Left, 0.1) } else { (Foot::Right, -0.1) };
    Contact::new(foot, Vec3::new(x, 0.0, z), t0, t1)
}

fn four_step_walk() -> ComJob {
    let contacts = vec![
        contact(0, 0.0, 0.0, 1.2),
        contact(1, 0.0, 0.0, 0.4),
        contact(1, 0.7, 1.0, 2.2),
        contact(0, 1.4, 2.0, 3.2),
        contact(1, 2.1, 3.0, 4.2),
        contact(0, 2.8, 4.0, 6.0),
        contact(1, 2.8, 5.0, 6.0),
    ];
    let mut job = ComJob::new(contacts, LEG_M);
    let h = job.standing_height_m() as f32;
    job.fixed_points =
        vec![FixedPoint::at_rest(0.0, Vec3::new(0.0, h, 0.0)), FixedPoint::at_rest(6.0, Vec3::new(0.0, h, 2.8))];
    job
}

/// 100 measures of 4 beats at 120 bpm: a 0.6 m step every beat; every 8th beat both feet
/// take off 0.25 s before the beat and land together 0.3 m further on. At rest at both ends.
fn hundred_measures() -> ComJob {
    let beat = 0.5;
    let mut contacts = Vec::new();
    let mut planted: [Option<(f32, f64)>; 2] = [Some((0.0, 0.0)), Some((0.0, 0.0))];
    let mut z = 0.0f32;
    let mut next_side = 1usize;
    for b in 1..=400usize {
        let t = b as f64 * beat;
        if b % 8 == 0 {
            z += 0.3;
            for (side, slot) in planted.iter_mut().enumerate() {
                if let Some((pz, t0)) = slot.take() {
                    contacts.push(contact(side, pz, t0, t - 0.25));
                }
                *slot = Some((z, t));
            }
        } else {
            let side = next_side;
            if let Some((pz, t0)) = planted[side].take() {
                contacts.push(contact(side, pz, t0, (t - 0.35).max(t0 + 0.05)));
            }
            z += 0.6;
            planted[side] = Some((z, t));
            next_side = 1 - side;
        }
    }
    let t_end = 400.0 * beat + 1.0;
    for (side, slot) in planted.iter_mut().enumerate() {
        if let Some((pz, t0)) = slot.take() {
            contacts.push(contact(side, pz, t0, t_end));
        }
    }
    let mut job = ComJob::new(contacts, LEG_M);
    let h = job.standing_height_m() as f32;
    job.fixed_points =
        vec![FixedPoint::at_rest(0.0, Vec3::new(0.0, h, 0.0)), FixedPoint::at_rest(t_end, Vec3::new(0.0, h, z))];
    job
}

fn bench(c: &mut Criterion) {
    let walk = four_step_walk();
    let long = hundred_measures();
    if let Ok(path) = solve_com_path(&long) {
        eprintln!("100 measures: {:?}", path.stats());
    }
    c.bench_function("com/four_step_walk", |b| b.iter(|| solve_com_path(black_box(&walk))));
    let mut group = c.benchmark_group("com");
    group.sample_size(20);
    group.bench_function("hundred_measures", |b| b.iter(|| solve_com_path(black_box(&long))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
