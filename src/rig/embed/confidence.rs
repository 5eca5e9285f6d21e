//! How sure the embedding is, from what can be measured on the rig alone (no reference): per
//! limb joint the [`JointEvidence`] (left–right disagreement, a landmark not found, off the
//! centre of its limb's cross-section or outside the body, proportions outside the human range,
//! toes not forward, bones outside the body, body volume no bone explains), weighed into a
//! sureness `exp(-Σ weight × term)`. The rig's confidence blends the mean and the worst limb
//! sureness, times a factor of the search's penalty; the fitted weights ([`Weights::FITTED`],
//! rounded from the `rig_calibrate` tool's search over stored, stretched, cartoon, fused, cut,
//! shaken and forced-off rigs of the shared meshes and the stored and stretched built-in bodies)
//! give the worst joint over a third of the
//! blend, so one joint far off (a rig with a single joint forced 8–10 % of the height off) falls
//! under 0.8, and leave the penalty out: it measures unusual proportions (a big head) more than
//! misplaced joints.

use glam::Vec3;

use super::BodyFrame;
use super::refine::Sections;
use crate::body::segment::distance_to_segment;
use crate::pose::skeleton::{JOINT_COUNT, JointId};
use crate::rig::voxel::VoxelBody;

/// The twelve limb joints the confidence is made of, left then right of each pair.
pub const LIMBS: [JointId; 12] = [
    JointId::ShoulderL,
    JointId::ShoulderR,
    JointId::ElbowL,
    JointId::ElbowR,
    JointId::WristL,
    JointId::WristR,
    JointId::HipL,
    JointId::HipR,
    JointId::KneeL,
    JointId::KneeR,
    JointId::AnkleL,
    JointId::AnkleR,
];

/// Which landmarks the refinement found, left then right (else it fell back to a fixed fraction).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Landmarks {
    /// Where the legs' sections part.
    pub crotch: [bool; 2],
    /// Where the leg's section grows into the foot.
    pub ankle: [bool; 2],
    /// Where the arm's section jumps to the trunk.
    pub armpit: [bool; 2],
    /// A hand wider than its wrist.
    pub hand: [bool; 2],
    /// The foot reaches forward of the ankle.
    pub toes_forward: [bool; 2],
}

/// What the rig measures about one limb joint; every term is 0 on a clean rig.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointEvidence {
    /// Distance from the mirror image (about the pelvis) of its other-side twin, % of the height.
    pub mirror_off_pct: f32,
    /// 1 where its own landmark was not found, 0.5 where a neighbour's was not.
    pub guessed: f32,
    /// Distance from the centre of its limb's cross-section beyond a third of the section's
    /// radius, in radii (2 outside the body); for a hip, 2 more below the crotch.
    pub off_centre: f32,
    /// How far the proportions it sets lie outside the human range, in the range's spreads.
    pub out_of_range: f32,
    /// 1 for an ankle whose foot does not reach forward.
    pub toes_back: f32,
    /// Share (0–1) of its limb bones (to the joints next along the limb) outside the body.
    pub bone_outside: f32,
    /// Body volume below the neck far from every bone (further than twice its own depth plus
    /// 10 % of the height), nearest this joint, in % of the body's volume.
    pub unexplained_pct: f32,
}

/// The rig's evidence: the search's penalty and each limb joint's terms (by [`LIMBS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Evidence {
    /// Penalty of the discrete embedding (0 = ideal).
    pub penalty: f32,
    /// By [`LIMBS`].
    pub joints: [JointEvidence; 12],
}

/// How much each term costs; a joint's sureness is `exp(-cost)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per % of the height of left–right disagreement.
    pub mirror_per_pct: f32,
    /// Per landmark not found.
    pub guessed: f32,
    /// Per section radius off centre.
    pub off_centre: f32,
    /// Per spread outside the human range.
    pub out_of_range: f32,
    /// For a foot that does not reach forward.
    pub toes_back: f32,
    /// Per share of its bones outside the body.
    pub bone_outside: f32,
    /// Per % of the body's volume unexplained.
    pub unexplained_per_pct: f32,
    /// Per unit of the search's penalty (applied to the rig as a whole).
    pub penalty: f32,
    /// Share of the worst limb sureness in the blend with the mean (0–1).
    pub worst_share: f32,
}

