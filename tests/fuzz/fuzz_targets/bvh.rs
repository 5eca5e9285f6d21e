//! Fuzz target: BVH capture bytes through reading, joint mapping, retargeting onto the default
//! skeleton and sampling across the capture (every joint finite).
#![no_main]

use labanplay::pose::skeleton::Skeleton;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let skeleton = Skeleton::default();
    let Ok(motion) = labanplay::mocap::capture_motion(data, None, &skeleton) else { return };
    let end_secs = motion.duration_secs();
    for k in 0..=8 {
        let t_secs = end_secs * k as f64 / 8.0;
        labanplay_fuzz::assert_finite(&motion.sample(t_secs), "capture", t_secs);
    }
});
