//! Integration tests for the LabanWriter `.lw` reader: the valid fixtures read with the counts
//! their `# expect-…` comments state, the invalid ones render exactly their sibling `.expected`
//! file (`UPDATE_SNAPSHOTS=1` rewrites those), and no input at all makes the reader panic.

#![allow(clippy::unwrap_used)]

use labanplay::diag::Diagnostics;
use labanplay::read::lw_survey::survey;
use labanplay::read::lw_table::{DIRECTION_CODES, TABLE};
use labanplay::read::{Level, PageSymbol, SymbolKind, lw};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn fixture_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lw").join(kind)
}

/// The `.lw` files of a fixture folder, sorted by name.
fn fixtures(kind: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture_dir(kind))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lw"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no fixtures in {kind}");
    paths
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// `# expect-KEY: VALUE` comment lines (any line ending), read straight from the bytes.
fn directives(bytes: &[u8]) -> BTreeMap<String, String> {
    String::from_utf8_lossy(bytes)
        .split(['\r', '\n'])
        .filter_map(|line| line.strip_prefix("# expect-"))
        .filter_map(|rest| rest.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn assert_sane(symbol: &PageSymbol, name: &str) {
    assert!(symbol.code.starts_with("lw:"), "{name}: code {}", symbol.code);
    for v in [symbol.x, symbol.y, symbol.w, symbol.h] {
        assert!(v.is_finite(), "{name}: {symbol:?}");
    }
    assert!(symbol.w >= 0.0 && symbol.h >= 0.0, "{name}: {symbol:?}");
}

fn read_fixture(path: &Path) -> (Vec<u8>, labanplay::read::Document) {
    let bytes = std::fs::read(path).unwrap();
    let name = file_name(path);
    let doc = lw::read(&bytes).unwrap_or_else(|d| panic!("{}", d.render(&name, Some(&bytes))));
    (bytes, doc)
}

#[test]
fn valid_fixtures_decode_every_record_with_the_stated_counts() {
    let mut classes_seen = BTreeSet::new();
    for path in fixtures("valid") {
        let name = file_name(&path);
        let (bytes, doc) = read_fixture(&path);
        let rendered = Diagnostics(doc.warnings.clone()).render(&name, Some(&bytes));
        assert!(doc.warnings.is_empty(), "{name} has warnings:\n{rendered}");
        let want = directives(&bytes);
        let count: usize = want.get("symbols").and_then(|n| n.parse().ok()).expect("# expect-symbols: N");
        assert_eq!(doc.symbols.len(), count, "{name}");
        doc.symbols.iter().for_each(|s| assert_sane(s, &name));
        classes_seen.extend(doc.symbols.iter().map(|s| s.code.clone()));

        let s = survey(&bytes).unwrap();
        let decoded: usize = s.heads.values().map(|h| h.decoded).sum();
        assert_eq!(decoded, s.records, "{name}: survey says some records are not decoded\n{s}");
        if let Some(enc) = want.get("encoding") {
            assert_eq!(s.encoding.name(), enc, "{name}");
        }
        if let Some(le) = want.get("line-endings") {
            assert_eq!(s.line_endings.name(), le, "{name}");
        }
    }
    for row in TABLE {
        assert!(classes_seen.contains(&format!("lw:{}", row.class)), "no valid fixture decodes {}", row.class);
    }
}

#[test]
fn mac_roman_text_is_decoded_as_mac_roman() {
    let (_, doc) = read_fixture(&fixture_dir("valid").join("mac_roman_cr.lw"));
    let texts: Vec<&str> = doc
        .symbols
        .iter()
        .filter_map(|s| if let SymbolKind::Text(t) = &s.kind { Some(t.as_str()) } else { None })
        .collect();
    assert_eq!(texts, vec!["Valse café"]);
}

#[test]
fn staff_expands_to_three_lines_with_the_centre_midway() {
    let (_, doc) = read_fixture(&fixture_dir("valid").join("staff.lw"));
    let lines: Vec<(f32, bool)> = doc
        .symbols
        .iter()
        .filter_map(|s| match s.kind {
            SymbolKind::StaffLine { centre_hint } => Some((s.x, centre_hint)),
            _ => None,
        })
        .collect();
    assert_eq!(lines.len(), 3);
    let centre: Vec<f32> = lines.iter().filter(|l| l.1).map(|l| l.0).collect();
    let outer: Vec<f32> = lines.iter().filter(|l| !l.1).map(|l| l.0).collect();
    assert_eq!(centre.len(), 1);
    assert!((centre[0] - (outer[0] + outer[1]) * 0.5).abs() < 1e-4);
    assert!(doc.symbols.iter().all(|s| s.h > 0.0 && s.y_top() <= 0.0));
}

#[test]
fn whole_score_runs_up_the_page_in_time() {
    let (_, doc) = read_fixture(&fixture_dir("valid").join("whole_score.lw"));
    let staff: Vec<&PageSymbol> =
        doc.symbols.iter().filter(|s| matches!(s.kind, SymbolKind::StaffLine { .. })).collect();
    let (staff_bottom, staff_top) = (staff[0].y, staff[0].y_top());
    // Bars are written lower on the LW page first (LW y 400, 352, 304): later bars sit higher.
    let bars: Vec<f32> = doc.symbols.iter().filter(|s| s.kind == SymbolKind::BarLine).map(|s| s.y).collect();
    assert_eq!(bars.len(), 3);
    assert!(bars.windows(2).all(|w| w[0] < w[1]), "{bars:?}");
    for s in doc.symbols.iter().filter(|s| matches!(s.kind, SymbolKind::Direction { .. })) {
        assert!(s.y >= staff_bottom - 1e-3 && s.y_top() <= staff_top + 1e-3, "{s:?} outside the staff");
        assert_ne!(s.level, Level::Blank);
    }
}

fn render_outcome(name: &str, bytes: &[u8]) -> String {
    match lw::read(bytes) {
        Ok(doc) => Diagnostics(doc.warnings).render(name, Some(bytes)),
        Err(d) => d.render(name, Some(bytes)),
    }
}

fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = String::new();
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => out.push_str(&format!("  {x}\n")),
            (x, y) => {
                x.iter().for_each(|x| out.push_str(&format!("- {x}\n")));
                y.iter().for_each(|y| out.push_str(&format!("+ {y}\n")));
            }
        }
    }
    out
}

