//! Fuzz target: ensemble plan (`*.plan.toml`) bytes through reading and, for small plans (at most
//! 24 performers, 64 beats), the simulation; every position finite.
#![no_main]

use labanplay::read::Sources;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// Every score a plan names is the bundled duet; pictures and other files are missing.
struct OneScore;

impl Sources for OneScore {
    fn bytes(&mut self, path: &Path) -> std::io::Result<Vec<u8>> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("lbn") => Ok(include_bytes!("../../../scores/duet.lbn").to_vec()),
            _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "not in the fuzz sources")),
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "lbn")
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(plan) = labanplay::ensemble::plan::read_plan(data, Path::new("."), &mut OneScore) else { return };
    let end_beats = plan.behaviours.iter().map(|b| b.end_beats()).fold(0.0, f64::max);
    if plan.performers.len() > 24 || !(end_beats <= 64.0) {
        return;
    }
    let motion = labanplay::ensemble::simulate::simulate(&plan);
    let end = motion.end_beats();
    for i in 0..plan.performers.len() {
        for k in 0..=8 {
            let t_beats = end * k as f64 / 8.0;
            assert!(motion.position_at(i, t_beats).is_finite(), "performer {i} at beat {t_beats}");
        }
    }
});
