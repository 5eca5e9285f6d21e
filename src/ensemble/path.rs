//! Individual paths: a straight line or a Bézier curve through control points (de Casteljau),
//! sampled into a polyline and walked by arc length, so a performer's schedule is uniform speed.

use glam::DVec2;

/// Pieces a Bézier curve is sampled into.
const BEZIER_PIECES: usize = 32;

/// A path from a start to an end point, walked by arc-length fraction.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    points: Vec<DVec2>,
    /// Cumulative length at each point.
    cum_m: Vec<f64>,
}

impl Path {
    /// A straight line.
    pub fn linear(from: DVec2, to: DVec2) -> Self {
        Self::from_points(vec![from, to])
    }

    /// The Bézier curve with these control points (first and last are the ends).
    pub fn bezier(controls: &[DVec2]) -> Self {
        if controls.len() <= 2 {
            return Self::linear(controls[0], *controls.last().unwrap_or(&controls[0]));
        }
        let points = (0..=BEZIER_PIECES).map(|k| de_casteljau(controls, k as f64 / BEZIER_PIECES as f64)).collect();
        Self::from_points(points)
    }

    /// A polyline through `points` (a route round set pieces); at least one point.
    pub fn polyline(points: Vec<DVec2>) -> Self {
        Self::from_points(points)
    }

    /// The polyline's points, first to last.
    pub fn points(&self) -> &[DVec2] {
        &self.points
    }

    /// The index of the last point at or before arc-length fraction `u` ∈ [0, 1].
    pub fn point_before(&self, u: f64) -> usize {
        let s = u.clamp(0.0, 1.0) * self.length_m();
        self.cum_m.partition_point(|c| *c <= s).saturating_sub(1).min(self.points.len().saturating_sub(1))
    }

    fn from_points(points: Vec<DVec2>) -> Self {
        let mut cum_m = Vec::with_capacity(points.len());
        let mut acc = 0.0;
        for (i, p) in points.iter().enumerate() {
            if i > 0 {
                acc += p.distance(points[i - 1]);
            }
            cum_m.push(acc);
        }
        Self { points, cum_m }
    }

    /// Length in metres.
    pub fn length_m(&self) -> f64 {
        *self.cum_m.last().unwrap_or(&0.0)
    }

    /// The end point.
    pub fn end(&self) -> DVec2 {
        *self.points.last().unwrap_or(&DVec2::ZERO)
    }

    /// The point at arc-length fraction `u` ∈ [0, 1].
    pub fn at_fraction(&self, u: f64) -> DVec2 {
        let total = self.length_m();
        if total <= 0.0 || self.points.len() == 1 {
            return self.end();
        }
        let s = u.clamp(0.0, 1.0) * total;
        let k = self.cum_m.partition_point(|c| *c < s).clamp(1, self.points.len() - 1);
        let (a, b) = (self.cum_m[k - 1], self.cum_m[k]);
        let f = if b > a { (s - a) / (b - a) } else { 1.0 };
        self.points[k - 1].lerp(self.points[k], f)
    }
}

/// The point at parameter `t` of the Bézier curve with `controls`.
pub fn de_casteljau(controls: &[DVec2], t: f64) -> DVec2 {
    let mut p = controls.to_vec();
    for r in 1..controls.len() {
        for i in 0..controls.len() - r {
            p[i] = p[i].lerp(p[i + 1], t);
        }
    }
    p[0]
}

/// One performer's control points from the group centre's `via` points: each is shifted by the
/// performer's offset from the group centre, blended from its start offset to its end offset.
pub fn performer_controls(
    start: DVec2,
    end: DVec2,
    centre_start: DVec2,
    centre_end: DVec2,
    via: &[DVec2],
) -> Vec<DVec2> {
    let mut out = Vec::with_capacity(via.len() + 2);
    out.push(start);
    let m = via.len() as f64 + 1.0;
    for (k, v) in via.iter().enumerate() {
        let f = (k as f64 + 1.0) / m;
        out.push(*v + (start - centre_start).lerp(end - centre_end, f));
    }
    out.push(end);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_walked_by_arc_length() {
        let line = Path::linear(DVec2::ZERO, DVec2::new(4.0, 0.0));
        assert_eq!(line.at_fraction(0.25), DVec2::new(1.0, 0.0));
        let curve = Path::bezier(&[DVec2::ZERO, DVec2::new(2.0, 4.0), DVec2::new(4.0, 0.0)]);
        assert!((curve.at_fraction(0.5) - DVec2::new(2.0, 2.0)).length() < 1e-9);
        assert!(curve.length_m() > 4.0 * 1.4);
        assert_eq!(curve.at_fraction(1.0), DVec2::new(4.0, 0.0));
    }
}
