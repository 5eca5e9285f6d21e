//! The playback clock. While the music sounds, the picture's time is the audio output's clock (how
//! far into the track the device has played), smoothed between its coarse updates; picture and
//! sound cannot drift apart, whatever the device's crystal does. Without sound it runs on the wall
//! clock scaled by the speed. [`MusicSync`] drives an [`AudioOutput`] (the rodio player in
//! `viewer::music`, a fake in tests) from the transport's state.
//!
//! Each frame the clock reads the output's position (in 5 ms steps, bursty per device buffer),
//! extrapolates the last reading on the wall clock and moves its own time a fifth of the way
//! towards it, never backwards; a gap over 0.15 s snaps. Seeking, stepping and every loop wrap
//! restart the music at the new place. At speeds other than 1× the music is muted (no
//! time-stretching) and the wall clock runs the picture, as it does before the music starts and
//! after it ends. The output's own latency is not compensated.

use crate::rehearse::sync::{Alignment, music_plays_at};

/// Share of the gap between the clock and the audio reading closed per frame.
pub const CORRECTION_GAIN: f64 = 0.2;
/// A gap wider than this (a seek the output made, a device stall) is jumped, not smoothed.
pub const SNAP_SECS: f64 = 0.15;
/// A reading that stops changing is extrapolated on the wall clock for at most this long.
pub const MAX_EXTRAPOLATION_SECS: f64 = 0.1;
/// Longest wall-clock step taken in one frame: a slow frame (software rendering, a big score)
/// skips time so the dance keeps its tempo; only a stall longer than this (a debugger pause, a
/// suspended laptop) does not leap the score.
pub const MAX_FRAME_SECS: f64 = 2.0;

/// Seconds into the music the picture shows, following the output's readings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MediaClock {
    estimate_secs: f64,
    last_reading_secs: Option<f64>,
    since_reading_secs: f64,
}

impl MediaClock {
    /// A clock at `audio_secs` with no reading yet.
    pub fn new(audio_secs: f64) -> MediaClock {
        let estimate_secs = if audio_secs.is_finite() { audio_secs } else { 0.0 };
        MediaClock { estimate_secs, last_reading_secs: None, since_reading_secs: 0.0 }
    }

    /// The clock's time, seconds into the music.
    pub fn secs(&self) -> f64 {
        self.estimate_secs
    }

    /// Jumps to `audio_secs` (a seek) and forgets the old readings.
    pub fn reset(&mut self, audio_secs: f64) {
        *self = MediaClock::new(audio_secs);
    }

    /// Advances by one frame: `dt_wall_secs` of wall time passed; `reading` is the output's
    /// position now (seconds into the track) while the music sounds at 1×, `None` otherwise.
    /// With a reading the clock moves toward it (readings only change when the device pulls a
    /// buffer, so between changes the last one is extrapolated on the wall clock); it never
    /// steps backwards except to snap over a gap wider than [`SNAP_SECS`]. Without one it runs
    /// at `speed` times the wall clock. Returns the new time.
    pub fn tick(&mut self, dt_wall_secs: f64, speed: f64, reading: Option<f64>) -> f64 {
        let dt = if dt_wall_secs.is_finite() { dt_wall_secs.clamp(0.0, MAX_FRAME_SECS) } else { 0.0 };
        let speed = if speed.is_finite() { speed.max(0.0) } else { 1.0 };
        match reading.filter(|r| r.is_finite() && music_plays_at(speed)) {
            Some(reading) => {
                if self.last_reading_secs == Some(reading) {
                    self.since_reading_secs += dt;
                } else {
                    self.last_reading_secs = Some(reading);
                    self.since_reading_secs = 0.0;
                }
                let measured = reading + self.since_reading_secs.min(MAX_EXTRAPOLATION_SECS);
                let predicted = self.estimate_secs + dt;
                let gap = measured - predicted;
                self.estimate_secs = if gap.abs() > SNAP_SECS {
                    measured
                } else {
                    (predicted + CORRECTION_GAIN * gap).max(self.estimate_secs)
                };
            }
            None => {
                self.last_reading_secs = None;
                self.since_reading_secs = 0.0;
                self.estimate_secs += dt * speed;
            }
        }
        self.estimate_secs
    }
}

