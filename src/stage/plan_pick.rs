//! Picking a performer on the stage: the ray under the pointer (from the camera through a
//! point of the image) against each performer's body as an upright capsule; the nearest hit
//! wins. Pure functions over the camera and the performers' ground points.

use crate::stage::OrbitCamera;
use glam::{Vec2, Vec3, Vec4Swizzles as _};

/// The world ray through a point of the image: `ndc` in [-1, 1]² (x right, y up) of an image of
/// `aspect_ratio`; returns the origin (on the near plane) and the unit direction.
pub fn ray_through(camera: &OrbitCamera, aspect_ratio: f32, ndc: Vec2) -> (Vec3, Vec3) {
    let world_from_clip = camera.clip_from_world(aspect_ratio).inverse();
    let unproject = |z: f32| {
        let p = world_from_clip * glam::Vec4::new(ndc.x, ndc.y, z, 1.0);
        p.xyz() / p.w
    };
    let near = unproject(0.0);
    let far = unproject(0.5);
    (near, (far - near).normalize_or(camera.look_direction_in_world()))
}

/// Where along the ray (`origin + t · dir`, `dir` unit) it first comes within `radius_m` of the
/// segment `a`–`b`, if it does (a capsule; `t` ≥ 0).
pub fn ray_capsule_t(origin: Vec3, dir: Vec3, a: Vec3, b: Vec3, radius_m: f32) -> Option<f32> {
    // The squared distance from the line to the axis point a + s·axis is a quadratic in s
    // (A s² + B s + C); its minimum on [0, 1] is the closest point (robust when the ray runs
    // along the axis, as a top view does: then the end nearer the camera).
    let axis = b - a;
    let w = a - origin;
    let (axis_d, w_d) = (axis.dot(dir), w.dot(dir));
    let quad_a = axis.length_squared() - axis_d * axis_d;
    let quad_b = 2.0 * (w.dot(axis) - w_d * axis_d);
    let s = if quad_a > 1e-9 {
        (-quad_b / (2.0 * quad_a)).clamp(0.0, 1.0)
    } else if axis_d > 0.0 {
        0.0
    } else {
        1.0
    };
    let q = a + axis * s;
    let t = (q - origin).dot(dir);
    if t < 0.0 {
        return None;
    }
    let d2 = (origin + dir * t - q).length_squared();
    let r2 = radius_m * radius_m;
    (d2 <= r2).then(|| (t - (r2 - d2).sqrt()).max(0.0))
}

/// The performer whose body (a capsule of `radius_m` from the floor to `height_m` over its
/// ground point) the ray hits first; ties go to the lower index.
pub fn pick_performer(
    origin: Vec3,
    dir: Vec3,
    grounds_in_world: impl IntoIterator<Item = Vec3>,
    radius_m: f32,
    height_m: f32,
) -> Option<usize> {
    let mut best: Option<(f32, usize)> = None;
    let up = Vec3::Y * (height_m - radius_m).max(radius_m);
    for (i, g) in grounds_in_world.into_iter().enumerate() {
        let bottom = g + Vec3::Y * radius_m;
        if let Some(t) = ray_capsule_t(origin, dir, bottom, g + up, radius_m)
            && best.is_none_or(|(bt, _)| t < bt)
        {
            best = Some((t, i));
        }
    }
    best.map(|(_, i)| i)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use crate::stage::CameraPreset;

    #[test]
    fn a_ray_hits_a_capsule_at_its_surface_and_misses_beside_it() {
        let (a, b) = (Vec3::new(0.0, 0.25, 0.0), Vec3::new(0.0, 1.45, 0.0));
        let t = ray_capsule_t(Vec3::new(0.0, 1.0, 5.0), -Vec3::Z, a, b, 0.25).unwrap();
        assert!((t - 4.75).abs() < 1e-5, "{t}");
        assert!(ray_capsule_t(Vec3::new(0.3, 1.0, 5.0), -Vec3::Z, a, b, 0.25).is_none());
        // Over the top cap: the sphere at b.
        let t = ray_capsule_t(Vec3::new(0.0, 1.6, 5.0), -Vec3::Z, a, b, 0.25).unwrap();
        let expected = 5.0 - (0.25f32 * 0.25 - 0.15 * 0.15).sqrt();
        assert!((t - expected).abs() < 1e-4, "{t} vs {expected}");
        assert!(ray_capsule_t(Vec3::new(0.0, 1.0, 5.0), Vec3::Z, a, b, 0.25).is_none(), "behind the origin");
        // Straight down the axis (a top view), and nearly so a little to the side.
        let t = ray_capsule_t(Vec3::new(0.0, 10.0, 0.0), -Vec3::Y, a, b, 0.25).unwrap();
        assert!((t - (10.0 - 1.45 - 0.25)).abs() < 1e-4, "{t}");
        let slanted = Vec3::new(0.01, -1.0, 0.0).normalize();
        assert!(ray_capsule_t(Vec3::new(0.1, 10.0, 0.0), slanted, a, b, 0.25).is_some());
        assert!(ray_capsule_t(Vec3::new(0.4, 10.0, 0.0), -Vec3::Y, a, b, 0.25).is_none());
    }

    #[test]
    fn the_centre_of_the_image_picks_the_performer_the_camera_looks_at_and_the_nearest_wins() {
        let camera = OrbitCamera::from_preset(CameraPreset::Front, Vec3::new(0.0, 0.9, 0.0), 10.0);
        let (origin, dir) = ray_through(&camera, 16.0 / 9.0, Vec2::ZERO);
        assert!((dir - camera.look_direction_in_world()).length() < 1e-4);
        let grounds = [Vec3::new(3.0, 0.0, 0.0), Vec3::new(0.0, 0.0, -2.0), Vec3::new(0.0, 0.0, 1.0)];
        assert_eq!(pick_performer(origin, dir, grounds, 0.25, 1.7), Some(2), "the one nearer the camera");
        assert_eq!(pick_performer(origin, dir, grounds[..2].iter().copied(), 0.25, 1.7), Some(1));
        // A point of the image over the performer at x = 3 (project it, then pick there).
        let aspect = 16.0 / 9.0;
        let clip = camera.clip_from_world(aspect) * Vec3::new(3.0, 1.0, 0.0).extend(1.0);
        let (origin, dir) = ray_through(&camera, aspect, Vec2::new(clip.x / clip.w, clip.y / clip.w));
        assert_eq!(pick_performer(origin, dir, grounds, 0.25, 1.7), Some(0));
        // Empty floor.
        let (origin, dir) = ray_through(&camera, aspect, Vec2::new(0.9, -0.9));
        assert_eq!(pick_performer(origin, dir, grounds, 0.25, 1.7), None);
    }
}
