//! Linear blend skinning on the CPU (the reference for the GPU skinning shader) and the
//! GPU-ready per-vertex influence layout: four `u16` joint indices + four `f32` weights.
//! Palette entry j = `world_from_joint[j] × joint_from_bind[j]` (inverse bind matrix).

use glam::{Mat4, Vec3};

use super::BodyError;

/// Influences kept per vertex.
pub const MAX_INFLUENCES: usize = 4;

/// Skinning influences of one vertex, laid out for a GPU vertex buffer (`#[repr(C)]`, 24
/// bytes, no padding): slot 0 holds the largest weight; unused slots have weight 0 and joint 0.
/// Weights are ≥ 0 and sum to 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VertexInfluences {
    /// Palette indices.
    pub joints: [u16; MAX_INFLUENCES],
    /// Blend weights, same order as `joints`.
    pub weights: [f32; MAX_INFLUENCES],
}

impl VertexInfluences {
    /// Builds influences from `(weight, joint)` pairs already sorted by decreasing weight:
    /// keeps the first four, drops negative or non-finite weights, renormalises to sum 1
    /// (all weight on joint of the first pair, or joint 0, if nothing positive is left).
    /// Joints above `u16::MAX` are clamped to it (callers validate beforehand).
    pub fn from_pairs(pairs: &[(f32, usize)]) -> Self {
        let mut out = Self::default();
        let mut sum = 0.0f32;
        for (slot, &(w, joint)) in
            pairs.iter().filter(|(w, _)| w.is_finite() && *w > 0.0).take(MAX_INFLUENCES).enumerate()
        {
            if let (Some(j), Some(x)) = (out.joints.get_mut(slot), out.weights.get_mut(slot)) {
                *j = u16::try_from(joint).unwrap_or(u16::MAX);
                *x = w;
                sum += w;
            }
        }
        if sum > 0.0 {
            for w in &mut out.weights {
                *w /= sum;
            }
        } else {
            out.joints[0] = pairs.first().map_or(0, |&(_, j)| u16::try_from(j).unwrap_or(u16::MAX));
            out.weights = [1.0, 0.0, 0.0, 0.0];
        }
        out
    }

    /// The joint with the largest weight.
    pub fn dominant_joint(&self) -> usize {
        usize::from(self.joints[0])
    }
}

/// The skinning palette `world_from_joint[j] × joint_from_model_at_bind[j]` (inverse bind
/// matrices given) into `palette_out` (cleared first; one entry per pair of the two slices).
pub fn palette_from_joints(world_from_joint: &[Mat4], joint_from_model_at_bind: &[Mat4], palette_out: &mut Vec<Mat4>) {
    palette_out.clear();
    palette_out.extend(world_from_joint.iter().zip(joint_from_model_at_bind).map(|(w, b)| *w * *b));
}

/// Computes the palette `world_from_joint[j] × inverse(model_from_joint_at_bind[j])` into
/// `palette_out` (cleared first). Errors when the two slices differ in length.
pub fn skinning_palette(
    world_from_joint: &[Mat4],
    model_from_joint_at_bind: &[Mat4],
    palette_out: &mut Vec<Mat4>,
) -> Result<(), BodyError> {
    if world_from_joint.len() != model_from_joint_at_bind.len() {
        return Err(BodyError::InvalidInput(format!(
            "{} joint transforms but {} bind transforms",
            world_from_joint.len(),
            model_from_joint_at_bind.len()
        )));
    }
    palette_out.clear();
    palette_out.extend(world_from_joint.iter().zip(model_from_joint_at_bind).map(|(w, b)| *w * b.inverse()));
    Ok(())
}

/// Checks influence joint indices against a palette of `palette_len` matrices.
pub fn validate_influences(influences: &[VertexInfluences], palette_len: usize) -> Result<(), BodyError> {
    match influences.iter().position(|inf| inf.joints.iter().any(|&j| usize::from(j) >= palette_len)) {
        Some(v) => {
            Err(BodyError::InvalidInput(format!("vertex {v} names a joint outside the palette of {palette_len}")))
        }
        None => Ok(()),
    }
}

