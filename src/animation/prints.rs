//! Each foot's footprints in landing order, split once in `compile`, so sampling finds the ones
//! around a time by binary search instead of scanning every footprint of the dancer.
//!
//! Answers are exactly those of a scan in landing order (the searches are used only where the
//! times are sorted; otherwise they scan).

use crate::motion::plan::{Foot, Footprint};

/// The footprints of the left and right foot, each in landing order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FootPrints {
    by_foot: [Vec<Footprint>; 2],
    /// Per foot: landing times non-decreasing (binary search by landing allowed).
    lands_sorted: [bool; 2],
    /// Per foot: lift times also non-decreasing (binary search by lift allowed).
    lifts_sorted: [bool; 2],
}

fn index(foot: Foot) -> usize {
    match foot {
        Foot::Left => 0,
        Foot::Right => 1,
    }
}

impl FootPrints {
    /// Splits `footprints` (landing order) by foot.
    pub fn new(footprints: &[Footprint]) -> Self {
        let by_foot =
            [Foot::Left, Foot::Right].map(|foot| footprints.iter().filter(|f| f.foot == foot).cloned().collect());
        let sorted = |v: &Vec<Footprint>, key: fn(&Footprint) -> f64| v.windows(2).all(|w| key(&w[0]) <= key(&w[1]));
        let lands_sorted = [0, 1].map(|i| sorted(&by_foot[i], |f| f.t_land_secs));
        let lifts_sorted = [0, 1].map(|i| lands_sorted[i] && sorted(&by_foot[i], |f| f.t_lift_secs));
        Self { by_foot, lands_sorted, lifts_sorted }
    }

    /// The footprints of `foot`, in landing order.
    pub fn of(&self, foot: Foot) -> &[Footprint] {
        &self.by_foot[index(foot)]
    }

    /// The footprints of `foot` from the first that lands after `t_secs` on, in landing order
    /// (all of them when the landings are not sorted): no earlier one lands after `t_secs`.
    pub fn landing_after(&self, foot: Foot, t_secs: f64) -> &[Footprint] {
        let prints = self.of(foot);
        if !self.lands_sorted[index(foot)] {
            return prints;
        }
        &prints[prints.partition_point(|f| f.t_land_secs <= t_secs)..]
    }

    /// The footprints of `foot` in landing order without the first ones that landed at or before
    /// `t_secs` and lifted at least `fade_secs` before it (`lift + fade_secs <= t_secs`; none left
    /// out when the lifts are not sorted): those that lifted long enough ago for a fade after the
    /// lift to be over.
    pub fn fading_after(&self, foot: Foot, t_secs: f64, fade_secs: f64) -> &[Footprint] {
        let prints = self.of(foot);
        if !self.lifts_sorted[index(foot)] {
            return prints;
        }
        // Landings and lifts both sorted: the prints left out are a prefix.
        &prints[prints.partition_point(|f| f.t_land_secs <= t_secs && f.t_lift_secs + fade_secs <= t_secs)..]
    }

    /// The last footprint of `foot` landed at or before `t_secs` before the first that lands
    /// after it, and that one: (previous, next), as a scan in landing order finds them.
    pub fn around(&self, foot: Foot, t_secs: f64) -> (Option<&Footprint>, Option<&Footprint>) {
        let prints = self.of(foot);
        if self.lands_sorted[index(foot)] {
            let k = prints.partition_point(|f| f.t_land_secs <= t_secs);
            return (k.checked_sub(1).and_then(|i| prints.get(i)), prints.get(k));
        }
        let mut prev = None;
        for fp in prints {
            if fp.t_land_secs <= t_secs {
                prev = Some(fp);
            } else {
                return (prev, Some(fp));
            }
        }
        (prev, None)
    }

    /// Whether a footprint of `foot` lifts within `tol_secs` of `t_secs` (`|lift − t| < tol`).
    pub fn lifts_near(&self, foot: Foot, t_secs: f64, tol_secs: f64) -> bool {
        self.any_near(foot, t_secs, tol_secs, self.lifts_sorted[index(foot)], |f| f.t_lift_secs)
    }

    /// Whether a footprint of `foot` lands within `tol_secs` of `t_secs` (`|land − t| < tol`).
    pub fn lands_near(&self, foot: Foot, t_secs: f64, tol_secs: f64) -> bool {
        self.any_near(foot, t_secs, tol_secs, self.lands_sorted[index(foot)], |f| f.t_land_secs)
    }

