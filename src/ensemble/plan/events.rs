//! Groups, their performers, and the timeline of behaviour and command events of a plan.

use super::*;

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
                && let Err(text) = crate::cli::load_score(path)
            {
                self.error_help(
                    s,
                    format!("the score `{}` cannot be read", s.get_ref()),
                    text.lines().next().unwrap_or("").to_string(),
                );
            }
            let staff = match &r.staff {
                Some(s) if *s.get_ref() < 1 => {
                    self.error(s, "staves count from 1");
                    1
                }
                Some(s) => *s.get_ref() as usize,
                None => 1,
            };
            let model = r.model.as_ref().map(|m| m.get_ref().clone()).unwrap_or_else(|| "woman-modern".into());
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
        // Where each group stands (formation index, None after keep/merge) and until when it is busy.
        let mut state: Vec<(Option<usize>, f64)> = groups.iter().map(|g| (Some(g.formation), 0.0)).collect();
        let mut order: Vec<(f64, usize)> = Vec::new();
        let mut starts = Vec::new();
        for (k, e) in raw.events.iter().enumerate() {
            let start = match parse_measure_beat(e.get_ref().at.get_ref()) {
                Ok((m, b)) => clock.beats_at(m, b),
                Err(msg) => {
                    self.error(&e.get_ref().at, msg);
                    f64::NAN
                }
            };
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
                    && !CAMERAS.contains(&c.get_ref().as_str())
                {
                    self.error_help(
                        c,
                        format!("unknown camera `{}`", c.get_ref()),
                        format!("cameras: {}", CAMERAS.join(", ")),
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
            let _ = r;
        }
        (behaviours, commands)
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
        if !path.is_file() {
            let d = Diagnostic::warning(
                self.span(m),
                format!("music cue `{}`: no such file `{}`", m.get_ref(), path.display()),
            )
            .with_help("the cue plays without sound; name a WAV, FLAC, OGG or MP3 file relative to the plan");
            self.warnings.push(d);
        }
    }

    fn behaviour(
        &mut self,
        e: &Spanned<RawEvent>,
        start: f64,
        formations: &[Formation],
        groups: &[Group],
        state: &mut [(Option<usize>, f64)],
    ) -> Option<Vec<Behaviour>> {
        let r = e.get_ref();
        let span = self.span(e);
        let g = r.group.as_ref()?;
        let mut gi = Vec::new();
        for name in g.get_ref().names() {
            match groups.iter().position(|x| x.name == name) {
                Some(i) if !gi.contains(&i) => gi.push(i),
                Some(_) => self.error(g, format!("group `{name}` is named twice")),
                None => self.error_help(g, format!("no group named `{name}`"), known(groups.iter().map(|x| &x.name))),
            }
        }
        if gi.is_empty() {
            return None;
        }
        if r.lights.is_some() || r.music.is_some() || r.camera.is_some() {
            self.error(
                e,
                "a behaviour event (with `group`) cannot also be a command; write the command as its own `[[event]]`",
            );
        }
        let beats = match &r.beats {
            Some(b) if b.get_ref().is_finite() && *b.get_ref() > 0.0 => *b.get_ref(),
            Some(b) => {
                self.error(b, "`beats` must be a positive number");
                return None;
            }
            None => {
                self.error(e, "a behaviour event needs `beats` (its duration)");
                return None;
            }
        };
        let find = |cx: &mut Self, s: &Spanned<String>| -> Option<usize> {
            let f = formations.iter().position(|f| f.name == *s.get_ref());
            if f.is_none() {
                cx.error_help(
                    s,
                    format!("no formation named `{}`", s.get_ref()),
                    known(formations.iter().map(|f| &f.name)),
                );
            }
            f
        };
        for &i in &gi {
            if state[i].1 > start + 1e-9 {
                self.error(
                    e,
                    format!(
                        "group `{}` is still moving until beat {:.2} of the previous event",
                        groups[i].name, state[i].1
                    ),
                );
            }
        }
        if let Some(from) = &r.from
            && let Some(fi) = find(self, from)
        {
            for &i in &gi {
                if state[i].0 != Some(fi) {
                    let now = state[i]
                        .0
                        .map(|f| format!("`{}`", formations[f].name))
                        .unwrap_or_else(|| "no named formation".into());
                    self.error(
                        from,
                        format!("group `{}` stands in {now} here, not in `{}`", groups[i].name, from.get_ref()),
                    );
                }
            }
        }
        let count: usize = gi.iter().map(|&i| groups[i].count).sum();
        let method_name =
            r.method.as_ref().map(|m| m.get_ref().as_str()).unwrap_or(if r.to.is_some() { "shortest" } else { "keep" });
        let gait = match r.gait.as_ref().map(|g| g.get_ref().as_str()) {
            None | Some("walk") => Gait::Walk,
            Some("run") => Gait::Run,
            Some(other) => {
                self.error(r.gait.as_ref()?, format!("unknown gait `{other}`; use `walk` or `run`"));
                Gait::Walk
            }
        };
        let path = match r.path.as_ref().map(|p| p.get_ref().as_str()) {
            None if r.via.is_some() => PathKind::Bezier(r.via.as_ref()?.get_ref().iter().map(xy).collect()),
            None | Some("linear") => {
                if let Some(v) = &r.via {
                    self.error(v, "`via` control points need `path = \"bezier\"`");
                }
                PathKind::Linear
            }
            Some("bezier") => match &r.via {
                Some(v) if !v.get_ref().is_empty() => PathKind::Bezier(v.get_ref().iter().map(xy).collect()),
                _ => {
                    self.error(e, "a Bézier path needs `via = [[x, y], …]` control points");
                    PathKind::Linear
                }
            },
            Some(other) => {
                self.error(r.path.as_ref()?, format!("unknown path `{other}`; use `linear` or `bezier`"));
                PathKind::Linear
            }
        };
        let attract = r.attract.as_ref().map(|a| xy(a.get_ref()));
        let mut legs: Vec<(Method, Option<usize>)> = Vec::new();
        let into = |cx: &mut Self, fi: usize, at: &Spanned<String>| -> bool {
            if formations[fi].spots.len() != count {
                cx.error_help(
                    at,
                    format!(
                        "formation `{}` has {} spots for {count} performers",
                        formations[fi].name,
                        formations[fi].spots.len()
                    ),
                    "give the formation `count` equal to the performers it receives",
                );
                return false;
            }
            true
        };
        match method_name {
            "shortest" | "order" => {
                let Some(to) = &r.to else {
                    self.error(e, format!("method `{method_name}` needs `to` (the target formation)"));
                    return None;
                };
                let mut names: Vec<&Spanned<String>> = Vec::new();
                let through: Vec<Spanned<String>> = match &r.through {
                    Some(t) => t.get_ref().iter().map(|n| Spanned::new(t.span(), n.clone())).collect(),
                    None => Vec::new(),
                };
                names.extend(through.iter());
                names.push(to);
                for n in names {
                    let fi = find(self, n)?;
                    if !into(self, fi, n) {
                        return None;
                    }
                    let m = if method_name == "order" { Method::Order(fi) } else { Method::Shortest(fi) };
                    legs.push((m, Some(fi)));
                }
            }
            "keep" => {
                if r.to.is_some() {
                    self.error(e, "`keep` moves the group as it stands; give `scale` and/or `move`, not `to`");
                }
                let reference = match (&r.reference, &r.reference_row) {
                    (Some(_), Some(_)) => {
                        self.error(e, "give `reference` or `reference_row`, not both");
                        Reference::Centre
                    }
                    (Some(p), None) if *p.get_ref() < 1 || *p.get_ref() as usize > count => {
                        self.error(p, format!("the reference performer must be 1 to {count}"));
                        Reference::Centre
                    }
                    (Some(p), None) => Reference::Performer(*p.get_ref() as usize - 1),
                    (None, Some(row)) if *row.get_ref() < 1 => {
                        self.error(row, "rows count from 1 (the front row)");
                        Reference::Centre
                    }
                    (None, Some(row)) => Reference::Row(*row.get_ref() as usize - 1),
                    (None, None) => Reference::Centre,
                };
                let scale = match &r.scale {
                    Some(s) if !(s.get_ref().is_finite() && *s.get_ref() > 0.0) => {
                        self.error(s, "`scale` must be positive");
                        1.0
                    }
                    Some(s) => *s.get_ref(),
                    None => 1.0,
                };
                let move_m = r.move_m.as_ref().map(|m| xy(m.get_ref())).unwrap_or(DVec2::ZERO);
                legs.push((Method::Keep { reference, scale, move_m }, None));
            }
            "merge" => {
                let Some(other) = &r.merge_into else {
                    self.error(e, "method `merge` needs `merge_into` (the group whose line this one joins)");
                    return None;
                };
                let Some(oi) = groups.iter().position(|x| x.name == *other.get_ref()) else {
                    self.error_help(
                        other,
                        format!("no group named `{}`", other.get_ref()),
                        known(groups.iter().map(|x| &x.name)),
                    );
                    return None;
                };
                if gi.contains(&oi) {
                    self.error(other, "a group cannot merge into itself");
                    return None;
                }
                if count > groups[oi].count + 1 {
                    self.error(
                        other,
                        format!(
                            "{count} performers cannot fill the {} gaps of `{}`'s line",
                            groups[oi].count + 1,
                            groups[oi].name
                        ),
                    );
                    return None;
                }
                legs.push((Method::Merge(oi), None));
            }
            other => {
                self.error_help(
                    r.method.as_ref()?,
                    format!("unknown method `{other}`"),
                    "methods: shortest, order, keep, merge",
                );
                return None;
            }
        }
        let leg_beats = beats / legs.len() as f64;
        let mut out = Vec::new();
        for (k, (method, fi)) in legs.into_iter().enumerate() {
            out.push(Behaviour {
                groups: gi.clone(),
                start_beats: start + k as f64 * leg_beats,
                duration_beats: leg_beats,
                method,
                path: path.clone(),
                attract,
                gait,
                span,
            });
            for &i in &gi {
                state[i].0 = fi;
            }
        }
        for &i in &gi {
            state[i].1 = start + beats;
        }
        Some(out)
    }
}
