//! The continuous part of the embedding: each joint moved onto its limb's cross-section centre
//! and onto anatomical landmarks (crotch, armpit, wrist narrowing, neck).

use super::*;

/// Cross-sections of the voxel body: the face-and-corner-connected inside voxels of a thin slab
/// through a point, within a radius.
pub(super) struct Sections<'a> {
    pub(super) body: &'a VoxelBody,
    pub(super) stamp: Vec<u32>,
    pub(super) generation: u32,
    pub(super) stack: Vec<IVec3>,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Section {
    pub(super) count: usize,
    pub(super) centroid: Vec3,
    /// Whether the probe voxel (if any) was reached.
    pub(super) reached_probe: bool,
}

impl<'a> Sections<'a> {
    pub(super) fn new(body: &'a VoxelBody) -> Self {
        Self { body, stamp: vec![0; body.inside.len()], generation: 0, stack: Vec::new() }
    }

    /// The slab section through `p` with unit `normal`, at most `radius` from `p`; `probe` is
    /// a point whose membership is reported.
    pub(super) fn section(&mut self, p: Vec3, normal: Vec3, radius: f32, probe: Option<Vec3>) -> Section {
        let body = self.body;
        self.generation += 1;
        let g = self.generation;
        let half = 0.6 * body.cell_m;
        let within = |c: Vec3| {
            let d = c - p;
            let along = d.dot(normal);
            along.abs() <= half && (d - normal * along).length_squared() <= radius * radius
        };
        // Start at the inside slab voxel nearest p (within two cells).
        let v0 = body.voxel_of(p);
        let mut start = None;
        let mut best = f32::MAX;
        for z in -2..=2 {
            for y in -2..=2 {
                for x in -2..=2 {
                    let v = v0 + IVec3::new(x, y, z);
                    if let Some(i) = body.index(v)
                        && body.inside[i]
                        && within(body.centre(v))
                    {
                        let d = body.centre(v).distance(p);
                        if d < best {
                            best = d;
                            start = Some(v);
                        }
                    }
                }
            }
        }
        let Some(start) = start else { return Section::default() };
        let probe_voxel = probe.map(|q| body.voxel_of(q));
        let mut out = Section::default();
        let mut sum = Vec3::ZERO;
        self.stack.clear();
        self.stack.push(start);
        if let Some(i) = body.index(start) {
            self.stamp[i] = g;
        }
        while let Some(v) = self.stack.pop() {
            let c = body.centre(v);
            sum += c;
            out.count += 1;
            if let Some(q) = probe_voxel
                && (q - v).abs().max_element() <= 1
            {
                out.reached_probe = true;
            }
            for z in -1..=1 {
                for y in -1..=1 {
                    for x in -1..=1 {
                        let w = v + IVec3::new(x, y, z);
                        let Some(i) = body.index(w) else { continue };
                        if self.stamp[i] == g || !body.inside[i] || !within(body.centre(w)) {
                            continue;
                        }
                        self.stamp[i] = g;
                        self.stack.push(w);
                    }
                }
            }
        }
        out.centroid = sum / out.count.max(1) as f32;
        out
    }
}

/// Point of a polyline at height `y` (the first crossing from its start; else the nearest end).
pub(super) fn point_at_height(path: &[Vec3], y: f32) -> Vec3 {
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.y - y) * (b.y - y) <= 0.0 && (a.y - b.y).abs() > 1e-9 {
            return a.lerp(b, (a.y - y) / (a.y - b.y));
        }
    }
    let first = path.first().copied().unwrap_or(Vec3::ZERO);
    let last = path.last().copied().unwrap_or(first);
    if (first.y - y).abs() < (last.y - y).abs() { first } else { last }
}

/// Polyline arc-length parameterisation.
pub(super) struct Polyline {
    pub(super) points: Vec<Vec3>,
    pub(super) arc: Vec<f32>,
}

impl Polyline {
    pub(super) fn new(points: Vec<Vec3>) -> Self {
        let mut arc = vec![0.0];
        for w in points.windows(2) {
            let last = arc.last().copied().unwrap_or(0.0);
            arc.push(last + w[0].distance(w[1]));
        }
        Self { points, arc }
    }

