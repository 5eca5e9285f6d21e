// Floor marks: footprints (a sole outline, mirrored for the left foot) and round spots, drawn as
// flat quads a few millimetres above the floor, shaped in the fragment shader by a distance field.

struct MarkIn {
    // Mark space -> world, by columns.
    @location(0) world_from_mark_0: vec4<f32>,
    @location(1) world_from_mark_1: vec4<f32>,
    @location(2) world_from_mark_2: vec4<f32>,
    @location(3) world_from_mark_3: vec4<f32>,
    @location(4) colour: vec4<f32>,
    // x: 0 = footprint, 1 = spot; y: +1 right foot, -1 left foot (mirrors the outline in x).
    @location(5) shape: vec4<f32>,
};

struct MarkOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) xz_in_mark: vec2<f32>,
    @location(1) colour: vec4<f32>,
    @location(2) shape: vec4<f32>,
};

const MARK_LIFT_M: f32 = 0.002;
// Half size of the quad in mark space (metres): covers a 0.26 m sole and a 0.12 m spot.
const QUAD_HALF_M: vec2<f32> = vec2<f32>(0.15, 0.15);

@vertex
fn vs_main(@builtin(vertex_index) vertex_index: u32, in: MarkIn) -> MarkOut {
    var corner_ids = array<u32, 6>(0u, 2u, 1u, 1u, 2u, 3u);
    let corner = corner_ids[vertex_index % 6u];
    let xz = vec2<f32>(f32(corner & 1u) * 2.0 - 1.0, f32(corner >> 1u) * 2.0 - 1.0) * QUAD_HALF_M;
    let world_from_mark = mat4x4<f32>(in.world_from_mark_0, in.world_from_mark_1, in.world_from_mark_2, in.world_from_mark_3);
    let position_in_world = (world_from_mark * vec4<f32>(xz.x, 0.0, xz.y, 1.0)).xyz + vec3<f32>(0.0, MARK_LIFT_M, 0.0);
    var out: MarkOut;
    out.clip_position = globals.clip_from_world * vec4<f32>(position_in_world, 1.0);
    out.xz_in_mark = xz;
    out.colour = in.colour;
    out.shape = in.shape;
    return out;
}

// Signed distance to a 2D "uneven capsule": circles (a, ra) and (b, rb) joined by tangents.
fn sd_uneven_capsule(p: vec2<f32>, a: vec2<f32>, ra: f32, b: vec2<f32>, rb: f32) -> f32 {
    let pa = p - a;
    let ba = b - a;
    let h = clamp(dot(pa, ba) / dot(ba, ba), 0.0, 1.0);
    return length(pa - ba * h) - mix(ra, rb, h);
}

// Polynomial smooth minimum (blend width k metres), to merge sole parts without creases.
fn smooth_min(a: f32, b: f32, k: f32) -> f32 {
    let h = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
    return mix(b, a, h) - k * h * (1.0 - h);
}

// Signed distance (metres) to the sole of a right foot, toes toward +z, big toe at +x: a narrow
// heel widening to the ball, a rounded toe pad leaning toward the big toe, and the arch carved
// out of the inner (+x) edge. About 0.25 m x 0.10 m.
fn sd_right_sole(p: vec2<f32>) -> f32 {
    let heel_to_ball = sd_uneven_capsule(p, vec2<f32>(-0.006, -0.092), 0.031, vec2<f32>(0.004, 0.032), 0.052);
    let toes = length(p - vec2<f32>(0.010, 0.080)) - 0.044;
    let sole = smooth_min(heel_to_ball, toes, 0.02);
    let arch = length(p - vec2<f32>(0.085, -0.030)) - 0.052;
    return max(sole, -arch);
}

@fragment
fn fs_main(in: MarkOut) -> @location(0) vec4<f32> {
    let mirrored = vec2<f32>(in.xz_in_mark.x * select(-1.0, 1.0, in.shape.y >= 0.0), in.xz_in_mark.y);
    let sole = sd_right_sole(mirrored);
    let spot = length(in.xz_in_mark) - 0.12;
    let distance_m = select(sole, spot, in.shape.x > 0.5);
    let aa_m = max(fwidth(distance_m), 1e-5);
    let inside = 1.0 - smoothstep(-aa_m, aa_m, distance_m);
    // A darker rim 8 mm wide makes overlapping prints readable.
    let rim = 1.0 - smoothstep(-aa_m, aa_m, abs(distance_m + 0.006) - 0.004);
    let rgb = mix(in.colour.rgb, in.colour.rgb * 0.45, rim);
    let alpha = in.colour.a * max(inside * 0.8, rim);
    return vec4<f32>(encode_output(rgb * light(vec3<f32>(0.0, 1.0, 0.0))), clamp(alpha, 0.0, 1.0));
}
