//! Flight keys on the five jump forms and a run, written inline: the take-off leg tucks or kicks
//! (more for longer flights), the feet point after the push-off and come to their ball landing,
//! nothing jumps at take-off or landing, and nothing changes outside flights.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use glam::Vec3;
use labanplay::animation::flight_keys::{FlightKeys, KickStyle, kick_style};
use labanplay::animation::{Animation, compile};
use labanplay::motion::plan::{Flight, Foot, right_of};
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions};
use labanplay::read::read;
use labanplay::score::{JumpForm, Score};

/// A one-staff score at `bpm` starting with both feet in place, then `body` (LED lines; support
/// columns at x = 122 (left) and 134 (right), one beat = 24 units from y = 97).
fn score(bpm: u32, body: &str) -> Animation {
    let text = format!(
        "Stav 0 96 12 1 1 300 B\nStav 2 170 12 1 1 300 B\nStav 1 133 48 1 1 264 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\n\
Keys 0 18 30 2 20 12 B 4/4\nKeys 0 18 14 2 30 12 B q={bpm}\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n{body}"
    );
    let doc = read(text.as_bytes(), Some("lbn")).unwrap();
    compile(&Score::from_document(&doc), &MotionOptions::default(), &Proportions::default())
}

/// Low take-off on one beat, half a beat in the air, low landing on half a beat, then standing.
fn form_body(form: JumpForm) -> &'static str {
    match form {
        JumpForm::Jump => {
            "Dirn 11 122 97 4 10 23 L\nDirn 11 134 97 4 10 23 L\nDirn 11 122 133 2 10 11 L\nDirn 11 134 133 2 10 11 L\n\
Dirn 11 122 145 4 10 23 M\nDirn 11 134 145 4 10 23 M\n"
        }
        JumpForm::Hop => "Dirn 11 134 97 4 10 23 L\nDirn 11 134 133 2 10 11 L\nDirn 11 134 145 4 10 23 M\n",
        JumpForm::Leap => "Dirn 11 134 97 4 10 23 L\nDirn 10 122 133 2 10 11 L\nDirn 11 122 145 4 10 23 M\n",
        JumpForm::Assemble => {
            "Dirn 11 134 97 4 10 23 L\nDirn 11 122 133 2 10 11 L\nDirn 11 134 133 2 10 11 L\n\
Dirn 11 122 145 4 10 23 M\nDirn 11 134 145 4 10 23 M\n"
        }
        JumpForm::Sissonne => {
            "Dirn 11 122 97 4 10 23 L\nDirn 11 134 97 4 10 23 L\nDirn 11 122 133 2 10 11 L\nDirn 11 122 145 4 10 23 M\n"
        }
    }
}

const FORMS: [JumpForm; 5] = [JumpForm::Jump, JumpForm::Hop, JumpForm::Leap, JumpForm::Assemble, JumpForm::Sissonne];

fn only_flight(anim: &Animation) -> Flight {
    let flights = &anim.dancers[0].plan.flights;
    assert_eq!(flights.len(), 1, "{flights:?}");
    flights[0]
}

/// The legs that tuck or kick back in `f`: they leave the floor at take-off (and, in a leap, do
/// not land).
fn kicking_feet(anim: &Animation, f: &Flight) -> Vec<Foot> {
    let prints = &anim.dancers[0].plan.footprints;
    let near = |a: f64, b: f64| (a - b).abs() < 1e-3;
    [Foot::Left, Foot::Right]
        .into_iter()
        .filter(|foot| {
            let takes_off = prints.iter().any(|p| p.foot == *foot && near(p.t_lift_secs, f.t_takeoff_secs));
            let lands = prints.iter().any(|p| p.foot == *foot && near(p.t_land_secs, f.t_land_secs));
            matches!(kick_style(f.form, takes_off, lands), KickStyle::Tuck | KickStyle::KickBack)
        })
        .collect()
}

