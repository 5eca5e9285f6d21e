//! glTF 2.0 binary (`.glb`) export: every dancer as a skinned mesh on its own tree of joint
//! nodes, and one animation holding each joint's rotation and the pelvis translation sampled
//! at a fixed frame rate (LINEAR). Written by hand: a JSON chunk (serde_json) and a BIN chunk.
//!
//! Units and axes are glTF's own: metres, +Y up, the dancer faces +Z at rest.

use glam::{Quat, Vec3};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use crate::body::rig::Rig;
use crate::pose::fk::Pose;
use crate::pose::limits::normalized_or_identity;
use crate::pose::skeleton::{JOINT_COUNT, JointId};

/// `glTF` in ASCII, little-endian: the first word of a GLB file.
pub const GLB_MAGIC: u32 = 0x4654_6C67;
/// Chunk type of the JSON chunk (`JSON`).
pub const CHUNK_JSON: u32 = 0x4E4F_534A;
/// Chunk type of the binary chunk (`BIN\0`).
pub const CHUNK_BIN: u32 = 0x004E_4942;

pub(super) const FLOAT: u32 = 5126;
pub(super) const BYTE: u32 = 5120;
pub(super) const SHORT: u32 = 5122;
pub(super) const UNSIGNED_SHORT: u32 = 5123;
pub(super) const UNSIGNED_INT: u32 = 5125;
pub(super) const ARRAY_BUFFER: u32 = 34962;
pub(super) const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// Base colours of the dancers' materials (linear RGBA), used in turn.
const DANCER_COLOURS: [[f32; 4]; 4] =
    [[0.80, 0.36, 0.22, 1.0], [0.20, 0.42, 0.78, 1.0], [0.30, 0.62, 0.30, 1.0], [0.70, 0.58, 0.20, 1.0]];

/// What to export. Every dancer uses `rig` (the poses must be poses of `rig.skeleton`).
#[derive(Clone, Copy, Debug)]
pub struct GltfInput<'a> {
    /// The body and skeleton shared by all dancers.
    pub rig: &'a Rig,
    /// Per dancer, its poses at `t_secs = frame / fps`; all dancers have the same frame count.
    pub dancer_frames: &'a [Vec<Pose>],
    /// Frames per second (finite, > 0).
    pub fps: f64,
    /// Name of the scene and the animation (e.g. the score's file name).
    pub title: &'a str,
}

/// Why a glTF file could not be written.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GltfError {
    /// There is no dancer, or no frame.
    #[error("nothing to export: {0}")]
    Empty(&'static str),
    /// The dancers have different frame counts.
    #[error("dancer {dancer} has {got} frames but dancer 1 has {expected}")]
    FrameCounts {
        /// 1-based dancer number.
        dancer: usize,
        /// Its frame count.
        got: usize,
        /// The first dancer's frame count.
        expected: usize,
    },
    /// The frame rate is not a finite positive number, or the frame times do not increase.
    #[error("bad frame rate {0} (frame times must increase)")]
    BadFps(f64),
    /// The mesh is inconsistent (array lengths, indices) or not finite.
    #[error("invalid mesh: {0}")]
    Mesh(String),
    /// The binary chunk would exceed the 4 GiB that GLB lengths can describe.
    #[error("the binary data would exceed 4 GiB")]
    TooLarge,
    /// Serialising the JSON chunk failed.
    #[error("JSON serialisation failed: {0}")]
    Json(String),
}

/// The binary chunk under construction, with its buffer views and accessors.
#[derive(Default)]
pub(super) struct Bin {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
    /// Accessors written by [`Bin::shared`]: (what it is, data length, hash of the data) →
    /// (accessor, data offset) of each with that key.
    shared: BTreeMap<(String, usize, u64), Vec<(usize, usize)>>,
}

impl Bin {
    /// Appends `data` as a new buffer view starting on a 4-byte boundary; returns its index.
    pub(super) fn view(&mut self, data: &[u8], target: Option<u32>) -> usize {
        self.strided_view(data, target, None)
    }

