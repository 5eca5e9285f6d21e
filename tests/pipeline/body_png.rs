//! Debug tool, not a check (ignored; run with `--ignored`): renders every built-in body to
//! `target-images/body-<model>.png` (orthographic front, side, dominant-joint colours and a
//! posed front view; flat shading, CPU z-buffer) and prints mesh statistics.

#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use std::path::PathBuf;

use glam::{Mat4, Quat, Vec3};
use labanplay::body::heat::{HeatParams, heat_weights};
use labanplay::body::lbs::skin;
use labanplay::body::mesh::TriMesh;
use labanplay::body::models::{JOINT_COUNT, builtin_models, joint};
use labanplay::body::polygonise::PolygoniseParams;

const PANEL_PX: u32 = 360;

/// One orthographic view: screen x/y and depth (bigger = nearer) from a model point.
type Project = fn(Vec3) -> (f32, f32, f32);

fn front(p: Vec3) -> (f32, f32, f32) {
    (p.x, p.y, p.z)
}

fn side(p: Vec3) -> (f32, f32, f32) {
    // Seen from the dancer's left (+X): screen right is −Z, so the dancer faces left.
    (-p.z, p.y, p.x)
}

/// Rasterises `mesh` into panel `panel` of `img` with per-triangle colours.
fn draw(
    img: &mut image::RgbImage,
    (panel, row): (u32, u32),
    mesh: &TriMesh,
    colours: &dyn Fn(usize) -> [f32; 3],
    project: Project,
    height_m: f32,
) {
    let scale = PANEL_PX as f32 * 0.92 / height_m;
    let (ox, oy) = (panel as f32 * PANEL_PX as f32 + PANEL_PX as f32 * 0.5, PANEL_PX as f32 * (row as f32 + 0.96));
    let mut depth = vec![f32::NEG_INFINITY; (PANEL_PX * PANEL_PX) as usize];
    let light = Vec3::new(0.35, 0.55, 0.75).normalize();
    for (t, tri) in mesh.triangles.iter().enumerate() {
        let Some(c) = mesh.triangle_corners(*tri) else { continue };
        let s = c.map(|p| {
            let (x, y, z) = project(p);
            (ox + x * scale, oy - y * scale, z)
        });
        // Normal in view coordinates (x right, y up, z towards the viewer).
        let v = c.map(|p| {
            let (x, y, z) = project(p);
            Vec3::new(x, y, z)
        });
        let n = (v[1] - v[0]).cross(v[2] - v[0]).normalize_or_zero();
        if n.z <= 0.0 {
            continue;
        }
        let shade = 0.25 + 0.75 * n.dot(light).max(0.0);
        let col = colours(t).map(|x| (x * shade * 255.0).clamp(0.0, 255.0) as u8);
        let (minx, maxx) =
            (s.iter().map(|p| p.0).fold(f32::MAX, f32::min), s.iter().map(|p| p.0).fold(f32::MIN, f32::max));
        let (miny, maxy) =
            (s.iter().map(|p| p.1).fold(f32::MAX, f32::min), s.iter().map(|p| p.1).fold(f32::MIN, f32::max));
        let x0 = (minx.floor().max(panel as f32 * PANEL_PX as f32)) as i64;
        let x1 = (maxx.ceil().min((panel + 1) as f32 * PANEL_PX as f32 - 1.0)) as i64;
        let top = (row * PANEL_PX) as f32;
        let (y0, y1) = (miny.floor().max(top) as i64, maxy.ceil().min(top + PANEL_PX as f32 - 1.0) as i64);
        let edge =
            |a: (f32, f32, f32), b: (f32, f32, f32), x: f32, y: f32| (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0);
        let area = edge(s[0], s[1], s[2].0, s[2].1);
        if area.abs() < 1e-9 {
            continue;
        }
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                let w0 = edge(s[1], s[2], px, py) / area;
                let w1 = edge(s[2], s[0], px, py) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                    continue;
                }
                let z = w0 * s[0].2 + w1 * s[1].2 + w2 * s[2].2;
                let local = ((y as u32 - row * PANEL_PX) * PANEL_PX + (x as u32 - panel * PANEL_PX)) as usize;
                if z > depth[local] {
                    depth[local] = z;
                    img.put_pixel(x as u32, y as u32, image::Rgb(col));
                }
            }
        }
    }
}

fn back(p: Vec3) -> (f32, f32, f32) {
    (-p.x, p.y, -p.z)
}

