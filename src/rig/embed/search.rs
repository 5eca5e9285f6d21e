//! The discrete part of the embedding: the graph of medial spheres (edges where the joining
//! segment stays inside, all-pairs shortest paths) and the best-first branch-and-bound search
//! assigning the reduced skeleton's joints to spheres.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::*;

/// The sphere graph: edges between overlapping spheres whose centres see each other through
/// the body, with all-pairs shortest paths.
pub(super) struct Graph {
    pub(super) n: usize,
    pub(super) dist: Vec<f32>,
    pub(super) pred: Vec<u32>,
    pub(super) edge_count: usize,
    /// Graph component of each sphere (0 = the largest).
    pub(super) component: Vec<u32>,
}

impl Graph {
    pub(super) fn build(body: &VoxelBody, spheres: &[Sphere]) -> Graph {
        let n = spheres.len();
        let mut adj: Vec<Vec<(u32, f32)>> = vec![Vec::new(); n];
        let mut edge_count = 0;
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (spheres[i], spheres[j]);
                let d = a.centre.distance(b.centre);
                if d > a.radius + b.radius + body.cell_m {
                    continue;
                }
                // Half the smaller radius deep all the way: thin bridges where an arm
                // touches the body do not join them.
                let need = 0.5 * a.radius.min(b.radius);
                let steps = (d / (0.5 * body.cell_m)).ceil().max(1.0) as usize;
                let clear =
                    (0..=steps).all(|k| body.depth_at(a.centre.lerp(b.centre, k as f32 / steps as f32)) >= need);
                if clear {
                    adj[i].push((j as u32, d));
                    adj[j].push((i as u32, d));
                    edge_count += 1;
                }
            }
        }
        let mut dist = vec![f32::INFINITY; n * n];
        let mut pred = vec![u32::MAX; n * n];
        let mut heap = BinaryHeap::new();
        for s in 0..n {
            let row = s * n;
            dist[row + s] = 0.0;
            heap.push(Reverse((Key(0.0), s as u32)));
            while let Some(Reverse((Key(d), u))) = heap.pop() {
                let u = u as usize;
                if d > dist[row + u] {
                    continue;
                }
                for &(v, w) in &adj[u] {
                    let nd = d + w;
                    if nd < dist[row + v as usize] {
                        dist[row + v as usize] = nd;
                        pred[row + v as usize] = u as u32;
                        heap.push(Reverse((Key(nd), v)));
                    }
                }
            }
        }
        // Components, largest (by total sphere volume) first.
        let mut component = vec![u32::MAX; n];
        let mut volumes: Vec<(f32, u32)> = Vec::new();
        for s in 0..n {
            if component[s] != u32::MAX {
                continue;
            }
            let id = volumes.len() as u32;
            let mut v = 0.0;
            for t in 0..n {
                if dist[s * n + t].is_finite() {
                    component[t] = id;
                    v += spheres[t].radius.powi(3);
                }
            }
            volumes.push((v, id));
        }
        volumes.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let rank: Vec<u32> = {
            let mut r = vec![0u32; volumes.len()];
            for (k, &(_, id)) in volumes.iter().enumerate() {
                r[id as usize] = k as u32;
            }
            r
        };
        for c in &mut component {
            *c = rank[*c as usize];
        }
        Graph { n, dist, pred, edge_count, component }
    }

    pub(super) fn d(&self, a: usize, b: usize) -> f32 {
        self.dist[a * self.n + b]
    }

    /// Spheres on the shortest path from `a` to `b`, both included.
    pub(super) fn path(&self, a: usize, b: usize) -> Vec<usize> {
        let mut out = vec![b];
        let mut at = b;
        while at != a {
            let p = self.pred[a * self.n + at];
            if p == u32::MAX || out.len() > self.n {
                return vec![a, b];
            }
            at = p as usize;
            out.push(at);
        }
        out.reverse();
        out
    }
}

/// A totally ordered f32 for the priority queues (NaN never occurs: costs are sums of squares).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Key(f32);
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

