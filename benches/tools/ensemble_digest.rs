//! A digest of simulated plans, for checking that a change leaves the ensemble motion alone: for
//! each plan file, simulated with steering and with ORCA, a hash of every performer's keys, of
//! the final places, of the moves and of the findings, the detour counts and the time taken.
//!
//! ```sh
//! cargo run --release --no-default-features --example ensemble_plan -- 10000 > /tmp/10k.plan.toml
//! cargo run --release --no-default-features --example ensemble_digest -- \
//!     scores/ensemble/*.plan.toml /tmp/10k.plan.toml > before.txt
//! ```
//!
//! The hashes are FNV-1a of the `Debug` text (every `f64` written exactly); lines are equal when
//! the motion is, but for the seconds at the end.

use labanplay::ensemble::plan::Avoidance;
use labanplay::ensemble::{read_plan_file, simulate};
use std::path::Path;

/// FNV-1a, 64 bits.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn main() {
    for arg in std::env::args().skip(1) {
        let mut plan = match read_plan_file(Path::new(&arg), &mut labanplay::read::Files) {
            Ok(file) => file.plan,
            Err(e) => {
                eprintln!("{arg}: the plan does not read:\n{}", e.diagnostics);
                std::process::exit(1);
            }
        };
        for (name, method) in [("steering", Avoidance::Steering), ("orca", Avoidance::Orca)] {
            plan.steering.method = method;
            let start = std::time::Instant::now();
            let m = simulate(&plan);
            let secs = start.elapsed().as_secs_f64();
            let keys: usize = m.tracks.iter().map(|t| t.keys().len()).sum();
            println!(
                "{arg} {name}: {} performers, {} steps, {keys} keys, tracks {:016x}, last {:016x}, moves {:016x}, \
                 findings {:016x}, detours {:?} ({secs:.2} s)",
                plan.performers.len(),
                m.steps,
                fnv1a(&format!("{:?}", m.tracks)),
                fnv1a(&format!("{:?}", m.last)),
                fnv1a(&format!("{:?}", m.moves)),
                fnv1a(&format!("{:?}", m.findings)),
                m.detours,
            );
        }
    }
}
