//! The act phase: each move is checked exactly against the moves of the neighbours ahead of it
//! (farther behind schedule, then lower index) and the others' places, and turned or shortened
//! until clear; standing still always is, so no two bodies ever overlap.
//!
//! A mover waits only for the movers ahead of it that it could meet this step (closer than the
//! contact distance plus both moves), so the moves are taken in waves: each wave is everyone whose
//! movers ahead have all moved, shared among threads. Each move sees exactly what it would see if
//! all were taken one by one in lag order, so the result is the same on any number of threads.

use super::Simulation;
use crate::ensemble::conflicts::{closest_approach, segment_obstacle_distance};
use crate::ensemble::grid::Grid;
use crate::ensemble::plan::Obstacle;
use crate::ensemble::steer::Detour;
use crate::ensemble::stream::pairs::StepNeighbours;
use glam::DVec2;
use rayon::prelude::*;
use std::cmp::Ordering;

/// Movers per chunk of work when their neighbours are gathered.
const CHUNK: usize = 256;
/// Moves of one wave per piece of work shared among threads.
const WAVE_CHUNK: usize = 64;
/// How much farther apart than the contact distance plus both proposed moves two movers still
/// wait for each other: far more than a turned or shortened move's rounding.
const WAIT_SLACK_M: f64 = 1e-6;
/// A move shorter than this (squared, m²) is standing still.
const STILL_M2: f64 = 1e-18;

/// What one act phase reads: everyone's state after the correct phase.
pub(super) struct Moves<'a> {
    /// Places at the start of the step.
    pub pos: &'a [DVec2],
    /// Proposed places (the own place for those not moving).
    pub proposed: &'a [DVec2],
    /// How far behind schedule, metres: the farther behind moves first.
    pub lag: &'a [f64],
    /// Body radius, metres.
    pub radius_m: f64,
    /// The set pieces.
    pub obstacles: &'a [Obstacle],
}

/// The act phase's buffers, reused by every step.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    /// Per performer, the length of its proposed move (0 for those standing still).
    step_m: Vec<f64>,
    /// The performer of each mover.
    movers: Vec<u32>,
    /// Per performer, its mover slot (`u32::MAX` for those standing still).
    slot_of: Vec<u32>,
    /// Per mover, everyone it could meet: `near[near_start[m]..near_start[m + 1]]`.
    near_start: Vec<u32>,
    near: Vec<u32>,
    /// Per mover, the movers behind it that wait for it (mover slots).
    behind_start: Vec<u32>,
    behind: Vec<u32>,
    /// Per mover, how many movers ahead of it have not moved yet.
    waiting: Vec<u32>,
    wave: Vec<u32>,
    next_wave: Vec<u32>,
    chosen: Vec<DVec2>,
}

/// One chunk of movers' neighbour lists.
#[derive(Default)]
struct Lists {
    near_len: Vec<u32>,
    near: Vec<u32>,
    behind_len: Vec<u32>,
    behind: Vec<u32>,
    waiting: Vec<u32>,
}

impl Simulation<'_> {
    /// Act: performers take their moves (see the module doc) and their velocities follow.
    /// `grid` is over the places at the start of the step.
    pub(super) fn act(&mut self, grid: &Grid) {
        let moves = Moves {
            pos: &self.pos,
            proposed: &self.proposed,
            lag: &self.lag,
            radius_m: self.plan.body.radius_m,
            obstacles: &self.plan.obstacles,
        };
        let mut fin = std::mem::take(&mut self.act_fin);
        let counts = take_moves(&moves, grid, &mut self.detour, &mut self.act_scratch, &mut fin);
        self.detours[0] += counts[0];
        self.detours[1] += counts[1];
        let dt_secs = self.dt_secs;
        self.vel.par_iter_mut().zip(&fin).zip(&self.pos).with_min_len(CHUNK).for_each(|((v, f), p)| {
            *v = (*f - *p) / dt_secs;
        });
        std::mem::swap(&mut self.pos, &mut fin);
        self.act_fin = fin;
    }
}

