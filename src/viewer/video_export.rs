//! "Export video…" in the player: runs `labanplay render` as a child process with what the
//! player shows (score, camera, model, mirror, music, offset, tempo) and reports its progress on
//! the status line, so the window keeps playing while the video is written.

use crate::stage::player::{Player, ScoreSource};
use crate::viewer::rehearsal::Rehearsal;
use crate::viewer::ui::UiState;
use std::ffi::OsString;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;

/// What the video shows, as the player has it set up now.
#[derive(Clone, Debug, PartialEq)]
pub struct VideoRequest {
    /// The score file (a demo is written to a file first).
    pub score: PathBuf,
    /// `OUT.mp4` or `OUT.webm`.
    pub out: PathBuf,
    /// Camera name as `render --camera` takes it.
    pub camera: &'static str,
    /// Dancer model name.
    pub model: String,
    /// Mirror view on.
    pub mirror: bool,
    /// The music track, or `None` for a silent video.
    pub music: Option<PathBuf>,
    /// Seconds into the music of beat 0.
    pub offset_secs: f64,
    /// Tempo override, beats per minute.
    pub bpm: Option<f64>,
    /// Image size.
    pub size_px: [u32; 2],
}

/// The `labanplay` arguments that render `request` (explicit music arguments, so the video has
/// exactly what the player plays whatever is saved).
pub fn render_args(request: &VideoRequest) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["render".into(), request.score.clone().into(), "-o".into()];
    args.push(request.out.clone().into());
    args.push("--size".into());
    args.push(format!("{}x{}", request.size_px[0], request.size_px[1]).into());
    args.extend(["--camera".into(), request.camera.into(), "--model".into(), request.model.clone().into()]);
    if request.mirror {
        args.push("--mirror".into());
    }
    match &request.music {
        Some(music) => {
            args.extend(["--music".into(), music.clone().into()]);
            args.extend(["--offset".into(), format!("{}", request.offset_secs).into()]);
        }
        None => args.push("--no-music".into()),
    }
    if let Some(bpm) = request.bpm {
        args.extend(["--bpm".into(), format!("{bpm}").into()]);
    }
    args
}

/// `(frames done, frames in all)` from the render's progress output (`\r[###   ] 12/48`, each
/// reading ended by the next `\r` or a newline), the last complete reading in `text`.
pub fn last_progress(text: &str) -> Option<(usize, usize)> {
    let complete = &text[..text.rfind(['\r', '\n']).unwrap_or(0)];
    complete
        .rsplit(['\r', '\n'])
        .filter_map(|piece| {
            let counts = piece.rsplit(' ').next()?;
            let (done, total) = counts.split_once('/')?;
            Some((done.trim().parse().ok()?, total.trim().parse().ok()?))
        })
        .next()
}

/// The video of what the player shows now: its score (a demo written to the temporary folder
/// first, the video then in the current folder), camera, model, mirror and music.
pub fn request_from(player: &Player, ui: &UiState, rehearsal: &Rehearsal) -> Result<VideoRequest, String> {
    let (score, out) = match player.source() {
        ScoreSource::File(path) => (path.clone(), default_video_path(path)),
        ScoreSource::Demo(name) => {
            let (_, bytes) = crate::stage::DEMOS.iter().find(|(n, _)| n == name).ok_or("unknown demo")?;
            let score = std::env::temp_dir().join(format!("labanplay-demo-{name}.lbn"));
            std::fs::write(&score, bytes).map_err(|e| format!("cannot write {}: {e}", score.display()))?;
            let out = std::env::current_dir().unwrap_or_default().join(format!("{name}.mp4"));
            (score, out)
        }
    };
    Ok(VideoRequest {
        score,
        out,
        camera: ui.camera_view.name(),
        model: player.model().name.clone(),
        mirror: ui.mirror,
        music: rehearsal.music.track().map(|t| t.path.clone()),
        offset_secs: rehearsal.sync.alignment().offset_secs,
        bpm: player.tempo_override(),
        size_px: [1280, 720],
    })
}