    /// [`Bin::view`] with a byte stride (vertex attributes whose elements are padded to 4 bytes).
    pub(super) fn strided_view(&mut self, data: &[u8], target: Option<u32>, stride: Option<usize>) -> usize {
        self.pad();
        let mut view = json!({ "buffer": 0, "byteOffset": self.bytes.len(), "byteLength": data.len() });
        if let Some(target) = target {
            view["target"] = json!(target);
        }
        if let Some(stride) = stride {
            view["byteStride"] = json!(stride);
        }
        self.bytes.extend_from_slice(data);
        self.views.push(view);
        self.views.len() - 1
    }

    /// The accessor `make` writes for `data`, written once: a later call with the same `what`
    /// (the accessor's use, type and layout) and the same bytes returns the first accessor.
    pub(super) fn shared(&mut self, what: &str, data: &[u8], make: impl FnOnce(&mut Bin) -> usize) -> usize {
        let mut hasher = std::hash::DefaultHasher::new();
        data.hash(&mut hasher);
        let key = (what.to_string(), data.len(), hasher.finish());
        if let Some(found) = self.shared.get(&key) {
            for &(accessor, at) in found {
                if self.bytes.get(at..at + data.len()) == Some(data) {
                    return accessor;
                }
            }
        }
        self.pad();
        let at = self.bytes.len();
        let accessor = make(self);
        self.shared.entry(key).or_default().push((accessor, at));
        accessor
    }

    pub(super) fn pad(&mut self) {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
    }

