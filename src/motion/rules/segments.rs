//! Directions for one segment of a limb: a joint pre-sign names the segment it ends (elbow: the
//! upper arm, wrist: the lower arm, knee: the thigh, ankle: the lower leg), and its direction moves
//! that segment only, the other keeping its own (labanotation-rules §2.3, §5.7).
//!
//! A lower segment's direction leaves the upper one where it was (along the limb when the score
//! gave no upper segment: for a bent whole-limb key, the direction from base to extremity). An
//! upper segment's direction carries a straight limb along, and a lower segment set apart keeps its
//! direction in the body frame (an implementation choice). Segments never fold past 145°: a lower
//! segment that would point back along the upper one folds round in front of it. The sampler blends
//! segment keys segment by segment (a whole-limb key, or segments in line, count as the straight
//! limb along its direction) and builds the wrist and elbow from the segments.
//!
//! Legs read their segments the same way: the ankle goes where thigh and lower leg put it and the
//! knee is aimed at the point they give; where the hip's range keeps the knee more than 2 cm off,
//! the motion report marks the leg as limited. On the leg that carries the weight alone a segment
//! sign is a warning.

use crate::diag::{Diagnostic, Span};
use crate::motion::plan::{DancerPlan, Foot, Key, LimbId, LimbTarget};
use glam::Vec3;

/// A segment direction waiting for the limb's other keys (they can come from other channels):
/// resolved in time order by [`resolve`].
#[derive(Clone, Debug)]
pub(super) struct Pending {
    pub limb: LimbId,
    /// The lower segment (lower arm, lower leg) rather than the upper one.
    pub lower: bool,
    /// Direction of the segment from its base joint, body frame; zero for place middle.
    pub dir_in_body: Vec3,
    pub t_start_secs: f64,
    pub t_end_secs: f64,
    /// The symbol, and its staff position for a warning (`staff …, column …: `).
    pub span: Span,
    pub place: String,
}

/// The leg segment gestures that can be gestures, the others reported: a thigh or lower-leg sign
/// on the leg that bears the weight alone when it starts (the other foot off the floor, no
/// flight) modifies the support rather than moving the leg, which is not animated yet; that leg
/// is not lifted for it either.
pub(super) fn drop_supporting(
    plan: &mut DancerPlan,
    pending: Vec<Pending>,
    report: &mut super::Interpretation,
) -> Vec<Pending> {
    let mut kept = Vec::new();
    for p in pending {
        let (t, other) = (p.t_start_secs, if p.limb == LimbId::LegLeft { Foot::Right } else { Foot::Left });
        let in_flight = plan.flights.iter().any(|f| t > f.t_takeoff_secs - 1e-9 && t < f.t_land_secs + 1e-9);
        let other_down = plan.footprints.iter().any(|f| {
            let land = if f.t_land_secs.is_finite() { f.t_land_secs } else { 0.0 };
            f.foot == other && land <= t + 1e-9 && t < f.t_lift_secs - 1e-9
        });
        if in_flight || other_down {
            kept.push(p);
            continue;
        }
        if let Some(g) = plan.leg_gestures.get_mut(&p.limb) {
            g.retain(|(g0, _)| (g0 - t).abs() > 1e-9);
        }
        let part = if p.lower { "lower-leg" } else { "thigh" };
        let what = format!("{}{part} sign on the supporting leg (it modifies the support); not animated yet", p.place);
        report.skipped.push(Diagnostic::warning(p.span, what));
        report.interpreted = report.interpreted.saturating_sub(1);
    }
    kept
}

/// The most a segment key bends the middle joint, radians (145°, inside the elbow's and the
/// knee's 150°) [impl. choice]: a segment direction that would fold the limb further (the upper
/// arm down while the lower arm points up) folds it this far, in front of the body.
pub const MAX_SEGMENT_BEND_RAD: f32 = 145.0 * std::f32::consts::PI / 180.0;

