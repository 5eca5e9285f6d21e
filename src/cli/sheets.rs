//! `labanplay sheets PLAN.plan.toml -o DIR/`: the plan simulated, then one coordinate sheet per
//! performer written into `DIR` as CSV ([`crate::ensemble::sheets`]).

use crate::ensemble::sheets;
use std::path::Path;

/// Reads and simulates the plan at `path` and writes every performer's sheet into `out_dir`
/// (created when missing); returns the summary or an error text.
pub fn write_sheets(path: &Path, out_dir: &Path) -> Result<String, String> {
    let plan = crate::ensemble::read_plan_file(path, &mut crate::read::Files).map_err(|e| e.render())?.plan;
    let motion = crate::ensemble::simulate(&plan);
    let sets = sheets::sets(&motion);
    std::fs::create_dir_all(out_dir).map_err(|e| format!("error: cannot create `{}`: {e}", out_dir.display()))?;
    let names = sheets::file_names(&plan);
    let moves = sheets::moves_by_performer(&plan, &motion);
    for (i, (name, own)) in names.iter().zip(&moves).enumerate() {
        let text = sheets::csv(&plan, &sheets::sheet(&plan, &sets, i, own));
        let file = out_dir.join(name);
        std::fs::write(&file, text).map_err(|e| format!("error: cannot write `{}`: {e}", file.display()))?;
    }
    Ok(format!(
        "{}: {} coordinate sheets ({} sets each) written to {}\n",
        path.display(),
        names.len(),
        sets.len(),
        out_dir.display()
    ))
}
