//! Partners in a hold come together and travel together. Each staff's travel is planned on its
//! own; for each contact between two dancers, in the order they are reached, this moves the two
//! plans on the floor:
//!
//! - Approach: over the steps of the [`APPROACH_BEATS`] beats before the bow (up to a quarter of
//!   a second before the reach), the two walk towards each other until the shoulders of the parts
//!   are within [`COMFORT_REACH_FRACTION`] of the arms' reach. A dancer with no step there leaves
//!   the way to the partner; dancers with no step at all before their first contact start where
//!   it needs them.
//! - Hold: from the reach to the release their offset (turned by the couple's mean turn) stays
//!   what it was at the reach, and the couple's centre follows the mean of the two written
//!   stances (midway between the feet). While one of them does not step again before the
//!   release, the other keeps to where that one stands.
//! - After the release each goes on from where the hold left them.
//!
//! A dancer moves only by stepping: each footprint moves by the shift at the landing that set the
//! foot down (a pivot or a rise continues it), so planted feet never slide; the centre-of-weight
//! keys move with the stance, floor supports by the shift when they begin. Plain function over
//! plans, before the pelvis paths are solved.

use super::solve::{SURFACE_OFFSET_M, palm_in_world};
use super::timing::{ContactPart, ContactPoint, TimedContact};
use crate::motion::floor::{FloorState, LegSupport};
use crate::motion::plan::DancerPlan;
use crate::pose::fk::{Pose, joint_world};
use crate::pose::skeleton::{JointId, Side, Skeleton};
use crate::score::ContactSurface;
use glam::{Quat, Vec3};

/// The shoulders of a contact's parts are brought within this fraction of the arms' summed
/// reach (horizontally): the hands meet with the arms slightly bent.
pub const COMFORT_REACH_FRACTION: f32 = 0.7;

/// Beats before a contact's bow over whose steps the partners walk towards each other.
pub const APPROACH_BEATS: f64 = 4.0;

/// A step landing less than this before a contact is reached has no time to carry the weight
/// over: the approach is walked by the steps before it, seconds.
const APPROACH_SETTLE_SECS: f64 = 0.25;

/// The last step in a hold before a stop lands the foot ahead of where the couple's placement puts
/// the dancer by as much as the other foot is behind it, so the stance between the feet is there;
/// by at most this, metres.
pub const MAX_FOOT_LEAD_M: f32 = 0.1;

/// A placement followed by another within this is a step of a dancer stepping on, seconds.
const STEPPING_ON_SECS: f64 = 0.6;

/// The body sizes the approach needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoupleSizes {
    /// Left and right shoulder joints relative to the pelvis, rest pose facing +Z, metres.
    pub shoulders_in_pelvis: [Vec3; 2],
    /// Shoulder to palm with the arm straight, metres.
    pub arm_reach_m: f32,
}

impl CoupleSizes {
    /// The sizes of `skeleton` (rest pose: arms hanging straight).
    pub fn new(skeleton: &Skeleton) -> Self {
        let rest = Pose::rest(skeleton);
        let at = |j| joint_world(skeleton, &rest, j).1;
        let shoulder_l = at(JointId::ShoulderL);
        CoupleSizes {
            shoulders_in_pelvis: [shoulder_l - rest.pelvis_in_world, at(JointId::ShoulderR) - rest.pelvis_in_world],
            arm_reach_m: palm_in_world(skeleton, &rest, Side::Left).distance(shoulder_l),
        }
    }
}

/// One dancer while the contacts are worked through: the written plan and the floor shift at
/// each of its placements (footprint landings, floor supports beginning), in time order. The
/// shift of a placement holds until the next one: a dancer moves only by stepping.
struct Mover<'a> {
    plan: &'a DancerPlan,
    /// Per footprint (plan order): when its foot was set down there ([`placed_secs`]).
    placed_secs: Vec<f64>,
    events_secs: Vec<f64>,
    landings_secs: Vec<f64>,
    /// Per event: which feet (left, right) it places; a floor support places both.
    event_feet: Vec<[bool; 2]>,
    /// After each landing (in landing order): the written stance, midway between the feet.
    stances: Vec<(f64, Vec3)>,
    shifts: Vec<Vec3>,
}

