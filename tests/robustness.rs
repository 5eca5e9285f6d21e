//! No reader panics or hangs on any bytes: arbitrary input and mutated real files go through
//! every reader and the score builder.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

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
