//! The built-in file browser's window: the folder, Up, the entries (a click opens a folder or
//! chooses a file), a typed path (or, to save, a name) with Enter, every file or only this
//! purpose's, Cancel.

use super::*;
use crate::stage::file_browser::{BrowseStep, FileBrowser};

/// Draws the browser in `state.browser`, when one is open; a chosen file becomes an action and
/// closes it.
pub(super) fn file_browser(ui: &mut egui::Ui, state: &mut UiState, out: &mut UiOutput) {
    let Some(browser) = &mut state.browser else { return };
    let mut step = None;
    let mut open = true;
    egui::Window::new(browser.purpose.title())
        .id(egui::Id::unique("file browser"))
        .open(&mut open)
        .collapsible(false)
        .default_size([520.0, 420.0])
        .default_pos(ui.ctx().content_rect().center() - egui::vec2(260.0, 210.0))
        .show(ui.ctx(), |ui| step = browser_body(ui, browser));
    match step {
        Some(BrowseStep::Chosen(path)) => {
            out.actions.push(UiAction::Browsed(browser.purpose, path));
            state.browser = None;
        }
        Some(BrowseStep::Entered | BrowseStep::Refused(_)) | None if !open => state.browser = None,
        _ => {}
    }
}

/// The window's contents; returns what the user did this frame.
fn browser_body(ui: &mut egui::Ui, browser: &mut FileBrowser) -> Option<BrowseStep> {
    let mut step = None;
    ui.horizontal(|ui| {
        if ui.button("Up").on_hover_text("The folder above").clicked() {
            step = Some(browser.up());
        }
        ui.label(browser.dir().display().to_string());
    });
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut browser.typed)
                .id(egui::Id::unique("file browser path"))
                .hint_text(if browser.purpose.saves() {
                    "type a name, Enter saves"
                } else {
                    "type a path, Enter opens it"
                })
                .desired_width(360.0),
        );
        if std::mem::take(&mut browser.focus_typed) {
            field.request_focus();
        }
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button(if browser.purpose.saves() { "Save" } else { "Open" }).clicked() || enter {
            step = Some(browser.activate_typed());
        }
    });
    if ui.checkbox(&mut browser.all_files, "show every file").changed() {
        browser.refresh();
    }
    if let Some(message) = &browser.message {
        ui.colored_label(egui::Color32::from_rgb(230, 120, 100), message);
    }
    ui.separator();
    let row_height = ui.text_style_height(&egui::TextStyle::Button) + 4.0;
    let count = browser.entries().len();
    egui::ScrollArea::vertical().auto_shrink([false, true]).max_height(300.0).show_rows(
        ui,
        row_height,
        count,
        |ui, rows| {
            for index in rows {
                let Some(entry) = browser.entries().get(index) else { continue };
                let label = if entry.is_dir { format!("{}/", entry.name) } else { entry.name.clone() };
                if ui.selectable_label(false, label).clicked() {
                    step = Some(browser.activate(index));
                }
            }
        },
    );
    if browser.more > 0 {
        ui.label(egui::RichText::new(format!("… and {} more (type a name)", browser.more)).small());
    }
    step
}
