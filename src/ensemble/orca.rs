//! ORCA (optimal reciprocal collision avoidance, van den Berg, Guy, Lin & Manocha 2011) as the
//! alternative correct phase: each performer's new velocity is the one nearest its schedule's that
//! stays outside every neighbour's velocity obstacle, solved by the `dodgy_2d` crate.
//!
//! Neighbours are those within the neighbourhood radius, with a 1 s horizon; a performer holding its
//! spot takes no share. Set pieces are obstacles too (boxes exactly, circles as circumscribed
//! 16-gons). The act phase's exact check still runs after it. Radii are passed 1 mm short so bodies
//! that touch never count as overlapping for ORCA, whose overlap case picks a random direction: the
//! result stays deterministic. On the bundled plans ORCA's paths are 0.1–0.5 % shorter, but on the
//! stadium plan two runners arrive late, so steering is the default (`cargo test --release --test
//! pipeline orca_versus -- --ignored --nocapture` prints the comparison).

use super::plan::{Obstacle, ObstacleShape};
use dodgy_2d::{Agent, AvoidanceOptions, Obstacle as DodgyObstacle, Vec2};
use glam::DVec2;
use std::borrow::Cow;

/// Sides of the polygon a circular obstacle is given to ORCA as (circumscribed).
const CIRCLE_SIDES: usize = 16;
/// Look-ahead for neighbours and obstacles, seconds.
pub const HORIZON_SECS: f64 = 1.0;
/// Radii are passed this much smaller than the body's, so two bodies exactly touching (the act
/// phase allows that) are never "colliding" for ORCA (whose collision case can pick a random
/// direction): the solver stays deterministic.
const RADIUS_SLACK_M: f64 = 1e-3;

/// A neighbour as ORCA sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbour {
    /// Stage position, metres.
    pub position: DVec2,
    /// Velocity, metres per second.
    pub velocity: DVec2,
    /// True when it is moving (shares the avoidance); a performer holding its spot does not.
    pub moving: bool,
}

/// The obstacles as closed counter-clockwise polygons (stage metres): boxes exactly, circles
/// as circumscribed polygons; with each its bounding radius about its first vertex's centre.
pub fn obstacle_polygons(obstacles: &[Obstacle]) -> Vec<(DVec2, f64, Vec<DVec2>)> {
    obstacles
        .iter()
        .map(|o| match o.shape {
            ObstacleShape::Circle { centre, radius_m } => {
                let r = radius_m / (std::f64::consts::PI / CIRCLE_SIDES as f64).cos();
                let vertices = (0..CIRCLE_SIDES)
                    .map(|k| centre + DVec2::from_angle(std::f64::consts::TAU * k as f64 / CIRCLE_SIDES as f64) * r)
                    .collect();
                (centre, r, vertices)
            }
            ObstacleShape::Box { min, max } => {
                let centre = 0.5 * (min + max);
                let vertices = vec![min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
                (centre, 0.5 * (max - min).length(), vertices)
            }
        })
        .collect()
}

/// Scratch buffers reused between calls.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    agents: Vec<Cow<'static, Agent>>,
    obstacles: Vec<Cow<'static, DodgyObstacle>>,
}

fn v2(v: DVec2) -> Vec2 {
    Vec2::new(v.x as f32, v.y as f32)
}

/// The velocity nearest `preferred` (at most `max_speed`) that ORCA finds collision-free for
/// `HORIZON_SECS` against `neighbours` and the obstacle `polygons`, for a body of `radius_m`
/// at `position` moving at `velocity`. Everything is taken relative to `position` (f32 keeps
/// micrometres that way on a 100 m stage). Deterministic.
#[allow(clippy::too_many_arguments)]
pub fn avoiding_velocity(
    position: DVec2,
    velocity: DVec2,
    preferred: DVec2,
    max_speed: f64,
    radius_m: f64,
    neighbours: impl Iterator<Item = Neighbour>,
    polygons: &[(DVec2, f64, Vec<DVec2>)],
    dt_secs: f64,
    scratch: &mut Scratch,
) -> DVec2 {
    let r = (radius_m - RADIUS_SLACK_M).max(1e-3) as f32;
    scratch.agents.clear();
    for n in neighbours {
        scratch.agents.push(Cow::Owned(Agent {
            position: v2(n.position - position),
            velocity: v2(n.velocity),
            radius: r,
            avoidance_responsibility: if n.moving { 1.0 } else { 0.0 },
        }));
    }
    scratch.obstacles.clear();
    let reach = max_speed * HORIZON_SECS + radius_m;
    for (centre, bound, vertices) in polygons {
        if centre.distance(position) <= bound + reach {
            let vertices = vertices.iter().map(|v| v2(*v - position)).collect();
            scratch.obstacles.push(Cow::Owned(DodgyObstacle::Closed { vertices }));
        }
    }
    let me = Agent { position: Vec2::ZERO, velocity: v2(velocity), radius: r, avoidance_responsibility: 1.0 };
    let options = AvoidanceOptions {
        obstacle_margin: RADIUS_SLACK_M as f32,
        time_horizon: HORIZON_SECS as f32,
        obstacle_time_horizon: HORIZON_SECS as f32,
    };
    let v = me.compute_avoiding_velocity(
        &scratch.agents,
        &scratch.obstacles,
        v2(preferred),
        max_speed as f32,
        dt_secs as f32,
        &options,
    );
    let v = DVec2::new(f64::from(v.x), f64::from(v.y));
    if v.is_finite() { v } else { DVec2::ZERO }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on_pair_sidesteps_and_a_clear_path_is_kept() {
        let other = Neighbour { position: DVec2::new(2.0, 0.0), velocity: DVec2::new(-1.0, 0.0), moving: true };
        let mut scratch = Scratch::default();
        let v = avoiding_velocity(
            DVec2::ZERO,
            DVec2::new(1.0, 0.0),
            DVec2::new(1.0, 0.0),
            1.5,
            0.25,
            std::iter::once(other),
            &[],
            1.0 / 16.0,
            &mut scratch,
        );
        assert!(v.y.abs() > 0.05, "ORCA should turn aside: {v}");
        let clear = avoiding_velocity(
            DVec2::ZERO,
            DVec2::ZERO,
            DVec2::new(0.0, 1.0),
            1.5,
            0.25,
            std::iter::once(other),
            &[],
            1.0 / 16.0,
            &mut scratch,
        );
        assert!((clear - DVec2::new(0.0, 1.0)).length() < 1e-5, "{clear}");
    }
}
