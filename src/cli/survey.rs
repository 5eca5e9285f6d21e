//! `labanplay check --survey FILE.lw`: how a LabanWriter file's records look, to decode it quickly.

use std::path::PathBuf;
use std::process::ExitCode;

/// Prints the survey of each file; fails when one cannot be read.
pub fn run(paths: &[PathBuf]) -> Result<ExitCode, std::io::Error> {
    let mut ok = true;
    for p in paths {
        match std::fs::read(p) {
            Ok(_bytes) => println!("{}: survey not available yet", p.display()),
            Err(e) => {
                eprintln!("{}: error: cannot read file: {e}", p.display());
                ok = false;
            }
        }
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
