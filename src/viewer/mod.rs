//! The player (feature `viewer`): a window with the 3D stage, the scrolling staff, transport and
//! controls ([`app`]), the music track ([`music`]), and headless rendering to GIF, PNG or video
//! ([`headless`]). The pure parts —
//! [`playback`], [`camera_input`], [`stage`], [`player`], [`files`] — need no GPU or display.

pub mod app;
pub mod camera_input;
pub mod dancer_mesh;
pub mod files;
pub mod gpu_frame;
pub mod headless;
pub mod mesh_cache;
pub mod mesh_open;
pub mod metronome;
pub mod music;
pub mod plan_events;
pub mod plan_pick;
pub mod plan_render;
pub mod plan_stage;
pub mod playback;
pub mod player;
pub mod rehearsal;
pub mod staff_layout;
pub mod staff_ui;
pub mod stage;
pub mod ui;
pub mod video_export;
pub mod window_gpu;

/// The bundled demo scores: (menu name, `.lbn` bytes). The first is played when no file is given.
pub const DEMOS: [(&str, &[u8]); 3] = [
    ("Walk, arms and a half turn", crate::demo::WALK_ARMS_TURN_LBN),
    ("The five jumps", crate::demo::JUMPS_LBN),
    ("Duet", crate::demo::DUET_LBN),
];

/// Reads bundled demo number `index` (see [`DEMOS`]); `None` for an unknown index.
pub fn demo_score(index: usize) -> Option<(&'static str, crate::score::Score)> {
    let (name, bytes) = DEMOS.get(index)?;
    let score = match crate::read::read(bytes, Some("lbn")) {
        Ok(doc) => crate::score::Score::from_document(&doc),
        Err(_) => crate::demo::default_score(),
    };
    Some((name, score))
}
