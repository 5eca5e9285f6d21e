//! Page symbols → composite score: staves, measures, columns, channels and modifiers.
//!
//! Symbols are placed by geometry only (file order means nothing), timed through the per-measure
//! [`Timeline`], sorted into channels, and modifiers are attached to the symbol they touch.

use super::bows::find_bows;
use super::claims::{Claim, claim_for, find_claims, x_overlaps};
use super::gaps::find_gaps;
use super::geometry::{PLAUSIBLE_BEATS_PER_MEASURE, PLAUSIBLE_BPM, y_outliers};
use super::outside::{drifted_column, find_path_brackets};
use super::staves::{ColumnConvention, StaffGeometry, Zone, column_of, find_staves, nearest_staff, zone_of};
use super::timeline::{BarMark, Timeline};
use super::types::*;
use crate::diag::{Diagnostic, Span};
use crate::read::{BodyPart, Document, Format, Level, PageSymbol, PathSign, SymbolKind, TurnSign, VolumeSign};
use std::collections::{BTreeMap, BTreeSet};

/// Knobs of the page interpretation, chosen per format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageOptions {
    /// Which columns outside the staff mean what.
    pub convention: ColumnConvention,
    /// Page units per beat, to count beats in a measure when no meter is written.
    pub units_per_beat: f32,
    /// Starts and ends snap to multiples of this many beats (0 = no snapping).
    pub quantum_beats: f64,
    /// Gaps in the support columns shorter than this are not flights (labanotation-rules §3).
    pub gap_tolerance_beats: f64,
}

impl PageOptions {
    /// The options for a format: LED's 24 units per beat (4 steps of 6 units) and its step
    /// grid for `.lbn`; textbook columns and no snapping otherwise.
    pub fn for_format(format: Format) -> Self {
        match format {
            Format::Lbn => PageOptions {
                convention: ColumnConvention::Lintel,
                units_per_beat: 24.0,
                quantum_beats: 0.25,
                gap_tolerance_beats: 0.125,
            },
            _ => PageOptions {
                convention: ColumnConvention::Standard,
                units_per_beat: 24.0,
                quantum_beats: 0.0,
                gap_tolerance_beats: 0.125,
            },
        }
    }
}

/// A symbol with its staff, column and time.
#[derive(Clone, Debug)]
pub(super) struct Placed<'a> {
    /// The symbol as read.
    pub sym: &'a PageSymbol,
    /// Index of its staff.
    pub staff: usize,
    /// Its signed column on that staff.
    pub column: i32,
    /// Start, beats.
    pub start_beats: f64,
    /// End, beats.
    pub end_beats: f64,
}

/// Meter written as text (`3/4`), if any; a meter text no score uses is a warning.
fn written_meter(symbols: &[PageSymbol], warnings: &mut Vec<Diagnostic>) -> Option<u32> {
    symbols.iter().find_map(|s| match &s.kind {
        SymbolKind::Text(t) => {
            let (a, b) = t.trim().split_once('/')?;
            let n: u32 = a.trim().parse().ok()?;
            let d: u32 = b.trim().parse().ok()?;
            if !PLAUSIBLE_BEATS_PER_MEASURE.contains(&n) && [2, 4, 8, 16].contains(&d) {
                warnings.push(Diagnostic::warning(
                    s.span,
                    format!("meter `{}` is outside the meters scores use (1–16 beats); ignored", t.trim()),
                ));
                return None;
            }
            (PLAUSIBLE_BEATS_PER_MEASURE.contains(&n) && [2, 4, 8, 16].contains(&d)).then_some(n)
        }
        _ => None,
    })
}

/// Tempo written as text (`♩=96`, `=96`, `96 bpm`, `mm 96`), if any; a tempo no score uses is a
/// warning and is ignored.
fn written_tempo(symbols: &[PageSymbol], warnings: &mut Vec<Diagnostic>) -> Option<f64> {
    symbols.iter().find_map(|s| match &s.kind {
        SymbolKind::Text(t) => {
            let lower = t.to_lowercase();
            let marked = lower.contains('=') || lower.contains("bpm") || lower.starts_with("mm");
            if !marked {
                return None;
            }
            let digits: String = lower
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let bpm: f64 = digits.parse().ok()?;
            if !PLAUSIBLE_BPM.contains(&bpm) {
                warnings.push(Diagnostic::warning(
                    s.span,
                    format!(
                        "tempo `{}` is outside the tempos scores use ({}–{} bpm); ignored",
                        t.trim(),
                        PLAUSIBLE_BPM.start(),
                        PLAUSIBLE_BPM.end()
                    ),
                ));
                return None;
            }
            Some(bpm)
        }
        _ => None,
    })
}