/// Linear blend skinning of one frame. The blended matrix is
/// `P[j0] + Σ_{k≥1} w_k (P[j_k] − P[j0])`, which equals `Σ w_k P[j_k]` for weights summing to 1
/// and is exactly `P[j0]` where all influences share one matrix (so the rest pose with an
/// identity palette reproduces the bind mesh bit for bit). Normals use the blended 3×3 part and
/// are renormalised (left untouched if already unit length within 1e-6).
/// Outputs are cleared and refilled; errors on length mismatches, bad joint indices or a
/// non-finite palette.
pub fn skin(
    positions_in_model: &[Vec3],
    normals_in_model: &[Vec3],
    influences: &[VertexInfluences],
    palette: &[Mat4],
    positions_in_world_out: &mut Vec<Vec3>,
    normals_in_world_out: &mut Vec<Vec3>,
) -> Result<(), BodyError> {
    let n = positions_in_model.len();
    if normals_in_model.len() != n || influences.len() != n {
        return Err(BodyError::InvalidInput(format!(
            "{n} positions, {} normals, {} influences",
            normals_in_model.len(),
            influences.len()
        )));
    }
    validate_influences(influences, palette.len())?;
    if let Some(j) = palette.iter().position(|m| !m.is_finite()) {
        return Err(BodyError::InvalidInput(format!("palette matrix {j} is not finite")));
    }
    positions_in_world_out.clear();
    normals_in_world_out.clear();
    positions_in_world_out.reserve(n);
    normals_in_world_out.reserve(n);
    for ((&p, &normal), inf) in positions_in_model.iter().zip(normals_in_model).zip(influences) {
        let matrix = |slot: usize| palette.get(usize::from(inf.joints[slot])).copied().unwrap_or(Mat4::IDENTITY);
        let base = matrix(0);
        let mut blended = base;
        for slot in 1..MAX_INFLUENCES {
            let w = inf.weights[slot];
            if w != 0.0 {
                blended += (matrix(slot) - base) * w;
            }
        }
        positions_in_world_out.push(blended.transform_point3(p));
        let nn = blended.transform_vector3(normal);
        let len2 = nn.length_squared();
        normals_in_world_out.push(if (len2 - 1.0).abs() <= 1e-6 { nn } else { nn.try_normalize().unwrap_or(normal) });
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn layout_is_24_bytes_without_padding() {
        assert_eq!(std::mem::size_of::<VertexInfluences>(), 24);
        assert_eq!(std::mem::align_of::<VertexInfluences>(), 4);
    }

    #[test]
    fn from_pairs_keeps_four_and_renormalises() {
        let inf = VertexInfluences::from_pairs(&[(0.4, 3), (0.3, 1), (0.2, 2), (0.05, 7), (0.05, 9)]);
        assert_eq!(inf.joints, [3, 1, 2, 7]);
        assert!((inf.weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!((inf.weights[0] - 0.4 / 0.95).abs() < 1e-6);
        let fallback = VertexInfluences::from_pairs(&[(-1.0, 5)]);
        assert_eq!((fallback.joints[0], fallback.weights), (5, [1.0, 0.0, 0.0, 0.0]));
    }

    #[test]
    fn two_bone_blend_is_halfway_and_errors_are_reported() {
        let palette = [Mat4::IDENTITY, Mat4::from_translation(Vec3::X)];
        let inf = [VertexInfluences { joints: [0, 1, 0, 0], weights: [0.5, 0.5, 0.0, 0.0] }];
        let (mut p, mut n) = (Vec::new(), Vec::new());
        skin(&[Vec3::Y], &[Vec3::Z], &inf, &palette, &mut p, &mut n).unwrap();
        assert!((p[0] - Vec3::new(0.5, 1.0, 0.0)).length() < 1e-6);
        assert_eq!(n[0], Vec3::Z);
        assert!(skin(&[Vec3::Y], &[Vec3::Z], &inf, &palette[..1], &mut p, &mut n).is_err());
        assert!(skin(&[Vec3::Y], &[], &inf, &palette, &mut p, &mut n).is_err());
        let mut out = Vec::new();
        assert!(skinning_palette(&palette, &palette[..1], &mut out).is_err());
        skinning_palette(&palette, &palette, &mut out).unwrap();
        assert!(out.iter().all(|m| m.abs_diff_eq(Mat4::IDENTITY, 1e-6)));
    }
}