impl<'a> Mover<'a> {
    fn new(plan: &'a DancerPlan) -> Self {
        let mut prints: Vec<&crate::motion::plan::Footprint> = plan.footprints.iter().collect();
        prints.sort_by(|x, y| x.t_land_secs.total_cmp(&y.t_land_secs));
        let mut last = [None, None];
        let mut stances = Vec::with_capacity(prints.len());
        for fp in prints {
            last[if fp.foot == Side::Left { 0 } else { 1 }] = Some(fp.position_in_world);
            let feet: Vec<Vec3> = last.iter().flatten().copied().collect();
            stances.push((fp.t_land_secs, feet.iter().sum::<Vec3>() / feet.len() as f32));
        }
        let placed_secs = placed_secs(plan);
        let mut landings_secs = placed_secs.clone();
        landings_secs.sort_by(f64::total_cmp);
        landings_secs.dedup();
        let mut events_secs = landings_secs.clone();
        events_secs.extend(plan.floor.keys.iter().map(|k| k.t_start_secs));
        events_secs.retain(|t| t.is_finite());
        events_secs.sort_by(f64::total_cmp);
        events_secs.dedup();
        let event_feet = events_secs
            .iter()
            .map(|&t| {
                if plan.floor.keys.iter().any(|k| k.t_start_secs == t) {
                    return [true, true];
                }
                let lands = |foot| plan.footprints.iter().zip(&placed_secs).any(|(f, p)| f.foot == foot && *p == t);
                [lands(Side::Left), lands(Side::Right)]
            })
            .collect();
        let shifts = vec![Vec3::ZERO; events_secs.len()];
        Mover { plan, placed_secs, events_secs, landings_secs, event_feet, stances, shifts }
    }

    /// The shift of the stance at `t_secs` for `shifts` (one per event): the mean of the shifts of
    /// the last placements of each foot.
    fn stance_shift(&self, shifts: &[Vec3], t_secs: f64) -> Vec3 {
        let k = self.events_secs.partition_point(|e| *e <= t_secs);
        let last_of = |foot: usize| (0..k).rev().find(|&i| self.event_feet[i][foot]).and_then(|i| shifts.get(i));
        match (last_of(0), last_of(1)) {
            (Some(l), Some(r)) => (*l + *r) * 0.5,
            (Some(c), None) | (None, Some(c)) => *c,
            (None, None) => shifts.first().copied().unwrap_or(Vec3::ZERO),
        }
    }

    /// The shift of event `i`'s foot for the stance to shift by `stance_shift`. While the dancer
    /// steps on (another placement within [`STEPPING_ON_SECS`] and before `until_secs`) the foot
    /// takes it and the stance follows half a step behind; the last step before a stop leads by as
    /// much as the other foot lags (at most [`MAX_FOOT_LEAD_M`]), so the dancer stops there.
    fn foot_shift(&self, shifts: &[Vec3], i: usize, stance_shift: Vec3, until_secs: f64) -> Vec3 {
        let feet = self.event_feet[i];
        let t = self.events_secs[i];
        let steps_on = self.events_secs.get(i + 1).is_some_and(|n| *n <= (t + STEPPING_ON_SECS).min(until_secs));
        if feet[0] == feet[1] || steps_on {
            return stance_shift;
        }
        let other = if feet[0] { 1 } else { 0 };
        match (0..i).rev().find(|&j| self.event_feet[j][other]).and_then(|j| shifts.get(j)) {
            Some(lagging) => stance_shift + (stance_shift - *lagging).clamp_length_max(MAX_FOOT_LEAD_M),
            None => stance_shift,
        }
    }

    /// The shift of the stance in force at `t_secs`.
    fn shift_at(&self, t_secs: f64) -> Vec3 {
        self.stance_shift(&self.shifts, t_secs)
    }