pub(super) struct Search {
    pub(super) assignment: [usize; REDUCED],
    pub(super) penalty: f32,
    pub(super) expansions: usize,
}

/// Candidates kept per reduced joint.
pub(super) const CANDIDATES: usize = 24;
/// Partial embeddings at or above this penalty are dropped.
pub(super) const PRUNE: f32 = 40.0;
/// Detour (body heights) from one fingertip to the other by the shoulder junction that costs
/// nothing (the junction sits a little above the path across the chest on ordinary bodies).
const JUNCTION_DETOUR_FREE: f32 = 0.1;

/// Best-first branch and bound over assignments of the reduced joints (in index order) to
/// spheres: the queue is ordered by the penalty so far plus the least unary penalty of each
/// joint still to place (a lower bound, every term being ≥ 0), so the first complete
/// embedding taken off the queue is the best one.
pub(super) fn discrete_embedding(spheres: &[Sphere], graph: &Graph, frame: &BodyFrame) -> Result<Search, RigError> {
    let scorer = Scorer::new(spheres, graph, *frame)?;
    let candidates = scorer.candidates();
    let bounds = Bounds::new(&scorer, &candidates);
    branch_and_bound(&scorer, &candidates, &bounds)
}

/// Penalties of placing the reduced joints on spheres of the graph's largest component.
struct Scorer<'a> {
    spheres: &'a [Sphere],
    graph: &'a Graph,
    frame: BodyFrame,
    /// Spheres of the largest component.
    usable: Vec<usize>,
    /// The largest usable sphere: the body's centre.
    root: usize,
    /// Highest and lowest usable sphere centre, in body heights above the floor.
    max_y: f32,
    min_y: f32,
}

impl<'a> Scorer<'a> {
    fn new(spheres: &'a [Sphere], graph: &'a Graph, frame: BodyFrame) -> Result<Self, RigError> {
        let usable: Vec<usize> = (0..spheres.len()).filter(|&s| graph.component[s] == 0).collect();
        let max_y = usable.iter().map(|&s| frame.rel_y(spheres[s].centre)).fold(f32::MIN, f32::max);
        let min_y = usable.iter().map(|&s| frame.rel_y(spheres[s].centre)).fold(f32::MAX, f32::min);
        let centre =
            usable.iter().copied().max_by(|&a, &b| spheres[a].radius.total_cmp(&spheres[b].radius).then(b.cmp(&a)));
        let Some(root) = centre else { return Err(RigError::Unriggable("no medial graph".into())) };
        Ok(Scorer { spheres, graph, frame, usable, root, max_y, min_y })
    }

    /// How far a sphere is from being a local end of the graph, seen from the body's centre.
    fn end_gap(&self, s: usize) -> f32 {
        let (spheres, h) = (self.spheres, self.frame.height);
        let here = self.graph.d(self.root, s);
        self.usable
            .iter()
            .filter(|&&t| {
                spheres[t].centre.distance(spheres[s].centre) < spheres[s].radius + spheres[t].radius + 0.02 * h
            })
            .map(|&t| self.graph.d(self.root, t) - here)
            .fold(0.0f32, f32::max)
            / h
    }

    /// How far a sphere is from being a local top of the graph: the most a touching sphere rises
    /// above it, in body heights. (The head top is judged upwards, not from the body's centre:
    /// a cartoon's head can hold the largest sphere, and an end seen from inside the head is
    /// not its top.)
    fn rise_gap(&self, s: usize) -> f32 {
        let (spheres, h) = (self.spheres, self.frame.height);
        let c = spheres[s];
        self.usable
            .iter()
            .filter(|&&t| spheres[t].centre.distance(c.centre) < c.radius + spheres[t].radius + 0.02 * h)
            .map(|&t| spheres[t].centre.y - c.centre.y)
            .fold(0.0f32, f32::max)
            / h
    }

