//! When each contact of the score holds, in seconds: it is reached by the end of the arm gestures
//! written with its bow, held until its release sign, then let go over half a beat. Contacts the
//! pose cannot show (no hand in them, an unknown part) are warnings with their place.

use crate::diag::{Diagnostic, Span};
use crate::motion::plan::{DancerPlan, LimbId, smoothstep};
use crate::pose::skeleton::Side;
use crate::read::BodyPart;
use crate::score::{Contact, ContactSurface, Score};

/// The body parts a contact can join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactPart {
    /// The hand (palm): it moves to the other end.
    Hand(Side),
    /// The wrist: it moves to the other end.
    Wrist(Side),
    /// The elbow (upper arm): a place the other end goes to.
    Elbow(Side),
    /// The shoulder: a place the other end goes to.
    Shoulder(Side),
}

impl ContactPart {
    /// True for the parts that reach (hands and wrists move their arm).
    pub fn moves(self) -> bool {
        matches!(self, ContactPart::Hand(_) | ContactPart::Wrist(_))
    }

    /// The arm the part belongs to.
    pub fn side(self) -> Side {
        match self {
            ContactPart::Hand(s) | ContactPart::Wrist(s) | ContactPart::Elbow(s) | ContactPart::Shoulder(s) => s,
        }
    }
}

/// One end of a timed contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    /// Index of the dancer (staff).
    pub dancer: usize,
    /// The part.
    pub part: ContactPart,
    /// Its surface (front or back of a shoulder or upper arm).
    pub surface: ContactSurface,
}

/// A contact in seconds, ready for [`super::apply_contacts`].
#[derive(Clone, Debug, PartialEq)]
pub struct TimedContact {
    /// The two ends.
    pub ends: [ContactPoint; 2],
    /// The bow: the hands start moving towards each other.
    pub t_start_secs: f64,
    /// Together from here on (the end of the arm gestures written with the bow).
    pub t_full_secs: f64,
    /// The release sign (or the end of the score).
    pub t_end_secs: f64,
    /// Let go completely.
    pub t_free_secs: f64,
    /// Where the bow is in the file, for messages.
    pub span: Span,
}

impl TimedContact {
    /// How much the contact pulls at `t_secs`, 0..1.
    pub fn weight_at(&self, t_secs: f64) -> f32 {
        let ramp = |t: f64, a: f64, b: f64| if b > a { ((t - a) / (b - a)).clamp(0.0, 1.0) as f32 } else { 1.0 };
        if t_secs < self.t_start_secs || t_secs >= self.t_free_secs {
            return 0.0;
        }
        if t_secs <= self.t_end_secs {
            return if t_secs >= self.t_full_secs {
                1.0
            } else {
                smoothstep(ramp(t_secs, self.t_start_secs, self.t_full_secs))
            };
        }
        1.0 - smoothstep(ramp(t_secs, self.t_end_secs, self.t_free_secs))
    }
}

fn part_of(part: BodyPart) -> Option<ContactPart> {
    Some(match part {
        BodyPart::Hand(s) => ContactPart::Hand(s),
        BodyPart::Wrist(s) => ContactPart::Wrist(s),
        BodyPart::Elbow(s) => ContactPart::Elbow(s),
        BodyPart::Shoulder(s) => ContactPart::Shoulder(s),
        _ => return None,
    })
}

fn place(c: &Contact) -> String {
    let staves = if c.between_dancers() {
        format!("staves {} and {}", c.ends[0].staff + 1, c.ends[1].staff + 1)
    } else {
        format!("staff {}", c.ends[0].staff + 1)
    };
    if c.measure == 0 {
        format!("{staves}, starting position")
    } else {
        format!("{staves}, measure {}, beat {:.2}", c.measure, c.beat_in_measure + 1.0)
    }
}

/// The end of the arm gestures of `plan`'s `side` arm that start with the bow (within half a
/// beat of `t_secs`), if any.
fn gesture_end(plan: &DancerPlan, side: Side, t_secs: f64, half_beat_secs: f64) -> Option<f64> {
    let limb = if side == Side::Left { LimbId::ArmLeft } else { LimbId::ArmRight };
    plan.limbs
        .get(&limb)?
        .keys
        .iter()
        .filter(|k| (k.t_start_secs - t_secs).abs() <= half_beat_secs + 1e-9)
        .map(|k| k.t_end_secs)
        .reduce(f64::max)
}

/// The score's contacts in seconds, for dancers planned as `plans`; warnings for the contacts
/// the pose cannot show.
pub fn timed_contacts(score: &Score, plans: &[DancerPlan]) -> (Vec<TimedContact>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let half_beat_secs = score.tempo.secs_from_beats(0.5);
    for c in &score.contacts {
        let parts = [part_of(c.ends[0].part), part_of(c.ends[1].part)];
        let [Some(a), Some(b)] = parts else {
            warnings.push(Diagnostic::warning(
                c.span,
                format!(
                    "{}: contact of {} and {} not animated (only hands, wrists, elbows and shoulders are)",
                    place(c),
                    crate::score::part_name(&c.ends[0].part),
                    crate::score::part_name(&c.ends[1].part)
                ),
            ));
            continue;
        };
        if !a.moves() && !b.moves() {
            warnings.push(Diagnostic::warning(
                c.span,
                format!("{}: contact without a hand (the parts touch, nothing reaches); not animated", place(c)),
            ));
            continue;
        }
        if c.ends.iter().any(|e| e.staff >= plans.len()) {
            continue;
        }
        let t_start = score.tempo.secs_from_beats(c.start_beats);
        let t_end = score.tempo.secs_from_beats(c.end_beats).max(t_start);
        let mut t_full = t_start;
        for (end, part) in c.ends.iter().zip([a, b]) {
            if let Some(e) = plans.get(end.staff).and_then(|p| gesture_end(p, part.side(), t_start, half_beat_secs)) {
                t_full = t_full.max(e);
            }
        }
        let ends = [
            ContactPoint { dancer: c.ends[0].staff, part: a, surface: c.ends[0].surface },
            ContactPoint { dancer: c.ends[1].staff, part: b, surface: c.ends[1].surface },
        ];
        out.push(TimedContact {
            ends,
            t_start_secs: t_start,
            t_full_secs: t_full.min(t_end),
            t_end_secs: t_end,
            t_free_secs: if c.released { t_end + half_beat_secs } else { t_end + 1e-3 },
            span: c.span,
        });
    }
    (out, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_ramps_in_holds_and_lets_go() {
        let c = TimedContact {
            ends: [
                ContactPoint { dancer: 0, part: ContactPart::Hand(Side::Left), surface: ContactSurface::Any },
                ContactPoint { dancer: 1, part: ContactPart::Hand(Side::Right), surface: ContactSurface::Any },
            ],
            t_start_secs: 1.0,
            t_full_secs: 2.0,
            t_end_secs: 4.0,
            t_free_secs: 4.5,
            span: Span::default(),
        };
        assert_eq!(c.weight_at(0.5), 0.0);
        assert!((c.weight_at(1.5) - 0.5).abs() < 1e-6);
        assert_eq!(c.weight_at(2.0), 1.0);
        assert_eq!(c.weight_at(4.0), 1.0);
        assert!(c.weight_at(4.25) > 0.0 && c.weight_at(4.25) < 1.0);
        assert_eq!(c.weight_at(4.5), 0.0);
    }
}