/// An audio output that can play a music track from a position and report how far it got.
pub trait AudioOutput {
    /// Seconds into the track the device has played, while it sounds; `None` when silent.
    fn position_secs(&self) -> Option<f64>;
    /// Starts sounding the track at `audio_secs` (≥ 0) seconds into it.
    fn start_at(&mut self, audio_secs: f64);
    /// Stops sounding (pause).
    fn stop(&mut self);
    /// Length of the track, seconds, when known.
    fn track_secs(&self) -> Option<f64>;
    /// True when a track is loaded and a device is open.
    fn can_sound(&self) -> bool;
}

/// An output that never sounds (no music, no device): the clock then runs on the wall clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Silence;

impl AudioOutput for Silence {
    fn position_secs(&self) -> Option<f64> {
        None
    }
    fn start_at(&mut self, _audio_secs: f64) {}
    fn stop(&mut self) {}
    fn track_secs(&self) -> Option<f64> {
        None
    }
    fn can_sound(&self) -> bool {
        false
    }
}

/// What the transport asks for this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransportState {
    /// Playing (not paused).
    pub playing: bool,
    /// Speed factor.
    pub speed: f64,
    /// The user wants to hear the music.
    pub music_on: bool,
}

/// The music clock of the player: alignment, [`MediaClock`] and whether the output sounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MusicSync {
    alignment: Alignment,
    clock: MediaClock,
    sounding: bool,
}

impl MusicSync {
    /// Paused at `t_beats` under `alignment`, silent.
    pub fn new(alignment: Alignment, t_beats: f64) -> MusicSync {
        MusicSync { alignment, clock: MediaClock::new(alignment.audio_secs_at(t_beats)), sounding: false }
    }

    /// The alignment in use.
    pub fn alignment(&self) -> Alignment {
        self.alignment
    }

    /// The picture's time, beats.
    pub fn t_beats(&self) -> f64 {
        self.alignment.beats_at(self.clock.secs())
    }

    /// The picture's time, seconds into the music.
    pub fn audio_secs(&self) -> f64 {
        self.clock.secs()
    }

    /// Seconds into the music at an input event `secs_before_frame` of wall time before the
    /// frame the clock last advanced to, with the transport as it was (`rate`: the speed while
    /// playing, 0 when paused). Taps are timed from their own events with this, so a slow frame
    /// does not move them.
    pub fn audio_secs_before_frame(&self, secs_before_frame: f64, rate: f64) -> f64 {
        let secs_before_frame = if secs_before_frame.is_finite() { secs_before_frame.max(0.0) } else { 0.0 };
        self.clock.secs() - secs_before_frame * rate
    }

    /// True while the output sounds.
    pub fn is_sounding(&self) -> bool {
        self.sounding
    }

    /// Moves the picture and the music to `t_beats` (a seek, a loop wrap, a new score).
    pub fn seek(&mut self, t_beats: f64, output: &mut dyn AudioOutput) {
        let audio_secs = self.alignment.audio_secs_at(t_beats);
        self.clock.reset(audio_secs);
        if self.sounding {
            if audio_secs >= 0.0 && output.track_secs().is_none_or(|d| audio_secs < d) {
                output.start_at(audio_secs);
            } else {
                output.stop();
                self.sounding = false;
            }
        }
    }

    /// Changes the alignment keeping the picture at `t_beats`; the music restarts at its new place.
    pub fn set_alignment(&mut self, alignment: Alignment, t_beats: f64, output: &mut dyn AudioOutput) {
        self.alignment = alignment;
        self.seek(t_beats, output);
    }

