//! Playback state of the player: play/pause, stop, seeking, stepping by beat or measure, speed,
//! looping the score or a passage. Pure: the caller passes elapsed time into
//! [`Playback::advance`] (or the music clock's step into [`Playback::advance_beats`]); nothing
//! here reads a clock, and no UI types appear.

use crate::mocap::CaptureTimeline;
use crate::rehearse::loop_range::LoopRange;
use crate::score::{Measure, Score};

/// Slowest playback speed (a quarter of the written tempo).
pub const MIN_SPEED: f64 = 0.25;
/// Fastest playback speed (twice the written tempo).
pub const MAX_SPEED: f64 = 2.0;
/// Two times closer than this (in beats) count as equal when stepping.
const STEP_EPSILON_BEATS: f64 = 1e-6;

/// The time grid of a score: tempo, length and where the measures start.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    /// Quarter-note beats per minute (> 0).
    pub bpm: f64,
    /// Length of the score in beats (≥ 0).
    pub duration_beats: f64,
    /// `(measure number, start beat)` of every measure, in time order.
    pub measure_starts: Vec<(u32, f64)>,
}

/// The measures beats fall in: the listed ones, then `beats_per_measure` after the last of them
/// (or from beat 0 when none is listed, as for a capture).
#[derive(Clone, Copy, Debug)]
pub struct MeasureGrid<'a> {
    /// Measures sorted by start (may be empty).
    pub measures: &'a [Measure],
    /// Length of every measure after the listed ones, in beats.
    pub beats_per_measure: u32,
}

impl<'a> MeasureGrid<'a> {
    /// The measures and meter of `score`.
    pub fn of_score(score: &'a Score) -> MeasureGrid<'a> {
        MeasureGrid { measures: &score.measures, beats_per_measure: score.meter.beats_per_measure }
    }
}

/// `bpm` when finite and positive, else 120 bpm.
fn playable_bpm(bpm: f64) -> f64 {
    if bpm.is_finite() && bpm > 0.0 { bpm } else { crate::score::TempoMap::DEFAULT_BPM }
}

/// `duration_beats` when finite (at least 0), else 0.
fn playable_duration_beats(duration_beats: f64) -> f64 {
    if duration_beats.is_finite() { duration_beats.max(0.0) } else { 0.0 }
}

impl Timeline {
    /// The timeline of `score` (a non-finite or non-positive tempo counts as 120 bpm).
    pub fn from_score(score: &Score) -> Timeline {
        let bpm = playable_bpm(score.tempo.bpm);
        let duration_beats = playable_duration_beats(score.duration_beats);
        let mut measure_starts: Vec<(u32, f64)> =
            score.measures.iter().filter(|m| m.start_beats.is_finite()).map(|m| (m.number, m.start_beats)).collect();
        measure_starts.sort_by(|a, b| a.1.total_cmp(&b.1));
        Timeline { bpm, duration_beats, measure_starts }
    }

    /// The timeline of a capture: its tempo and length, no measures of its own (a non-finite
    /// or non-positive tempo counts as 120 bpm).
    pub fn from_capture(capture: &CaptureTimeline) -> Timeline {
        Timeline {
            bpm: playable_bpm(capture.bpm),
            duration_beats: playable_duration_beats(capture.duration_beats),
            measure_starts: Vec::new(),
        }
    }

    /// Seconds at beat `t_beats`.
    pub fn secs_from_beats(&self, t_beats: f64) -> f64 {
        t_beats * 60.0 / self.bpm
    }

    /// Beat at `t_secs` seconds.
    pub fn beats_from_secs(&self, t_secs: f64) -> f64 {
        t_secs * self.bpm / 60.0
    }

    /// Measure number and 0-based beat within that measure at `t_beats` (measure 0 before the
    /// first measure or when the score has none).
    pub fn measure_at(&self, t_beats: f64) -> (u32, f64) {
        let idx = self.measure_starts.partition_point(|(_, start)| *start <= t_beats + 1e-9);
        match idx.checked_sub(1).and_then(|i| self.measure_starts.get(i)) {
            Some((number, start)) => (*number, (t_beats - start).max(0.0)),
            None => (0, t_beats.max(0.0)),
        }
    }

