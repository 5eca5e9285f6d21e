//! Poses the body on its floor supports ([`crate::motion::floor`]): where the pelvis is and how far
//! it pitches, where each kneeling or resting leg puts its knee and ankle, and where a hand that
//! bears weight puts its wrist — blended in and out over the symbols that change support.
//!
//! The pelvis goes where the contacts put it (hips over the knees; hip joints 10 cm above the floor
//! when sitting, 11 cm when lying; spanning hands and feet far apart, [`span`]) and pitches so the
//! arms reach the hands. A kneeling leg puts its knee joint 5 cm above its contact with the shin
//! and instep on the floor behind. A hand puts the wrist 8.5 cm above its contact (the fingers
//! touch where the wrist cannot bend back far enough for a flat palm). A knee moving to a new
//! contact (knee walking) lifts on the way. [`drive`] puts the skeleton's legs and hands there.

mod drive;
mod span;

use crate::motion::floor::{
    FloorState, KNEE_CONTACT_HEIGHT_M, LYING_PELVIS_HEIGHT_M, LegSupport, Lying, SEAT_HIP_HEIGHT_M,
    WRIST_CONTACT_HEIGHT_M,
};
use crate::motion::plan::{Track, forward_of, right_of, smoothstep};
use crate::pose::skeleton::{JointId, Skeleton};
use glam::{Quat, Vec3};

/// Ankle joint centre above the floor when the instep lies on it (kneeling, lying face down).
const ANKLE_ON_INSTEP_M: f32 = 0.075;
/// Ankle plantar flexion of a foot lying on its instep, radians (the ankle's limit is 80°).
const INSTEP_FLEX_RAD: f32 = 1.3;
/// The lowest a free wrist may hang while the body is on the floor (its hand hangs below it).
pub const FREE_WRIST_MIN_M: f32 = 0.12;
/// The fraction of a step symbol by which the foot has landed (the rule engine's swing fraction).
const LAND_FRACTION: f32 = 0.45;
/// A knee between knee steps hovers this far above its contact height, metres.
const FREE_KNEE_LIFT_M: f32 = 0.06;
/// Pitch of the pelvis lying on the back (negative) or the front, degrees.
const LYING_PITCH_DEG: f32 = 80.0;
/// Pitch of the pelvis sitting upright (negative: leaning back), degrees.
const SEATED_PITCH_DEG: f32 = -10.0;
/// Pitch of the pelvis sitting and leaning back onto the hands, degrees.
const SEATED_ON_HANDS_PITCH_DEG: f32 = -20.0;
/// Forward pitch of the pelvis kneeling upright without the hands, degrees.
const KNEELING_PITCH_DEG: f32 = 5.0;
/// The most the trunk leans to the hands on hands and feet, radians.
const HANDS_AND_FEET_MAX_PITCH_RAD: f32 = 2.2;
/// The most the trunk leans to the hands kneeling, radians.
const KNEELING_MAX_PITCH_RAD: f32 = 1.7;
/// The part of a straight arm's length a leaning trunk keeps its shoulders from the hands.
const HAND_REACH_FRACTION: f32 = 0.92;
/// The pitches tried for a trunk leaning to the hands (from upright to the most).
const HAND_PITCH_STEPS: usize = 160;
/// The part of a straight leg's length from hip to ankle of a leg stretched on the floor.
const STRETCHED_LEG_FRACTION: f32 = 0.97;
/// How far a knee of a leg stretched on the floor rises over the hip–ankle midpoint, metres.
const STRETCHED_KNEE_RISE_M: f32 = 0.03;
/// Ankle plantar flexion of a leg stretched on the floor lying on the back, radians.
const LYING_ON_BACK_FLEX_RAD: f32 = 0.5;
/// Ankle plantar flexion of a leg stretched forward sitting, radians.
const LONG_SITTING_FLEX_RAD: f32 = 0.6;
/// The part of a straight leg's length from hip to ankle with the knees drawn up sitting low.
const DRAWN_UP_LEG_FRACTION: f32 = 0.55;
/// How far a drawn-up knee rises over the hip–ankle midpoint, in leg lengths.
const DRAWN_UP_KNEE_RISE: f32 = 0.3;
/// Ankle plantar flexion of a drawn-up leg's foot flat in front, radians.
const DRAWN_UP_FLEX_RAD: f32 = 0.3;
/// The part of a straight arm's length a lying body's arms reach along it.
const LYING_ARM_FRACTION: f32 = 0.9;
/// How far out to the side a lying body's wrists lie from along it, metres.
const LYING_ARM_OUT_M: f32 = 0.08;
/// Hip height kneeling low (sitting back on the heels), in thigh lengths over the knee.
const LOW_KNEEL_RISE: f32 = 0.58;
/// A knee that moves further than this between two floor poses steps (knee walking), metres.
const KNEE_STEP_MIN_M: f32 = 0.02;
/// How high a stepping knee lifts on the way, metres.
const KNEE_STEP_LIFT_M: f32 = 0.06;
/// A pelvis that moves further than this between two floor postures rises on the way, metres.
const POSTURE_CHANGE_MIN_M: f32 = 0.05;
/// How high the pelvis rises on the way between two floor postures, metres.
const POSTURE_CHANGE_RISE_M: f32 = 0.08;
/// How much farther than the fully folded leg a floor-driven hip keeps from its ankle target, so
/// the ankle can still be lifted clear of the floor, metres.
const FOLD_CLEARANCE_M: f32 = 0.09;

