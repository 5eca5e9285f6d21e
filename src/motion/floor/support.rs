//! One group of supports that start together → the next floor state: which parts bear weight,
//! where each touches the floor, and which feet leave their footprints.
//!
//! Rules (labanotation-rules §2.4 carried over to other parts; the numbers are [impl. choice]):
//! a knee, seat or torso support replaces the support of the columns it is written in and keeps
//! the other side's; a place knee lands under its hip (beside a standing foot: 0.45 L behind
//! it, a half kneel), a direction moves it 0.3 L that way (both knees at once: half each); hands
//! land under the shoulders of the posture (in front of the knees, behind the seat, in front of
//! the feet), moved 0.3 L by a direction; the seat and the lying body land under the centre,
//! moved 0.35 L by a direction. A foot step, a seat or a torso support releases the hands, except
//! hands held by a hold sign while the feet walk; a knee, foot or hand written without a seat
//! or torso sign ends sitting or lying.

use super::{FloorPart, FloorState, LegSupport, Lying};
use crate::motion::plan::{forward_of, right_of};
use crate::read::{Direction, Level};
use glam::{Vec2, Vec3};

/// A direction sign in a support column whose pre-sign makes a part other than the foot bear
/// weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorPartEntry {
    /// The part.
    pub part: FloorPart,
    /// Where it goes (from the centre of weight).
    pub direction: Direction,
    /// Its level (knee: low sits on the heels; seat: low draws the knees up).
    pub level: Level,
}

/// Everything [`plan_floor_support`] reads.
#[derive(Clone, Copy, Debug)]
pub struct FloorInput<'a> {
    /// The floor state before this group (`None`: standing on the feet).
    pub previous: Option<FloorState>,
    /// The group's floor-part supports.
    pub entries: &'a [FloorPartEntry],
    /// Left and right: a foot step is written in that support column in this group.
    pub feet_written: [bool; 2],
    /// Left and right: a hand on the floor the group's foot steps do not take off it (held by a
    /// hold sign while the feet walk, as into a plank; not when both feet rise in place).
    pub hands_kept: [bool; 2],
    /// Left and right: where that foot stands now (ground point), if planted.
    pub planted_feet_in_world: [Option<Vec3>; 2],
    /// Centre of weight over the floor (y = 0) after the group's foot steps, world space.
    pub centre_in_world: Vec3,
    /// Facing, radians.
    pub yaw_rad: f32,
    /// Leg length (hip to floor), metres: the distances scale with it.
    pub leg_length_m: f32,
    /// Half the distance between the hip joints (and the feet standing together), metres.
    pub hip_half_width_m: f32,
}

/// What [`plan_floor_support`] decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorOutcome {
    /// The new state (`None`: standing on the feet again).
    pub state: Option<FloorState>,
    /// Centre of weight over the floor afterwards.
    pub centre_in_world: Vec3,
    /// Left and right: the foot leaves its footprint when the group starts.
    pub lift_feet: [bool; 2],
    /// Entries turned into motion.
    pub interpreted: usize,
}

fn step_dir(direction: Direction) -> Vec2 {
    match direction.azimuth_cw_rad() {
        None => Vec2::ZERO,
        Some(az) => Vec2::new(az.sin(), az.cos()),
    }
}

/// How far a direction moves a knee, leg lengths.
const KNEE_REACH_LEGS: f32 = 0.3;

/// Where one knee goes down in place beside a standing foot, in knee reaches (forward < 0:
/// behind the hip, a half kneel).
const HALF_KNEEL_BACK: Vec2 = Vec2::new(0.0, -1.5);

/// How far a direction moves the seat or the lying body, leg lengths.
const SEAT_REACH_LEGS: f32 = 0.35;

/// A torso support lies on the front when its direction leans forward more than this (the
/// direction's forward component).
const ON_FRONT_MIN_FORWARD: f32 = 0.1;

/// How far a direction moves a hand, leg lengths.
const HAND_REACH_LEGS: f32 = 0.3;

/// Sitting, the hands land this many times as far out as the shoulders.
const HANDS_BESIDE_SEAT_SPREAD: f32 = 1.1;

/// Sitting, the hands land this far behind the seat, leg lengths.
const HANDS_BEHIND_SEAT_LEGS: f32 = 0.2;

/// Kneeling, the hands land this far in front of the knees, leg lengths.
const HANDS_BEFORE_KNEES_LEGS: f32 = 0.55;