    /// Penalty of reduced joint `joint` on sphere `s` alone (height band, side, graph end).
    fn unary(&self, joint: usize, s: usize) -> f32 {
        let h = self.frame.height;
        let c = self.spheres[s].centre;
        let (x, y) = (c.x / h, self.frame.rel_y(c));
        let side = |want: f32| if x * want > 0.01 { 0.0 } else { 20.0 };
        match joint {
            // Wide bands: stylised bodies put the hips and shoulders far from the average.
            0 => band(y, 0.25, 0.62) + (x / 0.04).powi(2),
            1 => band(y, 0.45, 0.9) + (x / 0.04).powi(2),
            2 => ((self.max_y - y) / 0.05).powi(2) + (x / 0.04).powi(2) + (self.rise_gap(s) / 0.03).powi(2),
            3 | 4 => {
                let want = if joint == 3 { 1.0 } else { -1.0 };
                side(want)
                    + (self.end_gap(s) / 0.03).powi(2)
                    + if y > 0.98 { 5.0 } else { 0.0 }
                    + ((0.25 - y).max(0.0) / 0.05).powi(2)
            }
            _ => {
                let want = if joint == 5 { 1.0 } else { -1.0 };
                side(want) + ((y - self.min_y) / 0.04).powi(2) + (self.end_gap(s) / 0.03).powi(2)
            }
        }
    }

    /// The [`CANDIDATES`] spheres of least unary penalty for each reduced joint, best first.
    fn candidates(&self) -> Vec<Vec<Candidate>> {
        let mut candidates: Vec<Vec<Candidate>> = Vec::with_capacity(REDUCED);
        for joint in 0..REDUCED {
            let mut list: Vec<Candidate> =
                self.usable.iter().map(|&s| Candidate { unary: self.unary(joint, s), sphere: s }).collect();
            list.sort_by(|a, b| a.unary.total_cmp(&b.unary).then(a.sphere.cmp(&b.sphere)));
            list.truncate(CANDIDATES);
            candidates.push(list);
        }
        candidates
    }

    /// Penalty of the bones and pairs completed by placing joint `j` on sphere `s`.
    fn pair_penalty(&self, assigned: &[usize], j: usize, s: usize) -> f32 {
        let Some(mut p) = self.bone_penalty(assigned, j, s) else { return f32::INFINITY };
        self.add_overlap_penalty(&mut p, assigned, j, s);
        // Left–right symmetry about the parent joint; the arms joined through the shoulders.
        if j == 4 {
            p += self.mirror(assigned[3], s, assigned[1]);
            p += self.junction_detour(assigned[3], s, assigned[1]);
        }
        if j == 6 {
            p += self.mirror(assigned[5], s, assigned[0]);
        }
        p
    }

    /// Length and direction penalty of the bones ending at joint `j` on sphere `s` whose
    /// parent is placed; `None` when the graph does not join them.
    fn bone_penalty(&self, assigned: &[usize], j: usize, s: usize) -> Option<f32> {
        let (spheres, h) = (self.spheres, self.frame.height);
        let mut p = 0.0;
        for (b, &(u, v)) in BONES.iter().enumerate() {
            if v != j || u >= assigned.len() {
                continue;
            }
            let a = assigned[u];
            let length = self.graph.d(a, s);
            if !length.is_finite() {
                return None;
            }
            // Lengths within a factor e^±0.4 of the average are free (stylised proportions).
            let ratio = (length / (BONE_LENGTH[b] * h)).max(1e-3).ln().abs();
            p += ((ratio - 0.4).max(0.0) / 0.3).powi(2);
            let dir = (spheres[s].centre - spheres[a].centre).normalize_or_zero();
            p += match v {
                1 | 2 => ((1.0 - dir.y) / 0.3).powi(2),
                3 | 4 => {
                    let side = if v == 3 { 1.0 } else { -1.0 };
                    ((0.2 - side * dir.x).max(0.0) / 0.1).powi(2) + ((dir.y - 0.5).max(0.0) / 0.2).powi(2)
                }
                _ => ((1.0 + dir.y) / 0.25).powi(2),
            };
        }
        Some(p)
    }

