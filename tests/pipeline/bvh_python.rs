//! The exported BVH, read back by an independent parser (the PyPI `bvh` package, through
//! `tests/bvh_check.py`), gives the same world joint positions as `sample` (within 0.5 mm).
//! Skips when Python or the package is missing, except under CI (`CI` set), where it fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::animation::compile;
use labanplay::export::bvh::{joint_positions_json, write_bvh};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;
use labanplay::pose::skeleton::Proportions;
use std::process::Command;

fn python_with_bvh() -> bool {
    Command::new("python3").args(["-c", "import bvh"]).output().is_ok_and(|o| o.status.success())
}

#[test]
fn bvh_read_back_by_the_pypi_parser_matches_sample() {
    if !python_with_bvh() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have python3 with the `bvh` package (.ci/setup installs it)"
        );
        println!("SKIP bvh_python: python3 with the `bvh` package is not installed (pip install bvh)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("labanplay-bvh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in [
        ("walk-arms-turn", labanplay::demo::WALK_ARMS_TURN_LBN),
        ("jumps", labanplay::demo::JUMPS_LBN),
        ("duet", labanplay::demo::DUET_LBN),
    ] {
        let score = labanplay::score::Score::from_document(&labanplay::read::read(bytes, Some("lbn")).unwrap());
        let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
        let fps = 30.0;
        for (i, d) in anim.dancers.iter().enumerate() {
            let frames = (anim.duration_secs * fps) as usize + 1;
            let mut poses = Vec::with_capacity(frames);
            let mut pose = Pose::rest(&anim.skeleton);
            for f in 0..frames {
                d.sample_into(&anim.skeleton, f as f64 / fps, &mut pose);
                poses.push(pose.clone());
            }
            let bvh = dir.join(format!("{name}-{i}.bvh"));
            let json = dir.join(format!("{name}-{i}.json"));
            std::fs::write(&bvh, write_bvh(&anim.skeleton, &poses, fps)).unwrap();
            std::fs::write(&json, joint_positions_json(&anim.skeleton, &poses, fps)).unwrap();
            let out = Command::new("python3")
                .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bvh_check.py"))
                .arg(&bvh)
                .arg(&json)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name} dancer {i}: bvh_check.py failed:\n{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
