//! Parses and validates every WGSL file under `src/render/shaders` with naga (wgpu's own copy,
//! re-exported as `wgpu::naga`), so a broken shader fails without a GPU or a draw call.
//! Each shader is validated as the pipelines build it: `prelude.wgsl` (the shared `Globals` block
//! and lighting helpers) followed by the shader's own file.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use std::path::PathBuf;
use wgpu::naga;

fn shader_paths() -> Vec<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src/render/shaders"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "wgsl"))
        .filter(|path| path.file_name().is_none_or(|name| name != "prelude.wgsl"))
        .collect();
    paths.sort();
    paths
}

fn prelude() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/render/shaders/prelude.wgsl")).unwrap()
}

#[test]
fn every_wgsl_file_parses_and_validates() {
    let paths = shader_paths();
    assert!(paths.len() >= 5, "expected the renderer's shaders, found {paths:?}");
    let mut failures = Vec::new();
    for path in &paths {
        let source = prelude() + &std::fs::read_to_string(path).unwrap();
        let shown = path.display().to_string();
        let module = match naga::front::wgsl::parse_str(&source) {
            Ok(module) => module,
            Err(error) => {
                failures.push(error.emit_to_string_with_path(&source, &shown));
                continue;
            }
        };
        let mut validator =
            naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty());
        if let Err(error) = validator.validate(&module) {
            failures.push(format!("{shown}: {}", error.emit_to_string(&source)));
            continue;
        }
        let entry_points: Vec<&str> = module.entry_points.iter().map(|ep| ep.name.as_str()).collect();
        for expected in ["vs_main", "fs_main"] {
            if !entry_points.contains(&expected) {
                failures.push(format!("{shown}: missing entry point {expected}"));
            }
        }
    }
    assert!(failures.is_empty(), "shader errors:\n{}", failures.join("\n\n"));
}

#[test]
fn globals_are_declared_once_in_the_prelude() {
    assert!(prelude().contains("struct Globals {"), "prelude.wgsl must declare Globals");
    for path in shader_paths() {
        let source = std::fs::read_to_string(&path).unwrap();
        assert!(
            !source.contains("struct Globals"),
            "{} redeclares Globals; it comes from prelude.wgsl",
            path.display()
        );
    }
}
