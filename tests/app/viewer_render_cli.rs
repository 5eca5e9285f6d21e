//! `labanplay render` end to end: the demo rendered to a folder of PNGs (the expected number of
//! frames, each the requested size), to an animated GIF (decodable, same frame count), to MP4 and
//! WebM with the music from a sidecar (ffprobe: frame count and duration within one frame, the
//! click where the offset puts it), mirrored; the clear errors when no graphics adapter or no
//! ffmpeg exists. SKIP without an adapter unless `REQUIRE_GPU=1`, without ffmpeg unless `CI`.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use image::AnimationDecoder as _;
use labanplay::offline::headless::frame_times_beats;
use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("labanplay-render-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The program with no display and an empty settings folder (the user's own settings stay out).
fn labanplay(args: &[&str]) -> Output {
    labanplay_with_settings(args, &std::env::temp_dir().join("labanplay-render-no-settings"))
}

fn labanplay_with_settings(args: &[&str], config_dir: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labanplay"))
        .args(args)
        .env_remove("DISPLAY")
        .env("LABANPLAY_CONFIG_DIR", config_dir)
        .output()
        .unwrap()
}

fn adapter_or_skip(test: &str) -> bool {
    match labanplay::render::create_headless() {
        Ok(_) => true,
        Err(error) if std::env::var("REQUIRE_GPU").is_ok_and(|v| v == "1") => {
            panic!("{test}: REQUIRE_GPU=1 but {error}")
        }
        Err(error) => {
            eprintln!("SKIP {test}: no graphics adapter ({error})");
            false
        }
    }
}

/// Frames expected for beats `from..=to` of the demo at `fps`.
fn expected_frames(from: f64, to: f64, fps: f64) -> usize {
    let (_, score) = labanplay::stage::demo_score(0).unwrap();
    frame_times_beats(from, to.min(score.duration_beats), fps, score.tempo.bpm).len()
}

#[test]
fn renders_the_demo_to_numbered_pngs() {
    if !adapter_or_skip("renders_the_demo_to_numbered_pngs") {
        return;
    }
    let dir = scratch("png");
    let out = format!("{}/", dir.join("frames").display());
    let output = labanplay(&[
        "render", "-o", &out, "--size", "160x96", "--fps", "4", "--from", "0", "--to", "4", "--camera", "front",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains('[') && stderr.contains('#'), "progress bar on stderr: {stderr}");
    let mut names: Vec<String> = std::fs::read_dir(dir.join("frames"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected = expected_frames(0.0, 4.0, 4.0);
    assert_eq!(names.len(), expected, "{names:?}");
    assert_eq!(names.first().map(String::as_str), Some("frame-0001.png"));
    for name in [&names[0], &names[names.len() - 1]] {
        let image = image::open(dir.join("frames").join(name)).unwrap();
        assert_eq!((image.width(), image.height()), (160, 96));
    }
    let first = image::open(dir.join("frames").join(&names[0])).unwrap().to_rgba8();
    let last = image::open(dir.join("frames").join(&names[names.len() - 1])).unwrap().to_rgba8();
    assert_ne!(first, last, "the dancer moves over four beats");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn renders_the_demo_to_an_animated_gif() {
    if !adapter_or_skip("renders_the_demo_to_an_animated_gif") {
        return;
    }
    let dir = scratch("gif");
    let gif = dir.join("demo.gif");
    let output = labanplay(&["render", "-o", gif.to_str().unwrap(), "--size", "128x72", "--fps", "3", "--to", "3"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let decoder =
        image::codecs::gif::GifDecoder::new(std::io::BufReader::new(std::fs::File::open(&gif).unwrap())).unwrap();
    let frames = decoder.into_frames().collect_frames().unwrap();
    assert_eq!(frames.len(), expected_frames(0.0, 3.0, 3.0));
    assert!(frames.iter().all(|f| f.buffer().dimensions() == (128, 72)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_and_missing_adapters_are_clear_errors() {
    let dir = scratch("errors");
    let output = labanplay(&["render", "-o", dir.join("x.avi").to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains(".mp4"));
    let output = labanplay(&["render", "-o", dir.join("x.gif").to_str().unwrap(), "--size", "big"]);
    assert_eq!(output.status.code(), Some(2));
    let output = labanplay(&["render", "-o", dir.join("x.gif").to_str().unwrap(), "--model", "nobody"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("mannequin"));
    // No adapter at all: Vulkan only, pointed at a driver that does not exist.
    let output = Command::new(env!("CARGO_BIN_EXE_labanplay"))
        .args(["render", "-o", dir.join("none.gif").to_str().unwrap(), "--size", "64x64"])
        .env("WGPU_BACKEND", "vulkan")
        .env("VK_ICD_FILENAMES", "/nonexistent.json")
        .env("VK_DRIVER_FILES", "/nonexistent.json")
        .env_remove("DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("mesa-vulkan-drivers") && !stderr.contains("panicked"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ffmpeg` and `ffprobe` on the PATH, or a SKIP line (an error in CI, where `.ci/setup` installs them).
fn ffmpeg_or_skip(test: &str) -> bool {
    let found = ["ffmpeg", "ffprobe"]
        .iter()
        .all(|tool| Command::new(tool).arg("-version").output().is_ok_and(|o| o.status.success()));
    if !found {
        assert!(std::env::var_os("CI").is_none(), "{test}: CI is set but ffmpeg/ffprobe are missing (run .ci/setup)");
        eprintln!("SKIP {test}: ffmpeg/ffprobe are not installed (apt-get install ffmpeg)");
    }
    found
}

/// A mono 8 kHz float WAV of `secs` seconds, silent but for one click at `click_secs`.
fn write_click_wav(path: &std::path::Path, secs: f64, click_secs: f64) {
    let rate = 8_000u32;
    let mut samples = vec![0.0f32; (secs * f64::from(rate)) as usize];
    let at = (click_secs * f64::from(rate)) as usize;
    for (k, s) in samples.iter_mut().skip(at).take(80).enumerate() {
        *s = 0.9 * (k as f32 * 0.8).sin();
    }
    let source =
        rodio::buffer::SamplesBuffer::new(rodio::ChannelCount::MIN, rodio::SampleRate::new(rate).unwrap(), samples);
    let mut file = std::fs::File::create(path).unwrap();
    rodio::wav_to_writer(source, &mut file).unwrap();
}

/// `(codec_type, frames, duration)` of every stream, read back by ffprobe.
fn probe(path: &std::path::Path) -> Vec<(String, Option<u64>, f64)> {
    let output = Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames,duration"])
        .args(["-of", "json"])
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success(), "ffprobe: {}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    json["streams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let number = |key: &str| s[key].as_str().and_then(|v| v.parse::<f64>().ok());
            (
                s["codec_type"].as_str().unwrap().to_owned(),
                number("nb_read_frames").map(|f| f as u64),
                number("duration").unwrap_or(f64::NAN),
            )
        })
        .collect()
}

/// Seconds into the decoded audio of `path` where the first loud sample is.
fn first_click_secs(path: &std::path::Path) -> f64 {
    let output = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(path)
        .args(["-map", "0:a", "-ac", "1", "-ar", "8000", "-f", "f32le", "-"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let samples: Vec<f32> =
        output.stdout.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let first = samples.iter().position(|s| s.abs() > 0.3).expect("the click is in the video's sound");
    first as f64 / 8000.0
}

#[test]
fn renders_videos_with_the_music_at_its_offset_and_ffprobe_counts_the_frames() {
    let test = "renders_videos_with_the_music_at_its_offset_and_ffprobe_counts_the_frames";
    if !adapter_or_skip(test) || !ffmpeg_or_skip(test) {
        return;
    }
    let dir = scratch("video");
    let score = dir.join("walk.lbn");
    std::fs::write(&score, labanplay::demo::WALK_ARMS_TURN_LBN).unwrap();
    // One click 1.75 s into the music; beat 0 falls at 1.5 s, so the click is 0.25 s into the video.
    write_click_wav(&dir.join("click.wav"), 6.0, 1.75);
    std::fs::write(dir.join("walk.music.json"), r#"{"music": "click.wav", "offset_secs": 1.5}"#).unwrap();
    let fps = 10.0;
    for (name, to) in [("walk.mp4", "4"), ("walk.webm", "2")] {
        let out = dir.join(name);
        let output = labanplay(&[
            "render",
            score.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--size",
            "161x96",
            "--fps",
            "10",
            "--to",
            to,
            "--camera",
            "behind",
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{name}: {stderr}");
        assert!(stderr.contains('#'), "progress bar: {stderr}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("click.wav"), "{stdout}");
        let expected = expected_frames(0.0, to.parse().unwrap(), fps);
        let streams = probe(&out);
        let video = streams.iter().find(|s| s.0 == "video").unwrap_or_else(|| panic!("{name}: {streams:?}"));
        assert_eq!(video.1, Some(expected as u64), "{name}: frame count {streams:?}");
        let video_secs = if video.2.is_finite() { video.2 } else { expected as f64 / fps };
        let expected_secs = expected as f64 / fps;
        assert!((video_secs - expected_secs).abs() <= 1.0 / fps, "{name}: {video_secs} s, expected {expected_secs}");
        let audio = streams.iter().find(|s| s.0 == "audio").unwrap_or_else(|| panic!("{name}: no sound {streams:?}"));
        if audio.2.is_finite() {
            assert!((audio.2 - expected_secs).abs() <= 1.0 / fps + 0.03, "{name}: audio {} s", audio.2);
        }
        let click = first_click_secs(&out);
        assert!((click - 0.25).abs() <= 1.0 / fps, "{name}: the click is at {click} s, expected 0.25 s");
        eprintln!("{name}: {expected} frames, video {video_secs:.3} s, audio {:.3} s, click at {click:.3} s", audio.2);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_video_takes_the_music_and_offset_the_user_set_in_the_player() {
    let test = "a_video_takes_the_music_and_offset_the_user_set_in_the_player";
    if !adapter_or_skip(test) || !ffmpeg_or_skip(test) {
        return;
    }
    use labanplay::rehearse::settings::{ScoreSettings, Settings, score_key, settings_path_from};
    let dir = scratch("settings");
    let score = dir.join("walk.lbn");
    std::fs::write(&score, labanplay::demo::WALK_ARMS_TURN_LBN).unwrap();
    write_click_wav(&dir.join("tapped.wav"), 6.0, 1.75);
    // What the player stores after "open music" and tapping the beat: no sidecar beside the score.
    let config = dir.join("config");
    let mut settings = Settings::default();
    let tapped = ScoreSettings { music: Some(dir.join("tapped.wav")), offset_secs: Some(1.5), ..Default::default() };
    settings.scores.insert(score_key(Some(&score), ""), tapped);
    let settings_file =
        settings_path_from(|name| (name == "LABANPLAY_CONFIG_DIR").then(|| config.clone().into())).unwrap();
    settings.save(&settings_file).unwrap();
    let out = dir.join("walk.webm");
    let args = ["render", score.to_str().unwrap(), "-o", out.to_str().unwrap(), "--size", "64x48", "--fps", "10"];
    let output = labanplay_with_settings(&[&args[..], &["--to", "2"]].concat(), &config);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("tapped.wav"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let click = first_click_secs(&out);
    assert!((click - 0.25).abs() <= 0.1, "the click is at {click} s, expected 0.25 s (the player's offset)");
    // `--no-settings` leaves them out: no music, so no sound stream.
    let output = labanplay_with_settings(&[&args[..], &["--to", "2", "--no-settings"]].concat(), &config);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(probe(&out).iter().all(|s| s.0 != "audio"), "{:?}", probe(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_players_export_button_runs_a_render_child_and_reports_its_progress() {
    use labanplay::viewer::video_export::{ExportState, VideoExport, VideoRequest};
    let test = "the_players_export_button_runs_a_render_child_and_reports_its_progress";
    if !adapter_or_skip(test) || !ffmpeg_or_skip(test) {
        return;
    }
    let dir = scratch("button");
    let score = dir.join("walk.lbn");
    std::fs::write(&score, labanplay::demo::WALK_ARMS_TURN_LBN).unwrap();
    write_click_wav(&dir.join("click.wav"), 30.0, 1.75);
    let request = VideoRequest {
        score: score.clone(),
        out: labanplay::viewer::video_export::default_video_path(&score),
        camera: "front",
        model: labanplay::body::models::DEFAULT_MODEL.to_owned(),
        mirror: true,
        music: Some(dir.join("click.wav")),
        offset_secs: 1.5,
        bpm: Some(240.0),
        size_px: [64, 48],
    };
    let mut export = VideoExport::start(std::path::Path::new(env!("CARGO_BIN_EXE_labanplay")), &request).unwrap();
    let mut readings = Vec::new();
    let result = loop {
        match export.poll() {
            ExportState::Running(progress) => readings.extend(progress),
            ExportState::Done(result) => break result,
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let text = result.unwrap();
    assert!(text.contains("walk.mp4"), "{text}");
    let streams = probe(&dir.join("walk.mp4"));
    assert!(streams.iter().any(|s| s.0 == "audio"), "the music is in it: {streams:?}");
    // The progress readings count the frames the video has.
    let video = streams.iter().find(|s| s.0 == "video").unwrap();
    let all = readings.last().map(|r| r.1);
    assert!(all.is_none() || all == video.1.map(|f| f as usize), "progress counted {all:?} of {:?}", video.1);
    assert!(readings.windows(2).all(|w| w[0].0 <= w[1].0), "progress only goes forward: {readings:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_mirror_flips_the_rendered_stage() {
    if !adapter_or_skip("the_mirror_flips_the_rendered_stage") {
        return;
    }
    let dir = scratch("mirror");
    let mut frames = Vec::new();
    for (name, extra) in [("plain/", None), ("mirror/", Some("--mirror"))] {
        let out = format!("{}", dir.join(name).display());
        let mut args = vec!["render", "-o", &out, "--size", "96x64", "--from", "2", "--to", "2", "--camera", "front"];
        args.extend(extra);
        let output = labanplay(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        frames.push(image::open(dir.join(name).join("frame-0001.png")).unwrap().to_rgba8());
    }
    assert_ne!(frames[0], frames[1], "the mirror changes the picture");
    assert_eq!(image::imageops::flip_horizontal(&frames[0]), frames[1], "and is the plain view flipped left–right");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_ffmpeg_a_video_export_says_what_to_install() {
    let dir = scratch("noffmpeg");
    let output = Command::new(env!("CARGO_BIN_EXE_labanplay"))
        .args(["render", "-o", dir.join("x.mp4").to_str().unwrap(), "--size", "64x64"])
        .env("LABANPLAY_FFMPEG", "/nonexistent/ffmpeg")
        .env_remove("DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("apt-get install ffmpeg") && stderr.contains(".gif"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // A sidecar naming a missing music file is a clear error too.
    let score = dir.join("s.lbn");
    std::fs::write(&score, labanplay::demo::WALK_ARMS_TURN_LBN).unwrap();
    std::fs::write(dir.join("s.music.json"), r#"{"music": "gone.ogg"}"#).unwrap();
    let output = labanplay(&["render", score.to_str().unwrap(), "-o", dir.join("x.gif").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("gone.ogg") && stderr.contains("s.music.json"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Nonsense on the command line is refused with exit status 2 and a message naming what to give,
/// before any window, adapter or output is touched.
#[test]
fn nonsense_on_the_command_line_is_refused() {
    let dir = scratch("nonsense");
    let gif = dir.join("x.gif");
    let gif = gif.to_str().unwrap();
    let score = concat!(env!("CARGO_MANIFEST_DIR"), "/scores/walk-arms-turn.lbn");
    let cases: [(&[&str], &str); 8] = [
        (&["render", "-o", gif, "--from", "8", "--to", "2"], "--from 8 is after --to 2"),
        (&["render", "-o", gif, "--from", "100"], "--from 100 is outside the score"),
        (&["render", "-o", gif, "--to", "-3"], "--to -3 is outside the score"),
        (&["render", "-o", gif, "--fps", "0"], "not a frame rate"),
        (&["export", score, "--fps", "-5", "--bvh", gif], "not a frame rate"),
        (&["export", score], "--bvh"),
        (&["rendr", score], "did you mean `render`"),
        (&["convert", score, gif], "convert writes lbn files"),
    ];
    for (args, expected) in cases {
        let output = labanplay(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: expected `{expected}` in {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    assert!(!std::path::Path::new(gif).exists(), "a refused command wrote its output");
    let missing = dir.join("missing.lbn");
    let output = labanplay(&["render", missing.to_str().unwrap(), "-o", gif]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("error:").count(), 1, "one error prefix: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `convert` writes a `.lw` score as `.lbn`, printing what changed at its `.lw` line, and the
/// written file reads.
#[test]
fn convert_writes_an_lbn_file_and_says_what_changed_at_its_line() {
    let dir = scratch("convert");
    let out = dir.join("walk.lbn");
    let lw = concat!(env!("CARGO_MANIFEST_DIR"), "/scores/walk-arms-turn.lw");
    let output = labanplay(&["convert", lw, out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("walk-arms-turn.lw:21:1: warning: 16 sign(s)"), "{stdout}");
    assert!(stdout.contains("wrote 32 of 32 symbols"), "{stdout}");
    assert!(labanplay::read::load(&out).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
