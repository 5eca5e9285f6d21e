//! Foot keys: where each ankle is and how the foot is turned at a time, from the footprints.
//!
//! Planted: heel strike → flat → heel-off (ball first with the toe preference or on landings),
//! pivots and relevés on the ball with the heel lifted; the contact point (heel, whole foot or
//! ball) never moves. In the air: a swing from lift-off to the next landing with floor clearance,
//! rising with the body in flights.

use crate::motion::plan::{Contact, Footprint, smoothstep};
use glam::{Quat, Vec3};

/// Foot geometry in the ankle frame at rest (world-aligned, foot pointing +Z). Built by
/// [`FootGeometry::new`], which also keeps the toe tip's polar form for [`Self::toe_bend_for`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootGeometry {
    /// Ankle height above the floor when standing flat, metres.
    pub ankle_height_m: f32,
    /// Ball joint relative to the ankle.
    pub ball_in_ankle: Vec3,
    /// Heel contact point relative to the ankle (on the floor at rest).
    pub heel_in_ankle: Vec3,
    /// Toe tip relative to the ball joint (on the floor at rest); see [`Self::toe_tip_in_ball`].
    toe_tip_in_ball: Vec3,
    /// The toe tip turned about X: its distance from the ball's axis and the angle from −Y
    /// towards +Z of its direction, `(r, delta)`, so its height is `r·cos(phi + delta)`.
    toe_tip_polar: (f64, f64),
}

impl FootGeometry {
    /// A foot from its ankle height (metres) and its ball, heel and toe tip points (see the
    /// fields).
    pub fn new(ankle_height_m: f32, ball_in_ankle: Vec3, heel_in_ankle: Vec3, toe_tip_in_ball: Vec3) -> Self {
        let tip = toe_tip_in_ball.as_dvec3();
        let toe_tip_polar = (tip.y.hypot(tip.z), tip.z.atan2(tip.y));
        Self { ankle_height_m, ball_in_ankle, heel_in_ankle, toe_tip_in_ball, toe_tip_polar }
    }

    /// Toe tip relative to the ball joint (on the floor at rest).
    pub fn toe_tip_in_ball(&self) -> Vec3 {
        self.toe_tip_in_ball
    }

    /// Height of the lowest point of the sole (heel, ball, toe tip) of a foot in `state`.
    pub fn lowest_sole_y(&self, state: &FootState) -> f32 {
        self.lowest_sole_y_turned(state, state.rot_in_world())
    }

    /// [`Self::lowest_sole_y`] for a foot whose ankle frame has world rotation `rot` (the one the
    /// IK actually reached), with `state`'s ankle position and toe bend.
    pub fn lowest_sole_y_turned(&self, state: &FootState, rot: Quat) -> f32 {
        let heel = state.ankle_in_world + rot * self.heel_in_ankle;
        let ball = state.ankle_in_world + rot * self.ball_contact_in_ankle();
        let ball_joint = state.ankle_in_world + rot * self.ball_in_ankle;
        let toe = ball_joint + rot * Quat::from_rotation_x(state.toe_bend_rad) * self.toe_tip_in_ball;
        heel.y.min(ball.y).min(toe.y)
    }

    /// Raises a foot in the air so no point of its sole is below the floor.
    pub fn keep_above_floor(&self, state: &mut FootState) {
        let low = self.lowest_sole_y(state);
        if low < 5e-4 {
            state.ankle_in_world.y += 5e-4 - low;
        }
    }

