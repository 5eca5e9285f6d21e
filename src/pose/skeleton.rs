//! The humanoid skeleton: joint ids in topological order, body proportions, rest offsets,
//! joint limits and BVH-friendly names.
//!
//! Conventions: metres, radians, right-handed, +Y up. At rest the dancer stands facing +Z (the
//! audience), arms hanging at the sides, feet flat on the floor (y = 0); the dancer's left is +X.
//! Every joint frame is parallel to the world frame at rest, so a rest offset is also the rest
//! displacement in world space.

use glam::Vec3;

use super::limits::JointLimits;

/// Number of joints in the skeleton.
pub const JOINT_COUNT: usize = 23;

/// One joint of the skeleton. The discriminant is the joint's index; parents come before children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(usize)]
pub enum JointId {
    /// Root: the middle of the pelvis, a little above the hip joints.
    Pelvis = 0,
    /// Lower (lumbar) spine.
    Spine,
    /// Upper (thoracic) spine, the chest.
    Chest,
    /// Base of the neck (C7).
    Neck,
    /// Head pivot (atlanto-occipital joint).
    Head,
    /// Left sternoclavicular joint.
    ClavicleL,
    /// Left shoulder (glenohumeral) joint.
    ShoulderL,
    /// Left elbow (a hinge).
    ElbowL,
    /// Left wrist.
    WristL,
    /// Left knuckles (finger base).
    HandL,
    /// Right sternoclavicular joint.
    ClavicleR,
    /// Right shoulder.
    ShoulderR,
    /// Right elbow.
    ElbowR,
    /// Right wrist.
    WristR,
    /// Right knuckles.
    HandR,
    /// Left hip joint.
    HipL,
    /// Left knee (a hinge).
    KneeL,
    /// Left ankle.
    AnkleL,
    /// Left ball of the foot (toe base).
    BallL,
    /// Right hip joint.
    HipR,
    /// Right knee.
    KneeR,
    /// Right ankle.
    AnkleR,
    /// Right ball of the foot.
    BallR,
}

pub use crate::side::Side;

impl JointId {
    /// All joints in index (topological, and BVH depth-first) order.
    pub const ALL: [JointId; JOINT_COUNT] = {
        use JointId::*;
        [
            Pelvis, Spine, Chest, Neck, Head, ClavicleL, ShoulderL, ElbowL, WristL, HandL, ClavicleR, ShoulderR,
            ElbowR, WristR, HandR, HipL, KneeL, AnkleL, BallL, HipR, KneeR, AnkleR, BallR,
        ]
    };

    /// The joint's index into per-joint arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The joint with index `index`, if any.
    pub fn from_index(index: usize) -> Option<JointId> {
        Self::ALL.get(index).copied()
    }

    /// The same joint on the other side (left ↔ right); the spine's joints are their own mirror.
    pub const fn mirrored(self) -> JointId {
        use JointId::*;
        match self {
            ClavicleL => ClavicleR,
            ShoulderL => ShoulderR,
            ElbowL => ElbowR,
            WristL => WristR,
            HandL => HandR,
            HipL => HipR,
            KneeL => KneeR,
            AnkleL => AnkleR,
            BallL => BallR,
            ClavicleR => ClavicleL,
            ShoulderR => ShoulderL,
            ElbowR => ElbowL,
            WristR => WristL,
            HandR => HandL,
            HipR => HipL,
            KneeR => KneeL,
            AnkleR => AnkleL,
            BallR => BallL,
            Pelvis | Spine | Chest | Neck | Head => self,
        }
    }

    /// The parent joint; `None` for the pelvis (root).
    pub const fn parent(self) -> Option<JointId> {
        use JointId::*;
        Some(match self {
            Pelvis => return None,
            Spine => Pelvis,
            Chest => Spine,
            Neck => Chest,
            Head => Neck,
            ClavicleL | ClavicleR => Chest,
            ShoulderL => ClavicleL,
            ElbowL => ShoulderL,
            WristL => ElbowL,
            HandL => WristL,
            ShoulderR => ClavicleR,
            ElbowR => ShoulderR,
            WristR => ElbowR,
            HandR => WristR,
            HipL | HipR => Pelvis,
            KneeL => HipL,
            AnkleL => KneeL,
            BallL => AnkleL,
            KneeR => HipR,
            AnkleR => KneeR,
            BallR => AnkleR,
        })
    }

