//! The checked, channelled composite score: the data every later stage reads.
//!
//! One [`Staff`] per dancer, each with channels (support, leg gesture, body, arm, head, claimed
//! columns, front, path) whose [`Entry`]s are ordered by time and carry their modifiers.

use crate::diag::{Diagnostic, Span};
use crate::read::{BodyPart, Direction, Format, Level, PathSign, Side, VolumeSign};
use serde::Serialize;

/// Beat ↔ seconds conversion. The score's tempo is constant (a metronome marking or a default).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TempoMap {
    /// Quarter-note beats per minute.
    pub bpm: f64,
    /// True when the score gave no tempo and the default was used.
    pub is_default: bool,
}

impl TempoMap {
    /// The tempo used when a score gives none.
    pub const DEFAULT_BPM: f64 = 120.0;

    /// Seconds at beat `t_beats`.
    pub fn secs_from_beats(&self, t_beats: f64) -> f64 {
        t_beats * 60.0 / self.bpm
    }

    /// Beat at `t_secs` seconds.
    pub fn beats_from_secs(&self, t_secs: f64) -> f64 {
        t_secs * self.bpm / 60.0
    }
}

/// Beats per measure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Meter {
    /// Beats in a typical measure.
    pub beats_per_measure: u32,
    /// True when inferred from bar spacing rather than written.
    pub inferred: bool,
}

/// One measure between two bar lines.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measure {
    /// 1-based measure number (the first measure after the double bar is 1).
    pub number: u32,
    /// Beat at which it starts.
    pub start_beats: f64,
    /// Its length in beats.
    pub beats: f64,
    /// Page y of its bottom bar line (graphical formats; 0 otherwise).
    pub y_bottom: f32,
    /// Page y of its top bar line.
    pub y_top: f32,
}

/// What a channel holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum ChannelKind {
    /// Support column: steps, supports, pivot turns, holds of weight.
    Support(Side),
    /// Leg gesture column.
    LegGesture(Side),
    /// Body (torso) column.
    Body(Side),
    /// Arm column.
    Arm(Side),
    /// Head column.
    Head,
    /// A column claimed by a body-part pre-sign.
    Part(BodyPart),
    /// Whole-body rotations given as keyframes (JSON formats).
    BodyTurn,
    /// Front (facing) signs.
    Front,
    /// Path signs.
    Path,
}

impl ChannelKind {
    /// Short name for tables.
    pub fn name(&self) -> String {
        let s = |side: &Side| if *side == Side::Left { "L" } else { "R" };
        match self {
            ChannelKind::Support(side) => format!("support {}", s(side)),
            ChannelKind::LegGesture(side) => format!("leg {}", s(side)),
            ChannelKind::Body(side) => format!("body {}", s(side)),
            ChannelKind::Arm(side) => format!("arm {}", s(side)),
            ChannelKind::Head => "head".to_string(),
            ChannelKind::Part(part) => format!("part {}", part_name(part)),
            ChannelKind::BodyTurn => "body turn".to_string(),
            ChannelKind::Front => "front".to_string(),
            ChannelKind::Path => "path".to_string(),
        }
    }
}

/// A readable name for a body part.
pub fn part_name(part: &BodyPart) -> String {
    let s = |side: &Side| if *side == Side::Left { "L" } else { "R" };
    match part {
        BodyPart::Shoulder(x) => format!("shoulder {}", s(x)),
        BodyPart::Elbow(x) => format!("upper-arm {}", s(x)),
        BodyPart::Wrist(x) => format!("lower-arm {}", s(x)),
        BodyPart::Hand(x) => format!("hand {}", s(x)),
        BodyPart::Hip(x) => format!("hip {}", s(x)),
        BodyPart::Knee(x) => format!("thigh {}", s(x)),
        BodyPart::Ankle(x) => format!("lower-leg {}", s(x)),
        BodyPart::Foot(x) => format!("foot {}", s(x)),
        BodyPart::Toe(x) => format!("toe {}", s(x)),
        BodyPart::Arm(x) => format!("arm {}", s(x)),
        BodyPart::Leg(x) => format!("leg {}", s(x)),
        BodyPart::Palm => "palm".to_string(),
        BodyPart::Head => "head".to_string(),
        BodyPart::Chest => "chest".to_string(),
        BodyPart::Pelvis => "pelvis".to_string(),
        BodyPart::Torso => "torso".to_string(),
    }
}

