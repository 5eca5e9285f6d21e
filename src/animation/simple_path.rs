//! A closed-form pelvis path used when the centre-of-mass optimiser cannot run on a plan: the
//! centre eases between the rule engine's targets, the height follows the level track, and
//! flights are ballistic arcs (apex g·T²/8, at most 0.6 m).

use crate::motion::plan::DancerPlan;
use glam::Vec3;

/// Gravity, m/s².
pub const GRAVITY: f64 = 9.81;

/// The highest a flight of the closed-form path rises, metres.
const MAX_FLIGHT_APEX_M: f64 = 0.6;

/// The fallback pelvis path of one dancer.
#[derive(Clone, Debug, PartialEq)]
pub struct SimplePath {
    ground: crate::motion::plan::Track<Vec3>,
    standing_height_m: f32,
    plan_offsets: crate::motion::plan::Track<f32>,
    flights: Vec<(f64, f64)>,
}

impl SimplePath {
    /// Builds the path of `plan` for a pelvis standing `standing_height_m` above the floor.
    pub fn new(plan: &DancerPlan, standing_height_m: f32) -> Self {
        SimplePath {
            ground: plan.com_ground.clone(),
            standing_height_m,
            plan_offsets: plan.pelvis_offset.clone(),
            flights: plan.flights.iter().map(|f| (f.t_takeoff_secs, f.t_land_secs)).collect(),
        }
    }

    /// Pelvis position at `t_secs`, world space.
    pub fn position_at(&self, t_secs: f64) -> Vec3 {
        let ground = self.ground_at(t_secs);
        let mut y = self.standing_height_m + self.plan_offsets.value_at(t_secs, 0.0);
        for &(a, b) in &self.flights {
            if t_secs > a && t_secs < b {
                let dur = b - a;
                let apex = (GRAVITY * dur * dur / 8.0).min(MAX_FLIGHT_APEX_M);
                let s = (t_secs - a) / dur;
                y += (4.0 * apex * s * (1.0 - s)) as f32;
            }
        }
        Vec3::new(ground.x, y, ground.z)
    }

    fn ground_at(&self, t_secs: f64) -> Vec3 {
        match self.ground.segment_at(t_secs) {
            Some((a, b, s)) => a.lerp(b, s),
            None => Vec3::ZERO,
        }
    }
}