/// True when mover `a` moves before `b`: farther behind schedule, then the lower index.
fn ahead(lag: &[f64], a: usize, b: usize) -> bool {
    match lag[a].total_cmp(&lag[b]) {
        Ordering::Greater => true,
        Ordering::Equal => a < b,
        Ordering::Less => false,
    }
}

/// Takes everyone's move: `fin` gets the places after the step, `detour` the side each mover
/// turned to (when it turned); returns the clockwise-left and counter-clockwise-right detour
/// steps taken. `grid` is over `moves.pos`.
pub(super) fn take_moves(
    moves: &Moves,
    grid: &Grid,
    detour: &mut [Option<Detour>],
    s: &mut Scratch,
    fin: &mut Vec<DVec2>,
) -> [u64; 2] {
    let min_d = 2.0 * moves.radius_m;
    s.find_movers(moves);
    let longest_m = s.step_m.iter().copied().fold(0.0, f64::max);
    s.gather(moves, grid, min_d, longest_m);
    fin.clear();
    fin.extend_from_slice(moves.pos);
    let turns = |sign: f64| [30.0, 60.0, -30.0, 90.0, -60.0].map(|deg: f64| DVec2::from_angle(sign * deg.to_radians()));
    let turns = [turns(1.0), turns(-1.0)];
    let mut counts = [0u64; 2];
    s.wave.clear();
    s.wave.extend((0..s.movers.len() as u32).filter(|&m| s.waiting[m as usize] == 0));
    while !s.wave.is_empty() {
        let mut chosen = std::mem::take(&mut s.chosen);
        let pick = Pick { moves, s, fin, detour, turns: &turns, longest_m, min_d };
        s.wave
            .par_iter()
            .with_min_len(WAVE_CHUNK)
            .map_init(Vec::new, |near, &m| pick.choose(m, near))
            .collect_into_vec(&mut chosen);
        s.next_wave.clear();
        for (&m, c) in s.wave.iter().zip(&chosen) {
            let m = m as usize;
            let i = s.movers[m] as usize;
            let step = moves.proposed[i] - moves.pos[i];
            fin[i] = moves.pos[i] + *c;
            if *c != DVec2::ZERO && *c != step {
                detour[i] = Some(detour[i].unwrap_or(Detour::CounterClockwiseRight));
            }
            if let Some(d) = detour[i] {
                counts[usize::from(d != Detour::ClockwiseLeft)] += 1;
            }
            for &k in &s.behind[s.behind_start[m] as usize..s.behind_start[m + 1] as usize] {
                s.waiting[k as usize] -= 1;
                if s.waiting[k as usize] == 0 {
                    s.next_wave.push(k);
                }
            }
        }
        s.chosen = chosen;
        std::mem::swap(&mut s.wave, &mut s.next_wave);
    }
    counts
}

impl Scratch {
    /// Who could meet whom in the step the last act phase took over `grid`: everyone a mover
    /// could meet is on its list (closer than the contact distance plus both proposed moves, and
    /// no move taken is longer than proposed).
    pub(super) fn neighbours<'a>(&'a self, grid: &'a Grid) -> StepNeighbours<'a> {
        StepNeighbours { grid, slot_of: &self.slot_of, near_start: &self.near_start, near: &self.near }
    }

    /// The movers (a proposed move longer than standing still) and everyone's move length.
    fn find_movers(&mut self, moves: &Moves) {
        let n = moves.pos.len();
        self.step_m.clear();
        self.step_m.par_extend(moves.proposed.par_iter().zip(moves.pos).with_min_len(CHUNK).map(|(q, p)| {
            let step = *q - *p;
            if step.length_squared() >= STILL_M2 { step.length() } else { 0.0 }
        }));
        self.slot_of.clear();
        self.slot_of.resize(n, u32::MAX);
        self.movers.clear();
        for (i, step_m) in self.step_m.iter().enumerate() {
            if *step_m != 0.0 {
                self.slot_of[i] = self.movers.len() as u32;
                self.movers.push(i as u32);
            }
        }
    }