/// What an entry means.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum EntryKind {
    /// A direction sign: a step in a support column, a gesture elsewhere.
    Direction {
        /// Which way.
        direction: Direction,
        /// Its level.
        level: Level,
    },
    /// A turn sign (pivot in a support column).
    Turn {
        /// Clockwise seen from above; `None` for turn signs of unknown sense.
        clockwise: Option<bool>,
        /// Amount in degrees from the pin inside, `None` when no pin was found; 0 with no sense
        /// for the composite turn sign (back to the untwisted state).
        amount_deg: Option<f64>,
        /// Spread over both support columns.
        both_feet: bool,
    },
    /// A hold sign: keep the weight (support) or the position (gesture).
    Hold,
    /// A back-to-normal sign: a limb loses its bends and keeps its direction; head and torso
    /// return upright (labanotation-rules §5.5). None of the readable formats is known to encode
    /// it yet (LED has no such item; LW layouts are unknown), so only built scores carry it.
    BackToNormal,
    /// An action stroke (a plain vertical line) in a body column: the part moves without a new
    /// direction; with a space-measurement sign below it (bent, straight, …) the limb bends or
    /// stretches in place, keeping its direction (labanotation-rules §5.1).
    Action,
    /// A front sign: facing in degrees clockwise from the audience.
    Front {
        /// 0, 45, …, 315.
        facing_deg: f64,
    },
    /// A path sign: the floor pattern of the steps it spans.
    Path {
        /// Straight, circular (with its sense) or unknown.
        sign: PathSign,
        /// For a circular path, degrees of the circle (and of the facing change) from the pin
        /// inside; `None` when no pin was found.
        amount_deg: Option<f64>,
    },
}

/// Something attached to an entry by proximity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Modifier {
    /// Pin inside a turn sign, with the amount it gives.
    TurnPin {
        /// 1..=8 clockwise from up the page.
        orientation: u8,
    },
    /// A pin beside a direction sign (crossing steps, relationships).
    Pin {
        /// 1..=8.
        orientation: u8,
        /// Black or white.
        black: bool,
    },
    /// A flexion/extension sign below or beside the symbol (bent, stretched, …). In a support
    /// column a bent sign means a shorter step, a stretched sign a longer one.
    Volume(VolumeSign),
    /// A hook or other `Misc` sign touching the symbol.
    Hook {
        /// The format's item number.
        item: i32,
    },
}

impl Modifier {
    /// Short text for tables.
    pub fn label(&self) -> String {
        match self {
            Modifier::TurnPin { orientation } => format!("pin{orientation}"),
            Modifier::Pin { orientation, black } => {
                format!("{}pin{orientation}", if *black { "black-" } else { "white-" })
            }
            Modifier::Volume(v) => match v {
                VolumeSign::Relaxed => "relaxed".into(),
                VolumeSign::Straight => "straight".into(),
                VolumeSign::Bent => "bent".into(),
                VolumeSign::Stretched => "stretched".into(),
                VolumeSign::Hold => "hold".into(),
                VolumeSign::Other(i) => format!("volm{i}"),
            },
            Modifier::Hook { item } => format!("hook{item}"),
        }
    }
}

/// One symbol placed in a channel, with its time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// What it means.
    pub kind: EntryKind,
    /// Start in beats from the first double bar (0 for the starting position).
    pub start_beats: f64,
    /// Duration in beats (0 for the starting position).
    pub duration_beats: f64,
    /// Start in seconds.
    pub start_secs: f64,
    /// Duration in seconds.
    pub duration_secs: f64,
    /// Measure number (0 = starting position).
    pub measure: u32,
    /// Beat within the measure, from 0.
    pub beat_in_measure: f64,
    /// Signed column: ±1 support, ±2 leg gesture, ±3… outside the staff (negative = left).
    pub column: i32,
    /// Attached modifiers.
    pub modifiers: Vec<Modifier>,
    /// The format's own code (`Dirn 11`), for messages.
    pub code: String,
    /// Where the symbol is in the file.
    pub span: Span,
}

impl Entry {
    /// End in beats.
    pub fn end_beats(&self) -> f64 {
        self.start_beats + self.duration_beats
    }
}

/// A time-ordered list of entries for one body part or purpose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Channel {
    /// What it holds.
    pub kind: ChannelKind,
    /// Entries sorted by start time.
    pub entries: Vec<Entry>,
}

/// The five jump forms (take-off → landing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum JumpForm {
    /// Both feet → both feet.
    Jump,
    /// One foot → the same foot.
    Hop,
    /// One foot → the other foot.
    Leap,
    /// One foot → both feet.
    Assemble,
    /// Both feet → one foot.
    Sissonne,
}

/// Which feet support at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Feet {
    /// Left only.
    Left,
    /// Right only.
    Right,
    /// Both.
    Both,
}

/// A gap in both support columns: time in the air.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SupportGap {
    /// Start of flight, beats.
    pub start_beats: f64,
    /// End of flight (landing), beats.
    pub end_beats: f64,
    /// Feet that took off (`None` when the gap starts the score).
    pub takeoff: Option<Feet>,
    /// Feet that land (`None` when the score ends in the air).
    pub landing: Option<Feet>,
    /// The jump form, when both ends are known.
    pub form: Option<JumpForm>,
}

