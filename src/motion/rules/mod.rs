//! The rule engine: one rule per (symbol kind, body part), turning a composite score into a
//! [`DancerPlan`] per staff: footprints from supports, turns, jumps and holds; limb keys from
//! gestures; a pelvis height track from support levels (labanotation-rules.md §2–§5).
//!
//! Footprints say where and when each foot lands, pivots on the ball or rises; the pelvis level is
//! [`PLIE_PELVIS_OFFSET`] leg lengths in plié and [`RELEVE_PELVIS_OFFSET`] in relevé; limb keys come from the 27-entry direction ×
//! level table (`directions`: gravity up, the dancer's own front). Jumps come from the score's
//! flights, turns from the pins in turn signs; holds keep the weight; a heel-or-toe preference
//! (`--toe`) chooses the first contact of a step. Every limb starts in the starting position
//! written below the double bar or, with none, in natural standing (arms by the sides, head and
//! chest upright), and moves only within its symbols' time. Hand and palm columns point the hand
//! and turn the palm (the arm turns about the shoulder → wrist line when the wrist alone cannot); a
//! back-to-normal entry straightens a limb and rights the head and torso.
//!
//! The steps of one staff: `staff` (the order of the steps), `walker` (the feet and the level
//! while the supports are walked), `supports` (steps and turns that start together), `gestures`
//! (limb channels). The rules for each part: `limbs` (crossing the body, hands), `segments` (joint pre-signs),
//! `hips` (hip signs), `rotations` (turn signs in body columns), `actions` (action strokes),
//! `hooks` (foot hooks), `paths` (circular paths and front signs), `floor` (supports on other
//! parts); step length in [`crate::motion::steps`].

mod actions;
mod directions;
mod floor;
mod gestures;
mod hips;
mod hooks;
mod limbs;
mod paths;
mod rotations;
mod segments;
mod staff;
mod supports;
mod walker;

use super::plan::DancerPlan;
use super::steps::StepTable;
use crate::diag::Diagnostic;
use crate::read::VolumeSign;
use crate::score::{Entry, Modifier, Score};
pub use directions::{gesture_dir_in_body, mirrored_direction, step_dir_in_body};
use glam::Vec3;
pub use hips::HIP_SHIFT_TURN_RAD;
pub use limbs::{ARM_CROSS_BEHIND_MAX_DEG, ARM_CROSS_MAX_DEG, LEG_CROSS_MAX_DEG, cross_in_front, leg_cross};
pub use segments::{MAX_SEGMENT_BEND_RAD, limit_bend};
use serde::Serialize;
use staff::plan_staff;
use std::collections::BTreeSet;
use walker::Walker;
pub use walker::{PLIE_PELVIS_OFFSET, RELEVE_PELVIS_OFFSET};

/// Knobs of the interpretation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MotionOptions {
    /// Dancer height, metres (step lengths scale with it).
    pub height_m: f32,
    /// Leg length (hip to floor), metres.
    pub leg_length_m: f32,
    /// Half the distance between the feet when standing together, metres.
    pub foot_half_spacing_m: f32,
    /// Step lengths (one table, in one place).
    pub steps: StepTable,
    /// Land steps on the ball of the foot first instead of the heel.
    pub toe_first: bool,
    /// Distance between dancers placed side by side when the score does not place them, metres.
    pub dancer_spacing_m: f32,
    /// Distance between dancers who start in a hold (a contact bow between their staves in the
    /// starting position), metres: close enough for the hands to meet.
    pub hold_spacing_m: f32,
    /// Partners joined by a contact walk towards each other before it is reached and travel
    /// together while it holds ([`crate::contact::together`]); off, each staff travels as written.
    pub partners_together: bool,
    /// Fraction of a step symbol's duration the swinging foot takes to touch down.
    pub swing_fraction: f64,
    /// Distance from the ankle to the ball of the foot along the foot, metres (pivots turn
    /// about the ball).
    pub ball_forward_m: f32,
    /// Distance from the ankle back to the heel's contact, metres (a standing leg's rotation
    /// turns the foot about the heel).
    pub heel_back_m: f32,
    /// After the stepping foot touches down, the other foot lets go this fraction of the step's
    /// duration later (it cannot stay down while the weight travels a whole step length).
    pub release_after_touch_fraction: f64,
}

impl Default for MotionOptions {
    fn default() -> Self {
        MotionOptions {
            height_m: 1.75,
            leg_length_m: 0.88,
            foot_half_spacing_m: 0.09,
            steps: StepTable::default(),
            toe_first: false,
            dancer_spacing_m: 1.5,
            hold_spacing_m: 0.5,
            partners_together: true,
            swing_fraction: 0.45,
            release_after_touch_fraction: 0.15,
            ball_forward_m: 0.14,
            heel_back_m: 0.05,
        }
    }
}

/// What the engine did with the score.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Interpretation {
    /// Entries turned into motion.
    pub interpreted: usize,
    /// Entries skipped, each with its place in the score.
    pub skipped: Vec<Diagnostic>,
}

pub(super) fn place(e: &Entry, staff: usize, what: &str) -> String {
    format!(
        "staff {}, measure {}, beat {:.2}, column {}: {what}",
        staff + 1,
        e.measure,
        e.beat_in_measure + 1.0,
        e.column
    )
}

pub(super) fn bend_of(modifiers: &[Modifier]) -> f32 {
    let mut bend = 0.0f32;
    for m in modifiers {
        if let Modifier::Volume(v) = m {
            bend = match v {
                VolumeSign::Bent => 90f32.to_radians(),
                VolumeSign::Relaxed => 45f32.to_radians(),
                VolumeSign::Straight | VolumeSign::Stretched => 0.0,
                _ => bend,
            };
        }
    }
    bend
}

/// Interprets every staff of the score.
pub fn plan_score(score: &Score, opts: &MotionOptions) -> (Vec<DancerPlan>, Interpretation) {
    let mut report = Interpretation::default();
    let n = score.staves.len();
    let hold_from_start = score.contacts.iter().any(|c| c.between_dancers() && c.start_beats <= 0.0);
    let spacing = if hold_from_start { opts.hold_spacing_m } else { opts.dancer_spacing_m };
    let plans = score
        .staves
        .iter()
        .enumerate()
        .map(|(i, staff)| {
            // Staves left to right on the page are the dancers from their own left to right (the
            // reader faces where the dancers face): the first staff stands on the dancers' left,
            // +X when they face the audience (+Z).
            let x = ((n as f32 - 1.0) * 0.5 - i as f32) * spacing;
            plan_staff(score, staff, Vec3::new(x, 0.0, 0.0), opts, &mut report)
        })
        .collect();
    // A repeated section reads its symbols again: say each thing about a symbol once.
    let mut seen = BTreeSet::new();
    report.skipped.retain(|d| seen.insert((d.span.offset, d.message.clone())));
    (plans, report)
}

/// The somersault and cartwheel signs of LED's rotation menu (`Rotn 3`–`6`), named as the
/// Laban-tk LED glyph table names them (`docs/lbnfileformat.md`: somersaulting forward and
/// backward, cartwheeling left and right). In a support column they turn the whole body over.
pub(super) fn whole_body_rotation(code: &str) -> Option<&'static str> {
    Some(match code {
        "Rotn 3" => "somersault forward",
        "Rotn 4" => "somersault backward",
        "Rotn 5" => "cartwheel to the left",
        "Rotn 6" => "cartwheel to the right",
        _ => return None,
    })
}
