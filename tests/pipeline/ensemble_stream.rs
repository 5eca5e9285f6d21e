//! The simulation keeps keys and findings, not frames: what it finds while stepping equals what
//! a scan of every recorded frame finds (a reference written here over the frames), a performer
//! standing still keeps the same few keys however long the plan, and one thread or several give
//! the same motion bit for bit.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use glam::DVec2;
use labanplay::ensemble::conflicts::{self, LongStep, ObstacleConflict, segment_obstacle_distance};
use labanplay::ensemble::plan::Body;
use labanplay::ensemble::stream::keys::KEY_TOLERANCE_M;
use labanplay::ensemble::targets::{self, OffFloor, OffFloorKind};
use labanplay::ensemble::{self, Motion, Plan, Simulation};
use labanplay::read::Files;
use std::path::Path;

fn read(text: &str) -> Plan {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble");
    ensemble::read_plan(text.as_bytes(), &dir, &mut Files).map_err(|d| d.render("test.plan.toml", None)).unwrap()
}

/// Every frame of a plan's simulation.
fn frames_of(plan: &Plan) -> Vec<Vec<DVec2>> {
    let steps = ensemble::simulate(plan).steps;
    let mut sim = Simulation::new(plan);
    let mut frames = vec![sim.positions().to_vec()];
    while frames.len() <= steps {
        sim.step();
        frames.push(sim.positions().to_vec());
    }
    frames
}

/// A line crossing a ring past a pillar, a Bézier swinging off the stage's side, a move too
/// short to arrive, and a run that takes over from a walk half way through a beat.
const BUSY: &str = r#"ensemble = 1
[stage]
width_m = 10
depth_m = 8
[[obstacle]]
name = "pillar"
centre = [0, 3]
radius_m = 0.3
[[formation]]
name = "line"
shape = "line"
from = [-4, 1]
to = [4, 1]
count = 9
[[formation]]
name = "ring"
shape = "circle"
centre = [0, 4]
radius_m = 2.5
count = 9
[[formation]]
name = "back"
shape = "line"
from = [-4, 7]
to = [4, 7]
count = 9
[[group]]
name = "g"
formation = "line"
[[event]]
at = "1:1"
group = "g"
to = "ring"
beats = 8
path = "bezier"
via = [[4.5, 3]]
[[event]]
at = "3:3.3"
group = "g"
to = "back"
beats = 2
[[event]]
at = "5:1"
group = "g"
to = "line"
gait = "run"
beats = 8
"#;

/// Position at `t_beats`, linear between frames.
fn at(frames: &[Vec<DVec2>], dt: f64, i: usize, t_beats: f64) -> DVec2 {
    let f = (t_beats / dt).clamp(0.0, (frames.len() - 1) as f64);
    let k = (f.floor() as usize).min(frames.len() - 2);
    frames[k][i].lerp(frames[k + 1][i], f - k as f64)
}

