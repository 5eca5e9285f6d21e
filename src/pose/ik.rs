//! Analytic IK for 7-DOF limbs (3-DOF root, 1-DOF hinge, 3-DOF end), in the manner of IKAN
//! (Tolani, Goswami & Badler, *Graphical Models* 62, 2000; implemented from the paper).
//!
//! [`solve_limb`] is a job over a plain [`LimbIkJob`]: the hinge angle comes from the law of
//! cosines, the one redundant DOF (the swivel of the elbow/knee about the root→target axis) is
//! chosen near a pole hint inside the range where the joint limits hold, and an optional end
//! orientation sets the wrist/ankle. [`solve_arm`] and [`solve_leg`] apply it to a [`Pose`].

use glam::{DMat3, DQuat, DVec3, Quat, Vec3, Vec4};

use super::fk::{Pose, joint_world};
use super::limits::{JointLimits, normalized_or_identity, rotation_angle_between};
use super::skeleton::{Limb, Side, Skeleton};

/// Inputs of one limb solve. Spaces and units are in each field's doc; see [`LimbIkJob::new`]
/// for the defaults.
///
/// Validity ([`LimbIkJob::validate`]): every number finite; lengths > 0; `rest_dir_in_local`
/// and `hinge_axis_in_local` non-zero and perpendicular (within 1e-3 after normalising);
/// `0 ≤ hinge_min_rad ≤ hinge_max_rad ≤ π`; `reach_tolerance_m ≥ 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimbIkJob {
    /// Root joint centre (shoulder or hip), world space, metres.
    pub root_in_world: Vec3,
    /// World rotation of the root joint's parent frame (clavicle or pelvis). Default identity.
    pub parent_rot_in_world: Quat,
    /// Root → hinge distance (upper arm or thigh), metres.
    pub upper_len_m: f32,
    /// Hinge → end distance (forearm or shank), metres.
    pub lower_len_m: f32,
    /// Direction of the straight limb at rest, in the root's local frame (the hinge and end
    /// joints sit at `upper_len_m`·dir and `(upper + lower)`·dir). Default −Y.
    pub rest_dir_in_local: Vec3,
    /// Hinge axis in the hinge joint's local frame; a positive rotation about it is flexion.
    /// Knee +X (default), elbow −X.
    pub hinge_axis_in_local: Vec3,
    /// Smallest allowed flexion, radians. Default 0.
    pub hinge_min_rad: f32,
    /// Largest allowed flexion, radians. Default π.
    pub hinge_max_rad: f32,
    /// Where the end joint (wrist or ankle) should go, world space, metres.
    pub target_in_world: Vec3,
    /// World-space direction in which the hinge joint (elbow/knee) should stick out from the
    /// root → target axis: swivel 0 (only its part ⟂ that axis counts). `None` (default) takes
    /// the direction it would have if the limb swung there from rest without twisting (at rest:
    /// knee forward, elbow back; arm forward: elbow down; leg forward: knee up).
    pub pole_in_world: Option<Vec3>,
    /// Wanted world rotation of the end joint's frame (hand or foot). `None` (default) leaves the
    /// end joint's local rotation to the caller.
    pub end_rot_in_world: Option<Quat>,
    /// Limits of the root joint's local rotation. Default [`JointLimits::FREE`].
    pub root_limits: JointLimits,
    /// Limits of the end joint's local rotation (used with `end_rot_in_world`). Default free.
    pub end_limits: JointLimits,
    /// Search the swivel for limit-respecting solutions (default true); false uses the pole as is.
    pub search_swivel: bool,
    /// The body's outward direction for this limb, world space (e.g. +X of the chest for the
    /// left arm). When two swivels are otherwise equally good, the one whose upper segment leans
    /// more this way wins, so mirrored limbs with mirrored goals get mirrored solutions.
    /// Default zero (no preference; ties then go to the positive swivel).
    pub outward_in_world: Vec3,
    /// The end joint counts as `reached` within this distance of the target, metres. Default 1e-4.
    pub reach_tolerance_m: f32,
}

