//! Writing the player's settings back (model, camera, mirror, toggles, speed, loop, staff zoom)
//! when they change.

use super::*;

impl Running {
    /// Writes the settings when they changed (at most twice a second unless `force`).
    pub(super) fn save_settings(&mut self, force: bool) {
        let clock_secs = self.started.elapsed().as_secs_f64();
        let ui = &self.ui_state;
        let player = &self.player;
        let mesh = ui.model_index.checked_sub(self.models.len()).and_then(|i| self.mesh_models.get(i));
        let model = match mesh {
            // A mesh is remembered by its path and opened (from the rig cache) at the next start.
            Some((path, _)) => Some(path.to_string_lossy().into_owned()),
            None => self.models.get(ui.model_index).map(|m| m.name.to_owned()),
        };
        let metronome_on = self.metronome.enabled();
        self.rehearsal.save_settings(
            player,
            |settings| {
                settings.model = model;
                settings.camera = Some(ui.camera_view.name().to_owned());
                settings.mirror = ui.mirror;
                settings.toe_first = player.toe_first();
                let stage = player.stage_options;
                settings.toggles.footprints = Some(stage.footprints);
                settings.toggles.facing_arrows = Some(stage.facing_arrows);
                settings.toggles.trails = Some(stage.trails);
                settings.toggles.shadows = Some(stage.shadows);
                // Without a device the toggle is off by force; keep what the user chose.
                if ui.metronome_unavailable.is_none() {
                    settings.toggles.metronome = Some(metronome_on);
                }
                settings.toggles.music = Some(ui.music_on);
                settings.speed = Some(player.playback.speed());
                settings.looping = Some(player.playback.is_looping());
                settings.staff_px_per_beat = Some(ui.staff_px_per_beat);
            },
            clock_secs,
            force,
        );
    }
}
