//! Crowds: performers of the bundled ensemble plans dance their group's staff on their spots and
//! walk their simulated paths with planted feet; unison performers share poses; deterministic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use glam::{Mat4, Vec3};
use labanplay::crowd::{Crowd, CrowdFrame, Detail, View};
use labanplay::ensemble::{read_plan_file, simulate};
use labanplay::motion::plan::Foot;
use labanplay::pose::fk::{Pose, end_site_positions, joint_positions, joint_world};
use labanplay::pose::skeleton::{JOINT_COUNT, JointId, Proportions};
use labanplay::read::Files;
use std::path::Path;

fn crowd(name: &str, edit: impl FnOnce(&mut labanplay::ensemble::Plan)) -> Crowd {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble").join(name);
    let mut plan = read_plan_file(&path, &mut Files).map_err(|e| e.render()).unwrap().plan;
    edit(&mut plan);
    let motion = simulate(&plan);
    Crowd::new(plan, motion, &Proportions::default()).unwrap()
}

fn joints_of(frame: &CrowdFrame, i: usize) -> [Vec3; JOINT_COUNT] {
    let mut m = [Mat4::IDENTITY; JOINT_COUNT];
    frame.world_from_joint(i, &mut m);
    m.map(|m| m.w_axis.truncate())
}

/// The sole points of a foot (heel, ball, toe tip) of a world-space pose.
fn sole(crowd: &Crowd, pose: &Pose, foot: Foot) -> [Vec3; 3] {
    let sk = &crowd.skeleton;
    let (ankle_j, ball_j) =
        if foot == Foot::Left { (JointId::AnkleL, JointId::BallL) } else { (JointId::AnkleR, JointId::BallR) };
    let (ankle_rot, ankle) = joint_world(sk, pose, ankle_j);
    let (_, ball) = joint_world(sk, pose, ball_j);
    let rest = Pose::rest(sk);
    let ball_h = joint_world(sk, &rest, JointId::BallL).1.y;
    let heel = ankle + ankle_rot * sk.heel_in_ankle();
    let ball_sole = ball + ankle_rot * Vec3::new(0.0, -ball_h, 0.0);
    let toe = sk
        .end_sites()
        .iter()
        .zip(end_site_positions(sk, pose))
        .find(|(s, _)| s.parent == ball_j)
        .map_or(ball, |(_, p)| p);
    [heel, ball_sole, toe]
}

/// What [`feet_over_legs`] measured.
#[derive(Debug, Default)]
struct FeetReport {
    /// Planted samples compared with their anchor.
    samples: usize,
    /// Worst horizontal slide of a planted foot's weight-bearing point, metres.
    worst_slide: f32,
    /// Deepest sole point below the floor, metres.
    worst_sink: f32,
    /// Flight samples (both feet in the air by the footprints).
    flight_samples: usize,
    /// Lowest sole point in a flight, metres above the floor.
    lowest_in_flight: f32,
    /// Flights seen.
    flights: usize,
}

/// Samples the transitions of `performers` at 60 fps: every planted foot's weight-bearing point
/// (heel, ball or the ankle's ground point by its pitch) against where it first was on that
/// footprint and phase, every sole point against the floor, and the feet in flights.
fn feet_over_legs(crowd: &Crowd, performers: &[usize]) -> FeetReport {
    let sk = &crowd.skeleton;
    let tempo = crowd.plan.clock.tempo;
    let mut r = FeetReport { lowest_in_flight: f32::INFINITY, ..FeetReport::default() };
    let mut pose = Pose::rest(sk);
    for &i in performers {
        for leg in &crowd.legs[i] {
            let anim = crowd.walk_animation(i, leg);
            r.flights += anim.plan.flights.len();
            // (footprint, phase) → the weight-bearing point when first seen.
            let mut anchors = std::collections::BTreeMap::new();
            let t0 = tempo.secs_from_beats(leg.start_beats);
            let t1 = tempo.secs_from_beats(leg.end_beats());
            let frames = ((t1 - t0) * 60.0).ceil() as usize;
            for f in 0..=frames {
                let t = t0 + f as f64 / 60.0;
                anim.sample_into(sk, t, &mut pose);
                let in_flight = anim.plan.flights.iter().any(|fl| t > fl.t_takeoff_secs && t < fl.t_land_secs);
                if in_flight {
                    r.flight_samples += 1;
                }
                for foot in [Foot::Left, Foot::Right] {
                    let points = sole(crowd, &pose, foot);
                    for p in points {
                        r.worst_sink = r.worst_sink.max(-p.y);
                        if in_flight {
                            r.lowest_in_flight = r.lowest_in_flight.min(p.y);
                        }
                    }
                    let state = anim.foot_state(sk, foot, t);
                    let Some((idx, _)) =
                        anim.plan.footprints.iter().enumerate().find(|(_, fp)| fp.foot == foot && fp.planted_at(t))
                    else {
                        continue;
                    };
                    assert!(!in_flight, "performer {i}: the {foot:?} foot is planted in a flight at {t:.3} s");
                    if !state.planted {
                        continue;
                    }
                    let [heel, ball, _] = points;
                    let ankle =
                        joint_world(sk, &pose, if foot == Foot::Left { JointId::AnkleL } else { JointId::AnkleR }).1;
                    let (phase, c) = if state.pitch_rad > 2e-3 {
                        (1, ball)
                    } else if state.pitch_rad < -2e-3 {
                        (-1, heel)
                    } else {
                        (0, Vec3::new(ankle.x, 0.0, ankle.z))
                    };
                    let anchor = *anchors.entry((foot as u8, idx, phase)).or_insert(c);
                    r.worst_slide = r.worst_slide.max(Vec3::new(c.x - anchor.x, 0.0, c.z - anchor.z).length());
                    r.samples += 1;
                }
            }
        }
    }
    r
}

