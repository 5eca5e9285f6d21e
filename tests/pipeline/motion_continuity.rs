//! Continuity of the sampled motion with every built-in body (`labanplay models`): over every
//! real `.lbn` score and every demo, each dancer sampled at 60 fps, no joint (or end site) may
//! "pop": move more than 3 cm in one frame and more than 4× as far as in the frames before and
//! after, or spike out and back for one frame ([`OPEN_POPS`] lists the pops still open, each
//! allowed up to its count). From the same frames, a foot standing flat on the floor (heel and
//! ball both on it) slides at most 1 cm/s on average over each score, and no dancer is in the air
//! (neither foot planted, no other part on the floor) longer than a body can be, 0.8 s. No joint
//! centre goes below the floor, and no end site (fingertips, toe tips, head top) or sole point
//! more than 1 cm below it.
//! Two `--ignored` tools find and explain a pop when one appears: `list_every_pop` and
//! `explain_pop` (default body; `POP_MODEL` names another).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::body::rig::{find_model, model_names, model_proportions};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_world, world_rot_pos};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::read;
use labanplay::score::Score;
use std::collections::BTreeMap;
use std::path::PathBuf;

const FPS: f64 = 60.0;
/// A frame pops when a point moves more than this in it, metres…
const POP_MIN_M: f32 = 0.03;
/// …and more than this many times the larger of its neighbouring frames' displacements.
const POP_RATIO: f32 = 4.0;
/// Pops still found, allowed up to their count until they are fixed: (body, score, dancer,
/// pops). Everything else, with any body: none.
const OPEN_POPS: &[(&str, &str, usize, usize)] = &[];
/// A foot stands flat when its heel and ball sole points are within this of the floor, metres.
const FLAT_TOLERANCE_M: f32 = 0.003;
/// The most a flat foot may slide, averaged over a score's flat frames, metres per second.
const MAX_FLAT_SLIDE_M_PER_S: f32 = 0.01;
/// The most an end site or sole point (a surface point) may be below the floor, metres.
const MAX_SINK_M: f32 = 0.01;
/// The longest a dancer may be in the air, seconds (a flight's longest, and one frame).
const MAX_AIR_SECS: f64 = labanplay::score::gaps::FLIGHT_MAX_SECS + 1.0 / FPS;

/// The proportions of the built-in body `name`.
fn body(name: &str) -> Proportions {
    model_proportions(&find_model(name).expect("a built-in model"))
}

fn animation(bytes: &[u8], ext: &str, proportions: &Proportions) -> Option<Animation> {
    let doc = read(bytes, Some(ext)).ok()?;
    let score = Score::from_document(&doc);
    Some(compile(&score, &MotionOptions::default(), proportions))
}

/// Every demo in `scores/` and every real `.lbn` score, by name, for the body `proportions`.
fn corpus(proportions: &Proportions) -> Vec<(String, Animation)> {
    let demo_dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/scores"));
    let mut dirs = vec![demo_dir];
    dirs.extend(support::real_scores_dir("motion continuity on real scores"));
    labanplay::cli::check::collect_files(&dirs)
        .into_iter()
        .filter_map(|p| {
            let ext = labanplay::read::score_extension(&p)?;
            let real = !p.starts_with(&dirs[0]);
            if real && ext != "lbn" {
                return None;
            }
            let bytes = std::fs::read(&p).ok()?;
            let name = p.strip_prefix(p.ancestors().nth(2)?).unwrap_or(&p).display().to_string();
            animation(&bytes, &ext, proportions).map(|a| (name, a))
        })
        .collect()
}

/// The feet: ankle and ball joints, and the sole points under them (heel, ball) that stand on
/// the floor when the foot is flat.
const FEET: [(JointId, JointId); 2] = [(JointId::AnkleL, JointId::BallL), (JointId::AnkleR, JointId::BallR)];

/// Names of the tracked points: the joints, the end sites, then each foot's heel and ball sole
/// points.
fn point_names(anim: &Animation) -> Vec<String> {
    JointId::ALL
        .iter()
        .map(|j| j.name().to_string())
        .chain(anim.skeleton.end_sites().iter().map(|s| format!("{}End", s.parent.name())))
        .chain(FEET.iter().flat_map(|(a, _)| [format!("{}Heel", a.name()), format!("{}BallSole", a.name())]))
        .collect()
}

