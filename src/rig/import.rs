//! Mesh files → raw triangles in the file's own coordinates and units. OBJ (`tobj`), glTF and
//! GLB (`gltf`; a skinned mesh is read in its bind space, static nodes with their transforms),
//! PLY (`ply-rs-bw`) and STL (`stl_io`). The format is chosen by content; the extension breaks ties.

use std::io::Cursor;
use std::path::Path;

use base64::Engine;
use glam::{Mat4, Vec3};

use super::RigError;

/// Largest number of triangles accepted (a body needs far fewer).
pub const MAX_TRIANGLES: usize = 8_000_000;

/// The file formats read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MeshFormat {
    /// Wavefront OBJ.
    Obj,
    /// glTF 2.0, JSON or binary (GLB).
    Gltf,
    /// Stanford PLY, ASCII or binary.
    Ply,
    /// STL, ASCII or binary.
    Stl,
}

impl MeshFormat {
    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            MeshFormat::Obj => "OBJ",
            MeshFormat::Gltf => "glTF",
            MeshFormat::Ply => "PLY",
            MeshFormat::Stl => "STL",
        }
    }
}

/// A triangle mesh as stored in the file (input coordinates and units), before any repair.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawMesh {
    /// The format it was read from (`None` only for meshes built in code).
    pub format: Option<MeshFormat>,
    /// Vertex positions in the file's coordinates.
    pub positions_in_input: Vec<Vec3>,
    /// Triangles (polygons fan-triangulated), indices into `positions_in_input`.
    pub triangles: Vec<[u32; 3]>,
    /// Things read but not used (points, lines, …), one line each.
    pub notes: Vec<String>,
    /// A skinned glTF's own skeleton: joint names and bind positions (input coordinates).
    pub own_skeleton: Vec<(String, Vec3)>,
}

/// Reads a mesh from `bytes`. `extension` (without dot) breaks ties between formats; `dir` is
/// where a `.gltf` file's external buffers are looked for.
pub fn read_mesh(bytes: &[u8], extension: Option<&str>, dir: Option<&Path>) -> Result<RawMesh, RigError> {
    let format = detect_format(bytes, extension).ok_or_else(|| RigError::Malformed {
        format: "mesh",
        message: "not an OBJ, glTF/GLB, PLY or STL file (no known signature, no known extension)".into(),
    })?;
    let mut mesh = match format {
        MeshFormat::Obj => read_obj(bytes)?,
        MeshFormat::Gltf => read_gltf(bytes, dir)?,
        MeshFormat::Ply => read_ply(bytes)?,
        MeshFormat::Stl => read_stl(bytes)?,
    };
    mesh.format = Some(format);
    check_raw(&mesh, format)?;
    Ok(mesh)
}

/// The format of `bytes`: by signature first, then by `extension`.
pub fn detect_format(bytes: &[u8], extension: Option<&str>) -> Option<MeshFormat> {
    let head = bytes.get(..bytes.len().min(512)).unwrap_or(bytes);
    let text_head = String::from_utf8_lossy(head);
    let trimmed = text_head.trim_start();
    if bytes.starts_with(b"glTF") || trimmed.starts_with('{') {
        return Some(MeshFormat::Gltf);
    }
    if bytes.starts_with(b"ply") {
        return Some(MeshFormat::Ply);
    }
    if bytes.len() >= 84 {
        let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if count.checked_mul(50).and_then(|n| n.checked_add(84)) == Some(bytes.len()) {
            return Some(MeshFormat::Stl);
        }
    }
    if trimmed.starts_with("solid") && String::from_utf8_lossy(bytes).contains("facet") {
        return Some(MeshFormat::Stl);
    }
    match extension.map(str::to_ascii_lowercase).as_deref() {
        Some("obj") => return Some(MeshFormat::Obj),
        Some("gltf" | "glb") => return Some(MeshFormat::Gltf),
        Some("ply") => return Some(MeshFormat::Ply),
        Some("stl") => return Some(MeshFormat::Stl),
        _ => {}
    }
    let text = std::str::from_utf8(bytes).ok()?;
    text.lines().any(|l| l.trim_start().starts_with("v ")).then_some(MeshFormat::Obj)
}

