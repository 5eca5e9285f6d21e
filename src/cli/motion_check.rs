//! `labanplay check --motion PATH…`: compute the motion of every score and list, per dancer with
//! measure:beat, each place where the engine had to compromise (see [`crate::motion_report`]).

use crate::animation::compile;
use crate::motion::rules::MotionOptions;
use crate::motion_report::{compromises, render};
use crate::pose::skeleton::Proportions;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The motion report of every score under `paths` (folders walked as by `check`), and whether
/// every file could be read. Ensemble plans are left to the plain `check` (their conflicts).
pub fn check_motion(paths: &[PathBuf]) -> (String, bool) {
    let mut text = String::new();
    let mut ok = true;
    let scores = super::check::collect_files(paths).into_iter().filter(|p| !super::ensemble::is_plan_name(p));
    for path in scores {
        let name = path.display().to_string();
        match crate::read::load(&path) {
            Ok(loaded) => {
                let score = crate::score::Score::from_document(&loaded.document);
                let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
                text.push_str(&render(&name, &score, &compromises(&anim)));
            }
            Err(error) => {
                ok = false;
                let _ = writeln!(text, "{}", error.render().trim_end());
            }
        }
    }
    (text, ok)
}
