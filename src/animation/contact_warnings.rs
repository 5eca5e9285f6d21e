//! What the contacts between dancers could not do as written, said where each contact is: ends
//! that stay apart (out of reach), and hands that meet the other end far from where their arm's
//! written direction puts them (the written facings and arm directions do not bring the parts
//! together; the contact is kept and the arm turns to it).

use super::Animation;
use crate::contact::solve::point_in_world;
use crate::contact::{ContactPoint, TimedContact};
use crate::diag::Diagnostic;
use crate::motion::plan::LimbId;
use crate::pose::fk::{Pose, joint_world};
use crate::pose::skeleton::{JointId, Side};
use crate::score::Score;

/// A contact between two dancers whose points end further apart than this is warned about,
/// metres.
const CONTACT_GAP_WARN_M: f32 = 0.06;

/// A hand the contact turns further than this from its written arm direction is warned about,
/// degrees (one step of the notation's directions).
const CONTACT_TURN_WARN_DEG: f32 = 45.0;

/// The worst a contact did while fully held.
#[derive(Clone, Copy, Default)]
struct Worst {
    gap_m: f32,
    turn_deg: f32,
}

impl Animation {
    /// A warning for each contact whose ends stay apart where it is fully held, and for each
    /// whose hand meets the other end far from its arm's written direction (an arm with none
    /// written yet is not judged); checked at its start, middle and end.
    pub(super) fn contact_warnings(&self, score: &Score) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let mut poses = [Vec::new(), Vec::new()];
        for (i, c) in self.contacts.iter().enumerate() {
            let worst = self.worst_of(c, &mut poses);
            let Some(sc) = score.contacts.iter().find(|s| s.span == c.span) else { continue };
            let (m, beat) = (sc.measure, sc.beat_in_measure + 1.0);
            let place = if m == 0 { "starting position".to_string() } else { format!("measure {m}, beat {beat:.2}") };
            let what = if worst.gap_m > CONTACT_GAP_WARN_M {
                format!("the parts stay {:.0} cm apart; out of reach, the hand stops short", worst.gap_m * 100.0)
            } else if worst.turn_deg > CONTACT_TURN_WARN_DEG {
                format!(
                    "the hand meets the other end {:.0}° from the written arm direction (the facings and arm \
                     directions written do not bring the parts together; the contact is kept)",
                    worst.turn_deg
                )
            } else {
                continue;
            };
            out.push(Diagnostic::warning(c.span, format!("contact {} ({place}): {what}", i + 1)));
        }
        out
    }

    /// The worst of contact `c` at its start, middle and end; `poses`: every dancer posed with
    /// the contacts (held) and without them (as written), reused.
    fn worst_of(&self, c: &TimedContact, [held, written]: &mut [Vec<Pose>; 2]) -> Worst {
        let mut worst = Worst::default();
        for t in [c.t_full_secs, 0.5 * (c.t_full_secs + c.t_end_secs), c.t_end_secs] {
            if !t.is_finite() {
                continue;
            }
            self.sample(t, held);
            written.resize_with(self.dancers.len(), || Pose::rest(&self.skeleton));
            for (d, pose) in self.dancers.iter().zip(written.iter_mut()) {
                d.sample_into(&self.skeleton, t, pose);
            }
            let [a, b] = c.ends;
            let (Some(pa), Some(pb)) = (held.get(a.dancer), held.get(b.dancer)) else { continue };
            let gap_m = point_in_world(&self.skeleton, pa, a).distance(point_in_world(&self.skeleton, pb, b));
            worst.gap_m = worst.gap_m.max(gap_m);
            for end in c.ends.into_iter().filter(|e| e.part.moves() && self.arm_written(e.dancer, e.part.side(), t)) {
                let (Some(h), Some(w)) = (held.get(end.dancer), written.get(end.dancer)) else { continue };
                worst.turn_deg = worst.turn_deg.max(self.hand_turn_deg(end, h, w));
            }
        }
        worst
    }

    /// The angle at the shoulder between where the point `end` is in `held` and in `written`,
    /// degrees.
    fn hand_turn_deg(&self, end: ContactPoint, held: &Pose, written: &Pose) -> f32 {
        let shoulder = if end.part.side() == Side::Left { JointId::ShoulderL } else { JointId::ShoulderR };
        let arm = |p: &Pose| point_in_world(&self.skeleton, p, end) - joint_world(&self.skeleton, p, shoulder).1;
        arm(held).angle_between(arm(written)).to_degrees()
    }

    /// Whether dancer `d`'s arm on `side` has a direction written by `t_secs`.
    fn arm_written(&self, d: usize, side: Side, t_secs: f64) -> bool {
        let limb = if side == Side::Left { LimbId::ArmLeft } else { LimbId::ArmRight };
        self.dancers
            .get(d)
            .and_then(|dancer| dancer.plan.limbs.get(&limb))
            .is_some_and(|track| track.keys.iter().any(|k| k.t_start_secs <= t_secs + 1e-9))
    }
}
