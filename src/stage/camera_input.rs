//! Camera control of the 3D stage: pointer input (drags, wheel, pinch) mapped to
//! [`OrbitCamera`] orbit/pan/zoom calls, camera views (presets, "follow dancer 1", "from
//! behind"), the mirror view and the framing of a score's floor area. Pure functions over plain
//! input structs; no UI types.

pub use crate::camera_view::CameraView;
use crate::stage::{CameraPreset, OrbitCamera};
use glam::Vec3;

/// Orbit speed: radians of yaw/pitch per logical pixel dragged.
pub const ORBIT_RAD_PER_PX: f32 = 0.008;
/// Zoom speed: the distance is multiplied by `exp(-ZOOM_PER_SCROLL_PX * scroll)` per logical
/// pixel of vertical wheel scroll (scrolling up moves closer).
pub const ZOOM_PER_SCROLL_PX: f32 = 0.0025;
/// Height of the point a framing or follow camera looks at, metres (about the dancer's waist).
pub const LOOK_AT_HEIGHT_M: f32 = 0.9;
/// Elevation of the audience and side views, radians: a seated audience sees the floor a little
/// from above (the renderer's level presets would show the floor edge-on).
pub const AUDIENCE_PITCH_RAD: f32 = 0.12;

/// One frame of pointer input over the stage, in logical pixels (y down).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointerInput {
    /// Pointer movement this frame while a button is held.
    pub drag_delta_px: [f32; 2],
    /// Primary (left) button held and the drag started on the stage.
    pub primary_down: bool,
    /// Secondary (right) button held.
    pub secondary_down: bool,
    /// Middle button held.
    pub middle_down: bool,
    /// Shift held (shift + left drag pans, for one-button mice and trackpads).
    pub shift: bool,
    /// Wheel / two-finger scroll this frame (positive y = scroll up / away from the user).
    pub scroll_delta_px: [f32; 2],
    /// Pinch zoom factor this frame (1 = none, > 1 = fingers spread = move closer).
    pub pinch_zoom: f32,
    /// Height of the stage view in logical pixels (for pan speed); ≤ 0 counts as 600.
    pub viewport_height_px: f32,
}

/// What the camera should do this frame, derived from [`PointerInput`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CameraMotion {
    /// Added to the yaw, radians.
    pub orbit_yaw_rad: f32,
    /// Added to the pitch, radians.
    pub orbit_pitch_rad: f32,
    /// Pan along the image's right axis, metres.
    pub pan_right_m: f32,
    /// Pan along the image's up axis, metres.
    pub pan_up_m: f32,
    /// Distance multiplier (1 = no zoom).
    pub zoom_factor: f32,
}

impl CameraMotion {
    /// True when the motion pans (which ends "follow dancer").
    pub fn pans(&self) -> bool {
        self.pan_right_m != 0.0 || self.pan_up_m != 0.0
    }
}

/// Maps pointer input to camera motion for a camera `camera` (its distance and field of view
/// set the pan speed so the floor under the pointer follows the pointer).
///
/// Left drag orbits (drag right swings the camera to the left around the target, so the stage
/// turns with the pointer; drag down raises the camera); right or middle drag — or shift + left
/// drag — pans; wheel and pinch zoom.
pub fn camera_motion(input: &PointerInput, camera: &OrbitCamera) -> CameraMotion {
    let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
    let [dx, dy] = input.drag_delta_px.map(finite);
    let mut motion = CameraMotion { zoom_factor: 1.0, ..CameraMotion::default() };
    let pan = input.secondary_down || input.middle_down || (input.primary_down && input.shift);
    if pan {
        let camera = camera.sanitized();
        let height_px = if input.viewport_height_px.is_finite() && input.viewport_height_px > 0.0 {
            input.viewport_height_px
        } else {
            600.0
        };
        let metres_per_px = 2.0 * camera.distance_m * (camera.vertical_fov_rad * 0.5).tan() / height_px;
        motion.pan_right_m = -dx * metres_per_px;
        motion.pan_up_m = dy * metres_per_px;
    } else if input.primary_down {
        motion.orbit_yaw_rad = -dx * ORBIT_RAD_PER_PX;
        motion.orbit_pitch_rad = dy * ORBIT_RAD_PER_PX;
    }
    let scroll_y = finite(input.scroll_delta_px[1]);
    let mut zoom = (-ZOOM_PER_SCROLL_PX * scroll_y).exp();
    let pinch = input.pinch_zoom;
    if pinch.is_finite() && pinch > 0.0 {
        zoom /= pinch;
    }
    motion.zoom_factor = zoom.clamp(0.2, 5.0);
    motion
}

