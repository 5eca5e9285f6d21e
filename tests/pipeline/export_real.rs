//! `labanplay export --bvh` writes a BVH for every well-formed real `.lbn` score (one file per
//! dancer), with a HIERARCHY and as many MOTION frames as the score's length asks for.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use labanplay::cli::export::{ExportOptions, export};

#[test]
fn every_well_formed_real_lbn_exports_to_bvh() {
    let Some(dir) = support::real_scores_dir("export_real") else { return };
    let out_dir = std::env::temp_dir().join(format!("labanplay-export-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut exported = 0;
    for (k, path) in labanplay::cli::check::collect_files(&[dir]).into_iter().enumerate() {
        if labanplay::read::score_extension(&path).as_deref() != Some("lbn") {
            continue;
        }
        let Ok(loaded) = labanplay::read::load(&path) else { continue };
        let score = labanplay::score::Score::from_document(&loaded.document);
        if score.staves.is_empty() {
            continue;
        }
        let base = out_dir.join(format!("s{k}.bvh"));
        let opts =
            ExportOptions { bvh: Some(base.clone()), fps: 24.0, toe_first: k % 2 == 0, ..ExportOptions::default() };
        let summary = export(&path, &opts).unwrap();
        assert!(summary.contains("interpreted"), "{summary}");
        for i in 0..score.staves.len() {
            let file = labanplay::cli::export::bvh_path(&base, i, score.staves.len());
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|_| panic!("{} missing for {}", file.display(), path.display()));
            assert!(text.starts_with("HIERARCHY"));
            let frames: usize = text.lines().find_map(|l| l.strip_prefix("Frames:")).unwrap().trim().parse().unwrap();
            assert_eq!(frames, (score.duration_secs() * 24.0).floor() as usize + 1, "{}", path.display());
        }
        exported += 1;
    }
    assert!(exported >= 60, "only {exported} scores exported");
    let _ = std::fs::remove_dir_all(&out_dir);
}
