//! Groups, their performers, and the timeline of behaviour and command events of a plan.

use super::behaviour::GroupState;
use super::*;
use crate::body::models::DEFAULT_MODEL;
use crate::camera_view::CameraView;
use crate::score::bounds::MAX_SCORE_SECS;

impl Checker<'_> {
    pub(super) fn groups(&mut self, raw: &RawPlan, formations: &[Formation]) -> (Vec<Group>, Vec<Performer>) {
        let mut groups: Vec<Group> = Vec::new();
        let mut performers = Vec::new();
        for g in &raw.groups {
            let r = g.get_ref();
            if groups.iter().any(|o| o.name == *r.name.get_ref()) {
                self.error(&r.name, format!("a second group named `{}`", r.name.get_ref()));
                continue;
            }
            let Some(fi) = formations.iter().position(|f| f.name == *r.formation.get_ref()) else {
                self.error_help(
                    &r.formation,
                    format!("no formation named `{}`", r.formation.get_ref()),
                    known(formations.iter().map(|f| &f.name)),
                );
                continue;
            };
            let spots = &formations[fi].spots;
            if let Some(c) = &r.count
                && *c.get_ref() != spots.len() as i64
            {
                self.error(
                    c,
                    format!(
                        "the group has {} performers but formation `{}` has {} spots",
                        c.get_ref(),
                        formations[fi].name,
                        spots.len()
                    ),
                );
            }
            let score = r.score.as_ref().map(|s| self.base_dir.join(s.get_ref()));
            if let (Some(path), Some(s)) = (&score, &r.score)
                && let Err(e) = self.score(path)
            {
                self.error_help(s, format!("the score `{}` cannot be read", s.get_ref()), e.to_string());
            }
            let staff = match &r.staff {
                Some(s) if *s.get_ref() < 1 => {
                    self.error(s, "staves count from 1");
                    1
                }
                Some(s) => *s.get_ref() as usize,
                None => 1,
            };
            if let (Some(path), Some(s)) = (&score, &r.staff) {
                self.staff_in_score(path, s, staff);
            }
            let model = r.model.as_ref().map(|m| m.get_ref().clone()).unwrap_or_else(|| DEFAULT_MODEL.into());
            if let Some(m) = &r.model {
                let names: Vec<&str> = crate::body::models::builtin_models().iter().map(|s| s.name).collect();
                if !names.contains(&m.get_ref().as_str()) {
                    self.error_help(
                        m,
                        format!("unknown model `{}`", m.get_ref()),
                        format!("models: {}", names.join(", ")),
                    );
                }
            }
            let colour = match &r.colour {
                Some(c) => parse_colour(c.get_ref()).unwrap_or_else(|| {
                    self.error(c, format!("`{}` is not a colour; write `#rrggbb`", c.get_ref()));
                    [0.5; 3]
                }),
                None => default_colour(groups.len()),
            };
            let canon_beats = match &r.canon_beats {
                Some(c) if !(c.get_ref().is_finite() && *c.get_ref() >= 0.0) => {
                    self.error(c, "a canon offset is 0 or more beats");
                    0.0
                }
                Some(c) => *c.get_ref(),
                None => 0.0,
            };
            let first = performers.len();
            for (k, s) in spots.iter().enumerate() {
                performers.push(Performer { group: groups.len(), number: k + 1, start: *s });
            }
            groups.push(Group {
                name: r.name.get_ref().clone(),
                formation: fi,
                first,
                count: spots.len(),
                score,
                staff,
                model,
                colour,
                canon_beats,
                facing_deg: r.facing_deg.unwrap_or(0.0),
                span: self.span(g),
            });
        }
        (groups, performers)
    }

    pub(super) fn events(
        &mut self,
        raw: &RawPlan,
        clock: &Clock,
        formations: &[Formation],
        groups: &[Group],
    ) -> (Vec<Behaviour>, Vec<Command>) {
        let mut behaviours = Vec::new();
        let mut commands = Vec::new();
        let mut state: Vec<GroupState> =
            groups.iter().map(|g| GroupState { formation: Some(g.formation), busy_until_beats: 0.0 }).collect();
        let mut order: Vec<(f64, usize)> = Vec::new();
        let mut starts = Vec::new();
        let max_beats = clock.tempo.beats_from_secs(MAX_SCORE_SECS);
        for (k, e) in raw.events.iter().enumerate() {
            let start = match parse_measure_beat(e.get_ref().at.get_ref()) {
                Ok((m, b)) => clock.beats_at(m, b),
                Err(msg) => {
                    self.error(&e.get_ref().at, msg.to_string());
                    f64::NAN
                }
            };
            let end = start + e.get_ref().beats.as_ref().map_or(0.0, |b| *b.get_ref());
            if end > max_beats {
                let hours = MAX_SCORE_SECS / 3600.0;
                self.error(e, format!("the event ends {end} beats in, after the longest plan ({hours} hours)"));
                starts.push(f64::NAN);
                continue;
            }
            starts.push(start);
            if start.is_finite() {
                order.push((start, k));
            }
        }
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (start, k) in order {
            let e = &raw.events[k];
            let r = e.get_ref();
            let span = self.span(e);
            if r.group.is_none() {
                let mut any = false;
                for (value, make) in [
                    (&r.lights, CommandKind::Lights as fn(String) -> CommandKind),
                    (&r.music, CommandKind::Music),
                    (&r.camera, CommandKind::Camera),
                ] {
                    if let Some(v) = value {
                        any = true;
                        commands.push(Command { at_beats: start, kind: make(v.get_ref().clone()), span });
                    }
                }
                if let Some(c) = &r.camera
                    && CameraView::from_name(c.get_ref()).is_none()
                {
                    self.error_help(
                        c,
                        format!("unknown camera `{}`", c.get_ref()),
                        format!("cameras: {}", CameraView::ALL.map(CameraView::name).join(", ")),
                    );
                }
                if let Some(l) = &r.lights {
                    self.lights(l);
                }
                if let Some(m) = &r.music {
                    self.music(m);
                }
                if !any {
                    self.error_help(
                        e,
                        "an event needs `group` (a behaviour event) or `lights`, `music` or `camera` (a command event)",
                        "e.g. `[[event]]` `at = \"3:1\"` `group = \"a\"` `to = \"circle\"` `beats = 8`",
                    );
                }
                continue;
            }
            if let Some(b) = self.behaviour(e, start, formations, groups, &mut state) {
                behaviours.extend(b);
            }
        }
        (behaviours, commands)
    }

    /// `staff` names a staff the group's score has (an error listing the staves it has).
    fn staff_in_score(&mut self, path: &Path, at: &Spanned<i64>, staff: usize) {
        let Ok(score) = self.score(path) else { return };
        let count = score.staves.len();
        if staff <= count {
            return;
        }
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let has = match count {
            0 => "no staff".to_string(),
            1 => "one staff, staff 1".to_string(),
            n => format!("{n} staves, 1 to {n}"),
        };
        self.error_help(
            at,
            format!("the score `{file}` has no staff {staff}: it has {has}"),
            "staves count from 1, left to right",
        );
    }

    /// A `lights` value: a preset name or a `#rrggbb` colour.
    fn lights(&mut self, l: &Spanned<String>) {
        let value = l.get_ref();
        if parse_colour(value).is_some() {
            return;
        }
        if value.starts_with('#') {
            self.error_help(
                l,
                format!("`{value}` is not a colour"),
                "write `#rrggbb` (six hexadecimal digits) or a preset name",
            );
        } else if !LIGHT_PRESETS.contains(&value.trim().to_ascii_lowercase().as_str()) {
            self.error_help(
                l,
                format!("unknown lights preset `{value}`"),
                format!("presets: {}; or a colour `#rrggbb`", LIGHT_PRESETS.join(", ")),
            );
        }
    }

    /// A `music` cue: a file relative to the plan; one that is not there is a warning (the
    /// player shows the cue without sound).
    fn music(&mut self, m: &Spanned<String>) {
        let path = self.base_dir.join(m.get_ref());
        if !self.sources.is_file(&path) {
            let d = Diagnostic::warning(
                self.span(m),
                format!("music cue `{}`: no such file `{}`", m.get_ref(), path.display()),
            )
            .with_help("the cue plays without sound; name a WAV, FLAC, OGG or MP3 file relative to the plan");
            self.warnings.push(d);
        }
    }
}