    /// Each mover's near neighbours (everyone it could meet) and the movers behind it that
    /// wait for it, gathered in chunks shared among threads and joined in mover order.
    fn gather(&mut self, moves: &Moves, grid: &Grid, min_d: f64, longest_m: f64) {
        let (order, points) = (grid.order(), grid.points());
        let (step_m, slot_of) = (&self.step_m, &self.slot_of);
        let chunks: Vec<Lists> = self
            .movers
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut lists = Lists::default();
                for &i in chunk {
                    let i = i as usize;
                    let p = moves.pos[i];
                    let (near0, behind0) = (lists.near.len(), lists.behind.len());
                    let mut waiting = 0;
                    let radius_m = min_d + WAIT_SLACK_M + (step_m[i] + longest_m) + 1e-9;
                    for run in grid.runs_within(p, radius_m) {
                        for (&j, q) in order[run.clone()].iter().zip(&points[run]) {
                            let j = j as usize;
                            if j == i {
                                continue;
                            }
                            // The same sum both ways round, so two movers wait one for the other.
                            let meet_m = min_d + WAIT_SLACK_M + (step_m[i] + step_m[j]);
                            if q.distance_squared(p) >= meet_m * meet_m {
                                continue;
                            }
                            lists.near.push(j as u32);
                            if slot_of[j] != u32::MAX {
                                if ahead(moves.lag, j, i) {
                                    waiting += 1;
                                } else {
                                    lists.behind.push(slot_of[j]);
                                }
                            }
                        }
                    }
                    lists.near_len.push((lists.near.len() - near0) as u32);
                    lists.behind_len.push((lists.behind.len() - behind0) as u32);
                    lists.waiting.push(waiting);
                }
                lists
            })
            .collect();
        self.near.clear();
        self.behind.clear();
        self.waiting.clear();
        self.near_start.clear();
        self.behind_start.clear();
        self.near_start.push(0);
        self.behind_start.push(0);
        for lists in &chunks {
            self.near.extend_from_slice(&lists.near);
            self.behind.extend_from_slice(&lists.behind);
            self.waiting.extend_from_slice(&lists.waiting);
            for &len in &lists.near_len {
                self.near_start.push(self.near_start[self.near_start.len() - 1] + len);
            }
            for &len in &lists.behind_len {
                self.behind_start.push(self.behind_start[self.behind_start.len() - 1] + len);
            }
        }
    }
}

/// What choosing one move reads: everyone's place so far (`fin`: moved or not yet).
struct Pick<'a> {
    moves: &'a Moves<'a>,
    s: &'a Scratch,
    fin: &'a [DVec2],
    detour: &'a [Option<Detour>],
    turns: &'a [[DVec2; 5]; 2],
    longest_m: f64,
    min_d: f64,
}