fn check_raw(mesh: &RawMesh, format: MeshFormat) -> Result<(), RigError> {
    if mesh.triangles.is_empty() {
        let detail = if mesh.notes.is_empty() { String::new() } else { format!(" ({})", mesh.notes.join("; ")) };
        return Err(RigError::Empty { format: format.name(), detail });
    }
    if mesh.triangles.len() > MAX_TRIANGLES {
        return Err(RigError::Absurd(format!("{} triangles (at most {MAX_TRIANGLES})", mesh.triangles.len())));
    }
    let n = mesh.positions_in_input.len();
    if let Some(t) = mesh.triangles.iter().position(|t| t.iter().any(|&i| i as usize >= n)) {
        return Err(RigError::Malformed {
            format: format.name(),
            message: format!("triangle {t} names a vertex past the {n} vertices"),
        });
    }
    if let Some(v) = mesh.positions_in_input.iter().position(|p| !p.is_finite()) {
        return Err(RigError::Absurd(format!("vertex {v} has a non-finite coordinate")));
    }
    Ok(())
}

fn malformed(format: MeshFormat, message: impl std::fmt::Display) -> RigError {
    RigError::Malformed { format: format.name(), message: message.to_string() }
}

/// The first face (or line, or point) index of an OBJ file that no element of the file can have:
/// a positive one larger than the file has lines, a negative (relative) one reaching before the
/// first vertex, texture coordinate or normal (the `tobj` crate multiplies such an index before it
/// checks it). Returns the 1-based line number and the index as written.
fn index_beyond_the_file(bytes: &[u8]) -> Option<(usize, String)> {
    let text = String::from_utf8_lossy(bytes);
    let lines = text.lines().count() as u64;
    // Vertices, texture coordinates and normals defined so far.
    let mut defined = [0u64; 3];
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => defined[0] += 1,
            Some("vt") => defined[1] += 1,
            Some("vn") => defined[2] += 1,
            Some("f" | "l" | "p") => {
                for word in words {
                    for (kind, part) in word.split('/').enumerate().filter(|(_, p)| !p.is_empty()) {
                        let reach = match part.strip_prefix('-') {
                            Some(_) => defined.get(kind).copied().unwrap_or(0),
                            None => lines,
                        };
                        let size = part.trim_start_matches('-').parse::<u64>();
                        if size.map_or(true, |i| i > reach) {
                            return Some((n + 1, part.to_string()));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

fn read_obj(bytes: &[u8]) -> Result<RawMesh, RigError> {
    if let Some((line, index)) = index_beyond_the_file(bytes) {
        let message = format!("line {line}: the index `{index}` is not a number of an element of this file");
        return Err(malformed(MeshFormat::Obj, message));
    }
    let options = tobj::LoadOptions { triangulate: true, single_index: false, ..Default::default() };
    let (models, _materials) =
        tobj::load_obj_buf(&mut Cursor::new(bytes), &options, |_| Err(tobj::LoadError::OpenFileFailed))
            .map_err(|e| malformed(MeshFormat::Obj, format!("{e}")))?;
    let mut out = RawMesh::default();
    for model in models {
        let base = out.positions_in_input.len() as u32;
        let m = &model.mesh;
        out.positions_in_input.extend(m.positions.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])));
        let count = (m.positions.len() / 3) as u32;
        for t in m.indices.chunks_exact(3) {
            if t.iter().any(|&i| i >= count) {
                return Err(malformed(
                    MeshFormat::Obj,
                    format!("object `{}`: a face index is out of range", model.name),
                ));
            }
            out.triangles.push([base + t[0], base + t[1], base + t[2]]);
        }
    }
    Ok(out)
}

/// The GLB header's total length when `bytes` is a GLB file whose length is impossible (shorter
/// than the 12-byte header itself, which the `gltf` crate does not check before subtracting).
fn impossible_glb_length(bytes: &[u8]) -> Option<u32> {
    let length = u32::from_le_bytes(bytes.get(8..12)?.try_into().ok()?);
    (bytes.starts_with(b"glTF") && length < 12).then_some(length)
}

fn read_gltf(bytes: &[u8], dir: Option<&Path>) -> Result<RawMesh, RigError> {
    if let Some(length) = impossible_glb_length(bytes) {
        return Err(malformed(
            MeshFormat::Gltf,
            format!("the GLB header gives a length of {length} bytes, less than the header"),
        ));
    }
    let gltf = gltf::Gltf::from_slice(bytes).map_err(|e| malformed(MeshFormat::Gltf, e))?;
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for buffer in gltf.buffers() {
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => {
                gltf.blob.clone().ok_or_else(|| malformed(MeshFormat::Gltf, "buffer refers to a missing GLB chunk"))?
            }
            gltf::buffer::Source::Uri(uri) => load_uri(uri, dir)?,
        };
        if data.len() < buffer.length() {
            return Err(malformed(
                MeshFormat::Gltf,
                format!("buffer {} holds {} bytes, {} declared", buffer.index(), data.len(), buffer.length()),
            ));
        }
        buffers.push(data);
    }
    let mut out = RawMesh::default();
    let roots: Vec<gltf::Node> = match gltf.default_scene().or_else(|| gltf.scenes().next()) {
        Some(scene) => scene.nodes().collect(),
        None => gltf.nodes().collect(),
    };
    let mut stack: Vec<(gltf::Node, Mat4)> = roots.into_iter().rev().map(|n| (n, Mat4::IDENTITY)).collect();
    let mut visited = 0usize;
    while let Some((node, parent)) = stack.pop() {
        visited += 1;
        if visited > 100_000 {
            return Err(malformed(MeshFormat::Gltf, "the node tree is too deep or cyclic"));
        }
        let world = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
        if let Some(mesh) = node.mesh() {
            // A skinned mesh's vertices are in bind space; its node transform does not apply.
            let placed = if node.skin().is_some() { Mat4::IDENTITY } else { world };
            read_gltf_mesh(&mesh, placed, &buffers, &mut out)?;
        }
        if let Some(skin) = node.skin()
            && out.own_skeleton.is_empty()
        {
            let reader = skin.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
            if let Some(ibms) = reader.read_inverse_bind_matrices() {
                for (joint, ibm) in skin.joints().zip(ibms) {
                    let at = Mat4::from_cols_array_2d(&ibm).inverse().w_axis.truncate();
                    out.own_skeleton.push((joint.name().unwrap_or("").to_owned(), at));
                }
            }
        }
        let children: Vec<gltf::Node> = node.children().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, world)));
    }
    Ok(out)
}