/// Output of [`solve_limb`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimbIkSolution {
    /// New local rotation of the root joint (relative to its parent frame).
    pub root_local: Quat,
    /// New local rotation of the hinge joint: a rotation about the hinge axis.
    pub mid_local: Quat,
    /// New local rotation of the end joint, when an end orientation was asked for.
    pub end_local: Option<Quat>,
    /// Hinge joint position, world space, metres.
    pub mid_in_world: Vec3,
    /// End joint position reached, world space, metres.
    pub end_in_world: Vec3,
    /// Hinge flexion angle, radians.
    pub hinge_rad: f32,
    /// Swivel angle chosen, radians, measured from the pole about the root→target axis.
    pub swivel_rad: f32,
    /// The end joint is within `reach_tolerance_m` of the target.
    pub reached: bool,
    /// The target was outside the reachable shell and was moved onto it.
    pub clamped: bool,
    /// The root, hinge and end rotations are all inside their limits.
    pub within_limits: bool,
    /// The end orientation was reached exactly (always true without an orientation target);
    /// false when the end rotation had to be clamped to its limits.
    pub end_rot_reached: bool,
}

/// Why a limb job was rejected.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum IkError {
    /// An input is NaN or infinite.
    #[error("limb IK input `{0}` is not finite")]
    NonFinite(&'static str),
    /// A segment length is zero or negative.
    #[error("limb segment lengths must be positive (upper {upper_len_m} m, lower {lower_len_m} m)")]
    BadLength {
        /// Given upper length, metres.
        upper_len_m: f32,
        /// Given lower length, metres.
        lower_len_m: f32,
    },
    /// The rest direction or hinge axis is zero, or they are not perpendicular.
    #[error("limb rest direction and hinge axis must be non-zero and perpendicular")]
    BadAxes,
    /// The hinge range is not inside [0, π] or is reversed.
    #[error("hinge range {min_rad}..{max_rad} rad must satisfy 0 <= min <= max <= pi")]
    BadHingeRange {
        /// Given minimum, radians.
        min_rad: f32,
        /// Given maximum, radians.
        max_rad: f32,
    },
}

/// A solution is "within limits" when its total limit violation is below this, radians.
const VIOLATION_EPS_RAD: f32 = 1e-5;
/// Swivel samples per side of the pole when the pole itself breaks a limit (5° steps).
const SWIVEL_STEPS: i32 = 36;
/// Bisection steps that refine the feasible swivel closest to the pole.
const BISECT_STEPS: usize = 12;

impl LimbIkJob {
    /// A job with the defaults listed on each field.
    pub fn new(root_in_world: Vec3, upper_len_m: f32, lower_len_m: f32, target_in_world: Vec3) -> Self {
        Self {
            root_in_world,
            parent_rot_in_world: Quat::IDENTITY,
            upper_len_m,
            lower_len_m,
            rest_dir_in_local: Vec3::NEG_Y,
            hinge_axis_in_local: Vec3::X,
            hinge_min_rad: 0.0,
            hinge_max_rad: std::f32::consts::PI,
            target_in_world,
            pole_in_world: None,
            end_rot_in_world: None,
            root_limits: JointLimits::FREE,
            end_limits: JointLimits::FREE,
            search_swivel: true,
            outward_in_world: Vec3::ZERO,
            reach_tolerance_m: 1e-4,
        }
    }

