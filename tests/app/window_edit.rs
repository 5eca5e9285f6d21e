//! The editor in the real window under Xvfb: E starts edit mode, Home goes to beat 0, H and 6
//! write a right arm gesture "side high", B a bent sign and U an upper-arm pre-sign under it; the
//! title marks the unsaved edits (`*`) and three Ctrl+Z take them back (the mark goes), three
//! Ctrl+Y make them again and Ctrl+S saves them (the mark goes; the file read back has the signs). Screenshot of the editor with `import` (kept with `KEEP_SCREENSHOT`).
//! Skips without Xvfb, xdotool or import, unless `CI` is set.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use crate::window_open_files::{start_xvfb, tools_present, wait_for, window_of, xdotool};
use crate::window_smoke::scratch;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn keys_in_the_window_edit_the_score_and_the_title_marks_it_until_undone() {
    if !tools_present() {
        return;
    }
    let dir = scratch("window-edit");
    let (config, runtime) = (dir.join("config"), dir.join("xdg"));
    for folder in [&config, &runtime] {
        std::fs::create_dir_all(folder).unwrap();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let display = format!(":{}", 300 + (std::process::id() + 250) % 500);
    let mut children = start_xvfb(&display);
    // A copy: the test saves it.
    let score = dir.join("walk-arms-turn.lbn");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/walk-arms-turn.lbn"), &score).unwrap();
    let player = Command::new(env!("CARGO_BIN_EXE_labanplay"))
        .arg(&score)
        .env("DISPLAY", &display)
        .env("LABANPLAY_CONFIG_DIR", &config)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let window = window_of(&display, player, &mut children);
    let title = || xdotool(&display, &["getwindowname", &window]);
    xdotool(&display, &["windowfocus", "--sync", &window]);
    for key in ["e", "Home", "h", "6", "b", "u"] {
        xdotool(&display, &["key", "--window", &window, key]);
        std::thread::sleep(Duration::from_millis(600));
    }
    assert!(wait_for(30, || title().contains("— * ")), "no unsaved mark: {}", title());
    std::thread::sleep(Duration::from_secs(2));
    let shot = dir.join("editor.png");
    let _ = Command::new("import").args(["-window", "root"]).arg(&shot).env("DISPLAY", &display).status();
    assert!(std::fs::metadata(&shot).is_ok_and(|m| m.len() > 10_000), "no screenshot at {}", shot.display());
    for _ in 0..3 {
        xdotool(&display, &["key", "--window", &window, "ctrl+z"]);
        std::thread::sleep(Duration::from_millis(400));
    }
    assert!(wait_for(30, || !title().contains("— * ")), "undo left the mark: {}", title());
    let side_high_arms = |path: &Path| {
        let doc = labanplay::read::load(path).unwrap().document;
        let side_high = |s: &&labanplay::read::PageSymbol| {
            s.level == labanplay::read::Level::High
                && matches!(
                    s.kind,
                    labanplay::read::SymbolKind::Direction { direction: labanplay::read::Direction::Right, .. }
                )
        };
        doc.symbols.iter().filter(side_high).count()
    };
    let before = side_high_arms(&score);
    for _ in 0..3 {
        xdotool(&display, &["key", "--window", &window, "ctrl+y"]);
        std::thread::sleep(Duration::from_millis(400));
    }
    assert!(wait_for(30, || title().contains("— * ")), "redo: no mark: {}", title());
    xdotool(&display, &["key", "--window", &window, "ctrl+s"]);
    assert!(wait_for(30, || !title().contains("— * ")), "saving left the mark: {}", title());
    assert_eq!(side_high_arms(&score), before + 1, "the saved file has the sign");
    let saved = std::fs::read_to_string(&score).unwrap();
    assert!(saved.contains("Volm   3") && saved.contains("Limb   7"), "the bent sign and the pre-sign saved:\n{saved}");
    drop(children);
    if std::env::var_os("KEEP_SCREENSHOT").is_some() {
        eprintln!("kept the screenshot {}", shot.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
