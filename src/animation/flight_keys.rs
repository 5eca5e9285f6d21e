//! Foot keys in a flight: push-off pointing, the kick or tuck of the legs, and the landing
//! preparation, all scaled by the air time. A pure function of the foot's states at take-off and
//! landing, the body at the sampled time and the jump form; the ends match those states exactly.

use super::feet::{FootState, wrap_angle};
use crate::motion::plan::{smoothstep, world_from_body};
use crate::score::JumpForm;
use glam::Vec3;
use std::cmp::Ordering;

/// Gravity used for the apex of a flight, m/s² (labanotation-rules §4.5: h = g·T²/8).
const GRAVITY_M_PER_S2: f64 = 9.81;

/// The shape constants of flight keys. Times are fractions of the air time T; lengths scale with
/// the apex height h = g·T²/8 of the flight less that of a `min_air_secs` flight, so a flight
/// shorter than `min_air_secs` gets no keys at all (a skim, not a jump).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlightKeys {
    /// Shorter flights get no kick, tuck or pointing, seconds.
    pub min_air_secs: f64,
    /// The foot is pointed after this fraction of the flight (push-off).
    pub push_off_frac: f32,
    /// The kick or tuck is fully out after this fraction of the flight.
    pub kick_rise_frac: f32,
    /// The last fraction of the flight: the legs extend and the feet come to their landing state
    /// (a landing foot is above its landing spot from here on).
    pub landing_prep_frac: f32,
    /// Ankle plantar flexion of a pointed foot relative to the shin, radians (0 = foot at 90° to
    /// the shin as in standing).
    pub pointed_rad: f32,
    /// Toe bend of a pointed foot (+ = toes curled down), radians.
    pub pointed_toe_rad: f32,
    /// A free foot (one that neither takes off nor lands: it is in the air before and after)
    /// points fully only in flights this long, seconds; in shorter ones, in proportion from
    /// `min_air_secs` (pointing it fully for a short hop flicks it down and up in a few frames).
    pub free_point_full_secs: f64,
    /// Tuck (jump, hop, assemblé, sissonne): ankle lift per metre of apex height.
    pub tuck_gain: f32,
    /// Largest tuck lift, metres.
    pub tuck_max_m: f32,
    /// Tuck: how far the ankle goes back (heel under the buttock) per metre of lift.
    pub tuck_back_ratio: f32,
    /// Leap or run, take-off leg: ankle lift per metre of apex height.
    pub kick_gain: f32,
    /// Largest kick lift, metres.
    pub kick_max_m: f32,
    /// Kick: how far the ankle goes back per metre of lift.
    pub kick_back_ratio: f32,
    /// Leap or run, landing leg: ankle lift (the leg reaching forward) per metre of kick lift.
    pub reach_up_ratio: f32,
}

impl Default for FlightKeys {
    fn default() -> Self {
        FlightKeys {
            min_air_secs: 0.1,
            push_off_frac: 0.3,
            kick_rise_frac: 0.4,
            landing_prep_frac: 0.35,
            pointed_rad: 60f32.to_radians(),
            pointed_toe_rad: 10f32.to_radians(),
            free_point_full_secs: 0.5,
            tuck_gain: 0.8,
            tuck_max_m: 0.3,
            tuck_back_ratio: 0.35,
            kick_gain: 1.0,
            kick_max_m: 0.35,
            kick_back_ratio: 0.8,
            reach_up_ratio: 0.4,
        }
    }
}

/// What a leg does in a flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KickStyle {
    /// Knee drawn up under the body (jumps, hops, assemblés, sissonnes).
    Tuck,
    /// The take-off leg of a leap or run: heel kicked back up toward the buttock.
    KickBack,
    /// The landing leg of a leap or run: lifted and reaching to the landing spot early.
    Reach,
    /// A leg that neither takes off nor lands (the free leg of a hop): pointing only.
    Free,
}

/// The style of a leg that `takes_off` (left the floor at take-off) and/or `lands` (touches down
/// at the landing) in a flight of `form`. In a leap or run the landing leg reaches, even when the
/// plan also had it on the floor at take-off (a free foot left down until the jump).
pub fn kick_style(form: Option<JumpForm>, takes_off: bool, lands: bool) -> KickStyle {
    let leap_like = matches!(form, Some(JumpForm::Leap) | None);
    match (takes_off, lands) {
        (_, true) if leap_like => KickStyle::Reach,
        (true, false) if leap_like => KickStyle::KickBack,
        (false, false) => KickStyle::Free,
        _ => KickStyle::Tuck,
    }
}

