//! Embedding the project's skeleton into a voxel body, after Pinocchio (Baran & Popović 2007):
//! medial samples of the distance field packed into spheres, a graph of the spheres whose
//! joining segment stays inside, the skeleton reduced to its seven joints of degree ≠ 2
//! (pelvis, shoulder junction, head top, fingertips, toe tips), a best-first branch-and-bound
//! search over assignments of those to spheres minimising a penalty, re-insertion of the
//! other joints along the chosen graph paths, then refinement of each joint onto the limb's
//! cross-section centre and anatomical landmarks (crotch, armpit, wrist narrowing, neck).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{IVec3, Vec3};

use super::RigError;
use super::voxel::VoxelBody;
use crate::pose::skeleton::{JOINT_COUNT, JointId, Side};

/// Most spheres kept (Pinocchio's default packing limit).
pub const MAX_SPHERES: usize = 1000;
/// Most partial embeddings taken off the queue before the search gives up.
pub const MAX_EXPANSIONS: usize = 400_000;

/// The skeleton found inside a body (rig frame, metres).
#[derive(Clone, Debug, PartialEq)]
pub struct Embedding {
    /// Every joint of the project's skeleton, by [`JointId::index`].
    pub joints_in_rig: [Vec3; JOINT_COUNT],
    /// Top of the head.
    pub head_top: Vec3,
    /// Fingertips, left then right.
    pub fingertips: [Vec3; 2],
    /// Toe tips, left then right (on the floor).
    pub toe_tips: [Vec3; 2],
    /// Heel contact points, left then right (on the floor).
    pub heels: [Vec3; 2],
    /// Standing height (floor to head top), metres.
    pub height_m: f32,
    /// Spheres in the medial graph.
    pub spheres: usize,
    /// Edges of the medial graph.
    pub graph_edges: usize,
    /// Partial embeddings expanded by the search.
    pub expansions: usize,
    /// Penalty of the discrete embedding (0 = ideal).
    pub penalty: f32,
    /// 0–1: how sure the embedding is (penalty, left–right agreement of the refined limbs).
    pub confidence: f32,
}

#[derive(Clone, Copy, Debug)]
struct Sphere {
    centre: Vec3,
    radius: f32,
}

/// The reduced skeleton: its joints (0 pelvis, 1 shoulder junction, 2 head top, 3/4 left/right
/// fingertip, 5/6 left/right toe tip) and bones.
const REDUCED: usize = 7;
const BONES: [(usize, usize); 6] = [(0, 1), (1, 2), (1, 3), (1, 4), (0, 5), (0, 6)];
/// Expected graph length of each bone, in body heights (from the default proportions).
const BONE_LENGTH: [f32; 6] = [0.27, 0.17, 0.5, 0.5, 0.56, 0.56];

