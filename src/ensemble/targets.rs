//! What each simulated move asks of its performer: when the move stops being the performer's (its
//! arrival, else the start of its next move, else the end of the motion), what of it lies off
//! the floor (found while stepping, [`super::stream::moves`]), and whether an event's targets
//! leave room for every body (a `keep` that shrinks, a `merge` into a tight line).

use super::grid::Grid;
use super::plan::Plan;
use super::simulate::{Motion, MoveRecord};
use glam::DVec2;

/// When each of `motion.moves` ends: its arrival, else the start of the same performer's next
/// move (which takes over), else the motion's last beat.
pub fn move_ends(motion: &Motion) -> Vec<f64> {
    let performers = motion.moves.iter().map(|m| m.performer + 1).max().unwrap_or(0);
    let mut next_start = vec![motion.end_beats(); performers];
    let mut ends = vec![0.0; motion.moves.len()];
    for (k, m) in motion.moves.iter().enumerate().rev() {
        ends[k] = m.arrived_beats.unwrap_or(next_start[m.performer]).min(next_start[m.performer]);
        next_start[m.performer] = m.start_beats;
    }
    ends
}

/// What of a move lies off the floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffFloorKind {
    /// The spot the move goes to.
    Spot,
    /// A point of the path walked while the move was the performer's.
    Path,
}

/// A move whose spot or path leaves the floor.
#[derive(Clone, Debug, PartialEq)]
pub struct OffFloor {
    /// Performer.
    pub performer: usize,
    /// Behaviour event index.
    pub behaviour: usize,
    /// The spot, or the path's farthest point out.
    pub point: DVec2,
    /// When it is there (the move's due beat for a spot).
    pub at_beats: f64,
    /// How far outside the floor, metres.
    pub outside_m: f64,
    /// Spot or path.
    pub kind: OffFloorKind,
}

/// An event whose targets put two performers closer than their bodies allow.
#[derive(Clone, Debug, PartialEq)]
pub struct CrowdedSpots {
    /// Behaviour event index.
    pub behaviour: usize,
    /// The two performers whose spots are closest (lower index first).
    pub performers: [usize; 2],
    /// How far apart their spots are.
    pub distance_m: f64,
}

/// Each behaviour event whose targets lie closer than two personal radii, with its closest pair.
pub fn crowded_spots(plan: &Plan, motion: &Motion) -> Vec<CrowdedSpots> {
    let min_m = 2.0 * plan.body.radius_m - super::conflicts::CONTACT_TOLERANCE_M;
    let mut by_behaviour: Vec<Vec<&MoveRecord>> = vec![Vec::new(); plan.behaviours.len()];
    for m in &motion.moves {
        if let Some(list) = by_behaviour.get_mut(m.behaviour) {
            list.push(m);
        }
    }
    let mut out = Vec::new();
    for (b, moves) in by_behaviour.iter().enumerate() {
        let spots: Vec<DVec2> = moves.iter().map(|m| m.target).collect();
        if spots.len() < 2 {
            continue;
        }
        let grid = Grid::build(&spots, min_m.max(1e-3));
        let mut best: Option<(f64, usize, usize)> = None;
        for (i, p) in spots.iter().enumerate() {
            grid.for_each_near(*p, |j| {
                let d = p.distance(spots[j]);
                if j > i && d < min_m && best.is_none_or(|(bd, bi, bj)| (d, i, j) < (bd, bi, bj)) {
                    best = Some((d, i, j));
                }
            });
        }
        if let Some((distance_m, i, j)) = best {
            let (a, b2) = (moves[i].performer, moves[j].performer);
            out.push(CrowdedSpots { behaviour: b, performers: [a.min(b2), a.max(b2)], distance_m });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ensemble::plan::Gait;

    fn record(performer: usize, start_beats: f64, arrived_beats: Option<f64>) -> MoveRecord {
        MoveRecord {
            performer,
            behaviour: 0,
            start_beats,
            due_beats: start_beats + 4.0,
            target: DVec2::ZERO,
            arrived_beats,
            gait: Gait::Walk,
            short_m: 0.0,
        }
    }

    #[test]
    fn a_move_that_never_arrives_ends_where_the_next_one_starts() {
        let motion = Motion {
            dt_beats: 0.5,
            steps: 40,
            tracks: vec![Default::default(); 2],
            last: vec![DVec2::ZERO; 2],
            moves: vec![record(0, 0.0, None), record(1, 0.0, Some(3.0)), record(0, 8.0, None), record(1, 8.0, None)],
            detours: [0; 2],
            findings: Default::default(),
        };
        assert_eq!(move_ends(&motion), vec![8.0, 3.0, 20.0, 20.0]);
    }
}
