//! Orbit camera: pure maths (no wgpu) from yaw/pitch/distance/target to view and clip matrices.
//! World space is right-handed, metres, +Y up, the audience at +Z looking toward −Z; clip space
//! is wgpu's (x, y in [−1, 1] with +y up, z in [0, 1]).

use glam::{Mat4, Vec3};
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

/// Closest the camera may get to its target, in metres.
pub const MIN_DISTANCE_M: f32 = 0.2;
/// Farthest the camera may get from its target, in metres.
pub const MAX_DISTANCE_M: f32 = 1000.0;
/// Largest |pitch|: just short of straight down/up, so the view never loses its up vector.
pub const PITCH_LIMIT_RAD: f32 = FRAC_PI_2 - 0.01;

/// Named viewpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CameraPreset {
    /// From the audience: camera on the +Z side, level, looking toward −Z.
    Front,
    /// From the audience's right (+X), level, looking toward −X.
    Side,
    /// From above, looking straight down; the audience (+Z) is at the bottom of the image.
    Top,
    /// From the audience's front-right and a little above.
    ThreeQuarter,
}

/// A camera that circles a target point.
///
/// The eye sits at `target_in_world + distance_m * (cos pitch · sin yaw, sin pitch,
/// cos pitch · cos yaw)`: yaw 0 puts the camera on the audience side (+Z), positive yaw swings
/// it toward +X (counter-clockwise seen from above); positive pitch raises it above the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// The point the camera looks at and orbits around, in world metres.
    pub target_in_world: Vec3,
    /// Rotation about world +Y, radians; 0 = on the +Z (audience) side.
    pub yaw_rad: f32,
    /// Elevation, radians, clamped to ±[`PITCH_LIMIT_RAD`]; positive = above the target.
    pub pitch_rad: f32,
    /// Eye-to-target distance in metres, clamped to [`MIN_DISTANCE_M`, `MAX_DISTANCE_M`].
    pub distance_m: f32,
    /// Vertical field of view, radians (default 40°).
    pub vertical_fov_rad: f32,
    /// Near clip plane distance in metres (default 0.05).
    pub near_m: f32,
    /// Far clip plane distance in metres (default 100).
    pub far_m: f32,
}

impl Default for OrbitCamera {
    /// Three-quarter view of a standing dancer at the stage centre.
    fn default() -> Self {
        Self::from_preset(CameraPreset::ThreeQuarter, Vec3::new(0.0, 0.9, 0.0), 4.5)
    }
}

impl OrbitCamera {
    /// A camera at `preset`'s angles, looking at `target_in_world` from `distance_m`.
    pub fn from_preset(preset: CameraPreset, target_in_world: Vec3, distance_m: f32) -> Self {
        let mut camera = Self {
            target_in_world,
            yaw_rad: 0.0,
            pitch_rad: 0.0,
            distance_m,
            vertical_fov_rad: 40f32.to_radians(),
            near_m: 0.05,
            far_m: 100.0,
        };
        camera.set_preset(preset);
        camera.sanitized()
    }

    /// Moves to `preset`'s angles, keeping target and distance.
    pub fn set_preset(&mut self, preset: CameraPreset) {
        let (yaw_rad, pitch_rad) = match preset {
            CameraPreset::Front => (0.0, 0.0),
            CameraPreset::Side => (FRAC_PI_2, 0.0),
            CameraPreset::Top => (0.0, PITCH_LIMIT_RAD),
            CameraPreset::ThreeQuarter => (FRAC_PI_4, 0.3),
        };
        self.yaw_rad = yaw_rad;
        self.pitch_rad = pitch_rad;
    }

