//! The composite score as a readable table (`labanplay inspect`) or as JSON (`--json`).
//!
//! Numbers are rounded (beats to 1/1000, seconds to 1 ms) so the output is stable for golden tests.

use super::types::*;
use crate::read::PathSign;
use std::fmt::Write as _;

fn r3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0 + 0.0
}

fn kind_text(kind: &EntryKind) -> (String, String) {
    match kind {
        EntryKind::Direction { direction, level } => (direction.short().to_string(), level.letter().to_string()),
        EntryKind::Turn { clockwise, amount_deg, both_feet } => {
            let sense = match clockwise {
                Some(true) => "turn-R",
                Some(false) => "turn-L",
                None => "turn-?",
            };
            let amount = amount_deg.map(|d| format!(" {d:.0}°")).unwrap_or_default();
            let feet = if *both_feet { " both" } else { "" };
            (format!("{sense}{amount}{feet}"), "-".into())
        }
        EntryKind::Hold => ("hold".into(), "-".into()),
        EntryKind::BackToNormal => ("back-to-normal".into(), "-".into()),
        EntryKind::Action => ("action stroke".into(), "-".into()),
        EntryKind::Front { facing_deg } => (format!("front {facing_deg:.0}°"), "-".into()),
        EntryKind::Path { sign, amount_deg } => {
            let amount = amount_deg.map(|d| format!(" {d:.0}°")).unwrap_or_default();
            let text = match sign {
                PathSign::Straight => "path straight".to_string(),
                PathSign::Circular { clockwise: true } => format!("path circle-R{amount}"),
                PathSign::Circular { clockwise: false } => format!("path circle-L{amount}"),
                PathSign::Other(item) => format!("path {item}"),
            };
            (text, "-".into())
        }
    }
}

/// The table printed by `labanplay inspect`.
pub fn render_table(score: &Score) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "title: {}", score.title.as_deref().unwrap_or("-"));
    let _ = writeln!(out, "format: {}", score.format.name());
    let _ = writeln!(
        out,
        "tempo: {} bpm{}",
        score.tempo.bpm,
        if score.tempo.is_default { " (default: the score gives none)" } else { "" }
    );
    let _ = writeln!(
        out,
        "meter: {} beats per measure{}",
        score.meter.beats_per_measure,
        if score.meter.inferred { " (inferred from bar spacing)" } else { "" }
    );
    let _ = writeln!(
        out,
        "measures: {}, duration: {} beats = {} s",
        score.measures.len(),
        r3(score.duration_beats),
        r3(score.duration_secs())
    );
    for staff in &score.staves {
        write_staff(&mut out, staff);
    }
    if !score.contacts.is_empty() {
        write_contacts(&mut out, &score.contacts);
    }
    let _ = writeln!(out, "\nwarnings: {}", score.warnings.len());
    out
}

/// One staff's rows: its dancer, starting position, entries and flights.
fn write_staff(out: &mut String, staff: &Staff) {
    let dancer = staff
        .dancer
        .map(|d| format!("{} pin {}", if d.black { "black" } else { "white" }, d.orientation))
        .unwrap_or_else(|| "-".into());
    let _ = writeln!(out, "\nstaff {} (dancer: {dancer}; start facing {}°)", staff.index + 1, staff.start_facing_deg);
    let _ = writeln!(
        out,
        "{:<16} {:>8} {:>8} {:>6}  {:<22} {:<5} modifiers",
        "channel", "start", "end", "m:b", "symbol", "level"
    );
    let rows = staff
        .start_position
        .iter()
        .map(|(k, e)| (k, e, true))
        .chain(staff.channels.iter().flat_map(|c| c.entries.iter().map(move |e| (&c.kind, e, false))));
    for (kind, e, start) in rows {
        let (sym, level) = kind_text(&e.kind);
        let mods: Vec<String> = e.modifiers.iter().map(|m| m.label()).collect();
        let mb = if start { "start".to_string() } else { format!("{}:{}", e.measure, r3(e.beat_in_measure + 1.0)) };
        let _ = writeln!(
            out,
            "{:<16} {:>8} {:>8} {:>6}  {:<22} {:<5} {}",
            kind.name(),
            r3(e.start_beats),
            r3(e.end_beats()),
            mb,
            sym,
            level,
            mods.join(",")
        );
    }
    for g in &staff.gaps {
        let _ = writeln!(
            out,
            "flight {:>8} {:>8}  {:?} -> {:?}: {}",
            r3(g.start_beats),
            r3(g.end_beats),
            g.takeoff,
            g.landing,
            g.form.map(|f| format!("{f:?}").to_lowercase()).unwrap_or_else(|| "-".into())
        );
    }
}

/// The contacts' rows.
fn write_contacts(out: &mut String, contacts: &[Contact]) {
    let _ = writeln!(out, "\ncontacts");
    for c in contacts {
        let mb =
            if c.measure == 0 { "start".to_string() } else { format!("{}:{}", c.measure, r3(c.beat_in_measure + 1.0)) };
        let _ = writeln!(
            out,
            "{:>8} {:>8} {:>6}  {} - {}{}",
            r3(c.start_beats),
            r3(c.end_beats),
            mb,
            contact_end_text(&c.ends[0]),
            contact_end_text(&c.ends[1]),
            if c.released { ", released" } else { "" }
        );
    }
}

/// One end of a contact: its staff, part and surface.
fn contact_end_text(e: &ContactEnd) -> String {
    let surface = match e.surface {
        ContactSurface::Any => "",
        ContactSurface::Front => " (front)",
        ContactSurface::Back => " (back)",
    };
    let side = |s: &crate::read::Side| if *s == crate::read::Side::Left { "L" } else { "R" };
    let part = match &e.part {
        crate::read::BodyPart::Elbow(s) => format!("elbow {}", side(s)),
        crate::read::BodyPart::Wrist(s) => format!("wrist {}", side(s)),
        p => part_name(p),
    };
    format!("staff {} {part}{surface}", e.staff + 1)
}

/// The composite score as pretty JSON, for machines.
pub fn render_json(score: &Score) -> String {
    serde_json::to_string_pretty(score).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
