//! Tap to align: the user taps along with the music; a least-squares line through the taps
//! (tap k at seconds `a + k·b` into the audio) gives the tempo (60 / b) and, since the first
//! tap counts as a chosen score beat, the offset of beat 0.
//!
//! At least [`MIN_TAPS`] taps are needed; taps whose intervals are uneven are refused with the
//! interval that is off. The fit also gives the spread of the taps around the line, in ms.

use crate::rehearse::sync::Alignment;

/// Fewest taps a fit accepts.
pub const MIN_TAPS: usize = 3;
/// Most taps kept (the latest ones).
pub const MAX_TAPS: usize = 32;
/// A pause longer than this between taps starts a new series.
pub const RESTART_AFTER_SECS: f64 = 2.5;
/// Each interval must be within this fraction of the median one.
const EVEN_TOLERANCE: f64 = 0.35;
/// Tempi a fit may give, beats per minute.
const BPM_RANGE: std::ops::RangeInclusive<f64> = 20.0..=400.0;

/// Why taps could not be fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TapError {
    /// Too few taps.
    #[error("tap at least {MIN_TAPS} beats (have {have})")]
    TooFew {
        /// Taps recorded.
        have: usize,
    },
    /// Two taps at the same time or out of order (or not finite).
    #[error("taps must follow each other in time")]
    NotIncreasing,
    /// One interval far from the others (a missed or doubled beat).
    #[error("uneven taps: interval {index} is {interval_ms:.0} ms, the others about {median_ms:.0} ms; tap every beat")]
    Uneven {
        /// 1-based number of the odd interval.
        index: usize,
        /// Its length, ms.
        interval_ms: f64,
        /// The median interval, ms.
        median_ms: f64,
    },
    /// The tempo is outside 20–400 bpm.
    #[error("the taps give {bpm:.0} bpm, outside 20–400")]
    TempoOutOfRange {
        /// The fitted tempo.
        bpm: f64,
    },
}

/// The result of a fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TapFit {
    /// The alignment the taps give.
    pub alignment: Alignment,
    /// Root-mean-square distance of the taps from the fitted beats, ms.
    pub spread_ms: f64,
    /// Taps used.
    pub taps: usize,
}

/// Fits `taps_audio_secs` (seconds into the audio, one per beat, in order); the first tap is
/// score beat `first_tap_beats`.
pub fn fit_taps(taps_audio_secs: &[f64], first_tap_beats: f64) -> Result<TapFit, TapError> {
    let n = taps_audio_secs.len();
    if n < MIN_TAPS {
        return Err(TapError::TooFew { have: n });
    }
    if taps_audio_secs.iter().any(|t| !t.is_finite()) || taps_audio_secs.windows(2).any(|w| w[1] <= w[0]) {
        return Err(TapError::NotIncreasing);
    }
    let intervals: Vec<f64> = taps_audio_secs.windows(2).map(|w| w[1] - w[0]).collect();
    let mut sorted = intervals.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    if let Some((index, interval)) =
        intervals.iter().enumerate().find(|(_, i)| ((**i - median) / median).abs() > EVEN_TOLERANCE)
    {
        return Err(TapError::Uneven { index: index + 1, interval_ms: interval * 1e3, median_ms: median * 1e3 });
    }
    let nf = n as f64;
    let mean_k = (nf - 1.0) / 2.0;
    let mean_t = taps_audio_secs.iter().sum::<f64>() / nf;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (k, t) in taps_audio_secs.iter().enumerate() {
        let dk = k as f64 - mean_k;
        sxy += dk * (t - mean_t);
        sxx += dk * dk;
    }
    let secs_per_beat = sxy / sxx;
    let first_secs = mean_t - secs_per_beat * mean_k;
    let bpm = 60.0 / secs_per_beat;
    if !BPM_RANGE.contains(&bpm) {
        return Err(TapError::TempoOutOfRange { bpm });
    }
    let residual_sq: f64 =
        taps_audio_secs.iter().enumerate().map(|(k, t)| (t - (first_secs + secs_per_beat * k as f64)).powi(2)).sum();
    let first_tap_beats = if first_tap_beats.is_finite() { first_tap_beats } else { 0.0 };
    Ok(TapFit {
        alignment: Alignment::new(first_secs - first_tap_beats * secs_per_beat, bpm),
        spread_ms: (residual_sq / nf).sqrt() * 1e3,
        taps: n,
    })
}

/// The taps of the current series.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TapRecorder {
    taps_audio_secs: Vec<f64>,
}

impl TapRecorder {
    /// Records a tap at `audio_secs`; a tap long after the previous one, or before it (the music
    /// was moved), starts a new series.
    pub fn tap(&mut self, audio_secs: f64) {
        if !audio_secs.is_finite() {
            return;
        }
        if let Some(last) = self.taps_audio_secs.last()
            && (audio_secs <= *last || audio_secs - last > RESTART_AFTER_SECS)
        {
            self.taps_audio_secs.clear();
        }
        self.taps_audio_secs.push(audio_secs);
        if self.taps_audio_secs.len() > MAX_TAPS {
            self.taps_audio_secs.remove(0);
        }
    }

    /// The taps, seconds into the audio.
    pub fn taps(&self) -> &[f64] {
        &self.taps_audio_secs
    }

    /// Forgets the taps.
    pub fn clear(&mut self) {
        self.taps_audio_secs.clear();
    }
}
