//! The attach pass: each loose modifier (volume sign, hook, pin) joins the direction, turn or
//! action entry it touches: the next one directly above in its column, else one it overlaps.

use super::{Page, Placed, StaffBuilder};
use crate::diag::Diagnostic;
use crate::score::claims::x_overlaps;
use crate::score::types::{ChannelKind, Entry, EntryKind, Modifier};

/// How far (beats) below a modifier the entry it modifies may start, or around it overlap.
const ATTACH_SLACK_BEATS: f64 = 0.26;

/// How far (beats) above a modifier the entry directly above it may start.
const ATTACH_REACH_BEATS: f64 = 1.5;

impl Page<'_> {
    /// Attaches every builder's loose modifiers; a warning for each that touches no entry.
    pub(super) fn attach(&self, placed: &[Placed], builders: &mut [StaffBuilder], warnings: &mut Vec<Diagnostic>) {
        for b in builders {
            let loose = std::mem::take(&mut b.loose);
            for (pi, modifier) in loose {
                let Some(p) = placed.get(pi) else { continue };
                match b.attach(p, placed, modifier) {
                    true => {}
                    false => warnings.push(Diagnostic::warning(
                        p.sym.span,
                        format!(
                            "{}: `{}` is not next to a symbol it could modify; ignored",
                            self.place_text(p),
                            p.sym.code
                        ),
                    )),
                }
            }
        }
    }
}

impl StaffBuilder {
    /// Attaches `modifier` (from placed symbol `p`) to the direction entry it belongs to:
    /// first the next one directly above in the same column, else one it overlaps nearby.
    fn attach(&mut self, p: &Placed, placed: &[Placed], modifier: Modifier) -> bool {
        let is_target = |e: &(ChannelKind, Entry, usize)| {
            matches!(e.1.kind, EntryKind::Direction { .. } | EntryKind::Turn { .. } | EntryKind::Action)
        };
        let above = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| is_target(e) && (e.1.column - p.column).abs() <= 1)
            .filter(|(_, e)| {
                // Directly above: in its column, or drawn over it across a column boundary.
                placed.get(e.2).is_some_and(|q| {
                    (e.1.column == p.column || x_overlaps(q.sym, p.sym))
                        && q.start_beats >= p.start_beats - ATTACH_SLACK_BEATS
                        && q.start_beats <= p.start_beats + ATTACH_REACH_BEATS
                })
            })
            .min_by(|a, b| a.1.1.start_beats.total_cmp(&b.1.1.start_beats))
            .map(|(i, _)| i);
        let overlap = || {
            self.entries
                .iter()
                .enumerate()
                .filter(|(_, e)| is_target(e) && (e.1.column - p.column).abs() <= 1)
                .filter(|(_, e)| {
                    placed.get(e.2).is_some_and(|q| {
                        q.start_beats <= p.end_beats + ATTACH_SLACK_BEATS
                            && q.end_beats >= p.start_beats - ATTACH_SLACK_BEATS
                    })
                })
                .min_by(|a, b| {
                    let da = placed.get(a.1.2).map_or(f32::MAX, |q| (q.sym.x_mid() - p.sym.x_mid()).abs());
                    let db = placed.get(b.1.2).map_or(f32::MAX, |q| (q.sym.x_mid() - p.sym.x_mid()).abs());
                    da.total_cmp(&db)
                })
                .map(|(i, _)| i)
        };
        match above.or_else(overlap) {
            Some(i) => {
                if let Some(e) = self.entries.get_mut(i) {
                    e.1.modifiers.push(modifier);
                }
                true
            }
            None => false,
        }
    }
}
