//! The act phase: performers take their moves in order of lag, each checked exactly against
//! the moves already taken and the others' places, and turned or shortened until clear.

use super::Simulation;
use crate::ensemble::conflicts::{closest_approach, segment_obstacle_distance};
use crate::ensemble::grid::Grid;
use crate::ensemble::steer::Detour;
use glam::DVec2;
use rayon::prelude::*;

impl Simulation<'_> {
    /// Act: performers take their moves in order of how far behind schedule they are; each
    /// move is checked exactly against the neighbours' moves already taken and the others'
    /// current places, and shortened or turned (towards the detour side) until it is clear.
    /// Standing still is always clear, so no two bodies ever overlap. Neighbours come from a
    /// grid whose cells are the contact distance plus the two longest moves.
    pub(super) fn act(&mut self) {
        let n = self.pos.len();
        let min_d = 2.0 * self.plan.body.radius_m;
        let r = self.plan.body.radius_m;
        let mut order = std::mem::take(&mut self.act_order);
        order.clear();
        order.extend((0..n).filter(|&i| self.active[i].is_some()));
        order.par_sort_unstable_by(|a, b| self.lag[*b].total_cmp(&self.lag[*a]).then(a.cmp(b)));
        let mut done = std::mem::take(&mut self.act_done);
        done.clear();
        done.resize(n, false);
        let mut fin = std::mem::take(&mut self.act_fin);
        fin.clear();
        fin.extend_from_slice(&self.pos);
        // No move is longer than its proposal: a neighbour farther than the contact distance
        // plus both longest moves cannot come closer, so each mover gathers its few near
        // neighbours once for all its candidates.
        let longest_m = order.iter().map(|&i| self.proposed[i].distance(self.pos[i])).fold(0.0, f64::max);
        let grid = Grid::build(&self.pos, min_d + 2.0 * longest_m + 1e-6);
        let mut near = std::mem::take(&mut self.near);
        // The candidate turns, the same for every mover (both detour sides).
        let turns =
            |sign: f64| [30.0, 60.0, -30.0, 90.0, -60.0].map(|deg: f64| DVec2::from_angle(sign * deg.to_radians()));
        let turns = [turns(1.0), turns(-1.0)];
        for &i in &order {
            let p = self.pos[i];
            let step = self.proposed[i] - p;
            if step.length_squared() < 1e-18 {
                done[i] = true;
                continue;
            }
            let step_m = step.length();
            let reach = min_d + step_m + longest_m;
            // Each neighbour with how far it moves this step (0 while it has not acted): one
            // farther than the contact distance plus both moves cannot come within it.
            near.clear();
            grid.for_each_near(p, |j| {
                if j == i {
                    return;
                }
                let d2 = self.pos[j].distance_squared(p);
                if d2 < reach * reach {
                    let moved_m = if done[j] { fin[j].distance(self.pos[j]) } else { 0.0 };
                    let can_meet = min_d + step_m + moved_m + 1e-9;
                    if d2 < can_meet * can_meet {
                        near.push(j);
                    }
                }
            });
            let side = self.detour[i].unwrap_or(Detour::CounterClockwiseRight);
            let rot = &turns[usize::from(side != Detour::ClockwiseLeft)];
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
            let mut chosen = DVec2::ZERO;
            for c in (0..9).map(candidate) {
                let q = p + c;
                let mut clear = near.iter().all(|&j| {
                    let (b0, b1) = if done[j] { (self.pos[j], fin[j]) } else { (self.pos[j], self.pos[j]) };
                    closest_approach(p, q, b0, b1).0 >= min_d
                });
                if clear {
                    clear = self
                        .plan
                        .obstacles
                        .iter()
                        .all(|o| segment_obstacle_distance(p, q, &o.shape) >= r || o.shape.distance(p) < r);
                }
                if clear {
                    chosen = c;
                    break;
                }
            }
            fin[i] = p + chosen;
            done[i] = true;
            if chosen != DVec2::ZERO && chosen != step {
                self.detour[i] = Some(side);
            }
            if let Some(d) = self.detour[i] {
                self.detours[if d == Detour::ClockwiseLeft { 0 } else { 1 }] += 1;
            }
        }
        for ((v, f), p) in self.vel.iter_mut().zip(&fin).zip(&self.pos) {
            *v = (*f - *p) / self.dt_secs;
        }
        std::mem::swap(&mut self.pos, &mut fin);
        self.act_fin = fin;
        self.act_done = done;
        self.act_order = order;
        self.near = near;
    }
}
