//! The mesh's own frame → the rig frame (metres, +Y up, facing +Z, the character's left +X,
//! feet on y = 0): which axis is up, which way it faces, and its unit, each detected from the
//! geometry unless given (`--up`, `--forward`, `--height-m`).

use glam::{Mat3, Vec3};

use super::RigError;

mod silhouette;

pub use silhouette::Silhouette;

/// A signed coordinate axis of the input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Axis {
    /// +X
    PosX,
    /// −X
    NegX,
    /// +Y
    PosY,
    /// −Y
    NegY,
    /// +Z
    PosZ,
    /// −Z
    NegZ,
}

impl Axis {
    /// All six, in parse order.
    pub const ALL: [Axis; 6] = [Axis::PosX, Axis::NegX, Axis::PosY, Axis::NegY, Axis::PosZ, Axis::NegZ];

    /// The unit vector.
    pub fn vector(self) -> Vec3 {
        match self {
            Axis::PosX => Vec3::X,
            Axis::NegX => Vec3::NEG_X,
            Axis::PosY => Vec3::Y,
            Axis::NegY => Vec3::NEG_Y,
            Axis::PosZ => Vec3::Z,
            Axis::NegZ => Vec3::NEG_Z,
        }
    }

    /// `+x`, `-y`, …
    pub fn name(self) -> &'static str {
        match self {
            Axis::PosX => "+x",
            Axis::NegX => "-x",
            Axis::PosY => "+y",
            Axis::NegY => "-y",
            Axis::PosZ => "+z",
            Axis::NegZ => "-z",
        }
    }

    /// Parses `x`, `+x`, `-x`, `y`, … (case-insensitive).
    pub fn parse(text: &str) -> Result<Axis, RigError> {
        let t = text.trim().to_ascii_lowercase();
        let t = t.strip_prefix('+').unwrap_or(&t);
        Axis::ALL
            .into_iter()
            .find(|a| a.name().trim_start_matches('+') == t)
            .ok_or_else(|| RigError::BadOption(format!("axis `{text}`: use x, y, z, -x, -y or -z")))
    }

    fn index(self) -> usize {
        match self {
            Axis::PosX | Axis::NegX => 0,
            Axis::PosY | Axis::NegY => 1,
            Axis::PosZ | Axis::NegZ => 2,
        }
    }

    fn from_index(index: usize, positive: bool) -> Axis {
        match (index, positive) {
            (0, true) => Axis::PosX,
            (0, false) => Axis::NegX,
            (1, true) => Axis::PosY,
            (1, false) => Axis::NegY,
            (2, true) => Axis::PosZ,
            _ => Axis::NegZ,
        }
    }
}

/// Overrides of the detection (all `None`: detect everything).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameOptions {
    /// The input axis pointing up.
    pub up: Option<Axis>,
    /// The input axis the character faces.
    pub forward: Option<Axis>,
    /// The character's standing height in metres (sets the unit).
    pub height_m: Option<f32>,
    /// The format fixes +Y as up (glTF): only the axis choice is checked, never turned over.
    pub y_up_by_format: bool,
}

/// How the input coordinates map onto the rig frame: `rig = rotation · (input · metres_per_unit)
/// + offset_m`.
#[derive(Clone, Debug, PartialEq)]
pub struct InputFrame {
    /// The input axis that is up.
    pub up: Axis,
    /// The input axis the character faces.
    pub forward: Axis,
    /// Metres per input unit.
    pub metres_per_unit: f32,
    /// Rows: the input-space directions of rig +X (left), +Y (up), +Z (forward).
    pub rotation: Mat3,
    /// Added after rotating and scaling, metres.
    pub offset_m: Vec3,
    /// How each choice was made, for the report (`up +y (longest extent)`, …).
    pub reasons: Vec<String>,
}

impl InputFrame {
    /// A point in input coordinates → rig frame, metres.
    pub fn to_rig(&self, p_in_input: Vec3) -> Vec3 {
        self.rotation * (p_in_input * self.metres_per_unit) + self.offset_m
    }

