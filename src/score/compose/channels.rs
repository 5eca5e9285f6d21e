//! The channels pass: each placed symbol that no other sign consumed becomes an entry in the
//! channel of the part claiming it, else of its column's zone; straight path brackets become
//! path entries; volume signs and hooks become loose modifiers for the attach pass.

use super::claim::Claimed;
use super::{Page, Placed, StaffBuilder, channel_of_zone, pin_turn_degrees};
use crate::diag::Diagnostic;
use crate::read::{BodyPart, PathSign, SymbolKind, TurnSign, VolumeSign};
use crate::score::claims::claim_for;
use crate::score::outside::drifted_column;
use crate::score::staves::{ColumnConvention, Zone, zone_of};
use crate::score::types::{ChannelKind, Entry, EntryKind, Modifier};
use std::collections::BTreeMap;

/// The first column beyond the arm columns in LED/LINTEL practice (`Zone::Extra`).
const LINTEL_FIRST_EXTRA_COLUMN: i32 = 6;

/// How far (fraction of the staff's half width) a turn sign must reach past the centre line on
/// both sides to turn on both feet.
const BOTH_FEET_REACH: f32 = 0.1;

/// Degrees between the front signs' directions.
const FRONT_STEP_DEG: f64 = 45.0;

/// A placed symbol on its way into a channel.
struct Routed<'p, 'a> {
    /// Index in the placed symbols.
    index: usize,
    /// The symbol, at the column it is read in.
    p: &'p Placed<'a>,
    /// The part a pre-sign names for it.
    claim: Option<BodyPart>,
    /// The zone of its column.
    zone: Zone,
}

impl Routed<'_, '_> {
    /// The claiming part's channel, else the zone's.
    fn channel(&self) -> ChannelKind {
        match self.claim {
            Some(part) => ChannelKind::Part(part),
            None => channel_of_zone(self.zone),
        }
    }
}

