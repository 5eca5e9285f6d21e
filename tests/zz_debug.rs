use labanplay::animation::compile;
use labanplay::motion::rules::MotionOptions;
use labanplay::motion::plan::Foot;
use labanplay::pose::fk::{joint_world, Pose};
use labanplay::pose::skeleton::{JointId, Proportions};
#[test]
fn dbg() {
    for (bytes, foot, ts) in [(labanplay::demo::DUET_LBN, Foot::Right, vec![3.71, 3.74, 3.767, 3.8]), ] {
    let score = labanplay::score::Score::from_document(&labanplay::read::read(bytes, Some("lbn")).unwrap());
    let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
    let d = &anim.dancers[0];
    let mut pose = Pose::rest(&anim.skeleton);
    for t in ts {
        let r = d.sample_into(&anim.skeleton, t, &mut pose);
        let st = d.foot_state(&anim.skeleton, foot, t);
        let (rot, pos) = joint_world(&anim.skeleton, &pose, JointId::AnkleR);
        println!("t={t} {r:?} target {:?} pitch {:.3} got {:?} rot {:?} want {:?}", st.ankle_in_world, st.pitch_rad, pos, rot, st.rot_in_world());
        println!("pelvis {:?} ", pose.pelvis_in_world);
    }
    for f in &d.plan.footprints { println!("{:?} {:?} land {:.2} lift {:.2} {:?}", f.foot, f.position_in_world, f.t_land_secs, f.t_lift_secs, f.contact); }
    }
}
