//! Reads every real LabanotationSuite / gestureBotDesignKit `.json` score with the JSON reader.
//!
//! The scores live outside the crate (`../shared/scores/real`); the tests skip with a message
//! when that folder is absent. `LABANPLAY_REAL_SCORES=/path/to/real` points them elsewhere.

#![allow(clippy::unwrap_used)]

use labanplay::read::{Direction, Document, GesturePart, Level, Side, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const REAL_DEFAULT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/scores/real");

/// The real-scores folder: `$LABANPLAY_REAL_SCORES` if set (for worktrees), else `../shared/scores/real`.
fn real_dir() -> PathBuf {
    std::env::var_os("LABANPLAY_REAL_SCORES").map_or_else(|| PathBuf::from(REAL_DEFAULT), PathBuf::from)
}

/// All `.json` files under the two keyframe folders, sorted; `None` when the folder is absent.
fn real_json_files() -> Option<Vec<PathBuf>> {
    let root = real_dir();
    if !root.is_dir() {
        eprintln!("skipping: {} not found (the shared real scores are not checked out here)", root.display());
        return None;
    }
    let mut files = Vec::new();
    let mut dirs = vec![root.join("labanotationsuite"), root.join("gesturebotdesignkit")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) {
                files.push(path);
            }
        }
    }
    files.sort();
    Some(files)
}

fn read_file(path: &Path) -> Document {
    let bytes = std::fs::read(path).unwrap();
    match json::read(&bytes) {
        Ok(doc) => doc,
        Err(e) => panic!("{} does not read:\n{}", path.display(), e.render(&path.display().to_string(), Some(&bytes))),
    }
}

#[test]
fn every_real_json_score_reads_with_gestures() {
    let Some(files) = real_json_files() else { return };
    assert!(files.len() >= 200, "expected the ~206 real JSON files, found {}", files.len());
    let mut total_warnings = 0;
    for path in &files {
        let doc = read_file(path);
        assert!(!doc.keyframes.gestures.is_empty(), "{}: no gestures", path.display());
        for g in &doc.keyframes.gestures {
            assert!(
                g.start_secs.is_finite() && g.duration_secs.is_finite() && g.duration_secs >= 0.0,
                "{}: {g:?}",
                path.display()
            );
            assert!(g.span.line >= 1 && g.span.col >= 1);
        }
        for r in &doc.keyframes.rotations {
            assert!(r.degrees_cw.is_finite() && r.degrees_cw != 0.0, "{}: {r:?}", path.display());
        }
        for w in &doc.warnings {
            eprintln!("{}:{}:{}: warning: {}", path.display(), w.span.line, w.span.col, w.message);
        }
        total_warnings += doc.warnings.len();
    }
    eprintln!("{} files read, {total_warnings} warnings", files.len());
}

#[test]
fn away_position1_right_elbow_is_forward_low_at_half_a_second() {
    let path = real_dir().join("labanotationsuite/LabanotationLibrary/away.json");
    if !path.is_file() {
        eprintln!("skipping: {} not found", path.display());
        return;
    }
    let doc = read_file(&path);
    assert_eq!(doc.title.as_deref(), Some("away"));
    let elbow: Vec<_> = doc
        .keyframes
        .gestures
        .iter()
        .filter(|g| g.part == GesturePart::UpperArm(Side::Right))
        .map(|g| (g.start_secs, g.direction, g.level))
        .collect();
    assert_eq!(elbow.len(), 6, "one right-elbow key per Position0..5");
    let (t_secs, direction, level) = elbow[1];
    assert!((t_secs - 0.5).abs() < 1e-9, "Position1 is at {t_secs} s");
    assert_eq!((direction, level), (Direction::Forward, Level::Low));
}

#[test]
fn kinect_scores_come_out_in_time_order() {
    // The Kinect-generated files number their keyframes with gaps (… Position11, Position217);
    // read by number (not by text) their times never go backwards.
    let Some(files) = real_json_files() else { return };
    let kinect: Vec<_> = files.iter().filter(|p| p.to_string_lossy().contains("/labanotation/")).collect();
    assert!(!kinect.is_empty());
    for path in kinect {
        let doc = read_file(path);
        let starts: Vec<f64> = doc.keyframes.gestures.iter().map(|g| g.start_secs).collect();
        assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{}: times go backwards", path.display());
    }
}

/// How many times each (part, direction, level) occurs in a document.
fn pose_counts(doc: &Document) -> BTreeMap<(GesturePart, Direction, Level), usize> {
    let mut counts = BTreeMap::new();
    for g in &doc.keyframes.gestures {
        *counts.entry((g.part, g.direction, g.level)).or_insert(0) += 1;
    }
    counts
}

#[test]
fn both_layouts_of_the_same_gesture_agree() {
    // gestureLibrary/X.json was converted from LabanotationLibrary/X.json; the two layouts must
    // yield the same signs. Files whose layout-A copy lost a keyframe to a warning are skipped.
    let Some(files) = real_json_files() else { return };
    let mut compared = 0;
    for b_path in files.iter().filter(|p| p.to_string_lossy().contains("/gestureLibrary/")) {
        let Some(name) = b_path.file_name() else { continue };
        let a_path = real_dir().join("labanotationsuite/LabanotationLibrary").join(name);
        if !a_path.is_file() {
            continue;
        }
        let a = read_file(&a_path);
        if a.warnings.iter().any(|w| w.message.contains("skipped")) {
            continue;
        }
        let b = read_file(b_path);
        assert_eq!(pose_counts(&a), pose_counts(&b), "{}", name.to_string_lossy());
        compared += 1;
    }
    assert!(compared >= 70, "only {compared} pairs compared");
}
