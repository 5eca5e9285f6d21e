//! The raw document: a faithful, unchecked copy of what a score file says.
//!
//! Graphical formats (`.lbn`, `.lw`) give a list of [`PageSymbol`]s in page coordinates, in
//! the order they were drawn; the JSON formats give timed [`Gesture`]s. The score builder
//! (`crate::score`) checks and interprets both; nothing here knows about time or channels.

use crate::diag::{Diagnostic, Span};
use serde::Serialize;

/// Which file format a document came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Format {
    /// LED / LINTEL `.lbn` text format.
    Lbn,
    /// Microsoft LabanotationSuite or gestureBotDesignKit `.json` keyframes.
    Json,
    /// LabanWriter 4 `.lw` text format.
    Lw,
}

impl Format {
    /// Short lower-case name used in summaries.
    pub fn name(self) -> &'static str {
        match self {
            Format::Lbn => "lbn",
            Format::Json => "json",
            Format::Lw => "lw",
        }
    }
}

/// Level of a direction sign (its shading).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Level {
    /// Solid black: low (or, in a support column, bent legs).
    Low,
    /// Dot: middle.
    Middle,
    /// Stripes: high (or, in a support column, on the balls of the feet).
    High,
    /// No level written (`B` in `.lbn`).
    Blank,
}

impl Level {
    /// One letter: L, M, H, B.
    pub fn letter(self) -> char {
        match self {
            Level::Low => 'L',
            Level::Middle => 'M',
            Level::High => 'H',
            Level::Blank => 'B',
        }
    }
}

/// The nine directions of the direction signs, in the dancer's own frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Direction {
    /// Place (in place, under or at the joint).
    Place,
    /// Forward.
    Forward,
    /// Right forward diagonal.
    RightForward,
    /// Right side.
    Right,
    /// Right backward diagonal.
    RightBackward,
    /// Backward.
    Backward,
    /// Left backward diagonal.
    LeftBackward,
    /// Left side.
    Left,
    /// Left forward diagonal.
    LeftForward,
}

impl Direction {
    /// All nine, place first then clockwise from forward.
    pub const ALL: [Direction; 9] = [
        Direction::Place,
        Direction::Forward,
        Direction::RightForward,
        Direction::Right,
        Direction::RightBackward,
        Direction::Backward,
        Direction::LeftBackward,
        Direction::Left,
        Direction::LeftForward,
    ];

    /// Azimuth in radians measured clockwise seen from above, from forward (right = +π/2);
    /// `None` for place.
    pub fn azimuth_cw_rad(self) -> Option<f32> {
        use std::f32::consts::FRAC_PI_4;
        let eighths = match self {
            Direction::Place => return None,
            Direction::Forward => 0.0,
            Direction::RightForward => 1.0,
            Direction::Right => 2.0,
            Direction::RightBackward => 3.0,
            Direction::Backward => 4.0,
            Direction::LeftBackward => -3.0,
            Direction::Left => -2.0,
            Direction::LeftForward => -1.0,
        };
        Some(eighths * FRAC_PI_4)
    }

    /// Short name for tables: `place`, `fwd`, `r-fwd`, `right`, …
    pub fn short(self) -> &'static str {
        match self {
            Direction::Place => "place",
            Direction::Forward => "fwd",
            Direction::RightForward => "r-fwd",
            Direction::Right => "right",
            Direction::RightBackward => "r-back",
            Direction::Backward => "back",
            Direction::LeftBackward => "l-back",
            Direction::Left => "left",
            Direction::LeftForward => "l-fwd",
        }
    }

    /// The same direction seen from the other side (right ↔ left).
    pub fn mirrored(self) -> Direction {
        match self {
            Direction::RightForward => Direction::LeftForward,
            Direction::Right => Direction::Left,
            Direction::RightBackward => Direction::LeftBackward,
            Direction::LeftBackward => Direction::RightBackward,
            Direction::Left => Direction::Right,
            Direction::LeftForward => Direction::RightForward,
            d => d,
        }
    }
}

/// Which side of the body a sign names or is written on.
pub use crate::side::Side;

