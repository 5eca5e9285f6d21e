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
    /// passes π.
    pub fn violation_rad(&self, q: Quat) -> f32 {
        let (a, alt) = both_readings(q);
        self.violation_of(a).min(self.violation_of(alt))
    }

    fn violation_of(&self, a: Vec3) -> f32 {
        let below = (self.min_rad - a).max(Vec3::ZERO);
        let above = (a - self.max_rad).max(Vec3::ZERO);
        below.x + below.y + below.z + above.x + above.y + above.z
    }

    /// Whether `q` lies inside the limits, within [`LIMIT_TOLERANCE_RAD`] per component (either
    /// reading of the swing, as in [`Self::violation_rad`]).
    pub fn contains(&self, q: Quat) -> bool {
        let inside = |a: Vec3| {
            a.cmpge(self.min_rad - Vec3::splat(LIMIT_TOLERANCE_RAD)).all()
                && a.cmple(self.max_rad + Vec3::splat(LIMIT_TOLERANCE_RAD)).all()
        };
        let (a, alt) = both_readings(q);
        inside(a) || inside(alt)
    }

    /// `q` with each swing–twist component clamped to its range (identity for a non-finite `q`),
    /// from the reading of the swing that is nearer the range.
    pub fn clamp(&self, q: Quat) -> Quat {
        let (a, alt) = both_readings(q);
        let a = if self.violation_of(alt) < self.violation_of(a) { alt } else { a };
        from_swing_twist_angles(a.clamp(self.min_rad, self.max_rad))
    }
}

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
    let q = normalized_or_identity(q);
    let q = if q.w < 0.0 { -q } else { q };
    // Twist about Y: the projection of q onto the Y axis.
    let twist_norm = (q.y * q.y + q.w * q.w).sqrt();
    let twist =
        if twist_norm > 1e-9 { Quat::from_xyzw(0.0, q.y / twist_norm, 0.0, q.w / twist_norm) } else { Quat::IDENTITY };
    let twist_angle = 2.0 * twist.y.atan2(twist.w);
    let swing = q * twist.conjugate();
    let swing = if swing.w < 0.0 { -swing } else { swing };
    let sin_half = (swing.x * swing.x + swing.z * swing.z).sqrt();
    let swing_angle = 2.0 * sin_half.atan2(swing.w);
    let (sx, sz) = if sin_half > 1e-9 {
        (swing.x / sin_half * swing_angle, swing.z / sin_half * swing_angle)
    } else {
        (2.0 * swing.x, 2.0 * swing.z)
    };
    Vec3::new(sx, twist_angle, sz)
}

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
    fn mirrored_limits_match_mirrored_rotations() {
        let left = JointLimits::from_deg((-30.0, 60.0), (-20.0, 10.0), (0.0, 90.0));
        let right = left.mirrored_x();
        for q in quats() {
            // Mirror across the YZ plane: rotation axis (x, y, z) becomes (x, -y, -z).
            let m = Quat::from_xyzw(q.x, -q.y, -q.z, q.w);
            assert_eq!(left.contains(q), right.contains(m), "{q:?}");
        }
    }

    #[test]
    fn bad_quaternions_count_as_identity() {
        assert_eq!(swing_twist_angles(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)), Vec3::ZERO);
        assert_eq!(swing_twist_angles(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)), Vec3::ZERO);
        assert_eq!(JointLimits::FREE.clamp(Quat::from_xyzw(f32::INFINITY, 0.0, 0.0, 0.0)), Quat::IDENTITY);
    }
}
