//! Embedding the project's skeleton into a voxel body, after Pinocchio (Baran & Popović 2007):
//! medial samples of the distance field packed into spheres, a graph of the spheres whose joining
//! segment stays inside, the skeleton reduced to its seven joints of degree ≠ 2 (pelvis, shoulder
//! junction, head top, fingertips, toe tips), a best-first branch-and-bound search over assignments
//! of those to spheres minimising a penalty, re-insertion of the other joints along the chosen
//! graph paths, then refinement of each joint onto the limb's cross-section centre and anatomical
//! landmarks (crotch, armpit, wrist narrowing, neck).
//!
//! The distance field is exact and Euclidean, 150 voxels per height; graph edges stay half a radius
//! deep. The penalty's unary terms are height bands, sides and graph ends; its pairwise terms a
//! bone length within e^±0.4 of the average for free, bone direction, left–right symmetry and no
//! two bones down one limb; the first complete placement off the queue is the best. Landmarks: the
//! crotch where the legs' sections part, the ankle where the section grows into the foot, the knee
//! halfway, the wrist at the narrowest section behind the palm (an arm whose sections only taper to
//! its end, a mannequin without hands, has its wrist 3 % of the height from that end), the armpit
//! where the arm's section jumps, the neck at the narrowest section under the head.

mod refine;
mod search;

use refine::{Refiner, Sections};
use search::{Graph, discrete_embedding};

use glam::{IVec3, Vec3};

use super::RigError;
use super::voxel::VoxelBody;
use crate::pose::skeleton::{JOINT_COUNT, JointId, Side};

/// Most spheres kept (Pinocchio's default packing limit).
pub const MAX_SPHERES: usize = 1000;
/// Most partial embeddings taken off the queue before the search gives up.
pub const MAX_EXPANSIONS: usize = 400_000;

/// The skeleton found inside a body (rig frame, metres).
#[derive(Clone, Debug, PartialEq)]
pub struct Embedding {
    /// Every joint of the project's skeleton, by [`JointId::index`].
    pub joints_in_rig: [Vec3; JOINT_COUNT],
    /// Top of the head.
    pub head_top: Vec3,
    /// Fingertips, left then right.
    pub fingertips: [Vec3; 2],
    /// Toe tips, left then right (on the floor).
    pub toe_tips: [Vec3; 2],
    /// Heel contact points, left then right (on the floor).
    pub heels: [Vec3; 2],
    /// Standing height (floor to head top), metres.
    pub height_m: f32,
    /// Spheres in the medial graph.
    pub spheres: usize,
    /// Edges of the medial graph.
    pub graph_edges: usize,
    /// Partial embeddings expanded by the search.
    pub expansions: usize,
    /// Penalty of the discrete embedding (0 = ideal).
    pub penalty: f32,
    /// 0–1: how sure the embedding is (penalty, left–right agreement of the refined limbs).
    pub confidence: f32,
}

#[derive(Clone, Copy, Debug)]
struct Sphere {
    centre: Vec3,
    radius: f32,
}

/// The reduced skeleton: its joints (0 pelvis, 1 shoulder junction, 2 head top, 3/4 left/right
/// fingertip, 5/6 left/right toe tip) and bones.
const REDUCED: usize = 7;
const BONES: [(usize, usize); 6] = [(0, 1), (1, 2), (1, 3), (1, 4), (0, 5), (0, 6)];
/// Expected graph length of each bone, in body heights (from the default proportions).
const BONE_LENGTH: [f32; 6] = [0.27, 0.17, 0.5, 0.5, 0.56, 0.56];