/// The body sizes the floor poses need, in the skeleton's rest frame (pelvis frame, metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorSizes {
    /// Hip → knee.
    pub thigh_m: f32,
    /// Knee → ankle.
    pub shin_m: f32,
    /// Shoulder → wrist with the arm straight.
    pub arm_m: f32,
    /// Left and right hip joints in the pelvis frame.
    pub hips_in_pelvis: [Vec3; 2],
    /// Left and right shoulder joints in the pelvis frame (rest pose).
    pub shoulders_in_pelvis: [Vec3; 2],
    /// Ankle height standing flat.
    pub ankle_height_m: f32,
    /// Hip → ankle with the knee bent as far as its limits let it (the nearest an ankle can be).
    pub folded_leg_m: f32,
    /// Ankle → ball of the foot.
    pub ankle_to_ball_m: f32,
    /// How far the ankle → ball line points below the shin's perpendicular at rest, radians.
    pub foot_droop_rad: f32,
}

impl FloorSizes {
    /// The sizes of `skeleton` (rest pose: every local rotation is the identity).
    pub fn new(skeleton: &Skeleton, ankle_height_m: f32) -> FloorSizes {
        let in_pelvis = |j: JointId| {
            let mut p = Vec3::ZERO;
            let mut at = Some(j);
            while let Some(joint) = at.filter(|j| *j != JointId::Pelvis) {
                p += skeleton.rest_offset(joint);
                at = joint.parent();
            }
            p
        };
        let (thigh_m, shin_m) = (skeleton.bone_length_m(JointId::KneeL), skeleton.bone_length_m(JointId::AnkleL));
        let fold_rad = skeleton.limits(JointId::KneeL).max_rad.x.clamp(0.0, std::f32::consts::PI);
        FloorSizes {
            thigh_m,
            shin_m,
            folded_leg_m: (thigh_m * thigh_m + shin_m * shin_m + 2.0 * thigh_m * shin_m * fold_rad.cos())
                .max(0.0)
                .sqrt(),
            arm_m: skeleton.bone_length_m(JointId::ElbowL) + skeleton.bone_length_m(JointId::WristL),
            hips_in_pelvis: [in_pelvis(JointId::HipL), in_pelvis(JointId::HipR)],
            shoulders_in_pelvis: [in_pelvis(JointId::ShoulderL), in_pelvis(JointId::ShoulderR)],
            ankle_height_m,
            ankle_to_ball_m: skeleton.bone_length_m(JointId::BallL),
            foot_droop_rad: {
                let ball = skeleton.rest_offset(JointId::BallL);
                (-ball.y).atan2(ball.z.max(1e-4))
            },
        }
    }
}

/// Where one leg goes on the floor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegTarget {
    /// Ankle joint centre, world space.
    pub ankle_in_world: Vec3,
    /// Knee joint centre, world space (where it is meant to be).
    pub knee_in_world: Vec3,
    /// The way the knee points, world space (the IK's pole: forward when kneeling, up when
    /// sitting or lying on the back), fixed so the knee never flips during a transition.
    pub knee_pole_in_world: Vec3,
    /// Ankle plantar flexion after the solve, radians.
    pub ankle_flex_rad: f32,
    /// Toe bend after the solve (negative: the toes bend up), radians.
    pub toe_bend_rad: f32,
    /// How much the foot lies flat on the floor facing [`Self::flat_yaw_rad`] instead of taking
    /// the ankle flexion (1: a foot planted flat where its footprint is).
    pub flat_foot: f32,
    /// The facing of a flat foot, radians.
    pub flat_yaw_rad: f32,
}

/// Where one arm goes on the floor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmTarget {
    /// Wrist joint centre, world space.
    pub wrist_in_world: Vec3,
    /// Direction the elbow points, world space.
    pub elbow_pole_in_world: Vec3,
}