    /// Adds an accessor over a whole view; returns its index.
    pub(super) fn accessor(
        &mut self,
        view: usize,
        component_type: u32,
        count: usize,
        kind: &str,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> usize {
        let mut accessor = json!({ "bufferView": view, "componentType": component_type, "count": count, "type": kind });
        if let Some((min, max)) = min_max {
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    /// An accessor over a new view of `data` laid out as `layout` says; returns its index.
    pub(super) fn packed(&mut self, data: &[u8], layout: &Packed) -> usize {
        let view = self.strided_view(data, layout.target, layout.stride);
        let mut accessor = json!({
            "bufferView": view,
            "componentType": layout.component_type,
            "count": layout.count,
            "type": layout.kind,
        });
        if layout.normalized {
            accessor["normalized"] = json!(true);
        }
        if let Some((min, max)) = &layout.bounds {
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    /// A FLOAT accessor of `width` components per element (`kind` = SCALAR, VEC3, …), with
    /// min/max when asked.
    pub(super) fn floats(
        &mut self,
        values: &[f32],
        width: usize,
        kind: &str,
        target: Option<u32>,
        with_bounds: bool,
    ) -> usize {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        let bounds = with_bounds.then(|| component_bounds(values, width));
        self.accessor(view, FLOAT, values.len() / width.max(1), kind, bounds)
    }
}

/// How the elements of a [`Bin::packed`] accessor are laid out.
#[derive(Clone, Debug)]
pub(super) struct Packed {
    /// glTF component type (`BYTE`, `SHORT`, `FLOAT`, …).
    pub component_type: u32,
    /// Elements.
    pub count: usize,
    /// `SCALAR`, `VEC3`, `VEC4`, …
    pub kind: &'static str,
    /// Integers read as fractions of their range.
    pub normalized: bool,
    /// Buffer view target (vertex attributes, indices), if any.
    pub target: Option<u32>,
    /// Byte stride of the view, if its elements are padded.
    pub stride: Option<usize>,
    /// Per-component minimum and maximum, where glTF asks for them.
    pub bounds: Option<(Vec<f32>, Vec<f32>)>,
}

/// Per-component minimum and maximum of interleaved `values` with `width` components.
pub(super) fn component_bounds(values: &[f32], width: usize) -> (Vec<f32>, Vec<f32>) {
    let mut min = vec![f32::INFINITY; width];
    let mut max = vec![f32::NEG_INFINITY; width];
    for element in values.chunks_exact(width.max(1)) {
        for ((lo, hi), &v) in min.iter_mut().zip(max.iter_mut()).zip(element) {
            *lo = lo.min(v);
            *hi = hi.max(v);
        }
    }
    (min, max)
}

/// Finite copy of `v`, or `fallback`.
pub(super) fn finite_or(v: Vec3, fallback: Vec3) -> Vec3 {
    if v.is_finite() { v } else { fallback }
}

/// The mesh accessors shared by every dancer's primitive: (POSITION, NORMAL, JOINTS_0,
/// WEIGHTS_0, indices).
pub(super) fn write_mesh(bin: &mut Bin, rig: &Rig) -> Result<[usize; 5], GltfError> {
    let mesh = &rig.mesh;
    let n = mesh.vertex_count();
    if n == 0 || mesh.triangles.is_empty() {
        return Err(GltfError::Mesh("no vertices or no triangles".into()));
    }
    if mesh.normals_in_model.len() != n || rig.influences.len() != n {
        return Err(GltfError::Mesh(format!(
            "{n} positions, {} normals, {} influences",
            mesh.normals_in_model.len(),
            rig.influences.len()
        )));
    }
    if mesh.triangles.iter().flatten().any(|&i| i as usize >= n) {
        return Err(GltfError::Mesh("triangle index out of range".into()));
    }
    if mesh.positions_in_model.iter().any(|p| !p.is_finite()) {
        return Err(GltfError::Mesh("non-finite vertex position".into()));
    }
    let positions: Vec<f32> = mesh.positions_in_model.iter().flat_map(|p| p.to_array()).collect();
    let normals: Vec<f32> = mesh
        .normals_in_model
        .iter()
        .flat_map(|v| finite_or(*v, Vec3::Y).try_normalize().unwrap_or(Vec3::Y).to_array())
        .collect();
    let mut joints = Vec::with_capacity(n * 8);
    let mut weights = Vec::with_capacity(n * 4);
    for (v, inf) in rig.influences.iter().enumerate() {
        if inf.joints.iter().any(|&j| usize::from(j) >= JOINT_COUNT)
            || inf.weights.iter().any(|w| !w.is_finite() || *w < 0.0)
        {
            return Err(GltfError::Mesh(format!("vertex {v} has a joint index or weight out of range")));
        }
        joints.extend(inf.joints.iter().flat_map(|j| j.to_le_bytes()));
        weights.extend_from_slice(&inf.weights);
    }
    let indices: Vec<u8> = mesh.triangles.iter().flatten().flat_map(|i| i.to_le_bytes()).collect();
    let position = bin.floats(&positions, 3, "VEC3", Some(ARRAY_BUFFER), true);
    let normal = bin.floats(&normals, 3, "VEC3", Some(ARRAY_BUFFER), false);
    let joints_view = bin.view(&joints, Some(ARRAY_BUFFER));
    let joints = bin.accessor(joints_view, UNSIGNED_SHORT, n, "VEC4", None);
    let weights = bin.floats(&weights, 4, "VEC4", Some(ARRAY_BUFFER), false);
    let index_view = bin.view(&indices, Some(ELEMENT_ARRAY_BUFFER));
    let indices = bin.accessor(index_view, UNSIGNED_INT, mesh.triangles.len() * 3, "SCALAR", None);
    Ok([position, normal, joints, weights, indices])
}

/// Checks the input and returns the common frame count.
fn check_input(input: &GltfInput) -> Result<usize, GltfError> {
    let first = input.dancer_frames.first().ok_or(GltfError::Empty("no dancers"))?;
    let frames = first.len();
    if frames == 0 {
        return Err(GltfError::Empty("no frames"));
    }
    if let Some((i, d)) = input.dancer_frames.iter().enumerate().find(|(_, d)| d.len() != frames) {
        return Err(GltfError::FrameCounts { dancer: i + 1, got: d.len(), expected: frames });
    }
    if !(input.fps.is_finite() && input.fps > 0.0) {
        return Err(GltfError::BadFps(input.fps));
    }
    Ok(frames)
}

/// The JSON arrays of a scene under construction.
#[derive(Default)]
pub(super) struct Scene {
    pub nodes: Vec<Value>,
    pub scene_nodes: Vec<usize>,
    pub skins: Vec<Value>,
    pub meshes: Vec<Value>,
    pub materials: Vec<Value>,
    pub samplers: Vec<Value>,
    pub channels: Vec<Value>,
}

/// Accessors every dancer of one rig shares: the mesh's (POSITION, NORMAL, JOINTS_0,
/// WEIGHTS_0, indices), the inverse bind matrices and the frame times.
#[derive(Clone, Copy)]
pub(super) struct Shared {
    pub mesh: [usize; 5],
    pub ibm: usize,
    pub times: usize,
}

/// Writes `rig`'s mesh and inverse bind matrices: (mesh accessors, inverse bind matrices).
pub(super) fn rig_accessors(bin: &mut Bin, rig: &Rig) -> Result<([usize; 5], usize), GltfError> {
    let mesh = write_mesh(bin, rig)?;
    let ibm: Vec<f32> = rig.joint_from_model_at_bind.iter().flat_map(|m| m.to_cols_array()).collect();
    Ok((mesh, bin.floats(&ibm, 16, "MAT4", None, false)))
}

/// Writes `rig`'s mesh and inverse bind matrices, and `frames` frame times at `fps`.
pub(super) fn shared_accessors(bin: &mut Bin, rig: &Rig, frames: usize, fps: f64) -> Result<Shared, GltfError> {
    let (mesh, ibm) = rig_accessors(bin, rig)?;
    let times = frame_times(frames, fps)?;
    let times = bin.floats(&times, 1, "SCALAR", None, true);
    Ok(Shared { mesh, ibm, times })
}

/// The times of `frames` frames at `fps`, seconds; an error unless they increase strictly in f32.
pub(super) fn frame_times(frames: usize, fps: f64) -> Result<Vec<f32>, GltfError> {
    let times: Vec<f32> = (0..frames).map(|k| (k as f64 / fps) as f32).collect();
    if times.windows(2).any(|w| w[1] <= w[0]) || times.iter().any(|t| !t.is_finite()) {
        return Err(GltfError::BadFps(fps));
    }
    Ok(times)
}

/// Adds one dancer: its 23 joint nodes in [`JointId`] order (named `<label>_<BVH name>`, rest
/// translations from the skeleton, identity rest rotations), then its skinned mesh node (a
/// scene root, as glTF asks), its skin, mesh and material of `colour`, and the animation
/// channels of `poses` (pelvis translation, every joint's rotation, LINEAR).
pub(super) fn add_dancer(
    scene: &mut Scene,
    bin: &mut Bin,
    rig: &Rig,
    shared: Shared,
    label: &str,
    colour: [f32; 4],
    poses: &[Pose],
) {
    let skeleton = &rig.skeleton;
    let base = add_dancer_nodes(scene, rig, shared.mesh, shared.ibm, label, colour);
    let joint_node = |joint: JointId| base + joint.index();
    // Pelvis translation, then every joint's rotation (quaternion signs kept continuous so
    // LINEAR interpolation takes the short way).
    let fallback = skeleton.rest_offset(JointId::Pelvis);
    let pelvis: Vec<f32> = poses.iter().flat_map(|p| finite_or(p.pelvis_in_world, fallback).to_array()).collect();
    let output = bin.floats(&pelvis, 3, "VEC3", None, false);
    scene.channels.push(
        json!({ "sampler": scene.samplers.len(), "target": { "node": joint_node(JointId::Pelvis), "path": "translation" } }),
    );
    scene.samplers.push(json!({ "input": shared.times, "output": output, "interpolation": "LINEAR" }));
    for joint in JointId::ALL {
        let rotations: Vec<f32> = sign_continuous_rotations(poses, joint).iter().flat_map(|q| q.to_array()).collect();
        let output = bin.floats(&rotations, 4, "VEC4", None, false);
        scene.channels.push(
            json!({ "sampler": scene.samplers.len(), "target": { "node": joint_node(joint), "path": "rotation" } }),
        );
        scene.samplers.push(json!({ "input": shared.times, "output": output, "interpolation": "LINEAR" }));
    }
}

/// `poses`' local rotations of `joint`, unit and sign-continuous (LINEAR takes the short way).
pub(super) fn sign_continuous_rotations(poses: &[Pose], joint: JointId) -> Vec<Quat> {
    let mut previous = Quat::IDENTITY;
    poses
        .iter()
        .map(|pose| {
            let mut q = normalized_or_identity(pose.local(joint));
            if q.dot(previous) < 0.0 {
                q = -q;
            }
            previous = q;
            q
        })
        .collect()
}

/// Adds one dancer's joint nodes, skinned mesh node, skin, mesh and material (see
/// [`add_dancer`]); returns the index of its first joint node.
pub(super) fn add_dancer_nodes(
    scene: &mut Scene,
    rig: &Rig,
    mesh: [usize; 5],
    ibm: usize,
    label: &str,
    colour: [f32; 4],
) -> usize {
    let skeleton = &rig.skeleton;
    let base = scene.nodes.len();
    let joint_node = |joint: JointId| base + joint.index();
    let [position, normal, joints_0, weights_0, indices] = mesh;
    for joint in JointId::ALL {
        let rest = skeleton.rest_offset(joint);
        let mut node = json!({ "name": format!("{label}_{}", joint.name()), "translation": rest.to_array() });
        let children: Vec<usize> =
            JointId::ALL.iter().filter(|c| c.parent() == Some(joint)).map(|&c| joint_node(c)).collect();
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        scene.nodes.push(node);
    }
    let (mesh, skin, material) = (scene.meshes.len(), scene.skins.len(), scene.materials.len());
    scene.nodes.push(json!({ "name": label, "mesh": mesh, "skin": skin }));
    scene.scene_nodes.extend([joint_node(JointId::Pelvis), base + JOINT_COUNT]);
    scene.skins.push(json!({
        "name": format!("{label}_skin"),
        "inverseBindMatrices": ibm,
        "skeleton": joint_node(JointId::Pelvis),
        "joints": JointId::ALL.iter().map(|&j| joint_node(j)).collect::<Vec<_>>(),
    }));
    scene.materials.push(json!({
        "name": format!("{label}_material"),
        "pbrMetallicRoughness": { "baseColorFactor": colour, "metallicFactor": 0.0, "roughnessFactor": 0.7 },
    }));
    scene.meshes.push(json!({
        "name": format!("{label}_{}", rig.name),
        "primitives": [{
            "attributes": { "POSITION": position, "NORMAL": normal, "JOINTS_0": joints_0, "WEIGHTS_0": weights_0 },
            "indices": indices,
            "material": material,
            "mode": 4,
        }],
    }));

    base
}

/// The GLB of `scene` (one scene, one animation, both called `title`), declaring
/// `extensions_used` and, of those, `extensions_required`.
pub(super) fn finish(
    scene: Scene,
    mut bin: Bin,
    title: &str,
    extensions_used: &[&str],
    extensions_required: &[&str],
) -> Result<Vec<u8>, GltfError> {
    bin.pad();
    if u32::try_from(bin.bytes.len()).is_err() {
        return Err(GltfError::TooLarge);
    }
    let mut document = json!({
        "asset": { "version": "2.0", "generator": concat!("labanplay ", env!("CARGO_PKG_VERSION")) },
        "scene": 0,
        "scenes": [{ "name": title, "nodes": scene.scene_nodes }],
        "nodes": scene.nodes,
        "skins": scene.skins,
        "meshes": scene.meshes,
        "materials": scene.materials,
        "animations": [{ "name": title, "samplers": scene.samplers, "channels": scene.channels }],
        "accessors": bin.accessors,
        "bufferViews": bin.views,
        "buffers": [{ "byteLength": bin.bytes.len() }],
    });
    if !extensions_used.is_empty() {
        document["extensionsUsed"] = json!(extensions_used);
    }
    if !extensions_required.is_empty() {
        document["extensionsRequired"] = json!(extensions_required);
    }
    // Empty arrays are invalid glTF: leave them out.
    if let Some(doc) = document.as_object_mut() {
        if doc["skins"].as_array().is_some_and(Vec::is_empty) {
            doc.remove("skins");
        }
        if doc["animations"][0]["channels"].as_array().is_some_and(Vec::is_empty) {
            doc.remove("animations");
        }
    }
    let json = serde_json::to_vec(&document).map_err(|e| GltfError::Json(e.to_string()))?;
    glb_container(json, &bin.bytes)
}

/// Writes the whole scene as a GLB file (see the module doc). Node layout: for dancer `d`
/// (0-based), nodes `24·d .. 24·d + 22` are its joints in [`JointId`] order (named
/// `dancerN_<BVH name>`, rest translations from the skeleton, identity rest rotations) and node
/// `24·d + 23` its skinned mesh (a scene root, as glTF asks). All dancers share the mesh
/// accessors and one inverse-bind-matrix accessor; each has its own skin, mesh and material.
pub fn write_glb(input: &GltfInput) -> Result<Vec<u8>, GltfError> {
    let frames = check_input(input)?;
    let mut bin = Bin::default();
    let shared = shared_accessors(&mut bin, input.rig, frames, input.fps)?;
    let mut scene = Scene::default();
    for (d, poses) in input.dancer_frames.iter().enumerate() {
        let colour = DANCER_COLOURS.get(d % DANCER_COLOURS.len()).copied().unwrap_or([0.8; 4]);
        add_dancer(&mut scene, &mut bin, input.rig, shared, &format!("dancer{}", d + 1), colour, poses);
    }
    finish(scene, bin, input.title, &[], &[])
}

/// Wraps a JSON chunk and a BIN chunk in the GLB container: 12-byte header, chunks padded to
/// 4 bytes (JSON with spaces, BIN with zeros).
pub(super) fn glb_container(mut json: Vec<u8>, bin: &[u8]) -> Result<Vec<u8>, GltfError> {
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let bin_padded = bin.len().div_ceil(4) * 4;
    let total = 12 + 8 + json.len() + 8 + bin_padded;
    let word = |n: usize| u32::try_from(n).map(u32::to_le_bytes).map_err(|_| GltfError::TooLarge);
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&GLB_MAGIC.to_le_bytes());
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&word(total)?);
    out.extend_from_slice(&word(json.len())?);
    out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(&word(bin_padded)?);
    out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
    out.extend_from_slice(bin);
    out.resize(total, 0);
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn container_is_padded_and_lengths_add_up() {
        let glb = glb_container(b"{\"a\":1}".to_vec(), &[1, 2, 3, 4, 5]).unwrap();
        assert_eq!(&glb[0..4], b"glTF");
        assert_eq!(u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize, glb.len());
        let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
        assert_eq!(json_len, 8);
        assert_eq!(&glb[20..28], b"{\"a\":1} ");
        assert_eq!(u32::from_le_bytes(glb[28..32].try_into().unwrap()), 8);
        assert_eq!(&glb[32..36], b"BIN\0");
        assert_eq!(&glb[36..], &[1, 2, 3, 4, 5, 0, 0, 0]);
        assert!(glb.len().is_multiple_of(4));
    }

    #[test]
    fn bounds_are_per_component() {
        let (min, max) = component_bounds(&[1.0, -2.0, 3.0, -1.0, 5.0, 0.0], 3);
        assert_eq!((min, max), (vec![-1.0, -2.0, 0.0], vec![1.0, 5.0, 3.0]));
    }
}
