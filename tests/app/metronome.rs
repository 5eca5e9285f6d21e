//! The metronome: the pure beat schedule on 3/4 and 4/4 scores (accents, counts, interval
//! bounds, jumps), the click sound, rendering it to WAV without a device, and the no-device path.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use labanplay::read::Format;
use labanplay::score::{Measure, Meter, Score, TempoMap};
use labanplay::stage::playback::MeasureGrid;
use labanplay::viewer::metronome::{BeatClick, Metronome, beat_schedule, click_samples, click_source};

fn score(beats_per_measure: u32, measures: &[f64]) -> Score {
    let mut start = 0.0;
    let measures: Vec<Measure> = measures
        .iter()
        .enumerate()
        .map(|(i, &beats)| {
            let m = Measure { number: i as u32 + 1, start_beats: start, beats, y_bottom: 0.0, y_top: 0.0 };
            start += beats;
            m
        })
        .collect();
    Score {
        title: None,
        format: Format::Lbn,
        tempo: TempoMap { bpm: 90.0, is_default: false },
        meter: Meter { beats_per_measure, inferred: false },
        measures,
        staves: Vec::new(),
        duration_beats: start,
        contacts: Vec::new(),
        warnings: Vec::new(),
    }
}

fn times(clicks: &[BeatClick]) -> Vec<f64> {
    clicks.iter().map(|c| c.t_beats).collect()
}

#[test]
fn three_four_accents_only_the_first_beat_of_each_measure() {
    let s = score(3, &[3.0; 4]);
    let clicks = beat_schedule(MeasureGrid::of_score(&s), -0.5, 12.0);
    // (−0.5, 12]: beats 0..=11 of the four measures, and beat 12 (first beat after the last measure).
    assert_eq!(clicks.len(), 13);
    for c in &clicks {
        let on_downbeat = (c.t_beats % 3.0).abs() < 1e-9;
        assert_eq!(c.accent, on_downbeat, "{c:?}");
    }
    assert_eq!(clicks.iter().filter(|c| c.accent).count(), 5);
}

#[test]
fn four_four_counts_and_interval_bounds() {
    let s = score(4, &[4.0; 3]);
    // (from, to]: a click exactly at `from` is excluded, exactly at `to` included.
    assert_eq!(times(&beat_schedule(MeasureGrid::of_score(&s), 4.0, 8.0)), vec![5.0, 6.0, 7.0, 8.0]);
    assert!(beat_schedule(MeasureGrid::of_score(&s), 4.0, 8.0).last().unwrap().accent, "beat 8 starts measure 3");
    assert!(!beat_schedule(MeasureGrid::of_score(&s), 4.0, 8.0)[0].accent);
    assert_eq!(times(&beat_schedule(MeasureGrid::of_score(&s), 3.9, 4.0)), vec![4.0]);
    assert!(beat_schedule(MeasureGrid::of_score(&s), 3.9, 4.0)[0].accent);
    assert!(beat_schedule(MeasureGrid::of_score(&s), 4.0, 4.5).is_empty());
    assert!(beat_schedule(MeasureGrid::of_score(&s), 4.5, 4.5).is_empty());
    assert!(beat_schedule(MeasureGrid::of_score(&s), 6.0, 2.0).is_empty(), "backwards is empty");
    assert!(beat_schedule(MeasureGrid::of_score(&s), f64::NAN, 2.0).is_empty());
    // Small steps, like frames, add up to the whole interval with no click twice.
    let mut from = 0.0;
    let mut all = Vec::new();
    while from < 12.0 {
        let to = from + 1.0 / 7.0;
        all.extend(beat_schedule(MeasureGrid::of_score(&s), from, to));
        from = to;
    }
    assert_eq!(times(&all), times(&beat_schedule(MeasureGrid::of_score(&s), 0.0, from)));
    assert_eq!(all.len(), 12, "beats 1..=12");
}

