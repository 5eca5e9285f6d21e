//! From a dancer's plan to a centre-of-mass path job: footprints become contacts (pivots and
//! rises in place merge with the contact they continue), still intervals and the ends of the
//! score become fixed points at rest, and the level track becomes the height profile.

use super::simple_path::SimplePath;
use crate::motion::com::{ComJob, Contact, FixedPoint, HeightSample, MIN_CONTACT_SECS};
use crate::motion::plan::{DancerPlan, Foot};

/// The longest time in the air a jump can take: an apex of 0.6 m (labanotation-rules §4.5).
pub const MAX_FLIGHT_SECS: f64 = 0.7;

/// A gap in the contacts longer than `max_secs` is no jump anybody can make (the notation left
/// both support columns empty for a long time): the foot that was down before it stays down, so
/// the path stays on the floor instead of flying metres high. Returns how many gaps were bridged.
pub fn bridge_long_gaps(contacts: &mut [Contact], max_secs: f64) -> usize {
    let mut order: Vec<usize> = (0..contacts.len()).collect();
    order.sort_by(|a, b| contacts[*a].t_start_secs.total_cmp(&contacts[*b].t_start_secs));
    let mut bridged = 0;
    let mut covered_until = f64::NEG_INFINITY;
    let mut last: Option<usize> = None;
    for &i in &order {
        let c = contacts[i];
        if let Some(l) = last {
            if c.t_start_secs - covered_until > max_secs && contacts[l].foot != c.foot {
                contacts[l].t_end_secs = c.t_start_secs + 0.05;
                bridged += 1;
            } else if c.t_start_secs - covered_until > max_secs {
                contacts[l].t_end_secs = c.t_start_secs - 0.05;
                bridged += 1;
            }
        }
        if c.t_end_secs >= covered_until {
            covered_until = c.t_end_secs;
            last = Some(i);
        }
        if let Some(l) = last {
            covered_until = covered_until.max(contacts[l].t_end_secs);
        }
    }
    bridged
}

/// Spline knot rate of the pelvis path, per second.
pub const KNOT_RATE_HZ: f64 = 20.0;

/// Body sizes the job needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySizes {
    /// Pelvis height standing at middle level, metres.
    pub standing_pelvis_height_m: f64,
    /// Pelvis-to-ankle distance with the leg stretched, metres.
    pub leg_length_m: f64,
    /// Ankle height above the floor, metres.
    pub ankle_height_m: f64,
}

/// The job for `plan`; `guide` supplies positions for the fixed points.
pub fn com_job(plan: &DancerPlan, guide: &SimplePath, sizes: BodySizes) -> ComJob {
    let end = plan.end_secs.max(0.0);
    let level_at = |t: f64| plan.pelvis_offset.value_at(t, 0.0) as f64;
    let mut contacts: Vec<Contact> = Vec::new();
    for foot in [Foot::Left, Foot::Right] {
        let mut prints: Vec<_> = plan.footprints.iter().filter(|f| f.foot == foot).collect();
        prints.sort_by(|a, b| a.t_land_secs.total_cmp(&b.t_land_secs));
        let mut current: Option<Contact> = None;
        for fp in prints {
            let (t0, t1) = (fp.t_land_secs.max(0.0), fp.t_lift_secs.min(end));
            if t1 - t0 < MIN_CONTACT_SECS {
                continue;
            }
            let level = level_at(0.5 * (t0 + t1));
            if let Some(c) = current.as_mut() {
                if t0 <= c.t_end_secs + 1e-6 {
                    // Continues the same contact (pivot, rise in place): extend it.
                    c.t_end_secs = c.t_end_secs.max(t1);
                    continue;
                }
                contacts.push(*c);
            }
            current = Some(Contact::new(foot, fp.position_in_world, t0, t1).with_level_offset(level));
        }
        if let Some(c) = current {
            contacts.push(c);
        }
    }
    contacts.extend(super::floor::floor_contacts(plan));
    bridge_long_gaps(&mut contacts, MAX_FLIGHT_SECS);
    let mut job = ComJob::new(contacts, sizes.leg_length_m);
    job.standing_pelvis_height_m = Some(sizes.standing_pelvis_height_m);
    job.ankle_height_m = sizes.ankle_height_m;
    // Cubic B-spline knots at 20 Hz: smooth enough for a pelvis (steps last ≥ 0.25 s) and a third
    // fewer unknowns than the optimiser's 30 Hz default.
    job.knot_rate_hz = KNOT_RATE_HZ;
    // A fixed point must sit in a support phase: some foot planted a little before and after.
    let supported = |t: f64| {
        job.contacts.iter().any(|c| c.t_start_secs <= t - 0.02 && c.t_end_secs >= t + 0.02)
            || job.contacts.iter().any(|c| c.t_start_secs <= t && c.t_end_secs >= t && (t == 0.0 || t == end))
    };
    let mut times: Vec<f64> = vec![0.0, end];
    for &(a, b) in &plan.still_intervals {
        times.push(a);
        times.push(b);
    }
    times.retain(|t| t.is_finite() && *t >= 0.0 && *t <= end);
    times.sort_by(f64::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() < 0.05);
    let span = job
        .contacts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| (lo.min(c.t_start_secs), hi.max(c.t_end_secs)));
    job.fixed_points = times
        .into_iter()
        .filter(|t| supported(*t) && *t >= span.0 && *t <= span.1)
        .map(|t| FixedPoint::at_rest(t, guide.position_at(t)))
        .collect();
    let mut samples: Vec<HeightSample> =
        vec![HeightSample { t_secs: 0.0, height_m: sizes.standing_pelvis_height_m + level_at(0.0) }];
    for k in &plan.pelvis_offset.keys {
        for t in [k.t_start_secs, k.t_end_secs] {
            if t.is_finite() && t >= 0.0 {
                samples.push(HeightSample { t_secs: t, height_m: sizes.standing_pelvis_height_m + level_at(t) });
            }
        }
    }
    samples.sort_by(|a, b| a.t_secs.total_cmp(&b.t_secs));
    samples.dedup_by(|a, b| (a.t_secs - b.t_secs).abs() < 1e-6);
    job.height_profile = samples;
    job
}