fn leg_joints(foot: Foot) -> (JointId, JointId, JointId) {
    match foot {
        Foot::Left => (JointId::HipL, JointId::KneeL, JointId::AnkleL),
        Foot::Right => (JointId::HipR, JointId::KneeR, JointId::AnkleR),
    }
}

struct Leg {
    hip_to_ankle_m: f32,
    knee_deg: f32,
    /// Plantar flexion of the foot relative to the shin, degrees (0 standing).
    point_deg: f32,
}

fn leg_at(anim: &Animation, foot: Foot, t: f64) -> Leg {
    let mut pose = Pose::rest(&anim.skeleton);
    anim.dancers[0].sample_into(&anim.skeleton, t, &mut pose);
    let (hip, knee, ankle) = leg_joints(foot);
    let p = |j| joint_world(&anim.skeleton, &pose, j).1;
    let (ankle_rot, ankle_pos) = joint_world(&anim.skeleton, &pose, ankle);
    let shin = (ankle_pos - p(knee)).normalize();
    let thigh = (p(knee) - p(hip)).normalize();
    let toe = ankle_rot * Vec3::Z;
    Leg {
        hip_to_ankle_m: p(hip).distance(ankle_pos),
        knee_deg: thigh.dot(shin).clamp(-1.0, 1.0).acos().to_degrees(),
        point_deg: 90.0 - shin.dot(toe).clamp(-1.0, 1.0).acos().to_degrees(),
    }
}

#[test]
fn takeoff_legs_tuck_or_kick_more_for_longer_flights() {
    for form in FORMS {
        let mut tuck_by_air = Vec::new();
        for bpm in [120, 60] {
            let anim = score(bpm, form_body(form));
            let f = only_flight(&anim);
            assert_eq!(f.form, Some(form));
            let air = f.t_land_secs - f.t_takeoff_secs;
            let mid = 0.5 * (f.t_takeoff_secs + f.t_land_secs);
            let mut tuck = f32::MAX;
            for foot in kicking_feet(&anim, &f) {
                let start = leg_at(&anim, foot, f.t_takeoff_secs + 1e-3);
                let middle = leg_at(&anim, foot, mid);
                let end = leg_at(&anim, foot, f.t_land_secs - 1e-3);
                println!(
                    "{form:?} T={air:.2}s {foot:?}: hip-ankle {:.3} / {:.3} / {:.3} m, knee {:.0} / {:.0} / {:.0}°",
                    start.hip_to_ankle_m,
                    middle.hip_to_ankle_m,
                    end.hip_to_ankle_m,
                    start.knee_deg,
                    middle.knee_deg,
                    end.knee_deg
                );
                let shorter = start.hip_to_ankle_m.min(end.hip_to_ankle_m) - middle.hip_to_ankle_m;
                assert!(shorter > 0.01, "{form:?} T={air}: the {foot:?} leg is not drawn in mid-flight ({shorter} m)");
                assert!(middle.knee_deg > start.knee_deg.max(end.knee_deg));
                tuck = tuck.min(shorter);
            }
            tuck_by_air.push((air, tuck));
        }
        let [(short_air, short), (long_air, long)] = tuck_by_air[..] else { panic!() };
        assert!(long_air > short_air);
        assert!(long > short + 0.05, "{form:?}: tuck {short:.3} m at T={short_air}, {long:.3} m at T={long_air}");
    }
}

#[test]
fn feet_do_not_jump_at_takeoff_or_landing() {
    for form in FORMS {
        for bpm in [120, 60] {
            let anim = score(bpm, form_body(form));
            let d = &anim.dancers[0];
            let f = only_flight(&anim);
            for foot in [Foot::Left, Foot::Right] {
                for t in [f.t_takeoff_secs, f.t_land_secs] {
                    let a = d.foot_state(&anim.skeleton, foot, t - 1e-3);
                    let b = d.foot_state(&anim.skeleton, foot, t + 1e-3);
                    let moved = a.ankle_in_world.distance(b.ankle_in_world);
                    // The body leaves the floor at up to g·T/2 ≈ 2.5 m/s: 5 mm in 2 ms.
                    assert!(moved < 0.012, "{form:?} {bpm} bpm {foot:?} at {t}: ankle jumps {moved} m");
                    let turned = (a.pitch_rad - b.pitch_rad).abs();
                    assert!(turned < 0.03, "{form:?} {bpm} bpm {foot:?} at {t}: pitch jumps {turned} rad");
                }
            }
        }
    }
}

