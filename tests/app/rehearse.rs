//! Rehearsing with the music: the sync arithmetic (offset, tempo override, seek, loop wrap,
//! speed changes), the drift test (a simulated 10-minute run on a fake output whose clock runs
//! 0.1 % fast or slow keeps the picture within one frame of the audio), tap to align, loop
//! ranges, the sidecar file, settings round-trip and a corrupt settings file; with the viewer
//! feature also the transport's loop with the music and the mirror / "from behind" camera maths.
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use labanplay::rehearse::clock::{AudioOutput, MediaClock, MusicSync, Silence, TransportState};
use labanplay::rehearse::loop_range::LoopRange;
use labanplay::rehearse::settings::{ScoreSettings, Settings, score_key, settings_path_from};
use labanplay::rehearse::sidecar::{Sidecar, SidecarError, sidecar_path};
use labanplay::rehearse::sync::{Alignment, effective_bpm};
use labanplay::rehearse::tap::{TapError, TapRecorder, fit_taps};
use std::path::{Path, PathBuf};

/// A fake audio device: its clock runs `rate` times the wall clock, and it reports its position
/// only in whole blocks of `block_secs` (as a device pulls buffers), like rodio's `get_pos`.
struct FakeOutput {
    rate: f64,
    block_secs: f64,
    track_secs: f64,
    wall_secs: f64,
    started: Option<(f64, f64)>,
    starts: Vec<f64>,
}

impl FakeOutput {
    fn new(rate: f64) -> FakeOutput {
        FakeOutput {
            rate,
            block_secs: 512.0 / 48_000.0,
            track_secs: 3600.0,
            wall_secs: 0.0,
            started: None,
            starts: Vec::new(),
        }
    }

    /// Where the sound really is now (what the listener hears).
    fn true_secs(&self) -> Option<f64> {
        self.started.map(|(wall0, audio0)| audio0 + (self.wall_secs - wall0) * self.rate)
    }
}

impl AudioOutput for FakeOutput {
    fn position_secs(&self) -> Option<f64> {
        self.started.map(|(wall0, audio0)| {
            let played = (self.wall_secs - wall0) * self.rate;
            audio0 + (played / self.block_secs).floor() * self.block_secs
        })
    }
    fn start_at(&mut self, audio_secs: f64) {
        self.started = Some((self.wall_secs, audio_secs));
        self.starts.push(audio_secs);
    }
    fn stop(&mut self) {
        self.started = None;
    }
    fn track_secs(&self) -> Option<f64> {
        Some(self.track_secs)
    }
    fn can_sound(&self) -> bool {
        true
    }
}

/// Deterministic frame times: 60 fps ± 3 ms, and a 90 ms hitch every 997 frames.
struct Frames {
    state: u64,
    index: u64,
}

impl Frames {
    fn new() -> Frames {
        Frames { state: 0x9e37_79b9_7f4a_7c15, index: 0 }
    }
    fn next_dt(&mut self) -> f64 {
        self.state = self.state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.index += 1;
        let jitter = ((self.state >> 33) as f64 / (1u64 << 31) as f64 - 0.5) * 0.006;
        if self.index.is_multiple_of(997) { 0.090 } else { 1.0 / 60.0 + jitter }
    }
}

const FRAME_SECS: f64 = 1.0 / 60.0;
const PLAYING: TransportState = TransportState { playing: true, speed: 1.0, music_on: true };

/// Runs `secs` of playback; returns the largest |picture − sound| in seconds, checking every
/// frame that the picture never goes backwards.
fn run(sync: &mut MusicSync, output: &mut FakeOutput, frames: &mut Frames, secs: f64) -> f64 {
    let mut worst: f64 = 0.0;
    let end = output.wall_secs + secs;
    let mut last = sync.t_beats();
    while output.wall_secs < end {
        let dt = frames.next_dt();
        output.wall_secs += dt;
        let t_beats = sync.frame(dt, PLAYING, output);
        assert!(t_beats >= last - 1e-12, "the picture went backwards: {last} -> {t_beats}");
        last = t_beats;
        if let Some(heard) = output.true_secs() {
            let shown = sync.alignment().audio_secs_at(t_beats);
            worst = worst.max((shown - heard).abs());
        }
    }
    worst
}

