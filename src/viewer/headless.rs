//! `labanplay render`: the player's stage rendered offscreen (no window, no display) to an
//! animated GIF or a folder of numbered PNGs, with a plain-text progress bar on stderr.

use crate::render::{OffscreenTarget, Renderer, RendererConfig, Scene, create_headless};
use crate::viewer::camera_input::{CameraView, follow, framed_camera};
use crate::viewer::dancer_mesh::{DEFAULT_MODEL, build_model};
use crate::viewer::player::{Player, ScoreSource};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// The score (the first bundled demo when `None`).
    pub file: Option<PathBuf>,
    /// `OUT.gif`, or a folder (ending in `/` or existing) for `frame-0001.png`, ….
    pub out: PathBuf,
    /// Image size in pixels.
    pub size_px: [u32; 2],
    /// Frames per second of score time.
    pub fps: f64,
    /// Camera angle.
    pub camera: CameraView,
    /// Dancer model name.
    pub model: String,
    /// First beat rendered (default 0).
    pub from_beats: Option<f64>,
    /// Last beat (default the end of the score).
    pub to_beats: Option<f64>,
    /// Steps land on the ball of the foot first.
    pub toe_first: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            file: None,
            out: PathBuf::from("labanplay.gif"),
            size_px: [640, 360],
            fps: 30.0,
            camera: CameraView::ThreeQuarter,
            model: DEFAULT_MODEL.to_owned(),
            from_beats: None,
            to_beats: None,
            toe_first: false,
        }
    }
}

/// Where frames go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// One animated GIF file.
    Gif(PathBuf),
    /// Numbered PNGs in this folder.
    PngDir(PathBuf),
}

/// Decides the output kind from the `-o` argument: `*.gif` is a GIF; a path ending in `/`, an
/// existing folder or a name without extension is a PNG folder; anything else is an error.
pub fn output_kind(out: &Path) -> Result<Output, String> {
    let text = out.to_string_lossy();
    let extension = out.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    if text.ends_with('/') || out.is_dir() {
        return Ok(Output::PngDir(out.to_path_buf()));
    }
    match extension.as_deref() {
        Some("gif") => Ok(Output::Gif(out.to_path_buf())),
        None => Ok(Output::PngDir(out.to_path_buf())),
        Some(other) => Err(format!(
            "cannot write `.{other}` output {}: give a `.gif` file or a folder (ending in `/`) for PNG frames",
            out.display()
        )),
    }
}

/// Parses `WIDTHxHEIGHT`, e.g. `640x360` (each side 16..=4096).
pub fn parse_size(text: &str) -> Result<[u32; 2], String> {
    let bad = || format!("bad size `{text}`: expected WIDTHxHEIGHT such as 640x360, each side 16 to 4096");
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(16..=4096).contains(&w) || !(16..=4096).contains(&h) {
        return Err(bad());
    }
    Ok([w, h])
}

/// Frame times in beats: from `from_beats` every `1 / fps` seconds of score time while not past
/// `to_beats` (always at least one frame). `bpm` converts seconds to beats.
pub fn frame_times_beats(from_beats: f64, to_beats: f64, fps: f64, bpm: f64) -> Vec<f64> {
    if !(fps.is_finite() && fps > 0.0 && bpm.is_finite() && bpm > 0.0 && from_beats.is_finite()) {
        return vec![if from_beats.is_finite() { from_beats } else { 0.0 }];
    }
    let step_beats = bpm / 60.0 / fps;
    let span_beats = if to_beats.is_finite() { (to_beats - from_beats).max(0.0) } else { 0.0 };
    // A tiny tolerance keeps the last frame when the span is a whole number of steps.
    let count = ((span_beats / step_beats) + 1e-9).floor() as usize + 1;
    (0..count.min(100_000)).map(|k| from_beats + k as f64 * step_beats).collect()
}

/// The progress line: `\r[####    ] 12/48`.
pub fn progress_bar(done: usize, total: usize, width: usize) -> String {
    let filled = (done.min(total) * width).checked_div(total).unwrap_or(width);
    format!("\r[{}{}] {done}/{total}", "#".repeat(filled), " ".repeat(width - filled))
}

/// Summary of a finished render.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderSummary {
    /// Frames written.
    pub frames: usize,
    /// Where they went.
    pub output: Output,
    /// The adapter used.
    pub adapter: String,
}

