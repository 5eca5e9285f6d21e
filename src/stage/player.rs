//! The player's state without any window or GPU: the open score (or motion capture), its
//! motion for the chosen dancer model, the transport, the staff layout and the warnings list.
//! The window, `labanplay render` and the tests all drive this same type.

use crate::animation::com_cache::ComPathCache;
use crate::animation::{Animation, compile_reusing};
use crate::diag::{Diagnostic, Span};
use crate::mocap::{CaptureLoadError, CaptureTimeline, LoadedCapture};
use crate::motion::rules::MotionOptions;
use crate::pose::fk::Pose;
use crate::pose::skeleton::Skeleton;
use crate::read::LoadError;
use crate::score::Score;
use crate::stage::camera_input::FloorBounds;
use crate::stage::dancer_mesh::DancerModel;
use crate::stage::files::{FileKind, file_kind};
use crate::stage::playback::{MeasureGrid, Playback, Timeline};
use crate::stage::score_stage::{StageFrame, StageOptions, build_scene};
use crate::stage::staff_layout::StaffLayout;
use crate::stage::{MeshId, Scene};
use glam::Vec3;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the open score came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreSource {
    /// A bundled demo, by name.
    Demo(&'static str),
    /// A file on disk.
    File(PathBuf),
}

impl ScoreSource {
    /// Short text for the title bar and the status line.
    pub fn label(&self) -> String {
        match self {
            ScoreSource::Demo(crate::stage::edit_save::NEW_SCORE) => "new score (not saved)".to_owned(),
            ScoreSource::Demo(name) => format!("demo: {name}"),
            ScoreSource::File(path) => path.display().to_string(),
        }
    }
}

/// Radius of a dancer's body for picking it on the stage, metres.
const PICK_RADIUS_M: f32 = 0.3;

/// A file read for the player: a score, or a motion capture already retargeted.
#[derive(Debug)]
pub enum Opened {
    /// A score, to compile.
    Score(Score),
    /// A `.bvh` capture on the model's proportions, with its timeline.
    Capture(Box<LoadedCapture>),
}

/// Why a file could not be opened, its diagnostics still structured.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The score reader's errors.
    #[error(transparent)]
    Score(#[from] LoadError),
    /// The capture loader's error.
    #[error(transparent)]
    Capture(#[from] CaptureLoadError),
    /// The file is a mesh or a plan, not something to play as a score.
    #[error("{}: this is {what}, not a score or a capture", path.display())]
    NotAScore {
        /// The file.
        path: std::path::PathBuf,
        /// What it is and where it goes, in words.
        what: &'static str,
    },
}

impl OpenError {
    /// Every diagnostic as `file:line:col: error: message` with its source line and caret.
    pub fn render(&self) -> String {
        match self {
            OpenError::Score(e) => e.render(),
            OpenError::Capture(e) => e.render(),
            OpenError::NotAScore { .. } => self.to_string(),
        }
    }
}

/// Reads `path`, known by its content ([`file_kind`]): a BVH capture (retargeted onto
/// `proportions`, with its `NAME.map.toml`) or a score; a mesh or a plan is refused by name.
pub fn open_path(path: &Path, proportions: &crate::pose::Proportions) -> Result<Opened, OpenError> {
    let not_a_score = |what| Err(OpenError::NotAScore { path: path.to_path_buf(), what });
    match file_kind(path) {
        FileKind::Capture => Ok(Opened::Capture(Box::new(crate::mocap::load(path, &Skeleton::new(proportions))?))),
        FileKind::Score => Ok(Opened::Score(crate::stage::files::open_score(path)?)),
        FileKind::Mesh => not_a_score("a mesh: open it as the dancer (`play --model FILE`, or Open mesh…)"),
        FileKind::Plan => not_a_score("an ensemble plan: open it on its own (`labanplay FILE`)"),
    }
}

/// What the player shows: a score, or a motion capture on its own timeline.
#[derive(Debug)]
enum Shown {
    /// A score, compiled for the model.
    Score(Score),
    /// A capture, retargeted onto the model.
    Capture {
        /// The title bar's text (the source's label).
        title: String,
        /// Its tempo, meter and length.
        timeline: CaptureTimeline,
        /// The file, re-read when the model changes (`None`: the motion stays as it is).
        path: Option<PathBuf>,
    },
}

impl Shown {
    fn bpm(&self) -> f64 {
        match self {
            Shown::Score(score) => score.tempo.bpm,
            Shown::Capture { timeline, .. } => timeline.bpm,
        }
    }

    fn duration_beats(&self) -> f64 {
        match self {
            Shown::Score(score) => score.duration_beats,
            Shown::Capture { timeline, .. } => timeline.duration_beats,
        }
    }

    fn measure_grid(&self) -> MeasureGrid<'_> {
        match self {
            Shown::Score(score) => MeasureGrid::of_score(score),
            Shown::Capture { timeline, .. } => {
                MeasureGrid { measures: &[], beats_per_measure: timeline.beats_per_measure }
            }
        }
    }

    fn timeline(&self) -> Timeline {
        match self {
            Shown::Score(score) => Timeline::from_score(score),
            Shown::Capture { timeline, .. } => Timeline::from_capture(timeline),
        }
    }

    fn layout(&self) -> StaffLayout {
        match self {
            Shown::Score(score) => StaffLayout::new(score),
            Shown::Capture { timeline, .. } => StaffLayout::seconds(timeline.duration_beats * 60.0 / timeline.bpm),
        }
    }
}

/// One line of the warnings panel.
#[derive(Clone, Debug, PartialEq)]
pub struct WarningItem {
    /// `line:col: message` (score warnings) or the motion engine's message.
    pub text: String,
    /// Where in the score the warning is, when a symbol at its source position is known.
    pub t_beats: Option<f64>,
    /// True for the motion engine's skipped symbols, false for reading/composing warnings.
    pub from_motion: bool,
    /// The warning's source position (the symbol it is about).
    pub span: Span,
}

/// The player's state.
#[derive(Debug)]
pub struct Player {
    shown: Shown,
    source: ScoreSource,
    model: DancerModel,
    motion_options: MotionOptions,
    animation: Animation,
    layout: StaffLayout,
    warnings: Vec<WarningItem>,
    floor_bounds: FloorBounds,
    poses: Vec<Pose>,
    tempo_override_bpm: Option<f64>,
    selected_dancer: usize,
    /// Centre-of-mass paths of earlier compiles: a recompile after an edit that moves no support
    /// takes them instead of solving again.
    com_paths: ComPathCache,
    /// The transport (time, speed, loop).
    pub playback: Playback,
    /// What the stage shows besides the dancers.
    pub stage_options: StageOptions,
}

impl Player {
    /// Opens `score` with `model`, heel-first steps unless `toe_first`; paused at the start.
    pub fn new(score: Score, source: ScoreSource, model: DancerModel, toe_first: bool) -> Player {
        let motion_options = MotionOptions { toe_first, ..MotionOptions::default() };
        let mut com_paths = ComPathCache::default();
        let animation = compile_reusing(&score, &motion_options, &model.proportions, &mut com_paths);
        let playback = Playback::new(Timeline::from_score(&score));
        let mut player = Player {
            layout: StaffLayout::new(&score),
            warnings: Vec::new(),
            floor_bounds: FloorBounds::of_points(std::iter::empty(), 0.0),
            poses: Vec::new(),
            tempo_override_bpm: None,
            selected_dancer: 0,
            com_paths,
            shown: Shown::Score(score),
            source,
            model,
            motion_options,
            animation,
            playback,
            stage_options: StageOptions::default(),
        };
        player.refresh_derived();
        player
    }

    /// Replaces the score or capture (open or reload), keeping the time position where it
    /// still exists.
    pub fn replace_opened(&mut self, opened: Opened, source: ScoreSource) {
        match opened {
            Opened::Score(score) => self.replace_score(score, source),
            Opened::Capture(capture) => {
                let LoadedCapture { motion, timeline, .. } = *capture;
                let path = match &source {
                    ScoreSource::File(path) => Some(path.clone()),
                    ScoreSource::Demo(_) => None,
                };
                self.shown = Shown::Capture { title: source.label(), timeline, path };
                self.selected_dancer = 0;
                self.source = source;
                self.animation = Animation::from_capture(motion);
                self.layout = self.shown.layout();
                self.playback.set_timeline(self.shown.timeline());
                self.refresh_derived();
            }
        }
    }

    /// Replaces the score (open or reload), keeping the time position where it still exists.
    pub fn replace_score(&mut self, score: Score, source: ScoreSource) {
        self.animation = compile_reusing(&score, &self.motion_options, &self.model.proportions, &mut self.com_paths);
        self.layout = StaffLayout::new(&score);
        self.playback.set_timeline(Timeline::from_score(&score));
        self.shown = Shown::Score(score);
        if self.selected_dancer >= self.dancer_count() {
            self.selected_dancer = 0;
        }
        self.source = source;
        self.apply_tempo();
        self.refresh_derived();
    }

    /// Plays the score at `bpm` instead of its own tempo (`None`: the score's tempo). The
    /// motion is the same, sampled faster or slower.
    pub fn set_tempo_override(&mut self, bpm: Option<f64>) {
        self.tempo_override_bpm = bpm.filter(|b| b.is_finite() && *b > 0.0);
        self.playback.set_timeline(self.shown.timeline());
        self.apply_tempo();
    }

    /// The tempo override, when one is set.
    pub fn tempo_override(&self) -> Option<f64> {
        self.tempo_override_bpm
    }

    fn apply_tempo(&mut self) {
        if let Some(bpm) = self.tempo_override_bpm {
            self.playback.set_bpm(bpm);
        }
    }

    /// Seconds of the score's own timing at the current beat (what the motion is sampled at,
    /// whatever tempo it plays at).
    pub fn score_secs(&self) -> f64 {
        crate::rehearse::sync::score_secs_at(self.playback.t_beats(), self.shown.bpm())
    }

    /// Switches the dancer model (recompiling the motion for its proportions).
    pub fn set_model(&mut self, model: DancerModel) {
        self.model = model;
        self.recompile();
    }

    /// Chooses heel-first (false) or toe-first (true) steps, recompiling the motion.
    pub fn set_toe_first(&mut self, toe_first: bool) {
        if self.motion_options.toe_first != toe_first {
            self.motion_options.toe_first = toe_first;
            self.recompile();
        }
    }

    /// True when steps land on the ball of the foot first.
    pub fn toe_first(&self) -> bool {
        self.motion_options.toe_first
    }

    /// Compiles the score again, or re-reads the capture (keeping its motion when the file no
    /// longer loads).
    fn recompile(&mut self) {
        match &self.shown {
            Shown::Score(score) => {
                self.animation =
                    compile_reusing(score, &self.motion_options, &self.model.proportions, &mut self.com_paths);
            }
            Shown::Capture { path: Some(path), .. } => {
                if let Ok(capture) = crate::mocap::load(path, &Skeleton::new(&self.model.proportions)) {
                    self.animation = Animation::from_capture(capture.motion);
                }
            }
            Shown::Capture { path: None, .. } => {}
        }
        self.refresh_derived();
    }

    /// Rebuilds what depends on the score and the animation: warnings and floor bounds.
    fn refresh_derived(&mut self) {
        self.warnings = warning_items(self.score(), &self.animation.interpretation.skipped);
        let footprints = self.animation.dancers.iter().flat_map(|d| d.plan.footprints.iter());
        let start_positions = self.animation.dancers.iter().map(|d| d.pelvis_at(0.0));
        let captured =
            self.animation.capture.iter().flat_map(|c| c.frames.iter().step_by(10).map(|p| p.pelvis_in_world));
        let points: Vec<Vec3> =
            footprints.map(|fp| fp.position_in_world).chain(start_positions).chain(captured).collect();
        self.floor_bounds = FloorBounds::of_points(points, 0.6);
    }

    /// The dancer whose staff is marked and whom "follow" and "behind" follow (index into the
    /// staves; 0 after a new score).
    pub fn selected_dancer(&self) -> usize {
        self.selected_dancer
    }

    /// Selects dancer `index` (ignored when there is no such dancer).
    pub fn select_dancer(&mut self, index: usize) {
        if index < self.dancer_count() {
            self.selected_dancer = index;
        }
    }

    /// The open score (`None` for a motion capture).
    pub fn score(&self) -> Option<&Score> {
        match &self.shown {
            Shown::Score(score) => Some(score),
            Shown::Capture { .. } => None,
        }
    }

    /// The score's title, or the capture's source label.
    pub fn title(&self) -> Option<&str> {
        match &self.shown {
            Shown::Score(score) => score.title.as_deref(),
            Shown::Capture { title, .. } => Some(title),
        }
    }

    /// The written tempo (the score's or the capture's), whatever the tempo override.
    pub fn bpm(&self) -> f64 {
        self.shown.bpm()
    }

    /// Beats per measure of the meter.
    pub fn beats_per_measure(&self) -> u32 {
        self.shown.measure_grid().beats_per_measure
    }

    /// Length in beats.
    pub fn duration_beats(&self) -> f64 {
        self.shown.duration_beats()
    }

    /// The header line: dancers, measures and tempo of a score; frames, frame rate and length
    /// of a capture.
    pub fn summary(&self) -> String {
        match &self.shown {
            Shown::Score(score) => {
                format!("{} dancer(s) · {} measures · {:.0} bpm", score.staves.len(), score.measures.len(), self.bpm())
            }
            Shown::Capture { timeline, .. } => timeline.summary(),
        }
    }

    /// Staves of the score; a capture is one dancer.
    pub fn dancer_count(&self) -> usize {
        match &self.shown {
            Shown::Score(score) => score.staves.len(),
            Shown::Capture { .. } => 1,
        }
    }

    /// Measures of the score; a capture's length in whole measures of its meter, rounded up.
    pub fn measure_count(&self) -> usize {
        match &self.shown {
            Shown::Score(score) => score.measures.len(),
            Shown::Capture { timeline, .. } => {
                let per = f64::from(timeline.beats_per_measure.max(1));
                let count = (timeline.duration_beats / per).ceil();
                if count.is_finite() && count > 0.0 { count as usize } else { 0 }
            }
        }
    }

    /// The measures the metronome counts: the score's, or the capture's meter from beat 0.
    pub fn measure_grid(&self) -> MeasureGrid<'_> {
        self.shown.measure_grid()
    }

    /// Where the score came from.
    pub fn source(&self) -> &ScoreSource {
        &self.source
    }

    /// Names where the score shown comes from now (it was saved under this name).
    pub fn set_source(&mut self, source: ScoreSource) {
        self.source = source;
    }

    /// The dancer model.
    pub fn model(&self) -> &DancerModel {
        &self.model
    }

    /// How many dancers' centre-of-mass paths recompiles took from earlier compiles instead of
    /// solving them again.
    pub fn com_paths_reused(&self) -> usize {
        self.com_paths.hits()
    }

    /// The compiled motion.
    pub fn animation(&self) -> &Animation {
        &self.animation
    }

    /// The staff layout of the score.
    pub fn layout(&self) -> &StaffLayout {
        &self.layout
    }

    /// Score warnings then skipped symbols.
    pub fn warnings(&self) -> &[WarningItem] {
        &self.warnings
    }

    /// The floor area the dancers use (footprints and start positions, with a margin).
    pub fn floor_bounds(&self) -> &FloorBounds {
        &self.floor_bounds
    }

    /// Samples every dancer at the current time (call once per frame before [`Self::build_scene`]).
    pub fn sample(&mut self) {
        self.animation.sample(self.score_secs(), &mut self.poses);
    }

    /// The poses of the last [`Self::sample`].
    pub fn poses(&self) -> &[Pose] {
        &self.poses
    }

    /// Horizontal unit vector the selected dancer faces in the last sampled pose (the pelvis's
    /// front, +Z at rest), for the "from behind" camera.
    pub fn selected_facing_in_world(&self) -> Option<Vec3> {
        let pose = self.poses.get(self.selected_dancer).or(self.poses.first())?;
        let front = pose.local_rot[crate::pose::JointId::Pelvis.index()] * Vec3::Z;
        let flat = Vec3::new(front.x, 0.0, front.z);
        (flat.length() > 1e-3).then(|| flat.normalize())
    }

    /// Pelvis of the selected dancer in the last sampled pose (for the follow camera).
    pub fn selected_pelvis_in_world(&self) -> Option<Vec3> {
        self.poses.get(self.selected_dancer).or(self.poses.first()).map(|pose| pose.pelvis_in_world)
    }

    /// The box a framed `view` shows now, when the dance is too large to frame whole
    /// ([`crate::stage::camera_input::tracking_frame`]); call after [`Self::sample`].
    pub fn tracking_frame(&self, view: crate::camera_view::CameraView) -> Option<FloorBounds> {
        let pelvises: Vec<Vec3> = self.poses.iter().map(|pose| pose.pelvis_in_world).collect();
        crate::stage::camera_input::tracking_frame(view, &self.floor_bounds, &pelvises)
    }

    /// The dancer under image point `ndc` ([-1, 1]², y up) of `camera`'s image of `aspect_ratio`,
    /// in the last sampled poses: each body an upright capsule over its pelvis.
    pub fn dancer_at(&self, camera: &crate::stage::OrbitCamera, aspect_ratio: f32, ndc: glam::Vec2) -> Option<usize> {
        let (origin, dir) = crate::stage::plan_pick::ray_through(camera, aspect_ratio, ndc);
        let grounds = self.poses.iter().map(|pose| pose.pelvis_in_world * Vec3::new(1.0, 0.0, 1.0));
        let height_m = self.model.proportions.height_m;
        crate::stage::plan_pick::pick_performer(origin, dir, grounds, PICK_RADIUS_M, height_m)
    }

    /// Fills `scene` for the last sampled poses; `mesh_id` is the uploaded [`Self::model`] mesh.
    pub fn build_scene(&self, mesh_id: MeshId, scene: &mut Scene) {
        let frame = StageFrame {
            animation: &self.animation,
            poses: &self.poses,
            model: &self.model,
            mesh_id,
            t_secs: self.score_secs(),
            options: self.stage_options,
        };
        build_scene(&frame, scene);
        scene.stage = self.floor_bounds.holding_stage();
    }
}