    /// No two bones may run down the same part of the graph, except near a joint they share:
    /// adds to `p` for each placed bone whose path the new bone to `s` shares.
    fn add_overlap_penalty(&self, p: &mut f32, assigned: &[usize], j: usize, s: usize) {
        let (spheres, h) = (self.spheres, self.frame.height);
        let Some(b) = BONES.iter().position(|&(_, v)| v == j) else { return };
        if BONES[b].0 >= assigned.len() {
            return;
        }
        let (u, _) = BONES[b];
        let here = self.graph.path(assigned[u], s);
        for &(u2, v2) in BONES.iter().take_while(|&&(_, v2)| v2 < j) {
            if v2 >= assigned.len() {
                continue;
            }
            let shared_joints: Vec<usize> = [u2, v2].into_iter().filter(|&x| x == u).map(|x| assigned[x]).collect();
            let other = self.graph.path(assigned[u2], assigned[v2]);
            let shared = here
                .iter()
                .filter(|t| {
                    other.contains(t)
                        && shared_joints.iter().all(|&c| spheres[**t].centre.distance(spheres[c].centre) > 0.12 * h)
                })
                .count();
            if shared > 0 {
                *p += 10.0 + shared as f32;
            }
        }
    }

    /// Penalty of the shoulder junction `junction` off the graph path between the fingertips `l`
    /// and `r`: the arms join through the shoulders, so going from one hand to the other by the
    /// junction is a detour of at most [`JUNCTION_DETOUR_FREE`] of the height for free. (A
    /// junction up in a big head, with the arms' paths down the neck, is a long detour.)
    fn junction_detour(&self, l: usize, r: usize, junction: usize) -> f32 {
        let g = self.graph;
        let detour = (g.d(junction, l) + g.d(junction, r) - g.d(l, r)) / self.frame.height;
        ((detour - JUNCTION_DETOUR_FREE).max(0.0) / 0.1).powi(2)
    }

    /// How far spheres `l` and `r` are from mirror images about sphere `about`.
    fn mirror(&self, l: usize, r: usize, about: usize) -> f32 {
        let (a, b, m) = (self.spheres[l].centre, self.spheres[r].centre, self.spheres[about].centre);
        let d = Vec3::new((a.x - m.x) + (b.x - m.x), a.y - b.y, a.z - b.z) / self.frame.height;
        (d.length() / 0.06).powi(2)
    }
}

/// Penalty of a height `y` outside the band `lo..=hi` (body heights).
fn band(y: f32, lo: f32, hi: f32) -> f32 {
    (((lo - y).max(0.0) + (y - hi).max(0.0)) / 0.05).powi(2)
}

/// A sphere a reduced joint may take, with its unary penalty.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    unary: f32,
    sphere: usize,
}

/// A partial embedding in the queue: spheres of the first joints, penalty so far.
struct Partial {
    /// Penalty so far plus the least still to pay ([`Bounds::rest`]).
    lower_bound: Key,
    /// Insertion order, to break ties.
    seq: u64,
    assigned: Vec<usize>,
    cost: f32,
}