/// The body on its floor supports at one instant, with how much of each part it drives
/// (0 = the standing motion's, 1 = the floor's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorSample {
    /// Pelvis position, world space.
    pub pelvis_in_world: Vec3,
    /// How much of the pelvis position is the floor's.
    pub pelvis_weight: f32,
    /// Forward pitch of the pelvis (and everything above it), radians; already weighted.
    pub pitch_rad: f32,
    /// Leg targets (left, right) and their weights.
    pub legs: [Option<(LegTarget, f32)>; 2],
    /// Arm targets (left, right) and their weights.
    pub arms: [Option<(ArmTarget, f32)>; 2],
}

/// One floor state resolved into targets (`pelvis_in_world: None`: the standing motion's).
#[derive(Clone, Copy, Debug, PartialEq)]
struct FloorPose {
    pelvis_in_world: Option<Vec3>,
    pitch_rad: f32,
    legs: [Option<LegTarget>; 2],
    arms: [Option<ArmTarget>; 2],
}

fn world_rot(yaw: f32, pitch: f32) -> Quat {
    Quat::from_rotation_y(yaw) * Quat::from_rotation_x(pitch)
}

/// The pelvis that puts the hips' midpoint at `hip_mid` with pitch `pitch`.
fn pelvis_for_hips(sizes: &FloorSizes, hip_mid: Vec3, yaw: f32, pitch: f32) -> Vec3 {
    let mid = (sizes.hips_in_pelvis[0] + sizes.hips_in_pelvis[1]) * 0.5;
    hip_mid - world_rot(yaw, pitch) * mid
}

/// The pitch (0..`max`) whose shoulders best reach the wrist targets with the arms nearly
/// straight, for a pelvis given as a function of the pitch.
fn pitch_for_hands(
    sizes: &FloorSizes,
    yaw: f32,
    wrists: &[Vec3],
    max_rad: f32,
    pelvis_at: impl Fn(f32) -> Vec3,
) -> f32 {
    let reach = HAND_REACH_FRACTION * sizes.arm_m;
    let mut best = (f32::INFINITY, 0.0f32);
    for k in 0..=HAND_PITCH_STEPS {
        let pitch = max_rad * k as f32 / HAND_PITCH_STEPS as f32;
        let pelvis = pelvis_at(pitch);
        let rot = world_rot(yaw, pitch);
        let cost: f32 = wrists
            .iter()
            .zip(sizes.shoulders_in_pelvis)
            .map(|(w, s)| {
                let d = (pelvis + rot * s).distance(*w) - reach;
                // Too far is worse than too near (the arm can bend, not stretch).
                if d > 0.0 { 4.0 * d * d } else { d * d }
            })
            .sum();
        if cost < best.0 - 1e-9 {
            best = (cost, pitch);
        }
    }
    best.1
}

/// A leg kneeling on `knee_ground` (y = 0), the shin and instep on the floor behind it.
fn kneeling_leg(sizes: &FloorSizes, knee_ground: Vec3, yaw: f32, lift_m: f32) -> LegTarget {
    let knee = knee_ground + Vec3::Y * (KNEE_CONTACT_HEIGHT_M + lift_m);
    let dy = ANKLE_ON_INSTEP_M - KNEE_CONTACT_HEIGHT_M;
    let back = (sizes.shin_m * sizes.shin_m - dy * dy).max(0.0).sqrt();
    LegTarget {
        ankle_in_world: knee - forward_of(yaw) * back + Vec3::Y * dy,
        knee_in_world: knee,
        knee_pole_in_world: forward_of(yaw),
        ankle_flex_rad: INSTEP_FLEX_RAD,
        toe_bend_rad: 0.0,
        flat_foot: 0.0,
        flat_yaw_rad: 0.0,
    }
}

fn hand_target(hand_ground: Vec3, yaw: f32, side: usize) -> ArmTarget {
    let out = right_of(yaw) * if side == 0 { -1.0 } else { 1.0 };
    ArmTarget {
        wrist_in_world: hand_ground + Vec3::Y * WRIST_CONTACT_HEIGHT_M,
        elbow_pole_in_world: (out - forward_of(yaw) * 0.5).normalize_or_zero(),
    }
}

