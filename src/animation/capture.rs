//! A retargeted motion capture as an [`Animation`]: one dancer whose poses come from the
//! capture's frames (interpolated), so the player, the renderer and the exporters play it
//! like a compiled score.

use std::sync::Arc;

use super::feet::FootAngles;
use super::flight_keys::FlightKeys;
use super::pelvis_tilt::TiltRule;
use super::simple_path::SimplePath;
use super::{Animation, DancerAnimation, PelvisPath, foot_geometry};
use crate::mocap::CaptureMotion;
use crate::motion::plan::DancerPlan;
use crate::motion::rules::Interpretation;

impl Animation {
    /// One dancer performing `motion`; its skeleton is the motion's.
    pub fn from_capture(motion: CaptureMotion) -> Animation {
        let skeleton = motion.skeleton.clone();
        let duration_secs = motion.duration_secs();
        let plan = DancerPlan { end_secs: duration_secs, ..DancerPlan::default() };
        let standing = skeleton.rest_offset(crate::pose::JointId::Pelvis).y;
        let dancer = DancerAnimation {
            path: PelvisPath::Simple(SimplePath::new(&plan, standing)),
            prints: crate::animation::prints::FootPrints::new(&plan.footprints),
            arm_bows: Default::default(),
            plan,
            foot_geometry: foot_geometry(&skeleton),
            foot_angles: FootAngles::default(),
            flight_keys: FlightKeys::default(),
            tilt_rule: TiltRule::default(),
            arm_swivels: Default::default(),
        };
        let report = &motion.report;
        let mut notes = vec![format!(
            "motion capture: up {}, left {}, {:.4} m per unit, floor shift {:+.3} m; unmapped joints: {}",
            report.up,
            report.left,
            report.metres_per_unit,
            report.floor_shift_m,
            if report.unmapped.is_empty() {
                "none".to_string()
            } else {
                report.unmapped.iter().map(|j| format!("{j:?}")).collect::<Vec<_>>().join(", ")
            }
        )];
        if report.lifted_frames > 0 {
            notes.push(format!(
                "motion capture: {} frames lifted (at most {:.3} m) so that no part of the body goes below the floor",
                report.lifted_frames, report.max_lift_m
            ));
        }
        if report.extra_rows > 0 {
            notes.push(format!("motion capture: {} frame rows after the `Frames:` count left out", report.extra_rows));
        }
        Animation {
            skeleton,
            dancers: vec![dancer],
            duration_secs,
            interpretation: Interpretation::default(),
            notes,
            contacts: Vec::new(),
            capture: Some(Arc::new(motion)),
        }
    }
}