/// Embeds the skeleton into `body`. Errors when the body has no humanoid shape: too few
/// spheres, or no embedding of the reduced skeleton under the penalty limit.
pub fn embed_skeleton(body: &VoxelBody) -> Result<Embedding, RigError> {
    let (lo, hi) = body.inside_bounds().ok_or_else(|| RigError::Unriggable("the mesh encloses no volume".into()))?;
    let floor_y = lo.y - 0.5 * body.cell_m;
    let height = hi.y + 0.5 * body.cell_m - floor_y;
    if height < 20.0 * body.cell_m {
        return Err(RigError::Unriggable("the body is too small for its voxel grid".into()));
    }
    let spheres = pack_spheres(body);
    if spheres.len() < 12 {
        return Err(RigError::Unriggable(format!(
            "the medial surface gave only {} spheres; is this a closed humanoid body?",
            spheres.len()
        )));
    }
    let graph = Graph::build(body, &spheres);
    let frame = BodyFrame { floor_y, height };
    let search = discrete_embedding(&spheres, &graph, &frame)?;
    let mut refine = Refiner { body, frame, sections: Sections::new(body) };
    let path = |a: usize, b: usize| -> Vec<Vec3> {
        graph.path(search.assignment[a], search.assignment[b]).iter().map(|&s| spheres[s].centre).collect()
    };
    let legs = [refine.leg(&path(0, 5), &path(0, 6)), refine.leg(&path(0, 6), &path(0, 5))];
    let arms = [refine.arm(&path(1, 3)), refine.arm(&path(1, 4))];
    let head_path = path(1, 2);
    let mut joints = [Vec3::ZERO; JOINT_COUNT];
    let mut put = |j: JointId, p: Vec3| joints[j.index()] = p;
    for (side, leg) in [(Side::Left, &legs[0]), (Side::Right, &legs[1])] {
        let (hip, knee, ankle, ball) = match side {
            Side::Left => (JointId::HipL, JointId::KneeL, JointId::AnkleL, JointId::BallL),
            Side::Right => (JointId::HipR, JointId::KneeR, JointId::AnkleR, JointId::BallR),
        };
        put(hip, leg.hip);
        put(knee, leg.knee);
        put(ankle, leg.ankle);
        put(ball, leg.ball);
    }
    let hip_mid = 0.5 * (legs[0].hip + legs[1].hip);
    let shoulder_mid = 0.5 * (arms[0].shoulder + arms[1].shoulder);
    let trunk = refine.trunk(hip_mid, shoulder_mid, &head_path, hi.y + 0.5 * body.cell_m);
    put(JointId::Pelvis, trunk.pelvis);
    put(JointId::Spine, trunk.spine);
    put(JointId::Chest, trunk.chest);
    put(JointId::Neck, trunk.neck);
    put(JointId::Head, trunk.head);
    for (side, arm) in [(Side::Left, &arms[0]), (Side::Right, &arms[1])] {
        let (clavicle, shoulder, elbow, wrist, hand) = match side {
            Side::Left => (JointId::ClavicleL, JointId::ShoulderL, JointId::ElbowL, JointId::WristL, JointId::HandL),
            Side::Right => (JointId::ClavicleR, JointId::ShoulderR, JointId::ElbowR, JointId::WristR, JointId::HandR),
        };
        // The sternoclavicular joint: a fifth of the way out, just below the shoulder.
        let c = Vec3::new(
            trunk.neck.x + 0.2 * (arm.shoulder.x - trunk.neck.x),
            arm.shoulder.y - 0.012 * height,
            0.5 * (arm.shoulder.z + trunk.neck.z),
        );
        put(clavicle, c);
        put(shoulder, arm.shoulder);
        put(elbow, arm.elbow);
        put(wrist, arm.wrist);
        put(hand, arm.wrist + 0.5 * (arm.fingertip - arm.wrist));
    }
    let confidence = confidence(&joints, search.penalty, height);
    Ok(Embedding {
        joints_in_rig: joints,
        head_top: trunk.head_top,
        fingertips: [arms[0].fingertip, arms[1].fingertip],
        toe_tips: [legs[0].toe_tip, legs[1].toe_tip],
        heels: [legs[0].heel, legs[1].heel],
        height_m: height,
        spheres: spheres.len(),
        graph_edges: graph.edge_count,
        expansions: search.expansions,
        penalty: search.penalty,
        confidence,
    })
}

/// Left–right agreement of the refined skeleton and the search penalty → 0–1.
fn confidence(joints: &[Vec3; JOINT_COUNT], penalty: f32, height: f32) -> f32 {
    use JointId::*;
    let pairs = [(ShoulderL, ShoulderR), (ElbowL, ElbowR), (WristL, WristR), (HipL, HipR), (KneeL, KneeR)];
    let pelvis_x = joints[Pelvis.index()].x;
    let asym: f32 = pairs
        .iter()
        .map(|&(l, r)| {
            let (a, b) = (joints[l.index()], joints[r.index()]);
            let mirrored = Vec3::new(2.0 * pelvis_x - b.x, b.y, b.z);
            a.distance(mirrored) / height
        })
        .sum::<f32>()
        / pairs.len() as f32;
    ((1.0 - asym / 0.1).clamp(0.0, 1.0) * (-penalty / 8.0).exp()).clamp(0.0, 1.0)
}

#[derive(Clone, Copy, Debug)]
struct BodyFrame {
    floor_y: f32,
    height: f32,
}

impl BodyFrame {
    /// Height above the floor in body heights.
    fn rel_y(&self, p: Vec3) -> f32 {
        (p.y - self.floor_y) / self.height
    }

    fn y_at(&self, rel: f32) -> f32 {
        self.floor_y + rel * self.height
    }
}