    /// The position at `t_beats` as shown to the user: `measure:beat` (beat counted from 1,
    /// with a fraction only when off the beat) and seconds, e.g. `3:2 · 5.00 s` or `1:1.50 · 0.25 s`;
    /// a timeline without measures (a capture) only the seconds.
    pub fn format_position(&self, t_beats: f64) -> String {
        if self.measure_starts.is_empty() {
            return format!("{:.2} s", self.secs_from_beats(t_beats));
        }
        let (measure, beat0) = self.measure_at(t_beats);
        let beat = beat0 + 1.0;
        let beat_text =
            if (beat - beat.round()).abs() < 0.005 { format!("{}", beat.round() as i64) } else { format!("{beat:.2}") };
        format!("{measure}:{beat_text} · {:.2} s", self.secs_from_beats(t_beats))
    }
}

/// What one [`Playback::advance`] call played: one span, or two when the loop wrapped.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Advanced {
    spans: [(f64, f64); 2],
    count: usize,
    wrapped: bool,
}

impl Advanced {
    /// The played intervals `(from_beats, to_beats]` in order (empty when nothing played).
    pub fn spans(&self) -> &[(f64, f64)] {
        self.spans.get(..self.count).unwrap_or(&[])
    }

    /// True when the loop wrapped (the music must be moved with the picture).
    pub fn wrapped(&self) -> bool {
        self.wrapped
    }

    fn push(&mut self, from_beats: f64, to_beats: f64) {
        if to_beats > from_beats
            && let Some(slot) = self.spans.get_mut(self.count)
        {
            *slot = (from_beats, to_beats);
            self.count += 1;
        }
    }
}

/// The player's transport.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    timeline: Timeline,
    t_beats: f64,
    playing: bool,
    speed: f64,
    looping: bool,
    loop_range: Option<LoopRange>,
}

impl Playback {
    /// Paused at beat 0, speed 1, loop on, no passage marked.
    pub fn new(timeline: Timeline) -> Playback {
        Playback { timeline, t_beats: 0.0, playing: false, speed: 1.0, looping: true, loop_range: None }
    }

    /// The time grid.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// Replaces the time grid (after a reload), keeping the position where it still exists.
    pub fn set_timeline(&mut self, timeline: Timeline) {
        self.timeline = timeline;
        self.t_beats = self.clamped(self.t_beats);
        self.loop_range = self.loop_range.and_then(|r| r.within(self.timeline.duration_beats));
    }

    /// Changes the tempo (a tempo override), keeping the position in beats.
    pub fn set_bpm(&mut self, bpm: f64) {
        if bpm.is_finite() && bpm > 0.0 {
            self.timeline.bpm = bpm;
        }
    }

    /// The passage that loops, when one is marked.
    pub fn loop_range(&self) -> Option<LoopRange> {
        self.loop_range
    }

    /// Marks (or with `None` clears) the passage to loop, cut to the score. Playing from before
    /// its end wraps at its end to its start, whatever the whole-score loop setting.
    pub fn set_loop_range(&mut self, range: Option<LoopRange>) {
        self.loop_range = range.and_then(|r| r.within(self.timeline.duration_beats));
    }

    /// Current time in beats.
    pub fn t_beats(&self) -> f64 {
        self.t_beats
    }

    /// Current time in seconds.
    pub fn t_secs(&self) -> f64 {
        self.timeline.secs_from_beats(self.t_beats)
    }

    /// True while playing.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// Speed factor, in [`MIN_SPEED`, `MAX_SPEED`].
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// True when playback wraps to the start at the end.
    pub fn is_looping(&self) -> bool {
        self.looping
    }

    /// `measure:beat · seconds` of the current time.
    pub fn position_text(&self) -> String {
        self.timeline.format_position(self.t_beats)
    }