impl FlightKeys {
    /// The lift of the ankle (metres) at the height of a flight of `air_secs` for `style`.
    pub fn lift_m(&self, air_secs: f64, style: KickStyle) -> f32 {
        if matches!(air_secs.partial_cmp(&self.min_air_secs), Some(Ordering::Less) | None) {
            return 0.0;
        }
        let apex = |t: f64| GRAVITY_M_PER_S2 * t * t / 8.0;
        let h = (apex(air_secs) - apex(self.min_air_secs)).max(0.0) as f32;
        match style {
            KickStyle::Tuck => (self.tuck_gain * h).min(self.tuck_max_m),
            KickStyle::KickBack => (self.kick_gain * h).min(self.kick_max_m),
            KickStyle::Reach => self.reach_up_ratio * (self.kick_gain * h).min(self.kick_max_m),
            KickStyle::Free => 0.0,
        }
    }

    /// How pointed the feet get in a flight of `air_secs` (0..1): none below `min_air_secs`, full
    /// from twice that.
    pub fn point_strength(&self, air_secs: f64) -> f32 {
        if matches!(air_secs.partial_cmp(&0.0), Some(Ordering::Less | Ordering::Equal) | None) {
            return 0.0;
        }
        if self.min_air_secs <= 0.0 {
            return 1.0;
        }
        ((air_secs - self.min_air_secs) / self.min_air_secs).clamp(0.0, 1.0) as f32
    }

    /// How pointed a free foot gets in a flight of `air_secs` (0..1): none below `min_air_secs`,
    /// full from `free_point_full_secs`.
    pub fn free_point_strength(&self, air_secs: f64) -> f32 {
        let span = self.free_point_full_secs - self.min_air_secs;
        if span.partial_cmp(&0.0) != Some(Ordering::Greater) || air_secs.is_nan() {
            return self.point_strength(air_secs);
        }
        ((air_secs - self.min_air_secs) / span).clamp(0.0, 1.0) as f32
    }

    /// Weight of the pointing at phase `u` (0 at take-off, 1 at landing): rises over the push-off,
    /// falls over the landing preparation.
    fn point_weight(&self, u: f32) -> f32 {
        rise(u, self.push_off_frac) * (1.0 - fall(u, self.landing_prep_frac))
    }

    /// Weight of the kick or tuck at phase `u`.
    fn kick_weight(&self, u: f32) -> f32 {
        rise(u, self.kick_rise_frac) * (1.0 - fall(u, self.landing_prep_frac))
    }
}

/// Eased 0 → 1 over the first `frac` of the phase.
fn rise(u: f32, frac: f32) -> f32 {
    if frac <= 0.0 { 1.0 } else { smoothstep(u / frac) }
}

/// Eased 0 → 1 over the last `frac` of the phase.
fn fall(u: f32, frac: f32) -> f32 {
    if frac <= 0.0 { if u >= 1.0 { 1.0 } else { 0.0 } } else { smoothstep((u - (1.0 - frac)) / frac) }
}

/// One foot in one flight at one instant (world space, metres, radians, seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlightFootJob {
    /// Take-off of the flight.
    pub t_takeoff_secs: f64,
    /// Landing of the flight.
    pub t_land_secs: f64,
    /// The sampled time, inside the flight.
    pub t_secs: f64,
    /// The jump form, if known (`None` reads as a leap: one foot to the other, as in a run).
    pub form: Option<JumpForm>,
    /// The foot leaves the floor at take-off.
    pub takes_off: bool,
    /// The foot touches down at the landing.
    pub lands: bool,
    /// The foot's state at take-off (what it is without flight keys there).
    pub at_takeoff: FootState,
    /// The foot's state at landing (its landing state when it lands).
    pub at_land: FootState,
    /// How far the pelvis is above the straight line between its take-off and landing heights.
    pub rise_m: f32,
    /// The hip joint of this leg at `t_secs`.
    pub hip_in_world: Vec3,
    /// The dancer's facing at `t_secs`.
    pub yaw_rad: f32,
    /// Hip → knee length, metres.
    pub thigh_m: f32,
    /// Knee → ankle length, metres.
    pub shin_m: f32,
}

/// How far back the shin of a leg from `hip` to `ankle` leans (radians, 0 = vertical, + = the
/// ankle behind the knee) with the knee bending forward in the sagittal plane of `yaw_rad`.
pub fn shin_lean_back_rad(hip: Vec3, ankle: Vec3, yaw_rad: f32, thigh_m: f32, shin_m: f32) -> f32 {
    let d_in_world = ankle - hip;
    let forward = world_from_body(Vec3::Z, yaw_rad);
    let (dz, dy) = (d_in_world.dot(forward), d_in_world.y);
    let dist = (dz * dz + dy * dy).sqrt();
    if dist < 1e-4 || thigh_m <= 0.0 || shin_m <= 0.0 {
        return 0.0;
    }
    // Angle of the hip → ankle line from straight down (+ = ankle forward), and the shin's angle
    // to that line at the ankle (law of cosines; 0 when the leg is stretched or out of reach).
    let line = dz.atan2(-dy);
    let cos_at_ankle = ((shin_m * shin_m + dist * dist - thigh_m * thigh_m) / (2.0 * shin_m * dist)).clamp(-1.0, 1.0);
    cos_at_ankle.acos() - line
}

