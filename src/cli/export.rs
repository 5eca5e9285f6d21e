//! `labanplay export FILE|CAPTURE.bvh [--bvh OUT.bvh] [--gltf OUT.glb] [--model NAME] [--fps 60]
//! [--dancer N] [--toe]`: the motion of each dancer as BVH and/or a skinned glTF scene, with a
//! summary of what was interpreted and what was skipped (plans: [`super::plan_export`]); and
//! `labanplay models`.

use crate::animation::{Animation, compile};
use crate::body::models::ModelSpec;
use crate::body::polygonise::PolygoniseParams;
use crate::body::rig::{find_model, model_description, model_names, model_proportions, rig_model};
use crate::export::bvh::write_bvh;
use crate::export::gltf::{GltfInput, write_glb};
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
    /// glTF binary (`.glb`) output path: one scene with every selected dancer.
    pub gltf: Option<PathBuf>,
    /// Built-in body model (see `labanplay models`) or a mesh file to rig (`.obj`, `.gltf`,
    /// `.glb`, `.ply`, `.stl`); its proportions drive the skeleton of every output. Without it BVH uses the standard proportions, and glTF the first model.
    pub model: Option<String>,
    /// Frames per second.
    pub fps: f64,
    /// Only this dancer (1-based).
    pub dancer: Option<usize>,
    /// Step onto the ball of the foot first.
    pub toe_first: bool,
    /// Where rigged meshes are cached; `None`: the default folder ([`crate::rig::cache::default_cache_dir`]).
    pub rig_cache_dir: Option<PathBuf>,
}

impl Default for ExportOptions {
    /// No outputs, no model, 60 fps, every dancer, heel first.
    fn default() -> Self {
        Self { bvh: None, gltf: None, model: None, fps: 60.0, dancer: None, toe_first: false, rig_cache_dir: None }
    }
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

/// The text of `labanplay models`: one model per line, name first, then height and description.
pub fn models_text() -> String {
    let mut out = String::new();
    for name in model_names() {
        let height_m = find_model(name).map_or(0.0, |m| m.height_m);
        let _ = writeln!(out, "{name:<16} {height_m:.2} m  {}", model_description(name));
    }
    let _ = writeln!(
        out,
        "{:<16} {:.2} m  jointed capsules, no skin: player and render only (standard proportions)",
        "mannequin",
        crate::pose::Proportions::default().height_m
    );
    out
}

/// The built-in model called `name`, or an error text listing the valid names.
pub fn model_by_name(name: &str) -> Result<ModelSpec, String> {
    find_model(name)
        .ok_or_else(|| format!("error: unknown model `{name}`; the built-in models are: {}", model_names().join(", ")))
}

/// Poses of the dancers `selected` at `frame / fps` for `frames` frames, one list per dancer.
/// Every dancer is sampled together (contacts between them need all their poses).
fn sample_dancers(anim: &Animation, selected: &[usize], fps: f64, frames: usize) -> Vec<Vec<Pose>> {
    let mut out: Vec<Vec<Pose>> = selected.iter().map(|_| Vec::with_capacity(frames)).collect();
    let mut poses = Vec::new();
    for f in 0..frames {
        anim.sample(f as f64 / fps, &mut poses);
        for (list, &i) in out.iter_mut().zip(selected) {
            list.push(poses.get(i).cloned().unwrap_or_else(|| Pose::rest(&anim.skeleton)));
        }
    }
    out
}

/// The body an export is made for: a built-in model, or a mesh file rigged for it.
pub(super) enum Body {
    Builtin(ModelSpec),
    Mesh { name: String, rig: Box<crate::body::rig::Rig>, origin: crate::rig::cache::Origin },
}

impl Body {
    /// `--model NAME` or `--model PATH` (a mesh file: rigged as `labanplay rig` does, through
    /// the rig cache in `cache_dir`, else the default one).
    pub(super) fn named(name: &str, cache_dir: Option<&Path>) -> Result<Body, String> {
        if crate::rig::is_mesh_path(name) {
            let path = Path::new(name);
            let rigged = match cache_dir {
                Some(dir) => crate::rig::cache::cached_rig(path, Some(dir)),
                None => crate::rig::cache::cached_rig_default(path),
            };
            let (rig, origin) = rigged.map_err(|e| format!("{}: error: cannot rig it: {e}", path.display()))?;
            let name = path.file_name().map_or_else(|| name.to_owned(), |f| f.to_string_lossy().into_owned());
            return Ok(Body::Mesh { name, rig: Box::new(rig), origin });
        }
        model_by_name(name).map(Body::Builtin)
    }

    pub(super) fn proportions(&self) -> Proportions {
        match self {
            Body::Builtin(spec) => model_proportions(spec),
            Body::Mesh { rig, .. } => *rig.proportions(),
        }
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Body::Builtin(spec) => format!("body model {} ({:.2} m)", spec.name, spec.height_m),
            Body::Mesh { name, rig, origin } => {
                let from = match origin {
                    crate::rig::cache::Origin::Cache => "from the rig cache",
                    crate::rig::cache::Origin::Rigged => "rigged now",
                };
                format!("body model {name} (rigged mesh, {:.2} m, {from})", rig.proportions().height_m)
            }
        }
    }