/// Applies `motion` to `camera` through its orbit/pan/zoom calls.
pub fn apply_motion(camera: &mut OrbitCamera, motion: &CameraMotion) {
    if motion.orbit_yaw_rad != 0.0 || motion.orbit_pitch_rad != 0.0 {
        camera.orbit(motion.orbit_yaw_rad, motion.orbit_pitch_rad);
    }
    if motion.pans() {
        camera.pan(motion.pan_right_m, motion.pan_up_m);
    }
    if motion.zoom_factor != 1.0 {
        camera.zoom(motion.zoom_factor);
    }
}

impl CameraView {
    /// The renderer preset with these angles.
    pub fn preset(self) -> CameraPreset {
        match self {
            CameraView::Front => CameraPreset::Front,
            CameraView::Side => CameraPreset::Side,
            CameraView::Top => CameraPreset::Top,
            CameraView::ThreeQuarter | CameraView::FollowDancer | CameraView::Behind => CameraPreset::ThreeQuarter,
        }
    }
}

/// The floor area a score's dancers use, for framing: an axis-aligned box in the XZ plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorBounds {
    /// Smallest x and z, metres.
    pub min_xz: [f32; 2],
    /// Largest x and z, metres.
    pub max_xz: [f32; 2],
}

impl FloorBounds {
    /// Bounds of `points_in_world` (y ignored; non-finite points skipped), padded by
    /// `margin_m`; a 1 m square around the origin when there are none.
    pub fn of_points(points_in_world: impl IntoIterator<Item = Vec3>, margin_m: f32) -> FloorBounds {
        let mut min = [f32::INFINITY; 2];
        let mut max = [f32::NEG_INFINITY; 2];
        for p in points_in_world.into_iter().filter(|p| p.is_finite()) {
            min = [min[0].min(p.x), min[1].min(p.z)];
            max = [max[0].max(p.x), max[1].max(p.z)];
        }
        if !(min[0] <= max[0] && min[1] <= max[1]) {
            return FloorBounds { min_xz: [-0.5, -0.5], max_xz: [0.5, 0.5] };
        }
        let margin = if margin_m.is_finite() { margin_m.max(0.0) } else { 0.0 };
        FloorBounds { min_xz: [min[0] - margin, min[1] - margin], max_xz: [max[0] + margin, max[1] + margin] }
    }

    /// Centre of the box at the look-at height.
    pub fn centre_in_world(&self) -> Vec3 {
        Vec3::new(0.5 * (self.min_xz[0] + self.max_xz[0]), LOOK_AT_HEIGHT_M, 0.5 * (self.min_xz[1] + self.max_xz[1]))
    }

    /// Half the diagonal of the box, metres.
    pub fn radius_m(&self) -> f32 {
        0.5 * (self.max_xz[0] - self.min_xz[0]).hypot(self.max_xz[1] - self.min_xz[1])
    }

    /// A floor (centred on the origin, as the stage is drawn) that holds this box: the default
    /// stage, grown in whole metres on each axis the box reaches beyond.
    pub fn holding_stage(&self) -> crate::stage::scene::Stage {
        let default = crate::stage::scene::Stage::default();
        let reach = |a: f32, b: f32| {
            let reach_m = a.abs().max(b.abs());
            if reach_m.is_finite() { reach_m.min(MAX_HELD_STAGE_HALF_M).ceil() } else { 0.0 }
        };
        crate::stage::scene::Stage {
            half_width_m: default.half_width_m.max(reach(self.min_xz[0], self.max_xz[0])),
            half_depth_m: default.half_depth_m.max(reach(self.min_xz[1], self.max_xz[1])),
            ..default
        }
    }
}