/// Resolves one floor state; `standing_pelvis` is the standing motion's pelvis now.
fn floor_pose(state: &FloorState, sizes: &FloorSizes, standing_pelvis: Vec3) -> FloorPose {
    let yaw = state.yaw_rad;
    let hands: Vec<(usize, ArmTarget)> =
        (0..2).filter_map(|i| state.hands[i].map(|h| (i, hand_target(h, yaw, i)))).collect();
    let mut arms = [None, None];
    for (i, a) in &hands {
        arms[*i] = Some(*a);
    }
    let wrists: Vec<Vec3> = hands.iter().map(|(_, a)| a.wrist_in_world).collect();
    if let Some((on, ground)) = state.lying {
        return lying_pose(state, sizes, on, ground, arms);
    }
    if let Some(seat) = state.seat {
        return seated_pose(state, sizes, seat, &wrists, arms);
    }
    let kneeling: Vec<(usize, Vec3)> = (0..2)
        .filter_map(|i| match state.legs[i] {
            LegSupport::Knee(k) => Some((i, k)),
            _ => None,
        })
        .collect();
    if kneeling.is_empty() {
        if let Some(pose) = span::spanning_pose(state, sizes, arms) {
            return pose;
        }
        return hands_and_feet_pose(state, sizes, standing_pelvis, &wrists, arms);
    }
    kneeling_pose(state, sizes, &kneeling, &wrists, arms)
}

/// Lying `on` the back or front with the pelvis over `ground`: the legs not on their feet
/// stretched along the floor, the arms along the body unless the hands are written (`arms`).
// Left/right index several parallel per-side arrays at once.
#[allow(clippy::needless_range_loop)]
fn lying_pose(
    state: &FloorState,
    sizes: &FloorSizes,
    on: Lying,
    ground: Vec3,
    mut arms: [Option<ArmTarget>; 2],
) -> FloorPose {
    let yaw = state.yaw_rad;
    let fwd = forward_of(yaw);
    let leg_len = sizes.thigh_m + sizes.shin_m;
    let mut legs = [None, None];
    let pitch = match on {
        Lying::OnBack => -LYING_PITCH_DEG.to_radians(),
        Lying::OnFront => LYING_PITCH_DEG.to_radians(),
    };
    let pelvis = ground + Vec3::Y * LYING_PELVIS_HEIGHT_M;
    let rot = world_rot(yaw, pitch);
    let along = if on == Lying::OnBack { fwd } else { -fwd };
    for i in 0..2 {
        if state.legs[i] == LegSupport::Foot {
            continue;
        }
        let hip = pelvis + rot * sizes.hips_in_pelvis[i];
        let mut ankle = hip + along * STRETCHED_LEG_FRACTION * leg_len;
        ankle.y = ANKLE_ON_INSTEP_M;
        let knee = (hip + ankle) * 0.5 + Vec3::Y * STRETCHED_KNEE_RISE_M;
        let (flex, pole) =
            if on == Lying::OnBack { (LYING_ON_BACK_FLEX_RAD, Vec3::Y) } else { (INSTEP_FLEX_RAD, -Vec3::Y) };
        legs[i] = Some(LegTarget {
            ankle_in_world: ankle,
            knee_in_world: knee,
            knee_pole_in_world: pole,
            ankle_flex_rad: flex,
            toe_bend_rad: 0.0,
            flat_foot: 0.0,
            flat_yaw_rad: 0.0,
        });
    }
    // The arms lie along the body unless the hands are written.
    for i in 0..2 {
        if arms[i].is_some() {
            continue;
        }
        let out = right_of(yaw) * if i == 0 { -1.0 } else { 1.0 };
        let shoulder = pelvis + rot * sizes.shoulders_in_pelvis[i];
        let mut wrist = shoulder - (rot * Vec3::Y) * LYING_ARM_FRACTION * sizes.arm_m + out * LYING_ARM_OUT_M;
        // Level with the shoulder, so the elbow stays off the floor too.
        wrist.y = shoulder.y.max(WRIST_CONTACT_HEIGHT_M);
        arms[i] = Some(ArmTarget { wrist_in_world: wrist, elbow_pole_in_world: (out + Vec3::Y).normalize() });
    }
    FloorPose { pelvis_in_world: Some(pelvis), pitch_rad: pitch, legs, arms }
}

