//! The page grid of a composed score: page y ↔ beats through the measures' own bar lines, and a
//! staff's signed column ↔ page x through its centre line and half width (LED's 12-unit pitch
//! on a 37-unit half width: support at a sixth of the half width, leg gestures at five sixths,
//! the columns outside a third of the half width apart).

use crate::score::staves::{StaffGeometry, column_of, nearest_staff};
use crate::score::{Measure, Score};

/// Snapping step of edits, beats (the staff grid: quarter beats).
pub const GRID_BEATS: f64 = 0.25;

/// Page units per beat where no measure gives a scale.
const DEFAULT_UNITS_PER_BEAT: f32 = crate::score::timeline::LED_UNITS_PER_BEAT;

/// The staves and measures of a page score, in page units.
#[derive(Clone, Debug, PartialEq)]
pub struct PageGrid {
    /// Staves, left to right.
    pub staves: Vec<StaffGeometry>,
    /// Measures with their page extent, in order.
    pub measures: Vec<Measure>,
}

impl PageGrid {
    /// The grid of a score composed from a page document.
    pub fn of_score(score: &Score) -> PageGrid {
        let staves = score
            .staves
            .iter()
            .map(|s| StaffGeometry { centre_x: s.centre_x, half_width: s.half_width.max(1.0), y_bottom: 0.0 })
            .collect();
        PageGrid { staves, measures: score.measures.clone() }
    }

    /// Page units per beat of the measure holding `t_beats` (the nearest one outside them).
    fn units_per_beat_at(&self, t_beats: f64) -> f32 {
        let measure = self.measures.iter().rev().find(|m| m.start_beats <= t_beats + 1e-9).or(self.measures.first());
        match measure {
            Some(m) if m.beats > 0.0 && m.y_top > m.y_bottom => ((m.y_top - m.y_bottom) as f64 / m.beats) as f32,
            _ => DEFAULT_UNITS_PER_BEAT,
        }
    }

    /// Page y of `t_beats` (below beat 0 and above the last bar at the nearest measure's scale).
    pub fn y_of_beats(&self, t_beats: f64) -> f32 {
        let Some(first) = self.measures.first() else {
            return t_beats as f32 * DEFAULT_UNITS_PER_BEAT;
        };
        let measure = self.measures.iter().rev().find(|m| m.start_beats <= t_beats + 1e-9).unwrap_or(first);
        let upb = self.units_per_beat_at(t_beats);
        measure.y_bottom + ((t_beats - measure.start_beats) as f32) * upb
    }

    /// Beats at page y, unsnapped.
    pub fn beats_of_y(&self, y: f32) -> f64 {
        let Some(first) = self.measures.first() else {
            return f64::from(y / DEFAULT_UNITS_PER_BEAT);
        };
        let measure = self.measures.iter().rev().find(|m| m.y_bottom <= y).unwrap_or(first);
        let upb = self.units_per_beat_at(measure.start_beats);
        measure.start_beats + f64::from((y - measure.y_bottom) / upb.max(f32::EPSILON))
    }

    /// Page units of one beat at `t_beats`.
    pub fn units_per_beat(&self, t_beats: f64) -> f32 {
        self.units_per_beat_at(t_beats)
    }

    /// The staff whose columns reach page x.
    pub fn staff_at_x(&self, x: f32) -> Option<usize> {
        nearest_staff(&self.staves, x)
    }

    /// Signed column of page x on staff `staff`.
    pub fn column_at_x(&self, staff: usize, x: f32) -> Option<i32> {
        self.staves.get(staff).map(|s| column_of(s, x))
    }

    /// Page x of the middle of signed column `column` (never 0) on `staff`.
    pub fn column_mid_x(&self, staff: usize, column: i32) -> Option<f32> {
        let s = self.staves.get(staff)?;
        let magnitude = column.unsigned_abs().max(1);
        let fraction = match magnitude {
            1 => 1.0 / 6.0,
            2 => 5.0 / 6.0,
            n => 1.0 + (n as f32 - 2.5) / 3.0,
        };
        let sign = if column < 0 { -1.0 } else { 1.0 };
        Some(s.centre_x + sign * fraction * s.half_width)
    }

    /// Width of one column, page units (LED: 12).
    pub fn column_pitch(&self, staff: usize) -> f32 {
        self.staves.get(staff).map_or(12.0, |s| s.half_width / 3.0)
    }

    /// Measure index holding `t_beats`.
    pub fn measure_index_at(&self, t_beats: f64) -> Option<usize> {
        self.measures.iter().rposition(|m| m.start_beats <= t_beats + 1e-9)
    }

    /// End of the last measure, beats.
    pub fn end_beats(&self) -> f64 {
        self.measures.last().map_or(0.0, |m| m.start_beats + m.beats)
    }
}

/// `t_beats` on the staff grid (nearest quarter beat).
pub fn snap_beats(t_beats: f64) -> f64 {
    if t_beats.is_finite() { (t_beats / GRID_BEATS).round() * GRID_BEATS } else { 0.0 }
}

/// The column one step left (`step` < 0) or right of `column`, skipping the centre line.
pub fn step_column(column: i32, step: i32) -> i32 {
    let mut c = column;
    for _ in 0..step.unsigned_abs() {
        c += step.signum();
        if c == 0 {
            c += step.signum();
        }
    }
    c
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    fn grid() -> PageGrid {
        let doc = crate::read::read(crate::demo::WALK_ARMS_TURN_LBN, Some("lbn")).unwrap();
        PageGrid::of_score(&Score::from_document(&doc))
    }

    #[test]
    fn beats_and_page_y_invert_each_other_and_columns_land_where_led_writes_them() {
        let g = grid();
        assert_eq!(g.staves.len(), 1);
        for t in [-1.0, 0.0, 1.0, 2.5, 7.75, 13.0] {
            assert!((g.beats_of_y(g.y_of_beats(t)) - t).abs() < 1e-4, "{t}");
        }
        assert_eq!(g.y_of_beats(1.0), 120.0, "96 + 24");
        // LED writes the right support symbol at x 134 (width 10), the right arm at 171.
        let mid = |c| g.column_mid_x(0, c).unwrap();
        assert!((mid(1) - 5.0 - 134.0).abs() < 1.0 && (mid(-1) - 5.0 - 122.0).abs() < 1.0);
        assert!((mid(3) - 5.0 - 171.0).abs() < 1.0 && (mid(-3) - 5.0 - 85.0).abs() < 1.0);
        for c in [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
            assert_eq!(g.column_at_x(0, mid(c)), Some(c), "column {c}");
        }
        assert_eq!(step_column(-1, 1), 1);
        assert_eq!(step_column(2, -3), -2);
        assert_eq!(snap_beats(1.13), 1.25);
    }
}