impl PartialEq for Partial {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Partial {}
impl PartialOrd for Partial {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Partial {
    /// By lower bound, then insertion order (unique per entry).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.lower_bound, self.seq).cmp(&(other.lower_bound, other.seq))
    }
}

/// Lower bounds on the penalty still to pay for a partial embedding: the least unary penalty of
/// each joint still to place, and once the pelvis (shoulder junction) is placed the least the two
/// toe tips (fingertips) can cost about it together: unary penalties, bones, mirror symmetry (and
/// the junction's detour); the overlap term, never negative, is left out. Admissible, so the
/// first complete embedding off the queue is still the best; tighter than the unary penalties
/// alone, so a body whose best embedding costs much (a shaken surface) is searched in fewer steps.
struct Bounds {
    least_unary: Vec<f32>,
    /// By sphere: the legs' least cost about a pelvis on it (pelvis candidates only).
    legs: Vec<f32>,
    /// By sphere: the arms' least cost about a shoulder junction on it (junction candidates only).
    arms: Vec<f32>,
}

impl Bounds {
    fn new(scorer: &Scorer, candidates: &[Vec<Candidate>]) -> Bounds {
        let least_unary: Vec<f32> = candidates.iter().map(|l| l.first().map_or(0.0, |c| c.unary)).collect();
        let n = scorer.spheres.len();
        // The least cost of the pair of joints (`l`, `l + 1`) about `parent` on sphere `at`.
        let pair = |parent: usize, l: usize, at: usize| -> f32 {
            // The joints placed so far as `bone_penalty` reads them: the parent's slot holds `at`.
            let placed = [at; 2];
            let placed = &placed[..=parent];
            let mut best = f32::INFINITY;
            for a in &candidates[l] {
                if a.sphere == at {
                    continue;
                }
                let Some(bone_a) = scorer.bone_penalty(placed, l, a.sphere) else { continue };
                let first = a.unary + bone_a;
                if first >= best {
                    continue;
                }
                for b in &candidates[l + 1] {
                    if b.sphere == at || b.sphere == a.sphere {
                        continue;
                    }
                    let Some(bone_b) = scorer.bone_penalty(placed, l + 1, b.sphere) else { continue };
                    let mut cost = first + b.unary + bone_b + scorer.mirror(a.sphere, b.sphere, at);
                    if l == 3 {
                        cost += scorer.junction_detour(a.sphere, b.sphere, at);
                    }
                    best = best.min(cost);
                }
            }
            best
        };
        let mut legs = vec![f32::INFINITY; n];
        for c in &candidates[0] {
            legs[c.sphere] = pair(0, 5, c.sphere);
        }
        let mut arms = vec![f32::INFINITY; n];
        for c in &candidates[1] {
            arms[c.sphere] = pair(1, 3, c.sphere);
        }
        Bounds { least_unary, legs, arms }
    }