    /// Checks the rules listed on [`LimbIkJob`].
    pub fn validate(&self) -> Result<(), IkError> {
        if !self.all_finite() {
            return Err(self.first_non_finite());
        }
        if self.upper_len_m <= 0.0 || self.lower_len_m <= 0.0 {
            return Err(IkError::BadLength { upper_len_m: self.upper_len_m, lower_len_m: self.lower_len_m });
        }
        // Non-zero and perpendicular: |dir · hinge| ≤ 1e-3·|dir|·|hinge|, squared (no roots).
        let (dir_sq, hinge_sq) = (self.rest_dir_in_local.length_squared(), self.hinge_axis_in_local.length_squared());
        let dot = self.rest_dir_in_local.dot(self.hinge_axis_in_local);
        let usable = |sq: f32| sq > 0.0 && sq.is_finite();
        if !(usable(dir_sq) && usable(hinge_sq)) || dot * dot > 1e-6 * dir_sq * hinge_sq {
            return Err(IkError::BadAxes);
        }
        let hinge_ok = 0.0 <= self.hinge_min_rad
            && self.hinge_min_rad <= self.hinge_max_rad
            && self.hinge_max_rad <= std::f32::consts::PI;
        if !hinge_ok {
            return Err(IkError::BadHingeRange { min_rad: self.hinge_min_rad, max_rad: self.hinge_max_rad });
        }
        if self.reach_tolerance_m < 0.0 {
            return Err(IkError::NonFinite("reach_tolerance_m"));
        }
        Ok(())
    }

    /// Every number finite and each rotation non-zero (what [`Self::first_non_finite`] looks for,
    /// in one test: solves ask this of every job). A finite number times zero is zero and any
    /// other gives NaN, so one sum of such products tells (zeros never overflow).
    fn all_finite(&self) -> bool {
        let z3 = |v: Vec3| v * 0.0;
        let z4 = |q: Quat| Vec4::from(q) * 0.0;
        let vectors = z3(self.root_in_world)
            + z3(self.rest_dir_in_local)
            + z3(self.hinge_axis_in_local)
            + z3(self.target_in_world)
            + self.pole_in_world.map_or(Vec3::ZERO, z3)
            + z3(self.outward_in_world)
            + z3(self.root_limits.min_rad)
            + z3(self.root_limits.max_rad)
            + z3(self.end_limits.min_rad)
            + z3(self.end_limits.max_rad);
        let quats = z4(self.parent_rot_in_world) + self.end_rot_in_world.map_or(Vec4::ZERO, z4);
        let scalars = self.upper_len_m * 0.0
            + self.lower_len_m * 0.0
            + self.hinge_min_rad * 0.0
            + self.hinge_max_rad * 0.0
            + self.reach_tolerance_m * 0.0;
        vectors.element_sum() + quats.element_sum() + scalars == 0.0
            && self.parent_rot_in_world.length_squared() >= 1e-12
            && self.end_rot_in_world.is_none_or(|q| q.length_squared() >= 1e-12)
    }

    /// The first input that is not finite (or a zero rotation), for a job that fails
    /// [`Self::all_finite`].
    fn first_non_finite(&self) -> IkError {
        let vectors = [
            ("root_in_world", self.root_in_world),
            ("rest_dir_in_local", self.rest_dir_in_local),
            ("hinge_axis_in_local", self.hinge_axis_in_local),
            ("target_in_world", self.target_in_world),
            ("pole_in_world", self.pole_in_world.unwrap_or(Vec3::ZERO)),
            ("outward_in_world", self.outward_in_world),
        ];
        for (name, v) in vectors {
            if !v.is_finite() {
                return IkError::NonFinite(name);
            }
        }
        let quats =
            [("parent_rot_in_world", Some(self.parent_rot_in_world)), ("end_rot_in_world", self.end_rot_in_world)];
        for (name, q) in quats {
            if q.is_some_and(|q| !q.is_finite() || q.length_squared() < 1e-12) {
                return IkError::NonFinite(name);
            }
        }
        let scalars = [
            ("upper_len_m", self.upper_len_m),
            ("lower_len_m", self.lower_len_m),
            ("hinge_min_rad", self.hinge_min_rad),
            ("hinge_max_rad", self.hinge_max_rad),
            ("reach_tolerance_m", self.reach_tolerance_m),
        ];
        for (name, x) in scalars {
            if !x.is_finite() {
                return IkError::NonFinite(name);
            }
        }
        // Everything above is finite: the limits are not.
        IkError::NonFinite("limits")
    }
}