    /// Toe bend (ball joint rotation about X, radians) that keeps the toe tip on or just above
    /// the floor when the foot is pitched by `pitch_rad` about the ball contact.
    pub fn toe_bend_for(&self, pitch_rad: f32) -> f32 {
        if pitch_rad <= 0.0 {
            return 0.0;
        }
        // Height of the ball joint above the floor with the foot pitched about the ball contact.
        let contact = self.ball_contact_in_ankle();
        let ball_y = (Quat::from_rotation_x(pitch_rad) * (self.ball_in_ankle - contact)).y;
        let tip_y = |phi: f32| ball_y + (Quat::from_rotation_x(phi) * self.toe_tip_in_ball).y;
        // World toe angle phi = pitch + bend: the largest phi ≤ 0 with the tip ≥ 0.5 mm up.
        const LOWEST_RAD: f32 = -1.2;
        const CLEAR_M: f32 = 5e-4;
        let (mut lo, mut hi) = (LOWEST_RAD, 0.0f32);
        if tip_y(hi) >= CLEAR_M {
            return -pitch_rad;
        }
        // Turned about X the tip is at height ball_y + r·cos(phi + delta). Where that falls
        // over the whole range (the usual toe: tip below and ahead of the ball), the crossing
        // is closed-form; otherwise bisect.
        let (r, delta) = self.toe_tip_polar;
        if r > 1e-6 && delta >= f64::from(-LOWEST_RAD) && delta <= std::f64::consts::PI {
            if tip_y(LOWEST_RAD) < CLEAR_M {
                return LOWEST_RAD - pitch_rad;
            }
            let phi = ((f64::from(CLEAR_M) - f64::from(ball_y)) / r).clamp(-1.0, 1.0).acos() - delta;
            return (phi as f32).clamp(LOWEST_RAD, 0.0) - pitch_rad;
        }
        for _ in 0..30 {
            let mid = 0.5 * (lo + hi);
            if tip_y(mid) >= 5e-4 { lo = mid } else { hi = mid }
        }
        lo - pitch_rad
    }

    /// Toe bend of a foot in the air (ankle frame at `ankle_in_world`, turned by `rot`): `wanted_rad`
    /// where that keeps the toe tip at least 0.5 mm above the floor, else the bend closest to it
    /// (toes curled up) that does; `None` when no bend within 1.5 rad of it does.
    pub fn toe_bend_clear(&self, ankle_in_world: Vec3, rot: Quat, wanted_rad: f32) -> Option<f32> {
        let ball = ankle_in_world + rot * self.ball_in_ankle;
        let tip_y = |bend: f32| (ball + rot * Quat::from_rotation_x(bend) * self.toe_tip_in_ball).y;
        // (0.2 mm below the clearance the sampler lifts a foot in the air to, so a foot lifted
        // for this bend keeps it.)
        if tip_y(wanted_rad) >= 3e-4 {
            return Some(wanted_rad);
        }
        let (mut lo, mut hi) = (wanted_rad - 1.5, wanted_rad);
        if tip_y(lo) < 5e-4 {
            return None;
        }
        for _ in 0..30 {
            let mid = 0.5 * (lo + hi);
            if tip_y(mid) >= 5e-4 { lo = mid } else { hi = mid }
        }
        Some(lo)
    }

    /// The floor point under the ball joint, relative to the ankle (the pivot when the heel is up).
    pub fn ball_contact_in_ankle(&self) -> Vec3 {
        Vec3::new(self.ball_in_ankle.x, -self.ankle_height_m, self.ball_in_ankle.z)
    }
}

/// Pitch angles of the foot (radians, + = heel up / toes down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootAngles {
    /// Heel strike (toes up).
    pub heel_strike_rad: f32,
    /// Heel-off before lifting.
    pub heel_off_rad: f32,
    /// Relevé on the ball.
    pub releve_rad: f32,
    /// Heel lifted while pivoting on the ball.
    pub pivot_rad: f32,
    /// Ball-first landing.
    pub ball_landing_rad: f32,
    /// Toes lifted while the foot swivels on its heel.
    pub heel_swivel_rad: f32,
}

impl Default for FootAngles {
    fn default() -> Self {
        FootAngles {
            heel_strike_rad: -15f32.to_radians(),
            heel_off_rad: 30f32.to_radians(),
            releve_rad: 35f32.to_radians(),
            pivot_rad: 12f32.to_radians(),
            ball_landing_rad: 20f32.to_radians(),
            heel_swivel_rad: 6f32.to_radians(),
        }
    }
}

