//! Tests of the centre-of-mass path job through its public API: a 4-step walk, standing,
//! a jump, determinism, bad inputs, and a long generated phrase.
#![allow(clippy::unwrap_used)]

use glam::Vec3;
use labanplay::motion::com::{ComError, ComJob, ComPath, Contact, FixedPoint, Foot, solve_com_path};

const LEG_M: f64 = 0.9;
const HALF_WIDTH_M: f32 = 0.1;

fn left(z: f32, t0: f64, t1: f64) -> Contact {
    Contact::new(Foot::Left, Vec3::new(HALF_WIDTH_M, 0.0, z), t0, t1)
}

fn right(z: f32, t0: f64, t1: f64) -> Contact {
    Contact::new(Foot::Right, Vec3::new(-HALF_WIDTH_M, 0.0, z), t0, t1)
}

fn job_with_rest_ends(contacts: Vec<Contact>, start_z: f32, end_z: f32) -> ComJob {
    let mut job = ComJob::new(contacts, LEG_M);
    let h = job.standing_height_m() as f32;
    let t_end = job.contacts.iter().map(|c| c.t_end_secs).fold(0.0, f64::max);
    job.fixed_points = vec![
        FixedPoint::at_rest(0.0, Vec3::new(0.0, h, start_z)),
        FixedPoint::at_rest(t_end, Vec3::new(0.0, h, end_z)),
    ];
    job
}

/// Four forward steps 0.7 m apart, one per second, then the right foot closes; at rest at both ends.
fn four_step_walk() -> ComJob {
    let contacts = vec![
        left(0.0, 0.0, 1.2),
        right(0.0, 0.0, 0.4),
        right(0.7, 1.0, 2.2),
        left(1.4, 2.0, 3.2),
        right(2.1, 3.0, 4.2),
        left(2.8, 4.0, 6.0),
        right(2.8, 5.0, 6.0),
    ];
    job_with_rest_ends(contacts, 0.0, 2.8)
}

fn times(path: &ComPath, rate_hz: f64) -> impl Iterator<Item = f64> + '_ {
    let (t0, t1) = (path.t_start_secs(), path.t_end_secs());
    let n = ((t1 - t0) * rate_hz).ceil() as usize;
    (0..=n).map(move |i| (t0 + i as f64 / rate_hz).min(t1))
}

#[track_caller]
fn assert_close(a: Vec3, b: Vec3, tol: f32, what: &str) {
    assert!((a - b).length() <= tol, "{what}: {a} vs {b} (tolerance {tol})");
}

/// Every planted ankle within leg reach at 200 Hz, every contact start and end included.
#[track_caller]
fn assert_within_reach(job: &ComJob, path: &ComPath) {
    let mut ts: Vec<f64> = times(path, 200.0).collect();
    ts.extend(job.contacts.iter().flat_map(|c| [c.t_start_secs, c.t_end_secs]));
    for t in ts {
        let pelvis = path.position_at(t);
        for c in job.contacts.iter().filter(|c| c.t_start_secs <= t && t <= c.t_end_secs) {
            let lift = job.ankle_height_m + c.level_offset_m.max(0.0);
            let ankle = c.position_in_world + Vec3::Y * lift as f32;
            let d = pelvis.distance(ankle) as f64;
            assert!(d <= LEG_M + 1e-3, "t = {t}: pelvis {pelvis} is {d} m from ankle {ankle}");
        }
    }
}

/// Velocity is continuous across every knot (C1): the jump across a knot is no bigger than
/// what the acceleration gives over the probe interval.
#[track_caller]
fn assert_c1(path: &ComPath) {
    let eps = 1e-6;
    for t in path.knot_times_secs() {
        if t - eps < path.t_start_secs() || t + eps > path.t_end_secs() {
            continue;
        }
        let (before, after) = (path.velocity_at(t - eps), path.velocity_at(t + eps));
        assert!((after - before).length() < 1e-3, "velocity jumps at knot t = {t}: {before} → {after}");
    }
}

