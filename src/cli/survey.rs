//! `labanplay check --survey FILE.lw`: how a LabanWriter file's records look (histogram of
//! record heads and token counts), so a real file can be decoded quickly when one arrives.

use std::fmt::Write as _;
use std::path::PathBuf;

/// The survey text of each file, and whether all of them could be read.
pub fn run(paths: &[PathBuf]) -> (String, bool) {
    let mut out = String::new();
    let mut ok = true;
    for p in paths {
        let name = p.display().to_string();
        match std::fs::read(p) {
            Ok(bytes) => match crate::read::lw_survey::survey(&bytes) {
                Ok(s) => {
                    let _ = writeln!(out, "{name}:\n{s}");
                }
                Err(diags) => {
                    let _ = writeln!(out, "{}", diags.render(&name, Some(&bytes)));
                    ok = false;
                }
            },
            Err(e) => {
                let _ = writeln!(out, "{name}: error: cannot read file: {e}");
                ok = false;
            }
        }
    }
    (out, ok)
}