impl Page<'_> {
    /// Puts the straight path signs and every symbol not in `claimed.consumed` into their
    /// staves' channels (or loose modifiers).
    pub(super) fn channels(
        &self,
        placed: &[Placed],
        claimed: &Claimed,
        inner_pins: &BTreeMap<usize, u8>,
        builders: &mut [StaffBuilder],
        warnings: &mut Vec<Diagnostic>,
    ) {
        for br in &claimed.brackets {
            let (Some(foot), Some(head)) = (placed.get(br.foot), placed.get(br.head)) else { continue };
            let span = Placed { end_beats: head.end_beats.max(foot.start_beats), ..foot.clone() };
            let entry = self.entry(&span, EntryKind::Path { sign: PathSign::Straight, amount_deg: None });
            builders[foot.staff].push(ChannelKind::Path, entry, br.foot);
        }
        for (pi, p) in placed.iter().enumerate() {
            if claimed.consumed.contains(&pi) {
                continue;
            }
            let claim = claim_for(&claimed.claims, pi, p);
            let Some(column) = self.read_column(pi, placed, claim, warnings) else { continue };
            let zone = zone_of(column, self.opts.convention);
            let p_col = Placed { column, ..p.clone() };
            let routed = Routed { index: pi, p: &p_col, claim, zone };
            self.route(&routed, inner_pins, &mut builders[p.staff], warnings);
        }
    }

    /// The column `placed[pi]` is read in. Columns beyond the body columns belong to the body
    /// only when claimed (or drawn in line with the arm column beside them); `None` (with a
    /// warning) when the symbol is not interpreted there.
    fn read_column(
        &self,
        pi: usize,
        placed: &[Placed],
        claim: Option<BodyPart>,
        warnings: &mut Vec<Diagnostic>,
    ) -> Option<i32> {
        let p = &placed[pi];
        let column = p.column;
        if claim.is_none()
            && matches!(zone_of(column, self.opts.convention), Zone::Extra(_))
            && matches!(
                p.sym.kind,
                SymbolKind::Direction { .. } | SymbolKind::Turn(_) | SymbolKind::Volume(VolumeSign::Hold)
            )
        {
            let drifted = drifted_column(pi, placed, LINTEL_FIRST_EXTRA_COLUMN)
                .filter(|_| self.opts.convention == ColumnConvention::Lintel);
            if drifted.is_none() {
                warnings.push(Diagnostic::warning(
                    p.sym.span,
                    format!(
                        "{}: `{}` is outside the staff's body columns and no body-part sign claims its column; not interpreted",
                        self.place_text(p),
                        p.sym.code
                    ),
                ));
            }
            return drifted;
        }
        Some(column)
    }

    /// Puts one symbol into its staff's channels, loose modifiers or warnings.
    fn route(
        &self,
        r: &Routed,
        inner_pins: &BTreeMap<usize, u8>,
        b: &mut StaffBuilder,
        warnings: &mut Vec<Diagnostic>,
    ) {
        let (pi, p) = (r.index, r.p);
        match &p.sym.kind {
            SymbolKind::Direction { direction, .. } => {
                let entry = self.entry(p, EntryKind::Direction { direction: *direction, level: p.sym.level });
                b.push(r.channel(), entry, pi);
            }
            SymbolKind::Turn(sign) => {
                let entry = self.turn_entry(p, sign, inner_pins.get(&pi).copied(), warnings);
                b.push(r.channel(), entry, pi);
            }
            SymbolKind::Volume(VolumeSign::Hold) => b.push(r.channel(), self.entry(p, EntryKind::Hold), pi),
            SymbolKind::Volume(v) => b.loose.push((pi, Modifier::Volume(*v))),
            SymbolKind::Misc(item) if (4..=9).contains(item) => b.loose.push((pi, Modifier::Hook { item: *item })),
            // Bows and release signs: read (or warned about) with the contacts.
            SymbolKind::Misc(1..=3) => {}
            SymbolKind::Misc(_) => warnings.push(Diagnostic::warning(
                p.sym.span,
                format!("{}: `{}` (miscellaneous sign) not interpreted", self.place_text(p), p.sym.code),
            )),
            SymbolKind::Front(i) => {
                let facing_deg = *i as f64 * FRONT_STEP_DEG;
                b.push(ChannelKind::Front, self.entry(p, EntryKind::Front { facing_deg }), pi);
            }
            // A plain vertical line in a gesture column is an action stroke (labanotation-rules §5.1:
            // with a space-measurement sign the limb bends or stretches in place).
            SymbolKind::Path(PathSign::Other(3))
                if r.claim.is_some() || !matches!(r.zone, Zone::Support(_) | Zone::Extra(_)) =>
            {
                b.push(r.channel(), self.entry(p, EntryKind::Action), pi);
            }
            SymbolKind::Path(sign) => {
                let entry = self.path_entry(p, sign, inner_pins.get(&pi).copied(), warnings);
                b.push(ChannelKind::Path, entry, pi);
            }
            SymbolKind::Area(item) => warnings.push(Diagnostic::warning(
                p.sym.span,
                format!("{}: body area sign `Area {item}` not interpreted", self.place_text(p)),
            )),
            SymbolKind::BodyPart(_) | SymbolKind::Pin { .. } => {}
            SymbolKind::BarLine | SymbolKind::StaffLine { .. } | SymbolKind::Text(_) => {}
        }
    }

    /// A turn sign's entry: its sense, its amount from the pin inside (`pin`), and whether it
    /// spans both support columns; a warning when the sense or the amount is unknown.
    fn turn_entry(&self, p: &Placed, sign: &TurnSign, pin: Option<u8>, warnings: &mut Vec<Diagnostic>) -> Entry {
        let clockwise = match sign {
            TurnSign::Right => Some(true),
            TurnSign::Left => Some(false),
            TurnSign::Composite | TurnSign::Other(_) => None,
        };
        let composite = *sign == TurnSign::Composite;
        let amount_deg = match (clockwise, pin) {
            (Some(cw), Some(k)) => Some(pin_turn_degrees(cw, k)),
            _ if composite => Some(0.0),
            _ => None,
        };
        let geo = &self.staves_geo[p.staff];
        let both_feet = p.sym.x < geo.centre_x - geo.half_width * BOTH_FEET_REACH
            && p.sym.x + p.sym.w > geo.centre_x + geo.half_width * BOTH_FEET_REACH;
        let mut entry = self.entry(p, EntryKind::Turn { clockwise, amount_deg, both_feet });
        if let Some(k) = pin {
            entry.modifiers.push(Modifier::TurnPin { orientation: k });
        }
        if clockwise.is_none() && !composite {
            warnings.push(Diagnostic::warning(
                p.sym.span,
                format!(
                    "{}: rotation sign `{}` not interpreted (only left/right turn signs are)",
                    self.place_text(p),
                    p.sym.code
                ),
            ));
        } else if pin.is_none() && !composite {
            warnings.push(Diagnostic::warning(
                p.sym.span,
                format!("{}: turn sign `{}` has no pin inside; amount unknown", self.place_text(p), p.sym.code),
            ));
        }
        entry
    }

    /// A path sign's entry: a circular path's fraction from the pin inside (`pin`); a warning for
    /// the path signs that are neither circular nor straight.
    fn path_entry(&self, p: &Placed, sign: &PathSign, pin: Option<u8>, warnings: &mut Vec<Diagnostic>) -> Entry {
        let amount_deg = match (sign, pin) {
            (PathSign::Circular { clockwise }, Some(k)) => Some(pin_turn_degrees(*clockwise, k)),
            _ => None,
        };
        let mut entry = self.entry(p, EntryKind::Path { sign: *sign, amount_deg });
        if let Some(k) = pin {
            entry.modifiers.push(Modifier::TurnPin { orientation: k });
        }
        if let PathSign::Other(item) = sign {
            warnings.push(Diagnostic::warning(
                p.sym.span,
                format!(
                    "{}: `{}` is not a circular or straight path sign ({}); no effect on the motion",
                    self.place_text(p),
                    p.sym.code,
                    match item {
                        1 => "LED draws it as ⊥, the foot of a vertical line; no ⊤ with a direction sign pairs with it",
                        2 => "LED draws it as ⊤, the head of a vertical line; no ⊥ with a direction sign pairs with it",
                        3 => "LED draws it as a plain vertical line",
                        4 | 5 => "LED draws it as a V / Λ",
                        _ => "LED draws it as a vertical bow",
                    }
                ),
            ));
        }
        entry
    }
}
