//! Rendering without a window (feature `viewer`): `labanplay render` writes a score or an
//! ensemble plan to a GIF, PNG frames or a video ([`headless`], [`plan_render`]) through the
//! wgpu renderer ([`crate::render`]) and the stage model ([`crate::stage`]).

pub mod error;
pub mod headless;
pub mod plan_render;

pub use error::OfflineError;