    /// A copy with every field finite and inside its documented range (non-finite fields take
    /// the default's value). All matrix functions use this, so they never return NaN.
    pub fn sanitized(&self) -> Self {
        let finite_or = |value: f32, default: f32| if value.is_finite() { value } else { default };
        let target_in_world = if self.target_in_world.is_finite() { self.target_in_world } else { Vec3::ZERO };
        let near_m = finite_or(self.near_m, 0.05).clamp(1e-3, 10.0);
        let far_m = finite_or(self.far_m, 100.0).clamp(near_m * 2.0, 1e5);
        Self {
            target_in_world,
            yaw_rad: wrap_angle_rad(finite_or(self.yaw_rad, 0.0)),
            pitch_rad: finite_or(self.pitch_rad, 0.0).clamp(-PITCH_LIMIT_RAD, PITCH_LIMIT_RAD),
            distance_m: finite_or(self.distance_m, 4.5).clamp(MIN_DISTANCE_M, MAX_DISTANCE_M),
            vertical_fov_rad: finite_or(self.vertical_fov_rad, 40f32.to_radians()).clamp(0.05, 3.0),
            near_m,
            far_m,
        }
    }

    /// Unit vector from the target toward the eye, in world space.
    fn target_to_eye_dir(&self) -> Vec3 {
        let c = self.sanitized();
        let (sin_yaw, cos_yaw) = c.yaw_rad.sin_cos();
        let (sin_pitch, cos_pitch) = c.pitch_rad.sin_cos();
        Vec3::new(cos_pitch * sin_yaw, sin_pitch, cos_pitch * cos_yaw)
    }

    /// The camera position in world metres.
    pub fn eye_in_world(&self) -> Vec3 {
        let c = self.sanitized();
        c.target_in_world + c.distance_m * self.target_to_eye_dir()
    }

    /// Unit vector the camera looks along (eye → target), in world space.
    pub fn look_direction_in_world(&self) -> Vec3 {
        -self.target_to_eye_dir()
    }

    /// Unit vector pointing to the right of the image, in world space (always horizontal).
    pub fn right_in_world(&self) -> Vec3 {
        self.look_direction_in_world().cross(Vec3::Y).normalize_or(Vec3::X)
    }

    /// Unit vector pointing to the top of the image, in world space.
    pub fn up_in_world(&self) -> Vec3 {
        self.right_in_world().cross(self.look_direction_in_world()).normalize_or(Vec3::Y)
    }

    /// World → view transform (right-handed view space: +X right, +Y up, looking along −Z).
    pub fn view_from_world(&self) -> Mat4 {
        let c = self.sanitized();
        glam::camera::rh::view::look_at_mat4(self.eye_in_world(), c.target_in_world, Vec3::Y)
    }

    /// View → world transform (the camera's pose).
    pub fn world_from_view(&self) -> Mat4 {
        self.view_from_world().inverse()
    }

    /// View → clip perspective projection for an image `aspect_ratio` = width / height
    /// (non-finite or non-positive ratios count as 1). Clip z is 0 at `near_m`, 1 at `far_m`.
    pub fn clip_from_view(&self, aspect_ratio: f32) -> Mat4 {
        let c = self.sanitized();
        let aspect_ratio = if aspect_ratio.is_finite() && aspect_ratio > 1e-6 { aspect_ratio.min(1e6) } else { 1.0 };
        glam::camera::rh::proj::directx::perspective(c.vertical_fov_rad, aspect_ratio, c.near_m, c.far_m)
    }

    /// World → clip, for an image of the given aspect ratio.
    pub fn clip_from_world(&self, aspect_ratio: f32) -> Mat4 {
        self.clip_from_view(aspect_ratio) * self.view_from_world()
    }

    /// Circles the target: adds `delta_yaw_rad` and `delta_pitch_rad` (pitch stays clamped).
    pub fn orbit(&mut self, delta_yaw_rad: f32, delta_pitch_rad: f32) {
        if delta_yaw_rad.is_finite() {
            self.yaw_rad += delta_yaw_rad;
        }
        if delta_pitch_rad.is_finite() {
            self.pitch_rad += delta_pitch_rad;
        }
        *self = self.sanitized();
    }

