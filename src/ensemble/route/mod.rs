//! Routes around set pieces, found before local avoidance: a performer whose path (straight or a
//! Bézier polyline) comes nearer a set piece than its body allows gets the shortest route round
//! it over a visibility graph. The graph's nodes are the corners of the set pieces grown by the
//! body's radius and [`MARGIN_M`] (a box's four corners, a circle's circumscribed octagon), those
//! on the floor and clear of every other set piece; an edge joins two nodes that see each other.
//! Dijkstra's search breaks ties by node index, so routes are deterministic.
//!
//! A segment is clear when it comes no nearer any set piece than the clearance (the radius and
//! half the margin) or than its own ends do: a performer standing close to a set piece may walk
//! away from it or along it, never into it.

mod search;

use super::conflicts::segment_obstacle_distance;
use super::floor::Floor;
use super::plan::{Obstacle, ObstacleShape};
use glam::DVec2;

/// How much farther than the body's radius a route's corners keep from a set piece, metres.
pub const MARGIN_M: f64 = 0.15;
/// Sides of the polygon round a circular set piece.
const CIRCLE_SIDES: usize = 8;

/// The visibility graph of a plan's set pieces for one body radius.
#[derive(Clone, Debug)]
pub struct Router {
    shapes: Vec<ObstacleShape>,
    clearance_m: f64,
    nodes: Vec<DVec2>,
    /// For each node, the nodes it sees and how far they are.
    edges: Vec<Vec<(usize, f64)>>,
}

impl Router {
    /// The graph round `obstacles` for bodies of `radius_m`, its corners on `floor`.
    pub fn new(obstacles: &[Obstacle], radius_m: f64, floor: Floor) -> Self {
        let shapes: Vec<ObstacleShape> = obstacles.iter().map(|o| o.shape).collect();
        let grow_m = radius_m + MARGIN_M;
        let clearance_m = radius_m + 0.5 * MARGIN_M;
        let corners = shapes.iter().flat_map(|s| grown_corners(s, grow_m));
        let nodes: Vec<DVec2> =
            corners.filter(|p| !floor.excludes(*p) && shapes.iter().all(|s| s.distance(*p) >= clearance_m)).collect();
        let mut router = Self { shapes, clearance_m, nodes, edges: Vec::new() };
        router.edges = (0..router.nodes.len())
            .map(|i| {
                (0..router.nodes.len())
                    .filter(|&j| j != i && router.clear(router.nodes[i], router.nodes[j]))
                    .map(|j| (j, router.nodes[i].distance(router.nodes[j])))
                    .collect()
            })
            .collect();
        router
    }

    /// True when the plan has no set piece to route round.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// True when the segment `a → b` keeps clear of every set piece: no nearer than the
    /// clearance, or than its own ends are.
    pub fn clear(&self, a: DVec2, b: DVec2) -> bool {
        self.shapes.iter().all(|s| {
            let allowed = self.clearance_m.min(s.distance(a)).min(s.distance(b));
            segment_obstacle_distance(a, b, s) >= allowed - 1e-9
        })
    }

    /// The route along `points` (a path's polyline) round the set pieces it comes too near, or
    /// `None` when every piece of it is clear. Points within the clearance of a set piece are
    /// dropped (the ends are kept); each blocked piece between the others is replaced by the
    /// shortest way round, or kept when there is none.
    pub fn route(&self, points: &[DVec2]) -> Option<Vec<DVec2>> {
        if self.is_empty() || points.windows(2).all(|w| self.clear(w[0], w[1])) {
            return None;
        }
        let last = points.len() - 1;
        let kept: Vec<DVec2> = points
            .iter()
            .enumerate()
            .filter(|(k, p)| *k == 0 || *k == last || self.shapes.iter().all(|s| s.distance(**p) >= self.clearance_m))
            .map(|(_, p)| *p)
            .collect();
        let mut out = vec![kept[0]];
        for w in kept.windows(2) {
            if !self.clear(w[0], w[1])
                && let Some(way) = self.shortest(w[0], w[1])
            {
                out.extend_from_slice(&way[1..way.len() - 1]);
            }
            out.push(w[1]);
        }
        Some(out)
    }
}

/// The corners of `shape` grown by `grow_m`: a box's four, a circle's circumscribed polygon.
fn grown_corners(shape: &ObstacleShape, grow_m: f64) -> Vec<DVec2> {
    match *shape {
        ObstacleShape::Box { min, max } => {
            let (lo, hi) = (min - DVec2::splat(grow_m), max + DVec2::splat(grow_m));
            vec![lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)]
        }
        ObstacleShape::Circle { centre, radius_m } => {
            let step = std::f64::consts::TAU / CIRCLE_SIDES as f64;
            let r = (radius_m + grow_m) / (0.5 * step).cos();
            (0..CIRCLE_SIDES).map(|k| centre + DVec2::from_angle(step * (k as f64 + 0.5)) * r).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;

    fn wall() -> Obstacle {
        Obstacle {
            name: "wall".into(),
            shape: ObstacleShape::Box { min: DVec2::new(-4.5, 4.7), max: DVec2::new(4.5, 5.3) },
            span: Span::at(1, 1),
        }
    }

    #[test]
    fn a_path_through_a_wall_goes_round_its_nearer_end() {
        let floor = Floor::new(DVec2::new(20.0, 12.0), 0.0);
        let router = Router::new(&[wall()], 0.25, floor);
        let route = router.route(&[DVec2::new(-1.0, 2.0), DVec2::new(-1.0, 8.0)]).unwrap();
        assert_eq!(route.len(), 4, "{route:?}");
        assert!(route[1].x < -4.5 && route[2].x < -4.5, "round the left end: {route:?}");
        assert!(route.windows(2).all(|w| router.clear(w[0], w[1])));
        let right = router.route(&[DVec2::new(2.0, 2.0), DVec2::new(1.0, 8.0)]).unwrap();
        assert!(right[1].x > 4.5, "{right:?}");
        assert_eq!(router.route(&[DVec2::new(-6.0, 2.0), DVec2::new(-6.0, 8.0)]), None);
        // A wall across the whole floor leaves no way round: the path is kept.
        let narrow = Router::new(&[wall()], 0.25, Floor::new(DVec2::new(9.0, 12.0), 0.0));
        assert_eq!(narrow.route(&[DVec2::new(0.0, 2.0), DVec2::new(0.0, 8.0)]).unwrap().len(), 2);
    }
}
