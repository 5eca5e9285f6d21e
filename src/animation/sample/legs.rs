//! The legs: each foot from its keys (or its leg's gesture), solved by analytic IK over a few
//! passes, each pass lowering the pelvis as far as the planted feet (and the feet near a landing
//! or lift) need to stay within the legs' reach.

use super::body_frame::BodyFrame;
use super::foot_roll::FootRoll;
use super::limit_clamps::clamp_leg_to_limits;
use super::{DancerAnimation, FootState, JointId, LegGesture, Pose, SampleReport, Side, Skeleton, leg_tap};
use crate::motion::plan::Foot;
use crate::pose::ik::LimbGoal;
use glam::{Quat, Vec3};

/// The most the pelvis lowers to keep a foot within the leg's reach, metres.
const MAX_PELVIS_DROP_M: f32 = 0.3;

/// The part of a straight leg's length the pelvis drop keeps a foot within.
const DROP_REACH_FRACTION: f32 = 0.999;

/// Passes of the legs' solve (each pass lowers the pelvis again while a planted leg is clamped).
const LEG_PASSES: usize = 3;

/// Pitch of a gesturing foot pointed in the air (heel up), radians.
const GESTURE_AIR_PITCH_RAD: f32 = 0.5;

/// One leg through the passes of the legs' solve.
pub(super) struct Leg {
    pub side: Side,
    /// Where the foot keys put the foot (and, from the first pass on, the leg's gesture).
    pub state: FootState,
    /// What the leg is solved towards; each pass starts from where the last one left it.
    pub goal: LimbGoal,
    /// How far the leg's gesture has blended in, 0..1, where it has one: the ankle then points
    /// in line with the shin (set after each solve).
    pub gesture_blend: Option<f32>,
    /// How far the gesture rests the foot on the floor (a tap), 0..1.
    pub tap_touch: f32,
    /// [`Self::tap_touch`] blended in with the gesture.
    pub tap_blended: f32,
    /// The foot's world rotation before its gesture blended in.
    pub foot_rot_before_gesture: Quat,
    /// How far the foot in the air was lifted so it does not dip below the floor, metres.
    pub air_lift_m: f32,
}

impl Leg {
    fn new(side: Side, state: FootState) -> Leg {
        Leg {
            side,
            state,
            goal: LimbGoal {
                end_in_world: state.ankle_in_world,
                pole_in_world: None,
                end_rot_in_world: Some(state.rot_in_world()),
            },
            gesture_blend: None,
            tap_touch: 0.0,
            tap_blended: 0.0,
            foot_rot_before_gesture: Quat::IDENTITY,
            air_lift_m: 0.0,
        }
    }
}

/// What each leg's solve reads: the body frame, the pelvis where the current pass puts it.
pub(super) struct LegFrame<'a> {
    pub skeleton: &'a Skeleton,
    pub t: f64,
    /// Facing, radians.
    pub yaw_rad: f32,
    /// The pelvis, world space, as the current pass lowers it.
    pub pelvis_in_world: Vec3,
    /// The pelvis' world rotation.
    pub world_from_pelvis: Quat,
    /// Whether the dancer is in a flight.
    pub flying: bool,
    /// How much each foot's reach counts for the pelvis drop (and how far a foot in the air
    /// rolls about its contact): 1 on the floor, fading in the air away from a landing or lift.
    pub reach_weight: [f32; 2],
    /// The active leg gestures (left, right).
    pub gestures: [Option<LegGesture>; 2],
}

impl LegFrame<'_> {
    /// The hip joint of the leg on `side`, world space.
    pub fn hip_in_world(&self, side: Side) -> Vec3 {
        hip_of(self.skeleton, self.world_from_pelvis, self.pelvis_in_world, side)
    }
}

/// The hip joint on `side` of a pelvis at `pelvis` turned by `pelvis_rot`, world space.
fn hip_of(skeleton: &Skeleton, pelvis_rot: Quat, pelvis: Vec3, side: Side) -> Vec3 {
    pelvis + pelvis_rot * skeleton.rest_offset(if side == Side::Left { JointId::HipL } else { JointId::HipR })
}