/// Renders the frames of `options`, printing progress to `progress`. Errors are messages for
/// the user (no adapter → what to install; unreadable score; bad arguments).
pub fn render(options: &RenderOptions, progress: &mut dyn Write) -> Result<RenderSummary, String> {
    let output = output_kind(&options.out)?;
    let model = build_model(&options.model)?;
    let (score, source) = match &options.file {
        Some(path) => (crate::viewer::files::open_score(path)?, ScoreSource::File(path.clone())),
        None => {
            let (name, score) = crate::viewer::demo_score(0).ok_or("no demo score")?;
            (score, ScoreSource::Demo(name))
        }
    };
    let mut player = Player::new(score, source, model, options.toe_first);
    let duration = player.playback.timeline().duration_beats;
    let from_beats = options.from_beats.unwrap_or(0.0).clamp(0.0, duration);
    let to_beats = options.to_beats.unwrap_or(duration).clamp(from_beats, duration);
    let times = frame_times_beats(from_beats, to_beats, options.fps, player.playback.timeline().bpm);

    let gpu = create_headless().map_err(|e| format!("cannot render: {e}"))?;
    let config = RendererConfig::recommended_for(&gpu, wgpu::TextureFormat::Rgba8UnormSrgb);
    let mut renderer = Renderer::new(&gpu.device, config);
    let mesh_id = renderer
        .upload_mesh(&gpu.device, &player.model().mesh)
        .map_err(|e| format!("cannot upload the dancer model: {e}"))?;
    let [width, height] = options.size_px;
    let target = OffscreenTarget::new(&gpu, &renderer, width, height).map_err(|e| format!("cannot render: {e}"))?;
    let aspect = width as f32 / height.max(1) as f32;
    let mut camera = framed_camera(options.camera, player.floor_bounds(), aspect);
    let mut scene = Scene::default();

    let mut gif = match &output {
        Output::Gif(path) => {
            let file = std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            let mut encoder = image::codecs::gif::GifEncoder::new_with_speed(std::io::BufWriter::new(file), 10);
            encoder
                .set_repeat(image::codecs::gif::Repeat::Infinite)
                .map_err(|e| format!("cannot write the GIF: {e}"))?;
            Some(encoder)
        }
        Output::PngDir(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the folder {}: {e}", dir.display()))?;
            None
        }
    };
    let delay = image::Delay::from_numer_denom_ms(1000, (options.fps.round() as u32).max(1));
    for (index, t_beats) in times.iter().enumerate() {
        player.playback.seek(*t_beats);
        player.sample();
        if options.camera == CameraView::FollowDancer
            && let Some(pelvis) = player.first_pelvis_in_world()
        {
            follow(&mut camera, pelvis);
        }
        player.build_scene(mesh_id, &mut scene);
        let image = target
            .render(&gpu, &mut renderer, &scene, &camera)
            .map_err(|e| format!("cannot render frame {}: {e}", index + 1))?;
        match (&mut gif, &output) {
            (Some(encoder), _) => encoder
                .encode_frame(image::Frame::from_parts(image, 0, 0, delay))
                .map_err(|e| format!("cannot write the GIF: {e}"))?,
            (None, Output::PngDir(dir)) => {
                let path = dir.join(format!("frame-{:04}.png", index + 1));
                image.save(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            (None, Output::Gif(_)) => {}
        }
        let _ = write!(progress, "{}", progress_bar(index + 1, times.len(), 30));
        let _ = progress.flush();
    }
    let _ = writeln!(progress);
    drop(gif);
    Ok(RenderSummary { frames: times.len(), output, adapter: gpu.adapter_summary() })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn output_kind_follows_the_name() {
        assert_eq!(output_kind(Path::new("a.gif")).unwrap(), Output::Gif("a.gif".into()));
        assert_eq!(output_kind(Path::new("A.GIF")).unwrap(), Output::Gif("A.GIF".into()));
        assert_eq!(output_kind(Path::new("frames/")).unwrap(), Output::PngDir("frames/".into()));
        assert_eq!(output_kind(Path::new("frames")).unwrap(), Output::PngDir("frames".into()));
        assert!(output_kind(Path::new("movie.mp4")).unwrap_err().contains(".gif"));
    }

    #[test]
    fn sizes_parse_and_bad_ones_are_explained() {
        assert_eq!(parse_size("640x360").unwrap(), [640, 360]);
        assert_eq!(parse_size(" 320X180 ").unwrap(), [320, 180]);
        for bad in ["640", "x", "0x10", "99999x10", "axb", ""] {
            assert!(parse_size(bad).unwrap_err().contains("WIDTHxHEIGHT"), "{bad}");
        }
    }

    #[test]
    fn frame_times_cover_the_range_at_the_frame_rate() {
        // 120 bpm, 10 fps: 0.2 beats per frame; 4 beats → 21 frames including both ends.
        let times = frame_times_beats(0.0, 4.0, 10.0, 120.0);
        assert_eq!(times.len(), 21);
        assert!((times[20] - 4.0).abs() < 1e-9);
        assert!(times.windows(2).all(|w| (w[1] - w[0] - 0.2).abs() < 1e-9));
        assert_eq!(frame_times_beats(2.0, 2.0, 30.0, 60.0), vec![2.0]);
        assert_eq!(frame_times_beats(1.0, 5.0, f64::NAN, 60.0), vec![1.0]);
        assert_eq!(frame_times_beats(3.0, 1.0, 30.0, 60.0), vec![3.0]);
    }

    #[test]
    fn progress_bar_fills_proportionally() {
        assert_eq!(progress_bar(12, 48, 8), "\r[##      ] 12/48");
        assert_eq!(progress_bar(48, 48, 8), "\r[########] 48/48");
        assert_eq!(progress_bar(0, 0, 4), "\r[####] 0/0");
    }
}
