//! Who goes where: performers to target spots with the least total squared travel. Kuhn–Munkres
//! (`pathfinding`) up to [`HUNGARIAN_MAX`] performers; above that an auction (Bertsekas, ε-scaling
//! on integer costs) over each performer's candidate spots, optionally made exact by a dense check
//! of the dual that adds violated edges. Also order-preserving pairings.
//!
//! The sparse auction's candidates are the 16 spots nearest to each performer's partner in a
//! recursive-bisection matching, plus that partner, so a perfect matching always exists; costs are
//! integer mm². The dense dual check makes [`auction`] exact (tested against brute force and
//! Kuhn–Munkres); the simulation uses the sparse one. The other pairings: `order` keeps the order
//! along the group's line (parallel moves); `keep` scales about a reference (the centre, a
//! `reference` performer or a `reference_row`) and moves by `move`; `merge` fills the gaps of
//! another group's line in order.

use glam::DVec2;
use rayon::prelude::*;
use std::collections::VecDeque;

/// Above this many performers the auction is used instead of Kuhn–Munkres (O(n³)).
pub const HUNGARIAN_MAX: usize = 300;

/// The largest cost, mm² (a distance of about 3 km, far beyond any plan's spots): costs are capped
/// there so that the auction's scaled costs (× performers + 1, at most 100,001) and their sums
/// stay within `i64`.
pub const MAX_COST_MM2: i64 = 10_000_000_000_000;

/// Cost of moving from `a` to `b`: squared distance in mm² (coordinates rounded to the mm, so
/// both algorithms optimise the same integers), at most [`MAX_COST_MM2`].
pub fn cost_mm2(a: DVec2, b: DVec2) -> i64 {
    cost_between_mm(to_mm(a), to_mm(b))
}

/// A point's coordinates rounded to whole millimetres.
fn to_mm(p: DVec2) -> [i64; 2] {
    [(p.x * 1000.0).round() as i64, (p.y * 1000.0).round() as i64]
}

/// [`cost_mm2`] of points already rounded to the mm.
fn cost_between_mm(a: [i64; 2], b: [i64; 2]) -> i64 {
    let (dx, dy) = (a[0].saturating_sub(b[0]), a[1].saturating_sub(b[1]));
    dx.saturating_mul(dx).saturating_add(dy.saturating_mul(dy)).min(MAX_COST_MM2)
}

/// Σ cost over an assignment (`assignment[i]` = spot of performer `i`).
pub fn total_cost_mm2(from: &[DVec2], to: &[DVec2], assignment: &[usize]) -> i64 {
    from.iter().zip(assignment).map(|(a, j)| cost_mm2(*a, to[*j])).sum()
}

/// The spot of each performer minimising the total squared travel; `from.len() == to.len()`.
pub fn min_squared_travel(from: &[DVec2], to: &[DVec2]) -> Vec<usize> {
    assert_eq!(from.len(), to.len(), "as many spots as performers");
    if from.len() <= HUNGARIAN_MAX { hungarian(from, to) } else { auction_sparse(from, to) }
}

/// Kuhn–Munkres from the `pathfinding` crate, O(n³).
pub fn hungarian(from: &[DVec2], to: &[DVec2]) -> Vec<usize> {
    if from.is_empty() {
        return Vec::new();
    }
    let weights = pathfinding::matrix::Matrix::from_fn(from.len(), to.len(), |(i, j)| cost_mm2(from[i], to[j]));
    pathfinding::kuhn_munkres::kuhn_munkres_min(&weights).1
}

/// Candidate spots per performer in the first auction round.
const FIRST_CANDIDATES: usize = 16;

/// Exact auction on a sparse graph: each performer first bids only for the spots nearest to its
/// recursive-bisection partner. After the last ε = 1 phase on costs scaled by
/// n + 1 (which makes ε-complementary slackness exact for integers), every performer–spot pair is
/// checked against the dual; violating pairs are added and the phase rerun, so the result is
/// optimal over all pairs. An infeasible sparse graph doubles the candidates.
pub fn auction(from: &[DVec2], to: &[DVec2]) -> Vec<usize> {
    auction_with(from, to, true)
}

/// The sparse auction alone, without the dense check: optimal over each performer's nearest
/// spots (plus one rank-matched spot), which is what [`min_squared_travel`] uses for thousands
/// (the exact version can take many rounds of added edges; see README for the measured gap).
pub fn auction_sparse(from: &[DVec2], to: &[DVec2]) -> Vec<usize> {
    auction_with(from, to, false)
}

