//! The renderer: uploads meshes once, packs each frame's [`Scene`] into GPU buffers
//! ([`Renderer::prepare`]) and records the frame into any texture view ([`Renderer::render`]):
//! floor, contact shadows, floor marks, skinned dancers, lines — depth-tested, optional MSAA.
//! Dancers are instanced: one storage buffer of instances (root, colour, palette range) and one
//! of palettes (a shared pose once, however many instances use it), one draw per mesh.

use wgpu::util::DeviceExt as _;

use crate::render::error::RenderError;
use crate::render::frame_data;
use crate::render::gpu::Gpu;
use crate::render::gpu_data::{GlobalsUniform, GrowableBuffer, InstanceRecord, SkinnedVertex};
use crate::render::pipelines::{DEPTH_FORMAT, Pipelines};
use crate::stage::camera::OrbitCamera;
use crate::stage::scene::{MeshId, Scene, SkinnedMeshData};

/// How the renderer's pipelines are built; fixed for the renderer's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RendererConfig {
    /// Format of the views passed to [`Renderer::render`]. sRGB formats get linear output;
    /// for other formats the shaders encode sRGB themselves.
    pub colour_format: wgpu::TextureFormat,
    /// MSAA samples: 1 (off) or 4 (any other value counts as 4).
    pub sample_count: u32,
}

impl Default for RendererConfig {
    /// `Rgba8UnormSrgb` (what [`crate::render::render_to_image`] reads back), 4× MSAA.
    fn default() -> Self {
        Self { colour_format: wgpu::TextureFormat::Rgba8UnormSrgb, sample_count: 4 }
    }
}

impl RendererConfig {
    /// A config for views of `colour_format` on `gpu`: 4× MSAA on real GPUs, none on software
    /// rasterisers, where 4× MSAA costs about 4× the frame time (measured on lavapipe at
    /// 1280×720: ~23 ms vs ~100 ms per frame with one skinned figure).
    pub fn recommended_for(gpu: &Gpu, colour_format: wgpu::TextureFormat) -> Self {
        let sample_count = if gpu.is_software() { 1 } else { 4 };
        Self { colour_format, sample_count }
    }
}

#[derive(Debug)]
struct GpuMesh {
    vertex_buffer: wgpu::Buffer,
    index_buffer: wgpu::Buffer,
    index_count: u32,
    required_palette_len: usize,
}

/// One mesh's draw this frame: its instances `first..end` of the instance buffer.
#[derive(Debug)]
struct MeshDraw {
    mesh_index: usize,
    instances: std::ops::Range<u32>,
}

/// Depth (and MSAA colour) attachments sized for the current target.
#[derive(Debug)]
struct FrameTargets {
    size_px: [u32; 2],
    depth_view: wgpu::TextureView,
    msaa_view: Option<wgpu::TextureView>,
}

/// Draws [`Scene`]s; owns pipelines, uploaded meshes and per-frame buffers.
#[derive(Debug)]
pub struct Renderer {
    config: RendererConfig,
    pipelines: Pipelines,
    globals_buffer: wgpu::Buffer,
    globals_bind_group: wgpu::BindGroup,
    instance_records: GrowableBuffer,
    palettes: GrowableBuffer,
    dancer_bind_group: wgpu::BindGroup,
    shadow_instances: GrowableBuffer,
    mark_instances: GrowableBuffer,
    line_vertices: GrowableBuffer,
    meshes: Vec<Option<GpuMesh>>,
    draws: Vec<MeshDraw>,
    /// Scratch reused every frame: records with their mesh, then sorted by mesh.
    scratch_records: Vec<(usize, InstanceRecord)>,
    scratch_sorted: Vec<InstanceRecord>,
    scratch_draws: Vec<(usize, u32, u32)>,
    scratch_palette: Vec<[[f32; 4]; 4]>,
    shadow_count: u32,
    mark_count: u32,
    line_vertex_count: u32,
    clear_colour: wgpu::Color,
    targets: Option<FrameTargets>,
}

