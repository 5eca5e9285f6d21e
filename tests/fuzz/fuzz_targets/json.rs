//! Fuzz target: `.json` keyframe bytes through reading, compose, compile and sampling of poses
//! (every joint finite); no panic, hang or unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(doc) = labanplay::read::json::read(data) {
        labanplay_fuzz::score_poses_are_finite(&doc);
    }
});
