//! An ensemble plan on the stage: opening a plan (read, simulate, compile the crowd) and filling
//! a [`Scene`] with every performer (near ones in the full body, far ones in the low-detail
//! body, the farthest in the coarse one), the set pieces, and in the top view the paths and the
//! spots they lead to.
//!
//! Drawing is instanced: each distinct pose's skinning palette is uploaded once per body, every
//! performer is one instance record (its root `world_from_pose`, colour and the palette range of
//! its pose), and the renderer draws one `draw_indexed` per body mesh over its instances. Three
//! bodies: the full body, the low-detail body (six-sided capsules, 1,008 triangles) and the coarse
//! body (`coarse_mannequin`: fourteen four-sided prisms, one per long bone, 224 triangles), given
//! by [`plan_view`] to every sharing performer whose 1.7 m would show under [`COARSE_BELOW_PX`].

use crate::body::lbs::palette_from_joints;
use crate::crowd::{Crowd, CrowdFrame, Detail, View, world_from_stage};
use crate::ensemble::plan::ObstacleShape;
use crate::pose::skeleton::JOINT_COUNT;
use crate::stage::camera_input::FloorBounds;
use crate::stage::dancer_mesh::DancerModel;
use crate::stage::{FloorMark, FloorMarkKind, MeshId, OrbitCamera, Polyline, PoseInstance, Scene, Stage};
use glam::{Mat4, Vec3};

use std::path::Path;

/// Most performers posed on their own and drawn in the full body.
pub const MAX_FULL_DETAIL: usize = 64;
/// Farthest from the camera a performer is drawn in the full body, metres.
pub const FULL_DETAIL_WITHIN_M: f32 = 20.0;

/// A performer drawn smaller than this (its height on screen, pixels) gets the coarse body.
pub const COARSE_BELOW_PX: f32 = 48.0;

/// Who is drawn in which body through `camera` on a picture `height_px` tall: the nearest in
/// full ([`MAX_FULL_DETAIL`] within [`FULL_DETAIL_WITHIN_M`]), the coarse body for those whose
/// height would show under [`COARSE_BELOW_PX`] (farther than height × focal length / that),
/// the low-detail body between.
pub fn plan_view(camera: &OrbitCamera, height_px: u32) -> View {
    let focal_px = 0.5 * height_px.max(1) as f32 / (0.5 * camera.vertical_fov_rad).tan();
    View {
        eye_in_world: camera.eye_in_world(),
        full_within_m: FULL_DETAIL_WITHIN_M,
        max_full: MAX_FULL_DETAIL,
        coarse_beyond_m: PERFORMER_HEIGHT_M * focal_px / COARSE_BELOW_PX,
    }
}

/// The height the coarse rule measures, metres (the plans' default performer).
const PERFORMER_HEIGHT_M: f32 = 1.7;

/// True when `path` names an ensemble plan (`*.plan.toml`).
pub fn is_plan_path(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().to_ascii_lowercase().ends_with(".plan.toml"))
}

