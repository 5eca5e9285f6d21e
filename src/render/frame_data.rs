//! Pure CPU packing of a [`Scene`]'s parts into the GPU layouts of `gpu_data` (no wgpu calls):
//! globals with the fixed lighting rig, contact shadows, floor marks and line segments. Bad
//! numbers (NaN, negative sizes) are dropped or replaced here so they never reach a shader.

use crate::render::gpu_data::{GlobalsUniform, LineVertex, MarkInstance, ShadowInstance};
use crate::side::Side;
use crate::stage::camera::OrbitCamera;
use crate::stage::scene::{ContactShadow, FloorMark, FloorMarkKind, Lighting, Polyline, Stage};

/// Height (m) at which a contact shadow has faded out completely.
pub(crate) const SHADOW_FADE_HEIGHT_M: f32 = 1.5;

/// Per-frame globals for `camera` looking at a target of `aspect_ratio` (width / height).
/// `srgb_target` = the colour format encodes sRGB itself; otherwise the shaders do it.
pub(crate) fn globals_uniform(
    camera: &OrbitCamera,
    aspect_ratio: f32,
    stage: &Stage,
    lighting: &Lighting,
    srgb_target: bool,
) -> GlobalsUniform {
    let rgb = |c: [f32; 3]| [c[0], c[1], c[2], 1.0];
    let lighting = sanitised_lighting(lighting);
    GlobalsUniform {
        clip_from_world: camera.clip_from_world(aspect_ratio).to_cols_array_2d(),
        eye_in_world: camera.eye_in_world().extend(1.0).to_array(),
        sun_dir_in_world: lighting.sun_dir_in_world.normalize().extend(0.0).to_array(),
        sun_colour: rgb(lighting.sun_colour),
        sky_colour: rgb(lighting.sky_colour),
        ground_colour: rgb(lighting.ground_colour),
        floor_colour: rgb(stage.floor_colour),
        audience_colour: rgb(stage.audience_colour),
        stage: [stage.half_width_m, stage.half_depth_m, stage.grid_spacing_m, stage.audience_band_m],
        output: [if srgb_target { 0.0 } else { 1.0 }, 0.0, 0.0, 0.0],
    }
}

/// The lighting with a non-finite or zero direction and non-finite or negative colours replaced
/// by the defaults' (colours may exceed 1: a bright key light).
pub(crate) fn sanitised_lighting(lighting: &Lighting) -> Lighting {
    let default = Lighting::default();
    let colour_or = |c: [f32; 3], fallback: [f32; 3]| {
        if c.iter().all(|v| v.is_finite() && *v >= 0.0) { c.map(|v| v.min(8.0)) } else { fallback }
    };
    let dir = lighting.sun_dir_in_world;
    Lighting {
        sun_dir_in_world: if dir.is_finite() && dir.length_squared() > 1e-12 { dir } else { default.sun_dir_in_world },
        sun_colour: colour_or(lighting.sun_colour, default.sun_colour),
        sky_colour: colour_or(lighting.sky_colour, default.sky_colour),
        ground_colour: colour_or(lighting.ground_colour, default.ground_colour),
    }
}

/// Instances in draw order: stably sorted by mesh, and per mesh its range of instances (one
/// draw each). `mesh_of` gives each record's mesh index.
pub(crate) fn draws_by_mesh<T: Copy>(records: &[(usize, T)], sorted: &mut Vec<T>, draws: &mut Vec<(usize, u32, u32)>) {
    sorted.clear();
    draws.clear();
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.sort_by_key(|&k| records[k].0);
    for k in order {
        let (mesh, record) = records[k];
        let at = sorted.len() as u32;
        match draws.last_mut() {
            Some((m, _, end)) if *m == mesh => *end = at + 1,
            _ => draws.push((mesh, at, at + 1)),
        }
        sorted.push(record);
    }
}