/// Body parts that a pre-sign (or a JSON key) can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum BodyPart {
    /// Shoulder (the whole arm's base).
    Shoulder(Side),
    /// Elbow; as a column claim: the upper arm (shoulder → elbow).
    Elbow(Side),
    /// Wrist; as a column claim: the lower arm (elbow → wrist).
    Wrist(Side),
    /// Hand / fingers.
    Hand(Side),
    /// Hip (the whole leg's base).
    Hip(Side),
    /// Knee; as a column claim: the thigh.
    Knee(Side),
    /// Ankle; as a column claim: the lower leg.
    Ankle(Side),
    /// Foot.
    Foot(Side),
    /// Toes.
    Toe(Side),
    /// Palm (facing signs).
    Palm,
    /// Head.
    Head,
    /// Chest / upper torso.
    Chest,
    /// Pelvis.
    Pelvis,
    /// Whole torso.
    Torso,
    /// Whole arm.
    Arm(Side),
    /// Whole leg.
    Leg(Side),
}

/// What a graphical symbol is, decoded from its format's codes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SymbolKind {
    /// A horizontal bar line across the staves (`Bars`).
    BarLine,
    /// A vertical staff line (`Stav`); `centre` is set when the format marks the centre line.
    StaffLine {
        /// The format says this is a centre line (`.lbn`: level `L`).
        centre_hint: bool,
    },
    /// A direction sign (`Dirn`). `mirror` is the left-side form of forward/backward.
    Direction {
        /// Which way.
        direction: Direction,
        /// Left-side drawing of a symmetric sign (forward/backward come in two forms).
        left_form: bool,
    },
    /// A body-part pre-sign (`Limb`, `Area`).
    BodyPart(BodyPart),
    /// An `Area` sign whose meaning is not known precisely (kept with its item number).
    Area(i32),
    /// A flexion/extension sign (`Volm`): relaxed, straight, bent, stretched, …
    Volume(VolumeSign),
    /// A path sign: straight, circular, or a format item of unknown meaning.
    Path(PathSign),
    /// A front (facing) sign (`Face`), facing = (item−1)·45° clockwise from the audience.
    Front(u8),
    /// A miscellaneous sign (`Misc`): bows, release signs, hooks.
    Misc(i32),
    /// A pin (`Pins`), orientation 1..=8 clockwise from "points up the page".
    Pin {
        /// 1..=8.
        orientation: u8,
        /// Black (filled) pin; white when false.
        black: bool,
    },
    /// A turn sign (`Rotn`).
    Turn(TurnSign),
    /// Text or a number written on the page (`Keys`).
    Text(String),
}

/// Flexion and other `Volm` signs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum VolumeSign {
    /// Relaxed / slightly bent.
    Relaxed,
    /// Straight (back to normal length).
    Straight,
    /// Bent (contracted).
    Bent,
    /// Stretched (extended).
    Stretched,
    /// A hold sign.
    Hold,
    /// Another `Volm` item, kept as read.
    Other(i32),
}

/// Path signs (long vertical signs right of the staff: the floor pattern of the steps they span).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum PathSign {
    /// A straight path (the default; no change to the steps).
    Straight,
    /// A circular path; a pin inside gives the fraction of the circle.
    Circular {
        /// Clockwise seen from above (the centre of the circle on the dancer's right).
        clockwise: bool,
    },
    /// An item of the format's path menu whose meaning is not known (kept with its number).
    Other(i32),
}

/// Turn signs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum TurnSign {
    /// Counter-clockwise seen from above.
    Left,
    /// Clockwise seen from above.
    Right,
    /// The composite turn sign (the left and right signs drawn over each other): neither left
    /// nor right; for a limb, back to its untwisted state (labanotation-rules §5.5).
    Composite,
    /// Another rotation sign, kept with its item number.
    Other(i32),
}

