//! The motion report: every place where the engine had to compromise while it moved the body
//! through a score — targets out of reach, joint limits, planted feet that missed the floor, the
//! pelvis lowered, gestures that did not arrive, arm segments held off their directions, knees,
//! hands or the seat that could not stay on the floor — as time ranges per dancer and body part.
//!
//! Found by sampling the compiled [`Animation`] at a fixed rate and reading each
//! [`SampleReport`](crate::animation::SampleReport); consecutive flagged frames make one episode.

mod floor_contacts;

use crate::animation::{Animation, SampleReport};
use crate::motion::plan::{LimbId, world_from_body};
use crate::pose::fk::{Pose, joint_world};
use crate::pose::skeleton::JointId;
use crate::score::Score;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Frames per second the report samples at.
pub const REPORT_FPS: f64 = 30.0;
/// A limb that ends farther than this from its target counts as a compromise, metres.
const MISS_M: f32 = 0.01;
/// A planted foot that ends farther than this from its place counts as off the floor, metres.
const FOOT_MISS_M: f32 = 0.005;
/// A pelvis lowered more than this to keep planted feet on the floor is reported, metres.
const DROP_M: f32 = 0.01;
/// A gesture farther than this from its notated direction at the end of its symbol is late.
const LATE_DEG: f32 = 10.0;
/// An arm segment held farther than this from its notated direction is reported, degrees.
const HELD_DEG: f32 = 10.0;

/// What kind of compromise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Compromise {
    /// The target lay beyond the limb's reach.
    OutOfReach,
    /// The joint limits stopped the limb short of its target.
    JointLimits,
    /// A planted foot could not stay on its place on the floor.
    FootOffFloor,
    /// The pelvis was lowered so planted feet could reach the floor.
    PelvisLowered,
    /// A gesture was not at its notated direction when its symbol ended.
    GestureLate,
    /// A kneeling knee could not stay on its place on the floor.
    KneeOffFloor,
    /// A hand bearing weight could not stay on its place on the floor.
    HandOffFloor,
    /// The seat of a sitting body could not stay on the floor.
    SeatOffFloor,
    /// The shoulder's range held the upper arm off the direction its elbow pre-sign gives.
    UpperArmHeld,
    /// The elbow's hinge and the upper arm's twist held the lower arm off the direction its
    /// wrist pre-sign gives (the upper arm kept its own).
    LowerArmHeld,
}

impl Compromise {
    /// How the report names it.
    pub fn text(self) -> &'static str {
        match self {
            Compromise::OutOfReach => "target out of reach",
            Compromise::JointLimits => "joint limits hit",
            Compromise::FootOffFloor => "foot could not stay on the floor",
            Compromise::PelvisLowered => "pelvis lowered to keep the feet on the floor",
            Compromise::GestureLate => "gesture arrives late",
            Compromise::KneeOffFloor => "kneeling knee could not stay on the floor",
            Compromise::HandOffFloor => "supporting hand could not stay on the floor",
            Compromise::SeatOffFloor => "seat could not stay on the floor",
            Compromise::UpperArmHeld => "upper arm not at its notated direction (the shoulder's range)",
            Compromise::LowerArmHeld => {
                "lower arm not at its notated direction (the elbow's hinge and the upper arm's twist)"
            }
        }
    }
}

/// The body part concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// Left arm.
    LeftArm,
    /// Right arm.
    RightArm,
    /// Left leg.
    LeftLeg,
    /// Right leg.
    RightLeg,
    /// The whole body (pelvis).
    Body,
}

impl Part {
    /// How the report names it.
    pub fn text(self) -> &'static str {
        match self {
            Part::LeftArm => "left arm",
            Part::RightArm => "right arm",
            Part::LeftLeg => "left leg",
            Part::RightLeg => "right leg",
            Part::Body => "body",
        }
    }
}

/// One compromise over a time range.
#[derive(Clone, Debug, PartialEq)]
pub struct Episode {
    /// 0-based dancer (staff) index.
    pub dancer: usize,
    /// Which compromise.
    pub kind: Compromise,
    /// Which part.
    pub part: Part,
    /// First and last flagged time, seconds.
    pub t_start_secs: f64,
    /// Last flagged time, seconds.
    pub t_end_secs: f64,
    /// The worst amount over the episode: metres (reach, limits, floor, pelvis) or degrees (late,
    /// arm segments held).
    pub worst: f32,
    /// For a late gesture: how long after its symbol ended it arrived (`None`: it never did).
    pub late_by_secs: Option<f64>,
}

