//! A look at the motion without a GPU (run with `--ignored`): draws stick-figure contact sheets of
//! the demo scores (side and front views over time) as PNGs into `LABANPLAY_PLOT` or target-images.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use image::{Rgb, RgbImage};
use labanplay::animation::compile;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_positions};
use labanplay::pose::skeleton::{JOINT_COUNT, JointId, Proportions};
use labanplay::read::read;
use labanplay::score::Score;

fn line(img: &mut RgbImage, a: (f32, f32), b: (f32, f32), c: Rgb<u8>) {
    let n = ((b.0 - a.0).abs().max((b.1 - a.1).abs()) as usize).max(1);
    for i in 0..=n {
        let s = i as f32 / n as f32;
        let (x, y) = (a.0 + (b.0 - a.0) * s, a.1 + (b.1 - a.1) * s);
        if x >= 0.0 && y >= 0.0 && (x as u32) < img.width() && (y as u32) < img.height() {
            img.put_pixel(x as u32, y as u32, c);
        }
    }
}

fn sheet(bytes: &[u8], name: &str, dir: &std::path::Path) {
    let score = Score::from_document(&read(bytes, Some("lbn")).unwrap());
    let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
    let cols = 16usize;
    let frames = cols * 2;
    let (cw, ch) = (120u32, 220u32);
    let mut img = RgbImage::from_pixel(cw * cols as u32, ch * 2 * 2, Rgb([255, 255, 255]));
    let mut pose = Pose::rest(&anim.skeleton);
    let mut pos = [glam::Vec3::ZERO; JOINT_COUNT];
    for f in 0..frames {
        let t = anim.duration_secs * f as f64 / (frames - 1) as f64;
        for (di, d) in anim.dancers.iter().enumerate().take(1) {
            let _ = di;
            d.sample_into(&anim.skeleton, t, &mut pose);
            joint_positions(&anim.skeleton, &pose, &mut pos).unwrap();
            let centre = pose.pelvis_in_world;
            for view in 0..2 {
                let ox = (f % cols) as f32 * cw as f32 + cw as f32 / 2.0;
                let oy = ((f / cols) * 2 + view) as f32 * ch as f32 + ch as f32 - 10.0;
                let scale = 100.0;
                let project = |p: glam::Vec3| {
                    let h = if view == 0 { p.z - centre.z } else { p.x - centre.x };
                    (ox + h * scale, oy - p.y * scale)
                };
                line(&mut img, (ox - 50.0, oy), (ox + 50.0, oy), Rgb([180, 180, 180]));
                for j in JointId::ALL {
                    if let Some(parent) = j.parent() {
                        let c = match j.side() {
                            Some(labanplay::pose::skeleton::Side::Left) => Rgb([200, 40, 40]),
                            Some(labanplay::pose::skeleton::Side::Right) => Rgb([40, 40, 200]),
                            None => Rgb([0, 0, 0]),
                        };
                        line(&mut img, project(pos[parent.index()]), project(pos[j.index()]), c);
                    }
                }
            }
        }
    }
    img.save(dir.join(format!("{name}.png"))).unwrap();
}

#[test]
#[ignore = "a look-at-it tool: `cargo test --test pipeline motion_plot -- --ignored` draws target-images/motion-*.png"]
fn plot_demo_motion() {
    let dir = std::env::var_os("LABANPLAY_PLOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target-images"));
    std::fs::create_dir_all(&dir).unwrap();
    sheet(labanplay::demo::WALK_ARMS_TURN_LBN, "walk-arms-turn", &dir);
    sheet(labanplay::demo::JUMPS_LBN, "jumps", &dir);
    sheet(labanplay::demo::DUET_LBN, "duet", &dir);
}