impl Weights {
    /// Rounded from `rig_calibrate --fit` (see the module doc); off centre, out of range and
    /// unexplained volume carry the ranking, the worst joint a third of the blend, the others
    /// little.
    pub const FITTED: Weights = Weights {
        mirror_per_pct: 0.026,
        guessed: 0.032,
        off_centre: 0.2,
        out_of_range: 0.35,
        toes_back: 0.02,
        bone_outside: 0.024,
        unexplained_per_pct: 0.54,
        penalty: 0.0,
        worst_share: 0.37,
    };
}

impl Evidence {
    /// The evidence of limb joint `j`; `None` for a joint off the limbs (not in [`LIMBS`]).
    pub fn limb(&self, j: JointId) -> Option<&JointEvidence> {
        slot(j).map(|k| &self.joints[k])
    }

    fn limb_mut(&mut self, j: JointId) -> Option<&mut JointEvidence> {
        slot(j).map(|k| &mut self.joints[k])
    }

    /// Limb sureness (by [`LIMBS`]), 0–1.
    pub fn limb_sureness(&self, w: &Weights) -> [f32; 12] {
        self.joints.map(|e| {
            let cost = w.mirror_per_pct * e.mirror_off_pct
                + w.guessed * e.guessed
                + w.off_centre * e.off_centre
                + w.out_of_range * e.out_of_range
                + w.toes_back * e.toes_back
                + w.bone_outside * e.bone_outside
                + w.unexplained_per_pct * e.unexplained_pct;
            (-cost).exp()
        })
    }

    /// The rig's confidence, 0–1.
    pub fn confidence(&self, w: &Weights) -> f32 {
        let sure = self.limb_sureness(w);
        let mean = sure.iter().sum::<f32>() / sure.len() as f32;
        let worst = sure.iter().copied().fold(1.0f32, f32::min);
        let blend = (1.0 - w.worst_share) * mean + w.worst_share * worst;
        ((-w.penalty * self.penalty).exp() * blend).clamp(0.0, 1.0)
    }

    /// Per joint sureness (by [`JointId::index`]; 1 off the limbs) with [`Weights::FITTED`].
    pub fn sureness(&self) -> [f32; JOINT_COUNT] {
        let mut out = [1.0f32; JOINT_COUNT];
        for (j, s) in LIMBS.iter().zip(self.limb_sureness(&Weights::FITTED)) {
            out[j.index()] = s;
        }
        out
    }
}

/// 0 inside `[lo, hi]`, else how far beyond either end in units of `spread`.
fn beyond(x: f32, lo: f32, hi: f32, spread: f32) -> f32 {
    (lo - x).max(x - hi).max(0.0) / spread
}

/// Position of `j` in [`LIMBS`]; `None` for a joint off the limbs.
fn slot(j: JointId) -> Option<usize> {
    LIMBS.iter().position(|&l| l == j)
}

/// Measures the evidence of the joints `joints` (rig frame) found in `body`; `tips`: the ends of
/// the bones past the joints (head top, fingertips, toe tips) with the joint each ends.
pub(super) fn measure(
    joints: &[Vec3; JOINT_COUNT],
    tips: &[(JointId, Vec3)],
    landmarks: &Landmarks,
    body: &VoxelBody,
    frame: &BodyFrame,
    penalty: f32,
) -> Evidence {
    let mut e = Evidence { penalty, ..Evidence::default() };
    mirror(joints, frame, &mut e);
    guessed(landmarks, &mut e);
    proportions(joints, frame, &mut e);
    centred(joints, body, frame, &mut e);
    outside(joints, body, &mut e);
    unexplained(joints, tips, body, frame, &mut e);
    for (side, ankle) in [JointId::AnkleL, JointId::AnkleR].into_iter().enumerate() {
        if !landmarks.toes_forward[side]
            && let Some(x) = e.limb_mut(ankle)
        {
            x.toes_back = 1.0;
        }
    }
    e
}

