//! The instanced crowd of the plan export: a flipbook of baked poses. A dancing performer's
//! pose is its dance at its score beat rounded to the flipbook's grid (one flipbook frame of
//! beats; the key wraps with the score), so the poses baked grow with the dances and their
//! length, not with the performers or their canon offsets; a walker takes its walk-cycle entry.
//! Each pose is skinned once on the CPU into the low-detail body and stored quantised
//! (`KHR_mesh_quantization`): positions as signed shorts in units of a power of two metres
//! (the mesh node scales them back; the instance translations are in the same units), normals
//! as normalised signed bytes. Instance rotations are normalised signed shorts. Accessors with
//! the same bytes (a block standing still for several frames) are written once.

use super::compact::shared_unit_rotations;
use super::gltf::{ARRAY_BUFFER, BYTE, Bin, ELEMENT_ARRAY_BUFFER, FLOAT, GltfError, Packed, SHORT, Scene};
use super::gltf::{UNSIGNED_INT, UNSIGNED_SHORT, component_bounds, finite_or};
use super::plan_gltf::{INSTANCING, PlanGltfInput};
use crate::body::rig::Rig;
use crate::crowd::{Crowd, CrowdFrame, PoseKey, View};
use crate::pose::fk::Pose;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;
use std::collections::BTreeMap;

/// A baked pose: its POSITION and NORMAL accessors and the metres per position unit.
#[derive(Clone, Copy, Debug)]
struct Baked {
    position: usize,
    normal: usize,
    unit_m: f32,
}

/// Metres per unit of a signed-short position whose largest magnitude is `max_abs_m`: a power
/// of two, so that the scale back is exact.
pub fn position_unit_m(max_abs_m: f32) -> f32 {
    let needed = (max_abs_m.max(1e-3) / 32_000.0).log2().ceil();
    2f32.powi(needed as i32)
}

/// The pose key a performer's key takes on the flipbook's grid of `step_beats`: a dance's score
/// beat rounded to the grid (wrapping to the score's start), other keys unchanged.
pub fn grid_key(crowd: &Crowd, key: PoseKey, step_beats: f64) -> PoseKey {
    match key {
        PoseKey::Dance(d, bits) if step_beats > 0.0 => {
            let beat = f64::from_bits(bits);
            let mut on_grid = (beat / step_beats).round() * step_beats;
            if on_grid >= crowd.dance_beats(d) {
                on_grid = 0.0;
            }
            PoseKey::Dance(d, on_grid.to_bits())
        }
        other => other,
    }
}

/// The index accessor of the low-detail body (unsigned shorts where they reach).
fn write_indices(bin: &mut Bin, low: &Rig) -> Result<usize, GltfError> {
    let n = low.mesh.vertex_count();
    let triangles = &low.mesh.triangles;
    if triangles.is_empty() || triangles.iter().flatten().any(|&i| i as usize >= n) {
        return Err(GltfError::Mesh("the low-detail body has no triangles or a bad index".into()));
    }
    let (bytes, component_type): (Vec<u8>, u32) = if n <= usize::from(u16::MAX) {
        (triangles.iter().flatten().flat_map(|&i| (i as u16).to_le_bytes()).collect(), UNSIGNED_SHORT)
    } else {
        (triangles.iter().flatten().flat_map(|i| i.to_le_bytes()).collect(), UNSIGNED_INT)
    };
    let layout = Packed {
        component_type,
        count: triangles.len() * 3,
        kind: "SCALAR",
        normalized: false,
        target: Some(ELEMENT_ARRAY_BUFFER),
        stride: None,
        bounds: None,
    };
    Ok(bin.packed(&bytes, &layout))
}

