//! Contact bows and release signs (LED `Misc 1`, `Misc 2`/`3`): a bow with a body-part sign at each
//! end is a contact (hands joined, a hand on a partner's shoulder or upper arm) until a release
//! sign under it; its part signs, area signs and hold/relaxed signs belong to it, not to arm
//! columns.
//!
//! A contact joins two dancers or two parts of one. An `Area 1` / `Area 5` sign beside a part names
//! its front or back. Without a release sign the contact lasts to the end of the score. `inspect`
//! lists the contacts; [`crate::contact`] poses them.

use super::claims::x_overlaps;
use super::compose::Placed;
use super::types::{Contact, ContactEnd, ContactSurface, Measure, measure_at};
use crate::diag::Diagnostic;
use crate::read::{PageSymbol, SymbolKind};
use std::collections::BTreeSet;

/// How far (page units) a part sign may stand from a bow's end and still be that end.
const END_REACH_UNITS: f32 = 6.0;

/// How far (page units, half a beat of LED's) above or below a bow's box a part sign may stand
/// and still be its end, and a direction sign over a volume sign still be the one it modifies.
const BOW_Y_REACH_UNITS: f32 = 12.0;

/// Contacts found on a page, and the placed symbols they consumed.
#[derive(Debug, Default)]
pub(super) struct Bows {
    /// The contacts, in time order.
    pub contacts: Vec<Contact>,
    /// Indices (into the placed symbols) of bows, their end signs, area signs, hold and volume
    /// signs on them, and the release signs that ended them.
    pub consumed: BTreeSet<usize>,
    /// Bows and releases that could not be read as contacts.
    pub warnings: Vec<Diagnostic>,
}

fn boxes_touch(a: &PageSymbol, b: &PageSymbol, grow: f32) -> bool {
    a.x - grow <= b.x + b.w && b.x - grow <= a.x + a.w && a.y - grow <= b.y_top() && b.y - grow <= a.y_top()
}

/// Horizontal distance from `x` to the range of `s` (0 inside it).
fn x_distance(s: &PageSymbol, x: f32) -> f32 {
    if x < s.x {
        s.x - x
    } else if x > s.x + s.w {
        x - s.x - s.w
    } else {
        0.0
    }
}

/// The body-part sign at end `x` of `bow`: within reach of the end, its y range meeting the
/// bow's (grown by a beat's half); the nearest one.
fn end_sign(bow: &PageSymbol, x: f32, placed: &[Placed], taken: Option<usize>) -> Option<usize> {
    let (lo, hi) = (bow.y - BOW_Y_REACH_UNITS, bow.y_top() + BOW_Y_REACH_UNITS);
    placed
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            Some(*i) != taken
                && matches!(p.sym.kind, SymbolKind::BodyPart(_))
                && x_distance(p.sym, x) <= END_REACH_UNITS
                && p.sym.y <= hi
                && p.sym.y_top() >= lo
        })
        .min_by(|a, b| {
            let da = x_distance(a.1.sym, x) + (a.1.sym.y - bow.y).abs() * 0.1;
            let db = x_distance(b.1.sym, x) + (b.1.sym.y - bow.y).abs() * 0.1;
            da.total_cmp(&db).then(a.0.cmp(&b.0))
        })
        .map(|(i, _)| i)
}

/// True when the volume sign `v` is the modifier of a direction sign directly above it.
fn modifies_a_direction(v: &PageSymbol, placed: &[Placed]) -> bool {
    placed.iter().any(|q| {
        matches!(q.sym.kind, SymbolKind::Direction { .. })
            && x_overlaps(v, q.sym)
            && q.sym.y >= v.y + v.h * 0.5
            && q.sym.y <= v.y_top() + BOW_Y_REACH_UNITS
    })
}

/// A contact read from its bow, with the bow's x range (for the releases).
struct Bowed {
    /// The contact.
    contact: Contact,
    /// Left of the bow, page units.
    x0: f32,
    /// Right of the bow, page units.
    x1: f32,
}

/// Finds the contacts of a page. `place` describes a placed symbol's staff position for messages.
pub(super) fn find_bows(
    placed: &[Placed],
    measures: &[Measure],
    end_beats: f64,
    place: &dyn Fn(&Placed) -> String,
) -> Bows {
    let mut out = Bows::default();
    let mut found: Vec<Bowed> = Vec::new();
    for (bi, b) in placed.iter().enumerate() {
        if b.sym.kind != SymbolKind::Misc(1) {
            continue;
        }
        let page = Reading { placed, measures, place };
        if let Some(bowed) = read_bow(&page, bi, end_beats, &mut out) {
            found.push(bowed);
        }
    }
    found.sort_by(|a, b| {
        a.contact.start_beats.total_cmp(&b.contact.start_beats).then(a.contact.span.line.cmp(&b.contact.span.line))
    });
    release_contacts(placed, &mut found, place, &mut out);
    out.contacts = found.into_iter().map(|f| f.contact).collect();
    out
}

/// What reading a bow looks at.
struct Reading<'p, 'a> {
    /// The placed symbols.
    placed: &'p [Placed<'a>],
    /// The measures, to place the contact's start.
    measures: &'p [Measure],
    /// A placed symbol's staff position, for messages.
    place: &'p dyn Fn(&Placed) -> String,
}