/// Embeds the skeleton into `body`. Errors when the body has no humanoid shape: too few
/// spheres, or no embedding of the reduced skeleton under the penalty limit.
pub fn embed_skeleton(body: &VoxelBody) -> Result<Embedding, RigError> {
    let (lo, hi) = body.inside_bounds().ok_or_else(|| RigError::Unriggable("the mesh encloses no volume".into()))?;
    let floor_y = lo.y - 0.5 * body.cell_m;
    let height = hi.y + 0.5 * body.cell_m - floor_y;
    if height < 20.0 * body.cell_m {
        return Err(RigError::Unriggable("the body is too small for its voxel grid".into()));
    }
    let spheres = pack_spheres(body);
    if spheres.len() < 12 {
        return Err(RigError::Unriggable(format!(
            "the medial surface gave only {} spheres; is this a closed humanoid body?",
            spheres.len()
        )));
    }
    let graph = Graph::build(body, &spheres);
    let frame = BodyFrame { floor_y, height };
    let search = discrete_embedding(&spheres, &graph, &frame)?;
    let mut refine = Refiner { body, frame, sections: Sections::new(body) };
    let path = |a: usize, b: usize| -> Vec<Vec3> {
        graph.path(search.assignment[a], search.assignment[b]).iter().map(|&s| spheres[s].centre).collect()
    };
    let legs = [refine.leg(&path(0, 5), &path(0, 6)), refine.leg(&path(0, 6), &path(0, 5))];
    let arms = [refine.arm(&path(1, 3)), refine.arm(&path(1, 4))];
    let head_path = path(1, 2);
    let mut joints = [Vec3::ZERO; JOINT_COUNT];
    let mut put = |j: JointId, p: Vec3| joints[j.index()] = p;
    for (side, leg) in [(Side::Left, &legs[0]), (Side::Right, &legs[1])] {
        let (hip, knee, ankle, ball) = match side {
            Side::Left => (JointId::HipL, JointId::KneeL, JointId::AnkleL, JointId::BallL),
            Side::Right => (JointId::HipR, JointId::KneeR, JointId::AnkleR, JointId::BallR),
        };
        put(hip, leg.hip);
        put(knee, leg.knee);
        put(ankle, leg.ankle);
        put(ball, leg.ball);
    }
    let hip_mid = 0.5 * (legs[0].hip + legs[1].hip);
    let shoulder_mid = 0.5 * (arms[0].shoulder + arms[1].shoulder);
    let trunk = refine.trunk(hip_mid, shoulder_mid, &head_path, hi.y + 0.5 * body.cell_m);
    put(JointId::Pelvis, trunk.pelvis);
    put(JointId::Spine, trunk.spine);
    put(JointId::Chest, trunk.chest);
    put(JointId::Neck, trunk.neck);
    put(JointId::Head, trunk.head);
    for (side, arm) in [(Side::Left, &arms[0]), (Side::Right, &arms[1])] {
        let (clavicle, shoulder, elbow, wrist, hand) = match side {
            Side::Left => (JointId::ClavicleL, JointId::ShoulderL, JointId::ElbowL, JointId::WristL, JointId::HandL),
            Side::Right => (JointId::ClavicleR, JointId::ShoulderR, JointId::ElbowR, JointId::WristR, JointId::HandR),
        };
        // The sternoclavicular joint: a fifth of the way out, just below the shoulder.
        let c = Vec3::new(
            trunk.neck.x + 0.2 * (arm.shoulder.x - trunk.neck.x),
            arm.shoulder.y - 0.012 * height,
            0.5 * (arm.shoulder.z + trunk.neck.z),
        );
        put(clavicle, c);
        put(shoulder, arm.shoulder);
        put(elbow, arm.elbow);
        put(wrist, arm.wrist);
        put(hand, arm.wrist + 0.5 * (arm.fingertip - arm.wrist));
    }
    let confidence = confidence(&joints, search.penalty, height);
    Ok(Embedding {
        joints_in_rig: joints,
        head_top: trunk.head_top,
        fingertips: [arms[0].fingertip, arms[1].fingertip],
        toe_tips: [legs[0].toe_tip, legs[1].toe_tip],
        heels: [legs[0].heel, legs[1].heel],
        height_m: height,
        spheres: spheres.len(),
        graph_edges: graph.edge_count,
        expansions: search.expansions,
        penalty: search.penalty,
        confidence,
    })
}

/// Left–right agreement of the refined skeleton and the search penalty → 0–1.
fn confidence(joints: &[Vec3; JOINT_COUNT], penalty: f32, height: f32) -> f32 {
    use JointId::*;
    let pairs = [(ShoulderL, ShoulderR), (ElbowL, ElbowR), (WristL, WristR), (HipL, HipR), (KneeL, KneeR)];
    let pelvis_x = joints[Pelvis.index()].x;
    let asym: f32 = pairs
        .iter()
        .map(|&(l, r)| {
            let (a, b) = (joints[l.index()], joints[r.index()]);
            let mirrored = Vec3::new(2.0 * pelvis_x - b.x, b.y, b.z);
            a.distance(mirrored) / height
        })
        .sum::<f32>()
        / pairs.len() as f32;
    ((1.0 - asym / 0.1).clamp(0.0, 1.0) * (-penalty / 8.0).exp()).clamp(0.0, 1.0)
}

