//! Checks a [`ComJob`] and cuts its time span into support phases, flights, independent
//! segments (between fixed points) and support runs (between flights), all in f64.
//!
//! This is the "checked" form of the job: the solver only ever sees a [`Timeline`].

use glam::{DVec2, DVec3};

use super::job::{ComError, ComJob, Foot, MAX_SPANS, MIN_CONTACT_SECS, MIN_RUN_SECS};

/// The height targets keep planted ankles this far inside the maximum reach, metres.
const TARGET_REACH_MARGIN_M: f64 = 0.005;

/// A checked contact.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CheckedContact {
    pub foot: Foot,
    /// Floor point, world space.
    pub floor_in_world: DVec3,
    /// Ankle centre, world space (floor point + ankle height + relevé lift).
    pub ankle_in_world: DVec3,
    pub t_start_secs: f64,
    pub t_end_secs: f64,
    pub level_offset_m: f64,
    /// Comfortable pelvis-to-ankle distance for this contact's level, metres.
    pub rest_leg_m: f64,
}

/// A maximal time interval with a constant set of planted feet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Phase {
    pub t_start_secs: f64,
    pub t_end_secs: f64,
    /// Indices into [`Timeline::contacts`] of the planted feet (left, right).
    pub planted: [Option<usize>; 2],
    /// Middle of the planted floor points (x, z); in the air, that of the nearest phase
    /// with a planted foot (the one before, else after).
    pub centre_xz: DVec2,
    /// Mean floor height under the planted feet (0 in the air).
    pub floor_y: f64,
    /// Mean level offset of the planted feet (0 in the air).
    pub level_offset_m: f64,
    /// Highest pelvis height the planted legs reach (within [`Timeline::target_reach_m`]
    /// of every planted ankle) with the pelvis over `centre_xz`; infinite in the air.
    pub reach_cap_m: f64,
}

impl Phase {
    pub fn planted(&self) -> impl Iterator<Item = usize> + '_ {
        self.planted.iter().flatten().copied()
    }
}

/// How a support run starts or ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Boundary {
    /// Nothing prescribed (the ends of a job with no fixed point there).
    Free,
    /// Position and velocity prescribed.
    Fixed { position: DVec3, velocity: DVec3 },
    /// Take-off into (at the end) or landing from (at the start) a flight.
    Flight,
}

/// A support interval shaped by one uniform cubic B-spline.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunPlan {
    pub t_start_secs: f64,
    pub t_end_secs: f64,
    /// Number of spline spans (≥ 3).
    pub spans: usize,
    pub start: Boundary,
    pub end: Boundary,
}

impl RunPlan {
    pub fn dt_secs(&self) -> f64 {
        (self.t_end_secs - self.t_start_secs) / self.spans as f64
    }
}

/// Runs that depend on each other (joined by flights), between two fixed points or job ends.
#[derive(Clone, Debug)]
pub(crate) struct SegmentPlan {
    /// In time order; consecutive runs are separated by a flight.
    pub runs: Vec<RunPlan>,
}

/// The checked, cut-up job.
#[derive(Clone, Debug)]
pub(crate) struct Timeline {
    pub contacts: Vec<CheckedContact>,
    /// Contiguous, in time order, covering the whole span.
    pub phases: Vec<Phase>,
    /// Touch-down and lift-off times with their contact index, sorted by time.
    pub contact_events: Vec<(f64, usize)>,
    pub segments: Vec<SegmentPlan>,
    /// Desired-height profile (sorted), empty when levels are used.
    pub height_profile: Vec<(f64, f64)>,
    pub standing_height_m: f64,
    pub gravity_mps2: f64,
    pub max_reach_m: f64,
    /// Leg reach the height targets keep to: just inside where the reach term starts.
    pub target_reach_m: f64,
    /// Comfortable pelvis-to-ankle distance at middle level, metres.
    pub rest_leg_m: f64,
    /// Shortest comfortable pelvis-to-ankle distance used, metres.
    pub min_rest_leg_m: f64,
}

fn finite(value: f64, what: impl FnOnce() -> String) -> Result<(), ComError> {
    if value.is_finite() { Ok(()) } else { Err(ComError::NonFinite { what: what() }) }
}

fn finite3(v: glam::Vec3, what: impl FnOnce() -> String) -> Result<(), ComError> {
    if v.is_finite() { Ok(()) } else { Err(ComError::NonFinite { what: what() }) }
}

