//! The `.lbn` writer over the corpus: every `.lbn` score in `scores/` and `../shared/scores/real`
//! that reads is written, read back and compared: the same symbols (kind, code, position, size,
//! level, size step), the same header and kept lines, the same composite score and the same
//! motion (every joint sampled at 10 fps within 0.1 mm); and writing what was read back gives
//! the same bytes again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use labanplay::animation::{Animation, compile};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, world_rot_pos};
use labanplay::pose::skeleton::Proportions;
use labanplay::read::{Document, PageSymbol};
use labanplay::score::Score;
use labanplay::write::write_lbn;
use std::path::PathBuf;

/// Sampling rate of the motion comparison, frames per second.
const FPS: f64 = 10.0;
/// The most a joint may differ between the two motions, metres.
const JOINT_TOLERANCE_M: f32 = 1e-4;

/// Every `.lbn` file of the demos and of the real corpus, with a short name.
fn lbn_files() -> Vec<(String, PathBuf)> {
    let mut dirs = vec![PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/scores"))];
    dirs.extend(support::real_scores_dir("the .lbn writer's round trip over the real scores"));
    labanplay::cli::check::collect_files(&dirs)
        .into_iter()
        .filter(|p| labanplay::read::score_extension(p).as_deref() == Some("lbn"))
        .map(|p| {
            let name = p.strip_prefix(p.ancestors().nth(2).unwrap()).unwrap().display().to_string();
            (name, p)
        })
        .collect()
}

/// What a symbol is on the page, without where its line was in the file.
fn page_facts(s: &PageSymbol) -> impl PartialEq + std::fmt::Debug + '_ {
    (&s.kind, &s.code, [s.x, s.y, s.w, s.h], s.level, s.lbn_step)
}

/// The first difference between the symbols of `a` and `b`, in words.
fn symbol_difference(a: &Document, b: &Document) -> Option<String> {
    if a.symbols.len() != b.symbols.len() {
        return Some(format!("{} symbols written, {} read back", a.symbols.len(), b.symbols.len()));
    }
    a.symbols
        .iter()
        .zip(&b.symbols)
        .find(|(x, y)| page_facts(x) != page_facts(y))
        .map(|(x, y)| format!("line {}: {:?}\nread back as {:?}", x.span.line, page_facts(x), page_facts(y)))
}

/// The score without where its symbols were read (the written file numbers lines its own way).
fn without_spans(score: &Score) -> String {
    let json = labanplay::score::table::render_json(score);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut value = value;
    strip_spans(&mut value);
    value.to_string()
}

fn strip_spans(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.remove("span");
            map.values_mut().for_each(strip_spans);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_spans),
        _ => {}
    }
}

/// The largest distance between the same joint of the two motions, over every dancer and frame.
fn largest_joint_difference_m(a: &Animation, b: &Animation) -> f32 {
    assert_eq!(a.dancers.len(), b.dancers.len());
    assert_eq!(a.duration_secs, b.duration_secs);
    let frames = (a.duration_secs * FPS).floor() as usize + 1;
    let (mut pose_a, mut pose_b) = (Pose::rest(&a.skeleton), Pose::rest(&b.skeleton));
    let mut largest = 0.0f32;
    for d in 0..a.dancers.len() {
        for f in 0..frames {
            let t_secs = f as f64 / FPS;
            a.dancers[d].sample_into(&a.skeleton, t_secs, &mut pose_a);
            b.dancers[d].sample_into(&b.skeleton, t_secs, &mut pose_b);
            let (_, joints_a) = world_rot_pos(&a.skeleton, &pose_a);
            let (_, joints_b) = world_rot_pos(&b.skeleton, &pose_b);
            for (ja, jb) in joints_a.iter().zip(&joints_b) {
                largest = largest.max(ja.distance(*jb));
            }
        }
    }
    largest
}

#[test]
fn every_lbn_score_written_and_read_back_is_the_same_score_and_dances_the_same() {
    let files = lbn_files();
    assert!(files.len() >= 4, "only {} .lbn files found", files.len());
    let proportions = Proportions::default();
    let mut checked = 0;
    for (name, path) in &files {
        // Read from its bytes, as the written text is (no warnings about the file's name).
        let Ok(doc) = labanplay::read::read(&std::fs::read(path).unwrap(), Some("lbn")) else {
            println!("{name}: does not read (a known-bad file), not written");
            continue;
        };
        let written = write_lbn(&doc);
        assert!(written.warnings.is_empty(), "{name}: the writer warned: {:?}", written.warnings);
        let back = labanplay::read::read(written.text.as_bytes(), Some("lbn"))
            .unwrap_or_else(|e| panic!("{name}: the written text does not read:\n{}", e.render(name, None)));
        if let Some(difference) = symbol_difference(&doc, &back) {
            panic!("{name}: {difference}");
        }
        assert_eq!((&back.title, &back.comments), (&doc.title, &doc.comments), "{name}: header");
        assert_eq!(back.kept_lines, doc.kept_lines, "{name}: kept lines");
        let (score, score_back) = (Score::from_document(&doc), Score::from_document(&back));
        assert_eq!(without_spans(&score), without_spans(&score_back), "{name}: composite score");
        let (motion, motion_back) = (
            compile(&score, &MotionOptions::default(), &proportions),
            compile(&score_back, &MotionOptions::default(), &proportions),
        );
        let largest_m = largest_joint_difference_m(&motion, &motion_back);
        assert!(largest_m <= JOINT_TOLERANCE_M, "{name}: a joint moved {largest_m} m");
        let again = write_lbn(&back);
        assert!(again.text == written.text, "{name}: the second write differs from the first");
        checked += 1;
    }
    println!("{checked} of {} .lbn scores round-trip", files.len());
}