    /// The least penalty still to pay once the joints `assigned` (the first ones) are placed.
    fn rest(&self, assigned: &[usize]) -> f32 {
        let placed = assigned.len();
        let lu = &self.least_unary;
        let trunk: f32 = lu[placed.min(3)..3].iter().sum();
        let arms = match placed {
            0 | 1 => lu[3] + lu[4],
            2 | 3 => self.arms[assigned[1]],
            4 => lu[4],
            _ => 0.0,
        };
        let legs = match placed {
            0 => lu[5] + lu[6],
            6 => lu[6],
            7 => 0.0,
            _ => self.legs[assigned[0]],
        };
        trunk + arms + legs
    }
}

/// The search proper: expands the partial embedding of least lower bound until one is complete.
fn branch_and_bound(scorer: &Scorer, candidates: &[Vec<Candidate>], bounds: &Bounds) -> Result<Search, RigError> {
    let mut heap: BinaryHeap<Reverse<Partial>> = BinaryHeap::new();
    let mut seq = 0u64;
    heap.push(Reverse(Partial { lower_bound: Key(bounds.rest(&[])), seq, assigned: Vec::new(), cost: 0.0 }));
    let mut expansions = 0usize;
    while let Some(Reverse(Partial { assigned, cost, .. })) = heap.pop() {
        if assigned.len() == REDUCED {
            let mut assignment = [0usize; REDUCED];
            assignment.copy_from_slice(&assigned);
            return Ok(Search { assignment, penalty: cost, expansions });
        }
        expansions += 1;
        if expansions > MAX_EXPANSIONS {
            break;
        }
        let j = assigned.len();
        for &Candidate { unary: u, sphere: s } in &candidates[j] {
            if assigned.contains(&s) {
                continue;
            }
            let next_cost = cost + u + scorer.pair_penalty(&assigned, j, s);
            if next_cost.is_nan() || next_cost >= PRUNE {
                continue;
            }
            let mut next = assigned.clone();
            next.push(s);
            // A completion would cost at least this: at the limit, none is kept.
            let lower_bound = next_cost + bounds.rest(&next);
            if lower_bound >= PRUNE {
                continue;
            }
            seq += 1;
            heap.push(Reverse(Partial { lower_bound: Key(lower_bound), seq, assigned: next, cost: next_cost }));
        }
    }
    Err(RigError::Unriggable(
        "no placement of a standing humanoid skeleton (head up, two arms, two legs on the floor) fits this shape"
            .into(),
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::super::{body_frame, pack_spheres};
    use super::*;
    use crate::body::polygonise::PolygoniseParams;
    use crate::body::rig::find_model;

    impl Bounds {
        /// The bound before the pairs: the least unary penalty of each joint still to place.
        fn unary_only(candidates: &[Vec<Candidate>], spheres: usize) -> Bounds {
            let lu: Vec<f32> = candidates.iter().map(|l| l.first().map_or(0.0, |c| c.unary)).collect();
            Bounds { legs: vec![lu[5] + lu[6]; spheres], arms: vec![lu[3] + lu[4]; spheres], least_unary: lu }
        }
    }

    /// The penalty of placing the reduced joints on `assignment` in order, as the search sums it.
    fn cost_of(scorer: &Scorer, candidates: &[Vec<Candidate>], assignment: &[usize]) -> Option<Vec<f32>> {
        let mut prefix_costs = vec![0.0f32];
        for (j, &s) in assignment.iter().enumerate() {
            let unary = candidates[j].iter().find(|c| c.sphere == s)?.unary;
            let cost = prefix_costs[j] + unary + scorer.pair_penalty(&assignment[..j], j, s);
            prefix_costs.push(cost);
        }
        prefix_costs.last().is_some_and(|c| c.is_finite()).then_some(prefix_costs)
    }

    #[test]
    fn the_pair_bound_never_overestimates_and_finds_the_embedding_the_unary_bound_finds() {
        let mesh = find_model("woman-modern").unwrap().build_mesh(&PolygoniseParams::default()).unwrap();
        let height = mesh.bounds_in_model().map(|(lo, hi)| hi.y - lo.y).unwrap();
        let body = VoxelBody::build(&mesh, height / 150.0).unwrap();
        let (frame, _) = body_frame(&body).unwrap();
        let spheres = pack_spheres(&body);
        let graph = Graph::build(&body, &spheres);
        let scorer = Scorer::new(&spheres, &graph, frame).unwrap();
        let candidates = scorer.candidates();
        let tight = Bounds::new(&scorer, &candidates);
        let loose = Bounds::unary_only(&candidates, spheres.len());
        let best = branch_and_bound(&scorer, &candidates, &tight).unwrap();
        let reference = branch_and_bound(&scorer, &candidates, &loose).unwrap();
        assert_eq!(best.assignment, reference.assignment);
        assert_eq!(best.penalty, reference.penalty);
        assert!(best.expansions <= reference.expansions, "{} > {}", best.expansions, reference.expansions);
        // Completions near the best one (one or two joints moved to other candidates): at every
        // prefix, the cost so far plus the bound is at most the completion's whole cost.
        let mut seed = 0x9e37_79b9_u32;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as usize % n
        };
        let mut checked = 0;
        for trial in 0..3000 {
            let mut assignment = best.assignment;
            for _ in 0..1 + trial % 2 {
                let j = next(REDUCED);
                assignment[j] = candidates[j][next(candidates[j].len())].sphere;
            }
            let distinct = (0..REDUCED).all(|a| (a + 1..REDUCED).all(|b| assignment[a] != assignment[b]));
            let Some(prefix_costs) = cost_of(&scorer, &candidates, &assignment).filter(|_| distinct) else {
                continue;
            };
            let whole = prefix_costs[REDUCED];
            assert!(whole >= best.penalty - 1e-3, "{assignment:?} costs {whole} < {}", best.penalty);
            for placed in 0..=REDUCED {
                let bound = prefix_costs[placed] + tight.rest(&assignment[..placed]);
                assert!(bound <= whole + 1e-3, "{assignment:?}: after {placed} joints {bound} > {whole}");
            }
            checked += 1;
        }
        assert!(checked > 500, "{checked} completions checked");
    }
}