fn in_range(name: &'static str, value: f64, ok: bool, expected: &'static str) -> Result<(), ComError> {
    if !value.is_finite() {
        return Err(ComError::NonFinite { what: name.to_string() });
    }
    if ok { Ok(()) } else { Err(ComError::BadParameter { name, value, expected }) }
}

fn check_parameters(job: &ComJob) -> Result<(), ComError> {
    let l = job.leg_length_m;
    in_range("leg_length_m", l, l > 0.0 && l <= 100.0, "in (0, 100] m")?;
    let a = job.ankle_height_m;
    in_range("ankle_height_m", a, (0.0..=l).contains(&a), "in [0, leg_length_m]")?;
    let r = job.rest_leg_ratio;
    in_range("rest_leg_ratio", r, r > 0.0 && r <= 1.0, "in (0, 1]")?;
    let m = job.max_reach_ratio;
    in_range("max_reach_ratio", m, m > 0.0 && m <= 1.0, "in (0, 1]")?;
    let g = job.gravity_mps2;
    in_range("gravity_mps2", g, g > 0.0 && g <= 1000.0, "in (0, 1000] m/s²")?;
    let k = job.knot_rate_hz;
    in_range("knot_rate_hz", k, k > 0.0 && k <= 1000.0, "in (0, 1000] Hz")?;
    let mf = job.min_flight_secs;
    in_range("min_flight_secs", mf, (0.0..=1e6).contains(&mf), "≥ 0 s")?;
    if let Some(h) = job.standing_pelvis_height_m {
        in_range("standing_pelvis_height_m", h, h > 0.0 && h <= 100.0, "in (0, 100] m")?;
    }
    let w = &job.weights;
    for (name, value) in [
        ("weights.balance", w.balance),
        ("weights.reach", w.reach),
        ("weights.comfort", w.comfort),
        ("weights.height", w.height),
        ("weights.centre", w.centre),
        ("weights.push", w.push),
        ("weights.jerk", w.jerk),
    ] {
        in_range(name, value, (0.0..=1e12).contains(&value), "in [0, 1e12]")?;
    }
    Ok(())
}

fn check_contacts(job: &ComJob) -> Result<Vec<CheckedContact>, ComError> {
    if job.contacts.is_empty() {
        return Err(ComError::NoContacts);
    }
    let leg = job.leg_length_m;
    let mut checked = Vec::with_capacity(job.contacts.len());
    for (index, c) in job.contacts.iter().enumerate() {
        finite3(c.position_in_world, || format!("contact {index} position_in_world"))?;
        finite(c.t_start_secs, || format!("contact {index} t_start_secs"))?;
        finite(c.t_end_secs, || format!("contact {index} t_end_secs"))?;
        finite(c.level_offset_m, || format!("contact {index} level_offset_m"))?;
        let duration_secs = c.t_end_secs - c.t_start_secs;
        if duration_secs < MIN_CONTACT_SECS {
            return Err(ComError::ContactTooShort { index, duration_secs });
        }
        if c.level_offset_m.abs() > 0.5 * leg {
            return Err(ComError::BadParameter {
                name: "contact level_offset_m",
                value: c.level_offset_m,
                expected: "within ±0.5 × leg_length_m",
            });
        }
        let floor_in_world = c.position_in_world.as_dvec3();
        let lift = job.ankle_height_m + c.level_offset_m.max(0.0);
        checked.push(CheckedContact {
            foot: c.foot,
            floor_in_world,
            ankle_in_world: floor_in_world + DVec3::Y * lift,
            t_start_secs: c.t_start_secs,
            t_end_secs: c.t_end_secs,
            level_offset_m: c.level_offset_m,
            rest_leg_m: (job.rest_leg_ratio * leg + c.level_offset_m.min(0.0)).max(0.1 * leg),
        });
    }
    Ok(checked)
}

/// Indices of the contacts of one foot, sorted by time, checked for overlaps.
fn per_foot(contacts: &[CheckedContact], foot: Foot) -> Result<Vec<usize>, ComError> {
    let mut ids: Vec<usize> = (0..contacts.len()).filter(|&i| contacts[i].foot == foot).collect();
    ids.sort_by(|&a, &b| contacts[a].t_start_secs.total_cmp(&contacts[b].t_start_secs).then(a.cmp(&b)));
    for pair in ids.windows(2) {
        let (first, second) = (pair[0], pair[1]);
        if contacts[second].t_start_secs < contacts[first].t_end_secs - 1e-9 {
            return Err(ComError::OverlappingContacts { foot, first, second });
        }
    }
    Ok(ids)
}

