//! No reader panics or hangs on any bytes: arbitrary input and mutated real files go through
//! every reader and the score builder.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use labanplay::read::{json, lbn, lw, read};
use labanplay::score::Score;
use proptest::prelude::*;

fn all_readers(bytes: &[u8]) {
    for result in [lbn::read(bytes), json::read(bytes), lw::read(bytes), read(bytes, None)] {
        match result {
            Ok(doc) => {
                let score = Score::from_document(&doc);
                for staff in &score.staves {
                    for ch in &staff.channels {
                        for e in &ch.entries {
                            assert!(e.start_beats.is_finite() && e.duration_beats.is_finite());
                        }
                    }
                }
            }
            Err(diags) => {
                assert!(!diags.0.is_empty());
                let _ = diags.render("fuzz", Some(bytes));
            }
        }
    }
}

fn corpus_samples() -> &'static [Vec<u8>] {
    static SAMPLES: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    SAMPLES.get_or_init(load_samples)
}

fn load_samples() -> Vec<Vec<u8>> {
    let Some(dir) = support::real_scores_dir("robustness mutations") else {
        return vec![b"Stav 1 133 48 1 1 602 L # 1\nDirn 11 134 70 4 10 23 M # 2\n".to_vec()];
    };
    let mut files = labanplay::cli::check::collect_files(&[dir]);
    files.truncate(400);
    // A spread of formats: every 8th file.
    files.iter().step_by(8).filter_map(|p| std::fs::read(p).ok()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        all_readers(&bytes);
    }

    #[test]
    fn score_shaped_text_never_panics(lines in proptest::collection::vec(
        ("(Bars|Stav|Dirn|Limb|Area|Volm|Ways|Face|Misc|Pins|Rotn|Keys|LabanWriter;|#)",
         proptest::collection::vec(-50i32..900, 0..9), "[LMHB]?", "[ a-z#;{}\\[\\]\":,]{0,6}"),
        0..40)) {
        let mut text = String::new();
        for (g, nums, lvl, tail) in lines {
            text.push_str(&g);
            for n in nums { text.push(' '); text.push_str(&n.to_string()); }
            text.push(' '); text.push_str(&lvl); text.push_str(&tail); text.push('\n');
        }
        all_readers(text.as_bytes());
    }

    #[test]
    fn mutated_real_files_never_panic(
        which in 0usize..1000,
        edits in proptest::collection::vec((0usize..100_000, any::<u8>(), 0u8..3), 1..12)
    ) {
        let samples = corpus_samples();
        let mut bytes = samples[which % samples.len()].clone();
        for (pos, byte, op) in edits {
            if bytes.is_empty() { bytes.push(byte); continue; }
            let at = pos % bytes.len();
            match op {
                0 => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ => { bytes.remove(at); }
            }
        }
        all_readers(&bytes);
    }
}

#[test]
fn deep_nesting_and_huge_numbers_are_errors_not_crashes() {
    all_readers(&vec![b'['; 100_000]);
    all_readers(b"Dirn 99999999999999999999 1 2 3 4 5 M");
    all_readers(b"Stav 1 2147483647 -2147483648 1 1 2147483647 L\nBars 0 0 2147483647 1 1 1 L\nDirn 11 2147483647 2147483647 4 10 23 M");
}

/// A small LED staff (centre 133) with a double bar at y=96, then `body`.
fn led_staff(body: &str) -> String {
    format!(
        "Stav 0 96 12 1 1 638 B\nStav 1 170 12 1 1 638 B\nStav 2 133 48 1 1 602 L\nBars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\n{body}"
    )
}

fn lbn_score(text: &str) -> Score {
    Score::from_document(&lbn::read(text.as_bytes()).unwrap())
}

