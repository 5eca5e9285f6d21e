//! `labanplay export FILE --bvh OUT.bvh [--fps 60] [--dancer N] [--toe]`: the motion of each
//! dancer as BVH, and a summary of what was interpreted and what was skipped.

use crate::animation::compile;
use crate::export::bvh::write_bvh;
use crate::motion::rules::MotionOptions;
use crate::pose::fk::Pose;
use crate::pose::skeleton::Proportions;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Options of `export`.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// BVH output path; with several dancers `-N` is added before the extension.
    pub bvh: Option<PathBuf>,
    /// Frames per second.
    pub fps: f64,
    /// Only this dancer (1-based).
    pub dancer: Option<usize>,
    /// Step onto the ball of the foot first.
    pub toe_first: bool,
}

/// The BVH path for dancer `index` (0-based) of `count`.
pub fn bvh_path(base: &Path, index: usize, count: usize) -> PathBuf {
    if count <= 1 {
        return base.to_path_buf();
    }
    let stem = base.file_stem().and_then(|s| s.to_str()).unwrap_or("dancer");
    let ext = base.extension().and_then(|s| s.to_str()).unwrap_or("bvh");
    base.with_file_name(format!("{stem}-{}.{ext}", index + 1))
}

/// Runs the export; returns the summary text or an error text.
pub fn export(path: &Path, opts: &ExportOptions) -> Result<String, String> {
    let (score, _) = super::load_score(path)?;
    let motion = MotionOptions { toe_first: opts.toe_first, ..MotionOptions::default() };
    let anim = compile(&score, &motion, &Proportions::default());
    let fps = if opts.fps.is_finite() && opts.fps > 0.0 { opts.fps } else { 60.0 };
    let mut out = String::new();
    let _ = writeln!(out, "{}: {} dancer(s), {:.2} s", path.display(), anim.dancers.len(), anim.duration_secs);
    let _ = writeln!(out, "interpreted {} symbols; skipped {}", anim.interpretation.interpreted, anim.interpretation.skipped.len());
    let name = path.display().to_string();
    for d in &anim.interpretation.skipped {
        let _ = writeln!(out, "{}", d.render(&name, None));
    }
    let Some(base) = &opts.bvh else { return Ok(out) };
    let count = anim.dancers.len();
    let selected: Vec<usize> = match opts.dancer {
        Some(n) if n >= 1 && n <= count => vec![n - 1],
        Some(n) => return Err(format!("{name}: error: there is no dancer {n}; the score has {count}")),
        None => (0..count).collect(),
    };
    let frames = (anim.duration_secs * fps).floor() as usize + 1;
    for &i in &selected {
        let Some(dancer) = anim.dancers.get(i) else { continue };
        let mut poses = Vec::with_capacity(frames);
        let mut pose = Pose::rest(&anim.skeleton);
        for f in 0..frames {
            dancer.sample_into(&anim.skeleton, f as f64 / fps, &mut pose);
            poses.push(pose.clone());
        }
        let file = if selected.len() == 1 && opts.dancer.is_some() { base.clone() } else { bvh_path(base, i, count) };
        std::fs::write(&file, write_bvh(&anim.skeleton, &poses, fps)).map_err(|e| format!("{}: error: cannot write: {e}", file.display()))?;
        let _ = writeln!(out, "wrote {} ({frames} frames at {fps} fps)", file.display());
    }
    Ok(out)
}
