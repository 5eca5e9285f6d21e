//! Reynolds steering forces (seed 003, algorithms §B.4) as plain functions: seek/arrive towards a
//! schedule point, separation, alignment, cohesion, obstacle avoidance with two feelers plus the
//! performer's own position, and seed 001's detour classification for head-on neighbours.

use super::plan::ObstacleShape;
use glam::DVec2;

/// Which way a performer detours round a neighbour in its way (seed 001's two classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detour {
    /// Turn left, passing the neighbour clockwise (it stays on the right).
    ClockwiseLeft,
    /// Turn right, passing the neighbour counter-clockwise (it stays on the left).
    CounterClockwiseRight,
}

impl Detour {
    /// Classifies a neighbour at `to_neighbour` for a performer heading `heading`: one on the
    /// left is passed on the right and vice versa. Head-on (within `1e-6` rad) both keep right —
    /// the deterministic rule for symmetric cases, which makes two performers meeting head-on
    /// choose opposite sides of the line between them and never the same one.
    pub fn classify(heading: DVec2, to_neighbour: DVec2) -> Detour {
        let cross = heading.perp_dot(to_neighbour);
        let scale = heading.length() * to_neighbour.length();
        if cross > 1e-6 * scale {
            Detour::CounterClockwiseRight
        } else if cross < -1e-6 * scale {
            Detour::ClockwiseLeft
        } else {
            Detour::CounterClockwiseRight
        }
    }

    /// The unit sideways direction of this detour for `heading` (which must be non-zero).
    pub fn side(self, heading: DVec2) -> DVec2 {
        let h = heading.normalize_or_zero();
        match self {
            Detour::ClockwiseLeft => h.perp(),
            Detour::CounterClockwiseRight => -h.perp(),
        }
    }
}

/// Seek with arrival: the velocity that reaches `carrot` in `dt_secs`, at most `max_speed`.
pub fn seek(position: DVec2, carrot: DVec2, dt_secs: f64, max_speed: f64) -> DVec2 {
    truncate((carrot - position) / dt_secs, max_speed)
}

/// `v` shortened to at most `max` (Reynolds' truncate).
pub fn truncate(v: DVec2, max: f64) -> DVec2 {
    let len = v.length();
    if len > max && len > 0.0 { v * (max / len) } else { v }
}

/// Separation: Σ (p − pⱼ)/|p − pⱼ|² over the neighbours (1/r falloff).
pub fn separation(position: DVec2, neighbours: impl Iterator<Item = DVec2>) -> DVec2 {
    let mut sum = DVec2::ZERO;
    for q in neighbours {
        let d = position - q;
        let d2 = d.length_squared();
        if d2 > 1e-12 {
            sum += d / d2;
        }
    }
    sum
}

/// Alignment: the neighbours' mean velocity (`velocity_sum` over `count` of them) minus one's own;
/// zero without neighbours.
pub fn alignment(velocity: DVec2, velocity_sum: DVec2, count: usize) -> DVec2 {
    if count == 0 { DVec2::ZERO } else { velocity_sum / count as f64 - velocity }
}

/// Cohesion: towards the neighbours' mean position (`position_sum` over `count` of them); zero
/// without neighbours.
pub fn cohesion(position: DVec2, position_sum: DVec2, count: usize) -> DVec2 {
    if count == 0 { DVec2::ZERO } else { position_sum / count as f64 - position }
}