    /// BVH-friendly joint name (no spaces), e.g. `LeftElbow`.
    pub const fn name(self) -> &'static str {
        use JointId::*;
        match self {
            Pelvis => "Hips",
            Spine => "Spine",
            Chest => "Chest",
            Neck => "Neck",
            Head => "Head",
            ClavicleL => "LeftCollar",
            ShoulderL => "LeftShoulder",
            ElbowL => "LeftElbow",
            WristL => "LeftWrist",
            HandL => "LeftHand",
            ClavicleR => "RightCollar",
            ShoulderR => "RightShoulder",
            ElbowR => "RightElbow",
            WristR => "RightWrist",
            HandR => "RightHand",
            HipL => "LeftHip",
            KneeL => "LeftKnee",
            AnkleL => "LeftAnkle",
            BallL => "LeftToe",
            HipR => "RightHip",
            KneeR => "RightKnee",
            AnkleR => "RightAnkle",
            BallR => "RightToe",
        }
    }

    /// The side of the body, or `None` for joints on the midline.
    pub const fn side(self) -> Option<Side> {
        use JointId::*;
        match self {
            Pelvis | Spine | Chest | Neck | Head => None,
            ClavicleL | ShoulderL | ElbowL | WristL | HandL | HipL | KneeL | AnkleL | BallL => Some(Side::Left),
            _ => Some(Side::Right),
        }
    }
}

/// The joints of one limb, from the 3-DOF root to the joint past the 3-DOF end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limb {
    /// Joint above the limb root (clavicle or pelvis).
    pub parent: JointId,
    /// 3-DOF root: shoulder or hip.
    pub root: JointId,
    /// 1-DOF hinge: elbow or knee.
    pub mid: JointId,
    /// 3-DOF end: wrist or ankle.
    pub end: JointId,
}

impl Limb {
    /// The arm on `side`: clavicle → shoulder → elbow → wrist.
    pub const fn arm(side: Side) -> Limb {
        use JointId::*;
        match side {
            Side::Left => Limb { parent: ClavicleL, root: ShoulderL, mid: ElbowL, end: WristL },
            Side::Right => Limb { parent: ClavicleR, root: ShoulderR, mid: ElbowR, end: WristR },
        }
    }

    /// The leg on `side`: pelvis → hip → knee → ankle.
    pub const fn leg(side: Side) -> Limb {
        use JointId::*;
        match side {
            Side::Left => Limb { parent: Pelvis, root: HipL, mid: KneeL, end: AnkleL },
            Side::Right => Limb { parent: Pelvis, root: HipR, mid: KneeR, end: AnkleR },
        }
    }
}

/// A leaf point past the last joint of a chain (head top, fingertips, toe tips).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndSite {
    /// Joint the site hangs from.
    pub parent: JointId,
    /// Offset from the parent joint, in the parent's frame, metres.
    pub offset_in_parent: Vec3,
    /// Name for display (BVH end sites are unnamed).
    pub name: &'static str,
}

/// Body proportions: a height and landmark positions as fractions of that height.
///
/// Heights are above the floor, half-widths are from the midline, lengths are segment lengths;
/// all are ratios of `height_m`. The defaults follow the segment-length fractions of Drillis &
/// Contini (1966) as reproduced in D. A. Winter, *Biomechanics and Motor Control of Human
/// Movement*, fig. 3.1 (shoulder 0.818 H, upper arm 0.186 H, forearm 0.146 H, hand 0.108 H,
/// hip 0.530 H, thigh 0.245 H, shank 0.246 H, ankle 0.039 H, foot 0.152 H); these numbers are
/// quoted from memory, not re-checked. The spine split, joint-centre widths and foot landmarks
/// are our own rounded estimates.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Proportions {
    /// Standing height (floor to top of head), metres. Default 1.75.
    pub height_m: f32,
    /// Pelvis (root) joint height. Default 0.56.
    pub pelvis_height: f32,
    /// Lower spine joint height. Default 0.61.
    pub spine_height: f32,
    /// Chest joint height. Default 0.71.
    pub chest_height: f32,
    /// Neck-base joint height. Default 0.82.
    pub neck_height: f32,
    /// Head pivot height. Default 0.92. The head top is at 1.0.
    pub head_height: f32,
    /// Sternoclavicular joint height. Default 0.805.
    pub clavicle_height: f32,
    /// Sternoclavicular joint half-width. Default 0.02.
    pub clavicle_half_width: f32,
    /// Shoulder joint height. Default 0.818.
    pub shoulder_height: f32,
    /// Shoulder joint half-width. Default 0.10.
    pub shoulder_half_width: f32,
    /// Upper-arm length, shoulder to elbow. Default 0.186.
    pub upper_arm: f32,
    /// Forearm length, elbow to wrist. Default 0.146.
    pub forearm: f32,
    /// Palm length, wrist to knuckles. Default 0.054 (half the 0.108 hand).
    pub palm: f32,
    /// Finger length, knuckles to fingertip. Default 0.054.
    pub fingers: f32,
    /// Hip joint height (the leg length). Default 0.530.
    pub hip_height: f32,
    /// Hip joint half-width. Default 0.05.
    pub hip_half_width: f32,
    /// Thigh length, hip to knee. Default 0.245.
    pub thigh: f32,
    /// Shank length, knee to ankle. Default 0.246. The ankle height is
    /// `hip_height − thigh − shank` (0.039 by default).
    pub shank: f32,
    /// Ball of the foot: forward distance from the ankle. Default 0.08.
    pub ball_forward: f32,
    /// Ball of the foot: height above the floor. Default 0.012.
    pub ball_height: f32,
    /// Toe length, ball to toe tip (the tip touches the floor). Default 0.04.
    pub toes: f32,
    /// Heel contact point: distance behind the ankle (foot length = heel + ball + toes ≈ 0.152).
    /// Default 0.032.
    pub heel_back: f32,
}

