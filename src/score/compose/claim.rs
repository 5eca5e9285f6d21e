//! The claim pass: symbols that belong to another sign are consumed (contact bows own their
//! part, area and hold signs; a body-part sign owns the hold sign drawn inside it; straight path
//! brackets own the direction signs between them), then body-part pre-signs claim the symbol
//! directly above them (or head their column), and a text `C` beside a staff claims its column
//! for the head.

use super::{Page, Placed, contains_centre};
use crate::diag::Diagnostic;
use crate::read::{BodyPart, SymbolKind, VolumeSign};
use crate::score::bows::find_bows;
use crate::score::claims::{Claim, find_claims, sort_claims};
use crate::score::outside::{PathBracket, find_path_brackets};
use crate::score::staves::{column_of, nearest_staff};
use crate::score::types::Contact;
use std::collections::BTreeSet;

/// How far over a pre-sign's top (beats, at the page's units per beat) the symbol it names may
/// start.
const PRE_SIGN_REACH_BEATS: f32 = 1.5;

/// How far (beats) a head text `C` is written before the symbol whose column it claims.
const HEAD_TEXT_LEAD_BEATS: f64 = 0.5;

/// What the claim pass found.
pub(super) struct Claimed {
    /// The contacts of the page's bows.
    pub contacts: Vec<Contact>,
    /// Indices (into the placed symbols) owned by a bow, a body-part sign or a path bracket.
    pub consumed: BTreeSet<usize>,
    /// The straight path signs.
    pub brackets: Vec<PathBracket>,
    /// Every pre-sign's claim, sorted by start.
    pub claims: Vec<Claim>,
}

impl Page<'_> {
    /// Consumes the symbols that belong to another sign and collects the pre-signs' claims.
    pub(super) fn claim(&self, placed: &[Placed], duration_beats: f64, warnings: &mut Vec<Diagnostic>) -> Claimed {
        let place_text = |p: &Placed| self.place_text(p);
        let bows = find_bows(placed, &self.timeline.measures, duration_beats, &place_text);
        warnings.extend(bows.warnings.iter().cloned());
        let mut consumed = bows.consumed.clone();
        // Signs drawn inside a body-part sign's box (LED writes the chest as `Area 9` round a hold
        // sign) are part of the pre-sign.
        for (vi, v) in placed.iter().enumerate() {
            if v.sym.kind != SymbolKind::Volume(VolumeSign::Hold) || consumed.contains(&vi) {
                continue;
            }
            let inside = placed.iter().enumerate().any(|(bi, b)| {
                bi != vi && matches!(b.sym.kind, SymbolKind::BodyPart(_)) && contains_centre(b.sym, v.sym, 0.0)
            });
            if inside {
                consumed.insert(vi);
            }
        }
        let brackets = find_path_brackets(placed);
        for br in &brackets {
            consumed.insert(br.foot);
            consumed.insert(br.head);
            consumed.extend(br.inner.iter().copied());
        }

        // Pre-signs claim the symbol directly above them.
        let (mut claims, unclaimed) = find_claims(placed, &consumed, self.opts.units_per_beat * PRE_SIGN_REACH_BEATS);
        for pi in unclaimed {
            let Some(p) = placed.get(pi) else { continue };
            warnings.push(Diagnostic::warning(
                p.sym.span,
                format!(
                    "{}: body-part sign `{}` has no direction, turn or hold sign directly above it in its column; ignored",
                    self.place_text(p),
                    p.sym.code
                ),
            ));
        }
        claims.extend(self.head_text_claims());
        sort_claims(&mut claims);
        Claimed { contacts: bows.contacts, consumed, brackets, claims }
    }

    /// Head pre-signs written as text `C` in a column beside a staff, in file order.
    fn head_text_claims(&self) -> Vec<Claim> {
        let mut claims = Vec::new();
        for sym in &self.doc.symbols {
            if let SymbolKind::Text(t) = &sym.kind
                && t.trim() == "C"
                && let Some(staff) = nearest_staff(&self.staves_geo, sym.x_mid())
            {
                let column = column_of(&self.staves_geo[staff], sym.x_mid());
                if column.abs() >= 2 {
                    claims.push(Claim {
                        staff,
                        column,
                        start_beats: self.timeline.beats_at(sym.y) - HEAD_TEXT_LEAD_BEATS,
                        part: BodyPart::Head,
                        target: None,
                        only_target: false,
                    });
                }
            }
        }
        claims
    }
}