#[derive(Clone, Copy, Debug)]
struct BodyFrame {
    floor_y: f32,
    height: f32,
}

impl BodyFrame {
    /// Height above the floor in body heights.
    fn rel_y(&self, p: Vec3) -> f32 {
        (p.y - self.floor_y) / self.height
    }

    fn y_at(&self, rel: f32) -> f32 {
        self.floor_y + rel * self.height
    }
}

/// Medial samples (inside voxels where the distance field stops growing: no neighbour is
/// deeper by more than 0.6 of the step to it) packed largest first into non-overlapping
/// spheres: a sample is kept when no kept sphere contains it.
fn pack_spheres(body: &VoxelBody) -> Vec<Sphere> {
    let min_depth = 1.5 * body.cell_m;
    let mut samples: Vec<(f32, usize)> = Vec::new();
    let mut offsets = Vec::new();
    for z in -1..=1 {
        for y in -1..=1 {
            for x in -1..=1 {
                if (x, y, z) != (0, 0, 0) {
                    offsets.push((IVec3::new(x, y, z), IVec3::new(x, y, z).as_vec3().length() * body.cell_m));
                }
            }
        }
    }
    for (i, &d) in body.depth_m.iter().enumerate() {
        if d < min_depth {
            continue;
        }
        let v = body.voxel(i);
        let ridge = offsets.iter().all(|&(o, step)| body.index(v + o).is_none_or(|j| body.depth_m[j] - d < 0.6 * step));
        if ridge {
            samples.push((d, i));
        }
    }
    samples.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut spheres: Vec<Sphere> = Vec::new();
    for (d, i) in samples {
        let c = body.centre(body.voxel(i));
        if spheres.iter().any(|s| s.centre.distance(c) < s.radius) {
            continue;
        }
        spheres.push(Sphere { centre: c, radius: d });
        if spheres.len() >= MAX_SPHERES {
            break;
        }
    }
    spheres
}

#[cfg(test)]
mod pictures {
    //! Look-at-it tools (`#[ignore]`): the medial spheres and graph of a shared mesh, coloured
    //! by graph component, with the discrete embedding when there is one.
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::rig::frame::{FrameOptions, detect_frame};
    use crate::rig::import::read_mesh;
    use crate::rig::repair::repair;
    use image::{Rgb, RgbImage};

    fn dot(img: &mut RgbImage, x: f32, y: f32, r: f32, c: Rgb<u8>) {
        let (w, h) = (img.width() as i32, img.height() as i32);
        let ri = r.ceil() as i32;
        for dy in -ri..=ri {
            for dx in -ri..=ri {
                let (px, py) = (x as i32 + dx, y as i32 + dy);
                if (dx * dx + dy * dy) as f32 <= r * r && px >= 0 && py >= 0 && px < w && py < h {
                    img.put_pixel(px as u32, py as u32, c);
                }
            }
        }
    }