    /// A point in the rig frame → input coordinates and units.
    pub fn to_input(&self, p_in_rig: Vec3) -> Vec3 {
        self.rotation.transpose() * (p_in_rig - self.offset_m) / self.metres_per_unit
    }
}

/// The most units tall read as inches: 3 m, the top of the heights read as metres.
const INCHES_MAX_UNITS: f32 = 3.0 / 0.0254;

/// Finds the frame of the mesh (`positions_in_input`, `triangles` indexing them). Up: one of the
/// two largest extents (the smallest is the body's depth): the longest when it is clearly longer,
/// else the one across which the outline is not mirror-symmetric (a T-pose's arm span matches its
/// height; its left–right axis is the symmetric one); a glTF's +Y when it is one of them. Up
/// points away from the end whose outline has a gap in the middle (between the legs), or when
/// neither end has one, away from the end that spreads far wider (two feet against a head).
/// Left–right is the other of the two, forward where the toes point (past the ankles
/// further than the heels). Units: metres when the height is 0.3–3, inches for 40–118 (1–3 m, so a
/// body read in metres reads the same in inches), centimetres for 30–300, millimetres for
/// 300–3000, else scaled to 1.75 m.
pub fn detect_frame(
    positions_in_input: &[Vec3],
    triangles: &[[u32; 3]],
    options: &FrameOptions,
) -> Result<InputFrame, RigError> {
    let (lo, hi) = bounds(positions_in_input).ok_or_else(|| RigError::Absurd("no vertices".into()))?;
    let extent = hi - lo;
    let diagonal = extent.length();
    if !(diagonal.is_finite() && diagonal > 0.0) {
        return Err(RigError::Absurd("all vertices are at one point".into()));
    }
    let e = extent.to_array();
    let mut reasons = Vec::new();
    let mut width_axis = None;
    let up = match options.up {
        Some(up) => {
            reasons.push(format!("up {} (given)", up.name()));
            up
        }
        None => {
            let (up, width, reason) = detect_up(positions_in_input, triangles, e, options);
            width_axis = Some(width);
            reasons.push(reason);
            up
        }
    };
    let up_index = up.index();
    let forward = match options.forward {
        Some(f) if f.index() == up_index => {
            return Err(RigError::BadOption(format!("--forward {} is the up axis", f.name())));
        }
        Some(f) => {
            reasons.push(format!("forward {} (given)", f.name()));
            f
        }
        None => {
            let others: Vec<usize> = (0..3).filter(|&i| i != up_index).collect();
            let (a, b) = (others[0], others[1]);
            // Left–right is the axis the up detection found symmetric, else the wider horizontal
            // extent (shoulders, arms); the other is forward.
            let depth = match width_axis {
                Some(w) if w == a => b,
                Some(w) if w == b => a,
                _ if e[a] >= e[b] => b,
                _ => a,
            };
            let positive = toes_point_positive(positions_in_input, triangles, up, depth, lo, hi);
            let f = Axis::from_index(depth, positive);
            reasons.push(format!("forward {} (where the toes point)", f.name()));
            f
        }
    };
    let up_v = up.vector();
    let forward_v = forward.vector();
    let left_v = up_v.cross(forward_v);
    let rotation = Mat3::from_cols(left_v, up_v, forward_v).transpose();
    let height_units = e[up_index];
    let metres_per_unit = match options.height_m {
        Some(h) if !(h.is_finite() && (0.3..=3.0).contains(&h)) => {
            return Err(RigError::BadOption(format!("--height-m {h}: use a height between 0.3 and 3 m")));
        }
        Some(h) => {
            reasons.push(format!("height {h} m (given)"));
            h / height_units
        }
        None => {
            let (scale, unit) = if (0.3..=3.0).contains(&height_units) {
                (1.0, "metres")
            } else if (40.0..=INCHES_MAX_UNITS).contains(&height_units) {
                (0.0254, "inches (give --height-m when it is another unit)")
            } else if (30.0..=300.0).contains(&height_units) {
                (0.01, "centimetres")
            } else if (300.0..=3000.0).contains(&height_units) {
                (0.001, "millimetres")
            } else {
                (1.75 / height_units, "unknown units, scaled to 1.75 m tall")
            };
            reasons.push(format!("unit: {unit} ({height_units:.3} units tall)"));
            scale
        }
    };
    let mut frame = InputFrame { up, forward, metres_per_unit, rotation, offset_m: Vec3::ZERO, reasons };
    // Feet on y = 0, centred over the origin.
    let (rlo, rhi) = bounds(&positions_in_input.iter().map(|&p| frame.to_rig(p)).collect::<Vec<_>>())
        .ok_or_else(|| RigError::Absurd("no vertices".into()))?;
    let centre = 0.5 * (rlo + rhi);
    frame.offset_m = Vec3::new(-centre.x, -rlo.y, -centre.z);
    Ok(frame)
}

