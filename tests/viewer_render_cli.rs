//! `labanplay render` end to end: the demo rendered to a folder of PNGs (the expected number of
//! frames, each the requested size) and to an animated GIF (decodable, same frame count), plus
//! the clear error when no graphics adapter exists. SKIP without an adapter unless `REQUIRE_GPU=1`.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use image::AnimationDecoder as _;
use labanplay::viewer::headless::frame_times_beats;
use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("labanplay-render-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn labanplay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labanplay")).args(args).env_remove("DISPLAY").output().unwrap()
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
    let (_, score) = labanplay::viewer::demo_score(0).unwrap();
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
    let output = labanplay(&["render", "-o", dir.join("x.mp4").to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains(".gif"));
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
