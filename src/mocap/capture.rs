//! The checked capture: a skeleton of named joints with rest offsets and channel layouts, and
//! its frames, with forward kinematics in the file's own units and axes. Bounds: a frame lasts
//! more than 0 and at most 10 s, and a capture at most four hours ([`MAX_SCORE_SECS`]); the frame
//! count is never more than the rows the file holds (at most 10^8 declared).

use glam::{DQuat, DVec3};

use super::raw::{BvhError, Channel, RawBvh};
use crate::score::bounds::MAX_SCORE_SECS;

/// One joint of a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct CaptureJoint {
    /// The name as written.
    pub name: String,
    /// Where the name is in the file.
    pub span: crate::diag::Span,
    /// Parent index; `None` for the root. Parents come first.
    pub parent: Option<usize>,
    /// Offset from the parent at rest (all channels zero), file units.
    pub offset: DVec3,
    /// Channels in the written order.
    pub channels: Vec<Channel>,
    /// Index of this joint's first value in a frame row.
    pub first_value: usize,
    /// End Site offset, when the joint has one.
    pub end_site: Option<DVec3>,
}

/// A BVH capture, checked: one root, unique names, a positive frame time, at least one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// Joints depth-first, parents first.
    pub joints: Vec<CaptureJoint>,
    /// Seconds between frames.
    pub frame_secs: f64,
    /// Frame rows after the `Frames:` count, left out.
    pub extra_rows: usize,
    frame_count: usize,
    values: Vec<f64>,
    per_frame: usize,
}

impl Capture {
    /// Checks a raw file: a frame time in (0, 10] s, at least one frame, joint names unique.
    pub fn from_raw(raw: RawBvh) -> Result<Capture, BvhError> {
        if !(raw.frame_secs > 0.0 && raw.frame_secs <= 10.0) {
            return Err(BvhError {
                span: raw.frame_time_span,
                message: format!("`Frame Time: {}` must be a positive number of seconds (at most 10)", raw.frame_secs),
            });
        }
        if raw.frames_declared == 0 {
            return Err(BvhError { span: raw.frame_time_span, message: "the capture has no frames".into() });
        }
        let duration_secs = (raw.frames_declared - 1) as f64 * raw.frame_secs;
        if duration_secs > MAX_SCORE_SECS {
            return Err(BvhError {
                span: raw.frame_time_span,
                message: format!(
                    "{} frames of {} s last {:.1} hours, longer than the longest capture ({} hours)",
                    raw.frames_declared,
                    raw.frame_secs,
                    duration_secs / 3600.0,
                    MAX_SCORE_SECS / 3600.0
                ),
            });
        }
        let mut names = std::collections::BTreeMap::new();
        for j in &raw.joints {
            if let Some(first) = names.insert(j.name.as_str(), j.span) {
                return Err(BvhError {
                    span: j.span,
                    message: format!("joint `{}` is named twice (first at {}:{})", j.name, first.line, first.col),
                });
            }
        }
        let per_frame = raw.channel_count();
        let mut first_value = 0usize;
        let joints = raw
            .joints
            .iter()
            .map(|j| {
                let joint = CaptureJoint {
                    name: j.name.clone(),
                    span: j.span,
                    parent: j.parent,
                    offset: DVec3::from_array(j.offset),
                    channels: j.channels.clone(),
                    first_value,
                    end_site: j.end_site.map(DVec3::from_array),
                };
                first_value += j.channels.len();
                joint
            })
            .collect();
        Ok(Capture {
            joints,
            frame_secs: raw.frame_secs,
            extra_rows: raw.extra_rows,
            frame_count: raw.frames_declared,
            values: raw.values,
            per_frame,
        })
    }

    /// Number of frames (≥ 1).
    pub fn frame_count(&self) -> usize {
        self.frame_count
    }

    /// Length in seconds: (frames − 1) × frame time.
    pub fn duration_secs(&self) -> f64 {
        (self.frame_count.saturating_sub(1)) as f64 * self.frame_secs
    }

    /// Index of the joint called `name`.
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// Local translation (offset plus any position channels) and rotation of `joint` in `frame`
    /// (clamped to the last frame). Rotations compose in the written channel order.
    pub fn local(&self, frame: usize, joint: usize) -> (DVec3, DQuat) {
        let frame = frame.min(self.frame_count.saturating_sub(1));
        let Some(j) = self.joints.get(joint) else { return (DVec3::ZERO, DQuat::IDENTITY) };
        let row = frame * self.per_frame + j.first_value;
        let mut translation = j.offset;
        let mut rotation = DQuat::IDENTITY;
        for (k, ch) in j.channels.iter().enumerate() {
            let v = self.values.get(row + k).copied().unwrap_or(0.0);
            if ch.is_rotation() {
                let angle = v.to_radians();
                let axis = [DVec3::X, DVec3::Y, DVec3::Z][ch.axis()];
                rotation *= DQuat::from_axis_angle(axis, angle);
            } else {
                translation[ch.axis()] += v;
            }
        }
        (translation, rotation)
    }

    /// World rotation and position of every joint in `frame`, file units and axes.
    pub fn world(&self, frame: usize, rot: &mut Vec<DQuat>, pos: &mut Vec<DVec3>) {
        rot.clear();
        pos.clear();
        for (i, j) in self.joints.iter().enumerate() {
            let (t, r) = self.local(frame, i);
            match j.parent.and_then(|p| Some((*rot.get(p)?, *pos.get(p)?))) {
                Some((parent_rot, parent_pos)) => {
                    pos.push(parent_pos + parent_rot * t);
                    rot.push((parent_rot * r).normalize());
                }
                None => {
                    pos.push(t);
                    rot.push(r.normalize());
                }
            }
        }
    }

    /// Rest positions (every channel zero) of every joint, file units; the root at its offset.
    pub fn rest_positions(&self) -> Vec<DVec3> {
        let mut pos: Vec<DVec3> = Vec::with_capacity(self.joints.len());
        for j in &self.joints {
            let base = j.parent.and_then(|p| pos.get(p).copied()).unwrap_or(DVec3::ZERO);
            pos.push(base + j.offset);
        }
        pos
    }

    /// True when `ancestor` is `joint` or one of its ancestors.
    pub fn is_ancestor(&self, ancestor: usize, joint: usize) -> bool {
        let mut cursor = Some(joint);
        while let Some(j) = cursor {
            if j == ancestor {
                return true;
            }
            cursor = self.joints.get(j).and_then(|x| x.parent);
        }
        false
    }
}

/// Reads and checks a BVH file.
pub fn read_capture(bytes: &[u8]) -> Result<Capture, BvhError> {
    Capture::from_raw(super::raw::parse_bvh(bytes)?)
}
