//! Golden motion tables of the demo scores: every ¼ beat, the pelvis, facing, ankles, wrists and
//! head of each dancer, rounded to 0.1 mm and 0.01°. What the tables show: walk-arms-turn steps
//! forward 0.70 m a beat with the arms opening sideways, turns half right on the left foot with the
//! right foot tucked, raises the arms forward-high, pliés and rises; jumps leaves the floor five
//! times, the legs tucking (ankles ~0.45 m under the pelvis at the 0.6 m apex) or, in the leap, the
//! back leg kicking up and the front leg reaching for the landing; the duet's dancers box-step,
//! travel and make four quarter turns.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use labanplay::animation::compile;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_positions};
use labanplay::pose::skeleton::{JOINT_COUNT, JointId, Proportions};
use std::fmt::Write as _;

fn mm(v: f32) -> String {
    let r = (v as f64 * 10_000.0).round() / 10.0;
    format!("{:.1}", r + 0.0)
}

fn table(bytes: &[u8]) -> String {
    let score = labanplay::score::Score::from_document(&labanplay::read::read(bytes, Some("lbn")).unwrap());
    let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
    let mut out = String::new();
    let mut pose = Pose::rest(&anim.skeleton);
    let mut pos = [glam::Vec3::ZERO; JOINT_COUNT];
    let quarters = (score.duration_beats * 4.0).round() as usize;
    let joints = [JointId::Pelvis, JointId::AnkleL, JointId::AnkleR, JointId::WristL, JointId::WristR, JointId::Head];
    let _ = writeln!(out, "# beat dancer yaw_deg | pelvis | ankleL | ankleR | wristL | wristR | head  (x y z, mm)");
    for q in 0..=quarters {
        let t_beats = q as f64 / 4.0;
        let t = score.tempo.secs_from_beats(t_beats);
        for (i, d) in anim.dancers.iter().enumerate() {
            d.sample_into(&anim.skeleton, t, &mut pose);
            joint_positions(&anim.skeleton, &pose, &mut pos).unwrap();
            let yaw = ((d.yaw_at(t).to_degrees() as f64) * 100.0).round() / 100.0 + 0.0;
            let _ = write!(out, "{t_beats:.2} {} {yaw:.2}", i + 1);
            for j in joints {
                let p = pos[j.index()];
                let _ = write!(out, " | {} {} {}", mm(p.x), mm(p.y), mm(p.z));
            }
            out.push('\n');
        }
    }
    out
}

#[test]
fn demo_motion_matches_the_golden_tables() {
    for (name, bytes) in [
        ("walk-arms-turn", labanplay::demo::WALK_ARMS_TURN_LBN),
        ("jumps", labanplay::demo::JUMPS_LBN),
        ("duet", labanplay::demo::DUET_LBN),
    ] {
        support::assert_golden(&format!("motion/{name}.txt"), &table(bytes));
    }
}

#[test]
fn sampling_is_deterministic() {
    assert_eq!(table(labanplay::demo::JUMPS_LBN), table(labanplay::demo::JUMPS_LBN));
}
