//! The simulation's record, kept while it steps rather than frame by frame: each performer's
//! path as keys ([`keys`]), the final positions, and what the checks need found as the steps go
//! ([`pairs`]: bodies too close, bodies in set pieces; [`moves`]: steps too long, paths off the
//! floor, the distance left when due). Memory grows with the keys and the findings, not with the
//! number of steps. Work on all performers is shared among threads with the same results on any
//! number of them.

pub mod keys;
pub mod moves;
pub mod pairs;

use super::conflicts::{LongStep, ObstacleConflict, PairConflict};
use super::plan::{Obstacle, Plan};
use super::simulate::MoveRecord;
use super::targets::OffFloor;
use glam::DVec2;
use keys::{KeyWriter, Track};
use moves::{MoveWatch, Window};
use pairs::{ObstacleWatch, PairWatch, StepNeighbours};
use rayon::prelude::*;

/// What the checks found while the simulation stepped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Findings {
    /// Pairs closer than their bodies allow, by when they were closest.
    pub pairs: Vec<PairConflict>,
    /// Bodies in set pieces.
    pub obstacles: Vec<ObstacleConflict>,
    /// Steps too long for their gait, by move.
    pub long_steps: Vec<LongStep>,
    /// Spots and paths off the floor, by move.
    pub off_floor: Vec<OffFloor>,
}

/// The simulated motion: paths as keys, the moves, and the findings.
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    /// Beats per step.
    pub dt_beats: f64,
    /// Steps simulated (the last frame is `steps`, at `steps × dt_beats`).
    pub steps: usize,
    /// Per performer, its path.
    pub tracks: Vec<Track>,
    /// Where everyone stands after the last step, exactly.
    pub last: Vec<DVec2>,
    /// Every move, by start.
    pub moves: Vec<MoveRecord>,
    /// Detours taken: clockwise-left and counter-clockwise-right steps.
    pub detours: [u64; 2],
    /// What the checks found while stepping.
    pub findings: Findings,
}

impl Motion {
    /// The last simulated beat.
    pub fn end_beats(&self) -> f64 {
        self.steps as f64 * self.dt_beats
    }

    /// Performer `i` at `t_beats`, from its keys (within [`keys::KEY_TOLERANCE_M`] of the
    /// simulated steps); the exact final position from the last beat on.
    pub fn position_at(&self, i: usize, t_beats: f64) -> DVec2 {
        if t_beats >= self.end_beats() {
            return self.last[i];
        }
        self.tracks[i].position_at_frame(t_beats / self.dt_beats)
    }

    /// Velocity (m per beat) of performer `i` at `t_beats`, from its keys.
    pub fn velocity_at(&self, i: usize, t_beats: f64) -> DVec2 {
        self.tracks[i].velocity_at_frame(t_beats / self.dt_beats) / self.dt_beats
    }

    /// Replays recorded frames (`frames[k]`: everyone at step `k`) with `moves` (by start, their
    /// arrivals known): the keys and findings the simulation would have made of them (no
    /// frames: no steps and no performers).
    pub fn from_frames(plan: &Plan, dt_beats: f64, frames: &[Vec<DVec2>], mut moves: Vec<MoveRecord>) -> Motion {
        let Some(first) = frames.first() else {
            let (tracks, last, detours, findings) = (Vec::new(), Vec::new(), [0; 2], Findings::default());
            return Motion { dt_beats, steps: 0, tracks, last, moves, detours, findings };
        };
        let mut recorder = Recorder::new(plan, first, dt_beats);
        let mut started = 0;
        for (k, frame) in frames.iter().enumerate().skip(1) {
            let t = (k - 1) as f64 * dt_beats;
            while started < moves.len() && moves[started].start_beats <= t + 1e-9 {
                recorder.move_started(started, &moves);
                started += 1;
            }
            recorder.frame(frame, &plan.obstacles, &mut moves, None);
        }
        recorder.finish(moves, [0; 2])
    }
}

/// Keeps the record while the simulation steps: feed it each move as it starts and each new
/// frame.
#[derive(Clone, Debug)]
pub struct Recorder {
    dt_beats: f64,
    /// The newest frame's index.
    newest: usize,
    /// The last frames (at most three), oldest first.
    recent: Vec<Vec<DVec2>>,
    tracks: Vec<Track>,
    writers: Vec<KeyWriter>,
    pairs: PairWatch,
    obstacles: ObstacleWatch,
    moves: MoveWatch,
}

/// Performers per chunk of work shared among threads.
const CHUNK: usize = 1024;

impl Recorder {
    /// Starts at frame 0 with everyone at `start`.
    pub fn new(plan: &Plan, start: &[DVec2], dt_beats: f64) -> Self {
        let mut tracks = vec![Track::default(); start.len()];
        let writers = start.iter().zip(&mut tracks).map(|(p, t)| KeyWriter::new(*p, t)).collect();
        let r = plan.body.radius_m;
        Self {
            dt_beats,
            newest: 0,
            recent: vec![start.to_vec()],
            tracks,
            writers,
            pairs: PairWatch::new(r, dt_beats),
            obstacles: ObstacleWatch::new(r, dt_beats),
            moves: MoveWatch::new(start.len(), plan.floor(), plan.body, dt_beats),
        }
    }

    /// Move `record` has started (moves start in order).
    pub fn move_started(&mut self, record: usize, moves: &[MoveRecord]) {
        self.moves.start(record, moves);
    }

    /// The next frame: everyone at `positions`; `moves` (arrivals up to this frame recorded)
    /// get their distance left when due. `near`, when given, is who could meet whom in the step
    /// from the frame before.
    pub fn frame(
        &mut self,
        positions: &[DVec2],
        obstacles: &[Obstacle],
        moves: &mut [MoveRecord],
        near: Option<StepNeighbours>,
    ) {
        let step = self.newest;
        let Some(before) = self.recent.last() else { return };
        self.pairs.step(step, before, positions, near);
        if !obstacles.is_empty() {
            self.obstacles.step(step, before, positions, obstacles);
        }
        self.newest += 1;
        let frame = self.newest;
        self.writers
            .par_iter_mut()
            .zip(self.tracks.par_iter_mut())
            .zip(positions.par_iter())
            .with_min_len(CHUNK)
            .for_each(|((w, t), p)| w.push(frame, *p, t));
        let mut next = if self.recent.len() == 3 { self.recent.remove(0) } else { Vec::new() };
        next.clear();
        next.extend_from_slice(positions);
        self.recent.push(next);
        self.read_moves(None, moves);
    }

    fn read_moves(&mut self, last: Option<usize>, moves: &mut [MoveRecord]) {
        let frames: Vec<&[DVec2]> = self.recent.iter().map(Vec::as_slice).collect();
        let window = Window { first: self.newest + 1 - frames.len(), frames: &frames, last };
        self.moves.frames(&window, moves);
    }

    /// The motion, once the last frame is in.
    pub fn finish(mut self, mut moves: Vec<MoveRecord>, detours: [u64; 2]) -> Motion {
        self.read_moves(Some(self.newest), &mut moves);
        for (w, t) in self.writers.iter_mut().zip(&mut self.tracks) {
            w.finish(t);
        }
        let (long_steps, off_floor) = self.moves.finish();
        let findings =
            Findings { pairs: self.pairs.finish(), obstacles: self.obstacles.finish(), long_steps, off_floor };
        Motion {
            dt_beats: self.dt_beats,
            steps: self.newest,
            tracks: self.tracks,
            last: self.recent.pop().unwrap_or_default(),
            moves,
            detours,
            findings,
        }
    }
}