#[test]
fn feet_stay_planted_and_above_the_floor_while_walking_the_paths() {
    let crowd = crowd("eight.plan.toml", |_| {});
    let r = feet_over_legs(&crowd, &[0, 3, 7]);
    println!("{r:?}");
    assert_eq!(r.flights, 0, "walks have no flight");
    assert!(r.samples > 1000, "{r:?}");
    assert!(r.worst_slide < 0.01, "a planted foot slid {:.1} mm", r.worst_slide * 1e3);
    assert!(r.worst_sink < 0.002, "a sole point went {:.1} mm below the floor", r.worst_sink * 1e3);
}

#[test]
fn runs_fly_between_footprints_and_land_planted() {
    // The eight plan with every transition run: a flight before each landing but the first
    // step and the closing one, the same planted-foot checks as walking.
    let crowd = crowd("eight.plan.toml", |p| {
        for b in &mut p.behaviours {
            b.gait = labanplay::ensemble::plan::Gait::Run;
        }
    });
    let r = feet_over_legs(&crowd, &[0, 3, 7]);
    println!("{r:?}");
    let steps: usize = [0usize, 3, 7].iter().flat_map(|&i| &crowd.legs[i]).map(|l| l.steps.saturating_sub(1)).sum();
    assert_eq!(r.flights, steps, "one flight per run landing");
    assert!(r.flight_samples > 100, "{r:?}");
    assert!(r.lowest_in_flight > 0.0, "a sole point touched the floor in a flight: {r:?}");
    assert!(r.samples > 500, "{r:?}");
    assert!(r.worst_slide < 0.01, "a planted foot slid {:.1} mm", r.worst_slide * 1e3);
    assert!(r.worst_sink < 0.002, "a sole point went {:.1} mm below the floor", r.worst_sink * 1e3);
}