/// A dance whose floor box reaches further than this from its centre (half the diagonal) is
/// too large to frame whole with the dancers still big enough to read: the framed views track
/// the dancers instead ([`tracking_frame`]), metres.
pub const TRACK_BEYOND_RADIUS_M: f32 = 5.0;
/// The box a tracking view frames is at least this wide and deep, metres.
pub const TRACKED_BOX_MIN_M: f32 = 5.0;

/// The box a framed view shows at a moment of a dance too large to frame whole
/// ([`TRACK_BEYOND_RADIUS_M`]): every dancer's pelvis now, padded to at least
/// [`TRACKED_BOX_MIN_M`] on each side. `None` for a dance small enough to frame whole, for the
/// follow views and the top view (which show what they always do), or with no dancers.
pub fn tracking_frame(view: CameraView, whole: &FloorBounds, pelvises_in_world: &[Vec3]) -> Option<FloorBounds> {
    let framed = matches!(view, CameraView::ThreeQuarter | CameraView::Front | CameraView::Side);
    if !framed || whole.radius_m() <= TRACK_BEYOND_RADIUS_M || pelvises_in_world.is_empty() {
        return None;
    }
    let tight = FloorBounds::of_points(pelvises_in_world.iter().copied(), 0.0);
    let grow = |lo: f32, hi: f32| {
        let pad = 0.5 * (TRACKED_BOX_MIN_M - (hi - lo)).max(0.0) + 0.6;
        (lo - pad, hi + pad)
    };
    let (x0, x1) = grow(tight.min_xz[0], tight.max_xz[0]);
    let (z0, z1) = grow(tight.min_xz[1], tight.max_xz[1]);
    Some(FloorBounds { min_xz: [x0, z0], max_xz: [x1, z1] })
}

/// Half-size of the largest floor [`FloorBounds::holding_stage`] grows, metres.
const MAX_HELD_STAGE_HALF_M: f32 = 500.0;

/// Eye-to-pelvis distance of the "follow dancer" view, metres.
pub const FOLLOW_DISTANCE_M: f32 = 4.0;
/// Height of the standing figure a framing keeps in view, metres.
const FRAMED_FIGURE_HEIGHT_M: f32 = 1.9;
/// Largest |NDC| a framed corner may reach (a small margin inside the image edge).
const FRAME_NDC_LIMIT: f32 = 0.92;

/// A camera at `view`'s angles, aimed at the centre of `bounds`, as close as it can be while
/// the whole floor box and a standing figure above it (1.9 m) stay inside an image of
/// `aspect_ratio` = width / height. The follow view instead sits [`FOLLOW_DISTANCE_M`] from its
/// target (which [`follow`] moves to the dancer every frame).
pub fn framed_camera(view: CameraView, bounds: &FloorBounds, aspect_ratio: f32) -> OrbitCamera {
    let mut camera = OrbitCamera::from_preset(view.preset(), bounds.centre_in_world(), 1.0);
    if view.follows_dancer() {
        camera.distance_m = FOLLOW_DISTANCE_M;
        if view == CameraView::Behind {
            camera.pitch_rad = BEHIND_PITCH_RAD;
            camera.yaw_rad = std::f32::consts::PI;
        }
        return camera.sanitized();
    }
    if matches!(view, CameraView::Front | CameraView::Side) {
        camera.pitch_rad = AUDIENCE_PITCH_RAD;
    }
    let aspect = if aspect_ratio.is_finite() && aspect_ratio > 0.1 { aspect_ratio.min(10.0) } else { 16.0 / 9.0 };
    let [x0, z0] = bounds.min_xz;
    let [x1, z1] = bounds.max_xz;
    let corners = [x0, x1].into_iter().flat_map(|x| {
        [z0, z1].into_iter().flat_map(move |z| [0.0, FRAMED_FIGURE_HEIGHT_M].map(|y| Vec3::new(x, y, z)))
    });
    let corners: Vec<Vec3> = corners.collect();
    let fits = |distance_m: f32| {
        let mut candidate = camera;
        candidate.distance_m = distance_m;
        let clip_from_world = candidate.clip_from_world(aspect);
        corners.iter().all(|corner| {
            let clip = clip_from_world * corner.extend(1.0);
            clip.w > candidate.near_m
                && (clip.x / clip.w).abs() <= FRAME_NDC_LIMIT
                && (clip.y / clip.w).abs() <= FRAME_NDC_LIMIT
        })
    };
    // Bisection: `near` does not fit (or is the minimum), `far` fits.
    // The far end grows with the floor (a stadium plan needs more than 80 m).
    let far_limit = 80.0f32.max(8.0 * bounds.radius_m()).min(crate::stage::camera::MAX_DISTANCE_M);
    let (mut near, mut far) = (crate::stage::camera::MIN_DISTANCE_M, far_limit);
    if fits(near) {
        far = near;
    } else if !fits(far) {
        near = far;
    }
    for _ in 0..32 {
        if far - near < 0.01 {
            break;
        }
        let mid = 0.5 * (near + far);
        if fits(mid) { far = mid } else { near = mid }
    }
    camera.distance_m = far;
    // The far plane behind everything framed.
    camera.far_m = camera.far_m.max(far + 2.0 * bounds.radius_m() + FRAMED_FIGURE_HEIGHT_M);
    camera.sanitized()
}

