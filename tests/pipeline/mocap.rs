//! BVH capture import: parse errors with their places, the project's own export read back and
//! retargeted onto the same body, a hand-written Z-up CMU-named capture with one known elbow
//! bend, and the real CMU/Biovision captures of Debian's `assimp-testmodels` (SKIP when absent).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use labanplay::animation::{Animation, compile};
use labanplay::export::bvh::write_bvh;
use labanplay::mocap::{self, Capture, MocapError, apply_overrides, auto_map, capture_motion, read_capture, retarget};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, world_rot_pos};
use labanplay::pose::skeleton::{JointId, Proportions, Skeleton};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bvh").join(name)).unwrap()
}

fn positions(skeleton: &Skeleton, pose: &Pose) -> [Vec3; 23] {
    world_rot_pos(skeleton, pose).1
}

#[test]
fn malformed_files_are_errors_with_line_column_and_what_was_expected() {
    let good = String::from_utf8(fixture("cmu-zup-left-elbow.bvh")).unwrap();
    let last_row = good.lines().count();
    let cut = &good[..good.len() - 40];
    let cases: Vec<(String, (u32, u32), &str)> = vec![
        (cut.to_string(), (last_row as u32, 1), "numbers; the HIERARCHY declares 78"),
        (good.replace("Frames: 2", "Frames: 5"), (last_row as u32 + 1, 1), "truncated"),
        (good.replacen("OFFSET 0 0 -42", "OFFSET 0 zero -42", 1), (16, 14), "the offset's y"),
        (
            good.replacen("CHANNELS 3 Zrotation Yrotation Xrotation", "CHANNELS 3 Zrotation Yrotation", 1),
            (10, 3),
            "a channel name",
        ),
        (good.replace("Frame Time: 0.5", "Frame Time: 0"), (149, 13), "positive number of seconds"),
        (good.replacen("0 0 100 0", "0 0 1OO 0", 1), (150, 5), "not a finite number"),
        (good.replace("HIERARCHY", "HIERARCHIE"), (1, 1), "`HIERARCHY`"),
        (String::new(), (1, 1), "end of the file"),
    ];
    for (text, (line, col), needle) in cases {
        let err = read_capture(text.as_bytes()).unwrap_err();
        assert_eq!((err.span.line, err.span.col), (line, col), "{err}");
        assert!(err.message.contains(needle), "`{needle}` not in: {err}");
    }
    // One row more than `Frames:` declares (as in assimp's Boxing_Toes.bvh): the declared ones.
    let extra = good.replace("Frames: 2", "Frames: 1");
    let capture = read_capture(extra.as_bytes()).unwrap();
    assert_eq!((capture.frame_count(), capture.extra_rows), (1, 1));
    // Bytes that are not text, a lone number, deep garbage: errors, never a panic.
    for bytes in [&b"\xff\xfe\x00"[..], b"HIERARCHY ROOT", b"HIERARCHY ROOT a { OFFSET 1 2 3 CHANNELS 9", b"}}}}"] {
        assert!(read_capture(bytes).is_err());
    }
}

#[test]
fn the_projects_own_export_reads_back_onto_the_same_body_within_a_centimetre() {
    let proportions = Proportions::default();
    let anim = compile(&labanplay::demo::default_score(), &MotionOptions::default(), &proportions);
    let fps = 30.0;
    let frames = (anim.duration_secs * fps).floor() as usize + 1;
    let mut poses = Vec::new();
    let mut originals = Vec::new();
    for f in 0..frames {
        anim.sample(f as f64 / fps, &mut poses);
        originals.push(poses[0].clone());
    }
    let text = write_bvh(&anim.skeleton, &originals, fps);
    let motion = capture_motion(text.as_bytes(), None, &anim.skeleton).unwrap();
    assert_eq!(motion.report.up, "+Y");
    assert_eq!(motion.report.left, "+X");
    assert!(motion.report.unmapped.is_empty(), "{:?}", motion.report.unmapped);
    assert!((motion.report.metres_per_unit - 0.01).abs() < 1e-6);
    let mut worst = 0.0f32;
    for (f, original) in originals.iter().enumerate() {
        let back = motion.sample(f as f64 / fps);
        let (a, b) = (positions(&anim.skeleton, original), positions(&anim.skeleton, &back));
        for (p, q) in a.iter().zip(&b) {
            worst = worst.max(p.distance(*q));
        }
    }
    println!("round trip over {frames} frames: worst joint error {:.2} mm", worst * 1000.0);
    assert!(worst < 0.01, "worst joint error {worst} m");
    // Through the Animation the player and exporters use: the same poses.
    let as_animation = Animation::from_capture(motion);
    as_animation.sample(1.0, &mut poses);
    let direct = as_animation.capture.as_ref().unwrap().sample(1.0);
    assert_eq!(poses[0], direct);
}

