//! What each move asks of its performer, checked step by step while the move is the
//! performer's (from its start to its arrival, else the start of its next move, else the end of
//! the motion): steps too long for the gait (positions every step time of the gait, every beat
//! walking, every half beat running), the farthest point off the floor, and how far from its spot
//! the performer is when due. Positions between frames are linear, as
//! [`crate::ensemble::Motion::position_at`] reads them.
//!
//! A move's end can be learned a step late (a next move starting between two frames), so a
//! position is read once the frame after the one following it is known: the watch keeps the
//! last three frames.

use crate::ensemble::conflicts::LongStep;
use crate::ensemble::floor::Floor;
use crate::ensemble::plan::Body;
use crate::ensemble::simulate::MoveRecord;
use crate::ensemble::targets::{OffFloor, OffFloorKind};
use glam::DVec2;
use rayon::prelude::*;

/// The last frames: `frames[k]` is frame `first + k`; `last` is the final frame once the
/// motion is over.
#[derive(Clone, Copy, Debug)]
pub struct Window<'a> {
    /// Frame index of `frames[0]`.
    pub first: usize,
    /// Up to three consecutive frames, oldest first.
    pub frames: &'a [&'a [DVec2]],
    /// The final frame's index, when the motion is over.
    pub last: Option<usize>,
}

impl Window<'_> {
    fn newest(&self) -> usize {
        self.first + self.frames.len() - 1
    }

    /// True when the position at `t_beats` can be read now and is final (its end known).
    fn readable(&self, t_beats: f64, dt_beats: f64) -> bool {
        self.last.is_some() || ((t_beats / dt_beats).max(0.0) as usize) + 2 <= self.newest()
    }

    /// Performer `i` at `t_beats`, linear between frames (held at the ends).
    fn position(&self, i: usize, t_beats: f64, dt_beats: f64) -> DVec2 {
        let top = self.last.unwrap_or(usize::MAX);
        let f = (t_beats / dt_beats).clamp(0.0, top as f64);
        let k = (f as usize).min(top.saturating_sub(1)).max(self.first);
        let (a, b) = (self.frames[k - self.first][i], self.frames[(k + 1 - self.first).min(self.frames.len() - 1)][i]);
        a.lerp(b, f - k as f64)
    }

    fn frame(&self, f: usize) -> Option<&[DVec2]> {
        f.checked_sub(self.first).and_then(|k| self.frames.get(k)).copied()
    }
}

/// What one frame settles of a move.
#[derive(Debug, Default)]
struct Settled {
    short_m: Option<f64>,
    long: Vec<LongStep>,
    off: Option<OffFloor>,
}

/// Moves per chunk of work shared among threads.
const CHUNK: usize = 512;

#[derive(Clone, Debug)]
struct Live {
    record: usize,
    performer: usize,
    behaviour: usize,
    step_beats: f64,
    max_m: f64,
    /// The next step's start, and the position there once read.
    t_beats: f64,
    at_t: Option<DVec2>,
    steps_done: bool,
    next_frame: usize,
    farthest: Option<(usize, DVec2, f64)>,
    floor_done: bool,
    due_done: bool,
}

/// Moves watched while they are their performers'.
#[derive(Clone, Debug)]
pub struct MoveWatch {
    dt_beats: f64,
    floor: Floor,
    body: Body,
    live: Vec<Live>,
    /// Per record: the start of its performer's next move (∞ until one starts).
    next_start: Vec<f64>,
    /// Per performer: its latest move.
    current: Vec<Option<usize>>,
    long: Vec<(usize, LongStep)>,
    off: Vec<Option<OffFloor>>,
}

impl MoveWatch {
    /// Watches `performers` on `floor`, steps of `dt_beats`.
    pub fn new(performers: usize, floor: Floor, body: Body, dt_beats: f64) -> Self {
        Self {
            dt_beats,
            floor,
            body,
            live: Vec::new(),
            next_start: Vec::new(),
            current: vec![None; performers],
            long: Vec::new(),
            off: Vec::new(),
        }
    }

    /// Move `record` of `moves` has started (records start in order).
    pub fn start(&mut self, record: usize, moves: &[MoveRecord]) {
        let m = &moves[record];
        if let Some(prev) = self.current[m.performer].replace(record) {
            self.next_start[prev] = self.next_start[prev].min(m.start_beats);
        }
        self.next_start.resize(record + 1, f64::INFINITY);
        self.off.resize(record + 1, None);
        let spot_off = self.floor.excludes(m.target);
        if spot_off {
            self.off[record] = Some(OffFloor {
                performer: m.performer,
                behaviour: m.behaviour,
                point: m.target,
                at_beats: m.due_beats,
                outside_m: self.floor.outside_m(m.target),
                kind: OffFloorKind::Spot,
            });
        }
        self.live.push(Live {
            record,
            performer: m.performer,
            behaviour: m.behaviour,
            step_beats: 1.0 / Body::steps_per_beat(m.gait),
            max_m: self.body.max_step_m(m.gait),
            t_beats: m.start_beats,
            at_t: None,
            steps_done: false,
            next_frame: (m.start_beats / self.dt_beats).floor().max(0.0) as usize,
            farthest: None,
            floor_done: spot_off,
            due_done: false,
        });
    }