#[test]
fn ten_minutes_on_a_fast_or_slow_device_keep_the_picture_within_a_frame_of_the_sound() {
    for rate in [1.001, 0.999] {
        let alignment = Alignment::new(1.5, 96.0);
        let mut sync = MusicSync::new(alignment, 0.0);
        let mut output = FakeOutput::new(rate);
        let mut frames = Frames::new();
        // Skip the first second (the clock locks on), then 10 minutes.
        run(&mut sync, &mut output, &mut frames, 1.0);
        let worst = run(&mut sync, &mut output, &mut frames, 600.0);
        eprintln!("device clock {rate}: worst picture-sound gap over 10 min {:.2} ms", worst * 1e3);
        assert!(worst <= FRAME_SECS, "rate {rate}: the picture is {:.1} ms off the sound", worst * 1e3);
        assert_eq!(output.starts.len(), 1, "the music started once and was never re-seeked");
        // The same run on the wall clock alone would be 0.6 s (36 frames) off by now.
        let heard = output.true_secs().unwrap();
        let wall_only = alignment.audio_secs_at(0.0) + output.wall_secs;
        assert!((heard - wall_only).abs() > 0.5, "the fake device must drift from the wall clock");
    }
}

#[test]
fn seeking_and_loop_wraps_move_the_music_with_the_picture() {
    let alignment = Alignment::new(2.0, 120.0);
    let mut sync = MusicSync::new(alignment, 0.0);
    let mut output = FakeOutput::new(1.001);
    let mut frames = Frames::new();
    run(&mut sync, &mut output, &mut frames, 1.0);
    assert_eq!(output.starts, vec![2.0], "beat 0 is 2 s into the music");
    sync.seek(20.0, &mut output);
    assert_eq!(output.starts.last(), Some(&12.0), "beat 20 at 120 bpm is 10 s after the offset");
    let worst = run(&mut sync, &mut output, &mut frames, 5.0);
    assert!(worst <= FRAME_SECS, "{worst}");
    assert!((sync.t_beats() - 30.0).abs() < 0.1, "{}", sync.t_beats());

    // A loop over beats 4..8, the way the player drives it (picture from the clock, wrap → seek).
    let loop_range = LoopRange::new(4.0, 8.0).unwrap();
    sync.seek(4.0, &mut output);
    let mut t_beats;
    let mut wraps = 0;
    for _ in 0..(60 * 20) {
        let dt = frames.next_dt();
        output.wall_secs += dt;
        let target = sync.frame(dt, PLAYING, &mut output);
        if target >= loop_range.end_beats() {
            t_beats = loop_range.wrap(target);
            sync.seek(t_beats, &mut output);
            wraps += 1;
        } else {
            t_beats = target;
        }
        assert!(loop_range.contains(t_beats), "{t_beats}");
        let heard = output.true_secs().unwrap();
        assert!((alignment.audio_secs_at(t_beats) - heard).abs() <= FRAME_SECS);
    }
    // 20 s at 2 beats/s over a 4-beat loop: 10 wraps.
    assert!((9..=11).contains(&wraps), "{wraps} wraps");
    assert!(output.starts.iter().rev().take(wraps).all(|s| (*s - alignment.audio_secs_at(4.0)).abs() < 0.05));
}

#[test]
fn other_speeds_mute_the_music_and_one_x_brings_it_back_in_place() {
    let alignment = Alignment::new(0.5, 60.0);
    let mut sync = MusicSync::new(alignment, 0.0);
    let mut output = FakeOutput::new(1.0);
    sync.frame(0.0, PLAYING, &mut output);
    assert!(sync.is_sounding());
    let half = TransportState { speed: 0.5, ..PLAYING };
    for _ in 0..120 {
        output.wall_secs += FRAME_SECS;
        sync.frame(FRAME_SECS, half, &mut output);
    }
    assert!(!sync.is_sounding() && output.started.is_none(), "muted at 0.5×");
    assert!((sync.t_beats() - 1.0).abs() < 1e-9, "2 s at 0.5× and 60 bpm is one beat: {}", sync.t_beats());
    sync.frame(FRAME_SECS, PLAYING, &mut output);
    assert!(sync.is_sounding());
    assert!((output.starts.last().unwrap() - 1.5).abs() < 1e-9, "back at 1×: beat 1 is 1.5 s into the music");
    // Pause stops the sound and holds the time.
    let paused = TransportState { playing: false, ..PLAYING };
    let before = sync.t_beats();
    sync.frame(1.0, paused, &mut output);
    assert!(!sync.is_sounding() && sync.t_beats() == before);
    // The music switched off, or no output at all: the wall clock runs the picture.
    let mut silent = MusicSync::new(alignment, 0.0);
    silent.frame(0.25, PLAYING, &mut Silence);
    assert!((silent.t_beats() - 0.25).abs() < 1e-12 && !silent.is_sounding());
}

