//! Pictures of any size: a picture larger than its spots need is reduced before it is scanned,
//! and the spots still fall inside its shape. The pictures are drawn here and served from memory.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use labanplay::ensemble::{self, picture};
use labanplay::read::Sources;
use std::path::Path;

/// A black disc of radius 0.4 × `side` on white, as PNG bytes.
fn disc_png(side: u32) -> Vec<u8> {
    let c = f64::from(side) * 0.5;
    let r = f64::from(side) * 0.4;
    let img = image::GrayImage::from_fn(side, side, |x, y| {
        let d = (f64::from(x) + 0.5 - c).hypot(f64::from(y) + 0.5 - c);
        image::Luma([if d < r { 0 } else { 255 }])
    });
    let mut bytes = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    bytes
}

/// One picture served from memory under any name.
struct OnePicture(Vec<u8>);

impl Sources for OnePicture {
    fn bytes(&mut self, _path: &Path) -> std::io::Result<Vec<u8>> {
        Ok(self.0.clone())
    }

    fn is_file(&self, _path: &Path) -> bool {
        true
    }
}

/// A plan with `count` performers on a 6 × 6 m disc (radius 2.4 m) at (0, 5).
fn disc_plan(count: usize) -> String {
    format!(
        "ensemble = 1\n[stage]\nwidth_m = 12\ndepth_m = 10\n[[formation]]\nname = \"disc\"\npicture = \"disc.png\"\n\
         count = {count}\ncentre = [0, 5]\nsize_m = [6, 6]\n[[group]]\nname = \"g\"\nformation = \"disc\"\n"
    )
}

#[test]
fn a_large_picture_is_reduced_before_it_is_scanned() {
    let big = disc_png(1600);
    let mask = picture::Mask::from_picture_bytes(&big, 128, false, picture::pixel_budget(Some(12))).unwrap();
    assert_eq!((mask.width, mask.height), (256, 256), "12 spots need no more than 256 × 256 pixels");
    let inside = mask.inside.iter().filter(|b| **b).count() as f64;
    let disc = std::f64::consts::PI * (0.4 * 256.0f64).powi(2);
    assert!((inside / disc - 1.0).abs() < 0.02, "the reduced disc keeps its area: {inside} px vs {disc:.0}");
    // Read through a plan: twelve spots spread inside the disc, as from a small picture.
    let plan = ensemble::read_plan(disc_plan(12).as_bytes(), Path::new(""), &mut OnePicture(big)).unwrap();
    let small = ensemble::read_plan(disc_plan(12).as_bytes(), Path::new(""), &mut OnePicture(disc_png(256))).unwrap();
    let (spots, small_spots) = (&plan.formations[0].spots, &small.formations[0].spots);
    assert_eq!(spots.len(), 12);
    for (p, q) in spots.iter().zip(small_spots) {
        assert!(p.distance(glam::DVec2::new(0.0, 5.0)) < 2.4, "{p} is outside the disc");
        assert!(p.distance(*q) < 0.05, "{p} from the large picture, {q} from the small one");
    }
}

/// Times reading a plan whose picture is 6000 × 6000 pixels (ten spots).
#[test]
#[ignore = "a tool: `cargo test --release --no-default-features --test pipeline picture_6000 -- --ignored --nocapture`"]
fn picture_6000_read_time() {
    let big = disc_png(6000);
    let t0 = std::time::Instant::now();
    let plan = ensemble::read_plan(disc_plan(10).as_bytes(), Path::new(""), &mut OnePicture(big)).unwrap();
    println!("6000 x 6000 picture, 10 spots: read in {:.3} s", t0.elapsed().as_secs_f64());
    assert_eq!(plan.formations[0].spots.len(), 10);
}
