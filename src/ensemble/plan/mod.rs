//! The checked ensemble plan and its reader: TOML text → [`super::raw`] → [`Plan`], with every
//! problem reported as a [`Diagnostic`] at its line and column. Pictures, scores and music named
//! by the plan are read relative to the plan's folder through the [`Sources`] the reader is
//! given; each score is read and composed once and kept in [`Plan::scores`].
//!
//! Bounds: the stage is at most [`MAX_EXTENT_M`] wide and deep, and every formation's spots lie
//! within [`MAX_EXTENT_M`] of the stage's centre front (a stadium plan spans 120 m); a formation
//! holds at most 100,000 spots; every event ends within four hours at the plan's tempo
//! ([`crate::score::bounds::MAX_SCORE_SECS`]).

use super::clock::{Clock, parse_measure_beat};
use super::floor::Floor;
use super::raw::{GroupNames, RawEvent, RawFormation, RawPlan, RawXy};
use super::{picture, shapes};
use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::read::{LoadError, Sources};
use crate::score::Score;
use glam::DVec2;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toml::Spanned;

mod behaviour;
mod events;
mod formations;
mod stage;

/// The largest stage, and the farthest a formation's spot may lie from the stage's centre front
/// along either axis, metres: 1 km.
pub const MAX_EXTENT_M: f64 = 1_000.0;

/// The only plan format version.
pub const FORMAT_VERSION: i64 = 1;

/// A checked plan, ready to simulate.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Title, if given.
    pub title: Option<String>,
    /// `measure:beat` ↔ beats ↔ seconds.
    pub clock: Clock,
    /// The score file giving the tempo map, if any.
    pub score_path: Option<PathBuf>,
    /// Stage width (x) and depth (y) in metres; x = 0 is centre stage, y = 0 the front edge.
    pub stage_m: DVec2,
    /// Room in the wings beyond each side of the stage, metres (0 when not given).
    pub wings_m: f64,
    /// Body and speed limits shared by every performer.
    pub body: Body,
    /// Steering weights and step.
    pub steering: Steering,
    /// Set pieces.
    pub obstacles: Vec<Obstacle>,
    /// Named formations with their spots.
    pub formations: Vec<Formation>,
    /// Groups.
    pub groups: Vec<Group>,
    /// Every performer, group by group.
    pub performers: Vec<Performer>,
    /// Behaviour events (serial composites split into their legs), by start.
    pub behaviours: Vec<Behaviour>,
    /// Command events, by time.
    pub commands: Vec<Command>,
    /// Problems that do not stop the plan.
    pub warnings: Vec<Diagnostic>,
    /// Every score the plan names (the tempo score and the groups'), composed, by path.
    pub scores: BTreeMap<PathBuf, Arc<Score>>,
}

impl Plan {
    /// The floor the performers may use: the stage and its wings.
    pub fn floor(&self) -> Floor {
        Floor::new(self.stage_m, self.wings_m)
    }

    /// The composed score at `path` (a [`Plan::score_path`] or a [`Group::score`]).
    pub fn score(&self, path: &Path) -> Option<&Arc<Score>> {
        self.scores.get(path)
    }
}

/// The performers' body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Personal radius (two performers conflict when closer than twice this).
    pub radius_m: f64,
    /// Height: the longest step is half of it walking, 0.9 of it running.
    pub height_m: f64,
    /// Fastest walk.
    pub walk_speed_mps: f64,
    /// Fastest run.
    pub run_speed_mps: f64,
}

impl Body {
    /// The longest step for a gait.
    pub fn max_step_m(&self, gait: Gait) -> f64 {
        match gait {
            Gait::Walk => 0.5 * self.height_m,
            Gait::Run => 0.9 * self.height_m,
        }
    }

    /// Steps per beat for a gait: walks step on the beat, runs on every half beat.
    pub fn steps_per_beat(gait: Gait) -> f64 {
        match gait {
            Gait::Walk => 1.0,
            Gait::Run => 2.0,
        }
    }

