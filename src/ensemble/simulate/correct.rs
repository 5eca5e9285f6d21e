//! The correct phase: each moving performer's next position from its desired velocity and its
//! neighbours within the neighbourhood radius, by Reynolds steering or ORCA. Everyone reads the
//! state at the start of the step, so performers are shared among threads.

use super::{Active, CHUNK, FEELER_MARGIN_M, HORIZON_SECS, MAX_ACCEL_MPS2, Simulation};
use crate::ensemble::grid::Grid;
use crate::ensemble::orca;
use crate::ensemble::plan::{Avoidance, ObstacleShape, Plan};
use crate::ensemble::steer::{self, Detour};
use glam::DVec2;
use rayon::prelude::*;

impl Simulation<'_> {
    /// Correct: Reynolds steering from neighbours (within the neighbourhood radius) and
    /// obstacles, or ORCA. Each performer reads the others' state at the start of the step, so
    /// they are shared among threads.
    pub(super) fn correct(&mut self, grid: &Grid) {
        let (vel, group_moving) = (&self.vel, &self.group_moving);
        self.bodies.clear();
        self.bodies.par_extend(grid.order().par_iter().zip(grid.points()).with_min_len(CHUNK).map(|(&j, p)| {
            let index = j;
            let j = j as usize;
            Body { pos: *p, vel: vel[j], group_moving: group_moving[j], index }
        }));
        let near = Neighbourhood {
            plan: self.plan,
            grid,
            bodies: &self.bodies,
            pos: &self.pos,
            vel: &self.vel,
            active: &self.active,
            group_of: &self.group_of,
            desired: &self.desired,
            shapes: &self.shapes,
            polygons: &self.polygons,
            cell_m: self.cell_m,
            dt_secs: self.dt_secs,
        };
        let out = self.proposed.par_iter_mut().zip(self.detour.par_iter_mut()).enumerate().with_min_len(CHUNK);
        if self.plan.steering.method == Avoidance::Orca {
            out.for_each_init(
                || (orca::Scratch::default(), Vec::new()),
                |(scratch, list), (i, (proposed, detour))| (*proposed, *detour) = near.orca(i, scratch, list),
            );
        } else {
            out.for_each(|(i, (proposed, detour))| (*proposed, *detour) = near.steer(i));
        }
    }
}

/// A performer as its neighbours see it, kept in grid order so that the neighbours in a row of
/// cells lie side by side.
#[derive(Clone, Copy, Debug)]
pub(super) struct Body {
    pos: DVec2,
    vel: DVec2,
    /// The group shifted left by one, the lowest bit set when moving.
    group_moving: u32,
    index: u32,
}

impl Body {
    fn moving(&self) -> bool {
        self.group_moving & 1 == 1
    }
}

/// The largest group number a [`Body`] holds.
const GROUP_MAX: u32 = u32::MAX >> 1;

/// A [`Body`]'s group and moving flag: groups past [`GROUP_MAX`] share a number (alignment and
/// cohesion only).
pub(super) fn group_moving(group: usize, moving: bool) -> u32 {
    (group.min(GROUP_MAX as usize) as u32) << 1 | u32::from(moving)
}

/// What the correct phase reads: everyone's state at the start of the step.
struct Neighbourhood<'a> {
    plan: &'a Plan,
    grid: &'a Grid,
    /// Everyone in the grid's order.
    bodies: &'a [Body],
    pos: &'a [DVec2],
    vel: &'a [DVec2],
    active: &'a [Option<Active>],
    group_of: &'a [usize],
    desired: &'a [DVec2],
    shapes: &'a [ObstacleShape],
    polygons: &'a [(DVec2, f64, Vec<DVec2>)],
    cell_m: f64,
    dt_secs: f64,
}