/// World positions of every joint, end site and sole point of `pose`.
fn points(anim: &Animation, pose: &Pose, out: &mut Vec<Vec3>) {
    out.clear();
    let sk = &anim.skeleton;
    let (rot, pos) = world_rot_pos(sk, pose);
    out.extend_from_slice(&pos);
    for site in sk.end_sites() {
        let i = site.parent.index();
        out.push(pos[i] + rot[i] * site.offset_in_parent);
    }
    let ball_height = joint_world(sk, &Pose::rest(sk), JointId::BallL).1.y;
    for (ankle, ball) in FEET {
        let (a, b) = (ankle.index(), ball.index());
        out.push(pos[a] + rot[a] * sk.heel_in_ankle());
        out.push(pos[b] + rot[a] * Vec3::new(0.0, -ball_height, 0.0));
    }
}

/// The indices of the heel and ball sole points of each foot in [`points`].
fn sole_indices(anim: &Animation) -> [(usize, usize); 2] {
    let first = JointId::ALL.len() + anim.skeleton.end_sites().len();
    [(first, first + 1), (first + 2, first + 3)]
}

/// Every point of dancer `d` at every frame: `[frame][point]`.
fn trajectory(anim: &Animation, d: usize) -> Vec<Vec<Vec3>> {
    let frames = (anim.duration_secs * FPS).floor() as usize + 1;
    let mut pose = Pose::rest(&anim.skeleton);
    let mut out = Vec::with_capacity(frames);
    let mut pts = Vec::new();
    for f in 0..frames {
        anim.dancers[d].sample_into(&anim.skeleton, f as f64 / FPS, &mut pose);
        points(anim, &pose, &mut pts);
        out.push(pts.clone());
    }
    out
}

/// One pop: frame (its displacement is from frame − 1), point index, displacement, neighbours'.
#[derive(Clone, Debug)]
struct Pop {
    frame: usize,
    point: usize,
    moved_m: f32,
    neighbours_m: f32,
}

/// Steps (a point jumps in one frame and stays) and spikes (it jumps out for one frame and comes
/// back: two such displacements in a row, judged against the frames around both).
fn pops(traj: &[Vec<Vec3>]) -> Vec<Pop> {
    let mut out = Vec::new();
    if traj.len() < 2 {
        return out;
    }
    let n = traj[0].len();
    for p in 0..n {
        // disp[i] = movement from frame i to i + 1.
        let disp: Vec<f32> = traj.windows(2).map(|w| w[0][p].distance(w[1][p])).collect();
        let at = |i: usize| disp.get(i).copied().unwrap_or(0.0);
        let before = |i: usize| if i > 0 { at(i - 1) } else { 0.0 };
        for (i, &d) in disp.iter().enumerate() {
            let neighbours = before(i).max(at(i + 1));
            if d > POP_MIN_M && d > POP_RATIO * neighbours {
                out.push(Pop { frame: i + 1, point: p, moved_m: d, neighbours_m: neighbours });
                continue;
            }
            // A spike: out at i, back at i + 1 (to near where it was).
            let back = at(i + 1);
            let returns = i + 2 < traj.len() && traj[i][p].distance(traj[i + 2][p]) < 0.5 * d.min(back);
            let around = before(i).max(at(i + 2));
            if returns && d.min(back) > POP_MIN_M && d.min(back) > POP_RATIO * around {
                out.push(Pop { frame: i + 1, point: p, moved_m: d, neighbours_m: around });
            }
        }
    }
    out
}

/// Joint kind for the summary: the name without its side.
fn kind(name: &str) -> String {
    name.trim_start_matches("Left").trim_start_matches("Right").to_string()
}

/// How the flat feet of one dancer slid: time spent flat, distance slid while flat, and the
/// fastest frame.
#[derive(Clone, Copy, Debug, Default)]
struct FlatSlide {
    flat_secs: f64,
    slid_m: f64,
    worst_m_per_s: f32,
    worst_frame: usize,
}

impl FlatSlide {
    fn mean_m_per_s(&self) -> f32 {
        if self.flat_secs > 0.0 { (self.slid_m / self.flat_secs) as f32 } else { 0.0 }
    }
}

