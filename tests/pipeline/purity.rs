//! The pure pipeline (read → score → motion → pose, the stage model, and the rest outside
//! `render`/`viewer`/`offline`) never names a GPU, window, UI, audio or dialog crate; only the
//! `viewer` feature pulls those in. The stage model (`src/stage/`) names none of the modules
//! above it, and nothing below it names the stage.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

const FORBIDDEN: [&str; 11] =
    ["wgpu", "winit", "egui", "egui_wgpu", "egui_winit", "rodio", "cpal", "naga", "pollster", "bytemuck", "rfd"];
/// Modules that may use them (behind the `viewer` feature).
const ALLOWED_DIRS: [&str; 3] = ["render", "viewer", "offline"];
/// The modules above the stage model, which it must not name.
const ABOVE_STAGE: [&str; 4] = ["crate::render", "crate::viewer", "crate::offline", "crate::cli"];
/// The top-level modules (and files) that may name the stage model: it and those above it.
const STAGE_USERS: [&str; 7] = ["stage", "render", "viewer", "offline", "cli", "main", "lib"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// True when `line` uses crate `name` as a path root (`name::`, `use name`, `extern crate name`).
fn names_crate(line: &str, name: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    let bytes = code.as_bytes();
    let mut start = 0;
    while let Some(pos) = code[start..].find(name) {
        let at = start + pos;
        let before_ok =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':');
        let after = &code[at + name.len()..];
        let after_ok = after.starts_with("::")
            || (code[..at].trim_end().ends_with("use")
                && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
        if before_ok && after_ok {
            return true;
        }
        start = at + name.len();
    }
    false
}

#[test]
fn pure_modules_name_no_gpu_window_ui_or_audio_crate() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut offenders = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        if ALLOWED_DIRS.contains(&top.as_str()) || rel == Path::new("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            for name in FORBIDDEN {
                if names_crate(line, name) {
                    offenders.push(format!("src/{}:{}: names `{name}`: {}", rel.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "pure modules must not use GPU/UI/audio crates:\n{}", offenders.join("\n"));
}

/// The source files under `src/`, each with its top-level module name (`viewer`, `main`, …).
fn source_files() -> Vec<(String, PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let rel = file.strip_prefix(&src).unwrap();
            let top =
                rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
            (top, file)
        })
        .collect()
}

/// `(file:line: text)` for each line of `file` that names one of `paths` outside a comment.
fn lines_naming(file: &Path, paths: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        if paths.iter().any(|p| code.contains(&format!("{p}::")) || code.contains(&format!("{p};"))) {
            found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
        }
    }
    found
}

#[test]
fn the_stage_model_names_no_module_above_it() {
    let offenders: Vec<String> = source_files()
        .into_iter()
        .filter(|(top, _)| top == "stage")
        .flat_map(|(_, file)| lines_naming(&file, &ABOVE_STAGE))
        .collect();
    assert!(offenders.is_empty(), "src/stage must not use render/viewer/offline/cli:\n{}", offenders.join("\n"));
}

#[test]
fn modules_below_the_stage_do_not_name_it() {
    let offenders: Vec<String> = source_files()
        .into_iter()
        .filter(|(top, _)| !STAGE_USERS.contains(&top.as_str()))
        .flat_map(|(_, file)| lines_naming(&file, &["crate::stage"]))
        .collect();
    assert!(offenders.is_empty(), "the pipeline below the stage must not use it:\n{}", offenders.join("\n"));
}

#[test]
fn the_detector_catches_real_uses() {
    assert!(names_crate("use wgpu::Device;", "wgpu"));
    assert!(names_crate("    let x = egui::Context::default();", "egui"));
    assert!(names_crate("use rodio;", "rodio"));
    assert!(!names_crate("// wgpu::Device in a comment", "wgpu"));
    assert!(!names_crate("let my_wgpu::x", "wgpu"));
    assert!(!names_crate("crate::render::wgpu_thing", "wgpu"));
}

#[test]
fn viewer_crates_are_optional_in_the_manifest() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    for name in ["wgpu", "winit", "egui", "rodio"] {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name} =")))
            .unwrap_or_else(|| panic!("{name} missing from Cargo.toml"));
        assert!(line.contains("optional = true"), "{name} must be optional (behind `viewer`): {line}");
    }
}
