//! Pair and obstacle conflicts found step by step: between two frames every performer moves in
//! a straight line, so each pair's closest approach (and each performer's to each set piece) is
//! solved in closed form. A run of consecutive steps in conflict is one episode, reported once at
//! its closest moment. The performers are shared out among threads in fixed chunks and their
//! findings merged in performer order, so any number of threads finds the same.

use crate::ensemble::conflicts::{
    CONTACT_TOLERANCE_M, ObstacleConflict, PairConflict, closest_approach, segment_obstacle_distance,
    segment_point_distance,
};
use crate::ensemble::grid::Grid;
use crate::ensemble::plan::Obstacle;
use glam::DVec2;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Performers per chunk of work.
const CHUNK: usize = 512;

/// Pairs closer than their bodies allow, step by step.
#[derive(Clone, Debug)]
pub struct PairWatch {
    radius_m: f64,
    dt_beats: f64,
    /// (a, b) → (last step seen in conflict, index in `found`).
    open: BTreeMap<(usize, usize), (usize, usize)>,
    found: Vec<PairConflict>,
}

impl PairWatch {
    /// Watches bodies of `radius_m`, steps of `dt_beats`.
    pub fn new(radius_m: f64, dt_beats: f64) -> Self {
        Self { radius_m, dt_beats, open: BTreeMap::new(), found: Vec::new() }
    }

    /// Step `step`: everyone from `p0` to `p1`. Neighbours come from `near` when it is given
    /// (the step's grid over `p0` and the movers' lists), or else from a grid built here.
    pub fn step(&mut self, step: usize, p0: &[DVec2], p1: &[DVec2], near: Option<StepNeighbours>) {
        let reach = 2.0 * self.radius_m - CONTACT_TOLERANCE_M;
        let chunks: Vec<Vec<(usize, usize, f64, f64)>> = match near {
            Some(near) => Self::hits(p0.len(), |i, hits| near.hits_of(i, p0, p1, reach, hits)),
            None => {
                let max_move = p0.iter().zip(p1).map(|(a, b)| a.distance(*b)).fold(0.0f64, f64::max);
                let grid = Grid::build(p0, (2.0 * self.radius_m + 2.0 * max_move).max(1e-3));
                Self::hits(p0.len(), |i, hits| {
                    // Two closer than the reach at some moment started within it plus both moves.
                    let radius_m = reach + p0[i].distance(p1[i]) + max_move + 1e-9;
                    let (order, points) = (grid.order(), grid.points());
                    grid.for_each_run_within(p0[i], radius_m, |run| {
                        for (&j, q) in order[run.clone()].iter().zip(&points[run]) {
                            let j = j as usize;
                            if j > i && q.distance_squared(p0[i]) < radius_m * radius_m {
                                push_hit(p0, p1, reach, i, j, hits);
                            }
                        }
                    });
                })
            }
        };
        for (i, j, d, s) in chunks.into_iter().flatten() {
            let at = (step as f64 + s) * self.dt_beats;
            match self.open.get_mut(&(i, j)) {
                Some((last, k)) if *last + 1 >= step => {
                    *last = step;
                    let c = &mut self.found[*k];
                    if d < c.distance_m {
                        c.distance_m = d;
                        c.at_beats = at;
                    }
                }
                _ => {
                    self.open.insert((i, j), (step, self.found.len()));
                    self.found.push(PairConflict { a: i, b: j, distance_m: d, at_beats: at });
                }
            }
        }
    }

    /// Each performer's hits (`hits_of(i, hits)`: the pairs `(i, j)` or `(j, i)` it finds),
    /// found in chunks shared among threads and kept in performer order.
    fn hits(
        n: usize,
        hits_of: impl Fn(usize, &mut Vec<(usize, usize, f64, f64)>) + Sync,
    ) -> Vec<Vec<(usize, usize, f64, f64)>> {
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut hits = Vec::new();
                for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    hits_of(i, &mut hits);
                }
                hits
            })
            .collect()
    }

    /// Every episode, by when it was closest, then by pair.
    pub fn finish(mut self) -> Vec<PairConflict> {
        self.found.sort_by(|x, y| x.at_beats.total_cmp(&y.at_beats).then((x.a, x.b).cmp(&(y.a, y.b))));
        self.found
    }
}

/// Pair `a < b`'s closest approach over the step, kept when nearer than `reach`.
fn push_hit(p0: &[DVec2], p1: &[DVec2], reach: f64, a: usize, b: usize, hits: &mut Vec<(usize, usize, f64, f64)>) {
    let (d, s) = closest_approach(p0[a], p1[a], p0[b], p1[b]);
    if d < reach {
        hits.push((a, b, d, s));
    }
}