    /// Whether a footprint's `time` lies within `tol_secs` of `t_secs`; `sorted`: those times are
    /// non-decreasing, so the differences `time − t` are too, and the first one not at or below
    /// `−tol` is the only one to look at.
    fn any_near(&self, foot: Foot, t_secs: f64, tol_secs: f64, sorted: bool, time: fn(&Footprint) -> f64) -> bool {
        let prints = self.of(foot);
        let near = |f: &Footprint| (time(f) - t_secs).abs() < tol_secs;
        if !sorted {
            return prints.iter().any(near);
        }
        prints.get(prints.partition_point(|f| time(f) - t_secs <= -tol_secs)).is_some_and(near)
    }

    /// The first footprint of `foot` (landing order) planted at `t_secs`.
    pub fn planted_at(&self, foot: Foot, t_secs: f64) -> Option<&Footprint> {
        let prints = self.of(foot);
        if !self.lifts_sorted[index(foot)] {
            return prints.iter().find(|f| f.planted_at(t_secs));
        }
        // Landed by then: a prefix; of those, the ones lifted before then: a prefix too.
        let landed = &prints[..prints.partition_point(|f| f.t_land_secs <= t_secs)];
        landed.get(landed.partition_point(|f| f.t_lift_secs < t_secs)).filter(|f| f.planted_at(t_secs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::plan::Contact;
    use glam::Vec3;

    fn print(foot: Foot, t_land_secs: f64, t_lift_secs: f64) -> Footprint {
        Footprint {
            foot,
            position_in_world: Vec3::ZERO,
            position_end_in_world: Vec3::ZERO,
            yaw_start_rad: 0.0,
            yaw_end_rad: 0.0,
            pivot_secs: None,
            pivot_on_heel: false,
            t_step_start_secs: t_land_secs,
            t_land_secs,
            t_lift_secs,
            contact: Contact::Flat,
            releve: false,
            releve_ramp_secs: None,
        }
    }

    /// Every query equals the scan in landing order it replaces, on sorted, touching and
    /// unsorted footprints, at every time around the events.
    #[test]
    fn searches_answer_as_the_scans_do() {
        let sets = [
            vec![print(Foot::Left, 0.0, 1.0), print(Foot::Right, 0.5, 2.0), print(Foot::Left, 1.0, 3.0)],
            vec![print(Foot::Left, 0.0, 1.0), print(Foot::Left, 1.0, 1.0), print(Foot::Left, 1.0, 2.5)],
            vec![print(Foot::Left, 2.0, 3.0), print(Foot::Left, 0.0, 1.0), print(Foot::Right, 1.0, 0.5)],
            vec![print(Foot::Right, 0.0, 5.0), print(Foot::Right, 1.0, 2.0)],
            vec![],
        ];
        for set in &sets {
            let index = FootPrints::new(set);
            for foot in [Foot::Left, Foot::Right] {
                let scan: Vec<&Footprint> = set.iter().filter(|f| f.foot == foot).collect();
                for i in -2..=14 {
                    let t = i as f64 * 0.25;
                    let mut prev = None;
                    let mut next = None;
                    for fp in &scan {
                        if fp.t_land_secs <= t {
                            prev = Some(*fp);
                        } else {
                            next = Some(*fp);
                            break;
                        }
                    }
                    assert_eq!(index.around(foot, t), (prev, next), "around {t}");
                    assert_eq!(
                        index.planted_at(foot, t),
                        scan.iter().copied().find(|f| f.planted_at(t)),
                        "planted {t}"
                    );
                    let after: Vec<&Footprint> = scan.iter().copied().filter(|f| f.t_land_secs > t).collect();
                    let got: Vec<&Footprint> =
                        index.landing_after(foot, t).iter().filter(|f| f.t_land_secs > t).collect();
                    assert_eq!(got, after, "landing after {t}");
                    for tol in [1e-3, 0.25, 0.6] {
                        let lifts = scan.iter().any(|f| (f.t_lift_secs - t).abs() < tol);
                        let lands = scan.iter().any(|f| (f.t_land_secs - t).abs() < tol);
                        assert_eq!(index.lifts_near(foot, t, tol), lifts, "lifts near {t} ±{tol}");
                        assert_eq!(index.lands_near(foot, t, tol), lands, "lands near {t} ±{tol}");
                    }
                }
            }
        }
    }
}
