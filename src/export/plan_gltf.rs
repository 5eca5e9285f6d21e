//! glTF export of an ensemble plan: the first [`FULL_TREES`] performers as skinned dancers with
//! their own node trees and animation (as the score export writes dancers); everyone beyond as a
//! crowd flipbook: each distinct shared pose baked once into a low-detail mesh, drawn at every
//! performer holding it with `EXT_mesh_gpu_instancing`, one frame node shown at a time.
//!
//! The full performers (in plan order; all of them in a smaller plan) get 23 joints and a mesh,
//! named `<group><number>_…`, in their group's colour, every joint's rotation and the pelvis
//! translation sampled at the export's frame rate exactly as the player poses them. The flipbook
//! runs at [`CROWD_FPS`]: `crowd_frameK` nodes, one shown at a time by a STEP-animated scale; under
//! each, one node per (shared pose, group) whose instances are the performers holding that pose.
//! Each shared pose is skinned on the CPU into the built-in body polygonised on a 4.5 cm grid. The
//! extension cannot animate instances, hence the flipbook; a viewer without it shows one body per
//! node at the origin. The Khronos validator reports no errors or warnings (it lists the instance
//! accessors as unused infos, since it does not know the extension).

use super::gltf::{Bin, UNSIGNED_INT, finite_or};
use super::gltf::{ELEMENT_ARRAY_BUFFER, GltfError, Scene, add_dancer, finish, shared_accessors};
use crate::body::rig::Rig;
use crate::crowd::{Crowd, CrowdFrame, PoseKey, View};
use crate::pose::fk::Pose;
use glam::{Mat4, Vec3};
use serde_json::json;
use std::collections::BTreeMap;

/// Performers written as their own skinned node trees when the plan has more (`--full`).
pub const FULL_TREES: usize = 64;
/// Frame rate of the instanced crowd flipbook (at most the export's own rate).
pub const CROWD_FPS: f64 = 10.0;
/// The glTF extension the crowd uses.
pub const INSTANCING: &str = "EXT_mesh_gpu_instancing";

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
        let shared = shared_accessors(&mut bin, input.rig, frames, input.fps)?;
        let mut pose = Pose::rest(&crowd.skeleton);
        for i in 0..full {
            let mut walk = None;
            let poses: Vec<Pose> = (0..frames)
                .map(|f| {
                    let t_beats = tempo.beats_from_secs(f as f64 / input.fps);
                    crowd.pose_in_world(i, t_beats, &mut walk, &mut pose);
                    pose.clone()
                })
                .collect();
            let p = &crowd.plan.performers[i];
            let g = &crowd.plan.groups[p.group];
            let [r, gr, b] = g.colour;
            add_dancer(
                &mut scene,
                &mut bin,
                input.rig,
                shared,
                &format!("{}{}", g.name, p.number),
                [r, gr, b, 1.0],
                &poses,
            );
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
    let used: &[&str] = if full < n { &[INSTANCING] } else { &[] };
    Ok((finish(scene, bin, input.title, used)?, summary))
}

