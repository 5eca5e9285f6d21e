//! Builds the renderer's [`Scene`] for one moment of a compiled score: every dancer skinned with
//! its palette, footprints from the motion plan, facing arrows, pelvis trails and contact
//! shadows. Shared by the window, `labanplay render` and the golden-image tests.

use crate::animation::Animation;
use crate::body::lbs::palette_from_joints;
use crate::motion::plan::forward_of;
use crate::pose::fk::{Pose, local_to_world};
use crate::pose::skeleton::{JOINT_COUNT, JointId};
use crate::side::Side;
use crate::stage::dancer_mesh::DancerModel;
use crate::stage::{ContactShadow, DancerInstance, FloorMark, MeshId, Polyline, Scene};
use glam::{Mat4, Vec3};

/// What the stage shows besides the dancers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageOptions {
    /// Footprints of the steps (left blue, right orange).
    pub footprints: bool,
    /// An arrow on the floor showing each dancer's facing.
    pub facing_arrows: bool,
    /// The path the pelvis has travelled so far, drawn on the floor.
    pub trails: bool,
    /// Soft shadows under the pelvis and feet.
    pub shadows: bool,
}

impl Default for StageOptions {
    fn default() -> Self {
        StageOptions { footprints: true, facing_arrows: true, trails: true, shadows: true }
    }
}

/// Linear RGBA body colours, one per dancer (cycled).
pub const DANCER_COLOURS: [[f32; 4]; 4] =
    [[0.78, 0.74, 0.68, 1.0], [0.42, 0.58, 0.80, 1.0], [0.80, 0.52, 0.42, 1.0], [0.55, 0.75, 0.50, 1.0]];
/// Left footprints, linear RGBA.
pub const LEFT_FOOT_COLOUR: [f32; 3] = [0.20, 0.45, 0.95];
/// Right footprints, linear RGBA.
pub const RIGHT_FOOT_COLOUR: [f32; 3] = [0.95, 0.55, 0.15];
/// Facing arrows, linear RGBA.
pub const ARROW_COLOUR: [f32; 4] = [0.95, 0.90, 0.30, 1.0];
/// Pelvis trails, linear RGBA.
pub const TRAIL_COLOUR: [f32; 4] = [0.35, 0.85, 0.75, 1.0];
/// Past footprints shown per dancer (older ones are dropped).
pub const PAST_FOOTPRINTS_SHOWN: usize = 12;
/// Pelvis trail sampling step, seconds.
const TRAIL_STEP_SECS: f64 = 0.1;
/// Largest number of trail points (long scores sample more coarsely).
const MAX_TRAIL_POINTS: usize = 240;
/// Lines float this high above the floor so the floor does not hide them, metres.
const LINE_LIFT_M: f32 = 0.012;

/// Everything needed to draw one moment.
#[derive(Clone, Copy, Debug)]
pub struct StageFrame<'a> {
    /// The compiled score (its skeleton must be built from `model.proportions`).
    pub animation: &'a Animation,
    /// One pose per dancer at `t_secs` (from [`Animation::sample`]).
    pub poses: &'a [Pose],
    /// The dancer model every dancer wears.
    pub model: &'a DancerModel,
    /// The model's mesh as uploaded to the renderer.
    pub mesh_id: MeshId,
    /// The moment shown, seconds from the start.
    pub t_secs: f64,
    /// What to draw besides the dancers.
    pub options: StageOptions,
}