    /// Where the dancer stands as written at `t_secs`: midway between the last footprints of the
    /// two feet landed by then (the centre of weight's track before the first landing).
    fn written_ground_at(&self, t_secs: f64) -> Vec3 {
        let k = self.stances.partition_point(|s| s.0 <= t_secs);
        if let Some((_, at)) = k.checked_sub(1).and_then(|i| self.stances.get(i)) {
            return Vec3::new(at.x, 0.0, at.z);
        }
        match self.plan.com_ground.segment_at(t_secs) {
            Some((a, b, s)) => {
                let p = a.lerp(b, s);
                Vec3::new(p.x, 0.0, p.z)
            }
            None => Vec3::ZERO,
        }
    }

    fn ground_at(&self, t_secs: f64) -> Vec3 {
        self.written_ground_at(t_secs) + self.shift_at(t_secs)
    }

    fn yaw_at(&self, t_secs: f64) -> f32 {
        self.plan.yaw.value_at(t_secs, 0.0)
    }

    /// Where the contact part `p` of this dancer is anchored on the floor at `t_secs`: its
    /// shoulder (the point of a shoulder or upper arm, its surface included).
    fn anchor_at(&self, p: ContactPoint, sizes: &CoupleSizes, t_secs: f64) -> Vec3 {
        let yaw = self.yaw_at(t_secs);
        let turn = Quat::from_rotation_y(yaw);
        let shoulder = sizes.shoulders_in_pelvis[if p.part.side() == Side::Left { 0 } else { 1 }];
        let forward = turn * Vec3::Z;
        let surface = match (p.part, p.surface) {
            (ContactPart::Hand(_) | ContactPart::Wrist(_), _) | (_, ContactSurface::Any) => Vec3::ZERO,
            (_, ContactSurface::Front) => forward * SURFACE_OFFSET_M,
            (_, ContactSurface::Back) => -forward * SURFACE_OFFSET_M,
        };
        let at = self.ground_at(t_secs) + turn * Vec3::new(shoulder.x, 0.0, shoulder.z) + surface;
        Vec3::new(at.x, 0.0, at.z)
    }

    /// The landings in `(from, to]`, in time order.
    fn landings_in(&self, from_secs: f64, to_secs: f64) -> &[f64] {
        let a = self.landings_secs.partition_point(|t| *t <= from_secs);
        let b = self.landings_secs.partition_point(|t| *t <= to_secs);
        &self.landings_secs[a..b.max(a)]
    }
}

/// Per footprint of `plan` (in plan order): the landing of the first footprint of its foot's run
/// on the floor. A footprint that lands as the one before of the same foot lifts (a pivot, a rise)
/// continues it: the foot never left the floor, so it moves with it.
fn placed_secs(plan: &DancerPlan) -> Vec<f64> {
    let mut out: Vec<f64> = plan.footprints.iter().map(|f| f.t_land_secs).collect();
    for foot in [Side::Left, Side::Right] {
        let mut order: Vec<usize> = (0..plan.footprints.len()).filter(|&i| plan.footprints[i].foot == foot).collect();
        order.sort_by(|x, y| plan.footprints[*x].t_land_secs.total_cmp(&plan.footprints[*y].t_land_secs));
        for w in order.windows(2) {
            let (before, now) = (&plan.footprints[w[0]], &plan.footprints[w[1]]);
            if now.t_land_secs <= before.t_lift_secs + 1e-6 {
                out[w[1]] = out[w[0]];
            }
        }
    }
    out
}

/// The shift of `shifts` (one per event of `events_secs`) in force at `t_secs`: that of the last
/// event at or before it (the first event's before them all).
fn shift_in(events_secs: &[f64], shifts: &[Vec3], t_secs: f64) -> Vec3 {
    let k = events_secs.partition_point(|e| *e <= t_secs);
    shifts.get(k.max(1) - 1).copied().unwrap_or(Vec3::ZERO)
}

/// How far along the approach a dancer is at `t_secs`, 0..1: by the count of its steps landed
/// in the approach, its last two (one per foot) at the full way.
fn approach_fraction(landings_secs: &[f64], t_secs: f64) -> f32 {
    let landed = landings_secs.partition_point(|t| *t <= t_secs);
    let n = landings_secs.len();
    if landed == 0 {
        return 0.0;
    }
    (landed as f32 / (n.max(2) - 1) as f32).min(1.0)
}