/// Everything about a solve that does not depend on the swivel angle, in f64.
struct Geometry {
    root: DVec3,
    parent_rot: DQuat,
    rest_dir: DVec3,
    upper: f64,
    lower: f64,
    /// Unit root → (clamped) target axis.
    axis: DVec3,
    hinge_rad: f64,
    /// World rotation of the root joint at swivel 0 (hinge joint towards the pole).
    root_world_at_pole: DQuat,
    /// Local rotation of the hinge joint (independent of the swivel).
    mid_local: DQuat,
    /// The job's outward direction (tie-break only).
    outward: DVec3,
    clamped: bool,
}

/// Rotations of the three joints at one swivel angle.
struct Candidate {
    root_world: DQuat,
    root_local: Quat,
    mid_local: Quat,
    end_local: Option<Quat>,
}

impl Geometry {
    fn new(job: &LimbIkJob) -> Geometry {
        let root = job.root_in_world.as_dvec3();
        let parent_rot = job.parent_rot_in_world.as_dquat().normalize();
        let rest_dir = job.rest_dir_in_local.as_dvec3().normalize();
        let hinge_raw = job.hinge_axis_in_local.as_dvec3();
        let hinge_axis = (hinge_raw - hinge_raw.dot(rest_dir) * rest_dir).normalize();
        let (upper, lower) = (f64::from(job.upper_len_m), f64::from(job.lower_len_m));
        // Reachable root → end distances from the hinge range (law of cosines).
        let dist_at = |flex: f32| {
            // (A straight limb's range end, 0, is common: its cosine needs no call.)
            let c = if flex == 0.0 { 1.0 } else { f64::from(flex).cos() };
            (upper * upper + lower * lower + 2.0 * upper * lower * c).max(0.0).sqrt()
        };
        let floor = 1e-6 * (upper + lower);
        let dist_lo = dist_at(job.hinge_max_rad).max(floor);
        let dist_hi = dist_at(job.hinge_min_rad).max(dist_lo);
        let to_target = job.target_in_world.as_dvec3() - root;
        let raw_dist = to_target.length();
        let axis =
            to_target.try_normalize().or_else(|| (parent_rot * rest_dir).try_normalize()).unwrap_or(DVec3::NEG_Y);
        let dist = raw_dist.clamp(dist_lo, dist_hi);
        let clamped = (dist - raw_dist).abs() > 1e-9 * (1.0 + upper + lower);
        let cos_a = ((upper * upper + dist * dist - lower * lower) / (2.0 * upper * dist)).clamp(-1.0, 1.0);
        let sin_a = (1.0 - cos_a * cos_a).max(0.0).sqrt();
        let cos_hinge = ((dist * dist - upper * upper - lower * lower) / (2.0 * upper * lower)).clamp(-1.0, 1.0);
        let hinge_rad = (dist * sin_a / lower).atan2(cos_hinge);
        let hinge_rad = hinge_rad.clamp(f64::from(job.hinge_min_rad), f64::from(job.hinge_max_rad));
        // Swivel reference: the pole projected onto the plane ⟂ axis. By default, where the
        // hinge joint would stick out if the limb swung from its rest direction to the axis
        // without twisting (minimal rotation a → b applied to x ⟂ a: x − (x·b)/(1 + a·b)·(a + b)).
        // That is singular only for a limb pointing opposite its rest direction, where the
        // hinge-fixed direction (axis × hinge) is used instead.
        let rest_dir_world = parent_rot * rest_dir;
        let rest_out_world = parent_rot * rest_dir.cross(hinge_axis);
        let one_plus_cos = 1.0 + rest_dir_world.dot(axis);
        let least_twist = if one_plus_cos > 1e-6 {
            rest_out_world - (rest_out_world.dot(axis) / one_plus_cos) * (rest_dir_world + axis)
        } else {
            axis.cross(parent_rot * hinge_axis)
        };
        let project = |p: DVec3| (p - p.dot(axis) * axis).try_normalize();
        let pole_u = job
            .pole_in_world
            .and_then(|p| project(p.as_dvec3()))
            .or_else(|| project(least_twist))
            .unwrap_or_else(|| axis.any_orthonormal_vector());
        // Root frame: maps the rest limb direction to the upper segment and the rest hinge axis
        // to the hinge axis at swivel 0.
        let upper_dir = cos_a * axis + sin_a * pole_u;
        let hinge_now = pole_u.cross(axis);
        let rest_frame = DMat3::from_cols(rest_dir, hinge_axis, rest_dir.cross(hinge_axis));
        let now_frame = DMat3::from_cols(upper_dir, hinge_now, upper_dir.cross(hinge_now));
        let root_world_at_pole = DQuat::from_mat3(&(now_frame * rest_frame.transpose())).normalize();
        Geometry {
            root,
            parent_rot,
            rest_dir,
            upper,
            lower,
            axis,
            hinge_rad,
            root_world_at_pole,
            mid_local: DQuat::from_axis_angle(hinge_axis, hinge_rad),
            outward: job.outward_in_world.as_dvec3(),
            clamped,
        }
    }