fn read_gltf_mesh(mesh: &gltf::Mesh, placed: Mat4, buffers: &[Vec<u8>], out: &mut RawMesh) -> Result<(), RigError> {
    use gltf::mesh::Mode;
    for primitive in mesh.primitives() {
        let reader = primitive.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
        let Some(positions) = reader.read_positions() else {
            out.notes.push(format!("mesh {}: a primitive without positions was skipped", mesh.index()));
            continue;
        };
        let base = out.positions_in_input.len() as u32;
        out.positions_in_input.extend(positions.map(|p| placed.transform_point3(Vec3::from_array(p))));
        let count = out.positions_in_input.len() as u32 - base;
        let indices: Vec<u32> = match reader.read_indices() {
            Some(i) => i.into_u32().collect(),
            None => (0..count).collect(),
        };
        if indices.iter().any(|&i| i >= count) {
            return Err(malformed(MeshFormat::Gltf, format!("mesh {}: an index is out of range", mesh.index())));
        }
        let tri = |a: u32, b: u32, c: u32| [base + a, base + b, base + c];
        match primitive.mode() {
            Mode::Triangles => out.triangles.extend(indices.chunks_exact(3).map(|t| tri(t[0], t[1], t[2]))),
            Mode::TriangleStrip => {
                for (k, w) in indices.windows(3).enumerate() {
                    out.triangles.push(if k % 2 == 0 { tri(w[0], w[1], w[2]) } else { tri(w[1], w[0], w[2]) });
                }
            }
            Mode::TriangleFan => {
                if let Some((&first, rest)) = indices.split_first() {
                    out.triangles.extend(rest.windows(2).map(|w| tri(first, w[0], w[1])));
                }
            }
            other => out.notes.push(format!("mesh {}: a {other:?} primitive was skipped", mesh.index())),
        }
    }
    Ok(())
}