impl Pick<'_> {
    /// Mover `m`'s step: the proposed one, or turned (towards its detour side) or shortened
    /// until it keeps clear of the neighbours' moves so far and the set pieces; standing still
    /// at worst. `near`: scratch.
    fn choose(&self, m: u32, near: &mut Vec<u32>) -> DVec2 {
        let (moves, s, fin, min_d) = (self.moves, self.s, self.fin, self.min_d);
        let m = m as usize;
        let i = s.movers[m] as usize;
        let p = moves.pos[i];
        let step = moves.proposed[i] - p;
        let step_m = s.step_m[i];
        let reach = min_d + step_m + self.longest_m;
        // Each neighbour with how far it moves this step (0 while it has not moved): one
        // farther than the contact distance plus both moves cannot come within it.
        near.clear();
        for &j in &s.near[s.near_start[m] as usize..s.near_start[m + 1] as usize] {
            let d2 = moves.pos[j as usize].distance_squared(p);
            if d2 < reach * reach {
                let moved_m = fin[j as usize].distance(moves.pos[j as usize]);
                let can_meet = min_d + step_m + moved_m + 1e-9;
                if d2 < can_meet * can_meet {
                    near.push(j);
                }
            }
        }
        let side = self.detour[i].unwrap_or(Detour::CounterClockwiseRight);
        let rot = &self.turns[usize::from(side != Detour::ClockwiseLeft)];
        let candidate = |k: usize| match k {
            0 => step,
            1 => rot[0].rotate(step),
            2 => rot[1].rotate(step),
            3 => rot[2].rotate(step),
            4 => step * 0.5,
            5 => rot[3].rotate(step) * 0.5,
            6 => rot[4].rotate(step) * 0.5,
            7 => step * 0.25,
            _ => DVec2::ZERO,
        };
        let r = moves.radius_m;
        (0..9)
            .map(candidate)
            .find(|c| {
                let q = p + *c;
                near.iter().all(|&j| closest_approach(p, q, moves.pos[j as usize], fin[j as usize]).0 >= min_d)
                    && moves
                        .obstacles
                        .iter()
                        .all(|o| segment_obstacle_distance(p, q, &o.shape) >= r || o.shape.distance(p) < r)
            })
            .unwrap_or(DVec2::ZERO)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ensemble::plan::{Obstacle, ObstacleShape};
    use crate::ensemble::stream::pairs::PairWatch;

    /// The moves taken one by one in lag order, every neighbour checked: what the waves must
    /// reproduce bit for bit.
    fn one_by_one(moves: &Moves, detour: &mut [Option<Detour>]) -> Vec<DVec2> {
        let n = moves.pos.len();
        let min_d = 2.0 * moves.radius_m;
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|a, b| moves.lag[*b].total_cmp(&moves.lag[*a]).then(a.cmp(b)));
        let mut fin = moves.pos.to_vec();
        let turns =
            |sign: f64| [30.0, 60.0, -30.0, 90.0, -60.0].map(|deg: f64| DVec2::from_angle(sign * deg.to_radians()));
        let turns = [turns(1.0), turns(-1.0)];
        let mut s = Scratch::default();
        s.find_movers(moves);
        let longest_m = s.step_m.iter().copied().fold(0.0, f64::max);
        for &i in &order {
            let step = moves.proposed[i] - moves.pos[i];
            if step.length_squared() < STILL_M2 {
                continue;
            }
            // Every other performer as a neighbour: the waves' lists must hold all that matter.
            s.near_start = vec![0, (n - 1) as u32];
            s.near = (0..n as u32).filter(|&j| j as usize != i).collect();
            s.movers = vec![i as u32];
            let pick = Pick { moves, s: &s, fin: &fin, detour, turns: &turns, longest_m, min_d };
            let c = pick.choose(0, &mut Vec::new());
            fin[i] = moves.pos[i] + c;
            if c != DVec2::ZERO && c != step {
                detour[i] = Some(detour[i].unwrap_or(Detour::CounterClockwiseRight));
            }
        }
        fin
    }

    /// A crowd of 900 on a 0.55 m lattice (bodies 0.5 m across), each stepping up to 0.2 m
    /// towards a common point, with a pillar in the middle.
    fn crowd() -> (Vec<DVec2>, Vec<DVec2>, Vec<f64>, Vec<Obstacle>) {
        let pos: Vec<DVec2> = (0..900)
            .map(|k| DVec2::new((k % 30) as f64 * 0.55, (k / 30) as f64 * 0.55 + ((k * 7) % 5) as f64 * 0.01))
            .collect();
        let goal = DVec2::new(8.0, 8.0);
        let proposed =
            pos.iter()
                .enumerate()
                .map(|(k, p)| {
                    if k % 11 == 0 { *p } else { *p + (goal - *p).normalize_or_zero() * (0.05 + (k % 4) as f64 * 0.05) }
                })
                .collect();
        let lag = (0..900).map(|k| ((k * 37) % 101) as f64 * 0.01).collect();
        let shape = ObstacleShape::Circle { centre: goal, radius_m: 0.6 };
        let pillar = Obstacle { name: "pillar".into(), shape, span: crate::diag::Span::default() };
        (pos, proposed, lag, vec![pillar])
    }

    #[test]
    fn the_movers_lists_find_the_pairs_a_grid_of_their_own_finds() {
        // 600 bodies 0.4 m across scattered at random over 24 × 24 m (some overlap from the
        // start), every third standing still, the others stepping 0.15 m towards the middle.
        let unit = |k: u64| {
            let mut z = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        };
        let pos: Vec<DVec2> = (0..600u64).map(|k| DVec2::new(unit(2 * k + 1), unit(2 * k + 2)) * 24.0).collect();
        let goal = DVec2::new(12.0, 12.0);
        let proposed: Vec<DVec2> = pos
            .iter()
            .enumerate()
            .map(|(k, p)| if k % 3 == 0 { *p } else { *p + (goal - *p).normalize_or_zero() * 0.15 })
            .collect();
        let lag: Vec<f64> = (0..600).map(|k| ((k * 37) % 101) as f64 * 0.01).collect();
        let moves = Moves { pos: &pos, proposed: &proposed, lag: &lag, radius_m: 0.2, obstacles: &[] };
        let (mut s, mut fin, mut detour) = (Scratch::default(), Vec::new(), vec![None; pos.len()]);
        let grid = Grid::build(&pos, 0.4);
        take_moves(&moves, &grid, &mut detour, &mut s, &mut fin);
        let (mut by_lists, mut by_grid) = (PairWatch::new(0.2, 0.125), PairWatch::new(0.2, 0.125));
        by_lists.step(0, &pos, &fin, Some(s.neighbours(&grid)));
        by_grid.step(0, &pos, &fin, None);
        let (by_lists, by_grid) = (by_lists.finish(), by_grid.finish());
        let still = |i: usize| s.slot_of[i] == u32::MAX;
        let moved = (0..pos.len()).filter(|&i| fin[i] != pos[i]).count();
        assert!(moved > 150, "{moved} moved");
        assert!(by_grid.iter().any(|c| still(c.a) && still(c.b)), "no pair standing still");
        assert!(by_grid.iter().any(|c| !still(c.a) && !still(c.b)), "no pair of movers");
        assert!(by_grid.iter().any(|c| still(c.a) != still(c.b)), "no mover beside one standing still");
        assert_eq!(by_lists, by_grid);
    }

    #[test]
    fn waves_take_the_moves_one_by_one_in_lag_order_would_on_any_number_of_threads() {
        let (pos, proposed, lag, obstacles) = crowd();
        let moves = Moves { pos: &pos, proposed: &proposed, lag: &lag, radius_m: 0.25, obstacles: &obstacles };
        let side = |k: usize| match k % 3 {
            0 => None,
            1 => Some(Detour::ClockwiseLeft),
            _ => Some(Detour::CounterClockwiseRight),
        };
        let mut expected_detour: Vec<Option<Detour>> = (0..pos.len()).map(side).collect();
        let expected = one_by_one(&moves, &mut expected_detour);
        let changed = (0..pos.len()).filter(|&i| expected[i] != proposed[i]).count();
        assert!(changed > 100, "only {changed} moves were turned or shortened");
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut detour: Vec<Option<Detour>> = (0..pos.len()).map(side).collect();
            let mut fin = Vec::new();
            let grid = Grid::build(&pos, 1.5);
            pool.install(|| take_moves(&moves, &grid, &mut detour, &mut Scratch::default(), &mut fin));
            assert!(fin == expected, "{threads} threads: the waves moved differently from one by one");
            assert_eq!(detour, expected_detour, "{threads} threads");
        }
    }
}
