//! Limb aims: where a limb track points at one time (direction, bend, reach and the segments'
//! directions where the score gives them apart), blended between its keys; an arm bows out to
//! the side where the direct way would cross directions the shoulder cannot take.

use super::arm_between::fold_lower_arm;
use super::blend_dirs;
use super::{ArmBows, Side};
use crate::motion::plan::{LimbTarget, Track};
use crate::motion::rules::MAX_SEGMENT_BEND_RAD;
use crate::pose::limits::JointLimits;
use glam::Vec3;

/// The reach of a limb folded at its base (a key with no direction: "place"), in its length.
const FOLDED_REACH: f32 = 0.2;

/// The upper and lower segment directions of a limb in the body frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SegmentDirs {
    /// Upper segment (thigh, upper arm).
    pub upper_in_body: Vec3,
    /// Lower segment (lower leg, forearm).
    pub lower_in_body: Vec3,
}

/// A limb's aim at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Aim {
    /// Direction in the body frame.
    pub dir_in_body: Vec3,
    /// Bend of the middle joint, radians.
    pub bend_rad: f32,
    /// Reach scale (1 = the limb's reach at its bend).
    pub reach_scale: f32,
    /// The segments' directions where the score gives them.
    pub segments_in_body: Option<SegmentDirs>,
}

/// An arm moving between two keys: the aims at the two ends of the move and the blend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ArmMove {
    /// The aim at the key the move starts from.
    pub from: Aim,
    /// The aim at the key the move ends at.
    pub to: Aim,
    /// The blend, strictly between 0 and 1.
    pub s: f32,
    /// Whether both keys give both segments (the swivel is then the keys' own, turned from one
    /// to the other).
    pub keys_give_segments: bool,
}

/// The arm parts an arm's aim needs: its side, the shoulder's limits and the compiled bows.
type ArmOf<'a> = Option<(Side, &'a JointLimits, &'a ArmBows)>;

/// The limb target of a track at `t`, blended (see [`Aim`]).
pub(super) fn limb_at(track: Option<&Track<LimbTarget>>, t: f64, rest_dir: Vec3) -> Aim {
    limb_segment_at(track, t, rest_dir, None).0
}

/// [`limb_at`] for an arm: where the direct way between two keys passes through directions the
/// shoulder cannot take (over the top from "up" to "back", across the body beyond its range),
/// the arm bows out to the side on the way instead (by the least of a few amounts that keeps it
/// in range), so the clamp to the shoulder's limits never flips from one edge of the gap to the
/// other. The bow depends only on the two keys, and is zero at both, so the path stays continuous.
/// While the arm moves between two keys, also the move (see [`ArmMove`]).
pub(super) fn arm_at(
    track: Option<&Track<LimbTarget>>,
    t: f64,
    side: Side,
    limits: &JointLimits,
    bows: &ArmBows,
) -> (Aim, Option<ArmMove>) {
    limb_segment_at(track, t, -Vec3::Y, Some((side, limits, bows)))
}

/// The aim of a limb track at `t` and, while it moves between two keys, the aims at the two ends
/// of that move and the blend `s` (strictly between 0 and 1).
fn limb_segment_at(track: Option<&Track<LimbTarget>>, t: f64, rest_dir: Vec3, arm: ArmOf) -> (Aim, Option<ArmMove>) {
    limb_move_with(track, t, rest_dir, arm, |aim, s, moves, pick| {
        (aim(s), moves.then(|| ArmMove { from: aim(0.0), to: aim(1.0), s, keys_give_segments: pick }))
    })
    .unwrap_or((Aim { dir_in_body: rest_dir, bend_rad: 0.0, reach_scale: 1.0, segments_in_body: None }, None))
}

/// While the arm of `track` moves between two keys at `t`: its aim at blend `at` (its own blend
/// at `t` when `None`), as [`arm_at`] finds it and its ends. (One aim instead of three, for the
/// steps of a whole move.)
pub(super) fn arm_move_aim(
    track: &Track<LimbTarget>,
    t: f64,
    side: Side,
    limits: &JointLimits,
    bows: &ArmBows,
    at: Option<f32>,
) -> Option<Aim> {
    limb_move_with(Some(track), t, -Vec3::Y, Some((side, limits, bows)), |aim, s, moves, _| {
        moves.then(|| aim(at.unwrap_or(s)))
    })
    .flatten()
}

/// A key's segments when they are not in line (in line is a straight limb: a whole-limb key).
fn segs_of(k: &LimbTarget) -> Option<(Vec3, Vec3)> {
    k.upper_dir_in_body.zip(k.lower_dir_in_body).filter(|(u, l)| u.angle_between(*l) > 1f32.to_radians())
}