    /// Multiplies the distance by `factor` (< 1 moves closer); the target and angles stay.
    /// Non-finite or non-positive factors are ignored.
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance_m *= factor;
        }
        *self = self.sanitized();
    }

    /// Slides target and eye together along the image's right and up axes, in metres.
    pub fn pan(&mut self, right_m: f32, up_m: f32) {
        let right_m = if right_m.is_finite() { right_m } else { 0.0 };
        let up_m = if up_m.is_finite() { up_m } else { 0.0 };
        let offset_in_world = self.right_in_world() * right_m + self.up_in_world() * up_m;
        self.target_in_world += offset_in_world;
        *self = self.sanitized();
    }
}

/// `angle_rad` wrapped into (−π, π].
fn wrap_angle_rad(angle_rad: f32) -> f32 {
    let wrapped = (angle_rad + PI).rem_euclid(2.0 * PI) - PI;
    if wrapped <= -PI { wrapped + 2.0 * PI } else { wrapped }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use glam::Vec4Swizzles;

    #[track_caller]
    fn assert_close(actual: Vec3, expected: Vec3, tolerance: f32) {
        assert!(
            (actual - expected).length() <= tolerance,
            "expected {expected:?}, got {actual:?} (tolerance {tolerance})"
        );
    }

    fn target() -> Vec3 {
        Vec3::new(0.3, 0.9, -0.2)
    }

    #[test]
    fn presets_look_the_documented_way() {
        let front = OrbitCamera::from_preset(CameraPreset::Front, target(), 5.0);
        assert_close(front.look_direction_in_world(), Vec3::NEG_Z, 1e-6);
        assert_close(front.eye_in_world(), target() + Vec3::new(0.0, 0.0, 5.0), 1e-5);
        let side = OrbitCamera::from_preset(CameraPreset::Side, target(), 5.0);
        assert_close(side.look_direction_in_world(), Vec3::NEG_X, 1e-6);
        let top = OrbitCamera::from_preset(CameraPreset::Top, target(), 5.0);
        assert!(top.look_direction_in_world().y < -0.999);
        // Audience (+Z) at the bottom of the top view: image-up points toward −Z.
        assert!(top.up_in_world().z < -0.99, "{:?}", top.up_in_world());
        let three_quarter = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, target(), 5.0);
        let dir = three_quarter.look_direction_in_world();
        assert!(dir.x < 0.0 && dir.z < 0.0 && dir.y < 0.0, "{dir:?}");
    }

    #[test]
    fn target_projects_to_the_image_centre_in_front_of_the_camera() {
        for preset in [CameraPreset::Front, CameraPreset::Side, CameraPreset::Top, CameraPreset::ThreeQuarter] {
            let camera = OrbitCamera::from_preset(preset, target(), 4.0);
            let target_in_view = camera.view_from_world().transform_point3(target());
            assert_close(target_in_view, Vec3::new(0.0, 0.0, -4.0), 1e-4);
            let clip = camera.clip_from_world(16.0 / 9.0) * target().extend(1.0);
            let ndc = clip.xyz() / clip.w;
            assert!(ndc.x.abs() < 1e-5 && ndc.y.abs() < 1e-5, "{preset:?}: {ndc:?}");
            assert!(ndc.z > 0.0 && ndc.z < 1.0, "{preset:?}: {ndc:?}");
        }
    }

    #[test]
    fn clip_depth_is_zero_at_near_and_one_at_far_and_up_is_up() {
        let camera = OrbitCamera::from_preset(CameraPreset::Front, Vec3::ZERO, 3.0);
        let clip_from_view = camera.clip_from_view(1.5);
        let near = clip_from_view * Vec3::new(0.0, 0.0, -camera.near_m).extend(1.0);
        let far = clip_from_view * Vec3::new(0.0, 0.0, -camera.far_m).extend(1.0);
        assert!((near.z / near.w).abs() < 1e-5);
        assert!((far.z / far.w - 1.0).abs() < 1e-4);
        let above = camera.clip_from_world(1.5) * Vec3::new(0.0, 0.5, 0.0).extend(1.0);
        assert!(above.y / above.w > 0.0, "world +Y must map to clip +Y");
        let right = camera.clip_from_world(1.5) * Vec3::new(0.5, 0.0, 0.0).extend(1.0);
        assert!(right.x / right.w > 0.0, "front view: world +X is image right");
    }

    #[test]
    fn orbit_keeps_target_and_distance_and_clamps_pitch() {
        let mut camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, target(), 3.0);
        for _ in 0..50 {
            camera.orbit(0.37, 0.11);
            assert_close(camera.target_in_world, target(), 1e-6);
            assert!(((camera.eye_in_world() - target()).length() - 3.0).abs() < 1e-4);
            assert!(camera.pitch_rad <= PITCH_LIMIT_RAD && camera.yaw_rad.abs() <= PI);
        }
        assert!((camera.pitch_rad - PITCH_LIMIT_RAD).abs() < 1e-6);
        assert!(camera.view_from_world().is_finite());
    }

    #[test]
    fn zoom_keeps_target_and_direction_and_respects_limits() {
        let mut camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, target(), 3.0);
        let dir = camera.look_direction_in_world();
        camera.zoom(0.5);
        assert!((camera.distance_m - 1.5).abs() < 1e-6);
        assert_close(camera.look_direction_in_world(), dir, 1e-6);
        assert_close(camera.target_in_world, target(), 1e-6);
        camera.zoom(1e-9);
        assert_eq!(camera.distance_m, MIN_DISTANCE_M);
        camera.zoom(1e9);
        assert_eq!(camera.distance_m, MAX_DISTANCE_M);
        camera.zoom(f32::NAN);
        camera.zoom(-2.0);
        assert_eq!(camera.distance_m, MAX_DISTANCE_M);
    }

    #[test]
    fn pan_moves_eye_and_target_together_in_the_image_plane() {
        let mut camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, target(), 3.0);
        let eye_before = camera.eye_in_world();
        let dir = camera.look_direction_in_world();
        camera.pan(0.4, -0.25);
        let moved = camera.target_in_world - target();
        assert!((moved.length() - (0.4f32.hypot(0.25))).abs() < 1e-5);
        assert!(moved.dot(dir).abs() < 1e-5, "pan must not move along the view direction");
        assert_close(camera.eye_in_world() - eye_before, moved, 1e-5);
        assert_close(camera.look_direction_in_world(), dir, 1e-6);
        // Panning right moves the old target to the left of the image.
        let old_target_in_view = camera.view_from_world().transform_point3(target());
        assert!(old_target_in_view.x < -0.39 && old_target_in_view.y > 0.24);
    }

    #[test]
    fn garbage_fields_never_produce_nan_matrices() {
        let camera = OrbitCamera {
            target_in_world: Vec3::new(f32::NAN, 0.0, 0.0),
            yaw_rad: f32::INFINITY,
            pitch_rad: 10.0,
            distance_m: -1.0,
            vertical_fov_rad: 0.0,
            near_m: -5.0,
            far_m: f32::NAN,
        };
        assert!(camera.clip_from_world(0.0).is_finite());
        assert!(camera.clip_from_world(f32::NAN).is_finite());
        assert!(camera.eye_in_world().is_finite());
        let mut moved = camera;
        moved.pan(f32::NAN, 1.0);
        moved.orbit(f32::NAN, f32::INFINITY);
        assert!(moved.world_from_view().is_finite());
    }

    #[test]
    fn wrap_angle_stays_in_half_open_range() {
        for k in -20..=20 {
            let angle = k as f32 * 0.77;
            let wrapped = wrap_angle_rad(angle);
            assert!(wrapped > -PI - 1e-6 && wrapped <= PI + 1e-6, "{angle} -> {wrapped}");
            assert!(
                ((angle - wrapped) / (2.0 * PI)).fract().abs() < 1e-4
                    || ((angle - wrapped) / (2.0 * PI)).fract().abs() > 1.0 - 1e-4
            );
        }
    }
}
