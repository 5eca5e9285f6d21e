//! A passage to loop: a beat range, from a drag on the staff or from measure numbers.

/// Shortest loop, beats.
pub const MIN_LOOP_BEATS: f64 = 0.25;

/// `[start_beats, end_beats)` with `end - start >= MIN_LOOP_BEATS`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopRange {
    start_beats: f64,
    end_beats: f64,
}

impl LoopRange {
    /// The range between `a_beats` and `b_beats` (either order), `None` when not finite or
    /// shorter than [`MIN_LOOP_BEATS`].
    pub fn new(a_beats: f64, b_beats: f64) -> Option<LoopRange> {
        if !(a_beats.is_finite() && b_beats.is_finite()) {
            return None;
        }
        let (start_beats, end_beats) = if a_beats <= b_beats { (a_beats, b_beats) } else { (b_beats, a_beats) };
        (end_beats - start_beats >= MIN_LOOP_BEATS).then_some(LoopRange { start_beats, end_beats })
    }

    /// Measures `first..=last` (either order) of a score whose measures start at
    /// `measure_starts` (`(number, start beat)`, in time order) and which ends at `end_beats`.
    pub fn of_measures(measure_starts: &[(u32, f64)], end_beats: f64, first: u32, last: u32) -> Option<LoopRange> {
        let (first, last) = (first.min(last), first.max(last));
        let start = measure_starts.iter().find(|(n, _)| *n == first)?.1;
        let index = measure_starts.iter().position(|(n, _)| *n == last)?;
        let end = measure_starts.get(index + 1).map(|(_, s)| *s).unwrap_or(end_beats);
        LoopRange::new(start, end)
    }

    /// The range snapped outward to whole beats (a drag on the staff lands between beats).
    pub fn snapped_to_beats(&self) -> LoopRange {
        let start = (self.start_beats + 1e-6).floor();
        let end = (self.end_beats - 1e-6).ceil();
        LoopRange::new(start, end).unwrap_or(*self)
    }

    /// The range inside a score of `duration_beats`, `None` when too little of it is left.
    pub fn within(&self, duration_beats: f64) -> Option<LoopRange> {
        LoopRange::new(self.start_beats.clamp(0.0, duration_beats), self.end_beats.clamp(0.0, duration_beats))
    }

    /// First beat.
    pub fn start_beats(&self) -> f64 {
        self.start_beats
    }

    /// End beat (the loop wraps here).
    pub fn end_beats(&self) -> f64 {
        self.end_beats
    }

    /// Length, beats.
    pub fn len_beats(&self) -> f64 {
        self.end_beats - self.start_beats
    }

    /// True when `t_beats` is inside `[start, end)`.
    pub fn contains(&self, t_beats: f64) -> bool {
        t_beats >= self.start_beats && t_beats < self.end_beats
    }

    /// Where a clock at `t_beats` past the end lands after wrapping (once per length).
    pub fn wrap(&self, t_beats: f64) -> f64 {
        if t_beats < self.end_beats {
            t_beats
        } else {
            self.start_beats + (t_beats - self.end_beats).rem_euclid(self.len_beats())
        }
    }

    /// `measure` numbers the range covers, as `first–last` text, from `measure_at(beat) -> number`.
    pub fn measures_text(&self, measure_at: impl Fn(f64) -> u32) -> String {
        let first = measure_at(self.start_beats + 1e-6);
        let last = measure_at(self.end_beats - 1e-6);
        if first == last { format!("measure {first}") } else { format!("measures {first}–{last}") }
    }
}
