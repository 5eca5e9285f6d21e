//! Picture → lattice: a PNG/BMP/GIF is scanned into a pixel mask (dark pixels inside, or light
//! ones when inverted), then exactly N spots are spread evenly inside it by Lloyd relaxation on
//! the mask's pixels, or spots are laid on a square grid at a spacing; then scaled to metres.
//! A picture larger than the spots need ([`pixel_budget`]) is reduced first, each pixel of the
//! smaller picture the average of the pixels it covers, so its cost does not grow with its size.

use glam::DVec2;

/// Why a picture gives no mask or no spots.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PictureError {
    /// The bytes are no known picture format.
    #[error("not a picture this reader knows (expected a PNG, BMP or GIF file)")]
    Unknown,
    /// A picture format that is not read.
    #[error("{0:?} pictures are not read; use PNG, BMP or GIF")]
    Unsupported(image::ImageFormat),
    /// The picture is damaged.
    #[error("the {format:?} picture cannot be decoded: {message}")]
    Decode {
        /// Its format.
        format: image::ImageFormat,
        /// What the decoder said.
        message: String,
    },
    /// Zero spots asked for.
    #[error("a formation needs at least one spot")]
    NoSpots,
    /// Too small a shape for the spots.
    #[error("the picture has {inside} pixels inside the shape, too few for {count} spots (at least 4 per spot)")]
    TooFewPixels {
        /// Pixels inside the shape.
        inside: usize,
        /// Spots asked for.
        count: usize,
    },
}

/// Which pixels of a picture are inside the shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Mask {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row-major, row 0 at the top of the picture.
    pub inside: Vec<bool>,
}

/// The most pixels a picture is scanned at for `count` spots (`None`: spots at a spacing): 256
/// pixels a spot, at least 256 × 256 and at most 1024 × 1024.
pub fn pixel_budget(count: Option<usize>) -> u64 {
    const LEAST: u64 = 256 * 256;
    const MOST: u64 = 1024 * 1024;
    count.map_or(MOST, |n| (n as u64).saturating_mul(256).clamp(LEAST, MOST))
}

/// The size a `width × height` picture is scanned at: itself when it has at most `max_pixels`,
/// else scaled down evenly to fit (at least one pixel a side).
pub fn scan_size(width: u32, height: u32, max_pixels: u64) -> (u32, u32) {
    let pixels = u64::from(width) * u64::from(height);
    if pixels <= max_pixels {
        return (width, height);
    }
    let scale = (max_pixels as f64 / pixels as f64).sqrt();
    let side = |n: u32| ((f64::from(n) * scale).floor() as u32).clamp(1, n);
    // A side held at one pixel leaves the budget to the other.
    let fit = |n: u32, other: u32| n.min((max_pixels / u64::from(other)).clamp(1, u64::from(u32::MAX)) as u32);
    let w = fit(side(width), side(height));
    (w, fit(side(height), w))
}

impl Mask {
    /// Reads a picture file's bytes (PNG, BMP or GIF, chosen by content), reduced to at most
    /// `max_pixels` ([`scan_size`]). A pixel is inside when it is opaque (alpha ≥ 128) and its
    /// luminance is below `threshold` (above it when `invert`).
    pub fn from_picture_bytes(
        bytes: &[u8],
        threshold: u8,
        invert: bool,
        max_pixels: u64,
    ) -> Result<Self, PictureError> {
        let format = image::guess_format(bytes).map_err(|_| PictureError::Unknown)?;
        if !matches!(format, image::ImageFormat::Png | image::ImageFormat::Bmp | image::ImageFormat::Gif) {
            return Err(PictureError::Unsupported(format));
        }
        let img = image::load_from_memory_with_format(bytes, format)
            .map_err(|e| PictureError::Decode { format, message: e.to_string() })?;
        let (w, h) = scan_size(img.width(), img.height(), max_pixels);
        let img = if (w, h) == (img.width(), img.height()) { img } else { img.thumbnail_exact(w, h) };
        let la = img.to_luma_alpha8();
        let (width, height) = la.dimensions();
        let inside = la.pixels().map(|p| p.0[1] >= 128 && ((p.0[0] < threshold) != invert)).collect();
        Ok(Self { width, height, inside })
    }

    /// True when pixel (x, y) is inside; false outside the picture.
    pub fn at(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as u32) < self.width
            && (y as u32) < self.height
            && self.inside[(y as u32 * self.width + x as u32) as usize]
    }

    /// Centres of the inside pixels, in scanline order.
    pub fn inside_pixels(&self) -> Vec<DVec2> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if self.inside[(y * self.width + x) as usize] {
                    out.push(DVec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5));
                }
            }
        }
        out
    }
}

