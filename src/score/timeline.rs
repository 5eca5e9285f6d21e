//! Page y → beats, calibrated per measure from the bar lines.
//!
//! The first double bar (or, failing that, the lowest bar line) is beat 0; each measure maps its
//! own bar-to-bar distance onto its number of beats, so uneven hand spacing does not drift.

use super::types::Measure;

/// Page units per beat as LED writes them (4 steps of 6 units); the scale assumed when none is
/// given.
pub const LED_UNITS_PER_BEAT: f32 = 24.0;

/// The bar lines of a page score, turned into measures.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    /// Measures in order; measure 1 starts at beat 0.
    pub measures: Vec<Measure>,
    /// Page y of beat 0 (the first double bar).
    pub y_origin: f32,
    /// Page units per beat used beyond the last bar line and before the first.
    pub units_per_beat_outside: f32,
    /// Time quantum in beats that starts and ends snap to (0 = none).
    pub quantum_beats: f64,
    /// True when no double bar was found and the lowest bar was taken as the start.
    pub origin_guessed: bool,
}

/// A bar line as found on the page: its y and whether it is drawn double.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BarMark {
    /// Page y.
    pub y: f32,
    /// Drawn as a double bar (`.lbn`: level `L`, or two lines close together).
    pub double: bool,
}

impl Timeline {
    /// Builds measures from bar marks. `units_per_beat` converts bar spacing to beats when
    /// `beats_per_measure` is `None`; otherwise every measure gets that many beats.
    pub fn from_bars(
        bars: &[BarMark],
        units_per_beat: f32,
        beats_per_measure: Option<u32>,
        quantum_beats: f64,
    ) -> Timeline {
        let mut sorted: Vec<BarMark> = bars.iter().copied().filter(|b| b.y.is_finite()).collect();
        sorted.sort_by(|a, b| a.y.total_cmp(&b.y));
        // Merge lines drawn within a few units of each other (double bars drawn as two lines).
        let merge_units = (units_per_beat * 0.25).max(1.0);
        let mut merged: Vec<BarMark> = Vec::new();
        for b in sorted {
            match merged.last_mut() {
                Some(last) if b.y - last.y <= merge_units => {
                    last.double = true;
                    last.y = b.y;
                }
                _ => merged.push(b),
            }
        }
        let origin_index = merged.iter().position(|b| b.double);
        let origin_guessed = origin_index.is_none();
        let origin_index = origin_index.unwrap_or(0);
        let upb = if units_per_beat.is_finite() && units_per_beat > 0.0 { units_per_beat } else { LED_UNITS_PER_BEAT };
        let y_origin = merged.get(origin_index).map(|b| b.y).unwrap_or(0.0);
        let mut measures = Vec::new();
        let mut start_beats = 0.0f64;
        let above = merged.get(origin_index..).unwrap_or(&[]);
        for (i, pair) in above.windows(2).enumerate() {
            let (lo, hi) = (pair[0].y, pair[1].y);
            let beats = match beats_per_measure {
                Some(n) => n.max(1) as f64,
                None => (((hi - lo) / upb).round() as f64).max(1.0),
            };
            measures.push(Measure { number: i as u32 + 1, start_beats, beats, y_bottom: lo, y_top: hi });
            start_beats += beats;
        }
        Timeline { measures, y_origin, units_per_beat_outside: upb, quantum_beats, origin_guessed }
    }

    /// Beat of page y (negative below the origin), snapped to the quantum.
    pub fn beats_at(&self, y: f32) -> f64 {
        let raw = self.raw_beats_at(y);
        if self.quantum_beats > 0.0 { (raw / self.quantum_beats).round() * self.quantum_beats } else { raw }
    }

    fn raw_beats_at(&self, y: f32) -> f64 {
        if y < self.y_origin || self.measures.is_empty() {
            return ((y - self.y_origin) / self.units_per_beat_outside) as f64;
        }
        let idx = self.measures.partition_point(|m| m.y_bottom <= y);
        let Some(m) = idx.checked_sub(1).and_then(|i| self.measures.get(i)) else {
            return 0.0;
        };
        let span = (m.y_top - m.y_bottom).max(f32::EPSILON);
        if y <= m.y_top {
            m.start_beats + m.beats * ((y - m.y_bottom) / span) as f64
        } else {
            // Above the last bar line: keep the last measure's scale.
            let per_unit = m.beats / span as f64;
            m.start_beats + m.beats + per_unit * (y - m.y_top) as f64
        }
    }

    /// The end of the last measure in beats.
    pub fn end_beats(&self) -> f64 {
        self.measures.last().map(|m| m.start_beats + m.beats).unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(y: f32, double: bool) -> BarMark {
        BarMark { y, double }
    }

    #[test]
    fn calibrates_each_measure_from_its_own_bars() {
        let t = Timeline::from_bars(
            &[bar(48.0, false), bar(96.0, true), bar(145.0, false), bar(241.0, false)],
            24.0,
            None,
            0.0,
        );
        assert_eq!(t.measures.len(), 2);
        assert_eq!(t.measures[0].beats, 2.0);
        assert_eq!(t.measures[1].beats, 4.0);
        assert!((t.beats_at(96.0) - 0.0).abs() < 1e-9);
        assert!((t.beats_at(120.5) - 1.0).abs() < 1e-9);
        assert!((t.beats_at(145.0) - 2.0).abs() < 1e-9);
        assert!((t.beats_at(193.0) - 4.0).abs() < 1e-9);
        assert!(t.beats_at(70.0) < 0.0);
        assert!(!t.origin_guessed);
    }

    #[test]
    fn quantum_snaps_hand_placed_symbols() {
        let t = Timeline::from_bars(&[bar(96.0, true), bar(144.0, false)], 24.0, None, 0.25);
        assert_eq!(t.beats_at(97.0), 0.0);
        assert_eq!(t.beats_at(122.0), 1.0);
        assert_eq!(t.beats_at(133.0), 1.5);
    }

    #[test]
    fn written_meter_overrides_spacing_and_double_lines_merge() {
        let t = Timeline::from_bars(&[bar(10.0, false), bar(11.0, false), bar(60.0, false)], 24.0, Some(3), 0.0);
        assert_eq!(t.measures.len(), 1);
        assert_eq!(t.measures[0].beats, 3.0);
        assert!((t.beats_at(60.0 + 49.0) - 6.0).abs() < 1e-6);
    }

    #[test]
    fn no_bars_gives_no_measures_and_linear_time() {
        let t = Timeline::from_bars(&[], 24.0, None, 0.0);
        assert!(t.measures.is_empty());
        assert!(t.origin_guessed);
        assert!((t.beats_at(48.0) - 2.0).abs() < 1e-9);
    }
}
