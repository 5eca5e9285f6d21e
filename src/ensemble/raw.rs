//! The plan file as written: TOML tables deserialised with serde, every value that a later check
//! may reject kept with its byte span. [`super::plan`] turns this into the checked [`super::Plan`].

use serde::Deserialize;
use toml::Spanned;

/// A 2-D point or size in stage metres, written `[x, y]`.
pub type RawXy = [f64; 2];

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlan {
    /// Format version: `ensemble = 1`.
    pub ensemble: Spanned<i64>,
    /// Free title.
    pub title: Option<String>,
    /// The score whose tempo map and measures the timeline uses (relative to the plan file).
    pub score: Option<Spanned<String>>,
    /// Tempo when no score is given (quarter-note beats per minute).
    pub tempo_bpm: Option<Spanned<f64>>,
    /// Beats per measure when no score is given.
    pub beats_per_measure: Option<Spanned<i64>>,
    /// Stage size.
    pub stage: Spanned<RawStage>,
    /// Performer body and speed defaults.
    #[serde(default)]
    pub performer: Option<Spanned<RawPerformer>>,
    /// Steering weights and simulation step.
    #[serde(default)]
    pub simulation: Option<Spanned<RawSimulation>>,
    /// Set pieces and props.
    #[serde(default, rename = "obstacle")]
    pub obstacles: Vec<Spanned<RawObstacle>>,
    /// Named formations.
    #[serde(default, rename = "formation")]
    pub formations: Vec<Spanned<RawFormation>>,
    /// Groups of performers.
    #[serde(default, rename = "group")]
    pub groups: Vec<Spanned<RawGroup>>,
    /// The timeline.
    #[serde(default, rename = "event")]
    pub events: Vec<Spanned<RawEvent>>,
}

/// `[stage]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStage {
    /// Width (x, audience left to right) in metres.
    pub width_m: Spanned<f64>,
    /// Depth (y, downstage to upstage) in metres.
    pub depth_m: Spanned<f64>,
    /// Room in the wings beyond each side of the stage that performers may use, metres.
    pub wings_m: Option<Spanned<f64>>,
}

/// `[performer]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPerformer {
    /// Personal radius: two performers closer than the sum of their radii conflict.
    pub radius_m: Option<Spanned<f64>>,
    /// Body height (sets the longest step a body can take).
    pub height_m: Option<Spanned<f64>>,
    /// Fastest walk.
    pub walk_speed_mps: Option<Spanned<f64>>,
    /// Fastest run.
    pub run_speed_mps: Option<Spanned<f64>>,
}

/// `[simulation]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSimulation {
    /// Simulation steps per beat.
    pub steps_per_beat: Option<Spanned<i64>>,
    /// Separation weight.
    pub separation: Option<Spanned<f64>>,
    /// Alignment weight.
    pub alignment: Option<Spanned<f64>>,
    /// Cohesion weight.
    pub cohesion: Option<Spanned<f64>>,
    /// Obstacle avoidance weight.
    pub avoidance: Option<Spanned<f64>>,
    /// Local avoidance between performers: `steering` (default) or `orca`.
    pub method: Option<Spanned<String>>,
}

/// `[[obstacle]]`: exactly one of `circle` and `box`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawObstacle {
    /// Name for messages.
    pub name: Option<String>,
    /// Centre in stage metres.
    pub centre: Spanned<RawXy>,
    /// Radius of a circular obstacle.
    pub radius_m: Option<Spanned<f64>>,
    /// Size of an axis-aligned box.
    pub size_m: Option<Spanned<RawXy>>,
}

