//! Point–segment geometry shared by skinning, the rig's confidence and their tests: the closest
//! point of a segment to a point and the distance between them (a degenerate segment is its
//! start point).

use glam::Vec3;

/// The point of the segment `a`→`b` closest to `p`.
pub fn closest_on_segment(p: Vec3, a: Vec3, b: Vec3) -> Vec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 { ((p - a).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
    a + ab * t
}

/// Distance from `p` to the segment `a`→`b`, in the units of the points.
pub fn distance_to_segment(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    p.distance(closest_on_segment(p, a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_the_span_the_distance_is_perpendicular_and_beyond_it_to_the_nearer_end() {
        let (a, b) = (Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0));
        assert!((distance_to_segment(Vec3::new(0.5, 3.0, 4.0), a, b) - 5.0).abs() < 1e-6);
        assert!((distance_to_segment(Vec3::new(-3.0, 4.0, 0.0), a, b) - 5.0).abs() < 1e-6);
        assert!((distance_to_segment(Vec3::new(5.0, 0.0, 4.0), a, b) - 5.0).abs() < 1e-6);
        assert_eq!(closest_on_segment(Vec3::new(1.5, -1.0, 0.0), a, b), Vec3::new(1.5, 0.0, 0.0));
    }

    #[test]
    fn a_degenerate_segment_is_its_point() {
        let a = Vec3::new(1.0, 2.0, 3.0);
        assert_eq!(closest_on_segment(Vec3::ZERO, a, a), a);
        assert!((distance_to_segment(Vec3::new(1.0, 2.0, 5.0), a, a) - 2.0).abs() < 1e-6);
    }
}