#[test]
fn music_that_starts_after_the_dance_waits_for_its_first_second() {
    // Beat 0 falls 1 s before the audio starts (negative offset).
    let alignment = Alignment::new(-1.0, 120.0);
    let mut sync = MusicSync::new(alignment, 0.0);
    let mut output = FakeOutput::new(1.0);
    for _ in 0..30 {
        output.wall_secs += FRAME_SECS;
        sync.frame(FRAME_SECS, PLAYING, &mut output);
    }
    assert!(output.starts.is_empty(), "silent before the music begins");
    for _ in 0..60 {
        output.wall_secs += FRAME_SECS;
        sync.frame(FRAME_SECS, PLAYING, &mut output);
    }
    assert_eq!(output.starts.len(), 1);
    assert!(output.starts[0] >= 0.0 && output.starts[0] < 2.0 * FRAME_SECS, "{:?}", output.starts);
    // Past the end of the track it falls silent and keeps going on the wall clock.
    output.track_secs = 1.0;
    for _ in 0..60 {
        output.wall_secs += FRAME_SECS;
        sync.frame(FRAME_SECS, PLAYING, &mut output);
    }
    assert!(!sync.is_sounding());
    assert!(sync.audio_secs() > 1.4, "{}", sync.audio_secs());
}

#[test]
fn the_clock_smooths_coarse_readings_and_snaps_over_real_jumps() {
    let mut clock = MediaClock::new(0.0);
    // Readings in 40 ms blocks: the clock moves every frame anyway.
    let mut wall = 0.0;
    let mut shown = Vec::new();
    for _ in 0..120 {
        wall += FRAME_SECS;
        let reading = (wall / 0.04_f64).floor() * 0.04;
        shown.push(clock.tick(FRAME_SECS, 1.0, Some(reading)));
    }
    assert!(shown.windows(2).all(|w| w[1] > w[0]), "moves every frame");
    assert!((clock.secs() - wall).abs() < 0.04);
    // The device jumped (another program seeked it): snap.
    clock.tick(FRAME_SECS, 1.0, Some(30.0));
    assert_eq!(clock.secs(), 30.0);
}

#[test]
fn tempo_overrides_offsets_and_seeks_convert_between_beats_and_music_seconds() {
    assert_eq!(effective_bpm(90.0, None), 90.0);
    assert_eq!(effective_bpm(90.0, Some(120.0)), 120.0);
    let a = Alignment::new(3.0, effective_bpm(90.0, Some(120.0)));
    assert_eq!(a.audio_secs_at(8.0), 7.0);
    assert_eq!(a.beats_at(7.0), 8.0);
    for t in [-4.0, 0.0, 0.37, 12.5, 1000.0] {
        assert!((a.beats_at(a.audio_secs_at(t)) - t).abs() < 1e-9);
    }
}