    pub(super) fn rig(&self) -> Result<crate::body::rig::Rig, String> {
        match self {
            Body::Builtin(spec) => rig_model(spec, &PolygoniseParams::default())
                .map_err(|e| format!("error: cannot build the {} body: {e}", spec.name)),
            Body::Mesh { rig, .. } => Ok((**rig).clone()),
        }
    }

    /// A low-detail version of the body for crowds: a built-in model polygonised on a coarser
    /// grid; a rigged mesh file is used as it is.
    pub(super) fn low_detail_rig(&self, full: &crate::body::rig::Rig) -> crate::body::rig::Rig {
        match self {
            Body::Builtin(spec) => {
                let params = PolygoniseParams { cell_m: LOW_DETAIL_CELL_M, ..PolygoniseParams::default() };
                rig_model(spec, &params).unwrap_or_else(|_| full.clone())
            }
            Body::Mesh { .. } => full.clone(),
        }
    }
}

/// Grid cell of the low-detail crowd body, metres (the full body uses 0.019).
pub const LOW_DETAIL_CELL_M: f32 = 0.045;

/// Runs the export; returns the summary text or an error text.
pub fn export(path: &Path, opts: &ExportOptions) -> Result<String, String> {
    if super::ensemble::is_plan_name(path) {
        return super::plan_export::export_plan(path, opts);
    }
    let model = match (&opts.model, &opts.gltf) {
        (Some(name), _) => Some(Body::named(name, opts.rig_cache_dir.as_deref())?),
        (None, Some(_)) => crate::body::models::builtin_models().into_iter().next().map(Body::Builtin),
        (None, None) => None,
    };
    let proportions = model.as_ref().map_or_else(Proportions::default, Body::proportions);
    let anim = if crate::mocap::is_capture_file(path) {
        let skeleton = crate::pose::skeleton::Skeleton::new(&proportions);
        let capture = crate::mocap::load(path, &skeleton).map_err(|e| e.render())?;
        crate::animation::Animation::from_capture(capture.motion)
    } else {
        let loaded = crate::read::load(path).map_err(|e| e.render())?;
        let score = crate::score::Score::from_document(&loaded.document);
        let motion = MotionOptions { toe_first: opts.toe_first, ..MotionOptions::default() };
        compile(&score, &motion, &proportions)
    };
    let fps = if opts.fps.is_finite() && opts.fps > 0.0 { opts.fps } else { 60.0 };
    let mut out = String::new();
    let _ = writeln!(out, "{}: {} dancer(s), {:.2} s", path.display(), anim.dancers.len(), anim.duration_secs);
    let _ = writeln!(
        out,
        "interpreted {} symbols; skipped {}",
        anim.interpretation.interpreted,
        anim.interpretation.skipped.len()
    );
    let name = path.display().to_string();
    for note in anim.notes.iter().filter(|_| anim.capture.is_some()) {
        let _ = writeln!(out, "{note}");
    }
    for d in &anim.interpretation.skipped {
        let _ = writeln!(out, "{}", d.render(&name, None));
    }
    if let Some(model) = &model {
        let _ = writeln!(out, "{}", model.describe());
    }
    if opts.bvh.is_none() && opts.gltf.is_none() {
        return Ok(out);
    }
    let count = anim.dancers.len();
    let selected: Vec<usize> = match opts.dancer {
        Some(n) if n >= 1 && n <= count => vec![n - 1],
        Some(n) => return Err(format!("{name}: error: there is no dancer {n}; the score has {count}")),
        None => (0..count).collect(),
    };
    let frames = (anim.duration_secs * fps).floor() as usize + 1;
    let sampled: Vec<Vec<Pose>> = sample_dancers(&anim, &selected, fps, frames);
    if let Some(base) = &opts.bvh {
        for (&i, poses) in selected.iter().zip(&sampled) {
            let file =
                if selected.len() == 1 && opts.dancer.is_some() { base.clone() } else { bvh_path(base, i, count) };
            std::fs::write(&file, write_bvh(&anim.skeleton, poses, fps))
                .map_err(|e| format!("{}: error: cannot write: {e}", file.display()))?;
            let _ = writeln!(out, "wrote {} ({frames} frames at {fps} fps)", file.display());
        }
    }
    if let (Some(file), Some(model)) = (&opts.gltf, &model) {
        let rig = model.rig()?;
        if rig.skeleton != anim.skeleton {
            return Err(format!("error: the {} body and the animation disagree on the skeleton", rig.name));
        }
        let title = path.file_name().map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned());
        let input = GltfInput { rig: &rig, dancer_frames: &sampled, fps, title: &title };
        let glb = write_glb(&input).map_err(|e| format!("{}: error: {e}", file.display()))?;
        std::fs::write(file, &glb).map_err(|e| format!("{}: error: cannot write: {e}", file.display()))?;
        let _ = writeln!(
            out,
            "wrote {} ({} dancer(s), {} vertices, {frames} frames at {fps} fps, {} bytes)",
            file.display(),
            sampled.len(),
            rig.mesh.vertex_count(),
            glb.len()
        );
    }
    Ok(out)
}
