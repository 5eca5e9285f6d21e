// Lines (trails, facing arrows): 1-pixel line list with per-vertex colour, depth-tested, lifted
// 3 mm so lines lying on the floor stay visible.

// Per-frame values shared by every pipeline (keep identical in all shaders: a test checks).
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

struct LineIn {
    @location(0) position_in_world: vec3<f32>,
    @location(1) colour: vec4<f32>,
};

struct LineOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) colour: vec4<f32>,
};

const LINE_LIFT_M: f32 = 0.003;

@vertex
fn vs_main(in: LineIn) -> LineOut {
    var out: LineOut;
    out.clip_position = globals.clip_from_world * vec4<f32>(in.position_in_world + vec3<f32>(0.0, LINE_LIFT_M, 0.0), 1.0);
    out.colour = in.colour;
    return out;
}

@fragment
fn fs_main(in: LineOut) -> @location(0) vec4<f32> {
    return vec4<f32>(encode_output(in.colour.rgb), clamp(in.colour.a, 0.0, 1.0));
}