    fn line(img: &mut RgbImage, a: (f32, f32), b: (f32, f32), c: Rgb<u8>) {
        let n = ((a.0 - b.0).abs().max((a.1 - b.1).abs()).ceil() as usize).max(1);
        for k in 0..=n {
            let t = k as f32 / n as f32;
            dot(img, a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1), 0.5, c);
        }
    }

    #[test]
    #[ignore = "writes target/rig-medial-*.png to look at"]
    fn medial_graph_pictures() {
        let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes"));
        let names = std::env::var("RIG_MESHES").unwrap_or_else(|_| "assimp-human-blend.obj".into());
        for name in names.split(',') {
            let path = dir.join(name);
            let bytes = std::fs::read(&path).unwrap();
            let raw = read_mesh(&bytes, path.extension().and_then(|e| e.to_str()), Some(&dir)).unwrap();
            let frame = detect_frame(&raw.positions_in_input, &FrameOptions::default()).unwrap();
            let positions: Vec<Vec3> = raw.positions_in_input.iter().map(|&p| frame.to_rig(p)).collect();
            let repaired = repair(&positions, &raw.triangles);
            let (lo, hi) = repaired.mesh.bounds_in_model().unwrap();
            let per_h: f32 = std::env::var("RIG_VOXELS").ok().and_then(|v| v.parse().ok()).unwrap_or(150.0);
            let body = VoxelBody::build(&repaired.mesh, (hi.y - lo.y) / per_h).unwrap();
            let spheres = pack_spheres(&body);
            let graph = Graph::build(&body, &spheres);
            let (blo, bhi) = body.inside_bounds().unwrap();
            let frame_b = BodyFrame { floor_y: blo.y - 0.5 * body.cell_m, height: bhi.y - blo.y + body.cell_m };
            let search = discrete_embedding(&spheres, &graph, &frame_b);
            let mut comps: std::collections::BTreeMap<u32, (usize, f32, f32)> = Default::default();
            for (s, c) in spheres.iter().zip(&graph.component) {
                let e = comps.entry(*c).or_insert((0, f32::MAX, f32::MIN));
                e.0 += 1;
                e.1 = e.1.min(frame_b.rel_y(s.centre));
                e.2 = e.2.max(frame_b.rel_y(s.centre));
            }
            println!("{name}: {} spheres, {} edges, components {comps:?}", spheres.len(), graph.edge_count);
            match &search {
                Ok(s) => println!(
                    "  assignment {:?} penalty {:.2}",
                    s.assignment.map(|i| (frame_b.rel_y(spheres[i].centre) * 100.0).round() / 100.0),
                    s.penalty
                ),
                Err(e) => println!("  search: {e}"),
            }
            let size = 600u32;
            let mut img = RgbImage::from_pixel(2 * size, size, Rgb([255, 255, 255]));
            let h = frame_b.height;
            let scale = 0.95 * size as f32 / h;
            let proj = |p: Vec3, side: bool| -> (f32, f32) {
                let u = if side { p.z } else { p.x };
                (
                    u * scale + size as f32 * if side { 1.5 } else { 0.5 },
                    size as f32 - (p.y - frame_b.floor_y) * scale - 10.0,
                )
            };
            for (i, &inside) in body.inside.iter().enumerate() {
                if inside {
                    let c = body.centre(body.voxel(i));
                    for side in [false, true] {
                        let (x, y) = proj(c, side);
                        let px = img.get_pixel_mut((x as u32).min(2 * size - 1), (y as u32).min(size - 1));
                        px.0 = px.0.map(|v| v.saturating_sub(6).max(150));
                    }
                }
            }
            let palette = [[40, 90, 220], [220, 40, 40], [30, 160, 60], [200, 120, 0], [150, 0, 160], [0, 150, 150]];
            for a in 0..spheres.len() {
                for b in a + 1..spheres.len() {
                    if (graph.d(a, b) - spheres[a].centre.distance(spheres[b].centre)).abs() < 1e-6
                        && graph.pred[a * graph.n + b] == a as u32
                    {
                        for side in [false, true] {
                            line(
                                &mut img,
                                proj(spheres[a].centre, side),
                                proj(spheres[b].centre, side),
                                Rgb([120, 120, 120]),
                            );
                        }
                    }
                }
            }
            for (s, &c) in spheres.iter().zip(&graph.component) {
                let col = Rgb(palette[(c as usize).min(palette.len() - 1)]);
                for side in [false, true] {
                    let (x, y) = proj(s.centre, side);
                    dot(&mut img, x, y, 1.5, col);
                }
            }
            if let Ok(s) = &search {
                for &i in &s.assignment {
                    for side in [false, true] {
                        let (x, y) = proj(spheres[i].centre, side);
                        dot(&mut img, x, y, 5.0, Rgb([0, 0, 0]));
                    }
                }
            }
            match embed_skeleton(&body) {
                Ok(e) => {
                    for j in JointId::ALL {
                        let p = e.joints_in_rig[j.index()];
                        println!("  {:<10} x {:+.3} y {:.3} z {:+.3}", j.name(), p.x / h, frame_b.rel_y(p), p.z / h);
                        for side in [false, true] {
                            let (x, y) = proj(p, side);
                            dot(&mut img, x, y, 3.0, Rgb([230, 0, 0]));
                        }
                    }
                    for p in e.fingertips.iter().chain(&e.toe_tips).chain(&e.heels).chain([&e.head_top]) {
                        println!("  end       x {:+.3} y {:.3} z {:+.3}", p.x / h, frame_b.rel_y(*p), p.z / h);
                        for side in [false, true] {
                            let (x, y) = proj(*p, side);
                            dot(&mut img, x, y, 3.0, Rgb([0, 170, 0]));
                        }
                    }
                    println!("  proportions: {:?}", crate::rig::rigged::proportions_of(&e).err());
                }
                Err(e) => println!("  embed: {e}"),
            }
            let out = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/target"))
                .join(format!("rig-medial-{}.png", name.split('.').next().unwrap()));
            img.save(&out).unwrap();
            println!("  wrote {}", out.display());
        }
    }
}
