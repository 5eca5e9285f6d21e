//! Floor work: supports on the knees, the hands, the seat and the torso (kneeling, all fours,
//! sitting, lying). [`plan_floor_support`] turns one group of support-column symbols into the parts
//! that bear weight and where they touch the floor; the sampler poses the body on them.
//!
//! A body-part pre-sign in a support column names the part that takes the weight: knee (kneeling),
//! hip or pelvis (sitting), chest or torso at low level (lying), foot or toe (an ordinary step). A
//! hand sign in a leg-gesture column puts that hand on the floor (in a support column it stays a
//! hand gesture). A place knee lands under its hip, a direction moves it 0.3 leg lengths; hands
//! land under the shoulders, in front of the knees or behind the seat. A knee, seat or torso
//! support replaces the support of its own column and keeps the other side's, so one knee and the
//! other foot is a half kneel.
//!
//! Levels: a knee at low level sits back on the heels, otherwise the thigh is upright; a seat at
//! low level draws the knees up, otherwise the legs lie stretched forward; lying is on the back
//! unless the direction is forward. A foot step, a seat or a torso support releases the hands,
//! except hands held by a hold sign while the feet walk (back into a plank);
//! standing on both feet again ends the floor phase. Supports on other parts are supports, not
//! flights, and the centre-of-mass job gets a contact on each side that rests on a knee, the seat
//! or the body. Not done: supports on the head, elbows or shoulders, side lying, rolling, and turns
//! on the knees (reported as skipped).

mod support;

pub use support::{FloorInput, FloorOutcome, FloorPartEntry, plan_floor_support};

use crate::read::{BodyPart, Side};
use glam::Vec3;
use serde::Serialize;

/// Knee joint centre above the floor while the knee bears weight, metres (the kneecap's depth).
pub const KNEE_CONTACT_HEIGHT_M: f32 = 0.05;
/// Wrist joint centre above the floor while the hand bears weight, metres: the palm's depth and
/// the room the hand needs where the wrist cannot bend it back flat.
pub const WRIST_CONTACT_HEIGHT_M: f32 = 0.085;
/// Hip joint centres above the floor while sitting, metres (the sitting bones lie below them).
pub const SEAT_HIP_HEIGHT_M: f32 = 0.10;
/// Pelvis joint above the floor while lying, metres (half the body's depth).
pub const LYING_PELVIS_HEIGHT_M: f32 = 0.11;

/// A body part that can bear weight on the floor besides the feet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum FloorPart {
    /// A knee (kneeling).
    Knee(Side),
    /// A hand (palm flat on the floor).
    Hand(Side),
    /// The seat (sitting): the hip or pelvis sign in a support column.
    Seat,
    /// The torso (lying): chest or torso sign in a support column.
    Torso,
    /// The foot (or its toes) named explicitly: an ordinary step.
    Foot(Side),
}

/// The part a body-part pre-sign makes bear weight in entry `e` (its column and level), if any (see
/// [`crate::score::gaps::part_bears_weight`]: knees, hips/pelvis, chest/torso, feet and toes in
/// the support columns, the chest and torso only at low level; hands in the leg-gesture columns).
pub fn weight_bearing_part(part: BodyPart, e: &crate::score::Entry) -> Option<FloorPart> {
    if !crate::score::gaps::part_bears_weight(part, e) {
        return None;
    }
    let side = if e.column < 0 { Side::Left } else { Side::Right };
    Some(match part {
        BodyPart::Knee(_) => FloorPart::Knee(side),
        BodyPart::Hand(_) => FloorPart::Hand(side),
        BodyPart::Hip(_) | BodyPart::Pelvis => FloorPart::Seat,
        BodyPart::Chest | BodyPart::Torso => FloorPart::Torso,
        _ => FloorPart::Foot(side),
    })
}

/// What one leg rests on in a floor state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum LegSupport {
    /// The foot bears weight; the footprints place it (half kneeling, hands and feet).
    Foot,
    /// The knee bears weight at this floor point (y = 0), world space.
    Knee(Vec3),
    /// The knee was lifted from this floor point and the leg is free (between knee steps).
    FreeKnee(Vec3),
    /// The leg rests on the floor as the seat or the lying body places it.
    Resting,
}

/// How the body lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Lying {
    /// On the back, the legs towards the front.
    OnBack,
    /// On the front, the legs towards the back.
    OnFront,
}

/// The weight-bearing parts over one stretch of the score, and where they touch the floor
/// (world space, y = 0). `None` in the plan's floor track means standing on the feet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FloorState {
    /// Left and right leg.
    pub legs: [LegSupport; 2],
    /// Left and right hand contact points, when the hand bears weight.
    pub hands: [Option<Vec3>; 2],
    /// Seat contact point (under the hip joints' midpoint) when sitting.
    pub seat: Option<Vec3>,
    /// Lying, and the floor point under the pelvis.
    pub lying: Option<(Lying, Vec3)>,
    /// Low level: kneeling sits back on the heels; sitting draws the knees up (feet flat).
    pub low: bool,
    /// The facing while in this state, radians (the plan's yaw convention).
    pub yaw_rad: f32,
    /// Left and right: where a foot bearing weight stands (ground point, world space).
    pub feet: [Option<Vec3>; 2],
}

impl FloorState {
    /// The parts bearing weight, in a fixed order (for reports and tests).
    pub fn parts(&self) -> Vec<FloorPart> {
        let mut out = Vec::new();
        for (i, side) in [Side::Left, Side::Right].into_iter().enumerate() {
            match self.legs[i] {
                LegSupport::Knee(_) => out.push(FloorPart::Knee(side)),
                LegSupport::Foot => out.push(FloorPart::Foot(side)),
                _ => {}
            }
            if self.hands[i].is_some() {
                out.push(FloorPart::Hand(side));
            }
        }
        if self.seat.is_some() {
            out.push(FloorPart::Seat);
        }
        if self.lying.is_some() {
            out.push(FloorPart::Torso);
        }
        out
    }

    /// True when only the feet bear weight (the state is plain standing).
    pub fn is_standing(&self) -> bool {
        self.legs.iter().all(|l| matches!(l, LegSupport::Foot))
            && self.hands.iter().all(Option::is_none)
            && self.seat.is_none()
            && self.lying.is_none()
    }
}