/// Where a foot is at one instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootState {
    /// Ankle joint centre, world space.
    pub ankle_in_world: Vec3,
    /// Heading (yaw about +Y) of the foot.
    pub yaw_rad: f32,
    /// Pitch of the foot (+ = heel up).
    pub pitch_rad: f32,
    /// Bend of the toes that keeps them flat on the floor (radians, the ball joint's x).
    pub toe_bend_rad: f32,
    /// True while planted.
    pub planted: bool,
}

impl FootState {
    /// World rotation of the foot (the ankle joint's frame).
    pub fn rot_in_world(&self) -> Quat {
        Quat::from_rotation_y(self.yaw_rad) * Quat::from_rotation_x(self.pitch_rad)
    }
}

/// The part of a footprint's time on the floor over which the foot rolls on and off it.
const ROLL_SHARE: f64 = 0.25;
/// The longest a foot rolls on or off its footprint, seconds.
const ROLL_MAX_SECS: f64 = 0.12;

/// How long the foot of `fp` rolls on (after its landing) and off (before its lift), seconds.
fn roll_secs(fp: &Footprint) -> f64 {
    let span = (fp.t_lift_secs - fp.t_land_secs).max(0.0);
    (ROLL_SHARE * span).min(ROLL_MAX_SECS)
}

/// 0 before `a`, 1 after `b`, linear in between (a step when `b ≤ a`).
pub(crate) fn ramp(t: f64, a: f64, b: f64) -> f32 {
    if b <= a {
        return if t >= b { 1.0 } else { 0.0 };
    }
    ((t - a) / (b - a)).clamp(0.0, 1.0) as f32
}

/// The ankle of a foot turned by `yaw`/`pitch` whose pivot (ball for pitch ≥ 0, heel otherwise)
/// stays where it is when the foot stands flat on `ground_under_ankle` with heading `yaw_flat`.
pub fn ankle_for(geo: &FootGeometry, ground_under_ankle: Vec3, yaw_flat: f32, yaw: f32, pitch: f32) -> Vec3 {
    let ankle_flat = ground_under_ankle + Vec3::Y * geo.ankle_height_m;
    let flat = Quat::from_rotation_y(yaw_flat);
    let turned = Quat::from_rotation_y(yaw) * Quat::from_rotation_x(pitch);
    let pivot = if pitch >= 0.0 { geo.ball_contact_in_ankle() } else { geo.heel_in_ankle };
    let pivot_in_world = ankle_flat + flat * pivot;
    pivot_in_world - turned * pivot
}

/// The point of the foot that bears weight in a planted state (ball when the heel is up).
pub fn contact_point(geo: &FootGeometry, state: &FootState) -> Vec3 {
    let pivot = if state.pitch_rad > 1e-4 {
        geo.ball_contact_in_ankle()
    } else if state.pitch_rad < -1e-4 {
        geo.heel_in_ankle
    } else {
        Vec3::new(0.0, -geo.ankle_height_m, 0.0)
    };
    state.ankle_in_world + state.rot_in_world() * pivot
}

/// Where the flat foot of `fp` stands at `t_secs` (ground under the ankle, heading) for
/// [`ankle_for`]: where it landed, or after a pivot on the heel where that pivot left it (a
/// pivot on the ball is measured from the landing throughout).
fn flat_stance(fp: &Footprint, t_secs: f64) -> (Vec3, f32) {
    match fp.pivot_secs {
        Some((_, b)) if fp.pivot_on_heel && t_secs >= b => (fp.position_end_in_world, fp.yaw_end_rad),
        _ => (fp.position_in_world, fp.yaw_start_rad),
    }
}