/// Sitting on `seat`, upright or leaning back onto the hands (`wrists`): each leg kneeling, drawn
/// up (low) or stretched forward on the floor.
fn seated_pose(
    state: &FloorState,
    sizes: &FloorSizes,
    seat: Vec3,
    wrists: &[Vec3],
    arms: [Option<ArmTarget>; 2],
) -> FloorPose {
    let yaw = state.yaw_rad;
    let fwd = forward_of(yaw);
    let leg_len = sizes.thigh_m + sizes.shin_m;
    let hip_mid = seat + Vec3::Y * SEAT_HIP_HEIGHT_M;
    // Upright, or leaning back onto the hands.
    let pitch = if wrists.is_empty() { SEATED_PITCH_DEG.to_radians() } else { SEATED_ON_HANDS_PITCH_DEG.to_radians() };
    let pelvis = pelvis_for_hips(sizes, hip_mid, yaw, pitch);
    let rot = world_rot(yaw, pitch);
    let legs = [0, 1].map(|i| {
        let hip = pelvis + rot * sizes.hips_in_pelvis[i];
        match state.legs[i] {
            LegSupport::Foot => None,
            LegSupport::Knee(k) => Some(kneeling_leg(sizes, k, yaw, 0.0)),
            _ if state.low => {
                // Knees drawn up, the feet flat in front.
                let mut ankle = hip + fwd * DRAWN_UP_LEG_FRACTION * leg_len;
                ankle.y = sizes.ankle_height_m;
                let knee = (hip + ankle) * 0.5 + Vec3::Y * DRAWN_UP_KNEE_RISE * leg_len;
                Some(LegTarget {
                    ankle_in_world: ankle,
                    knee_in_world: knee,
                    knee_pole_in_world: (Vec3::Y + fwd).normalize(),
                    ankle_flex_rad: DRAWN_UP_FLEX_RAD,
                    toe_bend_rad: 0.0,
                    flat_foot: 0.0,
                    flat_yaw_rad: 0.0,
                })
            }
            _ => {
                // Long sitting: the legs stretched forward on the floor.
                let mut ankle = hip + fwd * STRETCHED_LEG_FRACTION * leg_len;
                ankle.y = ANKLE_ON_INSTEP_M;
                let knee = (hip + ankle) * 0.5 + Vec3::Y * STRETCHED_KNEE_RISE_M;
                Some(LegTarget {
                    ankle_in_world: ankle,
                    knee_in_world: knee,
                    knee_pole_in_world: Vec3::Y,
                    ankle_flex_rad: LONG_SITTING_FLEX_RAD,
                    toe_bend_rad: 0.0,
                    flat_foot: 0.0,
                    flat_yaw_rad: 0.0,
                })
            }
        }
    });
    FloorPose { pelvis_in_world: Some(pelvis), pitch_rad: pitch, legs, arms }
}

/// On hands and feet (no knee down): the standing motion keeps the pelvis; the trunk leans to
/// the hands (`wrists`); a free knee hovers over its contact.
fn hands_and_feet_pose(
    state: &FloorState,
    sizes: &FloorSizes,
    standing_pelvis: Vec3,
    wrists: &[Vec3],
    arms: [Option<ArmTarget>; 2],
) -> FloorPose {
    let yaw = state.yaw_rad;
    let pitch = if wrists.is_empty() {
        0.0
    } else {
        pitch_for_hands(sizes, yaw, wrists, HANDS_AND_FEET_MAX_PITCH_RAD, |_| standing_pelvis)
    };
    let legs = [0, 1].map(|i| match (state.legs[i], state.feet[i]) {
        (LegSupport::FreeKnee(k), _) => Some(kneeling_leg(sizes, k, yaw, FREE_KNEE_LIFT_M)),
        // With the hands down the floor drives the feet too, so a foot stepping under the
        // trunk's lean goes where its footprint is (and into a spanning pose, continuously).
        (LegSupport::Foot, Some(foot)) if !wrists.is_empty() => Some(flat_foot_leg(sizes, foot, yaw)),
        _ => None,
    });
    FloorPose { pelvis_in_world: None, pitch_rad: pitch, legs, arms }
}

/// A leg standing flat on its footprint at `foot_ground`, the knee forward over the toes.
fn flat_foot_leg(sizes: &FloorSizes, foot_ground: Vec3, yaw: f32) -> LegTarget {
    let ankle = foot_ground + Vec3::Y * sizes.ankle_height_m;
    LegTarget {
        ankle_in_world: ankle,
        knee_in_world: ankle + Vec3::Y * sizes.shin_m,
        knee_pole_in_world: forward_of(yaw),
        ankle_flex_rad: 0.0,
        toe_bend_rad: 0.0,
        flat_foot: 1.0,
        flat_yaw_rad: yaw,
    }
}

