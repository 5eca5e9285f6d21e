//! The player's music panel: the music file, its offset, tap-to-align and the tempo.

use super::*;

pub(super) fn music_panel(ui: &mut egui::Ui, state: &mut UiState, out: &mut UiOutput) {
    egui::CollapsingHeader::new("Music").default_open(true).show(ui, |ui| {
        let music = &state.music;
        match &music.file_label {
            Some(label) => {
                let length = music.duration_secs.map(|d| format!(" ({d:.1} s)")).unwrap_or_default();
                ui.label(format!("{label}{length}"));
            }
            None => {
                ui.label("No music track (WAV, FLAC, OGG, MP3).");
            }
        }
        if let Some(note) = &music.source_note {
            ui.label(egui::RichText::new(note).small());
        }
        ui.horizontal(|ui| {
            if ui.button("Open music…").clicked() {
                out.actions.push(UiAction::OpenMusicDialog);
            }
            if music.file_label.is_some() && ui.button("Remove").clicked() {
                out.actions.push(UiAction::ClearMusic);
            }
        });
        ui.horizontal(|ui| {
            let field = ui.add(
                egui::TextEdit::singleline(&mut state.music_path_text)
                    .hint_text("music file path")
                    .desired_width(150.0),
            );
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("Load").clicked() || enter) && !state.music_path_text.trim().is_empty() {
                out.actions.push(UiAction::OpenMusic(PathBuf::from(state.music_path_text.trim())));
            }
        });
        let available = state.music_unavailable.is_none();
        // Without a device the box shows what is heard: nothing.
        let mut music_on = state.music_on && available;
        let mut response = ui.add_enabled(available, egui::Checkbox::new(&mut music_on, "Play the music"));
        if let Some(reason) = &state.music_unavailable {
            response = response.on_disabled_hover_text(reason.as_str());
            ui.label(egui::RichText::new(format!("silent: {reason}")).small());
        }
        if response.changed() {
            state.music_on = music_on;
            out.actions.push(UiAction::Music(music_on));
        }
        let music = &state.music;
        let mut offset = music.offset_secs;
        let mut override_on = music.bpm_override.is_some();
        let mut bpm = music.bpm_override.unwrap_or(music.score_bpm);
        if !(20.0..=400.0).contains(&bpm) {
            bpm = 120.0;
        }
        let mut changed = false;
        ui.horizontal(|ui| {
            ui.label("beat 0 at");
            changed |= ui.add(egui::DragValue::new(&mut offset).speed(0.005).suffix(" s").fixed_decimals(3)).changed();
        });
        ui.horizontal(|ui| {
            changed |= ui.checkbox(&mut override_on, "tempo").changed();
            let drag = egui::DragValue::new(&mut bpm).speed(0.1).range(20.0..=400.0).suffix(" bpm").fixed_decimals(1);
            changed |= ui.add_enabled(override_on, drag).changed();
            if !override_on {
                ui.label(egui::RichText::new("(the score's)").small());
            }
        });
        let bpm_now = override_on.then_some(bpm);
        if changed && (offset != music.offset_secs || bpm_now != music.bpm_override) {
            out.actions.push(UiAction::Align { offset_secs: offset, bpm: bpm_now });
        }
        ui.separator();
        ui.label("Tap the beats (T) with the music:");
        ui.horizontal(|ui| {
            if ui.button("Tap").on_hover_text("Tap on every beat, a few times (T)").clicked() {
                out.actions.push(UiAction::Tap);
            }
            ui.label("first tap = measure");
            ui.add(egui::DragValue::new(&mut state.music.first_tap_measure).range(0..=9999));
        });
        let music = &state.music;
        match &music.tap_fit {
            None if music.taps > 0 => {
                ui.label(format!("{} tap(s)…", music.taps));
            }
            None => {}
            Some(Ok(fit)) => {
                ui.label(format!(
                    "{} taps: {:.1} bpm, beat 0 at {:.3} s (±{:.0} ms)",
                    fit.taps, fit.alignment.bpm, fit.alignment.offset_secs, fit.spread_ms
                ));
                ui.horizontal(|ui| {
                    if ui
                        .button("Apply")
                        .on_hover_text("Use this tempo and offset; the metronome clicks with the music")
                        .clicked()
                    {
                        out.actions.push(UiAction::ApplyTaps);
                    }
                    if ui.button("Clear").clicked() {
                        out.actions.push(UiAction::ClearTaps);
                    }
                });
            }
            Some(Err(error)) => {
                ui.colored_label(egui::Color32::from_rgb(230, 150, 30), error.to_string());
                if ui.button("Clear").clicked() {
                    out.actions.push(UiAction::ClearTaps);
                }
            }
        }
        if music.can_save_sidecar
            && music.file_label.is_some()
            && ui
                .button("Save beside the score")
                .on_hover_text("Write NAME.music.json next to the score (labanplay render reads it)")
                .clicked()
        {
            out.actions.push(UiAction::SaveSidecar);
        }
    });
}
