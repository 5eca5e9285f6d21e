//! The BVH file as written: HIERARCHY (joints, offsets, channel lists, End Sites) and MOTION (frame
//! count, frame time, one row of numbers per frame), every item with its place in the file. Tokens
//! are cut with `nom`; errors say line:column and what was expected.
//!
//! Read: one ROOT, joint names with spaces (`Bip01 L Thigh`), any channel order, 0–6 channels per
//! joint, End Sites, keywords in any case. Errors: truncated files, a row with the wrong number of
//! values, non-numbers (also `nan`/`inf`, and magnitudes over [`MAX_BVH_MAGNITUDE`]), unknown channels, a second ROOT, a zero frame time,
//! duplicate joint names. A joint's local rotation is its rotation channels composed in their
//! written order; its translation is OFFSET plus the position channels.

use nom::bytes::complete::{take_till1, take_while};
use nom::combinator::all_consuming;
use nom::number::complete::recognize_float;
use nom::{IResult, Parser};

use crate::diag::Span;

/// A BVH file could not be read: where, and what was expected there.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}:{}: {message}", span.line, span.col)]
pub struct BvhError {
    /// Where in the file.
    pub span: Span,
    /// What was found and what was expected.
    pub message: String,
}

/// One of the six BVH channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Channel {
    /// `Xposition`, file units.
    XPosition,
    /// `Yposition`.
    YPosition,
    /// `Zposition`.
    ZPosition,
    /// `Xrotation`, degrees.
    XRotation,
    /// `Yrotation`.
    YRotation,
    /// `Zrotation`.
    ZRotation,
}

impl Channel {
    /// The channel named `name` (case-insensitive), if any.
    pub fn from_name(name: &str) -> Option<Channel> {
        Some(match name.to_ascii_lowercase().as_str() {
            "xposition" => Channel::XPosition,
            "yposition" => Channel::YPosition,
            "zposition" => Channel::ZPosition,
            "xrotation" => Channel::XRotation,
            "yrotation" => Channel::YRotation,
            "zrotation" => Channel::ZRotation,
            _ => return None,
        })
    }

    /// 0, 1, 2 for the X, Y, Z axis.
    pub fn axis(self) -> usize {
        match self {
            Channel::XPosition | Channel::XRotation => 0,
            Channel::YPosition | Channel::YRotation => 1,
            Channel::ZPosition | Channel::ZRotation => 2,
        }
    }

    /// True for the three rotation channels.
    pub fn is_rotation(self) -> bool {
        matches!(self, Channel::XRotation | Channel::YRotation | Channel::ZRotation)
    }
}

/// One `ROOT` or `JOINT` block as written.
#[derive(Clone, Debug, PartialEq)]
pub struct RawJoint {
    /// The name (the rest of the line after `ROOT`/`JOINT`; may contain spaces).
    pub name: String,
    /// Where the name is.
    pub span: Span,
    /// Index of the parent joint in [`RawBvh::joints`]; `None` for the root.
    pub parent: Option<usize>,
    /// `OFFSET x y z`, file units.
    pub offset: [f64; 3],
    /// `CHANNELS n …` in the written order.
    pub channels: Vec<Channel>,
    /// `End Site { OFFSET x y z }` inside this joint, if any.
    pub end_site: Option<[f64; 3]>,
}

/// A whole BVH file as written.
#[derive(Clone, Debug, PartialEq)]
pub struct RawBvh {
    /// Joints depth-first, parents before children.
    pub joints: Vec<RawJoint>,
    /// `Frames: n`.
    pub frames_declared: usize,
    /// `Frame Time: t`, seconds.
    pub frame_secs: f64,
    /// Where the frame time is.
    pub frame_time_span: Span,
    /// Every frame's values in channel order, `frames × channel count` numbers.
    pub values: Vec<f64>,
    /// Where each frame row starts.
    pub row_spans: Vec<Span>,
    /// Well-formed rows after the declared frames, left out.
    pub extra_rows: usize,
}

impl RawBvh {
    /// Sum of the joints' channel counts: the numbers in one frame row.
    pub fn channel_count(&self) -> usize {
        self.joints.iter().map(|j| j.channels.len()).sum()
    }
}