/// Fills `scene` (cleared first; its vectors are reused) with the dancers and marks of `frame`.
pub fn build_scene(frame: &StageFrame<'_>, scene: &mut Scene) {
    let t_secs = if frame.t_secs.is_finite() { frame.t_secs.max(0.0) } else { 0.0 };
    let dancer_count = frame.poses.len().min(frame.animation.dancers.len());
    scene.dancers.truncate(dancer_count);
    scene.floor_marks.clear();
    scene.contact_shadows.clear();
    scene.lines.clear();
    let skeleton = &frame.animation.skeleton;
    let mut world_from_joint = [Mat4::IDENTITY; JOINT_COUNT];
    for (index, (dancer, pose)) in frame.animation.dancers.iter().zip(frame.poses).enumerate() {
        // The buffer holds JOINT_COUNT entries, so this cannot fail.
        let _ = local_to_world(skeleton, pose, &mut world_from_joint);
        let colour = DANCER_COLOURS.get(index % DANCER_COLOURS.len()).copied().unwrap_or([0.8; 4]);
        if scene.dancers.len() <= index {
            scene.dancers.push(DancerInstance { mesh_id: frame.mesh_id, palette: Vec::new(), colour });
        }
        if let Some(instance) = scene.dancers.get_mut(index) {
            instance.mesh_id = frame.mesh_id;
            instance.colour = colour;
            palette_from_joints(&world_from_joint, &frame.model.joint_from_model_at_bind, &mut instance.palette);
        }
        let joint_at = |joint: JointId| world_from_joint.get(joint.index()).map_or(Vec3::ZERO, |m| m.w_axis.truncate());
        if frame.options.shadows {
            push_shadows(
                scene,
                joint_at(JointId::Pelvis),
                [
                    (joint_at(JointId::AnkleL) + joint_at(JointId::BallL)) * 0.5,
                    (joint_at(JointId::AnkleR) + joint_at(JointId::BallR)) * 0.5,
                ],
            );
        }
        if frame.options.footprints {
            push_footprints(scene, dancer, t_secs);
        }
        let pelvis_in_world = joint_at(JointId::Pelvis);
        if frame.options.facing_arrows {
            scene.lines.push(facing_arrow(pelvis_in_world, dancer.yaw_at(t_secs)));
        }
        if frame.options.trails {
            let mut points_in_world = Vec::new();
            trail_points(dancer, t_secs, &mut points_in_world);
            scene.lines.push(Polyline { points_in_world, colour: TRAIL_COLOUR });
        }
    }
}

fn push_shadows(scene: &mut Scene, pelvis_in_world: Vec3, feet_in_world: [Vec3; 2]) {
    scene.contact_shadows.push(ContactShadow { centre_in_world: pelvis_in_world, radius_m: 0.32, opacity: 0.45 });
    for foot in feet_in_world {
        scene.contact_shadows.push(ContactShadow { centre_in_world: foot, radius_m: 0.13, opacity: 0.55 });
    }
}

/// Footprints of one dancer at `t_secs`: the last [`PAST_FOOTPRINTS_SHOWN`] that have landed
/// (older ones fainter; the planted ones brightest) and, faintly, the next one of each foot.
fn push_footprints(scene: &mut Scene, dancer: &crate::animation::DancerAnimation, t_secs: f64) {
    let prints = &dancer.plan.footprints;
    let landed = prints.partition_point(|fp| fp.t_land_secs <= t_secs);
    // Footprints are in time order of landing; fall back to a scan if they are not.
    let sorted = prints.windows(2).all(|w| w.first().map(|a| a.t_land_secs) <= w.get(1).map(|b| b.t_land_secs));
    let geometry = &dancer.foot_geometry;
    // The sole's centre lies between the heel and the toe tip, ahead of the ankle.
    let toe_ahead_m = geometry.ball_in_ankle.z + geometry.toe_tip_in_ball().z;
    let centre_ahead_m = 0.5 * (toe_ahead_m + geometry.heel_in_ankle.z);
    let mut shown_past = 0usize;
    let mut next_shown = [false; 2];
    for (index, fp) in prints.iter().enumerate().rev() {
        let has_landed = if sorted { index < landed } else { fp.t_land_secs <= t_secs };
        if !has_landed || shown_past >= PAST_FOOTPRINTS_SHOWN {
            continue;
        }
        shown_past += 1;
        let alpha =
            if fp.planted_at(t_secs) { 0.95 } else { 0.75 - 0.4 * (shown_past as f32 / PAST_FOOTPRINTS_SHOWN as f32) };
        scene.floor_marks.push(footprint_mark(fp, t_secs, centre_ahead_m, alpha));
    }
    // The next footprint of each foot, faint (where the foot is going).
    for fp in prints.iter().filter(|fp| fp.t_land_secs > t_secs) {
        if let Some(done) = next_shown.get_mut(fp.foot.index())
            && !*done
        {
            *done = true;
            scene.floor_marks.push(footprint_mark(fp, t_secs, centre_ahead_m, 0.25));
        }
        if next_shown.iter().all(|d| *d) {
            break;
        }
    }
}

