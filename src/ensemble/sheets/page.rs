//! A performer's coordinate sheet as a printable page (SVG, A4 portrait, millimetres): the stage
//! from above with the audience at the bottom, the performer's spot at every set numbered and
//! joined in order, and the table of the CSV sheet (set, start, counts, formation, metres from
//! the stage centre, and from the nearest whole-metre mark along the front edge).

use super::{SheetRow, from_centre};
use crate::ensemble::plan::Plan;
use glam::DVec2;
use std::fmt::Write as _;

/// Page size, millimetres (A4 portrait).
const PAGE_MM: (f64, f64) = (210.0, 297.0);
/// Page margin, millimetres.
const MARGIN_MM: f64 = 15.0;
/// Top of the stage drawing, millimetres.
const STAGE_TOP_MM: f64 = 32.0;
/// The most height the stage drawing takes, millimetres.
const STAGE_MAX_H_MM: f64 = 120.0;
/// Height of one table line, millimetres.
const LINE_MM: f64 = 6.0;
/// Radius of a spot, millimetres.
const SPOT_MM: f64 = 3.2;
/// Table lines that fit below the drawing; further sets go on as "… N more sets".
const MAX_TABLE_LINES: usize = 18;

/// The nearest whole-metre mark from the stage centre along the front edge to `x_m`, and the
/// offset from it, metres (`x_m = mark + offset`).
pub fn front_mark(x_m: f64) -> (f64, f64) {
    let mark = x_m.round();
    (mark, x_m - mark)
}

/// Performer `name`'s sheet `rows` as an SVG page.
pub fn svg(plan: &Plan, name: &str, rows: &[SheetRow]) -> String {
    let mut out = String::new();
    let (w, h) = PAGE_MM;
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let title = plan.title.as_deref().unwrap_or("ensemble plan");
    let _ = writeln!(out, r#"<text x="{MARGIN_MM}" y="{}" font-size="7">{}</text>"#, MARGIN_MM + 3.0, escape(name));
    let _ = writeln!(out, r#"<text x="{MARGIN_MM}" y="{}" font-size="4">{}</text>"#, MARGIN_MM + 9.0, escape(title));
    let bottom = stage_drawing(&mut out, plan, rows);
    table(&mut out, plan, rows, bottom + 19.0);
    out.push_str("</svg>\n");
    out
}

/// The stage from above with the spots; returns the drawing's bottom, millimetres.
fn stage_drawing(out: &mut String, plan: &Plan, rows: &[SheetRow]) -> f64 {
    let width_mm = PAGE_MM.0 - 2.0 * MARGIN_MM;
    let stage = plan.stage_m.max(DVec2::splat(1e-3));
    let scale = (width_mm / stage.x).min(STAGE_MAX_H_MM / stage.y);
    let (sw, sh) = (stage.x * scale, stage.y * scale);
    let left = MARGIN_MM + 0.5 * (width_mm - sw);
    let bottom = STAGE_TOP_MM + sh;
    // Plan metres (x from centre, y from the front edge) to page millimetres.
    let at = |p: DVec2| (left + (p.x + 0.5 * stage.x) * scale, bottom - p.y * scale);
    let _ = writeln!(
        out,
        r##"<rect x="{left:.2}" y="{STAGE_TOP_MM}" width="{sw:.2}" height="{sh:.2}" fill="none" stroke="#000" stroke-width="0.5"/>"##
    );
    let (cx, _) = at(DVec2::ZERO);
    let _ = writeln!(
        out,
        r##"<line x1="{cx:.2}" y1="{STAGE_TOP_MM}" x2="{cx:.2}" y2="{bottom:.2}" stroke="#888" stroke-width="0.3" stroke-dasharray="2 2"/>"##
    );
    // The whole-metre marks along the front edge (every metre where they are far enough apart
    // to see), numbered from the centre where the numbers fit.
    let label_step = [1, 2, 5, 10, 20, 50, 100, 200].into_iter().find(|m| *m as f64 * scale >= 8.0).unwrap_or(500);
    let tick_step = if scale >= 1.5 { 1 } else { label_step };
    let half = (0.5 * stage.x).floor() as i64;
    for m in (-half..=half).filter(|m| m % tick_step == 0) {
        let (x, y) = at(DVec2::new(m as f64, 0.0));
        let _ = write!(
            out,
            r##"<line x1="{x:.2}" y1="{y:.2}" x2="{x:.2}" y2="{:.2}" stroke="#000" stroke-width="0.3"/>"##,
            y + 2.0
        );
        if m % label_step == 0 {
            let _ =
                write!(out, r#"<text x="{x:.2}" y="{:.2}" font-size="2.6" text-anchor="middle">{m}</text>"#, y + 5.0);
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        r#"<text x="{cx:.2}" y="{:.2}" font-size="3.5" text-anchor="middle">audience</text>"#,
        bottom + 9.5
    );
    let points: Vec<(f64, f64)> = rows.iter().map(|r| at(r.spot)).collect();
    let path: Vec<String> = points.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
    let _ = writeln!(out, r##"<polyline points="{}" fill="none" stroke="#36c" stroke-width="0.6"/>"##, path.join(" "));
    for (r, (x, y)) in rows.iter().zip(&points) {
        let _ = writeln!(
            out,
            r##"<circle cx="{x:.2}" cy="{y:.2}" r="{SPOT_MM}" fill="#fff" stroke="#36c" stroke-width="0.6"/><text x="{x:.2}" y="{:.2}" font-size="3" text-anchor="middle">{}</text>"##,
            y + 1.1,
            r.set.number
        );
    }
    bottom
}

/// The sheet's table from `top`, millimetres.
fn table(out: &mut String, plan: &Plan, rows: &[SheetRow], top: f64) {
    let columns = [0.0, 12.0, 30.0, 46.0, 92.0, 112.0, 132.0, 152.0];
    let head = ["set", "start", "counts", "formation", "x m", "y m", "mark", "± m"];
    let line = |out: &mut String, y: f64, cells: &[String], bold: bool| {
        let weight = if bold { r#" font-weight="bold""# } else { "" };
        for (x, cell) in columns.iter().zip(cells) {
            let _ = writeln!(
                out,
                r#"<text x="{:.2}" y="{y:.2}" font-size="3.6"{weight}>{}</text>"#,
                MARGIN_MM + x,
                escape(cell)
            );
        }
    };
    line(out, top, &head.map(String::from), true);
    for (k, r) in rows.iter().take(MAX_TABLE_LINES).enumerate() {
        let p = from_centre(plan, r.spot);
        let (mark, off) = front_mark(p.x);
        let cells = [
            r.set.number.to_string(),
            plan.clock.label(r.set.start_beats),
            format!("{}", (r.counts * 100.0).round() / 100.0),
            r.formation.clone(),
            format!("{:.2}", p.x),
            format!("{:.2}", p.y),
            format!("{mark:.0}"),
            format!("{off:+.2}"),
        ];
        line(out, top + LINE_MM * (k + 1) as f64, &cells, false);
    }
    if rows.len() > MAX_TABLE_LINES {
        let more = rows.len() - MAX_TABLE_LINES;
        let y = top + LINE_MM * (MAX_TABLE_LINES + 1) as f64;
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN_MM}" y="{y:.2}" font-size="3.6">… {more} more sets (see the CSV)</text>"#
        );
    }
}

/// `text` with the characters XML gives a meaning escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_escapes() {
        assert_eq!(front_mark(2.3), (2.0, 2.3 - 2.0));
        assert_eq!(front_mark(-1.6).0, -2.0);
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