/// The contact of bow `placed[bi]`: its two end signs (with their surfaces), held from where its
/// ends are until `end_beats`; the bow, its ends and the signs on them go to `out.consumed`.
fn read_bow(page: &Reading, bi: usize, end_beats: f64, out: &mut Bows) -> Option<Bowed> {
    let (placed, place) = (page.placed, page.place);
    let b = &placed[bi];
    let left = end_sign(b.sym, b.sym.x, placed, None);
    let right = end_sign(b.sym, b.sym.x + b.sym.w, placed, left);
    let (Some(l), Some(r)) = (left, right) else {
        out.warnings.push(Diagnostic::warning(
            b.sym.span,
            format!(
                "{}: `{}` (bow) has no body-part sign at {} end; not interpreted",
                place(b),
                b.sym.code,
                if left.is_none() && right.is_none() { "either" } else { "one" }
            ),
        ));
        return None;
    };
    let mut ends = Vec::new();
    for ei in [l, r] {
        if let Some(end) = contact_end(ei, placed, place, out) {
            ends.push(end);
        }
    }
    let Ok(ends) = <[ContactEnd; 2]>::try_from(ends) else { return None };
    out.consumed.insert(bi);
    consume_bow_volumes(b, [l, r], placed, out);
    // The contact is made where the bow's ends are: at its end signs (not below the bow).
    let ends_start = [l, r].iter().filter_map(|&i| placed.get(i)).map(|e| e.start_beats).fold(f64::INFINITY, f64::min);
    let start = b.start_beats.max(ends_start).max(0.0);
    let (measure, beat) = if start <= 0.0 {
        (0, 0.0)
    } else {
        match measure_at(page.measures, start) {
            (0, _) => (0, 0.0),
            found => found,
        }
    };
    let contact = Contact {
        ends,
        start_beats: start,
        end_beats,
        released: false,
        measure,
        beat_in_measure: beat,
        code: b.sym.code.clone(),
        span: b.sym.span,
    };
    Some(Bowed { contact, x0: b.sym.x, x1: b.sym.x + b.sym.w })
}

/// The contact end at body-part sign `placed[ei]`, with the surface an area sign beside it
/// names; the sign and the area signs go to `out.consumed`.
fn contact_end(ei: usize, placed: &[Placed], place: &dyn Fn(&Placed) -> String, out: &mut Bows) -> Option<ContactEnd> {
    let e = placed.get(ei)?;
    let SymbolKind::BodyPart(part) = e.sym.kind else { return None };
    out.consumed.insert(ei);
    // An area sign beside the part sign names its surface.
    let mut surface = ContactSurface::Any;
    for (ai, a) in placed.iter().enumerate() {
        let SymbolKind::Area(item) = a.sym.kind else { continue };
        if !boxes_touch(a.sym, e.sym, 3.0) || out.consumed.contains(&ai) {
            continue;
        }
        out.consumed.insert(ai);
        surface = match item {
            1 => ContactSurface::Front,
            5 => ContactSurface::Back,
            _ => {
                out.warnings.push(Diagnostic::warning(
                    a.sym.span,
                    format!("{}: area sign `{}` on a contact; only front and back are read", place(a), a.sym.code),
                ));
                ContactSurface::Any
            }
        };
    }
    Some(ContactEnd { staff: e.staff, part, surface, code: e.sym.code.clone(), span: e.sym.span })
}

/// Hold and volume signs on the bow's line or on its end signs belong to the contact.
fn consume_bow_volumes(b: &Placed, ends: [usize; 2], placed: &[Placed], out: &mut Bows) {
    for (vi, v) in placed.iter().enumerate() {
        if !matches!(v.sym.kind, SymbolKind::Volume(_)) || modifies_a_direction(v.sym, placed) {
            continue;
        }
        let on_end = ends.iter().any(|&ei| placed.get(ei).is_some_and(|e| boxes_touch(v.sym, e.sym, 2.0)));
        let cy = v.sym.y + v.sym.h * 0.5;
        let on_line = boxes_touch(v.sym, b.sym, 0.0)
            && ((cy - b.sym.y).abs() <= BOW_Y_REACH_UNITS || (cy - b.sym.y_top()).abs() <= BOW_Y_REACH_UNITS);
        if on_end || on_line {
            out.consumed.insert(vi);
        }
    }
}

/// Release signs end the contacts held under them (their x ranges meet); a release that ends
/// none is a warning.
fn release_contacts(placed: &[Placed], found: &mut [Bowed], place: &dyn Fn(&Placed) -> String, out: &mut Bows) {
    let mut releases: Vec<(usize, &Placed)> =
        placed.iter().enumerate().filter(|(_, p)| matches!(p.sym.kind, SymbolKind::Misc(2 | 3))).collect();
    releases.sort_by(|a, b| a.1.start_beats.total_cmp(&b.1.start_beats).then(a.0.cmp(&b.0)));
    for (ri, r) in releases {
        let t = r.start_beats.max(0.0);
        let (rx0, rx1) = (r.sym.x - 6.0, r.sym.x + r.sym.w + 6.0);
        let mut used = false;
        for Bowed { contact: c, .. } in
            found.iter_mut().filter(|f| f.contact.start_beats < t && f.x0 <= rx1 && rx0 <= f.x1)
        {
            if !c.released {
                c.end_beats = t;
                c.released = true;
                used = true;
            } else if c.end_beats >= t - 0.5 {
                // The second half of a release drawn in two parts.
                used = true;
            }
        }
        if used {
            out.consumed.insert(ri);
        } else {
            out.warnings.push(Diagnostic::warning(
                r.sym.span,
                format!("{}: release sign `{}` releases no contact bow; ignored", place(r), r.sym.code),
            ));
            out.consumed.insert(ri);
        }
    }
}