fn load_uri(uri: &str, dir: Option<&Path>) -> Result<Vec<u8>, RigError> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, data) = rest
            .split_once(";base64,")
            .ok_or_else(|| malformed(MeshFormat::Gltf, "a data URI buffer is not base64"))?;
        return base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| malformed(MeshFormat::Gltf, format!("buffer data URI: {e}")));
    }
    let dir = dir.ok_or_else(|| malformed(MeshFormat::Gltf, format!("external buffer `{uri}` without a folder")))?;
    if uri.contains("..") || uri.starts_with('/') || uri.contains(':') {
        return Err(malformed(MeshFormat::Gltf, format!("external buffer `{uri}` is outside the file's folder")));
    }
    let path = dir.join(uri.replace("%20", " "));
    std::fs::read(&path).map_err(|e| RigError::Io { path: path.display().to_string(), message: e.to_string() })
}

fn read_ply(bytes: &[u8]) -> Result<RawMesh, RigError> {
    use ply_rs_bw::ply::Property;
    let parser = ply_rs_bw::parser::Parser::<ply_rs_bw::ply::DefaultElement>::new();
    let ply = parser.read_ply(&mut Cursor::new(bytes)).map_err(|e| malformed(MeshFormat::Ply, e))?;
    let scalar = |p: Option<&Property>| -> Option<f32> {
        Some(match p? {
            Property::Char(v) => f32::from(*v),
            Property::UChar(v) => f32::from(*v),
            Property::Short(v) => f32::from(*v),
            Property::UShort(v) => f32::from(*v),
            Property::Int(v) => *v as f32,
            Property::UInt(v) => *v as f32,
            Property::Float(v) => *v,
            Property::Double(v) => *v as f32,
            _ => return None,
        })
    };
    let list = |p: &Property| -> Option<Vec<i64>> {
        Some(match p {
            Property::ListChar(v) => v.iter().map(|&x| i64::from(x)).collect(),
            Property::ListUChar(v) => v.iter().map(|&x| i64::from(x)).collect(),
            Property::ListShort(v) => v.iter().map(|&x| i64::from(x)).collect(),
            Property::ListUShort(v) => v.iter().map(|&x| i64::from(x)).collect(),
            Property::ListInt(v) => v.iter().map(|&x| i64::from(x)).collect(),
            Property::ListUInt(v) => v.iter().map(|&x| i64::from(x)).collect(),
            _ => return None,
        })
    };
    let mut out = RawMesh::default();
    let vertices = ply.payload.get("vertex").ok_or_else(|| malformed(MeshFormat::Ply, "no `vertex` element"))?;
    for (i, v) in vertices.iter().enumerate() {
        match (scalar(v.get("x")), scalar(v.get("y")), scalar(v.get("z"))) {
            (Some(x), Some(y), Some(z)) => out.positions_in_input.push(Vec3::new(x, y, z)),
            _ => return Err(malformed(MeshFormat::Ply, format!("vertex {i} lacks a numeric x, y or z"))),
        }
    }
    let n = out.positions_in_input.len() as i64;
    for (f, face) in ply.payload.get("face").map(Vec::as_slice).unwrap_or_default().iter().enumerate() {
        let Some(indices) = face.get("vertex_indices").or_else(|| face.get("vertex_index")).and_then(list) else {
            return Err(malformed(MeshFormat::Ply, format!("face {f} has no vertex_indices list")));
        };
        if indices.iter().any(|&i| i < 0 || i >= n) {
            return Err(malformed(MeshFormat::Ply, format!("face {f} names a vertex outside 0..{n}")));
        }
        if let Some((&first, rest)) = indices.split_first() {
            out.triangles.extend(rest.windows(2).map(|w| [first as u32, w[0] as u32, w[1] as u32]));
        }
    }
    if ply.payload.get("face").is_none() {
        out.notes.push("points only (no `face` element)".into());
    }
    Ok(out)
}

