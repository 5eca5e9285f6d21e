//! The pure staff layout: glyph positions against time (time flows up to the cursor line),
//! cursor ↔ time mapping, column order, staves side by side, bars and measure numbers,
//! and that only visible glyphs come back from a long score.
#![cfg(feature = "viewer")]
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

use labanplay::diag::Span;
use labanplay::read::{Direction, Format, Level, Side, read};
use labanplay::score::{Channel, ChannelKind, Entry, EntryKind, Measure, Meter, Score, Staff, TempoMap};
use labanplay::stage::staff_layout::{COLUMN_WIDTH_PX, GlyphKind, PlacedGlyph, StaffLayout, StaffView};

fn entry(start_beats: f64, duration_beats: f64, column: i32, direction: Direction, level: Level) -> Entry {
    Entry {
        kind: EntryKind::Direction { direction, level },
        start_beats,
        duration_beats,
        start_secs: start_beats * 0.5,
        duration_secs: duration_beats * 0.5,
        measure: 1 + (start_beats / 4.0) as u32,
        beat_in_measure: start_beats % 4.0,
        column,
        modifiers: Vec::new(),
        code: "test".into(),
        span: Span::default(),
    }
}

fn staff(index: usize, channels: Vec<Channel>) -> Staff {
    Staff {
        index,
        dancer: None,
        centre_x: 100.0 + 200.0 * index as f32,
        half_width: 37.0,
        start_facing_deg: 0.0,
        start_position: vec![(ChannelKind::Support(Side::Left), entry(0.0, 0.0, -1, Direction::Place, Level::Middle))],
        channels,
        gaps: Vec::new(),
    }
}

fn score(measure_count: u32, beats_per_measure: u32, staves: Vec<Staff>) -> Score {
    let per = f64::from(beats_per_measure);
    Score {
        title: None,
        format: Format::Lbn,
        tempo: TempoMap { bpm: 120.0, is_default: false },
        meter: Meter { beats_per_measure, inferred: false },
        measures: (0..measure_count)
            .map(|i| Measure { number: i + 1, start_beats: f64::from(i) * per, beats: per, y_bottom: 0.0, y_top: 0.0 })
            .collect(),
        staves,
        duration_beats: f64::from(measure_count) * per,
        contacts: Vec::new(),
        warnings: Vec::new(),
    }
}

/// A walk: alternating one-beat forward steps, arms changing every two beats, both sides.
fn walking_staff(index: usize, beats: u32) -> Staff {
    let mut left = Vec::new();
    let mut right = Vec::new();
    let mut arm_left = Vec::new();
    let mut arm_right = Vec::new();
    for b in 0..beats {
        let t = f64::from(b);
        let step = entry(t, 1.0, if b % 2 == 0 { 1 } else { -1 }, Direction::Forward, Level::Middle);
        if b % 2 == 0 {
            right.push(step)
        } else {
            left.push(step)
        }
        if b % 2 == 0 {
            let level = if b % 4 == 0 { Level::High } else { Level::Low };
            arm_left.push(entry(t, 2.0, -4, Direction::Left, level));
            arm_right.push(entry(t, 2.0, 4, Direction::Right, level));
        }
    }
    staff(
        index,
        vec![
            Channel { kind: ChannelKind::Support(Side::Left), entries: left },
            Channel { kind: ChannelKind::Support(Side::Right), entries: right },
            Channel { kind: ChannelKind::Arm(Side::Left), entries: arm_left },
            Channel { kind: ChannelKind::Arm(Side::Right), entries: arm_right },
        ],
    )
}

fn view() -> StaffView {
    StaffView { width_px: 400.0, height_px: 600.0, cursor_y_px: 450.0, px_per_beat: 40.0 }
}

fn symbols(glyphs: &[PlacedGlyph]) -> impl Iterator<Item = &PlacedGlyph> {
    glyphs.iter().filter(|g| {
        matches!(g.kind, GlyphKind::Direction { .. } | GlyphKind::Turn { .. })
            && !g.entry.is_some_and(|e| e.in_start_position)
    })
}

fn demo(bytes: &[u8]) -> Score {
    Score::from_document(&read(bytes, Some("lbn")).unwrap())
}