impl Neighbourhood<'_> {
    /// Performer `i`'s next position and detour by Reynolds steering.
    fn steer(&self, i: usize) -> (DVec2, Option<Detour>) {
        let Some(a) = &self.active[i] else { return (self.pos[i], None) };
        let plan = self.plan;
        let r = plan.body.radius_m;
        let reach = 2.0 * r + 0.15;
        let sep_range = 2.0 * r + 0.5;
        let w = plan.steering;
        let max_speed = a.max_speed;
        let p = self.pos[i];
        let want = self.desired[i];
        let speed = want.length();
        // The group's moving neighbours: how many, their velocities and places summed in turn.
        let (mut same, mut same_v, mut same_p) = (0usize, DVec2::ZERO, DVec2::ZERO);
        let mut sep = DVec2::ZERO;
        let mut first_threat: Option<(f64, usize)> = None;
        let same_group = group_moving(self.group_of[i], true);
        let near_m = sep_range.max(self.cell_m);
        let near2 = (near_m * (1.0 + 1e-12)) * (near_m * (1.0 + 1e-12));
        for run in self.grid.runs_within(p, near_m) {
            for b in &self.bodies[run] {
                let j = b.index as usize;
                let q = b.pos;
                let d = q - p;
                // Only those nearer than `near_m` count; beyond `near2` the rounded square root
                // is surely not nearer, so it is not taken.
                let d2 = d.length_squared();
                if d2 >= near2 || j == i {
                    continue;
                }
                let dist = d2.sqrt();
                if dist < sep_range {
                    sep += steer::separation(p, std::iter::once(q));
                }
                if b.group_moving == same_group && dist < self.cell_m {
                    same += 1;
                    same_v += b.vel;
                    same_p += q;
                }
                if let Some(tc) = steer::threat(d, want - b.vel, reach, HORIZON_SECS)
                    && first_threat.is_none_or(|(best, bj)| tc < best || (tc == best && j < bj))
                {
                    first_threat = Some((tc, j));
                }
            }
        }
        let mut v = want;
        v += sep * (w.separation * r * speed.max(0.2));
        v += steer::alignment(self.vel[i], same_v, same) * w.alignment;
        v += steer::cohesion(p, same_p, same) * (w.cohesion / HORIZON_SECS);
        let mut detour = None;
        if let Some((tc, j)) = first_threat
            && speed > 1e-6
        {
            let kind = Detour::classify(want, self.pos[j] - p);
            detour = Some(kind);
            v += kind.side(want) * (speed * (1.0 - tc / HORIZON_SECS));
        }
        if !a.routed {
            let heading = if speed > 1e-6 { want } else { self.vel[i] };
            let feeler = heading.length() * HORIZON_SECS + r;
            v += steer::avoid_obstacles(p, heading, feeler, self.shapes, r + FEELER_MARGIN_M)
                * (w.avoidance * max_speed);
        }
        let dv = steer::truncate(v - self.vel[i], MAX_ACCEL_MPS2 * self.dt_secs);
        let v_new = steer::truncate(self.vel[i] + dv, max_speed);
        (p + v_new * self.dt_secs, detour)
    }

    /// Performer `i`'s next position and detour by ORCA: the neighbours within the neighbourhood
    /// radius and the obstacles' polygons bound the velocity nearest the schedule's; a turn to the
    /// left counts as a clockwise-left detour.
    fn orca(&self, i: usize, scratch: &mut orca::Scratch, near: &mut Vec<orca::Neighbour>) -> (DVec2, Option<Detour>) {
        let Some(a) = &self.active[i] else { return (self.pos[i], None) };
        let p = self.pos[i];
        let want = self.desired[i];
        near.clear();
        let near_m = self.cell_m;
        self.grid.for_each_run_within(p, near_m, |run| {
            near.extend(
                self.bodies[run]
                    .iter()
                    .filter(|b| b.index as usize != i && b.pos.distance_squared(p) < near_m * near_m)
                    .map(|b| orca::Neighbour { position: b.pos, velocity: b.vel, moving: b.moving() }),
            );
        });
        let neighbours = near.iter().copied();
        let v = orca::avoiding_velocity(
            p,
            self.vel[i],
            want,
            a.max_speed,
            self.plan.body.radius_m,
            neighbours,
            self.polygons,
            self.dt_secs,
            scratch,
        );
        let turn = want.perp_dot(v);
        let mut detour = None;
        if want.length_squared() > 1e-12 && turn.abs() > 1e-6 * want.length() * v.length() {
            detour = Some(if turn > 0.0 { Detour::ClockwiseLeft } else { Detour::CounterClockwiseRight });
        }
        (p + v * self.dt_secs, detour)
    }
}