#[test]
fn invalid_fixtures_render_the_expected_diagnostics() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    for path in fixtures("invalid") {
        let name = file_name(&path);
        let bytes = std::fs::read(&path).unwrap();
        let actual = render_outcome(&name, &bytes);
        assert!(!actual.is_empty(), "{name}: no diagnostic at all");
        assert_eq!(lw::read(&bytes).is_err(), survey(&bytes).is_err(), "{name}: read and survey disagree");
        let expected_path = path.with_extension("expected");
        if update {
            std::fs::write(&expected_path, format!("{actual}\n")).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected.trim_end_matches('\n') != actual {
            failures.push(format!("{name} (- expected, + actual):\n{}", diff(&expected, &actual)));
        }
    }
    assert!(failures.is_empty(), "rerun with UPDATE_SNAPSHOTS=1 if intended\n{}", failures.join("\n"));
}

/// Tokens that make up plausible and implausible `.lw` text.
fn soup_piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b";".to_vec()),
        Just(b" ".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"#".to_vec()),
        Just(b"Direction".to_vec()),
        Just(b"Staff".to_vec()),
        Just(b"Text".to_vec()),
        Just(b"Pin".to_vec()),
        Just(b"M".to_vec()),
        Just(b"\x8e".to_vec()),
        Just("é".as_bytes().to_vec()),
        (-20i32..2000).prop_map(|n| n.to_string().into_bytes()),
        Just(b"1e39".to_vec()),
        Just(b"NaN".to_vec()),
    ]
}

