//! A mesh as the player's dancer: the rig cache (a second open is read back, not rigged; a
//! damaged entry is rigged again), and the real window under Xvfb reopening the mesh chosen last
//! time from its settings. Uses `../shared/meshes` (SKIP when absent).
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use labanplay::stage::mesh_cache::{Origin, cached_mesh_model, content_hash};
use std::path::{Path, PathBuf};
use std::process::Command;

fn mesh(test: &str) -> Option<PathBuf> {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes/anny-notoes-3pc.obj"));
    if !path.is_file() {
        println!("SKIP {test}: {} is absent (the shared meshes live beside the repo)", path.display());
        return None;
    }
    Some(path)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("labanplay-mesh-player-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rigs the mesh into `cache` once per test binary run (the window test reuses it).
fn rig_into(cache: &Path, mesh: &Path) -> labanplay::stage::dancer_mesh::DancerModel {
    let (model, origin) = cached_mesh_model(mesh, Some(cache)).unwrap();
    assert_eq!(origin, Origin::Rigged, "an empty cache rigs");
    model
}

#[test]
fn a_second_open_comes_from_the_rig_cache_and_a_damaged_entry_is_rigged_again() {
    let test = "a_second_open_comes_from_the_rig_cache_and_a_damaged_entry_is_rigged_again";
    let Some(mesh) = mesh(test) else { return };
    let cache = scratch("cache");
    let rigged = rig_into(&cache, &mesh);
    let (again, origin) = cached_mesh_model(&mesh, Some(&cache)).unwrap();
    assert_eq!(origin, Origin::Cache);
    assert_eq!(again, rigged, "the cached model is the rigged one, bit for bit");
    let entry = cache.join(format!("{:016x}.json", content_hash(&std::fs::read(&mesh).unwrap())));
    std::fs::write(&entry, b"{ not json").unwrap();
    let (repaired, origin) = cached_mesh_model(&mesh, Some(&cache)).unwrap();
    assert_eq!(origin, Origin::Rigged, "a damaged entry is not trusted");
    assert_eq!(repaired, rigged);
    assert_eq!(cached_mesh_model(&mesh, Some(&cache)).unwrap().1, Origin::Cache, "and is written again");
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn the_window_reopens_the_mesh_chosen_last_time() {
    let test = "the_window_reopens_the_mesh_chosen_last_time";
    let Some(mesh) = mesh(test) else { return };
    let Some(xvfb_run) = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join("xvfb-run")).find(|p| p.is_file()))
    else {
        assert!(std::env::var_os("CI").is_none(), "CI is set but xvfb-run is missing (run .ci/setup)");
        println!("SKIP {test}: xvfb-run is not installed");
        return;
    };
    let dir = scratch("window");
    let cache = dir.join("cache");
    rig_into(&cache, &mesh);
    let config = dir.join("config");
    std::fs::create_dir_all(&config).unwrap();
    let mesh_text = mesh.to_string_lossy().into_owned();
    std::fs::write(config.join("settings.json"), serde_json::json!({ "model": mesh_text }).to_string()).unwrap();
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let shot = dir.join("mesh.png");
    let output = Command::new(xvfb_run)
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_labanplay"))
        .env("LABANPLAY_EXIT_AFTER_FRAMES", "30")
        .env("LABANPLAY_FRAME_SECS", "0.05")
        .env("LABANPLAY_SCREENSHOT", &shot)
        .env("LABANPLAY_CONFIG_DIR", &config)
        .env("LABANPLAY_CACHE_DIR", &cache)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "labanplay failed: {stderr}");
    // The settings are written back with the mesh still chosen: had it not been reopened, the
    // dropdown would be on a built-in model and that name would be saved.
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(config.join("settings.json")).unwrap()).unwrap();
    assert_eq!(saved["model"], mesh_text.as_str(), "{saved}");
    assert!(shot.is_file(), "a screenshot: {stderr}");
    if std::env::var_os("KEEP_SCREENSHOT").is_some() {
        eprintln!("kept {}", shot.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Three rigged shared meshes (a realistic body, a stylised big-headed one and one of many
/// pieces in a skirt) in the demo, mid-step with the arms out to the side and with both arms
/// raised forward high, through the player's code path, against golden images on the software
/// rasteriser.
#[test]
fn rigged_meshes_dance_the_demo_golden() {
    use crate::support::golden_image::{Tolerance, assert_golden_in, gpu_or_skip};
    use labanplay::render::{Renderer, RendererConfig, render_to_image};
    use labanplay::stage::Scene;
    use labanplay::stage::camera_input::{CameraView, follow, framed_camera};
    use labanplay::stage::player::{Player, ScoreSource};
    let test = "rigged_meshes_dance_the_demo_golden";
    let Some(anny) = mesh(test) else { return };
    let Some(gpu) = gpu_or_skip(test) else { return };
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/rig"));
    let meshes = [
        (anny, "anny"),
        (anny_dir().join("kenney-zombie.glb"), "zombie"),
        (anny_dir().join("quaternius-female.glb"), "quaternius_female"),
    ];
    let moments = [(1.5, "mid_step"), (7.0, "arms_up")];
    for ((file, body), (t_secs, moment)) in meshes.iter().flat_map(|m| moments.iter().map(move |t| (m, t))) {
        let golden = format!("{body}_{moment}");
        let (model, _) = cached_mesh_model(file, None).unwrap();
        let (name, score) = labanplay::stage::demo_score(0).unwrap();
        let mut player = Player::new(score, ScoreSource::Demo(name), model, false);
        let config = RendererConfig { colour_format: wgpu::TextureFormat::Rgba8UnormSrgb, sample_count: 1 };
        let mut renderer = Renderer::new(&gpu.device, config);
        let mesh_id = renderer.upload_mesh(&gpu.device, &player.model().mesh).unwrap();
        player.playback.seek(*t_secs);
        player.sample();
        let mut scene = Scene::default();
        player.build_scene(mesh_id, &mut scene);
        let mut camera = framed_camera(CameraView::ThreeQuarter, player.floor_bounds(), 320.0 / 240.0);
        follow(&mut camera, player.selected_pelvis_in_world().unwrap());
        camera.distance_m = 4.5;
        let image = render_to_image(&gpu, &mut renderer, &scene, &camera, 320, 240).unwrap();
        assert_golden_in(&dir, &golden, &image, Tolerance { channel_threshold: 24, max_failed_pixels: 200 });
    }
}

fn anny_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes"))
}
