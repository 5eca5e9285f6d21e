//! Joint limits: per-axis angle ranges of a swing–twist decomposition in the joint's local frame.
//!
//! Used by the skeleton (one [`JointLimits`] per joint) and by the limb IK (which picks a swivel
//! angle that keeps the shoulder/hip and wrist/ankle inside their ranges).

use glam::{Quat, Vec3};

/// Allowed range of a joint's local rotation, in radians, per axis of the joint's local frame.
///
/// The local rotation `q` (child frame relative to parent frame; the identity is the rest pose)
/// is split as `q = swing * twist`:
/// - `twist` is a rotation about the local **Y** axis (the bone axis of the spine and limbs at
///   rest); its angle in (−π, π] is component `y`;
/// - `swing` is a rotation about an axis in the local XZ plane; its rotation vector
///   (axis × angle, angle in [0, π]) gives components `x` and `z`.
///
/// So `x` ≈ rotation about X (flexion/extension), `y` = twist about the bone, `z` ≈ rotation
/// about Z (abduction/adduction). Unlike Euler angles this is singular only at a 180° swing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointLimits {
    /// Lower bound per component (x swing, y twist, z swing), radians.
    pub min_rad: Vec3,
    /// Upper bound per component (x swing, y twist, z swing), radians.
    pub max_rad: Vec3,
}

/// Components closer than this (radians) to a range count as inside it.
pub const LIMIT_TOLERANCE_RAD: f32 = 1e-4;

impl JointLimits {
    /// No limit at all (every component fits in ±2π).
    pub const FREE: JointLimits =
        JointLimits { min_rad: Vec3::splat(-std::f32::consts::TAU), max_rad: Vec3::splat(std::f32::consts::TAU) };

    /// Limits from per-axis ranges given in degrees: `(min_x, max_x)`, `(min_y, max_y)`,
    /// `(min_z, max_z)`. Each pair is sorted, so the order inside a pair does not matter.
    pub fn from_deg(x: (f32, f32), y: (f32, f32), z: (f32, f32)) -> Self {
        let lo = |p: (f32, f32)| p.0.min(p.1).to_radians();
        let hi = |p: (f32, f32)| p.0.max(p.1).to_radians();
        Self { min_rad: Vec3::new(lo(x), lo(y), lo(z)), max_rad: Vec3::new(hi(x), hi(y), hi(z)) }
    }

    /// The same limits for the mirror-image joint on the other side of the body (mirror across
    /// the YZ plane): x ranges stay, y and z ranges are negated and swapped.
    pub fn mirrored_x(self) -> Self {
        Self {
            min_rad: Vec3::new(self.min_rad.x, -self.max_rad.y, -self.max_rad.z),
            max_rad: Vec3::new(self.max_rad.x, -self.min_rad.y, -self.min_rad.z),
        }
    }

    /// How far `q` lies outside the limits: the sum over the three components of the distance
    /// to the allowed range, radians (0 when inside).
    ///
    /// A swing by θ about an axis is the same rotation as a swing by 2π − θ about the opposite
    /// axis; both readings are measured and the nearer one counts, so a joint whose range ends at
    /// a half turn (a shoulder raised overhead) does not jump outside its limits when the swing
    /// passes π. Within 40° of a half-turn swing the twist's range widens smoothly to the whole
    /// turn, where the box allows such a swing: there the twist reading turns with the swing's
    /// axis (an arm raised in front and one raised sideways read half a turn apart overhead).
    pub fn violation_rad(&self, q: Quat) -> f32 {
        // Most rotations lie well inside: a cheap arctangent shows it, and the answer is then
        // exactly 0, as the full reading would give.
        let rough = swing_twist_with(q, rough_atan2);
        let margin = Vec3::splat(ROUGH_MARGIN_RAD);
        if rough.cmpge(self.min_rad + margin).all() && rough.cmple(self.max_rad - margin).all() {
            return 0.0;
        }
        self.violation_full(q)
    }

    /// [`Self::violation_rad`] from both full readings.
    fn violation_full(&self, q: Quat) -> f32 {
        let (a, alt) = both_readings(q);
        self.violation_of(a).min(self.violation_of(alt))
    }

