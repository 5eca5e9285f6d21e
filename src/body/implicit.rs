//! Implicit body: segment volumes (round cones / capsules along bone segments, oriented
//! ellipsoids) with signed distance functions, folded together with a polynomial smooth-min.
//! The body surface is the zero set of [`BodyShape::field_m`] (negative inside).

use glam::{Quat, Vec3};

use super::BodyError;

/// One primitive volume, in model space (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VolumeShape {
    /// Tapered capsule (round cone): the convex hull of a sphere of `radius_a_m` at `a` and a
    /// sphere of `radius_b_m` at `b`. Equal radii give a capsule.
    RoundCone {
        /// First end (usually a bone head), model space.
        a_in_model: Vec3,
        /// Second end (usually a bone tail), model space.
        b_in_model: Vec3,
        /// Radius at `a`, metres (> 0).
        radius_a_m: f32,
        /// Radius at `b`, metres (> 0).
        radius_b_m: f32,
    },
    /// Ellipsoid with semi-axes `semi_axes_m` along the local axes rotated by `model_from_local`.
    Ellipsoid {
        /// Centre, model space.
        centre_in_model: Vec3,
        /// Rotation from the ellipsoid's local axes to model axes.
        model_from_local: Quat,
        /// Semi-axis lengths along local x, y, z, metres (> 0).
        semi_axes_m: Vec3,
    },
}

/// A volume and how softly it is blended into the volumes before it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentVolume {
    /// The primitive.
    pub shape: VolumeShape,
    /// Smooth-min blend width in metres used when this volume is added to the union of the
    /// volumes listed before it (0 = hard union). Two surfaces closer than about half of
    /// this width fuse, so keep it below the arm–torso gap.
    pub blend_m: f32,
}

/// The rest-pose body as an ordered list of blended volumes (order matters for blending).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BodyShape {
    /// Volumes folded left to right with [`smooth_min`].
    pub volumes: Vec<SegmentVolume>,
}

/// Polynomial smooth minimum (Quilez): equals `min(a, b)` when `|a − b| ≥ k`, and is at most
/// `k/4` below it where the two are close. `k ≤ 0` gives the plain minimum.
pub fn smooth_min(a: f32, b: f32, k: f32) -> f32 {
    if k <= 0.0 {
        return a.min(b);
    }
    let h = (k - (a - b).abs()).max(0.0) / k;
    a.min(b) - h * h * k * 0.25
}

impl VolumeShape {
    /// Signed distance (metres) from `p_in_model` to the surface: negative inside. Exact for
    /// the round cone, the usual first-order approximation for the ellipsoid.
    pub fn signed_distance_m(&self, p_in_model: Vec3) -> f32 {
        match *self {
            VolumeShape::RoundCone { a_in_model, b_in_model, radius_a_m, radius_b_m } => {
                round_cone_distance(p_in_model, a_in_model, b_in_model, radius_a_m, radius_b_m)
            }
            VolumeShape::Ellipsoid { centre_in_model, model_from_local, semi_axes_m } => {
                let local = model_from_local.inverse() * (p_in_model - centre_in_model);
                ellipsoid_distance(local, semi_axes_m)
            }
        }
    }

    /// Axis-aligned bounds `(min, max)` in model space.
    pub fn bounds_in_model(&self) -> (Vec3, Vec3) {
        match *self {
            VolumeShape::RoundCone { a_in_model, b_in_model, radius_a_m, radius_b_m } => (
                (a_in_model - Vec3::splat(radius_a_m)).min(b_in_model - Vec3::splat(radius_b_m)),
                (a_in_model + Vec3::splat(radius_a_m)).max(b_in_model + Vec3::splat(radius_b_m)),
            ),
            VolumeShape::Ellipsoid { centre_in_model, model_from_local, semi_axes_m } => {
                // Half-extent along model axis i = |row i of R·diag(semi)|.
                let m = glam::Mat3::from_quat(model_from_local);
                let cols = [m.x_axis * semi_axes_m.x, m.y_axis * semi_axes_m.y, m.z_axis * semi_axes_m.z];
                let half = Vec3::new(
                    Vec3::new(cols[0].x, cols[1].x, cols[2].x).length(),
                    Vec3::new(cols[0].y, cols[1].y, cols[2].y).length(),
                    Vec3::new(cols[0].z, cols[1].z, cols[2].z).length(),
                );
                (centre_in_model - half, centre_in_model + half)
            }
        }
    }

    fn is_valid(&self) -> bool {
        match *self {
            VolumeShape::RoundCone { a_in_model, b_in_model, radius_a_m, radius_b_m } => {
                a_in_model.is_finite()
                    && b_in_model.is_finite()
                    && radius_a_m.is_finite()
                    && radius_b_m.is_finite()
                    && radius_a_m > 0.0
                    && radius_b_m > 0.0
            }
            VolumeShape::Ellipsoid { centre_in_model, model_from_local, semi_axes_m } => {
                centre_in_model.is_finite()
                    && model_from_local.is_finite()
                    && model_from_local.length_squared() > 0.5
                    && semi_axes_m.is_finite()
                    && semi_axes_m.min_element() > 0.0
            }
        }
    }
}

