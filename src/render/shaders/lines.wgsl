// Lines (trails, facing arrows): 1-pixel line list with per-vertex colour, depth-tested, lifted
// 3 mm so lines lying on the floor stay visible.

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
