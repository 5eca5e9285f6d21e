//! Walking or running along a simulated path: footprints on the beat (one a beat walking, two
//! running) laid along the path, flights between a run's footprints, a facing track along the
//! direction of travel and the centre of weight on the path, as a [`DancerPlan`] to pose.
//!
//! Both feet are down at the start; each step lands where the body will be half a step later; a
//! closing step sets the foot beside the other at the spot. A run has a flight before every landing
//! but the first step and the closing one: the foot lifts [`RUN_FLIGHT`] of a step before the other
//! lands (0.1 s in the air and 0.15 s on one foot at 120 bpm). The plan is posed by the animation's
//! own foot keys, flight keys and leg IK, so planted feet stay put and never go below the floor.

use crate::animation::feet::{FootAngles, FootGeometry};
use crate::animation::flight_keys::FlightKeys;
use crate::animation::pelvis_tilt::TiltRule;
use crate::animation::simple_path::SimplePath;
use crate::animation::{DancerAnimation, PelvisPath};
use crate::motion::plan::{Contact, DancerPlan, Flight, Foot, Footprint, Key, right_of};
use crate::score::JumpForm;
use glam::Vec3;

/// Fraction of a step interval the swinging foot is in the air; for the rest both feet are down
/// (the weight passes from one to the other), about a fifth of a step as in walking.
pub const SWING: f64 = 0.8;

/// Fraction of a running step interval with both feet off the floor (the flight before each
/// landing): running at 4 steps a second (a run on the half beat at 120 bpm) spends about
/// 0.1 s of each 0.25 s step in the air and 0.15 s on one foot.
pub const RUN_FLIGHT: f64 = 0.4;

/// One walk: when, how fast the feet go, and where the body is.
pub struct WalkJob<'a> {
    /// Start (seconds): both feet are down at the start position.
    pub t_start_secs: f64,
    /// Seconds between steps (a beat walking, half a beat running).
    pub step_secs: f64,
    /// Steps taken; a closing step to feet together follows the last.
    pub steps: usize,
    /// Where the centre of weight is over the floor at a time (world metres, y = 0); the
    /// time runs past the end of the move, where the path stays at its spot.
    pub ground_at: &'a dyn Fn(f64) -> Vec3,
    /// Half the distance between the feet, metres.
    pub foot_half_spacing_m: f32,
    /// Facing before the first step (radians), used while the path does not move.
    pub yaw_start_rad: f32,
    /// Fraction of each step interval spent in flight before landing (0 walking,
    /// [`RUN_FLIGHT`] running). The first step (from standing) and the closing step have none.
    pub flight: f64,
}

impl WalkJob<'_> {
    /// When the closing step lands (the walk's end, in seconds).
    pub fn t_end_secs(&self) -> f64 {
        self.t_start_secs + (self.steps + 1) as f64 * self.step_secs
    }
}

/// The heading of the path around `t_secs` (the direction from half a step before to half a
/// step after), or `fallback` when it does not move there.
fn heading_at(job: &WalkJob<'_>, t_secs: f64, fallback: f32) -> f32 {
    let h = 0.5 * job.step_secs;
    let d = (job.ground_at)(t_secs + h) - (job.ground_at)(t_secs - h);
    if d.length_squared() < 1e-6 { fallback } else { d.x.atan2(d.z) }
}

/// `a` moved by whole turns to lie within half a turn of `near`.
fn unwrap_near(a: f32, near: f32) -> f32 {
    let tau = std::f32::consts::TAU;
    a - ((a - near) / tau).round() * tau
}

