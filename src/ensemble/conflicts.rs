//! Exact conflicts of a simulated motion: between two frames every performer moves in a straight
//! line, so the closest approach of each pair (and of each performer to each obstacle) is solved
//! in closed form, not sampled. The simulation finds them step by step ([`super::stream`]), with
//! steps too long for the tempo and paths off the floor; here they are gathered with late
//! arrivals and events whose spots crowd ([`super::targets`]) into one [`Report`].
//!
//! Segments are checked against circles and boxes exactly. A step is too long when it exceeds half
//! the body height walking, or 0.9 of it running, at the tempo; steps are counted against the move
//! that was the performer's then, with that move's gait.

use super::plan::{ObstacleShape, Plan};
use super::simulate::Motion;
use super::stream::pairs::PairWatch;
use super::targets::{self, CrowdedSpots, OffFloor};
use glam::DVec2;

/// Smallest distance between `a0 → a1` and `b0 → b1` moving together over one step, and the
/// step fraction where it happens.
pub fn closest_approach(a0: DVec2, a1: DVec2, b0: DVec2, b1: DVec2) -> (f64, f64) {
    let d0 = a0 - b0;
    let w = (a1 - a0) - (b1 - b0);
    let w2 = w.length_squared();
    let s = if w2 > 0.0 { (-d0.dot(w) / w2).clamp(0.0, 1.0) } else { 0.0 };
    ((d0 + w * s).length(), s)
}

/// Smallest distance from the segment `p0 → p1` to `q`.
pub fn segment_point_distance(p0: DVec2, p1: DVec2, q: DVec2) -> f64 {
    closest_approach(p0, p1, q, q).0
}

/// Smallest distance from the segment `p0 → p1` to an obstacle (0 when it touches or enters).
pub fn segment_obstacle_distance(p0: DVec2, p1: DVec2, shape: &ObstacleShape) -> f64 {
    match *shape {
        ObstacleShape::Circle { centre, radius_m } => (segment_point_distance(p0, p1, centre) - radius_m).max(0.0),
        ObstacleShape::Box { min, max } => {
            if segment_hits_box(p0, p1, min, max) {
                return 0.0;
            }
            let corners = [min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
            let to_corners = corners.iter().map(|c| segment_point_distance(p0, p1, *c)).fold(f64::INFINITY, f64::min);
            to_corners.min(shape.distance(p0)).min(shape.distance(p1))
        }
    }
}

/// Slab test: does the segment enter the box?
fn segment_hits_box(p0: DVec2, p1: DVec2, min: DVec2, max: DVec2) -> bool {
    let d = p1 - p0;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, dd, lo, hi) in [(p0.x, d.x, min.x, max.x), (p0.y, d.y, min.y, max.y)] {
        if dd.abs() < 1e-15 {
            if p < lo || p > hi {
                return false;
            }
        } else {
            let (a, b) = ((lo - p) / dd, (hi - p) / dd);
            let (a, b) = if a < b { (a, b) } else { (b, a) };
            t0 = t0.max(a);
            t1 = t1.min(b);
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Two performers closer than their personal radii allow.
#[derive(Clone, Debug, PartialEq)]
pub struct PairConflict {
    /// Lower performer index.
    pub a: usize,
    /// Higher performer index.
    pub b: usize,
    /// Closest distance over the episode.
    pub distance_m: f64,
    /// When it was closest.
    pub at_beats: f64,
}

/// A performer inside an obstacle.
#[derive(Clone, Debug, PartialEq)]
pub struct ObstacleConflict {
    /// Performer.
    pub performer: usize,
    /// Obstacle index.
    pub obstacle: usize,
    /// Closest distance of the performer's centre to the obstacle.
    pub distance_m: f64,
    /// When.
    pub at_beats: f64,
}

/// A performer that reached its target after the event's end (or never).
#[derive(Clone, Debug, PartialEq)]
pub struct LateArrival {
    /// Performer.
    pub performer: usize,
    /// Behaviour event index.
    pub behaviour: usize,
    /// When it was due.
    pub due_beats: f64,
    /// When it arrived; `None` when it never did.
    pub arrived_beats: Option<f64>,
    /// Distance left when it was due.
    pub short_m: f64,
}

/// A step longer than the body can take.
#[derive(Clone, Debug, PartialEq)]
pub struct LongStep {
    /// Performer.
    pub performer: usize,
    /// Behaviour event index.
    pub behaviour: usize,
    /// When the step starts.
    pub at_beats: f64,
    /// Its length.
    pub length_m: f64,
    /// The longest step at that gait.
    pub max_m: f64,
}

/// Everything `check` finds in a motion.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Pairs too close.
    pub pairs: Vec<PairConflict>,
    /// Performers inside obstacles.
    pub obstacles: Vec<ObstacleConflict>,
    /// Late arrivals.
    pub late: Vec<LateArrival>,
    /// Steps too long.
    pub long_steps: Vec<LongStep>,
    /// Spots and paths off the stage and its wings.
    pub off_floor: Vec<OffFloor>,
    /// Events whose spots are closer than two bodies can stand (their moves are not also late).
    pub crowded: Vec<CrowdedSpots>,
}

impl Report {
    /// How many findings there are.
    pub fn count(&self) -> usize {
        self.pairs.len()
            + self.obstacles.len()
            + self.late.len()
            + self.long_steps.len()
            + self.off_floor.len()
            + self.crowded.len()
    }

    /// True when nothing was found.
    pub fn is_clean(&self) -> bool {
        self.count() == 0
    }
}

/// Tolerance below the contact distance that still counts as touching, not a conflict.
pub const CONTACT_TOLERANCE_M: f64 = 1e-6;

/// Every pair closer than `2 × radius` between consecutive frames, exactly; each episode (a run
/// of consecutive steps) reported once at its closest moment (as the simulation finds them).
pub fn pair_conflicts(frames: &[Vec<DVec2>], radius_m: f64, dt_beats: f64) -> Vec<PairConflict> {
    let reach = 2.0 * radius_m - CONTACT_TOLERANCE_M;
    if let [p] = frames {
        let mut out = Vec::new();
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                let d = p[i].distance(p[j]);
                if d < reach {
                    out.push(PairConflict { a: i, b: j, distance_m: d, at_beats: 0.0 });
                }
            }
        }
        return out;
    }
    let mut watch = PairWatch::new(radius_m, dt_beats);
    for (f, w) in frames.windows(2).enumerate() {
        watch.step(f, &w[0], &w[1], None);
    }
    watch.finish()
}