#[test]
fn a_one_beat_symbol_at_the_cursor_sits_between_the_cursor_and_one_beat_above() {
    let s = score(
        2,
        4,
        vec![staff(
            0,
            vec![Channel {
                kind: ChannelKind::Support(Side::Right),
                entries: vec![entry(2.0, 1.0, 1, Direction::Forward, Level::Middle)],
            }],
        )],
    );
    let layout = StaffLayout::new(&s);
    let v = view();
    let glyphs = layout.glyphs(&v, 2.0);
    let sym: Vec<_> = symbols(&glyphs).collect();
    assert_eq!(sym.len(), 1);
    let [_, y0, _, y1] = sym[0].rect_px;
    let (cursor, beat) = (v.cursor_y_px, v.px_per_beat);
    assert!(y1 <= cursor + 1e-3 && y1 >= cursor - 3.0, "bottom {y1} vs cursor {cursor}");
    assert!(y0 >= cursor - beat - 1e-3 && y0 <= cursor - beat + 3.0, "top {y0} vs {}", cursor - beat);
    assert!(sym[0].active, "spans t = 2");
    assert_eq!(sym[0].entry.unwrap().start_beats, 2.0);
    // Half a beat later the symbol has moved down by half a beat; one beat later it is no longer active.
    let later = layout.glyphs(&v, 2.5);
    let moved = symbols(&later).next().unwrap();
    assert!((moved.rect_px[3] - (y1 + 0.5 * beat)).abs() < 1e-3);
    assert!(moved.active);
    assert!(!symbols(&layout.glyphs(&v, 3.0)).next().unwrap().active, "active = start <= t < end");
    assert!(!symbols(&layout.glyphs(&v, 1.99)).next().unwrap().active);
}

#[test]
fn cursor_and_time_map_exactly_both_ways() {
    let layout = StaffLayout::new(&demo(labanplay::demo::DUET_LBN));
    for v in [view(), StaffView { width_px: 300.0, height_px: 900.0, cursor_y_px: 100.0, px_per_beat: 73.5 }] {
        for now in [0.0, 1.25, 7.0, 33.3] {
            assert!((layout.y_of_beats(&v, now, now) - v.cursor_y_px).abs() < 1e-4, "now is on the cursor");
            for k in -20..40 {
                let t = now + f64::from(k) * 0.37;
                let y = layout.y_of_beats(&v, now, t);
                assert!((layout.beats_at_y(&v, now, y) - t).abs() < 1e-4, "t {t}");
                let y_px = k as f32 * 13.7;
                let back = layout.y_of_beats(&v, now, layout.beats_at_y(&v, now, y_px));
                assert!((back - y_px).abs() < 1e-3, "y {y_px} -> {back}");
                // Later is higher (smaller y).
                assert!(layout.y_of_beats(&v, now, t + 0.1) < y);
            }
        }
    }
}

#[test]
fn left_columns_lie_left_of_the_centre_line_in_order() {
    let s = score(
        1,
        4,
        vec![staff(
            0,
            vec![
                Channel {
                    kind: ChannelKind::Support(Side::Left),
                    entries: vec![entry(0.0, 1.0, -1, Direction::Place, Level::Low)],
                },
                Channel {
                    kind: ChannelKind::Support(Side::Right),
                    entries: vec![entry(0.0, 1.0, 1, Direction::Place, Level::Low)],
                },
                Channel {
                    kind: ChannelKind::LegGesture(Side::Left),
                    entries: vec![entry(0.0, 1.0, -2, Direction::Left, Level::Low)],
                },
                Channel {
                    kind: ChannelKind::Arm(Side::Right),
                    entries: vec![entry(0.0, 1.0, 4, Direction::Right, Level::High)],
                },
            ],
        )],
    );
    let layout = StaffLayout::new(&s);
    let v = view();
    let centre = layout.staff_centre_x(&v, 0).unwrap();
    let glyphs = layout.glyphs(&v, 0.5);
    let x_of = |column: i32| {
        symbols(&glyphs)
            .find(|g| matches!(g.kind, GlyphKind::Direction { column: c, .. } if c == column))
            .map(|g| g.rect_px)
            .unwrap()
    };
    let (l1, r1, l2, r4) = (x_of(-1), x_of(1), x_of(-2), x_of(4));
    assert!(l1[2] <= centre && r1[0] >= centre, "support columns either side of the centre line");
    assert!(l2[2] <= l1[0], "leg gesture outside the support");
    assert!(l2[0] >= centre - 2.0 * COLUMN_WIDTH_PX - 1e-3, "leg gesture inside the staff");
    assert!(r4[0] >= centre + 3.0 * COLUMN_WIDTH_PX - 1e-3, "arm column outside the staff");
    // The staff's outer lines are two columns from the centre.
    let lines: Vec<f32> = glyphs.iter().filter(|g| g.kind == GlyphKind::StaffLine).map(|g| g.rect_px[0]).collect();
    assert_eq!(lines.len(), 3);
    assert!((lines[1] - centre).abs() < 1e-4);
    assert!((lines[0] - (centre - 2.0 * COLUMN_WIDTH_PX)).abs() < 1e-4);
    assert!((lines[2] - (centre + 2.0 * COLUMN_WIDTH_PX)).abs() < 1e-4);
    // Mirror glyph kinds keep their side.
    assert!(matches!(x_of_kind(&glyphs, -1), GlyphKind::Direction { left_side: true, .. }));
    assert!(matches!(x_of_kind(&glyphs, 1), GlyphKind::Direction { left_side: false, .. }));
}