/// The warnings panel's lines: the score's warnings (none without a score), then the symbols
/// the motion skipped. A line gets a time when a score symbol sits at the warning's source
/// position.
pub fn warning_items(score: Option<&Score>, skipped: &[Diagnostic]) -> Vec<WarningItem> {
    let mut time_of_span: BTreeMap<(u32, u32, usize), f64> = BTreeMap::new();
    for staff in score.iter().flat_map(|s| &s.staves) {
        let entries =
            staff.channels.iter().flat_map(|c| c.entries.iter()).chain(staff.start_position.iter().map(|(_, e)| e));
        for entry in entries {
            time_of_span.entry(span_key(&entry.span)).or_insert(entry.start_beats);
        }
    }
    let lookup = |span: &Span| time_of_span.get(&span_key(span)).copied().filter(|t| t.is_finite());
    let score_items = score.iter().flat_map(|s| &s.warnings).map(|d| WarningItem {
        text: format!("{}:{}: {}", d.span.line, d.span.col, d.message),
        t_beats: lookup(&d.span),
        from_motion: false,
        span: d.span,
    });
    let motion_items = skipped.iter().map(|d| WarningItem {
        text: d.message.clone(),
        t_beats: lookup(&d.span),
        from_motion: true,
        span: d.span,
    });
    score_items.chain(motion_items).collect()
}