/// The stage with non-finite or non-positive sizes and non-finite colours replaced by the
/// defaults, colours clamped to [0, 1] and the audience band to at most the stage depth.
pub(crate) fn sanitised_stage(stage: &Stage) -> Stage {
    let default = Stage::default();
    let positive_or = |value: f32, fallback: f32| {
        if value.is_finite() && value > 0.0 { value } else { fallback }
    };
    let colour_or = |c: [f32; 3], fallback: [f32; 3]| {
        if c.iter().all(|v| v.is_finite()) { c.map(|v| v.clamp(0.0, 1.0)) } else { fallback }
    };
    let half_depth_m = positive_or(stage.half_depth_m, default.half_depth_m);
    Stage {
        half_width_m: positive_or(stage.half_width_m, default.half_width_m),
        half_depth_m,
        grid_spacing_m: positive_or(stage.grid_spacing_m, default.grid_spacing_m),
        audience_band_m: if stage.audience_band_m.is_finite() {
            stage.audience_band_m.clamp(0.0, 2.0 * half_depth_m)
        } else {
            default.audience_band_m
        },
        floor_colour: colour_or(stage.floor_colour, default.floor_colour),
        audience_colour: colour_or(stage.audience_colour, default.audience_colour),
        background_colour: colour_or(stage.background_colour, default.background_colour),
    }
}

/// One instance per usable shadow: finite centre, positive finite radius and a non-zero
/// opacity after fading linearly with height (gone at [`SHADOW_FADE_HEIGHT_M`]).
pub(crate) fn shadow_instances(shadows: &[ContactShadow]) -> Vec<ShadowInstance> {
    shadows
        .iter()
        .filter_map(|shadow| {
            let centre = shadow.centre_in_world;
            let fade = (1.0 - centre.y.max(0.0) / SHADOW_FADE_HEIGHT_M).clamp(0.0, 1.0);
            let opacity = if shadow.opacity.is_finite() { shadow.opacity.clamp(0.0, 1.0) } else { 0.0 };
            let opacity = opacity * fade;
            let usable = centre.is_finite() && shadow.radius_m.is_finite() && shadow.radius_m > 0.0 && opacity > 0.0;
            usable.then_some(ShadowInstance { centre_radius_opacity: [centre.x, centre.z, shadow.radius_m, opacity] })
        })
        .collect()
}

/// One instance per floor mark with a finite transform.
pub(crate) fn mark_instances(marks: &[FloorMark]) -> Vec<MarkInstance> {
    marks
        .iter()
        .filter(|mark| mark.world_from_mark.is_finite())
        .map(|mark| {
            let shape = match mark.kind {
                FloorMarkKind::Footprint { side: Side::Right } => [0.0, 1.0, 0.0, 0.0],
                FloorMarkKind::Footprint { side: Side::Left } => [0.0, -1.0, 0.0, 0.0],
                FloorMarkKind::Spot => [1.0, 1.0, 0.0, 0.0],
            };
            MarkInstance { world_from_mark: mark.world_from_mark.to_cols_array_2d(), colour: mark.colour, shape }
        })
        .collect()
}

/// Two vertices per polyline segment (a line list); segments touching a non-finite point are
/// skipped.
pub(crate) fn line_vertices(lines: &[Polyline]) -> Vec<LineVertex> {
    let mut vertices = Vec::new();
    for line in lines {
        for pair in line.points_in_world.windows(2) {
            let [start, end] = pair else { continue };
            if start.is_finite() && end.is_finite() {
                for point in [start, end] {
                    vertices.push(LineVertex { position_in_world: point.to_array(), colour: line.colour });
                }
            }
        }
    }
    vertices
}

/// Weights scaled to sum to 1; all-zero weights become joint 0 only.
pub(crate) fn normalised_weights(weights: [f32; 4]) -> [f32; 4] {
    let sum: f32 = weights.iter().sum();
    if sum > 1e-6 { weights.map(|w| w / sum) } else { [1.0, 0.0, 0.0, 0.0] }
}