/// Why a plan could not be opened, its diagnostics still structured.
#[derive(Debug, thiserror::Error)]
pub enum PlanOpenError {
    /// The plan reader's errors.
    #[error(transparent)]
    Plan(#[from] crate::ensemble::PlanError),
    /// The crowd could not be built.
    #[error("{}: {source}", path.display())]
    Crowd {
        /// The plan file.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: crate::crowd::CrowdError,
    },
}

impl PlanOpenError {
    /// Every diagnostic as `file:line:col: error: message` with its source line and caret.
    pub fn render(&self) -> String {
        match self {
            PlanOpenError::Plan(e) => e.render(),
            PlanOpenError::Crowd { .. } => self.to_string(),
        }
    }
}

/// Reads, checks and simulates a plan, and compiles its crowd for a body of `model`'s
/// proportions.
pub fn open_plan(path: &Path, model: &DancerModel) -> Result<Crowd, PlanOpenError> {
    let plan = crate::ensemble::read_plan_file(path, &mut crate::read::Files)?.plan;
    let motion = crate::ensemble::simulate(&plan);
    Crowd::new(plan, motion, &model.proportions)
        .map_err(|source| PlanOpenError::Crowd { path: path.to_path_buf(), source })
}

/// The floor a plan uses, for framing cameras: the stage and everywhere a performer goes (the
/// simulated paths may leave the stage, e.g. an exit).
pub fn plan_bounds(crowd: &Crowd) -> FloorBounds {
    let half = 0.5 * crowd.plan.stage_m.as_vec2();
    let mut bounds = FloorBounds { min_xz: [-half.x, -half.y], max_xz: [half.x, half.y] };
    let keys = crowd.motion.tracks.iter().flat_map(|t| t.keys().iter().map(|k| k.position.as_dvec2()));
    for p in keys.chain(crowd.motion.last.iter().copied()) {
        let w = world_from_stage(crowd.plan.stage_m, p);
        if w.is_finite() {
            bounds.min_xz = [bounds.min_xz[0].min(w.x), bounds.min_xz[1].min(w.z)];
            bounds.max_xz = [bounds.max_xz[0].max(w.x), bounds.max_xz[1].max(w.z)];
        }
    }
    bounds
}

/// Meshes a plan is drawn with.
#[derive(Clone, Copy, Debug)]
pub struct PlanMeshes<'a> {
    /// Near performers' body.
    pub full: (&'a DancerModel, MeshId),
    /// Far performers' body.
    pub low: (&'a DancerModel, MeshId),
    /// The farthest performers' body ([`Detail::Coarse`]).
    pub coarse: (&'a DancerModel, MeshId),
}

/// What to draw besides the performers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanOptions {
    /// Paths of the transition under way (or the next) and the spots they lead to (the
    /// conflicts are drawn apart, by [`push_conflicts`]).
    pub paths_and_spots: bool,
    /// How those paths are drawn (a crowd of hundreds draws a fan of paths that hides the
    /// formation: faded or hidden, the spots still show where everyone goes).
    pub paths: PathsShown,
    /// The selected performer: drawn brighter, with a ring at its feet and its whole path.
    pub selected: Option<usize>,
}

/// How the top view draws the performers' paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathsShown {
    /// Every path of the transition under way, in its group's colour.
    #[default]
    All,
    /// The same, faint.
    Faded,
    /// No paths; the spots only.
    Hidden,
}

impl PathsShown {
    /// The paths' opacity, `None` when they are not drawn.
    pub fn alpha(self) -> Option<f32> {
        match self {
            PathsShown::All => Some(0.8),
            PathsShown::Faded => Some(0.2),
            PathsShown::Hidden => None,
        }
    }
}

/// Colour of the selected performer's path and ring, linear RGBA.
pub const SELECTED_COLOUR: [f32; 4] = [1.0, 0.95, 0.35, 1.0];
/// Colour of a conflict marker (two performers too close, a body in a set piece), linear RGBA.
pub const CONFLICT_COLOUR: [f32; 4] = [1.0, 0.08, 0.05, 0.9];

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
    scene.dancers.clear();
    scene.instances.clear();
    // Each distinct pose's skinning palette once per body (pose space); every performer is an
    // instance of it carried to the world by its root, skinned on the GPU.
    let mut pose_of: Vec<[Option<u32>; 3]> = vec![[None; 3]; frame.poses.len()];
    let mut used = 0usize;
    for (i, p) in frame.performers.iter().enumerate() {
        let ((model, mesh_id), level) = match p.detail {
            Detail::Full => (meshes.full, 0),
            Detail::Low => (meshes.low, 1),
            Detail::Coarse => (meshes.coarse, 2),
        };
        let slot = &mut pose_of[p.pose][level];
        let pose = match *slot {
            Some(k) => k,
            None => {
                if scene.poses.len() <= used {
                    scene.poses.push(Vec::with_capacity(JOINT_COUNT));
                }
                let palette = &mut scene.poses[used];
                palette_from_joints(&frame.joints[p.pose], &model.joint_from_model_at_bind, palette);
                used += 1;
                *slot = Some(used as u32 - 1);
                used as u32 - 1
            }
        };
        let group = &crowd.plan.groups[crowd.plan.performers[i].group];
        let mut colour = [group.colour[0], group.colour[1], group.colour[2], 1.0];
        if options.selected == Some(i) {
            colour = [0, 1, 2, 3].map(|k| if k == 3 { 1.0 } else { 0.5 * colour[k] + 0.5 });
        }
        scene.instances.push(PoseInstance { mesh_id, pose, world_from_pose: p.world_from_pose, colour });
    }
    scene.poses.truncate(used);
    push_obstacles(crowd, scene);
    if options.paths_and_spots {
        push_paths_and_spots(crowd, t_beats, options.paths, scene);
    }
    if let Some(i) = options.selected.filter(|&i| i < frame.performers.len()) {
        push_selected(crowd, i, frame.performers[i].ground_in_world, scene);
    }
}