    /// The fastest speed for a gait at `bpm`: its own limit or the longest step on every step
    /// of the tempo, whichever is lower.
    pub fn max_speed_mps(&self, gait: Gait, bpm: f64) -> f64 {
        let own = match gait {
            Gait::Walk => self.walk_speed_mps,
            Gait::Run => self.run_speed_mps,
        };
        own.min(self.max_step_m(gait) * Self::steps_per_beat(gait) * bpm / 60.0)
    }
}

/// Steering weights (seed 003) and the simulation step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Steering {
    /// Simulation steps per beat.
    pub steps_per_beat: u32,
    /// Separation.
    pub separation: f64,
    /// Alignment.
    pub alignment: f64,
    /// Cohesion.
    pub cohesion: f64,
    /// Obstacle avoidance (feelers).
    pub avoidance: f64,
    /// How performers avoid each other between the predict and act phases.
    pub method: Avoidance,
}

impl Default for Steering {
    fn default() -> Self {
        Self {
            steps_per_beat: 8,
            separation: 0.6,
            alignment: 0.1,
            cohesion: 0.05,
            avoidance: 1.5,
            method: Avoidance::Steering,
        }
    }
}

/// The local avoidance method of the correct phase (`[simulation] method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Avoidance {
    /// Reynolds forces and seed 001's detours (`"steering"`, the default).
    #[default]
    Steering,
    /// Optimal reciprocal collision avoidance (`"orca"`, van den Berg et al. 2011, through the
    /// `dodgy_2d` crate), the neighbours still found on the 3×3 grid cells.
    Orca,
}

/// A set piece or prop.
#[derive(Clone, Debug, PartialEq)]
pub struct Obstacle {
    /// Name for messages.
    pub name: String,
    /// Shape.
    pub shape: ObstacleShape,
    /// Where it is written.
    pub span: Span,
}

/// Obstacle geometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ObstacleShape {
    /// A circle.
    Circle {
        /// Centre.
        centre: DVec2,
        /// Radius.
        radius_m: f64,
    },
    /// An axis-aligned box.
    Box {
        /// Lowest corner.
        min: DVec2,
        /// Highest corner.
        max: DVec2,
    },
}

impl ObstacleShape {
    /// The bounding circle (what the feelers steer around).
    pub fn bounding_circle(&self) -> (DVec2, f64) {
        match *self {
            ObstacleShape::Circle { centre, radius_m } => (centre, radius_m),
            ObstacleShape::Box { min, max } => ((min + max) * 0.5, (max - min).length() * 0.5),
        }
    }

    /// Distance from `p` to the shape (0 inside).
    pub fn distance(&self, p: DVec2) -> f64 {
        match *self {
            ObstacleShape::Circle { centre, radius_m } => (p.distance(centre) - radius_m).max(0.0),
            ObstacleShape::Box { min, max } => (p - p.clamp(min, max)).length(),
        }
    }
}

/// A formation: named spots in stage metres.
#[derive(Clone, Debug, PartialEq)]
pub struct Formation {
    /// Name.
    pub name: String,
    /// Spots, front row first, left to right within a row.
    pub spots: Vec<DVec2>,
    /// Where it is written.
    pub span: Span,
}

/// A group of performers.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Name.
    pub name: String,
    /// The formation it starts in.
    pub formation: usize,
    /// Its performers: `first..first + count` in [`Plan::performers`].
    pub first: usize,
    /// How many.
    pub count: usize,
    /// The score it dances (absolute path), if any.
    pub score: Option<PathBuf>,
    /// 1-based staff.
    pub staff: usize,
    /// Body model name.
    pub model: String,
    /// Colour, linear 0–1 RGB from `#rrggbb`.
    pub colour: [f32; 3],
    /// Canon offset per performer in beats (0: unison).
    pub canon_beats: f64,
    /// Facing in degrees clockwise from the audience.
    pub facing_deg: f64,
    /// Where it is written.
    pub span: Span,
}

/// One performer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Performer {
    /// Its group.
    pub group: usize,
    /// 1-based number within the group (as messages show it).
    pub number: usize,
    /// Start position.
    pub start: DVec2,
}