/// How far a flat foot slides between two frames where it stands flat (its heel and ball sole
/// points both on the floor): the lesser horizontal movement of the two, so a foot rolling onto
/// its ball or heel, or swivelling on one of them, does not count.
fn flat_slide(anim: &Animation, traj: &[Vec<Vec3>]) -> FlatSlide {
    let mut out = FlatSlide::default();
    for (heel, ball) in sole_indices(anim) {
        let flat = |f: &[Vec3]| f[heel].y.abs() < FLAT_TOLERANCE_M && f[ball].y.abs() < FLAT_TOLERANCE_M;
        let moved = |a: Vec3, b: Vec3| Vec3::new(b.x - a.x, 0.0, b.z - a.z).length();
        for (i, w) in traj.windows(2).enumerate() {
            if !(flat(&w[0]) && flat(&w[1])) {
                continue;
            }
            let moved_m = moved(w[0][heel], w[1][heel]).min(moved(w[0][ball], w[1][ball]));
            out.flat_secs += 1.0 / FPS;
            out.slid_m += f64::from(moved_m);
            if moved_m * FPS as f32 > out.worst_m_per_s {
                out.worst_m_per_s = moved_m * FPS as f32;
                out.worst_frame = i + 1;
            }
        }
    }
    out
}

/// What one body did over the corpus: pops and flat-foot slides, a line per dancer at fault.
#[derive(Default)]
struct BodyReport {
    dancers: usize,
    frames: usize,
    pops: usize,
    pops_by_kind: BTreeMap<String, usize>,
    popping: Vec<String>,
    sliding: Vec<String>,
    /// Dancers in the air longer than [`MAX_AIR_SECS`].
    flying: Vec<String>,
    worst_slide_m_per_s: f32,
    /// Pops of [`OPEN_POPS`], within their allowance.
    open_pops: usize,
    /// Dancers with a joint centre below the floor or a surface point more than [`MAX_SINK_M`].
    sinking: Vec<String>,
    /// The deepest any point went below the floor, metres (positive down).
    worst_sink_m: f32,
}

/// The point of `traj` deepest below what the floor allows (joint centres 0, the end sites and
/// sole points [`MAX_SINK_M`] below it): how far past it, the frame and the point; `None` when
/// nothing goes through the floor.
fn through_the_floor(traj: &[Vec<Vec3>]) -> Option<(f32, usize, usize)> {
    let mut worst: Option<(f32, usize, usize)> = None;
    for (f, points) in traj.iter().enumerate() {
        for (i, v) in points.iter().enumerate() {
            let allowed = if i < JointId::ALL.len() { 0.0 } else { MAX_SINK_M };
            let past = -v.y - allowed;
            if past > 0.0 && worst.is_none_or(|w| past > w.0) {
                worst = Some((past, f, i));
            }
        }
    }
    worst
}

