//! The way a limb's direction moves between two keys: along the sphere, and through the front
//! of the body, bending on the way, where the two directions are (nearly) opposite.

use glam::Vec3;

/// Interpolates two limb directions on the sphere; opposite ones pass close to the body.
/// Returns (unit direction, reach scale in 0..1).
pub(super) fn blend_dirs(from: Vec3, to: Vec3, s: f32) -> (Vec3, f32) {
    let (a, b) = (from.normalize_or_zero(), to.normalize_or_zero());
    match (a == Vec3::ZERO, b == Vec3::ZERO) {
        (true, true) => return (Vec3::Z, 0.2),
        (true, false) => return (b, 0.2 + 0.8 * s),
        (false, true) => return (a, 1.0 - 0.8 * s),
        _ => {}
    }
    let cos = a.dot(b).clamp(-1.0, 1.0);
    let angle = cos.acos();
    let mut dir = if angle < 1e-4 {
        b
    } else if angle > std::f32::consts::PI - 1e-3 {
        // Exactly opposite: go through the front of the body; between forward and back, through
        // the bottom (past the hip, as a swing goes; never over the head).
        let mid = Vec3::Z - a * a.dot(Vec3::Z);
        let mid = if mid.length_squared() < 1e-6 { Vec3::NEG_Y } else { mid.normalize() };
        if s < 0.5 { a.lerp(mid, s * 2.0).normalize_or_zero() } else { mid.lerp(b, s * 2.0 - 1.0).normalize_or_zero() }
    } else {
        // (At a key, s = 0 or 1, one of the weights is sin 0 and the other sin(angle): neither
        // needs another sine.)
        let sin = angle.sin();
        let sin_of = |x: f32| {
            if x == 0.0 {
                x
            } else if x == angle {
                sin
            } else {
                x.sin()
            }
        };
        (a * sin_of((1.0 - s) * angle) / sin + b * sin_of(s * angle) / sin).normalize_or_zero()
    };
    if dir == Vec3::ZERO {
        dir = b;
    }
    // Near-opposite directions pass through the centre: the limb bends on the way (T7).
    let central = ((angle - 2.0) / (std::f32::consts::PI - 2.0)).clamp(0.0, 1.0);
    let reach = if s == 0.0 { 1.0 } else { 1.0 - 0.6 * central * (std::f32::consts::PI * s).sin() };
    (dir, reach)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A limb between forward and back (either way) passes through the bottom, bent, never over
    /// the head; between right and left, through the front.
    #[test]
    fn opposite_directions_pass_below_or_in_front_never_over_the_head() {
        for (from, to, mid) in [
            (Vec3::Z, Vec3::NEG_Z, Vec3::NEG_Y),
            (Vec3::NEG_Z, Vec3::Z, Vec3::NEG_Y),
            (Vec3::X, Vec3::NEG_X, Vec3::Z),
            (Vec3::Y, Vec3::NEG_Y, Vec3::Z),
        ] {
            for i in 0..=20 {
                let s = i as f32 / 20.0;
                let (dir, reach) = blend_dirs(from, to, s);
                assert!(dir.y <= 1e-6 || from.y > 0.0, "{from} → {to} at {s}: over the top {dir}");
                assert!(reach <= 1.0 && reach > 0.3, "{from} → {to} at {s}: reach {reach}");
            }
            let (dir, reach) = blend_dirs(from, to, 0.5);
            assert!(dir.angle_between(mid) < 1e-3, "{from} → {to}: half way {dir}, not {mid}");
            assert!(reach < 0.5, "{from} → {to}: half way the limb is not bent ({reach})");
        }
    }
}