/// Walk or run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gait {
    /// One step a beat.
    Walk,
    /// Two steps a beat.
    Run,
}

/// Path shape of a transition.
#[derive(Clone, Debug, PartialEq)]
pub enum PathKind {
    /// Straight to the target.
    Linear,
    /// A Bézier curve through the group centre's control points.
    Bezier(Vec<DVec2>),
}

/// How targets are chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    /// Into a formation, least total squared travel (the shortest-path dispersal of seed 001).
    Shortest(usize),
    /// Into a formation, keeping the order along the group's line (parallel moves).
    Order(usize),
    /// Keep formation: scale about a reference and move.
    Keep {
        /// About what.
        reference: Reference,
        /// Scale factor (1 keeps the size).
        scale: f64,
        /// Translation in metres.
        move_m: DVec2,
    },
    /// Parallel merge into the gaps of another group's line.
    Merge(usize),
    /// Hold: the groups stay on their spots and dance their score, turned to `facing_deg`
    /// (clockwise from the audience) when given, else facing as they did.
    Hold {
        /// The facing the groups turn to, degrees clockwise from the audience.
        facing_deg: Option<f64>,
    },
}

/// A keep-formation reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reference {
    /// The group's centre.
    Centre,
    /// A performer (0-based within the group).
    Performer(usize),
    /// A row (0-based from the front).
    Row(usize),
}

/// A behaviour event (one leg of a serial composite).
#[derive(Clone, Debug, PartialEq)]
pub struct Behaviour {
    /// The groups moved (jointly assigned when several).
    pub groups: Vec<usize>,
    /// Start in beats.
    pub start_beats: f64,
    /// Duration in beats.
    pub duration_beats: f64,
    /// Targets.
    pub method: Method,
    /// Path shape.
    pub path: PathKind,
    /// A point the performers are drawn towards on the way.
    pub attract: Option<DVec2>,
    /// Walk or run.
    pub gait: Gait,
    /// Where it is written.
    pub span: Span,
}

impl Behaviour {
    /// End in beats.
    pub fn end_beats(&self) -> f64 {
        self.start_beats + self.duration_beats
    }
}

/// A command event for the player.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// When, in beats.
    pub at_beats: f64,
    /// What.
    pub kind: CommandKind,
    /// Where it is written.
    pub span: Span,
}

/// What a command does.
#[derive(Clone, Debug, PartialEq)]
pub enum CommandKind {
    /// Lighting preset or colour.
    Lights(String),
    /// Music cue.
    Music(String),
    /// Camera cut (a [`crate::camera_view::CameraView`] name).
    Camera(String),
}

/// Lighting presets a `lights = "NAME"` command may name (case-insensitive; the player's
/// `stage::plan_events::LIGHT_PRESETS` says what each looks like); `lights = "#rrggbb"` sets a
/// colour instead.
pub const LIGHT_PRESETS: [&str; 7] = ["default", "warm", "cool", "bright", "dim", "night", "sunset"];

/// A plan read from its file.
#[derive(Clone, Debug)]
pub struct PlanFile {
    /// The checked plan.
    pub plan: Plan,
    /// The file's bytes (for rendering the plan's warnings with their source lines).
    pub bytes: Vec<u8>,
}

/// Why a plan file could not be read: its diagnostics, still structured.
#[derive(Debug, thiserror::Error)]
#[error("{}", first_line(path, diagnostics))]
pub struct PlanError {
    /// The plan file.
    pub path: PathBuf,
    /// Its bytes (empty when it could not be read at all).
    pub bytes: Vec<u8>,
    /// Errors and warnings at their lines and columns.
    pub diagnostics: Diagnostics,
}

impl PlanError {
    /// Every diagnostic as `file:line:col: error: message` with its source line and caret.
    pub fn render(&self) -> String {
        self.diagnostics.render(&self.path.display().to_string(), Some(&self.bytes))
    }
}