/// On the feet, the hands land this far in front of the centre, leg lengths.
const HANDS_BEFORE_FEET_LEGS: f32 = 0.5;

/// The body the group's distances are measured from: its facing and its hips.
struct BodyFrame {
    /// Facing, radians.
    yaw: f32,
    /// Hip half width, metres.
    hip_half_width_m: f32,
}

impl BodyFrame {
    /// From the centre to hip `i` (0 left, 1 right), on the floor.
    fn lateral(&self, i: usize) -> Vec3 {
        right_of(self.yaw) * if i == 0 { -1.0 } else { 1.0 } * self.hip_half_width_m
    }

    /// A direction in the body (x right, y forward) in the world.
    fn body(&self, d: Vec2) -> Vec3 {
        right_of(self.yaw) * d.x + forward_of(self.yaw) * d.y
    }
}

/// Which parts the group writes.
struct Written {
    /// Knee supports.
    knees: usize,
    /// A seat support.
    seat: bool,
    /// A torso support.
    torso: bool,
    /// A hand support.
    hands: bool,
}

/// The next floor state after one support group (a plain function of its inputs).
pub fn plan_floor_support(input: &FloorInput) -> FloorOutcome {
    let yaw = input.yaw_rad;
    let frame = BodyFrame { yaw, hip_half_width_m: input.hip_half_width_m };
    let mut st = input.previous.unwrap_or(FloorState {
        legs: [LegSupport::Foot, LegSupport::Foot],
        hands: [None, None],
        seat: None,
        lying: None,
        low: false,
        yaw_rad: yaw,
        feet: [None, None],
    });
    st.yaw_rad = yaw;
    let mut lift_feet = [false; 2];
    let writes = |f: fn(&FloorPart) -> bool| input.entries.iter().any(|e| f(&e.part));
    let written = Written {
        knees: input.entries.iter().filter(|e| matches!(e.part, FloorPart::Knee(_))).count(),
        seat: writes(|p| *p == FloorPart::Seat),
        torso: writes(|p| *p == FloorPart::Torso),
        hands: writes(|p| matches!(p, FloorPart::Hand(_))),
    };
    // Knees, seat and torso first: the hands are placed relative to them.
    let mut interpreted = knees_seat_and_torso(input, &frame, &written, &mut st, &mut lift_feet);
    release_supports(input, &frame, &written, &mut st, &mut lift_feet);
    interpreted += place_hands(input, &frame, &mut st);
    let new_centre = centre_of_weight(input, &frame, &st);
    st.feet = [0, 1].map(|i| if st.legs[i] == LegSupport::Foot { input.planted_feet_in_world[i] } else { None });
    let state = if st.is_standing() { None } else { Some(st) };
    FloorOutcome { state, centre_in_world: new_centre, lift_feet, interpreted }
}

/// The group's knee, seat and torso supports land; the number of entries read.
fn knees_seat_and_torso(
    input: &FloorInput,
    frame: &BodyFrame,
    written: &Written,
    st: &mut FloorState,
    lift_feet: &mut [bool; 2],
) -> usize {
    let leg = input.leg_length_m;
    let centre = input.centre_in_world;
    let mut interpreted = 0;
    for e in input.entries {
        let d = step_dir(e.direction);
        match e.part {
            FloorPart::Knee(side) => {
                let i = side.index();
                let share = if written.knees > 1 { 0.5 } else { 1.0 };
                // One knee down in place beside a standing foot goes down behind it, so the
                // standing leg's shin can stay upright (a half kneel).
                let other_stands = written.knees == 1 && st.legs[1 - i] == LegSupport::Foot;
                let d = if d == Vec2::ZERO && other_stands { HALF_KNEEL_BACK } else { d };
                let at = centre + frame.lateral(i) + frame.body(d) * KNEE_REACH_LEGS * leg * share;
                st.legs[i] = LegSupport::Knee(Vec3::new(at.x, 0.0, at.z));
                lift_feet[i] = true;
                st.low = e.level == Level::Low;
                interpreted += 1;
            }
            FloorPart::Seat => {
                let at = centre + frame.body(d) * SEAT_REACH_LEGS * leg;
                st.seat = Some(Vec3::new(at.x, 0.0, at.z));
                st.lying = None;
                st.low = e.level == Level::Low;
                interpreted += 1;
            }
            FloorPart::Torso => {
                let on = if d.y > ON_FRONT_MIN_FORWARD { Lying::OnFront } else { Lying::OnBack };
                let at = centre + frame.body(d) * SEAT_REACH_LEGS * leg;
                st.lying = Some((on, Vec3::new(at.x, 0.0, at.z)));
                st.seat = None;
                interpreted += 1;
            }
            FloorPart::Hand(_) | FloorPart::Foot(_) => {}
        }
    }
    interpreted
}