/// A staff with no lines: guessed around the direction signs, LED-sized.
fn guessed_staff(symbols: &[PageSymbol]) -> Option<StaffGeometry> {
    let mut xs: Vec<f32> = symbols
        .iter()
        .filter(|s| matches!(s.kind, SymbolKind::Direction { .. }))
        .map(|s| s.x_mid())
        .filter(|x| x.is_finite())
        .collect();
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f32::total_cmp);
    let centre_x = xs[xs.len() / 2];
    let y_bottom = symbols.iter().map(|s| s.y).fold(f32::INFINITY, f32::min);
    Some(StaffGeometry { centre_x, half_width: 37.0, y_bottom })
}

fn side_label(column: i32) -> String {
    format!("{}{}", if column < 0 { "L" } else { "R" }, column.abs())
}

/// Builds the composite score from a graphical document.
pub fn compose_page(doc: &Document, opts: PageOptions) -> Score {
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let symbols = &doc.symbols;
    // A symbol or bar line far beyond the rest (a mistyped coordinate) is kept out of everything.
    let (outliers, outlier_warnings) = y_outliers(symbols, opts.units_per_beat);
    warnings.extend(outlier_warnings);
    let outliers: BTreeSet<usize> = outliers.into_iter().collect();
    let mut staves_geo = find_staves(symbols);
    if staves_geo.is_empty()
        && let Some(g) = guessed_staff(symbols)
    {
        warnings.push(Diagnostic::warning(
            symbols.first().map(|s| s.span).unwrap_or_default(),
            "no staff lines found; a staff was assumed around the direction signs",
        ));
        staves_geo.push(g);
    }
    let bars: Vec<BarMark> = symbols
        .iter()
        .enumerate()
        .filter(|(i, s)| s.kind == SymbolKind::BarLine && !outliers.contains(i))
        .map(|(_, s)| BarMark { y: s.y, double: s.level == Level::Low && doc.format == Format::Lbn })
        .collect();
    let meter_written = written_meter(symbols, &mut warnings);
    let timeline = Timeline::from_bars(&bars, opts.units_per_beat, meter_written, opts.quantum_beats);
    if timeline.origin_guessed && !bars.is_empty() {
        warnings.push(Diagnostic::warning(
            symbols.iter().find(|s| s.kind == SymbolKind::BarLine).map(|s| s.span).unwrap_or_default(),
            "no double bar line found; the lowest bar line is taken as the start",
        ));
    }
    let tempo = match written_tempo(symbols, &mut warnings) {
        Some(bpm) => TempoMap { bpm, is_default: false },
        None => TempoMap { bpm: TempoMap::DEFAULT_BPM, is_default: true },
    };
    let meter = Meter {
        beats_per_measure: meter_written.unwrap_or_else(|| {
            let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
            for m in &timeline.measures {
                *counts.entry(m.beats as u64).or_default() += 1;
            }
            counts.iter().max_by_key(|(b, n)| (**n, std::cmp::Reverse(**b))).map(|(b, _)| *b as u32).unwrap_or(4)
        }),
        inferred: meter_written.is_none(),
    };
    if meter.inferred && !PLAUSIBLE_BEATS_PER_MEASURE.contains(&meter.beats_per_measure) {
        let bar_span = symbols.iter().find(|s| s.kind == SymbolKind::BarLine).map(|s| s.span).unwrap_or_default();
        warnings.push(
            Diagnostic::warning(
                bar_span,
                format!(
                    "the bar spacing gives {} beats per measure, outside the meters scores use ({}–{})",
                    meter.beats_per_measure,
                    PLAUSIBLE_BEATS_PER_MEASURE.start(),
                    PLAUSIBLE_BEATS_PER_MEASURE.end()
                ),
            )
            .with_help("check the bar lines' y, or write the meter as text (`3/4`)"),
        );
    }
    warnings.extend(long_measures(&timeline.measures, symbols));

    // Place every symbol that is not score structure.
    let mut placed: Vec<Placed> = Vec::new();
    for (si, sym) in symbols.iter().enumerate() {
        match sym.kind {
            SymbolKind::BarLine | SymbolKind::StaffLine { .. } => continue,
            SymbolKind::Text(_) => continue,
            _ => {}
        }
        if outliers.contains(&si) {
            continue;
        }
        if !(sym.x.is_finite() && sym.y.is_finite() && sym.w.is_finite() && sym.h.is_finite()) {
            warnings.push(Diagnostic::warning(sym.span, format!("`{}` has a non-finite position; skipped", sym.code)));
            continue;
        }
        let Some(staff) = nearest_staff(&staves_geo, sym.x_mid()) else {
            warnings.push(Diagnostic::warning(
                sym.span,
                format!("`{}` at x={} y={} is not beside any staff; skipped", sym.code, sym.x, sym.y),
            ));
            continue;
        };
        let column = column_of(&staves_geo[staff], sym.x_mid());
        let start_beats = timeline.beats_at(sym.y);
        let end_beats = timeline.beats_at(sym.y_top()).max(start_beats);
        placed.push(Placed { sym, staff, column, start_beats, end_beats });
    }
    let duration_beats = timeline.end_beats().max(placed.iter().map(|p| p.end_beats).fold(0.0, f64::max));

    let mut builders: Vec<StaffBuilder> =
        staves_geo.iter().enumerate().map(|(i, g)| StaffBuilder::new(i, *g)).collect();
    let measures = timeline.measures.clone();
    let place_text = |p: &Placed| -> String {
        let (m, b) = measure_in(&measures, p.start_beats);
        format!("staff {}, measure {m}, beat {:.2}, column {}", p.staff + 1, b + 1.0, side_label(p.column))
    };

    // Contact bows own their part signs, area signs and hold signs; straight path signs own the
    // direction signs between their brackets.
    let bows = find_bows(&placed, &measures, duration_beats, &place_text);
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
    let brackets = find_path_brackets(&placed);
    for br in &brackets {
        consumed.insert(br.foot);
        consumed.insert(br.head);
        consumed.extend(br.inner.iter().copied());
    }

    // Pre-signs claim the symbol directly above them.
    let (mut claims, unclaimed) = find_claims(&placed, &consumed, opts.units_per_beat * 1.5);
    for pi in unclaimed {
        let Some(p) = placed.get(pi) else { continue };
        warnings.push(Diagnostic::warning(
            p.sym.span,
            format!(
                "{}: body-part sign `{}` has no direction, turn or hold sign directly above it in its column; ignored",
                place_text(p),
                p.sym.code
            ),
        ));
    }
    for sym in symbols {
        // Head pre-sign written as text `C` in a column beside a staff.
        if let SymbolKind::Text(t) = &sym.kind
            && t.trim() == "C"
            && let Some(staff) = nearest_staff(&staves_geo, sym.x_mid())
        {
            let column = column_of(&staves_geo[staff], sym.x_mid());
            if column.abs() >= 2 {
                claims.push(Claim {
                    staff,
                    column,
                    start_beats: timeline.beats_at(sym.y) - 0.5,
                    part: BodyPart::Head,
                    target: None,
                    only_target: false,
                });
            }
        }
    }
    claims.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats));

    // Signs that hold a pin inside: turn signs (the amount) and circular path signs (the
    // circle's fraction). Pins are keyed by the holder's index in `placed`.
    let holders: Vec<(usize, &Placed)> = placed
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.sym.kind, SymbolKind::Turn(_) | SymbolKind::Path(PathSign::Circular { .. })))
        .collect();
    let mut inner_pins: BTreeMap<usize, u8> = BTreeMap::new();
    for (pi, p) in placed.iter().enumerate() {
        let SymbolKind::Pin { orientation, black } = p.sym.kind else { continue };
        let inside = holders.iter().find(|(_, h)| h.staff == p.staff && contains_centre(h.sym, p.sym, 0.6));
        if let Some((hi, _)) = inside {
            inner_pins.entry(*hi).or_insert(orientation);
            continue;
        }
        // Dancer sign: under the staff's centre line before the music starts.
        let geo = &staves_geo[p.staff];
        if p.end_beats <= 0.0
            && (p.sym.x_mid() - geo.centre_x).abs() <= geo.half_width * 0.5
            && builders[p.staff].dancer.is_none()
        {
            builders[p.staff].dancer = Some(DancerSign { orientation, black });
            continue;
        }
        builders[p.staff].loose.push((pi, Modifier::Pin { orientation, black }));
    }

    for br in &brackets {
        let (Some(foot), Some(head)) = (placed.get(br.foot), placed.get(br.head)) else { continue };
        let span = Placed { end_beats: head.end_beats.max(foot.start_beats), ..foot.clone() };
        let entry = make_entry(&span, EntryKind::Path { sign: PathSign::Straight, amount_deg: None }, &measures, tempo);
        builders[foot.staff].push(ChannelKind::Path, entry, br.foot);
    }

    for (pi, p) in placed.iter().enumerate() {
        if consumed.contains(&pi) {
            continue;
        }
        let b = &mut builders[p.staff];
        let claim = claim_for(&claims, pi, p);
        // Columns beyond the body columns belong to the body only when claimed (or drawn in line
        // with the arm column beside them).
        let mut column = p.column;
        if claim.is_none()
            && matches!(zone_of(column, opts.convention), Zone::Extra(_))
            && matches!(
                p.sym.kind,
                SymbolKind::Direction { .. } | SymbolKind::Turn(_) | SymbolKind::Volume(VolumeSign::Hold)
            )
        {
            match drifted_column(pi, &placed, 6).filter(|_| opts.convention == ColumnConvention::Lintel) {
                Some(c) => column = c,
                None => {
                    warnings.push(Diagnostic::warning(
                        p.sym.span,
                        format!(
                            "{}: `{}` is outside the staff's body columns and no body-part sign claims its column; not interpreted",
                            place_text(p),
                            p.sym.code
                        ),
                    ));
                    continue;
                }
            }
        }
        let zone = zone_of(column, opts.convention);
        let p_col = Placed { column, ..p.clone() };
        let p = &p_col;
        match &p.sym.kind {
            SymbolKind::Direction { direction, .. } => {
                let kind = match claim {
                    Some(part) => ChannelKind::Part(part),
                    None => channel_of_zone(zone),
                };
                let entry =
                    make_entry(p, EntryKind::Direction { direction: *direction, level: p.sym.level }, &measures, tempo);
                b.push(kind, entry, pi);
            }
            SymbolKind::Turn(sign) => {
                let clockwise = match sign {
                    TurnSign::Right => Some(true),
                    TurnSign::Left => Some(false),
                    TurnSign::Composite | TurnSign::Other(_) => None,
                };
                let pin = inner_pins.get(&pi).copied();
                let composite = *sign == TurnSign::Composite;
                let amount_deg = match (clockwise, pin) {
                    (Some(cw), Some(k)) => Some(pin_turn_degrees(cw, k)),
                    _ if composite => Some(0.0),
                    _ => None,
                };
                let geo = &staves_geo[p.staff];
                let both_feet = p.sym.x < geo.centre_x - geo.half_width * 0.1
                    && p.sym.x + p.sym.w > geo.centre_x + geo.half_width * 0.1;
                let mut entry = make_entry(p, EntryKind::Turn { clockwise, amount_deg, both_feet }, &measures, tempo);
                if let Some(k) = pin {
                    entry.modifiers.push(Modifier::TurnPin { orientation: k });
                }
                if clockwise.is_none() && !composite {
                    warnings.push(Diagnostic::warning(
                        p.sym.span,
                        format!(
                            "{}: rotation sign `{}` not interpreted (only left/right turn signs are)",
                            place_text(p),
                            p.sym.code
                        ),
                    ));
                } else if pin.is_none() && !composite {
                    warnings.push(Diagnostic::warning(
                        p.sym.span,
                        format!("{}: turn sign `{}` has no pin inside; amount unknown", place_text(p), p.sym.code),
                    ));
                }
                let kind = match (claim, zone) {
                    (Some(part), _) => ChannelKind::Part(part),
                    (None, z) => channel_of_zone(z),
                };
                b.push(kind, entry, pi);
            }
            SymbolKind::Volume(VolumeSign::Hold) => {
                let kind = match claim {
                    Some(part) => ChannelKind::Part(part),
                    None => channel_of_zone(zone),
                };
                let entry = make_entry(p, EntryKind::Hold, &measures, tempo);
                b.push(kind, entry, pi);
            }
            SymbolKind::Volume(v) => b.loose.push((pi, Modifier::Volume(*v))),
            SymbolKind::Misc(item) if (4..=9).contains(item) => b.loose.push((pi, Modifier::Hook { item: *item })),
            // Bows and release signs: read (or warned about) with the contacts.
            SymbolKind::Misc(1..=3) => {}
            SymbolKind::Misc(_) => warnings.push(Diagnostic::warning(
                p.sym.span,
                format!("{}: `{}` (miscellaneous sign) not interpreted", place_text(p), p.sym.code),
            )),
            SymbolKind::Front(i) => {
                let facing_deg = *i as f64 * 45.0;
                let entry = make_entry(p, EntryKind::Front { facing_deg }, &measures, tempo);
                b.push(ChannelKind::Front, entry, pi);
            }
            // A plain vertical line in a gesture column is an action stroke (labanotation-rules §5.1:
            // with a space-measurement sign the limb bends or stretches in place).
            SymbolKind::Path(PathSign::Other(3))
                if claim.is_some() || !matches!(zone, Zone::Support(_) | Zone::Extra(_)) =>
            {
                let kind = match claim {
                    Some(part) => ChannelKind::Part(part),
                    None => channel_of_zone(zone),
                };
                b.push(kind, make_entry(p, EntryKind::Action, &measures, tempo), pi);
            }
            SymbolKind::Path(sign) => {
                let pin = inner_pins.get(&pi).copied();
                let amount_deg = match (sign, pin) {
                    (PathSign::Circular { clockwise }, Some(k)) => Some(pin_turn_degrees(*clockwise, k)),
                    _ => None,
                };
                let mut entry = make_entry(p, EntryKind::Path { sign: *sign, amount_deg }, &measures, tempo);
                if let Some(k) = pin {
                    entry.modifiers.push(Modifier::TurnPin { orientation: k });
                }
                if let PathSign::Other(item) = sign {
                    warnings.push(Diagnostic::warning(
                        p.sym.span,
                        format!(
                            "{}: `{}` is not a circular or straight path sign ({}); no effect on the motion",
                            place_text(p),
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
                b.push(ChannelKind::Path, entry, pi);
            }
            SymbolKind::Area(item) => warnings.push(Diagnostic::warning(
                p.sym.span,
                format!("{}: body area sign `Area {item}` not interpreted", place_text(p)),
            )),
            SymbolKind::BodyPart(_) | SymbolKind::Pin { .. } => {}
            SymbolKind::BarLine | SymbolKind::StaffLine { .. } | SymbolKind::Text(_) => {}
        }
    }

    // Attach loose modifiers to the direction sign they touch.
    for b in &mut builders {
        let loose = std::mem::take(&mut b.loose);
        for (pi, modifier) in loose {
            let Some(p) = placed.get(pi) else { continue };
            match b.attach(p, &placed, modifier) {
                true => {}
                false => warnings.push(Diagnostic::warning(
                    p.sym.span,
                    format!("{}: `{}` is not next to a symbol it could modify; ignored", place_text(p), p.sym.code),
                )),
            }
        }
    }

    let staves: Vec<Staff> = builders.into_iter().map(|b| b.finish(opts.gap_tolerance_beats, duration_beats)).collect();
    let contacts: Vec<Contact> = bows
        .contacts
        .into_iter()
        .map(|mut c| {
            c.end_beats = c.end_beats.min(duration_beats);
            c
        })
        .collect();
    warnings.extend(doc.warnings.iter().cloned());
    warnings.sort_by_key(|d| (d.span.line, d.span.col));
    Score {
        title: doc.title.clone(),
        format: doc.format,
        tempo,
        meter,
        measures,
        staves,
        duration_beats,
        contacts,
        warnings,
    }
}

/// Measures far longer than the others (a bar line typed too high): a warning each, with the bar
/// line's place. The timing keeps them as written.
fn long_measures(measures: &[Measure], symbols: &[PageSymbol]) -> Vec<Diagnostic> {
    if measures.len() < 3 {
        return Vec::new();
    }
    let mut beats: Vec<f64> = measures.iter().map(|m| m.beats).collect();
    beats.sort_by(f64::total_cmp);
    let median = beats[beats.len() / 2];
    let bar_span = |y: f32| -> Span {
        symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::BarLine)
            .min_by(|a, b| (a.y - y).abs().total_cmp(&(b.y - y).abs()))
            .map(|s| s.span)
            .unwrap_or_default()
    };
    measures
        .iter()
        .filter(|m| m.beats > 4.0 * median && m.beats > 16.0)
        .map(|m| {
            Diagnostic::warning(
                bar_span(m.y_top),
                format!(
                    "measure {} is {:.0} beats long, the measures around it about {median:.0}; check its bar lines",
                    m.number, m.beats
                ),
            )
        })
        .collect()
}

/// True when the centre of `inner` lies inside `outer`'s box grown by `grow` of its size.
fn contains_centre(outer: &PageSymbol, inner: &PageSymbol, grow: f32) -> bool {
    let (cx, cy) = (inner.x_mid(), inner.y + inner.h * 0.5);
    let gx = outer.w * grow;
    let gy = outer.h * 0.1;
    cx >= outer.x - gx && cx <= outer.x + outer.w + gx && cy >= outer.y - gy && cy <= outer.y_top() + gy
}

/// Degrees turned by a turn sign of sense `clockwise` holding a pin of orientation `k`
/// (labanotation-rules §4.1: right = 45·(k−1), left = 45·(9−k), pin up = a full turn).
pub fn pin_turn_degrees(clockwise: bool, k: u8) -> f64 {
    let k = k.clamp(1, 8) as f64;
    let deg = if clockwise { 45.0 * (k - 1.0) } else { 45.0 * (9.0 - k) };
    if deg == 0.0 || deg >= 360.0 { 360.0 } else { deg }
}

/// [`measure_at`], with the beat reported as 0 outside any measure (the starting position).
fn measure_in(measures: &[Measure], t_beats: f64) -> (u32, f64) {
    match measure_at(measures, t_beats) {
        (0, _) => (0, 0.0),
        found => found,
    }
}

fn channel_of_zone(zone: Zone) -> ChannelKind {
    match zone {
        Zone::Support(s) => ChannelKind::Support(s),
        Zone::LegGesture(s) => ChannelKind::LegGesture(s),
        Zone::Body(s) => ChannelKind::Body(s),
        Zone::Arm(s) => ChannelKind::Arm(s),
        Zone::Head => ChannelKind::Head,
        Zone::Extra(s) => ChannelKind::Arm(s),
    }
}

fn make_entry(p: &Placed, kind: EntryKind, measures: &[Measure], tempo: TempoMap) -> Entry {
    let (start, dur) =
        if p.end_beats <= 0.0 { (0.0, 0.0) } else { (p.start_beats.max(0.0), p.end_beats - p.start_beats.max(0.0)) };
    let (measure, beat_in_measure) = measure_in(measures, start);
    let measure = if p.end_beats <= 0.0 { 0 } else { measure };
    Entry {
        kind,
        start_beats: start,
        duration_beats: dur,
        start_secs: tempo.secs_from_beats(start),
        duration_secs: tempo.secs_from_beats(dur),
        measure,
        beat_in_measure,
        column: p.column,
        modifiers: Vec::new(),
        code: p.sym.code.clone(),
        span: p.sym.span,
    }
}

/// Collects one staff's entries while the page is read.
struct StaffBuilder {
    index: usize,
    geo: StaffGeometry,
    dancer: Option<DancerSign>,
    /// (channel, entry, index into placed)
    entries: Vec<(ChannelKind, Entry, usize)>,
    loose: Vec<(usize, Modifier)>,
}

impl StaffBuilder {
    fn new(index: usize, geo: StaffGeometry) -> Self {
        Self { index, geo, dancer: None, entries: Vec::new(), loose: Vec::new() }
    }

    fn push(&mut self, kind: ChannelKind, entry: Entry, placed_index: usize) {
        self.entries.push((kind, entry, placed_index));
    }

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
                        && q.start_beats >= p.start_beats - 0.26
                        && q.start_beats <= p.start_beats + 1.5
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
                    placed
                        .get(e.2)
                        .is_some_and(|q| q.start_beats <= p.end_beats + 0.26 && q.end_beats >= p.start_beats - 0.26)
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

    fn finish(self, gap_tolerance_beats: f64, end_beats: f64) -> Staff {
        let mut channels: BTreeMap<ChannelKind, Vec<Entry>> = BTreeMap::new();
        let mut start_position = Vec::new();
        let mut start_facing_deg = 0.0;
        for (kind, entry, _) in self.entries {
            if entry.measure == 0 && entry.duration_beats == 0.0 {
                if let EntryKind::Front { facing_deg } = entry.kind {
                    start_facing_deg = facing_deg;
                }
                start_position.push((kind, entry));
            } else {
                channels.entry(kind).or_default().push(entry);
            }
        }
        let channels: Vec<Channel> = channels
            .into_iter()
            .map(|(kind, mut entries)| {
                entries.sort_by(|a, b| a.start_beats.total_cmp(&b.start_beats).then(a.column.cmp(&b.column)));
                Channel { kind, entries }
            })
            .collect();
        start_position.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.column.cmp(&b.1.column)));
        let gaps = find_gaps(&channels, &start_position, gap_tolerance_beats, end_beats);
        Staff {
            index: self.index,
            dancer: self.dancer,
            centre_x: self.geo.centre_x,
            half_width: self.geo.half_width,
            start_facing_deg,
            start_position,
            channels,
            gaps,
        }
    }
}