fn footprint_mark(fp: &crate::motion::plan::Footprint, t_secs: f64, centre_ahead_m: f32, alpha: f32) -> FloorMark {
    let (side, rgb) = match fp.foot {
        Side::Left => (Side::Left, LEFT_FOOT_COLOUR),
        Side::Right => (Side::Right, RIGHT_FOOT_COLOUR),
    };
    let heading_rad = fp.yaw_at(t_secs.clamp(fp.t_land_secs, fp.t_lift_secs.max(fp.t_land_secs)));
    let centre_in_world = fp.position_in_world + forward_of(heading_rad) * centre_ahead_m;
    FloorMark::footprint(side, centre_in_world, heading_rad, [rgb[0], rgb[1], rgb[2], alpha.clamp(0.0, 1.0)])
}

/// A 0.6 m arrow on the floor from below the pelvis along the facing `yaw_rad`.
fn facing_arrow(pelvis_in_world: Vec3, yaw_rad: f32) -> Polyline {
    let base = Vec3::new(pelvis_in_world.x, LINE_LIFT_M, pelvis_in_world.z);
    let forward = forward_of(yaw_rad);
    let right = Vec3::new(-forward.z, 0.0, forward.x);
    let tip = base + forward * 0.6;
    let head_back = tip - forward * 0.15;
    Polyline {
        points_in_world: vec![base, tip, head_back + right * 0.08, tip, head_back - right * 0.08],
        colour: ARROW_COLOUR,
    }
}

