// The stage floor: one quad at y = 0 with a subtle anti-aliased grid, stronger centre lines and a
// coloured band along the audience (+Z) edge.

struct FloorOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) xz_in_world: vec2<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) vertex_index: u32) -> FloorOut {
    // Two triangles: (0,1,2) and (2,1,3) over the corners (-,-) (+,-) (-,+) (+,+).
    var corner_ids = array<u32, 6>(0u, 2u, 1u, 1u, 2u, 3u);
    let corner = corner_ids[vertex_index % 6u];
    let sign_xz = vec2<f32>(f32(corner & 1u) * 2.0 - 1.0, f32(corner >> 1u) * 2.0 - 1.0);
    let xz = sign_xz * globals.stage.xy;
    var out: FloorOut;
    out.clip_position = globals.clip_from_world * vec4<f32>(xz.x, 0.0, xz.y, 1.0);
    out.xz_in_world = xz;
    return out;
}

// 1 on a grid line of the given period, fading to 0 about one pixel away.
fn grid_line(coord: vec2<f32>, width_px: f32) -> f32 {
    let cell = abs(fract(coord - 0.5) - 0.5) / max(fwidth(coord), vec2<f32>(1e-6));
    return 1.0 - clamp(min(cell.x, cell.y) - width_px * 0.5 + 0.5, 0.0, 1.0);
}

@fragment
fn fs_main(in: FloorOut) -> @location(0) vec4<f32> {
    let spacing_m = max(globals.stage.z, 0.01);
    let grid = grid_line(in.xz_in_world / spacing_m, 1.0);
    // Centre lines (x = 0 and z = 0): distance in pixels to either axis.
    let axis_px = abs(in.xz_in_world) / max(fwidth(in.xz_in_world), vec2<f32>(1e-6));
    let centre = 1.0 - clamp(min(axis_px.x, axis_px.y) - 0.5, 0.0, 1.0);
    // Audience band: the last audience_band metres before the +Z edge.
    let band_start_m = globals.stage.y - globals.stage.w;
    let band_aa = max(fwidth(in.xz_in_world.y), 1e-6);
    let band = clamp((in.xz_in_world.y - band_start_m) / band_aa + 0.5, 0.0, 1.0);

    var albedo = globals.floor_colour.rgb;
    albedo = mix(albedo, albedo * 1.45 + vec3<f32>(0.02), grid * 0.35);
    albedo = mix(albedo, albedo * 1.7 + vec3<f32>(0.03), centre * 0.5);
    albedo = mix(albedo, globals.audience_colour.rgb, band);
    let shaded = albedo * light(vec3<f32>(0.0, 1.0, 0.0));
    return vec4<f32>(encode_output(shaded), 1.0);
}