/// Every compromise of every dancer of `anim`, sorted by dancer, start time, kind and part.
pub fn compromises(anim: &Animation) -> Vec<Episode> {
    let mut out = Vec::new();
    let frames = (anim.duration_secs * REPORT_FPS).floor() as usize + 1;
    let mut pose = Pose::rest(&anim.skeleton);
    for (di, dancer) in anim.dancers.iter().enumerate() {
        // Open episodes: (kind, part) → (start, last, worst).
        let mut open: BTreeMap<(Compromise, Part), (f64, f64, f32)> = BTreeMap::new();
        for f in 0..frames {
            let t = f as f64 / REPORT_FPS;
            let r = dancer.sample_into(&anim.skeleton, t, &mut pose);
            let mut flagged = classify(&r);
            flagged.extend(floor_contacts::floor_support_misses(&anim.skeleton, dancer, t, &pose));
            // Close the episodes not flagged this frame.
            let still: Vec<(Compromise, Part)> = flagged.iter().map(|(k, p, _)| (*k, *p)).collect();
            let closed: Vec<(Compromise, Part)> = open.keys().filter(|k| !still.contains(k)).copied().collect();
            for key in closed {
                if let Some((t0, t1, worst)) = open.remove(&key) {
                    out.push(episode(di, key, t0, t1, worst));
                }
            }
            for (kind, part, amount) in flagged {
                let e = open.entry((kind, part)).or_insert((t, t, amount));
                e.1 = t;
                e.2 = e.2.max(amount);
            }
        }
        for (key, (t0, t1, worst)) in open {
            out.push(episode(di, key, t0, t1, worst));
        }
        out.extend(late_gestures(anim, di));
    }
    out.sort_by(|a, b| {
        (a.dancer, a.t_start_secs, a.kind, a.part)
            .partial_cmp(&(b.dancer, b.t_start_secs, b.kind, b.part))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    out
}

/// The compromises one sample shows: (kind, part, amount in metres, or degrees for arm segments).
pub fn classify(r: &SampleReport) -> Vec<(Compromise, Part, f32)> {
    let mut flagged = Vec::new();
    for i in 0..2 {
        let (arm, leg) = if i == 0 { (Part::LeftArm, Part::LeftLeg) } else { (Part::RightArm, Part::RightLeg) };
        if r.arms_miss_m[i] > MISS_M {
            let kind = if r.arms_out_of_reach[i] { Compromise::OutOfReach } else { Compromise::JointLimits };
            flagged.push((kind, arm, r.arms_miss_m[i]));
        }
        for (kind, held_rad) in
            [(Compromise::UpperArmHeld, r.arms_upper_held_rad[i]), (Compromise::LowerArmHeld, r.arms_lower_held_rad[i])]
        {
            if held_rad.to_degrees() > HELD_DEG {
                flagged.push((kind, arm, held_rad.to_degrees()));
            }
        }
        if r.legs_miss_m[i] > if r.feet_planted[i] { FOOT_MISS_M } else { MISS_M } {
            let kind = if r.feet_planted[i] {
                Compromise::FootOffFloor
            } else if r.legs_out_of_reach[i] {
                Compromise::OutOfReach
            } else {
                Compromise::JointLimits
            };
            flagged.push((kind, leg, r.legs_miss_m[i]));
        }
    }
    if r.pelvis_drop_m > DROP_M {
        flagged.push((Compromise::PelvisLowered, Part::Body, r.pelvis_drop_m));
    }
    flagged
}

fn episode(dancer: usize, (kind, part): (Compromise, Part), t0: f64, t1: f64, worst: f32) -> Episode {
    Episode { dancer, kind, part, t_start_secs: t0, t_end_secs: t1, worst, late_by_secs: None }
}

/// Arm gestures not at their notated direction when their symbol ends (and not already out of
/// reach or stopped by the limits then): how far off, and when they did arrive, if before the
/// next gesture of that arm began.
fn late_gestures(anim: &Animation, di: usize) -> Vec<Episode> {
    let sk = &anim.skeleton;
    let d = &anim.dancers[di];
    let mut pose = Pose::rest(sk);
    let mut out = Vec::new();
    for (limb, part, i, shoulder, wrist) in [
        (LimbId::ArmLeft, Part::LeftArm, 0, JointId::ShoulderL, JointId::WristL),
        (LimbId::ArmRight, Part::RightArm, 1, JointId::ShoulderR, JointId::WristR),
    ] {
        let Some(track) = d.plan.limbs.get(&limb) else { continue };
        for (k, key) in track.keys.iter().enumerate() {
            let v = key.value;
            if v.dir_in_body.length_squared() < 1e-12 || v.upper_dir_in_body.is_some() || v.bend_rad != 0.0 {
                continue;
            }
            let until = track.keys.get(k + 1).map_or(d.plan.end_secs, |n| n.t_end_secs).min(d.plan.end_secs);
            let mut off_at = |t: f64| {
                let r = d.sample_into(sk, t, &mut pose);
                let want = world_from_body(v.dir_in_body, d.yaw_at(t)).normalize_or_zero();
                let got = (joint_world(sk, &pose, wrist).1 - joint_world(sk, &pose, shoulder).1).normalize_or_zero();
                (want.angle_between(got).to_degrees(), r.arms_miss_m[i] > MISS_M)
            };
            let t_end = key.t_end_secs;
            let (err, stopped) = off_at(t_end);
            if stopped || err <= LATE_DEG {
                continue;
            }
            let mut arrived = None;
            let mut t = t_end;
            while t < until {
                t += 1.0 / REPORT_FPS;
                if off_at(t.min(until)).0 <= LATE_DEG {
                    arrived = Some(t.min(until) - t_end);
                    break;
                }
            }
            out.push(Episode {
                dancer: di,
                kind: Compromise::GestureLate,
                part,
                t_start_secs: key.t_start_secs,
                t_end_secs: t_end,
                worst: err,
                late_by_secs: arrived,
            });
        }
    }
    out
}

/// `measure:beat` at `t_secs` (beats counted from 1).
fn place(score: &Score, t_secs: f64) -> String {
    let (m, b) = score.measure_at(score.tempo.beats_from_secs(t_secs));
    format!("{m}:{:.2}", b + 1.0)
}

/// The report as text, compiler style: one line per episode,
/// `FILE: dancer N, M:B–M:B (t0–t1 s): warning: PART: WHAT (amount)`, then a summary line.
pub fn render(file: &str, score: &Score, episodes: &[Episode]) -> String {
    let mut text = String::new();
    for e in episodes {
        let amount = match (e.kind, e.late_by_secs) {
            (Compromise::GestureLate, Some(late)) => {
                format!("{:.0}° off when its symbol ends, there {late:.2} s later", e.worst)
            }
            (Compromise::GestureLate, None) => format!("{:.0}° off when its symbol ends, never arrives", e.worst),
            (Compromise::UpperArmHeld | Compromise::LowerArmHeld, _) => format!("up to {:.0}° off", e.worst),
            _ => format!("up to {:.1} cm", e.worst * 100.0),
        };
        let _ = writeln!(
            text,
            "{file}: dancer {}, {}–{} ({:.2}–{:.2} s): warning: {}: {} ({amount})",
            e.dancer + 1,
            place(score, e.t_start_secs),
            place(score, e.t_end_secs),
            e.t_start_secs,
            e.t_end_secs,
            e.part.text(),
            e.kind.text(),
        );
    }
    let mut counts: BTreeMap<Compromise, usize> = BTreeMap::new();
    for e in episodes {
        *counts.entry(e.kind).or_default() += 1;
    }
    let summary: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {}", k.text())).collect();
    let _ = writeln!(
        text,
        "{file}: motion: {} compromise(s){}",
        episodes.len(),
        if summary.is_empty() { String::new() } else { format!(": {}", summary.join(", ")) }
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_foot_that_misses_its_place_is_off_the_floor_and_a_free_one_is_not() {
        // No score we have makes a planted foot miss (the pelvis drops first), so this is the
        // classification alone.
        let planted = SampleReport { legs_miss_m: [0.0, 0.02], feet_planted: [false, true], ..Default::default() };
        assert_eq!(classify(&planted), vec![(Compromise::FootOffFloor, Part::RightLeg, 0.02)]);
        let free = SampleReport { legs_miss_m: [0.0, 0.02], legs_limited: [false, true], ..Default::default() };
        assert_eq!(classify(&free), vec![(Compromise::JointLimits, Part::RightLeg, 0.02)]);
        let reach = SampleReport { legs_miss_m: [0.02, 0.0], legs_out_of_reach: [true, false], ..Default::default() };
        assert_eq!(classify(&reach), vec![(Compromise::OutOfReach, Part::LeftLeg, 0.02)]);
        // Under the thresholds: nothing.
        let small = SampleReport { legs_miss_m: [0.004, 0.009], feet_planted: [true, false], ..Default::default() };
        assert!(classify(&small).is_empty());
    }
}
