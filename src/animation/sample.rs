//! Sampling: a compiled [`Animation`](super::Animation) at time `t_secs` → a [`Pose`] per dancer.
//!
//! Pelvis from the centre-of-mass path and the facing track; feet from the foot keys, legs by
//! analytic IK (the pelvis drops if a planted foot would be out of reach); arms by IK towards the
//! notated direction; head and chest tilts. Deterministic and allocation-free per call.

use super::DancerAnimation;
use super::feet::{FootState, ramp};
use super::pelvis_tilt::{pelvis_tilt_for_gesture, spine_counter};
use crate::motion::plan::{Foot, LimbId, LimbTarget, smoothstep, world_from_body};
use crate::motion::rules::MAX_SEGMENT_BEND_RAD;
use crate::pose::fk::{Pose, child_world, joint_world};
use crate::pose::ik::{LimbGoal, least_twist_pole, solve_limb_in_pose_from};
use crate::pose::skeleton::{JointId, Side, Skeleton};
use glam::{Quat, Vec3};

mod arm_between;
mod arm_bow;
mod arm_segments;
mod blend;
mod leg_gesture;
mod leg_tap;
mod swivel_path;
use arm_between::{fold_lower_arm, solve_arm_between};
pub use arm_bow::ArmBows;
use blend::blend_dirs;
pub use swivel_path::ArmSwivels;

/// What sampling one dancer noticed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SampleReport {
    /// Limbs whose target was out of reach (clamped by the IK).
    pub clamped_limbs: u8,
    /// How far the pelvis was lowered so planted feet could reach the floor, metres.
    pub pelvis_drop_m: f32,
    /// Whether the left and right leg's target was out of reach (clamped), in that order.
    pub legs_clamped: [bool; 2],
    /// Whether the left and right arm's target was out of reach (clamped), in that order.
    pub arms_clamped: [bool; 2],
    /// Per arm (left, right): the target lay beyond the arm's reach.
    pub arms_out_of_reach: [bool; 2],
    /// Per arm: the joint limits stopped it (no swivel kept them, or they moved the hand).
    pub arms_limited: [bool; 2],
    /// Per arm: how far the wrist ended from its target, metres.
    pub arms_miss_m: [f32; 2],
    /// Per arm: how far the shoulder's range held the upper arm from the direction the score
    /// gives it (an elbow pre-sign), radians; the wrist target is then the held one.
    pub arms_upper_held_rad: [f32; 2],
    /// Per arm: how far the elbow's hinge and the upper arm's twist held the lower arm from the
    /// direction the score gives it (a wrist pre-sign), radians.
    pub arms_lower_held_rad: [f32; 2],
    /// Per leg (left, right): the target lay beyond the leg's reach.
    pub legs_out_of_reach: [bool; 2],
    /// Per leg: the joint limits stopped it.
    pub legs_limited: [bool; 2],
    /// Per leg: how far the ankle ended from where the foot keys (or the gesture) put it, metres.
    pub legs_miss_m: [f32; 2],
    /// Per foot: planted on the floor at this time (by the footprints).
    pub feet_planted: [bool; 2],
}

/// An active leg gesture: (direction in the body frame, knee bend, reach scale, how far it has
/// blended in from the foot's own keys, 0..1, the thigh's and the lower leg's directions in the
/// body frame where the score gives them apart, how far it rests the foot on the floor, 0..1).
type LegGesture = (Vec3, f32, f32, f32, Option<(Vec3, Vec3)>, f32);

/// How long before a landing (and after a lift) a foot in the air already counts for the
/// pelvis drop that keeps the legs within reach, seconds.
const REACH_FADE_SECS: f64 = 0.2;

/// The shortest swing of a foot to its next footprint, seconds (when the time since its lift
/// allows).
pub(super) const MIN_SWING_SECS: f64 = 0.2;

/// The most the pelvis lowers to keep a foot within the leg's reach, metres.
const MAX_PELVIS_DROP_M: f32 = 0.3;

/// Clearance of the sole over which toes bent to keep their tip on the floor straighten as the
/// foot rises, metres.
const TOE_STRAIGHTEN_M: f32 = 0.02;

/// How far a gesturing foot points (ankle plantar flexion), radians.
const GESTURE_POINT_RAD: f32 = 1.0;

/// A body-frame vector (right, up, forward) in the skeleton's local axes (right = −X).
fn local_from_body(v: Vec3) -> Vec3 {
    Vec3::new(-v.x, v.y, v.z)
}

/// A limb's aim at one time: (direction in body frame, bend, reach scale, upper/lower segment
/// directions when given).
type Aim = (Vec3, f32, f32, Option<(Vec3, Vec3)>);

/// The limb target of a track at `t`, blended (see [`Aim`]).
fn limb_at(track: Option<&crate::motion::plan::Track<LimbTarget>>, t: f64, rest_dir: Vec3) -> Aim {
    limb_segment_at(track, t, rest_dir, None).0
}