    pub(super) fn length(&self) -> f32 {
        self.arc.last().copied().unwrap_or(0.0)
    }

    pub(super) fn at(&self, s: f32) -> Vec3 {
        let s = s.clamp(0.0, self.length());
        for k in 1..self.arc.len() {
            if self.arc[k] >= s {
                let span = (self.arc[k] - self.arc[k - 1]).max(1e-9);
                return self.points[k - 1].lerp(self.points[k], (s - self.arc[k - 1]) / span);
            }
        }
        self.points.last().copied().unwrap_or(Vec3::ZERO)
    }

    /// Direction at `s`, smoothed over ±`window`.
    pub(super) fn direction(&self, s: f32, window: f32) -> Vec3 {
        (self.at(s + window) - self.at(s - window)).normalize_or(Vec3::Y)
    }
}

/// Section area ratio of the palm to the wrist that makes a hand (below it the "palm" is voxel
/// noise on an arm that only tapers: the shared meshes measure 1.05 without hands, 1.10–2.5 with).
const HAND_WIDENING: f32 = 1.08;
/// Where the wrist of a hand-less arm lies, from its end (body heights).
const HANDLESS_WRIST: f32 = 0.03;
/// Crotch height (body heights) under which legs are short (none of the shared meshes'): the
/// shin and ankle are looked for lower in proportion.
const SHORT_LEGS: f32 = 0.2;
/// Graph length of an arm (shoulder junction to fingertip) in body heights past which it is
/// longer than ordinary (the shared meshes measure 0.33–0.48): a hand not found on the height's
/// scale is looked for on the arm's (its length over this).
const ARM_OF_HEIGHT: f32 = 0.5;
/// Rise of the upper arm's axis (its direction's height component) from which it hangs and the
/// shoulder is found under the shoulder's top, fully so this much higher (an A-pose measures
/// 0.75–0.9, arms down 0.95–1, a T-pose under 0.4).
const HANGING_FROM: f32 = 0.6;
const HANGING_OVER: f32 = 0.15;
/// Depth of a hanging arm's shoulder joint under the top of the shoulder along the upper arm's
/// axis (body heights): the median over the shared meshes' hanging arms, 0.017–0.046 (the
/// acromion to the head of the humerus).
const SHOULDER_UNDER_TOP: f32 = 0.03;

/// Arc length from the fingertip of the wrist (`areas`: section voxel counts by arc length),
/// lengths measured on scale `u`: the narrowest section behind the palm, the palm being the
/// widest section 0.02–0.1 `u` from the fingertip. `Err` with where a hand-less arm's wrist lies
/// when the palm is not wider than that section by [`HAND_WIDENING`].
fn wrist_at(areas: &[(f32, Section)], u: f32) -> Result<f32, f32> {
    let area =
        |s: f32| areas.iter().min_by(|a, b| (a.0 - s).abs().total_cmp(&(b.0 - s).abs())).map_or(0, |a| a.1.count);
    let palm_s = areas
        .iter()
        .filter(|(s, _)| (0.02 * u..=0.1 * u).contains(s))
        .max_by(|a, b| a.1.count.cmp(&b.1.count).then(b.0.total_cmp(&a.0)))
        .map_or(0.05 * u, |a| a.0);
    let narrowest = areas
        .iter()
        .filter(|(s, sec)| (palm_s + 0.02 * u..=palm_s + 0.12 * u).contains(s) && sec.count > 0)
        .min_by(|a, b| a.1.count.cmp(&b.1.count).then(a.0.total_cmp(&b.0)));
    match narrowest {
        Some((s, sec)) if area(palm_s) as f32 >= HAND_WIDENING * sec.count as f32 => Ok(*s),
        Some(_) => Err(HANDLESS_WRIST * u),
        None => Err(0.1 * u),
    }
}