/// Left–right agreement, mirrored about the pelvis.
fn mirror(joints: &[Vec3; JOINT_COUNT], frame: &BodyFrame, e: &mut Evidence) {
    let pelvis_x = joints[JointId::Pelvis.index()].x;
    for pair in LIMBS.chunks(2) {
        let (a, b) = (joints[pair[0].index()], joints[pair[1].index()]);
        let off = 100.0 * a.distance(Vec3::new(2.0 * pelvis_x - b.x, b.y, b.z)) / frame.height;
        if let Some(x) = e.limb_mut(pair[0]) {
            x.mirror_off_pct = off;
        }
        if let Some(x) = e.limb_mut(pair[1]) {
            x.mirror_off_pct = off;
        }
    }
}

/// Landmarks not found: the joint they place, and half for the joint placed from it.
fn guessed(landmarks: &Landmarks, e: &mut Evidence) {
    use JointId::*;
    let sides = [(HipL, KneeL, AnkleL, ShoulderL, ElbowL, WristL), (HipR, KneeR, AnkleR, ShoulderR, ElbowR, WristR)];
    for (side, (hip, knee, ankle, shoulder, elbow, wrist)) in sides.into_iter().enumerate() {
        let mut add = |j: JointId, share: f32| {
            if let Some(x) = e.limb_mut(j) {
                x.guessed += share;
            }
        };
        if !landmarks.crotch[side] {
            add(hip, 1.0);
            add(knee, 1.0);
        }
        if !landmarks.ankle[side] {
            add(ankle, 1.0);
            add(knee, 0.5);
        }
        if !landmarks.armpit[side] {
            add(shoulder, 1.0);
            add(elbow, 0.5);
        }
        if !landmarks.hand[side] {
            add(wrist, 1.0);
        }
    }
}

/// Leg, arm and shoulder proportions against a humanoid range.
fn proportions(joints: &[Vec3; JOINT_COUNT], frame: &BodyFrame, e: &mut Evidence) {
    use JointId::*;
    let h = frame.height;
    let at = |j: JointId| joints[j.index()];
    for (hip, knee, ankle) in [(HipL, KneeL, AnkleL), (HipR, KneeR, AnkleR)] {
        let hip_height = beyond(frame.rel_y(at(hip)), 0.33, 0.58, 0.12);
        let thigh = at(hip).distance(at(knee));
        let shank = at(knee).distance(at(ankle));
        if let Some(x) = e.limb_mut(hip) {
            x.out_of_range += hip_height;
        }
        if let Some(x) = e.limb_mut(knee) {
            x.out_of_range += hip_height + beyond(thigh / shank.max(1e-6), 0.7, 1.45, 0.5);
        }
    }
    let half_width = 0.5 * (at(ShoulderL).x - at(ShoulderR).x) / h;
    for (shoulder, elbow, wrist) in [(ShoulderL, ElbowL, WristL), (ShoulderR, ElbowR, WristR)] {
        let upper = at(shoulder).distance(at(elbow)) / h;
        let fore = at(elbow).distance(at(wrist)) / h;
        if let Some(x) = e.limb_mut(elbow) {
            x.out_of_range += beyond(upper / fore.max(1e-6), 0.75, 1.6, 0.5);
        }
        if let Some(x) = e.limb_mut(shoulder) {
            x.out_of_range +=
                beyond(frame.rel_y(at(shoulder)), 0.45, 0.86, 0.12) + beyond(half_width, 0.06, 0.16, 0.08);
        }
        if let Some(x) = e.limb_mut(wrist) {
            x.out_of_range += beyond(upper + fore, 0.22, 0.42, 0.1);
        }
    }
}