/// A whitespace-separated token and where it is.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    offset: usize,
    line: usize,
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\u{feff}'
}

/// One token: blanks, then a run of non-blank characters.
fn token(input: &str) -> IResult<&str, (&str, &str)> {
    let (rest, blanks) = take_while(is_blank).parse(input)?;
    let (rest, text) = take_till1(is_blank).parse(rest)?;
    Ok((rest, (blanks, text)))
}

/// Splits the text into tokens with byte offsets and 0-based line numbers (LF, CRLF or CR).
fn tokenize(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut line_start = 0usize;
    for (line_no, line) in text.split('\n').enumerate() {
        let mut rest = line;
        while let Ok((after, (blanks, word))) = token(rest) {
            let at = line_start + (line.len() - rest.len()) + blanks.len();
            // A lone CR (old Mac ending) inside a line splits it as well: rare, treated as blank.
            for (i, part) in word.split('\r').enumerate() {
                if !part.is_empty() {
                    let offset = at + word.split('\r').take(i).map(|p| p.len() + 1).sum::<usize>();
                    out.push(Token { text: part, offset, line: line_no });
                }
            }
            rest = after;
        }
        line_start += line.len() + 1;
    }
    out
}

/// The largest magnitude a BVH number may have: a kilometre in millimetres, or ten thousand
/// turns in degrees, is far beyond any capture, and a larger value would overflow the `f32` the
/// poses are computed in.
pub const MAX_BVH_MAGNITUDE: f64 = 1.0e7;

/// A finite number of at most [`MAX_BVH_MAGNITUDE`] written as a whole token (`1`, `-0.5`,
/// `.0083`, `1e-3`).
fn number(text: &str) -> Option<f64> {
    let parsed: IResult<&str, &str> = all_consuming(recognize_float).parse(text);
    let (_, digits) = parsed.ok()?;
    digits.parse::<f64>().ok().filter(|v| v.is_finite() && v.abs() <= MAX_BVH_MAGNITUDE)
}

struct Cursor<'a> {
    bytes: &'a [u8],
    tokens: Vec<Token<'a>>,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn span_of(&self, offset: usize) -> Span {
        Span::of_offset(self.bytes, offset)
    }

    fn peek(&self) -> Option<Token<'a>> {
        self.tokens.get(self.at).copied()
    }

    /// Where the next token is, or the end of the file.
    fn here(&self) -> Span {
        self.span_of(self.peek().map_or(self.bytes.len(), |t| t.offset))
    }

    fn error(&self, expected: &str) -> BvhError {
        let message = match self.peek() {
            Some(t) => format!("expected {expected}, found `{}`", t.text),
            None => format!("expected {expected}, found the end of the file (is it truncated?)"),
        };
        BvhError { span: self.here(), message }
    }

    fn next(&mut self) -> Option<Token<'a>> {
        let t = self.peek();
        self.at += usize::from(t.is_some());
        t
    }

    fn keyword(&mut self, word: &str) -> Result<Token<'a>, BvhError> {
        match self.peek() {
            Some(t) if t.text.eq_ignore_ascii_case(word) => {
                self.at += 1;
                Ok(t)
            }
            _ => Err(self.error(&format!("`{word}`"))),
        }
    }

    fn is(&self, word: &str) -> bool {
        self.peek().is_some_and(|t| t.text.eq_ignore_ascii_case(word))
    }

    fn number(&mut self, what: &str) -> Result<f64, BvhError> {
        match self.peek().and_then(|t| number(t.text)) {
            Some(v) => {
                self.at += 1;
                Ok(v)
            }
            None => Err(self.error(what)),
        }
    }

    fn vec3(&mut self) -> Result<[f64; 3], BvhError> {
        Ok([self.number("the offset's x")?, self.number("the offset's y")?, self.number("the offset's z")?])
    }
}

