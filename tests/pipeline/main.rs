//! The pure pipeline's integration tests (read → score → motion → pose, rig, rehearse), one
//! binary so the suite links once; `cargo test --test pipeline MODULE` runs one module.

#[path = "../support/mod.rs"]
mod support;

mod action_strokes;
mod body;
mod bvh_python;
mod com_path;
mod convert;
mod convert_json;
mod corpus;
mod crowd;
mod edit_latency;
mod ensemble;
mod ensemble_checks;
mod ensemble_pictures;
mod ensemble_routes;
mod ensemble_sheets;
mod ensemble_stream;
mod export_bvh;
mod export_real;
mod fuzz_fixtures;
mod golden_inspect;
mod house;
mod json_reader;
mod lw_reader;
mod mocap;
mod motion_arm_between;
mod motion_claims;
mod motion_continuity;
mod motion_couples;
mod motion_flight;
mod motion_floor;
mod motion_golden;
mod motion_hands;
mod motion_hooks;
mod motion_invariants;
mod motion_leg_gestures;
mod motion_leg_segments;
mod motion_leg_up;
mod motion_limbs;
mod motion_paths;
mod motion_plan;
mod motion_report;
mod motion_turns;
mod pose_ik;
mod purity;
mod reading;
mod rig;
mod rig_cartoon;
mod rig_mesh;
mod rig_orient;
mod robustness;
mod robustness_pipeline;
mod symbols;
mod write_round_trip;
