//! An ensemble plan on the stage: opening a plan (read, simulate, compile the crowd) and filling
//! a [`Scene`] with every performer (near ones in the full body, far ones in the low-detail
//! body), the set pieces, and in the top view the paths and the spots they lead to.

use crate::crowd::{Crowd, CrowdFrame, Detail, View, world_from_stage};
use crate::ensemble::plan::ObstacleShape;
use crate::pose::skeleton::JOINT_COUNT;
use crate::render::{DancerInstance, FloorMark, FloorMarkKind, MeshId, Polyline, Scene, Stage};
use crate::viewer::camera_input::FloorBounds;
use crate::viewer::dancer_mesh::DancerModel;
use glam::{Mat4, Vec3};
use std::path::Path;

/// True when `path` names an ensemble plan (`*.plan.toml`).
pub fn is_plan_path(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().to_ascii_lowercase().ends_with(".plan.toml"))
}

/// Reads, checks and simulates a plan, and compiles its crowd for a body of `model`'s
/// proportions. Errors are the plan reader's diagnostics, rendered.
pub fn open_plan(path: &Path, model: &DancerModel) -> Result<Crowd, String> {
    let (plan, _) = crate::ensemble::read_plan_file(path)
        .map_err(|(diags, bytes)| diags.render(&path.display().to_string(), Some(&bytes)))?;
    let motion = crate::ensemble::simulate(&plan);
    Crowd::new(plan, motion, &model.proportions).map_err(|e| format!("{}: {e}", path.display()))
}

/// The stage floor of the plan, for framing cameras.
pub fn plan_bounds(crowd: &Crowd) -> FloorBounds {
    let half = 0.5 * crowd.plan.stage_m.as_vec2();
    FloorBounds { min_xz: [-half.x, -half.y], max_xz: [half.x, half.y] }
}

/// Meshes a plan is drawn with.
#[derive(Clone, Copy, Debug)]
pub struct PlanMeshes<'a> {
    /// Near performers' body.
    pub full: (&'a DancerModel, MeshId),
    /// Far performers' body.
    pub low: (&'a DancerModel, MeshId),
}

/// What to draw besides the performers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanOptions {
    /// Paths of the transition under way (or the next) and the spots they lead to.
    pub paths_and_spots: bool,
}

/// Poses the crowd at `t_beats` (`view` picks who is posed and drawn in full) and fills `scene`.
pub fn build_plan_scene(
    crowd: &Crowd,
    t_beats: f64,
    view: &View,
    meshes: PlanMeshes<'_>,
    options: PlanOptions,
    frame: &mut CrowdFrame,
    scene: &mut Scene,
) {
    crowd.prepare(t_beats, view, frame);
    let stage_m = crowd.plan.stage_m.as_vec2();
    scene.stage = Stage {
        half_width_m: 0.5 * stage_m.x,
        half_depth_m: 0.5 * stage_m.y,
        grid_spacing_m: if stage_m.max_element() > 40.0 { 5.0 } else { 1.0 },
        audience_band_m: 0.25 * (stage_m.max_element() / 8.0).max(1.0),
        ..Stage::default()
    };
    scene.floor_marks.clear();
    scene.contact_shadows.clear();
    scene.lines.clear();
    let n = frame.performers.len();
    scene.dancers.truncate(n);
    // The skinning palette of each distinct pose and body, then per performer its root times it.
    let mut palettes: Vec<[Option<Vec<Mat4>>; 2]> = vec![[None, None]; frame.poses.len()];
    let mut world_from_joint = [Mat4::IDENTITY; JOINT_COUNT];
    for i in 0..n {
        let p = frame.performers[i];
        let (model, mesh_id) = if p.detail == Detail::Full { meshes.full } else { meshes.low };
        let slot = &mut palettes[p.pose][usize::from(p.detail == Detail::Low)];
        let shared = slot.get_or_insert_with(|| {
            world_from_joint.copy_from_slice(&frame.joints[p.pose]);
            world_from_joint.iter().zip(&model.joint_from_bind).map(|(w, b)| *w * *b).collect()
        });
        let group = &crowd.plan.groups[crowd.plan.performers[i].group];
        let colour = [group.colour[0], group.colour[1], group.colour[2], 1.0];
        if scene.dancers.len() <= i {
            scene.dancers.push(DancerInstance { mesh_id, palette: Vec::new(), colour });
        }
        let d = &mut scene.dancers[i];
        d.mesh_id = mesh_id;
        d.colour = colour;
        d.palette.clear();
        d.palette.extend(shared.iter().map(|m| p.world_from_pose * *m));
    }
    push_obstacles(crowd, scene);
    if options.paths_and_spots {
        push_paths_and_spots(crowd, t_beats, scene);
    }
}