fn build_phases(contacts: &[CheckedContact], target_reach_m: f64) -> Result<Vec<Phase>, ComError> {
    let feet = [per_foot(contacts, Foot::Left)?, per_foot(contacts, Foot::Right)?];
    let mut events: Vec<f64> = contacts.iter().flat_map(|c| [c.t_start_secs, c.t_end_secs]).collect();
    events.sort_by(f64::total_cmp);
    events.dedup_by(|b, a| *b - *a <= 1e-9);
    let mut phases: Vec<Phase> = Vec::with_capacity(events.len());
    let mut cursor = [0usize; 2];
    for pair in events.windows(2) {
        let (t0, t1) = (pair[0], pair[1]);
        let mid = 0.5 * (t0 + t1);
        let mut planted = [None, None];
        for (side, ids) in feet.iter().enumerate() {
            while let Some(&id) = ids.get(cursor[side]) {
                if contacts[id].t_end_secs <= mid {
                    cursor[side] += 1;
                } else {
                    break;
                }
            }
            if let Some(&id) = ids.get(cursor[side])
                && contacts[id].t_start_secs < mid
            {
                planted[side] = Some(id);
            }
        }
        match phases.last_mut() {
            Some(last) if last.planted == planted => last.t_end_secs = t1,
            _ => phases.push(Phase {
                t_start_secs: t0,
                t_end_secs: t1,
                planted,
                centre_xz: DVec2::ZERO,
                floor_y: 0.0,
                level_offset_m: 0.0,
                reach_cap_m: f64::INFINITY,
            }),
        }
    }
    // Per-phase summaries; airborne phases borrow the centre of the nearest support.
    let mut has_centre = vec![false; phases.len()];
    for (phase, has) in phases.iter_mut().zip(&mut has_centre) {
        let feet: Vec<&CheckedContact> = phase.planted().filter_map(|id| contacts.get(id)).collect();
        if feet.is_empty() {
            continue;
        }
        let n = feet.len() as f64;
        phase.centre_xz = feet.iter().map(|c| DVec2::new(c.floor_in_world.x, c.floor_in_world.z)).sum::<DVec2>() / n;
        phase.floor_y = feet.iter().map(|c| c.floor_in_world.y).sum::<f64>() / n;
        phase.level_offset_m = feet.iter().map(|c| c.level_offset_m).sum::<f64>() / n;
        *has = true;
    }
    let mut last = None;
    for (phase, has) in phases.iter_mut().zip(&has_centre) {
        if *has {
            last = Some(phase.centre_xz);
        } else if let Some(c) = last {
            phase.centre_xz = c;
        }
    }
    let mut next = None;
    for (phase, has) in phases.iter_mut().zip(&has_centre).rev() {
        if *has {
            next = Some(phase.centre_xz);
        } else if let (Some(c), true) = (next, phase.centre_xz == DVec2::ZERO) {
            phase.centre_xz = c;
        }
    }
    for phase in &mut phases {
        let mut cap = f64::INFINITY;
        for c in phase.planted().filter_map(|id| contacts.get(id)) {
            let d = phase.centre_xz.distance(DVec2::new(c.ankle_in_world.x, c.ankle_in_world.z));
            cap = cap.min(c.ankle_in_world.y + (target_reach_m * target_reach_m - d * d).max(0.0).sqrt());
        }
        phase.reach_cap_m = cap;
    }
    Ok(phases)
}

/// Flights: phases with no planted foot lasting at least `min_flight_secs`.
fn flights(phases: &[Phase], min_flight_secs: f64) -> Vec<(f64, f64)> {
    phases
        .iter()
        .filter(|p| p.planted == [None, None])
        .filter(|p| p.t_end_secs - p.t_start_secs >= min_flight_secs.max(1e-6))
        .map(|p| (p.t_start_secs, p.t_end_secs))
        .collect()
}

fn check_height_profile(job: &ComJob) -> Result<Vec<(f64, f64)>, ComError> {
    let mut profile = Vec::with_capacity(job.height_profile.len());
    for (index, s) in job.height_profile.iter().enumerate() {
        finite(s.t_secs, || format!("height_profile {index} t_secs"))?;
        finite(s.height_m, || format!("height_profile {index} height_m"))?;
        profile.push((s.t_secs, s.height_m));
    }
    profile.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    Ok(profile)
}