#[test]
fn taps_give_tempo_and_offset_and_bad_taps_say_why() {
    // 100 bpm, beat 0 at 1.30 s; the first tap is beat 4 (measure 2 of a 4/4 score); ±8 ms hands.
    let jitter = [0.004, -0.008, 0.006, 0.0, -0.005, 0.007, -0.003, 0.002];
    let taps: Vec<f64> = jitter.iter().enumerate().map(|(k, j)| 1.3 + (4.0 + k as f64) * 0.6 + j).collect();
    let fit = fit_taps(&taps, 4.0).unwrap();
    assert!((fit.alignment.bpm - 100.0).abs() < 0.5, "{fit:?}");
    assert!((fit.alignment.offset_secs - 1.3).abs() < 0.015, "{fit:?}");
    assert!(fit.spread_ms > 1.0 && fit.spread_ms < 10.0, "{fit:?}");
    assert_eq!(fit.taps, 8);
    assert_eq!(fit_taps(&taps[..2], 0.0), Err(TapError::TooFew { have: 2 }));
    assert_eq!(fit_taps(&[1.0, 1.0, 2.0], 0.0), Err(TapError::NotIncreasing));
    let skipped = [0.0, 0.5, 1.0, 2.0, 2.5];
    let err = fit_taps(&skipped, 0.0).unwrap_err();
    assert!(matches!(err, TapError::Uneven { index: 3, .. }), "{err:?}");
    assert!(err.to_string().contains("tap every beat"));
    assert!(matches!(fit_taps(&[0.0, 0.01, 0.02], 0.0), Err(TapError::TempoOutOfRange { .. })));

    let mut recorder = TapRecorder::default();
    for t in [10.0, 10.5, 11.0] {
        recorder.tap(t);
    }
    assert_eq!(recorder.taps().len(), 3);
    recorder.tap(20.0);
    assert_eq!(recorder.taps(), &[20.0], "a long pause starts over");
    recorder.tap(5.0);
    assert_eq!(recorder.taps(), &[5.0], "music moved back: start over");
}