/// Thigh plus lower leg on `side`, metres.
fn leg_len(skeleton: &Skeleton, side: Side) -> f32 {
    let (k, a) = if side == Side::Left { (JointId::KneeL, JointId::AnkleL) } else { (JointId::KneeR, JointId::AnkleR) };
    skeleton.bone_length_m(k) + skeleton.bone_length_m(a)
}

/// How far the pelvis at `pelvis` has to lower so the feet the legs aim at stay within reach
/// (each weighted by how much its reach counts), metres.
fn pelvis_drop(frame: &LegFrame, pelvis: Vec3, legs: &[Leg; 2]) -> f32 {
    let mut drop = 0.0f32;
    for leg in legs {
        let weight = if leg.state.planted { 1.0 } else { frame.reach_weight[leg.side.index()] };
        if weight <= 0.0 {
            continue;
        }
        let hip = hip_of(frame.skeleton, frame.world_from_pelvis, pelvis, leg.side);
        let max_reach = leg_len(frame.skeleton, leg.side) * DROP_REACH_FRACTION;
        let d = leg.goal.end_in_world - hip;
        let horizontal = Vec3::new(d.x, 0.0, d.z).length();
        if d.length() > max_reach {
            // A foot beyond the leg's reach even level with the hip asks for the most
            // drop there is; the cap keeps that (and the drop) continuous.
            let below = (max_reach * max_reach - horizontal * horizontal).max(0.0).sqrt();
            drop = drop.max((-d.y - below).min(MAX_PELVIS_DROP_M) * weight);
        }
    }
    drop
}

/// What one leg's pass counted.
struct LegCount {
    /// Clamped joints and a clamped solve.
    clamped: u8,
    /// Whether the solve of a planted foot was clamped (the pelvis lowers again).
    planted_clamped: bool,
}

impl DancerAnimation {
    /// Poses both legs at `t` (feet, gestures, the pelvis drop) and the pelvis' position.
    pub(super) fn pose_legs(
        &self,
        skeleton: &Skeleton,
        t: f64,
        frame: &BodyFrame,
        pose: &mut Pose,
        report: &mut SampleReport,
    ) {
        let feet: [(Side, FootState); 2] = [
            (Side::Left, self.foot_state(skeleton, Foot::Left, t)),
            (Side::Right, self.foot_state(skeleton, Foot::Right, t)),
        ];
        // How much each foot's reach counts for the drop: a planted foot fully, a foot in the air
        // more the nearer its landing (or its lift), so the pelvis lowers into a long step as
        // the foot reaches the floor instead of dropping when it lands.
        let reach_weight = [Foot::Left, Foot::Right].map(|foot| self.floor_reach_weight(foot, t));
        let mut legs_frame = LegFrame {
            skeleton,
            t,
            yaw_rad: frame.yaw_rad,
            pelvis_in_world: frame.pelvis_in_world,
            world_from_pelvis: frame.world_from_pelvis,
            flying: self.in_flight(t),
            reach_weight,
            gestures: frame.gestures,
        };
        let base_y = frame.pelvis_in_world.y;
        let mut legs = feet.map(|(side, state)| Leg::new(side, state));
        let mut clamped_legs = 0u8;
        for pass in 0..LEG_PASSES {
            // On the floor the floor pose keeps the legs within reach.
            let pelvis = legs_frame.pelvis_in_world;
            let drop = pelvis_drop(&legs_frame, Vec3::new(pelvis.x, base_y, pelvis.z), &legs)
                * (1.0 - frame.floor.as_ref().map_or(0.0, |f| f.pelvis_weight));
            legs_frame.pelvis_in_world.y = base_y - drop.max(0.0);
            report.pelvis_drop_m = drop.max(0.0);
            pose.pelvis_in_world = legs_frame.pelvis_in_world;
            clamped_legs = 0;
            let mut planted_clamped = false;
            for leg in &mut legs {
                if pass == 0
                    && let Some(gesture) = legs_frame.gestures[leg.side.index()]
                {
                    self.start_gesture(&legs_frame, leg, gesture);
                }
                let count = self.pose_leg(&legs_frame, leg, pose, report);
                clamped_legs += count.clamped;
                planted_clamped |= count.planted_clamped;
            }
            if !planted_clamped {
                break;
            }
        }
        report.clamped_limbs += clamped_legs;
        if let Some(f) = &frame.floor {
            self.floor_legs(skeleton, pose, f, &feet);
        }
    }

