//! The checked ensemble plan and its reader: TOML text → [`super::raw`] → [`Plan`], with every
//! problem reported as a [`Diagnostic`] at its line and column. Pictures and scores named by the
//! plan are read relative to the plan's folder.

use super::clock::{Clock, parse_measure_beat};
use super::raw::{RawEvent, RawFormation, RawPlan, RawXy};
use super::{picture, shapes};
use crate::diag::{Diagnostic, Diagnostics, Span};
use glam::DVec2;
use std::path::{Path, PathBuf};
use toml::Spanned;

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
}

impl Default for Steering {
    fn default() -> Self {
        Self { steps_per_beat: 8, separation: 0.6, alignment: 0.1, cohesion: 0.05, avoidance: 1.5 }
    }
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
    /// Camera cut (a player camera name).
    Camera(String),
}

/// Camera names a command may cut to (the player's views).
pub const CAMERAS: [&str; 5] = ["front", "side", "top", "three-quarter", "follow"];

/// Reads a plan file from disk.
pub fn read_plan_file(path: &Path) -> Result<(Plan, Vec<u8>), (Diagnostics, Vec<u8>)> {
    let bytes = std::fs::read(path).map_err(|e| {
        (Diagnostics::from(Diagnostic::error(Span::at(1, 1), format!("cannot read the plan: {e}"))), Vec::new())
    })?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    match read_plan(&bytes, &base) {
        Ok(plan) => Ok((plan, bytes)),
        Err(d) => Err((d, bytes)),
    }
}

