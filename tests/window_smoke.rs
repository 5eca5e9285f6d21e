//! Window smoke test: runs the real `labanplay` binary under `xvfb-run` for a fixed number of
//! frames with `LABANPLAY_SCREENSHOT`, then checks the saved frame: not blank, the stage's colours
//! in the centre and dark staff-line pixels in the left (staff) panel. Skips when `xvfb-run` is
//! missing, unless `CI` is set. Also checks the clear error without a display.
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

fn scratch(name: &str) -> PathBuf {
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