#[test]
fn feet_point_after_push_off_and_land_on_the_ball() {
    for form in FORMS {
        for bpm in [120, 60] {
            let anim = score(bpm, form_body(form));
            let d = &anim.dancers[0];
            let f = only_flight(&anim);
            let air = f.t_land_secs - f.t_takeoff_secs;
            for foot in kicking_feet(&anim, &f) {
                let after = leg_at(&anim, foot, f.t_takeoff_secs + 0.4 * air);
                println!("{form:?} T={air:.2}s {foot:?}: foot pointed {:.0}° after push-off", after.point_deg);
                assert!(after.point_deg > 40.0, "{form:?} T={air}: {foot:?} foot only {:.0}°", after.point_deg);
            }
            let lands: Vec<Foot> = d
                .plan
                .footprints
                .iter()
                .filter(|p| (p.t_land_secs - f.t_land_secs).abs() < 1e-3)
                .map(|p| p.foot)
                .collect();
            assert!(!lands.is_empty());
            for foot in lands {
                let before = d.foot_state(&anim.skeleton, foot, f.t_land_secs - 1e-3);
                let ball = d.foot_angles.ball_landing_rad;
                assert!(
                    (before.pitch_rad - ball).abs() < 2f32.to_radians(),
                    "{form:?} T={air}: {foot:?} lands at {:.1}°",
                    before.pitch_rad.to_degrees()
                );
            }
        }
    }
}

#[test]
fn a_run_kicks_back_and_reaches_forward() {
    // Four running steps forward, each ¼ beat long with ¼ beat in the air, at 60 bpm.
    let body = "Dirn 1 134 97 2 10 5 M\nDirn 10 122 109 2 10 5 M\nDirn 1 134 121 2 10 5 M\nDirn 10 122 133 2 10 5 M\n\
Dirn 11 122 145 4 10 23 M\nDirn 11 134 145 4 10 23 M\n";
    let anim = score(60, body);
    let d = &anim.dancers[0];
    let flights = d.plan.flights.clone();
    assert!(flights.iter().filter(|f| f.form == Some(JumpForm::Leap)).count() >= 2, "{flights:?}");
    for f in &flights {
        if f.form != Some(JumpForm::Leap) {
            continue; // the closing assemblé
        }
        let mid = 0.5 * (f.t_takeoff_secs + f.t_land_secs);
        for foot in kicking_feet(&anim, f) {
            let start = leg_at(&anim, foot, f.t_takeoff_secs + 1e-3);
            let middle = leg_at(&anim, foot, mid);
            println!(
                "run T={:.2}s {foot:?}: knee {:.0}° → {:.0}°",
                f.t_land_secs - f.t_takeoff_secs,
                start.knee_deg,
                middle.knee_deg
            );
            assert!(middle.knee_deg > start.knee_deg + 10.0);
        }
        for foot in [Foot::Left, Foot::Right] {
            for t in [f.t_takeoff_secs, f.t_land_secs] {
                let a = d.foot_state(&anim.skeleton, foot, t - 1e-3);
                let b = d.foot_state(&anim.skeleton, foot, t + 1e-3);
                assert!(a.ankle_in_world.distance(b.ankle_in_world) < 0.012);
            }
        }
    }
}

/// The same animation with flight keys turned off.
fn without_keys(anim: &Animation) -> Animation {
    let mut off = anim.clone();
    for d in &mut off.dancers {
        d.flight_keys = FlightKeys { min_air_secs: f64::INFINITY, ..FlightKeys::default() };
    }
    off
}

