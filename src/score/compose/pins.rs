//! The pins pass: a pin inside a turn sign or a circular path sign is its amount; a pin under
//! the staff's centre before the music starts is the dancer sign; any other pin is a loose
//! modifier for the attach pass.

use super::{Page, Placed, StaffBuilder, contains_centre};
use crate::read::{PathSign, SymbolKind};
use crate::score::types::{DancerSign, Modifier};
use std::collections::BTreeMap;

/// How far (fraction of the holder's width, each side) a pin's centre may stand outside a turn
/// or circular path sign and still be inside it.
const PIN_INSIDE_GROW: f32 = 0.6;

/// How far (fraction of the staff's half width) a dancer sign's centre may stand from the
/// staff's centre line.
const DANCER_SIGN_REACH: f32 = 0.5;

impl Page<'_> {
    /// The pins held inside turn and circular path signs, keyed by the holder's index in
    /// `placed`; dancer signs and loose pins go to their staff's builder.
    pub(super) fn pins(&self, placed: &[Placed], builders: &mut [StaffBuilder]) -> BTreeMap<usize, u8> {
        let holders: Vec<(usize, &Placed)> = placed
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p.sym.kind, SymbolKind::Turn(_) | SymbolKind::Path(PathSign::Circular { .. })))
            .collect();
        let mut inner_pins: BTreeMap<usize, u8> = BTreeMap::new();
        for (pi, p) in placed.iter().enumerate() {
            let SymbolKind::Pin { orientation, black } = p.sym.kind else { continue };
            let inside =
                holders.iter().find(|(_, h)| h.staff == p.staff && contains_centre(h.sym, p.sym, PIN_INSIDE_GROW));
            if let Some((hi, _)) = inside {
                inner_pins.entry(*hi).or_insert(orientation);
                continue;
            }
            // Dancer sign: under the staff's centre line before the music starts.
            let geo = &self.staves_geo[p.staff];
            if p.end_beats <= 0.0
                && (p.sym.x_mid() - geo.centre_x).abs() <= geo.half_width * DANCER_SIGN_REACH
                && builders[p.staff].dancer.is_none()
            {
                builders[p.staff].dancer = Some(DancerSign { orientation, black });
                continue;
            }
            builders[p.staff].loose.push((pi, Modifier::Pin { orientation, black }));
        }
        inner_pins
    }
}