/// The pelvis path from 0 to `t_secs`, projected on the floor, into `out` (cleared first).
fn trail_points(dancer: &crate::animation::DancerAnimation, t_secs: f64, out: &mut Vec<Vec3>) {
    out.clear();
    if t_secs <= 0.0 {
        return;
    }
    let steps = ((t_secs / TRAIL_STEP_SECS).ceil() as usize).clamp(1, MAX_TRAIL_POINTS);
    for k in 0..=steps {
        let t = t_secs * k as f64 / steps as f64;
        let p = dancer.pelvis_at(t);
        if p.is_finite() {
            out.push(Vec3::new(p.x, LINE_LIFT_M, p.z));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use crate::animation::compile;
    use crate::motion::rules::MotionOptions;
    use crate::stage::dancer_mesh::mannequin;

    fn duet() -> crate::score::Score {
        let doc = crate::read::read(crate::demo::DUET_LBN, Some("lbn")).unwrap();
        crate::score::Score::from_document(&doc)
    }

    #[test]
    fn every_dancer_gets_a_full_palette_and_marks_follow_the_toggles() {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        let score = duet();
        let animation = compile(&score, &MotionOptions::default(), &model.proportions);
        assert_eq!(animation.dancers.len(), 2);
        let t_secs = animation.duration_secs * 0.5;
        let mut poses = Vec::new();
        animation.sample(t_secs, &mut poses);
        let mut scene = Scene::default();
        let frame = StageFrame {
            animation: &animation,
            poses: &poses,
            model: &model,
            mesh_id: MeshId(3),
            t_secs,
            options: StageOptions::default(),
        };
        build_scene(&frame, &mut scene);
        assert_eq!(scene.dancers.len(), 2);
        for dancer in &scene.dancers {
            assert_eq!(dancer.mesh_id, MeshId(3));
            assert!(dancer.palette.len() >= model.mesh.required_palette_len());
            assert!(dancer.palette.iter().all(|m| m.is_finite()));
        }
        assert_ne!(scene.dancers[0].colour, scene.dancers[1].colour);
        assert_eq!(scene.contact_shadows.len(), 6);
        assert_eq!(scene.lines.len(), 4, "an arrow and a trail per dancer");
        assert!(!scene.floor_marks.is_empty());
        // The dancers stand apart (side by side).
        let pelvis = |d: &DancerInstance| d.palette[0].transform_point3(Vec3::new(0.0, 0.98, 0.0));
        assert!((pelvis(&scene.dancers[0]) - pelvis(&scene.dancers[1])).length() > 0.5);

        let bare = StageFrame {
            options: StageOptions { footprints: false, facing_arrows: false, trails: false, shadows: false },
            ..frame
        };
        build_scene(&bare, &mut scene);
        assert_eq!(scene.dancers.len(), 2);
        assert!(scene.floor_marks.is_empty() && scene.lines.is_empty() && scene.contact_shadows.is_empty());
    }

    #[test]
    fn footprints_are_on_the_floor_coloured_by_foot_and_only_past_or_next() {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        let score = crate::demo::default_score();
        let animation = compile(&score, &MotionOptions::default(), &model.proportions);
        let dancer = &animation.dancers[0];
        let t_secs = dancer.plan.footprints.get(3).map_or(1.0, |fp| fp.t_land_secs + 0.01);
        let mut scene = Scene::default();
        push_footprints(&mut scene, dancer, t_secs);
        let landed = dancer.plan.footprints.iter().filter(|fp| fp.t_land_secs <= t_secs).count();
        assert!(scene.floor_marks.len() >= landed.min(PAST_FOOTPRINTS_SHOWN));
        assert!(scene.floor_marks.len() <= landed.min(PAST_FOOTPRINTS_SHOWN) + 2);
        for mark in &scene.floor_marks {
            let centre = mark.world_from_mark.w_axis.truncate();
            assert!(centre.y.abs() < 1e-6 && centre.is_finite());
            let rgb = [mark.colour[0], mark.colour[1], mark.colour[2]];
            assert!(rgb == LEFT_FOOT_COLOUR || rgb == RIGHT_FOOT_COLOUR);
            assert!(mark.colour[3] > 0.0 && mark.colour[3] <= 1.0);
        }
        // The newest planted footprint sits under its foot: its centre is within a foot length
        // of the plan's contact point.
        let fp = &dancer.plan.footprints[3];
        let nearest = scene
            .floor_marks
            .iter()
            .map(|m| {
                (m.world_from_mark.w_axis.truncate() - Vec3::new(fp.position_in_world.x, 0.0, fp.position_in_world.z))
                    .length()
            })
            .fold(f32::MAX, f32::min);
        assert!(nearest < 0.2, "{nearest}");
    }

    #[test]
    fn trail_grows_with_time_and_stays_bounded() {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        let animation = compile(&crate::demo::default_score(), &MotionOptions::default(), &model.proportions);
        let dancer = &animation.dancers[0];
        let mut points = Vec::new();
        trail_points(dancer, 0.0, &mut points);
        assert!(points.is_empty());
        trail_points(dancer, 2.0, &mut points);
        assert_eq!(points.len(), 21);
        assert!(points.iter().all(|p| (p.y - LINE_LIFT_M).abs() < 1e-6));
        trail_points(dancer, 1e5, &mut points);
        assert_eq!(points.len(), MAX_TRAIL_POINTS + 1);
        let arrow = facing_arrow(Vec3::new(1.0, 0.9, 2.0), 0.0);
        assert!((arrow.points_in_world[1] - Vec3::new(1.0, LINE_LIFT_M, 2.6)).length() < 1e-5);
    }
}