/// [`limb_at`] for an arm: where the direct way between two keys passes through directions the
/// shoulder cannot take (over the top from "up" to "back", across the body beyond its range),
/// the arm bows out to the side on the way instead (by the least of a few amounts that keeps it
/// in range), so the clamp to the shoulder's limits never flips from one edge of the gap to the
/// other. The bow depends only on the two keys, and is zero at both, so the path stays continuous.
/// While the arm moves between two keys, also the aims at the two keys and the blend (0..1).
fn arm_at(
    track: Option<&crate::motion::plan::Track<LimbTarget>>,
    t: f64,
    side: Side,
    limits: &crate::pose::limits::JointLimits,
    bows: &ArmBows,
) -> (Aim, Option<(Aim, Aim, f32, bool)>) {
    limb_segment_at(track, t, -Vec3::Y, Some((side, limits, bows)))
}

/// The aim of a limb track at `t` and, while it moves between two keys, the aims at the two ends
/// of that move and the blend `s` (strictly between 0 and 1).
fn limb_segment_at(
    track: Option<&crate::motion::plan::Track<LimbTarget>>,
    t: f64,
    rest_dir: Vec3,
    arm: Option<(Side, &crate::pose::limits::JointLimits, &ArmBows)>,
) -> (Aim, Option<(Aim, Aim, f32, bool)>) {
    limb_move_with(track, t, rest_dir, arm, |aim, s, moves, pick| {
        (aim(s), moves.then(|| (aim(0.0), aim(1.0), s, pick)))
    })
    .unwrap_or(((rest_dir, 0.0, 1.0, None), None))
}

/// While the arm of `track` moves between two keys at `t`: its aim at blend `at` (its own blend
/// at `t` when `None`), as [`arm_at`] finds it and its ends. (One aim instead of three, for the
/// steps of a whole move.)
pub(super) fn arm_move_aim(
    track: &crate::motion::plan::Track<LimbTarget>,
    t: f64,
    side: Side,
    limits: &crate::pose::limits::JointLimits,
    bows: &ArmBows,
    at: Option<f32>,
) -> Option<Aim> {
    limb_move_with(Some(track), t, -Vec3::Y, Some((side, limits, bows)), |aim, s, moves, _| {
        moves.then(|| aim(at.unwrap_or(s)))
    })
    .flatten()
}

/// `f(aim, s, moves, pick)` for the move of `track` at `t` (see [`limb_segment_at`]): `aim(s)`
/// the aim at blend `s`, `s` the blend at `t`, `moves` whether the limb moves between two
/// different keys there, `pick` whether both keys give both segments. `None` without a track
/// or key.
fn limb_move_with<R>(
    track: Option<&crate::motion::plan::Track<LimbTarget>>,
    t: f64,
    rest_dir: Vec3,
    arm: Option<(Side, &crate::pose::limits::JointLimits, &ArmBows)>,
    f: impl FnOnce(&dyn Fn(f32) -> Aim, f32, bool, bool) -> R,
) -> Option<R> {
    let track = track?;
    let (from, to, s) = track.segment_at(t)?;
    // A key without a direction (the extremity at its base: "place" for an arm) keeps the
    // direction the limb had before it, so the folded limb neither starts nor leaves from some
    // other direction.
    let dir_of = |v: Vec3, held: Vec3| if v.length_squared() < 1e-12 { held } else { v };
    let idx = track.keys.partition_point(|k| k.t_end_secs <= t).min(track.keys.len());
    // The `from` key is the one before `idx` (the last one past the end).
    let held = track.keys[..idx.saturating_sub(1)]
        .iter()
        .rev()
        .map(|k| k.value.dir_in_body)
        .find(|d| d.length_squared() >= 1e-12)
        .unwrap_or(rest_dir);
    let from_dir = dir_of(from.dir_in_body, held);
    let to_dir = dir_of(to.dir_in_body, from_dir);
    let folded = |v: Vec3| if v.length_squared() < 1e-12 { 0.2 } else { 1.0 };
    let moving = s > 0.0 && s < 1.0;
    let bow = if moving {
        arm.map_or(0.0, |(side, limits, bows)| bows.bow(idx, from_dir, to_dir, side, limits))
    } else {
        0.0
    };
    // A key whose segments are in line is a straight limb: a whole-limb key (its direction).
    let segs_of = |k: &LimbTarget| {
        k.upper_dir_in_body.zip(k.lower_dir_in_body).filter(|(u, l)| u.angle_between(*l) > 1f32.to_radians())
    };
    let aim = |s: f32| -> Aim {
        let (mut dir, central) = blend_dirs(from_dir, to_dir, s);
        if let Some((side, _, _)) = arm
            && bow > 0.0
            && s > 0.0
            && s < 1.0
        {
            let outward = Vec3::new(if side == Side::Left { -1.0 } else { 1.0 }, 0.0, 0.0);
            dir = (dir + outward * bow * (std::f32::consts::PI * s).sin()).normalize_or(dir);
        }
        let reach = central * (folded(from.dir_in_body) + (folded(to.dir_in_body) - folded(from.dir_in_body)) * s);
        let bend = from.bend_rad + (to.bend_rad - from.bend_rad) * s;
        // Segments given on one side only: the other side is the limb straight along its direction
        // (so the elbow starts from where the arm was, not from the next key's elbow).
        let segs = match (segs_of(&from), segs_of(&to)) {
            (None, None) => None,
            (a, b) => {
                let (fu, fl) = a.unwrap_or((from_dir, from_dir));
                let (u, l) = b.unwrap_or((to_dir, to_dir));
                let u_now = blend_dirs(fu, u, s).0;
                // Never folded past the segments' limit (the forearm passes in front, an arm's
                // round the outside of the upper arm).
                let l_blend = blend_dirs(fl, l, s).0;
                let l_now = match arm {
                    Some((side, _, _)) => fold_lower_arm(u_now, l_blend, MAX_SEGMENT_BEND_RAD, side),
                    None => crate::motion::rules::limit_bend(u_now, l_blend, MAX_SEGMENT_BEND_RAD),
                };
                Some((u_now, l_now))
            }
        };
        (dir, bend, reach, segs)
    };
    // Where the score gives both segments of the arm at both ends of a move (the elbow placed by
    // the notation, which the swivel search of the blended goal would flip from side to side),
    // the swivel is the keys' own, turned from one to the other (see `solve_arm_between`).
    // Elsewhere the ends come with `false`: the caller turns the swivel along the move's compiled
    // swivel path where there is one (see `swivel_path`).
    let pick = segs_of(&from).is_some() && segs_of(&to).is_some();
    Some(f(&aim, s, moving && from != to, pick))
}