    /// Reads what the frames in `window` settle; `moves` get their distance left when due.
    /// The moves are shared among threads and their findings kept in move order.
    pub fn frames(&mut self, window: &Window, moves: &mut [MoveRecord]) {
        let mut live = std::mem::take(&mut self.live);
        let found: Vec<(usize, Settled)> = {
            let moves = &*moves;
            live.par_iter_mut()
                .with_min_len(CHUNK)
                .filter_map(|l| {
                    let settled = self.advance(l, window, &moves[l.record]);
                    let empty = settled.short_m.is_none() && settled.long.is_empty() && settled.off.is_none();
                    (!empty).then_some((l.record, settled))
                })
                .collect()
        };
        for (record, settled) in found {
            if let Some(short_m) = settled.short_m {
                moves[record].short_m = short_m;
            }
            self.long.extend(settled.long.into_iter().map(|s| (record, s)));
            if settled.off.is_some() {
                self.off[record] = settled.off;
            }
        }
        live.retain(|l| !(l.steps_done && l.floor_done && l.due_done));
        self.live = live;
    }

    /// Reads what `window` settles of one move.
    fn advance(&self, l: &mut Live, window: &Window, m: &MoveRecord) -> Settled {
        let mut settled = Settled::default();
        let mut end = self.next_start[l.record].min(m.arrived_beats.unwrap_or(f64::INFINITY));
        if let Some(last) = window.last {
            end = end.min(last as f64 * self.dt_beats);
        }
        if !l.due_done && window.readable(m.due_beats, self.dt_beats) {
            settled.short_m = Some(window.position(l.performer, m.due_beats, self.dt_beats).distance(m.target));
            l.due_done = true;
        }
        self.steps(l, window, end, &mut settled.long);
        self.floor_path(l, window, end);
        if l.floor_done
            && let Some((f, point, outside_m)) = l.farthest.take()
        {
            settled.off = Some(OffFloor {
                performer: m.performer,
                behaviour: m.behaviour,
                point,
                at_beats: f as f64 * self.dt_beats,
                outside_m,
                kind: OffFloorKind::Path,
            });
        }
        settled
    }

    /// Steps from the move's start to `end` (an upper bound until the move is over).
    fn steps(&self, l: &mut Live, window: &Window, end: f64, long: &mut Vec<LongStep>) {
        let dt = self.dt_beats;
        while !l.steps_done {
            let p = match l.at_t {
                Some(p) => p,
                None if window.readable(l.t_beats, dt) => *l.at_t.insert(window.position(l.performer, l.t_beats, dt)),
                None => return,
            };
            if l.t_beats >= end - 1e-9 {
                l.steps_done = true;
                return;
            }
            let t1 = (l.t_beats + l.step_beats).min(end);
            if !window.readable(t1, dt) {
                return;
            }
            let p1 = window.position(l.performer, t1, dt);
            let length_m = p1.distance(p);
            if length_m > l.max_m * (1.0 + 1e-9) {
                long.push(LongStep {
                    performer: l.performer,
                    behaviour: l.behaviour,
                    at_beats: l.t_beats,
                    length_m,
                    max_m: l.max_m,
                });
            }
            (l.t_beats, l.at_t) = (t1, Some(p1));
        }
    }

    /// The frames from the move's start to `end`, the farthest off the floor.
    fn floor_path(&self, l: &mut Live, window: &Window, end: f64) {
        let last = window.last.unwrap_or(usize::MAX) as f64;
        let through = (end / self.dt_beats).ceil().min(last);
        while !l.floor_done {
            if l.next_frame as f64 > through {
                l.floor_done = true;
                return;
            }
            let Some(frame) = window.frame(l.next_frame) else { return };
            let p = frame[l.performer];
            if self.floor.excludes(p) {
                let outside_m = self.floor.outside_m(p);
                if l.farthest.is_none_or(|(_, _, best)| outside_m > best) {
                    l.farthest = Some((l.next_frame, p, outside_m));
                }
            }
            l.next_frame += 1;
        }
    }

    /// The long steps (by move, then time) and the moves off the floor (by move), once the
    /// motion is over.
    pub fn finish(self) -> (Vec<LongStep>, Vec<OffFloor>) {
        let mut long = self.long;
        long.sort_by_key(|(record, _)| *record);
        (long.into_iter().map(|(_, s)| s).collect(), self.off.into_iter().flatten().collect())
    }
}