/// Skins `pose` into `low` and writes it quantised (see the module doc).
fn bake(
    bin: &mut Bin,
    low: &Rig,
    pose: &Pose,
    scratch: &mut (Vec<Mat4>, Vec<Vec3>, Vec<Vec3>),
) -> Result<Baked, GltfError> {
    let (palette, positions, normals) = scratch;
    low.skin(pose, palette, positions, normals).map_err(|e| GltfError::Mesh(e.to_string()))?;
    if positions.iter().any(|p| !p.is_finite()) {
        return Err(GltfError::Mesh("a baked crowd pose is not finite".into()));
    }
    let max_abs_m = positions.iter().map(|p| p.abs().max_element()).fold(0.0, f32::max);
    let unit_m = position_unit_m(max_abs_m);
    let mut bytes = Vec::with_capacity(positions.len() * 8);
    let mut units = Vec::with_capacity(positions.len() * 3);
    for p in positions.iter() {
        for c in (*p / unit_m).round().to_array() {
            let s = c.clamp(-32767.0, 32767.0) as i16;
            units.push(f32::from(s));
            bytes.extend_from_slice(&s.to_le_bytes());
        }
        bytes.extend_from_slice(&[0, 0]);
    }
    let layout = Packed {
        component_type: SHORT,
        count: positions.len(),
        kind: "VEC3",
        normalized: false,
        target: Some(ARRAY_BUFFER),
        stride: Some(8),
        bounds: Some(component_bounds(&units, 3)),
    };
    let position = bin.packed(&bytes, &layout);
    let mut bytes = Vec::with_capacity(normals.len() * 4);
    for v in normals.iter() {
        let v = finite_or(*v, Vec3::Y).try_normalize().unwrap_or(Vec3::Y);
        bytes.extend(v.to_array().map(|c| (c * 127.0).round().clamp(-127.0, 127.0) as i8 as u8));
        bytes.push(0);
    }
    let layout = Packed {
        component_type: BYTE,
        count: normals.len(),
        kind: "VEC3",
        normalized: true,
        target: Some(ARRAY_BUFFER),
        stride: Some(4),
        bounds: None,
    };
    let normal = bin.packed(&bytes, &layout);
    Ok(Baked { position, normal, unit_m })
}

/// Instance translations (in `unit_m` units) and rotations of one (pose, group) in one frame.
#[derive(Default)]
struct Batch {
    translations: Vec<f32>,
    rotations: Vec<Quat>,
}

/// Writes the instance accessors of `batch` (shared when the same bytes were written before):
/// (TRANSLATION, ROTATION).
fn write_instances(bin: &mut Bin, batch: &Batch) -> (usize, usize) {
    let count = batch.rotations.len();
    let bytes: Vec<u8> = batch.translations.iter().flat_map(|v| v.to_le_bytes()).collect();
    let translation = bin.shared("instance translation", &bytes, |bin| {
        let layout = Packed {
            component_type: FLOAT,
            count,
            kind: "VEC3",
            normalized: false,
            target: None,
            stride: None,
            bounds: None,
        };
        bin.packed(&bytes, &layout)
    });
    let rotation = shared_unit_rotations(bin, "instance rotation", batch.rotations.iter().copied());
    (translation, rotation)
}