#[test]
fn four_step_walk_meets_ends_moves_forward_within_reach_and_c1() {
    let job = four_step_walk();
    let path = solve_com_path(&job).unwrap();
    eprintln!("{:?}", path.stats());

    for f in &job.fixed_points {
        assert_close(path.position_at(f.t_secs), f.position_in_world, 1e-5, "fixed point position");
        assert_close(path.velocity_at(f.t_secs), f.velocity_in_world, 1e-4, "fixed point velocity");
    }

    let mut previous_z = f32::NEG_INFINITY;
    for t in times(&path, 200.0) {
        let p = path.position_at(t);
        assert!(p.is_finite());
        assert!(p.z >= previous_z - 1e-5, "moves backward at t = {t}: z {} < {previous_z}", p.z);
        previous_z = previous_z.max(p.z);
        // Height stays plausible: not collapsed and not above a straight leg.
        assert!(p.y > 0.6 && p.y < (job.ankle_height_m + LEG_M) as f32 + 1e-3, "t = {t}: height {}", p.y);
    }
    assert_within_reach(&job, &path);
    assert_c1(&path);
}

#[test]
fn walk_pelvis_sways_over_the_stance_foot() {
    // Mid single support on the right foot (t = 1.6 s: left swinging): the pelvis is nearer
    // the right foot sideways than in double support.
    let job = four_step_walk();
    let path = solve_com_path(&job).unwrap();
    let single = path.position_at(1.6);
    let start = path.position_at(0.0);
    assert!(single.x < start.x - 0.01, "no sway toward the right (−x) foot: {single} vs {start}");
}

#[test]
fn standing_still_gives_a_stationary_path_at_standing_height() {
    let job = ComJob::new(vec![left(0.0, 0.0, 3.0), right(0.0, 0.0, 3.0)], LEG_M);
    let path = solve_com_path(&job).unwrap();
    let h = job.standing_height_m() as f32;
    let first = path.position_at(0.0);
    for t in times(&path, 50.0) {
        let p = path.position_at(t);
        assert_close(p, first, 1e-4, "stationary");
        assert!(path.velocity_at(t).length() < 1e-4, "moving at t = {t}");
        assert!((p.y - h).abs() < 0.01, "height {} vs standing {h}", p.y);
        assert!(p.x.abs() < 1e-4 && p.z.abs() < 1e-4, "not centred over the feet: {p}");
    }
}

/// Jump in place on both feet: 1 s of support, 0.5 s of flight, 1 s of support.
fn jump_job(flight_secs: f64) -> ComJob {
    let t_land = 1.0 + flight_secs;
    let contacts = vec![
        left(0.0, 0.0, 1.0),
        right(0.0, 0.0, 1.0),
        left(0.0, t_land, t_land + 1.0),
        right(0.0, t_land, t_land + 1.0),
    ];
    job_with_rest_ends(contacts, 0.0, 0.0)
}

#[test]
fn jump_flight_is_a_ballistic_parabola() {
    let flight = 0.5;
    let job = jump_job(flight);
    let g = job.gravity_mps2;
    let path = solve_com_path(&job).unwrap();
    assert_eq!(path.flights_secs(), vec![(1.0, 1.0 + flight)]);

    let takeoff = path.position_at(1.0);
    let landing = path.position_at(1.0 + flight);
    let apex = times(&path, 1000.0)
        .filter(|t| (1.0..=1.0 + flight).contains(t))
        .map(|t| path.position_at(t).y)
        .fold(f32::NEG_INFINITY, f32::max);
    let expected = g * flight * flight / 8.0;
    let rise = (apex - takeoff.y) as f64;
    assert!((rise - expected).abs() < 0.01, "apex rise {rise} vs g·T²/8 = {expected}");
    assert!((landing.y - takeoff.y).abs() < 0.01, "take-off {takeoff} vs landing {landing}");

    for i in 1..20 {
        let t = 1.0 + flight * i as f64 / 20.0;
        let a = path.acceleration_at(t);
        assert!((a.y as f64 + g).abs() < 0.02 * g, "flight vertical acceleration {} at t = {t}", a.y);
        assert!(a.x.abs() < 1e-4 && a.z.abs() < 1e-4, "horizontal acceleration in flight: {a}");
        // Second differences of positions agree (the parabola itself, not just its formula).
        let h = 0.01;
        let fd = (path.position_at(t + h) - 2.0 * path.position_at(t) + path.position_at(t - h)) / (h * h) as f32;
        assert!((fd.y as f64 + g).abs() < 0.02 * g, "finite-difference acceleration {fd} at t = {t}");
    }
    assert_within_reach(&job, &path);
    assert_c1(&path);
}