fn x_of_kind(glyphs: &[PlacedGlyph], column: i32) -> GlyphKind {
    symbols(glyphs)
        .find(|g| matches!(g.kind, GlyphKind::Direction { column: c, .. } if c == column))
        .unwrap()
        .kind
        .clone()
}

#[test]
fn two_staves_stand_side_by_side_without_overlap() {
    for s in [demo(labanplay::demo::DUET_LBN), score(4, 4, vec![walking_staff(0, 16), walking_staff(1, 16)])] {
        assert_eq!(s.staves.len(), 2);
        let layout = StaffLayout::new(&s);
        let v = StaffView { width_px: 800.0, height_px: 700.0, cursor_y_px: 600.0, px_per_beat: 30.0 };
        for t in [0.0, 2.0, 6.5] {
            let glyphs = layout.glyphs(&v, t);
            let extent = |staff: usize| {
                glyphs
                    .iter()
                    .filter(|g| g.staff == staff && (g.entry.is_some() || g.kind == GlyphKind::StaffLine))
                    .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), g| {
                        (lo.min(g.rect_px[0]), hi.max(g.rect_px[2]))
                    })
            };
            let (a, b) = (extent(0), extent(1));
            assert!(a.0.is_finite() && b.0.is_finite(), "both staves drawn");
            assert!(a.1 < b.0, "staff 0 [{}, {}] overlaps staff 1 [{}, {}]", a.0, a.1, b.0, b.1);
            assert!(b.1 <= layout.content_width_px(&v) + (v.width_px - layout.content_width_px(&v)).max(0.0));
        }
    }
}

#[test]
fn bars_measure_numbers_double_bars_and_starting_position() {
    let s = demo(labanplay::demo::DUET_LBN);
    let layout = StaffLayout::new(&s);
    let v = StaffView { width_px: 500.0, height_px: 800.0, cursor_y_px: 700.0, px_per_beat: 30.0 };
    let glyphs = layout.glyphs(&v, 0.0);
    for m in s.measures.iter().take(3) {
        let number = m.number.to_string();
        assert!(glyphs.iter().any(|g| g.kind == GlyphKind::Text(number.clone())), "measure number {number}");
        if m.start_beats > 0.0 {
            let bar = glyphs.iter().find(|g| g.kind == GlyphKind::BarLine { measure: m.number }).unwrap();
            assert!((bar.rect_px[1] - layout.y_of_beats(&v, 0.0, m.start_beats)).abs() < 1e-3);
        }
    }
    // The double bar at beat 0 sits on the cursor; the starting position is below it.
    let double: Vec<_> = glyphs.iter().filter(|g| g.kind == GlyphKind::DoubleBar && g.staff == 0).collect();
    assert!(!double.is_empty());
    let zero_y = layout.y_of_beats(&v, 0.0, 0.0);
    assert!(double.iter().any(|g| (g.rect_px[1] - zero_y).abs() < 1e-3));
    let start: Vec<_> = glyphs.iter().filter(|g| g.entry.is_some_and(|e| e.in_start_position)).collect();
    assert!(!start.is_empty(), "starting position drawn");
    for g in &start {
        assert!(g.rect_px[1] > zero_y, "starting position below the double bar");
    }
    // The final double bar is at the end of the score.
    let end = layout.y_of_beats(&v, layout.end_beats(), layout.end_beats());
    let at_end = layout.glyphs(&v, layout.end_beats());
    assert!(at_end.iter().any(|g| g.kind == GlyphKind::DoubleBar && (g.rect_px[3] - end).abs() < 1e-3));
}

