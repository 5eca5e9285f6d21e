//! Coordinate sheets, the page a drill designer hands each performer: its spot at every set, in
//! metres from the stage centre (x across as in the plan, 0 centre stage; y from the line midway
//! between the front edge and the back, + upstage), and the counts (beats) to move there.
//!
//! Set 1 is the opening: every performer on its group's first formation. Each later set starts
//! where behaviour events start (events starting on the same beat share a set); a performer that
//! no event of a set moves holds its spot for 0 counts. Spots are the planned ones (each move's
//! target), not where the simulation's avoidance happened to leave a performer. Each spot's x
//! is also given from the nearest whole-metre mark along the front edge ([`page::front_mark`]),
//! and [`page`] draws the sheet as a printable page.

pub mod page;

use super::plan::{Method, Plan};
use super::simulate::{Motion, MoveRecord};
use glam::DVec2;
use std::fmt::Write as _;

/// A set: where it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Set {
    /// 1-based set number.
    pub number: usize,
    /// When its moves start, beats.
    pub start_beats: f64,
}

/// One line of a performer's sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetRow {
    /// The set.
    pub set: Set,
    /// Counts (beats) to move into the set's spot; 0 when the performer holds.
    pub counts: f64,
    /// The formation the set's move goes to (`keep` or `merge` for those methods); empty for the
    /// opening and for a hold.
    pub formation: String,
    /// The spot in stage metres (the plan's coordinates).
    pub spot: DVec2,
}

/// The sets of a motion: the opening, then one per distinct start of a move.
pub fn sets(motion: &Motion) -> Vec<Set> {
    let mut starts: Vec<f64> = motion.moves.iter().map(|m| m.start_beats).collect();
    starts.sort_by(f64::total_cmp);
    starts.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    let mut out = vec![Set { number: 1, start_beats: 0.0 }];
    out.extend(starts.into_iter().enumerate().map(|(k, start_beats)| Set { number: k + 2, start_beats }));
    out
}

/// Each performer's moves, in the order of `motion.moves` (by start).
pub fn moves_by_performer(plan: &Plan, motion: &Motion) -> Vec<Vec<MoveRecord>> {
    let mut out = vec![Vec::new(); plan.performers.len()];
    for m in &motion.moves {
        if let Some(list) = out.get_mut(m.performer) {
            list.push(m.clone());
        }
    }
    out
}

/// Performer `i`'s sheet from its `moves` ([`moves_by_performer`]): one row per set.
pub fn sheet(plan: &Plan, sets: &[Set], i: usize, moves: &[MoveRecord]) -> Vec<SheetRow> {
    let mut spot = plan.performers[i].start;
    let mut rows = vec![SheetRow { set: sets[0], counts: 0.0, formation: String::new(), spot }];
    for set in &sets[1..] {
        let here = moves.iter().find(|m| (m.start_beats - set.start_beats).abs() < 1e-9);
        let (counts, formation) = match here {
            Some(m) => {
                spot = m.target;
                let formation = match plan.behaviours[m.behaviour].method {
                    Method::Shortest(f) | Method::Order(f) => plan.formations[f].name.clone(),
                    Method::Keep { .. } => "keep".into(),
                    Method::Merge(_) => "merge".into(),
                    Method::Hold { .. } => "hold".into(),
                };
                (m.due_beats - m.start_beats, formation)
            }
            None => (0.0, String::new()),
        };
        rows.push(SheetRow { set: *set, counts, formation, spot });
    }
    rows
}

/// The spot `p` in metres from the stage's centre (x as the plan's, y from the middle line).
pub fn from_centre(plan: &Plan, p: DVec2) -> DVec2 {
    DVec2::new(p.x, p.y - 0.5 * plan.stage_m.y)
}

/// Performer `i`'s sheet as CSV: `set,start,counts,formation,x_m,y_m,mark_m,from_mark_m`
/// (start as measure:beat, metres from the stage centre to the hundredth, and x as the nearest
/// whole-metre front-edge mark plus the offset from it).
pub fn csv(plan: &Plan, rows: &[SheetRow]) -> String {
    let mut out = String::from("set,start,counts,formation,x_m,y_m,mark_m,from_mark_m\n");
    for r in rows {
        let p = from_centre(plan, r.spot);
        let (mark, off) = page::front_mark(p.x);
        let _ = writeln!(
            out,
            "{},{},{},{},{:.2},{:.2},{mark:.0},{off:.2}",
            r.set.number,
            plan.clock.label(r.set.start_beats),
            (r.counts * 100.0).round() / 100.0,
            csv_field(&r.formation),
            p.x,
            p.y
        );
    }
    out
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.into() }
}

/// Each performer's sheet file name, `GROUP-NUMBER.csv` (the number zero-padded to the group's
/// size; characters other than letters, digits, `-` and `_` become `_`; a group whose name
/// comes out like an earlier one's gets its 1-based index added).
pub fn file_names(plan: &Plan) -> Vec<String> {
    let mut stems: Vec<String> = Vec::new();
    for (k, g) in plan.groups.iter().enumerate() {
        let mut stem: String =
            g.name.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
        if stems.contains(&stem) {
            stem = format!("{stem}-{}", k + 1);
        }
        stems.push(stem);
    }
    plan.performers
        .iter()
        .map(|p| {
            let width = plan.groups[p.group].count.to_string().len();
            format!("{}-{:0width$}.csv", stems[p.group], p.number)
        })
        .collect()
}