/// `file:line:col: error: message` of the first diagnostic in file order.
fn first_line(path: &Path, diagnostics: &Diagnostics) -> String {
    let first = diagnostics.0.iter().min_by_key(|d| (d.span.line, d.span.col));
    first.map(|d| d.render(&path.display().to_string(), None)).unwrap_or_else(|| path.display().to_string())
}

/// Reads the plan file at `path` and what it names through `sources`.
pub fn read_plan_file(path: &Path, sources: &mut dyn Sources) -> Result<PlanFile, PlanError> {
    let bytes = sources.bytes(path).map_err(|e| PlanError {
        path: path.to_path_buf(),
        bytes: Vec::new(),
        diagnostics: Diagnostic::error(Span::at(1, 1), format!("cannot read the plan: {e}")).into(),
    })?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    match read_plan(&bytes, &base, sources) {
        Ok(plan) => Ok(PlanFile { plan, bytes }),
        Err(diagnostics) => Err(PlanError { path: path.to_path_buf(), bytes, diagnostics }),
    }
}

/// Reads a plan from its text; pictures, scores and music are found relative to `base_dir`
/// and read through `sources`.
pub fn read_plan(bytes: &[u8], base_dir: &Path, sources: &mut dyn Sources) -> Result<Plan, Diagnostics> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Diagnostics::from(Diagnostic::error(Span::of_offset(bytes, e.valid_up_to()), "the plan is not UTF-8 text"))
    })?;
    let raw: RawPlan = toml::from_str(text).map_err(|e| {
        let offset = e.span().map(|r| r.start).unwrap_or(0);
        let message = e.message().trim_end_matches('.').replace('\n', " ");
        Diagnostics::from(Diagnostic::error(Span::of_offset(bytes, offset), message).with_help(
            "see the plan format in README.md (`ensemble = 1`, [stage], [[formation]], [[group]], [[event]])",
        ))
    })?;
    let mut cx = Checker {
        bytes,
        base_dir,
        sources,
        floor: Floor::new(DVec2::splat(MAX_EXTENT_M), MAX_EXTENT_M),
        scores: BTreeMap::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let plan = cx.plan(raw);
    if cx.errors.is_empty() {
        let mut plan = plan;
        plan.warnings = cx.warnings;
        plan.scores = cx.scores.into_iter().filter_map(|(path, score)| Some((path, score.ok()?))).collect();
        Ok(plan)
    } else {
        let mut all = cx.errors;
        all.extend(cx.warnings);
        Err(Diagnostics(all))
    }
}

struct Checker<'a> {
    bytes: &'a [u8],
    base_dir: &'a Path,
    sources: &'a mut dyn Sources,
    /// The floor spots and points must lie on (set once `[stage]` is read).
    floor: Floor,
    /// Every score named so far, read and composed once (or why it could not be).
    scores: BTreeMap<PathBuf, Result<Arc<Score>, Arc<LoadError>>>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