/// Medial samples (inside voxels where the distance field stops growing: no neighbour is
/// deeper by more than 0.6 of the step to it) packed largest first into non-overlapping
/// spheres: a sample is kept when no kept sphere contains it.
fn pack_spheres(body: &VoxelBody) -> Vec<Sphere> {
    let min_depth = 1.5 * body.cell_m;
    let mut samples: Vec<(f32, usize)> = Vec::new();
    let mut offsets = Vec::new();
    for z in -1..=1 {
        for y in -1..=1 {
            for x in -1..=1 {
                if (x, y, z) != (0, 0, 0) {
                    offsets.push((IVec3::new(x, y, z), IVec3::new(x, y, z).as_vec3().length() * body.cell_m));
                }
            }
        }
    }
    for (i, &d) in body.depth_m.iter().enumerate() {
        if d < min_depth {
            continue;
        }
        let v = body.voxel(i);
        let ridge = offsets.iter().all(|&(o, step)| body.index(v + o).is_none_or(|j| body.depth_m[j] - d < 0.6 * step));
        if ridge {
            samples.push((d, i));
        }
    }
    samples.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut spheres: Vec<Sphere> = Vec::new();
    for (d, i) in samples {
        let c = body.centre(body.voxel(i));
        if spheres.iter().any(|s| s.centre.distance(c) < s.radius) {
            continue;
        }
        spheres.push(Sphere { centre: c, radius: d });
        if spheres.len() >= MAX_SPHERES {
            break;
        }
    }
    spheres
}

/// The sphere graph: edges between overlapping spheres whose centres see each other through
/// the body, with all-pairs shortest paths.
struct Graph {
    n: usize,
    dist: Vec<f32>,
    pred: Vec<u32>,
    edge_count: usize,
    /// Graph component of each sphere (0 = the largest).
    component: Vec<u32>,
}

