//! Command-line commands that need no GPU: `check` (scores and ensemble plans) and `inspect` (the `viewer` feature adds
//! `play` and `render` in the binary). Each returns text and an exit status; `main` prints.

pub mod check;
pub mod convert;
pub mod ensemble;
pub mod export;
pub mod inspect;
pub mod motion_check;
pub mod plan_export;
pub mod rig;
pub mod sheets;
pub mod survey;
