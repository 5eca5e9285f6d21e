//! The direction × level table of the rules: where a limb points for each of the 27 direction signs
//! in the dancer's own frame, the mirror image of a direction, and the horizontal way a step
//! travels.
//!
//! The table is built from exact components, so the left side's targets are the right side's mirror
//! image bit for bit (`tests/pipeline/motion_limbs.rs` checks all 27 for both arms and both legs).
//! The few targets beyond the joints' range (arm back high, leg straight up, high limbs across the
//! body) are flagged out of reach.

use crate::read::{Direction, Level};
use glam::{Vec2, Vec3};

/// The 27-entry direction × level table: unit vector (right, up, forward) from the joint to the
/// extremity; zero for place middle (drawn in). Blank level reads as middle. Built from exact
/// components (0, ±1, ±1/√2), so a direction and its mirror image (left ↔ right) differ only in
/// the sign of x, bit for bit: mirrored limbs get mirrored targets by construction.
pub fn gesture_dir_in_body(direction: Direction, level: Level) -> Vec3 {
    let c = std::f32::consts::FRAC_1_SQRT_2;
    // Horizontal part (right, forward).
    let horizontal = match direction {
        Direction::Place => None,
        Direction::Forward => Some((0.0, 1.0)),
        Direction::RightForward => Some((c, c)),
        Direction::Right => Some((1.0, 0.0)),
        Direction::RightBackward => Some((c, -c)),
        Direction::Backward => Some((0.0, -1.0)),
        Direction::LeftBackward => Some((-c, -c)),
        Direction::Left => Some((-1.0, 0.0)),
        Direction::LeftForward => Some((-c, c)),
    };
    match horizontal {
        None => match level {
            Level::High => Vec3::Y,
            Level::Low => -Vec3::Y,
            Level::Middle | Level::Blank => Vec3::ZERO,
        },
        Some((x, z)) => {
            let h = Vec3::new(x, 0.0, z);
            match level {
                Level::High => h * c + Vec3::Y * c,
                Level::Low => h * c - Vec3::Y * c,
                Level::Middle | Level::Blank => h,
            }
        }
    }
    .normalize_or_zero()
}

/// The mirror image of a direction (left ↔ right): what the other side's limb does when it
/// mirrors this one.
pub fn mirrored_direction(direction: Direction) -> Direction {
    direction.mirrored()
}

/// Horizontal unit step direction (right, forward) for a direction; zero for place.
pub fn step_dir_in_body(direction: Direction) -> Vec2 {
    match direction.azimuth_cw_rad() {
        None => Vec2::ZERO,
        Some(az) => Vec2::new(az.sin(), az.cos()),
    }
}