#[test]
fn nothing_changes_outside_flights() {
    let walk =
        "Dirn 1 134 97 4 10 23 M\nDirn 10 122 121 4 10 23 M\nDirn 9 134 145 4 10 23 M\nDirn 11 122 169 4 10 23 M\n";
    for body in [walk, form_body(JumpForm::Leap), form_body(JumpForm::Jump)] {
        let anim = score(60, body);
        let off = without_keys(&anim);
        let (d, d_off) = (&anim.dancers[0], &off.dancers[0]);
        let in_flight = |t: f64| d.plan.flights.iter().any(|f| t > f.t_takeoff_secs && t < f.t_land_secs);
        let mut differs = false;
        for i in 0..=(anim.duration_secs * 100.0) as usize {
            let t = i as f64 / 100.0;
            for foot in [Foot::Left, Foot::Right] {
                let (a, b) = (d.foot_state(&anim.skeleton, foot, t), d_off.foot_state(&off.skeleton, foot, t));
                if in_flight(t) {
                    differs |= a != b;
                } else {
                    assert_eq!(a, b, "t={t} {foot:?}");
                }
            }
        }
        assert_eq!(differs, !d.plan.flights.is_empty());
    }
}

/// The longest a body is in the air: the longest run of samples at `fps` with neither foot
/// planted and no other part on the floor, for dancer `d` of `anim`, as (seconds, start).
pub(crate) fn longest_air(anim: &Animation, d: usize, fps: f64) -> (f64, f64) {
    let dancer = &anim.dancers[d];
    let frames = (anim.duration_secs * fps).floor() as usize + 1;
    let (mut longest, mut run_start, mut run) = ((0.0, 0.0), 0.0, 0usize);
    for f in 0..frames {
        let t = f as f64 / fps;
        let planted = |foot| dancer.foot_state(&anim.skeleton, foot, t).planted;
        let on_floor = dancer.floor_at(&anim.skeleton, t, Vec3::ZERO).is_some_and(|s| s.pelvis_weight > 0.0);
        if planted(Foot::Left) || planted(Foot::Right) || on_floor {
            run = 0;
            continue;
        }
        if run == 0 {
            run_start = t;
        }
        run += 1;
        let secs = run as f64 / fps;
        if secs > longest.0 {
            longest = (secs, run_start);
        }
    }
    longest
}

/// A straddle jump: both feet low, half a beat in the air at 60 bpm with both legs written side
/// at `level` (`M` or `H`) in the leg-gesture columns, both feet land.
fn straddle(level: char) -> String {
    format!(
        "Dirn 11 122 97 4 10 23 L\nDirn 11 134 97 4 10 23 L\nDirn 8 97 121 2 10 11 {level}\nDirn 3 159 121 2 10 11 {level}\n\
Dirn 11 122 133 2 10 11 L\nDirn 11 134 133 2 10 11 L\nDirn 11 122 145 4 10 23 M\nDirn 11 134 145 4 10 23 M\n"
    )
}

/// The hip → ankle direction of each leg (left, right) at the middle of the only flight.
fn legs_mid_flight(anim: &Animation) -> [Vec3; 2] {
    let f = only_flight(anim);
    assert_eq!(f.form, Some(JumpForm::Jump));
    legs_at(anim, 0.5 * (f.t_takeoff_secs + f.t_land_secs))
}

/// The hip → ankle direction of each leg (left, right) at `t_secs`.
fn legs_at(anim: &Animation, t_secs: f64) -> [Vec3; 2] {
    let mut pose = Pose::rest(&anim.skeleton);
    anim.dancers[0].sample_into(&anim.skeleton, t_secs, &mut pose);
    let p = |j| joint_world(&anim.skeleton, &pose, j).1;
    [Foot::Left, Foot::Right].map(|foot| {
        let (hip, _, ankle) = leg_joints(foot);
        (p(ankle) - p(hip)).normalize()
    })
}