/// Set pieces: outlines on the floor and at 1 m, joined by uprights.
fn push_obstacles(crowd: &Crowd, scene: &mut Scene) {
    let colour = [0.9, 0.85, 0.6, 1.0];
    for o in &crowd.plan.obstacles {
        let outline: Vec<Vec3> = match &o.shape {
            ObstacleShape::Circle { centre, radius_m } => (0..=24)
                .map(|k| {
                    let a = std::f64::consts::TAU * f64::from(k) / 24.0;
                    world_from_stage(crowd.plan.stage_m, *centre + *radius_m * glam::DVec2::new(a.cos(), a.sin()))
                })
                .collect(),
            ObstacleShape::Box { min, max } => {
                [(min.x, min.y), (max.x, min.y), (max.x, max.y), (min.x, max.y), (min.x, min.y)]
                    .into_iter()
                    .map(|(x, y)| world_from_stage(crowd.plan.stage_m, glam::DVec2::new(x, y)))
                    .collect()
            }
        };
        let up = Vec3::Y * 1.0;
        for p in outline.iter().step_by(if outline.len() > 6 { 3 } else { 1 }) {
            scene.lines.push(Polyline { points_in_world: vec![*p + Vec3::Y * 0.01, *p + up], colour });
        }
        scene.lines.push(Polyline { points_in_world: outline.iter().map(|p| *p + up).collect(), colour });
        scene.lines.push(Polyline { points_in_world: outline.iter().map(|p| *p + Vec3::Y * 0.01).collect(), colour });
    }
}

/// Each performer's path through the transition under way (or the next one), and its spot.
fn push_paths_and_spots(crowd: &Crowd, t_beats: f64, scene: &mut Scene) {
    for (i, legs) in crowd.legs.iter().enumerate() {
        let Some(leg) = legs.iter().find(|l| l.end_beats() > t_beats) else { continue };
        let group = &crowd.plan.groups[crowd.plan.performers[i].group];
        let colour = [group.colour[0], group.colour[1], group.colour[2], 0.8];
        let steps = ((leg.arrive_beats - leg.start_beats) * 2.0).ceil().max(1.0) as usize;
        let points = (0..=steps)
            .map(|k| {
                let t = leg.start_beats + (leg.arrive_beats - leg.start_beats) * k as f64 / steps as f64;
                crowd.ground_at(i, t) + Vec3::Y * 0.02
            })
            .collect();
        scene.lines.push(Polyline { points_in_world: points, colour });
        let spot = crowd.ground_at(i, leg.arrive_beats);
        let scale = (crowd.plan.body.radius_m / 0.12) as f32;
        scene.floor_marks.push(FloorMark {
            kind: FloorMarkKind::Spot,
            world_from_mark: Mat4::from_translation(spot) * Mat4::from_scale(Vec3::splat(scale)),
            colour: [colour[0], colour[1], colour[2], 0.6],
        });
    }
}

/// A plan open in the player: its crowd, the low-detail body and the frame's poses.
pub struct PlanPlayback {
    /// The crowd.
    pub crowd: Crowd,
    /// Far performers' body.
    pub low: DancerModel,
    /// Its mesh once uploaded.
    pub low_mesh: Option<MeshId>,
    /// Scratch poses, reused every frame.
    pub frame: CrowdFrame,
}

impl PlanPlayback {
    /// Opens the plan at `path` for a full body of `model`.
    pub fn open(path: &Path, model: &DancerModel) -> Result<PlanPlayback, String> {
        let crowd = open_plan(path, model)?;
        let low = crate::viewer::dancer_mesh::low_detail_mannequin(&model.proportions)?;
        Ok(PlanPlayback { crowd, low, low_mesh: None, frame: CrowdFrame::default() })
    }

    /// The score the player shows beside the stage: the first group's that has one.
    pub fn first_score(&self) -> Option<&Path> {
        self.crowd.plan.groups.iter().find_map(|g| g.score.as_deref())
    }
}
