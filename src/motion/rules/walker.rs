//! The walker: the state of one staff's dancer while its supports are read in time order (the
//! plan so far, the centre of weight, the facing, the planted feet and the pelvis level), and
//! how a foot lands, lifts or changes level.

use super::paths::Circle;
use super::{MotionOptions, hips, rotations, segments};
use crate::motion::floor::FloorState;
use crate::motion::plan::{Contact, DancerPlan, Foot, Footprint, Key, LimbId, key_end_secs, right_of};
use crate::read::Level;
use crate::score::Staff;
use glam::Vec3;
use std::collections::BTreeMap;

/// Pelvis height on a low support (plié), in leg lengths from standing.
pub const PLIE_PELVIS_OFFSET: f32 = -0.12;

/// Pelvis height on a high support (relevé), in leg lengths from standing.
pub const RELEVE_PELVIS_OFFSET: f32 = 0.07;

/// Mutable state while walking one staff's supports in time order.
pub(super) struct Walker<'a> {
    /// The interpretation's knobs.
    pub(super) opts: &'a MotionOptions,
    /// The plan built so far.
    pub(super) plan: DancerPlan,
    /// Centre of weight over the floor (y = 0), world space.
    pub(super) com: Vec3,
    /// Facing, radians.
    pub(super) yaw: f32,
    /// Index of the footprint each foot stands on, if planted.
    pub(super) planted: BTreeMap<Foot, usize>,
    /// The pelvis height now, metres from standing.
    pub(super) level_offset: f32,
    /// Circular path signs of this staff.
    pub(super) circles: Vec<Circle<'a>>,
    /// Leg rotations, applied to the supporting feet once the footprints exist.
    pub(super) swivels: Vec<rotations::LegSwivel>,
    /// Supports on other body parts now (`None`: standing on the feet).
    pub(super) floor: Option<FloorState>,
    /// Segment gestures (upper/lower arm, thigh, lower leg), put on the tracks in time order
    /// once every channel is read.
    pub(super) segments: Vec<segments::Pending>,
    /// Hip displacements, put on the pelvis turn track once every channel is read.
    pub(super) hips: Vec<hips::Shift>,
    /// Hold signs in the leg gesture columns: the leg and when the sign starts, seconds.
    pub(super) leg_holds: Vec<(Foot, f64)>,
    /// Hold signs read with a hand on the floor: the hand (0 left) and when the sign starts,
    /// seconds.
    pub(super) hand_holds: Vec<(usize, f64)>,
    /// When each hand (left, right) last went down on the floor, seconds.
    pub(super) hands_down_secs: [f64; 2],
}

impl<'a> Walker<'a> {
    /// A walker standing at `origin` facing the staff's starting front, before any support:
    /// the plan holds the facing and the level at time 0.
    pub(super) fn new(staff: &Staff, origin: Vec3, opts: &'a MotionOptions, end_secs: f64) -> Self {
        let yaw0 = -(staff.start_facing_deg as f32).to_radians();
        let mut w = Walker {
            opts,
            plan: DancerPlan { staff: staff.index, end_secs, ..DancerPlan::default() },
            com: origin,
            yaw: yaw0,
            planted: BTreeMap::new(),
            level_offset: 0.0,
            circles: Vec::new(),
            swivels: Vec::new(),
            floor: None,
            segments: Vec::new(),
            hips: Vec::new(),
            leg_holds: Vec::new(),
            hand_holds: Vec::new(),
            hands_down_secs: [0.0; 2],
        };
        w.plan.yaw.push(Key { t_start_secs: 0.0, t_end_secs: 0.0, value: yaw0 });
        w.plan.pelvis_offset.push(Key { t_start_secs: 0.0, t_end_secs: 0.0, value: 0.0 });
        w
    }
}