/// The crowd flipbook of performers `first..`; returns the number of baked poses.
fn write_crowd(
    scene: &mut Scene,
    bin: &mut Bin,
    input: &PlanGltfInput,
    first: usize,
    crowd_fps: f64,
    crowd_frames: usize,
) -> Result<usize, GltfError> {
    let crowd = input.crowd;
    let low = input.low;
    let tempo = crowd.plan.clock.tempo;
    let n = crowd.plan.performers.len();
    let index_bytes: Vec<u8> = low.mesh.triangles.iter().flatten().flat_map(|i| i.to_le_bytes()).collect();
    if index_bytes.is_empty() || low.mesh.triangles.iter().flatten().any(|&i| i as usize >= low.mesh.vertex_count()) {
        return Err(GltfError::Mesh("the low-detail body has no triangles or a bad index".into()));
    }
    let index_view = bin.view(&index_bytes, Some(ELEMENT_ARRAY_BUFFER));
    let indices = bin.accessor(index_view, UNSIGNED_INT, low.mesh.triangles.len() * 3, "SCALAR", None);
    let group_material: Vec<usize> = crowd
        .plan
        .groups
        .iter()
        .map(|g| {
            let [r, gr, b] = g.colour;
            scene.materials.push(json!({
                "name": format!("{}_crowd_material", g.name),
                "pbrMetallicRoughness": { "baseColorFactor": [r, gr, b, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.7 },
            }));
            scene.materials.len() - 1
        })
        .collect();
    // Visibility keys (STEP scale): on from its time to the next frame's.
    let on_off = bin.floats(&[1.0, 1.0, 1.0, 0.0, 0.0, 0.0], 3, "VEC3", None, false);
    let off_on_off = bin.floats(&[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], 3, "VEC3", None, false);
    let off_on = bin.floats(&[0.0, 0.0, 0.0, 1.0, 1.0, 1.0], 3, "VEC3", None, false);
    let view = View { eye_in_world: Vec3::ZERO, full_within_m: 0.0, max_full: 0, coarse_beyond_m: f32::INFINITY };
    let mut frame = CrowdFrame::default();
    let mut baked: BTreeMap<PoseKey, (usize, usize)> = BTreeMap::new();
    let mut meshes: BTreeMap<(PoseKey, usize), usize> = BTreeMap::new();
    let (mut palette, mut positions, mut normals) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..crowd_frames {
        let t_secs = k as f64 / crowd_fps;
        crowd.prepare(tempo.beats_from_secs(t_secs), &view, &mut frame);
        // (pose key, group) → instance translations and rotations, in performer order.
        let mut batches: BTreeMap<(PoseKey, usize), (Vec<f32>, Vec<f32>)> = BTreeMap::new();
        for i in first..n {
            let pf = &frame.performers[i];
            let key = frame.pose_key(pf.pose);
            if let std::collections::btree_map::Entry::Vacant(slot) = baked.entry(key) {
                low.skin(&frame.poses[pf.pose], &mut palette, &mut positions, &mut normals)
                    .map_err(|e| GltfError::Mesh(e.to_string()))?;
                if positions.iter().any(|p: &Vec3| !p.is_finite()) {
                    return Err(GltfError::Mesh("a baked crowd pose is not finite".into()));
                }
                let flat: Vec<f32> = positions.iter().flat_map(|p| p.to_array()).collect();
                let nrm: Vec<f32> = normals
                    .iter()
                    .flat_map(|v| finite_or(*v, Vec3::Y).try_normalize().unwrap_or(Vec3::Y).to_array())
                    .collect();
                let position = bin.floats(&flat, 3, "VEC3", Some(super::gltf::ARRAY_BUFFER), true);
                let normal = bin.floats(&nrm, 3, "VEC3", Some(super::gltf::ARRAY_BUFFER), false);
                slot.insert((position, normal));
            }
            let group = crowd.plan.performers[i].group;
            let (_, rotation, translation) = rigid(pf.world_from_pose);
            let batch = batches.entry((key, group)).or_default();
            batch.0.extend_from_slice(&translation.to_array());
            batch.1.extend_from_slice(&rotation.to_array());
        }
        let mut children = Vec::with_capacity(batches.len());
        for ((key, group), (translations, rotations)) in batches {
            let mesh = match meshes.get(&(key, group)) {
                Some(&m) => m,
                None => {
                    let (position, normal) = baked[&key];
                    scene.meshes.push(json!({
                        "name": format!("crowd_pose{}_{}", meshes.len() + 1, crowd.plan.groups[group].name),
                        "primitives": [{
                            "attributes": { "POSITION": position, "NORMAL": normal },
                            "indices": indices,
                            "material": group_material[group],
                            "mode": 4,
                        }],
                    }));
                    meshes.insert((key, group), scene.meshes.len() - 1);
                    scene.meshes.len() - 1
                }
            };
            let translation = bin.floats(&translations, 3, "VEC3", None, false);
            let rotation = bin.floats(&rotations, 4, "VEC4", None, false);
            children.push(scene.nodes.len());
            scene.nodes.push(json!({
                "name": format!("crowd_frame{k}_{}", crowd.plan.groups[group].name),
                "mesh": mesh,
                "extensions": { INSTANCING: { "attributes": { "TRANSLATION": translation, "ROTATION": rotation } } },
            }));
        }
        let node = scene.nodes.len();
        let mut frame_node = json!({ "name": format!("crowd_frame{k}"), "children": children });
        if k > 0 {
            frame_node["scale"] = json!([0.0, 0.0, 0.0]);
        }
        scene.nodes.push(frame_node);
        scene.scene_nodes.push(node);
        if crowd_frames > 1 {
            let t = |j: usize| (j as f64 / crowd_fps) as f32;
            let (times, output) = if k == 0 {
                (vec![0.0, t(1)], on_off)
            } else if k + 1 == crowd_frames {
                (vec![0.0, t(k)], off_on)
            } else {
                (vec![0.0, t(k), t(k + 1)], off_on_off)
            };
            let input = bin.floats(&times, 1, "SCALAR", None, true);
            scene
                .channels
                .push(json!({ "sampler": scene.samplers.len(), "target": { "node": node, "path": "scale" } }));
            scene.samplers.push(json!({ "input": input, "output": output, "interpolation": "STEP" }));
        }
    }
    Ok(baked.len())
}

/// Scale, unit rotation and translation of a rigid transform.
fn rigid(m: Mat4) -> (Vec3, glam::Quat, Vec3) {
    let (s, r, t) = m.to_scale_rotation_translation();
    (s, r.normalize(), t)
}
