//! Dijkstra's search over a [`Router`]'s graph with a start and a goal added.

use super::Router;
use glam::DVec2;

impl Router {
    /// The shortest clear way from `from` to `to` through the graph's nodes (both ends
    /// included), or `None` when there is none.
    pub(super) fn shortest(&self, from: DVec2, to: DVec2) -> Option<Vec<DVec2>> {
        let n = self.nodes.len();
        // Nodes 0..n, then the start (n) and the goal (n + 1).
        let (start, goal) = (n, n + 1);
        let point = |k: usize| {
            if k == start {
                from
            } else if k == goal {
                to
            } else {
                self.nodes[k]
            }
        };
        let mut dist = vec![f64::INFINITY; n + 2];
        let mut prev = vec![usize::MAX; n + 2];
        let mut done = vec![false; n + 2];
        dist[start] = 0.0;
        loop {
            let next = (0..n + 2)
                .filter(|&k| !done[k] && dist[k].is_finite())
                .min_by(|a, b| dist[*a].total_cmp(&dist[*b]).then(a.cmp(b)))?;
            if next == goal {
                break;
            }
            done[next] = true;
            let p = point(next);
            let mut relax = |k: usize, d: f64| {
                if !done[k] && dist[next] + d < dist[k] {
                    dist[k] = dist[next] + d;
                    prev[k] = next;
                }
            };
            if next == start {
                for k in 0..n {
                    if self.clear(p, self.nodes[k]) {
                        relax(k, p.distance(self.nodes[k]));
                    }
                }
            } else {
                for &(k, d) in &self.edges[next] {
                    relax(k, d);
                }
            }
            if self.clear(p, to) {
                relax(goal, p.distance(to));
            }
        }
        let mut way = vec![to];
        let mut k = goal;
        while prev[k] != usize::MAX {
            k = prev[k];
            way.push(point(k));
        }
        way.reverse();
        Some(way)
    }
}
