//! `labanplay sheets PLAN.plan.toml -o DIR/`: the plan simulated, then one coordinate sheet per
//! performer written into `DIR` as CSV and as a printable SVG page ([`crate::ensemble::sheets`]).

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
        let rows = sheets::sheet(&plan, &sets, i, own);
        let file = out_dir.join(name);
        let page = file.with_extension("svg");
        let stem = name.trim_end_matches(".csv");
        for (path, text) in [(&file, sheets::csv(&plan, &rows)), (&page, sheets::page::svg(&plan, stem, &rows))] {
            std::fs::write(path, text).map_err(|e| format!("error: cannot write `{}`: {e}", path.display()))?;
        }
    }
    Ok(format!(
        "{}: {} coordinate sheets ({} sets each, CSV and a printable SVG page) written to {}\n",
        path.display(),
        names.len(),
        sets.len(),
        out_dir.display()
    ))
}