    /// The joint rotations at `swivel_rad`. Swivelling turns the whole root frame about the
    /// root → target axis, so this is one quaternion product away from the pole solution.
    fn candidate(&self, swivel_rad: f64, end_rot: Option<DQuat>) -> Candidate {
        // (Swivel 0, the pole, is most solves' answer: the turn is the identity, and the product
        // with it the pole solution itself.)
        let root_world = if swivel_rad == 0.0 {
            self.root_world_at_pole.normalize()
        } else {
            (DQuat::from_axis_angle(self.axis, swivel_rad) * self.root_world_at_pole).normalize()
        };
        let root_local = (self.parent_rot.conjugate() * root_world).normalize();
        let end_local = end_rot.map(|g| ((root_world * self.mid_local).conjugate() * g).normalize());
        Candidate {
            root_world,
            root_local: root_local.as_quat().normalize(),
            mid_local: self.mid_local.as_quat().normalize(),
            end_local: end_local.map(|q| q.as_quat().normalize()),
        }
    }
}

fn violation(job: &LimbIkJob, cand: &Candidate) -> f32 {
    let root = job.root_limits.violation_rad(cand.root_local);
    let end = cand.end_local.map_or(0.0, |q| job.end_limits.violation_rad(q));
    root + end
}

/// Picks the swivel angle: the pole if it keeps the limits, else the limit-respecting swivel
/// closest to it (5° sampling, then bisection to the boundary), else the least-violating sample.
///
/// A straight limb's swivel only turns it about itself, which changes no limit but the twist; when
/// no swivel keeps a nearly straight limb inside its limits, the least-violating one turns it by up
/// to a half turn for the last bit of a swing limit that float noise in the hinge angle decides.
/// So that fallback fades in with the bend ([`straight_weight`]): a straight limb keeps the pole's
/// twist, a continuous function of the goal, and the bend brings the fallback in continuously.
/// `at_pole` is the candidate at swivel 0, whose limits the caller found broken.
fn choose_swivel(job: &LimbIkJob, geo: &Geometry, end_rot: Option<DQuat>, at_pole: &Candidate) -> f64 {
    let score_at = |phi: f64| SwivelScore::of(job, geo, &geo.candidate(phi, end_rot));
    // Only the violation decides feasibility; the tie-break terms are not needed for it.
    let feasible_at = |phi: f64| violation(job, &geo.candidate(phi, end_rot)) <= VIOLATION_EPS_RAD;
    let at_pole = SwivelScore::of(job, geo, at_pole);
    let step = std::f64::consts::PI / f64::from(SWIVEL_STEPS);
    let mut best = (at_pole, 0.0);
    for k in 1..=SWIVEL_STEPS {
        // Both sides at this distance from the pole; ties go to the root rotation closer to
        // rest (a mirror-symmetric rule, so left and right limbs given mirrored goals get
        // mirrored answers).
        let mut feasible: Option<(SwivelScore, f64)> = None;
        for sign in [1.0, -1.0] {
            if k == SWIVEL_STEPS && sign < 0.0 {
                continue; // +π and −π are the same swivel.
            }
            let phi = sign * step * f64::from(k);
            let score = score_at(phi);
            if score.feasible() {
                if feasible.is_none_or(|(f, _)| score.better_than(&f)) {
                    feasible = Some((score, sign));
                }
            } else if score.better_than(&best.0) {
                best = (score, phi);
            }
        }
        if let Some((_, sign)) = feasible {
            // Bisect between the last infeasible sample on this side and the feasible one.
            let (mut bad, mut good) = (sign * step * f64::from(k - 1), sign * step * f64::from(k));
            for _ in 0..BISECT_STEPS {
                let mid = 0.5 * (bad + good);
                if feasible_at(mid) {
                    good = mid;
                } else {
                    bad = mid;
                }
            }
            return good;
        }
    }
    straight_weight(geo.hinge_rad) * best.1
}

