//! labanplay: open a Labanotation score and watch a 3D dancer perform it.
//!
//! A score goes [`read`] (a file → a raw [`read::Document`]) → [`score`] (the channelled composite
//! [`score::Score`]) → [`motion`] (the rule engine's plans, the centre-of-mass path) →
//! [`animation`] (poses at any time, on the [`pose`] skeleton) → [`stage`] (the player's model:
//! playback, staff layout, scene, cameras) → `render` (wgpu) → `viewer` (the window) or
//! `offline` (GIF, PNG, video). Beside them: [`contact`] (hands reaching partners), [`body`] and
//! [`rig`] (dancer meshes), [`mocap`] (BVH captures), [`ensemble`] and [`crowd`] (plans of many
//! performers), [`export`] (BVH, glTF), [`rehearse`] (music sync, tap tempo, loops, settings),
//! [`motion_report`] (where the body could not do what is written), [`edit`] (editing a page
//! score as plain data, with undo), [`write`] (a document back to a score file's text) and
//! [`cli`] (the commands).
//!
//! Each module's doc states the rules it implements. Everything but `render`, `viewer` and
//! `offline` is pure (no GPU, window, UI or audio device) and builds with `--no-default-features`.

pub mod animation;
pub mod body;
pub mod camera_view;
pub mod cli;
pub mod contact;
pub mod crowd;
pub mod demo;
pub mod diag;
pub mod edit;
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
pub mod side;
pub mod stage;
#[cfg(feature = "viewer")]
pub mod viewer;
pub mod write;