/// What the group ends: sitting or lying down rests the legs not stepping and takes the weight
/// off the hands; a foot step stands that leg and releases the hands; a knee, foot or hand
/// written without a seat or torso sign ends sitting or lying.
// Left/right index several parallel per-side arrays at once.
#[allow(clippy::needless_range_loop)]
fn release_supports(
    input: &FloorInput,
    frame: &BodyFrame,
    written: &Written,
    st: &mut FloorState,
    lift_feet: &mut [bool; 2],
) {
    let centre = input.centre_in_world;
    if written.seat || written.torso {
        for i in 0..2 {
            if !input.feet_written[i] {
                st.legs[i] = LegSupport::Resting;
                lift_feet[i] = true;
            }
        }
        // Sitting or lying down takes the weight off the hands unless they are written again.
        st.hands = [None, None];
    }
    for i in 0..2 {
        if input.feet_written[i] {
            st.legs[i] = LegSupport::Foot;
        }
    }
    // A knee, foot or hand written without a seat or torso sign ends sitting or lying.
    let other_support = written.knees > 0 || input.feet_written.iter().any(|w| *w) || written.hands;
    if other_support && !written.seat && !written.torso && (st.seat.is_some() || st.lying.is_some()) {
        st.seat = None;
        st.lying = None;
        for i in 0..2 {
            if st.legs[i] == LegSupport::Resting {
                let at = centre + frame.lateral(i);
                st.legs[i] = LegSupport::FreeKnee(Vec3::new(at.x, 0.0, at.z));
            }
        }
    }
    // A foot step releases the hands (unless they are kept or written again).
    if input.feet_written.iter().any(|w| *w) {
        for i in 0..2 {
            if !input.hands_kept[i] {
                st.hands[i] = None;
            }
        }
    }
}

/// The group's hand supports land under the shoulders of the posture: behind the seat, in
/// front of the knees, or in front of the feet; the number of entries read.
fn place_hands(input: &FloorInput, frame: &BodyFrame, st: &mut FloorState) -> usize {
    let (yaw, leg, centre) = (frame.yaw, input.leg_length_m, input.centre_in_world);
    let mut interpreted = 0;
    // Knee steps: a knee that was bearing weight and was not written stays down (the other side
    // of a kneel keeps its support, as feet do while a step is in progress).
    let knees: Vec<Vec3> =
        st.legs.iter().filter_map(|l| if let LegSupport::Knee(p) = l { Some(*p) } else { None }).collect();
    for e in input.entries {
        let FloorPart::Hand(side) = e.part else { continue };
        let i = side.index();
        let d = frame.body(step_dir(e.direction)) * HAND_REACH_LEGS * leg;
        let shoulder = frame.lateral(i) * 2.0;
        let at = if let Some(seat) = st.seat {
            seat + shoulder * HANDS_BESIDE_SEAT_SPREAD - forward_of(yaw) * HANDS_BEHIND_SEAT_LEGS * leg + d
        } else if !knees.is_empty() {
            let mid = knees.iter().copied().sum::<Vec3>() / knees.len() as f32;
            let mid_lat = st
                .legs
                .iter()
                .enumerate()
                .filter(|(_, l)| matches!(l, LegSupport::Knee(_)))
                .map(|(j, _)| frame.lateral(j))
                .sum::<Vec3>()
                / knees.len() as f32;
            mid - mid_lat + shoulder + forward_of(yaw) * HANDS_BEFORE_KNEES_LEGS * leg + d
        } else {
            centre + shoulder + forward_of(yaw) * HANDS_BEFORE_FEET_LEGS * leg + d
        };
        st.hands[i] = Some(Vec3::new(at.x, 0.0, at.z));
        interpreted += 1;
    }
    interpreted
}