pub(super) struct Leg {
    pub(super) hip: Vec3,
    pub(super) knee: Vec3,
    pub(super) ankle: Vec3,
    pub(super) ball: Vec3,
    pub(super) toe_tip: Vec3,
    pub(super) heel: Vec3,
    /// The crotch was found where the legs' sections part (else a fixed fraction).
    pub(super) crotch_found: bool,
    /// The ankle was found where the section grows into the foot (else a fixed fraction).
    pub(super) ankle_found: bool,
}

pub(super) struct Arm {
    pub(super) shoulder: Vec3,
    pub(super) elbow: Vec3,
    pub(super) wrist: Vec3,
    pub(super) fingertip: Vec3,
    /// The armpit was found where the section jumps (else a fixed fraction of the arm).
    pub(super) armpit_found: bool,
    /// A hand wider than its wrist was found (else the wrist is a fixed distance from the end).
    pub(super) hand_found: bool,
}

pub(super) struct Trunk {
    pub(super) pelvis: Vec3,
    pub(super) spine: Vec3,
    pub(super) chest: Vec3,
    pub(super) neck: Vec3,
    pub(super) head: Vec3,
    pub(super) head_top: Vec3,
}

pub(super) struct Refiner<'a> {
    pub(super) body: &'a VoxelBody,
    pub(super) frame: BodyFrame,
    pub(super) sections: Sections<'a>,
}