/// Reads a BVH file. Any channel order and 0–6 channels per joint; names may contain spaces;
/// keywords are matched case-insensitively. Errors carry line:column and what was expected.
pub fn parse_bvh(bytes: &[u8]) -> Result<RawBvh, BvhError> {
    let text = std::str::from_utf8(bytes).map_err(|e| BvhError {
        span: Span::of_offset(bytes, e.valid_up_to()),
        message: "the file is not UTF-8 text (a BVH file is plain text)".into(),
    })?;
    let mut c = Cursor { bytes, tokens: tokenize(text), at: 0 };
    c.keyword("HIERARCHY")?;
    let mut joints = Vec::new();
    if !c.is("ROOT") {
        return Err(c.error("`ROOT` (the first joint)"));
    }
    joint(&mut c, None, &mut joints)?;
    if c.is("ROOT") {
        return Err(BvhError {
            span: c.here(),
            message: "a second ROOT: only one skeleton per file is supported".into(),
        });
    }
    c.keyword("MOTION").map_err(|_| c.error("`MOTION` after the last joint's `}`"))?;
    c.keyword("Frames:")?;
    let frames_at = c.here();
    let frames = c.number("the number of frames")?;
    if frames < 0.0 || frames.fract() != 0.0 || frames > 1e8 {
        return Err(BvhError {
            span: frames_at,
            message: format!("`Frames: {frames}` is not a whole number of frames"),
        });
    }
    c.keyword("Frame")?;
    c.keyword("Time:")?;
    let frame_time_span = c.here();
    let frame_secs = c.number("the frame time in seconds")?;
    let per_frame: usize = joints.iter().map(|j: &RawJoint| j.channels.len()).sum();
    let frames_declared = frames as usize;
    let mut values = Vec::with_capacity(frames_declared.min(1 << 20) * per_frame);
    let mut row_spans = Vec::with_capacity(frames_declared.min(1 << 20));
    while let Some(first) = c.peek() {
        let row_span = c.span_of(first.offset);
        let line = first.line;
        let mut count = 0usize;
        while let Some(t) = c.peek().filter(|t| t.line == line) {
            let Some(v) = number(t.text) else {
                return Err(BvhError {
                    span: c.span_of(t.offset),
                    message: format!(
                        "frame {}: `{}` is not a finite number within ±{MAX_BVH_MAGNITUDE:e} (expected {per_frame} numbers per frame)",
                        row_spans.len() + 1,
                        t.text
                    ),
                });
            };
            values.push(v);
            count += 1;
            c.at += 1;
        }
        if count != per_frame {
            return Err(BvhError {
                span: row_span,
                message: format!(
                    "frame {} has {count} numbers; the HIERARCHY declares {per_frame} channels",
                    row_spans.len() + 1
                ),
            });
        }
        row_spans.push(row_span);
    }
    if row_spans.len() < frames_declared {
        let message =
            format!("`Frames: {frames_declared}` but the file ends after {} frame rows (truncated?)", row_spans.len());
        return Err(BvhError { span: c.span_of(bytes.len()), message });
    }
    // More rows than declared (seen in real files: one extra): the declared frames are kept.
    let extra_rows = row_spans.len() - frames_declared;
    values.truncate(frames_declared * per_frame);
    row_spans.truncate(frames_declared);
    Ok(RawBvh { joints, frames_declared, frame_secs, frame_time_span, values, row_spans, extra_rows })
}