/// Where the picture lies on the stage: its centre and size in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Stage point under the picture's centre.
    pub centre: DVec2,
    /// The whole picture's size in metres (x across, y up the picture = upstage).
    pub size_m: DVec2,
}

impl Placement {
    /// Stage metres of pixel coordinates `p` (y down) of a `w × h` picture: the picture's top is
    /// upstage (+y).
    pub fn stage_from_pixel(&self, p: DVec2, w: u32, h: u32) -> DVec2 {
        let (w, h) = (f64::from(w), f64::from(h));
        self.centre + DVec2::new((p.x / w - 0.5) * self.size_m.x, (0.5 - p.y / h) * self.size_m.y)
    }

    /// Pixel coordinates of stage point `q`.
    pub fn pixel_from_stage(&self, q: DVec2, w: u32, h: u32) -> DVec2 {
        let d = q - self.centre;
        DVec2::new((d.x / self.size_m.x + 0.5) * f64::from(w), (0.5 - d.y / self.size_m.y) * f64::from(h))
    }
}

/// Lloyd iterations: enough to settle a few thousand spots on a picture of a few hundred pixels
/// a side (the largest move left is well under a pixel).
const LLOYD_ITERATIONS: usize = 60;

/// Exactly `count` spots (pixel coordinates) evenly inside the mask: seeds from a
/// low-discrepancy (R2) sequence inside the mask, then Lloyd relaxation over the inside pixels
/// (each pixel goes to its nearest spot, each spot moves to its pixels' centroid); a centroid
/// that falls outside a non-convex shape is moved to its nearest own pixel. Deterministic.
pub fn spots_of_count(mask: &Mask, count: usize) -> Result<Vec<DVec2>, PictureError> {
    let pixels = mask.inside_pixels();
    if count == 0 {
        return Err(PictureError::NoSpots);
    }
    if pixels.len() < count * 4 {
        return Err(PictureError::TooFewPixels { inside: pixels.len(), count });
    }
    let mut seeds = r2_seeds(mask, &pixels, count);
    let spacing_px = (pixels.len() as f64 / count as f64).sqrt();
    let mut owner = vec![0usize; pixels.len()];
    for _ in 0..LLOYD_ITERATIONS {
        let grid = SeedGrid::build(&seeds, spacing_px);
        for (k, p) in pixels.iter().enumerate() {
            owner[k] = grid.nearest(&seeds, *p);
        }
        let mut sum = vec![DVec2::ZERO; count];
        let mut n = vec![0u32; count];
        for (k, p) in pixels.iter().enumerate() {
            sum[owner[k]] += *p;
            n[owner[k]] += 1;
        }
        let mut moved = 0.0f64;
        for s in 0..count {
            if n[s] > 0 {
                let c = sum[s] / f64::from(n[s]);
                moved = moved.max(c.distance(seeds[s]));
                seeds[s] = c;
            }
        }
        if moved < 1e-3 {
            break;
        }
    }
    // Centroids of non-convex cells may leave the shape: take the cell's pixel nearest to it.
    for (s, seed) in seeds.iter_mut().enumerate().take(count) {
        let c = *seed;
        if !mask.at(c.x.floor() as i64, c.y.floor() as i64) {
            let mut best = (f64::INFINITY, c);
            for (k, p) in pixels.iter().enumerate() {
                if owner[k] == s && p.distance_squared(c) < best.0 {
                    best = (p.distance_squared(c), *p);
                }
            }
            *seed = best.1;
        }
    }
    Ok(seeds)
}

/// Spots on a square grid `spacing_px` (x, y) apart through the picture's centre, kept where the
/// pixel under them is inside.
pub fn spots_at_spacing(mask: &Mask, spacing_px: DVec2) -> Vec<DVec2> {
    let (w, h) = (f64::from(mask.width), f64::from(mask.height));
    let kx = (w * 0.5 / spacing_px.x).floor() as i64;
    let ky = (h * 0.5 / spacing_px.y).floor() as i64;
    let mut out = Vec::new();
    for j in -ky..=ky {
        for i in -kx..=kx {
            let p = DVec2::new(w * 0.5 + i as f64 * spacing_px.x, h * 0.5 + j as f64 * spacing_px.y);
            if mask.at(p.x.floor() as i64, p.y.floor() as i64) {
                out.push(p);
            }
        }
    }
    out
}

