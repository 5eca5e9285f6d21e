//! The player window (feature `viewer`): the 3D stage, the scrolling staff, transport and
//! controls ([`app`], [`ui`], [`staff_ui`]), the music track and metronome on the audio device
//! ([`music`], [`metronome`], [`rehearsal`]). What it shows comes from the pure
//! [`crate::stage`] model; offline rendering lives in [`crate::offline`].

pub mod app;
pub mod edit_ui;
pub mod gpu_frame;
pub mod metronome;
pub mod music;
pub mod plan_ui;
pub mod rehearsal;
pub mod staff_ui;
pub mod ui;
pub mod video_export;
pub mod window_gpu;