/// Kneeling on the knees of `kneeling` (side, knee contact): each hip over its knee (upright) or
/// sitting back on the heels (low), the trunk leaning to the hands (`wrists`).
fn kneeling_pose(
    state: &FloorState,
    sizes: &FloorSizes,
    kneeling: &[(usize, Vec3)],
    wrists: &[Vec3],
    arms: [Option<ArmTarget>; 2],
) -> FloorPose {
    let yaw = state.yaw_rad;
    let fwd = forward_of(yaw);
    let yaw_rot = Quat::from_rotation_y(yaw);
    let rise = if state.low { LOW_KNEEL_RISE * sizes.thigh_m } else { sizes.thigh_m };
    let back = (sizes.thigh_m * sizes.thigh_m - rise * rise).max(0.0).sqrt();
    let hip_ground: Vec<Vec3> = kneeling
        .iter()
        .map(|(i, k)| {
            let lateral = yaw_rot * Vec3::new(sizes.hips_in_pelvis[*i].x, 0.0, 0.0);
            *k - lateral
        })
        .collect();
    // The pelvis centre over the floor: the mean of the kneeling hips' (one knee: over it).
    let centre = hip_ground.iter().copied().sum::<Vec3>() / hip_ground.len() as f32 - fwd * back;
    let mid_lat = |i: usize| yaw_rot * Vec3::new(sizes.hips_in_pelvis[i].x, 0.0, 0.0);
    // Hip height: the highest both kneeling thighs reach from their knees.
    let mut hip_y = f32::INFINITY;
    for (i, k) in kneeling {
        let hip_h = centre + mid_lat(*i);
        let d = Vec3::new(hip_h.x - k.x, 0.0, hip_h.z - k.z).length();
        let up = (sizes.thigh_m * sizes.thigh_m - d * d).max(0.0).sqrt();
        hip_y = hip_y.min(KNEE_CONTACT_HEIGHT_M + up);
    }
    let hip_mid = Vec3::new(centre.x, hip_y, centre.z);
    let pitch = if wrists.is_empty() {
        if state.low { 0.0 } else { KNEELING_PITCH_DEG.to_radians() }
    } else {
        pitch_for_hands(sizes, yaw, wrists, KNEELING_MAX_PITCH_RAD, |p| pelvis_for_hips(sizes, hip_mid, yaw, p))
    };
    let pelvis = pelvis_for_hips(sizes, hip_mid, yaw, pitch);
    let legs = [0, 1].map(|i| match state.legs[i] {
        LegSupport::Knee(k) => Some(kneeling_leg(sizes, k, yaw, 0.0)),
        LegSupport::FreeKnee(k) => Some(kneeling_leg(sizes, k, yaw, FREE_KNEE_LIFT_M)),
        LegSupport::Foot => None,
        LegSupport::Resting => {
            let hip = pelvis + world_rot(yaw, pitch) * sizes.hips_in_pelvis[i];
            Some(kneeling_leg(sizes, Vec3::new(hip.x, 0.0, hip.z), yaw, FREE_KNEE_LIFT_M))
        }
    });
    FloorPose { pelvis_in_world: Some(pelvis), pitch_rad: pitch, legs, arms }
}

fn lerp_leg(a: LegTarget, b: LegTarget, s: f32) -> LegTarget {
    // A knee moving to a new contact point lifts on the way (knee walking).
    let moved = a.knee_in_world.distance(b.knee_in_world) > KNEE_STEP_MIN_M;
    let lift = if moved { Vec3::Y * KNEE_STEP_LIFT_M * (std::f32::consts::PI * s).sin() } else { Vec3::ZERO };
    LegTarget {
        ankle_in_world: a.ankle_in_world.lerp(b.ankle_in_world, s) + lift,
        knee_in_world: a.knee_in_world.lerp(b.knee_in_world, s) + lift,
        knee_pole_in_world: a.knee_pole_in_world.lerp(b.knee_pole_in_world, s).normalize_or(b.knee_pole_in_world),
        ankle_flex_rad: a.ankle_flex_rad + (b.ankle_flex_rad - a.ankle_flex_rad) * s,
        toe_bend_rad: a.toe_bend_rad + (b.toe_bend_rad - a.toe_bend_rad) * s,
        flat_foot: a.flat_foot + (b.flat_foot - a.flat_foot) * s,
        flat_yaw_rad: a.flat_yaw_rad + (b.flat_yaw_rad - a.flat_yaw_rad) * s,
    }
}

/// How far to raise a blended pelvis so that the hips of the legs kneeling on the same place in
/// both floor poses stay a thigh's length from their knees (the pelvis and its pitch blend on
/// their own, and the hips between them would otherwise sink and lift the knees off the floor).
/// The mean over those legs; 0 when none.
fn kneeling_hips_rise(
    sizes: &FloorSizes,
    states: [&FloorState; 2],
    a: &FloorPose,
    pelvis: Vec3,
    yaw: f32,
    pitch: f32,
) -> f32 {
    let rot = world_rot(yaw, pitch);
    let mut needs = Vec::new();
    for i in 0..2 {
        let (LegSupport::Knee(ka), LegSupport::Knee(kb)) = (states[0].legs[i], states[1].legs[i]) else { continue };
        let Some(leg) = a.legs[i] else { continue };
        if ka.distance(kb) > KNEE_STEP_MIN_M {
            continue;
        }
        let knee = leg.knee_in_world;
        let hip = pelvis + rot * sizes.hips_in_pelvis[i];
        let across = Vec3::new(hip.x - knee.x, 0.0, hip.z - knee.z).length();
        if across < sizes.thigh_m {
            needs.push(knee.y + (sizes.thigh_m * sizes.thigh_m - across * across).sqrt() - hip.y);
        }
    }
    if needs.is_empty() { 0.0 } else { needs.iter().sum::<f32>() / needs.len() as f32 }
}

