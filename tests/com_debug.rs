use glam::Vec3;
use labanplay::motion::com::*;
fn left(z: f32, t0: f64, t1: f64) -> Contact { Contact::new(Foot::Left, Vec3::new(0.1, 0.0, z), t0, t1) }
fn right(z: f32, t0: f64, t1: f64) -> Contact { Contact::new(Foot::Right, Vec3::new(-0.1, 0.0, z), t0, t1) }
#[test]
fn debug_walk() {
    let contacts = vec![ left(0.0, 0.0, 1.2), right(0.0, 0.0, 0.4), right(0.7, 1.0, 2.2), left(1.4, 2.0, 3.2), right(2.1, 3.0, 4.2), left(2.8, 4.0, 6.0), right(2.8, 5.0, 6.0) ];
    let mut job = ComJob::new(contacts, 0.9);
    if let Ok(r) = std::env::var("RATE") { job.knot_rate_hz = r.parse().unwrap(); }
    let h = job.standing_height_m() as f32;
    job.fixed_points = vec![FixedPoint::at_rest(0.0, Vec3::new(0.0, h, 0.0)), FixedPoint::at_rest(6.0, Vec3::new(0.0, h, 2.8))];
    if let Ok(w) = std::env::var("W") { let v: Vec<f64> = w.split(',').map(|x| x.parse().unwrap()).collect(); job.weights = ComWeights { balance: v[0], reach: v[1], comfort: v[2], height: v[3], centre: v[4], push: v[5], jerk: v[6] }; }
    if let Ok(it) = std::env::var("ITER") { job.max_iterations = it.parse().unwrap(); }
    let path = solve_com_path(&job).unwrap();
    eprintln!("{:?}", path.stats());
    let g = 9.81;
    for i in 0..=60 {
        let t = i as f64 * 0.1;
        let s = path.state_at(t);
        let (c, a) = (s.position_in_world, s.acceleration_in_world);
        let px = c.x - (c.y-0.0) * a.x / g;
        let pz = c.z - c.y * a.z / g;
        eprintln!("t {t:4.1} c ({:6.3} {:6.3} {:6.3}) v ({:6.3} {:6.3} {:6.3}) a ({:7.2} {:7.2} {:7.2}) p* ({:6.3} {:6.3})", c.x, c.y, c.z, s.velocity_in_world.x, s.velocity_in_world.y, s.velocity_in_world.z, a.x, a.y, a.z, px, pz);
    }
}
#[test]
fn debug_stand() {
    let mut job = ComJob::new(vec![left(0.0, 0.0, 3.0), right(0.0, 0.0, 3.0)], 0.9);
    if let Ok(it) = std::env::var("ITER") { job.max_iterations = it.parse().unwrap(); }
    let path = solve_com_path(&job).unwrap();
    eprintln!("{:?}", path.stats());
    for i in 0..=30 { let t = i as f64 * 0.1; let s = path.state_at(t); eprintln!("t {t:4.1} c {:?} v {:?}", s.position_in_world, s.velocity_in_world); }
}

/// 100 measures of 4 beats at 120 bpm: steps every beat, a two-foot jump every 8 beats.
fn long_phrase() -> ComJob {
    let beat = 0.5;
    let step = 0.6f32;
    let mut contacts = Vec::new();
    let mut z = 0.0f32;
    // (foot, start) of the currently planted feet, per side: left = 0, right = 1.
    let mut planted: [Option<(f32, f64)>; 2] = [Some((0.0, 0.0)), Some((0.0, 0.0))];
    let mut push = |side: usize, z: f32, t0: f64, t1: f64| {
        contacts.push(if side == 0 { left(z, t0, t1) } else { right(z, t0, t1) });
    };
    let mut next_side = 1usize;
    for b in 1..=400usize {
        let t = b as f64 * beat;
        if b % 8 == 0 {
            // Jump: both feet take off 0.25 s before the beat and land together on it.
            let landing_z = z + 0.3;
            for side in 0..2 {
                if let Some((pz, t0)) = planted[side].take() {
                    push(side, pz, t0, t - 0.25);
                }
                planted[side] = Some((landing_z, t));
            }
            z = landing_z;
        } else {
            // Step with `next_side`: it lifts mid-way through the previous beat.
            let side = next_side;
            if let Some((pz, t0)) = planted[side].take() {
                push(side, pz, t0, (t - 0.35).max(t0 + 0.05));
            }
            z += step;
            planted[side] = Some((z, t));
            next_side = 1 - side;
        }
    }
    let t_end = 400.0 * beat + 1.0;
    for side in 0..2 {
        if let Some((pz, t0)) = planted[side].take() {
            push(side, pz, t0, t_end);
        }
    }
    let _ = z;
    ComJob::new(contacts, 0.9)
}


#[test]
fn debug_long() {
    let mut job = long_phrase();
    if let Ok(w) = std::env::var("W") { let v: Vec<f64> = w.split(',').map(|x| x.parse().unwrap()).collect(); job.weights = ComWeights { balance: v[0], reach: v[1], comfort: v[2], height: v[3], centre: v[4], push: v[5], jerk: v[6] }; }
    let t = std::time::Instant::now();
    let path = solve_com_path(&job).unwrap();
    eprintln!("{:?} {:?}", path.stats(), t.elapsed());
}
#[test]
fn debug_long_iters() {
    let job = long_phrase();
    let full = solve_com_path(&job).unwrap();
    for it in [2u32, 3, 4, 5, 6, 7, 8] {
        let mut j = job.clone(); j.max_iterations = it;
        let p = solve_com_path(&j).unwrap();
        let mut worst = (0.0f32, 0.0);
        let n = (full.t_end_secs() * 100.0) as usize;
        for i in 0..=n { let t = i as f64 / 100.0; let d = (p.position_at(t) - full.position_at(t)).length(); if d > worst.0 { worst = (d, t); } }
        eprintln!("iters {it}: worst diff {:.5} m at t {:.2} (end {})", worst.0, worst.1, full.t_end_secs());
    }
}
#[test]
fn debug_long_end() {
    let job = long_phrase();
    let p = solve_com_path(&job).unwrap();
    for i in 0..=40 {
        let t = 199.0 + i as f64 * 0.05;
        let s = p.state_at(t);
        let c = s.position_in_world;
        let mut ds = String::new();
        for k in job.contacts.iter().filter(|k| k.t_start_secs <= t && t <= k.t_end_secs) { let a = k.position_in_world.as_dvec3() + glam::DVec3::Y * 0.08; ds += &format!(" {:?}@{:.2}:{:.4}", k.foot, k.position_in_world.z, (c - a).length()); }
        eprintln!("t {t:7.2} c ({:6.3} {:6.3} {:6.3}) v ({:6.3} {:6.3} {:6.3}) a ({:6.2} {:6.2} {:6.2}){ds}", c.x, c.y, c.z, s.velocity_in_world.x, s.velocity_in_world.y, s.velocity_in_world.z, s.acceleration_in_world.x, s.acceleration_in_world.y, s.acceleration_in_world.z);
    }
}
fn cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let rest = &s[s.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
}
#[test]
fn debug_cpu() {
    let job = long_phrase();
    let n = 30;
    let c0 = cpu_secs(); let w0 = std::time::Instant::now();
    let mut it = 0;
    for _ in 0..n { it = solve_com_path(&job).unwrap().stats().iterations; }
    eprintln!("long: cpu {:.2} ms/solve, wall {:.2} ms/solve, iterations {it}", (cpu_secs() - c0) * 1000.0 / n as f64, w0.elapsed().as_secs_f64() * 1000.0 / n as f64);
}
