//! glTF export of an ensemble plan: the first [`FULL_TREES`] performers as skinned dancers with
//! their own node trees and animation; everyone beyond as a crowd flipbook: each distinct pose
//! baked once into a low-detail mesh, drawn at every performer holding it with
//! `EXT_mesh_gpu_instancing`, one frame node shown at a time.
//!
//! The full performers (in plan order; all of them in a smaller plan) get 23 joints and a mesh,
//! named `<group><number>_…`, in their group's colour. Their tracks (every joint's rotation, the
//! pelvis translation) are sampled at the export's frame rate as the player poses them, then
//! key-reduced, rotations stored as normalised signed shorts ([`super::compact`]); tracks with the same
//! bytes are written once, so performers dancing in unison share their joints' accessors and only
//! their own root translation differs. The flipbook runs at [`CROWD_FPS`]: `crowd_frameK` nodes,
//! one shown at a time by a STEP-animated scale; under each, one node per (pose, group) whose
//! instances are the performers holding that pose ([`super::crowd_gltf`]: poses on the
//! flipbook's beat grid, vertex data quantised with [`QUANTIZATION`], which the file requires).
//! The extension cannot animate instances, hence the flipbook; a viewer without it shows one body
//! per node at the origin. The Khronos validator reports no errors or warnings (it lists the
//! instance accessors as unused infos, since it does not know the extension).

use super::compact::add_compact_tracks;
use super::crowd_gltf::write_crowd;
use super::gltf::{Bin, GltfError, Scene, add_dancer_nodes, finish, frame_times, rig_accessors};
use crate::body::rig::Rig;
use crate::crowd::Crowd;
use crate::pose::fk::Pose;

/// Performers written as their own skinned node trees when the plan has more (`--full`).
pub const FULL_TREES: usize = 64;
/// Frame rate of the instanced crowd flipbook (at most the export's own rate).
pub const CROWD_FPS: f64 = 10.0;
/// The glTF extension the crowd uses.
pub const INSTANCING: &str = "EXT_mesh_gpu_instancing";
/// The glTF extension of the crowd's quantised vertex data (required when there is a crowd).
pub const QUANTIZATION: &str = "KHR_mesh_quantization";

/// What to export.
#[derive(Clone, Copy, Debug)]
pub struct PlanGltfInput<'a> {
    /// The plan's performers, ready to be posed.
    pub crowd: &'a Crowd,
    /// Body of the individually animated performers (its skeleton must be the crowd's).
    pub rig: &'a Rig,
    /// Low-detail body of the instanced crowd (same skeleton).
    pub low: &'a Rig,
    /// Frames per second of the individual performers.
    pub fps: f64,
    /// Frames per second of the crowd flipbook (at most `fps`).
    pub crowd_fps: f64,
    /// How many performers (in plan order) get their own node tree.
    pub full_trees: usize,
    /// Scene and animation name.
    pub title: &'a str,
}

/// What was written.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanGltfSummary {
    /// Performers with their own node tree.
    pub full: usize,
    /// Performers drawn as instances.
    pub instanced: usize,
    /// Frames of the individual animation.
    pub frames: usize,
    /// Frames of the crowd flipbook (0 without a crowd).
    pub crowd_frames: usize,
    /// Distinct poses baked for the crowd.
    pub baked_poses: usize,
    /// Seconds animated.
    pub duration_secs: f64,
}

/// The GLB of a plan, and a summary. Node layout: performer `d` < `full` has nodes
/// `24·d .. 24·d + 23` (joints, then its skinned mesh node, named `<group><number>_…`); then
/// one `crowd_frame_K` node per flipbook frame, whose children are instanced mesh nodes, one
/// per (baked pose, group), each instance a performer's pose-space → world transform. The
/// frame nodes' scale is animated (STEP) to show one frame at a time.
pub fn write_plan_glb(input: &PlanGltfInput) -> Result<(Vec<u8>, PlanGltfSummary), GltfError> {
    let crowd = input.crowd;
    if input.rig.skeleton != crowd.skeleton || input.low.skeleton != crowd.skeleton {
        return Err(GltfError::Mesh("the body's skeleton is not the crowd's".into()));
    }
    if !(input.fps.is_finite() && input.fps > 0.0) {
        return Err(GltfError::BadFps(input.fps));
    }
    let n = crowd.plan.performers.len();
    if n == 0 {
        return Err(GltfError::Empty("no performers"));
    }
    let tempo = crowd.plan.clock.tempo;
    let duration_secs = tempo.secs_from_beats(crowd.end_beats()).max(0.0);
    let frames = (duration_secs * input.fps).floor() as usize + 1;
    let full = input.full_trees.min(n);
    let mut bin = Bin::default();
    let mut scene = Scene::default();
    let mut summary = PlanGltfSummary { full, instanced: n - full, frames, duration_secs, ..Default::default() };
    if full > 0 {
        frame_times(frames, input.fps)?;
        let (mesh, ibm) = rig_accessors(&mut bin, input.rig)?;
        let mut pose = Pose::rest(&crowd.skeleton);
        let mut poses = Vec::with_capacity(frames);
        for i in 0..full {
            let mut walk = None;
            poses.clear();
            for f in 0..frames {
                let t_beats = tempo.beats_from_secs(f as f64 / input.fps);
                crowd.pose_in_world(i, t_beats, &mut walk, &mut pose);
                poses.push(pose.clone());
            }
            let p = &crowd.plan.performers[i];
            let g = &crowd.plan.groups[p.group];
            let [r, gr, b] = g.colour;
            let label = format!("{}{}", g.name, p.number);
            let base = add_dancer_nodes(&mut scene, input.rig, mesh, ibm, &label, [r, gr, b, 1.0]);
            add_compact_tracks(&mut scene, &mut bin, &crowd.skeleton, base, &poses, input.fps);
        }
    }
    if full < n {
        let crowd_fps = if input.crowd_fps.is_finite() && input.crowd_fps > 0.0 {
            input.crowd_fps.min(input.fps)
        } else {
            CROWD_FPS.min(input.fps)
        };
        let crowd_frames = (duration_secs * crowd_fps).floor() as usize + 1;
        summary.crowd_frames = crowd_frames;
        summary.baked_poses = write_crowd(&mut scene, &mut bin, input, full, crowd_fps, crowd_frames)?;
    }
    let (used, required): (&[&str], &[&str]) =
        if full < n { (&[INSTANCING, QUANTIZATION], &[QUANTIZATION]) } else { (&[], &[]) };
    Ok((finish(scene, bin, input.title, used, required)?, summary))
}