/// `[[formation]]`: a picture or a shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFormation {
    /// Name the groups and events use.
    pub name: Spanned<String>,
    /// Picture file (PNG, BMP, GIF), relative to the plan.
    pub picture: Option<Spanned<String>>,
    /// Pixels darker than this (0–255) are inside; default 128.
    pub threshold: Option<Spanned<i64>>,
    /// Light pixels are inside instead of dark ones.
    #[serde(default)]
    pub invert: bool,
    /// `line`, `block`, `circle`, `arc` or `wedge`.
    pub shape: Option<Spanned<String>>,
    /// Exactly this many spots.
    pub count: Option<Spanned<i64>>,
    /// Spots on a square grid this far apart (pictures, blocks, wedges).
    pub spacing_m: Option<Spanned<f64>>,
    /// Centre (pictures, blocks, circles, arcs).
    pub centre: Option<Spanned<RawXy>>,
    /// Size of the picture or block in metres.
    pub size_m: Option<Spanned<RawXy>>,
    /// Line ends.
    pub from: Option<Spanned<RawXy>>,
    /// Line ends.
    pub to: Option<Spanned<RawXy>>,
    /// Circle or arc radius.
    pub radius_m: Option<Spanned<f64>>,
    /// Arc start, degrees counter-clockwise from stage right (+x).
    pub from_deg: Option<Spanned<f64>>,
    /// Arc end.
    pub to_deg: Option<Spanned<f64>>,
    /// Wedge apex.
    pub apex: Option<Spanned<RawXy>>,
    /// Block rows (with `columns`).
    pub rows: Option<Spanned<i64>>,
    /// Block columns.
    pub columns: Option<Spanned<i64>>,
    /// Rotation of a block or wedge, degrees counter-clockwise.
    pub rotate_deg: Option<f64>,
}

/// `[[group]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGroup {
    /// Unique name.
    pub name: Spanned<String>,
    /// The formation its performers stand in at the start (sets the count).
    pub formation: Spanned<String>,
    /// How many performers (must match the formation when both are given).
    pub count: Option<Spanned<i64>>,
    /// The score this group dances (relative to the plan); the plan's score by default.
    pub score: Option<Spanned<String>>,
    /// 1-based staff of that score.
    pub staff: Option<Spanned<i64>>,
    /// Body model name.
    pub model: Option<Spanned<String>>,
    /// `#rrggbb`.
    pub colour: Option<Spanned<String>>,
    /// Canon: beats each performer starts after the previous one.
    pub canon_beats: Option<Spanned<f64>>,
    /// Facing in degrees clockwise from the audience (0 faces the audience).
    pub facing_deg: Option<f64>,
}

/// `[[event]]`: a behaviour event (with `group`) or a command event (lights, music, camera).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    /// `measure:beat` (1-based beat, may be fractional: `3:2.5`).
    pub at: Spanned<String>,
    /// One group name or a list of them (moved into the target together).
    pub group: Option<Spanned<GroupNames>>,
    /// The formation the group must be in when the event starts (checked).
    pub from: Option<Spanned<String>>,
    /// Target formation.
    pub to: Option<Spanned<String>>,
    /// Intermediate formations passed through in turn (a serial composite).
    pub through: Option<Spanned<Vec<String>>>,
    /// Duration in beats.
    pub beats: Option<Spanned<f64>>,
    /// `shortest` (min total squared travel), `keep`, `merge` or `order`.
    pub method: Option<Spanned<String>>,
    /// `linear` or `bezier`.
    pub path: Option<Spanned<String>>,
    /// Bézier control points of the group's centre.
    pub via: Option<Spanned<Vec<RawXy>>>,
    /// A point the performers are drawn towards on the way.
    pub attract: Option<Spanned<RawXy>>,
    /// Keep formation: reference performer (1-based).
    pub reference: Option<Spanned<i64>>,
    /// Keep formation: reference row (1-based, from the front).
    pub reference_row: Option<Spanned<i64>>,
    /// Keep formation: scale about the reference.
    pub scale: Option<Spanned<f64>>,
    /// Keep formation: translation.
    #[serde(rename = "move")]
    pub move_m: Option<Spanned<RawXy>>,
    /// Merge: the group whose line this one merges into.
    pub merge_into: Option<Spanned<String>>,
    /// Hold: the facing the groups turn to, degrees clockwise from the audience.
    pub facing_deg: Option<Spanned<f64>>,
    /// `walk` or `run`.
    pub gait: Option<Spanned<String>>,
    /// Lighting preset or `#rrggbb`.
    pub lights: Option<Spanned<String>>,
    /// Music cue name.
    pub music: Option<Spanned<String>>,
    /// Camera cut: front, side, top, three-quarter or follow.
    pub camera: Option<Spanned<String>>,
}

/// `group = "a"` or `group = ["a", "b"]`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum GroupNames {
    /// One group.
    One(String),
    /// Several groups moved together.
    Many(Vec<String>),
}

impl GroupNames {
    /// The names in order.
    pub fn names(&self) -> Vec<String> {
        match self {
            GroupNames::One(s) => vec![s.clone()],
            GroupNames::Many(v) => v.clone(),
        }
    }
}