/// How far to raise a floor-driven pelvis at `s` between the postures `ends` (each with its
/// state) so that each floor-driven leg's hip stays as far from its ankle target as the nearer of
/// the two postures has it, up to the folded leg's reach and [`FOLD_CLEARANCE_M`]; weighted by
/// how much of the leg the floor drives. A hip passing over its ankle (sitting back from a kneel)
/// would otherwise bring the ankle nearer than the knee can fold, and the knee would turn over.
/// Legs kneeling in both postures are left to [`kneeling_hips_rise`].
fn folded_legs_rise(
    sizes: &FloorSizes,
    legs: &[Option<(LegTarget, f32)>; 2],
    ends: [(Option<&FloorPose>, Option<FloorState>); 2],
    s: f32,
    pelvis: Vec3,
    pitch_rad: f32,
) -> f32 {
    let hip_of =
        |pelvis: Vec3, yaw: f32, pitch: f32, i: usize| pelvis + world_rot(yaw, pitch) * sizes.hips_in_pelvis[i];
    let yaw = match ends.map(|e| e.1.map(|st| st.yaw_rad)) {
        [Some(a), Some(b)] => a + (b - a) * s,
        [Some(y), None] | [None, Some(y)] => y,
        [None, None] => return 0.0,
    };
    let mut rise = 0.0f32;
    for (i, leg) in legs.iter().enumerate() {
        let Some((target, w)) = leg else { continue };
        let kneels = |st: &Option<FloorState>| {
            st.is_some_and(|st| matches!(st.legs[i], LegSupport::Knee(_) | LegSupport::FreeKnee(_)))
        };
        if ends.iter().all(|(_, st)| kneels(st)) {
            continue;
        }
        let need_m = ends
            .iter()
            .filter_map(|(pose, st)| {
                let (pose, st) = ((*pose)?, (*st)?);
                let hip = hip_of(pose.pelvis_in_world?, st.yaw_rad, pose.pitch_rad, i);
                Some(hip.distance(pose.legs[i]?.ankle_in_world))
            })
            .fold(sizes.folded_leg_m + FOLD_CLEARANCE_M, f32::min);
        let hip = hip_of(pelvis, yaw, pitch_rad, i);
        let ankle = target.ankle_in_world;
        let across = Vec3::new(hip.x - ankle.x, 0.0, hip.z - ankle.z).length();
        if across < need_m {
            let above = ankle.y + (need_m * need_m - across * across).sqrt();
            rise = rise.max((above - hip.y).max(0.0) * w.clamp(0.0, 1.0));
        }
    }
    rise
}

fn blend_opt<T: Copy>(a: Option<T>, b: Option<T>, s: f32, lerp: impl Fn(T, T, f32) -> T) -> Option<(T, f32)> {
    match (a, b) {
        (Some(x), Some(y)) => Some((lerp(x, y, s), 1.0)),
        (Some(x), None) => Some((x, 1.0 - s)),
        (None, Some(y)) => Some((y, s)),
        (None, None) => None,
    }
}