/// Each limb joint against its limb's cross-section: the section across the limb (elbow, wrist,
/// knee, ankle; the ankle's 2 % of the height up the shin, above the foot) or, for the shoulder
/// and hip (sections there take in the trunk), whether it lies inside the body, and for the hip
/// whether it lies above the crotch.
fn centred(joints: &[Vec3; JOINT_COUNT], body: &VoxelBody, frame: &BodyFrame, e: &mut Evidence) {
    use JointId::*;
    let h = frame.height;
    let at = |j: JointId| joints[j.index()];
    let mut sections = Sections::new(body);
    let across = [
        (ElbowL, ShoulderL, WristL, 0.0),
        (ElbowR, ShoulderR, WristR, 0.0),
        (WristL, ElbowL, WristL, 0.0),
        (WristR, ElbowR, WristR, 0.0),
        (KneeL, HipL, AnkleL, 0.0),
        (KneeR, HipR, AnkleR, 0.0),
        (AnkleL, KneeL, AnkleL, 0.02),
        (AnkleR, KneeR, AnkleR, 0.02),
    ];
    for (j, from, to, up) in across {
        let axis = (at(to) - at(from)).normalize_or(Vec3::Y);
        let p = at(j) - axis * (up * h);
        let s = sections.section(p, axis, 0.12 * h, None);
        let off = if s.count == 0 {
            2.0
        } else {
            let radius = (s.count as f32 / std::f32::consts::PI).sqrt() * body.cell_m;
            (p.distance(s.centroid) / radius.max(body.cell_m) - 1.0 / 3.0).clamp(0.0, 2.0)
        };
        if let Some(x) = e.limb_mut(j) {
            x.off_centre = off;
        }
    }
    for j in [ShoulderL, ShoulderR, HipL, HipR] {
        let depth_cells = body.depth_at(at(j)) / body.cell_m;
        if let Some(x) = e.limb_mut(j) {
            x.off_centre = 2.0 * (1.0 - depth_cells / 1.5).clamp(0.0, 1.0);
        }
    }
    // A hip sits above the crotch: its horizontal section joins the body's middle, which a
    // section through a thigh below the crotch does not reach.
    let pelvis = at(Pelvis);
    for j in [HipL, HipR] {
        let middle = Vec3::new(pelvis.x, at(j).y, pelvis.z);
        let joined = sections.section(at(j), Vec3::Y, 0.25 * h, Some(middle)).reached_probe;
        if !joined && let Some(x) = e.limb_mut(j) {
            x.off_centre += 2.0;
        }
    }
}

/// Share of each limb joint's bones (to the joints next along the limb) outside the body.
fn outside(joints: &[Vec3; JOINT_COUNT], body: &VoxelBody, e: &mut Evidence) {
    use JointId::*;
    let at = |j: JointId| joints[j.index()];
    let limbs =
        [[ShoulderL, ElbowL, WristL], [ShoulderR, ElbowR, WristR], [HipL, KneeL, AnkleL], [HipR, KneeR, AnkleR]];
    let share_out = |a: Vec3, b: Vec3| {
        let steps = (a.distance(b) / (0.5 * body.cell_m)).ceil().max(1.0) as usize;
        (0..=steps).filter(|&k| !body.is_inside(a.lerp(b, k as f32 / steps as f32))).count() as f32 / (steps + 1) as f32
    };
    for [top, middle, end] in limbs {
        let (upper, lower) = (share_out(at(top), at(middle)), share_out(at(middle), at(end)));
        if let Some(x) = e.limb_mut(top) {
            x.bone_outside = upper;
        }
        if let Some(x) = e.limb_mut(middle) {
            x.bone_outside = 0.5 * (upper + lower);
        }
        if let Some(x) = e.limb_mut(end) {
            x.bone_outside = lower;
        }
    }
}

/// The skeleton's bones as segments, rig frame.
fn segments(joints: &[Vec3; JOINT_COUNT], tips: &[(JointId, Vec3)]) -> Vec<(Vec3, Vec3)> {
    let mut out: Vec<(Vec3, Vec3)> =
        JointId::ALL.iter().filter_map(|&j| j.parent().map(|p| (joints[p.index()], joints[j.index()]))).collect();
    out.extend(tips.iter().map(|&(j, tip)| (joints[j.index()], tip)));
    out
}

