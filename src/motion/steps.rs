//! Step length: one table, in one place, configurable (labanotation-rules.md §2.4, §4.5, §5.2).
//!
//! Length = height × forward fraction × direction factor × level factor × air factor × space
//! measurement factor. Defaults: 0.40 H forward, sides 0.6, back 0.8, high level 0.75; leaps
//! longer, hops shorter; the narrow and wide signs ±15 %.

use crate::read::{Direction, Level, VolumeSign};
use crate::score::{JumpForm, Modifier};
use serde::Serialize;

/// Step length factors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepTable {
    /// Forward middle step as a fraction of body height.
    pub forward_of_height: f32,
    /// Factor for backward steps.
    pub backward: f32,
    /// Factor for side steps.
    pub side: f32,
    /// Factor for forward diagonals.
    pub diagonal_forward: f32,
    /// Factor for backward diagonals.
    pub diagonal_backward: f32,
    /// Factor at high level (relevé: shorter).
    pub high_level: f32,
    /// Factor at low level (plié).
    pub low_level: f32,
    /// Landing a leap (or a run): longer.
    pub leap: f32,
    /// Landing a hop: shorter.
    pub hop: f32,
    /// Landing a two-footed jump, assemblé or sissonne.
    pub jump: f32,
    /// Extra length per second of air time (runs and leaps get longer with flight).
    pub per_air_second: f32,
    /// Change per degree of a space-measurement sign: bent = shorter, stretched = longer.
    pub space_measure: f32,
}

impl Default for StepTable {
    fn default() -> Self {
        StepTable {
            forward_of_height: 0.40,
            backward: 0.8,
            side: 0.6,
            diagonal_forward: 0.8,
            diagonal_backward: 0.7,
            high_level: 0.75,
            low_level: 1.0,
            leap: 1.3,
            hop: 0.5,
            jump: 0.6,
            per_air_second: 0.3,
            space_measure: 0.15,
        }
    }
}

impl StepTable {
    /// The length in metres of a step in `direction` at `level`, landing a jump of `form` after
    /// `air_secs` in the air (0 for a plain step), with the entry's modifiers.
    pub fn length_m(
        &self,
        height_m: f32,
        direction: Direction,
        level: Level,
        form: Option<JumpForm>,
        air_secs: f64,
        modifiers: &[Modifier],
    ) -> f32 {
        let dir = match direction {
            Direction::Place => return 0.0,
            Direction::Forward => 1.0,
            Direction::Backward => self.backward,
            Direction::Left | Direction::Right => self.side,
            Direction::LeftForward | Direction::RightForward => self.diagonal_forward,
            Direction::LeftBackward | Direction::RightBackward => self.diagonal_backward,
        };
        let lvl = match level {
            Level::High => self.high_level,
            Level::Low => self.low_level,
            _ => 1.0,
        };
        let air = match form {
            None => 1.0,
            Some(JumpForm::Leap) => self.leap * (1.0 + self.per_air_second * air_secs as f32),
            Some(JumpForm::Hop) => self.hop,
            Some(_) => self.jump,
        };
        let mut space = 1.0;
        for m in modifiers {
            match m {
                Modifier::Volume(VolumeSign::Bent) => space -= self.space_measure,
                Modifier::Volume(VolumeSign::Stretched) => space += self.space_measure,
                _ => {}
            }
        }
        (height_m * self.forward_of_height * dir * lvl * air * space).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_orders_lengths_as_the_rules_say() {
        let t = StepTable::default();
        let l = |d, lv, f, air| t.length_m(1.75, d, lv, f, air, &[]);
        assert!((l(Direction::Forward, Level::Middle, None, 0.0) - 0.70).abs() < 1e-6);
        assert!(l(Direction::Right, Level::Middle, None, 0.0) < l(Direction::Forward, Level::Middle, None, 0.0));
        assert!(l(Direction::Forward, Level::High, None, 0.0) < l(Direction::Forward, Level::Middle, None, 0.0));
        assert!(
            l(Direction::Forward, Level::Low, Some(JumpForm::Leap), 0.5) > l(Direction::Forward, Level::Low, None, 0.0)
        );
        assert!(
            l(Direction::Forward, Level::Low, Some(JumpForm::Hop), 0.5) < l(Direction::Forward, Level::Low, None, 0.0)
        );
        assert_eq!(l(Direction::Place, Level::Low, None, 0.0), 0.0);
        let narrow =
            t.length_m(1.75, Direction::Forward, Level::Middle, None, 0.0, &[Modifier::Volume(VolumeSign::Bent)]);
        assert!((narrow - 0.70 * 0.85).abs() < 1e-6);
    }
}
