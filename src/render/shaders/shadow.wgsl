// Contact shadows: a soft dark blob on the floor per instance (centre, radius, opacity), blended
// over the floor just above y = 0.

struct ShadowIn {
    // x, y: centre x and z in world metres; z: radius in metres; w: opacity at the centre.
    @location(0) centre_radius_opacity: vec4<f32>,
};

struct ShadowOut {
    @builtin(position) clip_position: vec4<f32>,
    // Position relative to the centre, in radii.
    @location(0) offset_in_radii: vec2<f32>,
    @location(1) opacity: f32,
};

const SHADOW_LIFT_M: f32 = 0.001;

@vertex
fn vs_main(@builtin(vertex_index) vertex_index: u32, in: ShadowIn) -> ShadowOut {
    var corner_ids = array<u32, 6>(0u, 2u, 1u, 1u, 2u, 3u);
    let corner = corner_ids[vertex_index % 6u];
    let offset = vec2<f32>(f32(corner & 1u) * 2.0 - 1.0, f32(corner >> 1u) * 2.0 - 1.0);
    let xz = in.centre_radius_opacity.xy + offset * in.centre_radius_opacity.z;
    var out: ShadowOut;
    out.clip_position = globals.clip_from_world * vec4<f32>(xz.x, SHADOW_LIFT_M, xz.y, 1.0);
    out.offset_in_radii = offset;
    out.opacity = in.centre_radius_opacity.w;
    return out;
}

@fragment
fn fs_main(in: ShadowOut) -> @location(0) vec4<f32> {
    let r2 = dot(in.offset_in_radii, in.offset_in_radii);
    // Gaussian-ish falloff, forced to zero at the quad's inscribed circle.
    let falloff = exp(-2.5 * r2) * (1.0 - smoothstep(0.6, 1.0, r2));
    return vec4<f32>(encode_output(vec3<f32>(0.0)), clamp(in.opacity * falloff, 0.0, 1.0));
}