impl Graph {
    fn build(body: &VoxelBody, spheres: &[Sphere]) -> Graph {
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

    fn d(&self, a: usize, b: usize) -> f32 {
        self.dist[a * self.n + b]
    }

    /// Spheres on the shortest path from `a` to `b`, both included.
    fn path(&self, a: usize, b: usize) -> Vec<usize> {
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
struct Key(f32);
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

struct Search {
    assignment: [usize; REDUCED],
    penalty: f32,
    expansions: usize,
}

/// Candidates kept per reduced joint.
const CANDIDATES: usize = 24;
/// Partial embeddings at or above this penalty are dropped.
const PRUNE: f32 = 40.0;

/// Best-first branch and bound over assignments of the reduced joints (in index order) to
/// spheres: the queue is ordered by the penalty so far plus the least unary penalty of each
/// joint still to place (a lower bound, every term being ≥ 0), so the first complete
/// embedding taken off the queue is the best one.
fn discrete_embedding(spheres: &[Sphere], graph: &Graph, frame: &BodyFrame) -> Result<Search, RigError> {
    let usable: Vec<usize> = (0..spheres.len()).filter(|&s| graph.component[s] == 0).collect();
    let max_y = usable.iter().map(|&s| frame.rel_y(spheres[s].centre)).fold(f32::MIN, f32::max);
    let min_y = usable.iter().map(|&s| frame.rel_y(spheres[s].centre)).fold(f32::MAX, f32::min);
    let centre =
        usable.iter().copied().max_by(|&a, &b| spheres[a].radius.total_cmp(&spheres[b].radius).then(b.cmp(&a)));
    let Some(root) = centre else { return Err(RigError::Unriggable("no medial graph".into())) };
    let h = frame.height;
    // How far a sphere is from being a local end of the graph, seen from the body's centre.
    let end_gap = |s: usize| -> f32 {
        let here = graph.d(root, s);
        usable
            .iter()
            .filter(|&&t| {
                spheres[t].centre.distance(spheres[s].centre) < spheres[s].radius + spheres[t].radius + 0.02 * h
            })
            .map(|&t| graph.d(root, t) - here)
            .fold(0.0f32, f32::max)
            / h
    };
    let band = |y: f32, lo: f32, hi: f32| (((lo - y).max(0.0) + (y - hi).max(0.0)) / 0.05).powi(2);
    let unary = |joint: usize, s: usize| -> f32 {
        let c = spheres[s].centre;
        let (x, y) = (c.x / h, frame.rel_y(c));
        let side = |want: f32| if x * want > 0.01 { 0.0 } else { 20.0 };
        match joint {
            // Wide bands: stylised bodies put the hips and shoulders far from the average.
            0 => band(y, 0.25, 0.62) + (x / 0.04).powi(2),
            1 => band(y, 0.45, 0.9) + (x / 0.04).powi(2),
            2 => ((max_y - y) / 0.05).powi(2) + (x / 0.04).powi(2) + (end_gap(s) / 0.03).powi(2),
            3 | 4 => {
                let want = if joint == 3 { 1.0 } else { -1.0 };
                side(want)
                    + (end_gap(s) / 0.03).powi(2)
                    + if y > 0.98 { 5.0 } else { 0.0 }
                    + ((0.25 - y).max(0.0) / 0.05).powi(2)
            }
            _ => {
                let want = if joint == 5 { 1.0 } else { -1.0 };
                side(want) + ((y - min_y) / 0.04).powi(2) + (end_gap(s) / 0.03).powi(2)
            }
        }
    };
    let mut candidates: Vec<Vec<(f32, usize)>> = Vec::with_capacity(REDUCED);
    for joint in 0..REDUCED {
        let mut list: Vec<(f32, usize)> = usable.iter().map(|&s| (unary(joint, s), s)).collect();
        list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        list.truncate(CANDIDATES);
        candidates.push(list);
    }
    let least_unary: Vec<f32> = candidates.iter().map(|l| l.first().map_or(0.0, |c| c.0)).collect();
    let rest_bound = |placed: usize| least_unary[placed..].iter().sum::<f32>();
    // Penalty of the bones and pairs completed by placing joint `j` on sphere `s`.
    let pair_penalty = |assigned: &[usize], j: usize, s: usize| -> f32 {
        let mut p = 0.0;
        for (b, &(u, v)) in BONES.iter().enumerate() {
            if v != j || u >= assigned.len() {
                continue;
            }
            let a = assigned[u];
            let length = graph.d(a, s);
            if !length.is_finite() {
                return f32::INFINITY;
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
        // No two bones may run down the same part of the graph, except near a joint they share.
        if let Some(b) = BONES.iter().position(|&(_, v)| v == j)
            && BONES[b].0 < assigned.len()
        {
            let (u, _) = BONES[b];
            let here = graph.path(assigned[u], s);
            for &(u2, v2) in BONES.iter().take_while(|&&(_, v2)| v2 < j) {
                if v2 >= assigned.len() {
                    continue;
                }
                let shared_joints: Vec<usize> = [u2, v2].into_iter().filter(|&x| x == u).map(|x| assigned[x]).collect();
                let other = graph.path(assigned[u2], assigned[v2]);
                let shared = here
                    .iter()
                    .filter(|t| {
                        other.contains(t)
                            && shared_joints.iter().all(|&c| spheres[**t].centre.distance(spheres[c].centre) > 0.12 * h)
                    })
                    .count();
                if shared > 0 {
                    p += 10.0 + shared as f32;
                }
            }
        }
        // Left–right symmetry about the parent joint.
        let mirror = |l: usize, r: usize, about: usize| -> f32 {
            let (a, b, m) = (spheres[l].centre, spheres[r].centre, spheres[about].centre);
            let d = Vec3::new((a.x - m.x) + (b.x - m.x), a.y - b.y, a.z - b.z) / h;
            (d.length() / 0.06).powi(2)
        };
        if j == 4 {
            p += mirror(assigned[3], s, assigned[1]);
        }
        if j == 6 {
            p += mirror(assigned[5], s, assigned[0]);
        }
        p
    };
    // (lower bound, insertion order, placed spheres, penalty so far as f32 bits)
    type Entry = Reverse<(Key, u64, Vec<usize>, u32)>;
    let mut heap: BinaryHeap<Entry> = BinaryHeap::new();
    let mut seq = 0u64;
    heap.push(Reverse((Key(rest_bound(0)), seq, Vec::new(), 0f32.to_bits())));
    let mut expansions = 0usize;
    while let Some(Reverse((_, _, assigned, cost_bits))) = heap.pop() {
        let cost = f32::from_bits(cost_bits);
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
        for &(u, s) in &candidates[j] {
            if assigned.contains(&s) {
                continue;
            }
            let next_cost = cost + u + pair_penalty(&assigned, j, s);
            if next_cost.is_nan() || next_cost >= PRUNE {
                continue;
            }
            let mut next = assigned.clone();
            next.push(s);
            seq += 1;
            heap.push(Reverse((Key(next_cost + rest_bound(j + 1)), seq, next, next_cost.to_bits())));
        }
    }
    Err(RigError::Unriggable(
        "no placement of a standing humanoid skeleton (head up, two arms, two legs on the floor) fits this shape"
            .into(),
    ))
}

/// Cross-sections of the voxel body: the face-and-corner-connected inside voxels of a thin slab
/// through a point, within a radius.
struct Sections<'a> {
    body: &'a VoxelBody,
    stamp: Vec<u32>,
    generation: u32,
    stack: Vec<IVec3>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Section {
    count: usize,
    centroid: Vec3,
    /// Whether the probe voxel (if any) was reached.
    reached_probe: bool,
}

impl<'a> Sections<'a> {
    fn new(body: &'a VoxelBody) -> Self {
        Self { body, stamp: vec![0; body.inside.len()], generation: 0, stack: Vec::new() }
    }

    /// The slab section through `p` with unit `normal`, at most `radius` from `p`; `probe` is
    /// a point whose membership is reported.
    fn section(&mut self, p: Vec3, normal: Vec3, radius: f32, probe: Option<Vec3>) -> Section {
        let body = self.body;
        self.generation += 1;
        let g = self.generation;
        let half = 0.6 * body.cell_m;
        let within = |c: Vec3| {
            let d = c - p;
            let along = d.dot(normal);
            along.abs() <= half && (d - normal * along).length_squared() <= radius * radius
        };
        // Start at the inside slab voxel nearest p (within two cells).
        let v0 = body.voxel_of(p);
        let mut start = None;
        let mut best = f32::MAX;
        for z in -2..=2 {
            for y in -2..=2 {
                for x in -2..=2 {
                    let v = v0 + IVec3::new(x, y, z);
                    if let Some(i) = body.index(v)
                        && body.inside[i]
                        && within(body.centre(v))
                    {
                        let d = body.centre(v).distance(p);
                        if d < best {
                            best = d;
                            start = Some(v);
                        }
                    }
                }
            }
        }
        let Some(start) = start else { return Section::default() };
        let probe_voxel = probe.map(|q| body.voxel_of(q));
        let mut out = Section::default();
        let mut sum = Vec3::ZERO;
        self.stack.clear();
        self.stack.push(start);
        if let Some(i) = body.index(start) {
            self.stamp[i] = g;
        }
        while let Some(v) = self.stack.pop() {
            let c = body.centre(v);
            sum += c;
            out.count += 1;
            if let Some(q) = probe_voxel
                && (q - v).abs().max_element() <= 1
            {
                out.reached_probe = true;
            }
            for z in -1..=1 {
                for y in -1..=1 {
                    for x in -1..=1 {
                        let w = v + IVec3::new(x, y, z);
                        let Some(i) = body.index(w) else { continue };
                        if self.stamp[i] == g || !body.inside[i] || !within(body.centre(w)) {
                            continue;
                        }
                        self.stamp[i] = g;
                        self.stack.push(w);
                    }
                }
            }
        }
        out.centroid = sum / out.count.max(1) as f32;
        out
    }
}

/// Point of a polyline at height `y` (the first crossing from its start; else the nearest end).
fn point_at_height(path: &[Vec3], y: f32) -> Vec3 {
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.y - y) * (b.y - y) <= 0.0 && (a.y - b.y).abs() > 1e-9 {
            return a.lerp(b, (a.y - y) / (a.y - b.y));
        }
    }
    let first = path.first().copied().unwrap_or(Vec3::ZERO);
    let last = path.last().copied().unwrap_or(first);
    if (first.y - y).abs() < (last.y - y).abs() { first } else { last }
}

/// Polyline arc-length parameterisation.
struct Polyline {
    points: Vec<Vec3>,
    arc: Vec<f32>,
}

impl Polyline {
    fn new(points: Vec<Vec3>) -> Self {
        let mut arc = vec![0.0];
        for w in points.windows(2) {
            let last = arc.last().copied().unwrap_or(0.0);
            arc.push(last + w[0].distance(w[1]));
        }
        Self { points, arc }
    }

    fn length(&self) -> f32 {
        self.arc.last().copied().unwrap_or(0.0)
    }

    fn at(&self, s: f32) -> Vec3 {
        let s = s.clamp(0.0, self.length());
        for k in 1..self.arc.len() {
            if self.arc[k] >= s {
                let span = (self.arc[k] - self.arc[k - 1]).max(1e-9);
                return self.points[k - 1].lerp(self.points[k], (s - self.arc[k - 1]) / span);
            }
        }
        self.points.last().copied().unwrap_or(Vec3::ZERO)
    }

    /// Direction at `s`, smoothed over ±`window`.
    fn direction(&self, s: f32, window: f32) -> Vec3 {
        (self.at(s + window) - self.at(s - window)).normalize_or(Vec3::Y)
    }
}

struct Leg {
    hip: Vec3,
    knee: Vec3,
    ankle: Vec3,
    ball: Vec3,
    toe_tip: Vec3,
    heel: Vec3,
}

struct Arm {
    shoulder: Vec3,
    elbow: Vec3,
    wrist: Vec3,
    fingertip: Vec3,
}

struct Trunk {
    pelvis: Vec3,
    spine: Vec3,
    chest: Vec3,
    neck: Vec3,
    head: Vec3,
    head_top: Vec3,
}

struct Refiner<'a> {
    body: &'a VoxelBody,
    frame: BodyFrame,
    sections: Sections<'a>,
}

impl Refiner<'_> {
    fn horizontal(&mut self, at: Vec3, probe: Option<Vec3>) -> Section {
        self.sections.section(at, Vec3::Y, 0.25 * self.frame.height, probe)
    }

    /// A leg from its graph path (pelvis → toe) and the other leg's path: the crotch is where
    /// the horizontal sections of the two legs join; the ankle where the section grows into
    /// the foot; the knee halfway; the hip a little above the crotch on the thigh's axis.
    fn leg(&mut self, path: &[Vec3], other: &[Vec3]) -> Leg {
        let f = self.frame;
        let h = f.height;
        let cell = self.body.cell_m;
        let top = path.first().map_or(f.y_at(0.5), |p| p.y);
        // Crotch: scanning down, the first height where the legs' sections part.
        let mut crotch_y = f.y_at(0.45);
        let mut y = top;
        while y > f.y_at(0.15) {
            let here = point_at_height(path, y);
            let there = point_at_height(other, y);
            let s = self.horizontal(here, Some(there));
            if s.count > 0 && !s.reached_probe {
                crotch_y = y;
                break;
            }
            y -= cell;
        }
        // The leg's centre line: section centroids from just below the crotch downwards.
        let centre_at = |me: &mut Self, y: f32| -> Vec3 {
            let p = point_at_height(path, y);
            let s = me.horizontal(Vec3::new(p.x, y, p.z), None);
            if s.count > 0 { s.centroid } else { Vec3::new(p.x, y, p.z) }
        };
        // Ankle: the lowest height where the section has shrunk to near the shin's size.
        let shin_centre = centre_at(self, f.y_at(0.15));
        let shin = self.horizontal(shin_centre, None).count.max(1);
        let mut ankle_y = f.y_at(0.05);
        let mut y = f.floor_y + cell;
        let mut seen_foot = false;
        while y < f.y_at(0.15) {
            let c = centre_at(self, y);
            let s = self.horizontal(c, None);
            seen_foot |= s.count as f32 > 1.5 * shin as f32;
            if seen_foot && s.count > 0 && (s.count as f32) < 1.25 * shin as f32 {
                ankle_y = y;
                break;
            }
            y += cell;
        }
        let ankle = centre_at(self, ankle_y + 0.02 * h);
        let ankle = Vec3::new(ankle.x, ankle_y, ankle.z);
        let hip_y = crotch_y + 0.045 * h;
        let thigh_top = centre_at(self, crotch_y - 0.03 * h);
        let knee_y = ankle_y + 0.5 * (hip_y - ankle_y);
        let knee = centre_at(self, knee_y);
        let axis = (thigh_top - knee).normalize_or(Vec3::Y);
        let hip = if axis.y > 0.2 {
            knee + axis * ((hip_y - knee.y) / axis.y)
        } else {
            Vec3::new(thigh_top.x, hip_y, thigh_top.z)
        };
        // The foot: inside voxels below the ankle reached from the toe end of the path.
        let foot_start = path.last().copied().unwrap_or(ankle);
        let (toe_tip, heel, ball) = self.foot(foot_start, ankle_y);
        Leg { hip, knee, ankle, ball, toe_tip, heel }
    }

    /// Toe tip (front-most), heel (back-most) and ball of the foot region below `ankle_y`.
    fn foot(&mut self, start: Vec3, ankle_y: f32) -> (Vec3, Vec3, Vec3) {
        let body = self.body;
        let f = self.frame;
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![body.voxel_of(start)];
        let mut voxels = Vec::new();
        while let Some(v) = stack.pop() {
            let Some(i) = body.index(v) else { continue };
            if !body.inside[i] || body.centre(v).y > ankle_y || !seen.insert(i) || voxels.len() > 200_000 {
                continue;
            }
            voxels.push(body.centre(v));
            for d in [IVec3::X, IVec3::NEG_X, IVec3::Y, IVec3::NEG_Y, IVec3::Z, IVec3::NEG_Z] {
                stack.push(v + d);
            }
        }
        if voxels.is_empty() {
            return (start, start, start);
        }
        let front = voxels.iter().copied().fold(voxels[0], |a, b| if b.z > a.z { b } else { a });
        let back = voxels.iter().copied().fold(voxels[0], |a, b| if b.z < a.z { b } else { a });
        let ball_z = back.z + 0.72 * (front.z - back.z);
        let near: Vec<Vec3> = voxels.iter().copied().filter(|v| (v.z - ball_z).abs() < body.cell_m).collect();
        let ball_x = if near.is_empty() { front.x } else { near.iter().map(|v| v.x).sum::<f32>() / near.len() as f32 };
        let on_floor = |p: Vec3| Vec3::new(p.x, f.floor_y, p.z);
        (on_floor(front), on_floor(back), Vec3::new(ball_x, f.y_at(0.012), ball_z))
    }

    /// An arm from its graph path (shoulder junction → hand end): the fingertip is the
    /// farthest inside point past the hand end, the wrist the narrowest section near the hand,
    /// the armpit where the section first jumps in size towards the body; the shoulder lies
    /// half an arm radius inside the armpit on the upper arm's axis; the elbow near halfway.
    fn arm(&mut self, path: &[Vec3]) -> Arm {
        let h = self.frame.height;
        let cell = self.body.cell_m;
        let line = Polyline::new(path.to_vec());
        let end = line.at(line.length());
        let dir = (end - line.at(0.6 * line.length())).normalize_or(Vec3::NEG_Y);
        let fingertip = self.farthest_along(end, dir, 0.2 * h);
        // From the fingertip back along the path.
        let mut back: Vec<Vec3> = vec![fingertip];
        back.extend(path.iter().rev().copied());
        let arm = Polyline::new(back);
        let window = 0.02 * h;
        let radius = 0.12 * h;
        let steps = (arm.length() / cell).floor() as usize;
        let areas: Vec<(f32, Section)> = (0..steps)
            .map(|k| {
                let s = k as f32 * cell;
                (s, self.sections.section(arm.at(s), arm.direction(s, window), radius, None))
            })
            .collect();
        let area =
            |s: f32| areas.iter().min_by(|a, b| (a.0 - s).abs().total_cmp(&(b.0 - s).abs())).map_or(0, |a| a.1.count);
        // The palm is the widest section near the fingertip; the wrist the narrowest behind it.
        let palm_s = areas
            .iter()
            .filter(|(s, _)| (0.02 * h..=0.1 * h).contains(s))
            .max_by(|a, b| a.1.count.cmp(&b.1.count).then(b.0.total_cmp(&a.0)))
            .map_or(0.05 * h, |a| a.0);
        let wrist_s = areas
            .iter()
            .filter(|(s, sec)| (palm_s + 0.02 * h..=palm_s + 0.12 * h).contains(s) && sec.count > 0)
            .min_by(|a, b| a.1.count.cmp(&b.1.count).then(a.0.total_cmp(&b.0)))
            .map_or(0.1 * h, |a| a.0);
        // Typical forearm section: the median over the next 0.12 h.
        let mut forearm: Vec<usize> =
            areas.iter().filter(|(s, _)| (wrist_s..=wrist_s + 0.12 * h).contains(s)).map(|a| a.1.count).collect();
        forearm.sort_unstable();
        let typical = forearm.get(forearm.len() / 2).copied().unwrap_or(1).max(1);
        let armpit_s = areas
            .iter()
            .filter(|(s, sec)| {
                *s > (wrist_s + 0.12 * h).max(0.45 * arm.length()) && sec.count as f32 > 3.0 * typical as f32
            })
            .map(|a| a.0)
            .next()
            .unwrap_or(0.8 * arm.length());
        let arm_radius = (typical as f32 * cell * cell / std::f32::consts::PI).sqrt();
        let _ = area;
        let centroid = |me: &mut Self, s: f32| {
            let sec = me.sections.section(arm.at(s), arm.direction(s, window), radius, None);
            if sec.count > 0 { sec.centroid } else { arm.at(s) }
        };
        let upper_a = centroid(self, armpit_s - 0.03 * h);
        let upper_b = centroid(self, 0.5 * (armpit_s + wrist_s) + 0.05 * h);
        let axis = (upper_a - upper_b).normalize_or(arm.direction(armpit_s, window));
        // Raised arms (T-pose) meet the body at the armpit; lowered arms (A-pose, arms down)
        // reach further in: the joint sits deeper the more the upper arm hangs.
        let hang = (axis.y / 0.6).clamp(0.0, 1.0);
        let shoulder = upper_a + axis * (hang * (0.045 * h + 0.5 * arm_radius));
        let wrist = centroid(self, wrist_s);
        let shoulder_s = armpit_s + 0.5 * arm_radius;
        let elbow = centroid(self, wrist_s + 0.48 * (shoulder_s - wrist_s));
        Arm { shoulder, elbow, wrist, fingertip }
    }

    /// The inside voxel connected to `from` (within `radius`) farthest along `dir`.
    fn farthest_along(&mut self, from: Vec3, dir: Vec3, radius: f32) -> Vec3 {
        let body = self.body;
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![body.voxel_of(from)];
        let mut best = (from.dot(dir), from);
        while let Some(v) = stack.pop() {
            let Some(i) = body.index(v) else { continue };
            let c = body.centre(v);
            if !body.inside[i] || c.distance(from) > radius || (c - from).dot(dir) < -0.5 * radius || !seen.insert(i) {
                continue;
            }
            let along = c.dot(dir);
            if along > best.0 {
                best = (along, c);
            }
            for d in [IVec3::X, IVec3::NEG_X, IVec3::Y, IVec3::NEG_Y, IVec3::Z, IVec3::NEG_Z] {
                stack.push(v + d);
            }
        }
        best.1
    }

    /// The trunk: pelvis a little above the hips; neck and head about the narrowest
    /// horizontal section between the shoulders and the head top; spine and chest between.
    fn trunk(&mut self, hip_mid: Vec3, shoulder_mid: Vec3, head_path: &[Vec3], top_y: f32) -> Trunk {
        let h = self.frame.height;
        let cell = self.body.cell_m;
        let centre = |me: &mut Self, at: Vec3| {
            let s = me.horizontal(at, None);
            if s.count > 0 { Vec3::new(s.centroid.x, at.y, s.centroid.z) } else { at }
        };
        let pelvis_guess = Vec3::new(hip_mid.x, hip_mid.y + 0.025 * h, hip_mid.z);
        let pelvis = centre(self, pelvis_guess);
        let mut narrow = (usize::MAX, shoulder_mid.y + 0.05 * h);
        let mut y = shoulder_mid.y;
        while y < top_y - 0.08 * h {
            let p = point_at_height(head_path, y);
            let s = self.horizontal(Vec3::new(p.x, y, p.z), None);
            if s.count > 0 && s.count < narrow.0 {
                narrow = (s.count, y);
            }
            y += cell;
        }
        let neck_y = (narrow.1 - 0.015 * h).max(shoulder_mid.y + 0.01 * h);
        let head_y = (narrow.1 + 0.03 * h).min(top_y - 0.04 * h).max(neck_y + 0.01 * h);
        let at = |y: f32| {
            let p = point_at_height(head_path, y);
            Vec3::new(p.x, y, p.z)
        };
        let neck = centre(self, at(neck_y));
        let head = centre(self, at(head_y));
        let lerp_y = |t: f32| pelvis.y + t * (neck.y - pelvis.y);
        let spine_at = pelvis.lerp(neck, 0.19);
        let chest_at = pelvis.lerp(neck, 0.58);
        let spine = centre(self, Vec3::new(spine_at.x, lerp_y(0.19), spine_at.z));
        let chest = centre(self, Vec3::new(chest_at.x, lerp_y(0.58), chest_at.z));
        Trunk { pelvis, spine, chest, neck, head, head_top: Vec3::new(head.x, top_y, head.z) }
    }
}