#[test]
fn a_z_up_cmu_capture_bends_the_left_elbow_and_keeps_left_on_the_left() {
    let skeleton = Skeleton::default();
    let motion = capture_motion(&fixture("cmu-zup-left-elbow.bvh"), None, &skeleton).unwrap();
    let r = &motion.report;
    assert_eq!((r.up, r.left), ("+Z", "+X"));
    let named = |j: JointId| r.mapping.iter().find(|(k, _)| *k == j).map(|(_, n)| n.as_str());
    assert_eq!(named(JointId::ClavicleL), Some("LeftShoulder"));
    assert_eq!(named(JointId::ShoulderL), Some("LeftArm"));
    assert_eq!(named(JointId::ElbowL), Some("LeftForeArm"));
    assert_eq!(named(JointId::WristL), Some("LeftHand"));
    assert_eq!(named(JointId::HipR), Some("RightUpLeg"));
    assert_eq!(named(JointId::Spine), Some("LowerBack"));
    assert_eq!(named(JointId::Chest), Some("Spine1"));
    // Frame 0 is the capture's T-pose: the arms-down skeleton holds its arms out sideways.
    let rest = positions(&skeleton, &motion.frames[0]);
    let p = |pos: &[Vec3; 23], j: JointId| pos[j.index()];
    for (shoulder, wrist, sign) in
        [(JointId::ShoulderL, JointId::WristL, 1.0), (JointId::ShoulderR, JointId::WristR, -1.0)]
    {
        let arm = p(&rest, wrist) - p(&rest, shoulder);
        assert!(arm.normalize().dot(Vec3::X * sign) > 0.999, "{shoulder:?} → {wrist:?} points {arm}");
    }
    assert!(p(&rest, JointId::Head).y > p(&rest, JointId::Pelvis).y + 0.4, "the head is up");
    // Frame 1: only the left forearm turned, −90° about the capture's up (Z): it points forward.
    let bent = positions(&skeleton, &motion.frames[1]);
    let forearm = (p(&bent, JointId::WristL) - p(&bent, JointId::ElbowL)).normalize();
    assert!(forearm.dot(Vec3::Z) > 0.999, "left forearm points {forearm}");
    let elbow = motion.frames[1].local(JointId::ElbowL);
    let expected = Quat::from_rotation_x(-90f32.to_radians());
    assert!(elbow.angle_between(expected).to_degrees() < 1.0, "left elbow {elbow:?}");
    assert!(motion.frames[1].local(JointId::ElbowR).angle_between(Quat::IDENTITY) < 1e-3);
    for j in JointId::ALL.into_iter().filter(|j| !matches!(j, JointId::WristL | JointId::HandL)) {
        assert!(p(&bent, j).distance(p(&rest, j)) < 1e-4, "{j:?} moved");
    }
    // Half-way: interpolated.
    let half = motion.sample(0.25).local(JointId::ElbowL);
    assert!((half.angle_between(Quat::IDENTITY).to_degrees() - 45.0).abs() < 1.0);
    // On the floor: the lowest foot point touches y = 0.
    let lowest = labanplay::mocap::retarget::lowest_foot_point(&skeleton, &motion.frames);
    assert!(lowest.abs() < 1e-4, "{lowest}");
}

