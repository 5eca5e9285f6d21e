//! `labanplay rig MESH [-o OUT.glb] [--report OUT.json]`: rig a mesh file to the project's
//! skeleton, show progress per stage, print a summary, write the skinned mesh and a JSON report
//! (joints in the file's own coordinates and units, repair steps, stage timings, confidence).

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::export::gltf::{GltfInput, write_glb};
use crate::pose::skeleton::JointId;
use crate::rig::import::read_mesh;
use crate::rig::rigged::Stage;
use crate::rig::{Axis, FrameOptions, RigOptions, RiggedMesh, rig_mesh};

/// Options of `labanplay rig`.
#[derive(Clone, Debug, Default)]
pub struct RigCliOptions {
    /// Write the skinned mesh (bind pose) as binary glTF here.
    pub out_glb: Option<PathBuf>,
    /// Write the JSON report here.
    pub report: Option<PathBuf>,
    /// `--up` axis text.
    pub up: Option<String>,
    /// `--forward` axis text.
    pub forward: Option<String>,
    /// `--height-m`.
    pub height_m: Option<f32>,
}

/// Parses the axis and height options into [`RigOptions`].
pub fn rig_options(opts: &RigCliOptions) -> Result<RigOptions, String> {
    let axis = |t: &Option<String>| t.as_deref().map(Axis::parse).transpose().map_err(|e| format!("error: {e}"));
    Ok(RigOptions {
        frame: FrameOptions {
            up: axis(&opts.up)?,
            forward: axis(&opts.forward)?,
            height_m: opts.height_m,
            ..Default::default()
        },
        ..RigOptions::default()
    })
}

/// Rigs `path`; progress goes to `progress_out`, the summary is returned.
pub fn rig(path: &Path, opts: &RigCliOptions, progress_out: &mut dyn Write) -> Result<String, String> {
    let name = path.display().to_string();
    let options = rig_options(opts)?;
    let started = Instant::now();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: error: cannot read file: {e}"))?;
    let raw = read_mesh(&bytes, path.extension().and_then(|e| e.to_str()), path.parent())
        .map_err(|e| format!("{name}: error: {e}"))?;
    let read_s = started.elapsed().as_secs_f64();
    let mut timings: Vec<(Stage, f64)> = Vec::new();
    let mut stage_start = Instant::now();
    let stages = 6.0;
    let mut done_count = 0.0;
    let mut progress = |stage: Stage, done: bool| {
        if done {
            timings.push((stage, stage_start.elapsed().as_secs_f64()));
            done_count += 1.0;
        } else {
            stage_start = Instant::now();
        }
        let filled = ((done_count / stages) * 20.0) as usize;
        let _ = writeln!(
            progress_out,
            "rig [{}{}] {} {}",
            "#".repeat(filled.min(20)),
            " ".repeat(20 - filled.min(20)),
            stage.name(),
            if done { "done" } else { "…" }
        );
    };
    let rigged = rig_mesh(&raw, &options, &mut progress).map_err(|e| format!("{name}: error: {e}"))?;
    let total_s = started.elapsed().as_secs_f64();
    let mut out = String::new();
    let e = &rigged.embedding;
    let _ = writeln!(
        out,
        "{name}: {} vertices, {} triangles ({}), {}",
        raw.positions_in_input.len(),
        raw.triangles.len(),
        raw.format.map_or("mesh", |f| f.name()),
        rigged.frame.reasons.join(", ")
    );
    for step in &rigged.repaired.steps {
        let _ = writeln!(out, "  repair {}: {}", step.name, step.detail);
    }
    if let Some(n) = rigged.proxy_vertices {
        let _ = writeln!(out, "  not one closed shell: weights solved on a closed voxel proxy of {n} vertices");
    }
    let _ = writeln!(
        out,
        "  skeleton: height {:.3} m, {} spheres, {} graph edges, {} search steps, penalty {:.2}, confidence {:.2}",
        e.height_m, e.spheres, e.graph_edges, e.expansions, e.penalty, e.confidence
    );
    let unsure: Vec<String> = e.least_sure().iter().map(|(j, s)| format!("{} {s:.2}", j.name())).collect();
    if !unsure.is_empty() {
        let _ = writeln!(out, "  least sure of: {}", unsure.join(", "));
    }
    let timing_text: Vec<String> = timings.iter().map(|(s, t)| format!("{} {:.3} s", s.name(), t)).collect();
    let _ = writeln!(out, "  time: read {read_s:.3} s, {}, total {total_s:.3} s", timing_text.join(", "));
    if let Some(file) = &opts.out_glb {
        let rig = rigged.to_body_rig();
        let frames = vec![vec![rigged.bind_pose.clone()]];
        let title = path.file_name().map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned());
        let glb = write_glb(&GltfInput { rig: &rig, dancer_frames: &frames, fps: 1.0, title: &title })
            .map_err(|e| format!("{}: error: {e}", file.display()))?;
        std::fs::write(file, &glb).map_err(|e| format!("{}: error: cannot write: {e}", file.display()))?;
        let _ = writeln!(out, "wrote {} ({} bytes)", file.display(), glb.len());
    }
    if let Some(file) = &opts.report {
        let json = report_json(&name, &raw, &rigged, read_s, &timings, total_s);
        let text = serde_json::to_string_pretty(&json).map_err(|e| format!("error: {e}"))?;
        std::fs::write(file, text + "\n").map_err(|e| format!("{}: error: cannot write: {e}", file.display()))?;
        let _ = writeln!(out, "wrote {}", file.display());
    }
    Ok(out)
}