fn auction_with(from: &[DVec2], to: &[DVec2], exact: bool) -> Vec<usize> {
    let n = from.len();
    if n == 0 {
        return Vec::new();
    }
    let scale = n as i64 + 1;
    let from_mm: Vec<[i64; 2]> = from.iter().map(|p| to_mm(*p)).collect();
    let to_mm: Vec<[i64; 2]> = to.iter().map(|p| to_mm(*p)).collect();
    let cost = |i: usize, j: usize| cost_between_mm(from_mm[i], to_mm[j]) * scale;
    let mut k = FIRST_CANDIDATES.min(n);
    'grow: loop {
        let mut cand = nearest_candidates(from, to, k);
        let mut graph = Graph::new(&cand, &cost);
        let mut prices = vec![0i64; n];
        let mut eps = (graph.c_max / 4).max(1);
        let mut owner;
        let mut assigned;
        loop {
            match auction_phase(&graph, &mut prices, eps) {
                Some((a, o)) => {
                    assigned = a;
                    owner = o;
                }
                None => {
                    if k >= n {
                        // Cannot happen (a dense problem is feasible); stay correct regardless.
                        return hungarian(from, to);
                    }
                    k = (k * 2).min(n);
                    continue 'grow;
                }
            }
            if eps == 1 && !exact {
                return assigned;
            }
            if eps == 1 {
                // Dense dual check: for each performer, the spot that breaks ε-complementary
                // slackness most is added to its candidates.
                let mut worst = 0i64;
                for i in 0..n {
                    let j0 = assigned[i];
                    let profit = -cost(i, j0) - prices[j0];
                    let mut best: Option<(i64, usize)> = None;
                    for (j, price) in prices.iter().enumerate().take(n) {
                        let excess = -cost(i, j) - price - profit - eps;
                        if excess > 0 && best.is_none_or(|(b, _)| excess > b) {
                            best = Some((excess, j));
                        }
                    }
                    if let Some((excess, j)) = best {
                        cand[i].push(j);
                        worst = worst.max(excess);
                    }
                }
                if worst == 0 {
                    debug_assert!(owner.iter().all(|o| *o != usize::MAX));
                    return assigned;
                }
                graph = Graph::new(&cand, &cost);
                // Scale ε down again from the size of the worst violation, keeping the prices.
                eps = (worst / 4).max(1);
            } else {
                eps = (eps / 5).max(1);
            }
        }
    }
}

/// The candidate graph with its costs, flat: performer `i`'s spots are
/// `spot[start[i]..start[i + 1]]`, in candidate order, costing `cost[..]` (scaled).
struct Graph {
    start: Vec<usize>,
    spot: Vec<usize>,
    cost: Vec<i64>,
    /// The largest cost (at least 1).
    c_max: i64,
}

impl Graph {
    fn new(cand: &[Vec<usize>], cost: &impl Fn(usize, usize) -> i64) -> Self {
        let mut start = Vec::with_capacity(cand.len() + 1);
        start.push(0);
        for c in cand {
            start.push(start[start.len() - 1] + c.len());
        }
        let spot: Vec<usize> = cand.iter().flatten().copied().collect();
        let cost: Vec<i64> = cand.iter().enumerate().flat_map(|(i, js)| js.iter().map(move |&j| cost(i, j))).collect();
        let c_max = cost.iter().copied().fold(1, i64::max);
        Self { start, spot, cost, c_max }
    }
}

/// One ε phase of the forward (Gauss–Seidel) auction from the given prices. Returns the
/// assignment and the owner of each spot, or `None` when prices run away (no perfect matching on
/// the candidate graph).
fn auction_phase(graph: &Graph, prices: &mut [i64], eps: i64) -> Option<(Vec<usize>, Vec<usize>)> {
    let n = graph.start.len() - 1;
    let c_max = graph.c_max;
    let mut assigned = vec![usize::MAX; n];
    let mut owner = vec![usize::MAX; n];
    let mut queue: VecDeque<usize> = (0..n).collect();
    let runaway = (n as i64 + 1).saturating_mul(c_max.saturating_add(eps)).saturating_mul(4);
    while let Some(i) = queue.pop_front() {
        let mut best = (i64::MIN, usize::MAX);
        let mut second = i64::MIN;
        let (lo, hi) = (graph.start[i], graph.start[i + 1]);
        for (&j, &c) in graph.spot[lo..hi].iter().zip(&graph.cost[lo..hi]) {
            let v = -c - prices[j];
            if v > best.0 || (v == best.0 && j < best.1) {
                second = best.0;
                best = (v, j);
            } else if v > second {
                second = v;
            }
        }
        let (v1, j1) = best;
        if j1 == usize::MAX {
            return None;
        }
        let v2 = if second == i64::MIN { v1 - c_max } else { second };
        prices[j1] += v1 - v2 + eps;
        if prices[j1] > runaway {
            return None;
        }
        let previous = owner[j1];
        owner[j1] = i;
        assigned[i] = j1;
        if previous != usize::MAX {
            assigned[previous] = usize::MAX;
            queue.push_back(previous);
        }
    }
    Some((assigned, owner))
}