    /// Starts playing; at the very end of a score, playing restarts from the beginning.
    pub fn play(&mut self) {
        if self.t_beats >= self.timeline.duration_beats - STEP_EPSILON_BEATS {
            self.t_beats = self.loop_start();
        }
        self.playing = self.timeline.duration_beats > 0.0;
    }

    /// Pauses, keeping the position.
    pub fn pause(&mut self) {
        self.playing = false;
    }

    /// Play if paused, pause if playing.
    pub fn toggle_play(&mut self) {
        if self.playing {
            self.pause();
        } else {
            self.play();
        }
    }

    /// Pauses and goes back to the start.
    pub fn stop(&mut self) {
        self.playing = false;
        self.t_beats = 0.0;
    }

    /// Sets the speed factor, clamped to [`MIN_SPEED`, `MAX_SPEED`] (non-finite values ignored).
    pub fn set_speed(&mut self, speed: f64) {
        if speed.is_finite() {
            self.speed = speed.clamp(MIN_SPEED, MAX_SPEED);
        }
    }

    /// Turns looping on or off.
    pub fn set_looping(&mut self, looping: bool) {
        self.looping = looping;
    }

    /// Jumps to `t_beats`, clamped to the score (non-finite values ignored).
    pub fn seek(&mut self, t_beats: f64) {
        if t_beats.is_finite() {
            self.t_beats = self.clamped(t_beats);
        }
    }

    /// Jumps to the start (Home).
    pub fn go_to_start(&mut self) {
        self.t_beats = 0.0;
    }

    /// Jumps to the end (End) and pauses.
    pub fn go_to_end(&mut self) {
        self.t_beats = self.timeline.duration_beats;
        self.playing = false;
    }

    /// Moves to the next whole beat (`forward`) or the previous one.
    pub fn step_beat(&mut self, forward: bool) {
        let t = self.t_beats;
        let target =
            if forward { (t + STEP_EPSILON_BEATS).floor() + 1.0 } else { (t - STEP_EPSILON_BEATS).ceil() - 1.0 };
        self.t_beats = self.clamped(target);
    }

    /// Moves to the start of the next measure (`forward`) or of the previous one (the start of
    /// the current measure when the time is inside it). Without measures, steps by whole beats.
    pub fn step_measure(&mut self, forward: bool) {
        let t = self.t_beats;
        let starts = &self.timeline.measure_starts;
        if starts.is_empty() {
            self.step_beat(forward);
            return;
        }
        let target = if forward {
            starts
                .iter()
                .map(|(_, start)| *start)
                .find(|start| *start > t + STEP_EPSILON_BEATS)
                .unwrap_or(self.timeline.duration_beats)
        } else {
            starts.iter().rev().map(|(_, start)| *start).find(|start| *start < t - STEP_EPSILON_BEATS).unwrap_or(0.0)
        };
        self.t_beats = self.clamped(target);
    }

    /// Advances the clock by `dt_secs` of wall time (scaled by the speed) while playing; see
    /// [`Self::advance_beats`].
    pub fn advance(&mut self, dt_secs: f64) -> Advanced {
        if !dt_secs.is_finite() || dt_secs <= 0.0 {
            return Advanced::default();
        }
        self.advance_beats(self.timeline.beats_from_secs(dt_secs * self.speed))
    }

    /// Advances by `step_beats` of score time while playing. A marked passage wraps at its end
    /// when the step crosses it; at the end of the score it wraps to the start (of the passage,
    /// when one is marked) when looping, otherwise stops there and pauses. Returns the
    /// intervals of score time that were played (for the metronome) and whether it wrapped.
    pub fn advance_beats(&mut self, step_beats: f64) -> Advanced {
        let mut advanced = Advanced::default();
        if !self.playing || !step_beats.is_finite() || step_beats <= 0.0 {
            return advanced;
        }
        let duration = self.timeline.duration_beats;
        if duration <= 0.0 {
            self.playing = false;
            return advanced;
        }
        let from = self.t_beats;
        let to = from + step_beats;
        if let Some(range) = self.loop_range
            && from < range.end_beats()
            && to >= range.end_beats()
        {
            advanced.push(from, range.end_beats());
            // A frame longer than the whole passage still wraps only once.
            let wrapped = range.wrap(to);
            advanced.push(range.start_beats(), wrapped);
            advanced.wrapped = true;
            self.t_beats = wrapped;
        } else if to < duration {
            advanced.push(from, to);
            self.t_beats = to;
        } else if self.looping {
            advanced.push(from, duration);
            let start = self.loop_start();
            let wrapped = start + (to - duration).rem_euclid((duration - start).max(STEP_EPSILON_BEATS));
            advanced.push(start, wrapped);
            advanced.wrapped = true;
            self.t_beats = wrapped;
        } else {
            advanced.push(from, duration);
            self.t_beats = duration;
            self.playing = false;
        }
        advanced
    }