/// `lower` turned towards `upper` so the two make at most `max_bend_rad` (the middle joint's
/// flexion): in their own plane, leaning towards the front of the body the further past the limit
/// they would be, so a lower segment that
/// sweeps past the far side of the upper one (the forearm from down to up with the upper arm
/// out) folds round in front of it instead of flipping from one side to the other. The fold's
/// side is continuous in both directions except where the lower segment lies behind the upper
/// one and already leans back half as far as the front lean.
pub fn limit_bend(upper: Vec3, lower: Vec3, max_bend_rad: f32) -> Vec3 {
    let (u, l) = (upper.normalize_or(-Vec3::Y), lower.normalize_or(-Vec3::Y));
    let bend = u.angle_between(l);
    if bend <= max_bend_rad {
        return l;
    }
    // The front of the body (a little up, so it is defined for every upper segment but one),
    // leaned towards from nothing at the limit to half the way across at the far side.
    let hint = Vec3::new(0.0, 0.3, 1.0);
    let front = (hint - u * hint.dot(u)).normalize_or(Vec3::Y);
    let lean = 0.5 * (bend - max_bend_rad) / (std::f32::consts::PI - max_bend_rad).max(1e-6);
    let side = l - u * l.dot(u);
    let perp = (side + front * lean).normalize_or(front);
    u * max_bend_rad.cos() + perp * max_bend_rad.sin()
}

/// The key of a segment gesture after `previous` (the limb's key before it in time; `None`:
/// natural standing, hanging). A lower segment's direction leaves the upper one where it was
/// (along the limb's direction when the score gave no upper segment: for a bent whole-limb key
/// that is the direction from its base to its extremity **[impl. choice]**). An upper segment's
/// direction carries a straight limb along (it stays straight); a lower segment the score set
/// apart keeps its direction in the body frame. Place middle leaves the segment where it was.
/// The bend is limited by [`MAX_SEGMENT_BEND_RAD`]; the whole-limb direction and bend follow
/// from the two segments (taken as equally long).
pub(super) fn segment_target(previous: Option<LimbTarget>, lower: bool, dir_in_body: Vec3) -> LimbTarget {
    let whole = previous.map(|p| p.dir_in_body).filter(|d| d.length_squared() > 1e-12).unwrap_or(-Vec3::Y);
    let upper_before = previous.and_then(|p| p.upper_dir_in_body).unwrap_or(whole);
    let lower_before = previous.and_then(|p| p.lower_dir_in_body).unwrap_or(upper_before);
    let given = (dir_in_body.length_squared() > 1e-12).then(|| dir_in_body.normalize());
    let (upper, lower_dir) = if lower {
        (upper_before, given.unwrap_or(lower_before))
    } else {
        let u = given.unwrap_or(upper_before);
        let bent_apart = upper_before.angle_between(lower_before) > 1f32.to_radians();
        (u, if bent_apart { lower_before } else { u })
    };
    let lower_dir = limit_bend(upper, lower_dir, MAX_SEGMENT_BEND_RAD);
    LimbTarget {
        dir_in_body: (upper + lower_dir).normalize_or(upper),
        bend_rad: upper.angle_between(lower_dir),
        upper_dir_in_body: Some(upper),
        lower_dir_in_body: Some(lower_dir),
    }
}