#[test]
fn solving_twice_is_bit_identical() {
    for job in [four_step_walk(), jump_job(0.3)] {
        let a = solve_com_path(&job).unwrap();
        let b = solve_com_path(&job).unwrap();
        assert_eq!(a, b);
        for t in times(&a, 97.0) {
            assert_eq!(a.position_at(t).to_array().map(f32::to_bits), b.position_at(t).to_array().map(f32::to_bits));
        }
    }
}

#[test]
fn no_contacts_is_an_error() {
    let job = ComJob::new(Vec::new(), LEG_M);
    assert_eq!(solve_com_path(&job), Err(ComError::NoContacts));
}

#[test]
fn zero_length_and_reversed_contacts_are_errors() {
    for (t0, t1) in [(1.0, 1.0), (2.0, 1.0)] {
        let job = ComJob::new(vec![left(0.0, 0.0, 3.0), right(0.0, t0, t1)], LEG_M);
        assert!(matches!(solve_com_path(&job), Err(ComError::ContactTooShort { index: 1, .. })));
    }
}

#[test]
fn contradictory_contacts_are_an_error() {
    // The left foot planted in two places at once.
    let job = ComJob::new(vec![left(0.0, 0.0, 2.0), left(0.7, 1.0, 3.0), right(0.0, 0.0, 3.0)], LEG_M);
    assert_eq!(solve_com_path(&job), Err(ComError::OverlappingContacts { foot: Foot::Left, first: 0, second: 1 }));
}

#[test]
fn nan_and_infinite_inputs_are_errors() {
    let base = || ComJob::new(vec![left(0.0, 0.0, 2.0), right(0.0, 0.0, 2.0)], LEG_M);
    let mut jobs = Vec::new();
    let mut j = base();
    j.contacts[0].position_in_world.x = f32::NAN;
    jobs.push(j);
    let mut j = base();
    j.contacts[1].t_end_secs = f64::INFINITY;
    jobs.push(j);
    let mut j = base();
    j.contacts[1].t_start_secs = f64::NAN;
    jobs.push(j);
    let mut j = base();
    j.leg_length_m = f64::NAN;
    jobs.push(j);
    let mut j = base();
    j.weights.jerk = f64::NAN;
    jobs.push(j);
    let mut j = base();
    j.fixed_points.push(FixedPoint::at_rest(1.0, Vec3::new(0.0, f32::NAN, 0.0)));
    jobs.push(j);
    let mut j = base();
    j.standing_pelvis_height_m = Some(f64::NAN);
    jobs.push(j);
    for job in jobs {
        assert!(matches!(solve_com_path(&job), Err(ComError::NonFinite { .. })), "{job:?}");
    }
}

#[test]
fn bad_parameters_and_misplaced_fixed_points_are_errors() {
    let base = || ComJob::new(vec![left(0.0, 0.0, 1.0), right(0.0, 0.0, 1.0), left(0.0, 1.5, 2.5)], LEG_M);
    let mut j = base();
    j.leg_length_m = -1.0;
    assert!(matches!(solve_com_path(&j), Err(ComError::BadParameter { name: "leg_length_m", .. })));
    let mut j = base();
    j.knot_rate_hz = 0.0;
    assert!(matches!(solve_com_path(&j), Err(ComError::BadParameter { name: "knot_rate_hz", .. })));
    let mut j = base();
    j.fixed_points.push(FixedPoint::at_rest(1.2, Vec3::ZERO));
    assert!(matches!(solve_com_path(&j), Err(ComError::FixedPointInFlight { .. })));
    let mut j = base();
    j.fixed_points.push(FixedPoint::at_rest(9.0, Vec3::ZERO));
    assert!(matches!(solve_com_path(&j), Err(ComError::FixedPointOutsideSpan { .. })));
    let mut j = base();
    j.fixed_points.push(FixedPoint::at_rest(0.3, Vec3::new(0.0, 0.9, 0.0)));
    j.fixed_points.push(FixedPoint::at_rest(0.3, Vec3::new(0.0, 0.9, 0.0)));
    assert!(matches!(solve_com_path(&j), Err(ComError::RunTooShort { .. })));
    let mut j = base();
    j.knot_rate_hz = 1000.0;
    j.contacts.push(right(0.0, 1.5, 1e9));
    assert!(matches!(solve_com_path(&j), Err(ComError::TooLong { .. })));
}