/// State of a planted foot on footprint `fp` at `t_secs` (`t_land ≤ t ≤ t_lift`).
/// `rolls_off`: the foot leaves the floor at `t_lift` (it is not the end of the score).
pub fn planted_state(
    geo: &FootGeometry,
    angles: &FootAngles,
    fp: &Footprint,
    t_secs: f64,
    rolls_off: bool,
) -> FootState {
    let tau = roll_secs(fp);
    let yaw = fp.yaw_at(t_secs);
    let mut base = if fp.releve { angles.releve_rad } else { 0.0 };
    if let Some((a, b)) = fp.releve_ramp_secs {
        let s = smoothstep(ramp(t_secs, a, b));
        base = if fp.releve { angles.releve_rad * s } else { angles.releve_rad * (1.0 - s) };
    }
    if let Some((a, b)) = fp.pivot_secs {
        let w = ramp(t_secs, a - 0.08, a).min(1.0 - ramp(t_secs, b, b + 0.08));
        if fp.pivot_on_heel {
            base -= angles.heel_swivel_rad * w;
        } else {
            base = base.max(angles.pivot_rad * w);
        }
    }
    let mut pitch = base;
    if tau > 0.0 && t_secs < fp.t_land_secs + tau && fp.t_land_secs > 0.0 {
        let s = smoothstep(ramp(t_secs, fp.t_land_secs, fp.t_land_secs + tau));
        let start = match fp.contact {
            Contact::Heel => angles.heel_strike_rad,
            Contact::Ball => base.max(angles.ball_landing_rad),
            Contact::Flat => base,
        };
        pitch = start + (base - start) * s;
    }
    if rolls_off && tau > 0.0 && t_secs > fp.t_lift_secs - tau {
        let s = smoothstep(ramp(t_secs, fp.t_lift_secs - tau, fp.t_lift_secs));
        let end = base.max(angles.heel_off_rad);
        pitch = pitch + (end - pitch) * s;
    }
    let (ground, yaw_flat) = flat_stance(fp, t_secs);
    let ankle = ankle_for(geo, ground, yaw_flat, yaw, pitch);
    FootState {
        ankle_in_world: ankle,
        yaw_rad: yaw,
        pitch_rad: pitch,
        toe_bend_rad: geo.toe_bend_for(pitch),
        planted: true,
    }
}

/// [`planted_state`] of a foot that is set down again where it stands as it lifts (the next
/// footprint lands at `fp.t_lift_secs`: a relevé, a pivot, a new support in place): over the
/// support's last part the pitch moves to `next_pitch_rad`, the pitch the next footprint starts
/// with, instead of rolling off, so the foot hands over without a jump.
pub fn planted_state_handing_over(
    geo: &FootGeometry,
    angles: &FootAngles,
    fp: &Footprint,
    t_secs: f64,
    next_pitch_rad: f32,
) -> FootState {
    let mut state = planted_state(geo, angles, fp, t_secs, false);
    let tau = roll_secs(fp);
    if tau > 0.0 && t_secs > fp.t_lift_secs - tau {
        let end = planted_state(geo, angles, fp, fp.t_lift_secs, false).pitch_rad;
        let s = smoothstep(ramp(t_secs, fp.t_lift_secs - tau, fp.t_lift_secs));
        state.pitch_rad += (next_pitch_rad - end) * s;
        let (ground, yaw_flat) = flat_stance(fp, t_secs);
        state.ankle_in_world = ankle_for(geo, ground, yaw_flat, state.yaw_rad, state.pitch_rad);
        state.toe_bend_rad = geo.toe_bend_for(state.pitch_rad);
    }
    state
}

/// State at the moment a foot lands on `fp`.
pub fn landing_state(geo: &FootGeometry, angles: &FootAngles, fp: &Footprint) -> FootState {
    let t = fp.t_land_secs;
    planted_state(geo, angles, fp, t, false)
}

/// A foot in the air between two states: eased travel, a clearance arc, and `rise_m` added
/// (the body's rise above the straight line between the ends, so feet follow a jump).
pub fn swing_state(from: &FootState, to: &FootState, s: f32, clearance_m: f32, rise_m: f32) -> FootState {
    let e = smoothstep(s);
    let mut ankle = from.ankle_in_world.lerp(to.ankle_in_world, e);
    ankle.y += clearance_m * (std::f32::consts::PI * s.clamp(0.0, 1.0)).sin() + rise_m;
    let dyaw = wrap_angle(to.yaw_rad - from.yaw_rad);
    FootState {
        ankle_in_world: ankle,
        yaw_rad: from.yaw_rad + dyaw * e,
        pitch_rad: from.pitch_rad + (to.pitch_rad - from.pitch_rad) * e,
        toe_bend_rad: from.toe_bend_rad + (to.toe_bend_rad - from.toe_bend_rad) * e,
        planted: false,
    }
}