#[test]
fn a_jump_over_several_measures_lists_every_click_in_order() {
    let s = score(4, &[4.0, 3.0, 4.0, 2.0, 4.0]);
    let clicks = beat_schedule(MeasureGrid::of_score(&s), 0.5, 17.0);
    let t = times(&clicks);
    assert_eq!(t, (1..=17).map(f64::from).collect::<Vec<_>>());
    let accents: Vec<f64> = clicks.iter().filter(|c| c.accent).map(|c| c.t_beats).collect();
    // Measures start at 0, 4, 7, 11, 13; after the last (ends at 17) the 4/4 meter continues.
    assert_eq!(accents, vec![4.0, 7.0, 11.0, 13.0, 17.0]);
    assert!(t.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_score_without_measures_follows_its_meter() {
    let s = score(3, &[]);
    let clicks = beat_schedule(MeasureGrid::of_score(&s), 0.0, 9.0);
    assert_eq!(times(&clicks), (1..=9).map(f64::from).collect::<Vec<_>>());
    let accents: Vec<f64> = clicks.iter().filter(|c| c.accent).map(|c| c.t_beats).collect();
    assert_eq!(accents, vec![3.0, 6.0, 9.0]);
}

fn rms(samples: &[f32]) -> f32 {
    (samples.iter().map(|s| s * s).sum::<f32>() / samples.len().max(1) as f32).sqrt()
}

#[test]
fn click_is_short_audible_bounded_and_the_accent_is_louder() {
    for rate in [22_050, 44_100, 48_000] {
        let normal = click_samples(false, rate);
        let accent = click_samples(true, rate);
        let secs = normal.len() as f32 / rate as f32;
        assert!((0.005..=0.1).contains(&secs), "{secs} s");
        assert!(normal.iter().chain(&accent).all(|s| s.is_finite() && s.abs() <= 1.0));
        assert!(rms(&normal) > 0.01, "audible");
        assert!(rms(&accent) > 1.3 * rms(&normal), "accent louder");
        // It decays: the last tenth is much quieter than the first.
        let tenth = normal.len() / 10;
        assert!(rms(&normal[normal.len() - tenth..]) < 0.2 * rms(&normal[..3 * tenth]));
        // The accent is higher: more zero crossings.
        let crossings = |s: &[f32]| s.windows(2).filter(|w| (w[0] < 0.0) != (w[1] < 0.0)).count();
        assert!(crossings(&accent) > crossings(&normal));
    }
    assert!(click_samples(true, 0).is_empty());
}

#[test]
fn a_click_renders_to_wav_without_a_device() {
    let mut buffer = std::io::Cursor::new(Vec::new());
    rodio::wav_to_writer(click_source(true), &mut buffer).unwrap();
    let bytes = buffer.into_inner();
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WAVE");
    let expected = click_samples(true, labanplay::viewer::metronome::CLICK_SAMPLE_RATE_HZ);
    // 32-bit float samples after a 44-byte (or longer) header.
    assert!(bytes.len() >= 44 + 4 * expected.len());
    let data: Vec<f32> = bytes[bytes.len() - 4 * expected.len()..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    for (a, b) in data.iter().zip(&expected) {
        assert!((a - b).abs() < 1e-6);
    }
}

#[test]
fn without_a_sound_card_the_metronome_is_unavailable_and_silent() {
    let mut m = Metronome::new();
    if m.unavailable_reason().is_none() {
        eprintln!("an audio device opened on this machine; the no-device path is tested with Metronome::unavailable");
    }
    let mut quiet = Metronome::unavailable("no audio output device: test");
    for metronome in [&mut m, &mut quiet] {
        assert!(!metronome.enabled(), "starts off");
        metronome.set_enabled(true);
        assert!(metronome.enabled());
        let s = score(4, &[4.0; 2]);
        metronome.advance(MeasureGrid::of_score(&s), 0.0, 8.0);
        metronome.advance(MeasureGrid::of_score(&s), 8.0, 0.0);
        metronome.advance(MeasureGrid::of_score(&s), f64::NAN, f64::INFINITY);
        metronome.set_enabled(false);
        metronome.advance(MeasureGrid::of_score(&s), 0.0, 1.0);
    }
    assert!(quiet.unavailable_reason().unwrap().starts_with("no audio output device"));
    if !std::path::Path::new("/dev/snd").exists() {
        let reason = m.unavailable_reason().expect("no /dev/snd: no device");
        assert!(reason.starts_with("no audio output device: "), "{reason}");
    }
}