/// One symbol drawn on the page. Coordinates are the format's page units with y growing
/// upward in time (the reader flips the axis if its format runs the other way).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PageSymbol {
    /// What it is.
    pub kind: SymbolKind,
    /// The format's own group and item code, for messages (`Dirn 11`).
    pub code: String,
    /// Left edge.
    pub x: f32,
    /// Bottom edge (earliest time).
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height (duration, for stretchable signs).
    pub h: f32,
    /// Level letter as written.
    pub level: Level,
    /// LED's size step as an `.lbn` line wrote it, kept for the writer; `None` for the other
    /// formats and for new symbols (the writer derives one from the height). An edit that
    /// changes the height sets it to `None`.
    pub lbn_step: Option<i32>,
    /// Where it was read.
    pub span: Span,
}

impl PageSymbol {
    /// Horizontal centre.
    pub fn x_mid(&self) -> f32 {
        self.x + self.w * 0.5
    }

    /// Top edge.
    pub fn y_top(&self) -> f32 {
        self.y + self.h
    }
}

/// The body parts the JSON keyframe formats animate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum GesturePart {
    /// Head direction.
    Head,
    /// Upper arm (shoulder → elbow), "elbow" in the JSON.
    UpperArm(Side),
    /// Lower arm (elbow → wrist), "wrist" in the JSON.
    LowerArm(Side),
}

/// One timed gesture from a keyframe document.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gesture {
    /// Body part.
    pub part: GesturePart,
    /// Start, seconds from the beginning.
    pub start_secs: f64,
    /// Duration in seconds (0 = instantaneous key).
    pub duration_secs: f64,
    /// Direction.
    pub direction: Direction,
    /// Level.
    pub level: Level,
    /// Where it was read.
    pub span: Span,
}

/// A whole-body rotation from a keyframe document.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rotation {
    /// Start, seconds.
    pub start_secs: f64,
    /// Duration, seconds.
    pub duration_secs: f64,
    /// Clockwise (seen from above) degrees; negative = counter-clockwise.
    pub degrees_cw: f64,
    /// Where it was read.
    pub span: Span,
}

/// A keyframe document (the JSON formats): timed gestures for one dancer.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Keyframes {
    /// True when a key's time is when its pose is *reached* (LabanotationSuite's
    /// `start time`); false when it is when the movement *starts* and lasts `duration_secs`
    /// (gestureBotDesignKit's `time` + `dur`).
    pub time_is_arrival: bool,
    /// Gestures in file order.
    pub gestures: Vec<Gesture>,
    /// Whole-body rotations in file order.
    pub rotations: Vec<Rotation>,
}

/// A line of a score file that is no symbol the reader decodes (a comment, an item of unknown
/// meaning), kept as written so that a writer can write it back untouched.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeptLine {
    /// How many symbols of [`Document::symbols`] came before it in the file.
    pub before_symbol: usize,
    /// The line as written, without its line ending.
    pub text: String,
}

impl KeptLine {
    /// True for a comment line (`#` first after blanks).
    pub fn is_comment(&self) -> bool {
        self.text.trim_start().starts_with('#')
    }
}

/// What a reader returns: the symbols or keyframes, plus anything it warned about.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Document {
    /// The format it was read as.
    pub format: Format,
    /// Title, if the file names one.
    pub title: Option<String>,
    /// Free comment lines from the file header.
    pub comments: Vec<String>,
    /// Graphical symbols (empty for keyframe formats).
    pub symbols: Vec<PageSymbol>,
    /// Timed keyframes (empty for graphical formats).
    pub keyframes: Keyframes,
    /// Lines kept as written for a writer of the same format (`.lbn`: comments and items of
    /// unknown meaning), in file order.
    pub kept_lines: Vec<KeptLine>,
    /// Records read but not decoded, or decoded with a guess. Never errors.
    pub warnings: Vec<Diagnostic>,
}

impl Document {
    /// An empty document of `format`.
    pub fn new(format: Format) -> Self {
        Self {
            format,
            title: None,
            comments: Vec::new(),
            symbols: Vec::new(),
            keyframes: Keyframes::default(),
            kept_lines: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Number of symbols or keyframe entries, for throughput figures.
    pub fn symbol_count(&self) -> usize {
        self.symbols.len() + self.keyframes.gestures.len() + self.keyframes.rotations.len()
    }
}