/// The frame scan: steps too long, paths and spots off the floor, bodies in set pieces.
fn scan(plan: &Plan, frames: &[Vec<DVec2>], motion: &Motion) -> (Vec<LongStep>, Vec<OffFloor>, Vec<ObstacleConflict>) {
    let dt = motion.dt_beats;
    let (mut long, mut off, mut inside) = (Vec::new(), Vec::new(), Vec::new());
    let floor = plan.floor();
    for (m, &end) in motion.moves.iter().zip(&targets::move_ends(motion)) {
        let (step, max_m) = (1.0 / Body::steps_per_beat(m.gait), plan.body.max_step_m(m.gait));
        let mut t = m.start_beats;
        while t < end - 1e-9 {
            let t1 = (t + step).min(end);
            let length_m = at(frames, dt, m.performer, t1).distance(at(frames, dt, m.performer, t));
            if length_m > max_m * (1.0 + 1e-9) {
                long.push(LongStep { performer: m.performer, behaviour: m.behaviour, at_beats: t, length_m, max_m });
            }
            t = t1;
        }
        let kind = if floor.excludes(m.target) { OffFloorKind::Spot } else { OffFloorKind::Path };
        let (first, last) = ((m.start_beats / dt).floor() as usize, ((end / dt).ceil() as usize).min(frames.len() - 1));
        let mut worst: Option<(usize, DVec2)> = None;
        for (f, frame) in frames.iter().enumerate().take(last + 1).skip(first) {
            let p = frame[m.performer];
            if floor.excludes(p) && worst.is_none_or(|(_, w)| floor.outside_m(p) > floor.outside_m(w)) {
                worst = Some((f, p));
            }
        }
        let found = match kind {
            OffFloorKind::Spot => Some((m.due_beats, m.target)),
            OffFloorKind::Path => worst.map(|(f, p)| (f as f64 * dt, p)),
        };
        if let Some((at_beats, point)) = found {
            let outside_m = floor.outside_m(point);
            off.push(OffFloor { performer: m.performer, behaviour: m.behaviour, point, at_beats, outside_m, kind });
        }
    }
    let r = plan.body.radius_m - conflicts::CONTACT_TOLERANCE_M;
    let mut open: std::collections::BTreeMap<(usize, usize), (usize, usize)> = Default::default();
    for f in 0..frames.len() - 1 {
        for (k, o) in plan.obstacles.iter().enumerate() {
            for (i, (a, b)) in frames[f].iter().zip(&frames[f + 1]).enumerate() {
                let d = segment_obstacle_distance(*a, *b, &o.shape);
                if d >= r {
                    continue;
                }
                match open.get_mut(&(i, k)) {
                    Some((seen, idx)) if *seen + 1 >= f => {
                        *seen = f;
                        let c: &mut ObstacleConflict = &mut inside[*idx];
                        c.distance_m = c.distance_m.min(d);
                    }
                    _ => {
                        open.insert((i, k), (f, inside.len()));
                        let at_beats = f as f64 * dt;
                        inside.push(ObstacleConflict { performer: i, obstacle: k, distance_m: d, at_beats });
                    }
                }
            }
        }
    }
    (long, off, inside)
}

#[test]
fn what_the_simulation_finds_while_stepping_equals_a_scan_of_every_frame() {
    let plan = read(BUSY);
    let motion = ensemble::simulate(&plan);
    let frames = frames_of(&plan);
    assert_eq!(frames.last().unwrap(), &motion.last);
    let (long, off, inside) = scan(&plan, &frames, &motion);
    let late = conflicts::check(&plan, &motion).late;
    assert!(!off.is_empty() && !late.is_empty(), "the plan should go off the stage and be late");
    assert_eq!(motion.findings.long_steps, long);
    assert_eq!(motion.findings.off_floor, off);
    assert_eq!(motion.findings.obstacles, inside);
    assert_eq!(motion.findings.pairs, conflicts::pair_conflicts(&frames, plan.body.radius_m, motion.dt_beats));
    for m in &motion.moves {
        assert_eq!(m.short_m, at(&frames, motion.dt_beats, m.performer, m.due_beats).distance(m.target), "{m:?}");
    }
    // The same frames with everyone shifted a metre to the right from beat 2 on, into the pillar
    // and off the stage, with steps too long and bodies on top of each other.
    let mut moved = frames.clone();
    for frame in &mut moved[(2.0 / motion.dt_beats) as usize..] {
        for p in frame.iter_mut() {
            p.x += 1.0;
        }
        frame[1] = frame[0] + DVec2::new(0.1, 0.0);
    }
    let replayed = Motion::from_frames(&plan, motion.dt_beats, &moved, motion.moves.clone());
    let (long, off, inside) = scan(&plan, &moved, &replayed);
    assert!(!long.is_empty() && !inside.is_empty() && !replayed.findings.pairs.is_empty());
    assert_eq!(replayed.findings.long_steps, long);
    assert_eq!(replayed.findings.off_floor, off);
    assert_eq!(replayed.findings.obstacles, inside);
    assert_eq!(replayed.findings.pairs, conflicts::pair_conflicts(&moved, plan.body.radius_m, motion.dt_beats));
    // The keys stay within their tolerance of every frame.
    for (f, frame) in frames.iter().enumerate() {
        for (i, p) in frame.iter().enumerate() {
            let err = motion.position_at(i, f as f64 * motion.dt_beats).distance(*p);
            assert!(err <= KEY_TOLERANCE_M + 1e-5, "performer {i} at step {f}: {err} m off");
        }
    }
}

