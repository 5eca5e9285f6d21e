//! The outward bow an arm takes between two keys when the direct way would leave the
//! shoulder's range.

use super::{blend_dirs, local_from_body};
use crate::motion::plan::{LimbTarget, Track};
use crate::pose::limits::JointLimits;
use crate::pose::skeleton::Side;
use glam::{Quat, Vec3};

/// The bows of one arm's moves, found once in `compile` (the bow depends only on the two keys):
/// per key of the arm's track, the directions of the move that ends there and its bow. A move
/// whose directions or limits differ from the table's (another skeleton, a changed plan) is
/// computed afresh, so the answer is always that of [`arm_bow`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArmBows {
    limits: Option<(Side, JointLimits)>,
    moves: Vec<(Vec3, Vec3, f32)>,
}

impl ArmBows {
    /// The table of the arm on `side` with shoulder `limits`, for `track` (keys in the order
    /// [`super::limb_segment_at`] walks them: the move towards key `i` starts at key `i - 1`).
    pub fn new(track: Option<&Track<LimbTarget>>, side: Side, limits: &JointLimits) -> Self {
        let Some(track) = track else { return Self::default() };
        let keys = &track.keys;
        let dir_of = |v: Vec3, held: Vec3| if v.length_squared() < 1e-12 { held } else { v };
        let mut found = std::collections::BTreeMap::new();
        let moves = (0..keys.len())
            .map(|idx| {
                // As `Track::segment_at`: the last of the keys reached together is moved towards.
                let to = keys[idx..].iter().take_while(|k| k.t_end_secs == keys[idx].t_end_secs).last();
                let to = to.map_or(keys[idx].value, |k| k.value);
                let from = keys[idx.saturating_sub(1)].value;
                let held = keys[..idx.saturating_sub(1)]
                    .iter()
                    .rev()
                    .map(|k| k.value.dir_in_body)
                    .find(|d| d.length_squared() >= 1e-12)
                    .unwrap_or(-Vec3::Y);
                let from_dir = dir_of(from.dir_in_body, held);
                let to_dir = dir_of(to.dir_in_body, from_dir);
                // A score repeats its moves: each pair of directions is searched once.
                let bow = *found
                    .entry((bits(from_dir), bits(to_dir)))
                    .or_insert_with(|| arm_bow(from_dir, to_dir, side, limits));
                (from_dir, to_dir, bow)
            })
            .collect();
        Self { limits: Some((side, *limits)), moves }
    }

    /// [`arm_bow`] of the move from `a` to `b` towards key `idx`, from the table where it holds
    /// that move.
    pub(super) fn bow(&self, idx: usize, a: Vec3, b: Vec3, side: Side, limits: &JointLimits) -> f32 {
        let same = |x: Vec3, y: Vec3| bits(x) == bits(y);
        match self.moves.get(idx) {
            Some(&(ta, tb, bow)) if same(ta, a) && same(tb, b) && self.limits == Some((side, *limits)) => bow,
            _ => arm_bow(a, b, side, limits),
        }
    }
}

/// How far the shoulder would be outside `limits` with the arm pointing along `dir_in_body`
/// (the swing from hanging, in the skeleton's local axes; mirrored limits for the right arm).
fn shoulder_violation(dir_in_body: Vec3, limits: &crate::pose::limits::JointLimits) -> f32 {
    let d = local_from_body(dir_in_body).normalize_or_zero();
    if d == Vec3::ZERO {
        return 0.0;
    }
    limits.violation_rad(Quat::from_rotation_arc(Vec3::NEG_Y, d))
}

/// The bits of a vector's components (a key for exact comparison).
fn bits(v: Vec3) -> [u32; 3] {
    v.to_array().map(f32::to_bits)
}

/// The outward bow (as a multiple of the body-frame outward direction, at mid-way) that keeps
/// the way from `a` to `b` inside the shoulder's limits; 0 when the direct way already is.
pub(super) fn arm_bow(a: Vec3, b: Vec3, side: Side, limits: &crate::pose::limits::JointLimits) -> f32 {
    let outward = Vec3::new(if side == Side::Left { -1.0 } else { 1.0 }, 0.0, 0.0);
    let worst = |k: f32| {
        (1..8)
            .map(|i| {
                let s = i as f32 / 8.0;
                let d = blend_dirs(a, b, s).0 + outward * k * (std::f32::consts::PI * s).sin();
                shoulder_violation(d, limits)
            })
            .fold(0.0f32, f32::max)
    };
    if worst(0.0) <= 1e-3 {
        return 0.0;
    }
    let mut best = (0.0f32, f32::INFINITY);
    for k in ARM_BOWS {
        let w = worst(k);
        if w <= 1e-3 {
            return k;
        }
        if w < best.1 {
            best = (k, w);
        }
    }
    best.0
}

/// The outward bows [`arm_bow`] tries, smallest first.
const ARM_BOWS: [f32; 4] = [0.5, 1.0, 1.5, 2.5];