/// Obstacle avoidance after seed 003 §2.3: feelers of length `feeler_m` and half of it ahead of
/// the performer, plus its own position, are tested against the set pieces grown by
/// `clearance_m`; for the nearest set piece any of them is inside (a circle's centre, a box's
/// point nearest the performer), the unit force is the normal of the heading whose dot product
/// with the direction to that point is negative (away from it); dead ahead, it keeps right. Zero
/// when nothing is in the way.
pub fn avoid_obstacles(
    position: DVec2,
    heading: DVec2,
    feeler_m: f64,
    shapes: &[ObstacleShape],
    clearance_m: f64,
) -> DVec2 {
    let h = heading.normalize_or_zero();
    if h == DVec2::ZERO {
        return DVec2::ZERO;
    }
    let feelers = [position + h * feeler_m, position + h * (feeler_m * 0.5), position];
    let mut nearest: Option<(f64, DVec2)> = None;
    for shape in shapes {
        let hit = feelers.iter().any(|f| shape.distance(*f) <= clearance_m);
        let centre = match *shape {
            ObstacleShape::Circle { centre, .. } => centre,
            ObstacleShape::Box { min, max } => position.clamp(min, max),
        };
        let d = position.distance_squared(centre);
        if hit && nearest.is_none_or(|(best, _)| d < best) {
            nearest = Some((d, centre));
        }
    }
    let Some((_, centre)) = nearest else { return DVec2::ZERO };
    let to_centre = centre - position;
    let n1 = h.perp();
    let n2 = -n1;
    // Dead ahead (both dot products zero) it keeps right, like the other side.
    if n1.dot(to_centre) < 0.0 { n1 } else { n2 }
}

/// A neighbour on a collision course: relative position `d` (neighbour − self), relative
/// velocity `w` (self − neighbour). Returns the time of closest approach (s) when it comes
/// within `reach_m` before `horizon_secs`.
pub fn threat(d: DVec2, w: DVec2, reach_m: f64, horizon_secs: f64) -> Option<f64> {
    let w2 = w.length_squared();
    // Within `reach_m` before the horizon needs |d|² < reach² + horizon²·|w|²: those farther
    // (by a margin far above rounding) are no threat, found without dividing.
    let bound = (reach_m * reach_m + horizon_secs * horizon_secs * w2) * (1.0 + 1e-9);
    if d.length_squared() > bound {
        return None;
    }
    let closing = d.dot(w);
    if closing <= 0.0 || w2 < 1e-12 {
        return None;
    }
    let t = closing / w2;
    if t > horizon_secs {
        return None;
    }
    let miss2 = d.length_squared() - closing * closing / w2;
    (miss2 < reach_m * reach_m).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on_performers_detour_to_opposite_sides() {
        let a = DVec2::ZERO;
        let b = DVec2::new(4.0, 0.0);
        let da = Detour::classify(b - a, b - a);
        let db = Detour::classify(a - b, a - b);
        assert_eq!((da, db), (Detour::CounterClockwiseRight, Detour::CounterClockwiseRight));
        // Keeping right from opposite headings means opposite sides of the line: a to −y, b to +y.
        assert!(da.side(b - a).y < 0.0 && db.side(a - b).y > 0.0);
        assert_eq!(Detour::classify(DVec2::X, DVec2::new(1.0, 0.5)), Detour::CounterClockwiseRight);
        assert_eq!(Detour::classify(DVec2::X, DVec2::new(1.0, -0.5)), Detour::ClockwiseLeft);
    }

    #[test]
    fn feelers_push_sideways_away_from_the_centre() {
        let circles = [ObstacleShape::Circle { centre: DVec2::new(2.0, 0.2), radius_m: 0.4 }];
        let f = avoid_obstacles(DVec2::ZERO, DVec2::X, 2.0, &circles, 0.2);
        assert!(f.y < 0.0 && f.x.abs() < 1e-12, "{f}");
        assert_eq!(avoid_obstacles(DVec2::ZERO, DVec2::X, 0.5, &circles, 0.2), DVec2::ZERO);
        // Own position inside (the ID3 case of seed 003): still avoided.
        let f = avoid_obstacles(DVec2::new(2.0, 0.5), DVec2::X, 0.1, &circles, 0.2);
        assert!(f.y > 0.0);
        // A long wall is felt where it is, not as its bounding circle.
        let wall = [ObstacleShape::Box { min: DVec2::new(-4.5, 4.7), max: DVec2::new(4.5, 5.3) }];
        assert_eq!(avoid_obstacles(DVec2::new(-4.0, 3.0), DVec2::X, 1.0, &wall, 0.35), DVec2::ZERO);
        let f = avoid_obstacles(DVec2::new(-4.0, 3.9), DVec2::Y, 1.0, &wall, 0.35);
        assert!(f.length() > 0.9, "{f}");
    }
}