    /// Puts the foot of `leg` where its `gesture` takes it (the first pass).
    fn start_gesture(&self, frame: &LegFrame, leg: &mut Leg, gesture: LegGesture) {
        let hip = frame.hip_in_world(leg.side);
        let blend = gesture.blend;
        let touch = gesture.touch;
        leg.tap_touch = touch;
        leg.tap_blended = touch * blend;
        let state = &mut leg.state;
        state.ankle_in_world = self.gesture_ankle(frame.skeleton, leg.side, gesture, hip, frame.yaw_rad, state);
        state.planted = false;
        leg.foot_rot_before_gesture = state.rot_in_world();
        // Pointed in the air; on its ball, the toes flat, where it taps.
        let pitch = GESTURE_AIR_PITCH_RAD + (leg_tap::TAP_PITCH_RAD - GESTURE_AIR_PITCH_RAD) * touch;
        state.pitch_rad += (pitch - state.pitch_rad) * blend;
        state.toe_bend_rad *= 1.0 - blend;
        if touch > 0.0 {
            let toes = self.foot_geometry.toe_bend_for(state.pitch_rad.max(0.0));
            state.toe_bend_rad += toes * touch * blend;
        }
        self.foot_geometry.keep_above_floor(state);
        // A gesturing foot points in line with the shin rather than holding a
        // world pitch: the ankle's own rotation is set after each solve.
        leg.goal = LimbGoal { end_in_world: state.ankle_in_world, pole_in_world: None, end_rot_in_world: None };
        leg.gesture_blend = Some(blend);
    }

    /// One pass of one leg: the solve, the joint limits, the report, the toes.
    fn pose_leg(&self, frame: &LegFrame, leg: &mut Leg, pose: &mut Pose, report: &mut SampleReport) -> LegCount {
        let skeleton = frame.skeleton;
        let side = leg.side;
        let roll = FootRoll::new(&self.foot_geometry, &leg.state);
        let mut solve = self.solve_leg(frame, leg, &roll, pose);
        let mut count =
            LegCount { clamped: u8::from(solve.clamped), planted_clamped: solve.clamped && leg.state.planted };
        let mut limited = !solve.within_limits;
        if !leg.state.planted {
            // Limits that move the foot by more than a millimetre count as out of reach.
            let clamp = clamp_leg_to_limits(skeleton, pose, side, solve.hinge_solved, &mut solve.ankle_world);
            count.clamped += clamp.clamped_joints;
            solve.clamped |= clamp.moved;
            limited |= clamp.moved;
        }
        // A knee the score placed that the hip's limits kept elsewhere.
        limited |= frame.gestures[side.index()].is_some_and(|g| {
            self.gesture_knee_missed(skeleton, side, g, frame.hip_in_world(side), frame.yaw_rad, pose)
        });
        let i = side.index();
        report.legs_clamped[i] = solve.clamped;
        report.legs_out_of_reach[i] = solve.out_of_reach;
        report.legs_limited[i] = limited;
        report.legs_miss_m[i] = solve.ankle_world.1.distance(leg.goal.end_in_world);
        report.feet_planted[i] = leg.state.planted;
        self.pose_toes(frame, leg, &roll, solve.ankle_world, pose);
        count
    }
}