impl Timeline {
    /// Checks `job` and cuts it up.
    pub fn build(job: &ComJob) -> Result<Self, ComError> {
        check_parameters(job)?;
        let contacts = check_contacts(job)?;
        let height_profile = check_height_profile(job)?;
        let max_reach_m = job.max_reach_ratio * job.leg_length_m;
        let target_reach_m = (max_reach_m - TARGET_REACH_MARGIN_M).max(0.5 * max_reach_m);
        let phases = build_phases(&contacts, target_reach_m)?;
        let (Some(first), Some(last)) = (phases.first(), phases.last()) else {
            return Err(ComError::NoContacts);
        };
        let (span_start_secs, span_end_secs) = (first.t_start_secs, last.t_end_secs);
        let spans = (span_end_secs - span_start_secs) * job.knot_rate_hz;
        if spans > MAX_SPANS as f64 {
            return Err(ComError::TooLong { spans });
        }
        let flights = flights(&phases, job.min_flight_secs);

        // Fixed points, sorted by time, inside the span and outside flights.
        let mut fixed: Vec<(usize, f64, DVec3, DVec3)> = Vec::with_capacity(job.fixed_points.len());
        for (index, f) in job.fixed_points.iter().enumerate() {
            finite(f.t_secs, || format!("fixed point {index} t_secs"))?;
            finite3(f.position_in_world, || format!("fixed point {index} position_in_world"))?;
            finite3(f.velocity_in_world, || format!("fixed point {index} velocity_in_world"))?;
            let t_secs = f.t_secs;
            if t_secs < span_start_secs - 1e-9 || t_secs > span_end_secs + 1e-9 {
                return Err(ComError::FixedPointOutsideSpan { index, t_secs, span_start_secs, span_end_secs });
            }
            let t = t_secs.clamp(span_start_secs, span_end_secs);
            for &(a, b) in &flights {
                if t >= a - 1e-9 && t <= b + 1e-9 {
                    return Err(ComError::FixedPointInFlight {
                        index,
                        t_secs,
                        flight_start_secs: a,
                        flight_end_secs: b,
                    });
                }
            }
            fixed.push((index, t, f.position_in_world.as_dvec3(), f.velocity_in_world.as_dvec3()));
        }
        fixed.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));

        // Cut times: job ends and fixed points; each cut carries its boundary condition.
        let mut cuts: Vec<(f64, Boundary)> = Vec::with_capacity(fixed.len() + 2);
        cuts.push((span_start_secs, Boundary::Free));
        for &(_, t, position, velocity) in &fixed {
            let b = Boundary::Fixed { position, velocity };
            match cuts.last_mut() {
                Some(last) if (t - last.0).abs() <= 1e-9 && last.1 == Boundary::Free => *last = (t, b),
                _ => cuts.push((t, b)),
            }
        }
        match cuts.last() {
            Some(last) if (span_end_secs - last.0).abs() <= 1e-9 => {}
            _ => cuts.push((span_end_secs, Boundary::Free)),
        }

        let mut segments = Vec::with_capacity(cuts.len());
        let mut flight_iter = flights.iter().peekable();
        for pair in cuts.windows(2) {
            let ((s0, b0), (s1, b1)) = (pair[0], pair[1]);
            let mut runs = Vec::new();
            let mut run_start = (s0, b0);
            while let Some(&&(f0, f1)) = flight_iter.peek() {
                if f0 >= s1 {
                    break;
                }
                flight_iter.next();
                runs.push(run(run_start, (f0, Boundary::Flight), job.knot_rate_hz)?);
                run_start = (f1, Boundary::Flight);
            }
            runs.push(run(run_start, (s1, b1), job.knot_rate_hz)?);
            segments.push(SegmentPlan { runs });
        }

        let mut contact_events: Vec<(f64, usize)> =
            contacts.iter().enumerate().flat_map(|(i, c)| [(c.t_start_secs, i), (c.t_end_secs, i)]).collect();
        contact_events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));

        Ok(Self {
            contacts,
            phases,
            contact_events,
            segments,
            height_profile,
            standing_height_m: job.standing_height_m(),
            gravity_mps2: job.gravity_mps2,
            max_reach_m,
            target_reach_m,
            rest_leg_m: job.rest_leg_ratio * job.leg_length_m,
            min_rest_leg_m: 0.1 * job.leg_length_m,
        })
    }

    /// Index of the phase holding time `t_secs` (clamped to the span).
    pub fn phase_index_at(&self, t_secs: f64) -> usize {
        let i = self.phases.partition_point(|p| p.t_end_secs <= t_secs);
        i.min(self.phases.len().saturating_sub(1))
    }

    /// Desired pelvis height at `t_secs` in phase `phase`.
    pub fn desired_height_m(&self, t_secs: f64, phase: &Phase) -> f64 {
        if self.height_profile.is_empty() {
            self.standing_height_m + phase.level_offset_m
        } else {
            interpolate(&self.height_profile, t_secs)
        }
    }

    /// The desired height at `t_secs` in phase `i`, lowered where the planted feet cannot
    /// reach it with the pelvis over the middle of the planted feet (the best case; see
    /// [`Phase::reach_cap_m`]). Long steps thus dip the pelvis by design instead of fighting
    /// the reach term.
    pub fn target_height_m(&self, t_secs: f64, i: usize) -> f64 {
        let Some(phase) = self.phases.get(i) else { return self.standing_height_m };
        self.desired_height_m(t_secs, phase).min(phase.reach_cap_m)
    }

    /// Mean floor height (y) under the planted feet of phase `i`, metres (0 in the air).
    pub fn floor_height_m(&self, i: usize) -> f64 {
        self.phases.get(i).map_or(0.0, |p| p.floor_y)
    }

    /// Where the centre of pressure is expected at `t_secs` in phase `i` (`None` in the air):
    /// on the one planted foot; in double support, moving linearly from the foot that carried
    /// the weight in the phase before to the foot that carries it in the phase after (the
    /// middle of the two feet where a neighbouring phase is not single support on one of them).
    pub fn pressure_reference_xz(&self, i: usize, t_secs: f64) -> Option<DVec2> {
        let phase = self.phases.get(i)?;
        let xz = |id: usize| self.contacts.get(id).map(|c| DVec2::new(c.floor_in_world.x, c.floor_in_world.z));
        match phase.planted {
            [None, None] => None,
            [Some(id), None] | [None, Some(id)] => xz(id),
            [Some(l), Some(r)] => {
                let (pl, pr) = (xz(l)?, xz(r)?);
                let mid = 0.5 * (pl + pr);
                let single = |p: Option<&Phase>| match p.map(|p| p.planted) {
                    Some([Some(x), None]) if x == l => Some(pl),
                    Some([None, Some(x)]) if x == r => Some(pr),
                    _ => None,
                };
                let start = single(i.checked_sub(1).and_then(|j| self.phases.get(j))).unwrap_or(mid);
                let end = single(self.phases.get(i + 1)).unwrap_or(mid);
                let length = phase.t_end_secs - phase.t_start_secs;
                let s = if length > 0.0 { (t_secs - phase.t_start_secs) / length } else { 0.5 };
                Some(start.lerp(end, s.clamp(0.0, 1.0)))
            }
        }
    }

    /// Middle of the planted floor points of the phase nearest `t_secs` that has any.
    pub fn support_centre_xz(&self, t_secs: f64) -> DVec2 {
        self.phases.get(self.phase_index_at(t_secs)).map_or(DVec2::ZERO, |p| p.centre_xz)
    }
}

