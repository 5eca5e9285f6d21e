//! Integration tests of the player, renderer, exporters and the command line, one binary so the
//! suite links once; `cargo test --test app MODULE` runs one module.

#[cfg(feature = "viewer")]
#[path = "../render_figure/mod.rs"]
mod render_figure;
#[path = "../support/mod.rs"]
mod support;

mod edit_keys;
mod gltf_export;
mod mesh_player;
mod metronome;
mod plan_render;
mod rehearse;
mod render_golden;
mod shader_validation;
mod staff_layout;
mod staff_ui;
mod viewer_golden;
mod viewer_render_cli;
mod window_edit;
mod window_open_files;
mod window_smoke;