#[test]
fn legs_written_in_the_air_shape_the_jump() {
    // The dancer faces the audience; each leg goes out to its own side.
    let out = [-right_of(0.0), right_of(0.0)];
    let middle = legs_mid_flight(&score(60, &straddle('M')));
    let high = legs_mid_flight(&score(60, &straddle('H')));
    for i in 0..2 {
        let off = middle[i].angle_between(out[i]).to_degrees();
        println!("straddle side middle, leg {i}: hip→ankle {:?}, {off:.0}° off", middle[i]);
        assert!(off < 25.0, "leg {i} {off:.0}° from side middle mid-flight ({:?})", middle[i]);
        // Side high: both legs at once leave the pelvis level, and the hip abducts 90° at most,
        // so the legs rise to the horizontal, out to the side.
        let off = high[i].angle_between((out[i] + Vec3::Y).normalize()).to_degrees();
        println!("straddle side high, leg {i}: hip→ankle {:?}, {off:.0}° off", high[i]);
        assert!(off < 50.0 && high[i].dot(out[i]) > 0.9, "leg {i} {off:.0}° from side high ({:?})", high[i]);
    }
    // Nothing written in the air: the same jump tucks.
    let tucked = score(
        60,
        "Dirn 11 122 97 4 10 23 L\nDirn 11 134 97 4 10 23 L\nDirn 11 122 133 2 10 11 L\nDirn 11 134 133 2 10 11 L\n\
Dirn 11 122 145 4 10 23 M\nDirn 11 134 145 4 10 23 M\n",
    );
    let f = only_flight(&tucked);
    for foot in [Foot::Left, Foot::Right] {
        let middle = leg_at(&tucked, foot, 0.5 * (f.t_takeoff_secs + f.t_land_secs));
        assert!(middle.knee_deg > 30.0, "{foot:?}: knee {:.0}°", middle.knee_deg);
    }
}

#[test]
fn one_leg_then_the_other_in_blank_support_columns_is_a_pas_de_chat() {
    // jump1.lbn's phrase at 120 bpm: from the starting position the right leg goes side low on
    // beat 1, the left leg side low on beat 2, both feet land in place on beat 3.
    let anim = score(
        120,
        "Dirn 3 159 97 4 10 23 L\nDirn 8 97 121 4 10 23 L\nDirn 11 122 145 4 10 23 M\nDirn 11 134 145 4 10 23 M\n",
    );
    let f = only_flight(&anim);
    // Standing on the left while the right leg gestures; in the air once the left leg does too.
    assert!((f.t_takeoff_secs - 0.5).abs() < 1e-6 && (f.t_land_secs - 1.0).abs() < 1e-6, "{f:?}");
    assert_eq!(f.form, Some(JumpForm::Assemble));
    let legs = legs_at(&anim, 0.5 * (f.t_takeoff_secs + f.t_land_secs));
    let out = [-right_of(0.0), right_of(0.0)];
    for i in 0..2 {
        // Side low: 45° out from straight down, each leg to its own side.
        let off = legs[i].angle_between((out[i] - Vec3::Y).normalize()).to_degrees();
        assert!(off < 25.0, "leg {i} {off:.0}° from side low at the apex ({:?})", legs[i]);
    }
    assert!(
        anim.dancers[0]
            .plan
            .footprints
            .iter()
            .all(|p| p.foot == Foot::Right || p.t_lift_secs <= 0.5 + 1e-6 || p.t_land_secs >= 1.0 - 1e-6),
        "the left foot is off the floor through the flight"
    );
}

/// A salutation: the starting position, then six beats of arms with the support columns empty,
/// a step in place, four more beats of arms, another step (120 bpm, three measures).
const SALUTATION: &str = "Stav 0 96 12 1 1 400 B\nStav 2 170 12 1 1 400 B\nStav 1 133 48 1 1 364 L\n\
Bars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\nBars 2 30 192 1 177 3 B\nBars 3 30 288 1 177 3 B\n\
Bars 4 30 384 1 177 3 B\nKeys 0 18 30 2 20 12 B 4/4\nKeys 0 18 14 2 30 12 B q=120\n\
Dirn 11 134 70 4 10 23 M\nDirn 11 122 70 4 10 23 M\n\
Dirn 1 184 97 4 10 23 M\nDirn 10 72 97 4 10 23 M\nDirn 1 184 121 8 10 47 H\nDirn 10 72 121 8 10 47 H\n\
Dirn 11 184 169 8 10 47 H\nDirn 11 72 169 8 10 47 H\n\
Dirn 11 122 241 4 10 23 M\nDirn 11 134 241 4 10 23 M\n\
Dirn 1 184 265 8 10 47 M\nDirn 10 72 265 8 10 47 M\nDirn 11 184 313 8 10 47 L\nDirn 11 72 313 8 10 47 L\n\
Dirn 11 122 361 4 10 23 M\nDirn 11 134 361 4 10 23 M\n";