/// The floor sample of `track` at `t_secs` (`None` while standing on the feet).
/// `standing_pelvis`: the standing motion's pelvis at `t_secs`.
pub fn floor_sample(
    track: &Track<Option<FloorState>>,
    t_secs: f64,
    sizes: &FloorSizes,
    standing_pelvis: Vec3,
) -> Option<FloorSample> {
    let (from, to, s) = track.segment_at(t_secs)?;
    let a = from.map(|st| floor_pose(&st, sizes, standing_pelvis));
    let b = to.map(|st| floor_pose(&st, sizes, standing_pelvis));
    let (pa, pb) = (a, b);
    let position_of = |p: &FloorPose| p.pelvis_in_world.unwrap_or(standing_pelvis);
    let (pelvis_in_world, pelvis_weight, pitch_rad) = match (&pa, &pb) {
        (Some(x), Some(y)) => {
            let driven = x.pelvis_in_world.is_some() || y.pelvis_in_world.is_some();
            // Between two floor postures (kneeling to sitting, lying to sitting) the pelvis
            // rises a little on the way so the folding legs clear the floor.
            let (px, py) = (position_of(x), position_of(y));
            let arc = if px.distance(py) > POSTURE_CHANGE_MIN_M {
                POSTURE_CHANGE_RISE_M * (std::f32::consts::PI * s).sin()
            } else {
                0.0
            };
            let pitch = x.pitch_rad + (y.pitch_rad - x.pitch_rad) * s;
            let mut pelvis = px.lerp(py, s) + Vec3::Y * arc;
            if let (Some(sa), Some(sb)) = (from, to) {
                let yaw = sa.yaw_rad + (sb.yaw_rad - sa.yaw_rad) * s;
                pelvis.y += kneeling_hips_rise(sizes, [&sa, &sb], x, pelvis, yaw, pitch);
            }
            (pelvis, if driven { 1.0 } else { 0.0 }, pitch)
        }
        (Some(x), None) => {
            (position_of(x), if x.pelvis_in_world.is_some() { 1.0 - s } else { 0.0 }, x.pitch_rad * (1.0 - s))
        }
        (None, Some(y)) => (position_of(y), if y.pelvis_in_world.is_some() { s } else { 0.0 }, y.pitch_rad * s),
        (None, None) => return None,
    };
    // A leg going back onto its foot hands over by the time the stepping foot lands.
    let handover = smoothstep((1.0 - s / LAND_FRACTION).max(0.0));
    let side = |get: &dyn Fn(&FloorPose) -> Option<LegTarget>| {
        let ta = pa.as_ref().and_then(get);
        let tb = pb.as_ref().and_then(get);
        match (ta, tb) {
            (Some(x), Some(y)) => Some((lerp_leg(x, y, s), 1.0)),
            (Some(x), None) => Some((x, handover)),
            (None, Some(y)) => Some((y, s)),
            (None, None) => None,
        }
    };
    let legs = [side(&|p| p.legs[0]), side(&|p| p.legs[1])];
    let mut pelvis_in_world = pelvis_in_world;
    let ends = [(pa.as_ref(), from), (pb.as_ref(), to)];
    pelvis_in_world.y += pelvis_weight * folded_legs_rise(sizes, &legs, ends, s, pelvis_in_world, pitch_rad);
    let arm = |i: usize| {
        let ta = pa.as_ref().and_then(|p| p.arms[i]);
        let tb = pb.as_ref().and_then(|p| p.arms[i]);
        let lerp = |x: ArmTarget, y: ArmTarget, s: f32| ArmTarget {
            wrist_in_world: x.wrist_in_world.lerp(y.wrist_in_world, s),
            elbow_pole_in_world: x.elbow_pole_in_world.lerp(y.elbow_pole_in_world, s).normalize_or_zero(),
        };
        match (pa.is_some(), pb.is_some()) {
            (true, true) => blend_opt(ta, tb, s, lerp),
            (true, false) => ta.map(|x| (x, 1.0 - s)),
            _ => tb.map(|y| (y, s)),
        }
    };
    Some(FloorSample { pelvis_in_world, pelvis_weight, pitch_rad, legs, arms: [arm(0), arm(1)] })
}

impl super::DancerAnimation {
    /// The floor sample at `t_secs`, if the plan has floor work (`standing_pelvis`: the standing
    /// motion's pelvis at `t_secs`).
    pub fn floor_at(&self, skeleton: &Skeleton, t_secs: f64, standing_pelvis: Vec3) -> Option<FloorSample> {
        if self.plan.floor.keys.is_empty() {
            return None;
        }
        let sizes = FloorSizes::new(skeleton, self.foot_geometry.ankle_height_m);
        floor_sample(&self.plan.floor, t_secs, &sizes, standing_pelvis)
    }
}

/// Centre-of-mass contacts for the floor phases: while a leg rests on its knee (or the seat or
/// the lying body carries it), the path job gets a contact on that side at the floor point, so
/// the optimiser balances over the parts that bear weight instead of seeing a gap in the feet.
pub fn floor_contacts(plan: &crate::motion::plan::DancerPlan) -> Vec<crate::motion::com::Contact> {
    use crate::motion::com::{Contact, Foot};
    const MARGIN_SECS: f64 = 0.02;
    // The shortest floor contact the path job gets, seconds.
    const MIN_CONTACT_SECS: f64 = 0.05;
    let keys = &plan.floor.keys;
    let mut out = Vec::new();
    for (i, foot) in [Foot::Left, Foot::Right].into_iter().enumerate() {
        for (k, key) in keys.iter().enumerate() {
            let Some(state) = key.value else { continue };
            let point = match state.legs[i] {
                LegSupport::Foot => continue,
                LegSupport::Knee(p) | LegSupport::FreeKnee(p) => p,
                LegSupport::Resting => match (state.seat, state.lying) {
                    (Some(p), _) | (None, Some((_, p))) => p,
                    (None, None) => continue,
                },
            };
            let t0 = key.t_start_secs.max(0.0) + MARGIN_SECS;
            let t1 = keys.get(k + 1).map_or(plan.end_secs, |n| n.t_start_secs) - MARGIN_SECS;
            if t1 - t0 > MIN_CONTACT_SECS {
                out.push(Contact::new(foot, point, t0, t1));
            }
        }
    }
    out
}
