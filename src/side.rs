//! One side of the body, for every layer: the side a sign is written on, a limb's or a joint's
//! side, the foot a footprint or a support belongs to. Left comes first (index 0) and lies on
//! +X of the dancer at rest.

use serde::Serialize;

/// A side of the body: the dancer's left or right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Side {
    /// The dancer's left (+X at rest).
    Left,
    /// The dancer's right (−X at rest).
    Right,
}

impl Side {
    /// Both sides, left first.
    pub const BOTH: [Side; 2] = [Side::Left, Side::Right];

    /// 0 for left, 1 for right: the index of per-side arrays (left first).
    pub fn index(self) -> usize {
        match self {
            Side::Left => 0,
            Side::Right => 1,
        }
    }

    /// +1 for left, −1 for right: the sign of x on this side at rest.
    pub fn sign_x(self) -> f32 {
        match self {
            Side::Left => 1.0,
            Side::Right => -1.0,
        }
    }

    /// +1 for right, −1 for left: multiplies the dancer's right vector.
    pub fn right_sign(self) -> f32 {
        match self {
            Side::Left => -1.0,
            Side::Right => 1.0,
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Side;

    #[test]
    fn the_sides_mirror_each_other() {
        for side in Side::BOTH {
            assert_eq!(side.other().other(), side);
            assert_eq!(side.sign_x(), -side.right_sign());
            assert_ne!(side.index(), side.other().index());
        }
        assert_eq!(Side::BOTH.map(Side::index), [0, 1]);
    }
}