/// Where a video of `score` goes by default: beside it, `NAME.mp4`.
pub fn default_video_path(score: &Path) -> PathBuf {
    score.with_extension("mp4")
}

/// How a running export stands.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportState {
    /// Still rendering: frames done of all.
    Running(Option<(usize, usize)>),
    /// Finished: the status text (what was written, or why not).
    Done(Result<String, String>),
}

/// A `labanplay render` child writing a video.
#[derive(Debug)]
pub struct VideoExport {
    child: Child,
    out: PathBuf,
    stderr: Receiver<String>,
    stderr_text: String,
}

impl VideoExport {
    /// Starts `program` (this executable) rendering `request`.
    pub fn start(program: &Path, request: &VideoRequest) -> Result<VideoExport, String> {
        let mut child = Command::new(program)
            .args(render_args(request))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the video export ({}): {e}", program.display()))?;
        let mut pipe = child.stderr.take().ok_or("the video export has no output pipe")?;
        let (sender, stderr) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("labanplay video export".to_owned())
            .spawn(move || {
                let mut buffer = [0u8; 512];
                while let Ok(n) = pipe.read(&mut buffer) {
                    if n == 0 || sender.send(String::from_utf8_lossy(&buffer[..n]).into_owned()).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot watch the video export: {e}"))?;
        Ok(VideoExport { child, out: request.out.clone(), stderr, stderr_text: String::new() })
    }

    /// Reads what the child printed and whether it has finished.
    pub fn poll(&mut self) -> ExportState {
        while let Ok(text) = self.stderr.try_recv() {
            self.stderr_text.push_str(&text);
        }
        match self.child.try_wait() {
            Ok(None) => ExportState::Running(last_progress(&self.stderr_text)),
            Ok(Some(status)) if status.success() => {
                ExportState::Done(Ok(format!("wrote the video {}", self.out.display())))
            }
            Ok(Some(_)) => {
                let error = self.stderr_text.lines().rev().find(|l| l.starts_with("error:")).unwrap_or("it failed");
                ExportState::Done(Err(format!("video export failed: {}", error.trim_start_matches("error: "))))
            }
            Err(e) => ExportState::Done(Err(format!("video export: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::models::DEFAULT_MODEL;

    fn request() -> VideoRequest {
        VideoRequest {
            score: PathBuf::from("/s/dance.lbn"),
            out: PathBuf::from("/s/dance.mp4"),
            camera: "behind",
            model: DEFAULT_MODEL.to_owned(),
            mirror: true,
            music: Some(PathBuf::from("/m/song.ogg")),
            offset_secs: 1.25,
            bpm: Some(96.0),
            size_px: [1280, 720],
        }
    }

    #[test]
    fn the_arguments_carry_what_the_player_shows() {
        let args: Vec<String> = render_args(&request()).iter().map(|a| a.to_string_lossy().into_owned()).collect();
        let expected = format!(
            "render /s/dance.lbn -o /s/dance.mp4 --size 1280x720 --camera behind --model {DEFAULT_MODEL} \
             --mirror --music /m/song.ogg --offset 1.25 --bpm 96"
        );
        assert_eq!(args.join(" "), expected);
        let silent = VideoRequest { music: None, mirror: false, bpm: None, ..request() };
        let args: Vec<String> = render_args(&silent).iter().map(|a| a.to_string_lossy().into_owned()).collect();
        assert!(args.ends_with(&[DEFAULT_MODEL.to_owned(), "--no-music".to_owned()]), "{args:?}");
    }

    #[test]
    fn progress_is_the_last_complete_count() {
        assert_eq!(last_progress("\r[#   ] 1/48\r[##  ] 12/48\r"), Some((12, 48)));
        // The last reading may be cut by the pipe: the one before it counts.
        assert_eq!(last_progress("\r[#   ] 1/48\r[##  ] 12/4"), Some((1, 48)));
        assert_eq!(last_progress("\r[####] 48/48\nwrote"), Some((48, 48)));
        assert_eq!(last_progress("starting"), None);
        assert_eq!(default_video_path(Path::new("/a/b.lbn")), PathBuf::from("/a/b.mp4"));
    }
}