#[test]
fn loop_ranges_from_drags_and_measures_wrap_inside_themselves() {
    let starts = [(1, 0.0), (2, 4.0), (3, 8.0), (4, 12.0)];
    let two = LoopRange::of_measures(&starts, 16.0, 2, 3).unwrap();
    assert_eq!((two.start_beats(), two.end_beats()), (4.0, 12.0));
    assert_eq!(
        LoopRange::of_measures(&starts, 16.0, 4, 4).unwrap().end_beats(),
        16.0,
        "the last measure ends the score"
    );
    assert_eq!(LoopRange::of_measures(&starts, 16.0, 3, 2), Some(two), "either order");
    assert_eq!(LoopRange::of_measures(&starts, 16.0, 9, 9), None);
    let dragged = LoopRange::new(7.6, 2.3).unwrap();
    assert_eq!((dragged.start_beats(), dragged.end_beats()), (2.3, 7.6));
    let snapped = dragged.snapped_to_beats();
    assert_eq!((snapped.start_beats(), snapped.end_beats()), (2.0, 8.0));
    assert_eq!(LoopRange::new(1.0, 1.1), None, "too short");
    assert_eq!(LoopRange::new(f64::NAN, 1.0), None);
    assert_eq!(two.wrap(11.0), 11.0);
    assert_eq!(two.wrap(12.5), 4.5);
    assert_eq!(two.wrap(12.0 + 8.0 * 3.0 + 1.0), 5.0, "a huge step wraps inside");
    assert_eq!(two.within(10.0).unwrap().end_beats(), 10.0);
    assert_eq!(two.within(4.1), None);
    assert_eq!(two.measures_text(|t| (t / 4.0).floor() as u32 + 1), "measures 2–3");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("labanplay-rehearse-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn settings_round_trip_and_a_corrupt_file_falls_back_to_defaults() {
    let dir = scratch("settings");
    let path =
        settings_path_from(|name| (name == "LABANPLAY_CONFIG_DIR").then(|| dir.clone().into_os_string())).unwrap();
    assert_eq!(path, dir.join("settings.json"));
    let xdg = settings_path_from(|name| (name == "XDG_CONFIG_HOME").then(|| "/x".into())).unwrap();
    assert_eq!(xdg, Path::new("/x/labanplay/settings.json"));
    let home = settings_path_from(|name| (name == "HOME").then(|| "/h".into())).unwrap();
    assert_eq!(home, Path::new("/h/.config/labanplay/settings.json"));
    assert_eq!(settings_path_from(|_| None), None);

    let missing = Settings::load(&path);
    assert_eq!(missing.settings, Settings::default());
    assert_eq!(missing.warning, None, "a first start is not an error");

    let mut settings = Settings {
        model: Some("man-classical".into()),
        camera: Some("behind".into()),
        mirror: true,
        speed: Some(0.75),
        looping: Some(false),
        staff_px_per_beat: Some(48.0),
        last_score: Some("/scores/a.lbn".into()),
        ..Settings::default()
    };
    settings.toggles.footprints = Some(false);
    settings.toggles.music = Some(true);
    let key = score_key(Some(Path::new("/scores/a.lbn")), "");
    settings.scores.insert(
        key.clone(),
        ScoreSettings {
            music: Some("/music/a.ogg".into()),
            offset_secs: Some(1.25),
            bpm: Some(96.0),
            loop_beats: Some([4.0, 12.0]),
        },
    );
    settings.save(&path).unwrap();
    let loaded = Settings::load(&path);
    assert_eq!(loaded.warning, None);
    assert_eq!(loaded.settings.version, 1);
    assert_eq!(Settings { version: 1, ..settings.clone() }, loaded.settings);
    assert_eq!(score_key(None, "Duet"), "demo:Duet");

    // Fields from a newer version are ignored, missing ones keep their defaults.
    std::fs::write(&path, r#"{"mirror": true, "from_the_future": 3}"#).unwrap();
    let newer = Settings::load(&path);
    assert!(newer.settings.mirror && newer.warning.is_none() && newer.settings.speed.is_none());

    for corrupt in ["{\"mirror\": tru", "\u{0}\u{1}garbage", "{\"speed\": \"fast\"}", ""] {
        std::fs::write(&path, corrupt).unwrap();
        let loaded = Settings::load(&path);
        assert_eq!(loaded.settings, Settings::default(), "{corrupt:?}");
        let warning = loaded.warning.unwrap();
        assert!(warning.contains("unreadable") && warning.contains("using defaults"), "{warning}");
        assert_eq!(std::fs::read(path.with_extension("json.bad")).unwrap(), corrupt.as_bytes(), "kept aside");
    }
    // A folder where the file should be: unreadable, defaults, no panic.
    let _ = std::fs::remove_file(&path);
    std::fs::create_dir_all(&path).unwrap();
    assert!(Settings::load(&path).warning.unwrap().contains("using defaults"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sidecar_names_the_music_offset_and_tempo_and_bad_ones_point_at_the_error() {
    let dir = scratch("sidecar");
    let score = dir.join("dance.lbn");
    assert_eq!(sidecar_path(&score), dir.join("dance.music.json"));
    assert!(Sidecar::load_beside(&score).unwrap().is_none(), "none is fine");
    std::fs::write(
        dir.join("dance.music.json"),
        "{\n  \"music\": \"tracks/dance.ogg\",\n  \"offset_secs\": 1.5,\n  \"bpm\": 96\n}\n",
    )
    .unwrap();
    let (path, sidecar) = Sidecar::load_beside(&score).unwrap().unwrap();
    assert_eq!(sidecar.offset_secs, Some(1.5));
    assert_eq!(sidecar.bpm, Some(96.0));
    assert_eq!(sidecar.music_path(&path).unwrap(), dir.join("tracks/dance.ogg"));

    let bad = Sidecar::parse("{\n  \"music\": \"a.ogg\",\n  \"ofset\": 2\n}", Path::new("x.music.json")).unwrap_err();
    let text = bad.to_string();
    assert!(matches!(bad, SidecarError::Syntax { line: 3, .. }), "{text}");
    assert!(text.starts_with("x.music.json:3:") && text.contains("ofset"), "{text}");
    let bad = Sidecar::parse(r#"{"music": "a.ogg", "bpm": -5}"#, Path::new("y.music.json")).unwrap_err();
    assert!(bad.to_string().contains("bpm"), "{bad}");

    let music = dir.join("song.wav");
    let written = Sidecar::write_beside(&score, &music, 0.12345, Some(101.0)).unwrap();
    let (_, back) = Sidecar::load_beside(&score).unwrap().unwrap();
    assert_eq!(written, dir.join("dance.music.json"));
    assert_eq!(back.music, Some(PathBuf::from("song.wav")), "relative to the score's folder");
    assert_eq!(back.offset_secs, Some(0.123));
    assert_eq!(back.bpm, Some(101.0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "viewer")]
mod viewer {
    use super::*;
    use glam::{Vec3, Vec4Swizzles};
    use labanplay::stage::camera_input::{
        CameraView, FloorBounds, PointerInput, apply_motion, behind_yaw_rad, camera_motion, follow_from_behind,
        framed_camera, shown_ndc_x, stage_uv_x, unmirrored_pointer,
    };
    use labanplay::stage::playback::{Playback, Timeline};
    use labanplay::stage::{CameraPreset, OrbitCamera};

    fn timeline() -> Timeline {
        Timeline { bpm: 60.0, duration_beats: 16.0, measure_starts: vec![(1, 0.0), (2, 4.0), (3, 8.0), (4, 12.0)] }
    }

    #[test]
    fn the_transport_loops_a_marked_passage_and_reports_the_wrap() {
        let mut p = Playback::new(timeline());
        p.set_loop_range(LoopRange::of_measures(&timeline().measure_starts, 16.0, 2, 3));
        p.seek(11.5);
        p.play();
        let a = p.advance(1.0);
        assert!(a.wrapped());
        assert_eq!(a.spans(), &[(11.5, 12.0), (4.0, 4.5)]);
        assert_eq!(p.t_beats(), 4.5);
        let a = p.advance_beats(2.0);
        assert!(!a.wrapped() && p.t_beats() == 6.5);
        // After the passage (a seek past it) it plays on to the end, then wraps to the passage.
        p.seek(13.0);
        p.set_looping(true);
        let a = p.advance(3.5);
        assert!(a.wrapped());
        assert_eq!(p.t_beats(), 4.5);
        // Cleared: the whole score loops again.
        p.set_loop_range(None);
        p.seek(15.5);
        p.advance(1.0);
        assert_eq!(p.t_beats(), 0.5);
        // A range is cut to the score when the score gets shorter.
        p.set_loop_range(LoopRange::new(10.0, 14.0));
        p.set_timeline(Timeline { duration_beats: 12.0, ..timeline() });
        assert_eq!(p.loop_range().unwrap().end_beats(), 12.0);
        // A tempo override changes how fast the beats go, not where they are.
        let mut fast = Playback::new(timeline());
        fast.set_bpm(120.0);
        fast.play();
        fast.advance(1.0);
        assert_eq!(fast.t_beats(), 2.0);
    }

    #[test]
    fn a_tempo_override_plays_the_same_motion_faster() {
        let model = labanplay::stage::dancer_mesh::mannequin(&labanplay::pose::Proportions::default()).unwrap();
        let score = labanplay::demo::default_score();
        let score_bpm = score.tempo.bpm;
        let mut player = labanplay::stage::player::Player::new(
            score,
            labanplay::stage::player::ScoreSource::Demo("walk"),
            model,
            false,
        );
        player.playback.seek(3.0);
        player.sample();
        let pose_at_3 = player.poses()[0].pelvis_in_world;
        player.set_tempo_override(Some(score_bpm * 2.0));
        assert_eq!(player.playback.t_beats(), 3.0);
        assert!((player.playback.t_secs() - 3.0 * 60.0 / (score_bpm * 2.0)).abs() < 1e-9);
        assert!((player.score_secs() - 3.0 * 60.0 / score_bpm).abs() < 1e-9);
        player.sample();
        assert_eq!(player.poses()[0].pelvis_in_world, pose_at_3, "beat 3 is the same pose at any tempo");
        player.set_tempo_override(None);
        assert_eq!(player.playback.timeline().bpm, score_bpm);
    }

    /// Normalised image x of `p` as shown (mirror applied).
    fn image_x(camera: &OrbitCamera, p: Vec3, mirrored: bool) -> f32 {
        let clip = camera.clip_from_world(16.0 / 9.0) * p.extend(1.0);
        shown_ndc_x(clip.x / clip.w, mirrored)
    }

    #[test]
    fn the_mirror_shows_the_dancers_right_on_the_right_like_the_view_from_behind() {
        // A dancer at the origin facing the audience (+Z): their right hand is toward −X.
        let right_hand = Vec3::new(-0.6, 1.2, 0.0);
        let bounds = FloorBounds::of_points([Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0)], 0.5);
        let audience = framed_camera(CameraView::Front, &bounds, 16.0 / 9.0);
        assert!(image_x(&audience, right_hand, false) < -0.05, "the audience sees the right hand on its left");
        assert!(image_x(&audience, right_hand, true) > 0.05, "the mirror shows it on the right");
        assert_eq!(image_x(&audience, right_hand, true), -image_x(&audience, right_hand, false));
        // From behind, the dancer's right is also on the right.
        let mut behind = framed_camera(CameraView::Behind, &bounds, 16.0 / 9.0);
        follow_from_behind(&mut behind, Vec3::new(0.0, 0.9, 0.0), Vec3::Z, f32::INFINITY);
        assert!((behind.eye_in_world().z) < -1.0, "behind a dancer facing +Z is upstage: {}", behind.eye_in_world());
        assert!(behind.look_direction_in_world().z > 0.9);
        assert!(image_x(&behind, right_hand, false) > 0.1);
        // After a half turn (facing −Z) the camera comes round to the audience side.
        follow_from_behind(&mut behind, Vec3::new(0.0, 0.9, 0.0), Vec3::NEG_Z, f32::INFINITY);
        assert!(behind.yaw_rad.abs() < 1e-5, "{}", behind.yaw_rad);
        assert!(image_x(&behind, Vec3::new(0.6, 1.2, 0.0), false) > 0.1, "their right is now +X, still on the right");
        assert!((behind_yaw_rad(Vec3::X) - (-std::f32::consts::FRAC_PI_2)).abs() < 1e-6);
        // The texture coordinates flip, and only in the mirror.
        assert_eq!(stage_uv_x(false), [0.0, 1.0]);
        assert_eq!(stage_uv_x(true), [1.0, 0.0]);
    }

    #[test]
    fn the_behind_view_turns_smoothly_the_short_way_round() {
        let mut camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, Vec3::ZERO, 4.0);
        camera.yaw_rad = 3.0;
        // The goal −3.0 rad is 0.28 rad away across ±π, not 6 rad back through 0.
        let facing = Vec3::new(-(-3.0f32).sin(), 0.0, -(-3.0f32).cos());
        follow_from_behind(&mut camera, Vec3::ZERO, facing, 1.0 / 60.0);
        assert!(camera.yaw_rad > 3.0 || camera.yaw_rad < -3.0, "{}", camera.yaw_rad);
        for _ in 0..200 {
            follow_from_behind(&mut camera, Vec3::ZERO, facing, 1.0 / 60.0);
        }
        assert!((camera.yaw_rad + 3.0).abs() < 1e-3, "{}", camera.yaw_rad);
        let before = camera;
        follow_from_behind(&mut camera, Vec3::ZERO, Vec3::Y, 1.0 / 60.0);
        assert_eq!(camera.yaw_rad, before.yaw_rad, "no horizontal facing: no turn");
        assert_eq!(CameraView::from_name("behind"), Some(CameraView::Behind));
        assert!(CameraView::ALL.iter().all(|v| CameraView::from_name(v.name()) == Some(*v)));
    }

    #[test]
    fn in_the_mirror_the_stage_still_turns_with_the_pointer() {
        let camera = OrbitCamera::from_preset(CameraPreset::ThreeQuarter, Vec3::new(0.0, 0.9, 0.0), 4.0);
        let drag = PointerInput {
            drag_delta_px: [40.0, 0.0],
            primary_down: true,
            viewport_height_px: 600.0,
            ..Default::default()
        };
        let front_point = camera.target_in_world - camera.look_direction_in_world() * 0.5;
        let project = |c: &OrbitCamera| {
            let clip = c.clip_from_world(1.0) * front_point.extend(1.0);
            clip.xy() / clip.w
        };
        let mut moved = camera;
        apply_motion(&mut moved, &camera_motion(&unmirrored_pointer(&drag, true), &camera));
        let before = shown_ndc_x(project(&camera).x, true);
        let after = shown_ndc_x(project(&moved).x, true);
        assert!(after > before, "dragging right moves the shown point right: {before} -> {after}");
        assert_eq!(unmirrored_pointer(&drag, false), drag);
    }
}
