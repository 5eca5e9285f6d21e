//! `labanplay render`: the player's stage rendered offscreen (no window, no display) to an
//! animated GIF, a folder of numbered PNGs, or an MP4/WebM video encoded by the system's
//! `ffmpeg` (raw frames piped to it, the music track muxed in at its offset), with a plain-text
//! progress bar on stderr.
//!
//! The music comes from `--music`/`--offset`/`--bpm`, else from what the user set for that score in
//! the player (its settings file; `--no-settings` skips them), else from the score's sidecar
//! `NAME.music.json`. It is trimmed or delayed so that beat `--from` falls on the first frame,
//! padded with silence and cut to the video's length. MP4 is H.264 + AAC, WebM VP9 + Opus; without
//! `ffmpeg` the command says what to install.

use crate::body::models::DEFAULT_MODEL;
use crate::offline::OfflineError;
use crate::rehearse::settings::{ScoreSettings, Settings, score_key};
use crate::rehearse::sidecar::{ResolvedMusic, Sidecar, resolve_music};
use crate::rehearse::sync::Alignment;
use crate::render::{OffscreenTarget, Renderer, RendererConfig, create_headless};
use crate::stage::Scene;
use crate::stage::camera_input::{CameraView, follow, follow_from_behind, framed_camera};
use crate::stage::dancer_mesh::build_model;
use crate::stage::player::{Player, ScoreSource};
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
    /// Mirror the stage left–right (as the player's mirror view).
    pub mirror: bool,
    /// Music, offset and tempo given on the command line (they win over the score's sidecar).
    pub music: MusicOptions,
}

/// The music of a render: command-line values over the sidecar beside the score.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MusicOptions {
    /// The music file (`--music`).
    pub file: Option<PathBuf>,
    /// Seconds into the audio of beat 0 (`--offset`).
    pub offset_secs: Option<f64>,
    /// Tempo override (`--bpm`).
    pub bpm: Option<f64>,
    /// No music track in the video even when the sidecar names one (`--no-music`).
    pub none: bool,
    /// The player's settings file: what the user set for this score there (music, offset, tapped
    /// tempo) comes between the command line and the sidecar. `None`: not consulted.
    pub settings: Option<PathBuf>,
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
            mirror: false,
            music: MusicOptions::default(),
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
    /// A video file encoded by ffmpeg.
    Video(PathBuf, VideoKind),
}

impl Output {
    /// Where the output goes.
    pub fn path(&self) -> &Path {
        match self {
            Output::Gif(path) | Output::PngDir(path) | Output::Video(path, _) => path,
        }
    }
}

/// Video containers `labanplay render` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoKind {
    /// H.264 + AAC in MP4.
    Mp4,
    /// VP9 + Opus in WebM.
    Webm,
}

/// Decides the output kind from the `-o` argument: `*.gif` is a GIF, `*.mp4` / `*.webm` a
/// video; a path ending in `/`, an existing folder or a name without extension is a PNG folder;
/// anything else is an error.
pub fn output_kind(out: &Path) -> Result<Output, OfflineError> {
    let text = out.to_string_lossy();
    let extension = out.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    if text.ends_with('/') || out.is_dir() {
        return Ok(Output::PngDir(out.to_path_buf()));
    }
    match extension.as_deref() {
        Some("gif") => Ok(Output::Gif(out.to_path_buf())),
        Some("mp4") => Ok(Output::Video(out.to_path_buf(), VideoKind::Mp4)),
        Some("webm") => Ok(Output::Video(out.to_path_buf(), VideoKind::Webm)),
        None => Ok(Output::PngDir(out.to_path_buf())),
        Some(other) => Err(OfflineError::UnsupportedOutput { extension: other.to_owned(), path: out.to_path_buf() }),
    }
}

