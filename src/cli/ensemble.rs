//! `labanplay check PLAN.plan.toml`: read an ensemble plan, simulate it and print every conflict,
//! late arrival and over-long step like a compiler error (file:line:col of the event, group,
//! performer, measure:beat), then a summary line.

use crate::diag::{Diagnostic, Span};
use crate::ensemble::conflicts::{self, Report};
use crate::ensemble::targets::OffFloorKind;
use crate::ensemble::{Motion, Plan};
use std::fmt::Write as _;
use std::path::Path;

/// True for files that `check` reads as ensemble plans (`*.plan.toml`, or any `.toml` given
/// explicitly, which the caller decides).
pub fn is_plan_name(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.to_ascii_lowercase().ends_with(".plan.toml"))
}

/// What checking one plan gave.
#[derive(Clone, Debug)]
pub struct PlanCheck {
    /// Everything to print.
    pub text: String,
    /// True when the plan could not be read or has a conflict, late arrival or long step.
    pub failed: bool,
    /// The findings (empty when the plan could not be read).
    pub report: Report,
}

/// Reads, simulates and checks `path`.
pub fn check_plan(path: &Path, show_warnings: bool) -> PlanCheck {
    let name = path.display().to_string();
    let crate::ensemble::PlanFile { plan, bytes } = match crate::ensemble::read_plan_file(path, &mut crate::read::Files)
    {
        Ok(ok) => ok,
        Err(error) => {
            return PlanCheck { text: format!("{}\n", error.render()), failed: true, report: Report::default() };
        }
    };
    let motion = crate::ensemble::simulate(&plan);
    let report = conflicts::check(&plan, &motion);
    let mut text = String::new();
    if show_warnings {
        for w in &plan.warnings {
            let _ = writeln!(text, "{}", w.render(&name, Some(&bytes)));
        }
    }
    for d in diagnostics(&plan, &motion, &report) {
        let _ = writeln!(text, "{}", d.render(&name, Some(&bytes)));
    }
    let _ = writeln!(
        text,
        "{name}: {} performers in {} groups, {} formations, {} behaviour events, {} commands, {} beats simulated: {} conflicts, {} late, {} steps too long, {} off the stage, {} crowded events",
        plan.performers.len(),
        plan.groups.len(),
        plan.formations.len(),
        plan.behaviours.len(),
        plan.commands.len(),
        motion.end_beats(),
        report.pairs.len() + report.obstacles.len(),
        report.late.len(),
        report.long_steps.len(),
        report.off_floor.len(),
        report.crowded.len()
    );
    PlanCheck { text, failed: !report.is_clean(), report }
}

/// `group` #number, as messages name a performer.
pub fn performer_name(plan: &Plan, i: usize) -> String {
    let p = &plan.performers[i];
    format!("`{}` #{}", plan.groups[p.group].name, p.number)
}

/// Where to point for something performer `i` did at `t_beats`: the behaviour event moving it
/// then (or the last one before), else its group.
fn span_for(plan: &Plan, motion: &Motion, i: usize, t_beats: f64) -> Span {
    let mut best: Option<&crate::ensemble::simulate::MoveRecord> = None;
    for m in motion.moves.iter().filter(|m| m.performer == i && m.start_beats <= t_beats + 1e-9) {
        best = Some(m);
    }
    match best {
        Some(m) => plan.behaviours[m.behaviour].span,
        None => plan.groups[plan.performers[i].group].span,
    }
}

/// The findings as diagnostics, in time order within each kind.
pub fn diagnostics(plan: &Plan, motion: &Motion, report: &Report) -> Vec<Diagnostic> {
    let clock = &plan.clock;
    let mut out = Vec::new();
    for c in &report.pairs {
        out.push(
            Diagnostic::error(
                span_for(plan, motion, c.a, c.at_beats),
                format!(
                    "conflict: {} and {} come {:.3} m apart at {} (their bodies need {:.2} m)",
                    performer_name(plan, c.a),
                    performer_name(plan, c.b),
                    c.distance_m,
                    clock.label(c.at_beats),
                    2.0 * plan.body.radius_m
                ),
            )
            .with_help("give the move more beats, another path (`via`), or spots further apart"),
        );
    }
    for c in &report.obstacles {
        let o = &plan.obstacles[c.obstacle];
        out.push(Diagnostic::error(
            span_for(plan, motion, c.performer, c.at_beats),
            format!(
                "conflict: {} walks into `{}` at {} ({:.3} m from it, the body needs {:.2} m)",
                performer_name(plan, c.performer),
                o.name,
                clock.label(c.at_beats),
                c.distance_m,
                plan.body.radius_m
            ),
        ));
    }
    for l in &report.late {
        let when = match l.arrived_beats {
            Some(a) => format!("arrives at {}", clock.label(a)),
            None => "never arrives".to_string(),
        };
        out.push(
            Diagnostic::error(
                plan.behaviours[l.behaviour].span,
                format!(
                    "late: {} is due at {} but {when} ({:.2} m short when due)",
                    performer_name(plan, l.performer),
                    clock.label(l.due_beats),
                    l.short_m
                ),
            )
            .with_help("give the move more beats, `gait = \"run\"`, or a nearer target"),
        );
    }
    out.extend(floor_diagnostics(plan, report));
    for s in &report.long_steps {
        out.push(Diagnostic::error(
            plan.behaviours[s.behaviour].span,
            format!(
                "step too long: {} steps {:.2} m at {} (the longest step at this tempo is {:.2} m)",
                performer_name(plan, s.performer),
                s.length_m,
                clock.label(s.at_beats),
                s.max_m
            ),
        ));
    }
    out
}

/// Spots and paths off the floor, and events whose spots crowd, as diagnostics at their events.
fn floor_diagnostics(plan: &Plan, report: &Report) -> Vec<Diagnostic> {
    let clock = &plan.clock;
    let floor = plan.floor();
    let mut out = Vec::new();
    for c in &report.crowded {
        let [a, b] = c.performers;
        out.push(
            Diagnostic::error(
                plan.behaviours[c.behaviour].span,
                format!(
                    "this event puts the spots of {} and {} {:.2} m apart, closer than two performers can stand ({:.2} m)",
                    performer_name(plan, a),
                    performer_name(plan, b),
                    c.distance_m,
                    2.0 * plan.body.radius_m
                ),
            )
            .with_help("a larger `scale`, or a formation with room for everyone"),
        );
    }
    for o in &report.off_floor {
        let what = match o.kind {
            OffFloorKind::Spot => "spot",
            OffFloorKind::Path => "path",
        };
        out.push(
            Diagnostic::error(
                plan.behaviours[o.behaviour].span,
                format!(
                    "off the stage: {}'s {what} reaches ({:.2}, {:.2}) at {}, {:.2} m outside the stage ({})",
                    performer_name(plan, o.performer),
                    o.point.x,
                    o.point.y,
                    clock.label(o.at_beats),
                    o.outside_m,
                    floor.describe()
                ),
            )
            .with_help("keep the move on the stage, or make `[stage]` larger (`wings_m` adds room at the sides)"),
        );
    }
    out
}