/// The up axis, the left–right axis and the reason (see [`detect_frame`]).
fn detect_up(points: &[Vec3], triangles: &[[u32; 3]], e: [f32; 3], options: &FrameOptions) -> (Axis, usize, String) {
    // Candidates: the two largest extents, or the two axes besides a given forward.
    let mut order: Vec<usize> = (0..3).filter(|&i| options.forward.is_none_or(|f| f.index() != i)).collect();
    order.sort_by(|&a, &b| e[b].total_cmp(&e[a]).then(a.cmp(&b)));
    let (first, second) = (order[0], order[1]);
    let outline = Silhouette::build(points, triangles, [first, second]);
    let (index, how) = if options.y_up_by_format && (first == 1 || second == 1) {
        (1, "the format's up axis".to_owned())
    } else if e[first] > 1.35 * e[second] {
        (first, "the longest extent".to_owned())
    } else if let Some(outline) = &outline {
        // The outline is mirror-symmetric across its left–right axis, not across its up axis.
        let (m_first, m_second) = (outline.mirror_overlap(0), outline.mirror_overlap(1));
        let index = if m_first < m_second { first } else { second };
        (
            index,
            format!(
                "the outline is symmetric left–right ({:.2} against {:.2})",
                m_first.max(m_second),
                m_first.min(m_second)
            ),
        )
    } else {
        (first, "the longest extent".to_owned())
    };
    let width = first + second - index;
    let (positive, end) = up_sign(points, outline.as_ref(), index, options.y_up_by_format && index == 1);
    let up = Axis::from_index(index, positive);
    (up, width, format!("up {} ({how}; {end})", up.name()))
}

/// Whether up points to the high end of `index`, and why: the legs' gap is at the other end, or
/// failing that the feet spread wider than the head.
fn up_sign(points: &[Vec3], outline: Option<&Silhouette>, index: usize, by_format: bool) -> (bool, &'static str) {
    if by_format {
        return (true, "as the format says");
    }
    if let Some(outline) = outline {
        let k = if outline.axes[0] == index { 0 } else { 1 };
        let gap_low = outline.middle_gap(k, 0.06, 0.14, false);
        let gap_high = outline.middle_gap(k, 0.06, 0.14, true);
        if gap_low > 0.5 && gap_high < 0.25 {
            return (true, "the legs part at the low end");
        }
        if gap_high > 0.5 && gap_low < 0.25 {
            return (false, "the legs part at the high end");
        }
    }
    if let Some((lo, hi)) = bounds(points) {
        let h = hi[index] - lo[index];
        let low = slab_spread(points, index, lo[index], lo[index] + 0.05 * h);
        let high = slab_spread(points, index, hi[index] - 0.05 * h, hi[index]);
        if high > 1.5 * low {
            return (false, "the high end spreads wider, like feet");
        }
    }
    (true, "the low end spreads like feet")
}

/// Axis-aligned bounds, `None` when empty.
pub fn bounds(points: &[Vec3]) -> Option<(Vec3, Vec3)> {
    let first = *points.first()?;
    Some(points.iter().fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p))))
}

