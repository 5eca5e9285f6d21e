//! The byte layouts shared with the WGSL shaders (`#[repr(C)]` + bytemuck) and a GPU buffer
//! that grows to fit each frame's data. Field order and sizes must match `shaders/*.wgsl`.

use bytemuck::{Pod, Zeroable};

/// Per-frame uniform; mirrors `struct Globals` in `shaders/prelude.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct GlobalsUniform {
    pub clip_from_world: [[f32; 4]; 4],
    pub eye_in_world: [f32; 4],
    pub sun_dir_in_world: [f32; 4],
    pub sun_colour: [f32; 4],
    pub sky_colour: [f32; 4],
    pub ground_colour: [f32; 4],
    pub floor_colour: [f32; 4],
    pub audience_colour: [f32; 4],
    /// half width, half depth, grid spacing, audience band depth (metres).
    pub stage: [f32; 4],
    /// x: 1.0 when the shader must encode sRGB itself.
    pub output: [f32; 4],
}

/// One drawn instance in the instance storage buffer; mirrors `struct Instance` in
/// `skinned.wgsl` (96 bytes). Instances sharing a pose point at the same palette range.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct InstanceRecord {
    /// Pose space → world.
    pub world_from_pose: [[f32; 4]; 4],
    /// Linear RGBA base colour.
    pub colour: [f32; 4],
    /// x: first palette entry, y: palette length, z/w unused.
    pub palette_range: [u32; 4],
}

/// One skinned vertex; matches `VertexIn` in `skinned.wgsl` (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct SkinnedVertex {
    pub position_in_mesh: [f32; 3],
    pub normal_in_mesh: [f32; 3],
    pub joints: [u16; 4],
    pub weights: [f32; 4],
}

/// One contact shadow instance: centre x, centre z, radius (m), opacity.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct ShadowInstance {
    pub centre_radius_opacity: [f32; 4],
}

/// One floor mark instance; matches `MarkIn` in `marks.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct MarkInstance {
    pub world_from_mark: [[f32; 4]; 4],
    pub colour: [f32; 4],
    /// x: 0 footprint / 1 spot; y: +1 right / −1 left.
    pub shape: [f32; 4],
}

/// One line vertex; matches `LineIn` in `lines.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct LineVertex {
    pub position_in_world: [f32; 3],
    pub colour: [f32; 4],
}

/// A buffer rewritten every frame that is recreated (doubling) when the data outgrows it.
#[derive(Debug)]
pub(crate) struct GrowableBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    buffer: wgpu::Buffer,
    capacity_bytes: u64,
}

/// Smallest buffer created, so bindings with a minimum size are always valid.
const MIN_CAPACITY_BYTES: u64 = 256;

impl GrowableBuffer {
    pub fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let buffer = create(device, label, usage, MIN_CAPACITY_BYTES);
        Self { label, usage, buffer, capacity_bytes: MIN_CAPACITY_BYTES }
    }

    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// Uploads `bytes` at offset 0, growing first if needed; returns true when the buffer was
    /// recreated (bind groups that reference it must be rebuilt).
    pub fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, bytes: &[u8]) -> bool {
        let needed_bytes = (bytes.len() as u64).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let mut recreated = false;
        if needed_bytes > self.capacity_bytes {
            let capacity_bytes = needed_bytes.max(self.capacity_bytes.saturating_mul(2));
            self.buffer = create(device, self.label, self.usage, capacity_bytes);
            self.capacity_bytes = capacity_bytes;
            recreated = true;
        }
        if !bytes.is_empty() {
            if (bytes.len() as u64).is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT) {
                queue.write_buffer(&self.buffer, 0, bytes);
            } else {
                let mut padded = bytes.to_vec();
                padded.resize(needed_bytes as usize, 0);
                queue.write_buffer(&self.buffer, 0, &padded);
            }
        }
        recreated
    }
}

fn create(device: &wgpu::Device, label: &str, usage: wgpu::BufferUsages, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size, usage, mapped_at_creation: false })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn layouts_have_the_sizes_the_shaders_expect() {
        // WGSL: mat4 (64) + 9 vec4 (144).
        assert_eq!(std::mem::size_of::<GlobalsUniform>(), 208);
        assert_eq!(std::mem::size_of::<InstanceRecord>(), 96);
        assert_eq!(std::mem::size_of::<SkinnedVertex>(), 48);
        assert_eq!(std::mem::size_of::<MarkInstance>(), 96);
        assert_eq!(std::mem::size_of::<LineVertex>(), 28);
    }
}