/// Candidate spots per performer: the `k` spots nearest to its partner under a recursive
/// bisection matching (both sets split at the same count along alternating axes, a monotone map
/// close to the optimal transport map), plus that partner itself, so the candidate graph
/// always holds a perfect matching and the auction cannot run away.
fn nearest_candidates(from: &[DVec2], to: &[DVec2], k: usize) -> Vec<Vec<usize>> {
    let n = to.len();
    if k >= n {
        return vec![(0..n).collect(); from.len()];
    }
    let partner = bisection_matching(from, to);
    let (lo, hi) = to.iter().fold((to[0], to[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let area = ((hi.x - lo.x).max(1e-3)) * ((hi.y - lo.y).max(1e-3));
    let cell = (area / n as f64 * k as f64).sqrt().max(1e-6);
    let buckets = Buckets::build(to, cell);
    (0..from.len())
        .into_par_iter()
        .map(|i| {
            let j = partner[i];
            let mut c = buckets.k_nearest(to, to[j], k);
            if !c.contains(&j) {
                c.push(j);
            }
            c
        })
        .collect()
}

/// Recursive bisection: sort both index sets along x (even depths) or y, split both at the
/// same count, recurse; returns the spot paired with each performer.
pub fn bisection_matching(from: &[DVec2], to: &[DVec2]) -> Vec<usize> {
    fn go(from: &[DVec2], to: &[DVec2], a: &mut [usize], b: &mut [usize], depth: u32, out: &mut [usize]) {
        if a.len() == 1 {
            out[a[0]] = b[0];
            return;
        }
        if a.is_empty() {
            return;
        }
        let key = |p: DVec2| if depth.is_multiple_of(2) { (p.x, p.y) } else { (p.y, p.x) };
        a.sort_by(|x, y| key(from[*x]).partial_cmp(&key(from[*y])).unwrap_or(std::cmp::Ordering::Equal).then(x.cmp(y)));
        b.sort_by(|x, y| key(to[*x]).partial_cmp(&key(to[*y])).unwrap_or(std::cmp::Ordering::Equal).then(x.cmp(y)));
        let mid = a.len() / 2;
        let (a0, a1) = a.split_at_mut(mid);
        let (b0, b1) = b.split_at_mut(mid);
        go(from, to, a0, b0, depth + 1, out);
        go(from, to, a1, b1, depth + 1, out);
    }
    let mut a: Vec<usize> = (0..from.len()).collect();
    let mut b: Vec<usize> = (0..to.len()).collect();
    let mut out = vec![0; from.len()];
    go(from, to, &mut a, &mut b, 0, &mut out);
    out
}

/// Points in square cells for k-nearest queries by widening rings.
struct Buckets {
    origin: DVec2,
    cell: f64,
    nx: i64,
    ny: i64,
    cells: Vec<Vec<u32>>,
}

impl Buckets {
    fn build(points: &[DVec2], cell: f64) -> Self {
        let (lo, hi) = points.iter().fold((points[0], points[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let nx = (((hi.x - lo.x) / cell).floor() as i64 + 1).clamp(1, 4096);
        let ny = (((hi.y - lo.y) / cell).floor() as i64 + 1).clamp(1, 4096);
        let mut cells = vec![Vec::new(); (nx * ny) as usize];
        for (i, p) in points.iter().enumerate() {
            let (x, y) = (((p.x - lo.x) / cell).floor() as i64, ((p.y - lo.y) / cell).floor() as i64);
            cells[(y.clamp(0, ny - 1) * nx + x.clamp(0, nx - 1)) as usize].push(i as u32);
        }
        Self { origin: lo, cell, nx, ny, cells }
    }

    fn k_nearest(&self, points: &[DVec2], q: DVec2, k: usize) -> Vec<usize> {
        let cx = ((q.x - self.origin.x) / self.cell).floor() as i64;
        let cy = ((q.y - self.origin.y) / self.cell).floor() as i64;
        let mut found: Vec<(f64, usize)> = Vec::new();
        let max_ring = self.nx.max(self.ny) + cx.abs().max(cy.abs()) + 1;
        for ring in 0..=max_ring {
            for y in cy - ring..=cy + ring {
                if y < 0 || y >= self.ny {
                    continue;
                }
                for x in cx - ring..=cx + ring {
                    if x < 0 || x >= self.nx || ((x - cx).abs() != ring && (y - cy).abs() != ring) {
                        continue;
                    }
                    for &j in &self.cells[(y * self.nx + x) as usize] {
                        found.push((points[j as usize].distance_squared(q), j as usize));
                    }
                }
            }
            if found.len() >= k {
                found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let kth = found[k - 1].0.sqrt();
                if kth <= ring as f64 * self.cell {
                    break;
                }
            }
        }
        found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        found.truncate(k);
        found.into_iter().map(|(_, j)| j).collect()
    }
}

/// Pairs performers and spots in the same order along `axis` (a parallel move: nobody
/// overtakes a neighbour). Ties broken by the perpendicular coordinate, then the index.
pub fn order_preserving(from: &[DVec2], to: &[DVec2], axis: DVec2) -> Vec<usize> {
    let key = |p: DVec2| (p.dot(axis), p.perp_dot(axis));
    let mut a: Vec<usize> = (0..from.len()).collect();
    let mut b: Vec<usize> = (0..to.len()).collect();
    a.sort_by(|x, y| {
        let (kx, ky) = (key(from[*x]), key(from[*y]));
        kx.0.total_cmp(&ky.0).then(kx.1.total_cmp(&ky.1)).then(x.cmp(y))
    });
    b.sort_by(|x, y| {
        let (kx, ky) = (key(to[*x]), key(to[*y]));
        kx.0.total_cmp(&ky.0).then(kx.1.total_cmp(&ky.1)).then(x.cmp(y))
    });
    let mut out = vec![0; from.len()];
    for (i, j) in a.iter().zip(&b) {
        out[*i] = *j;
    }
    out
}

/// The principal axis (largest spread) of `points`, for lines; +x when there is none.
pub fn principal_axis(points: &[DVec2]) -> DVec2 {
    if points.len() < 2 {
        return DVec2::X;
    }
    let c = points.iter().copied().sum::<DVec2>() / points.len() as f64;
    let (mut xx, mut xy, mut yy) = (0.0, 0.0, 0.0);
    for p in points {
        let d = *p - c;
        xx += d.x * d.x;
        xy += d.x * d.y;
        yy += d.y * d.y;
    }
    let angle = 0.5 * (2.0 * xy).atan2(xx - yy);
    let axis = DVec2::from_angle(angle);
    if axis.x < -1e-9 || (axis.x.abs() <= 1e-9 && axis.y < 0.0) { -axis } else { axis }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(from: &[DVec2], to: &[DVec2]) -> i64 {
        fn go(i: usize, used: &mut Vec<bool>, from: &[DVec2], to: &[DVec2], acc: i64, best: &mut i64) {
            if acc >= *best {
                return;
            }
            if i == from.len() {
                *best = acc;
                return;
            }
            for j in 0..to.len() {
                if !used[j] {
                    used[j] = true;
                    go(i + 1, used, from, to, acc + cost_mm2(from[i], to[j]), best);
                    used[j] = false;
                }
            }
        }
        let mut best = i64::MAX;
        go(0, &mut vec![false; to.len()], from, to, 0, &mut best);
        best
    }

    fn scatter(n: usize, seed: f64, spread: f64) -> Vec<DVec2> {
        (1..=n)
            .map(|k| {
                let k = k as f64 + seed;
                DVec2::new((k * 0.754_877_666).fract() * spread, (k * 0.569_840_29).fract() * spread * 0.7)
            })
            .collect()
    }

    #[test]
    fn hungarian_and_auction_are_optimal_on_small_cases() {
        for n in 2..=8 {
            for seed in 0..4 {
                let from = scatter(n, seed as f64 * 3.1, 10.0);
                let to = scatter(n, 100.0 + seed as f64 * 7.7, 6.0);
                let best = brute_force(&from, &to);
                assert_eq!(total_cost_mm2(&from, &to, &hungarian(&from, &to)), best, "hungarian n={n}");
                assert_eq!(total_cost_mm2(&from, &to, &auction(&from, &to)), best, "auction n={n}");
            }
        }
    }

    #[test]
    fn sparse_auction_equals_hungarian_on_hundreds() {
        let from = scatter(240, 0.3, 20.0);
        let to: Vec<DVec2> = scatter(240, 55.5, 8.0).into_iter().map(|p| p + DVec2::new(15.0, 3.0)).collect();
        let h = total_cost_mm2(&from, &to, &hungarian(&from, &to));
        let a = auction(&from, &to);
        let mut seen = a.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..240).collect::<Vec<_>>(), "a permutation");
        assert_eq!(total_cost_mm2(&from, &to, &a), h);
    }

    #[test]
    fn order_preserving_keeps_line_order() {
        let from: Vec<DVec2> = (0..5).map(|k| DVec2::new(k as f64, 0.0)).collect();
        let to: Vec<DVec2> = (0..5).rev().map(|k| DVec2::new(k as f64 + 0.5, 2.0)).collect();
        let a = order_preserving(&from, &to, principal_axis(&from));
        for i in 0..5 {
            assert!((to[a[i]].x - from[i].x - 0.5).abs() < 1e-12);
        }
    }
}