impl Refiner<'_> {
    pub(super) fn horizontal(&mut self, at: Vec3, probe: Option<Vec3>) -> Section {
        self.sections.section(at, Vec3::Y, 0.25 * self.frame.height, probe)
    }

    /// A leg from its graph path (pelvis → toe) and the other leg's path: the crotch is where
    /// the horizontal sections of the two legs join; the ankle where the section grows into
    /// the foot; the knee halfway (the narrowest section between calf and thigh lands 2.0 % of
    /// the height off on average over the shared and built-in bodies' 26 legs, halfway 1.0 %);
    /// the hip a little above the crotch on the thigh's axis.
    pub(super) fn leg(&mut self, path: &[Vec3], other: &[Vec3]) -> Leg {
        let f = self.frame;
        let h = f.height;
        let cell = self.body.cell_m;
        let top = path.first().map_or(f.y_at(0.5), |p| p.y);
        // Crotch: scanning down, the first height where the legs' sections part (as low as 5 % of
        // the height: a cartoon's short legs).
        let mut crotch_y = f.y_at(0.45);
        let mut crotch_found = false;
        let mut y = top;
        while y > f.y_at(0.05) {
            let here = point_at_height(path, y);
            let there = point_at_height(other, y);
            let s = self.horizontal(here, Some(there));
            if s.count > 0 && !s.reached_probe {
                crotch_y = y;
                crotch_found = true;
                break;
            }
            y -= cell;
        }
        // The leg's centre line: section centroids from just below the crotch downwards.
        let centre_at = |me: &mut Self, y: f32| -> Vec3 {
            let p = point_at_height(path, y);
            let s = me.horizontal(Vec3::new(p.x, y, p.z), None);
            if s.count > 0 { s.centroid } else { Vec3::new(p.x, y, p.z) }
        };
        // Ankle: the lowest height where the section has shrunk to near the shin's size; the shin
        // lower on legs whose crotch is under a fifth of the height.
        let legs = if crotch_found { ((crotch_y - f.floor_y) / (SHORT_LEGS * h)).min(1.0) } else { 1.0 };
        let shin_centre = centre_at(self, f.y_at(0.15 * legs));
        let shin = self.horizontal(shin_centre, None).count.max(1);
        let mut ankle_y = f.y_at(0.05 * legs);
        let mut y = f.floor_y + cell;
        let mut seen_foot = false;
        let mut ankle_found = false;
        while y < f.y_at(0.15 * legs) {
            let c = centre_at(self, y);
            let s = self.horizontal(c, None);
            seen_foot |= s.count as f32 > 1.5 * shin as f32;
            if seen_foot && s.count > 0 && (s.count as f32) < 1.25 * shin as f32 {
                ankle_y = y;
                ankle_found = true;
                break;
            }
            y += cell;
        }
        let ankle = centre_at(self, ankle_y + 0.02 * h);
        let ankle = Vec3::new(ankle.x, ankle_y, ankle.z);
        let hip_y = crotch_y + 0.045 * h;
        let thigh_top = centre_at(self, crotch_y - 0.03 * h);
        let knee_y = ankle_y + 0.5 * (hip_y - ankle_y);
        let knee = centre_at(self, knee_y);
        let axis = (thigh_top - knee).normalize_or(Vec3::Y);
        let hip = if axis.y > 0.2 {
            knee + axis * ((hip_y - knee.y) / axis.y)
        } else {
            Vec3::new(thigh_top.x, hip_y, thigh_top.z)
        };
        // The foot: inside voxels below the ankle reached from the toe end of the path.
        let foot_start = path.last().copied().unwrap_or(ankle);
        let (toe_tip, heel, ball) = self.foot(foot_start, ankle_y);
        Leg { hip, knee, ankle, ball, toe_tip, heel, crotch_found, ankle_found }
    }

    /// Toe tip (front-most), heel (back-most) and ball of the foot region below `ankle_y`.
    pub(super) fn foot(&mut self, start: Vec3, ankle_y: f32) -> (Vec3, Vec3, Vec3) {
        let body = self.body;
        let f = self.frame;
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![body.voxel_of(start)];
        let mut voxels = Vec::new();
        while let Some(v) = stack.pop() {
            let Some(i) = body.index(v) else { continue };
            if !body.inside[i] || body.centre(v).y > ankle_y || !seen.insert(i) || voxels.len() > 200_000 {
                continue;
            }
            voxels.push(body.centre(v));
            for d in [IVec3::X, IVec3::NEG_X, IVec3::Y, IVec3::NEG_Y, IVec3::Z, IVec3::NEG_Z] {
                stack.push(v + d);
            }
        }
        if voxels.is_empty() {
            return (start, start, start);
        }
        let front = voxels.iter().copied().fold(voxels[0], |a, b| if b.z > a.z { b } else { a });
        let back = voxels.iter().copied().fold(voxels[0], |a, b| if b.z < a.z { b } else { a });
        let ball_z = back.z + 0.72 * (front.z - back.z);
        let near: Vec<Vec3> = voxels.iter().copied().filter(|v| (v.z - ball_z).abs() < body.cell_m).collect();
        let ball_x = if near.is_empty() { front.x } else { near.iter().map(|v| v.x).sum::<f32>() / near.len() as f32 };
        let on_floor = |p: Vec3| Vec3::new(p.x, f.floor_y, p.z);
        (on_floor(front), on_floor(back), Vec3::new(ball_x, f.y_at(0.012), ball_z))
    }

    /// An arm from its graph path (shoulder junction → hand end): the fingertip is the
    /// farthest inside point past the hand end, the wrist the narrowest section near the hand,
    /// the armpit where the section first jumps in size towards the body; the shoulder lies
    /// half an arm radius inside the armpit on the upper arm's axis, or, for a hanging arm, under
    /// the shoulder's top on that axis; the elbow near halfway.
    pub(super) fn arm(&mut self, path: &[Vec3]) -> Arm {
        let h = self.frame.height;
        let cell = self.body.cell_m;
        let line = Polyline::new(path.to_vec());
        let end = line.at(line.length());
        let dir = (end - line.at(0.6 * line.length())).normalize_or(Vec3::NEG_Y);
        let fingertip = self.farthest_along(end, dir, 0.2 * h);
        // From the fingertip back along the path.
        let mut back: Vec<Vec3> = vec![fingertip];
        back.extend(path.iter().rev().copied());
        let arm = Polyline::new(back);
        let window = 0.02 * h;
        let radius = 0.12 * h;
        let steps = (arm.length() / cell).floor() as usize;
        let areas: Vec<(f32, Section)> = (0..steps)
            .map(|k| {
                let s = k as f32 * cell;
                (s, self.sections.section(arm.at(s), arm.direction(s, window), radius, None))
            })
            .collect();
        let area =
            |s: f32| areas.iter().min_by(|a, b| (a.0 - s).abs().total_cmp(&(b.0 - s).abs())).map_or(0, |a| a.1.count);
        // A hand is a palm wider than the wrist behind it, looked for on the height's scale and,
        // on an arm longer than ordinary, on the arm's own (a long arm's hand is longer than the
        // height says); an arm that only tapers to its end (a mannequin without hands) has its
        // wrist at that end.
        let arm_scale = line.length() / ARM_OF_HEIGHT;
        let (wrist_s, hand_found, u) = match wrist_at(&areas, h) {
            Ok(s) => (s, true, h),
            Err(fallback) => match wrist_at(&areas, arm_scale) {
                Ok(s) if arm_scale > h => (s, true, arm_scale),
                _ => (fallback, false, h),
            },
        };
        // Typical forearm section: the median over the next 0.12 of the scale.
        let mut forearm: Vec<usize> =
            areas.iter().filter(|(s, _)| (wrist_s..=wrist_s + 0.12 * u).contains(s)).map(|a| a.1.count).collect();
        forearm.sort_unstable();
        let typical = forearm.get(forearm.len() / 2).copied().unwrap_or(1).max(1);
        // The armpit: the section jumps (to the trunk's side) — 3 times the forearm's and 1.8 times
        // the section 4 % of the height before it, so a thick upper arm or sleeve is not taken for
        // it; failing that, the first section 3 times the forearm's.
        let from_s = (wrist_s + 0.12 * u).max(0.45 * arm.length());
        let past_forearm = |sec: &Section| sec.count as f32 > 3.0 * typical as f32;
        let jump = areas
            .iter()
            .filter(|(s, sec)| *s > from_s && past_forearm(sec) && sec.count as f32 > 1.8 * area(*s - 0.04 * u) as f32)
            .map(|a| a.0)
            .next();
        let armpit_s =
            jump.or_else(|| areas.iter().filter(|(s, sec)| *s > from_s && past_forearm(sec)).map(|a| a.0).next());
        let armpit_found = armpit_s.is_some();
        let armpit_s = armpit_s.unwrap_or(0.8 * arm.length());
        let arm_radius = (typical as f32 * cell * cell / std::f32::consts::PI).sqrt();
        let centroid = |me: &mut Self, s: f32| {
            let sec = me.sections.section(arm.at(s), arm.direction(s, window), radius, None);
            if sec.count > 0 { sec.centroid } else { arm.at(s) }
        };
        let upper_a = centroid(self, armpit_s - 0.03 * u);
        // Below the upper arm's top, however short the arm.
        let mid = 0.5 * (armpit_s + wrist_s) + 0.05 * u;
        let upper_b = centroid(self, if mid > armpit_s - 0.04 * u { armpit_s - 0.07 * u } else { mid });
        let axis = (upper_a - upper_b).normalize_or(arm.direction(armpit_s, window));
        // Raised arms (T-pose) meet the body at the armpit; lowered arms (A-pose, arms down)
        // reach further in: the joint sits deeper the more the upper arm hangs.
        let hang = (axis.y / 0.6).clamp(0.0, 1.0);
        let from_armpit = upper_a + axis * (hang * (0.045 * h + 0.5 * arm_radius));
        let wrist = centroid(self, wrist_s);
        // A hanging upper arm (A-pose, arms down) ends under the shoulder's top: where its axis,
        // carried on up, leaves the body.
        let under_top = ((axis.y - HANGING_FROM) / HANGING_OVER).clamp(0.0, 1.0);
        let top = if under_top > 0.0 { self.exit_along(upper_a, axis, 0.25 * h) } else { None };
        let (shoulder, shoulder_s) = match top {
            Some(top) => {
                let below_top = top - axis * (SHOULDER_UNDER_TOP * h);
                let shoulder = from_armpit.lerp(below_top, under_top);
                let s = (armpit_s + 0.5 * arm_radius) * (1.0 - under_top)
                    + (wrist_s + wrist.distance(shoulder)) * under_top;
                (shoulder, s)
            }
            None => (from_armpit, armpit_s + 0.5 * arm_radius),
        };
        let elbow = centroid(self, wrist_s + 0.48 * (shoulder_s - wrist_s));
        Arm { shoulder, elbow, wrist, fingertip, armpit_found, hand_found }
    }

    /// The last inside point on the ray from `from` along unit `dir` before it leaves the body,
    /// within `reach`; `None` when `from` is outside or the ray stays inside that far.
    pub(super) fn exit_along(&self, from: Vec3, dir: Vec3, reach: f32) -> Option<Vec3> {
        let step = 0.5 * self.body.cell_m;
        if !self.body.is_inside(from) {
            return None;
        }
        let mut at = from;
        while self.body.is_inside(at + dir * step) {
            at += dir * step;
            if at.distance(from) > reach {
                return None;
            }
        }
        Some(at)
    }

    /// The inside voxel connected to `from` (within `radius`) farthest along `dir`.
    pub(super) fn farthest_along(&mut self, from: Vec3, dir: Vec3, radius: f32) -> Vec3 {
        let body = self.body;
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![body.voxel_of(from)];
        let mut best = (from.dot(dir), from);
        while let Some(v) = stack.pop() {
            let Some(i) = body.index(v) else { continue };
            let c = body.centre(v);
            if !body.inside[i] || c.distance(from) > radius || (c - from).dot(dir) < -0.5 * radius || !seen.insert(i) {
                continue;
            }
            let along = c.dot(dir);
            if along > best.0 {
                best = (along, c);
            }
            for d in [IVec3::X, IVec3::NEG_X, IVec3::Y, IVec3::NEG_Y, IVec3::Z, IVec3::NEG_Z] {
                stack.push(v + d);
            }
        }
        best.1
    }

    /// The trunk: pelvis a little above the hips; neck and head about the narrowest
    /// horizontal section between the shoulders and the head top; spine and chest between.
    pub(super) fn trunk(&mut self, hip_mid: Vec3, shoulder_mid: Vec3, head_path: &[Vec3], top_y: f32) -> Trunk {
        let h = self.frame.height;
        let cell = self.body.cell_m;
        let centre = |me: &mut Self, at: Vec3| {
            let s = me.horizontal(at, None);
            if s.count > 0 { Vec3::new(s.centroid.x, at.y, s.centroid.z) } else { at }
        };
        let pelvis_guess = Vec3::new(hip_mid.x, hip_mid.y + 0.025 * h, hip_mid.z);
        let pelvis = centre(self, pelvis_guess);
        let mut narrow = (usize::MAX, shoulder_mid.y + 0.05 * h);
        let mut y = shoulder_mid.y;
        while y < top_y - 0.08 * h {
            let p = point_at_height(head_path, y);
            let s = self.horizontal(Vec3::new(p.x, y, p.z), None);
            if s.count > 0 && s.count < narrow.0 {
                narrow = (s.count, y);
            }
            y += cell;
        }
        let neck_y = (narrow.1 - 0.015 * h).max(shoulder_mid.y + 0.01 * h);
        let head_y = (narrow.1 + 0.03 * h).min(top_y - 0.04 * h).max(neck_y + 0.01 * h);
        let at = |y: f32| {
            let p = point_at_height(head_path, y);
            Vec3::new(p.x, y, p.z)
        };
        // Left–right and front–back from the neck's base: a section at the narrowest height can
        // take in the chin and jaw, which would put the joint in front of the neck.
        let base = centre(self, at((neck_y - 0.03 * h).max(shoulder_mid.y)));
        let neck = Vec3::new(base.x, neck_y, base.z);
        let head = centre(self, at(head_y));
        let lerp_y = |t: f32| pelvis.y + t * (neck.y - pelvis.y);
        let spine_at = pelvis.lerp(neck, 0.19);
        let chest_at = pelvis.lerp(neck, 0.58);
        let spine = centre(self, Vec3::new(spine_at.x, lerp_y(0.19), spine_at.z));
        let chest = centre(self, Vec3::new(chest_at.x, lerp_y(0.58), chest_at.z));
        Trunk { pelvis, spine, chest, neck, head, head_top: Vec3::new(head.x, top_y, head.z) }
    }
}