fn span_key(span: &Span) -> (u32, u32, usize) {
    (span.line, span.col, span.offset)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use crate::stage::dancer_mesh::mannequin;

    fn player() -> Player {
        let model = mannequin(&crate::pose::Proportions::default()).unwrap();
        Player::new(crate::demo::default_score(), ScoreSource::Demo("walk"), model, false)
    }

    #[test]
    fn a_click_on_a_dancer_selects_it_and_the_follow_camera_takes_its_pelvis() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/duet.lbn");
        let score = crate::stage::files::open_score(&path).unwrap();
        let mut p = player();
        p.replace_score(score, ScoreSource::File(path));
        p.playback.seek(2.0);
        p.sample();
        assert_eq!((p.dancer_count(), p.selected_dancer()), (2, 0));
        let aspect = 16.0 / 9.0;
        let camera =
            crate::stage::camera_input::framed_camera(crate::camera_view::CameraView::Front, p.floor_bounds(), aspect);
        let second = p.poses()[1].pelvis_in_world;
        let clip = camera.clip_from_world(aspect) * second.extend(1.0);
        let ndc = glam::Vec2::new(clip.x / clip.w, clip.y / clip.w);
        assert_eq!(p.dancer_at(&camera, aspect, ndc), Some(1));
        assert_eq!(p.dancer_at(&camera, aspect, glam::Vec2::new(0.99, 0.99)), None, "empty stage");
        p.select_dancer(1);
        assert_eq!(p.selected_pelvis_in_world(), Some(second));
        p.select_dancer(7);
        assert_eq!(p.selected_dancer(), 1, "no such dancer: the selection stays");
        p.replace_score(crate::demo::default_score(), ScoreSource::Demo("walk"));
        assert_eq!(p.selected_dancer(), 0, "a one-dancer score selects its dancer");
    }

    #[test]
    fn toe_first_recompiles_the_motion_and_reload_keeps_the_time() {
        let mut p = player();
        let heel_contacts: Vec<_> = p.animation().dancers[0].plan.footprints.iter().map(|f| f.contact).collect();
        p.set_toe_first(true);
        assert!(p.toe_first());
        let toe_contacts: Vec<_> = p.animation().dancers[0].plan.footprints.iter().map(|f| f.contact).collect();
        assert_ne!(heel_contacts, toe_contacts, "toe-first must change how steps land");
        p.playback.seek(2.5);
        p.replace_score(crate::demo::default_score(), ScoreSource::File("x.lbn".into()));
        assert_eq!(p.playback.t_beats(), 2.5);
        assert_eq!(p.source().label(), "x.lbn");
        p.sample();
        assert_eq!(p.poses().len(), 1);
        assert!(p.selected_pelvis_in_world().unwrap().is_finite());
        let mut scene = Scene::default();
        p.build_scene(MeshId(0), &mut scene);
        assert_eq!(scene.dancers.len(), 1);
        let bounds = p.floor_bounds();
        assert!(bounds.max_xz[0] > bounds.min_xz[0] && bounds.max_xz[1] > bounds.min_xz[1]);
    }

    #[test]
    fn a_capture_plays_on_its_own_timeline_without_a_score() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bvh/cmu-zup-left-elbow.bvh");
        let mut p = player();
        let opened = open_path(&path, &p.model().proportions).unwrap();
        let skeleton = Skeleton::new(&p.model().proportions);
        let expected = crate::mocap::load(&path, &skeleton).unwrap().timeline;
        p.replace_opened(opened, ScoreSource::File(path.clone()));
        assert!(p.score().is_none());
        assert_eq!(p.title(), Some(path.display().to_string().as_str()));
        assert_eq!(p.bpm(), expected.bpm);
        assert_eq!(p.beats_per_measure(), expected.beats_per_measure);
        assert_eq!(p.duration_beats(), expected.duration_beats);
        assert_eq!(p.dancer_count(), 1);
        let summary = p.summary();
        assert!(summary.starts_with(&format!("capture · {} frames at ", expected.frames)), "{summary}");
        assert!(expected.frames > 1 && summary.ends_with(&format!("{:.1} s", expected.duration_beats)), "{summary}");
        let measures = (expected.duration_beats / f64::from(expected.beats_per_measure)).ceil() as usize;
        assert!(measures >= 1);
        assert_eq!(p.measure_count(), measures);
        assert!(p.measure_grid().measures.is_empty());
        assert_eq!(p.playback.timeline(), &Timeline::from_capture(&expected));
        assert_eq!(p.layout().end_beats(), expected.duration_beats.ceil(), "a ruler of whole seconds");
        let view = crate::stage::staff_layout::StaffView::new(200.0, 600.0, 36.0);
        let texts: Vec<String> = (p.layout().glyphs(&view, 2.0).into_iter())
            .filter_map(|g| match g.kind {
                crate::stage::staff_layout::GlyphKind::Text(text) => Some(text),
                _ => None,
            })
            .collect();
        assert!(["sec", "0", "1"].iter().all(|t| texts.iter().any(|x| x == t)), "{texts:?}");
        p.playback.seek(expected.duration_beats);
        assert_eq!(p.score_secs(), expected.duration_beats * 60.0 / expected.bpm);
        p.set_toe_first(true);
        p.sample();
        assert_eq!(p.poses().len(), 1);
        p.replace_score(crate::demo::default_score(), ScoreSource::Demo("walk"));
        assert!(p.score().is_some());
        assert_eq!(p.title(), p.score().unwrap().title.as_deref());
    }

    #[test]
    fn warnings_with_a_known_symbol_get_its_time() {
        let mut score = crate::demo::default_score();
        let entry = score.staves[0]
            .channels
            .iter()
            .flat_map(|c| c.entries.iter())
            .find(|e| e.start_beats > 1.0)
            .unwrap()
            .clone();
        score.warnings.push(Diagnostic::warning(entry.span, "odd symbol"));
        score.warnings.push(Diagnostic::warning(Span::at(999, 1), "nowhere"));
        let skipped = vec![Diagnostic::warning(entry.span, "staff 1, measure 1: skipped")];
        let items = warning_items(Some(&score), &skipped);
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].t_beats, Some(entry.start_beats));
        assert!(items[0].text.ends_with("odd symbol") && !items[0].from_motion);
        assert_eq!(items[1].t_beats, None);
        assert!(items[2].from_motion && items[2].t_beats == Some(entry.start_beats));
    }
}