#[test]
fn walkers_follow_their_paths_and_reach_their_spots() {
    let crowd = crowd("eight.plan.toml", |_| {});
    let mut frame = CrowdFrame::default();
    let mut worst_path = 0.0f32;
    let mut worst_spot = 0.0f32;
    for (i, legs) in crowd.legs.iter().enumerate() {
        for leg in legs {
            // After the first moment (it turns from its score pose into the walk), and not in
            // the first moment of a next transition that starts before this one's closing step.
            let mut t = leg.start_beats + 0.25;
            while t < leg.end_beats() {
                if legs.iter().any(|l| t >= l.start_beats && t < l.start_beats + 0.25) {
                    t += 0.25;
                    continue;
                }
                crowd.prepare(t, &View::everyone_full(), &mut frame);
                let j = joints_of(&frame, i);
                let pelvis = j[JointId::Pelvis.index()];
                let ground = crowd.ground_at(i, t);
                worst_path = worst_path.max(Vec3::new(pelvis.x - ground.x, 0.0, pelvis.z - ground.z).length());
                t += 0.25;
            }
            // The closing step landed: the feet either side of the spot the path ends at.
            crowd.prepare(leg.end_beats() - 0.01, &View::everyone_full(), &mut frame);
            let j = joints_of(&frame, i);
            let mid = 0.5 * (j[JointId::AnkleL.index()] + j[JointId::AnkleR.index()]);
            let spot = crowd.ground_at(i, leg.arrive_beats);
            worst_spot = worst_spot.max(Vec3::new(mid.x - spot.x, 0.0, mid.z - spot.z).length());
        }
    }
    // And the simulation brought each to its target.
    for m in &crowd.motion.moves {
        let end = crowd.motion.position_at(m.performer, m.arrived_beats.expect("everyone arrives"));
        assert!(end.distance(m.target) < 0.05, "performer {} ends {end:?}, target {:?}", m.performer, m.target);
    }
    println!(
        "pelvis off the path by at most {:.0} mm, feet off the spot by {:.0} mm",
        worst_path * 1e3,
        worst_spot * 1e3
    );
    // The steering's small corrections (eight a beat) zigzag the path by up to ~10 cm; the body
    // passes through it twice a step and smooths the zigzag between.
    assert!(worst_path < 0.15, "the body left its path by {worst_path} m");
    assert!(worst_spot < 0.12, "the feet ended {worst_spot} m off the spot");
}

#[test]
fn holding_a_formation_every_performer_dances_its_groups_staff_in_unison() {
    let crowd = crowd("eight.plan.toml", |_| {});
    // Beat 2: everyone still in the line, no one walking yet? The first move starts at 0, so
    // take a beat after the wider ring settled and before the arrow (measure 5, beat 3).
    let t = crowd.plan.clock.beats_at(5, 3.0);
    assert!((0..8).all(|i| crowd.leg_at(i, t).is_none()), "someone walks at {t}");
    let mut frame = CrowdFrame::default();
    crowd.prepare(t, &View::everyone_full(), &mut frame);
    assert_eq!(frame.poses.len(), 1, "eight performers in unison share one pose");
    // The score staff itself, compiled on its own.
    let score_path = crowd.plan.groups[0].score.clone().unwrap();
    let score = crate::support::load_score(&score_path);
    let anim = labanplay::animation::compile(&score, &Default::default(), &Proportions::default());
    let mut pose = Pose::rest(&anim.skeleton);
    // The staff repeats while the formation holds.
    let t_score = t.rem_euclid(score.duration_beats);
    anim.dancers[0].sample_into(&anim.skeleton, score.tempo.secs_from_beats(t_score), &mut pose);
    let mut score_joints = [Vec3::ZERO; JOINT_COUNT];
    joint_positions(&anim.skeleton, &pose, &mut score_joints).unwrap();
    for i in 0..8 {
        let j = joints_of(&frame, i);
        // Same shape: every joint relative to the pelvis, turned by the performer's facing.
        let turn = frame.performers[i].world_from_pose.to_scale_rotation_translation().1;
        for k in 0..JOINT_COUNT {
            let want = turn * (score_joints[k] - score_joints[0]);
            let got = j[k] - j[0];
            assert!((want - got).length() < 1e-4, "performer {i} joint {k}: {got:?} vs {want:?}");
        }
        // Standing on its spot.
        let spot = crowd.ground_at(i, t);
        assert!(frame.performers[i].ground_in_world.distance(spot) < 1e-6);
    }
}

#[test]
fn canon_offsets_each_performer_and_facing_turns_it() {
    let crowd = crowd("eight.plan.toml", |p| {
        p.groups[0].canon_beats = 0.5;
        p.groups[0].facing_deg = 90.0;
    });
    let t = crowd.plan.clock.beats_at(5, 3.0);
    let mut frame = CrowdFrame::default();
    crowd.prepare(t, &View::everyone_full(), &mut frame);
    assert_eq!(frame.poses.len(), 8, "a canon: eight different moments of the staff");
    let mut alone = Pose::rest(&crowd.skeleton);
    for i in 0..8 {
        let root = crowd.dance_pose(i, t, &mut alone);
        assert_eq!(&alone, &frame.poses[frame.performers[i].pose]);
        assert_eq!(root, frame.performers[i].world_from_pose);
        let mut first = Pose::rest(&crowd.skeleton);
        crowd.dance_pose(0, t - 0.5 * i as f64, &mut first);
        assert_eq!(alone, first, "performer {} is {} beats behind the first", i + 1, 0.5 * i as f64);
    }
    // Facing 90° clockwise from the audience: the score's front (+Z) turns to stage left (−X)
    // in the staff's first repetition; the staff ends with a half turn, so the next repetition
    // goes on from there, facing stage right (beat 18 is in the second).
    let mut front_at = |t: f64| {
        let root = crowd.dance_pose(0, t, &mut alone);
        root.to_scale_rotation_translation().1 * Vec3::Z
    };
    let first = front_at(t - 12.0);
    assert!((first - Vec3::NEG_X).length() < 1e-4, "{first:?}");
    let turn = frame.performers[0].world_from_pose.to_scale_rotation_translation().1;
    let front = turn * Vec3::Z;
    assert!((front - Vec3::X).length() < 1e-4, "{front:?}");
}