/// sRGB transfer function for one linear channel in [0, 1].
pub(crate) fn linear_to_srgb(linear: f32) -> f32 {
    let c = linear.clamp(0.0, 1.0);
    if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn instances_are_grouped_into_one_draw_per_mesh_in_a_stable_order() {
        let records = [(1, 'a'), (0, 'b'), (1, 'c'), (2, 'd'), (0, 'e')];
        let (mut sorted, mut draws) = (Vec::new(), Vec::new());
        draws_by_mesh(&records, &mut sorted, &mut draws);
        assert_eq!(sorted, vec!['b', 'e', 'a', 'c', 'd']);
        assert_eq!(draws, vec![(0, 0, 2), (1, 2, 4), (2, 4, 5)]);
        draws_by_mesh::<char>(&[], &mut sorted, &mut draws);
        assert!(sorted.is_empty() && draws.is_empty());
    }

    #[test]
    fn bad_lighting_falls_back_to_the_default() {
        let bad = Lighting {
            sun_dir_in_world: Vec3::ZERO,
            sun_colour: [f32::NAN, 0.0, 0.0],
            sky_colour: [-1.0, 0.0, 0.0],
            ground_colour: [0.2, 0.3, 0.4],
        };
        let fixed = sanitised_lighting(&bad);
        let default = Lighting::default();
        assert_eq!(fixed.sun_dir_in_world, default.sun_dir_in_world);
        assert_eq!(fixed.sun_colour, default.sun_colour);
        assert_eq!(fixed.sky_colour, default.sky_colour);
        assert_eq!(fixed.ground_colour, [0.2, 0.3, 0.4]);
    }

    #[test]
    fn weights_are_normalised_and_zero_weights_fall_back_to_joint_zero() {
        let w = normalised_weights([2.0, 1.0, 1.0, 0.0]);
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!((w[0] - 0.5).abs() < 1e-6);
        assert_eq!(normalised_weights([0.0; 4]), [1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn sanitised_stage_replaces_bad_sizes_and_colours() {
        let bad = Stage {
            half_width_m: f32::NAN,
            half_depth_m: -1.0,
            grid_spacing_m: 0.0,
            audience_band_m: 100.0,
            floor_colour: [f32::INFINITY, 0.0, 0.0],
            ..Stage::default()
        };
        let fixed = sanitised_stage(&bad);
        let default = Stage::default();
        assert_eq!(fixed.half_width_m, default.half_width_m);
        assert_eq!(fixed.half_depth_m, default.half_depth_m);
        assert_eq!(fixed.grid_spacing_m, default.grid_spacing_m);
        assert_eq!(fixed.audience_band_m, 2.0 * default.half_depth_m);
        assert_eq!(fixed.floor_colour, default.floor_colour);
    }

    #[test]
    fn shadows_fade_with_height_and_bad_ones_are_dropped() {
        let at = |y: f32, radius_m: f32, opacity: f32| ContactShadow {
            centre_in_world: Vec3::new(1.0, y, 2.0),
            radius_m,
            opacity,
        };
        let shadows = [
            at(0.0, 0.2, 0.8),
            at(0.75, 0.2, 0.8),
            at(SHADOW_FADE_HEIGHT_M + 0.1, 0.2, 0.8),
            at(0.0, f32::NAN, 0.8),
            at(0.0, -0.2, 0.8),
            at(f32::NAN, 0.2, 0.8),
            at(0.0, 0.2, f32::NAN),
        ];
        let instances = shadow_instances(&shadows);
        assert_eq!(instances.len(), 2, "only the two shadows below the fade height survive");
        assert_eq!(instances[0].centre_radius_opacity, [1.0, 2.0, 0.2, 0.8]);
        assert!((instances[1].centre_radius_opacity[3] - 0.4).abs() < 1e-6, "half height, half opacity");
    }

    #[test]
    fn polylines_become_segments_and_skip_non_finite_points() {
        let line = Polyline {
            points_in_world: vec![Vec3::ZERO, Vec3::X, Vec3::splat(f32::NAN), Vec3::Y, Vec3::Z],
            colour: [1.0; 4],
        };
        let single = Polyline { points_in_world: vec![Vec3::ONE], colour: [1.0; 4] };
        let vertices = line_vertices(&[line, single]);
        let positions: Vec<[f32; 3]> = vertices.iter().map(|v| v.position_in_world).collect();
        assert_eq!(positions, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
    }

    #[test]
    fn marks_encode_side_and_kind_and_drop_non_finite_transforms() {
        let left = FloorMark::footprint(Side::Left, Vec3::ZERO, 0.0, [1.0; 4]);
        let right = FloorMark::footprint(Side::Right, Vec3::ZERO, 0.0, [1.0; 4]);
        let mut broken = left;
        broken.world_from_mark = glam::Mat4::from_cols_array(&[f32::NAN; 16]);
        let instances = mark_instances(&[left, right, broken]);
        assert_eq!(instances.len(), 2);
        assert_eq!(instances[0].shape[1], -1.0);
        assert_eq!(instances[1].shape[1], 1.0);
    }

    #[test]
    fn srgb_transfer_matches_reference_points() {
        assert_eq!(linear_to_srgb(0.0), 0.0);
        assert!((linear_to_srgb(1.0) - 1.0).abs() < 1e-6);
        assert!((linear_to_srgb(0.214_041) - 0.5).abs() < 1e-3);
    }
}