#[test]
fn empty_support_columns_under_arm_movements_are_standing_and_said() {
    let doc = read(SALUTATION.as_bytes(), Some("lbn")).unwrap();
    let score = Score::from_document(&doc);
    let said: Vec<&str> = score.warnings.iter().map(|w| w.message.as_str()).filter(|m| m.contains("gap of")).collect();
    assert_eq!(
        said,
        [
            "staff 1, measure 1, beat 1.00: a gap of 6 beats in the support columns is read as standing; \
             write a hold sign, or a jump",
            "staff 1, measure 2, beat 4.00: a gap of 4 beats in the support columns is read as standing; \
             write a hold sign, or a jump"
        ]
    );
    let anim = compile(&score, &MotionOptions::default(), &Proportions::default());
    assert!(anim.dancers[0].plan.flights.is_empty(), "{:?}", anim.dancers[0].plan.flights);
    let (air, at) = longest_air(&anim, 0, 30.0);
    assert_eq!(air, 0.0, "in the air {air:.2} s from {at:.2} s");
}

#[test]
fn a_split_leap_opens_the_legs_forward_and_back_in_the_air() {
    // Standing on the right, a half-beat leap with the left leg written forward middle and the
    // right leg back middle in the leg-gesture columns, landing forward on the left.
    let anim = score(
        60,
        "Dirn 11 134 97 4 10 23 L\nDirn 1 97 121 2 10 11 M\nDirn 5 159 121 2 10 11 M\n\
Dirn 1 122 133 2 10 11 L\nDirn 11 122 145 4 10 23 M\nDirn 11 134 145 4 10 23 M\n",
    );
    let f = only_flight(&anim);
    let legs = legs_at(&anim, 0.5 * (f.t_takeoff_secs + f.t_land_secs));
    let forward = Vec3::Y.cross(right_of(0.0));
    let (front, back) = (legs[0].angle_between(forward).to_degrees(), legs[1].angle_between(-forward).to_degrees());
    println!("split leap: left {:?} {front:.0}° from forward, right {:?} {back:.0}° from back", legs[0], legs[1]);
    assert!(front < 35.0 && back < 35.0, "left {front:.0}° from forward, right {back:.0}° from back");
}

#[test]
fn real_weight_shift_straddle_opens_both_legs_side_low_in_the_air() {
    let Some(dir) = crate::support::real_scores_dir("weight_shift straddle") else { return };
    let s = crate::support::load_score(&dir.join("laban-tk/weight_shift.lbn"));
    let anim = compile(&s, &MotionOptions::default(), &Proportions::default());
    // Measure 10 beat 2: from a plié both legs side low in the leg-gesture columns, the support
    // columns empty for the beat: a straddle jump landing in plié.
    let jump =
        anim.dancers[0].plan.flights.iter().find(|f| (f.t_takeoff_secs - s.tempo.secs_from_beats(19.0)).abs() < 0.05);
    let f = jump.expect("the jump on beat 19");
    let legs = legs_at(&anim, 0.5 * (f.t_takeoff_secs + f.t_land_secs));
    let out = [-right_of(0.0), right_of(0.0)];
    for i in 0..2 {
        let off = legs[i].angle_between((out[i] - Vec3::Y).normalize()).to_degrees();
        assert!(
            off < 15.0,
            "weight_shift.lbn lines 60/61: leg {i} {off:.0}° from side low at the apex ({:?})",
            legs[i]
        );
    }
}