    fn violation_of(&self, a: Vec3) -> f32 {
        let (lo, hi) = self.bounds_at(a);
        let below = (lo - a).max(Vec3::ZERO);
        let above = (a - hi).max(Vec3::ZERO);
        below.x + below.y + below.z + above.x + above.y + above.z
    }

    /// Whether `q` lies inside the limits, within [`LIMIT_TOLERANCE_RAD`] per component (either
    /// reading of the swing, as in [`Self::violation_rad`]).
    pub fn contains(&self, q: Quat) -> bool {
        let inside = |a: Vec3| {
            let (lo, hi) = self.bounds_at(a);
            a.cmpge(lo - Vec3::splat(LIMIT_TOLERANCE_RAD)).all() && a.cmple(hi + Vec3::splat(LIMIT_TOLERANCE_RAD)).all()
        };
        let (a, alt) = both_readings(q);
        inside(a) || inside(alt)
    }

    /// `q` with each swing–twist component clamped to its range (identity for a non-finite `q`),
    /// from the reading of the swing that is nearer the range.
    ///
    /// Where both readings lie outside by comparable amounts (a shoulder pushed over the top,
    /// past the half turn of its swing) their two clamped rotations can be far apart, and picking
    /// the nearer reading would jump from the one to the other as `q` moves. There the answer
    /// goes from the one to the other, by how much nearer the one is ([`reading_blend`]), along
    /// a way inside the limits through the half turn ([`Self::through_the_half_turn`]), so it is
    /// a continuous function of `q`. A rotation inside the limits is returned as it is.
    pub fn clamp(&self, q: Quat) -> Quat {
        let (a, alt) = both_readings(q);
        let (va, valt) = (self.violation_of(a), self.violation_of(alt));
        let clamped = |a: Vec3| {
            let (lo, hi) = self.bounds_at(a);
            a.clamp(lo, hi)
        };
        let (ca, calt) = (clamped(a), clamped(alt));
        let w_alt = reading_blend(va, valt);
        let nearer = if valt < va { calt } else { ca };
        if w_alt <= 0.0 || w_alt >= 1.0 {
            return from_swing_twist_angles(nearer);
        }
        // No way inside the limits joins them: the first reading holds unless the other lies
        // clearly nearer, so a rotation wavering about where both lie equally far outside (a
        // straight arm held back high, as far past the shoulder's extension as over the top)
        // keeps one answer.
        let held = if valt + READING_TIE_RAD < va { calt } else { ca };
        from_swing_twist_angles(self.through_the_half_turn(ca, calt, w_alt).unwrap_or(held))
    }

    /// The bounds that hold for the swing–twist reading `a`: the limits, with the twist's range
    /// widened near a half-turn swing where the box allows one (a shoulder overhead). There the
    /// twist reading turns with the swing's axis (at the half turn itself a twist is a half turn
    /// about another axis: an arm raised forward and one raised sideways read half a turn apart),
    /// so it widens smoothly to the whole turn over [`HALF_TURN_CONE_RAD`] before it, and an arm
    /// overhead turns about itself continuously as it leaves in any direction.
    fn bounds_at(&self, a: Vec3) -> (Vec3, Vec3) {
        use std::f32::consts::PI;
        let (lo, hi) = (self.min_rad, self.max_rad);
        let reach = lo.x.abs().max(hi.x.abs()).max(lo.z.abs()).max(hi.z.abs());
        let off_half_turn = (a.x.hypot(a.z) - PI).abs();
        if reach < PI - 1e-3 || off_half_turn >= HALF_TURN_CONE_RAD {
            return (lo, hi);
        }
        let x = 1.0 - off_half_turn / HALF_TURN_CONE_RAD;
        let w = x * x * (3.0 - 2.0 * x);
        let (twist_lo, twist_hi) = (lo.y + (-PI - lo.y) * w, hi.y + (PI - hi.y) * w);
        (Vec3::new(lo.x, twist_lo.min(lo.y), lo.z), Vec3::new(hi.x, twist_hi.max(hi.y), hi.z))
    }