/// The visibility of flipbook frame `k` of `frames` (STEP scale: on from its time to the
/// next frame's): the frame node's animation sampler.
fn add_visibility(scene: &mut Scene, bin: &mut Bin, node: usize, k: usize, frames: usize, crowd_fps: f64) {
    if frames <= 1 {
        return;
    }
    let t = |j: usize| (j as f64 / crowd_fps) as f32;
    let (times, output): (Vec<f32>, &[f32]) = if k == 0 {
        (vec![0.0, t(1)], &[1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    } else if k + 1 == frames {
        (vec![0.0, t(k)], &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
    } else {
        (vec![0.0, t(k), t(k + 1)], &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    };
    let bytes: Vec<u8> = output.iter().flat_map(|v| v.to_le_bytes()).collect();
    let output = bin.shared("visibility", &bytes, |bin| bin.floats(output, 3, "VEC3", None, false));
    let input = bin.floats(&times, 1, "SCALAR", None, true);
    scene.channels.push(json!({ "sampler": scene.samplers.len(), "target": { "node": node, "path": "scale" } }));
    scene.samplers.push(json!({ "input": input, "output": output, "interpolation": "STEP" }));
}

/// The crowd flipbook of performers `first..` (see the module doc); returns the number of
/// baked poses.
pub(super) fn write_crowd(
    scene: &mut Scene,
    bin: &mut Bin,
    input: &PlanGltfInput,
    first: usize,
    crowd_fps: f64,
    crowd_frames: usize,
) -> Result<usize, GltfError> {
    let crowd = input.crowd;
    let tempo = crowd.plan.clock.tempo;
    let n = crowd.plan.performers.len();
    let indices = write_indices(bin, input.low)?;
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
    let step_beats = tempo.beats_from_secs(1.0 / crowd_fps);
    let view = View { eye_in_world: Vec3::ZERO, full_within_m: 0.0, max_full: 0, coarse_beyond_m: f32::INFINITY };
    let mut frame = CrowdFrame::default();
    let mut baked: BTreeMap<PoseKey, Baked> = BTreeMap::new();
    let mut meshes: BTreeMap<(PoseKey, usize), usize> = BTreeMap::new();
    let mut scratch = (Vec::new(), Vec::new(), Vec::new());
    let mut pose = Pose::rest(&crowd.skeleton);
    for k in 0..crowd_frames {
        crowd.prepare(tempo.beats_from_secs(k as f64 / crowd_fps), &view, &mut frame);
        let mut batches: BTreeMap<(PoseKey, usize), Batch> = BTreeMap::new();
        for i in first..n {
            let pf = &frame.performers[i];
            let key = grid_key(crowd, frame.pose_key(pf.pose), step_beats);
            let shape = match baked.get(&key) {
                Some(b) => *b,
                None => {
                    let source = match key {
                        PoseKey::Dance(d, bits) => {
                            crowd.dance_pose_at(d, f64::from_bits(bits), &mut pose);
                            &pose
                        }
                        _ => &frame.poses[pf.pose],
                    };
                    let b = bake(bin, input.low, source, &mut scratch)?;
                    baked.insert(key, b);
                    b
                }
            };
            let (_, rotation, translation) = pf.world_from_pose.to_scale_rotation_translation();
            let batch = batches.entry((key, crowd.plan.performers[i].group)).or_default();
            batch.translations.extend_from_slice(&(translation / shape.unit_m).to_array());
            batch.rotations.push(rotation.normalize());
        }
        let mut children = Vec::with_capacity(batches.len());
        for ((key, group), batch) in batches {
            let shape = baked[&key];
            let next = scene.meshes.len();
            let mesh = *meshes.entry((key, group)).or_insert(next);
            if mesh == next {
                scene.meshes.push(json!({
                    "name": format!("crowd_pose{}_{}", next + 1, crowd.plan.groups[group].name),
                    "primitives": [{
                        "attributes": { "POSITION": shape.position, "NORMAL": shape.normal },
                        "indices": indices,
                        "material": group_material[group],
                        "mode": 4,
                    }],
                }));
            }
            let (translation, rotation) = write_instances(bin, &batch);
            children.push(scene.nodes.len());
            scene.nodes.push(json!({
                "name": format!("crowd_frame{k}_{}", crowd.plan.groups[group].name),
                "mesh": mesh,
                "scale": [shape.unit_m, shape.unit_m, shape.unit_m],
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
        add_visibility(scene, bin, node, k, crowd_frames, crowd_fps);
    }
    Ok(baked.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_units_are_powers_of_two_that_reach() {
        for m in [0.001f32, 0.5, 1.0, 1.9, 2.2, 30.0] {
            let u = position_unit_m(m);
            assert_eq!(u.log2().fract(), 0.0, "{u}");
            assert!(m / u <= 32_767.0, "{m} m in units of {u}");
            assert!(m < 0.01 || m / u > 8_000.0, "{m} m in units of {u} wastes precision");
        }
    }
}