/// The part of the way each end of a contact walks: shared when both step in the approach, all
/// of it for the only one that steps.
fn shares(steps: [usize; 2]) -> [f32; 2] {
    match (steps[0] > 0, steps[1] > 0) {
        (true, false) => [1.0, 0.0],
        (false, true) => [0.0, 1.0],
        _ => [0.5, 0.5],
    }
}

/// Moves the dancers of `contact` (indices into `movers`) together for it; `since_secs[i]`: the
/// time after which dancer `i` is free of earlier holds (their release, or the reach of one still
/// held).
fn join(movers: &mut [Mover], contact: &TimedContact, sizes: &CoupleSizes, approach_secs: f64, since_secs: &[f64]) {
    let [pa, pb] = contact.ends;
    let (ia, ib) = (pa.dancer, pb.dancer);
    if ia == ib || ia >= movers.len() || ib >= movers.len() {
        return;
    }
    let t_reach = contact.t_full_secs;
    let t_release = contact.t_end_secs.max(t_reach);
    let (a, b) = (&movers[ia], &movers[ib]);
    let (anchor_a, anchor_b) = (a.anchor_at(pa, sizes, t_reach), b.anchor_at(pb, sizes, t_reach));
    let reach = |p: ContactPoint| if p.part.moves() { sizes.arm_reach_m } else { 0.0 };
    let comfortable_m = COMFORT_REACH_FRACTION * (reach(pa) + reach(pb));
    let gap_m = anchor_a.distance(anchor_b);
    let excess_m = (gap_m - comfortable_m).max(0.0);
    let towards_b = (anchor_b - anchor_a).normalize_or_zero();
    let since = [since_secs[ia], since_secs[ib]];
    let from = since.iter().fold(contact.t_start_secs - approach_secs, |m, s| m.max(*s)).max(0.0);
    let last_step = t_reach - APPROACH_SETTLE_SECS;
    let steps = [a.landings_in(from, last_step).to_vec(), b.landings_in(from, last_step).to_vec()];
    let share = shares([steps[0].len(), steps[1].len()]);
    let walk = [towards_b * excess_m * share[0], -towards_b * excess_m * share[1]];
    // The hold: the couple's offset at the reach, turned with them; their centre follows the mean.
    let at_reach = [a.ground_at(t_reach) + walk[0], b.ground_at(t_reach) + walk[1]];
    let offset_at_reach = at_reach[1] - at_reach[0];
    let centre_shift = (walk[0] + walk[1]) * 0.5;
    let yaw_at_reach = [a.yaw_at(t_reach), b.yaw_at(t_reach)];
    let offset_at = |t: f64| {
        let turn = 0.5 * ((a.yaw_at(t) - yaw_at_reach[0]) + (b.yaw_at(t) - yaw_at_reach[1]));
        Quat::from_rotation_y(turn) * offset_at_reach
    };
    let held = |t: f64| -> [Vec3; 2] {
        let offset = offset_at(t);
        let centre = (a.ground_at(t) + b.ground_at(t)) * 0.5 + centre_shift;
        [centre - offset * 0.5 - a.ground_at(t), centre + offset * 0.5 - b.ground_at(t)]
    };
    let mut new_shifts = [a.shifts.clone(), b.shifts.clone()];
    let movers_ab = [a, b];
    // Approach, and the hold where the partner steps again before the release.
    for (k, m) in movers_ab.into_iter().enumerate() {
        let partner = movers_ab[1 - k];
        let fallback_from = if steps[k].is_empty() { since[k] } else { from };
        for (i, &t) in m.events_secs.iter().enumerate() {
            if t > t_release {
                continue;
            }
            let partner_steps_on = partner.events_secs.iter().any(|e| *e >= t && *e <= t_release);
            if t > t_reach && partner_steps_on {
                let stance = m.shift_at(t) + held(t)[k];
                new_shifts[k][i] = m.foot_shift(&new_shifts[k], i, stance, t_release);
            } else if t <= t_reach && t > fallback_from {
                let fraction = if steps[k].is_empty() { 1.0 } else { approach_fraction(&steps[k], t) };
                new_shifts[k][i] += walk[k] * fraction;
            }
        }
    }
    // The hold where the partner does not step again before the release: keep to where the
    // partner stands (the couple cannot travel while one of them stands).
    for (k, m) in movers_ab.into_iter().enumerate() {
        let partner = movers_ab[1 - k];
        for (i, &t) in m.events_secs.iter().enumerate() {
            if t <= t_reach || t > t_release || partner.events_secs.iter().any(|e| *e >= t && *e <= t_release) {
                continue;
            }
            let partner_at = partner.written_ground_at(t) + partner.stance_shift(&new_shifts[1 - k], t);
            let offset = offset_at(t);
            let target = if k == 0 { partner_at - offset } else { partner_at + offset };
            new_shifts[k][i] = m.foot_shift(&new_shifts[k], i, target - m.written_ground_at(t), t_release);
        }
    }
    // After the release each goes on from where the hold left it.
    for (k, m) in movers_ab.into_iter().enumerate() {
        let left_at = m.stance_shift(&new_shifts[k], t_release) - m.shift_at(t_release);
        for (i, &t) in m.events_secs.iter().enumerate() {
            if t > t_release {
                new_shifts[k][i] += left_at;
            }
        }
    }
    let [sa, sb] = new_shifts;
    movers[ia].shifts = sa;
    movers[ib].shifts = sb;
}

