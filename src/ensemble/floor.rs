//! The floor the performers may use: the stage rectangle (x = 0 centre stage, y = 0 the front
//! edge, y = depth the back) widened to the left and right by the wings (`[stage] wings_m`, 0 by
//! default). The front edge and the back are never widened: in front is the audience.

use glam::DVec2;

/// A point counts as outside the floor when it lies farther out than this (spots laid exactly on
/// an edge stay on it).
pub const EDGE_TOLERANCE_M: f64 = 1e-6;

/// The usable floor, an axis-aligned rectangle in stage metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Floor {
    /// Downstage-left corner (smallest x and y).
    pub min: DVec2,
    /// Upstage-right corner (largest x and y).
    pub max: DVec2,
}

impl Floor {
    /// The floor of a stage `stage_m` (width, depth) with `wings_m` on each side.
    pub fn new(stage_m: DVec2, wings_m: f64) -> Self {
        let half_width_m = 0.5 * stage_m.x + wings_m;
        Self { min: DVec2::new(-half_width_m, 0.0), max: DVec2::new(half_width_m, stage_m.y) }
    }

    /// How far `p` lies outside the floor, metres (0 on or inside it).
    pub fn outside_m(&self, p: DVec2) -> f64 {
        (p - p.clamp(self.min, self.max)).length()
    }

    /// True when `p` lies outside by more than [`EDGE_TOLERANCE_M`] (or is not a number).
    pub fn excludes(&self, p: DVec2) -> bool {
        let out_m = self.outside_m(p);
        out_m.is_nan() || out_m > EDGE_TOLERANCE_M
    }

    /// `x −6.00 to 6.00 m, y 0.00 to 9.00 m`, for messages.
    pub fn describe(&self) -> String {
        format!("x {:.2} to {:.2} m, y {:.2} to {:.2} m", self.min.x, self.max.x, self.min.y, self.max.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wings_widen_the_sides_only() {
        let floor = Floor::new(DVec2::new(12.0, 9.0), 2.0);
        assert_eq!((floor.min, floor.max), (DVec2::new(-8.0, 0.0), DVec2::new(8.0, 9.0)));
        assert_eq!(floor.outside_m(DVec2::new(7.5, 4.0)), 0.0);
        assert!((floor.outside_m(DVec2::new(0.0, -1.5)) - 1.5).abs() < 1e-12);
        assert!((floor.outside_m(DVec2::new(11.0, 13.0)) - 5.0).abs() < 1e-12);
        assert!(!floor.excludes(DVec2::new(8.0, 9.0)) && floor.excludes(DVec2::new(8.01, 9.0)));
        assert!(floor.excludes(DVec2::new(f64::NAN, 0.0)));
    }
}
