//! Opening a wgpu instance, adapter, device and queue — with or without a window — and choosing
//! between a real GPU and a software rasteriser (Mesa lavapipe / llvmpipe). Never panics when no
//! adapter exists: the error says which packages to install.

use crate::render::error::RenderError;

/// The wgpu objects the renderer needs, opened together.
#[derive(Debug)]
pub struct Gpu {
    /// The wgpu instance the adapter came from (the viewer creates window surfaces from it).
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The logical device all resources are created on.
    pub device: wgpu::Device,
    /// The device's queue.
    pub queue: wgpu::Queue,
}

/// Which kind of adapter to try first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AdapterPreference {
    /// Real GPUs (discrete, then integrated, then virtual) before software rasterisers.
    #[default]
    HardwareFirst,
    /// Software rasterisers first: golden-image tests want the same pixels on every machine.
    SoftwareFirst,
}

/// Opens a device with no window, preferring a real GPU and falling back to a software one.
///
/// Honours `WGPU_BACKEND` (e.g. `vulkan`, `gl`) and `WGPU_ADAPTER_NAME` (a case-insensitive
/// substring of the adapter name, e.g. `llvmpipe`).
pub fn create_headless() -> Result<Gpu, RenderError> {
    create_headless_with(AdapterPreference::HardwareFirst)
}

/// Like [`create_headless`], with an explicit adapter preference.
///
/// Without `WGPU_BACKEND` the primary backends (Vulkan, Metal, DX12) are asked first and OpenGL
/// only when none of them gives a device: probing EGL looks for a Wayland display, which prints
/// an error on a machine that has none. (Software-first keeps every backend: its order decides.)
pub fn create_headless_with(preference: AdapterPreference) -> Result<Gpu, RenderError> {
    let from_env = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    if preference == AdapterPreference::HardwareFirst && std::env::var_os("WGPU_BACKEND").is_none() {
        let mut primary = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        primary.backends = wgpu::Backends::PRIMARY;
        if let Ok(gpu) = Gpu::from_instance(wgpu::Instance::new(primary), None, preference) {
            return Ok(gpu);
        }
    }
    Gpu::from_instance(wgpu::Instance::new(from_env), None, preference)
}

impl Gpu {
    /// Picks an adapter from `instance` (one that can present to `compatible_surface`, when
    /// given) and opens a device on it. Candidates are tried best-first until one opens.
    pub fn from_instance(
        instance: wgpu::Instance,
        compatible_surface: Option<&wgpu::Surface<'_>>,
        preference: AdapterPreference,
    ) -> Result<Gpu, RenderError> {
        let mut rejected: Vec<String> = Vec::new();
        let mut candidates = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        if candidates.is_empty() {
            // Some platforms only answer `request_adapter`; try a normal then a fallback adapter.
            for force_fallback_adapter in [false, true] {
                let options = wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::HighPerformance,
                    force_fallback_adapter,
                    compatible_surface,
                    apply_limit_buckets: false,
                };
                match pollster::block_on(instance.request_adapter(&options)) {
                    Ok(adapter) => candidates.push(adapter),
                    Err(error) => {
                        let reason = format!("request_adapter: {error}");
                        if !rejected.contains(&reason) {
                            rejected.push(reason);
                        }
                    }
                }
            }
        }
        let name_filter = std::env::var("WGPU_ADAPTER_NAME").ok().map(|name| name.to_lowercase());
        let mut usable: Vec<(AdapterRank, wgpu::Adapter)> = Vec::new();
        for adapter in candidates {
            let info = adapter.get_info();
            let summary = summarise(&info);
            if let Some(filter) = &name_filter
                && !info.name.to_lowercase().contains(filter.as_str())
            {
                rejected.push(format!("{summary}: name does not match WGPU_ADAPTER_NAME"));
                continue;
            }
            if let Some(reason) = unsuitability(&adapter, compatible_surface) {
                rejected.push(format!("{summary}: {reason}"));
                continue;
            }
            usable.push((rank(info.device_type, info.backend, &info.name, preference), adapter));
        }
        usable.sort_by(|(a, _), (b, _)| a.cmp(b));

