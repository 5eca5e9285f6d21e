//! Implausible page geometry: symbols and bar lines whose y lies far beyond the rest of the score
//! (a mistyped coordinate), symbols far taller or wider than a symbol can be (a mistyped height or
//! width), and inferred meters or tempos no score uses. Outliers are warned about with their line
//! and kept out of the timing; the rest of the score reads as if they were absent.
//!
//! The limits: a symbol or bar line separated from the rest of the score by more than 16 typical
//! measures of empty page; a symbol more than 16 typical measures tall or wide (staff lines may be
//! as tall and bar lines as wide as the page); a measure far longer than the others; inferred
//! meters outside 1–16 beats; written tempos outside 20–400 bpm and written meters outside 1–16.
//! Each is a warning.

use crate::diag::Diagnostic;
use crate::read::{PageSymbol, SymbolKind};

/// How many typical measures of empty page between two groups of symbols make the smaller group
/// an outlier. Real scores leave at most a few empty measures, and those still have bar lines.
pub const OUTLIER_GAP_MEASURES: f32 = 16.0;

/// How many typical measures tall or wide a symbol may be. The real scores' tallest symbol is about
/// one measure, their widest (bar lines aside) about three.
pub const OUTLIER_SIZE_MEASURES: f32 = 16.0;

/// The meters (beats per measure) real scores use; an inferred meter outside is a warning.
pub const PLAUSIBLE_BEATS_PER_MEASURE: std::ops::RangeInclusive<u32> = 1..=16;

/// The tempos (quarter-note beats per minute) real scores use; written tempos outside are ignored.
pub const PLAUSIBLE_BPM: std::ops::RangeInclusive<f64> = 20.0..=400.0;

/// The typical measure height on the page: the median spacing of the bar lines when there are at
/// least three measures, else four beats of `units_per_beat`.
pub fn typical_measure_units(symbols: &[PageSymbol], units_per_beat: f32) -> f32 {
    let mut ys: Vec<f32> =
        symbols.iter().filter(|s| s.kind == SymbolKind::BarLine && s.y.is_finite()).map(|s| s.y).collect();
    ys.sort_by(f32::total_cmp);
    ys.dedup_by(|a, b| (*a - *b).abs() <= units_per_beat * 0.25);
    let mut spacings: Vec<f32> = ys.windows(2).map(|w| w[1] - w[0]).collect();
    let fallback = units_per_beat * 4.0;
    if spacings.len() < 3 {
        return fallback;
    }
    spacings.sort_by(f32::total_cmp);
    let median = spacings[spacings.len() / 2];
    if median.is_finite() && median > 0.0 { median } else { fallback }
}

/// Indices (into `symbols`) of the symbols and bar lines that lie more than
/// [`OUTLIER_GAP_MEASURES`] typical measures away from the main body of the score, with one
/// warning each. Staff lines are not judged (they span the page by design).
pub fn y_outliers(symbols: &[PageSymbol], units_per_beat: f32) -> (Vec<usize>, Vec<Diagnostic>) {
    let measure = typical_measure_units(symbols, units_per_beat);
    let max_gap = measure * OUTLIER_GAP_MEASURES;
    let mut ys: Vec<(f32, usize)> = symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| !matches!(s.kind, SymbolKind::StaffLine { .. }) && s.y.is_finite())
        .map(|(i, s)| (s.y, i))
        .collect();
    if ys.len() < 2 {
        return (Vec::new(), Vec::new());
    }
    ys.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    // Groups of symbols separated by more than `max_gap` of empty page.
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for i in 1..ys.len() {
        if ys[i].0 - ys[i - 1].0 > max_gap {
            groups.push(start..i);
            start = i;
        }
    }
    groups.push(start..ys.len());
    if groups.len() == 1 {
        return (Vec::new(), Vec::new());
    }
    // The main body is the group with the most symbols (the lowest one on a tie).
    let main = groups.iter().enumerate().max_by_key(|(i, g)| (g.len(), std::cmp::Reverse(*i))).map(|(i, _)| i);
    let Some(main) = main.and_then(|i| groups.get(i)).cloned() else { return (Vec::new(), Vec::new()) };
    let (lo, hi) = (ys[main.start].0, ys[main.end - 1].0);
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for &(y, i) in ys.iter().take(main.start).chain(ys.iter().skip(main.end)) {
        let Some(s) = symbols.get(i) else { continue };
        let away = if y < lo { lo - y } else { y - hi };
        warnings.push(
            Diagnostic::warning(
                s.span,
                format!(
                    "`{}` at y={y} lies {away:.0} units (about {:.0} measures) beyond the rest of the score \
                     (y {lo}–{hi}); left out of the timing and skipped",
                    s.code,
                    away / measure
                ),
            )
            .with_help("a mistyped coordinate? correct its y to place it in the score"),
        );
        out.push(i);
    }
    out.sort_unstable();
    (out, warnings)
}