/// The foot's state at `job.t_secs` in a flight: the eased travel from the take-off state to the
/// landing state riding the body's rise, plus the kick or tuck and the pointing of the foot.
/// Equal to `job.at_takeoff` / `job.at_land` (planted flag aside) at the ends of the flight.
pub fn flight_foot_state(keys: &FlightKeys, job: &FlightFootJob) -> FootState {
    let air_secs = job.t_land_secs - job.t_takeoff_secs;
    let (a, b) = (&job.at_takeoff, &job.at_land);
    let u = if air_secs > 0.0 { ((job.t_secs - job.t_takeoff_secs) / air_secs).clamp(0.0, 1.0) as f32 } else { 1.0 };
    let e = smoothstep(u);
    // Travel: a landing foot is over its landing spot when the landing preparation starts.
    let e_horizontal = if job.lands { smoothstep(u / (1.0 - keys.landing_prep_frac).max(1e-3)) } else { e };
    let mut ankle = a.ankle_in_world.lerp(b.ankle_in_world, e_horizontal);
    ankle.y = a.ankle_in_world.y + (b.ankle_in_world.y - a.ankle_in_world.y) * e + job.rise_m;
    // Kick or tuck: the ankle rises (the knee bends) and goes back, in the body frame.
    let style = kick_style(job.form, job.takes_off, job.lands);
    let lift = keys.lift_m(air_secs, style) * keys.kick_weight(u);
    let back = match style {
        KickStyle::Tuck => keys.tuck_back_ratio,
        KickStyle::KickBack => keys.kick_back_ratio,
        KickStyle::Reach | KickStyle::Free => 0.0,
    };
    ankle += world_from_body(Vec3::new(0.0, lift, -back * lift), job.yaw_rad);
    // Out towards the leg's full reach the ankle slows down exponentially (within the kick's
    // weight, so both ends keep their states): near full extension the knee's bend changes
    // without bound per centimetre, and a target that crossed the reach at speed snapped the
    // knee straight within a frame.
    ankle = soften_reach(job.hip_in_world, ankle, job.thigh_m + job.shin_m, keys.kick_weight(u));
    // Pointing: the foot in line with the shin plus `pointed_rad`, from push-off to the landing
    // preparation; outside that the pitch eases from the take-off to the landing state.
    let strength = match style {
        KickStyle::Free => keys.free_point_strength(air_secs),
        _ => keys.point_strength(air_secs),
    };
    let w = strength * keys.point_weight(u);
    let base_pitch = a.pitch_rad + (b.pitch_rad - a.pitch_rad) * e;
    let pointed = shin_lean_back_rad(job.hip_in_world, ankle, job.yaw_rad, job.thigh_m, job.shin_m) + keys.pointed_rad;
    let base_toe = a.toe_bend_rad + (b.toe_bend_rad - a.toe_bend_rad) * e;
    FootState {
        ankle_in_world: ankle,
        yaw_rad: a.yaw_rad + wrap_angle(b.yaw_rad - a.yaw_rad) * e,
        pitch_rad: base_pitch + (pointed - base_pitch) * w,
        toe_bend_rad: base_toe + (keys.pointed_toe_rad - base_toe) * w,
        planted: false,
    }
}

/// How far short of full reach the ankle starts to slow down, metres.
const SOFT_REACH_M: f32 = 0.03;