/// The footprints, facing and centre-of-weight tracks of a walk.
pub fn walk_plan(job: &WalkJob<'_>) -> DancerPlan {
    let t0 = job.t_start_secs;
    let dt = job.step_secs;
    let t_end = job.t_end_secs();
    let mut plan = DancerPlan { end_secs: t_end, ..DancerPlan::default() };
    // Facing at each landing k = 0 (the start) … steps + 1 (the close).
    let mut yaws = Vec::with_capacity(job.steps + 2);
    let mut yaw = heading_at(job, t0 + 0.5 * dt, job.yaw_start_rad);
    yaws.push(yaw);
    for k in 1..=job.steps + 1 {
        let t = t0 + k as f64 * dt;
        yaw = unwrap_near(heading_at(job, t, yaw), yaw);
        yaws.push(yaw);
    }
    let print = |foot: Foot, at: Vec3, yaw: f32, land: f64, lift: f64, step_start: f64| {
        let position = at + right_of(yaw) * foot.right_sign() * job.foot_half_spacing_m;
        Footprint {
            foot,
            position_in_world: position,
            position_end_in_world: position,
            yaw_start_rad: yaw,
            yaw_end_rad: yaw,
            pivot_secs: None,
            pivot_on_heel: false,
            t_step_start_secs: step_start,
            t_land_secs: land,
            t_lift_secs: lift,
            contact: if land > t0 { Contact::Heel } else { Contact::Flat },
            releve: false,
            releve_ramp_secs: None,
        }
    };
    let foot_of = |k: usize| if k % 2 == 1 { Foot::Right } else { Foot::Left };
    let land_at = |k: usize| t0 + k as f64 * dt;
    let flight = job.flight.clamp(0.0, 0.6);
    // Landings 2 ..= steps are run landings (a flight before them) when running; the first step
    // leaves from both feet and the closing step joins the other foot, as walking.
    let flies = |k: usize| flight > 0.0 && (2..=job.steps).contains(&k);
    // The foot landing at step k lifts for step k + 2: walking just after step k + 1 lands,
    // running a flight before it lands; the last two stay down.
    let lift_after = |k: usize| {
        if k + 2 > job.steps + 1 {
            t_end
        } else if flies(k + 1) {
            land_at(k + 1) - flight * dt
        } else {
            land_at(k + 2) - SWING * dt
        }
    };
    // Both feet at the start; the right one steps first.
    let start = (job.ground_at)(t0);
    let right_lift = lift_after(1).min(land_at(1) - SWING * dt);
    plan.footprints.push(print(Foot::Left, start, yaws[0], t0, lift_after(0), t0));
    plan.footprints.push(print(Foot::Right, start, yaws[0], t0, right_lift, t0));
    for (k, &yaw) in yaws.iter().enumerate().skip(1) {
        let land = land_at(k);
        // A step lands where the body will be half a step later (it then passes over it); the
        // closing step lands beside the other foot at the end.
        let at = if k <= job.steps { (job.ground_at)(land + 0.5 * dt) } else { (job.ground_at)(t_end) };
        // The swing starts when this foot lifted from its previous print.
        let step_start = match k {
            1 => right_lift,
            _ => lift_after(k - 2),
        };
        plan.footprints.push(print(foot_of(k), at, yaw, land, lift_after(k), step_start));
        if flies(k) {
            plan.flights.push(Flight {
                t_takeoff_secs: land - flight * dt,
                t_land_secs: land,
                form: Some(JumpForm::Leap),
            });
        }
    }
    plan.footprints.sort_by(|a, b| a.t_land_secs.total_cmp(&b.t_land_secs).then(a.foot.cmp(&b.foot)));
    for (k, &yaw) in yaws.iter().enumerate() {
        let t = land_at(k);
        let t_from = if k == 0 { t } else { land_at(k - 1) };
        plan.yaw.push(Key { t_start_secs: t_from, t_end_secs: t, value: yaw });
    }
    // The centre of weight follows the path, keyed twice a step.
    let keys = 2 * (job.steps + 1);
    for j in 0..=keys {
        let t = t0 + j as f64 * 0.5 * dt;
        let t_from = if j == 0 { t } else { t - 0.5 * dt };
        plan.com_ground.push(Key { t_start_secs: t_from, t_end_secs: t, value: (job.ground_at)(t.min(t_end)) });
    }
    plan
}

/// Body measurements a walk is posed with.
#[derive(Clone, Copy, Debug)]
pub struct Walker {
    /// The skeleton's foot.
    pub foot_geometry: FootGeometry,
    /// Pelvis height standing, metres.
    pub standing_pelvis_m: f32,
}