/// Bend below which a limb counts as straight (no least-violating swivel), radians (0.25°).
const STRAIGHT_HINGE_RAD: f64 = 0.004_363_323_129_985_824;
/// Bend from which the least-violating swivel is taken in full, radians (1.5°).
const BENT_HINGE_RAD: f64 = 0.026_179_938_779_914_94;

/// How much of the least-violating swivel a limb bent by `hinge_rad` takes: 0 when (nearly)
/// straight, 1 from [`BENT_HINGE_RAD`], smooth in between.
fn straight_weight(hinge_rad: f64) -> f64 {
    let x = ((hinge_rad - STRAIGHT_HINGE_RAD) / (BENT_HINGE_RAD - STRAIGHT_HINGE_RAD)).clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// How good a swivel is: limit violation first, then closeness of the root rotation to rest,
/// then how far the upper segment leans outwards (all unchanged by mirroring the limb and its
/// goal to the other side of the body).
#[derive(Clone, Copy)]
struct SwivelScore {
    violation_rad: f32,
    from_rest_rad: f32,
    outward: f64,
}

impl SwivelScore {
    fn of(job: &LimbIkJob, geo: &Geometry, cand: &Candidate) -> Self {
        Self {
            violation_rad: violation(job, cand),
            from_rest_rad: rotation_angle_between(cand.root_local, Quat::IDENTITY),
            outward: (cand.root_world * geo.rest_dir).dot(geo.outward),
        }
    }

    fn feasible(&self) -> bool {
        self.violation_rad <= VIOLATION_EPS_RAD
    }

    fn better_than(&self, other: &Self) -> bool {
        const TIE_RAD: f32 = 1e-5;
        let both_feasible = self.feasible() && other.feasible();
        if !both_feasible && (self.violation_rad - other.violation_rad).abs() > TIE_RAD {
            return self.violation_rad < other.violation_rad;
        }
        if (self.from_rest_rad - other.from_rest_rad).abs() > TIE_RAD {
            return self.from_rest_rad < other.from_rest_rad;
        }
        self.outward > other.outward + f64::from(TIE_RAD)
    }
}

/// Solves one limb. Never returns NaN: unreachable targets are moved onto the reachable shell
/// (`clamped`), and an impossible limit set gives the least-violating swivel (`within_limits`
/// false). Errors only for invalid jobs (see [`LimbIkJob::validate`]).
pub fn solve_limb(job: &LimbIkJob) -> Result<LimbIkSolution, IkError> {
    job.validate()?;
    let geo = Geometry::new(job);
    let end_rot = job.end_rot_in_world.map(|q| q.as_dquat().normalize());
    // Most solves keep the pole: its candidate and violations then serve the answer as well.
    let at_pole = geo.candidate(0.0, end_rot);
    let limit_violations = |cand: &Candidate| {
        let root = job.root_limits.violation_rad(cand.root_local);
        (root, cand.end_local.map_or(0.0, |q| job.end_limits.violation_rad(q)))
    };
    let pole_violations = limit_violations(&at_pole);
    let (swivel, cand, (root_violation, end_violation)) =
        if pole_violations.0 + pole_violations.1 <= VIOLATION_EPS_RAD || !job.search_swivel {
            (0.0, at_pole, pole_violations)
        } else {
            let swivel = choose_swivel(job, &geo, end_rot, &at_pole);
            let cand = geo.candidate(swivel, end_rot);
            let violations = limit_violations(&cand);
            (swivel, cand, violations)
        };
    let root_ok = root_violation <= VIOLATION_EPS_RAD;
    let (end_local, end_rot_reached) = match cand.end_local {
        Some(q) if end_violation > VIOLATION_EPS_RAD => (Some(job.end_limits.clamp(q)), false),
        other => (other, true),
    };
    // Positions as forward kinematics will see them (from the f32 rotations).
    let root_world = geo.parent_rot * cand.root_local.as_dquat();
    let mid_world = root_world * cand.mid_local.as_dquat();
    let mid = geo.root + root_world * (geo.upper * geo.rest_dir);
    let end = mid + mid_world * (geo.lower * geo.rest_dir);
    let miss = end.distance(job.target_in_world.as_dvec3());
    debug_assert!(cand.root_world.is_finite());
    Ok(LimbIkSolution {
        root_local: cand.root_local,
        mid_local: cand.mid_local,
        end_local,
        mid_in_world: mid.as_vec3(),
        end_in_world: end.as_vec3(),
        hinge_rad: geo.hinge_rad as f32,
        swivel_rad: swivel as f32,
        reached: miss <= f64::from(job.reach_tolerance_m),
        clamped: geo.clamped,
        within_limits: root_ok,
        end_rot_reached,
    })
}

/// The direction a hinge joint sticks out when a limb whose straight direction is `rest_dir` and
/// whose hinge joint points along `rest_out` (⟂ `rest_dir`) swings to `axis` without twisting
/// (the minimal rotation taking `rest_dir` to `axis`, applied to `rest_out`). All world space,
/// unit length. Continuous in its inputs except at `axis = −rest_dir`, where it falls back to
/// the hinge-fixed direction `axis × (rest_dir × rest_out)`.
pub fn least_twist_pole(rest_dir: Vec3, rest_out: Vec3, axis: Vec3) -> Vec3 {
    let one_plus_cos = 1.0 + rest_dir.dot(axis);
    if one_plus_cos > 1e-6 {
        rest_out - (rest_out.dot(axis) / one_plus_cos) * (rest_dir + axis)
    } else {
        axis.cross(rest_dir.cross(rest_out))
    }
}

/// Where a limb of a [`Pose`] should go.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct LimbGoal {
    /// Target of the end joint (wrist or ankle), world space, metres.
    pub end_in_world: Vec3,
    /// Point direction for the elbow/knee (see [`LimbIkJob::pole_in_world`]); `None` = least twist.
    pub pole_in_world: Option<Vec3>,
    /// Wanted world rotation of the hand (wrist frame) or foot (ankle frame); `None` keeps the
    /// pose's local wrist/ankle rotation.
    pub end_rot_in_world: Option<Quat>,
}