    /// The point a share `w` of the way from `p` (the clamped first reading, its swing shorter
    /// than a half turn) to `b` (the clamped other reading, which reads the swing the long way
    /// round) along a way inside the box: `b` goes straight to the nearest half-turn swing the
    /// box allows; a half turn about one axis is the same rotation as a half turn about another
    /// with the twist changed by twice the angle between the axes, so the way continues, without
    /// moving, as the half turn the box allows nearest the opposite axis, and from there straight
    /// to `p`. `None` when there is no such way (no half turn inside the box, or the twist it
    /// needs is out of range).
    fn through_the_half_turn(&self, p: Vec3, b: Vec3, w: f32) -> Option<Vec3> {
        use std::f32::consts::{PI, TAU};
        let (lo, hi) = (self.min_rad, self.max_rad);
        if lo.x > 0.0 || hi.x < 0.0 || lo.z > 0.0 || hi.z < 0.0 || b.x.hypot(b.z) < 1e-6 {
            return None;
        }
        let wrap = |a: f32| (a + PI).rem_euclid(TAU) - PI;
        let inside_at = |angle: f32| {
            let (x, z) = (PI * angle.cos(), PI * angle.sin());
            let tol = 1e-4;
            x >= lo.x - tol && x <= hi.x + tol && z >= lo.z - tol && z <= hi.z + tol
        };
        // Swing axes (angles in the XZ plane) at which a half turn lies inside the box: whole
        // arcs between the angles where the circle crosses the box's edges.
        let mut edges = Vec::new();
        for (bound, is_cos) in [(lo.x, true), (hi.x, true), (lo.z, false), (hi.z, false)] {
            let r = bound / PI;
            if r.abs() <= 1.0 {
                let base = if is_cos { r.acos() } else { r.asin() };
                edges.extend(if is_cos { [base, -base] } else { [base, PI - base] });
            }
        }
        let nearest_inside = |target: f32| {
            std::iter::once(target)
                .chain(edges.iter().copied())
                .filter(|a| inside_at(*a))
                .min_by(|a, c| wrap(a - target).abs().total_cmp(&wrap(c - target).abs()))
        };
        let from_angle = nearest_inside(b.z.atan2(b.x))?;
        let to_angle = nearest_inside(from_angle + PI)?;
        let twist = wrap(b.y + 2.0 * (from_angle - to_angle));
        if twist < lo.y - 1e-4 || twist > hi.y + 1e-4 {
            return None;
        }
        let half_b = Vec3::new(PI * from_angle.cos(), b.y, PI * from_angle.sin());
        let half_p = Vec3::new(PI * to_angle.cos(), twist, PI * to_angle.sin());
        let (l1, l2) = (p.distance(half_p), half_b.distance(b));
        let d = w * (l1 + l2);
        Some(if d <= l1 {
            p.lerp(half_p, if l1 > 1e-9 { d / l1 } else { 0.0 })
        } else {
            half_b.lerp(b, if l2 > 1e-9 { (d - l1) / l2 } else { 1.0 })
        })
    }
}