/// Indices (into `symbols`) of the symbols set aside as mistyped: those [`y_outliers`] finds and
/// those more than [`OUTLIER_SIZE_MEASURES`] typical measures tall (staff lines aside) or wide (bar
/// lines and staff lines aside), in order, with one warning each.
pub fn page_outliers(symbols: &[PageSymbol], units_per_beat: f32) -> (Vec<usize>, Vec<Diagnostic>) {
    let (mut out, mut warnings) = y_outliers(symbols, units_per_beat);
    let measure = typical_measure_units(symbols, units_per_beat);
    let max_size = measure * OUTLIER_SIZE_MEASURES;
    for (i, s) in symbols.iter().enumerate() {
        let staff_line = matches!(s.kind, SymbolKind::StaffLine { .. });
        let bar_or_staff_line = staff_line || s.kind == SymbolKind::BarLine;
        let (what, size) = if !staff_line && !(s.h <= max_size) {
            ("height", s.h)
        } else if !bar_or_staff_line && !(s.w <= max_size) {
            ("width", s.w)
        } else {
            continue;
        };
        if out.contains(&i) {
            continue;
        }
        warnings.push(
            Diagnostic::warning(
                s.span,
                format!(
                    "`{}` has a {what} of {size} units (about {:.0} measures), more than any symbol has; \
                     left out of the timing and skipped",
                    s.code,
                    size / measure
                ),
            )
            .with_help(format!("a mistyped {what}? a symbol is at most {OUTLIER_SIZE_MEASURES} measures tall or wide")),
        );
        out.push(i);
    }
    out.sort_unstable();
    (out, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::read::{Direction, Level};

    fn sym(kind: SymbolKind, y: f32, line: u32) -> PageSymbol {
        PageSymbol {
            kind,
            code: "X 1".into(),
            x: 134.0,
            y,
            w: 10.0,
            h: 23.0,
            level: Level::Middle,
            lbn_step: None,
            span: Span { line, col: 1, offset: 0 },
        }
    }

    #[test]
    fn one_far_symbol_is_an_outlier_and_the_rest_is_not() {
        let dir = SymbolKind::Direction { direction: Direction::Forward, left_form: false };
        let mut symbols = vec![sym(SymbolKind::BarLine, 96.0, 1), sym(SymbolKind::BarLine, 144.0, 2)];
        for (k, y) in [97.0, 121.0, 145.0].into_iter().enumerate() {
            symbols.push(sym(dir.clone(), y, 3 + k as u32));
        }
        assert!(y_outliers(&symbols, 24.0).0.is_empty());
        symbols.push(sym(SymbolKind::BarLine, 290_136.0, 9));
        let (out, warnings) = y_outliers(&symbols, 24.0);
        assert_eq!(out, vec![5]);
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].span.line, 9);
        assert!(warnings[0].message.contains("beyond the rest"), "{}", warnings[0].message);
    }

    #[test]
    fn a_score_with_evenly_spaced_empty_measures_has_no_outlier() {
        let symbols: Vec<PageSymbol> =
            (0..30).map(|i| sym(SymbolKind::BarLine, 96.0 + 49.0 * i as f32, i as u32 + 1)).collect();
        assert_eq!(typical_measure_units(&symbols, 24.0), 49.0);
        assert!(y_outliers(&symbols, 24.0).0.is_empty());
    }
}
