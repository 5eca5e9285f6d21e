//! Tests of the body module on the four built-in dancers: closed 2-manifold meshes of the
//! right size and pose, bone-heat weights (normalised, local, rigid away from joints), exact
//! rest-pose skinning and golden checksums of the generated meshes.

#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use std::sync::OnceLock;

use glam::{Mat4, Quat, Vec3};
use labanplay::body::heat::{BoneSegment, HeatParams, heat_weights, nearest_bone};
use labanplay::body::implicit::{BodyShape, SegmentVolume, VolumeShape};
use labanplay::body::lbs::{VertexInfluences, skin, skinning_palette};
use labanplay::body::mesh::TriMesh;
use labanplay::body::models::{JOINT_COUNT, JOINT_PARENTS, ModelSpec, builtin_models, joint};
use labanplay::body::polygonise::{PolygoniseParams, polygonise};

struct Built {
    model: ModelSpec,
    mesh: TriMesh,
    weights: Vec<VertexInfluences>,
}

fn built() -> &'static [Built] {
    static BUILT: OnceLock<Vec<Built>> = OnceLock::new();
    BUILT.get_or_init(|| {
        builtin_models()
            .into_iter()
            .map(|model| {
                let mesh = model.build_mesh(&PolygoniseParams::default()).unwrap();
                let weights = heat_weights(&mesh, &model.bones, &HeatParams::default()).unwrap();
                Built { model, mesh, weights }
            })
            .collect()
    })
}

/// Palette of a pose given by local rotations about the joints' rest positions (bind frames
/// are pure translations to the rest positions, as in the built-in models).
fn pose_palette(rest: &[Vec3], rotations: &[(usize, Quat)]) -> Vec<Mat4> {
    let mut world = vec![Mat4::IDENTITY; rest.len()];
    for j in 0..rest.len() {
        let rot = rotations.iter().find(|(k, _)| *k == j).map_or(Quat::IDENTITY, |(_, q)| *q);
        let (parent_world, offset) = match JOINT_PARENTS[j] {
            Some(p) => (world[p], rest[j] - rest[p]),
            None => (Mat4::IDENTITY, rest[j]),
        };
        world[j] = parent_world * Mat4::from_translation(offset) * Mat4::from_quat(rot);
    }
    world.iter().zip(rest).map(|(w, r)| *w * Mat4::from_translation(-*r)).collect()
}

#[test]
fn models_are_named_and_shaped_as_specified() {
    let models = builtin_models();
    let names: Vec<&str> = models.iter().map(|m| m.name).collect();
    assert_eq!(names, ["woman-modern", "woman-classical", "man-modern", "man-classical"]);
    let by_name = |n: &str| models.iter().find(|m| m.name == n).unwrap();
    let leg = |m: &ModelSpec| m.joint_rest_in_model[joint::HIP_L].y / m.height_m;
    let shoulders =
        |m: &ModelSpec| m.joint_rest_in_model[joint::SHOULDER_L].x - m.joint_rest_in_model[joint::SHOULDER_R].x;
    for sex in ["woman", "man"] {
        let (modern, classical) = (by_name(&format!("{sex}-modern")), by_name(&format!("{sex}-classical")));
        assert!(leg(classical) > leg(modern) + 0.01, "classical builds have longer legs");
        assert!(classical.height_m > modern.height_m);
    }
    for build in ["modern", "classical"] {
        let (woman, man) = (by_name(&format!("woman-{build}")), by_name(&format!("man-{build}")));
        assert!(man.height_m > woman.height_m && shoulders(man) > shoulders(woman) + 0.03);
    }
    for m in &models {
        assert_eq!(m.joint_rest_in_model.len(), JOINT_COUNT);
        // Dancer's left is +X, the feet point to +Z.
        assert!(m.joint_rest_in_model[joint::SHOULDER_L].x > 0.1 && m.joint_rest_in_model[joint::HIP_R].x < -0.05);
        assert!(m.joint_rest_in_model[joint::BALL_L].z > m.joint_rest_in_model[joint::ANKLE_L].z + 0.1);
        for b in &m.bones {
            assert_eq!(b.parent_joint, JOINT_PARENTS[b.joint]);
        }
    }
}

