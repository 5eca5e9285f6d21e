//! The sync arithmetic between score time (beats) and music time (seconds into the audio file):
//! an offset (where beat 0 falls in the audio) and a tempo (the score's, or an override).

use crate::score::TempoMap;

/// Speeds within this of 1× play the music; others mute it (labanplay does not time-stretch).
pub const UNITY_SPEED_TOLERANCE: f64 = 1e-6;

/// How a score lines up with a music track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Alignment {
    /// Seconds into the audio where beat 0 of the score falls (may be negative: the music starts
    /// after the dance).
    pub offset_secs: f64,
    /// Quarter-note beats per minute the score is played at (> 0).
    pub bpm: f64,
}

impl Default for Alignment {
    fn default() -> Self {
        Alignment { offset_secs: 0.0, bpm: TempoMap::DEFAULT_BPM }
    }
}

impl Alignment {
    /// An alignment with non-finite offsets counted as 0 and non-finite or non-positive tempi as
    /// [`TempoMap::DEFAULT_BPM`].
    pub fn new(offset_secs: f64, bpm: f64) -> Alignment {
        let offset_secs = if offset_secs.is_finite() { offset_secs } else { 0.0 };
        let bpm = if bpm.is_finite() && bpm > 0.0 { bpm } else { TempoMap::DEFAULT_BPM };
        Alignment { offset_secs, bpm }
    }

    /// Seconds into the audio at score beat `t_beats`.
    pub fn audio_secs_at(&self, t_beats: f64) -> f64 {
        self.offset_secs + t_beats * 60.0 / self.bpm
    }

    /// Score beat at `audio_secs` seconds into the audio.
    pub fn beats_at(&self, audio_secs: f64) -> f64 {
        (audio_secs - self.offset_secs) * self.bpm / 60.0
    }

    /// Length of one beat, seconds.
    pub fn secs_per_beat(&self) -> f64 {
        60.0 / self.bpm
    }
}

/// The tempo the score plays at: the override when it is a usable tempo, else the score's own.
pub fn effective_bpm(score_bpm: f64, override_bpm: Option<f64>) -> f64 {
    match override_bpm {
        Some(bpm) if bpm.is_finite() && bpm > 0.0 => bpm,
        _ if score_bpm.is_finite() && score_bpm > 0.0 => score_bpm,
        _ => TempoMap::DEFAULT_BPM,
    }
}

/// Seconds of the score's own timing (what the compiled motion is sampled in) at `t_beats`.
pub fn score_secs_at(t_beats: f64, score_bpm: f64) -> f64 {
    t_beats * 60.0 / effective_bpm(score_bpm, None)
}

/// True when the music plays at `speed` (only at 1×: other speeds mute it).
pub fn music_plays_at(speed: f64) -> bool {
    (speed - 1.0).abs() <= UNITY_SPEED_TOLERANCE
}

/// The note shown while the music is muted by the speed, `None` at 1×.
pub fn speed_note(speed: f64) -> Option<String> {
    (!music_plays_at(speed))
        .then(|| format!("music muted at {speed:.2}×: labanplay does not time-stretch; it plays again at 1×"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_tempo_convert_both_ways() {
        let a = Alignment::new(2.5, 120.0);
        assert_eq!(a.audio_secs_at(0.0), 2.5);
        assert_eq!(a.audio_secs_at(4.0), 4.5);
        assert_eq!(a.beats_at(4.5), 4.0);
        assert_eq!(a.beats_at(0.0), -5.0);
        assert_eq!(Alignment::new(f64::NAN, -3.0), Alignment::default());
        assert_eq!(effective_bpm(90.0, Some(100.0)), 100.0);
        assert_eq!(effective_bpm(90.0, Some(0.0)), 90.0);
        assert_eq!(effective_bpm(f64::NAN, None), TempoMap::DEFAULT_BPM);
        assert!(music_plays_at(1.0) && !music_plays_at(0.5));
        assert!(speed_note(0.5).unwrap().contains("muted") && speed_note(1.0).is_none());
    }
}
