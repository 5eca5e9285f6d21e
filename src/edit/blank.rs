//! A new empty score (File ▸ New): one staff of LED's proportions, the starting position (feet
//! together in place, arms down), a double bar at beat 0, `measures` empty measures and a double
//! bar at the end, with the meter and tempo written as text.

use crate::diag::Span;
use crate::read::{Direction, Document, Format, Level, PageSymbol, SymbolKind};

/// Page units per beat of a new score (LED's).
const UNITS_PER_BEAT: f32 = 24.0;
/// x of the staff's centre line.
const CENTRE_X: f32 = 133.0;
/// Centre to outer line.
const HALF_WIDTH: f32 = 37.0;
/// Page y of the bar under the starting position and of beat 0.
const START_Y: f32 = 48.0;
const BEAT0_Y: f32 = 96.0;

fn symbol(kind: SymbolKind, code: &str, xywh: [f32; 4], level: Level) -> PageSymbol {
    let [x, y, w, h] = xywh;
    PageSymbol { kind, code: code.to_owned(), x, y, w, h, level, lbn_step: None, span: Span::default() }
}

/// An empty `.lbn` document of `measures` measures (at least one) of `beats_per_measure` beats at
/// `bpm`.
pub fn blank_score(measures: usize, beats_per_measure: u32, bpm: u32) -> Document {
    let measures = measures.max(1);
    let beats = beats_per_measure.max(1);
    let measure_units = beats as f32 * UNITS_PER_BEAT;
    let top = BEAT0_Y + measures as f32 * measure_units;
    let mut doc = Document::new(Format::Lbn);
    doc.title = Some("new score".to_owned());
    doc.comments.push("new score".to_owned());
    let staff_h = top - 12.0 + 20.0;
    let line = |x: f32, centre: bool| {
        let code = if centre { "Stav 1" } else { "Stav 0" };
        let y = if centre { START_Y } else { 12.0 };
        let h = if centre { top - START_Y + 20.0 } else { staff_h };
        let level = if centre { Level::Low } else { Level::Blank };
        symbol(SymbolKind::StaffLine { centre_hint: centre }, code, [x, y, 1.0, h], level)
    };
    doc.symbols.extend([line(CENTRE_X - HALF_WIDTH, false), line(CENTRE_X + HALF_WIDTH, false), line(CENTRE_X, true)]);
    let bar = |y: f32, double: bool| {
        symbol(SymbolKind::BarLine, "Bars 1", [30.0, y, 177.0, 3.0], if double { Level::Low } else { Level::Blank })
    };
    doc.symbols.push(bar(START_Y, false));
    for m in 0..=measures {
        doc.symbols.push(bar(BEAT0_Y + m as f32 * measure_units, m == 0 || m == measures));
    }
    let text = |text: String, y: f32| symbol(SymbolKind::Text(text), "Keys 0", [18.0, y, 20.0, 12.0], Level::Blank);
    doc.symbols.push(text(format!("{beats}/4"), 30.0));
    doc.symbols.push(text(format!("q={bpm}"), 14.0));
    let place = |x: f32, level| {
        let (kind, code) = super::signs::direction_symbol(Direction::Place, false);
        symbol(kind, &code, [x, 70.0, 10.0, 23.0], level)
    };
    doc.symbols.extend([place(134.0, Level::Middle), place(122.0, Level::Middle)]);
    doc.symbols.extend([place(171.0, Level::Low), place(85.0, Level::Low)]);
    // Each symbol its own source position, as if read from a file.
    for (index, symbol) in doc.symbols.iter_mut().enumerate() {
        symbol.span = Span::at(index as u32 + 1, 1);
    }
    doc
}