#[test]
fn far_performers_share_poses_and_frames_are_deterministic() {
    let crowd = crowd("two-hundred.plan.toml", |_| {});
    let n = crowd.plan.performers.len();
    // A beat where everyone walks into the heart.
    let t = 4.0;
    let walking = (0..n).filter(|&i| crowd.leg_at(i, t).is_some()).count();
    assert!(walking > 150, "{walking} walking");
    let view =
        View { eye_in_world: Vec3::new(0.0, 8.0, 25.0), full_within_m: 30.0, max_full: 16, coarse_beyond_m: 30.0 };
    let mut a = CrowdFrame::default();
    let mut b = CrowdFrame::default();
    crowd.prepare(t, &view, &mut a);
    crowd.prepare(t, &view, &mut b);
    assert_eq!(a.performers, b.performers);
    assert_eq!(a.poses, b.poses);
    let full = a.performers.iter().filter(|p| p.detail == Detail::Full).count();
    assert_eq!(full, 16);
    // Beyond 30 m the coarsest body, by distance alone; the others between share poses too.
    for p in &a.performers {
        let d = p.ground_in_world.distance(view.eye_in_world);
        assert_eq!(p.detail == Detail::Coarse, d > 30.0, "{d} m: {:?}", p.detail);
    }
    let coarse = a.performers.iter().filter(|p| p.detail == Detail::Coarse).count();
    assert!(coarse > 10 && coarse + 16 < n, "{coarse} coarse");
    println!("{n} performers, {walking} walking: {} distinct poses", a.poses.len());
    assert!(a.poses.len() < 16 + 60, "{} distinct poses", a.poses.len());
    // Every performer stands on the floor and near its simulated place.
    for i in 0..n {
        let j = joints_of(&a, i);
        let ground = crowd.ground_at(i, t);
        let pelvis = j[JointId::Pelvis.index()];
        assert!(Vec3::new(pelvis.x - ground.x, 0.0, pelvis.z - ground.z).length() < 0.3, "performer {i}");
        let lowest = j.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        assert!(lowest > -0.01, "performer {i} below the floor: {lowest}");
    }
}

/// What [`feet_while_holding`] measured.
#[derive(Debug, Default)]
struct HoldReport {
    /// Planted samples compared with their anchor.
    samples: usize,
    /// Worst horizontal slide of a planted foot's weight-bearing point, metres.
    worst_slide: f32,
    /// Deepest sole point below the floor, metres.
    worst_sink: f32,
    /// Farthest ankle from the performer's spot, metres.
    farthest_from_spot: f32,
    /// Repetitions of the staff seen.
    repeats: usize,
    /// Farthest an ankle moved from one frame to the next where the staff starts again, metres.
    worst_repeat_jump: f32,
}