/// Reach of a two-segment limb with the middle joint bent by `bend`.
fn reach_for(upper: f32, lower: f32, bend: f32) -> f32 {
    (upper * upper + lower * lower + 2.0 * upper * lower * bend.cos()).max(0.0).sqrt()
}

fn foot_of(side: Side) -> Foot {
    match side {
        Side::Left => Foot::Left,
        Side::Right => Foot::Right,
    }
}

fn leg_limb(foot: Foot) -> LimbId {
    match foot {
        Foot::Left => LimbId::LegLeft,
        Foot::Right => LimbId::LegRight,
    }
}

impl DancerAnimation {
    /// Facing at `t`.
    pub fn yaw_at(&self, t: f64) -> f32 {
        self.plan.yaw.value_at(t, 0.0)
    }

    /// Samples the pose of this dancer at `t_secs` into `pose`.
    pub fn sample_into(&self, skeleton: &Skeleton, t_secs: f64, pose: &mut Pose) -> SampleReport {
        let mut report = SampleReport::default();
        let t = t_secs.clamp(0.0, self.plan.end_secs.max(0.0));
        *pose = Pose::rest(skeleton);
        let yaw = self.yaw_at(t);
        let yaw_rot = Quat::from_rotation_y(yaw);
        let mut pelvis = self.pelvis_at(t);
        let flying = self.in_flight(t);
        let feet: [(Side, FootState); 2] = [
            (Side::Left, self.foot_state(skeleton, Foot::Left, t)),
            (Side::Right, self.foot_state(skeleton, Foot::Right, t)),
        ];
        // A gesturing leg tilts the pelvis about the standing hip; the spine gives most back.
        let gestures = [Foot::Left, Foot::Right].map(|foot| self.active_leg_gesture(foot, t));
        let (tilt, pivot) = self.gesture_tilt(skeleton, &gestures);
        // A hip displaced forward or back turns the pelvis (the spine turns the chest back).
        let hips_turn = super::rotations::rotation_at(&self.plan, crate::motion::plan::Rotated::Pelvis, t);
        let pelvis_rot = yaw_rot * Quat::from_rotation_y(-hips_turn) * tilt;
        pelvis += yaw_rot * pivot - pelvis_rot * pivot;
        // Supports on the knees, hands, seat or torso move and pitch the pelvis (`floor.rs`).
        let floor = self.floor_at(skeleton, t, pelvis);
        let pelvis_rot = match &floor {
            Some(f) => {
                pelvis = pelvis.lerp(f.pelvis_in_world, f.pelvis_weight);
                pelvis_rot * Quat::from_rotation_x(f.pitch_rad)
            }
            None => pelvis_rot,
        };
        pose.set_local(JointId::Pelvis, pelvis_rot);

        // Torso and head tilts (body frame; gravity up).
        for (limb, joints, max_deg) in [
            (LimbId::Chest, [JointId::Spine, JointId::Chest], 30f32),
            (LimbId::Head, [JointId::Neck, JointId::Head], 45f32),
        ] {
            let (dir, _, _, _) = limb_at(self.plan.limbs.get(&limb), t, Vec3::Y);
            let d = local_from_body(dir);
            if d.length_squared() > 1e-6 {
                let d = d.normalize();
                let angle = d.y.clamp(-1.0, 1.0).acos().min(max_deg.to_radians());
                let axis = Vec3::Y.cross(d);
                if axis.length_squared() > 1e-8 {
                    let q = Quat::from_axis_angle(axis.normalize(), angle * 0.5);
                    for j in joints {
                        pose.set_local(j, skeleton.limits(j).clamp(q));
                    }
                }
            }
        }
        if tilt != Quat::IDENTITY {
            let counter = spine_counter(&self.tilt_rule, tilt);
            for j in [JointId::Spine, JointId::Chest] {
                pose.set_local(j, skeleton.limits(j).clamp(counter * pose.local(j)));
            }
        }
        super::rotations::twist_spine(&self.plan, skeleton, pose, t);

        // Feet: keys, gestures, and the pelvis drop that keeps planted feet reachable.
        let leg_len = |side: Side| {
            let (k, a) =
                if side == Side::Left { (JointId::KneeL, JointId::AnkleL) } else { (JointId::KneeR, JointId::AnkleR) };
            skeleton.bone_length_m(k) + skeleton.bone_length_m(a)
        };
        let hip_of = |pelvis: Vec3, side: Side| {
            pelvis + pelvis_rot * skeleton.rest_offset(if side == Side::Left { JointId::HipL } else { JointId::HipR })
        };
        // How much each foot's reach counts for the drop: a planted foot fully, a foot in the air
        // more the nearer its landing (or its lift), so the pelvis lowers into a long step as
        // the foot reaches the floor instead of dropping when it lands.
        let reach_weight = [Foot::Left, Foot::Right].map(|foot| self.floor_reach_weight(foot, t));
        let drop_for = |pelvis: Vec3, goals: &[(Side, FootState, LimbGoal); 2]| {
            let mut drop = 0.0f32;
            for (side, state, goal) in goals {
                let weight = if state.planted { 1.0 } else { reach_weight[side.index()] };
                if weight <= 0.0 {
                    continue;
                }
                let hip = hip_of(pelvis, *side);
                let max_reach = leg_len(*side) * 0.999;
                let d = goal.end_in_world - hip;
                let horizontal = Vec3::new(d.x, 0.0, d.z).length();
                if d.length() > max_reach {
                    // A foot beyond the leg's reach even level with the hip asks for the most
                    // drop there is; the cap keeps that (and the drop) continuous.
                    let below = (max_reach * max_reach - horizontal * horizontal).max(0.0).sqrt();
                    drop = drop.max((-d.y - below).min(MAX_PELVIS_DROP_M) * weight);
                }
            }
            drop
        };
        let base_y = pelvis.y;
        let mut goals: [(Side, FootState, LimbGoal); 2] = feet.map(|(side, state)| {
            (
                side,
                state,
                LimbGoal {
                    end_in_world: state.ankle_in_world,
                    pole_in_world: None,
                    end_rot_in_world: Some(state.rot_in_world()),
                },
            )
        });
        let mut clamped_legs = 0u8;
        // Ankle pointing of each gesturing leg (radians of plantar flexion), from pass 0 on.
        // (how far the gesture has blended in, 0..1), and the foot's world rotation it leaves.
        let mut gesture_point: [Option<f32>; 2] = [None, None];
        // How far each foot's gesture rests it on the floor (a tap), and that blended in with the
        // gesture.
        let mut tap_touch = [0.0f32; 2];
        let mut tap_blended = [0.0f32; 2];
        let mut foot_rot_before_gesture = [Quat::IDENTITY; 2];
        // How far each foot in the air was lifted so it does not dip below the floor, metres.
        let mut air_lift = [0.0f32; 2];
        for pass in 0..3 {
            // On the floor the floor pose keeps the legs within reach.
            let drop = drop_for(Vec3::new(pelvis.x, base_y, pelvis.z), &goals)
                * (1.0 - floor.as_ref().map_or(0.0, |f| f.pelvis_weight));
            pelvis.y = base_y - drop.max(0.0);
            report.pelvis_drop_m = drop.max(0.0);
            pose.pelvis_in_world = pelvis;
            clamped_legs = 0;
            let mut planted_clamped = false;
            for (side, state, goal) in &mut goals {
                let foot = foot_of(*side);
                if pass == 0 {
                    let hip = hip_of(pelvis, *side);
                    if let Some(gesture) = gestures[side.index()] {
                        let blend = gesture.3;
                        let touch = gesture.5;
                        tap_touch[side.index()] = touch;
                        tap_blended[side.index()] = touch * blend;
                        state.ankle_in_world = self.gesture_ankle(skeleton, foot, gesture, hip, yaw, state);
                        state.planted = false;
                        foot_rot_before_gesture[side.index()] = state.rot_in_world();
                        // Pointed in the air; on its ball, the toes flat, where it taps.
                        let pitch = 0.5 + (leg_tap::TAP_PITCH_RAD - 0.5) * touch;
                        state.pitch_rad += (pitch - state.pitch_rad) * blend;
                        state.toe_bend_rad *= 1.0 - blend;
                        if touch > 0.0 {
                            let toes = self.foot_geometry.toe_bend_for(state.pitch_rad.max(0.0));
                            state.toe_bend_rad += toes * touch * blend;
                        }
                        self.foot_geometry.keep_above_floor(state);
                        // A gesturing foot points in line with the shin rather than holding a
                        // world pitch: the ankle's own rotation is set after each solve.
                        *goal = LimbGoal {
                            end_in_world: state.ankle_in_world,
                            pole_in_world: None,
                            end_rot_in_world: None,
                        };
                        gesture_point[side.index()] = Some(blend);
                    }
                }
                let ankle_joint = if *side == Side::Left { JointId::AnkleL } else { JointId::AnkleR };
                // A planted foot keeps its contact points: where the ankle's limits stop the foot
                // from taking the wanted angle, the foot rolls onto the ball (toes down) or the
                // heel (toes up) of its flat placement, so no point of the sole leaves or sinks.
                let geo = &self.foot_geometry;
                let yaw_rot = Quat::from_rotation_y(state.yaw_rad);
                let pivot_now = super::feet::contact_point(geo, state);
                let pivot_local_flat = if state.pitch_rad > 1e-4 {
                    geo.ball_contact_in_ankle()
                } else if state.pitch_rad < -1e-4 {
                    geo.heel_in_ankle
                } else {
                    Vec3::new(0.0, -geo.ankle_height_m, 0.0)
                };
                let ankle_flat = pivot_now - yaw_rot * pivot_local_flat;
                // Where the ankle goes for the foot to take the rotation `got_rot` (what its
                // limits let it take) rolling about the ball or heel of its flat placement.
                let rolled_ankle = |got_rot: Quat| {
                    let toe_dir = yaw_rot.inverse() * (got_rot * Vec3::Z);
                    let pitch = (-toe_dir.y).atan2(toe_dir.z);
                    let local = if pitch > 1e-4 {
                        geo.ball_contact_in_ankle()
                    } else if pitch < -1e-4 {
                        geo.heel_in_ankle
                    } else {
                        Vec3::new(0.0, -geo.ankle_height_m, 0.0)
                    };
                    ankle_flat + yaw_rot * local - got_rot * local
                };
                // In the air near a landing or a lift the foot rolls about its contact as a planted
                // one does, in proportion to how near it is (the weight of its reach, 1 on the
                // floor), so it does not jump by the roll when it lands or lifts.
                let roll_weight = if gesture_point[side.index()].is_none() { reach_weight[side.index()] } else { 0.0 };
                let mut clamped = false;
                let mut within_limits = true;
                // Whether a solve set the knee (the IK's own bend, inside its range).
                let mut hinge_solved = false;
                let mut out_of_reach = false;
                // The ankle's world rotation and position in the pose as each pass leaves it.
                let mut ankle_world = (Quat::IDENTITY, Vec3::ZERO);
                let turn = Quat::from_rotation_y(super::feet::wrap_angle(state.yaw_rad - yaw));
                for _ in 0..6 {
                    // The knee points over the toes: the least-twist pole of a leg whose rest
                    // frame is the pelvis turned to the foot's heading.
                    let hip = hip_of(pelvis, *side);
                    let axis = (goal.end_in_world - hip).normalize_or(Vec3::NEG_Y);
                    let least = least_twist_pole(pelvis_rot * Vec3::NEG_Y, pelvis_rot * (turn * Vec3::Z), axis);
                    goal.pole_in_world = Some(match gestures[side.index()] {
                        Some(g) => self.gesture_pole(skeleton, foot, g, least, axis, yaw),
                        None => least,
                    });
                    match solve_leg_at_pole(skeleton, pose, *side, goal) {
                        Ok(sol) => {
                            hinge_solved = true;
                            clamped = sol.clamped;
                            within_limits = sol.within_limits && sol.end_rot_reached;
                            let short = goal.end_in_world.distance(hip) - sol.end_in_world.distance(hip);
                            out_of_reach = sol.clamped && short.abs() > 1e-3;
                        }
                        Err(_) => clamped = true,
                    }
                    if let Some(blend) = gesture_point[side.index()] {
                        // From the foot's own rotation to pointing in line with the shin.
                        let knee = if *side == Side::Left { JointId::KneeL } else { JointId::KneeR };
                        let knee_world = joint_world(skeleton, pose, knee);
                        let shin = knee_world.0;
                        let pointed = shin * Quat::from_rotation_x(GESTURE_POINT_RAD);
                        let touch = tap_touch[side.index()];
                        let pointed = if touch > 0.0 {
                            let tapping =
                                Quat::from_rotation_y(state.yaw_rad) * Quat::from_rotation_x(leg_tap::TAP_PITCH_RAD);
                            pointed.slerp(tapping, touch)
                        } else {
                            pointed
                        };
                        let wanted = foot_rot_before_gesture[side.index()].slerp(pointed, blend);
                        let limits = skeleton.limits(ankle_joint);
                        pose.set_local(ankle_joint, limits.clamp(shin.inverse() * wanted));
                        ankle_world = child_world(skeleton, pose, knee_world, ankle_joint);
                    } else {
                        ankle_world = joint_world(skeleton, pose, ankle_joint);
                    }
                    if !state.planted {
                        // In the air: if the foot the leg could reach dips below the floor, lift
                        // the target by that much and solve again.
                        let (got_rot, got_pos) = ankle_world;
                        if roll_weight > 0.0
                            && let Some(want) = goal.end_rot_in_world
                            && got_rot.angle_between(want) >= 1e-4
                        {
                            goal.end_in_world = state.ankle_in_world.lerp(rolled_ankle(got_rot), roll_weight)
                                + Vec3::Y * air_lift[side.index()];
                            goal.end_rot_in_world = Some(got_rot);
                            continue;
                        }
                        let toe_dir = yaw_rot.inverse() * (got_rot * Vec3::Z);
                        let actual =
                            FootState { ankle_in_world: got_pos, pitch_rad: (-toe_dir.y).atan2(toe_dir.z), ..*state };
                        // In a flight the toes take the flight keys' bend (see `flight_toe_bend`):
                        // the foot is lifted until they clear with it, so that bend never has to
                        // give way to another (a pointed foot hanging to the floor would flicker
                        // between the wanted bend and toes curled up).
                        // (A tapping foot keeps the ground's toes even in a flight.)
                        let ground = geo.toe_bend_for(actual.pitch_rad.max(0.0));
                        let toes = match (flying, tap_blended[side.index()]) {
                            (false, _) => ground,
                            (true, 0.0) => state.toe_bend_rad,
                            (true, touch) => state.toe_bend_rad + (ground - state.toe_bend_rad) * touch,
                        };
                        let probe = FootState { toe_bend_rad: toes, ..actual };
                        let low = geo.lowest_sole_y_turned(&probe, got_rot);
                        if low >= 4e-4 {
                            break;
                        }
                        goal.end_in_world.y += 5e-4 - low;
                        air_lift[side.index()] += 5e-4 - low;
                        continue;
                    }
                    let got_rot = ankle_world.0;
                    let want = goal.end_rot_in_world.unwrap_or(got_rot);
                    if got_rot.angle_between(want) < 1e-4 {
                        break;
                    }
                    goal.end_in_world = rolled_ankle(got_rot);
                    goal.end_rot_in_world = Some(got_rot);
                }
                if clamped {
                    clamped_legs += 1;
                    planted_clamped |= state.planted;
                }
                let mut limited = !within_limits;
                if !state.planted {
                    // Limits that move the foot by more than a millimetre count as out of reach.
                    let before = ankle_world.1;
                    let clamped_joints =
                        clamp_to_limits(skeleton, pose, crate::pose::skeleton::Limb::leg(*side), false, hinge_solved);
                    clamped_legs += clamped_joints;
                    // (Nothing clamped: the pose and the ankle did not move.)
                    if clamped_joints > 0 {
                        ankle_world = joint_world(skeleton, pose, ankle_joint);
                    }
                    let moved = clamped_joints > 0 && ankle_world.1.distance(before) > 1e-3;
                    clamped |= moved;
                    limited |= moved;
                }
                // A knee the score placed that the hip's limits kept elsewhere.
                limited |= gestures[side.index()]
                    .is_some_and(|g| self.gesture_knee_missed(skeleton, foot, g, hip_of(pelvis, *side), yaw, pose));
                let i = side.index();
                report.legs_clamped[i] = clamped;
                report.legs_out_of_reach[i] = out_of_reach;
                report.legs_limited[i] = limited;
                // Keep the toes on (or off) the floor for the pitch the foot actually took: in a
                // flight the flight keys say; a foot well off the floor keeps its toes straight.
                let (got_rot, got_pos) = ankle_world;
                report.legs_miss_m[i] = got_pos.distance(goal.end_in_world);
                report.feet_planted[i] = state.planted;
                let ball = if *side == Side::Left { JointId::BallL } else { JointId::BallR };
                let toe_dir = yaw_rot.inverse() * (got_rot * Vec3::Z);
                let pitch = (-toe_dir.y).atan2(toe_dir.z);
                let straight = FootState { ankle_in_world: got_pos, pitch_rad: pitch, toe_bend_rad: 0.0, ..*state };
                // Toes that keep the tip on the floor straighten as the foot rises (over its first
                // 2 cm of clearance, continuously: they never snap straight at one height).
                let clearance = if state.planted { 0.0 } else { geo.lowest_sole_y_turned(&straight, got_rot) };
                let on_floor = 1.0 - smoothstep((clearance / TOE_STRAIGHTEN_M).clamp(0.0, 1.0));
                let ground = self.foot_geometry.toe_bend_for(pitch) * on_floor;
                let toe_bend = self.flight_toe_bend(t, state, got_pos, got_rot).map_or(ground, |flight| {
                    match tap_blended[side.index()] {
                        0.0 => flight,
                        touch => flight + (ground - flight) * touch,
                    }
                });
                pose.set_local(ball, skeleton.limits(ball).clamp(Quat::from_rotation_x(toe_bend)));
            }
            if !planted_clamped {
                break;
            }
        }
        report.clamped_limbs += clamped_legs;
        if let Some(f) = &floor {
            self.floor_legs(skeleton, pose, f, &feet);
        }

        // Arms. Nothing here turns the chest or the joints above it: its world frame serves both
        // clavicles.
        let chest_world = joint_world(skeleton, pose, JointId::Chest);
        for side in [Side::Left, Side::Right] {
            let (shoulder, elbow, wrist, limb) = match side {
                Side::Left => (JointId::ShoulderL, JointId::ElbowL, JointId::WristL, LimbId::ArmLeft),
                Side::Right => (JointId::ShoulderR, JointId::ElbowR, JointId::WristR, LimbId::ArmRight),
            };
            let upper = skeleton.bone_length_m(elbow);
            let lower = skeleton.bone_length_m(wrist);
            // Nothing here turns the clavicle or the joints above it: its world frame serves every
            // solve of this arm and each walk down to the wrist.
            let arm_limb = crate::pose::skeleton::Limb::arm(side);
            let clavicle_world = child_world(skeleton, pose, chest_world, arm_limb.parent);
            let wrist_world = |pose: &Pose| {
                let shoulder_world = child_world(skeleton, pose, clavicle_world, shoulder);
                child_world(skeleton, pose, child_world(skeleton, pose, shoulder_world, elbow), wrist)
            };
            let (_, shoulder_pos) = child_world(skeleton, pose, clavicle_world, shoulder);
            let (aim, ends) =
                arm_at(self.plan.limbs.get(&limb), t, side, skeleton.limits(shoulder), &self.arm_bows[side.index()]);
            // Segments the score gives, as near as the shoulder lets both be (the upper arm's
            // direction first), world space.
            let clavicle_rot = clavicle_world.0;
            let held = |(u, l): (Vec3, Vec3)| {
                let (u, l) = (world_from_body(u, yaw), world_from_body(l, yaw));
                (arm_segments::held_segments(skeleton.limits(shoulder), clavicle_rot, side, u, l), u, l)
            };
            let goal_of = |(dir, bend, reach_scale, segs): Aim| {
                let goal = match segs {
                    Some(segs) => {
                        let held = held(segs).0;
                        let elbow_pos = shoulder_pos + held.upper * upper;
                        let wrist_pos = elbow_pos + held.lower * lower;
                        LimbGoal {
                            end_in_world: wrist_pos,
                            pole_in_world: Some(elbow_pos - shoulder_pos),
                            end_rot_in_world: None,
                        }
                    }
                    None => {
                        let reach = reach_for(upper, lower, bend) * reach_scale;
                        let mut dir_w = world_from_body(dir, yaw);
                        if dir_w.length_squared() < 1e-8 {
                            dir_w = -Vec3::Y;
                        }
                        LimbGoal {
                            end_in_world: shoulder_pos + dir_w.normalize() * reach.max(0.12),
                            pole_in_world: None,
                            end_rot_in_world: None,
                        }
                    }
                };
                // On the floor a free hand hangs above it; a hand bearing weight goes to its contact.
                let goal = match &floor {
                    Some(_) => {
                        let e = goal.end_in_world;
                        LimbGoal { end_in_world: Vec3::new(e.x, e.y.max(super::floor::FREE_WRIST_MIN_M), e.z), ..goal }
                    }
                    None => goal,
                };
                match floor.as_ref().and_then(|f| f.arms[side.index()]) {
                    Some((a, w)) => LimbGoal { end_in_world: goal.end_in_world.lerp(a.wrist_in_world, w), ..goal },
                    None => goal,
                }
            };
            let goal = goal_of(aim);
            // A straight arm's target lies on the edge of its reach: out of reach means missed.
            // The compiled swivel path of a whole-arm move (of the key it ends at).
            let path = |s: f32| {
                let track = self.plan.limbs.get(&limb)?;
                let key = track.keys.partition_point(|k| k.t_end_secs <= t);
                self.arm_swivels.path(side, key).map(|p| p.at(s))
            };
            // Every solve but the one between two keys' own swivels (which sets the upper arm's
            // twist itself) leaves the shoulder as the IK solved it.
            let shoulder_as_solved = !matches!(ends, Some((_, _, _, true)));
            // Between two keys: their own swivels blended (the flag), or the move's swivel path.
            let between = match ends {
                Some((from, to, s, true)) => Some((from, to, s, None)),
                Some((from, to, s, false)) => path(s).map(|p| (from, to, s, Some(p))),
                None => None,
            };
            let solved = match between {
                Some((from, to, s, path)) => solve_arm_between(
                    skeleton,
                    pose,
                    clavicle_world,
                    side,
                    &goal,
                    &goal_of(from),
                    &goal_of(to),
                    s,
                    path,
                ),
                None => solve_limb_in_pose_from(skeleton, pose, arm_limb, &goal, clavicle_world),
            };
            let hinge_solved = solved.is_ok();
            let (mut clamped, out_of_reach, within_limits) = match solved {
                // Out of reach: the target's distance from the shoulder is one the arm cannot take.
                Ok(sol) => {
                    let short = goal.end_in_world.distance(shoulder_pos) - sol.end_in_world.distance(shoulder_pos);
                    (!sol.reached, sol.clamped && short.abs() > 1e-3, sol.within_limits)
                }
                Err(_) => (true, true, false),
            };
            // Limits that move the hand by more than a millimetre count as out of reach.
            let before = wrist_world(pose).1;
            // (A shoulder the IK left within its limits needs no second look.)
            let limited = clamp_to_limits(skeleton, pose, arm_limb, shoulder_as_solved && within_limits, hinge_solved);
            let after = if limited > 0 { wrist_world(pose).1 } else { before };
            let moved = after.distance(before) > 1e-3;
            clamped |= moved;
            report.clamped_limbs += u8::from(clamped) + limited;
            let i = side.index();
            report.arms_clamped[i] = clamped;
            report.arms_out_of_reach[i] = out_of_reach;
            report.arms_limited[i] = moved || !within_limits;
            report.arms_miss_m[i] = after.distance(goal.end_in_world);
            if let Some((h, u, l)) = aim.3.map(held) {
                report.arms_upper_held_rad[i] = h.upper.angle_between(u);
                report.arms_lower_held_rad[i] = h.lower.angle_between(l);
            }
            report.clamped_limbs += self.pose_hand(skeleton, pose, clavicle_world, side, t, yaw);
            if let Some(f) = &floor {
                self.floor_hand(skeleton, pose, side, f, yaw);
            }
        }
        let gesturing = gestures.map(|g| g.map_or(0.0, |g| g.3));
        super::rotations::rotate_limbs(&self.plan, skeleton, pose, t, gesturing);
        report
    }
}

