//! Criterion benches for rigging a built-in model (mesh + bone-heat weights on the animation
//! skeleton, what a viewer does at start-up) and for one frame of a rigged dancer: palette of a
//! demo pose plus CPU skinning; and rigging each mesh of `../shared/meshes` (skipped when
//! absent): the whole rig, and the embedding alone (frame, repair, voxels, skeleton search), so
//! the weights are the difference. Run with `cargo bench --no-default-features --bench rig`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use labanplay::animation::compile;
use labanplay::body::models::builtin_models;
use labanplay::body::polygonise::PolygoniseParams;
use labanplay::body::rig::rig_model;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;

fn rigging(c: &mut Criterion) {
    let mut group = c.benchmark_group("rig");
    group.sample_size(10).measurement_time(Duration::from_secs(6)).warm_up_time(Duration::from_secs(1));
    let params = PolygoniseParams::default();
    for model in builtin_models() {
        group.bench_function(format!("rig_model {}", model.name), |b| b.iter(|| rig_model(black_box(&model), &params)));
    }
    group.finish();
}

fn one_frame(c: &mut Criterion) {
    let Some(model) = builtin_models().into_iter().next() else { return };
    let Ok(rig) = rig_model(&model, &PolygoniseParams::default()) else { return };
    let Ok(doc) = labanplay::read::read(labanplay::demo::WALK_ARMS_TURN_LBN, Some("lbn")) else { return };
    let anim = compile(&labanplay::score::Score::from_document(&doc), &MotionOptions::default(), rig.proportions());
    let Some(dancer) = anim.dancers.first() else { return };
    let mut pose = Pose::rest(&anim.skeleton);
    dancer.sample_into(&anim.skeleton, anim.duration_secs * 0.4, &mut pose);
    let (mut palette, mut positions, mut normals) = (Vec::new(), Vec::new(), Vec::new());
    let vertices = rig.mesh.vertex_count();
    c.bench_function("rig palette one frame", |b| b.iter(|| rig.palette(black_box(&pose), &mut palette)));
    c.bench_function(&format!("rig palette + skin one frame {} ({vertices} vertices)", rig.name), |b| {
        b.iter(|| rig.skin(black_box(&pose), &mut palette, &mut positions, &mut normals))
    });
}

/// Frame → repair → voxels → embedding of `raw`, as `rig_mesh` does them (no weights).
fn embed_only(raw: &labanplay::rig::import::RawMesh) -> Option<labanplay::rig::embed::Embedding> {
    use labanplay::rig::{FrameOptions, frame::detect_frame, import::MeshFormat, repair::repair, voxel::VoxelBody};
    let options = FrameOptions { y_up_by_format: raw.format == Some(MeshFormat::Gltf), ..FrameOptions::default() };
    let frame = detect_frame(&raw.positions_in_input, &raw.triangles, &options).ok()?;
    let positions: Vec<glam::Vec3> = raw.positions_in_input.iter().map(|&p| frame.to_rig(p)).collect();
    let repaired = repair(&positions, &raw.triangles);
    let height_m = repaired.mesh.bounds_in_model().map_or(0.0, |(lo, hi)| hi.y - lo.y);
    let voxels_per_height = labanplay::rig::RigOptions::default().voxels_per_height;
    let body = VoxelBody::build(&repaired.mesh, height_m / voxels_per_height)?;
    labanplay::rig::embed::embed_skeleton(&body).ok()
}

fn shared_meshes(c: &mut Criterion) {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/meshes"));
    let Ok(entries) = std::fs::read_dir(dir) else {
        println!("SKIP shared mesh benches: {} is absent", dir.display());
        return;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.retain(|p| labanplay::rig::is_mesh_path(&p.to_string_lossy()));
    files.sort();
    let mut group = c.benchmark_group("rig mesh");
    group.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_millis(500));
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let ext = path.extension().and_then(|e| e.to_str());
        let Ok(raw) = labanplay::rig::import::read_mesh(&bytes, ext, path.parent()) else { continue };
        let options = labanplay::rig::RigOptions::default();
        // Meshes the program refuses (documented) are not timed.
        let Ok(rigged) = labanplay::rig::rig_mesh(&raw, &options, &mut |_, _| {}) else { continue };
        let name = format!(
            "{} ({} vertices{})",
            path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
            raw.positions_in_input.len(),
            rigged.proxy_vertices.map(|n| format!(", proxy {n}")).unwrap_or_default()
        );
        group.bench_function(format!("embed {name}"), |b| b.iter(|| embed_only(black_box(&raw))));
        group.bench_function(format!("whole {name}"), |b| {
            b.iter(|| labanplay::rig::rig_mesh(black_box(&raw), &options, &mut |_, _| {}))
        });
    }
    group.finish();
}

criterion_group!(benches, rigging, one_frame, shared_meshes);
criterion_main!(benches);
