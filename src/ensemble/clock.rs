//! The plan's clock: `measure:beat` ↔ beats ↔ seconds, from the score's tempo map and measures
//! (or the plan's own tempo and meter), extended past the score's last measure by its meter.

use crate::score::{Measure, TempoMap};

/// Measures and tempo of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    /// Tempo (constant, as in the score).
    pub tempo: TempoMap,
    /// Measures of the score; past the last one, measures of `beats_per_measure` follow.
    pub measures: Vec<Measure>,
    /// Beats of the measures after the score's last.
    pub beats_per_measure: u32,
}

impl Clock {
    /// A clock with no score: every measure has `beats_per_measure` beats.
    pub fn plain(bpm: f64, beats_per_measure: u32) -> Self {
        Self { tempo: TempoMap { bpm, is_default: false }, measures: Vec::new(), beats_per_measure }
    }

    /// Beats from the start (measure 1 beat 1 is beat 0) of `measure` (1-based) and
    /// `beat` (1-based, fractional allowed).
    pub fn beats_at(&self, measure: u32, beat: f64) -> f64 {
        let idx = measure.saturating_sub(1) as usize;
        let start = match self.measures.get(idx) {
            Some(m) => m.start_beats,
            None => {
                let (last_end, last_count) = match self.measures.last() {
                    Some(m) => (m.start_beats + m.beats, self.measures.len()),
                    None => (0.0, 0),
                };
                last_end + (idx - last_count) as f64 * f64::from(self.beats_per_measure)
            }
        };
        start + (beat - 1.0)
    }

    /// `measure:beat` of `t_beats`, the beat 1-based and rounded to hundredths (`5:2.5`).
    pub fn label(&self, t_beats: f64) -> String {
        let (measure, beat0) = self.measure_and_beat(t_beats);
        let beat = ((beat0 + 1.0) * 100.0).round() / 100.0;
        if beat.fract() == 0.0 { format!("{measure}:{}", beat as i64) } else { format!("{measure}:{beat}") }
    }

    /// Measure (1-based) and 0-based beat within it.
    pub fn measure_and_beat(&self, t_beats: f64) -> (u32, f64) {
        let t = t_beats.max(0.0);
        if let Some(last) = self.measures.last() {
            let end = last.start_beats + last.beats;
            if t < end - 1e-9 {
                let (m, b) = crate::score::measure_at(&self.measures, t);
                return (m.max(1), b);
            }
            let bpm = f64::from(self.beats_per_measure.max(1));
            let k = ((t - end + 1e-9) / bpm).floor();
            return (self.measures.len() as u32 + 1 + k as u32, t - end - k * bpm);
        }
        let bpm = f64::from(self.beats_per_measure.max(1));
        let k = ((t + 1e-9) / bpm).floor();
        (1 + k as u32, t - k * bpm)
    }

    /// Seconds at `t_beats`.
    pub fn secs(&self, t_beats: f64) -> f64 {
        self.tempo.secs_from_beats(t_beats)
    }
}

/// Why a `measure:beat` label could not be read; the message says what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeasureBeatError {
    /// No `:`.
    #[error("`{0}`: {EXPECTED}")]
    NoColon(String),
    /// The measure is not a whole number.
    #[error("`{0}`: the measure is not a whole number; {EXPECTED}")]
    Measure(String),
    /// The beat is not a number.
    #[error("`{0}`: the beat is not a number; {EXPECTED}")]
    Beat(String),
    /// Measure 0, or a beat before 1.
    #[error("`{0}`: measures and beats count from 1; {EXPECTED}")]
    BeforeOne(String),
}

const EXPECTED: &str = "expected `measure:beat`, e.g. `3:1` or `12:2.5` (both count from 1)";

/// Parses `M:B` (`3:1`, `12:2.5`): 1-based measure and beat.
pub fn parse_measure_beat(text: &str) -> Result<(u32, f64), MeasureBeatError> {
    let (m, b) = text.trim().split_once(':').ok_or_else(|| MeasureBeatError::NoColon(text.to_owned()))?;
    let measure: u32 = m.trim().parse().map_err(|_| MeasureBeatError::Measure(text.to_owned()))?;
    let beat: f64 = b.trim().parse().map_err(|_| MeasureBeatError::Beat(text.to_owned()))?;
    if measure == 0 || !beat.is_finite() || beat < 1.0 {
        return Err(MeasureBeatError::BeforeOne(text.to_owned()));
    }
    Ok((measure, beat))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip_past_the_scores_measures() {
        let mut clock = Clock::plain(120.0, 4);
        clock.measures = vec![Measure { number: 1, start_beats: 0.0, beats: 3.0, y_bottom: 0.0, y_top: 0.0 }];
        assert_eq!(clock.beats_at(1, 1.0), 0.0);
        assert_eq!(clock.beats_at(2, 1.0), 3.0);
        assert_eq!(clock.beats_at(3, 2.5), 8.5);
        assert_eq!(clock.label(8.5), "3:2.5");
        assert_eq!(clock.label(2.0), "1:3");
        assert_eq!(clock.label(3.0), "2:1");
        assert_eq!(parse_measure_beat("12:2.5"), Ok((12, 2.5)));
        assert!(parse_measure_beat("0:1").is_err());
        assert!(parse_measure_beat("3").is_err());
    }
}
