//! labanplay: open a Labanotation score and watch a 3D dancer perform it.
//!
//! The pure pipeline runs `read` (bytes → raw [`read::Document`]) → `score` (document →
//! channelled composite [`score::Score`]) → `motion` → `pose`; none of it touches a GPU,
//! window, UI or audio device, and it builds with `--no-default-features`. [`rehearse`] holds
//! the pure side of rehearsing (music sync and its clock, tap tempo, loops, settings).

pub mod animation;
pub mod body;
pub mod camera_view;
pub mod cli;
pub mod contact;
pub mod crowd;
pub mod demo;
pub mod diag;
pub mod ensemble;
pub mod export;
pub mod mocap;
pub mod motion;
pub mod motion_report;
#[cfg(feature = "viewer")]
pub mod offline;
pub mod pose;
pub mod read;
pub mod rehearse;
#[cfg(feature = "viewer")]
pub mod render;
pub mod rig;
pub mod score;
pub mod stage;
#[cfg(feature = "viewer")]
pub mod viewer;