#[test]
fn awkward_but_valid_inputs_give_finite_paths() {
    let mut jobs = Vec::new();
    // One very short contact between two flights (a bounce).
    jobs.push(ComJob::new(vec![left(0.0, 0.0, 1.0), right(0.2, 1.3, 1.302), left(0.4, 1.6, 2.6)], LEG_M));
    // Feet far beyond reach of each other: no way to satisfy reach; still a finite path.
    jobs.push(ComJob::new(vec![left(0.0, 0.0, 2.0), right(5.0, 0.0, 2.0)], LEG_M));
    // A single contact and a fixed point far away from it.
    let mut j = ComJob::new(vec![left(0.0, 0.0, 1.0)], LEG_M);
    j.fixed_points.push(FixedPoint::at_rest(0.5, Vec3::new(3.0, 3.0, 3.0)));
    jobs.push(j);
    // A tiny gap (not a flight) and an explicit height profile.
    let mut j = ComJob::new(vec![left(0.0, 0.0, 1.0), right(0.3, 1.01, 2.0)], LEG_M);
    j.height_profile = vec![
        labanplay::motion::com::HeightSample { t_secs: 0.0, height_m: 0.9 },
        labanplay::motion::com::HeightSample { t_secs: 2.0, height_m: 0.8 },
    ];
    jobs.push(j);
    for job in jobs {
        let path = solve_com_path(&job).unwrap();
        for t in times(&path, 100.0).chain([f64::NAN, -1e300, 1e300]) {
            let s = path.state_at(t);
            assert!(
                s.position_in_world.is_finite()
                    && s.velocity_in_world.is_finite()
                    && s.acceleration_in_world.is_finite(),
                "non-finite state at t = {t}"
            );
        }
    }
}

/// 100 measures of 4 beats at 120 bpm: a 0.6 m step every beat; every 8th beat both feet
/// take off 0.25 s before the beat and land together 0.3 m further on. At rest at both ends.
fn long_phrase() -> ComJob {
    let beat = 0.5;
    let mut contacts = Vec::new();
    // (z, touch-down) of the planted foot on each side: left = 0, right = 1.
    let mut planted: [Option<(f32, f64)>; 2] = [Some((0.0, 0.0)), Some((0.0, 0.0))];
    let contact = |side: usize, z: f32, t0: f64, t1: f64| if side == 0 { left(z, t0, t1) } else { right(z, t0, t1) };
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
    job_with_rest_ends(contacts, 0.0, z)
}

#[test]
fn long_phrase_solves_within_reach_and_smooth() {
    let job = long_phrase();
    let path = solve_com_path(&job).unwrap();
    eprintln!("{:?}", path.stats());
    assert_eq!(path.flights_secs().len(), 50);
    assert_within_reach(&job, &path);
    assert_c1(&path);
}

#[test]
fn level_offsets_and_height_profiles_move_the_pelvis() {
    // Standing in plié, then middle, then relevé: the pelvis follows the levels.
    let low = -0.12 * LEG_M;
    let high = 0.07 * LEG_M;
    let contacts = vec![
        left(0.0, 0.0, 2.0).with_level_offset(low),
        right(0.0, 0.0, 2.0).with_level_offset(low),
        left(0.0, 2.0, 4.0),
        right(0.0, 2.0, 4.0),
        left(0.0, 4.0, 6.0).with_level_offset(high),
        right(0.0, 4.0, 6.0).with_level_offset(high),
    ];
    let job = ComJob::new(contacts, LEG_M);
    let path = solve_com_path(&job).unwrap();
    let (y_low, y_mid, y_high) = (path.position_at(1.0).y, path.position_at(3.0).y, path.position_at(5.0).y);
    assert!(y_low < y_mid - 0.08, "plié {y_low} vs middle {y_mid}");
    assert!(y_high > y_mid + 0.04, "relevé {y_high} vs middle {y_mid}");
    assert_within_reach(&job, &path);

    // An explicit profile overrides the levels.
    let mut job = ComJob::new(vec![left(0.0, 0.0, 3.0), right(0.0, 0.0, 3.0)], LEG_M);
    job.height_profile = vec![
        labanplay::motion::com::HeightSample { t_secs: 0.0, height_m: 0.90 },
        labanplay::motion::com::HeightSample { t_secs: 3.0, height_m: 0.80 },
    ];
    let path = solve_com_path(&job).unwrap();
    assert!((path.position_at(1.5).y - 0.85).abs() < 0.01, "profile midpoint {}", path.position_at(1.5).y);
    assert!(path.position_at(0.5).y > path.position_at(2.5).y + 0.05);
}