/// `ankle` brought towards `hip` where it lies beyond `reach_m − SOFT_REACH_M`: its distance
/// `d` becomes `a + k·(1 − e^{−(d − a)/k})` (a = reach − k), which is continuous with a continuous
/// slope and stays short of the reach; `weight` (0..1) blends that in.
fn soften_reach(hip: Vec3, ankle: Vec3, reach_m: f32, weight: f32) -> Vec3 {
    let to_ankle = ankle - hip;
    let d = to_ankle.length();
    let a = reach_m - SOFT_REACH_M;
    if d <= a || weight <= 0.0 || d < 1e-6 {
        return ankle;
    }
    let soft = a + SOFT_REACH_M * (1.0 - (-(d - a) / SOFT_REACH_M).exp());
    hip + to_ankle * ((d + (soft - d) * weight) / d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(p: Vec3, pitch: f32) -> FootState {
        FootState { ankle_in_world: p, yaw_rad: 0.0, pitch_rad: pitch, toe_bend_rad: 0.0, planted: true }
    }

    fn job(t: f64, air: f64, takes_off: bool, lands: bool) -> FlightFootJob {
        FlightFootJob {
            t_takeoff_secs: 1.0,
            t_land_secs: 1.0 + air,
            t_secs: t,
            form: Some(JumpForm::Jump),
            takes_off,
            lands,
            at_takeoff: state(Vec3::new(0.1, 0.12, 0.0), 0.5),
            at_land: state(Vec3::new(0.1, 0.11, 0.3), 0.35),
            rise_m: 0.0,
            hip_in_world: Vec3::new(0.1, 0.9, 0.1),
            yaw_rad: 0.0,
            thigh_m: 0.44,
            shin_m: 0.43,
        }
    }

    #[test]
    fn ends_match_the_given_states() {
        let k = FlightKeys::default();
        for (to, la) in [(true, true), (true, false), (false, true), (false, false)] {
            let j = job(1.0, 0.5, to, la);
            let s0 = flight_foot_state(&k, &j);
            assert!(s0.ankle_in_world.distance(j.at_takeoff.ankle_in_world) < 1e-6);
            assert!((s0.pitch_rad - j.at_takeoff.pitch_rad).abs() < 1e-6);
            let s1 = flight_foot_state(&k, &FlightFootJob { t_secs: 1.5, ..j });
            assert!(s1.ankle_in_world.distance(j.at_land.ankle_in_world) < 1e-6);
            assert!((s1.pitch_rad - j.at_land.pitch_rad).abs() < 1e-6);
        }
    }

    #[test]
    fn lift_grows_with_air_time_and_vanishes_for_skims() {
        let k = FlightKeys::default();
        assert_eq!(k.lift_m(0.08, KickStyle::Tuck), 0.0);
        assert_eq!(k.point_strength(0.08), 0.0);
        let short = k.lift_m(0.25, KickStyle::Tuck);
        let long = k.lift_m(0.5, KickStyle::Tuck);
        assert!(short > 0.0 && long > 2.0 * short && long <= k.tuck_max_m);
        assert_eq!(k.lift_m(0.5, KickStyle::Free), 0.0);
        // A free foot points less in a short hop, fully in a long flight.
        assert!(k.free_point_strength(0.125) < 0.5 * k.point_strength(0.125));
        assert_eq!(k.free_point_strength(0.6), 1.0);
    }

    #[test]
    fn styles_follow_the_form() {
        assert_eq!(kick_style(Some(JumpForm::Leap), true, false), KickStyle::KickBack);
        assert_eq!(kick_style(None, false, true), KickStyle::Reach);
        assert_eq!(kick_style(Some(JumpForm::Leap), true, true), KickStyle::Reach);
        assert_eq!(kick_style(Some(JumpForm::Hop), true, true), KickStyle::Tuck);
        assert_eq!(kick_style(Some(JumpForm::Assemble), false, true), KickStyle::Tuck);
        assert_eq!(kick_style(Some(JumpForm::Sissonne), true, false), KickStyle::Tuck);
        assert_eq!(kick_style(Some(JumpForm::Hop), false, false), KickStyle::Free);
    }

    #[test]
    fn reach_softens_smoothly_and_stays_short_of_the_leg() {
        let hip = Vec3::new(0.0, 1.0, 0.0);
        let reach = 0.87;
        let mut last = f32::NAN;
        let mut last_step = f32::NAN;
        for i in 0..200 {
            let d = 0.7 + 0.002 * i as f32;
            let got = soften_reach(hip, hip + Vec3::new(0.0, -d, 0.0), reach, 1.0).distance(hip);
            assert!(got <= d + 1e-6 && got < reach, "{d}: {got}");
            if !last.is_nan() {
                let step = got - last;
                // Never faster than the target, slowing down without a jump in speed.
                assert!((0.0..=0.002 + 1e-5).contains(&step), "{d}: {step}");
                if !last_step.is_nan() {
                    assert!((step - last_step).abs() < 2e-4, "{d}: speed jumps {last_step} -> {step}");
                }
                last_step = step;
            }
            last = got;
        }
        // No weight, no change.
        let far = hip + Vec3::new(0.0, -1.0, 0.0);
        assert_eq!(soften_reach(hip, far, reach, 0.0), far);
    }

    #[test]
    fn straight_leg_under_the_hip_has_a_vertical_shin() {
        let lean = shin_lean_back_rad(Vec3::new(0.0, 0.95, 0.0), Vec3::new(0.0, 0.08, 0.0), 0.0, 0.44, 0.43);
        assert!(lean.abs() < 0.05, "{lean}");
        // Heel kicked back toward the buttock: the shin leans far back.
        let kick = shin_lean_back_rad(Vec3::new(0.0, 0.95, 0.0), Vec3::new(0.0, 0.6, -0.3), 0.0, 0.44, 0.43);
        assert!(kick > 1.0, "{kick}");
    }
}