/// Parses `WIDTHxHEIGHT`, e.g. `640x360` (each side 16..=4096).
pub fn parse_size(text: &str) -> Result<[u32; 2], OfflineError> {
    let bad = || OfflineError::BadSize { text: text.to_owned() };
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(16..=4096).contains(&w) || !(16..=4096).contains(&h) {
        return Err(bad());
    }
    Ok([w, h])
}

/// The beats to render: `--from` (default 0) to `--to` (default the end), each within the score
/// and the first not after the second.
pub fn beat_range(
    from_beats: Option<f64>,
    to_beats: Option<f64>,
    duration_beats: f64,
) -> Result<(f64, f64), OfflineError> {
    let hint = if from_beats.is_some() && to_beats.is_some() { ", and --from before --to" } else { "" };
    let within = |flag: &'static str, beats: f64, low: f64| {
        if beats.is_finite() && beats >= low && beats <= duration_beats {
            Ok(beats)
        } else {
            Err(OfflineError::BeatRange { flag, beats, duration_beats, hint })
        }
    };
    let from = match from_beats {
        Some(beats) => within("--from", beats, 0.0)?,
        None => 0.0,
    };
    let to = match to_beats {
        Some(beats) => within("--to", beats, from)?,
        None => duration_beats,
    };
    Ok((from, to))
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
    /// The music muxed into the video, and the second of it the video starts at.
    pub music: Option<(PathBuf, f64)>,
    /// The tempo the score was rendered at, bpm.
    pub bpm: f64,
}

/// Environment variable naming the ffmpeg program (default: `ffmpeg` on the `PATH`).
pub const FFMPEG_ENV: &str = "LABANPLAY_FFMPEG";

