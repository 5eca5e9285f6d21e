//! Why `labanplay render` stopped: each reason keeps its path and the error underneath it;
//! the command line prints the message.

use crate::render::RenderError;
use std::path::PathBuf;

/// Why an offline render failed.
#[derive(Debug, thiserror::Error)]
pub enum OfflineError {
    /// `-o` has an extension no writer handles.
    #[error(
        "cannot write `.{extension}` output {}: give a `.gif`, `.mp4` or `.webm` file, or a folder (ending in `/`) \
         for PNG frames",
        path.display()
    )]
    UnsupportedOutput {
        /// The extension, lower case.
        extension: String,
        /// The output path.
        path: PathBuf,
    },
    /// `--size` is not `WIDTHxHEIGHT` within 16..=4096.
    #[error("bad size `{text}`: expected WIDTHxHEIGHT such as 640x360, each side 16 to 4096")]
    BadSize {
        /// What was given.
        text: String,
    },
    /// Video output without a working ffmpeg.
    #[error(
        "video export needs the `ffmpeg` program and `{}` does not run: install ffmpeg (Debian/Ubuntu: \
         `sudo apt-get install ffmpeg`; Fedora: `sudo dnf install ffmpeg`; macOS: `brew install ffmpeg`; \
         Windows: `winget install ffmpeg`), or render to OUT.gif or a PNG folder",
        program.display()
    )]
    NoFfmpeg {
        /// The program tried.
        program: PathBuf,
    },
    /// ffmpeg could not be started.
    #[error("cannot start {}: {source}", program.display())]
    FfmpegStart {
        /// The program.
        program: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A frame came after ffmpeg's input was closed.
    #[error("ffmpeg is closed")]
    FfmpegClosed,
    /// ffmpeg stopped taking frames but exited cleanly.
    #[error("ffmpeg stopped reading frames")]
    FfmpegStoppedReading,
    /// Waiting for ffmpeg failed.
    #[error("ffmpeg did not finish: {0}")]
    FfmpegWait(#[source] std::io::Error),
    /// ffmpeg exited with an error.
    #[error("ffmpeg failed ({status}): {}", stderr_tail.join(" / "))]
    FfmpegFailed {
        /// Its exit status.
        status: std::process::ExitStatus,
        /// The last lines it wrote on stderr.
        stderr_tail: Vec<String>,
    },
    /// The score's music sidecar could not be read.
    #[error(transparent)]
    Sidecar(#[from] crate::rehearse::sidecar::SidecarError),
    /// The music file named for the video does not exist.
    #[error("the music file {} (named by {named_by}) does not exist", music.display())]
    MissingMusic {
        /// The music file.
        music: PathBuf,
        /// What named it: `--music`, the player's settings file or the sidecar.
        named_by: String,
    },
    /// The output file could not be created.
    #[error("cannot create {}: {source}", path.display())]
    CreateFile {
        /// The output file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The PNG folder could not be created.
    #[error("cannot create the folder {}: {source}", path.display())]
    CreateFolder {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The GIF encoder failed.
    #[error("cannot write the GIF: {0}")]
    Gif(#[source] image::ImageError),
    /// A PNG frame could not be written.
    #[error("cannot write {}: {source}", path.display())]
    WritePng {
        /// The frame file.
        path: PathBuf,
        /// Why.
        #[source]
        source: image::ImageError,
    },
    /// The dancer model could not be built.
    #[error(transparent)]
    Model(#[from] crate::stage::ModelError),
    /// The score or capture could not be opened; shown with every diagnostic.
    #[error("{}", .0.render())]
    Score(#[from] crate::stage::player::OpenError),
    /// The plan could not be opened; shown with every diagnostic.
    #[error("{}", .0.render())]
    Plan(#[from] crate::stage::plan_stage::PlanOpenError),
    /// A plan's lights command names no lighting.
    #[error("{}: {source}", path.display())]
    Lights {
        /// The plan file.
        path: PathBuf,
        /// Why.
        #[source]
        source: crate::stage::plan_events::PlanEventError,
    },
    /// No bundled demo score to play.
    #[error("no demo score")]
    NoDemo,
    /// `--from`/`--to` outside the score, or reversed.
    #[error("{flag} {beats} is outside the score: give beats from 0 to {duration_beats} (the score's end){hint}")]
    BeatRange {
        /// `--from` or `--to`.
        flag: &'static str,
        /// What was given.
        beats: f64,
        /// The score's length in beats.
        duration_beats: f64,
        /// `, and --from before --to` where both are given.
        hint: &'static str,
    },
    /// No renderer or render target could be made.
    #[error("cannot render: {0}")]
    Gpu(#[source] RenderError),
    /// The dancer's mesh could not be uploaded.
    #[error("cannot upload the dancer model: {0}")]
    UploadModel(#[source] RenderError),
    /// A crowd body's mesh could not be uploaded.
    #[error("cannot upload the crowd body: {0}")]
    UploadCrowdBody(#[source] RenderError),
    /// A frame could not be rendered.
    #[error("cannot render frame {frame_number}: {source}")]
    Frame {
        /// The frame, counted from 1.
        frame_number: usize,
        /// Why.
        #[source]
        source: RenderError,
    },
}