/// The job that moves `limb` of `pose` towards `goal`, with the skeleton's lengths and limits.
/// The hinge axis is ±X, whichever side of zero the hinge joint's x range lies on.
pub fn limb_job(skeleton: &Skeleton, pose: &Pose, limb: Limb, goal: &LimbGoal) -> LimbIkJob {
    limb_job_from(skeleton, limb, goal, joint_world(skeleton, pose, limb.parent))
}

/// [`limb_job`] from the world rotation and position of the limb's parent joint (the clavicle or
/// the pelvis): the same job, bit for bit, when `parent_world` is that joint's
/// [`joint_world`] in the pose (callers that solve a limb more than once keep it).
pub fn limb_job_from(skeleton: &Skeleton, limb: Limb, goal: &LimbGoal, parent_world: (Quat, Vec3)) -> LimbIkJob {
    let (parent_rot, parent_pos) = parent_world;
    let root_in_world = parent_pos + parent_rot * skeleton.rest_offset(limb.root);
    let upper = skeleton.rest_offset(limb.mid);
    let lower = skeleton.rest_offset(limb.end);
    let hinge = skeleton.limits(limb.mid);
    let (hinge_axis, lo, hi) = if hinge.max_rad.x.abs() >= hinge.min_rad.x.abs() {
        (Vec3::X, hinge.min_rad.x.max(0.0), hinge.max_rad.x)
    } else {
        (Vec3::NEG_X, (-hinge.max_rad.x).max(0.0), -hinge.min_rad.x)
    };
    let pi = std::f32::consts::PI;
    LimbIkJob {
        parent_rot_in_world: normalized_or_identity(parent_rot),
        rest_dir_in_local: upper.try_normalize().unwrap_or(Vec3::NEG_Y),
        hinge_axis_in_local: hinge_axis,
        hinge_min_rad: lo.clamp(0.0, pi),
        hinge_max_rad: hi.clamp(lo.clamp(0.0, pi), pi),
        pole_in_world: goal.pole_in_world,
        end_rot_in_world: goal.end_rot_in_world,
        root_limits: *skeleton.limits(limb.root),
        outward_in_world: parent_rot * Vec3::X * limb.root.side().map_or(0.0, Side::sign_x),
        end_limits: *skeleton.limits(limb.end),
        ..LimbIkJob::new(root_in_world, upper.length(), lower.length(), goal.end_in_world)
    }
}

