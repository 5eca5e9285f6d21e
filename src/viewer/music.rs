//! The music track on the audio device: a file decoded by rodio (WAV, FLAC, OGG/Vorbis, MP3),
//! played from any position on the metronome's output, reporting how far the device has pulled
//! it, which is the clock [`crate::rehearse::clock::MusicSync`] makes the picture follow.
//! Without a device it stays silent and says why.

use crate::rehearse::clock::AudioOutput;
use rodio::Source as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A music file that decodes.
#[derive(Clone, Debug, PartialEq)]
pub struct MusicTrack {
    /// The file.
    pub path: PathBuf,
    /// Its length, seconds, when the decoder knows it.
    pub duration_secs: Option<f64>,
}

/// Opens `path` and checks that rodio decodes it; the error says what went wrong.
pub fn probe_track(path: &Path) -> Result<MusicTrack, String> {
    let decoder = open_decoder(path)?;
    let duration_secs = decoder.total_duration().map(|d| d.as_secs_f64());
    Ok(MusicTrack { path: path.to_path_buf(), duration_secs })
}

fn open_decoder(path: &Path) -> Result<rodio::Decoder<std::io::BufReader<std::fs::File>>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open the music {}: {e}", path.display()))?;
    rodio::Decoder::try_from(file).map_err(|e| {
        format!("cannot decode the music {}: {e} (WAV, FLAC, OGG/Vorbis and MP3 are supported)", path.display())
    })
}

/// Plays the track on the device (see the module docs).
pub struct MusicPlayer {
    mixer: Option<rodio::mixer::Mixer>,
    unavailable: Option<String>,
    track: Option<MusicTrack>,
    player: Option<rodio::Player>,
    start_secs: f64,
    error: Option<String>,
}

impl std::fmt::Debug for MusicPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MusicPlayer")
            .field("has_output", &self.mixer.is_some())
            .field("unavailable", &self.unavailable)
            .field("track", &self.track)
            .field("sounding", &self.player.is_some())
            .finish()
    }
}

impl MusicPlayer {
    /// A player on `mixer` (the metronome's output); `unavailable` says why there is none.
    pub fn new(mixer: Option<rodio::mixer::Mixer>, unavailable: Option<String>) -> MusicPlayer {
        let unavailable = if mixer.is_none() {
            Some(unavailable.unwrap_or_else(|| "no audio output device".to_owned()))
        } else {
            None
        };
        MusicPlayer { mixer, unavailable, track: None, player: None, start_secs: 0.0, error: None }
    }

    /// Why the music cannot sound here (no device), or `None`.
    pub fn unavailable_reason(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }

    /// The last playback error (a file that stopped decoding), if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The loaded track.
    pub fn track(&self) -> Option<&MusicTrack> {
        self.track.as_ref()
    }

    /// Loads (or with `None` unloads) a track, stopping what was playing.
    pub fn set_track(&mut self, track: Option<MusicTrack>) {
        self.stop();
        self.track = track;
        self.error = None;
    }
}

impl AudioOutput for MusicPlayer {
    fn position_secs(&self) -> Option<f64> {
        let player = self.player.as_ref()?;
        if player.empty() {
            return None;
        }
        Some(self.start_secs + player.get_pos().as_secs_f64())
    }

    fn start_at(&mut self, audio_secs: f64) {
        self.stop();
        let (Some(mixer), Some(track)) = (&self.mixer, &self.track) else { return };
        let mut decoder = match open_decoder(&track.path) {
            Ok(decoder) => decoder,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        let start = audio_secs.max(0.0);
        if start > 0.0
            && let Err(error) = decoder.try_seek(Duration::from_secs_f64(start))
        {
            self.error = Some(format!("cannot seek in the music: {error}"));
            return;
        }
        let player = rodio::Player::connect_new(mixer);
        player.append(decoder);
        self.start_secs = start;
        self.player = Some(player);
    }

    fn stop(&mut self) {
        if let Some(player) = self.player.take() {
            player.stop();
        }
    }

    fn track_secs(&self) -> Option<f64> {
        self.track.as_ref().and_then(|t| t.duration_secs)
    }

    fn can_sound(&self) -> bool {
        self.mixer.is_some() && self.track.is_some()
    }
}
