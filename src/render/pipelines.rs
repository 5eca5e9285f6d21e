//! Creation of the renderer's bind group layouts and its five render pipelines (floor, contact
//! shadows, floor marks, skinned dancers, lines) from the WGSL files in `shaders/`.

/// A shader's WGSL as the pipelines use it: the shared prelude followed by the shader's file.
macro_rules! shader_source {
    ($file:literal) => {
        concat!(include_str!("shaders/prelude.wgsl"), include_str!(concat!("shaders/", $file)))
    };
}

use crate::render::gpu_data::{
    GlobalsUniform, InstanceRecord, LineVertex, MarkInstance, ShadowInstance, SkinnedVertex,
};

/// Depth buffer format used by every pipeline.
pub(crate) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The layouts and pipelines, built once per colour format and sample count.
#[derive(Debug)]
pub(crate) struct Pipelines {
    pub globals_layout: wgpu::BindGroupLayout,
    pub dancer_layout: wgpu::BindGroupLayout,
    pub floor: wgpu::RenderPipeline,
    pub shadow: wgpu::RenderPipeline,
    pub marks: wgpu::RenderPipeline,
    pub skinned: wgpu::RenderPipeline,
    pub lines: wgpu::RenderPipeline,
}

/// What differs between the pipelines.
struct PipelineSpec<'a> {
    label: &'static str,
    shader: &'a wgpu::ShaderModule,
    layout: &'a wgpu::PipelineLayout,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    topology: wgpu::PrimitiveTopology,
    blend: Option<wgpu::BlendState>,
    depth_write: bool,
}

fn byte_size<T>() -> Option<wgpu::BufferSize> {
    wgpu::BufferSize::new(std::mem::size_of::<T>() as u64)
}

impl Pipelines {
    pub fn new(device: &wgpu::Device, colour_format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let globals_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("labanplay globals layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: byte_size::<GlobalsUniform>(),
                },
                count: None,
            }],
        });
        let dancer_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("labanplay dancer layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: true },
                        has_dynamic_offset: false,
                        min_binding_size: byte_size::<InstanceRecord>(),
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: true },
                        has_dynamic_offset: false,
                        min_binding_size: byte_size::<[[f32; 4]; 4]>(),
                    },
                    count: None,
                },
            ],
        });
        let scene_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("labanplay scene pipeline layout"),
            bind_group_layouts: &[Some(&globals_layout)],
            immediate_size: 0,
        });
        let skinned_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("labanplay skinned pipeline layout"),
            bind_group_layouts: &[Some(&globals_layout), Some(&dancer_layout)],
            immediate_size: 0,
        });
        let shader = |label: &'static str, source: &'static str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let floor_shader = shader("labanplay floor.wgsl", shader_source!("floor.wgsl"));
        let shadow_shader = shader("labanplay shadow.wgsl", shader_source!("shadow.wgsl"));
        let marks_shader = shader("labanplay marks.wgsl", shader_source!("marks.wgsl"));
        let skinned_shader = shader("labanplay skinned.wgsl", shader_source!("skinned.wgsl"));
        let lines_shader = shader("labanplay lines.wgsl", shader_source!("lines.wgsl"));

        let shadow_attributes = wgpu::vertex_attr_array![0 => Float32x4];
        let mark_attributes = wgpu::vertex_attr_array![
            0 => Float32x4, 1 => Float32x4, 2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4
        ];
        let skinned_attributes =
            wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Uint16x4, 3 => Float32x4];
        let line_attributes = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];
        let layout_of = |stride: usize, step_mode, attributes| {
            [Some(wgpu::VertexBufferLayout { array_stride: stride as u64, step_mode, attributes })]
        };
        let instance = wgpu::VertexStepMode::Instance;
        let vertex = wgpu::VertexStepMode::Vertex;
        let build = |spec: PipelineSpec<'_>| build_pipeline(device, colour_format, sample_count, spec);
        let triangles = wgpu::PrimitiveTopology::TriangleList;
        let blend = Some(wgpu::BlendState::ALPHA_BLENDING);

        let floor = build(PipelineSpec {
            label: "labanplay floor pipeline",
            shader: &floor_shader,
            layout: &scene_layout,
            buffers: &[],
            topology: triangles,
            blend: None,
            depth_write: true,
        });
        let shadow = build(PipelineSpec {
            label: "labanplay contact shadow pipeline",
            shader: &shadow_shader,
            layout: &scene_layout,
            buffers: &layout_of(std::mem::size_of::<ShadowInstance>(), instance, &shadow_attributes),
            topology: triangles,
            blend,
            depth_write: false,
        });
        let marks = build(PipelineSpec {
            label: "labanplay floor mark pipeline",
            shader: &marks_shader,
            layout: &scene_layout,
            buffers: &layout_of(std::mem::size_of::<MarkInstance>(), instance, &mark_attributes),
            topology: triangles,
            blend,
            depth_write: false,
        });
        let skinned = build(PipelineSpec {
            label: "labanplay skinned dancer pipeline",
            shader: &skinned_shader,
            layout: &skinned_layout,
            buffers: &layout_of(std::mem::size_of::<SkinnedVertex>(), vertex, &skinned_attributes),
            topology: triangles,
            blend: None,
            depth_write: true,
        });
        let lines = build(PipelineSpec {
            label: "labanplay line pipeline",
            shader: &lines_shader,
            layout: &scene_layout,
            buffers: &layout_of(std::mem::size_of::<LineVertex>(), vertex, &line_attributes),
            topology: wgpu::PrimitiveTopology::LineList,
            blend,
            depth_write: false,
        });
        Self { globals_layout, dancer_layout, floor, shadow, marks, skinned, lines }
    }
}

fn build_pipeline(
    device: &wgpu::Device,
    colour_format: wgpu::TextureFormat,
    sample_count: u32,
    spec: PipelineSpec<'_>,
) -> wgpu::RenderPipeline {
    let targets =
        [Some(wgpu::ColorTargetState { format: colour_format, blend: spec.blend, write_mask: wgpu::ColorWrites::ALL })];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(spec.label),
        layout: Some(spec.layout),
        vertex: wgpu::VertexState {
            module: spec.shader,
            entry_point: Some("vs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers: spec.buffers,
        },
        // No culling: meshes from elsewhere may have mixed winding; the skinned shader flips
        // back-facing normals instead.
        primitive: wgpu::PrimitiveState { topology: spec.topology, cull_mode: None, ..Default::default() },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(spec.depth_write),
            depth_compare: Some(wgpu::CompareFunction::LessEqual),
            stencil: wgpu::StencilState::default(),
            bias: wgpu::DepthBiasState::default(),
        }),
        multisample: wgpu::MultisampleState { count: sample_count, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module: spec.shader,
            entry_point: Some("fs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &targets,
        }),
        multiview_mask: None,
        cache: None,
    })
}
