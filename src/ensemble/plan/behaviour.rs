//! One behaviour event of a plan checked step by step: the groups it moves, its duration, where
//! the groups stand when it starts, its gait, path shape and target method, then its legs (a
//! serial composite `through` formations splits into one leg per formation).

use super::*;

/// Where a group stands while the events are checked in time order.
#[derive(Clone, Copy, Debug)]
pub(super) struct GroupState {
    /// The formation it stands in (`None` after `keep` or `merge`).
    pub formation: Option<usize>,
    /// Until when its last event moves it, beats.
    pub busy_until_beats: f64,
}

/// One leg of an event: how its targets are chosen and the formation it ends in (`None`:
/// the groups stand in no named formation after it).
struct LegTarget {
    method: Method,
    formation: Option<usize>,
}

/// What the checked steps of one behaviour event share.
struct EventContext<'e> {
    event: &'e Spanned<RawEvent>,
    formations: &'e [Formation],
    groups: &'e [Group],
    /// The groups moved, indices into `groups`.
    moved: Vec<usize>,
    /// How many performers they have together.
    count: usize,
}

impl Checker<'_> {
    /// The behaviour legs of event `e` starting at `start` beats, updating where its groups
    /// stand; `None` when the event has an error that leaves nothing to move.
    pub(super) fn behaviour(
        &mut self,
        e: &Spanned<RawEvent>,
        start: f64,
        formations: &[Formation],
        groups: &[Group],
        state: &mut [GroupState],
    ) -> Option<Vec<Behaviour>> {
        let r = e.get_ref();
        let span = self.span(e);
        let moved = self.moved_groups(r.group.as_ref()?, groups);
        if moved.is_empty() {
            return None;
        }
        if r.lights.is_some() || r.music.is_some() || r.camera.is_some() {
            self.error(
                e,
                "a behaviour event (with `group`) cannot also be a command; write the command as its own `[[event]]`",
            );
        }
        let beats = self.event_beats(e)?;
        let count: usize = moved.iter().map(|&i| groups[i].count).sum();
        let cx = EventContext { event: e, formations, groups, moved, count };
        self.check_standing(&cx, start, state);
        let method_name =
            r.method.as_ref().map(|m| m.get_ref().as_str()).unwrap_or(if r.to.is_some() { "shortest" } else { "keep" });
        if method_name == "hold" {
            return Some(self.hold(&cx, LegTiming { start_beats: start, beats }, state));
        }
        if let Some(f) = &r.facing_deg {
            self.error_help(f, "`facing_deg` turns the groups of a `hold` event", "write `method = \"hold\"`");
        }
        let gait = self.gait(r)?;
        let path = self.path_kind(e)?;
        let attract = r.attract.as_ref().map(|a| xy(a.get_ref()));
        if let (PathKind::Bezier(via), Some(at)) = (&path, &r.via) {
            self.points_on_floor(at, via, "`via` point");
        }
        if let (Some(p), Some(at)) = (attract, &r.attract) {
            self.points_on_floor(at, &[p], "the `attract` point");
        }
        let legs = match method_name {
            "shortest" | "order" => self.formation_legs(&cx, method_name)?,
            "keep" => vec![LegTarget { method: self.keep_method(&cx), formation: None }],
            "merge" => vec![LegTarget { method: self.merge_method(&cx)?, formation: None }],
            other => {
                self.error_help(
                    r.method.as_ref()?,
                    format!("unknown method `{other}`"),
                    "methods: shortest, order, keep, merge, hold",
                );
                return None;
            }
        };
        let timing = LegTiming { start_beats: start, beats };
        Some(split_legs(&cx.moved, legs, timing, &LegShape { path, attract, gait, span }, state))
    }

    /// The groups named by `group`, each once; unknown and repeated names are errors.
    fn moved_groups(&mut self, g: &Spanned<GroupNames>, groups: &[Group]) -> Vec<usize> {
        let mut moved = Vec::new();
        for name in g.get_ref().names() {
            match groups.iter().position(|x| x.name == name) {
                Some(i) if !moved.contains(&i) => moved.push(i),
                Some(_) => self.error(g, format!("group `{name}` is named twice")),
                None => self.error_help(g, format!("no group named `{name}`"), known(groups.iter().map(|x| &x.name))),
            }
        }
        moved
    }

    /// The event's duration (`beats`, positive).
    fn event_beats(&mut self, e: &Spanned<RawEvent>) -> Option<f64> {
        match &e.get_ref().beats {
            Some(b) if b.get_ref().is_finite() && *b.get_ref() > 0.0 => Some(*b.get_ref()),
            Some(b) => {
                self.error(b, "`beats` must be a positive number");
                None
            }
            None => {
                self.error(e, "a behaviour event needs `beats` (its duration)");
                None
            }
        }
    }

    /// The formation named `s`, or an error listing the known ones.
    fn find_formation(&mut self, formations: &[Formation], s: &Spanned<String>) -> Option<usize> {
        let f = formations.iter().position(|f| f.name == *s.get_ref());
        if f.is_none() {
            self.error_help(
                s,
                format!("no formation named `{}`", s.get_ref()),
                known(formations.iter().map(|f| &f.name)),
            );
        }
        f
    }

    /// The moved groups are free at `start` (their previous event is over) and stand in the
    /// event's `from` formation, when it names one.
    fn check_standing(&mut self, cx: &EventContext<'_>, start: f64, state: &[GroupState]) {
        let r = cx.event.get_ref();
        for &i in &cx.moved {
            if state[i].busy_until_beats > start + 1e-9 {
                self.error(
                    cx.event,
                    format!(
                        "group `{}` is still moving until beat {:.2} of the previous event",
                        cx.groups[i].name, state[i].busy_until_beats
                    ),
                );
            }
        }
        if let Some(from) = &r.from
            && let Some(fi) = self.find_formation(cx.formations, from)
        {
            for &i in &cx.moved {
                if state[i].formation != Some(fi) {
                    let now = state[i]
                        .formation
                        .map(|f| format!("`{}`", cx.formations[f].name))
                        .unwrap_or_else(|| "no named formation".into());
                    self.error(
                        from,
                        format!("group `{}` stands in {now} here, not in `{}`", cx.groups[i].name, from.get_ref()),
                    );
                }
            }
        }
    }

    /// `gait`: walk (the default) or run.
    fn gait(&mut self, r: &RawEvent) -> Option<Gait> {
        Some(match r.gait.as_ref().map(|g| g.get_ref().as_str()) {
            None | Some("walk") => Gait::Walk,
            Some("run") => Gait::Run,
            Some(other) => {
                self.error(r.gait.as_ref()?, format!("unknown gait `{other}`; use `walk` or `run`"));
                Gait::Walk
            }
        })
    }

    /// `path` and `via`: straight, or a Bézier curve through the control points.
    fn path_kind(&mut self, e: &Spanned<RawEvent>) -> Option<PathKind> {
        let r = e.get_ref();
        Some(match r.path.as_ref().map(|p| p.get_ref().as_str()) {
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
        })
    }

    /// `shortest` or `order`: one leg into each `through` formation, then into `to`; each must
    /// have a spot for every performer moved.
    fn formation_legs(&mut self, cx: &EventContext<'_>, method_name: &str) -> Option<Vec<LegTarget>> {
        let r = cx.event.get_ref();
        let Some(to) = &r.to else {
            self.error(cx.event, format!("method `{method_name}` needs `to` (the target formation)"));
            return None;
        };
        let through: Vec<Spanned<String>> = match &r.through {
            Some(t) => t.get_ref().iter().map(|n| Spanned::new(t.span(), n.clone())).collect(),
            None => Vec::new(),
        };
        let mut legs = Vec::new();
        for n in through.iter().chain(std::iter::once(to)) {
            let fi = self.find_formation(cx.formations, n)?;
            if !self.fits(cx, fi, n) {
                return None;
            }
            let m = if method_name == "order" { Method::Order(fi) } else { Method::Shortest(fi) };
            legs.push(LegTarget { method: m, formation: Some(fi) });
        }
        Some(legs)
    }

    /// True when formation `fi` has a spot for every performer moved (an error at `at` if not).
    fn fits(&mut self, cx: &EventContext<'_>, fi: usize, at: &Spanned<String>) -> bool {
        let spots = cx.formations[fi].spots.len();
        if spots != cx.count {
            self.error_help(
                at,
                format!("formation `{}` has {spots} spots for {} performers", cx.formations[fi].name, cx.count),
                "give the formation `count` equal to the performers it receives",
            );
            return false;
        }
        true
    }

    /// `hold`: the groups stay where they stand and dance, turned to `facing_deg` when given;
    /// anything that would move them is an error.
    fn hold(&mut self, cx: &EventContext<'_>, timing: LegTiming, state: &mut [GroupState]) -> Vec<Behaviour> {
        let (e, r) = (cx.event, cx.event.get_ref());
        let moving = [
            ("to", r.to.is_some()),
            ("through", r.through.is_some()),
            ("path", r.path.is_some()),
            ("via", r.via.is_some()),
            ("attract", r.attract.is_some()),
            ("reference", r.reference.is_some()),
            ("reference_row", r.reference_row.is_some()),
            ("scale", r.scale.is_some()),
            ("move", r.move_m.is_some()),
            ("merge_into", r.merge_into.is_some()),
            ("gait", r.gait.is_some()),
        ];
        for (key, _) in moving.iter().filter(|(_, given)| *given) {
            self.error_help(
                e,
                format!("a `hold` keeps the groups on their spots; `{key}` moves them"),
                "give a hold `beats` and, to turn the groups, `facing_deg`",
            );
        }
        let facing_deg = match &r.facing_deg {
            Some(f) if !f.get_ref().is_finite() || f.get_ref().abs() > 360.0 => {
                self.error(f, "`facing_deg` must be a number of degrees from -360 to 360");
                None
            }
            Some(f) => Some(*f.get_ref()),
            None => None,
        };
        let behaviour = Behaviour {
            groups: cx.moved.clone(),
            start_beats: timing.start_beats,
            duration_beats: timing.beats,
            method: Method::Hold { facing_deg },
            path: PathKind::Linear,
            attract: None,
            gait: Gait::Walk,
            span: self.span(e),
        };
        for &i in &cx.moved {
            state[i].busy_until_beats = timing.start_beats + timing.beats;
        }
        vec![behaviour]
    }

    /// `keep`: the groups scaled about a reference and moved as they stand.
    fn keep_method(&mut self, cx: &EventContext<'_>) -> Method {
        let (e, r, count) = (cx.event, cx.event.get_ref(), cx.count);
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
        Method::Keep { reference, scale, move_m }
    }

    /// `merge`: into the gaps of another group's line, which must have room for them.
    fn merge_method(&mut self, cx: &EventContext<'_>) -> Option<Method> {
        let (e, groups, count) = (cx.event, cx.groups, cx.count);
        let Some(other) = &e.get_ref().merge_into else {
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
        if cx.moved.contains(&oi) {
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
        Some(Method::Merge(oi))
    }
}

/// When an event runs.
#[derive(Clone, Copy, Debug)]
struct LegTiming {
    start_beats: f64,
    /// The whole event's duration, shared evenly by its legs.
    beats: f64,
}

/// What every leg of an event shares.
struct LegShape {
    path: PathKind,
    attract: Option<DVec2>,
    gait: Gait,
    span: Span,
}

/// The event's legs as behaviours sharing its duration
/// evenly, one after another; the moved groups end in the last leg's formation, busy until the
/// event ends.
fn split_legs(
    moved: &[usize],
    legs: Vec<LegTarget>,
    timing: LegTiming,
    shape: &LegShape,
    state: &mut [GroupState],
) -> Vec<Behaviour> {
    let leg_beats = timing.beats / legs.len() as f64;
    let mut out = Vec::new();
    for (k, LegTarget { method, formation }) in legs.into_iter().enumerate() {
        out.push(Behaviour {
            groups: moved.to_vec(),
            start_beats: timing.start_beats + k as f64 * leg_beats,
            duration_beats: leg_beats,
            method,
            path: shape.path.clone(),
            attract: shape.attract,
            gait: shape.gait,
            span: shape.span,
        });
        for &i in moved {
            state[i].formation = formation;
        }
    }
    for &i in moved {
        state[i].busy_until_beats = timing.start_beats + timing.beats;
    }
    out
}