fn check_body(model: &str) -> BodyReport {
    let corpus = corpus(&body(model));
    assert!(corpus.len() >= 5, "the demos alone are five scores");
    let mut r = BodyReport::default();
    for (name, anim) in &corpus {
        let names = point_names(anim);
        for d in 0..anim.dancers.len() {
            r.dancers += 1;
            let (air_secs, from_secs) = crate::motion_flight::longest_air(anim, d, FPS);
            if air_secs > MAX_AIR_SECS {
                r.flying
                    .push(format!("{model} {name} dancer {}: {air_secs:.2} s in the air from {from_secs:.2} s", d + 1));
            }
            let traj = trajectory(anim, d);
            r.frames += traj.len();
            let lowest = traj.iter().flatten().map(|v| v.y).fold(0.0f32, f32::min);
            r.worst_sink_m = r.worst_sink_m.max(-lowest);
            if let Some((past, f, i)) = through_the_floor(&traj) {
                r.sinking.push(format!(
                    "{model} {name} dancer {}: {} {:.1} cm past the floor's allowance at frame {f} (t={:.2} s)",
                    d + 1,
                    names[i],
                    past * 100.0,
                    f as f64 / FPS
                ));
            }
            let slide = flat_slide(anim, &traj);
            r.worst_slide_m_per_s = r.worst_slide_m_per_s.max(slide.mean_m_per_s());
            if slide.mean_m_per_s() > MAX_FLAT_SLIDE_M_PER_S {
                r.sliding.push(format!(
                    "{model} {name} dancer {}: flat feet slide {:.2} cm/s over {:.1} s (worst frame {} at {:.1} cm/s)",
                    d + 1,
                    slide.mean_m_per_s() * 100.0,
                    slide.flat_secs,
                    slide.worst_frame,
                    slide.worst_m_per_s * 100.0
                ));
            }
            let found = pops(&traj);
            if found.is_empty() {
                continue;
            }
            r.pops += found.len();
            let allowed =
                OPEN_POPS.iter().find(|o| (o.0, o.1, o.2) == (model, name.as_str(), d + 1)).map_or(0, |o| o.3);
            if found.len() <= allowed {
                r.open_pops += found.len();
                continue;
            }
            for p in &found {
                *r.pops_by_kind.entry(kind(&names[p.point])).or_default() += 1;
            }
            let worst = found.iter().max_by(|a, b| a.moved_m.total_cmp(&b.moved_m)).unwrap();
            r.popping.push(format!(
                "{model} {name} dancer {}: {} pops, worst frame {} {} {:.1} cm (neighbours {:.1} cm)",
                d + 1,
                found.len(),
                worst.frame,
                names[worst.point],
                worst.moved_m * 100.0,
                worst.neighbours_m * 100.0
            ));
        }
    }
    r
}

#[test]
fn no_joint_pops_no_sliding_flat_feet_and_no_long_flights_at_60_fps_with_any_body() {
    let (mut popping, mut sliding, mut flying, mut sinking) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut total = 0;
    for model in model_names() {
        let r = check_body(model);
        println!(
            "{model}: {} dancers, {} frames at {FPS} fps: {} pops ({} of them open), new ones in {} dancers {:?}; \
             flat feet slide at most {:.2} cm/s; the lowest point {:.1} cm below the floor",
            r.dancers,
            r.frames,
            r.pops,
            r.open_pops,
            r.popping.len(),
            r.pops_by_kind,
            r.worst_slide_m_per_s * 100.0,
            r.worst_sink_m * 100.0
        );
        total += r.pops - r.open_pops;
        popping.extend(r.popping);
        sliding.extend(r.sliding);
        flying.extend(r.flying);
        sinking.extend(r.sinking);
    }
    for line in popping.iter().chain(&sliding).chain(&flying).chain(&sinking) {
        println!("  {line}");
    }
    assert_eq!(total, 0, "{total} new joint pops (none allowed):\n{}", popping.join("\n"));
    assert!(sliding.is_empty(), "flat feet slide:\n{}", sliding.join("\n"));
    assert!(flying.is_empty(), "in the air longer than {MAX_AIR_SECS:.2} s:\n{}", flying.join("\n"));
    assert!(sinking.is_empty(), "through the floor:\n{}", sinking.join("\n"));
}

/// The detector itself: a clean ramp has no pops, a one-frame jump in it has exactly one.
#[test]
fn the_pop_detector_finds_a_one_frame_jump_and_nothing_in_smooth_motion() {
    let smooth: Vec<Vec<Vec3>> = (0..100).map(|i| vec![Vec3::new(0.005 * i as f32, 0.0, 0.0)]).collect();
    assert!(pops(&smooth).is_empty());
    let mut jumpy = smooth.clone();
    for frame in jumpy.iter_mut().skip(50) {
        frame[0].y += 0.05;
    }
    let found = pops(&jumpy);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].frame, 50);
    // A one-frame spike out of stillness and back counts once.
    let mut still: Vec<Vec<Vec3>> = (0..10).map(|_| vec![Vec3::ZERO]).collect();
    still[5][0].x = 0.04;
    let found = pops(&still);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].frame, 5);
    // Fast but smooth motion (5 cm a frame throughout) is no pop.
    let fast: Vec<Vec<Vec3>> = (0..20).map(|i| vec![Vec3::new(0.05 * i as f32, 0.0, 0.0)]).collect();
    assert!(pops(&fast).is_empty());
}