#[test]
fn an_override_file_remaps_joints_and_its_errors_have_places() {
    let capture = read_capture(&fixture("cmu-zup-left-elbow.bvh")).unwrap();
    let mut map = auto_map(&capture);
    apply_overrides(&capture, &mut map, "# the CMU spine\nSpine = \"Spine\"\nSpine1 = \"chest\"\nNeck1 = \"none\"\n")
        .unwrap();
    assert_eq!(map.get(&JointId::Spine), capture.joint_index("Spine").as_ref());
    assert_eq!(map.get(&JointId::Chest), capture.joint_index("Spine1").as_ref());
    let err = apply_overrides(&capture, &mut map, "Spine = \"Spine\"\nLeftArm = \"Elbow\"\n").unwrap_err();
    assert_eq!((err.span.line, err.span.col), (2, 11), "{err}");
    assert!(err.message.contains("not a project joint") && err.message.contains("ElbowL"), "{err}");
    let err = apply_overrides(&capture, &mut map, "\nNoSuchJoint = \"HipL\"\n").unwrap_err();
    assert_eq!(err.span.line, 2, "{err}");
    assert!(err.message.contains("no joint `NoSuchJoint`"), "{err}");
    let err = apply_overrides(&capture, &mut map, "Spine = [1, 2\n").unwrap_err();
    assert_eq!(err.span.line, 1, "{err}");
    // Without legs the capture cannot drive the body, and the message says what to do.
    let mut legless = auto_map(&capture);
    legless.remove(&JointId::KneeL);
    let err = retarget(&capture, &legless, &Skeleton::default()).unwrap_err();
    assert!(err.to_string().contains("KneeL") && err.to_string().contains("map.toml"), "{err}");
    assert!(matches!(capture_motion(b"HIERARCHY\nROOT", None, &Skeleton::default()), Err(MocapError::Bvh(_))));
}

fn real_captures() -> Option<Vec<PathBuf>> {
    let dir = Path::new("/usr/share/assimp/models/BVH");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bvh"))
        .collect();
    files.sort();
    (!files.is_empty()).then_some(files)
}

/// Height of `point` above the capture's floor, along its up axis, in capture units.
fn up_of(report_up: &str, p: glam::DVec3) -> f64 {
    match report_up {
        "+X" => p.x,
        "-X" => -p.x,
        "+Y" => p.y,
        "-Y" => -p.y,
        "+Z" => p.z,
        _ => -p.z,
    }
}

