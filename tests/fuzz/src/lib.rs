//! Shared checks of the fuzz targets: a score goes through compose, compile and sampling of poses
//! across its length, and every joint of every pose must be finite.

use labanplay::animation::compile;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::Pose;
use labanplay::pose::skeleton::Proportions;
use labanplay::read::Document;
use labanplay::score::Score;

/// The longest score compiled and sampled, seconds: the motion's cost grows with the score's
/// length (up to the four-hour bound), so a few bytes of bar lines hours apart would take longer
/// than libFuzzer's timeout; longer scores are only composed and checked against the bound.
pub const MAX_SAMPLED_SECS: f64 = 600.0;

/// Samples of the score's length taken by [`score_poses_are_finite`].
pub const SAMPLES: usize = 9;

/// Panics when a pose is not finite.
pub fn assert_finite(pose: &Pose, what: &str, t_secs: f64) {
    assert!(pose.pelvis_in_world.is_finite(), "{what}: pelvis {:?} at {t_secs} s", pose.pelvis_in_world);
    assert!(pose.local_rot.iter().all(|q| q.is_finite()), "{what}: a joint rotation is not finite at {t_secs} s");
}

/// Composes `doc` (at most four hours long), compiles the motion and samples every dancer at
/// [`SAMPLES`] instants from the start to the end (and just past it): every joint must be finite.
/// Scores longer than [`MAX_SAMPLED_SECS`] are only composed.
pub fn score_poses_are_finite(doc: &Document) {
    let score = Score::from_document(doc);
    let end_secs = score.duration_secs();
    assert!(end_secs.is_finite() && end_secs <= labanplay::score::bounds::MAX_SCORE_SECS, "{end_secs} s");
    if end_secs > MAX_SAMPLED_SECS {
        return;
    }
    let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
    let mut poses = Vec::new();
    for k in 0..=SAMPLES {
        let t_secs = end_secs * k as f64 / (SAMPLES - 1) as f64;
        anim.sample(t_secs, &mut poses);
        for pose in &poses {
            assert_finite(pose, "score", t_secs);
        }
    }
}