/// The selected performer's whole path over the plan, and a ring on the floor round it.
fn push_selected(crowd: &Crowd, i: usize, ground_in_world: Vec3, scene: &mut Scene) {
    let end = crowd.end_beats();
    let steps = (end * 4.0).ceil().clamp(1.0, 4000.0) as usize;
    let lift = Vec3::Y * 0.03;
    let points = (0..=steps).map(|k| crowd.ground_at(i, end * k as f64 / steps as f64) + lift).collect();
    scene.lines.push(Polyline { points_in_world: points, colour: SELECTED_COLOUR });
    let r = (crowd.plan.body.radius_m as f32) * 1.3;
    let ring = (0..=24)
        .map(|k| {
            let a = std::f32::consts::TAU * k as f32 / 24.0;
            ground_in_world + Vec3::new(r * a.cos(), 0.03, r * a.sin())
        })
        .collect();
    scene.lines.push(Polyline { points_in_world: ring, colour: SELECTED_COLOUR });
}

/// Conflict markers: a red spot under both performers of every pair too close and every body
/// in a set piece, where it happened (from `labanplay check`'s report).
pub fn push_conflicts(crowd: &Crowd, report: &crate::ensemble::conflicts::Report, scene: &mut Scene) {
    let scale = (crowd.plan.body.radius_m / 0.12) as f32;
    let mut mark = |i: usize, t: f64| {
        let at = crowd.ground_at(i, t);
        scene.floor_marks.push(FloorMark {
            kind: FloorMarkKind::Spot,
            world_from_mark: Mat4::from_translation(at) * Mat4::from_scale(Vec3::splat(scale * 1.4)),
            colour: CONFLICT_COLOUR,
        });
    };
    for c in &report.pairs {
        mark(c.a, c.at_beats);
        mark(c.b, c.at_beats);
    }
    for c in &report.obstacles {
        mark(c.performer, c.at_beats);
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

/// Each performer's path through the transition under way (or the next one) as `paths` says,
/// and its spot.
fn push_paths_and_spots(crowd: &Crowd, t_beats: f64, paths: PathsShown, scene: &mut Scene) {
    for (i, legs) in crowd.legs.iter().enumerate() {
        let Some(leg) = legs.iter().find(|l| l.end_beats() > t_beats) else { continue };
        let group = &crowd.plan.groups[crowd.plan.performers[i].group];
        let colour = [group.colour[0], group.colour[1], group.colour[2], 0.8];
        if let Some(alpha) = paths.alpha() {
            let steps = ((leg.arrive_beats - leg.start_beats) * 2.0).ceil().max(1.0) as usize;
            let points = (0..=steps)
                .map(|k| {
                    let t = leg.start_beats + (leg.arrive_beats - leg.start_beats) * k as f64 / steps as f64;
                    crowd.ground_at(i, t) + Vec3::Y * 0.02
                })
                .collect();
            scene.lines.push(Polyline { points_in_world: points, colour: [colour[0], colour[1], colour[2], alpha] });
        }
        let spot = crowd.ground_at(i, leg.arrive_beats);
        let scale = (crowd.plan.body.radius_m / 0.12) as f32;
        scene.floor_marks.push(FloorMark {
            kind: FloorMarkKind::Spot,
            world_from_mark: Mat4::from_translation(spot) * Mat4::from_scale(Vec3::splat(scale)),
            colour: [colour[0], colour[1], colour[2], 0.6],
        });
    }
}

/// A plan open in the player: its crowd, the low-detail and coarse bodies, the frame's poses, what `check`
/// found, the timeline of its events and who is selected.
pub struct PlanPlayback {
    /// The plan file.
    pub path: std::path::PathBuf,
    /// The crowd.
    pub crowd: Crowd,
    /// Far performers' body.
    pub low: DancerModel,
    /// Its mesh once uploaded.
    pub low_mesh: Option<MeshId>,
    /// The farthest performers' body.
    pub coarse: DancerModel,
    /// Its mesh once uploaded.
    pub coarse_mesh: Option<MeshId>,
    /// Scratch poses, reused every frame.
    pub frame: CrowdFrame,
    /// Conflicts, late arrivals and long steps (`labanplay check`).
    pub report: crate::ensemble::conflicts::Report,
    /// The events as timeline bars.
    pub bars: Vec<crate::stage::plan_events::TimelineBar>,
    /// The selected performer.
    pub selected: Option<usize>,
}

/// Why the player cannot play a plan.
#[derive(Debug, thiserror::Error)]
pub enum PlanPlaybackError {
    /// The plan could not be read or its crowd built; shown with every diagnostic.
    #[error("{}", .0.render())]
    Open(#[from] PlanOpenError),
    /// A crowd body could not be built.
    #[error(transparent)]
    Model(#[from] crate::stage::dancer_mesh::ModelError),
}

impl PlanPlayback {
    /// Opens the plan at `path` for a full body of `model`.
    pub fn open(path: &Path, model: &DancerModel) -> Result<PlanPlayback, PlanPlaybackError> {
        let crowd = open_plan(path, model)?;
        let low = crate::stage::dancer_mesh::low_detail_mannequin(&model.proportions)?;
        let coarse = crate::stage::dancer_mesh::coarse_mannequin(&model.proportions)?;
        let report = crate::ensemble::conflicts::check(&crowd.plan, &crowd.motion);
        let bars = crate::stage::plan_events::timeline_bars(&crowd.plan, crowd.end_beats() + 2.0);
        Ok(PlanPlayback {
            path: path.to_path_buf(),
            crowd,
            low,
            low_mesh: None,
            coarse,
            coarse_mesh: None,
            frame: CrowdFrame::default(),
            report,
            bars,
            selected: None,
        })
    }

    /// The score the player shows beside the stage: the selected performer's group's, else the
    /// first group's that has one.
    pub fn shown_score(&self) -> Option<&Path> {
        let selected = self.selected.and_then(|i| self.crowd.plan.performers.get(i));
        let of_selected = selected.and_then(|p| self.crowd.plan.groups[p.group].score.as_deref());
        of_selected.or_else(|| self.crowd.plan.groups.iter().find_map(|g| g.score.as_deref()))
    }

    /// The shown score as the player opens it, with its path: the plan's own composed score,
    /// read with the plan.
    pub fn shown_opened(&self) -> Option<(crate::stage::player::Opened, std::path::PathBuf)> {
        let path = self.shown_score()?;
        let score = self.crowd.plan.score(path)?;
        Some((crate::stage::player::Opened::Score(crate::score::Score::clone(score)), path.to_path_buf()))
    }

    /// The beat of the shown score at plan beat `t_beats`: the selected performer's (its canon
    /// offset taken off), the score repeating while the formation holds (`score_beats` long).
    pub fn score_beat_at(&self, t_beats: f64, score_beats: f64) -> f64 {
        let i = self.selected.unwrap_or(0).min(self.crowd.plan.performers.len().saturating_sub(1));
        let b = if self.crowd.plan.performers.is_empty() { t_beats } else { self.crowd.score_beats(i, t_beats) };
        if score_beats > 0.0 { b.max(0.0).rem_euclid(score_beats) } else { b.max(0.0) }
    }

    /// "group `blocks`, performer 12 of 90", for the status line.
    pub fn describe(&self, i: usize) -> String {
        match self.crowd.plan.performers.get(i) {
            Some(p) => {
                let g = &self.crowd.plan.groups[p.group];
                format!("group `{}`, performer {} of {}", g.name, p.number, g.count)
            }
            None => format!("performer {}", i + 1),
        }
    }

    /// Picks the performer under image point `ndc` ([-1, 1]², y up) of `camera` (a frame must
    /// have been prepared), or none.
    pub fn pick(&self, camera: &crate::stage::OrbitCamera, aspect_ratio: f32, ndc: glam::Vec2) -> Option<usize> {
        let (origin, dir) = crate::stage::plan_pick::ray_through(camera, aspect_ratio, ndc);
        let body = &self.crowd.plan.body;
        let grounds = self.frame.performers.iter().map(|p| p.ground_in_world);
        crate::stage::plan_pick::pick_performer(origin, dir, grounds, body.radius_m as f32, body.height_m as f32)
    }
}