/// Body volume below the neck the skeleton does not explain (every second voxel each way; a big
/// head is no error): voxels further from every bone than twice their own depth plus 10 % of the
/// height, each counted to the nearest limb joint. A voxel is explained at the first bone within
/// its reach, trunk bones first (most voxels are theirs).
fn unexplained(
    joints: &[Vec3; JOINT_COUNT],
    tips: &[(JointId, Vec3)],
    body: &VoxelBody,
    frame: &BodyFrame,
    e: &mut Evidence,
) {
    let bones = segments(joints, tips);
    let margin = 0.1 * frame.height;
    let neck_y = joints[JointId::Neck.index()].y;
    let [nx, ny, nz] = body.dims;
    let mut counts = [0usize; 12];
    let mut total = 0usize;
    for z in (0..nz).step_by(2) {
        for y in (0..ny).step_by(2) {
            for x in (0..nx).step_by(2) {
                let i = x + nx * (y + ny * z);
                if !body.inside[i] {
                    continue;
                }
                total += 1;
                let c = body.centre(body.voxel(i));
                if c.y > neck_y {
                    continue;
                }
                let reach = 2.0 * body.depth_m[i] + margin;
                if bones.iter().any(|&(a, b)| distance_to_segment(c, a, b) <= reach) {
                    continue;
                }
                let nearest = (0..12).min_by(|&a, &b| {
                    let (ja, jb) = (joints[LIMBS[a].index()], joints[LIMBS[b].index()]);
                    c.distance_squared(ja).total_cmp(&c.distance_squared(jb))
                });
                counts[nearest.unwrap_or(0)] += 1;
            }
        }
    }
    for (j, n) in e.joints.iter_mut().zip(counts) {
        j.unexplained_pct = 100.0 * n as f32 / total.max(1) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limb_joint_has_its_own_slot_and_no_other_joint_has_one() {
        for (k, &j) in LIMBS.iter().enumerate() {
            assert_eq!(slot(j), Some(k), "{j:?}");
        }
        for j in JointId::ALL.iter().filter(|j| !LIMBS.contains(j)) {
            assert_eq!(slot(*j), None, "{j:?}");
            assert!(Evidence::default().limb(*j).is_none());
        }
    }

    #[test]
    fn beyond_is_zero_inside_and_grows_outside() {
        assert_eq!(beyond(0.5, 0.4, 0.6, 0.1), 0.0);
        assert!((beyond(0.65, 0.4, 0.6, 0.1) - 0.5).abs() < 1e-5);
        assert!((beyond(0.2, 0.4, 0.6, 0.1) - 2.0).abs() < 1e-5);
    }

    #[test]
    fn confidence_falls_with_each_term_and_the_penalty() {
        let w = Weights { penalty: 0.03, worst_share: 0.3, ..Weights::FITTED };
        let clean = Evidence::default();
        assert_eq!(clean.confidence(&w), 1.0);
        let terms: [fn(&mut JointEvidence); 7] = [
            |j| j.mirror_off_pct = 4.0,
            |j| j.guessed = 1.0,
            |j| j.off_centre = 1.0,
            |j| j.out_of_range = 1.0,
            |j| j.toes_back = 1.0,
            |j| j.bone_outside = 0.5,
            |j| j.unexplained_pct = 2.0,
        ];
        for set in terms {
            let mut e = clean;
            set(&mut e.joints[3]);
            let c = e.confidence(&w);
            assert!(c < 1.0, "{e:?}");
            set(&mut e.joints[7]);
            assert!(e.confidence(&w) < c, "{e:?}");
        }
        let penalised = Evidence { penalty: 10.0, ..clean };
        assert!(penalised.confidence(&w) < 1.0);
        let fitted = Weights::FITTED;
        let all = [fitted.mirror_per_pct, fitted.guessed, fitted.off_centre, fitted.out_of_range, fitted.toes_back];
        assert!(all.iter().chain(&[fitted.bone_outside, fitted.unexplained_per_pct]).all(|&x| x > 0.0), "{fitted:?}");
    }
}
