//! The player window's side of an open ensemble plan: the plan panel's contents each frame,
//! selecting a performer on the stage (its score on the staff), or a dancer of a score (its
//! staff marked), and the plan's command events.

use super::*;

impl Running {
    /// The plan's panel for this frame: its bars, the shown score's beat, who is selected.
    pub(super) fn fill_plan_panel(&mut self) {
        let (Some(plan), Some(panel)) = (&self.plan, &mut self.ui_state.plan) else { return };
        if panel.bars != plan.bars {
            panel.bars = plan.bars.clone();
        }
        let t_beats = self.player.playback.t_beats();
        panel.staff_t_beats = plan.score_beat_at(t_beats, self.player.duration_beats());
        panel.selected = plan.selected.map(|i| plan.describe(i));
        panel.top_view = self.ui_state.camera_view == CameraView::Top;
        panel.performers = plan.crowd.plan.performers.len();
        let r = &plan.report;
        panel.problems = r.count();
    }

    /// A click on the stage selects the performer under it (on empty stage: deselects); Esc
    /// deselects. The staff then shows the selected performer's score.
    pub(super) fn select_on_stage(&mut self, ui_output: &crate::viewer::ui::UiOutput) {
        let aspect = self.stage_size_px[0] as f32 / self.stage_size_px[1].max(1) as f32;
        let Some(plan) = &mut self.plan else { return };
        let before = plan.selected;
        // Test hook: LABANPLAY_SELECT=N selects performer N (from 1) on the first frame.
        if self.frames == 0
            && let Some(n) = self.options.select_performer
        {
            plan.selected = n.checked_sub(1).filter(|&i| i < plan.crowd.plan.performers.len());
        }
        if let Some(ndc) = ui_output.stage_click_ndc {
            plan.selected = plan.pick(&self.camera, aspect, glam::Vec2::from(ndc));
        }
        if ui_output.escape {
            plan.selected = None;
        }
        if plan.selected == before {
            return;
        }
        self.ui_state.status = Some(match plan.selected {
            Some(i) => format!("selected {}", plan.describe(i)),
            None => "nothing selected".to_owned(),
        });
        self.show_selected_score();
    }

    /// Without a plan, a click on a dancer selects it: its staff is marked and "follow" and
    /// "behind" follow it.
    pub(super) fn select_dancer_on_stage(&mut self, ui_output: &crate::viewer::ui::UiOutput) {
        let (None, Some(ndc)) = (&self.plan, ui_output.stage_click_ndc) else { return };
        let aspect = self.stage_size_px[0] as f32 / self.stage_size_px[1].max(1) as f32;
        if let Some(index) = self.player.dancer_at(&self.camera, aspect, glam::Vec2::from(ndc)) {
            self.player.select_dancer(index);
            self.ui_state.status = Some(format!("selected dancer {} (staff {})", index + 1, index + 1));
        }
    }

    /// Shows the score of the selected performer's group on the staff (the plan's time kept).
    pub(super) fn show_selected_score(&mut self) {
        let Some(plan) = &self.plan else { return };
        let Some(wanted) = plan.shown_score().map(Path::to_path_buf) else { return };
        if matches!(self.player.source(), ScoreSource::File(p) if *p == wanted) {
            return;
        }
        let opened = match plan.shown_opened() {
            Some((opened, _)) => Ok(opened),
            None => open_path(&wanted, &self.player.model().proportions),
        };
        match opened {
            Ok(opened) => {
                let (t_beats, playing) = (self.player.playback.t_beats(), self.player.playback.is_playing());
                self.rehearsal.store_score(&self.player);
                self.player.replace_opened(opened, ScoreSource::File(wanted));
                self.rehearsal.open_score(&mut self.player, &mut self.ui_state);
                set_plan_timeline(&mut self.player, plan);
                self.player.playback.seek(t_beats);
                if playing {
                    self.player.playback.play();
                }
            }
            Err(error) => self.ui_state.status = Some(error.to_string()),
        }
    }

    /// Carries out the plan's commands in force now: a camera cut moves the camera to its view
    /// (once, when it comes into force: the user may move the camera after it), a music cue
    /// starts its file with the cue's beat at the file's start.
    pub(super) fn carry_out_plan_commands(&mut self) {
        let Some(plan) = &self.plan else { return };
        let t_beats = self.player.playback.t_beats();
        let cut = crate::stage::plan_events::camera_at(&plan.crowd.plan, t_beats);
        let cue = crate::stage::plan_events::active_at(&plan.crowd.plan.commands, t_beats).music;
        let cue_file = cue.map(|k| {
            let command = &plan.crowd.plan.commands[k];
            let value = match &command.kind {
                crate::ensemble::plan::CommandKind::Music(v) => v.as_str(),
                _ => "",
            };
            (command.at_beats, crate::stage::plan_events::music_cue_path(&plan.path, value))
        });
        if cut.map(|(k, _)| k) != self.plan_cut {
            self.plan_cut = cut.map(|(k, _)| k);
            if let Some((_, view)) = cut {
                self.ui_state.camera_view = view;
                self.reframe();
            }
        }
        if cue != self.plan_cue {
            self.plan_cue = cue;
            match cue_file {
                Some((at_beats, Ok(path))) => {
                    self.rehearsal.open_music(&path, &self.player, &mut self.ui_state);
                    let offset_secs = -self.player.playback.timeline().secs_from_beats(at_beats);
                    self.rehearsal.align(offset_secs, None, &mut self.player);
                }
                Some((_, Err(error))) => self.ui_state.status = Some(error.to_string()),
                None => self.rehearsal.clear_music(),
            }
        }
    }
}
