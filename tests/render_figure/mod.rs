//! A procedural test figure for the renderer's golden tests and benches: six boxes (legs, torso,
//! arms, head) skinned to a 3-joint chain (root → torso → head), plus a posed palette for it.
#![allow(dead_code)]

use glam::{Mat4, Vec3};
use labanplay::stage::SkinnedMeshData;

/// Bind-pose origin of each joint, world metres: root on the floor, torso at the hips, head at
/// the neck.
pub const BIND_ORIGINS: [Vec3; 3] = [Vec3::ZERO, Vec3::new(0.0, 0.85, 0.0), Vec3::new(0.0, 1.45, 0.0)];

/// How a vertex at height `y_m` is skinned: (joints, weights).
type Skin = fn(f32) -> ([u16; 4], [f32; 4]);

fn rigid_root(_: f32) -> ([u16; 4], [f32; 4]) {
    ([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
}
fn rigid_torso(_: f32) -> ([u16; 4], [f32; 4]) {
    ([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
}
fn rigid_head(_: f32) -> ([u16; 4], [f32; 4]) {
    ([2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
}
/// Torso: blends root → torso over the lowest 15 cm so the hips bend smoothly.
fn blended_torso(y_m: f32) -> ([u16; 4], [f32; 4]) {
    let t = ((y_m - 0.85) / 0.15).clamp(0.0, 1.0);
    ([0, 1, 0, 0], [1.0 - t, t, 0.0, 0.0])
}

/// Appends an axis-aligned box from `min` to `max`; its four sides are split into
/// `segments_y` × `segments_w` quads so skinning can bend them.
fn add_box(mesh: &mut SkinnedMeshData, min: Vec3, max: Vec3, segments_y: u32, segments_w: u32, skin: Skin) {
    let size = max - min;
    // (origin, u axis, v axis = up, normal) for the four sides; u × v = outward normal.
    let sides = [
        (Vec3::new(min.x, min.y, max.z), Vec3::new(size.x, 0.0, 0.0), Vec3::Z),
        (Vec3::new(max.x, min.y, max.z), Vec3::new(0.0, 0.0, -size.z), Vec3::X),
        (Vec3::new(max.x, min.y, min.z), Vec3::new(-size.x, 0.0, 0.0), Vec3::NEG_Z),
        (Vec3::new(min.x, min.y, min.z), Vec3::new(0.0, 0.0, size.z), Vec3::NEG_X),
    ];
    for (origin, u_axis, normal) in sides {
        let base = mesh.positions.len() as u32;
        for j in 0..=segments_y {
            for i in 0..=segments_w {
                let p = origin
                    + u_axis * (i as f32 / segments_w as f32)
                    + Vec3::Y * (size.y * j as f32 / segments_y as f32);
                push_vertex(mesh, p, normal, skin);
            }
        }
        let row = segments_w + 1;
        for j in 0..segments_y {
            for i in 0..segments_w {
                let a = base + j * row + i;
                let (b, c, d) = (a + 1, a + row, a + row + 1);
                mesh.indices.extend_from_slice(&[a, b, d, a, d, c]);
            }
        }
    }
    for (y, normal) in [(max.y, Vec3::Y), (min.y, Vec3::NEG_Y)] {
        let base = mesh.positions.len() as u32;
        for (x, z) in [(min.x, max.z), (max.x, max.z), (max.x, min.z), (min.x, min.z)] {
            push_vertex(mesh, Vec3::new(x, y, z), normal, skin);
        }
        let quad = if normal.y > 0.0 { [0, 1, 2, 0, 2, 3] } else { [0, 2, 1, 0, 3, 2] };
        mesh.indices.extend(quad.iter().map(|k| base + k));
    }
}

fn push_vertex(mesh: &mut SkinnedMeshData, position: Vec3, normal: Vec3, skin: Skin) {
    let (joints, weights) = skin(position.y);
    mesh.positions.push(position.to_array());
    mesh.normals.push(normal.to_array());
    mesh.joints.push(joints);
    mesh.weights.push(weights);
}

/// The figure in bind pose (standing at the origin, facing +Z). `segments_y` × `segments_w`
/// sets the tessellation: (8, 2) gives ~700 vertices, (40, 20) about 20k.
pub fn build_figure(segments_y: u32, segments_w: u32) -> SkinnedMeshData {
    let mut mesh = SkinnedMeshData::default();
    let (sy, sw) = (segments_y.max(1), segments_w.max(1));
    add_box(&mut mesh, Vec3::new(-0.17, 0.0, -0.07), Vec3::new(-0.03, 0.85, 0.07), sy, sw, rigid_root);
    add_box(&mut mesh, Vec3::new(0.03, 0.0, -0.07), Vec3::new(0.17, 0.85, 0.07), sy, sw, rigid_root);
    add_box(&mut mesh, Vec3::new(-0.18, 0.80, -0.10), Vec3::new(0.18, 1.45, 0.10), sy, sw, blended_torso);
    add_box(&mut mesh, Vec3::new(-0.28, 0.88, -0.05), Vec3::new(-0.19, 1.42, 0.05), sy, sw, rigid_torso);
    add_box(&mut mesh, Vec3::new(0.19, 0.88, -0.05), Vec3::new(0.28, 1.42, 0.05), sy, sw, rigid_torso);
    add_box(&mut mesh, Vec3::new(-0.10, 1.48, -0.11), Vec3::new(0.10, 1.72, 0.11), sy, sw, rigid_head);
    mesh
}

/// Skinning palette for the figure standing at `root_in_world`, turned `heading_rad` about +Y,
/// bending the torso forward by `bend_rad` and tilting the head sideways by `tilt_rad`.
pub fn posed_palette(root_in_world: Vec3, heading_rad: f32, bend_rad: f32, tilt_rad: f32) -> Vec<Mat4> {
    let world_from_root = Mat4::from_translation(root_in_world) * Mat4::from_rotation_y(heading_rad);
    let world_from_torso = world_from_root * Mat4::from_translation(BIND_ORIGINS[1]) * Mat4::from_rotation_x(bend_rad);
    let world_from_head =
        world_from_torso * Mat4::from_translation(BIND_ORIGINS[2] - BIND_ORIGINS[1]) * Mat4::from_rotation_z(tilt_rad);
    [world_from_root, world_from_torso, world_from_head]
        .iter()
        .zip(BIND_ORIGINS)
        .map(|(world_from_joint, bind_origin)| *world_from_joint * Mat4::from_translation(-bind_origin))
        .collect()
}