#[test]
fn a_performer_standing_still_keeps_the_same_keys_however_long_the_plan() {
    let plan_of = |beats: u32| {
        read(&format!(
            "ensemble = 1\n[stage]\nwidth_m = 10\ndepth_m = 8\n\
             [[formation]]\nname = \"post\"\nshape = \"line\"\nfrom = [-3, 2]\nto = [-3, 2]\ncount = 1\n\
             [[formation]]\nname = \"a\"\nshape = \"line\"\nfrom = [0, 1]\nto = [2, 1]\ncount = 2\n\
             [[formation]]\nname = \"b\"\nshape = \"line\"\nfrom = [0, 5]\nto = [2, 5]\ncount = 2\n\
             [[group]]\nname = \"still\"\nformation = \"post\"\n\
             [[group]]\nname = \"walkers\"\nformation = \"a\"\n\
             [[event]]\nat = \"1:1\"\ngroup = \"walkers\"\nto = \"b\"\nbeats = 8\n\
             [[event]]\nat = \"{}:1\"\ngroup = \"walkers\"\nto = \"a\"\nbeats = 8\n",
            beats / 4 + 1
        ))
    };
    let keys = |motion: &Motion| motion.tracks.iter().map(|t| t.keys().len()).collect::<Vec<_>>();
    let short = ensemble::simulate(&plan_of(40));
    let long = ensemble::simulate(&plan_of(1000));
    assert!(long.steps > 20 * short.steps, "{} and {} steps", short.steps, long.steps);
    assert_eq!(keys(&long)[0], 2, "{:?}", long.tracks[0]);
    // Two walks each: the same keys, the long wait in between adds none.
    assert_eq!(keys(&short), keys(&long));
    assert!(keys(&long).iter().all(|&k| k < 64), "{:?}", keys(&long));
}

/// Two blocks of 600 swapping sides past a pillar: enough performers to be shared among threads.
fn crossing() -> Plan {
    let block = |name: &str, x: f64| {
        format!(
            "[[formation]]\nname = \"{name}\"\nshape = \"block\"\ncentre = [{x}, 20]\nrows = 24\ncolumns = 25\nspacing_m = 1.2\n"
        )
    };
    read(&format!(
        "ensemble = 1\n[stage]\nwidth_m = 120\ndepth_m = 60\n\
         [[obstacle]]\nname = \"pillar\"\ncentre = [0, 20]\nradius_m = 1\n{}{}\
         [[group]]\nname = \"a\"\nformation = \"left\"\n[[group]]\nname = \"b\"\nformation = \"right\"\n\
         [[event]]\nat = \"1:1\"\ngroup = \"a\"\nto = \"right\"\nbeats = 24\n\
         [[event]]\nat = \"1:1\"\ngroup = \"b\"\nto = \"left\"\nbeats = 24\n",
        block("left", -17.0),
        block("right", 17.0)
    ))
}

#[test]
fn one_thread_and_several_simulate_the_same_motion_bit_for_bit() {
    let plan = crossing();
    assert_eq!(plan.performers.len(), 1200);
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| ensemble::simulate(&plan))
    };
    let one = on(1);
    assert!(one.detours.iter().sum::<u64>() > 0, "the blocks should cross");
    for threads in [2, 5] {
        let many = on(threads);
        assert!(many == one, "{threads} threads move differently from one");
    }
}