/// Reads a plan from its text; pictures and scores are found relative to `base_dir`.
pub fn read_plan(bytes: &[u8], base_dir: &Path) -> Result<Plan, Diagnostics> {
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
    let mut cx = Checker { bytes, base_dir, errors: Vec::new(), warnings: Vec::new() };
    let plan = cx.plan(raw);
    if cx.errors.is_empty() {
        let mut plan = plan;
        plan.warnings = cx.warnings;
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
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

impl Checker<'_> {
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
            self.positive(&Some(stage.width_m.clone()), 10.0, "the stage width"),
            self.positive(&Some(stage.depth_m.clone()), 8.0, "the stage depth"),
        );
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
        let (groups, performers) = self.groups(&raw, &formations);
        let (behaviours, commands) = self.events(&raw, &clock, &formations, &groups);
        Plan {
            title: raw.title.clone(),
            clock,
            score_path,
            stage_m,
            body,
            steering,
            obstacles,
            formations,
            groups,
            performers,
            behaviours,
            commands,
            warnings: Vec::new(),
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
        match crate::cli::load_score(&path) {
            Ok((s, _)) => {
                let mut clock = Clock::plain(s.tempo.bpm, s.meter.beats_per_measure.max(1));
                clock.tempo = s.tempo;
                clock.measures = s.measures.clone();
                if let Some(t) = &raw.tempo_bpm {
                    self.warnings
                        .push(Diagnostic::warning(self.span(t), "the score's tempo is used; `tempo_bpm` is ignored"));
                }
                (clock, Some(path))
            }
            Err(text) => {
                let first = text.lines().next().unwrap_or("").to_string();
                self.error_help(score, format!("the score `{}` cannot be read", score.get_ref()), first);
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

    fn formations(&mut self, raw: &RawPlan, body: Body) -> Vec<Formation> {
        let mut out: Vec<Formation> = Vec::new();
        for f in &raw.formations {
            let r = f.get_ref();
            if out.iter().any(|o| o.name == *r.name.get_ref()) {
                self.error(&r.name, format!("a second formation named `{}`", r.name.get_ref()));
                continue;
            }
            let Some(mut spots) = self.formation_spots(f) else { continue };
            spots.sort_by(|a, b| {
                let key = |p: &DVec2| ((p.y * 1000.0).round() as i64, (p.x * 1000.0).round() as i64);
                key(a).cmp(&key(b))
            });
            let min = shapes::min_spacing(&spots);
            if spots.len() > 1 && min < 2.0 * body.radius_m {
                self.error_help(
                    f,
                    format!(
                        "formation `{}` puts spots {:.2} m apart, closer than two performers can stand ({:.2} m)",
                        r.name.get_ref(),
                        min,
                        2.0 * body.radius_m
                    ),
                    "make it larger, or give it fewer spots",
                );
            }
            out.push(Formation { name: r.name.get_ref().clone(), spots, span: self.span(f) });
        }
        out
    }

    fn count(&mut self, f: &RawFormation) -> Option<usize> {
        let c = f.count.as_ref()?;
        if (1..=100_000).contains(c.get_ref()) {
            Some(*c.get_ref() as usize)
        } else {
            self.error(c, "a count must be between 1 and 100000");
            None
        }
    }

    fn need<'b, T>(
        &mut self,
        f: &Spanned<RawFormation>,
        v: &'b Option<Spanned<T>>,
        key: &str,
        shape: &str,
    ) -> Option<&'b T> {
        match v {
            Some(s) => Some(s.get_ref()),
            None => {
                self.error(f, format!("a {shape} formation needs `{key}`"));
                None
            }
        }
    }

    fn formation_spots(&mut self, f: &Spanned<RawFormation>) -> Option<Vec<DVec2>> {
        let r = f.get_ref();
        let rot = r.rotate_deg.unwrap_or(0.0).to_radians();
        if let Some(pic) = &r.picture {
            if r.shape.is_some() {
                self.error(f, "a formation is either a `picture` or a `shape`, not both");
                return None;
            }
            return self.picture_spots(f, pic);
        }
        let Some(shape) = &r.shape else {
            self.error_help(f, "a formation needs a `picture` or a `shape`", "shapes: line, block, circle, arc, wedge");
            return None;
        };
        let count = self.count(r);
        let spots = match shape.get_ref().as_str() {
            "line" => {
                let from = *self.need(f, &r.from, "from", "line")?;
                let to = *self.need(f, &r.to, "to", "line")?;
                shapes::line(xy(&from), xy(&to), self.need_count(f, count)?)
            }
            "block" => {
                let centre = xy(self.need(f, &r.centre, "centre", "block")?);
                match (&r.rows, &r.columns, &r.spacing_m) {
                    (Some(rows), Some(cols), Some(sp)) => {
                        let (rows, cols) = (*rows.get_ref(), *cols.get_ref());
                        if !(1..=1000).contains(&rows) || !(1..=1000).contains(&cols) {
                            self.error(f, "rows and columns must be between 1 and 1000");
                            return None;
                        }
                        let sp = self.positive(&Some(sp.clone()), 1.0, "the spacing");
                        shapes::block(centre, rows as usize, cols as usize, sp, rot)
                    }
                    _ => {
                        let size =
                            xy(self.need(f, &r.size_m, "size_m` (or `rows`, `columns` and `spacing_m", "block")?);
                        shapes::block_count(centre, size, self.need_count(f, count)?, rot)
                    }
                }
            }
            "circle" => {
                let centre = xy(self.need(f, &r.centre, "centre", "circle")?);
                let radius = self.positive(&r.radius_m, 1.0, "the radius");
                shapes::circle(centre, radius, self.need_count(f, count)?)
            }
            "arc" => {
                let centre = xy(self.need(f, &r.centre, "centre", "arc")?);
                let radius = self.positive(&r.radius_m, 1.0, "the radius");
                let from = *self.need(f, &r.from_deg, "from_deg", "arc")?;
                let to = *self.need(f, &r.to_deg, "to_deg", "arc")?;
                shapes::arc(centre, radius, from.to_radians(), to.to_radians(), self.need_count(f, count)?)
            }
            "wedge" => {
                let apex = xy(self.need(f, &r.apex, "apex", "wedge")?);
                let sp = self.positive(&r.spacing_m, 1.0, "the spacing");
                shapes::wedge(apex, sp, self.need_count(f, count)?, rot)
            }
            other => {
                self.error_help(shape, format!("unknown shape `{other}`"), "shapes: line, block, circle, arc, wedge");
                return None;
            }
        };
        Some(spots)
    }

    fn need_count(&mut self, f: &Spanned<RawFormation>, count: Option<usize>) -> Option<usize> {
        if count.is_none() && f.get_ref().count.is_none() {
            self.error(f, "this formation needs `count`");
        }
        count
    }

    fn picture_spots(&mut self, f: &Spanned<RawFormation>, pic: &Spanned<String>) -> Option<Vec<DVec2>> {
        let r = f.get_ref();
        let threshold = match &r.threshold {
            Some(t) if !(0..=256).contains(t.get_ref()) => {
                self.error(t, "the threshold is a grey level from 0 to 256");
                128
            }
            Some(t) => (*t.get_ref()).min(255) as u8,
            None => 128,
        };
        let path = self.base_dir.join(pic.get_ref());
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                self.error(pic, format!("cannot read the picture `{}`: {e}", pic.get_ref()));
                return None;
            }
        };
        let mask = match picture::Mask::from_picture_bytes(&bytes, threshold, r.invert) {
            Ok(m) => m,
            Err(e) => {
                self.error(pic, format!("picture `{}`: {e}", pic.get_ref()));
                return None;
            }
        };
        let size = xy(self.need(f, &r.size_m, "size_m", "picture")?);
        if !(size.x > 0.0 && size.y > 0.0) {
            self.error(f, "a picture's `size_m` must be positive");
            return None;
        }
        let place = picture::Placement {
            centre: r.centre.as_ref().map(|c| xy(c.get_ref())).unwrap_or(DVec2::ZERO),
            size_m: size,
        };
        let pixels = match (self.count(r), &r.spacing_m) {
            (Some(n), None) => match picture::spots_of_count(&mask, n) {
                Ok(p) => p,
                Err(e) => {
                    self.error_help(
                        pic,
                        format!("picture `{}`: {e}", pic.get_ref()),
                        "lower `threshold`, use `invert`, or a larger picture",
                    );
                    return None;
                }
            },
            (None, Some(sp)) => {
                let sp = self.positive(&Some(sp.clone()), 1.0, "the spacing");
                let px = DVec2::new(sp * f64::from(mask.width) / size.x, sp * f64::from(mask.height) / size.y);
                let spots = picture::spots_at_spacing(&mask, px);
                if spots.is_empty() {
                    self.error(pic, format!("no spot of a {sp} m grid falls inside the picture's shape"));
                    return None;
                }
                spots
            }
            _ => {
                self.error(f, "a picture formation needs exactly one of `count` and `spacing_m`");
                return None;
            }
        };
        Some(pixels.into_iter().map(|p| place.stage_from_pixel(p, mask.width, mask.height)).collect())
    }

    fn groups(&mut self, raw: &RawPlan, formations: &[Formation]) -> (Vec<Group>, Vec<Performer>) {
        let mut groups: Vec<Group> = Vec::new();
        let mut performers = Vec::new();
        for g in &raw.groups {
            let r = g.get_ref();
            if groups.iter().any(|o| o.name == *r.name.get_ref()) {
                self.error(&r.name, format!("a second group named `{}`", r.name.get_ref()));
                continue;
            }
            let Some(fi) = formations.iter().position(|f| f.name == *r.formation.get_ref()) else {
                self.error_help(
                    &r.formation,
                    format!("no formation named `{}`", r.formation.get_ref()),
                    known(formations.iter().map(|f| &f.name)),
                );
                continue;
            };
            let spots = &formations[fi].spots;
            if let Some(c) = &r.count {
                if *c.get_ref() != spots.len() as i64 {
                    self.error(
                        c,
                        format!(
                            "the group has {} performers but formation `{}` has {} spots",
                            c.get_ref(),
                            formations[fi].name,
                            spots.len()
                        ),
                    );
                }
            }
            let score = r.score.as_ref().map(|s| self.base_dir.join(s.get_ref()));
            if let (Some(path), Some(s)) = (&score, &r.score) {
                if let Err(text) = crate::cli::load_score(path) {
                    self.error_help(
                        s,
                        format!("the score `{}` cannot be read", s.get_ref()),
                        text.lines().next().unwrap_or("").to_string(),
                    );
                }
            }
            let staff = match &r.staff {
                Some(s) if *s.get_ref() < 1 => {
                    self.error(s, "staves count from 1");
                    1
                }
                Some(s) => *s.get_ref() as usize,
                None => 1,
            };
            let model = r.model.as_ref().map(|m| m.get_ref().clone()).unwrap_or_else(|| "woman-modern".into());
            if let Some(m) = &r.model {
                let names: Vec<&str> = crate::body::models::builtin_models().iter().map(|s| s.name).collect();
                if !names.contains(&m.get_ref().as_str()) {
                    self.error_help(
                        m,
                        format!("unknown model `{}`", m.get_ref()),
                        format!("models: {}", names.join(", ")),
                    );
                }
            }
            let colour = match &r.colour {
                Some(c) => parse_colour(c.get_ref()).unwrap_or_else(|| {
                    self.error(c, format!("`{}` is not a colour; write `#rrggbb`", c.get_ref()));
                    [0.5; 3]
                }),
                None => default_colour(groups.len()),
            };
            let canon_beats = match &r.canon_beats {
                Some(c) if !(c.get_ref().is_finite() && *c.get_ref() >= 0.0) => {
                    self.error(c, "a canon offset is 0 or more beats");
                    0.0
                }
                Some(c) => *c.get_ref(),
                None => 0.0,
            };
            let first = performers.len();
            for (k, s) in spots.iter().enumerate() {
                performers.push(Performer { group: groups.len(), number: k + 1, start: *s });
            }
            groups.push(Group {
                name: r.name.get_ref().clone(),
                formation: fi,
                first,
                count: spots.len(),
                score,
                staff,
                model,
                colour,
                canon_beats,
                facing_deg: r.facing_deg.unwrap_or(0.0),
                span: self.span(g),
            });
        }
        (groups, performers)
    }

    fn events(
        &mut self,
        raw: &RawPlan,
        clock: &Clock,
        formations: &[Formation],
        groups: &[Group],
    ) -> (Vec<Behaviour>, Vec<Command>) {
        let mut behaviours = Vec::new();
        let mut commands = Vec::new();
        // Where each group stands (formation index, None after keep/merge) and until when it is busy.
        let mut state: Vec<(Option<usize>, f64)> = groups.iter().map(|g| (Some(g.formation), 0.0)).collect();
        let mut order: Vec<(f64, usize)> = Vec::new();
        let mut starts = Vec::new();
        for (k, e) in raw.events.iter().enumerate() {
            let start = match parse_measure_beat(e.get_ref().at.get_ref()) {
                Ok((m, b)) => clock.beats_at(m, b),
                Err(msg) => {
                    self.error(&e.get_ref().at, msg);
                    f64::NAN
                }
            };
            starts.push(start);
            if start.is_finite() {
                order.push((start, k));
            }
        }
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (start, k) in order {
            let e = &raw.events[k];
            let r = e.get_ref();
            let span = self.span(e);
            if r.group.is_none() {
                let mut any = false;
                for (value, make) in [
                    (&r.lights, CommandKind::Lights as fn(String) -> CommandKind),
                    (&r.music, CommandKind::Music),
                    (&r.camera, CommandKind::Camera),
                ] {
                    if let Some(v) = value {
                        any = true;
                        commands.push(Command { at_beats: start, kind: make(v.get_ref().clone()), span });
                    }
                }
                if let Some(c) = &r.camera {
                    if !CAMERAS.contains(&c.get_ref().as_str()) {
                        self.error_help(
                            c,
                            format!("unknown camera `{}`", c.get_ref()),
                            format!("cameras: {}", CAMERAS.join(", ")),
                        );
                    }
                }
                if let Some(l) = &r.lights {
                    if l.get_ref().starts_with('#') && parse_colour(l.get_ref()).is_none() {
                        self.error(l, format!("`{}` is not a colour; write `#rrggbb` or a preset name", l.get_ref()));
                    }
                }
                if !any {
                    self.error_help(
                        e,
                        "an event needs `group` (a behaviour event) or `lights`, `music` or `camera` (a command event)",
                        "e.g. `[[event]]` `at = \"3:1\"` `group = \"a\"` `to = \"circle\"` `beats = 8`",
                    );
                }
                continue;
            }
            if let Some(b) = self.behaviour(e, start, formations, groups, &mut state) {
                behaviours.extend(b);
            }
            let _ = r;
        }
        (behaviours, commands)
    }

    fn behaviour(
        &mut self,
        e: &Spanned<RawEvent>,
        start: f64,
        formations: &[Formation],
        groups: &[Group],
        state: &mut [(Option<usize>, f64)],
    ) -> Option<Vec<Behaviour>> {
        let r = e.get_ref();
        let span = self.span(e);
        let g = r.group.as_ref()?;
        let mut gi = Vec::new();
        for name in g.get_ref().names() {
            match groups.iter().position(|x| x.name == name) {
                Some(i) if !gi.contains(&i) => gi.push(i),
                Some(_) => self.error(g, format!("group `{name}` is named twice")),
                None => self.error_help(g, format!("no group named `{name}`"), known(groups.iter().map(|x| &x.name))),
            }
        }
        if gi.is_empty() {
            return None;
        }
        if r.lights.is_some() || r.music.is_some() || r.camera.is_some() {
            self.error(
                e,
                "a behaviour event (with `group`) cannot also be a command; write the command as its own `[[event]]`",
            );
        }
        let beats = match &r.beats {
            Some(b) if b.get_ref().is_finite() && *b.get_ref() > 0.0 => *b.get_ref(),
            Some(b) => {
                self.error(b, "`beats` must be a positive number");
                return None;
            }
            None => {
                self.error(e, "a behaviour event needs `beats` (its duration)");
                return None;
            }
        };
        let find = |cx: &mut Self, s: &Spanned<String>| -> Option<usize> {
            let f = formations.iter().position(|f| f.name == *s.get_ref());
            if f.is_none() {
                cx.error_help(
                    s,
                    format!("no formation named `{}`", s.get_ref()),
                    known(formations.iter().map(|f| &f.name)),
                );
            }
            f
        };
        for &i in &gi {
            if state[i].1 > start + 1e-9 {
                self.error(
                    e,
                    format!(
                        "group `{}` is still moving until beat {:.2} of the previous event",
                        groups[i].name, state[i].1
                    ),
                );
            }
        }
        if let Some(from) = &r.from {
            if let Some(fi) = find(self, from) {
                for &i in &gi {
                    if state[i].0 != Some(fi) {
                        let now = state[i]
                            .0
                            .map(|f| format!("`{}`", formations[f].name))
                            .unwrap_or_else(|| "no named formation".into());
                        self.error(
                            from,
                            format!("group `{}` stands in {now} here, not in `{}`", groups[i].name, from.get_ref()),
                        );
                    }
                }
            }
        }
        let count: usize = gi.iter().map(|&i| groups[i].count).sum();
        let method_name =
            r.method.as_ref().map(|m| m.get_ref().as_str()).unwrap_or(if r.to.is_some() { "shortest" } else { "keep" });
        let gait = match r.gait.as_ref().map(|g| g.get_ref().as_str()) {
            None | Some("walk") => Gait::Walk,
            Some("run") => Gait::Run,
            Some(other) => {
                self.error(r.gait.as_ref()?, format!("unknown gait `{other}`; use `walk` or `run`"));
                Gait::Walk
            }
        };
        let path = match r.path.as_ref().map(|p| p.get_ref().as_str()) {
            None if r.via.is_some() => PathKind::Bezier(r.via.as_ref()?.get_ref().iter().map(xy).collect()),
            None | Some("linear") => {
                if let Some(v) = &r.via {
                    self.error(v, "`via` control points need `path = \"bezier\"`");
                }
                PathKind::Linear
            }
            Some("bezier") => match &r.via {
                Some(v) if !v.get_ref().is_empty() => PathKind::Bezier(v.get_ref().iter().map(xy).collect()),
                _ => {
                    self.error(e, "a Bézier path needs `via = [[x, y], …]` control points");
                    PathKind::Linear
                }
            },
            Some(other) => {
                self.error(r.path.as_ref()?, format!("unknown path `{other}`; use `linear` or `bezier`"));
                PathKind::Linear
            }
        };
        let attract = r.attract.as_ref().map(|a| xy(a.get_ref()));
        let mut legs: Vec<(Method, Option<usize>)> = Vec::new();
        let into = |cx: &mut Self, fi: usize, at: &Spanned<String>| -> bool {
            if formations[fi].spots.len() != count {
                cx.error_help(
                    at,
                    format!(
                        "formation `{}` has {} spots for {count} performers",
                        formations[fi].name,
                        formations[fi].spots.len()
                    ),
                    "give the formation `count` equal to the performers it receives",
                );
                return false;
            }
            true
        };
        match method_name {
            "shortest" | "order" => {
                let Some(to) = &r.to else {
                    self.error(e, format!("method `{method_name}` needs `to` (the target formation)"));
                    return None;
                };
                let mut names: Vec<&Spanned<String>> = Vec::new();
                let through: Vec<Spanned<String>> = match &r.through {
                    Some(t) => t.get_ref().iter().map(|n| Spanned::new(t.span(), n.clone())).collect(),
                    None => Vec::new(),
                };
                names.extend(through.iter());
                names.push(to);
                for n in names {
                    let fi = find(self, n)?;
                    if !into(self, fi, n) {
                        return None;
                    }
                    let m = if method_name == "order" { Method::Order(fi) } else { Method::Shortest(fi) };
                    legs.push((m, Some(fi)));
                }
            }
            "keep" => {
                if r.to.is_some() {
                    self.error(e, "`keep` moves the group as it stands; give `scale` and/or `move`, not `to`");
                }
                let reference = match (&r.reference, &r.reference_row) {
                    (Some(_), Some(_)) => {
                        self.error(e, "give `reference` or `reference_row`, not both");
                        Reference::Centre
                    }
                    (Some(p), None) if *p.get_ref() < 1 || *p.get_ref() as usize > count => {
                        self.error(p, format!("the reference performer must be 1 to {count}"));
                        Reference::Centre
                    }
                    (Some(p), None) => Reference::Performer(*p.get_ref() as usize - 1),
                    (None, Some(row)) if *row.get_ref() < 1 => {
                        self.error(row, "rows count from 1 (the front row)");
                        Reference::Centre
                    }
                    (None, Some(row)) => Reference::Row(*row.get_ref() as usize - 1),
                    (None, None) => Reference::Centre,
                };
                let scale = match &r.scale {
                    Some(s) if !(s.get_ref().is_finite() && *s.get_ref() > 0.0) => {
                        self.error(s, "`scale` must be positive");
                        1.0
                    }
                    Some(s) => *s.get_ref(),
                    None => 1.0,
                };
                let move_m = r.move_m.as_ref().map(|m| xy(m.get_ref())).unwrap_or(DVec2::ZERO);
                legs.push((Method::Keep { reference, scale, move_m }, None));
            }
            "merge" => {
                let Some(other) = &r.merge_into else {
                    self.error(e, "method `merge` needs `merge_into` (the group whose line this one joins)");
                    return None;
                };
                let Some(oi) = groups.iter().position(|x| x.name == *other.get_ref()) else {
                    self.error_help(
                        other,
                        format!("no group named `{}`", other.get_ref()),
                        known(groups.iter().map(|x| &x.name)),
                    );
                    return None;
                };
                if gi.contains(&oi) {
                    self.error(other, "a group cannot merge into itself");
                    return None;
                }
                if count > groups[oi].count + 1 {
                    self.error(
                        other,
                        format!(
                            "{count} performers cannot fill the {} gaps of `{}`'s line",
                            groups[oi].count + 1,
                            groups[oi].name
                        ),
                    );
                    return None;
                }
                legs.push((Method::Merge(oi), None));
            }
            other => {
                self.error_help(
                    r.method.as_ref()?,
                    format!("unknown method `{other}`"),
                    "methods: shortest, order, keep, merge",
                );
                return None;
            }
        }
        let leg_beats = beats / legs.len() as f64;
        let mut out = Vec::new();
        for (k, (method, fi)) in legs.into_iter().enumerate() {
            out.push(Behaviour {
                groups: gi.clone(),
                start_beats: start + k as f64 * leg_beats,
                duration_beats: leg_beats,
                method,
                path: path.clone(),
                attract,
                gait,
                span,
            });
            for &i in &gi {
                state[i].0 = fi;
            }
        }
        for &i in &gi {
            state[i].1 = start + beats;
        }
        Some(out)
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