fn round(x: f32) -> f64 {
    (f64::from(x) * 1e5).round() / 1e5
}

fn vec3(p: glam::Vec3) -> serde_json::Value {
    serde_json::json!([round(p.x), round(p.y), round(p.z)])
}

/// The JSON report: joints (bound skeleton and as found) in the input's coordinates and units.
pub fn report_json(
    name: &str,
    raw: &crate::rig::import::RawMesh,
    rigged: &RiggedMesh,
    read_s: f64,
    timings: &[(Stage, f64)],
    total_s: f64,
) -> serde_json::Value {
    let bind = rigged.bind_joints();
    let f = &rigged.frame;
    let joints: Vec<serde_json::Value> = JointId::ALL
        .iter()
        .map(|&j| {
            serde_json::json!({
                "name": j.name(),
                "parent": j.parent().map(JointId::name),
                "position": vec3(f.to_input(bind[j.index()])),
                "found": vec3(f.to_input(rigged.embedding.joints_in_rig[j.index()])),
            })
        })
        .collect();
    let e = &rigged.embedding;
    let t = &rigged.repaired.topology;
    let mut timing = serde_json::Map::new();
    timing.insert("read".into(), serde_json::json!(read_s));
    for (s, secs) in timings {
        timing.insert(s.name().into(), serde_json::json!(secs));
    }
    timing.insert("total".into(), serde_json::json!(total_s));
    let p = rigged.proportions();
    serde_json::json!({
        "file": name,
        "format": raw.format.map_or("mesh", |f| f.name()),
        "input": { "vertices": raw.positions_in_input.len(), "triangles": raw.triangles.len(), "notes": raw.notes },
        "frame": {
            "up": f.up.name(), "forward": f.forward.name(), "metres_per_unit": f.metres_per_unit, "reasons": f.reasons,
        },
        "coordinates": "joint positions are in the input file's own coordinates and units",
        "repair": rigged.repaired.steps.iter().map(|s| serde_json::json!({
            "step": s.name, "count": s.count, "detail": s.detail,
        })).collect::<Vec<_>>(),
        "topology": {
            "pieces": t.components, "boundary_edges": t.boundary_edges, "non_manifold_edges": t.non_manifold_edges,
            "non_manifold_vertices": t.non_manifold_vertices, "closed_single_shell": rigged.repaired.is_single_closed_shell(),
        },
        "proxy_vertices": rigged.proxy_vertices,
        "embedding": {
            "spheres": e.spheres, "graph_edges": e.graph_edges, "search_expansions": e.expansions,
            "penalty": round(e.penalty), "confidence": round(e.confidence), "height_m": round(e.height_m),
            "least_sure": e.least_sure().iter().map(|(j, s)| serde_json::json!({ "joint": j.name(), "sureness": round(*s) })).collect::<Vec<_>>(),
        },
        "proportions": {
            "height_m": round(p.height_m), "hip_height": round(p.hip_height), "thigh": round(p.thigh),
            "shank": round(p.shank), "shoulder_height": round(p.shoulder_height), "upper_arm": round(p.upper_arm),
            "forearm": round(p.forearm), "heel_back": round(p.heel_back), "ball_forward": round(p.ball_forward),
            "toes": round(p.toes),
        },
        "joints": joints,
        "timings_s": timing,
    })
}