/// `count` distinct starting points inside the mask from the R2 sequence over its bounding box;
/// inside pixels in a strided scan fill up if the sequence is rejected too often.
fn r2_seeds(mask: &Mask, pixels: &[DVec2], count: usize) -> Vec<DVec2> {
    let (lo, hi) = pixels.iter().fold((pixels[0], pixels[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let lo = lo - DVec2::splat(0.5);
    let size = hi - lo + DVec2::splat(0.5);
    const A1: f64 = 0.754_877_666_246_692_8;
    const A2: f64 = 0.569_840_290_998_053_2;
    let mut out = Vec::with_capacity(count);
    let mut k = 0u64;
    let limit = 200 * count as u64 + 10_000;
    while out.len() < count && k < limit {
        k += 1;
        let u = DVec2::new((0.5 + A1 * k as f64).fract(), (0.5 + A2 * k as f64).fract());
        let p = lo + u * size;
        if mask.at(p.x.floor() as i64, p.y.floor() as i64) {
            out.push(p);
        }
    }
    let stride = pixels.len() / count.max(1);
    let mut i = 0;
    while out.len() < count {
        out.push(pixels[(i * stride.max(1)) % pixels.len()] + DVec2::splat(0.01 * i as f64));
        i += 1;
    }
    out
}

/// Seeds bucketed in cells for nearest-seed queries that widen ring by ring.
struct SeedGrid {
    inner: super::grid::Grid,
    cell: f64,
    origin: DVec2,
    buckets: std::collections::BTreeMap<(i64, i64), Vec<usize>>,
}

impl SeedGrid {
    fn build(seeds: &[DVec2], cell: f64) -> Self {
        let inner = super::grid::Grid::build(seeds, cell);
        let origin = seeds.iter().fold(seeds[0], |lo, p| lo.min(*p));
        let mut buckets: std::collections::BTreeMap<(i64, i64), Vec<usize>> = Default::default();
        for (i, s) in seeds.iter().enumerate() {
            let q = (*s - origin) / cell;
            buckets.entry((q.x.floor() as i64, q.y.floor() as i64)).or_default().push(i);
        }
        Self { inner, cell, origin, buckets }
    }

    /// The nearest seed to `p` (lowest index on ties).
    fn nearest(&self, seeds: &[DVec2], p: DVec2) -> usize {
        let mut best = (f64::INFINITY, usize::MAX);
        self.inner.for_each_near(p, |j| {
            let d = seeds[j].distance_squared(p);
            if d < best.0 || (d == best.0 && j < best.1) {
                best = (d, j);
            }
        });
        if best.0.sqrt() <= self.cell {
            return best.1;
        }
        // Rare (a sparse corner of the shape): widen ring by ring.
        let q = (p - self.origin) / self.cell;
        let (cx, cy) = (q.x.floor() as i64, q.y.floor() as i64);
        for ring in 1..=4096i64 {
            for y in cy - ring..=cy + ring {
                for x in cx - ring..=cx + ring {
                    if (x - cx).abs() != ring && (y - cy).abs() != ring {
                        continue;
                    }
                    if let Some(ids) = self.buckets.get(&(x, y)) {
                        for &j in ids {
                            let d = seeds[j].distance_squared(p);
                            if d < best.0 || (d == best.0 && j < best.1) {
                                best = (d, j);
                            }
                        }
                    }
                }
            }
            if best.0.sqrt() <= ring as f64 * self.cell {
                break;
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc_mask(n: u32) -> Mask {
        let c = f64::from(n) * 0.5;
        let inside = (0..n * n)
            .map(|k| {
                let (x, y) = (f64::from(k % n) + 0.5, f64::from(k / n) + 0.5);
                (x - c).powi(2) + (y - c).powi(2) < (c * 0.9).powi(2)
            })
            .collect();
        Mask { width: n, height: n, inside }
    }

    #[test]
    fn large_pictures_are_scanned_within_their_budget() {
        assert_eq!(scan_size(200, 200, pixel_budget(Some(2048))), (200, 200));
        assert_eq!(scan_size(6000, 6000, pixel_budget(Some(10))), (256, 256));
        assert_eq!(scan_size(6000, 3000, pixel_budget(None)), (1448, 724));
        assert_eq!(scan_size(100_000, 1, 64), (64, 1));
        assert_eq!(scan_size(1, 100_000, 64), (1, 64));
        assert_eq!(pixel_budget(Some(100_000)), 1024 * 1024);
    }

    #[test]
    fn lloyd_puts_exactly_n_spots_inside_and_evenly() {
        let mask = disc_mask(80);
        let spots = spots_of_count(&mask, 50).unwrap();
        assert_eq!(spots.len(), 50);
        assert!(spots.iter().all(|p| mask.at(p.x.floor() as i64, p.y.floor() as i64)));
        let area = mask.inside.iter().filter(|b| **b).count() as f64;
        let ideal = (area / 50.0).sqrt();
        let min = super::super::shapes::min_spacing(&spots);
        assert!(min > 0.7 * ideal, "closest pair {min:.2} px vs ideal spacing {ideal:.2} px");
        assert_eq!(spots, spots_of_count(&mask, 50).unwrap(), "deterministic");
    }
}