/// The sign that identifies a staff's dancer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DancerSign {
    /// Pin orientation 1..=8.
    pub orientation: u8,
    /// Black (true) or white pin.
    pub black: bool,
}

/// One dancer's staff.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Staff {
    /// 0-based, left to right on the page.
    pub index: usize,
    /// The pin under the staff, if any.
    pub dancer: Option<DancerSign>,
    /// Page x of the centre line.
    pub centre_x: f32,
    /// Distance from the centre line to an outer staff line.
    pub half_width: f32,
    /// Facing at the start, degrees clockwise from the audience (0 when no front sign).
    pub start_facing_deg: f64,
    /// Symbols below the double bar: the starting position (times are 0).
    pub start_position: Vec<(ChannelKind, Entry)>,
    /// Channels, sorted by kind.
    pub channels: Vec<Channel>,
    /// Gaps in the support columns (flights), in time order.
    pub gaps: Vec<SupportGap>,
}

impl Staff {
    /// The channel of `kind`, if the staff has one.
    pub fn channel(&self, kind: ChannelKind) -> Option<&Channel> {
        self.channels.iter().find(|c| c.kind == kind)
    }
}

/// Which surface of a body part a contact names (an `Area` sign written beside the part sign).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ContactSurface {
    /// No surface given: the part itself.
    Any,
    /// The front (LED `Area 1`).
    Front,
    /// The back (LED `Area 5`).
    Back,
}

/// One end of a contact bow: a body part of one dancer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContactEnd {
    /// Index of the dancer's staff.
    pub staff: usize,
    /// The part that touches or holds.
    pub part: BodyPart,
    /// The part's surface, when an area sign names it.
    pub surface: ContactSurface,
    /// The format's code of the part sign (`Limb 4`), for messages.
    pub code: String,
    /// Where the part sign is in the file.
    pub span: Span,
}

/// A contact bow (touch, grasp, hold): two body parts, of one dancer or of two, are together from
/// `start_beats` (the bow) until a release sign or the end of the score (labanotation-rules §5.6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Contact {
    /// The two ends, in page order (left first).
    pub ends: [ContactEnd; 2],
    /// When the contact is made, beats (0 for the starting position).
    pub start_beats: f64,
    /// When it ends: a release sign, or the end of the score.
    pub end_beats: f64,
    /// True when a release sign ends it (false: it lasts to the end of the score).
    pub released: bool,
    /// Measure of the bow (0 = starting position).
    pub measure: u32,
    /// Beat within the measure, from 0.
    pub beat_in_measure: f64,
    /// The format's code of the bow (`Misc 1`).
    pub code: String,
    /// Where the bow is in the file.
    pub span: Span,
}

impl Contact {
    /// True when the two ends belong to different dancers (a hold between partners).
    pub fn between_dancers(&self) -> bool {
        self.ends[0].staff != self.ends[1].staff
    }
}

/// The composite score.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// Title, if known.
    pub title: Option<String>,
    /// Source format.
    pub format: Format,
    /// Tempo.
    pub tempo: TempoMap,
    /// Meter.
    pub meter: Meter,
    /// Measures, in order.
    pub measures: Vec<Measure>,
    /// Staves, left to right.
    pub staves: Vec<Staff>,
    /// Total length in beats (end of the last measure or the last symbol).
    pub duration_beats: f64,
    /// Contact bows (hands joined, a hand on a partner's shoulder), in time order.
    pub contacts: Vec<Contact>,
    /// Everything that was guessed, skipped or not interpreted, with its place.
    pub warnings: Vec<Diagnostic>,
}

impl Score {
    /// Total length in seconds.
    pub fn duration_secs(&self) -> f64 {
        self.tempo.secs_from_beats(self.duration_beats)
    }

    /// Measure number and beat within it at `t_beats` (measure 0 before the first measure).
    pub fn measure_at(&self, t_beats: f64) -> (u32, f64) {
        measure_at(&self.measures, t_beats)
    }
}

/// Measure number and beat within it at `t_beats` in `measures` (sorted by start): measure 0 and
/// beat 0 before the first measure or when there are none.
pub fn measure_at(measures: &[Measure], t_beats: f64) -> (u32, f64) {
    if t_beats < 0.0 {
        return (0, 0.0);
    }
    let idx = measures.partition_point(|m| m.start_beats <= t_beats + 1e-9);
    match idx.checked_sub(1).and_then(|i| measures.get(i)) {
        Some(m) => (m.number, t_beats - m.start_beats),
        None => (0, t_beats),
    }
}