#[test]
fn real_cmu_captures_read_stay_on_the_floor_and_move_no_faster_than_the_source() {
    let Some(files) = real_captures() else {
        println!("SKIP real BVH captures: /usr/share/assimp/models/BVH is absent (Debian package assimp-testmodels)");
        return;
    };
    for proportions in [
        Proportions::default(),
        Proportions { height_m: 1.5, hip_height: 0.48, thigh: 0.22, shank: 0.22, ..Proportions::default() },
    ] {
        proportions.check().unwrap();
        let skeleton = Skeleton::new(&proportions);
        // The second body only on the first file (the suite stays quick in debug builds).
        for file in files.iter().take(if proportions == Proportions::default() { files.len() } else { 1 }) {
            let name = file.file_name().unwrap().to_string_lossy();
            let capture: Capture =
                read_capture(&std::fs::read(file).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let map = auto_map(&capture);
            let motion = retarget(&capture, &map, &skeleton).unwrap_or_else(|e| panic!("{name}: {e}"));
            let r = &motion.report;
            assert_eq!(motion.frames.len(), capture.frame_count());
            // Dialects: CMU's LeftShoulder is the clavicle, Biovision's the shoulder joint.
            let shoulder = r.mapping.iter().find(|(j, _)| *j == JointId::ShoulderL).map(|(_, n)| n.as_str());
            assert!(matches!(shoulder, Some("LeftArm") | Some("LeftShoulder")), "{name}: {shoulder:?}");
            let s = r.metres_per_unit;
            let (mut rot, mut pos) = (Vec::new(), Vec::new());
            let src = |j: JointId| map[&j];
            // (frame-to-frame steps are checked per frame, against the capture's own largest step)
            let (mut prev_src, mut prev_dst): (Option<Vec<glam::DVec3>>, Option<[Vec3; 23]>) = (None, None);
            let (mut worst_step_ratio, mut largest_step) = (0.0f64, 0.0f64);
            let mut lowest_any = f32::INFINITY;
            let mut lowest_at = (0usize, JointId::Pelvis);
            let mut src_any_low = f64::INFINITY;
            let mut ankle_offsets: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
            let (mut src_low, mut dst_low, mut pelvis_offsets) = (Vec::new(), Vec::new(), Vec::new());
            for (f, pose) in motion.frames.iter().enumerate() {
                capture.world(f, &mut rot, &mut pos);
                let dst = positions(&skeleton, pose);
                for (j, p) in dst.iter().enumerate() {
                    if p.y < lowest_any {
                        lowest_any = p.y;
                        lowest_at = (f, JointId::ALL[j]);
                    }
                }
                for (k, (hip, ankle)) in
                    [(JointId::HipL, JointId::AnkleL), (JointId::HipR, JointId::AnkleR)].into_iter().enumerate()
                {
                    let below_hip = f64::from(dst[ankle.index()].y - dst[hip.index()].y);
                    ankle_offsets[k].push(below_hip - s * up_of(r.up, pos[src(ankle)] - pos[src(hip)]));
                }
                let feet = [JointId::AnkleL, JointId::AnkleR, JointId::BallL, JointId::BallR];
                src_low.push(feet.iter().map(|&j| s * up_of(r.up, pos[src(j)])).fold(f64::INFINITY, f64::min));
                dst_low.push(feet.iter().map(|&j| f64::from(dst[j.index()].y)).fold(f64::INFINITY, f64::min));
                src_any_low = src_any_low.min(pos.iter().map(|&p| s * up_of(r.up, p)).fold(f64::INFINITY, f64::min));
                pelvis_offsets.push(f64::from(pose.pelvis_in_world.y) - s * up_of(r.up, pos[src(JointId::Pelvis)]));
                if let (Some(ps), Some(pd)) = (&prev_src, &prev_dst) {
                    // This frame's largest step of any capture joint, and of any dancer joint.
                    let src_step = ps.iter().zip(&pos).map(|(a, b)| s * a.distance(*b)).fold(0.0, f64::max);
                    let (dst_step, joint) = pd
                        .iter()
                        .zip(&dst)
                        .enumerate()
                        .map(|(j, (a, b))| (f64::from(a.distance(*b)), j))
                        .fold((0.0, 0), |m, x| if x.0 > m.0 { x } else { m });
                    assert!(
                        dst_step <= 3.0 * src_step + 0.01,
                        "{name}: frame {f}: {:?} jumps {dst_step:.3} m; the capture's joints at most {src_step:.3} m",
                        JointId::ALL[joint]
                    );
                    worst_step_ratio = worst_step_ratio.max(dst_step / (src_step + 1e-9));
                    largest_step = largest_step.max(dst_step);
                }
                prev_src = Some(pos.clone());
                prev_dst = Some(dst);
            }
            // Nothing below the floor (Boxing_Toes ends with the boxer knocked down: the dancer's
            // longer arms would reach through the floor, so those frames are lifted).
            let fmin = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
            let src_below_feet = src_any_low - fmin(&src_low);
            assert!(
                lowest_any > -1e-4,
                "{name}: {lowest_at:?} (frame, joint) reaches {lowest_any} m; the capture's body at most {src_below_feet:.3} m below its feet"
            );
            let spread = |v: &[f64]| {
                let (lo, hi) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
                hi - lo
            };
            // The root height is the capture's scaled by the leg ratio (plus one constant shift).
            assert!(
                spread(&pelvis_offsets) < 1e-4 + r.max_lift_m,
                "{name}: the pelvis height is not the capture's, scaled"
            );
            // Each ankle's height below its hip follows the capture's (scaled) within 3 cm: the
            // legs bend like the capture's legs.
            let mut ankle_drift = 0.0f64;
            for (k, offsets) in ankle_offsets.iter().enumerate() {
                ankle_drift = ankle_drift.max(spread(offsets));
                assert!(spread(offsets) < 0.03, "{name}: ankle {k} drifts {:.3} m from the capture's", spread(offsets));
            }
            // Feet on the floor: whenever the capture's lowest foot joint is within 2 cm of its
            // lowest, the dancer's is within 8 cm of its lowest.
            let (src_floor, dst_floor) = (src_low.iter().copied().fold(f64::INFINITY, f64::min), 0.0);
            let mut contact_frames = 0usize;
            let mut worst_lift = 0.0f64;
            let base = fmin(&pelvis_offsets);
            for ((a, b), lift) in src_low.iter().zip(&dst_low).zip(&pelvis_offsets) {
                // (frames lifted out of the floor are left out)
                if a - src_floor < 0.02 && lift - base < 1e-4 {
                    contact_frames += 1;
                    worst_lift = worst_lift
                        .max(b - dst_floor - (dst_low.iter().copied().fold(f64::INFINITY, f64::min) - dst_floor));
                }
            }
            assert!(contact_frames > 0, "{name}: the capture never touches its floor");
            assert!(worst_lift < 0.08, "{name}: a foot on the capture's floor is {worst_lift:.3} m above the dancer's");
            println!(
                "{name} on {:.2} m: {} frames at {:.0} fps, up {} left {}, {:.4} m/unit, floor shift {:+.3} m, lowest joint {:+.3} m (the capture's {src_below_feet:+.3} m), ankle drift {ankle_drift:.3} m, {contact_frames} contact frames lifted at most {worst_lift:.3} m, largest step {largest_step:.3} m (≤ {worst_step_ratio:.2}× the capture's), lifted {} frames by at most {:.3} m, unmapped {:?}",
                proportions.height_m,
                capture.frame_count(),
                1.0 / capture.frame_secs,
                r.up,
                r.left,
                s,
                r.floor_shift_m,
                lowest_any,
                r.lifted_frames,
                r.max_lift_m,
                r.unmapped
            );
        }
    }
}

#[test]
fn export_turns_a_capture_into_bvh_for_the_chosen_body() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bvh/cmu-zup-left-elbow.bvh");
    assert!(mocap::is_capture_file(&input));
    assert!(mocap::looks_like_bvh(b"\xef\xbb\xbf  hierarchy\n") && !mocap::looks_like_bvh(b"Stav 1"));
    let out = std::env::temp_dir().join(format!("labanplay-mocap-export-{}.bvh", std::process::id()));
    let opts = labanplay::cli::export::ExportOptions {
        bvh: Some(out.clone()),
        model: Some("man-classical".into()),
        fps: 10.0,
        ..Default::default()
    };
    let summary = labanplay::cli::export::export(&input, &opts).unwrap();
    assert!(summary.contains("motion capture: up +Z") && summary.contains("wrote"), "{summary}");
    let written = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let model = labanplay::cli::export::model_by_name("man-classical").unwrap();
    let skeleton = Skeleton::new(&labanplay::body::rig::model_proportions(&model));
    let original = capture_motion(&fixture("cmu-zup-left-elbow.bvh"), None, &skeleton).unwrap();
    let back = capture_motion(&written, None, &skeleton).unwrap();
    // 0.5 s at 10 fps: 6 frames, the last one the bent elbow.
    assert_eq!(back.frames.len(), 6);
    for f in 0..6 {
        let t = f as f64 / 10.0;
        let (a, b) = (positions(&skeleton, &original.sample(t)), positions(&skeleton, &back.sample(t)));
        let worst = a.iter().zip(&b).map(|(p, q)| p.distance(*q)).fold(0.0f32, f32::max);
        assert!(worst < 0.01, "frame {f}: {worst} m");
    }
    // A broken capture is an error with its place, not a panic.
    let bad = std::env::temp_dir().join(format!("labanplay-mocap-bad-{}.bvh", std::process::id()));
    std::fs::write(&bad, "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n").unwrap();
    let err = labanplay::cli::export::export(&bad, &opts).unwrap_err();
    let _ = std::fs::remove_file(&bad);
    assert!(err.contains(":5:1: error: expected the offset's z"), "{err}");
}