#[test]
fn meshes_are_closed_genus_zero_manifolds_of_5k_to_30k_vertices() {
    for b in built() {
        let report = b.mesh.topology();
        assert!(report.is_closed_manifold(), "{}: {report:?}", b.model.name);
        // One sphere-like surface: no handle where an arm touches the torso, no loose pieces.
        assert_eq!((report.components, report.euler_characteristic), (1, 2), "{}", b.model.name);
        assert!((5_000..=30_000).contains(&b.mesh.vertex_count()), "{}: {}", b.model.name, b.mesh.vertex_count());
        assert_eq!(b.mesh.normals_in_model.len(), b.mesh.vertex_count());
    }
}

#[test]
fn meshes_stand_on_the_floor_with_outward_normals_and_body_volume() {
    for b in built() {
        let name = b.model.name;
        let (lo, hi) = b.mesh.bounds_in_model().unwrap();
        assert!((hi.y - b.model.height_m).abs() < 0.01 * b.model.height_m, "{name}: top {}", hi.y);
        assert!(lo.y.abs() < 0.005, "{name}: soles at {}", lo.y);
        assert!((lo.x + hi.x).abs() < 0.01, "{name}: not centred in x");
        // Facing +Z: the foremost point is a toe.
        let front = b.mesh.positions_in_model.iter().max_by(|a, c| a.z.total_cmp(&c.z)).unwrap();
        assert!(front.y < 0.05 * b.model.height_m, "{name}: foremost point {front:?}");
        // A human body of this height has a volume of roughly 45–100 litres.
        let litres = b.mesh.signed_volume_m3() * 1000.0;
        assert!((40.0..110.0).contains(&litres), "{name}: {litres} l");
        for (i, n) in b.mesh.normals_in_model.iter().enumerate() {
            assert!((n.length() - 1.0).abs() < 1e-4, "{name}: normal {i}");
        }
        // No folded-over triangle: each face agrees with its corners' smooth normals.
        for tri in &b.mesh.triangles {
            let [p0, p1, p2] = b.mesh.triangle_corners(*tri).unwrap();
            let face = (p1 - p0).cross(p2 - p0);
            let smooth: Vec3 = tri.iter().map(|&v| b.mesh.normals_in_model[v as usize]).sum();
            assert!(face.dot(smooth) > 0.0, "{name}: triangle {tri:?} folded");
        }
    }
}

#[test]
fn joints_and_bones_lie_inside_the_body() {
    for b in built() {
        for (j, p) in b.model.joint_rest_in_model.iter().enumerate() {
            let field = b.model.shape.field_m(*p);
            assert!(field < -0.005, "{}: joint {j} at {p:?} has field {field}", b.model.name);
        }
        for bone in &b.model.bones {
            for t in [0.25, 0.5, 0.75, 1.0] {
                let p = bone.head_in_model.lerp(bone.tail_in_model, t);
                assert!(
                    b.model.shape.field_m(p) < 0.0,
                    "{}: bone of joint {} leaves the body",
                    b.model.name,
                    bone.joint
                );
            }
        }
    }
}