/// How far the limits' clamp goes from the first reading's answer towards the other's, given
/// how far outside each reading lies (radians): 0 when the first is nearer by at least
/// [`READING_BLEND`] times the smaller violation, 1 when the other is, smooth in between (and
/// exactly 0 or 1 when one reading is inside).
fn reading_blend(v_first: f32, v_other: f32) -> f32 {
    let band = READING_BLEND * v_first.min(v_other);
    if band <= 1e-9 {
        return if v_other < v_first { 1.0 } else { 0.0 };
    }
    let x = (0.5 + (v_first - v_other) / (2.0 * band)).clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// How far before a half-turn swing the twist's range starts widening, radians (40°); see
/// [`JointLimits::bounds_at`].
const HALF_TURN_CONE_RAD: f32 = 40.0 * std::f32::consts::PI / 180.0;

/// Width of the blend between the two readings' clamps, as a multiple of the smaller violation:
/// they blend while neither lies outside by more than (1 + this) times the other.
const READING_BLEND: f32 = 2.0;

/// How much nearer the other reading must lie than the first for its clamp to be taken where
/// no way inside the limits joins the two, radians (6°).
const READING_TIE_RAD: f32 = 0.1;

/// The swing–twist components of `q` (swing angle ≤ π) and the other reading of the same
/// rotation: the swing by 2π − θ about the opposite axis (same twist).
fn both_readings(q: Quat) -> (Vec3, Vec3) {
    let a = swing_twist_angles(q);
    let swing = glam::Vec2::new(a.x, a.z);
    let angle = swing.length();
    let alt = if angle > 1e-6 {
        let other = -swing / angle * (std::f32::consts::TAU - angle);
        Vec3::new(other.x, a.y, other.y)
    } else {
        a
    };
    (a, alt)
}

/// Swing–twist components of a rotation: `(x swing, y twist, z swing)` in radians, as described
/// on [`JointLimits`]. A non-finite or zero quaternion counts as the identity.
pub fn swing_twist_angles(q: Quat) -> Vec3 {
    swing_twist_with(q, f32::atan2)
}

/// [`swing_twist_angles`] with the arctangent `atan2(y, x)` given.
#[inline(always)]
fn swing_twist_with(q: Quat, atan2: impl Fn(f32, f32) -> f32) -> Vec3 {
    let q = normalized_or_identity(q);
    let q = if q.w < 0.0 { -q } else { q };
    // Twist about Y: the projection of q onto the Y axis.
    let twist_norm = (q.y * q.y + q.w * q.w).sqrt();
    let twist =
        if twist_norm > 1e-9 { Quat::from_xyzw(0.0, q.y / twist_norm, 0.0, q.w / twist_norm) } else { Quat::IDENTITY };
    let twist_angle = 2.0 * atan2(twist.y, twist.w);
    let swing = q * twist.conjugate();
    let swing = if swing.w < 0.0 { -swing } else { swing };
    let sin_half = (swing.x * swing.x + swing.z * swing.z).sqrt();
    let swing_angle = 2.0 * atan2(sin_half, swing.w);
    let (sx, sz) = if sin_half > 1e-9 {
        (swing.x / sin_half * swing_angle, swing.z / sin_half * swing_angle)
    } else {
        (2.0 * swing.x, 2.0 * swing.z)
    };
    Vec3::new(sx, twist_angle, sz)
}

/// `atan2(y, x)` within [`ROUGH_ATAN2_ERR_RAD`] (an odd polynomial in the ratio of the smaller
/// to the larger magnitude), for the quick test in [`JointLimits::violation_rad`].
fn rough_atan2(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI};
    let (ax, ay) = (x.abs(), y.abs());
    let (lo, hi) = (ax.min(ay), ax.max(ay));
    if hi.is_nan() || hi <= 0.0 {
        // Both zero (or NaN).
        return y.atan2(x);
    }
    let r = lo / hi;
    let r2 = r * r;
    let p = ((((-0.013_480_47 * r2 + 0.057_477_314) * r2 - 0.121_239_07) * r2 + 0.195_635_93) * r2 - 0.332_994_6) * r2;
    let a = (p + 0.999_995_6) * r;
    let a = if ay > ax { FRAC_PI_2 - a } else { a };
    let a = if x < 0.0 { PI - a } else { a };
    a.copysign(y)
}

/// Largest error of [`rough_atan2`], radians (the polynomial's is 3.4e-6, at a ratio of 1).
const ROUGH_ATAN2_ERR_RAD: f32 = 2e-5;

/// How far inside every range the rough reading must lie for [`JointLimits::violation_rad`] to
/// answer 0 without the full reading: far more than twice [`ROUGH_ATAN2_ERR_RAD`] (each angle
/// is twice an arctangent) and the rounding of either reading.
const ROUGH_MARGIN_RAD: f32 = 50.0 * ROUGH_ATAN2_ERR_RAD;

