//! Window smoke test: runs the real `labanplay` binary under `xvfb-run` for a fixed number of
//! frames with `LABANPLAY_SCREENSHOT`, then checks the saved frame: not blank, the stage's colours
//! in the centre and dark staff-line pixels in the left (staff) panel; then the mirror view, a
//! music sidecar and a loop restored from a settings file (the badge, the unmirrored staff with
//! its loop band, the settings written back). Skips when `xvfb-run` is missing, unless `CI` is
//! set. Also checks the clear error without a display.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn xvfb_run() -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("xvfb-run"))
        .find(|path| path.is_file());
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI is set but xvfb-run is missing (run .ci/setup)");
        eprintln!("SKIP window smoke test: xvfb-run is not installed (apt-get install xvfb xauth)");
    }
    found
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("labanplay-window-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn window_draws_stage_and_staff_under_xvfb() {
    let Some(xvfb_run) = xvfb_run() else { return };
    let dir = scratch("smoke");
    let shot = dir.join("shot.png");
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let started = Instant::now();
    let output = Command::new(xvfb_run)
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_labanplay"))
        .env("LABANPLAY_EXIT_AFTER_FRAMES", "40")
        .env("LABANPLAY_FRAME_SECS", "0.05")
        .env("LABANPLAY_SCREENSHOT", &shot)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "labanplay failed ({:?}): {stderr}", output.status);
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
    let image =
        image::open(&shot).unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{stderr}", shot.display())).to_rgba8();
    eprintln!("screenshot {} ({}x{}) in {elapsed:?}", shot.display(), image.width(), image.height());
    let (w, h) = image.dimensions();
    assert!(w >= 800 && h >= 500, "window size {w}x{h}");

    // Not blank: many distinct colours.
    let mut colours: Vec<[u8; 3]> = image.pixels().step_by(7).map(|p| [p.0[0], p.0[1], p.0[2]]).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 50, "only {} distinct colours", colours.len());

    // Centre of the stage (between the staff and control panels): floor/dancer colours, not the
    // UI's grey and not black.
    let staff_w = labanplay::viewer::ui::STAFF_PANEL_WIDTH as u32;
    let controls_w = labanplay::viewer::ui::CONTROLS_PANEL_WIDTH as u32;
    let stage_cx = (staff_w + (w - controls_w)) / 2;
    let mut warm = 0;
    for y in (h / 3..2 * h / 3).step_by(3) {
        for x in (stage_cx - 60..stage_cx + 60).step_by(3) {
            let p = image.get_pixel(x, y).0;
            // The wooden floor is brown (red > blue), the dancer light; the UI is neutral grey.
            if i32::from(p[0]) - i32::from(p[2]) > 12 || (p[0] > 150 && p[1] > 140) {
                warm += 1;
            }
        }
    }
    assert!(warm > 100, "stage colours in the centre ({warm} warm pixels)");

    // Left panel: a light staff background with dark lines.
    let mut dark = 0;
    let mut light = 0;
    for y in (h / 4..3 * h / 4).step_by(2) {
        for x in 10..staff_w - 10 {
            let p = image.get_pixel(x, y).0;
            if p[0] < 70 && p[1] < 70 && p[2] < 70 {
                dark += 1;
            }
            if p[0] > 200 && p[1] > 200 && p[2] > 190 {
                light += 1;
            }
        }
    }
    assert!(dark > 200 && light > 2000, "staff panel: {dark} dark, {light} light pixels");
    let keep = std::env::var_os("KEEP_SCREENSHOT").is_some();
    if keep {
        eprintln!("kept {}", shot.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A mono float WAV of silence with a click every half second (the test's music track).
pub(crate) fn write_clicks_wav(path: &std::path::Path, secs: f64) {
    let rate = 8_000u32;
    let samples: Vec<f32> = (0..(secs * f64::from(rate)) as usize)
        .map(|i| if i % 4000 < 40 { 0.8 * (i as f32 * 0.9).sin() } else { 0.0 })
        .collect();
    let source =
        rodio::buffer::SamplesBuffer::new(rodio::ChannelCount::MIN, rodio::SampleRate::new(rate).unwrap(), samples);
    rodio::wav_to_writer(source, &mut std::fs::File::create(path).unwrap()).unwrap();
}

#[test]
fn mirror_view_with_music_loop_and_settings_restored_from_the_config_folder() {
    let Some(xvfb_run) = xvfb_run() else { return };
    let dir = scratch("mirror");
    let shot = dir.join("mirror.png");
    let config = dir.join("config");
    std::fs::create_dir_all(&config).unwrap();
    let score = dir.join("walk.lbn");
    std::fs::write(&score, labanplay::demo::WALK_ARMS_TURN_LBN).unwrap();
    write_clicks_wav(&dir.join("walk.wav"), 8.0);
    std::fs::write(dir.join("walk.music.json"), r#"{"music": "walk.wav", "offset_secs": 0.25}"#).unwrap();
    // What the user left last time: the mirror on, the audience view, this score, a loop of
    // measure 2 and a tempo of their own.
    let key = std::path::absolute(&score).unwrap().to_string_lossy().into_owned();
    let settings = serde_json::json!({
        "mirror": true,
        "camera": "front",
        "last_score": key,
        "speed": 1.0,
        "scores": { key.clone(): { "bpm": 100.0, "loop_beats": [2.0, 4.0] } }
    });
    std::fs::write(config.join("settings.json"), settings.to_string()).unwrap();
    let output = Command::new(xvfb_run)
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_labanplay"))
        .env("LABANPLAY_EXIT_AFTER_FRAMES", "40")
        .env("LABANPLAY_FRAME_SECS", "0.05")
        .env("LABANPLAY_SCREENSHOT", &shot)
        .env("LABANPLAY_CONFIG_DIR", &config)
        .env("XDG_CONFIG_HOME", dir.join("xdg-config"))
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "labanplay failed ({:?}): {stderr}", output.status);
    let image = image::open(&shot).unwrap_or_else(|e| panic!("no screenshot: {e}\n{stderr}")).to_rgba8();
    let (w, h) = image.dimensions();
    let staff_w = labanplay::viewer::ui::STAFF_PANEL_WIDTH as u32;
    let controls_w = labanplay::viewer::ui::CONTROLS_PANEL_WIDTH as u32;
    // The mirror badge (magenta) sits at the stage's top right, and a magenta frame round it.
    let badge = labanplay::viewer::ui::MIRROR_BADGE;
    let is_badge = |p: &image::Rgba<u8>| {
        (i32::from(p.0[0]) - i32::from(badge.r())).abs() < 30
            && (i32::from(p.0[1]) - i32::from(badge.g())).abs() < 30
            && (i32::from(p.0[2]) - i32::from(badge.b())).abs() < 30
    };
    let stage_right = w - controls_w;
    let mut badge_px = 0;
    for y in 0..h / 4 {
        for x in (stage_right - 200)..stage_right {
            badge_px += usize::from(is_badge(image.get_pixel(x, y)));
        }
    }
    assert!(badge_px > 500, "the MIRROR badge: {badge_px} magenta pixels");
    let mut left_frame = 0;
    for y in h / 3..2 * h / 3 {
        left_frame += usize::from(is_badge(image.get_pixel(staff_w + 2, y)));
    }
    assert!(left_frame > 20, "the mirror frame along the stage's left edge ({left_frame})");
    // The staff is not mirrored: it has no magenta and still its paper and ink.
    let mut dark = 0;
    let mut light = 0;
    let mut green = 0;
    for y in (h / 6..5 * h / 6).step_by(2) {
        for x in 10..staff_w - 10 {
            let p = image.get_pixel(x, y).0;
            assert!(!is_badge(image.get_pixel(x, y)), "magenta at ({x}, {y}) in the staff");
            dark += usize::from(p[0] < 70 && p[1] < 70 && p[2] < 70);
            light += usize::from(p[0] > 200 && p[1] > 200 && p[2] > 190);
            green += usize::from(i32::from(p[1]) - i32::from(p[0]) > 25 && i32::from(p[1]) - i32::from(p[2]) > 25);
        }
    }
    assert!(dark > 200 && light > 2000, "staff panel: {dark} dark, {light} light pixels");
    assert!(green > 100, "the loop band on the staff ({green} green pixels)");
    // The settings went back to the file: still mirrored, the loop and tempo kept, the camera.
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(config.join("settings.json")).unwrap()).unwrap();
    assert_eq!(saved["mirror"], true, "{saved}");
    assert_eq!(saved["camera"], "front", "{saved}");
    assert_eq!(saved["scores"][&key]["bpm"], 100.0, "{saved}");
    assert_eq!(saved["scores"][&key]["loop_beats"], serde_json::json!([2.0, 4.0]), "{saved}");
    assert_eq!(saved["last_score"], key.as_str(), "{saved}");
    eprintln!("mirror screenshot {} ({w}x{h})", shot.display());
    if std::env::var_os("KEEP_SCREENSHOT").is_some() {
        eprintln!("kept {}", shot.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn editing_the_open_file_reloads_it_in_the_running_window() {
    let Some(xvfb_run) = xvfb_run() else { return };
    let dir = scratch("reload");
    let score = dir.join("score.lbn");
    std::fs::write(&score, labanplay::demo::DUET_LBN).unwrap();
    let child = Command::new(xvfb_run)
        .args(["-a", "-s", "-screen 0 1024x640x24"])
        .arg(env!("CARGO_BIN_EXE_labanplay"))
        .arg("play")
        .arg(&score)
        .env("LABANPLAY_EXIT_AFTER_FRAMES", "60")
        .env("LABANPLAY_FRAME_SECS", "0.05")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("WAYLAND_DISPLAY")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Keep editing the file (a later modification time each time) until the window closes, so
    // the change lands after the window started watching however slow the start is.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let editor = {
        let (done, score) = (done.clone(), score.clone());
        std::thread::spawn(move || {
            let mut k = 0u64;
            while !done.load(std::sync::atomic::Ordering::Relaxed) && k < 240 {
                std::thread::sleep(Duration::from_millis(250));
                k += 1;
                let bytes = if k.is_multiple_of(2) { labanplay::demo::DUET_LBN } else { labanplay::demo::JUMPS_LBN };
                std::fs::write(&score, bytes).unwrap();
                let stamp = std::time::SystemTime::now() + Duration::from_secs(k);
                std::fs::File::options().write(true).open(&score).unwrap().set_modified(stamp).unwrap();
            }
        })
    };
    let output = child.wait_with_output().unwrap();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    editor.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("labanplay: reloaded"), "no reload reported: {stderr}");
    let recent = std::fs::read_to_string(dir.join("config/labanplay/recent.txt")).unwrap();
    assert!(recent.contains("score.lbn"), "recent files: {recent}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_plan_plays_with_its_event_timeline_and_a_selected_performer_under_xvfb() {
    let Some(xvfb_run) = xvfb_run() else { return };
    let dir = scratch("plan");
    let shot = dir.join("plan.png");
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let plan = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble/eight.plan.toml");
    let output = Command::new(xvfb_run)
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_labanplay"))
        .arg(&plan)
        .env("LABANPLAY_EXIT_AFTER_FRAMES", "30")
        .env("LABANPLAY_FRAME_SECS", "0.05")
        .env("LABANPLAY_SCREENSHOT", &shot)
        .env("LABANPLAY_SELECT", "4")
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "labanplay failed ({:?}): {stderr}", output.status);
    let image =
        image::open(&shot).unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{stderr}", shot.display())).to_rgba8();
    let (w, h) = image.dimensions();
    // The timeline strip beside the staff: the behaviour bars (blue) and the warm lights bar
    // in force from the first beat (amber, bright: current).
    let staff_w = labanplay::viewer::ui::STAFF_PANEL_WIDTH as u32;
    let line_w = labanplay::viewer::ui::TIMELINE_WIDTH as u32;
    let (mut blue, mut amber) = (0, 0);
    for y in (h / 8..7 * h / 8).step_by(2) {
        for x in staff_w..staff_w + line_w {
            let p = image.get_pixel(x, y).0.map(i32::from);
            if p[2] > p[0] + 60 && p[2] > 120 {
                blue += 1;
            }
            if (p[0] - 215).abs() < 12 && (p[1] - 165).abs() < 12 && (p[2] - 40).abs() < 12 {
                amber += 1;
            }
        }
    }
    assert!(blue > 100 && amber > 100, "timeline: {blue} blue, {amber} amber pixels");
    // The selected performer's ring and path (pale yellow lines) on the stage.
    let controls_w = labanplay::viewer::ui::CONTROLS_PANEL_WIDTH as u32;
    let yellow = (staff_w + line_w..w - controls_w)
        .flat_map(|x| (30..h - 40).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let p = image.get_pixel(x, y).0;
            p[0] > 230 && p[1] > 220 && p[2] > 90 && p[2] < 200
        })
        .count();
    assert!(yellow > 30, "{yellow} pixels of the selected performer's path and ring");
    if std::env::var_os("KEEP_SCREENSHOT").is_some() {
        eprintln!("kept {}", shot.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn without_a_display_the_window_fails_with_a_clear_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_labanplay"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "must fail without a display");
    assert_eq!(output.status.code(), Some(1), "an error exit, not a panic: {stderr}");
    assert!(stderr.contains("DISPLAY") && stderr.contains("labanplay render"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