/// Samples `performers` at 60 fps while they hold a formation (from half a beat after a
/// transition's closing step to the start of the next): every planted foot's weight-bearing point
/// against where it first was on that footprint, repetition and phase, the soles against the
/// floor and the ankles against the spot.
fn feet_while_holding(crowd: &Crowd, performers: &[usize]) -> HoldReport {
    let sk = &crowd.skeleton;
    let tempo = crowd.plan.clock.tempo;
    let mut r = HoldReport::default();
    let mut pose = Pose::rest(sk);
    let mut walk = None;
    let end = crowd.end_beats() + 8.0;
    let mut repeats = std::collections::BTreeSet::new();
    for &i in performers {
        let group = crowd.plan.performers[i].group;
        let anim = crowd.dance_animation(group).expect("the group dances a score");
        // The plan's beats are the score's beats, at the score's own tempo.
        let score = crate::support::load_score(crowd.plan.groups[group].score.as_ref().unwrap());
        let score_beats = score.duration_beats;
        let mut holds = Vec::new();
        let mut from = 0.0;
        for leg in &crowd.legs[i] {
            holds.push((from, leg.start_beats));
            from = leg.end_beats() + labanplay::crowd::SETTLE_BEATS;
        }
        holds.push((from, end));
        let mut anchors = std::collections::BTreeMap::new();
        for (a, b) in holds {
            let mut previous: Option<(usize, [Vec3; 2])> = None;
            let frames = (tempo.secs_from_beats(b - a) * 60.0).floor() as usize;
            for f in 0..frames {
                let t = a + tempo.beats_from_secs(f as f64 / 60.0);
                crowd.pose_in_world(i, t, &mut walk, &mut pose);
                let sb = crowd.score_beats(i, t).max(0.0);
                let rep = (sb / score_beats).floor() as usize;
                repeats.insert((i, rep));
                let t_score = score.tempo.secs_from_beats(sb - rep as f64 * score_beats);
                let spot = crowd.ground_at(i, t);
                let ankles = [JointId::AnkleL, JointId::AnkleR].map(|j| joint_world(sk, &pose, j).1);
                if let Some((last_rep, last)) = previous.filter(|_| f > 0)
                    && last_rep != rep
                {
                    for (a, b) in ankles.iter().zip(last) {
                        r.worst_repeat_jump = r.worst_repeat_jump.max(a.distance(b));
                    }
                }
                previous = Some((rep, ankles));
                for foot in [Foot::Left, Foot::Right] {
                    let points = sole(crowd, &pose, foot);
                    for p in points {
                        r.worst_sink = r.worst_sink.max(-p.y);
                    }
                    let ankle_j = if foot == Foot::Left { JointId::AnkleL } else { JointId::AnkleR };
                    let ankle = joint_world(sk, &pose, ankle_j).1;
                    r.farthest_from_spot =
                        r.farthest_from_spot.max(Vec3::new(ankle.x - spot.x, 0.0, ankle.z - spot.z).length());
                    let state = anim.foot_state(sk, foot, t_score);
                    let Some((idx, _)) = anim
                        .plan
                        .footprints
                        .iter()
                        .enumerate()
                        .find(|(_, fp)| fp.foot == foot && fp.planted_at(t_score))
                    else {
                        continue;
                    };
                    if !state.planted {
                        continue;
                    }
                    let [heel, ball, _] = points;
                    let (phase, c) = if state.pitch_rad > 2e-3 {
                        (1, ball)
                    } else if state.pitch_rad < -2e-3 {
                        (-1, heel)
                    } else {
                        (0, Vec3::new(ankle.x, 0.0, ankle.z))
                    };
                    let anchor = *anchors.entry((foot as u8, rep, idx, phase, a.to_bits())).or_insert(c);
                    r.worst_slide = r.worst_slide.max(Vec3::new(c.x - anchor.x, 0.0, c.z - anchor.z).length());
                    r.samples += 1;
                }
            }
        }
    }
    r.repeats = repeats.len();
    r
}

#[test]
fn a_travelling_score_is_danced_in_place_with_planted_feet() {
    // The two-hundred plan's groups dance walk-arms-turn, whose four walking steps travel 2.8 m.
    let crowd = crowd("two-hundred.plan.toml", |_| {});
    let score_path = crowd.plan.groups[0].score.clone().unwrap();
    let score = crate::support::load_score(&score_path);
    let written = labanplay::animation::compile(&score, &Default::default(), &Proportions::default());
    let spread = |prints: &[labanplay::motion::plan::Footprint]| {
        prints.iter().map(|p| p.position_end_in_world.distance(prints[0].position_in_world)).fold(0.0f32, f32::max)
    };
    let travel = spread(&written.dancers[0].plan.footprints);
    assert!(travel > 2.5, "the score travels {travel} m");
    // On a spot every step lands beside the other foot: no print travels beyond the stance and
    // the distance a pivot carries the ankle round the ball.
    let in_place = crowd.dance_animation(0).unwrap();
    assert_eq!(in_place.plan.footprints.len(), written.dancers[0].plan.footprints.len());
    assert!(
        spread(&in_place.plan.footprints) < 0.5,
        "in place the prints spread {} m",
        spread(&in_place.plan.footprints)
    );
    let r = feet_while_holding(&crowd, &[0, 45, 89, 120, 185]);
    println!("{r:?}");
    assert!(r.samples > 3000 && r.repeats >= 10, "{r:?}");
    assert!(r.worst_slide < 0.01, "a planted foot slid {:.1} mm", r.worst_slide * 1e3);
    assert!(r.worst_sink < 0.002, "a sole point went {:.1} mm below the floor", r.worst_sink * 1e3);
    // The half turn carries the stance 0.33 m round the ball; repeated, the stances turn about
    // the point half way, which is on the spot.
    assert!(r.farthest_from_spot < 0.3, "an ankle went {} m from the spot", r.farthest_from_spot);
    // Where the staff starts again the feet go on from where it ended (only the heels coming
    // down from the closing relevé move the ankles).
    assert!(r.worst_repeat_jump < 0.1, "an ankle jumped {} m where the staff repeats", r.worst_repeat_jump);
}