/// FNV-1a over the positions rounded to 0.1 mm.
fn position_hash(mesh: &TriMesh) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for p in &mesh.positions_in_model {
        for c in p.to_array() {
            for byte in ((c * 1e4).round() as i32).to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    hash
}

#[test]
fn generated_meshes_match_golden_checksums() {
    // Update deliberately when the generator or the models change (print with --nocapture).
    let golden: [(&str, usize, usize, u64); 4] = [
        ("woman-modern", 17922, 35840, 0xb0472788aae38ffb),
        ("woman-classical", 17476, 34948, 0x3775cf6a717ffbe3),
        ("man-modern", 21998, 43992, 0x3e36a2c98826a328),
        ("man-classical", 22116, 44228, 0x84c607cd8332393f),
    ];
    let mut mismatches = Vec::new();
    for (b, (name, vertices, triangles, hash)) in built().iter().zip(golden) {
        let got = (b.model.name, b.mesh.vertex_count(), b.mesh.triangle_count(), position_hash(&b.mesh));
        println!("(\"{}\", {}, {}, {:#018x}),", got.0, got.1, got.2, got.3);
        if got != (name, vertices, triangles, hash) {
            mismatches.push(got);
        }
    }
    assert!(mismatches.is_empty(), "meshes changed: {mismatches:?}");
}

#[test]
fn generation_is_deterministic() {
    let model = &builtin_models()[1];
    let a = model.build_mesh(&PolygoniseParams::default()).unwrap();
    let first = &built()[1];
    assert_eq!(a, first.mesh);
    let w = heat_weights(&a, &model.bones, &HeatParams::default()).unwrap();
    assert_eq!(w, first.weights);
}

#[test]
fn weights_are_non_negative_sorted_and_sum_to_one() {
    for b in built() {
        assert_eq!(b.weights.len(), b.mesh.vertex_count());
        for (v, inf) in b.weights.iter().enumerate() {
            let sum: f32 = inf.weights.iter().sum();
            assert!((sum - 1.0).abs() < 1e-5, "{}: vertex {v} sums to {sum}", b.model.name);
            assert!(inf.weights.iter().all(|&w| (0.0..=1.0).contains(&w)));
            assert!(inf.weights.windows(2).all(|w| w[0] >= w[1]), "{inf:?}");
            assert!(inf.joints.iter().all(|&j| usize::from(j) < JOINT_COUNT));
            for (j, w) in inf.joints.iter().zip(inf.weights) {
                assert!(w > 0.0 || *j == 0, "unused slots name joint 0");
            }
        }
    }
}

fn adjacent(a: usize, b: usize) -> bool {
    a == b || JOINT_PARENTS[a] == Some(b) || JOINT_PARENTS[b] == Some(a)
}

/// The joint of the nearest bone whose closest point is visible from `p`: the implicit
/// field stays below `margin_m` along the segment, skipping its first 8 mm (the smoothed
/// mesh lies within a few mm of the zero set). Independent of the mesh BVH used by the
/// solver. `None` if no bone is visible.
fn nearest_visible_joint(shape: &BodyShape, bones: &[BoneSegment], p: Vec3, margin_m: f32) -> Option<usize> {
    let mut order: Vec<&BoneSegment> = bones.iter().collect();
    order.sort_by(|a, b| a.distance_m(p).total_cmp(&b.distance_m(p)));
    order.into_iter().find_map(|bone| {
        let q = bone.closest_point(p);
        let length_m = (q - p).length();
        let inside = |k: usize| {
            let t = k as f32 / 40.0;
            t * length_m < 0.008 || shape.field_m(p.lerp(q, t)) < margin_m
        };
        (0..=40).all(inside).then_some(bone.joint)
    })
}

#[test]
fn dominant_joint_is_the_nearest_visible_bone_or_adjacent_to_it() {
    // Visibility is only defined up to the mesh's distance from the implicit surface, so a
    // segment grazing a crease (armpit, groin) may count either way: a vertex passes if its
    // dominant joint fits the nearest visible bone under a strict (−3 mm) or lenient (+3 mm)
    // inside test. Vertices that see no bone under the strict test (< 1 %) are skipped.
    for b in built() {
        let mut owned = [0usize; JOINT_COUNT];
        let mut unseen = 0;
        let mut misfits = Vec::new();
        for (v, (p, inf)) in b.mesh.positions_in_model.iter().zip(&b.weights).enumerate() {
            let dominant = inf.dominant_joint();
            owned[dominant] += 1;
            let strict = nearest_visible_joint(&b.model.shape, &b.model.bones, *p, -0.003);
            let lenient = nearest_visible_joint(&b.model.shape, &b.model.bones, *p, 0.003);
            if strict.is_none() {
                // Deep in a crease (armpit, groin): visibility is ill-defined there.
                unseen += 1;
                continue;
            }
            // On a transition between two joints (weights within 0.1 of each other) either
            // of the co-dominant joints may fit.
            let co_dominant = |n: usize| {
                inf.joints
                    .iter()
                    .zip(inf.weights)
                    .any(|(&j, w)| w >= inf.weights[0] - 0.1 && adjacent(n, usize::from(j)))
            };
            let fits = |n: Option<usize>| n.is_some_and(co_dominant);
            if !(fits(strict) || fits(lenient)) {
                misfits.push(format!(
                    "{v} at {p:?}: nearest visible {strict:?} / {lenient:?}, dominant {dominant} {inf:?}"
                ));
            }
        }
        println!("{}: {} misfits, {unseen} in creases", b.model.name, misfits.len());
        for m in misfits.iter().take(20) {
            println!("  {m}");
        }
        assert!(misfits.is_empty(), "{}: {} vertices, e.g. {:?}", b.model.name, misfits.len(), misfits.first());
        assert!(unseen * 100 < b.mesh.vertex_count(), "{}: {unseen} vertices see no bone", b.model.name);
        // The plain nearest bone (through air) agrees for the vast majority of vertices.
        let plain = b.mesh.positions_in_model.iter().zip(&b.weights);
        let agree = plain
            .filter(|(p, inf)| adjacent(nearest_bone(&b.model.bones, **p).unwrap().joint, inf.dominant_joint()))
            .count();
        assert!(agree as f32 > 0.99 * b.mesh.vertex_count() as f32, "{}: {agree}", b.model.name);
        // Every joint carries some skin (down to the toes and the head).
        assert!(owned.iter().all(|&n| n > 0), "{}: {owned:?}", b.model.name);
    }
}

#[test]
fn identity_palette_reproduces_the_bind_mesh_exactly() {
    let b = &built()[0];
    let palette = vec![Mat4::IDENTITY; JOINT_COUNT];
    let (mut p, mut n) = (Vec::new(), Vec::new());
    skin(&b.mesh.positions_in_model, &b.mesh.normals_in_model, &b.weights, &palette, &mut p, &mut n).unwrap();
    assert_eq!(p, b.mesh.positions_in_model);
    assert_eq!(n, b.mesh.normals_in_model);
    // The rest pose built by forward kinematics is the identity up to rounding, and so is
    // the palette of the bind matrices against themselves.
    let rest = pose_palette(&b.model.joint_rest_in_model, &[]);
    assert!(rest.iter().all(|m| m.abs_diff_eq(Mat4::IDENTITY, 1e-6)));
    let bind = b.model.model_from_joint_at_bind();
    let mut palette = Vec::new();
    skinning_palette(&bind, &bind, &mut palette).unwrap();
    assert!(palette.iter().all(|m| m.abs_diff_eq(Mat4::IDENTITY, 1e-5)));
}

/// One joint bent by `angle_rad` about `axis`; checks every vertex against the rigid
/// reference (the vertex carried by its dominant joint alone).
///
/// - Everywhere: only the bent joint's subtree rotates, so the blend can differ from the
///   rigid reference by at most `(1 − w_dominant) · 2 sin(θ/2) · |p − joint|`.
/// - Away from the joint (farther than 3 R, R = the limb's radius at the joint, i.e. the
///   joint's depth below the surface): heat weights must have decayed, so the vertex moves
///   at most 0.1 R from rigid (a few mm).
fn check_bend(bent: usize, axis: Vec3, angle_rad: f32) {
    for b in built() {
        let centre = b.model.joint_rest_in_model[bent];
        let radius_m = -b.model.shape.field_m(centre);
        let palette = pose_palette(&b.model.joint_rest_in_model, &[(bent, Quat::from_axis_angle(axis, angle_rad))]);
        let (mut p, mut n) = (Vec::new(), Vec::new());
        skin(&b.mesh.positions_in_model, &b.mesh.normals_in_model, &b.weights, &palette, &mut p, &mut n).unwrap();
        let chord = 2.0 * (angle_rad * 0.5).sin().abs();
        let mut worst_far = 0.0f32;
        let mut worst_at = (Vec3::ZERO, VertexInfluences::default());
        for ((rest, skinned), inf) in b.mesh.positions_in_model.iter().zip(&p).zip(&b.weights) {
            let rigid = palette[inf.dominant_joint()].transform_point3(*rest);
            let deviation = (*skinned - rigid).length();
            let distance = (*rest - centre).length();
            let bound = (1.0 - inf.weights[0]) * chord * distance + 1e-5;
            assert!(deviation <= bound, "{}: {rest:?} deviates {deviation} > {bound}", b.model.name);
            if distance > 3.0 * radius_m && deviation > worst_far {
                worst_far = deviation;
                worst_at = (*rest, *inf);
            }
        }
        println!(
            "{} joint {bent}: R = {radius_m:.3} m, worst beyond 3R = {worst_far:.4} m at {worst_at:?}",
            b.model.name
        );
        assert!(
            worst_far <= 0.1 * radius_m,
            "{}: joint {bent}: {worst_far} m beyond 3R (R = {radius_m})",
            b.model.name
        );
    }
}

#[test]
fn elbow_bent_90_degrees_is_rigid_away_from_the_elbow() {
    check_bend(joint::ELBOW_L, Vec3::X, -std::f32::consts::FRAC_PI_2);
}

#[test]
fn knee_bent_90_degrees_is_rigid_away_from_the_knee() {
    check_bend(joint::KNEE_R, Vec3::X, std::f32::consts::FRAC_PI_2);
}

#[test]
fn hip_flexed_90_degrees_is_rigid_away_from_the_hip() {
    check_bend(joint::HIP_L, Vec3::X, -std::f32::consts::FRAC_PI_2);
}

#[test]
fn two_bone_capsule_blends_smoothly_across_the_joint() {
    // A straight 1 m "limb" along +Y with a joint in the middle.
    let (a, m, e) = (Vec3::ZERO, Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 1.0, 0.0));
    let shape = BodyShape {
        volumes: vec![SegmentVolume {
            shape: VolumeShape::RoundCone { a_in_model: a, b_in_model: e, radius_a_m: 0.08, radius_b_m: 0.08 },
            blend_m: 0.0,
        }],
    };
    let mesh = polygonise(&shape, &PolygoniseParams { cell_m: 0.02, ..PolygoniseParams::default() }).unwrap();
    assert!(mesh.topology().is_closed_manifold());
    let bones = [
        BoneSegment { joint: 0, parent_joint: None, head_in_model: a, tail_in_model: m },
        BoneSegment { joint: 1, parent_joint: Some(0), head_in_model: m, tail_in_model: e },
    ];
    let weights = heat_weights(&mesh, &bones, &HeatParams::default()).unwrap();
    let weight_of = |inf: &VertexInfluences, j: u16| {
        inf.joints.iter().zip(inf.weights).filter(|(k, _)| **k == j).map(|(_, w)| w).sum::<f32>()
    };
    for (p, inf) in mesh.positions_in_model.iter().zip(&weights) {
        let w1 = weight_of(inf, 1);
        if (p.y - 0.5).abs() < 0.01 {
            assert!((w1 - 0.5).abs() < 0.15, "{p:?}: {w1}");
        }
        if p.y < 0.2 {
            assert!(w1 < 0.02, "{p:?}: {w1}");
        }
        if p.y > 0.8 {
            assert!(w1 > 0.98, "{p:?}: {w1}");
        }
    }
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let b = &built()[0];
    assert!(heat_weights(&b.mesh, &[], &HeatParams::default()).is_err());
    let mut broken = b.mesh.clone();
    broken.triangles.push([0, 1, u32::MAX]);
    assert!(heat_weights(&broken, &b.model.bones, &HeatParams::default()).is_err());
    let (mut p, mut n) = (Vec::new(), Vec::new());
    let short_palette = vec![Mat4::IDENTITY; 3];
    assert!(
        skin(&b.mesh.positions_in_model, &b.mesh.normals_in_model, &b.weights, &short_palette, &mut p, &mut n).is_err()
    );
    assert!(polygonise(&BodyShape::default(), &PolygoniseParams::default()).is_err());
    let tiny_cells = PolygoniseParams { cell_m: 0.0005, ..PolygoniseParams::default() };
    assert!(polygonise(&b.model.shape, &tiny_cells).is_err());
}