impl Renderer {
    /// Builds pipelines for views of `config.colour_format`.
    pub fn new(device: &wgpu::Device, config: RendererConfig) -> Self {
        let config = RendererConfig { sample_count: if config.sample_count == 1 { 1 } else { 4 }, ..config };
        let pipelines = Pipelines::new(device, config.colour_format, config.sample_count);
        let globals_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("labanplay globals uniform"),
            size: std::mem::size_of::<GlobalsUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let globals_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("labanplay globals bind group"),
            layout: &pipelines.globals_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals_buffer.as_entire_binding() }],
        });
        let storage = wgpu::BufferUsages::STORAGE;
        let instance_records = GrowableBuffer::new(device, "labanplay dancer instances", storage);
        let palettes = GrowableBuffer::new(device, "labanplay skinning palettes", storage);
        let dancer_bind_group = dancer_bind_group(device, &pipelines, &instance_records, &palettes);
        let vertex = wgpu::BufferUsages::VERTEX;
        Self {
            config,
            globals_buffer,
            globals_bind_group,
            dancer_bind_group,
            instance_records,
            palettes,
            shadow_instances: GrowableBuffer::new(device, "labanplay contact shadow instances", vertex),
            mark_instances: GrowableBuffer::new(device, "labanplay floor mark instances", vertex),
            line_vertices: GrowableBuffer::new(device, "labanplay line vertices", vertex),
            pipelines,
            meshes: Vec::new(),
            draws: Vec::new(),
            scratch_records: Vec::new(),
            scratch_sorted: Vec::new(),
            scratch_draws: Vec::new(),
            scratch_palette: Vec::new(),
            shadow_count: 0,
            mark_count: 0,
            line_vertex_count: 0,
            clear_colour: wgpu::Color::BLACK,
            targets: None,
        }
    }

    /// The configuration the pipelines were built with (after normalising the sample count).
    pub fn config(&self) -> RendererConfig {
        self.config
    }

    /// Checks `mesh`, renormalises its weights and uploads it; the id stays valid until
    /// [`Renderer::remove_mesh`].
    pub fn upload_mesh(&mut self, device: &wgpu::Device, mesh: &SkinnedMeshData) -> Result<MeshId, RenderError> {
        mesh.validate().map_err(|e| RenderError::InvalidMesh { reason: e.to_string() })?;
        let too_big = || RenderError::InvalidMesh { reason: "more than 2^32 indices or meshes".to_owned() };
        let index_count = u32::try_from(mesh.indices.len()).map_err(|_| too_big())?;
        let id = MeshId(u32::try_from(self.meshes.len()).map_err(|_| too_big())?);
        let vertices: Vec<SkinnedVertex> = mesh
            .positions
            .iter()
            .zip(&mesh.normals)
            .zip(mesh.joints.iter().zip(&mesh.weights))
            .map(|((position, normal), (joints, weights))| SkinnedVertex {
                position_in_mesh: *position,
                normal_in_mesh: *normal,
                joints: *joints,
                weights: frame_data::normalised_weights(*weights),
            })
            .collect();
        let vertex_bytes = std::mem::size_of_val(vertices.as_slice()) as u64;
        let max_buffer_bytes = device.limits().max_buffer_size;
        if vertex_bytes > max_buffer_bytes {
            return Err(RenderError::InvalidMesh {
                reason: format!("{vertex_bytes} bytes of vertices exceed the device's {max_buffer_bytes}-byte buffers"),
            });
        }
        let vertex_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("labanplay skinned mesh vertices"),
            contents: bytemuck::cast_slice(&vertices),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let index_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("labanplay skinned mesh indices"),
            contents: bytemuck::cast_slice(&mesh.indices),
            usage: wgpu::BufferUsages::INDEX,
        });
        self.meshes.push(Some(GpuMesh {
            vertex_buffer,
            index_buffer,
            index_count,
            required_palette_len: mesh.required_palette_len(),
        }));
        Ok(id)
    }

    /// Frees a mesh's GPU buffers; dancers that still use the id make `prepare` fail.
    pub fn remove_mesh(&mut self, mesh_id: MeshId) {
        if let Some(slot) = self.meshes.get_mut(mesh_id.0 as usize) {
            *slot = None;
        }
    }

    /// Uploads everything `scene` and `camera` need for the next [`Renderer::render`] into a
    /// target of `target_size_px` = [width, height]. Nothing is uploaded when it fails.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene: &Scene,
        camera: &OrbitCamera,
        target_size_px: [u32; 2],
    ) -> Result<(), RenderError> {
        let [width, height] = target_size_px;
        let max_side = device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max_side || height > max_side {
            return Err(RenderError::InvalidSize { width, height, max_side });
        }
        // Check every dancer and instance before touching any buffer.
        let mesh_of = |mesh_id: MeshId| self.meshes.get(mesh_id.0 as usize).and_then(Option::as_ref);
        let mut palette_len = 0usize;
        for (dancer_index, dancer) in scene.dancers.iter().enumerate() {
            let mesh_id = dancer.mesh_id;
            let Some(mesh) = mesh_of(mesh_id) else {
                return Err(RenderError::UnknownMesh { dancer_index, mesh_id });
            };
            if dancer.palette.len() < mesh.required_palette_len {
                return Err(RenderError::PaletteTooShort {
                    dancer_index,
                    mesh_id,
                    needed_len: mesh.required_palette_len,
                    palette_len: dancer.palette.len(),
                });
            }
            palette_len += dancer.palette.len();
        }
        for (k, instance) in scene.instances.iter().enumerate() {
            let dancer_index = scene.dancers.len() + k;
            let mesh_id = instance.mesh_id;
            let Some(mesh) = mesh_of(mesh_id) else {
                return Err(RenderError::UnknownMesh { dancer_index, mesh_id });
            };
            let Some(palette) = scene.poses.get(instance.pose as usize) else {
                return Err(RenderError::UnknownPose { dancer_index, pose: instance.pose, poses: scene.poses.len() });
            };
            if palette.len() < mesh.required_palette_len {
                return Err(RenderError::PaletteTooShort {
                    dancer_index,
                    mesh_id,
                    needed_len: mesh.required_palette_len,
                    palette_len: palette.len(),
                });
            }
        }
        palette_len += scene.poses.iter().map(Vec::len).sum::<usize>();
        let palette_bytes = palette_len as u64 * 64;
        let instance_bytes =
            ((scene.dancers.len() + scene.instances.len()) * std::mem::size_of::<InstanceRecord>()) as u64;
        let limits = device.limits();
        for (what, bytes, limit_bytes) in [
            ("skinning palettes", palette_bytes, limits.max_storage_buffer_binding_size),
            ("dancer instances", instance_bytes, limits.max_storage_buffer_binding_size),
        ] {
            if bytes > limit_bytes {
                return Err(RenderError::SceneTooLarge { what, bytes, limit_bytes });
            }
        }
        self.ensure_targets(device, target_size_px);

        let aspect_ratio = width as f32 / height as f32;
        let stage = frame_data::sanitised_stage(&scene.stage);
        let srgb_target = self.config.colour_format.is_srgb();
        let globals = frame_data::globals_uniform(camera, aspect_ratio, &stage, &scene.lighting, srgb_target);
        queue.write_buffer(&self.globals_buffer, 0, bytemuck::bytes_of(&globals));
        let background = stage.background_colour.map(|c| if srgb_target { c } else { frame_data::linear_to_srgb(c) });
        self.clear_colour = wgpu::Color {
            r: f64::from(background[0]),
            g: f64::from(background[1]),
            b: f64::from(background[2]),
            a: 1.0,
        };

        // Dancers and instances: palettes packed end to end (each dancer's own, each shared pose
        // once), one record per drawn figure, sorted by mesh into one draw per mesh.
        let palette = &mut self.scratch_palette;
        palette.clear();
        let records = &mut self.scratch_records;
        records.clear();
        for dancer in &scene.dancers {
            let palette_range = [palette.len() as u32, dancer.palette.len() as u32, 0, 0];
            palette.extend(dancer.palette.iter().map(|m| m.to_cols_array_2d()));
            let world_from_pose = glam::Mat4::IDENTITY.to_cols_array_2d();
            let record = InstanceRecord { world_from_pose, colour: dancer.colour, palette_range };
            records.push((dancer.mesh_id.0 as usize, record));
        }
        let mut pose_ranges = Vec::with_capacity(scene.poses.len());
        for pose in &scene.poses {
            pose_ranges.push([palette.len() as u32, pose.len() as u32, 0, 0]);
            palette.extend(pose.iter().map(|m| m.to_cols_array_2d()));
        }
        for instance in &scene.instances {
            let palette_range = pose_ranges[instance.pose as usize];
            let world_from_pose = instance.world_from_pose.to_cols_array_2d();
            let record = InstanceRecord { world_from_pose, colour: instance.colour, palette_range };
            records.push((instance.mesh_id.0 as usize, record));
        }
        frame_data::draws_by_mesh(records, &mut self.scratch_sorted, &mut self.scratch_draws);
        self.draws.clear();
        self.draws.extend(
            self.scratch_draws.iter().map(|&(mesh_index, first, end)| MeshDraw { mesh_index, instances: first..end }),
        );
        let records_recreated = self.instance_records.write(device, queue, bytemuck::cast_slice(&self.scratch_sorted));
        let palettes_recreated = self.palettes.write(device, queue, bytemuck::cast_slice(&self.scratch_palette));
        if records_recreated || palettes_recreated {
            self.dancer_bind_group = dancer_bind_group(device, &self.pipelines, &self.instance_records, &self.palettes);
        }

        let shadows = frame_data::shadow_instances(&scene.contact_shadows);
        self.shadow_instances.write(device, queue, bytemuck::cast_slice(&shadows));
        self.shadow_count = shadows.len() as u32;

        let marks = frame_data::mark_instances(&scene.floor_marks);
        self.mark_instances.write(device, queue, bytemuck::cast_slice(&marks));
        self.mark_count = marks.len() as u32;

        let line_vertices = frame_data::line_vertices(&scene.lines);
        self.line_vertices.write(device, queue, bytemuck::cast_slice(&line_vertices));
        self.line_vertex_count = line_vertices.len() as u32;
        Ok(())
    }

    /// Records the prepared frame into `target_view`, which must have the renderer's colour
    /// format, one sample and the size given to the last [`Renderer::prepare`] (before the first
    /// `prepare` nothing is recorded).
    pub fn render(&self, encoder: &mut wgpu::CommandEncoder, target_view: &wgpu::TextureView) {
        let Some(targets) = &self.targets else { return };
        let colour_attachment = match &targets.msaa_view {
            Some(msaa_view) => wgpu::RenderPassColorAttachment {
                view: msaa_view,
                depth_slice: None,
                resolve_target: Some(target_view),
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(self.clear_colour), store: wgpu::StoreOp::Discard },
            },
            None => wgpu::RenderPassColorAttachment {
                view: target_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(self.clear_colour), store: wgpu::StoreOp::Store },
            },
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("labanplay scene pass"),
            color_attachments: &[Some(colour_attachment)],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &targets.depth_view,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_bind_group(0, &self.globals_bind_group, &[]);

        pass.set_pipeline(&self.pipelines.floor);
        pass.draw(0..6, 0..1);

        if self.shadow_count > 0 {
            pass.set_pipeline(&self.pipelines.shadow);
            pass.set_vertex_buffer(0, self.shadow_instances.buffer().slice(..));
            pass.draw(0..6, 0..self.shadow_count);
        }
        if self.mark_count > 0 {
            pass.set_pipeline(&self.pipelines.marks);
            pass.set_vertex_buffer(0, self.mark_instances.buffer().slice(..));
            pass.draw(0..6, 0..self.mark_count);
        }
        if !self.draws.is_empty() {
            pass.set_pipeline(&self.pipelines.skinned);
            pass.set_bind_group(1, &self.dancer_bind_group, &[]);
            for draw in &self.draws {
                let Some(mesh) = self.meshes.get(draw.mesh_index).and_then(Option::as_ref) else {
                    continue;
                };
                pass.set_vertex_buffer(0, mesh.vertex_buffer.slice(..));
                pass.set_index_buffer(mesh.index_buffer.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..mesh.index_count, 0, draw.instances.clone());
            }
        }
        if self.line_vertex_count > 0 {
            pass.set_pipeline(&self.pipelines.lines);
            pass.set_vertex_buffer(0, self.line_vertices.buffer().slice(..));
            pass.draw(0..self.line_vertex_count, 0..1);
        }
    }

    /// (Re)creates the depth and MSAA attachments when the target size changes.
    fn ensure_targets(&mut self, device: &wgpu::Device, size_px: [u32; 2]) {
        if self.targets.as_ref().is_some_and(|targets| targets.size_px == size_px) {
            return;
        }
        let [width, height] = size_px;
        let attachment = |label: &'static str, format: wgpu::TextureFormat| {
            device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: self.config.sample_count,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor { label: Some(label), ..Default::default() })
        };
        let depth_view = attachment("labanplay depth attachment", DEPTH_FORMAT);
        let msaa_view = (self.config.sample_count > 1)
            .then(|| attachment("labanplay msaa colour attachment", self.config.colour_format));
        self.targets = Some(FrameTargets { size_px, depth_view, msaa_view });
    }
}

fn dancer_bind_group(
    device: &wgpu::Device,
    pipelines: &Pipelines,
    instances: &GrowableBuffer,
    palettes: &GrowableBuffer,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("labanplay dancer bind group"),
        layout: &pipelines.dancer_layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: instances.buffer().as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: palettes.buffer().as_entire_binding() },
        ],
    })
}
