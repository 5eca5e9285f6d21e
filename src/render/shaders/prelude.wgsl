// Shared by every shader: prepended to each one when the pipelines are built (see
// src/render/pipelines.rs), so the Globals block and the lighting helpers exist once.

// Per-frame values shared by every pipeline; matches `GlobalsUniform` in gpu_data.rs.
struct Globals {
    clip_from_world: mat4x4<f32>,
    // xyz: camera position in world metres.
    eye_in_world: vec4<f32>,
    // xyz: unit vector toward the sun, world space.
    sun_dir_in_world: vec4<f32>,
    sun_colour: vec4<f32>,
    sky_colour: vec4<f32>,
    ground_colour: vec4<f32>,
    floor_colour: vec4<f32>,
    audience_colour: vec4<f32>,
    // x: half width (m), y: half depth (m), z: grid spacing (m), w: audience band depth (m).
    stage: vec4<f32>,
    // x: 1 when the target is not an sRGB format and the shader must encode sRGB itself.
    output: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
// end Globals

fn linear_to_srgb(linear: vec3<f32>) -> vec3<f32> {
    let c = clamp(linear, vec3<f32>(0.0), vec3<f32>(1.0));
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}

// Linear colour -> what the target expects.
fn encode_output(linear: vec3<f32>) -> vec3<f32> {
    if globals.output.x > 0.5 {
        return linear_to_srgb(linear);
    }
    return linear;
}

// Hemisphere ambient plus one directional light, for a unit normal in world space.
fn light(normal_in_world: vec3<f32>) -> vec3<f32> {
    let hemisphere = mix(globals.ground_colour.rgb, globals.sky_colour.rgb, normal_in_world.y * 0.5 + 0.5);
    let sun = globals.sun_colour.rgb * max(dot(normal_in_world, globals.sun_dir_in_world.xyz), 0.0);
    return hemisphere + sun;
}