/// `ROOT|JOINT name { OFFSET … CHANNELS … (JOINT … | End Site { OFFSET … })* }`.
fn joint(c: &mut Cursor<'_>, parent: Option<usize>, joints: &mut Vec<RawJoint>) -> Result<(), BvhError> {
    let head = c.next().ok_or_else(|| c.error("`JOINT`"))?;
    let Some(first) = c.peek().filter(|t| t.line == head.line && t.text != "{") else {
        return Err(BvhError {
            span: c.span_of(head.offset + head.text.len()),
            message: format!("expected a joint name after `{}`", head.text),
        });
    };
    let mut words = Vec::new();
    while let Some(t) = c.peek().filter(|t| t.line == head.line && t.text != "{") {
        words.push(t.text);
        c.at += 1;
    }
    let name = words.join(" ");
    let span = c.span_of(first.offset);
    c.keyword("{")?;
    c.keyword("OFFSET")?;
    let offset = c.vec3()?;
    let mut channels = Vec::new();
    if c.is("CHANNELS") {
        c.at += 1;
        let count_at = c.here();
        let n = c.number("the number of channels (0–6)")?;
        if !(0.0..=6.0).contains(&n) || n.fract() != 0.0 {
            return Err(BvhError { span: count_at, message: format!("`CHANNELS {n}`: a joint has 0 to 6 channels") });
        }
        for _ in 0..n as usize {
            let at = c.here();
            let ch = c.peek().and_then(|t| Channel::from_name(t.text)).ok_or_else(|| {
                c.error(&format!("a channel name (Xposition … Zrotation); `CHANNELS {n}` declares {n}"))
            })?;
            if channels.contains(&ch) {
                return Err(BvhError { span: at, message: format!("channel {ch:?} is listed twice for `{name}`") });
            }
            channels.push(ch);
            c.at += 1;
        }
    } else if parent.is_none() {
        return Err(c.error("`CHANNELS` (the root needs its channels)"));
    }
    let index = joints.len();
    joints.push(RawJoint { name, span, parent, offset, channels, end_site: None });
    loop {
        if c.is("}") {
            c.at += 1;
            return Ok(());
        }
        if c.is("JOINT") {
            joint(c, Some(index), joints)?;
        } else if c.is("End") {
            c.at += 1;
            c.keyword("Site")?;
            c.keyword("{")?;
            c.keyword("OFFSET")?;
            let site = c.vec3()?;
            c.keyword("}")?;
            if let Some(j) = joints.get_mut(index) {
                j.end_site = Some(site);
            }
        } else {
            return Err(c.error("`JOINT`, `End Site` or `}`"));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    const SMALL: &str = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n  JOINT Bip01 L Thigh\n  {\n    OFFSET 1 -2 .5\n    CHANNELS 3 Xrotation Zrotation Yrotation\n    End Site\n    {\n      OFFSET 0 -3 0\n    }\n  }\n}\nMOTION\nFrames: 2\nFrame Time: .0083333\n0 1 2 3 4 5 6 7 8\r\n1 1 2 3 4 5 6 7 -8e-1\n";

    #[test]
    fn reads_names_with_spaces_any_channel_order_and_crlf() {
        let raw = parse_bvh(SMALL.as_bytes()).unwrap();
        assert_eq!(raw.joints.len(), 2);
        assert_eq!(raw.joints[1].name, "Bip01 L Thigh");
        assert_eq!(raw.joints[1].parent, Some(0));
        assert_eq!(raw.joints[1].channels, vec![Channel::XRotation, Channel::ZRotation, Channel::YRotation]);
        assert_eq!(raw.joints[1].offset, [1.0, -2.0, 0.5]);
        assert_eq!(raw.joints[1].end_site, Some([0.0, -3.0, 0.0]));
        assert_eq!(raw.frames_declared, 2);
        assert!((raw.frame_secs - 0.0083333).abs() < 1e-12);
        assert_eq!(raw.values.len(), 18);
        assert_eq!(raw.values[17], -0.8);
        assert_eq!(raw.row_spans[1].line, 20);
    }

    #[test]
    fn errors_point_at_the_place_and_say_what_was_expected() {
        let cases = [
            (SMALL.replace("OFFSET 1 -2 .5", "OFFSET 1 x .5"), (8, 14), "the offset's y"),
            (SMALL.replace("3 4 5 6 7 -8e-1", "3 4 5 6 -8e-1"), (20, 1), "frame 2 has 8 numbers"),
            (SMALL.replace("6 7 8\r", "6 7 nan\r"), (19, 17), "not a finite number"),
            (SMALL.replace("Frames: 2", "Frames: 3"), (21, 1), "truncated"),
            (SMALL.replace("Zrotation Yrotation", "Zrotation Yrot"), (5, 54), "a channel name"),
            (SMALL[..60].to_string(), (5, 24), "end of the file"),
            (SMALL.replace("MOTION", "MOTON"), (16, 1), "`MOTION`"),
        ];
        for (text, (line, col), needle) in cases {
            let e = parse_bvh(text.as_bytes()).unwrap_err();
            assert_eq!((e.span.line, e.span.col), (line, col), "{e}");
            assert!(e.message.contains(needle), "{e}");
        }
    }
}