/// Spread (standard deviation) of the vertices in a slab of `axis` across the other two axes.
fn slab_spread(points: &[Vec3], axis: usize, from: f32, to: f32) -> f32 {
    let slab: Vec<Vec3> = points.iter().copied().filter(|p| (from..=to).contains(&p[axis])).collect();
    if slab.len() < 3 {
        return 0.0;
    }
    let mean = slab.iter().sum::<Vec3>() / slab.len() as f32;
    let var = slab.iter().map(|p| (*p - mean).length_squared() - (p[axis] - mean[axis]).powi(2)).sum::<f32>();
    (var / slab.len() as f32).sqrt()
}

/// True when the feet extend towards +`depth`: the toes reach further past the ankles than the
/// heels do — the bottom slab's extent (feet) against the extent of the slab just above the feet,
/// 5–10 % of the height up (lower on short legs, scaled by the crotch's height where the
/// outline's legs join under 42 %, but clear of the feet's slab: 3.5–5.5 % at least). Extents, not
/// means: an instep in the ankles' slab of a flattened cartoon foot pulls its mean forward. The
/// shins higher up lean forward past the toes in a plié (their mean at 12–22 % turned five of the
/// six shared meshes round when crouched 30°).
fn toes_point_positive(points: &[Vec3], triangles: &[[u32; 3]], up: Axis, depth: usize, lo: Vec3, hi: Vec3) -> bool {
    let u = up.index();
    let h = hi[u] - lo[u];
    let sign = if up.vector()[u] > 0.0 { 1.0 } else { -1.0 };
    let floor = if sign > 0.0 { lo[u] } else { hi[u] };
    let legs = Silhouette::build(points, triangles, [u, 3 - u - depth])
        .and_then(|outline| outline.legs_join(0, sign < 0.0))
        .map_or(1.0, |join| (join / 0.42).clamp(0.25, 1.0));
    // The feet's reach (heel to toe tip) against the ankles' just above them: the toes reach
    // further past the ankles than the heels do.
    let (mut feet_lo, mut feet_hi, mut ankle_lo, mut ankle_hi) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
    let ankles = (0.05 * legs).max(0.035) * h..=(0.1 * legs).max(0.055) * h;
    for p in points {
        let height = (p[u] - floor) * sign;
        if (0.0..=0.03 * h).contains(&height) {
            feet_lo = feet_lo.min(p[depth]);
            feet_hi = feet_hi.max(p[depth]);
        } else if ankles.contains(&height) {
            ankle_lo = ankle_lo.min(p[depth]);
            ankle_hi = ankle_hi.max(p[depth]);
        }
    }
    if feet_lo > feet_hi || ankle_lo > ankle_hi {
        return true;
    }
    feet_hi - ankle_hi >= ankle_lo - feet_lo
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    #[test]
    fn axes_parse_and_round_trip() {
        assert_eq!(Axis::parse("Z").unwrap(), Axis::PosZ);
        assert_eq!(Axis::parse("-y").unwrap(), Axis::NegY);
        assert!(Axis::parse("w").is_err());
        let points = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(40.0, 20.0, 170.0)];
        let frame = detect_frame(&points, &[], &FrameOptions { up: Some(Axis::PosZ), ..Default::default() }).unwrap();
        assert!((frame.metres_per_unit - 0.01).abs() < 1e-6, "{frame:?}");
        let p = Vec3::new(3.0, 4.0, 5.0);
        assert!(frame.to_input(frame.to_rig(p)).distance(p) < 1e-4);
        assert!((frame.to_rig(Vec3::new(20.0, 10.0, 170.0)).y - 1.7).abs() < 1e-5);
        assert!(detect_frame(&[Vec3::ONE, Vec3::ONE], &[], &FrameOptions::default()).is_err());
        let bad = FrameOptions { up: Some(Axis::PosY), forward: Some(Axis::NegY), ..Default::default() };
        assert!(detect_frame(&points, &[], &bad).is_err());
    }
}
