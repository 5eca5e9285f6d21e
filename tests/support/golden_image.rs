//! Golden-image comparison shared by the rendering tests: a per-pixel channel threshold and
//! a failed-pixel budget; `.new.png`/`.diff.png` on mismatch; `UPDATE_GOLDEN=1` rewrites.

use image::{Rgba, RgbaImage};
use labanplay::render::{AdapterPreference, Gpu, create_headless_with};
use std::path::PathBuf;

/// How different a rendered image may be from its golden one.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// A pixel fails when any channel differs by more than this (0..255).
    pub channel_threshold: u8,
    /// The image fails when more pixels than this fail.
    pub max_failed_pixels: usize,
}

/// Opens the software adapter, or explains the skip (or fails under `REQUIRE_GPU=1`).
pub fn gpu_or_skip(test_name: &str) -> Option<Gpu> {
    match create_headless_with(AdapterPreference::SoftwareFirst) {
        Ok(gpu) => {
            eprintln!("{test_name}: rendering on {}", gpu.adapter_summary());
            Some(gpu)
        }
        Err(error) if std::env::var("REQUIRE_GPU").is_ok_and(|v| v == "1") => {
            panic!("{test_name}: REQUIRE_GPU=1 but no adapter: {error}")
        }
        Err(error) => {
            eprintln!("SKIP {test_name}: no graphics adapter ({error})");
            None
        }
    }
}

pub fn golden_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"))
}

/// Number of pixels whose largest channel difference exceeds `threshold`, plus a diff image
/// (the actual image greyed out, failing pixels in red/magenta).
pub fn compare(actual: &RgbaImage, expected: &RgbaImage, threshold: u8) -> (usize, RgbaImage) {
    let mut failed = 0;
    let mut diff = RgbaImage::new(actual.width(), actual.height());
    for ((a, e), d) in actual.pixels().zip(expected.pixels()).zip(diff.pixels_mut()) {
        let worst = a.0.iter().zip(e.0).map(|(x, y)| x.abs_diff(y)).max().unwrap_or(0);
        let grey = ((u16::from(a.0[0]) + u16::from(a.0[1]) + u16::from(a.0[2])) / 12) as u8;
        *d = if worst > threshold {
            failed += 1;
            Rgba([255, 0, 128u8.saturating_add(worst / 2), 255])
        } else {
            Rgba([grey, grey, grey, 255])
        };
    }
    (failed, diff)
}

/// Compares `actual` with `tests/golden/<name>.png`; writes `<name>.new.png` and
/// `<name>.diff.png` and fails on a mismatch.
#[track_caller]
pub fn assert_golden(name: &str, actual: &RgbaImage, tolerance: Tolerance) {
    assert_golden_in(&golden_dir(), name, actual, tolerance);
}

/// [`assert_golden`] for an image kept in `dir`.
#[track_caller]
pub fn assert_golden_in(dir: &std::path::Path, name: &str, actual: &RgbaImage, tolerance: Tolerance) {
    let dir = dir.to_path_buf();
    let golden_path = dir.join(format!("{name}.png"));
    let new_path = dir.join(format!("{name}.new.png"));
    let diff_path = dir.join(format!("{name}.diff.png"));
    if std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(&dir).unwrap();
        actual.save(&golden_path).unwrap();
        let _ = std::fs::remove_file(&new_path);
        let _ = std::fs::remove_file(&diff_path);
        eprintln!("{name}: wrote {}", golden_path.display());
        return;
    }
    let Ok(expected) = image::open(&golden_path).map(|image| image.to_rgba8()) else {
        actual.save(&new_path).unwrap();
        panic!(
            "{name}: no golden image at {}; wrote {} — inspect it and rerun with UPDATE_GOLDEN=1",
            golden_path.display(),
            new_path.display()
        );
    };
    assert_eq!(expected.dimensions(), actual.dimensions(), "{name}: golden image size differs");
    let (failed, diff) = compare(actual, &expected, tolerance.channel_threshold);
    eprintln!("{name}: {failed} pixels over the threshold (allowed {})", tolerance.max_failed_pixels);
    if failed > tolerance.max_failed_pixels {
        actual.save(&new_path).unwrap();
        diff.save(&diff_path).unwrap();
        panic!(
            "{name}: {failed} pixels differ by more than {} (allowed {}); see {} and {}",
            tolerance.channel_threshold,
            tolerance.max_failed_pixels,
            new_path.display(),
            diff_path.display()
        );
    }
    let _ = std::fs::remove_file(&new_path);
    let _ = std::fs::remove_file(&diff_path);
}