/// Who could meet whom in one simulation step: the step's grid over the places at its start,
/// and each mover's list of everyone it could meet (as the act phase gathered them). Those who
/// stood still end the step exactly where they began.
#[derive(Clone, Copy, Debug)]
pub struct StepNeighbours<'a> {
    /// The grid over the places at the start of the step.
    pub grid: &'a Grid,
    /// Per performer, its mover slot; `u32::MAX` for those who stood still.
    pub slot_of: &'a [u32],
    /// Per mover slot `m`, `near[near_start[m]..near_start[m + 1]]` holds everyone closer to
    /// it at the start than the contact distance plus both moves (an upper bound of each).
    pub near_start: &'a [u32],
    /// The movers' lists, one after another.
    pub near: &'a [u32],
}

impl StepNeighbours<'_> {
    /// Performer `i`'s pairs nearer than `reach` at some moment of the step: a mover's with
    /// everyone on its list (a pair of movers by the lower index's list), one standing still
    /// with those standing still nearer than `reach` (the movers' lists hold the rest).
    fn hits_of(&self, i: usize, p0: &[DVec2], p1: &[DVec2], reach: f64, hits: &mut Vec<(usize, usize, f64, f64)>) {
        const STILL: u32 = u32::MAX;
        let m = self.slot_of[i];
        if m != STILL {
            let m = m as usize;
            for &j in &self.near[self.near_start[m] as usize..self.near_start[m + 1] as usize] {
                let j = j as usize;
                if j > i || self.slot_of[j] == STILL {
                    push_hit(p0, p1, reach, i.min(j), i.max(j), hits);
                }
            }
            return;
        }
        let radius_m = reach + 1e-9;
        let (order, points) = (self.grid.order(), self.grid.points());
        for run in self.grid.runs_within(p0[i], radius_m) {
            for (&j, q) in order[run.clone()].iter().zip(&points[run]) {
                let j = j as usize;
                if j > i && self.slot_of[j] == STILL && q.distance_squared(p0[i]) < radius_m * radius_m {
                    push_hit(p0, p1, reach, i, j, hits);
                }
            }
        }
    }
}

/// Performers whose bodies enter a set piece, step by step: one report per performer and set
/// piece episode, in the order the episodes begin (by set piece, then performer, within a step).
#[derive(Clone, Debug)]
pub struct ObstacleWatch {
    radius_m: f64,
    dt_beats: f64,
    /// (performer, obstacle) → (last step seen inside, index in `found`).
    open: BTreeMap<(usize, usize), (usize, usize)>,
    found: Vec<ObstacleConflict>,
}

impl ObstacleWatch {
    /// Watches bodies of `radius_m`, steps of `dt_beats`.
    pub fn new(radius_m: f64, dt_beats: f64) -> Self {
        Self { radius_m, dt_beats, open: BTreeMap::new(), found: Vec::new() }
    }

    /// Step `step`: everyone from `p0` to `p1`, against `obstacles`.
    pub fn step(&mut self, step: usize, p0: &[DVec2], p1: &[DVec2], obstacles: &[Obstacle]) {
        let r = self.radius_m - CONTACT_TOLERANCE_M;
        for (k, o) in obstacles.iter().enumerate() {
            let (c, rad) = o.shape.bounding_circle();
            let chunks: Vec<Vec<(usize, f64)>> = (0..p0.len().div_ceil(CHUNK))
                .into_par_iter()
                .map(|ch| {
                    (ch * CHUNK..((ch + 1) * CHUNK).min(p0.len()))
                        .filter(|&i| segment_point_distance(p0[i], p1[i], c) <= rad + r)
                        .map(|i| (i, segment_obstacle_distance(p0[i], p1[i], &o.shape)))
                        .filter(|(_, d)| *d < r)
                        .collect()
                })
                .collect();
            for (i, d) in chunks.into_iter().flatten() {
                match self.open.get_mut(&(i, k)) {
                    Some((seen, idx)) if *seen + 1 >= step => {
                        *seen = step;
                        let c = &mut self.found[*idx];
                        c.distance_m = c.distance_m.min(d);
                    }
                    _ => {
                        self.open.insert((i, k), (step, self.found.len()));
                        self.found.push(ObstacleConflict {
                            performer: i,
                            obstacle: k,
                            distance_m: d,
                            at_beats: step as f64 * self.dt_beats,
                        });
                    }
                }
            }
        }
    }

    /// Every episode.
    pub fn finish(self) -> Vec<ObstacleConflict> {
        self.found
    }
}