#[test]
fn a_bar_line_typed_thousands_of_units_too_high_is_a_warning_and_stays_out_of_the_timing() {
    let steps =
        "Dirn 1 134 97 4 10 23 M\nDirn 10 122 121 4 10 23 M\nDirn 1 134 145 4 10 23 M\nDirn 10 122 169 4 10 23 M\n";
    // Two measures as written (bars at 192 and 288), then one typed 290,136 instead of 384.
    let good = lbn_score(&led_staff(&format!("Bars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n{steps}")));
    let bad = lbn_score(&led_staff(&format!(
        "Bars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\nBars 4 30 290136 1 177 3 B\n{steps}"
    )));
    assert_eq!(good.measures.len(), 2);
    assert_eq!(bad.measures.len(), 2, "{:?}", bad.measures);
    assert_eq!(bad.meter.beats_per_measure, 4);
    assert!((bad.duration_beats - good.duration_beats).abs() < 1e-9, "{} beats", bad.duration_beats);
    let w: Vec<_> = bad.warnings.iter().filter(|w| w.message.contains("beyond the rest of the score")).collect();
    assert_eq!(w.len(), 1, "{:#?}", bad.warnings);
    assert_eq!(w[0].span.line, 8, "the warning names the bar line's line");
    // A two-bar score with the only other bar line mistyped: not 12,085 beats, two hours long.
    let two = lbn_score(&led_staff(&format!("Bars 2 30 290136 1 177 3 B\n{steps}")));
    assert!(two.duration_secs() < 10.0, "{} s", two.duration_secs());
    assert!(two.warnings.iter().any(|w| w.message.contains("beyond the rest") && w.span.line == 6));
}

#[test]
fn a_symbol_typed_far_below_or_above_the_rest_is_skipped_with_a_warning() {
    let body = "Bars 2 30 192 1 177 3 B\nDirn 1 134 97 4 10 23 M\nDirn 10 122 121 4 10 23 M\nDirn 1 134 250145 4 10 23 M\nDirn 3 184 -90000 4 10 23 M\n";
    let s = lbn_score(&led_staff(body));
    assert!(s.duration_beats <= 4.0 + 1e-9, "{} beats", s.duration_beats);
    let lines: Vec<u32> =
        s.warnings.iter().filter(|w| w.message.contains("beyond the rest")).map(|w| w.span.line).collect();
    assert_eq!(lines, vec![9, 10]);
    let entries: usize = s.staves.iter().flat_map(|st| &st.channels).map(|c| c.entries.len()).sum();
    assert_eq!(entries, 2);
}

#[test]
fn meters_and_tempos_no_score_uses_are_warnings() {
    // Bars 40 beats apart (960 units) give an inferred meter of 40.
    let wide = lbn_score(&led_staff(
        "Bars 2 30 1056 1 177 3 B\nBars 3 30 2016 1 177 3 B\nBars 4 30 2976 1 177 3 B\nDirn 1 134 97 4 10 23 M\n",
    ));
    assert_eq!(wide.meter.beats_per_measure, 40);
    assert!(wide.warnings.iter().any(|w| w.message.contains("outside the meters scores use")), "{:#?}", wide.warnings);
    let fast =
        lbn_score(&led_staff("Bars 2 30 192 1 177 3 B\nKeys 0 65 3 2 50 15 L q=1000 # 1\nDirn 1 134 97 4 10 23 M\n"));
    assert!(fast.tempo.is_default);
    assert!(fast.warnings.iter().any(|w| w.message.contains("outside the tempos scores use")), "{:#?}", fast.warnings);
    let meter =
        lbn_score(&led_staff("Bars 2 30 192 1 177 3 B\nKeys 0 65 3 2 50 15 L 33/4 # 1\nDirn 1 134 97 4 10 23 M\n"));
    assert!(meter.meter.inferred);
    assert!(meter.warnings.iter().any(|w| w.message.contains("`33/4`")), "{:#?}", meter.warnings);
    // Plausible ones are silent.
    let ok =
        lbn_score(&led_staff("Bars 2 30 192 1 177 3 B\nKeys 0 65 3 2 50 15 L q=96 # 1\nDirn 1 134 97 4 10 23 M\n"));
    assert!(!ok.tempo.is_default && ok.warnings.is_empty(), "{:#?}", ok.warnings);
}