impl Default for Proportions {
    fn default() -> Self {
        Self {
            height_m: 1.75,
            pelvis_height: 0.56,
            spine_height: 0.61,
            chest_height: 0.71,
            neck_height: 0.82,
            head_height: 0.92,
            clavicle_height: 0.805,
            clavicle_half_width: 0.02,
            shoulder_height: 0.818,
            shoulder_half_width: 0.10,
            upper_arm: 0.186,
            forearm: 0.146,
            palm: 0.054,
            fingers: 0.054,
            hip_height: 0.530,
            hip_half_width: 0.05,
            thigh: 0.245,
            shank: 0.246,
            ball_forward: 0.08,
            ball_height: 0.012,
            toes: 0.04,
            heel_back: 0.032,
        }
    }
}

/// Why a [`Proportions`] value was rejected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProportionsError {
    /// The height is not a finite number between 0.3 m and 3 m.
    #[error("body height {0} m is outside 0.3..=3 m")]
    BadHeight(f32),
    /// A ratio is not finite or not positive.
    #[error("proportion `{0}` must be a finite positive fraction of the height")]
    BadRatio(&'static str),
    /// Landmarks are in an impossible order (e.g. the knee below the floor).
    #[error("proportions are inconsistent: {0}; use values ordered like the defaults")]
    Inconsistent(&'static str),
}

impl Proportions {
    fn ratios(&self) -> [(&'static str, f32); 21] {
        [
            ("pelvis_height", self.pelvis_height),
            ("spine_height", self.spine_height),
            ("chest_height", self.chest_height),
            ("neck_height", self.neck_height),
            ("head_height", self.head_height),
            ("clavicle_height", self.clavicle_height),
            ("clavicle_half_width", self.clavicle_half_width),
            ("shoulder_height", self.shoulder_height),
            ("shoulder_half_width", self.shoulder_half_width),
            ("upper_arm", self.upper_arm),
            ("forearm", self.forearm),
            ("palm", self.palm),
            ("fingers", self.fingers),
            ("hip_height", self.hip_height),
            ("hip_half_width", self.hip_half_width),
            ("thigh", self.thigh),
            ("shank", self.shank),
            ("ball_forward", self.ball_forward),
            ("ball_height", self.ball_height),
            ("toes", self.toes),
            ("heel_back", self.heel_back),
        ]
    }

    /// Checks that the height is plausible, every ratio is finite and positive, and the
    /// landmarks are in anatomical order.
    pub fn check(&self) -> Result<(), ProportionsError> {
        if !(self.height_m.is_finite() && (0.3..=3.0).contains(&self.height_m)) {
            return Err(ProportionsError::BadHeight(self.height_m));
        }
        for (name, value) in self.ratios() {
            if !(value.is_finite() && value > 0.0 && value < 2.0) {
                return Err(ProportionsError::BadRatio(name));
            }
        }
        let spine_up = self.hip_height < self.pelvis_height
            && self.pelvis_height < self.spine_height
            && self.spine_height < self.chest_height
            && self.chest_height < self.neck_height
            && self.neck_height < self.head_height
            && self.head_height < 1.0;
        if !spine_up {
            return Err(ProportionsError::Inconsistent(
                "heights must rise hip < pelvis < spine < chest < neck < head < 1",
            ));
        }
        if self.clavicle_height <= self.chest_height || self.clavicle_half_width >= self.shoulder_half_width {
            return Err(ProportionsError::Inconsistent(
                "the clavicle must sit above the chest and inside the shoulder",
            ));
        }
        let ankle_height = self.hip_height - self.thigh - self.shank;
        if ankle_height <= self.ball_height {
            return Err(ProportionsError::Inconsistent(
                "thigh + shank must leave the ankle above the ball of the foot",
            ));
        }
        Ok(())
    }
}

/// The skeleton: fixed topology ([`JointId`]) with rest offsets and limits from [`Proportions`].
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    proportions: Proportions,
    rest_offsets: [Vec3; JOINT_COUNT],
    limits: [JointLimits; JOINT_COUNT],
    end_sites: [EndSite; 5],
    heel_in_ankle: Vec3,
}

impl Default for Skeleton {
    fn default() -> Self {
        Self::new(&Proportions::default())
    }
}

impl Skeleton {
    /// Builds the skeleton. Proportions that fail [`Proportions::check`] are replaced: a bad
    /// height by 1.75 m, bad ratios by all the default ratios (check first to report errors).
    pub fn new(proportions: &Proportions) -> Skeleton {
        let defaults = Proportions::default();
        let mut p = *proportions;
        if let Err(ProportionsError::BadHeight(_)) = p.check() {
            p.height_m = defaults.height_m;
        }
        if p.check().is_err() {
            p = Proportions { height_m: p.height_m, ..defaults };
        }
        let rest_in_world = rest_positions(&p);
        let mut rest_offsets = [Vec3::ZERO; JOINT_COUNT];
        for joint in JointId::ALL {
            let here = rest_in_world[joint.index()];
            rest_offsets[joint.index()] = match joint.parent() {
                Some(parent) => here - rest_in_world[parent.index()],
                None => here,
            };
        }
        let h = p.height_m;
        let pos = |j: JointId| rest_in_world[j.index()];
        let end_site = |parent: JointId, at: Vec3, name| EndSite { parent, offset_in_parent: at - pos(parent), name };
        let toe_tip = |side: Side| Vec3::new(side.sign_x() * p.hip_half_width, 0.0, p.ball_forward + p.toes) * h;
        let fingertip = |side: Side| {
            let wrist = p.shoulder_height - p.upper_arm - p.forearm;
            Vec3::new(side.sign_x() * p.shoulder_half_width, wrist - p.palm - p.fingers, 0.0) * h
        };
        let end_sites = [
            end_site(JointId::Head, Vec3::new(0.0, h, 0.0), "HeadTop"),
            end_site(JointId::HandL, fingertip(Side::Left), "LeftFingertip"),
            end_site(JointId::HandR, fingertip(Side::Right), "RightFingertip"),
            end_site(JointId::BallL, toe_tip(Side::Left), "LeftToeTip"),
            end_site(JointId::BallR, toe_tip(Side::Right), "RightToeTip"),
        ];
        let ankle_height = p.hip_height - p.thigh - p.shank;
        Skeleton {
            proportions: p,
            rest_offsets,
            limits: JointId::ALL.map(default_limits),
            end_sites,
            heel_in_ankle: Vec3::new(0.0, -ankle_height, -p.heel_back) * h,
        }
    }

    /// The proportions actually used (after replacing invalid values).
    pub fn proportions(&self) -> &Proportions {
        &self.proportions
    }

    /// Offset from the parent joint to `joint`, in the parent's frame, metres. For the pelvis:
    /// its rest position in world space.
    pub fn rest_offset(&self, joint: JointId) -> Vec3 {
        self.rest_offsets[joint.index()]
    }

    /// Length of the bone from the parent joint to `joint`, metres (0 for the pelvis).
    pub fn bone_length_m(&self, joint: JointId) -> f32 {
        match joint.parent() {
            Some(_) => self.rest_offset(joint).length(),
            None => 0.0,
        }
    }

    /// Rotation limits of `joint` in its local frame.
    pub fn limits(&self, joint: JointId) -> &JointLimits {
        &self.limits[joint.index()]
    }

    /// Replaces the rotation limits of `joint`.
    pub fn set_limits(&mut self, joint: JointId, limits: JointLimits) {
        self.limits[joint.index()] = limits;
    }

    /// The end sites: head top, fingertips (left, right), toe tips (left, right).
    pub fn end_sites(&self) -> &[EndSite] {
        &self.end_sites
    }

    /// Heel contact point (on the floor at rest), in the ankle's frame, metres.
    pub fn heel_in_ankle(&self) -> Vec3 {
        self.heel_in_ankle
    }
}

/// Rest positions of all joints in world space, metres.
fn rest_positions(p: &Proportions) -> [Vec3; JOINT_COUNT] {
    use JointId::*;
    let h = p.height_m;
    let wrist_y = p.shoulder_height - p.upper_arm - p.forearm;
    let ankle_y = p.hip_height - p.thigh - p.shank;
    let ratio = |j: JointId| -> Vec3 {
        let sx = j.side().map_or(0.0, Side::sign_x);
        match j {
            Pelvis => Vec3::new(0.0, p.pelvis_height, 0.0),
            Spine => Vec3::new(0.0, p.spine_height, 0.0),
            Chest => Vec3::new(0.0, p.chest_height, 0.0),
            Neck => Vec3::new(0.0, p.neck_height, 0.0),
            Head => Vec3::new(0.0, p.head_height, 0.0),
            ClavicleL | ClavicleR => Vec3::new(sx * p.clavicle_half_width, p.clavicle_height, 0.0),
            ShoulderL | ShoulderR => Vec3::new(sx * p.shoulder_half_width, p.shoulder_height, 0.0),
            ElbowL | ElbowR => Vec3::new(sx * p.shoulder_half_width, p.shoulder_height - p.upper_arm, 0.0),
            WristL | WristR => Vec3::new(sx * p.shoulder_half_width, wrist_y, 0.0),
            HandL | HandR => Vec3::new(sx * p.shoulder_half_width, wrist_y - p.palm, 0.0),
            HipL | HipR => Vec3::new(sx * p.hip_half_width, p.hip_height, 0.0),
            KneeL | KneeR => Vec3::new(sx * p.hip_half_width, p.hip_height - p.thigh, 0.0),
            AnkleL | AnkleR => Vec3::new(sx * p.hip_half_width, ankle_y, 0.0),
            BallL | BallR => Vec3::new(sx * p.hip_half_width, p.ball_height, p.ball_forward),
        }
    };
    JointId::ALL.map(|j| ratio(j) * h)
}

/// Default limits. Components are (x, y twist, z) of [`JointLimits`], written for the left side
/// and mirrored for the right. Signs at rest (left side): +x tips a downward bone backwards and
/// an upward bone forwards, +z swings a downward bone outwards (to +X), +y turns the front of
/// the bone outwards. Values are rounded textbook ranges of motion, widened a little for dance.
fn default_limits(joint: JointId) -> JointLimits {
    use JointId::*;
    let deg = JointLimits::from_deg;
    let left = match joint {
        Pelvis => return JointLimits::FREE,
        Spine => deg((-30.0, 45.0), (-25.0, 25.0), (-25.0, 25.0)),
        Chest => deg((-25.0, 40.0), (-35.0, 35.0), (-25.0, 25.0)),
        Neck => deg((-40.0, 45.0), (-45.0, 45.0), (-30.0, 30.0)),
        Head => deg((-30.0, 30.0), (-35.0, 35.0), (-20.0, 20.0)),
        // Clavicle: +y retracts, +z elevates.
        ClavicleL | ClavicleR => deg((-15.0, 15.0), (-25.0, 20.0), (-10.0, 35.0)),
        // Shoulder: −x flexes (arm forward and up), +z abducts, y twists the arm. Adduction to
        // −85° lets an arm reach 70° across the front, laid across the chest
        // (rules::cross_in_front); extension to 90° (the shoulder blade's retraction folded in)
        // lets an arm point straight back at shoulder height, as the notation's "back middle" asks.
        ShoulderL | ShoulderR => deg((-180.0, 90.0), (-90.0, 90.0), (-85.0, 180.0)),
        // Elbow: a hinge; flexion is a negative rotation about X (forearm forward).
        ElbowL | ElbowR => deg((-150.0, 0.0), (0.0, 0.0), (0.0, 0.0)),
        // Wrist: x is ulnar (+)/radial (−) deviation, y is pronation/supination, +z extends.
        WristL | WristR => deg((-25.0, 35.0), (-90.0, 90.0), (-80.0, 70.0)),
        // Knuckles: finger flexion towards the palm is −z; +z bends the fingers back, as far as
        // a hand pressed on the floor takes them.
        HandL | HandR => deg((0.0, 0.0), (0.0, 0.0), (-90.0, 60.0)),
        // Hip: −x flexes (leg forward), +z abducts, +y turns out.
        HipL | HipR => deg((-140.0, 45.0), (-45.0, 60.0), (-30.0, 90.0)),
        // Knee: a hinge; flexion is a positive rotation about X (shin backwards).
        KneeL | KneeR => deg((0.0, 150.0), (0.0, 0.0), (0.0, 0.0)),
        // Ankle: +x points the foot (plantar flexion), y turns the toes out, +z everts.
        AnkleL | AnkleR => deg((-40.0, 80.0), (-25.0, 25.0), (-35.0, 20.0)),
        // Toes: −x bends the toes up (demi-pointe).
        BallL | BallR => deg((-90.0, 40.0), (0.0, 0.0), (0.0, 0.0)),
    };
    match joint.side() {
        Some(Side::Right) => left.mirrored_x(),
        _ => left,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn parents_come_first_and_indices_match() {
        for (i, joint) in JointId::ALL.iter().enumerate() {
            assert_eq!(joint.index(), i);
            assert_eq!(JointId::from_index(i), Some(*joint));
            if let Some(parent) = joint.parent() {
                assert!(parent.index() < i, "{joint:?}");
            }
        }
        assert_eq!(JointId::from_index(JOINT_COUNT), None);
        let mut names: Vec<_> = JointId::ALL.iter().map(|j| j.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), JOINT_COUNT);
    }

    #[test]
    fn default_body_matches_the_anthropometric_ratios() {
        let s = Skeleton::default();
        let h = 1.75;
        let leg = s.bone_length_m(JointId::KneeL) + s.bone_length_m(JointId::AnkleL);
        assert!((leg - 0.491 * h).abs() < 1e-4);
        // Hip joint height = leg length ≈ 0.53 H.
        let hip_y = s.rest_offset(JointId::Pelvis).y + s.rest_offset(JointId::HipL).y;
        assert!((hip_y - 0.53 * h).abs() < 1e-4);
        // Toe tips and heels on the floor, head top at the full height.
        let ankle_y = hip_y + s.rest_offset(JointId::KneeL).y + s.rest_offset(JointId::AnkleL).y;
        assert!((ankle_y + s.heel_in_ankle().y).abs() < 1e-5);
        let ball_y = ankle_y + s.rest_offset(JointId::BallL).y;
        let toe = s.end_sites()[3];
        assert_eq!(toe.parent, JointId::BallL);
        assert!((ball_y + toe.offset_in_parent.y).abs() < 1e-5);
        let mut head_y = 0.0;
        let mut j = Some(JointId::Head);
        while let Some(joint) = j {
            head_y += s.rest_offset(joint).y;
            j = joint.parent();
        }
        assert!((head_y + s.end_sites()[0].offset_in_parent.y - h).abs() < 1e-4);
        // Left is +X.
        assert!(s.rest_offset(JointId::HipL).x > 0.0 && s.rest_offset(JointId::HipR).x < 0.0);
    }

    #[test]
    fn limbs_are_straight_at_rest_and_rest_is_inside_limits() {
        let s = Skeleton::default();
        for side in [Side::Left, Side::Right] {
            for limb in [Limb::arm(side), Limb::leg(side)] {
                let upper = s.rest_offset(limb.mid).normalize();
                let lower = s.rest_offset(limb.end).normalize();
                assert!(upper.dot(lower) > 0.999_999, "{limb:?}");
            }
        }
        for joint in JointId::ALL {
            assert!(s.limits(joint).contains(glam::Quat::IDENTITY), "{joint:?}");
        }
    }

    #[test]
    fn bad_proportions_fall_back_to_defaults() {
        let bad = Proportions { height_m: f32::NAN, thigh: -1.0, ..Proportions::default() };
        assert!(bad.check().is_err());
        assert_eq!(Skeleton::new(&bad), Skeleton::default());
        let tall = Proportions { height_m: 2.0, shank: 0.6, ..Proportions::default() };
        assert!(matches!(tall.check(), Err(ProportionsError::Inconsistent(_))));
        let s = Skeleton::new(&tall);
        assert_eq!(s.proportions().height_m, 2.0);
        assert_eq!(s.proportions().shank, Proportions::default().shank);
    }
}