impl Checker<'_> {
    /// The score at `path`, read and composed on its first use.
    fn score(&mut self, path: &Path) -> Result<Arc<Score>, Arc<LoadError>> {
        if let Some(known) = self.scores.get(path) {
            return known.clone();
        }
        let loaded = crate::read::load_from(&mut *self.sources, path)
            .map(|l| Arc::new(Score::from_document(&l.document)))
            .map_err(Arc::new);
        self.scores.insert(path.to_path_buf(), loaded.clone());
        loaded
    }

    fn span<T>(&self, s: &Spanned<T>) -> Span {
        Span::of_offset(self.bytes, s.span().start)
    }

    fn error<T>(&mut self, at: &Spanned<T>, message: impl Into<String>) {
        let d = Diagnostic::error(self.span(at), message);
        self.errors.push(d);
    }

    fn error_help<T>(&mut self, at: &Spanned<T>, message: impl Into<String>, help: impl Into<String>) {
        let d = Diagnostic::error(self.span(at), message).with_help(help);
        self.errors.push(d);
    }

    fn positive(&mut self, v: &Option<Spanned<f64>>, default: f64, what: &str) -> f64 {
        match v {
            Some(s) if !(s.get_ref().is_finite() && *s.get_ref() > 0.0) => {
                self.error(s, format!("{what} must be a positive number, not {}", s.get_ref()));
                default
            }
            Some(s) => *s.get_ref(),
            None => default,
        }
    }

    /// A positive stage size of at most [`MAX_EXTENT_M`], else `default` with an error.
    fn stage_extent(&mut self, v: &Spanned<f64>, default: f64, what: &str) -> f64 {
        let size = self.positive(&Some(v.clone()), default, what);
        if size > MAX_EXTENT_M {
            self.error(v, format!("{what} of {size} m is more than the largest stage ({MAX_EXTENT_M} m)"));
            return default;
        }
        size
    }

    fn plan(&mut self, raw: RawPlan) -> Plan {
        if *raw.ensemble.get_ref() != FORMAT_VERSION {
            self.error_help(
                &raw.ensemble,
                format!("plan format version {} is not known", raw.ensemble.get_ref()),
                format!("this labanplay reads `ensemble = {FORMAT_VERSION}`"),
            );
        }
        let (clock, score_path) = self.clock(&raw);
        let stage = raw.stage.get_ref();
        let stage_m = DVec2::new(
            self.stage_extent(&stage.width_m, 10.0, "the stage width"),
            self.stage_extent(&stage.depth_m, 8.0, "the stage depth"),
        );
        let wings_m = self.wings(stage.wings_m.as_ref());
        self.floor = Floor::new(stage_m, wings_m);
        let body = match &raw.performer {
            Some(p) => {
                let p = p.get_ref();
                Body {
                    radius_m: self.positive(&p.radius_m, 0.25, "the personal radius"),
                    height_m: self.positive(&p.height_m, 1.7, "the height"),
                    walk_speed_mps: self.positive(&p.walk_speed_mps, 1.6, "the walking speed"),
                    run_speed_mps: self.positive(&p.run_speed_mps, 3.5, "the running speed"),
                }
            }
            None => Body { radius_m: 0.25, height_m: 1.7, walk_speed_mps: 1.6, run_speed_mps: 3.5 },
        };
        let steering = self.steering(&raw);
        let obstacles = self.obstacles(&raw);
        let formations = self.formations(&raw, body);
        for f in &formations {
            for (k, spot) in f.spots.iter().enumerate() {
                if let Some(o) = obstacles.iter().find(|o| o.shape.distance(*spot) < body.radius_m) {
                    self.errors.push(Diagnostic::error(
                        f.span,
                        format!(
                            "spot {} of formation `{}` ({:.2}, {:.2}) is inside `{}`",
                            k + 1,
                            f.name,
                            spot.x,
                            spot.y,
                            o.name
                        ),
                    ));
                    break;
                }
            }
        }
        self.formations_on_floor(&formations);
        let (groups, performers) = self.groups(&raw, &formations);
        let (behaviours, commands) = self.events(&raw, &clock, &formations, &groups);
        Plan {
            title: raw.title.clone(),
            clock,
            score_path,
            stage_m,
            wings_m,
            body,
            steering,
            obstacles,
            formations,
            groups,
            performers,
            behaviours,
            commands,
            warnings: Vec::new(),
            scores: BTreeMap::new(),
        }
    }

    fn clock(&mut self, raw: &RawPlan) -> (Clock, Option<PathBuf>) {
        let bpm = self.positive(&raw.tempo_bpm, 120.0, "the tempo");
        let meter = match &raw.beats_per_measure {
            Some(b) if !(1..=64).contains(b.get_ref()) => {
                self.error(b, "beats per measure must be between 1 and 64");
                4
            }
            Some(b) => *b.get_ref() as u32,
            None => 4,
        };
        let Some(score) = &raw.score else {
            return (Clock::plain(bpm, meter), None);
        };
        let path = self.base_dir.join(score.get_ref());
        match self.score(&path) {
            Ok(s) => {
                let mut clock = Clock::plain(s.tempo.bpm, s.meter.beats_per_measure.max(1));
                clock.tempo = s.tempo;
                clock.measures = s.measures.clone();
                if let Some(t) = &raw.tempo_bpm {
                    self.warnings
                        .push(Diagnostic::warning(self.span(t), "the score's tempo is used; `tempo_bpm` is ignored"));
                }
                (clock, Some(path))
            }
            Err(e) => {
                self.error_help(score, format!("the score `{}` cannot be read", score.get_ref()), e.to_string());
                (Clock::plain(bpm, meter), None)
            }
        }
    }

    fn steering(&mut self, raw: &RawPlan) -> Steering {
        let mut s = Steering::default();
        let Some(sim) = &raw.simulation else { return s };
        let sim = sim.get_ref();
        if let Some(n) = &sim.steps_per_beat {
            if (1..=64).contains(n.get_ref()) {
                s.steps_per_beat = *n.get_ref() as u32;
            } else {
                self.error(n, "steps per beat must be between 1 and 64");
            }
        }
        if let Some(m) = &sim.method {
            match m.get_ref().as_str() {
                "steering" => s.method = Avoidance::Steering,
                "orca" => s.method = Avoidance::Orca,
                other => {
                    let d = Diagnostic::error(
                        self.span(m),
                        format!("unknown avoidance method `{other}`; expected `steering` or `orca`"),
                    );
                    self.errors.push(d);
                }
            }
        }
        for (value, slot, what) in [
            (&sim.separation, &mut s.separation, "separation"),
            (&sim.alignment, &mut s.alignment, "alignment"),
            (&sim.cohesion, &mut s.cohesion, "cohesion"),
            (&sim.avoidance, &mut s.avoidance, "avoidance"),
        ] {
            if let Some(v) = value {
                if v.get_ref().is_finite() && *v.get_ref() >= 0.0 {
                    *slot = *v.get_ref();
                } else {
                    let d = Diagnostic::error(self.span(v), format!("the {what} weight must be 0 or more"));
                    self.errors.push(d);
                }
            }
        }
        s
    }

    fn obstacles(&mut self, raw: &RawPlan) -> Vec<Obstacle> {
        let mut out = Vec::new();
        for (k, o) in raw.obstacles.iter().enumerate() {
            let r = o.get_ref();
            let name = r.name.clone().unwrap_or_else(|| format!("obstacle {}", k + 1));
            let centre = xy(r.centre.get_ref());
            let shape = match (&r.radius_m, &r.size_m) {
                (Some(_), None) => {
                    ObstacleShape::Circle { centre, radius_m: self.positive(&r.radius_m, 0.5, "the obstacle radius") }
                }
                (None, Some(size)) => {
                    let half = xy(size.get_ref()) * 0.5;
                    if !(half.x > 0.0 && half.y > 0.0) {
                        self.error(size, "a box needs a positive size `[width, depth]`");
                    }
                    ObstacleShape::Box { min: centre - half, max: centre + half }
                }
                _ => {
                    self.error_help(
                        o,
                        format!("`{name}` needs exactly one of `radius_m` (a circle) and `size_m` (a box)"),
                        "e.g. `[[obstacle]]` `centre = [0, 4]` `radius_m = 0.5`",
                    );
                    continue;
                }
            };
            out.push(Obstacle { name, shape, span: self.span(o) });
        }
        out
    }
}

fn xy(v: &RawXy) -> DVec2 {
    DVec2::new(v[0], v[1])
}

fn known<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let list: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    if list.is_empty() { "none is defined".into() } else { format!("known: {}", list.join(", ")) }
}

/// `#rrggbb` → linear-ish 0–1 RGB.
pub fn parse_colour(text: &str) -> Option<[f32; 3]> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok().map(|v| f32::from(v) / 255.0);
    Some([c(0)?, c(2)?, c(4)?])
}

fn default_colour(k: usize) -> [f32; 3] {
    const PALETTE: [[f32; 3]; 6] =
        [[0.85, 0.3, 0.25], [0.25, 0.45, 0.85], [0.3, 0.7, 0.35], [0.9, 0.7, 0.2], [0.6, 0.35, 0.75], [0.2, 0.7, 0.75]];
    PALETTE[k % PALETTE.len()]
}
