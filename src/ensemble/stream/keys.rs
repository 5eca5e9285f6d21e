//! Each performer's path as keys: positions at some frames, linear in time between them, within
//! [`KEY_TOLERANCE_M`] of every simulated step. Keys are chosen while stepping with O(1) state per
//! performer: from the last key, the slopes (metres per frame, per axis) that keep every point
//! since within the tolerance form an interval; a new key is placed when the next point would
//! empty it. A performer standing still keeps two keys however long it stands.

use glam::{DVec2, Vec2};

/// How far a path between keys may stray from the simulated positions, metres.
pub const KEY_TOLERANCE_M: f64 = 0.005;

/// One key: a performer at `frame` (a step index) is at `position`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// Step index (beat = `frame × dt_beats`).
    pub frame: u32,
    /// Stage metres.
    pub position: Vec2,
}

impl Key {
    fn at(frame: usize, p: DVec2) -> Self {
        Self { frame: frame as u32, position: p.as_vec2() }
    }

    fn point(&self) -> DVec2 {
        self.position.as_dvec2()
    }
}

/// A performer's path: keys by frame, the first at frame 0, the last at the last frame.
#[derive(Debug, Default, PartialEq)]
pub struct Track {
    keys: Vec<Key>,
}

impl Clone for Track {
    /// A copy with the same room to grow, so a cloned simulation steps as fast as the original.
    fn clone(&self) -> Self {
        let mut keys = Vec::with_capacity(self.keys.capacity());
        keys.extend_from_slice(&self.keys);
        Self { keys }
    }
}

impl Track {
    /// The keys, by frame.
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// The position at `frame` (fractional), linear between keys, held beyond the ends.
    pub fn position_at_frame(&self, frame: f64) -> DVec2 {
        let (a, b) = self.segment(frame);
        if a.frame == b.frame {
            return a.point();
        }
        let s = ((frame - f64::from(a.frame)) / f64::from(b.frame - a.frame)).clamp(0.0, 1.0);
        a.point().lerp(b.point(), s)
    }

    /// Velocity in metres per frame over the key segment containing `frame` (zero beyond the
    /// ends).
    pub fn velocity_at_frame(&self, frame: f64) -> DVec2 {
        let (a, b) = self.segment(frame);
        if a.frame == b.frame || frame < f64::from(a.frame) || frame > f64::from(b.frame) {
            return DVec2::ZERO;
        }
        (b.point() - a.point()) / f64::from(b.frame - a.frame)
    }

    /// The keys either side of `frame` (one key twice before the first or after the last).
    fn segment(&self, frame: f64) -> (Key, Key) {
        let Some(first) = self.keys.first() else {
            return (Key::at(0, DVec2::ZERO), Key::at(0, DVec2::ZERO));
        };
        let after = self.keys.partition_point(|k| f64::from(k.frame) <= frame);
        if after == 0 {
            return (*first, *first);
        }
        let a = self.keys[after - 1];
        (a, self.keys.get(after).copied().unwrap_or(a))
    }
}

/// The key chooser of one performer.
#[derive(Clone, Debug)]
pub struct KeyWriter {
    key_frame: usize,
    key: DVec2,
    /// The last point seen, not yet a key.
    pending: Option<(usize, DVec2)>,
    slope_lo: DVec2,
    slope_hi: DVec2,
}

impl KeyWriter {
    /// Starts a track at frame 0 at `start`.
    pub fn new(start: DVec2, track: &mut Track) -> Self {
        let key = Key::at(0, start);
        track.keys.clear();
        track.keys.push(key);
        Self { key_frame: 0, key: key.point(), pending: None, slope_lo: DVec2::ZERO, slope_hi: DVec2::ZERO }
    }

    /// The slopes from the last key that keep `p` at `frame` within the tolerance.
    fn slopes(&self, frame: usize, p: DVec2) -> (DVec2, DVec2) {
        let span = (frame - self.key_frame) as f64;
        let e = DVec2::splat(KEY_TOLERANCE_M * std::f64::consts::FRAC_1_SQRT_2);
        ((p - self.key - e) / span, (p - self.key + e) / span)
    }

    /// Takes the position at `frame` (frames in order, after frame 0).
    pub fn push(&mut self, frame: usize, p: DVec2, track: &mut Track) {
        let (lo, hi) = self.slopes(frame, p);
        if self.pending.is_none() {
            (self.slope_lo, self.slope_hi) = (lo, hi);
            self.pending = Some((frame, p));
            return;
        }
        let (new_lo, new_hi) = (self.slope_lo.max(lo), self.slope_hi.min(hi));
        if new_lo.x <= new_hi.x && new_lo.y <= new_hi.y {
            (self.slope_lo, self.slope_hi) = (new_lo, new_hi);
            self.pending = Some((frame, p));
            return;
        }
        self.place_key(track);
        let (lo, hi) = self.slopes(frame, p);
        (self.slope_lo, self.slope_hi) = (lo, hi);
        self.pending = Some((frame, p));
    }

    /// Makes the pending point a key, on the line from the last key whose slope is the
    /// pending point's own, held within the interval.
    fn place_key(&mut self, track: &mut Track) {
        let Some((frame, p)) = self.pending.take() else { return };
        let span = (frame - self.key_frame) as f64;
        let slope = ((p - self.key) / span).clamp(self.slope_lo, self.slope_hi);
        let key = Key::at(frame, self.key + slope * span);
        track.keys.push(key);
        self.key_frame = frame;
        self.key = key.point();
    }

    /// Ends the track with a key at the last point seen.
    pub fn finish(&mut self, track: &mut Track) {
        self.place_key(track);
        track.keys.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track_of(points: &[DVec2]) -> Track {
        let mut track = Track::default();
        let mut w = KeyWriter::new(points[0], &mut track);
        for (f, p) in points.iter().enumerate().skip(1) {
            w.push(f, *p, &mut track);
        }
        w.finish(&mut track);
        track
    }

    #[test]
    fn standing_still_keeps_two_keys() {
        let track = track_of(&vec![DVec2::new(3.0, -2.0); 8_001]);
        assert_eq!(track.keys().len(), 2);
        assert_eq!(track.position_at_frame(4_000.5), DVec2::new(3.0, -2.0).as_vec2().as_dvec2());
    }

    #[test]
    fn keys_stay_within_the_tolerance_of_a_wobbling_path() {
        let points: Vec<DVec2> = (0..2_000)
            .map(|f| {
                let t = f as f64 * 0.01;
                DVec2::new(t * 1.3 + 0.03 * (t * 7.0).sin(), (t * 0.4).sin() * 3.0 + 0.001 * (f % 3) as f64)
            })
            .collect();
        let track = track_of(&points);
        assert!(track.keys().len() < points.len() / 3, "{} keys", track.keys().len());
        for (f, p) in points.iter().enumerate() {
            let err = track.position_at_frame(f as f64).distance(*p);
            assert!(err <= KEY_TOLERANCE_M + 1e-5, "frame {f}: {err}");
        }
    }
}