proptest! {
    #[test]
    fn any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(doc) = lw::read(&bytes) {
            doc.symbols.iter().for_each(|s| assert_sane(s, "fuzz"));
        }
        let _ = survey(&bytes);
    }

    #[test]
    fn token_soup_after_a_header_never_panics(pieces in proptest::collection::vec(soup_piece(), 0..120)) {
        let mut bytes = b"LabanWriter; 4000;\n".to_vec();
        pieces.iter().for_each(|p| bytes.extend_from_slice(p));
        let doc = lw::read(&bytes).unwrap();
        let lines = 1 + bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count();
        for w in &doc.warnings {
            prop_assert!(w.span.line as usize <= lines && w.span.offset <= bytes.len());
        }
        doc.symbols.iter().for_each(|s| assert_sane(s, "soup"));
        let s = survey(&bytes).unwrap();
        prop_assert_eq!(s.heads.values().map(|h| h.records).sum::<usize>(), s.records);
    }

    #[test]
    fn written_directions_read_back(
        signs in proptest::collection::vec((0u16..600, 0u16..900, 1u16..40, 1u16..200, 1i64..=11, 0usize..4), 1..30),
        sep in prop_oneof![Just(" "), Just("\t"), Just("\r\n  "), Just("\r")],
    ) {
        let mut text = String::from("LabanWriter; 4000;\n");
        for (x, y, w, h, code, level) in &signs {
            let fields = [x.to_string(), y.to_string(), w.to_string(), h.to_string(), code.to_string()];
            text.push_str(&format!("Direction{sep}{}{sep}{};\n", fields.join(sep), ["L", "M", "H", "B"][*level]));
        }
        let doc = lw::read(text.as_bytes()).unwrap();
        prop_assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
        prop_assert_eq!(doc.symbols.len(), signs.len());
        for (s, (x, y, w, h, code, level)) in doc.symbols.iter().zip(&signs) {
            prop_assert_eq!(s.x, f32::from(*x));
            prop_assert_eq!(s.w, f32::from(*w));
            prop_assert_eq!(s.h, f32::from(*h));
            // LW y grows down to the symbol's top edge; ours grows up from its bottom edge.
            prop_assert_eq!(s.y_top(), -f32::from(*y));
            prop_assert_eq!(s.level.letter(), ['L', 'M', 'H', 'B'][*level]);
            let (_, dir, left_form) = DIRECTION_CODES.iter().find(|c| c.0 == *code).unwrap();
            prop_assert_eq!(&s.kind, &SymbolKind::Direction { direction: *dir, left_form: *left_form });
        }
    }
}

#[test]
fn path_and_turn_letters_decode_in_either_case() {
    use labanplay::read::{PathSign, TurnSign};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lw/valid");
    let (_, doc) = read_fixture(&dir.join("path.lw"));
    let kinds: Vec<&SymbolKind> = doc.symbols.iter().map(|s| &s.kind).collect();
    assert_eq!(
        kinds,
        [
            &SymbolKind::Path(PathSign::Straight),
            &SymbolKind::Path(PathSign::Circular { clockwise: true }),
            &SymbolKind::Path(PathSign::Circular { clockwise: false }),
            &SymbolKind::Path(PathSign::Circular { clockwise: true }),
        ]
    );
    let (_, doc) = read_fixture(&dir.join("turn.lw"));
    let kinds: Vec<&SymbolKind> = doc.symbols.iter().map(|s| &s.kind).collect();
    assert_eq!(kinds, [&SymbolKind::Turn(TurnSign::Left), &SymbolKind::Turn(TurnSign::Right)]);
}

#[test]
fn bundled_lw_scores_read_and_compose_without_warnings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("lw") {
            continue;
        }
        let (_, doc) = read_fixture(&path);
        assert!(doc.warnings.is_empty(), "{}: {:?}", path.display(), doc.warnings);
        let score = labanplay::score::Score::from_document(&doc);
        assert!(score.warnings.is_empty(), "{}: {:?}", path.display(), score.warnings);
        n += 1;
    }
    assert!(n >= 2, "only {n} .lw scores in scores/");
}
