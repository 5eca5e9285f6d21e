//! Embedding the project's skeleton into a voxel body, after Pinocchio (Baran & Popović 2007):
//! medial samples of the distance field packed into spheres, a graph of the spheres whose joining
//! segment stays inside, the skeleton reduced to its seven joints of degree ≠ 2 (pelvis, shoulder
//! junction, head top, fingertips, toe tips), a best-first branch-and-bound search over assignments
//! of those to spheres minimising a penalty, re-insertion of the other joints along the chosen
//! graph paths, then refinement of each joint onto the limb's cross-section centre and anatomical
//! landmarks (crotch, armpit, wrist narrowing, neck).
//!
//! The distance field is exact and Euclidean, 150 voxels per height; graph edges stay half a radius
//! deep. The penalty's unary terms are height bands, sides and graph ends (the head top a local
//! top, the fingertips and toe tips ends seen from the largest sphere); its pairwise terms a bone
//! length within e^±0.4 of the average for free, bone direction, left–right symmetry, the
//! shoulder junction on the graph path from one fingertip to the other and no two bones down one
//! limb; the first complete placement off the queue is the best. Landmarks: the
//! crotch where the legs' sections part (looked for down to 5 % of the height), the ankle where the
//! section grows into the foot (looked for lower on legs whose crotch is under 20 %), the knee
//! halfway, the wrist at the narrowest section behind the palm (an arm whose sections only taper to
//! its end, a mannequin without hands, has its wrist 3 % of the height from that end; an arm longer
//! than half the height whose hand is not found on the height's scale is searched on its own), the
//! armpit where the arm's section jumps (a hanging arm's shoulder 3 % of the height under where
//! the upper arm's axis leaves the shoulder's top), the neck at the narrowest section under the head.

mod confidence;
mod refine;
mod search;

pub use confidence::{Evidence, JointEvidence, LIMBS, Landmarks, Weights};

use refine::{Refiner, Sections};
use search::{Graph, discrete_embedding};

use glam::{IVec3, Vec3};

use super::RigError;
use super::voxel::VoxelBody;
use crate::pose::skeleton::{JOINT_COUNT, JointId, Side};

/// Most spheres kept (Pinocchio's default packing limit).
pub const MAX_SPHERES: usize = 1000;
/// Most partial embeddings taken off the queue before the search gives up.
pub const MAX_EXPANSIONS: usize = 400_000;

/// Sureness under which a joint is named among those a rig is least sure of: the cut-off that
/// names a joint far off (over 8 % of the height) on as many calibration rigs as 0.85 does, and
/// well-placed joints (under 4 %) a third less often (`rig_calibrate` prints the table).
pub const LEAST_SURE_BELOW: f32 = 0.8;

/// The joints of `sureness` (by [`JointId::index`]) under `cut_off`, least sure first, at most
/// four.
pub fn least_sure_of(sureness: &[f32; JOINT_COUNT], cut_off: f32) -> Vec<(JointId, f32)> {
    let mut joints: Vec<(JointId, f32)> =
        JointId::ALL.iter().map(|&j| (j, sureness[j.index()])).filter(|&(_, s)| s < cut_off).collect();
    joints.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.index().cmp(&b.0.index())));
    joints.truncate(4);
    joints
}

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
    /// 0–1: how sure the embedding is (see [`Embedding::least_sure`] for the joints).
    pub confidence: f32,
    /// 0–1 per joint by [`JointId::index`] (1 off the limbs), from [`Embedding::evidence`].
    pub sureness: [f32; JOINT_COUNT],
    /// Which landmarks the refinement found.
    pub landmarks: Landmarks,
    /// What the confidence is made of.
    pub evidence: Evidence,
}

impl Embedding {
    /// The joints it is least sure of (sureness under [`LEAST_SURE_BELOW`]), least sure first, at
    /// most four.
    pub fn least_sure(&self) -> Vec<(JointId, f32)> {
        self.least_sure_below(LEAST_SURE_BELOW)
    }

    /// The joints of sureness under `cut_off`, least sure first, at most four.
    pub fn least_sure_below(&self, cut_off: f32) -> Vec<(JointId, f32)> {
        least_sure_of(&self.sureness, cut_off)
    }

    /// The ends of the bones past the joints (head top, fingertips, toe tips), with the joint each ends.
    fn tips(&self) -> [(JointId, Vec3); 5] {
        [
            (JointId::Head, self.head_top),
            (JointId::WristL, self.fingertips[0]),
            (JointId::WristR, self.fingertips[1]),
            (JointId::BallL, self.toe_tips[0]),
            (JointId::BallR, self.toe_tips[1]),
        ]
    }

    /// Measures the evidence, sureness and confidence again for the joints as they are now (a
    /// tool moves one to see the terms react), in `body`: the voxel body it was embedded in.
    pub fn rescore(&mut self, body: &VoxelBody) {
        let Some((frame, _)) = body_frame(body) else { return };
        let tips = self.tips();
        self.evidence = confidence::measure(&self.joints_in_rig, &tips, &self.landmarks, body, &frame, self.penalty);
        self.sureness = self.evidence.sureness();
        self.confidence = self.evidence.confidence(&Weights::FITTED);
    }
}

/// The body's floor and height, and its top; `None` for an empty body.
fn body_frame(body: &VoxelBody) -> Option<(BodyFrame, f32)> {
    let (lo, hi) = body.inside_bounds()?;
    let floor_y = lo.y - 0.5 * body.cell_m;
    let top_y = hi.y + 0.5 * body.cell_m;
    Some((BodyFrame { floor_y, height: top_y - floor_y }, top_y))
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
    let (frame, top_y) = body_frame(body).ok_or_else(|| RigError::Unriggable("the mesh encloses no volume".into()))?;
    let height = frame.height;
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
    let trunk = refine.trunk(hip_mid, shoulder_mid, &head_path, top_y);
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
            // Above the chest even where the shoulders sit low on a thick trunk.
            (arm.shoulder.y - 0.012 * height).max(trunk.chest.y + 0.01 * height),
            0.5 * (arm.shoulder.z + trunk.neck.z),
        );
        put(clavicle, c);
        put(shoulder, arm.shoulder);
        put(elbow, arm.elbow);
        put(wrist, arm.wrist);
        put(hand, arm.wrist + 0.5 * (arm.fingertip - arm.wrist));
    }
    let toes_forward =
        |leg: &refine::Leg| (leg.toe_tip.z - leg.heel.z) > 0.0 && (leg.ball.z - leg.ankle.z) > 0.01 * height;
    let landmarks = Landmarks {
        crotch: legs.each_ref().map(|l| l.crotch_found),
        ankle: legs.each_ref().map(|l| l.ankle_found),
        armpit: arms.each_ref().map(|a| a.armpit_found),
        hand: arms.each_ref().map(|a| a.hand_found),
        toes_forward: legs.each_ref().map(toes_forward),
    };
    let tips = [
        (JointId::Head, trunk.head_top),
        (JointId::WristL, arms[0].fingertip),
        (JointId::WristR, arms[1].fingertip),
        (JointId::BallL, legs[0].toe_tip),
        (JointId::BallR, legs[1].toe_tip),
    ];
    let evidence = confidence::measure(&joints, &tips, &landmarks, body, &frame, search.penalty);
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
        confidence: evidence.confidence(&Weights::FITTED),
        sureness: evidence.sureness(),
        landmarks,
        evidence,
    })
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