/// Late arrivals from the motion's move records, except the moves of the events in `excused`
/// (behaviour indices: events already reported for what they ask).
pub fn late_arrivals(motion: &Motion, excused: &[usize]) -> Vec<LateArrival> {
    let tolerance = motion.dt_beats * 0.5;
    motion
        .moves
        .iter()
        .filter(|m| !excused.contains(&m.behaviour))
        .filter(|m| m.arrived_beats.is_none_or(|a| a > m.due_beats + tolerance))
        .map(|m| LateArrival {
            performer: m.performer,
            behaviour: m.behaviour,
            due_beats: m.due_beats,
            arrived_beats: m.arrived_beats,
            short_m: m.short_m,
        })
        .collect()
}

/// The whole check: what the simulation found, late arrivals and crowded events. The moves of
/// an event whose spots crowd are not also reported late.
pub fn check(plan: &Plan, motion: &Motion) -> Report {
    let crowded = targets::crowded_spots(plan, motion);
    let excused: Vec<usize> = crowded.iter().map(|c| c.behaviour).collect();
    let found = &motion.findings;
    Report {
        pairs: found.pairs.clone(),
        obstacles: found.obstacles.clone(),
        late: late_arrivals(motion, &excused),
        long_steps: found.long_steps.clone(),
        off_floor: found.off_floor.clone(),
        crowded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_approach_is_exact_between_samples() {
        // Two performers cross at the middle of a step: the frames alone are 2 m apart.
        let (d, s) =
            closest_approach(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(0.0, -1.0), DVec2::new(0.0, 1.0));
        assert!(d < 1e-12 && (s - 0.5).abs() < 1e-12);
        let frames =
            vec![vec![DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.1)], vec![DVec2::new(1.0, 0.0), DVec2::new(-1.0, 0.1)]];
        let c = pair_conflicts(&frames, 0.25, 0.125);
        assert_eq!(c.len(), 1);
        assert!((c[0].distance_m - 0.1).abs() < 1e-12);
        assert!((c[0].at_beats - 0.0625).abs() < 1e-12);
        assert!(pair_conflicts(&frames, 0.04, 0.125).is_empty());
    }

    #[test]
    fn segments_against_boxes() {
        let b = ObstacleShape::Box { min: DVec2::new(-1.0, -1.0), max: DVec2::new(1.0, 1.0) };
        assert_eq!(segment_obstacle_distance(DVec2::new(-3.0, 0.0), DVec2::new(3.0, 0.0), &b), 0.0);
        let d = segment_obstacle_distance(DVec2::new(-3.0, 2.0), DVec2::new(3.0, 2.0), &b);
        assert!((d - 1.0).abs() < 1e-12);
        let d = segment_obstacle_distance(DVec2::new(2.0, 3.0), DVec2::new(3.0, 2.0), &b);
        assert!((d - 3.0 / 2.0f64.sqrt()).abs() < 1e-12, "{d}");
    }
}