    /// Where a wrap lands: the passage's start, or beat 0.
    fn loop_start(&self) -> f64 {
        self.loop_range.map(|r| r.start_beats()).unwrap_or(0.0)
    }

    fn clamped(&self, t_beats: f64) -> f64 {
        t_beats.clamp(0.0, self.timeline.duration_beats.max(0.0))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    /// 3 measures of 4 beats at 60 bpm (1 beat = 1 s).
    fn timeline() -> Timeline {
        Timeline { bpm: 60.0, duration_beats: 12.0, measure_starts: vec![(1, 0.0), (2, 4.0), (3, 8.0)] }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn advance_moves_only_while_playing_and_scales_with_speed_and_tempo() {
        let mut p = Playback::new(timeline());
        assert!(p.advance(1.0).spans().is_empty());
        assert_eq!(p.t_beats(), 0.0);
        p.play();
        let a = p.advance(0.5);
        assert_eq!(a.spans(), &[(0.0, 0.5)]);
        p.set_speed(2.0);
        p.advance(0.5);
        assert!(close(p.t_beats(), 1.5));
        p.set_speed(10.0);
        assert_eq!(p.speed(), MAX_SPEED);
        p.set_speed(0.0);
        assert_eq!(p.speed(), MIN_SPEED);
        p.set_speed(f64::NAN);
        assert_eq!(p.speed(), MIN_SPEED);
        p.advance(2.0);
        assert!(close(p.t_beats(), 2.0));
        // 120 bpm: one second is two beats.
        let mut fast = Playback::new(Timeline { bpm: 120.0, ..timeline() });
        fast.play();
        fast.advance(1.0);
        assert!(close(fast.t_beats(), 2.0));
        assert!(close(fast.t_secs(), 1.0));
        // Garbage time steps do nothing.
        for dt in [f64::NAN, -1.0, 0.0, f64::INFINITY] {
            let before = fast.t_beats();
            fast.advance(dt);
            assert_eq!(fast.t_beats(), before);
        }
    }

    #[test]
    fn loop_wraps_and_reports_both_spans_and_no_loop_stops_at_the_end() {
        let mut p = Playback::new(timeline());
        p.seek(11.5);
        p.play();
        let a = p.advance(1.0);
        assert_eq!(a.spans().len(), 2);
        assert!(close(a.spans()[0].0, 11.5) && close(a.spans()[0].1, 12.0));
        assert!(close(a.spans()[1].0, 0.0) && close(a.spans()[1].1, 0.5));
        assert!(close(p.t_beats(), 0.5) && p.is_playing());
        // A huge frame wraps once and stays inside the score.
        p.advance(1000.3);
        assert!(p.t_beats() >= 0.0 && p.t_beats() < 12.0, "{}", p.t_beats());

        p.set_looping(false);
        p.seek(11.0);
        let a = p.advance(5.0);
        assert_eq!(a.spans(), &[(11.0, 12.0)]);
        assert_eq!(p.t_beats(), 12.0);
        assert!(!p.is_playing());
        // Play at the end restarts from the beginning.
        p.play();
        assert_eq!(p.t_beats(), 0.0);
        assert!(p.is_playing());
    }

    #[test]
    fn step_by_beat_lands_on_whole_beats_and_clamps() {
        let mut p = Playback::new(timeline());
        p.step_beat(true);
        assert_eq!(p.t_beats(), 1.0);
        p.step_beat(true);
        assert_eq!(p.t_beats(), 2.0);
        p.seek(2.4);
        p.step_beat(false);
        assert_eq!(p.t_beats(), 2.0);
        p.step_beat(false);
        assert_eq!(p.t_beats(), 1.0);
        p.seek(2.4);
        p.step_beat(true);
        assert_eq!(p.t_beats(), 3.0);
        p.go_to_start();
        p.step_beat(false);
        assert_eq!(p.t_beats(), 0.0);
        p.go_to_end();
        p.step_beat(true);
        assert_eq!(p.t_beats(), 12.0);
    }

    #[test]
    fn step_by_measure_uses_measure_starts() {
        let mut p = Playback::new(timeline());
        p.step_measure(true);
        assert_eq!(p.t_beats(), 4.0);
        p.step_measure(true);
        assert_eq!(p.t_beats(), 8.0);
        p.step_measure(true);
        assert_eq!(p.t_beats(), 12.0, "past the last measure start: the end");
        p.seek(9.5);
        p.step_measure(false);
        assert_eq!(p.t_beats(), 8.0, "inside a measure: back to its start");
        p.step_measure(false);
        assert_eq!(p.t_beats(), 4.0);
        // No measures: steps by beats.
        let mut bare = Playback::new(Timeline { measure_starts: Vec::new(), ..timeline() });
        bare.step_measure(true);
        assert_eq!(bare.t_beats(), 1.0);
    }

    #[test]
    fn stop_seek_and_timeline_changes_keep_time_in_range() {
        let mut p = Playback::new(timeline());
        p.play();
        p.advance(3.0);
        p.stop();
        assert_eq!(p.t_beats(), 0.0);
        assert!(!p.is_playing());
        p.seek(-4.0);
        assert_eq!(p.t_beats(), 0.0);
        p.seek(99.0);
        assert_eq!(p.t_beats(), 12.0);
        p.seek(f64::NAN);
        assert_eq!(p.t_beats(), 12.0);
        p.seek(10.0);
        p.set_timeline(Timeline { duration_beats: 6.0, ..timeline() });
        assert_eq!(p.t_beats(), 6.0, "a shorter score clamps the position");
        p.seek(3.0);
        p.set_timeline(timeline());
        assert_eq!(p.t_beats(), 3.0, "a reload keeps the position");
        // An empty score never plays.
        let mut empty = Playback::new(Timeline { duration_beats: 0.0, measure_starts: Vec::new(), ..timeline() });
        empty.play();
        assert!(!empty.is_playing());
        assert!(empty.advance(1.0).spans().is_empty());
    }

    #[test]
    fn position_text_shows_measure_beat_and_seconds() {
        let t = timeline();
        assert_eq!(t.format_position(0.0), "1:1 · 0.00 s");
        assert_eq!(t.format_position(5.0), "2:2 · 5.00 s");
        assert_eq!(t.format_position(9.5), "3:2.50 · 9.50 s");
        assert_eq!(t.format_position(12.0), "3:5 · 12.00 s");
        let before_first = Timeline { measure_starts: vec![(1, 2.0)], ..t.clone() };
        assert_eq!(before_first.format_position(1.0), "0:2 · 1.00 s");
        let fast = Timeline { bpm: 120.0, ..t.clone() };
        assert_eq!(fast.format_position(3.0), "1:4 · 1.50 s");
        let capture = Timeline { measure_starts: Vec::new(), ..t };
        assert_eq!(capture.format_position(10.5), "10.50 s", "a capture counts seconds only");
    }

    #[test]
    fn timeline_from_the_demo_score_matches_the_score() {
        let score = crate::demo::default_score();
        let t = Timeline::from_score(&score);
        assert_eq!(t.bpm, score.tempo.bpm);
        assert_eq!(t.duration_beats, score.duration_beats);
        for probe in [0.0, 0.5, 3.0, 4.0, 7.25] {
            assert_eq!(t.measure_at(probe), score.measure_at(probe), "at {probe}");
        }
    }
}