/// Puts the pending segment keys on their limbs' tracks, earliest first, each after the key
/// that precedes it in time on that track. Where `stood_between(limb, previous end, start)` (the
/// foot landed as that key ended or after it), the limb starts from natural standing instead.
/// A lower segment the bend limit folded (a forearm "place high" under a hanging upper arm)
/// keeps its written direction for the keys after it, each folded anew: once the upper segment
/// moves so the bend allows it, the lower one is where the score puts it (up), not where the
/// first fold left it.
pub(super) fn resolve(
    tracks: &mut std::collections::BTreeMap<LimbId, crate::motion::plan::Track<LimbTarget>>,
    mut pending: Vec<Pending>,
    stood_between: impl Fn(LimbId, f64, f64) -> bool,
) {
    pending.sort_by(|a, b| a.t_end_secs.total_cmp(&b.t_end_secs).then(a.t_start_secs.total_cmp(&b.t_start_secs)));
    // Per limb, the last lower segment direction a symbol gave (unfolded).
    let mut written: std::collections::BTreeMap<LimbId, Vec3> = std::collections::BTreeMap::new();
    for p in pending {
        let track = tracks.entry(p.limb).or_default();
        let previous = track
            .keys
            .iter()
            .rev()
            .find(|k| k.t_end_secs <= p.t_end_secs + 1e-9)
            .filter(|k| !stood_between(p.limb, k.t_end_secs, p.t_start_secs))
            .map(|k| k.value)
            // The previous key's lower segment, where it is the written one folded, as written.
            .map(|k| match (written.get(&p.limb), k.upper_dir_in_body, k.lower_dir_in_body) {
                (Some(&w), Some(u), Some(l)) if limit_bend(u, w, MAX_SEGMENT_BEND_RAD).dot(l) > 1.0 - 1e-6 => {
                    LimbTarget { lower_dir_in_body: Some(w), ..k }
                }
                _ => k,
            });
        if p.lower && p.dir_in_body.length_squared() > 1e-12 {
            written.insert(p.limb, p.dir_in_body.normalize());
        }
        let value = segment_target(previous, p.lower, p.dir_in_body);
        track.push(Key { t_start_secs: p.t_start_secs, t_end_secs: p.t_end_secs, value });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lower_segment_after_a_straight_limb_keeps_the_upper_one_along_it() {
        let forward =
            LimbTarget { dir_in_body: Vec3::Z, bend_rad: 0.0, upper_dir_in_body: None, lower_dir_in_body: None };
        let t = segment_target(Some(forward), true, Vec3::X);
        assert_eq!((t.upper_dir_in_body, t.lower_dir_in_body), (Some(Vec3::Z), Some(Vec3::X)));
        assert!((t.bend_rad - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        // Then the upper segment alone: the lower one keeps its direction.
        let u = segment_target(Some(t), false, -Vec3::Y);
        assert_eq!((u.upper_dir_in_body, u.lower_dir_in_body), (Some(-Vec3::Y), Some(Vec3::X)));
        // A straight limb is carried along by its upper segment.
        let straight = segment_target(Some(forward), false, Vec3::X);
        assert_eq!((straight.upper_dir_in_body, straight.lower_dir_in_body), (Some(Vec3::X), Some(Vec3::X)));
        // The upper segment down under a lower one pointing up folds it 145°, in front.
        let up = LimbTarget { upper_dir_in_body: Some(Vec3::Z), lower_dir_in_body: Some(Vec3::Y), ..forward };
        let folded = segment_target(Some(up), false, -Vec3::Y);
        let l = folded.lower_dir_in_body.unwrap();
        assert!((folded.bend_rad - MAX_SEGMENT_BEND_RAD).abs() < 1e-4 && l.z > 0.5 && l.y > 0.5, "{l:?}");
        // From natural standing the upper segment hangs.
        let s = segment_target(None, true, Vec3::Z);
        assert_eq!(s.upper_dir_in_body, Some(-Vec3::Y));
    }

    #[test]
    fn a_folded_lower_segment_is_where_written_once_the_upper_one_lets_it() {
        // Lower arm place high under the hanging upper arm (folded 145°, in front), then the
        // upper arm forward: the forearm points up, as the wrist column says, not where the fold
        // left it; then the upper arm down again folds it as at first.
        let pending = |lower: bool, dir: Vec3, t: f64| Pending {
            limb: LimbId::ArmRight,
            lower,
            dir_in_body: dir,
            t_start_secs: t,
            t_end_secs: t + 0.5,
            span: Span::default(),
            place: String::new(),
        };
        let mut tracks = std::collections::BTreeMap::new();
        let keys = vec![pending(true, Vec3::Y, 0.0), pending(false, Vec3::Z, 1.0), pending(false, -Vec3::Y, 2.0)];
        resolve(&mut tracks, keys, |_, _, _| false);
        let lower: Vec<Vec3> =
            tracks[&LimbId::ArmRight].keys.iter().map(|k| k.value.lower_dir_in_body.unwrap()).collect();
        let folded = limit_bend(-Vec3::Y, Vec3::Y, MAX_SEGMENT_BEND_RAD);
        assert!(lower[0].angle_between(folded) < 1e-4 && folded.z > 0.5, "{lower:?}");
        assert!(lower[1].angle_between(Vec3::Y) < 1e-4, "{lower:?}");
        assert!(lower[2].angle_between(folded) < 1e-4, "{lower:?}");
    }
}