        let mut device_errors: Vec<RenderError> = Vec::new();
        for (_, adapter) in usable {
            match open_device(&adapter) {
                Ok((device, queue)) => {
                    return Ok(Gpu { instance, adapter, device, queue });
                }
                Err(error) => device_errors.push(error),
            }
        }
        if let Some(first_error) = device_errors.into_iter().next() {
            return Err(first_error);
        }
        let details = if rejected.is_empty() { "no adapters were enumerated".to_owned() } else { rejected.join("; ") };
        Err(RenderError::NoAdapter { details })
    }

    /// One line naming the adapter, backend, device type and driver, for logs and test output.
    pub fn adapter_summary(&self) -> String {
        summarise(&self.adapter.get_info())
    }

    /// True when the adapter is a CPU rasteriser (lavapipe, llvmpipe, WARP).
    pub fn is_software(&self) -> bool {
        self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
    }
}

/// Sort key: lower is better. Ties are broken by name so the choice is deterministic.
type AdapterRank = (u8, u8, String);

fn rank(
    device_type: wgpu::DeviceType,
    backend: wgpu::Backend,
    name: &str,
    preference: AdapterPreference,
) -> AdapterRank {
    let hardware_rank = match device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    };
    let type_rank = match (preference, device_type) {
        (AdapterPreference::SoftwareFirst, wgpu::DeviceType::Cpu) => 0,
        (AdapterPreference::SoftwareFirst, _) => 1 + hardware_rank,
        (AdapterPreference::HardwareFirst, _) => hardware_rank,
    };
    let backend_rank = match backend {
        wgpu::Backend::Vulkan => 0,
        wgpu::Backend::Metal => 1,
        wgpu::Backend::Dx12 => 2,
        wgpu::Backend::Gl => 3,
        _ => 4,
    };
    (type_rank, backend_rank, name.to_owned())
}

/// Why this adapter cannot run the renderer's shaders, or `None` when it can.
fn unsuitability(adapter: &wgpu::Adapter, compatible_surface: Option<&wgpu::Surface<'_>>) -> Option<&'static str> {
    let downlevel = adapter.get_downlevel_capabilities();
    if !downlevel.flags.contains(wgpu::DownlevelFlags::VERTEX_STORAGE) {
        return Some("no storage buffers in vertex shaders (needed for the skinning palette)");
    }
    if adapter.limits().max_storage_buffers_per_shader_stage < 1 {
        return Some("no storage buffer slots");
    }
    if let Some(surface) = compatible_surface
        && !adapter.is_surface_supported(surface)
    {
        return Some("cannot present to the window surface");
    }
    None
}

fn open_device(adapter: &wgpu::Adapter) -> Result<(wgpu::Device, wgpu::Queue), RenderError> {
    let required_limits = wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits());
    let descriptor = wgpu::DeviceDescriptor {
        label: Some("labanplay device"),
        required_features: wgpu::Features::empty(),
        required_limits,
        ..Default::default()
    };
    pollster::block_on(adapter.request_device(&descriptor))
        .map_err(|source| RenderError::RequestDevice { adapter: summarise(&adapter.get_info()), source })
}

fn summarise(info: &wgpu::AdapterInfo) -> String {
    format!(
        "{name} ({backend:?}, {device_type:?}, driver {driver} {driver_info})",
        name = info.name,
        backend = info.backend,
        device_type = info.device_type,
        driver = info.driver,
        driver_info = info.driver_info,
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn hardware_first_puts_gpus_before_cpus_and_software_first_the_reverse() {
        use wgpu::{Backend, DeviceType};
        let lavapipe = |p| rank(DeviceType::Cpu, Backend::Vulkan, "llvmpipe", p);
        let discrete = |p| rank(DeviceType::DiscreteGpu, Backend::Vulkan, "gpu", p);
        let integrated = |p| rank(DeviceType::IntegratedGpu, Backend::Vulkan, "igpu", p);
        let gl_cpu = |p| rank(DeviceType::Cpu, Backend::Gl, "llvmpipe", p);
        let (hw, sw) = (AdapterPreference::HardwareFirst, AdapterPreference::SoftwareFirst);
        assert!(discrete(hw) < integrated(hw) && integrated(hw) < lavapipe(hw));
        assert!(lavapipe(sw) < discrete(sw) && discrete(sw) < integrated(sw));
        assert!(lavapipe(sw) < gl_cpu(sw), "Vulkan before GL");
    }

    #[test]
    fn no_adapter_message_says_what_to_install() {
        let error = RenderError::NoAdapter { details: "none".to_owned() };
        let text = error.to_string();
        assert!(text.contains("mesa-vulkan-drivers libvulkan1"), "{text}");
        assert!(text.contains("libegl1 libgl1-mesa-dri"), "{text}");
    }
}