/// The centre of weight: the mean of the bearing points under the legs, or the seat, or the
/// lying body; unchanged when nothing bears weight.
// Left/right index several parallel per-side arrays at once.
#[allow(clippy::needless_range_loop)]
fn centre_of_weight(input: &FloorInput, frame: &BodyFrame, st: &FloorState) -> Vec3 {
    let mut points: Vec<Vec3> = Vec::new();
    for i in 0..2 {
        match st.legs[i] {
            LegSupport::Knee(p) => points.push(p - frame.lateral(i)),
            LegSupport::Foot => {
                if let Some(p) = input.planted_feet_in_world[i] {
                    points.push(p - frame.lateral(i));
                }
            }
            _ => {}
        }
    }
    if let Some(s) = st.seat {
        points = vec![s];
    }
    if let Some((_, p)) = st.lying {
        points = vec![p];
    }
    if points.is_empty() {
        input.centre_in_world
    } else {
        let m = points.iter().copied().sum::<Vec3>() / points.len() as f32;
        Vec3::new(m.x, 0.0, m.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::side::Side;

    fn input<'a>(previous: Option<FloorState>, entries: &'a [FloorPartEntry]) -> FloorInput<'a> {
        FloorInput {
            previous,
            entries,
            feet_written: [false; 2],
            hands_kept: [false; 2],
            planted_feet_in_world: [Some(Vec3::new(0.09, 0.0, 0.0)), Some(Vec3::new(-0.09, 0.0, 0.0))],
            centre_in_world: Vec3::ZERO,
            yaw_rad: 0.0,
            leg_length_m: 0.9,
            hip_half_width_m: 0.09,
        }
    }

    fn knee(side: Side, direction: Direction) -> FloorPartEntry {
        FloorPartEntry { part: FloorPart::Knee(side), direction, level: Level::High }
    }

    #[test]
    fn both_knees_in_place_land_under_the_hips_and_lift_the_feet() {
        let e = [knee(Side::Left, Direction::Place), knee(Side::Right, Direction::Place)];
        let out = plan_floor_support(&input(None, &e));
        let st = out.state.expect("kneeling is a floor state");
        // Yaw 0: the dancer's right is −X.
        assert_eq!(st.legs[0], LegSupport::Knee(Vec3::new(0.09, 0.0, 0.0)));
        assert_eq!(st.legs[1], LegSupport::Knee(Vec3::new(-0.09, 0.0, 0.0)));
        assert_eq!(out.lift_feet, [true, true]);
        assert!(out.centre_in_world.length() < 1e-6);
        assert_eq!(out.interpreted, 2);
    }

    #[test]
    fn one_knee_keeps_the_other_foot_and_feet_end_the_floor_state() {
        let e = [knee(Side::Right, Direction::Backward)];
        let out = plan_floor_support(&input(None, &e));
        let st = out.state.expect("half kneeling");
        assert_eq!(st.legs[0], LegSupport::Foot);
        assert!(matches!(st.legs[1], LegSupport::Knee(p) if p.z < -0.2));
        assert_eq!(out.lift_feet, [false, true]);
        // The right foot steps again: standing.
        let mut up = input(Some(st), &[]);
        up.feet_written = [false, true];
        assert_eq!(plan_floor_support(&up).state, None);
    }

    #[test]
    fn hands_go_in_front_of_the_knees_and_a_seat_ends_kneeling() {
        let kneel = plan_floor_support(&input(
            None,
            &[knee(Side::Left, Direction::Place), knee(Side::Right, Direction::Place)],
        ))
        .state;
        let hands = [
            FloorPartEntry { part: FloorPart::Hand(Side::Left), direction: Direction::Place, level: Level::Low },
            FloorPartEntry { part: FloorPart::Hand(Side::Right), direction: Direction::Place, level: Level::Low },
        ];
        let fours = plan_floor_support(&input(kneel, &hands)).state.expect("all fours");
        for h in fours.hands {
            assert!(h.expect("hand down").z > 0.4, "hands in front of the knees: {h:?}");
        }
        let sit = [FloorPartEntry { part: FloorPart::Seat, direction: Direction::Backward, level: Level::Middle }];
        let seated = plan_floor_support(&input(Some(fours), &sit)).state.expect("sitting");
        assert!(seated.seat.is_some_and(|s| s.z < -0.2));
        assert!(seated.legs.iter().all(|l| *l == LegSupport::Resting));
    }

    #[test]
    fn mirrored_sides_mirror() {
        let l = plan_floor_support(&input(None, &[knee(Side::Left, Direction::LeftForward)])).state.unwrap();
        let r = plan_floor_support(&input(None, &[knee(Side::Right, Direction::RightForward)])).state.unwrap();
        let (LegSupport::Knee(a), LegSupport::Knee(b)) = (l.legs[0], r.legs[1]) else { panic!("knees") };
        assert!((a.x + b.x).abs() < 1e-6 && (a.z - b.z).abs() < 1e-6, "{a} vs {b}");
    }
}