#[test]
fn zero_duration_symbols_get_a_minimum_height() {
    let s = score(
        1,
        4,
        vec![staff(
            0,
            vec![Channel {
                kind: ChannelKind::Arm(Side::Right),
                entries: vec![entry(1.0, 0.0, 4, Direction::Forward, Level::High)],
            }],
        )],
    );
    let layout = StaffLayout::new(&s);
    let glyphs = layout.glyphs(&view(), 1.0);
    let g = symbols(&glyphs).next().unwrap();
    assert!(g.rect_px[3] - g.rect_px[1] >= 9.9);
    assert!(!g.active, "zero-length entries are never active");
}

#[test]
fn only_visible_glyphs_come_back_from_a_long_score_and_none_are_lost() {
    let beats = 400;
    let s = score(beats / 4, 4, vec![walking_staff(0, beats), walking_staff(1, beats)]);
    let layout = StaffLayout::new(&s);
    let v = view();
    for t in [0.0, 57.3, 200.0, 399.0] {
        let glyphs = layout.glyphs(&v, t);
        for g in &glyphs {
            let r = g.rect_px;
            assert!(r.iter().all(|x| x.is_finite()));
            assert!(r[2] >= 0.0 && r[0] <= v.width_px && r[3] >= 0.0 && r[1] <= v.height_px, "{g:?} outside the view");
        }
        // Every entry whose span overlaps the visible beats is there, with its own staff.
        let top = layout.beats_at_y(&v, t, 0.0);
        let bottom = layout.beats_at_y(&v, t, v.height_px);
        let mut expected = 0;
        for st in &s.staves {
            for ch in &st.channels {
                expected +=
                    ch.entries.iter().filter(|e| e.start_beats < top - 0.1 && e.end_beats() > bottom + 0.1).count();
            }
        }
        let found = symbols(&glyphs).filter(|g| {
            let e = g.entry.unwrap();
            let entry = &s.staves[e.staff].channels[e.channel].entries[e.index];
            entry.start_beats < top - 0.1 && entry.end_beats() > bottom + 0.1
        });
        assert_eq!(found.count(), expected, "t = {t}");
        assert!(glyphs.len() < 200, "{} glyphs for one screen", glyphs.len());
        assert_eq!(glyphs, layout.glyphs(&v, t), "deterministic");
    }
}

#[test]
fn odd_inputs_neither_panic_nor_leak_nan() {
    let layout = StaffLayout::new(&demo(labanplay::demo::WALK_ARMS_TURN_LBN));
    let odd_views = [
        StaffView { width_px: 0.0, height_px: 0.0, cursor_y_px: 0.0, px_per_beat: 0.0 },
        StaffView { width_px: 300.0, height_px: 300.0, cursor_y_px: f32::NAN, px_per_beat: f32::INFINITY },
        StaffView { width_px: 300.0, height_px: 300.0, cursor_y_px: 100.0, px_per_beat: -5.0 },
    ];
    for v in odd_views {
        for t in [f64::NAN, f64::INFINITY, -1e9, 0.0, 1e12] {
            for g in layout.glyphs(&v, t) {
                assert!(g.rect_px.iter().all(|x| x.is_finite()), "{g:?}");
            }
            assert!(layout.beats_at_y(&v, t, 10.0).is_finite());
            assert!(layout.y_of_beats(&v, t, 3.0).is_finite());
        }
    }
    let empty = score(0, 3, Vec::new());
    let layout = StaffLayout::new(&empty);
    let glyphs = layout.glyphs(&view(), 0.0);
    assert!(glyphs.iter().any(|g| g.kind == GlyphKind::Cursor));
}