/// The ffmpeg program to run, checked by running `ffmpeg -version`; the error says what to install.
pub fn find_ffmpeg() -> Result<PathBuf, OfflineError> {
    let program = std::env::var_os(FFMPEG_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let program = program.unwrap_or_else(|| PathBuf::from("ffmpeg"));
    let works = std::process::Command::new(&program)
        .arg("-version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if works { Ok(program) } else { Err(OfflineError::NoFfmpeg { program }) }
}

/// The music input of a video: the file and where in it the video starts (negative: the music
/// starts that much after the video).
#[derive(Clone, Debug, PartialEq)]
pub struct AudioInput {
    /// The music file.
    pub path: PathBuf,
    /// Seconds into the music at the video's first frame.
    pub start_secs: f64,
}

/// ffmpeg's arguments: raw RGBA frames of `size_px` at `fps` on stdin, the music (trimmed or
/// delayed to its start, padded with silence), cut to `frames / fps` seconds, encoded as `kind`.
pub fn ffmpeg_args(
    kind: VideoKind,
    size_px: [u32; 2],
    fps: f64,
    frames: usize,
    audio: Option<&AudioInput>,
    out: &Path,
) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    let mut push = |items: &[&str]| args.extend(items.iter().map(std::ffi::OsString::from));
    let size = format!("{}x{}", size_px[0], size_px[1]);
    let rate = format!("{fps}");
    push(&["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]);
    push(&["-f", "rawvideo", "-pix_fmt", "rgba", "-s", &size, "-framerate", &rate, "-i", "-"]);
    let mut audio_filter = "apad".to_owned();
    if let Some(audio) = audio {
        if audio.start_secs > 0.0 {
            push(&["-ss", &format!("{:.6}", audio.start_secs)]);
        } else if audio.start_secs < 0.0 {
            let delay_ms = (-audio.start_secs * 1000.0).round() as i64;
            audio_filter = format!("adelay={delay_ms}:all=1,apad");
        }
        push(&["-i"]);
        args.push(audio.path.clone().into_os_string());
    }
    let mut push = |items: &[&str]| args.extend(items.iter().map(std::ffi::OsString::from));
    push(&["-map", "0:v"]);
    // yuv420p needs even sides: pad odd ones by a pixel.
    push(&["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p"]);
    match kind {
        VideoKind::Mp4 => push(&["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-movflags", "+faststart"]),
        VideoKind::Webm => {
            push(&["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-b:v", "0"]);
            push(&["-crf", "33"]);
        }
    }
    if audio.is_some() {
        // Stereo at 48 kHz whatever the track's layout (AAC refuses some mono layouts).
        push(&["-map", "1:a", "-af", &audio_filter, "-ac", "2", "-ar", "48000"]);
        match kind {
            VideoKind::Mp4 => push(&["-c:a", "aac", "-b:a", "160k"]),
            VideoKind::Webm => push(&["-c:a", "libopus", "-b:a", "128k"]),
        }
    }
    let duration_secs = frames as f64 / fps;
    push(&["-t", &format!("{duration_secs:.6}")]);
    args.push(out.as_os_str().to_owned());
    args
}

/// A running ffmpeg taking frames on its stdin.
struct VideoEncoder {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl VideoEncoder {
    fn start(program: &Path, args: &[std::ffi::OsString]) -> Result<VideoEncoder, OfflineError> {
        use std::process::Stdio;
        let mut child = std::process::Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| OfflineError::FfmpegStart { program: program.to_path_buf(), source })?;
        let stdin = child.stdin.take();
        let stderr = child.stderr.take().map(|mut pipe| {
            std::thread::spawn(move || {
                let mut text = String::new();
                let _ = std::io::Read::read_to_string(&mut pipe, &mut text);
                text
            })
        });
        Ok(VideoEncoder { child, stdin, stderr })
    }

    fn write_frame(&mut self, rgba: &[u8]) -> Result<(), OfflineError> {
        let Some(stdin) = &mut self.stdin else { return Err(OfflineError::FfmpegClosed) };
        if stdin.write_all(rgba).is_err() {
            return Err(self.finish().err().unwrap_or(OfflineError::FfmpegStoppedReading));
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), OfflineError> {
        drop(self.stdin.take());
        let status = self.child.wait().map_err(OfflineError::FfmpegWait)?;
        let stderr = self.stderr.take().and_then(|h| h.join().ok()).unwrap_or_default();
        if status.success() {
            Ok(())
        } else {
            let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
            let stderr_tail = tail.into_iter().rev().map(str::to_owned).collect();
            Err(OfflineError::FfmpegFailed { status, stderr_tail })
        }
    }
}

/// The music setup of `options` for `score_file`: the command line, then what the user set for
/// this score in the player (its settings file), then the sidecar.
pub fn render_music(options: &RenderOptions) -> Result<ResolvedMusic, OfflineError> {
    let sidecar = match &options.file {
        Some(path) => Sidecar::load_beside(path)?,
        None => None,
    };
    let user = match (&options.music.settings, &options.file) {
        (Some(settings), Some(score)) => {
            let loaded = Settings::load(settings);
            loaded.settings.scores.get(&score_key(Some(score), "")).cloned().unwrap_or_default()
        }
        _ => ScoreSettings::default(),
    };
    let music_file = options.music.file.clone().or(user.music.clone());
    let mut resolved = resolve_music(
        music_file.as_deref(),
        options.music.offset_secs.or(user.offset_secs),
        options.music.bpm.or(user.bpm),
        sidecar.as_ref().map(|(p, s)| (p.as_path(), s)),
    );
    if options.music.none {
        resolved.music = None;
    }
    if let Some(music) = &resolved.music
        && !music.is_file()
    {
        let named_by = match (&options.music.file, &user.music, &sidecar) {
            (Some(_), _, _) | (None, None, None) => "--music".to_owned(),
            (None, Some(_), _) => format!(
                "the player's settings {}",
                options.music.settings.as_deref().unwrap_or(Path::new("")).display()
            ),
            (None, None, Some((path, _))) => path.display().to_string(),
        };
        return Err(OfflineError::MissingMusic { music: music.clone(), named_by });
    }
    Ok(resolved)
}

/// Where rendered frames go: a GIF encoder, a PNG folder or an ffmpeg pipe.
pub(crate) struct FrameSink {
    gif: Option<image::codecs::gif::GifEncoder<std::io::BufWriter<std::fs::File>>>,
    video: Option<VideoEncoder>,
    png_dir: Option<PathBuf>,
    delay: image::Delay,
    mirror: bool,
    frames: usize,
}

impl FrameSink {
    /// Opens `output` for `frames` frames of `options.size_px` at `options.fps`.
    pub(crate) fn open(
        output: &Output,
        ffmpeg: Option<&Path>,
        options: &RenderOptions,
        frames: usize,
        audio: Option<&AudioInput>,
    ) -> Result<FrameSink, OfflineError> {
        let delay = image::Delay::from_numer_denom_ms(1000, (options.fps.round() as u32).max(1));
        let mut sink = FrameSink { gif: None, video: None, png_dir: None, delay, mirror: options.mirror, frames };
        match output {
            Output::Gif(path) => {
                let file = std::fs::File::create(path)
                    .map_err(|source| OfflineError::CreateFile { path: path.clone(), source })?;
                let mut encoder = image::codecs::gif::GifEncoder::new_with_speed(std::io::BufWriter::new(file), 10);
                encoder.set_repeat(image::codecs::gif::Repeat::Infinite).map_err(OfflineError::Gif)?;
                sink.gif = Some(encoder);
            }
            Output::PngDir(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|source| OfflineError::CreateFolder { path: dir.clone(), source })?;
                sink.png_dir = Some(dir.clone());
            }
            Output::Video(path, kind) => {
                let program = ffmpeg.unwrap_or(Path::new("ffmpeg"));
                let args = ffmpeg_args(*kind, options.size_px, options.fps, frames, audio, path);
                sink.video = Some(VideoEncoder::start(program, &args)?);
            }
        }
        Ok(sink)
    }

    /// Writes frame `index` (0-based).
    pub(crate) fn write(&mut self, index: usize, image: image::RgbaImage) -> Result<(), OfflineError> {
        if let Some(encoder) = &mut self.gif {
            return encoder.encode_frame(image::Frame::from_parts(image, 0, 0, self.delay)).map_err(OfflineError::Gif);
        }
        if let Some(encoder) = &mut self.video {
            return encoder.write_frame(image.as_raw());
        }
        if let Some(dir) = &self.png_dir {
            let path = dir.join(format!("frame-{:04}.png", index + 1));
            image.save(&path).map_err(|source| OfflineError::WritePng { path: path.clone(), source })?;
        }
        Ok(())
    }

    /// Writes rendered frame `index` (mirrored when the options say so) and advances the
    /// progress bar.
    pub(crate) fn deliver(
        &mut self,
        index: usize,
        mut image: image::RgbaImage,
        progress: &mut dyn Write,
    ) -> Result<(), OfflineError> {
        if self.mirror {
            image::imageops::flip_horizontal_in_place(&mut image);
        }
        self.write(index, image)?;
        let _ = write!(progress, "{}", progress_bar(index + 1, self.frames, 30));
        let _ = progress.flush();
        Ok(())
    }

    /// Finishes the file (the GIF trailer, the video's encoder).
    pub(crate) fn finish(mut self) -> Result<(), OfflineError> {
        drop(self.gif.take());
        if let Some(mut encoder) = self.video.take() {
            encoder.finish()?;
        }
        Ok(())
    }
}

/// Renders the frames of `options`, printing progress to `progress`. The error says why it stopped
/// (no adapter → what to install; unreadable score; bad arguments).
pub fn render(options: &RenderOptions, progress: &mut dyn Write) -> Result<RenderSummary, OfflineError> {
    if let Some(path) = options.file.as_deref().filter(|p| crate::stage::plan_stage::is_plan_path(p)) {
        return crate::offline::plan_render::render_plan(path, options, progress);
    }
    let output = output_kind(&options.out)?;
    let ffmpeg = match &output {
        Output::Video(..) => Some(find_ffmpeg()?),
        _ => None,
    };
    let music = render_music(options)?;
    let model = build_model(&options.model)?;
    let opened = match &options.file {
        Some(path) => Some((crate::stage::player::open_path(path, &model.proportions)?, path.clone())),
        None => None,
    };
    let mut player = match opened {
        Some((crate::stage::player::Opened::Score(score), path)) => {
            Player::new(score, ScoreSource::File(path), model, options.toe_first)
        }
        Some((capture, path)) => {
            let (name, score) = crate::stage::demo_score(0).ok_or(OfflineError::NoDemo)?;
            let mut player = Player::new(score, ScoreSource::Demo(name), model, options.toe_first);
            player.replace_opened(capture, ScoreSource::File(path));
            player
        }
        None => {
            let (name, score) = crate::stage::demo_score(0).ok_or(OfflineError::NoDemo)?;
            Player::new(score, ScoreSource::Demo(name), model, options.toe_first)
        }
    };
    player.set_tempo_override(music.bpm);
    let bpm = player.playback.timeline().bpm;
    let duration = player.playback.timeline().duration_beats;
    let (from_beats, to_beats) = beat_range(options.from_beats, options.to_beats, duration)?;
    let times = frame_times_beats(from_beats, to_beats, options.fps, bpm);
    let audio = music.music.as_ref().map(|path| AudioInput {
        path: path.clone(),
        start_secs: Alignment::new(music.offset_secs, bpm).audio_secs_at(from_beats),
    });

    let gpu = create_headless().map_err(OfflineError::Gpu)?;
    let config = RendererConfig::recommended_for(&gpu, wgpu::TextureFormat::Rgba8UnormSrgb);
    let mut renderer = Renderer::new(&gpu.device, config);
    let mesh_id = renderer.upload_mesh(&gpu.device, &player.model().mesh).map_err(OfflineError::UploadModel)?;
    let [width, height] = options.size_px;
    let target = OffscreenTarget::new(&gpu, &renderer, width, height).map_err(OfflineError::Gpu)?;
    let aspect = width as f32 / height.max(1) as f32;
    let mut camera = framed_camera(options.camera, player.floor_bounds(), aspect);
    let mut scene = Scene::default();

    let mut sink = FrameSink::open(&output, ffmpeg.as_deref(), options, times.len(), audio.as_ref())?;
    let frame_secs = (1.0 / options.fps) as f32;
    for (index, t_beats) in times.iter().enumerate() {
        player.playback.seek(*t_beats);
        player.sample();
        if let Some(now) = player.tracking_frame(options.camera) {
            camera = framed_camera(options.camera, &now, aspect);
        }
        if let Some(pelvis) = player.selected_pelvis_in_world() {
            match options.camera {
                CameraView::FollowDancer => follow(&mut camera, pelvis),
                CameraView::Behind => {
                    let facing = player.selected_facing_in_world().unwrap_or(glam::Vec3::Z);
                    let dt = if index == 0 { f32::INFINITY } else { frame_secs };
                    follow_from_behind(&mut camera, pelvis, facing, dt);
                }
                _ => {}
            }
        }
        player.build_scene(mesh_id, &mut scene);
        let image = target
            .render(&gpu, &mut renderer, &scene, &camera)
            .map_err(|source| OfflineError::Frame { frame_number: index + 1, source })?;
        sink.deliver(index, image, progress)?;
    }
    let _ = writeln!(progress);
    sink.finish()?;
    let music = match (&output, audio) {
        (Output::Video(..), Some(audio)) => Some((audio.path, audio.start_secs)),
        _ => None,
    };
    Ok(RenderSummary { frames: times.len(), output, adapter: gpu.adapter_summary(), music, bpm })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn the_beat_range_stays_within_the_score() {
        assert_eq!(beat_range(None, None, 16.0).unwrap(), (0.0, 16.0));
        assert_eq!(beat_range(Some(4.0), Some(8.0), 16.0).unwrap(), (4.0, 8.0));
        assert_eq!(beat_range(Some(16.0), None, 16.0).unwrap(), (16.0, 16.0));
        for (from, to) in [(Some(100.0), None), (Some(-1.0), None), (None, Some(17.0)), (Some(8.0), Some(2.0))] {
            let error = beat_range(from, to, 16.0).unwrap_err();
            assert!(matches!(error, OfflineError::BeatRange { .. }), "{from:?} {to:?}: {error}");
            assert!(error.to_string().contains("from 0 to 16"), "{error}");
        }
        assert!(beat_range(Some(f64::NAN), None, 16.0).is_err());
    }

    #[test]
    fn output_kind_follows_the_name() {
        assert_eq!(output_kind(Path::new("a.gif")).unwrap(), Output::Gif("a.gif".into()));
        assert_eq!(output_kind(Path::new("A.GIF")).unwrap(), Output::Gif("A.GIF".into()));
        assert_eq!(output_kind(Path::new("frames/")).unwrap(), Output::PngDir("frames/".into()));
        assert_eq!(output_kind(Path::new("frames")).unwrap(), Output::PngDir("frames".into()));
        assert_eq!(output_kind(Path::new("m.MP4")).unwrap(), Output::Video("m.MP4".into(), VideoKind::Mp4));
        assert_eq!(output_kind(Path::new("m.webm")).unwrap(), Output::Video("m.webm".into(), VideoKind::Webm));
        let error = output_kind(Path::new("movie.avi")).unwrap_err().to_string();
        assert!(error.contains(".gif") && error.contains(".mp4"), "{error}");
    }

    #[test]
    fn sizes_parse_and_bad_ones_are_explained() {
        assert_eq!(parse_size("640x360").unwrap(), [640, 360]);
        assert_eq!(parse_size(" 320X180 ").unwrap(), [320, 180]);
        for bad in ["640", "x", "0x10", "99999x10", "axb", ""] {
            assert!(parse_size(bad).unwrap_err().to_string().contains("WIDTHxHEIGHT"), "{bad}");
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
    fn ffmpeg_gets_raw_frames_the_music_at_its_offset_and_the_exact_length() {
        let text = |args: Vec<std::ffi::OsString>| {
            args.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ")
        };
        let silent = text(ffmpeg_args(VideoKind::Mp4, [320, 180], 30.0, 90, None, Path::new("o.mp4")));
        assert!(silent.contains("-f rawvideo -pix_fmt rgba -s 320x180 -framerate 30 -i -"), "{silent}");
        assert!(silent.contains("libx264") && silent.ends_with("-t 3.000000 o.mp4"), "{silent}");
        assert!(!silent.contains("1:a"), "{silent}");
        let late = AudioInput { path: "m.ogg".into(), start_secs: 2.5 };
        let args = text(ffmpeg_args(VideoKind::Webm, [64, 64], 25.0, 50, Some(&late), Path::new("o.webm")));
        assert!(args.contains("-ss 2.500000 -i m.ogg") && args.contains("-map 1:a -af apad"), "{args}");
        assert!(args.contains("libvpx-vp9") && args.contains("libopus") && args.contains("-t 2.000000"), "{args}");
        let early = AudioInput { path: "m.ogg".into(), start_secs: -0.25 };
        let args = text(ffmpeg_args(VideoKind::Mp4, [64, 64], 25.0, 50, Some(&early), Path::new("o.mp4")));
        assert!(args.contains("adelay=250:all=1,apad") && !args.contains("-ss"), "{args}");
    }

    #[test]
    fn progress_bar_fills_proportionally() {
        assert_eq!(progress_bar(12, 48, 8), "\r[##      ] 12/48");
        assert_eq!(progress_bar(48, 48, 8), "\r[########] 48/48");
        assert_eq!(progress_bar(0, 0, 4), "\r[####] 0/0");
    }
}