/// Solves a leg towards `goal`. With a foot rotation (a foot on or near the floor) the knee goes
/// exactly towards the goal's pole, with no swivel search, so the knee is a continuous function
/// of the goal (a search for the swivel nearest the pole inside the limits jumps whenever the
/// feasible range changes shape); the ankle's limits then clamp the foot's rotation and the caller
/// rolls the foot about its contact. A gesturing leg (no foot rotation) still searches, which
/// keeps the hip inside its limits.
fn solve_leg_at_pole(
    skeleton: &Skeleton,
    pose: &mut Pose,
    side: Side,
    goal: &LimbGoal,
) -> Result<crate::pose::ik::LimbIkSolution, crate::pose::ik::IkError> {
    let limb = crate::pose::skeleton::Limb::leg(side);
    let mut job = crate::pose::ik::limb_job(skeleton, pose, limb, goal);
    job.search_swivel = goal.end_rot_in_world.is_none();
    let solution = crate::pose::ik::solve_limb(&job)?;
    pose.set_local(limb.root, solution.root_local);
    pose.set_local(limb.mid, solution.mid_local);
    if let Some(end_local) = solution.end_local {
        pose.set_local(limb.end, end_local);
    }
    Ok(solution)
}

/// Brings a limb's root and hinge inside their joint limits (the target was not reachable
/// within them); returns 1 when something had to move. `root_within`: the root is the IK's own
/// answer and within its limits (by its 1e-5 rad, inside the 1e-4 here), so it is not looked
/// at. `hinge_solved`: the hinge is the IK's own answer, a bend about its axis inside the range
/// the hinge's limits give (to rounding, far inside the 1e-4 here), so it is not looked at.
fn clamp_to_limits(
    skeleton: &Skeleton,
    pose: &mut Pose,
    limb: crate::pose::skeleton::Limb,
    root_within: bool,
    hinge_solved: bool,
) -> u8 {
    let mut moved = 0;
    for (j, within) in [(limb.root, root_within), (limb.mid, hinge_solved)] {
        if within {
            continue;
        }
        let limits = skeleton.limits(j);
        let q = pose.local(j);
        if limits.violation_rad(q) > 1e-4 {
            pose.set_local(j, limits.clamp(q));
            moved = 1;
        }
    }
    moved
}