/// The body the tools use: `POP_MODEL`, else the default one.
fn tool_body() -> Proportions {
    body(&std::env::var("POP_MODEL").unwrap_or_else(|_| labanplay::body::models::DEFAULT_MODEL.to_string()))
}

/// Every pop, one line per frame with the points that popped.
#[test]
#[ignore = "a tool: `cargo test --test pipeline list_every_pop -- --ignored --nocapture`"]
fn list_every_pop() {
    let corpus = corpus(&tool_body());
    for (name, anim) in &corpus {
        let names = point_names(anim);
        for d in 0..anim.dancers.len() {
            let traj = trajectory(anim, d);
            let found = pops(&traj);
            let mut by_frame: BTreeMap<usize, Vec<String>> = BTreeMap::new();
            for p in &found {
                by_frame.entry(p.frame).or_default().push(format!("{}:{:.0}", names[p.point], p.moved_m * 100.0));
            }
            for (f, v) in by_frame {
                println!("{name} d{} f{f} t={:.3} {}", d + 1, f as f64 / FPS, v.join(" "));
            }
        }
    }
}

/// What the plan says around one pop (`POP_MODEL` names a body): `POP_SCORE=laban-tk/wrist.lbn POP_FRAME=346 cargo test
/// --test pipeline explain_pop -- --ignored --nocapture` prints the limb keys near that time and
/// the points that pop (and those named in `POP_POINTS`, comma-separated), frame by frame around it.
#[test]
#[ignore = "a tool: `POP_SCORE=… POP_FRAME=… cargo test --test pipeline explain_pop -- --ignored --nocapture`"]
fn explain_pop() {
    let (Ok(score), Ok(frame)) = (std::env::var("POP_SCORE"), std::env::var("POP_FRAME")) else {
        println!("SKIP: set POP_SCORE and POP_FRAME");
        return;
    };
    let frame: usize = frame.parse().unwrap();
    let dancer: usize = std::env::var("POP_DANCER").ok().and_then(|d| d.parse().ok()).unwrap_or(1) - 1;
    let corpus = corpus(&tool_body());
    let Some((name, anim)) = corpus.iter().find(|(n, _)| n.ends_with(&score)) else {
        println!("SKIP {score}: not in the corpus");
        return;
    };
    let t = frame as f64 / FPS;
    let plan = &anim.dancers[dancer].plan;
    println!("{name} dancer {} frame {frame} t={t:.3}", dancer + 1);
    for (limb, track) in &plan.limbs {
        for k in &track.keys {
            if k.t_end_secs > t - 1.5 && k.t_start_secs < t + 1.5 {
                println!("  {limb:?} {:.3}..{:.3} {:?}", k.t_start_secs, k.t_end_secs, k.value);
            }
        }
    }
    for (limb, g) in &plan.leg_gestures {
        println!("  gestures {limb:?} {g:?}");
    }
    for f in &plan.flights {
        if f.t_land_secs > t - 1.5 && f.t_takeoff_secs < t + 1.5 {
            println!("  flight {f:?}");
        }
    }
    for f in &plan.footprints {
        if f.t_lift_secs > t - 1.5 && f.t_land_secs < t + 1.5 {
            println!("  footprint {f:?}");
        }
    }
    let names = point_names(anim);
    let traj = trajectory(anim, dancer);
    let popping: Vec<usize> = {
        let mut v: Vec<usize> = pops(&traj).iter().filter(|p| p.frame.abs_diff(frame) <= 2).map(|p| p.point).collect();
        // `POP_POINTS=LeftHip,LeftAnkle` prints those points too.
        let extra = std::env::var("POP_POINTS").unwrap_or_default();
        v.extend(extra.split(',').filter_map(|n| names.iter().position(|m| m == n.trim())));
        v.sort_unstable();
        v.dedup();
        v
    };
    for f in frame.saturating_sub(4)..(frame + 4).min(traj.len()) {
        let line: Vec<String> = popping
            .iter()
            .map(|&p| {
                let d = if f > 0 { traj[f][p].distance(traj[f - 1][p]) * 100.0 } else { 0.0 };
                let v = traj[f][p];
                format!("{} ({:.3},{:.3},{:.3}) {d:.1}cm", names[p], v.x, v.y, v.z)
            })
            .collect();
        println!("  f{f}: {}", line.join(" | "));
    }
}
