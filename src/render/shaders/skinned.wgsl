// GPU-skinned, instanced dancers: each instance (`instance_index`) has a root transform, a colour
// and a range of the palette storage buffer (instances sharing a pose share the range); each
// vertex blends up to 4 palette matrices; lit by a hemisphere ambient and one directional light.

struct Instance {
    // Pose space -> world.
    world_from_pose: mat4x4<f32>,
    // Linear RGBA base colour.
    colour: vec4<f32>,
    // x: first palette entry of this instance's pose, y: palette length.
    palette_range: vec4<u32>,
};

@group(1) @binding(0) var<storage, read> instances: array<Instance>;
@group(1) @binding(1) var<storage, read> palette: array<mat4x4<f32>>;

struct VertexIn {
    @location(0) position_in_mesh: vec3<f32>,
    @location(1) normal_in_mesh: vec3<f32>,
    @location(2) joints: vec4<u32>,
    @location(3) weights: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) position_in_world: vec3<f32>,
    @location(1) normal_in_world: vec3<f32>,
    @location(2) @interpolate(flat) colour: vec4<f32>,
};

fn joint_from_palette(range: vec4<u32>, joint: u32) -> mat4x4<f32> {
    let last = max(range.y, 1u) - 1u;
    return palette[range.x + min(joint, last)];
}

@vertex
fn vs_main(in: VertexIn, @builtin(instance_index) instance_index: u32) -> VertexOut {
    let instance = instances[instance_index];
    let range = instance.palette_range;
    let pose_from_mesh = joint_from_palette(range, in.joints.x) * in.weights.x
        + joint_from_palette(range, in.joints.y) * in.weights.y
        + joint_from_palette(range, in.joints.z) * in.weights.z
        + joint_from_palette(range, in.joints.w) * in.weights.w;
    let world_from_mesh = instance.world_from_pose * pose_from_mesh;
    let position_in_world = (world_from_mesh * vec4<f32>(in.position_in_mesh, 1.0)).xyz;
    // Palettes and roots are rigid (+ uniform scale), so the upper 3x3 maps normals correctly.
    let normal_in_world = (world_from_mesh * vec4<f32>(in.normal_in_mesh, 0.0)).xyz;
    var out: VertexOut;
    out.clip_position = globals.clip_from_world * vec4<f32>(position_in_world, 1.0);
    out.position_in_world = position_in_world;
    out.normal_in_world = normal_in_world;
    out.colour = instance.colour;
    return out;
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front_facing: bool) -> @location(0) vec4<f32> {
    var normal = in.normal_in_world;
    let normal_len = length(normal);
    normal = select(vec3<f32>(0.0, 1.0, 0.0), normal / normal_len, normal_len > 1e-6);
    normal = select(-normal, normal, front_facing);
    let to_eye = normalize(globals.eye_in_world.xyz - in.position_in_world);
    let half_vector = normalize(to_eye + globals.sun_dir_in_world.xyz);
    let specular = pow(max(dot(normal, half_vector), 0.0), 24.0) * 0.18;
    // A faint rim keeps the silhouette readable against a dark background.
    let rim = pow(1.0 - max(dot(normal, to_eye), 0.0), 3.0) * 0.12;
    let shaded = in.colour.rgb * light(normal) + globals.sun_colour.rgb * specular + vec3<f32>(rim);
    return vec4<f32>(encode_output(shaded), 1.0);
}