fn run(start: (f64, Boundary), end: (f64, Boundary), rate_hz: f64) -> Result<RunPlan, ComError> {
    let (t_start_secs, t_end_secs) = (start.0, end.0);
    let length = t_end_secs - t_start_secs;
    if length < MIN_RUN_SECS {
        return Err(ComError::RunTooShort { t_start_secs, t_end_secs });
    }
    // ≥ 3 spans keeps the boundary eliminations at the two ends apart.
    let spans = ((length * rate_hz - 1e-9).ceil().max(3.0)) as usize;
    Ok(RunPlan { t_start_secs, t_end_secs, spans, start: start.1, end: end.1 })
}

/// Piecewise-linear interpolation of sorted `(t, value)` samples, held at the ends.
fn interpolate(samples: &[(f64, f64)], t: f64) -> f64 {
    let i = samples.partition_point(|s| s.0 <= t);
    match (i.checked_sub(1).and_then(|j| samples.get(j)), samples.get(i)) {
        (Some(&(t0, v0)), Some(&(t1, v1))) if t1 > t0 => v0 + (v1 - v0) * (t - t0) / (t1 - t0),
        (Some(&(_, v0)), _) => v0,
        (None, Some(&(_, v1))) => v1,
        (None, None) => 0.0,
    }
}