/// An angle brought into (−π, π].
pub fn wrap_angle(a: f32) -> f32 {
    let two_pi = std::f32::consts::TAU;
    let mut x = a.rem_euclid(two_pi);
    if x > std::f32::consts::PI {
        x -= two_pi;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo() -> FootGeometry {
        FootGeometry::new(0.08, Vec3::new(0.0, -0.06, 0.14), Vec3::new(0.0, -0.08, -0.05), Vec3::new(0.0, -0.02, 0.05))
    }

    /// The closed-form toe bend finds the crossing the bisection it replaced finds (to within
    /// the bisection's own f32 resolution where the tip's height is flat in the angle).
    #[test]
    fn toe_bend_closed_form_matches_bisection() {
        let skeleton = crate::pose::skeleton::Skeleton::new(&crate::pose::skeleton::Proportions::default());
        let geo = crate::animation::foot_geometry(&skeleton);
        let bisect = |pitch: f32| {
            let contact = geo.ball_contact_in_ankle();
            let ball_y = (Quat::from_rotation_x(pitch) * (geo.ball_in_ankle - contact)).y;
            let tip_y = |phi: f32| ball_y + (Quat::from_rotation_x(phi) * geo.toe_tip_in_ball).y;
            let (mut lo, mut hi) = (-1.2f32, 0.0f32);
            if tip_y(hi) >= 5e-4 {
                return -pitch;
            }
            for _ in 0..30 {
                let mid = 0.5 * (lo + hi);
                if tip_y(mid) >= 5e-4 { lo = mid } else { hi = mid }
            }
            lo - pitch
        };
        // (A foot not pitched forward keeps its toes straight before any search.)
        for i in 1..=300 {
            let pitch = i as f32 * 0.005;
            let (got, want) = (geo.toe_bend_for(pitch), bisect(pitch));
            assert!((got - want).abs() < 2e-5, "pitch {pitch}: {got} vs bisection {want}");
        }
    }

    #[test]
    fn pivots_keep_their_contact_point() {
        let g = geo();
        let p = Vec3::new(1.0, 0.0, 2.0);
        let flat_ball = ankle_for(&g, p, 0.3, 0.3, 0.0) + Quat::from_rotation_y(0.3) * g.ball_contact_in_ankle();
        for (yaw, pitch) in [(0.3, 0.4), (1.5, 0.2), (-2.0, 0.6)] {
            let a = ankle_for(&g, p, 0.3, yaw, pitch);
            let ball = a + Quat::from_rotation_y(yaw) * Quat::from_rotation_x(pitch) * g.ball_contact_in_ankle();
            assert!(ball.distance(flat_ball) < 1e-5);
        }
        let flat_heel = ankle_for(&g, p, 0.0, 0.0, 0.0) + g.heel_in_ankle;
        let a = ankle_for(&g, p, 0.0, 0.0, -0.3);
        let heel = a + Quat::from_rotation_x(-0.3) * g.heel_in_ankle;
        assert!(heel.distance(flat_heel) < 1e-5);
        assert!(a.y > 0.0);
    }

    #[test]
    fn wrap_is_in_range() {
        for a in [-10.0f32, -3.2, 0.0, 3.2, 7.0] {
            let w = wrap_angle(a);
            assert!(w > -std::f32::consts::PI - 1e-6 && w <= std::f32::consts::PI + 1e-6);
            assert!(
                ((a - w) / std::f32::consts::TAU).fract().abs() < 1e-4
                    || ((a - w) / std::f32::consts::TAU).fract().abs() > 0.9999
            );
        }
    }
}