/// Moves `camera`'s target to follow a dancer whose pelvis is at `pelvis_in_world` (x and z
/// follow, the height stays at the look-at height so vertical bounces do not shake the view).
pub fn follow(camera: &mut OrbitCamera, pelvis_in_world: Vec3) {
    if pelvis_in_world.is_finite() {
        camera.target_in_world = Vec3::new(pelvis_in_world.x, LOOK_AT_HEIGHT_M, pelvis_in_world.z);
    }
}

/// Elevation of the "from behind" view, radians (over the dancer's shoulder).
pub const BEHIND_PITCH_RAD: f32 = 0.22;
/// Time constant with which the "from behind" view turns after the dancer, seconds.
pub const BEHIND_TURN_SECS: f32 = 0.35;

/// The yaw that puts the camera behind a dancer facing `facing_in_world` (horizontal), looking
/// the way they face. Yaw 0 is the audience side (+Z), so a dancer facing the audience (+Z) is
/// seen from upstage: yaw π.
pub fn behind_yaw_rad(facing_in_world: Vec3) -> f32 {
    (-facing_in_world.x).atan2(-facing_in_world.z)
}

/// Moves the "from behind" camera: the target follows the pelvis (as [`follow`]) and the yaw
/// turns toward [`behind_yaw_rad`] of `facing_in_world` the short way round, closing the share
/// `1 − exp(−dt / BEHIND_TURN_SECS)` of the angle (all of it when `dt_secs` is infinite).
pub fn follow_from_behind(camera: &mut OrbitCamera, pelvis_in_world: Vec3, facing_in_world: Vec3, dt_secs: f32) {
    follow(camera, pelvis_in_world);
    let flat = Vec3::new(facing_in_world.x, 0.0, facing_in_world.z);
    if !flat.is_finite() || flat.length() < 1e-4 {
        return;
    }
    let goal = behind_yaw_rad(flat);
    let share = if dt_secs.is_infinite() { 1.0 } else { 1.0 - (-dt_secs.max(0.0) / BEHIND_TURN_SECS).exp() };
    let gap = (goal - camera.yaw_rad + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
    camera.yaw_rad += share.clamp(0.0, 1.0) * gap;
    *camera = camera.sanitized();
}

/// The mirror view, like a studio mirror: the finished stage image flipped left–right (its
/// texture coordinates run u = 1 → 0), never the projection. A mirrored projection would turn
/// every triangle's winding round, and the skinned shader lights two-sided meshes by
/// `front_facing`; flipping the image keeps the 3D pass untouched (and mirrors the light, as a
/// real mirror does). The staff is not part of the stage image, so it stays as written.
pub fn stage_uv_x(mirrored: bool) -> [f32; 2] {
    if mirrored { [1.0, 0.0] } else { [0.0, 1.0] }
}

/// Where a point at normalised image x `ndc_x` (−1 left … 1 right, as the camera projects it)
/// is shown in the (maybe) mirrored stage.
pub fn shown_ndc_x(ndc_x: f32, mirrored: bool) -> f32 {
    if mirrored { -ndc_x } else { ndc_x }
}

/// Pointer input over a mirrored stage as the unmirrored camera must take it: horizontal drags
/// reversed, so the stage still turns and pans with the pointer.
pub fn unmirrored_pointer(input: &PointerInput, mirrored: bool) -> PointerInput {
    let mut out = *input;
    if mirrored {
        out.drag_delta_px[0] = -out.drag_delta_px[0];
        out.scroll_delta_px[0] = -out.scroll_delta_px[0];
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use glam::Vec4Swizzles;

    fn camera() -> OrbitCamera {
        OrbitCamera::from_preset(CameraPreset::ThreeQuarter, Vec3::new(0.0, 0.9, 0.0), 4.0)
    }

    fn project(camera: &OrbitCamera, p: Vec3) -> glam::Vec2 {
        let clip = camera.clip_from_world(1.0) * p.extend(1.0);
        clip.xy() / clip.w
    }

    #[test]
    fn left_drag_orbits_around_the_target_in_the_pointer_direction() {
        let cam = camera();
        let input = PointerInput {
            drag_delta_px: [50.0, 20.0],
            primary_down: true,
            viewport_height_px: 600.0,
            ..Default::default()
        };
        let motion = camera_motion(&input, &cam);
        assert!(motion.orbit_yaw_rad < 0.0 && motion.orbit_pitch_rad > 0.0);
        assert!(!motion.pans());
        assert_eq!(motion.zoom_factor, 1.0);
        let mut moved = cam;
        apply_motion(&mut moved, &motion);
        assert!((moved.target_in_world - cam.target_in_world).length() < 1e-6);
        assert!((moved.distance_m - cam.distance_m).abs() < 1e-5);
        assert!(moved.eye_in_world().y > cam.eye_in_world().y, "drag down raises the camera");
        // A point to the right of the target moves right on screen when dragging right.
        let front_point = cam.target_in_world - cam.look_direction_in_world() * 0.5;
        let before = project(&cam, front_point);
        let after = project(&moved, front_point);
        assert!(after.x > before.x, "the stage turns with the pointer: {before} -> {after}");
    }

    #[test]
    fn right_middle_and_shift_drag_pan_so_the_target_follows_the_pointer() {
        let cam = camera();
        for input in [
            PointerInput {
                drag_delta_px: [30.0, -10.0],
                secondary_down: true,
                viewport_height_px: 600.0,
                ..Default::default()
            },
            PointerInput {
                drag_delta_px: [30.0, -10.0],
                middle_down: true,
                viewport_height_px: 600.0,
                ..Default::default()
            },
            PointerInput {
                drag_delta_px: [30.0, -10.0],
                primary_down: true,
                shift: true,
                viewport_height_px: 600.0,
                ..Default::default()
            },
        ] {
            let motion = camera_motion(&input, &cam);
            assert!(motion.pans());
            assert_eq!(motion.orbit_yaw_rad, 0.0);
            let mut moved = cam;
            apply_motion(&mut moved, &motion);
            // The old target now projects 30 px right and 10 px up of the centre (600 px tall
            // image, NDC spans 2 over 600 px).
            let ndc = project(&moved, cam.target_in_world);
            assert!((ndc.x - 30.0 * 2.0 / 600.0).abs() < 1e-3, "{ndc}");
            assert!((ndc.y - 10.0 * 2.0 / 600.0).abs() < 1e-3, "{ndc}");
            assert!((moved.distance_m - cam.distance_m).abs() < 1e-5);
        }
    }

    #[test]
    fn wheel_and_pinch_zoom_and_garbage_is_ignored() {
        let cam = camera();
        let scroll_up = PointerInput { scroll_delta_px: [0.0, 100.0], ..Default::default() };
        let motion = camera_motion(&scroll_up, &cam);
        assert!(motion.zoom_factor < 1.0);
        let mut moved = cam;
        apply_motion(&mut moved, &motion);
        assert!(moved.distance_m < cam.distance_m);
        let scroll_down = PointerInput { scroll_delta_px: [0.0, -100.0], ..Default::default() };
        assert!(camera_motion(&scroll_down, &cam).zoom_factor > 1.0);
        let pinch_out = PointerInput { pinch_zoom: 1.25, ..Default::default() };
        assert!((camera_motion(&pinch_out, &cam).zoom_factor - 0.8).abs() < 1e-6);
        let garbage = PointerInput {
            drag_delta_px: [f32::NAN, f32::INFINITY],
            primary_down: true,
            scroll_delta_px: [0.0, f32::NAN],
            pinch_zoom: f32::NAN,
            viewport_height_px: -3.0,
            ..Default::default()
        };
        let motion = camera_motion(&garbage, &cam);
        let mut moved = cam;
        apply_motion(&mut moved, &motion);
        assert_eq!(moved, cam.sanitized());
        // Nothing held: no orbit, no pan.
        let idle = camera_motion(&PointerInput { drag_delta_px: [5.0, 5.0], ..Default::default() }, &cam);
        assert_eq!(idle, CameraMotion { zoom_factor: 1.0, ..Default::default() });
    }

    #[test]
    fn framing_shows_the_whole_floor_area_and_follow_tracks_the_pelvis() {
        let bounds = FloorBounds::of_points([Vec3::new(-2.0, 0.0, -1.0), Vec3::new(2.0, 5.0, 1.0)], 0.5);
        assert_eq!(bounds.min_xz, [-2.5, -1.5]);
        for view in CameraView::ALL.into_iter().filter(|v| !v.follows_dancer()) {
            for aspect in [16.0 / 9.0, 0.6] {
                let cam = framed_camera(view, &bounds, aspect);
                let mut widest = 0.0f32;
                for corner in [
                    Vec3::new(-2.5, 0.0, -1.5),
                    Vec3::new(2.5, 0.0, 1.5),
                    Vec3::new(-2.5, 0.0, 1.5),
                    Vec3::new(2.5, 0.0, -1.5),
                    Vec3::new(2.5, 1.8, -1.5),
                    Vec3::new(-2.5, 1.8, 1.5),
                ] {
                    let clip = cam.clip_from_world(aspect) * corner.extend(1.0);
                    let ndc = clip.xyz() / clip.w;
                    assert!(
                        ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0 && clip.w > 0.0,
                        "{view:?} {aspect}: {corner} -> {ndc}"
                    );
                    widest = widest.max(ndc.x.abs()).max(ndc.y.abs());
                }
                assert!(widest > 0.8, "{view:?} {aspect}: the framing is tight ({widest})");
            }
        }
        let empty = FloorBounds::of_points(std::iter::empty(), 1.0);
        assert_eq!(
            empty.holding_stage(),
            crate::stage::scene::Stage::default(),
            "a small dance keeps the default floor"
        );
        let travelling = FloorBounds { min_xz: [-1.2, -2.0], max_xz: [0.8, 12.6] };
        let stage = travelling.holding_stage();
        assert_eq!((stage.half_width_m, stage.half_depth_m), (4.0, 13.0), "grown in whole metres where the dance goes");
        let couple = [Vec3::new(0.2, 0.9, 11.0), Vec3::new(-0.3, 0.9, 11.4)];
        let now = tracking_frame(CameraView::ThreeQuarter, &travelling, &couple).unwrap();
        assert!(now.radius_m() < travelling.radius_m() && (now.centre_in_world().z - 11.2).abs() < 1e-4, "{now:?}");
        assert!(now.max_xz[0] - now.min_xz[0] >= TRACKED_BOX_MIN_M);
        assert!(tracking_frame(CameraView::FollowDancer, &travelling, &couple).is_none());
        assert!(tracking_frame(CameraView::ThreeQuarter, &bounds, &couple).is_none(), "a small dance is framed whole");
        assert!(empty.radius_m() > 0.0);
        let mut cam = framed_camera(CameraView::FollowDancer, &bounds, 1.5);
        assert_eq!(cam.distance_m, FOLLOW_DISTANCE_M);
        follow(&mut cam, Vec3::new(1.0, 0.7, -2.0));
        assert_eq!(cam.target_in_world, Vec3::new(1.0, LOOK_AT_HEIGHT_M, -2.0));
        follow(&mut cam, Vec3::NAN);
        assert_eq!(cam.target_in_world, Vec3::new(1.0, LOOK_AT_HEIGHT_M, -2.0));
    }
}