/// `f(aim, s, moves, pick)` for the move of `track` at `t` (see [`limb_segment_at`]): `aim(s)`
/// the aim at blend `s`, `s` the blend at `t`, `moves` whether the limb moves between two
/// different keys there, `pick` whether both keys give both segments. `None` without a track
/// or key.
fn limb_move_with<R>(
    track: Option<&Track<LimbTarget>>,
    t: f64,
    rest_dir: Vec3,
    arm: ArmOf,
    f: impl FnOnce(&dyn Fn(f32) -> Aim, f32, bool, bool) -> R,
) -> Option<R> {
    let track = track?;
    let (from, to, s) = track.segment_at(t)?;
    // A key without a direction (the extremity at its base: "place" for an arm) keeps the
    // direction the limb had before it, so the folded limb neither starts nor leaves from some
    // other direction.
    let dir_of = |v: Vec3, held: Vec3| if v.length_squared() < 1e-12 { held } else { v };
    let idx = track.keys.partition_point(|k| k.t_end_secs <= t).min(track.keys.len());
    // The `from` key is the one before `idx` (the last one past the end).
    let held = track.keys[..idx.saturating_sub(1)]
        .iter()
        .rev()
        .map(|k| k.value.dir_in_body)
        .find(|d| d.length_squared() >= 1e-12)
        .unwrap_or(rest_dir);
    let from_dir = dir_of(from.dir_in_body, held);
    let to_dir = dir_of(to.dir_in_body, from_dir);
    let moving = s > 0.0 && s < 1.0;
    let bow = if moving {
        arm.map_or(0.0, |(side, limits, bows)| bows.bow(idx, from_dir, to_dir, side, limits))
    } else {
        0.0
    };
    let ends = MoveEnds { from: &from, to: &to, from_dir, to_dir, bow, arm_side: arm.map(|(side, _, _)| side) };
    let aim = |s: f32| ends.aim(s);
    // Where the score gives both segments of the arm at both ends of a move (the elbow placed by
    // the notation, which the swivel search of the blended goal would flip from side to side),
    // the swivel is the keys' own, turned from one to the other (see `solve_arm_between`).
    // Elsewhere the ends come with `false`: the caller turns the swivel along the move's compiled
    // swivel path where there is one (see `swivel_path`).
    let pick = segs_of(&from).is_some() && segs_of(&to).is_some();
    Some(f(&aim, s, moving && from != to, pick))
}

/// The two keys of a limb's move, with the directions it moves between.
struct MoveEnds<'a> {
    from: &'a LimbTarget,
    to: &'a LimbTarget,
    from_dir: Vec3,
    to_dir: Vec3,
    /// How far an arm bows out to the side on the way, 0 for none.
    bow: f32,
    /// The arm's side (`None` for other limbs).
    arm_side: Option<Side>,
}

impl MoveEnds<'_> {
    /// The aim at blend `s`.
    fn aim(&self, s: f32) -> Aim {
        let (from, to, from_dir, to_dir) = (self.from, self.to, self.from_dir, self.to_dir);
        let folded = |v: Vec3| if v.length_squared() < 1e-12 { FOLDED_REACH } else { 1.0 };
        let (mut dir, central) = blend_dirs(from_dir, to_dir, s);
        if let Some(side) = self.arm_side
            && self.bow > 0.0
            && s > 0.0
            && s < 1.0
        {
            let outward = Vec3::new(if side == Side::Left { -1.0 } else { 1.0 }, 0.0, 0.0);
            dir = (dir + outward * self.bow * (std::f32::consts::PI * s).sin()).normalize_or(dir);
        }
        let reach = central * (folded(from.dir_in_body) + (folded(to.dir_in_body) - folded(from.dir_in_body)) * s);
        let bend = from.bend_rad + (to.bend_rad - from.bend_rad) * s;
        // Segments given on one side only: the other side is the limb straight along its direction
        // (so the elbow starts from where the arm was, not from the next key's elbow).
        let segs = match (segs_of(from), segs_of(to)) {
            (None, None) => None,
            (a, b) => {
                let (fu, fl) = a.unwrap_or((from_dir, from_dir));
                let (u, l) = b.unwrap_or((to_dir, to_dir));
                let u_now = blend_dirs(fu, u, s).0;
                // Never folded past the segments' limit (the forearm passes in front, an arm's
                // round the outside of the upper arm).
                let l_blend = blend_dirs(fl, l, s).0;
                let l_now = match self.arm_side {
                    Some(side) => fold_lower_arm(u_now, l_blend, MAX_SEGMENT_BEND_RAD, side),
                    None => crate::motion::rules::limit_bend(u_now, l_blend, MAX_SEGMENT_BEND_RAD),
                };
                Some(SegmentDirs { upper_in_body: u_now, lower_in_body: l_now })
            }
        };
        Aim { dir_in_body: dir, bend_rad: bend, reach_scale: reach, segments_in_body: segs }
    }
}