fn read_stl(bytes: &[u8]) -> Result<RawMesh, RigError> {
    let mesh = stl_io::read_stl(&mut Cursor::new(bytes)).map_err(|e| malformed(MeshFormat::Stl, e))?;
    let n = mesh.vertices.len();
    let mut out = RawMesh {
        positions_in_input: mesh.vertices.iter().map(|v| Vec3::new(v.0[0], v.0[1], v.0[2])).collect(),
        ..RawMesh::default()
    };
    for (f, face) in mesh.faces.iter().enumerate() {
        if face.vertices.iter().any(|&i| i >= n) {
            return Err(malformed(MeshFormat::Stl, format!("facet {f} names a missing vertex")));
        }
        out.triangles.push(face.vertices.map(|i| i as u32));
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    const TETRA_OBJ: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

    #[test]
    fn every_format_reads_a_tetrahedron() {
        let obj = read_mesh(TETRA_OBJ.as_bytes(), Some("obj"), None).unwrap();
        assert_eq!((obj.positions_in_input.len(), obj.triangles.len()), (4, 4));
        let ply = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n\
                   element face 2\nproperty list uchar int vertex_indices\nend_header\n\
                   0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n3 0 2 3\n";
        let ply = read_mesh(ply.as_bytes(), None, None).unwrap();
        assert_eq!((ply.format, ply.triangles.len()), (Some(MeshFormat::Ply), 3));
        let stl = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n\
                   endfacet\nendsolid t\n";
        let stl = read_mesh(stl.as_bytes(), None, None).unwrap();
        assert_eq!((stl.format, stl.triangles.len()), (Some(MeshFormat::Stl), 1));
    }

    #[test]
    fn malformed_files_give_clear_errors() {
        let err = |bytes: &[u8], ext| read_mesh(bytes, ext, None).unwrap_err().to_string();
        assert!(err(b"", Some("obj")).contains("no triangles"), "{}", err(b"", Some("obj")));
        assert!(err(b"\x00\x01binary junk", None).contains("not an OBJ"));
        assert!(err(b"v 0 0 0\nv 1 0 0\nf 1 2 9\n", Some("obj")).contains("OBJ"));
        assert!(err(b"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", Some("obj")).contains("non-finite"));
        assert!(err(b"{\"asset\": {\"version\": \"2.0\"}, \"meshes\": [", None).contains("glTF"));
        assert!(err(b"{\"asset\": {\"version\": \"2.0\"}}", None).contains("no triangles"));
        assert!(err(b"ply\nformat ascii 1.0\nelement vertex 1\nend_header\n", None).contains("PLY"));
        assert!(err(b"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0\n", Some("stl")).contains("STL"));
        let mut binary = vec![0u8; 84];
        binary[80] = 3; // claims 3 facets, holds none
        assert!(err(&binary, Some("stl")).contains("STL"));
    }
}