/// The rotation with the given swing–twist components (inverse of [`swing_twist_angles`]).
pub fn from_swing_twist_angles(a: Vec3) -> Quat {
    let a = if a.is_finite() { a } else { Vec3::ZERO };
    Quat::from_scaled_axis(Vec3::new(a.x, 0.0, a.z)) * Quat::from_rotation_y(a.y)
}

/// `q` normalised, or the identity when `q` is non-finite or (nearly) zero.
pub fn normalized_or_identity(q: Quat) -> Quat {
    let len_sq = q.length_squared();
    if len_sq.is_finite() && len_sq > 1e-12 { q * len_sq.sqrt().recip() } else { Quat::IDENTITY }
}

/// Angle of the rotation taking `b` to `a`, radians, in [0, π]; precise for small angles
/// (unlike an `acos` of the dot product).
pub fn rotation_angle_between(a: Quat, b: Quat) -> f32 {
    let d = normalized_or_identity(a) * normalized_or_identity(b).conjugate();
    2.0 * d.xyz().length().atan2(d.w.abs())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn rough_atan2_stays_within_its_error() {
        let mut worst = 0.0f32;
        for i in 0..=720 {
            let angle = (i as f32 / 720.0 - 0.5) * std::f32::consts::TAU;
            for r in [1e-6f32, 0.3, 1.0, 7.0] {
                let (y, x) = (r * angle.sin(), r * angle.cos());
                let err = (rough_atan2(y, x) - y.atan2(x)).abs();
                // (±π at the cut reads either way.)
                worst = worst.max(err.min((err - std::f32::consts::TAU).abs()));
            }
        }
        assert!(worst < ROUGH_ATAN2_ERR_RAD, "{worst}");
        assert_eq!(rough_atan2(0.0, 0.0), 0.0);
    }

    #[test]
    fn violation_answers_bit_for_bit_as_the_full_readings() {
        // Rotations inside, on the edge of and outside a shoulder's, a knee's and free limits.
        let limits = [
            JointLimits::from_deg((-60.0, 180.0), (-90.0, 90.0), (-30.0, 170.0)),
            JointLimits::from_deg((0.0, 150.0), (-2.0, 2.0), (-2.0, 2.0)),
            JointLimits::FREE,
        ];
        let mut state = 12345u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0
        };
        let mut inside = 0;
        for _ in 0..20_000 {
            let q = Quat::from_xyzw(next(), next() * 0.5, next(), next());
            for l in &limits {
                let v = l.violation_rad(q);
                assert_eq!(v.to_bits(), l.violation_full(q).to_bits(), "{q:?} {l:?}");
                inside += usize::from(v == 0.0);
            }
        }
        assert!(inside > 5000, "{inside}");
    }

    fn quats() -> Vec<Quat> {
        let mut out = Vec::new();
        for i in 0..9 {
            for j in 0..9 {
                for k in 0..5 {
                    let x = -2.8 + 0.7 * i as f32;
                    let z = -2.8 + 0.7 * j as f32;
                    let y = -2.5 + 1.25 * k as f32;
                    out.push(Quat::from_scaled_axis(Vec3::new(x, 0.0, z)) * Quat::from_rotation_y(y));
                }
            }
        }
        out
    }

    #[test]
    fn swing_twist_round_trips() {
        for q in quats() {
            let back = from_swing_twist_angles(swing_twist_angles(q));
            assert!(rotation_angle_between(back, q) < 1e-5, "{q:?} -> {back:?}");
        }
    }

    #[test]
    fn clamp_lands_inside_and_keeps_inside_points() {
        let limits = JointLimits::from_deg((-30.0, 60.0), (-20.0, 10.0), (0.0, 90.0));
        for q in quats() {
            let c = limits.clamp(q);
            assert!(limits.contains(c), "{q:?} clamped to {c:?}");
            if limits.contains(q) {
                assert!(rotation_angle_between(c, q) < 1e-4);
                assert!(limits.violation_rad(q) < 1e-3);
            } else {
                assert!(limits.violation_rad(q) > 0.0);
            }
        }
    }

    #[test]
    fn the_clamp_is_continuous_over_the_top_of_a_shoulder() {
        // A left shoulder's range (flexion and abduction to a half turn, adduction to 60°) and an
        // arm swept from over the top towards the other side down to forward and across, past
        // its adduction limit all the way (as a chest tilted away asks of an arm going from up
        // to forward): the two readings' clamps are far apart where they are equally far.
        let limits = JointLimits::from_deg((-180.0, 90.0), (-90.0, 90.0), (-60.0, 180.0));
        let (from, via, to) =
            (Vec3::new(0.0, 0.0, -159.0), Vec3::new(-93.0, 0.0, -108.0), Vec3::new(-114.0, 0.0, -62.0));
        let n = 400;
        let path: Vec<Quat> = (0..=n)
            .map(|i| {
                let s = i as f32 / n as f32;
                let a = if s < 0.5 { from.lerp(via, 2.0 * s) } else { via.lerp(to, 2.0 * s - 1.0) };
                from_swing_twist_angles(a * std::f32::consts::PI / 180.0)
            })
            .collect();
        let max_in = path.windows(2).map(|w| rotation_angle_between(w[0], w[1])).fold(0.0, f32::max);
        let clamped: Vec<Quat> = path.iter().map(|q| limits.clamp(*q)).collect();
        for (q, c) in path.iter().zip(&clamped) {
            assert!(limits.contains(*c), "{q:?} clamped to {c:?} outside");
        }
        let max_out = clamped.windows(2).map(|w| rotation_angle_between(w[0], w[1])).fold(0.0, f32::max);
        // The nearer reading alone jumps by about 90° in one step here.
        assert!(
            max_out < 10.0 * max_in,
            "clamp moved {:.1}° in one step of {:.2}°",
            max_out.to_degrees(),
            max_in.to_degrees()
        );
        // It does end on the one side and start on the other: the path crosses over.
        assert!(rotation_angle_between(clamped[0], clamped[n]) > 60f32.to_radians());
    }

    #[test]
    fn mirrored_limits_match_mirrored_rotations() {
        let left = JointLimits::from_deg((-30.0, 60.0), (-20.0, 10.0), (0.0, 90.0));
        let right = left.mirrored_x();
        for q in quats() {
            // Mirror across the YZ plane: rotation axis (x, y, z) becomes (x, -y, -z).
            let m = Quat::from_xyzw(q.x, -q.y, -q.z, q.w);
            assert_eq!(left.contains(q), right.contains(m), "{q:?}");
        }
    }

    /// An arm raised forward to overhead, then tilted out to the side about itself unturned: its
    /// twist reads a half turn as soon as it leaves the top (the swing's axis turned a quarter),
    /// so with the twist's range alone the clamp turned the arm a quarter turn at the first step.
    #[test]
    fn an_arm_leaving_overhead_sideways_is_clamped_continuously() {
        let shoulder = JointLimits::from_deg((-180.0, 90.0), (-90.0, 90.0), (-85.0, 180.0));
        let up_in_front = Quat::from_rotation_x(-std::f32::consts::PI);
        let tilted = |deg: f32| Quat::from_rotation_z(-deg.to_radians()) * up_in_front;
        assert!(shoulder.violation_rad(tilted(0.5)) < 1e-3, "just off the top, a half-turn twist is in range");
        assert!(shoulder.violation_rad(tilted(60.0)) > 1.0, "well off the top, a half-turn twist is out");
        let mut before = shoulder.clamp(tilted(0.0));
        for i in 1..=120 {
            let now = shoulder.clamp(tilted(i as f32 * 0.5));
            let step = rotation_angle_between(now, before).to_degrees();
            assert!(
                step < 3.0,
                "{:.1}° off the top: the clamp turned {step:.1}° in a half-degree step",
                i as f32 * 0.5
            );
            before = now;
        }
    }

    #[test]
    fn bad_quaternions_count_as_identity() {
        assert_eq!(swing_twist_angles(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)), Vec3::ZERO);
        assert_eq!(swing_twist_angles(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)), Vec3::ZERO);
        assert_eq!(JointLimits::FREE.clamp(Quat::from_xyzw(f32::INFINITY, 0.0, 0.0, 0.0)), Quat::IDENTITY);
    }
}
