//! The metronome: a pure beat schedule (which clicks fall in a time interval, accent on the first
//! beat of each measure) and a player that sounds a short synthesized click through rodio when
//! an audio device opens, and otherwise stays silent and says why.

use crate::stage::playback::MeasureGrid;

/// Sample rate of the click sound handed to the mixer, in Hz.
pub const CLICK_SAMPLE_RATE_HZ: u32 = 44_100;
/// Length of a click, in seconds.
const CLICK_LENGTH_SECS: f32 = 0.03;
/// Clicks further apart than this many per advance are a jump: only the last one sounds.
const MAX_CLICKS_PER_ADVANCE: usize = 1;
/// Most clicks a schedule lists (a guard against absurd intervals).
const MAX_SCHEDULED_CLICKS: usize = 100_000;

/// One metronome click.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeatClick {
    /// When, in beats from the first double bar.
    pub t_beats: f64,
    /// First beat of a measure.
    pub accent: bool,
}

/// The clicks in `(from_beats, to_beats]`, in time order: one per beat of each measure of
/// `grid`, counted from the measure's start, accented on the measure's first beat. Beats after
/// the last measure (and every beat of a grid without measures, such as a capture's) follow
/// the grid's meter.
/// Works in beats, so tempo changes do not matter. Empty when `to <= from` or either is not finite.
pub fn beat_schedule(grid: MeasureGrid<'_>, from_beats: f64, to_beats: f64) -> Vec<BeatClick> {
    let mut clicks = Vec::new();
    if !(from_beats.is_finite() && to_beats.is_finite()) || to_beats <= from_beats {
        return clicks;
    }
    let push_measure = |clicks: &mut Vec<BeatClick>, start: f64, beats: f64| {
        // Beats k = 0, 1, … with start + k in (from, to] and k < beats.
        let k_first = ((from_beats - start).floor() + 1.0).max(0.0);
        let mut k = k_first;
        while k < beats - 1e-9 && clicks.len() < MAX_SCHEDULED_CLICKS {
            let t = start + k;
            if t > to_beats {
                break;
            }
            if t > from_beats {
                clicks.push(BeatClick { t_beats: t, accent: k == 0.0 });
            }
            k += 1.0;
        }
    };
    let valid = |m: &&crate::score::Measure| m.start_beats.is_finite() && m.beats.is_finite() && m.beats > 0.0;
    // Measures that can hold a click in the interval (kept sorted by start).
    let first = grid.measures.partition_point(|m| m.start_beats + m.beats <= from_beats);
    for m in grid.measures.get(first..).unwrap_or(&[]).iter().filter(valid) {
        if m.start_beats > to_beats {
            break;
        }
        push_measure(&mut clicks, m.start_beats, m.beats);
    }
    // After the last measure (or with none): the meter, from the end of the last measure.
    let per = f64::from(grid.beats_per_measure.max(1));
    let tail_start = grid.measures.iter().rev().find(valid).map(|m| m.start_beats + m.beats).unwrap_or(0.0);
    if to_beats >= tail_start {
        let skip = ((from_beats - tail_start) / per).floor().max(0.0);
        let mut start = tail_start + skip * per;
        while start <= to_beats && clicks.len() < MAX_SCHEDULED_CLICKS {
            push_measure(&mut clicks, start, per);
            start += per;
        }
    }
    clicks.sort_by(|a, b| a.t_beats.total_cmp(&b.t_beats));
    clicks.dedup_by(|a, b| (a.t_beats - b.t_beats).abs() < 1e-9);
    clicks
}

/// The click sound, mono, at `sample_rate` Hz: a few ms of a decaying sine. The accent is higher
/// and louder. Samples stay within [-1, 1]; a zero sample rate gives no samples.
pub fn click_samples(accent: bool, sample_rate: u32) -> Vec<f32> {
    if sample_rate == 0 {
        return Vec::new();
    }
    let (freq_hz, amplitude) = if accent { (1_760.0_f32, 0.9_f32) } else { (1_100.0, 0.5) };
    let rate = sample_rate as f32;
    let count = (CLICK_LENGTH_SECS * rate).round().max(1.0) as usize;
    let decay_per_sec = 160.0_f32;
    let attack_secs = 0.0008_f32;
    (0..count)
        .map(|i| {
            let t = i as f32 / rate;
            let attack = (t / attack_secs).min(1.0);
            let envelope = amplitude * attack * (-decay_per_sec * t).exp();
            (envelope * (std::f32::consts::TAU * freq_hz * t).sin()).clamp(-1.0, 1.0)
        })
        .collect()
}