/// Distinct colours per joint; left and right limbs differ.
fn joint_colour(j: usize) -> [f32; 3] {
    const TABLE: [[f32; 3]; 12] = [
        [0.90, 0.30, 0.30],
        [0.30, 0.75, 0.30],
        [0.30, 0.45, 0.90],
        [0.95, 0.80, 0.25],
        [0.80, 0.35, 0.85],
        [0.25, 0.80, 0.80],
        [0.95, 0.55, 0.20],
        [0.55, 0.55, 0.55],
        [0.60, 0.85, 0.35],
        [0.95, 0.60, 0.75],
        [0.45, 0.30, 0.70],
        [0.65, 0.45, 0.25],
    ];
    TABLE[j % TABLE.len()]
}

/// Forward kinematics of the rest skeleton with local rotations (bind frames are translations).
fn pose_palette(rest: &[Vec3], parents: &[Option<usize>], rotations: &[(usize, Quat)]) -> Vec<Mat4> {
    let mut world = vec![Mat4::IDENTITY; rest.len()];
    for j in 0..rest.len() {
        let rot = rotations.iter().find(|(k, _)| *k == j).map_or(Quat::IDENTITY, |(_, q)| *q);
        let (parent_world, offset) = match parents[j] {
            Some(p) => (world[p], rest[j] - rest[p]),
            None => (Mat4::IDENTITY, rest[j]),
        };
        world[j] = parent_world * Mat4::from_translation(offset) * Mat4::from_quat(rot);
    }
    world.iter().zip(rest).map(|(w, r)| *w * Mat4::from_translation(-*r)).collect()
}

#[test]
#[ignore = "a look-at-it tool: `cargo test --test pipeline body_png -- --ignored` renders target-images/body-*.png"]
fn render_bodies_to_png() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target-images");
    std::fs::create_dir_all(&dir).unwrap();
    for model in builtin_models() {
        let mesh = model.build_mesh(&PolygoniseParams::default()).unwrap();
        let topo = mesh.topology();
        let (lo, hi) = mesh.bounds_in_model().unwrap();
        println!(
            "{}: {} vertices, {} triangles, closed manifold {}, chi {}, components {}, volume {:.4} m3, bounds {lo:?}..{hi:?}",
            model.name,
            mesh.vertex_count(),
            mesh.triangle_count(),
            topo.is_closed_manifold(),
            topo.euler_characteristic,
            topo.components,
            mesh.signed_volume_m3()
        );
        let weights = heat_weights(&mesh, &model.bones, &HeatParams::default()).unwrap();
        let mut img = image::RgbImage::from_pixel(PANEL_PX * 4, PANEL_PX * 2, image::Rgb([250, 250, 250]));
        let skin_tone = |_t: usize| [0.93, 0.78, 0.66];
        draw(&mut img, (0, 0), &mesh, &skin_tone, front, model.height_m);
        draw(&mut img, (1, 0), &mesh, &skin_tone, side, model.height_m);
        let dominant = |t: usize| {
            let v = mesh.triangles[t][0] as usize;
            joint_colour(weights[v].dominant_joint())
        };
        draw(&mut img, (2, 0), &mesh, &dominant, front, model.height_m);
        draw(&mut img, (3, 0), &mesh, &dominant, back, model.height_m);
        let bend = |j: usize, angle_deg: f32| (j, Quat::from_rotation_x(angle_deg.to_radians()));
        let poses: [(Vec<(usize, Quat)>, Project); 4] = [
            (vec![(joint::SHOULDER_R, Quat::from_rotation_z(-1.3))], front),
            (vec![bend(joint::HIP_R, -70.0)], front),
            (vec![bend(joint::HIP_R, -70.0), bend(joint::KNEE_R, 90.0), bend(joint::ELBOW_L, -90.0)], side),
            (
                vec![
                    bend(joint::ELBOW_L, -90.0),
                    bend(joint::HIP_R, -70.0),
                    bend(joint::KNEE_R, 90.0),
                    (joint::SHOULDER_R, Quat::from_rotation_z(-1.3)),
                ],
                back,
            ),
        ];
        for (panel, (rotations, view)) in poses.iter().enumerate() {
            let palette = pose_palette(&model.joint_rest_in_model, &model.joint_parents, rotations);
            assert_eq!(palette.len(), JOINT_COUNT);
            let (mut pos, mut nor) = (Vec::new(), Vec::new());
            skin(&mesh.positions_in_model, &mesh.normals_in_model, &weights, &palette, &mut pos, &mut nor).unwrap();
            let posed = TriMesh { positions_in_model: pos, normals_in_model: nor, triangles: mesh.triangles.clone() };
            draw(&mut img, (panel as u32, 1), &posed, &skin_tone, *view, model.height_m);
        }
        let path = dir.join(format!("body-{}.png", model.name));
        img.save(&path).unwrap();
        println!("wrote {}", path.display());
    }
}
