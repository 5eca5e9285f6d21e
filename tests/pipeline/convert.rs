//! `labanplay convert` (the library side): a `.lbn` converts with no warning to the same
//! symbols; a `.lw` converts to a file that composes to the same entries, each time within half
//! a grid step, every other difference a warning at its `.lw` line; an output that is not `.lbn`
//! is refused without writing anything; a keyframe score is laid out (`convert_json` checks the
//! corpus).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::cli::convert::{ConvertError, convert};
use labanplay::score::Score;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("labanplay-convert-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn demo(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scores").join(name)
}

/// Every timed entry of `score`: (staff, channel, what, start beats, end beats).
fn entries(score: &Score) -> Vec<(usize, String, String, f64, f64)> {
    let mut out = Vec::new();
    for staff in &score.staves {
        for channel in &staff.channels {
            for e in &channel.entries {
                out.push((staff.index, channel.kind.name(), format!("{:?}", e.kind), e.start_beats, e.end_beats()));
            }
        }
    }
    out
}

#[test]
fn an_lbn_score_converts_to_the_same_symbols_without_warnings() {
    let dir = scratch("lbn");
    let out = dir.join("duet.lbn");
    let summary = convert(&demo("duet.lbn"), &out).unwrap();
    assert!(summary.ends_with("; no warnings\n"), "{summary}");
    let read = |p: &Path| labanplay::read::load(p).unwrap().document;
    let (from, to) = (read(&demo("duet.lbn")), read(&out));
    let facts = |d: &labanplay::read::Document| -> Vec<_> {
        d.symbols.iter().map(|s| (s.kind.clone(), s.x, s.y, s.w, s.h, s.level)).collect()
    };
    assert_eq!(facts(&from), facts(&to));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `.lw` demo, with a head sign added (the textbook's column outside the right arm, which
/// `.lbn` reads as an arm column): the converted file has the same entries but that one, each
/// within half a quarter-beat step; the head sign and the snapping are warnings at `.lw` lines.
#[test]
fn a_lw_score_converts_to_the_same_entries_and_says_what_changed() {
    let dir = scratch("lw");
    let lw = dir.join("walk.lw");
    let text = std::fs::read_to_string(demo("walk-arms-turn.lw")).unwrap();
    let head_line = text.lines().count() + 1;
    std::fs::write(&lw, format!("{text}Direction 200 881 10 23 3 M;\n")).unwrap();
    let out = dir.join("walk.lbn");
    let summary = convert(&lw, &out).unwrap();
    assert!(summary.contains("wrote 33 of 33 symbols"), "{summary}");
    let head_warning = format!("walk.lw:{head_line}:1: warning: `lw:Direction` means staff 1 head");
    assert!(
        summary.contains(&head_warning) && summary.contains("arm R, beats 0.00 to 1.00 in the `.lbn`"),
        "{summary}"
    );
    assert!(summary.contains("on `.lbn`'s quarter-beat grid, moved by at most 0.042 beats"), "{summary}");
    assert!(summary.ends_with("; 2 warnings (above)\n"), "{summary}");

    let was = entries(&labanplay::read::load(&lw).map(|l| Score::from_document(&l.document)).unwrap());
    let now = entries(&labanplay::read::load(&out).map(|l| Score::from_document(&l.document)).unwrap());
    assert_eq!(was.len(), now.len());
    let differing: Vec<_> = was
        .iter()
        .filter(|w| {
            !now.iter().any(|n| {
                (&n.0, &n.1, &n.2) == (&w.0, &w.1, &w.2) && (n.3 - w.3).abs() < 0.125 && (n.4 - w.4).abs() < 0.125
            })
        })
        .collect();
    assert_eq!(differing.len(), 1, "only the head sign changes: {differing:?}");
    assert_eq!(differing[0].1, "head");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_that_is_not_lbn_is_refused_and_a_keyframe_score_is_laid_out() {
    let dir = scratch("refused");
    let txt = dir.join("duet.txt");
    let error = convert(&demo("duet.lbn"), &txt).unwrap_err();
    assert!(matches!(error, ConvertError::UnknownOutput(_)), "{error}");
    assert!(error.to_string().contains("convert writes lbn files"), "{error}");
    assert!(!txt.exists());
    let json = dir.join("keys.json");
    std::fs::write(&json, r#"[{"time": 0.0, "head": {"dur": 1.0, "dir": "Forward", "lvl": "Normal"}}]"#).unwrap();
    let out = dir.join("keys.lbn");
    let summary = convert(&json, &out).unwrap();
    assert!(summary.contains("wrote 1 of 1 keyframes (at q=120)") && summary.ends_with("; no warnings\n"), "{summary}");
    // The head's forward key over the first second: beats 0 to 2 in the head's column.
    let head = labanplay::read::load(&out).map(|l| Score::from_document(&l.document)).unwrap();
    let keys = entries(&head);
    assert_eq!(keys.len(), 1, "{keys:?}");
    assert_eq!((keys[0].1.as_str(), keys[0].3, keys[0].4), ("part head", 0.0, 2.0), "{keys:?}");
    let missing = convert(&dir.join("gone.lbn"), &out).unwrap_err();
    assert!(missing.to_string().contains("gone.lbn"), "{missing}");
    let _ = std::fs::remove_dir_all(&dir);
}