/// Solves `limb` towards `goal` and writes the root, hinge and (with an end orientation) end
/// rotations into `pose`. On error the pose is left unchanged.
pub fn solve_limb_in_pose(
    skeleton: &Skeleton,
    pose: &mut Pose,
    limb: Limb,
    goal: &LimbGoal,
) -> Result<LimbIkSolution, IkError> {
    solve_limb_in_pose_from(skeleton, pose, limb, goal, joint_world(skeleton, pose, limb.parent))
}

/// [`solve_limb_in_pose`] with the world rotation and position of the limb's parent joint in
/// `pose` given (see [`limb_job_from`]).
pub fn solve_limb_in_pose_from(
    skeleton: &Skeleton,
    pose: &mut Pose,
    limb: Limb,
    goal: &LimbGoal,
    parent_world: (Quat, Vec3),
) -> Result<LimbIkSolution, IkError> {
    let solution = solve_limb(&limb_job_from(skeleton, limb, goal, parent_world))?;
    pose.set_local(limb.root, solution.root_local);
    pose.set_local(limb.mid, solution.mid_local);
    if let Some(end_local) = solution.end_local {
        pose.set_local(limb.end, end_local);
    }
    Ok(solution)
}

/// Moves the wrist of the arm on `side` to `goal.end_in_world` (optionally turning the hand to
/// `goal.end_rot_in_world`); see [`solve_limb_in_pose`].
pub fn solve_arm(skeleton: &Skeleton, pose: &mut Pose, side: Side, goal: &LimbGoal) -> Result<LimbIkSolution, IkError> {
    solve_limb_in_pose(skeleton, pose, Limb::arm(side), goal)
}

/// Moves the ankle of the leg on `side` to `goal.end_in_world` (optionally turning the foot to
/// `goal.end_rot_in_world`); see [`solve_limb_in_pose`].
pub fn solve_leg(skeleton: &Skeleton, pose: &mut Pose, side: Side, goal: &LimbGoal) -> Result<LimbIkSolution, IkError> {
    solve_limb_in_pose(skeleton, pose, Limb::leg(side), goal)
}

/// The limb of `job` at each swivel of `swivels_rad` (radians from the job's pole about the root
/// → target axis, as [`LimbIkSolution::swivel_rad`]), with no search: the root's limit violation
/// (radians, as the solve weighs it) and the hinge joint's position (world space, metres), into
/// `out` (cleared first). One geometry for all, so a sweep of the swivel costs little per sample.
pub fn swivel_sweep(job: &LimbIkJob, swivels_rad: &[f32], out: &mut Vec<(f32, Vec3)>) -> Result<(), IkError> {
    job.validate()?;
    let geo = Geometry::new(job);
    out.clear();
    out.extend(swivels_rad.iter().map(|&phi| {
        let cand = geo.candidate(f64::from(phi), None);
        let mid = geo.root + geo.parent_rot * cand.root_local.as_dquat() * (geo.upper * geo.rest_dir);
        (job.root_limits.violation_rad(cand.root_local), mid.as_vec3())
    }));
    Ok(())
}
