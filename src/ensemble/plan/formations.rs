//! Formations of a plan: basic shapes or a picture's lattice, checked for spacing and set pieces.

use super::*;

impl Checker<'_> {
    pub(super) fn formations(&mut self, raw: &RawPlan, body: Body) -> Vec<Formation> {
        let mut out: Vec<Formation> = Vec::new();
        for f in &raw.formations {
            let r = f.get_ref();
            if out.iter().any(|o| o.name == *r.name.get_ref()) {
                self.error(&r.name, format!("a second formation named `{}`", r.name.get_ref()));
                continue;
            }
            let Some(mut spots) = self.formation_spots(f) else { continue };
            if let Some(far) = spots.iter().find(|p| !(p.abs().max_element() <= MAX_EXTENT_M)) {
                self.error(
                    f,
                    format!(
                        "formation `{}` puts a spot at ({}, {}), more than {MAX_EXTENT_M} m from the stage",
                        r.name.get_ref(),
                        far.x,
                        far.y
                    ),
                );
                continue;
            }
            spots.sort_by(|a, b| {
                let key = |p: &DVec2| ((p.y * 1000.0).round() as i64, (p.x * 1000.0).round() as i64);
                key(a).cmp(&key(b))
            });
            let min = shapes::min_spacing(&spots);
            if spots.len() > 1 && min < 2.0 * body.radius_m {
                self.error_help(
                    f,
                    format!(
                        "formation `{}` puts spots {:.2} m apart, closer than two performers can stand ({:.2} m)",
                        r.name.get_ref(),
                        min,
                        2.0 * body.radius_m
                    ),
                    "make it larger, or give it fewer spots",
                );
            }
            out.push(Formation { name: r.name.get_ref().clone(), spots, span: self.span(f) });
        }
        out
    }

    fn count(&mut self, f: &RawFormation) -> Option<usize> {
        let c = f.count.as_ref()?;
        if (1..=100_000).contains(c.get_ref()) {
            Some(*c.get_ref() as usize)
        } else {
            self.error(c, "a count must be between 1 and 100000");
            None
        }
    }

    fn need<'b, T>(
        &mut self,
        f: &Spanned<RawFormation>,
        v: &'b Option<Spanned<T>>,
        key: &str,
        shape: &str,
    ) -> Option<&'b T> {
        match v {
            Some(s) => Some(s.get_ref()),
            None => {
                self.error(f, format!("a {shape} formation needs `{key}`"));
                None
            }
        }
    }

    fn formation_spots(&mut self, f: &Spanned<RawFormation>) -> Option<Vec<DVec2>> {
        let r = f.get_ref();
        let rot = r.rotate_deg.unwrap_or(0.0).to_radians();
        if let Some(pic) = &r.picture {
            if r.shape.is_some() {
                self.error(f, "a formation is either a `picture` or a `shape`, not both");
                return None;
            }
            return self.picture_spots(f, pic);
        }
        let Some(shape) = &r.shape else {
            self.error_help(f, "a formation needs a `picture` or a `shape`", "shapes: line, block, circle, arc, wedge");
            return None;
        };
        let count = self.count(r);
        let spots = match shape.get_ref().as_str() {
            "line" => {
                let from = *self.need(f, &r.from, "from", "line")?;
                let to = *self.need(f, &r.to, "to", "line")?;
                shapes::line(xy(&from), xy(&to), self.need_count(f, count)?)
            }
            "block" => {
                let centre = xy(self.need(f, &r.centre, "centre", "block")?);
                match (&r.rows, &r.columns, &r.spacing_m) {
                    (Some(rows), Some(cols), Some(sp)) => {
                        let (rows, cols) = (*rows.get_ref(), *cols.get_ref());
                        if !(1..=1000).contains(&rows) || !(1..=1000).contains(&cols) {
                            self.error(f, "rows and columns must be between 1 and 1000");
                            return None;
                        }
                        let sp = self.positive(&Some(sp.clone()), 1.0, "the spacing");
                        shapes::block(centre, rows as usize, cols as usize, sp, rot)
                    }
                    _ => {
                        let size =
                            xy(self.need(f, &r.size_m, "size_m` (or `rows`, `columns` and `spacing_m", "block")?);
                        shapes::block_count(centre, size, self.need_count(f, count)?, rot)
                    }
                }
            }
            "circle" => {
                let centre = xy(self.need(f, &r.centre, "centre", "circle")?);
                let radius = self.positive(&r.radius_m, 1.0, "the radius");
                shapes::circle(centre, radius, self.need_count(f, count)?)
            }
            "arc" => {
                let centre = xy(self.need(f, &r.centre, "centre", "arc")?);
                let radius = self.positive(&r.radius_m, 1.0, "the radius");
                let from = *self.need(f, &r.from_deg, "from_deg", "arc")?;
                let to = *self.need(f, &r.to_deg, "to_deg", "arc")?;
                shapes::arc(centre, radius, from.to_radians(), to.to_radians(), self.need_count(f, count)?)
            }
            "wedge" => {
                let apex = xy(self.need(f, &r.apex, "apex", "wedge")?);
                let sp = self.positive(&r.spacing_m, 1.0, "the spacing");
                shapes::wedge(apex, sp, self.need_count(f, count)?, rot)
            }
            other => {
                self.error_help(shape, format!("unknown shape `{other}`"), "shapes: line, block, circle, arc, wedge");
                return None;
            }
        };
        Some(spots)
    }

    fn need_count(&mut self, f: &Spanned<RawFormation>, count: Option<usize>) -> Option<usize> {
        if count.is_none() && f.get_ref().count.is_none() {
            self.error(f, "this formation needs `count`");
        }
        count
    }

    fn picture_spots(&mut self, f: &Spanned<RawFormation>, pic: &Spanned<String>) -> Option<Vec<DVec2>> {
        let r = f.get_ref();
        let threshold = match &r.threshold {
            Some(t) if !(0..=256).contains(t.get_ref()) => {
                self.error(t, "the threshold is a grey level from 0 to 256");
                128
            }
            Some(t) => (*t.get_ref()).min(255) as u8,
            None => 128,
        };
        let path = self.base_dir.join(pic.get_ref());
        let bytes = match self.sources.bytes(&path) {
            Ok(b) => b,
            Err(e) => {
                self.error(pic, format!("cannot read the picture `{}`: {e}", pic.get_ref()));
                return None;
            }
        };
        let count = r.count.as_ref().map(|c| (*c.get_ref()).clamp(1, 100_000) as usize);
        let mask = match picture::Mask::from_picture_bytes(&bytes, threshold, r.invert, picture::pixel_budget(count)) {
            Ok(m) => m,
            Err(e) => {
                self.error(pic, format!("picture `{}`: {e}", pic.get_ref()));
                return None;
            }
        };
        let size = xy(self.need(f, &r.size_m, "size_m", "picture")?);
        if !(size.x > 0.0 && size.y > 0.0) {
            self.error(f, "a picture's `size_m` must be positive");
            return None;
        }
        let place = picture::Placement {
            centre: r.centre.as_ref().map(|c| xy(c.get_ref())).unwrap_or(DVec2::ZERO),
            size_m: size,
        };
        let pixels = match (self.count(r), &r.spacing_m) {
            (Some(n), None) => match picture::spots_of_count(&mask, n) {
                Ok(p) => p,
                Err(e) => {
                    self.error_help(
                        pic,
                        format!("picture `{}`: {e}", pic.get_ref()),
                        "lower `threshold`, use `invert`, or a larger picture",
                    );
                    return None;
                }
            },
            (None, Some(sp)) => {
                let sp = self.positive(&Some(sp.clone()), 1.0, "the spacing");
                let px = DVec2::new(sp * f64::from(mask.width) / size.x, sp * f64::from(mask.height) / size.y);
                let spots = picture::spots_at_spacing(&mask, px);
                if spots.is_empty() {
                    self.error(pic, format!("no spot of a {sp} m grid falls inside the picture's shape"));
                    return None;
                }
                spots
            }
            _ => {
                self.error(f, "a picture formation needs exactly one of `count` and `spacing_m`");
                return None;
            }
        };
        Some(pixels.into_iter().map(|p| place.stage_from_pixel(p, mask.width, mask.height)).collect())
    }
}
