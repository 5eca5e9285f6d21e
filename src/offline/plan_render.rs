//! `labanplay render PLAN.plan.toml`: an ensemble plan rendered offscreen, every performer
//! dancing — the 64 nearest the camera (within 20 m) in the full body and individually posed,
//! the others sharing poses in the low-detail body (the coarse one when small on screen); the
//! top view adds the paths, spots and conflicts. Lights commands light each frame, camera cuts
//! move the camera.

use crate::crowd::CrowdFrame;
use crate::offline::OfflineError;
use crate::offline::headless::{FrameSink, RenderOptions, RenderSummary, frame_times_beats, output_kind};
use crate::render::{OffscreenTarget, Renderer, RendererConfig, create_headless};
use crate::stage::Scene;
use crate::stage::camera_input::{CameraView, framed_camera};
use crate::stage::dancer_mesh::{build_model, coarse_mannequin, low_detail_mannequin};
use crate::stage::plan_events::{camera_at, lighting_at};
use crate::stage::plan_stage::{
    PlanMeshes, PlanOptions, build_plan_scene, open_plan, plan_bounds, plan_view, push_conflicts,
};
use std::io::Write;
use std::path::Path;

/// Renders the plan at `path` as `options` say (music options are ignored: plans carry cues).
pub fn render_plan(
    path: &Path,
    options: &RenderOptions,
    progress: &mut dyn Write,
) -> Result<RenderSummary, OfflineError> {
    let output = output_kind(&options.out)?;
    let ffmpeg = match &output {
        crate::offline::headless::Output::Video(..) => Some(crate::offline::headless::find_ffmpeg()?),
        _ => None,
    };
    let model = build_model(&options.model)?;
    let low = low_detail_mannequin(&model.proportions)?;
    let coarse = coarse_mannequin(&model.proportions)?;
    let crowd = open_plan(path, &model)?;
    let bpm = crowd.plan.clock.tempo.bpm;
    let duration = crowd.end_beats();
    let from_beats = options.from_beats.unwrap_or(0.0).clamp(0.0, duration);
    let to_beats = options.to_beats.unwrap_or(duration).clamp(from_beats, duration);
    let times = frame_times_beats(from_beats, to_beats, options.fps, bpm);

    let gpu = create_headless().map_err(OfflineError::Gpu)?;
    let config = RendererConfig::recommended_for(&gpu, wgpu::TextureFormat::Rgba8UnormSrgb);
    let mut renderer = Renderer::new(&gpu.device, config);
    let full_id = renderer.upload_mesh(&gpu.device, &model.mesh).map_err(OfflineError::UploadModel)?;
    let low_id = renderer.upload_mesh(&gpu.device, &low.mesh).map_err(OfflineError::UploadCrowdBody)?;
    let coarse_id = renderer.upload_mesh(&gpu.device, &coarse.mesh).map_err(OfflineError::UploadCrowdBody)?;
    let [width, height] = options.size_px;
    let target = OffscreenTarget::new(&gpu, &renderer, width, height).map_err(OfflineError::Gpu)?;
    let aspect = width as f32 / height.max(1) as f32;
    let view = options.camera;
    let bounds = plan_bounds(&crowd);
    let camera_for = |view: CameraView| {
        let view = match view {
            CameraView::FollowDancer | CameraView::Behind => CameraView::ThreeQuarter,
            v => v,
        };
        let mut camera = framed_camera(view, &bounds, aspect);
        camera.far_m = camera.far_m.max(4.0 * camera.distance_m);
        (view, camera)
    };
    let (mut view, mut camera) = camera_for(view);
    let meshes = PlanMeshes { full: (&model, full_id), low: (&low, low_id), coarse: (&coarse, coarse_id) };
    let report = crate::ensemble::conflicts::check(&crowd.plan, &crowd.motion);
    let mut scene = Scene::default();
    let mut frame = CrowdFrame::default();
    let mut cut = None;
    let mut sink = FrameSink::open(&output, ffmpeg.as_deref(), options, times.len(), None)?;
    for (index, t_beats) in times.iter().enumerate() {
        // A camera cut moves the camera from its beat on (`--camera` is the view before the first).
        if let Some((k, cut_view)) = camera_at(&crowd.plan, *t_beats)
            && cut != Some(k)
        {
            cut = Some(k);
            (view, camera) = camera_for(cut_view);
        }
        let plan_options = PlanOptions { paths_and_spots: view == CameraView::Top, ..PlanOptions::default() };
        let detail = plan_view(&camera, height);
        build_plan_scene(&crowd, *t_beats, &detail, meshes, plan_options, &mut frame, &mut scene);
        if plan_options.paths_and_spots {
            push_conflicts(&crowd, &report, &mut scene);
        }
        let (lighting, error) = lighting_at(&crowd.plan, *t_beats);
        if let Some(source) = error {
            return Err(OfflineError::Lights { path: path.to_path_buf(), source });
        }
        scene.lighting = lighting;
        let image = target
            .render(&gpu, &mut renderer, &scene, &camera)
            .map_err(|source| OfflineError::Frame { frame_number: index + 1, source })?;
        sink.deliver(index, image, progress)?;
    }
    let _ = writeln!(progress);
    sink.finish()?;
    Ok(RenderSummary { frames: times.len(), output, adapter: gpu.adapter_summary(), music: None, bpm })
}