impl BodyShape {
    /// Checks that there is at least one volume and all sizes are finite and positive.
    pub fn validate(&self) -> Result<(), BodyError> {
        if self.volumes.is_empty() {
            return Err(BodyError::InvalidShape("no volumes".into()));
        }
        for (i, v) in self.volumes.iter().enumerate() {
            if !v.shape.is_valid() || !v.blend_m.is_finite() || v.blend_m < 0.0 {
                return Err(BodyError::InvalidShape(format!("volume {i} has a bad size or blend")));
            }
        }
        Ok(())
    }

    /// The body field at `p_in_model` (metres, negative inside): the volumes' signed
    /// distances folded left to right with [`smooth_min`] and each volume's `blend_m`.
    pub fn field_m(&self, p_in_model: Vec3) -> f32 {
        self.volumes
            .iter()
            .fold(f32::INFINITY, |acc, v| smooth_min(acc, v.shape.signed_distance_m(p_in_model), v.blend_m))
    }

    /// Union of the volumes' bounds, `None` when there are none.
    pub fn bounds_in_model(&self) -> Option<(Vec3, Vec3)> {
        let first = self.volumes.first()?.shape.bounds_in_model();
        Some(self.volumes.iter().fold(first, |(lo, hi), v| {
            let (a, b) = v.shape.bounds_in_model();
            (lo.min(a), hi.max(b))
        }))
    }

    /// Largest blend width among the volumes (metres).
    pub fn max_blend_m(&self) -> f32 {
        self.volumes.iter().fold(0.0, |m, v| m.max(v.blend_m))
    }
}

/// Exact signed distance to a round cone (Quilez, "sdRoundCone" with two end points).
fn round_cone_distance(p: Vec3, a: Vec3, b: Vec3, r1: f32, r2: f32) -> f32 {
    let ba = b - a;
    let l2 = ba.length_squared();
    let rr = r1 - r2;
    let a2 = l2 - rr * rr;
    if a2 <= 1e-12 {
        // One sphere contains the other (or the ends coincide): the bigger sphere.
        return if r1 >= r2 { (p - a).length() - r1 } else { (p - b).length() - r2 };
    }
    let il2 = 1.0 / l2;
    let pa = p - a;
    let y = pa.dot(ba);
    let z = y - l2;
    let x2 = (pa * l2 - ba * y).length_squared();
    let y2 = y * y * l2;
    let z2 = z * z * l2;
    let k = rr.signum() * rr * rr * x2;
    if z.signum() * a2 * z2 > k {
        return (x2 + z2).sqrt() * il2 - r2;
    }
    if y.signum() * a2 * y2 < k {
        return (x2 + y2).sqrt() * il2 - r1;
    }
    ((x2 * a2 * il2).sqrt() + y * rr) * il2 - r1
}

/// Approximate signed distance to an axis-aligned ellipsoid at the origin (Quilez's
/// "bound" version: exact on the surface and along the axes, within a few % near it).
fn ellipsoid_distance(p: Vec3, semi: Vec3) -> f32 {
    let k0 = (p / semi).length();
    let k1 = (p / (semi * semi)).length();
    if k1 <= 1e-12 {
        return -semi.min_element();
    }
    k0 * (k0 - 1.0) / k1
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn round_cone_distances_match_geometry() {
        let a = Vec3::ZERO;
        let b = Vec3::new(0.0, 1.0, 0.0);
        let cone = VolumeShape::RoundCone { a_in_model: a, b_in_model: b, radius_a_m: 0.2, radius_b_m: 0.1 };
        // Below the big end: sphere distance.
        assert!((cone.signed_distance_m(Vec3::new(0.0, -0.5, 0.0)) - 0.3).abs() < 1e-5);
        // Above the small end.
        assert!((cone.signed_distance_m(Vec3::new(0.0, 1.5, 0.0)) - 0.4).abs() < 1e-5);
        // On the axis inside.
        assert!(cone.signed_distance_m(Vec3::new(0.0, 0.5, 0.0)) < -0.1);
        // Capsule case: distance to the axis minus the radius.
        let capsule = VolumeShape::RoundCone { a_in_model: a, b_in_model: b, radius_a_m: 0.1, radius_b_m: 0.1 };
        assert!((capsule.signed_distance_m(Vec3::new(0.3, 0.5, 0.0)) - 0.2).abs() < 1e-5);
    }

    #[test]
    fn ellipsoid_distance_is_exact_on_axes_and_rotates() {
        let e = VolumeShape::Ellipsoid {
            centre_in_model: Vec3::new(1.0, 0.0, 0.0),
            model_from_local: Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            semi_axes_m: Vec3::new(0.5, 0.2, 0.1),
        };
        // Local x (0.5) now points along model +Y.
        assert!(e.signed_distance_m(Vec3::new(1.0, 0.5, 0.0)).abs() < 1e-5);
        assert!(e.signed_distance_m(Vec3::new(1.2, 0.0, 0.0)).abs() < 1e-5);
        let (lo, hi) = e.bounds_in_model();
        assert!((hi - lo - Vec3::new(0.4, 1.0, 0.2)).abs().max_element() < 1e-5);
    }

    #[test]
    fn smooth_min_is_below_min_by_at_most_quarter_k() {
        for (a, b) in [(0.0, 0.0), (0.1, 0.15), (-0.2, 0.3), (1.0, 1.01)] {
            let s = smooth_min(a, b, 0.1);
            assert!(s <= a.min(b) && s >= a.min(b) - 0.025 - 1e-7);
        }
        assert_eq!(smooth_min(0.0, 0.5, 0.1), 0.0);
    }
}