/// A rodio source playing one click (for the mixer, or for `rodio::wav_to_writer` in tests).
pub fn click_source(accent: bool) -> rodio::buffer::SamplesBuffer {
    let channels = rodio::ChannelCount::MIN;
    let rate = rodio::SampleRate::new(CLICK_SAMPLE_RATE_HZ).unwrap_or(rodio::SampleRate::MIN);
    rodio::buffer::SamplesBuffer::new(channels, rate, click_samples(accent, CLICK_SAMPLE_RATE_HZ))
}

/// Why no audio output can open here, when that is certain without trying: on Linux, no sound
/// card in `/proc/asound/cards` and no PulseAudio or PipeWire socket. Asking ALSA anyway only
/// prints its own errors to the terminal.
fn no_sound_possible() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let cards = std::fs::read_to_string("/proc/asound/cards").unwrap_or_default();
    let has_card = cards.lines().any(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()));
    let runtime_dir = std::env::var_os("XDG_RUNTIME_DIR").map(std::path::PathBuf::from);
    let has_server = runtime_dir
        .is_some_and(|dir| ["pulse/native", "pipewire-0"].iter().any(|socket| dir.join(socket).exists()))
        || std::env::var_os("PULSE_SERVER").is_some();
    if has_card || has_server {
        None
    } else {
        Some("no audio output device: no sound card and no sound server".to_owned())
    }
}

/// Sounds the beat while the score plays. Holds the audio output when one opened.
pub struct Metronome {
    sink: Option<rodio::MixerDeviceSink>,
    unavailable: Option<String>,
    enabled: bool,
}

impl std::fmt::Debug for Metronome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metronome")
            .field("has_output", &self.sink.is_some())
            .field("unavailable", &self.unavailable)
            .field("enabled", &self.enabled)
            .finish()
    }
}

impl Default for Metronome {
    fn default() -> Self {
        Metronome::new()
    }
}

impl Metronome {
    /// Opens the default audio output. Never panics: with no device the metronome is
    /// unavailable (see [`Metronome::unavailable_reason`]) and does nothing. Starts disabled.
    pub fn new() -> Metronome {
        if let Some(reason) = no_sound_possible() {
            return Metronome::unavailable(reason);
        }
        match rodio::DeviceSinkBuilder::open_default_sink() {
            Ok(mut sink) => {
                sink.log_on_drop(false);
                Metronome { sink: Some(sink), unavailable: None, enabled: false }
            }
            Err(error) => Metronome::unavailable(format!("no audio output device: {error}")),
        }
    }

    /// A metronome that never sounds, with the given reason (tests, `--no-audio`).
    pub fn unavailable(reason: impl Into<String>) -> Metronome {
        Metronome { sink: None, unavailable: Some(reason.into()), enabled: false }
    }

    /// Why there is no sound, or `None` when an output device is open.
    pub fn unavailable_reason(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }

    /// The device's mixer, shared with the music player (one output for both).
    pub fn mixer(&self) -> Option<rodio::mixer::Mixer> {
        self.sink.as_ref().map(|sink| sink.mixer().clone())
    }

    /// Turns the clicks on or off.
    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
    }

    /// Whether clicks are on (they only sound when a device is open too).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Plays now the click of the beats in `(from_beats, to_beats]`. When the interval holds
    /// several beats (a seek or a stall), only the last one sounds, accented if any of them is.
    /// Does nothing when disabled, without a device, or when time went backwards.
    pub fn advance(&mut self, grid: MeasureGrid<'_>, from_beats: f64, to_beats: f64) {
        let Some(sink) = &self.sink else { return };
        if !self.enabled {
            return;
        }
        let clicks = beat_schedule(grid, from_beats, to_beats);
        if clicks.len() > MAX_CLICKS_PER_ADVANCE {
            let accent = clicks.iter().any(|c| c.accent);
            sink.mixer().add(click_source(accent));
        } else if let Some(click) = clicks.first() {
            sink.mixer().add(click_source(click.accent));
        }
    }
}
