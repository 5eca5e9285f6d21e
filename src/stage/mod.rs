//! The stage model shared by the window, the offline renderer and a future editor, with no GPU,
//! window, UI or audio: the playback clock and transport ([`playback`]), the staff layout
//! ([`staff_layout`]), the player's state ([`player`]), the scene of a score or a plan
//! ([`score_stage`], [`plan_stage`], described by [`scene`]), the orbit camera and its input
//! ([`camera`], [`camera_input`]), picking ([`plan_pick`]), plan events ([`plan_events`]),
//! files ([`files`], the built-in browser [`file_browser`]), the editor's session and saving
//! ([`edit_session`], [`edit_save`]) and the dancer models ([`dancer_mesh`], [`mesh_cache`],
//! [`mesh_open`]).

pub mod camera;
pub mod camera_input;
pub mod dancer_mesh;
pub mod edit_save;
pub mod edit_session;
pub mod file_browser;
pub mod files;
pub mod mesh_cache;
pub mod mesh_open;
pub mod plan_events;
pub mod plan_pick;
pub mod plan_stage;
pub mod playback;
pub mod player;
pub mod scene;
pub mod score_stage;
pub mod staff_layout;

pub use camera::{CameraPreset, OrbitCamera};
pub use dancer_mesh::ModelError;
pub use scene::{
    ContactShadow, DancerInstance, FloorMark, FloorMarkKind, Lighting, MeshError, MeshId, Polyline, PoseInstance,
    Scene, SkinnedMeshData, Stage,
};

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
