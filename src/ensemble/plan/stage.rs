//! The floor checks of a plan: the wings margin, and every formation's spots and every `via` and
//! `attract` point on the stage or in its wings.

use super::*;

/// The help shown with every spot or point off the floor.
pub(super) const OFF_FLOOR_HELP: &str =
    "move it onto the stage, or make `[stage]` larger (`wings_m` adds room at the sides)";

impl Checker<'_> {
    /// `wings_m`: 0 or more metres, at most [`MAX_EXTENT_M`]; 0 when not given.
    pub(super) fn wings(&mut self, wings: Option<&Spanned<f64>>) -> f64 {
        let Some(w) = wings else { return 0.0 };
        let value = *w.get_ref();
        if !(value.is_finite() && (0.0..=MAX_EXTENT_M).contains(&value)) {
            self.error(w, format!("`wings_m` must be 0 to {MAX_EXTENT_M} metres, not {value}"));
            return 0.0;
        }
        value
    }

    /// Each formation with spots off the floor is an error at the formation naming how many and
    /// the farthest out.
    pub(super) fn formations_on_floor(&mut self, formations: &[Formation]) {
        for f in formations {
            let out: Vec<(usize, f64)> = f
                .spots
                .iter()
                .enumerate()
                .filter(|(_, p)| self.floor.excludes(**p))
                .map(|(k, p)| (k, self.floor.outside_m(*p)))
                .collect();
            let Some(&(k, far_m)) = out.iter().max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0))) else {
                continue;
            };
            let spot = f.spots[k];
            let at = format!("spot {} at ({:.2}, {:.2})", k + 1, spot.x, spot.y);
            let what = if out.len() == 1 {
                format!("spot {} of formation `{}` at ({:.2}, {:.2}) is", k + 1, f.name, spot.x, spot.y)
            } else {
                format!("{} spots of formation `{}` lie off the stage; the farthest, {at}, is", out.len(), f.name)
            };
            let d =
                Diagnostic::error(f.span, format!("{what} {far_m:.2} m outside the stage ({})", self.floor.describe()))
                    .with_help(OFF_FLOOR_HELP);
            self.errors.push(d);
        }
    }

    /// Each of `points` (written at `at`, named `what` in messages) off the floor is an error.
    pub(super) fn points_on_floor<T>(&mut self, at: &Spanned<T>, points: &[DVec2], what: &str) {
        for (k, p) in points.iter().enumerate() {
            if self.floor.excludes(*p) {
                let number = if points.len() > 1 { format!(" {}", k + 1) } else { String::new() };
                let d = Diagnostic::error(
                    self.span(at),
                    format!(
                        "{what}{number} ({:.2}, {:.2}) is {:.2} m outside the stage ({})",
                        p.x,
                        p.y,
                        self.floor.outside_m(*p),
                        self.floor.describe()
                    ),
                )
                .with_help(OFF_FLOOR_HELP);
                self.errors.push(d);
            }
        }
    }
}