#[test]
fn travelling_leap_keeps_constant_horizontal_velocity_in_the_air() {
    // Right foot takes off at 1.0 s, left foot lands 1.0 m further at 1.35 s.
    let contacts = vec![left(0.0, 0.0, 0.6), right(0.0, 0.0, 1.0), left(1.0, 1.35, 2.5), right(1.0, 1.8, 2.5)];
    let job = job_with_rest_ends(contacts, 0.0, 1.0);
    let path = solve_com_path(&job).unwrap();
    assert_eq!(path.flights_secs(), vec![(1.0, 1.35)]);
    let v0 = path.velocity_at(1.0);
    assert!(v0.z > 0.5, "the leap travels forward: take-off velocity {v0}");
    for i in 0..=10 {
        let t = 1.0 + 0.35 * i as f64 / 10.0;
        let v = path.velocity_at(t);
        assert!(
            (v.x - v0.x).abs() < 1e-4 && (v.z - v0.z).abs() < 1e-4,
            "horizontal velocity changes in flight: {v} vs {v0}"
        );
    }
    assert_within_reach(&job, &path);
    assert_c1(&path);
}

#[test]
fn a_hold_in_the_middle_is_met_exactly_and_splits_the_job() {
    let mut job = four_step_walk();
    let h = job.standing_height_m() as f32;
    // A hold: at rest over the left foot (z = 1.4 m, single support) at t = 2.6 s.
    let hold = FixedPoint::at_rest(2.6, Vec3::new(0.0, h - 0.02, 1.4));
    job.fixed_points.push(hold);
    let path = solve_com_path(&job).unwrap();
    assert_eq!(path.stats().segments, 2);
    assert_close(path.position_at(2.6), hold.position_in_world, 1e-5, "hold position");
    assert!(path.velocity_at(2.6).length() < 1e-4);
    assert_c1(&path);
}

#[test]
fn random_jobs_never_panic_or_return_nan() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut solved = 0;
    for _ in 0..150 {
        let n = (next() * 6.0) as usize;
        let mut contacts = Vec::new();
        for _ in 0..n {
            let t0 = next() * 4.0 - 0.5;
            let t1 = t0 + next() * 2.0 - 0.2;
            let p = Vec3::new((next() * 3.0 - 1.5) as f32, (next() * 0.1) as f32, (next() * 3.0 - 1.5) as f32);
            let foot = if next() < 0.5 { Foot::Left } else { Foot::Right };
            contacts.push(Contact::new(foot, p, t0, t1).with_level_offset(next() * 0.3 - 0.15));
        }
        let mut job = ComJob::new(contacts, 0.5 + next());
        job.knot_rate_hz = 5.0 + next() * 60.0;
        if next() < 0.3 {
            let t = next() * 3.0;
            job.fixed_points.push(FixedPoint::at_rest(t, Vec3::new(0.0, 0.9, 0.0)));
        }
        if next() < 0.05 {
            job.gravity_mps2 = f64::NAN;
        }
        match solve_com_path(&job) {
            Ok(path) => {
                solved += 1;
                for t in times(&path, 50.0) {
                    let s = path.state_at(t);
                    assert!(s.position_in_world.is_finite() && s.velocity_in_world.is_finite(), "{job:?}");
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
    assert!(solved > 10, "only {solved} random jobs were solvable");
}