    /// One frame: starts or stops the output as `transport` asks (sound only while playing at
    /// 1× inside the track), then advances the clock by `dt_wall_secs` and returns the picture's
    /// time in beats.
    pub fn frame(&mut self, dt_wall_secs: f64, transport: TransportState, output: &mut dyn AudioOutput) -> f64 {
        let audio_secs = self.clock.secs();
        let inside_track = audio_secs >= 0.0 && output.track_secs().is_none_or(|d| audio_secs < d);
        let should_sound = transport.music_on
            && transport.playing
            && music_plays_at(transport.speed)
            && output.can_sound()
            && inside_track;
        if should_sound != self.sounding {
            if should_sound {
                output.start_at(audio_secs);
                self.clock.reset(audio_secs);
            } else {
                output.stop();
            }
            self.sounding = should_sound;
        }
        if transport.playing {
            let reading = if self.sounding { output.position_secs() } else { None };
            self.clock.tick(dt_wall_secs, transport.speed, reading);
        }
        self.t_beats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_readings_the_clock_runs_on_the_wall_clock_times_the_speed() {
        let mut clock = MediaClock::new(1.0);
        clock.tick(0.25, 1.0, None);
        clock.tick(0.25, 1.0, None);
        assert_eq!(clock.secs(), 1.5);
        clock.tick(0.25, 0.5, None);
        clock.tick(0.25, 0.5, None);
        assert_eq!(clock.secs(), 1.75);
        clock.tick(f64::NAN, 1.0, None);
        clock.tick(-1.0, 1.0, None);
        assert_eq!(clock.secs(), 1.75);
        clock.tick(10.0, 1.0, None);
        assert_eq!(clock.secs(), 1.75 + MAX_FRAME_SECS);
    }

    #[test]
    fn slow_frames_skip_time_instead_of_slowing_the_dance() {
        // Software rendering at about 2 frames a second, no audio device: 10 s of wall time.
        let mut sync = MusicSync::new(Alignment::new(0.0, 90.0), 0.0);
        let transport = TransportState { playing: true, speed: 1.0, music_on: true };
        let mut wall_secs = 0.0;
        let mut t_beats = 0.0;
        for frame in 0..23 {
            let dt = if frame % 2 == 0 { 0.45 } else { 0.42 };
            wall_secs += dt;
            t_beats = sync.frame(dt, transport, &mut Silence);
        }
        let played_speed = t_beats / (wall_secs * 90.0 / 60.0);
        assert!((played_speed - 1.0).abs() < 1e-9, "played at {played_speed}× the tempo, shown 1×");
    }

    #[test]
    fn taps_are_timed_from_their_events_not_from_the_slow_frames_that_read_them() {
        // Taps 0.667 s apart (90 bpm) while frames come every 0.4 s: each tap is read by the
        // first frame after it, up to 0.4 s late.
        let tap_wall_secs: Vec<f64> = (0..6).map(|i| 0.1 + i as f64 * 0.667).collect();
        let mut sync = MusicSync::new(Alignment::new(0.0, 120.0), 0.0);
        let transport = TransportState { playing: true, speed: 1.0, music_on: true };
        let mut taps = crate::rehearse::tap::TapRecorder::default();
        let mut wall_secs = 0.0;
        let mut pending = tap_wall_secs.iter().peekable();
        while pending.peek().is_some() {
            wall_secs += 0.4;
            sync.frame(0.4, transport, &mut Silence);
            while let Some(&&tap) = pending.peek().filter(|&&&t| t <= wall_secs) {
                taps.tap(sync.audio_secs_before_frame(wall_secs - tap, transport.speed));
                pending.next();
            }
        }
        let fit = crate::rehearse::tap::fit_taps(taps.taps(), 0.0).expect("six taps fit");
        assert!((fit.alignment.bpm - 90.0).abs() < 0.5, "{} bpm", fit.alignment.bpm);
    }

    #[test]
    fn a_far_reading_snaps_and_a_near_one_is_approached_without_going_back() {
        let mut clock = MediaClock::new(0.0);
        clock.tick(0.01, 1.0, Some(5.0));
        assert_eq!(clock.secs(), 5.0);
        let before = clock.secs();
        clock.tick(0.01, 1.0, Some(4.95));
        assert!(clock.secs() >= before, "never backwards for a small gap");
        // At another speed the reading is ignored (the music is muted).
        let mut slow = MediaClock::new(0.0);
        slow.tick(1.0 / 60.0, 0.5, Some(9.0));
        assert!((slow.secs() - 0.5 / 60.0).abs() < 1e-12);
    }
}