impl Walker<'_> {
    pub(super) fn lateral(&self, foot: Foot) -> Vec3 {
        right_of(self.yaw) * foot.right_sign() * self.opts.foot_half_spacing_m
    }

    pub(super) fn lift(&mut self, foot: Foot, t_secs: f64) {
        if let Some(i) = self.planted.remove(&foot)
            && let Some(fp) = self.plan.footprints.get_mut(i)
        {
            fp.t_lift_secs = fp.t_lift_secs.min(t_secs).max(fp.t_land_secs);
        }
    }

    pub(super) fn land(&mut self, foot: Foot, position: Vec3, t_secs: f64, contact: Contact, releve: bool) {
        self.land_after(foot, position, t_secs, t_secs, contact, releve);
    }

    pub(super) fn land_after(
        &mut self,
        foot: Foot,
        position: Vec3,
        t_step_start: f64,
        t_secs: f64,
        contact: Contact,
        releve: bool,
    ) {
        self.lift(foot, t_step_start.min(t_secs));
        let fp = Footprint {
            foot,
            position_in_world: Vec3::new(position.x, 0.0, position.z),
            position_end_in_world: Vec3::new(position.x, 0.0, position.z),
            yaw_start_rad: self.yaw,
            yaw_end_rad: self.yaw,
            pivot_secs: None,
            pivot_on_heel: false,
            t_step_start_secs: t_step_start.min(t_secs),
            t_land_secs: t_secs,
            t_lift_secs: f64::INFINITY,
            contact,
            releve,
            releve_ramp_secs: None,
        };
        self.plan.footprints.push(fp);
        self.planted.insert(foot, self.plan.footprints.len() - 1);
    }

    /// Whether `foot` is off the floor at `t_secs` though the walker holds its print: its leg
    /// began a gesture since the print landed, by `t_secs`, while the other foot stood (T8: the
    /// gesture took the weight off it). A change of level leaves it in the air, and a support of
    /// its own there puts it down again.
    pub(super) fn in_the_air(&self, foot: Foot, t_secs: f64) -> bool {
        let Some(landed_secs) =
            self.planted.get(&foot).and_then(|i| self.plan.footprints.get(*i)).map(|f| f.t_land_secs)
        else {
            return false;
        };
        let limb = if foot == Foot::Left { LimbId::LegLeft } else { LimbId::LegRight };
        self.planted.contains_key(&foot.other())
            && self
                .plan
                .leg_gestures
                .get(&limb)
                .is_some_and(|g| g.iter().any(|&(g0, _)| g0 >= landed_secs - 1e-9 && g0 <= t_secs + 1e-9))
    }

    pub(super) fn planted_pos(&self, foot: Foot) -> Option<Vec3> {
        self.planted.get(&foot).and_then(|i| self.plan.footprints.get(*i)).map(|f| f.position_end_in_world)
    }

    pub(super) fn set_level(&mut self, level: Level, t0: f64, t1: f64) {
        let offset = match level {
            Level::Low => PLIE_PELVIS_OFFSET * self.opts.leg_length_m,
            Level::High => RELEVE_PELVIS_OFFSET * self.opts.leg_length_m,
            _ => 0.0,
        };
        if (offset - self.level_offset).abs() > 1e-6 {
            self.plan.pelvis_offset.push(Key { t_start_secs: t0, t_end_secs: key_end_secs(t0, t1), value: offset });
            self.level_offset = offset;
        }
        let releve = level == Level::High;
        let planted: Vec<(Foot, usize)> = self.planted.iter().map(|(f, i)| (*f, *i)).collect();
        for (foot, i) in planted {
            let Some(fp) = self.plan.footprints.get(i).cloned() else { continue };
            if self.in_the_air(foot, t0) {
                continue;
            }
            if fp.releve == releve {
                continue;
            }
            if fp.t_land_secs >= t0 - 1e-9 {
                // Landed with this symbol: it lands at the new level.
                if let Some(f) = self.plan.footprints.get_mut(i) {
                    f.releve = releve;
                }
            } else {
                // Already standing: rise or come down in place, without a new contact.
                let yaw = fp.yaw_end_rad;
                self.land(foot, fp.position_end_in_world, t0, Contact::Flat, releve);
                if let Some(f) = self.plan.footprints.last_mut() {
                    f.yaw_start_rad = yaw;
                    f.yaw_end_rad = yaw;
                    f.releve_ramp_secs = Some((t0, key_end_secs(t0, t1)));
                }
            }
        }
    }
}