/// Three dancers of the bundled walk, held on their line for 8 beats: `facing` is the hold's
/// `facing_deg` line, or nothing.
fn hold_plan(facing: &str) -> String {
    format!(
        r#"ensemble = 1
score = "../walk-arms-turn.lbn"
[stage]
width_m = 10
depth_m = 8
[[formation]]
name = "line"
shape = "line"
from = [-2, 3]
to = [2, 3]
count = 3
[[group]]
name = "g"
formation = "line"
score = "../walk-arms-turn.lbn"
staff = 1
[[event]]
at = "1:1"
group = "g"
method = "hold"
beats = 8
{facing}
"#
    )
}

fn positions(sk: &labanplay::pose::skeleton::Skeleton, pose: &Pose) -> Vec<Vec3> {
    let mut out = vec![Vec3::ZERO; JOINT_COUNT];
    joint_positions(sk, pose, &mut out).unwrap();
    out
}

fn crowd_of(text: &str) -> Crowd {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble");
    let plan = labanplay::ensemble::read_plan(text.as_bytes(), &dir, &mut Files)
        .map_err(|d| d.render("hold.plan.toml", Some(text.as_bytes())))
        .unwrap();
    let motion = simulate(&plan);
    Crowd::new(plan, motion, &Proportions::default()).unwrap()
}

#[test]
fn a_hold_dances_in_place_turned_to_its_facing() {
    let plain = crowd_of(&hold_plan(""));
    let turned = crowd_of(&hold_plan("facing_deg = 90"));
    assert!(turned.motion.moves.is_empty(), "nobody moves in a hold: {:?}", turned.motion.moves);
    assert_eq!(turned.facing_deg_at(0, 0.0), 0.0);
    assert_eq!(turned.facing_deg_at(0, 0.5), 45.0, "half way through the turn");
    assert_eq!(turned.facing_deg_at(0, 4.0), 90.0);
    let sk = &turned.skeleton;
    let quarter = glam::Quat::from_rotation_y(labanplay::crowd::yaw_from_facing_deg(90.0));
    for t_beats in [2.0, 4.5, 7.0] {
        for i in 0..3 {
            assert!(turned.leg_at(i, t_beats).is_none(), "performer {i} is not walking at {t_beats}");
            let (mut a, mut b) = (Pose::rest(sk), Pose::rest(sk));
            plain.pose_in_world(i, t_beats, &mut None, &mut a);
            turned.pose_in_world(i, t_beats, &mut None, &mut b);
            let ground = turned.ground_at(i, t_beats);
            assert!(ground.distance(plain.ground_at(i, t_beats)) < 1e-6, "both stand on the same spot");
            // The held dancer is the plain one turned a quarter about its spot: the same dance.
            for (pa, pb) in positions(sk, &a).iter().zip(positions(sk, &b)) {
                let expected = ground + quarter * (*pa - ground);
                assert!(expected.distance(pb) < 1e-4, "performer {i} at {t_beats}: {expected} vs {pb}");
            }
        }
    }
    // The dance goes on while held: the pose changes within a beat (walking in place).
    let (mut early, mut late) = (Pose::rest(sk), Pose::rest(sk));
    turned.pose_in_world(0, 1.0, &mut None, &mut early);
    turned.pose_in_world(0, 1.5, &mut None, &mut late);
    let (early, late) = (positions(sk, &early), positions(sk, &late));
    let moved = early.iter().zip(&late).map(|(p, q)| p.distance(*q)).fold(0.0, f32::max);
    assert!(moved > 0.1, "the held dancers dance: {moved} m");
}
