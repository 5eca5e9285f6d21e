//! Every real score in `../shared/scores/real` goes through `check`; well-formed ones give a
//! score with a staff; the known-bad ones get errors at the right lines.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use labanplay::cli::check::{CheckOptions, check, collect_files};
use labanplay::read::Format;
use labanplay::score::Score;

#[test]
fn every_real_file_is_read_or_gets_a_line_accurate_error() {
    let Some(dir) = support::real_scores_dir("corpus") else { return };
    let files = collect_files(std::slice::from_ref(&dir));
    assert!(files.len() > 250, "expected the whole corpus, found {} files", files.len());
    let known_bad = ["l1.lbn", "new_file2.lbn"];
    // `new.lbn` is syntactically fine but holds only bar lines and measure numbers.
    let known_empty = ["laban-tk/new.lbn"];
    for path in &files {
        let rel = path.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
        let loaded = crate::support::load_file(path);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        match loaded.document {
            Err(diags) => {
                assert!(
                    known_bad.contains(&name.as_str()),
                    "{rel} failed to read:\n{}",
                    diags.render(&rel, Some(&loaded.bytes))
                );
                for d in &diags.0 {
                    assert!(d.span.line >= 1);
                }
            }
            Ok(doc) => {
                assert!(!known_bad.contains(&name.as_str()), "{rel} should have failed");
                let score = Score::from_document(&doc);
                if known_empty.contains(&rel.as_str()) {
                    assert!(score.staves.is_empty());
                    continue;
                }
                assert!(!score.staves.is_empty(), "{rel}: no staff");
                if doc.format == Format::Json {
                    assert!(
                        score.staves[0].channels.iter().map(|c| c.entries.len()).sum::<usize>()
                            + score.staves[0].start_position.len()
                            > 0,
                        "{rel}: no entries"
                    );
                }
                for staff in &score.staves {
                    for ch in &staff.channels {
                        for pair in ch.entries.windows(2) {
                            assert!(pair[0].start_beats <= pair[1].start_beats, "{rel}: {:?} not sorted", ch.kind);
                        }
                        for e in &ch.entries {
                            assert!(e.start_beats.is_finite() && e.duration_beats >= 0.0, "{rel}: bad time {e:?}");
                            assert!((score.tempo.secs_from_beats(e.start_beats) - e.start_secs).abs() < 1e-9);
                        }
                    }
                }
            }
        }
    }
    let report = check(&[dir], &CheckOptions { show_warnings: true });
    assert!(report.any_error);
    let lbn = &report.summary["lbn"];
    assert_eq!(lbn.failed, 2);
    assert_eq!(lbn.files, lbn.read + lbn.failed);
    let json = &report.summary["json"];
    assert_eq!(json.failed, 0);
    assert!(report.text.contains("lbn: "), "summary line missing");
}

#[test]
fn known_bad_files_point_at_the_right_lines() {
    let Some(dir) = support::real_scores_dir("known_bad") else { return };
    let l1 = crate::support::load_file(&dir.join("laban-tk/l1.lbn"));
    let diags = l1.document.unwrap_err();
    let lines: Vec<u32> = diags.0.iter().map(|d| d.span.line).collect();
    assert_eq!(lines, vec![1, 47, 84], "merge markers are on lines 1, 47 and 84");
    assert!(diags.0.iter().all(|d| d.message.contains("merge-conflict")));

    let nul = crate::support::load_file(&dir.join("laban-tk/new_file2.lbn"));
    let diags = nul.document.unwrap_err();
    assert_eq!(diags.0.len(), 1);
    assert_eq!((diags.0[0].span.line, diags.0[0].span.col), (3, 32));
    let rendered = diags.render("new_file2.lbn", Some(&nul.bytes));
    assert!(rendered.starts_with("new_file2.lbn:3:32: error: expected a level letter"), "{rendered}");
    assert!(rendered.contains("\n  |                                ^"), "caret under column 32:\n{rendered}");

    // A file named only `.lbn`: found by the folder walk, read, and flagged at line 1.
    let files = collect_files(&[dir.join("laban-tk")]);
    let hidden = dir.join("laban-tk/.lbn");
    assert!(files.contains(&hidden), "the folder walk must not skip `.lbn`");
    let loaded = crate::support::load_file(&hidden);
    let doc = loaded.document.unwrap();
    assert_eq!(doc.warnings[0].span.line, 1);
    assert!(doc.warnings[0].message.contains("empty stem"));
    assert_eq!(Score::from_document(&doc).staves.len(), 1);
}
