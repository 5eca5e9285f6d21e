//! The ensemble plan's part of the controls panel: the plan's figures, the top view and how it
//! draws the paths, and who is selected.

use super::ui::{UiAction, UiOutput, UiState};
use crate::stage::camera_input::CameraView;

/// What the player shows of an open ensemble plan (filled in by the app each frame).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlanPanel {
    /// The plan's events as bars beside the staff.
    pub bars: Vec<crate::stage::plan_events::TimelineBar>,
    /// The beat of the shown score at the plan's beat (the staff scrolls in score beats).
    pub staff_t_beats: f64,
    /// The selected performer, described (none selected: the first group's score is shown).
    pub selected: Option<String>,
    /// The top view with paths, spots and conflicts.
    pub top_view: bool,
    /// How the top view draws the paths (chosen here, kept across frames).
    pub paths: crate::stage::plan_stage::PathsShown,
    /// Performers, conflicts found by `check`.
    pub performers: usize,
    /// Conflicts, late arrivals and long steps `check` found.
    pub problems: usize,
}

/// The plan's controls, when a plan is open: the top view and its paths, the selection.
pub(super) fn plan_controls(ui: &mut egui::Ui, state: &mut UiState, out: &mut UiOutput) {
    let Some(plan) = &mut state.plan else { return };
    ui.heading("Ensemble plan");
    ui.label(format!("{} performers · {} problems found by check", plan.performers, plan.problems));
    let top = ui
        .checkbox(&mut plan.top_view, "Top view: paths, spots, conflicts")
        .on_hover_text("From above, each performer's path through its next transition, its spot, and conflicts in red");
    if top.changed() {
        let view = if plan.top_view { CameraView::Top } else { CameraView::ThreeQuarter };
        state.camera_view = view;
        out.actions.push(UiAction::CameraView(view));
    }
    if plan.top_view {
        use crate::stage::plan_stage::PathsShown;
        ui.horizontal(|ui| {
            ui.label("Paths:");
            ui.radio_value(&mut plan.paths, PathsShown::All, "all");
            ui.radio_value(&mut plan.paths, PathsShown::Faded, "faded");
            ui.radio_value(&mut plan.paths, PathsShown::Hidden, "hidden");
        })
        .response
        .on_hover_text("A crowd's paths can hide its formation: fade or hide them; the spots stay");
    }
    match &plan.selected {
        Some(text) => {
            ui.label(format!("selected: {text}"));
            ui.label(
                egui::RichText::new("its score's staff is shown; Esc or a click on empty stage deselects").small(),
            );
        }
        None => {
            ui.label(egui::RichText::new("click a performer to select it").small());
        }
    }
    ui.separator();
}
