//! `labanplay export PLAN.plan.toml [--gltf OUT.glb] [--bvh OUT.bvh] [--model NAME] [--fps 60]
//! [--dancer N]`: an ensemble plan simulated and danced, written as one glTF scene (the crowd
//! beyond [`FULL_TREES`] performers instanced) and/or one BVH file per performer.

use super::export::{Body, ExportOptions};
use crate::crowd::Crowd;
use crate::export::bvh::write_bvh;
use crate::export::plan_gltf::{CROWD_FPS, FULL_TREES, INSTANCING, PlanGltfInput, write_plan_glb};
use crate::pose::fk::Pose;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The BVH file of performer `number` of `group`: `OUT-<group>-<number>.bvh` (characters other
/// than letters, digits, `-` and `_` in the group's name become `_`).
pub fn plan_bvh_path(base: &Path, group: &str, number: usize) -> PathBuf {
    let stem = base.file_stem().and_then(|s| s.to_str()).unwrap_or("performer");
    let ext = base.extension().and_then(|s| s.to_str()).unwrap_or("bvh");
    let group: String =
        group.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    base.with_file_name(format!("{stem}-{group}-{number}.{ext}"))
}

/// Reads, simulates and exports the plan at `path`; returns the summary or an error text.
pub fn export_plan(path: &Path, opts: &ExportOptions) -> Result<String, String> {
    let name = path.display().to_string();
    let plan = crate::ensemble::read_plan_file(path, &mut crate::read::Files).map_err(|e| e.render())?.plan;
    let body = match &opts.model {
        Some(model) => Body::named(model, opts.rig_cache_dir.as_deref())?,
        None => crate::body::models::builtin_models()
            .into_iter()
            .next()
            .map(Body::Builtin)
            .ok_or_else(|| "error: no built-in body model".to_string())?,
    };
    let motion = crate::ensemble::simulate(&plan);
    let crowd = Crowd::new(plan, motion, &body.proportions()).map_err(|e| format!("{name}: error: {e}"))?;
    let n = crowd.plan.performers.len();
    let tempo = crowd.plan.clock.tempo;
    let duration_secs = tempo.secs_from_beats(crowd.end_beats());
    let fps = if opts.fps.is_finite() && opts.fps > 0.0 { opts.fps } else { 60.0 };
    let mut out = String::new();
    let _ = writeln!(out, "{name}: {n} performer(s) in {} group(s), {duration_secs:.2} s", crowd.plan.groups.len());
    let _ = writeln!(out, "{}", body.describe());
    if let Some(file) = &opts.gltf {
        let rig = body.rig()?;
        let low = body.low_detail_rig(&rig);
        let title = path.file_name().map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned());
        let input = PlanGltfInput {
            crowd: &crowd,
            rig: &rig,
            low: &low,
            fps,
            crowd_fps: CROWD_FPS,
            full_trees: FULL_TREES,
            title: &title,
        };
        let (glb, s) = write_plan_glb(&input).map_err(|e| format!("{}: error: {e}", file.display()))?;
        std::fs::write(file, &glb).map_err(|e| format!("{}: error: cannot write: {e}", file.display()))?;
        let _ = write!(
            out,
            "wrote {} ({} performer(s) with their own node tree, {} frames at {fps} fps",
            file.display(),
            s.full,
            s.frames
        );
        if s.instanced > 0 {
            let _ = write!(
                out,
                "; {} instanced ({INSTANCING}, {} low-detail vertices) in {} frames at {} fps of {} baked poses",
                s.instanced,
                low.mesh.vertex_count(),
                s.crowd_frames,
                CROWD_FPS.min(fps),
                s.baked_poses
            );
        }
        let _ = writeln!(out, "; {} bytes)", glb.len());
    }
    if let Some(base) = &opts.bvh {
        let selected: Vec<usize> = match opts.dancer {
            Some(k) if k >= 1 && k <= n => vec![k - 1],
            Some(k) => return Err(format!("{name}: error: there is no performer {k}; the plan has {n}")),
            None => (0..n.min(FULL_TREES)).collect(),
        };
        let frames = (duration_secs.max(0.0) * fps).floor() as usize + 1;
        let mut pose = Pose::rest(&crowd.skeleton);
        for &i in &selected {
            let mut walk = None;
            let poses: Vec<Pose> = (0..frames)
                .map(|f| {
                    crowd.pose_in_world(i, tempo.beats_from_secs(f as f64 / fps), &mut walk, &mut pose);
                    pose.clone()
                })
                .collect();
            let p = &crowd.plan.performers[i];
            let file = if opts.dancer.is_some() {
                base.clone()
            } else {
                plan_bvh_path(base, &crowd.plan.groups[p.group].name, p.number)
            };
            std::fs::write(&file, write_bvh(&crowd.skeleton, &poses, fps))
                .map_err(|e| format!("{}: error: cannot write: {e}", file.display()))?;
            let _ = writeln!(out, "wrote {} ({frames} frames at {fps} fps)", file.display());
        }
        if selected.len() < n && opts.dancer.is_none() {
            let _ = writeln!(
                out,
                "BVH written for the first {} of {n} performers; `--dancer N` writes performer N (plan order)",
                selected.len()
            );
        }
    }
    Ok(out)
}