fn shift_floor_state(state: &mut FloorState, by: Vec3) {
    for leg in &mut state.legs {
        if let LegSupport::Knee(p) | LegSupport::FreeKnee(p) = leg {
            *p += by;
        }
    }
    for p in state.hands.iter_mut().flatten() {
        *p += by;
    }
    if let Some(p) = state.seat.as_mut() {
        *p += by;
    }
    if let Some((_, p)) = state.lying.as_mut() {
        *p += by;
    }
}

/// Moves `plans` (one per staff, in staff order) so the dancers joined by `contacts` come
/// together before each contact is reached and travel together while it holds (see the module
/// docs). `approach_secs`: [`APPROACH_BEATS`] at the score's tempo.
pub fn bring_together(plans: &mut [DancerPlan], contacts: &[TimedContact], sizes: &CoupleSizes, approach_secs: f64) {
    let mut order: Vec<&TimedContact> =
        contacts.iter().filter(|c| c.ends[0].dancer != c.ends[1].dancer && c.t_full_secs.is_finite()).collect();
    if order.is_empty() {
        return;
    }
    order.sort_by(|x, y| x.t_full_secs.total_cmp(&y.t_full_secs));
    let written: Vec<DancerPlan> = plans.to_vec();
    let mut movers: Vec<Mover> = written.iter().map(Mover::new).collect();
    for (k, c) in order.iter().enumerate() {
        // Free since the last release of an earlier contact of the dancer (or the reach of one
        // that still holds).
        let mut since = vec![f64::NEG_INFINITY; movers.len()];
        for e in &order[..k] {
            let free = if e.t_end_secs < c.t_full_secs { e.t_end_secs } else { e.t_full_secs };
            for end in e.ends {
                if let Some(s) = since.get_mut(end.dancer) {
                    *s = s.max(free);
                }
            }
        }
        join(&mut movers, c, sizes, approach_secs, &since);
    }
    for (plan, mover) in plans.iter_mut().zip(&movers) {
        for (fp, placed) in plan.footprints.iter_mut().zip(&mover.placed_secs) {
            let by = shift_in(&mover.events_secs, &mover.shifts, *placed);
            fp.position_in_world += by;
            fp.position_end_in_world += by;
        }
        for key in &mut plan.com_ground.keys {
            key.value += mover.shift_at(key.t_end_secs);
        }
        for key in &mut plan.floor.keys {
            let by = shift_in(&mover.events_secs, &mover.shifts, key.t_start_secs);
            if let Some(state) = key.value.as_mut() {
                shift_floor_state(state, by);
            }
        }
    }
}