impl Walker {
    /// A dancer walking `plan` on the closed-form pelvis path (over the path, at standing height;
    /// the leg IK lowers it where a long step needs it).
    pub fn animate(&self, plan: DancerPlan) -> DancerAnimation {
        let path = PelvisPath::Simple(SimplePath::new(&plan, self.standing_pelvis_m));
        DancerAnimation {
            prints: crate::animation::prints::FootPrints::new(&plan.footprints),
            arm_bows: Default::default(),
            plan,
            path,
            foot_geometry: self.foot_geometry,
            foot_angles: FootAngles::default(),
            flight_keys: FlightKeys::default(),
            tilt_rule: TiltRule::default(),
            arm_swivels: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprints_alternate_on_the_beat_along_a_straight_path() {
        let ground = |t: f64| Vec3::new(0.0, 0.0, (t.clamp(0.0, 4.0) * 0.5) as f32);
        let job = WalkJob {
            t_start_secs: 0.0,
            step_secs: 0.5,
            steps: 8,
            ground_at: &ground,
            foot_half_spacing_m: 0.09,
            yaw_start_rad: 0.0,
            flight: 0.0,
        };
        let plan = walk_plan(&job);
        assert!(plan.flights.is_empty());
        assert_eq!(plan.footprints.len(), 11);
        for pair in plan.footprints[2..].windows(2) {
            assert_ne!(pair[0].foot, pair[1].foot);
            assert!((pair[1].t_land_secs - pair[0].t_land_secs - 0.5).abs() < 1e-9);
        }
        // Facing forward (+Z), the right foot on the −X side.
        let right = plan.footprints.iter().find(|f| f.foot == Foot::Right).unwrap();
        assert!(right.position_in_world.x < 0.0);
        // The last two close beside each other at the end of the path.
        let n = plan.footprints.len();
        for fp in &plan.footprints[n - 2..] {
            assert!((fp.position_in_world.z - 2.0).abs() < 1e-4, "{fp:?}");
        }
        // Every foot lands before it lifts, and lifts after the other foot landed.
        for fp in &plan.footprints {
            assert!(fp.t_lift_secs >= fp.t_land_secs);
        }
    }

    #[test]
    fn a_run_has_a_flight_before_every_landing_but_the_first_and_the_close() {
        let ground = |t: f64| Vec3::new(0.0, 0.0, (t.clamp(0.0, 2.0) * 2.0) as f32);
        let steps = 8;
        let job = WalkJob {
            t_start_secs: 0.0,
            step_secs: 0.25,
            steps,
            ground_at: &ground,
            foot_half_spacing_m: 0.09,
            yaw_start_rad: 0.0,
            flight: RUN_FLIGHT,
        };
        let plan = walk_plan(&job);
        assert_eq!(plan.flights.len(), steps - 1);
        let planted = |t: f64| plan.footprints.iter().filter(|fp| fp.t_land_secs <= t && t < fp.t_lift_secs).count();
        for f in &plan.flights {
            assert!((f.t_land_secs - f.t_takeoff_secs - RUN_FLIGHT * 0.25).abs() < 1e-9);
            // Both feet off the floor inside the flight, one down just before and just after.
            assert_eq!(planted(0.5 * (f.t_takeoff_secs + f.t_land_secs)), 0, "{f:?}");
            assert_eq!(planted(f.t_takeoff_secs - 1e-3), 1);
            assert_eq!(planted(f.t_land_secs + 1e-3), 1);
        }
        // Each print's swing starts when the same foot lifted from its previous print.
        for foot in [Foot::Left, Foot::Right] {
            let prints: Vec<_> = plan.footprints.iter().filter(|fp| fp.foot == foot).collect();
            for w in prints.windows(2) {
                assert!((w[1].t_step_start_secs - w[0].t_lift_secs).abs() < 1e-9, "{:?}", w[1]);
                assert!(w[1].t_land_secs > w[0].t_lift_secs);
            }
        }
    }
}
