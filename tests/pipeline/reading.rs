//! Reading the score as the notation defines it: body-part pre-signs claim the symbol directly
//! above them, hand signs at the ends of bows are contacts (holds) and not pre-signs, symbols
//! outside the staff's body columns are paths or warnings, and holds bring the hands together.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use labanplay::read::{BodyPart, Side, lbn};
use labanplay::score::{ChannelKind, ContactSurface, EntryKind, Score, Staff};

/// One LED staff (centre 133, outer lines 96 and 170), the double bar at y=96 and bars every 48
/// units (2 beats at LED's 24 units a beat), then `body`.
pub(crate) fn one_staff(body: &str) -> String {
    let mut s = String::from(
        "Stav 0 96 12 1 1 638 B\nStav 1 170 12 1 1 638 B\nStav 2 133 48 1 1 602 L\nBars 0 30 48 1 177 3 B\nBars 1 30 96 1 177 3 L\n",
    );
    for k in 2..10 {
        s.push_str(&format!("Bars {k} 30 {} 1 177 3 B\n", 96 + 48 * (k - 1)));
    }
    s.push_str(body);
    s
}

/// Two staves (centres 133 and 303), as barn.lbn lays them out.
fn two_staves(body: &str) -> String {
    let mut s = String::from(
        "Stav 0 96 12 1 1 638 B\nStav 1 170 12 1 1 638 B\nStav 2 133 48 1 1 602 L\n\
         Stav 3 266 12 1 1 638 B\nStav 4 340 12 1 1 638 B\nStav 5 303 48 1 1 602 L\n\
         Pins 1 122 19 1 18 18 L\nPins 1 293 18 1 18 18 H\nBars 0 30 48 1 464 3 B\nBars 1 30 96 1 464 3 L\n",
    );
    for k in 2..10 {
        s.push_str(&format!("Bars {k} 30 {} 1 464 3 B\n", 96 + 48 * (k - 1)));
    }
    s.push_str(body);
    s
}

pub(crate) fn score(text: &str) -> Score {
    let doc = lbn::read(text.as_bytes()).expect("the test score reads");
    Score::from_document(&doc)
}

fn channel(staff: &Staff, kind: ChannelKind) -> Vec<(f64, String)> {
    staff
        .channel(kind)
        .map(|c| {
            c.entries
                .iter()
                .map(|e| {
                    let what = match &e.kind {
                        EntryKind::Direction { direction, level } => format!("{}{}", direction.short(), level.letter()),
                        k => format!("{k:?}"),
                    };
                    (e.start_beats, what)
                })
                .collect()
        })
        .unwrap_or_default()
}

fn warnings_with(score: &Score, text: &str) -> usize {
    score.warnings.iter().filter(|w| w.message.contains(text)).count()
}

#[test]
fn a_pre_sign_claims_the_symbol_directly_above_it_not_the_one_beside_it() {
    // Right arm column (x 184–194): a wrist sign directly under the first gesture; a hand sign
    // one column further out, beside (not under) the second gesture.
    let s = score(&one_staff(
        "Limb 8 184 100 4 12 24 B\nDirn 3 184 121 4 10 23 H\nDirn 1 184 169 4 10 23 M\nLimb 9 198 168 4 12 24 B\n",
    ));
    let staff = &s.staves[0];
    // The wrist sign names the gesture above it (the second one, after a pause, is the arm's);
    // the hand sign beside the second gesture does not take it.
    assert_eq!(channel(staff, ChannelKind::Part(BodyPart::Wrist(Side::Right))), vec![(1.0, "rightH".into())]);
    assert_eq!(channel(staff, ChannelKind::Arm(Side::Right)), vec![(3.0, "fwdM".into())]);
    assert!(staff.channel(ChannelKind::Part(BodyPart::Hand(Side::Right))).is_none());
    assert_eq!(warnings_with(&s, "no direction, turn or hold sign directly above it"), 1, "{:#?}", s.warnings);
}

#[test]
fn a_pre_sign_names_the_symbol_above_it_and_its_phrase_not_the_column() {
    let s = score(&one_staff(
        // Right arm column: an elbow sign under the starting position's symbol names that one.
        "Limb 7 184 52 4 12 24 B\nDirn 11 184 77 4 10 17 L\nDirn 3 184 97 4 10 23 M\nDirn 1 184 121 4 10 23 M\n\
         // Left arm column: a wrist sign, then a shoulder sign later.
         Limb 3 72 100 4 12 24 B\nDirn 8 72 121 4 10 23 M\nDirn 10 72 145 4 10 23 M\n\
         Limb 1 72 196 4 12 24 B\nDirn 11 72 217 4 10 23 H\n\
         // Right support column: a knee sign for two steps in a row; the step after a pause is a foot.
         Limb 17 134 100 4 12 24 B\nDirn 11 134 121 4 10 23 L\nDirn 11 134 145 4 10 23 L\nDirn 1 134 193 4 10 23 M\n"
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
            .as_str(),
    ));
    let staff = &s.staves[0];
    let start: Vec<ChannelKind> = staff.start_position.iter().map(|(k, _)| *k).collect();
    assert!(start.contains(&ChannelKind::Part(BodyPart::Elbow(Side::Right))), "{start:?}");
    assert!(staff.channel(ChannelKind::Part(BodyPart::Elbow(Side::Right))).is_none(), "{staff:#?}");
    let arm = channel(staff, ChannelKind::Arm(Side::Right));
    assert_eq!(arm, vec![(0.0, "rightM".into()), (1.0, "fwdM".into())], "{staff:#?}");
    assert_eq!(
        channel(staff, ChannelKind::Part(BodyPart::Wrist(Side::Left))),
        vec![(1.0, "leftM".into()), (2.0, "fwdM".into())]
    );
    assert_eq!(channel(staff, ChannelKind::Part(BodyPart::Shoulder(Side::Left))), vec![(5.0, "placeH".into())]);
    assert_eq!(
        channel(staff, ChannelKind::Part(BodyPart::Knee(Side::Right))),
        vec![(1.0, "placeL".into()), (2.0, "placeL".into())]
    );
    assert_eq!(channel(staff, ChannelKind::Support(Side::Right)), vec![(4.0, "fwdM".into())]);
}

#[test]
fn hand_signs_at_the_ends_of_a_bow_are_a_contact_not_pre_signs() {
    // Both arms forward; a bow between a left-hand sign (beside the left arm) and a right-hand
    // sign (beside the right arm), hold signs on the hands, released a measure later.
    let s = score(&one_staff(
        "Dirn 10 72 121 4 10 23 M\nDirn 1 184 121 4 10 23 M\nLimb 5 59 122 4 12 24 B\nLimb 10 198 122 4 12 24 B\n\
         Misc 1 63 110 13 142 24 B\nVolm 7 59 146 1 12 12 B\nVolm 7 198 146 1 12 12 B\n\
         Misc 2 120 218 2 12 12 B\nMisc 3 124 222 2 12 12 B\n",
    ));
    let staff = &s.staves[0];
    assert_eq!(channel(staff, ChannelKind::Arm(Side::Left)), vec![(1.0, "fwdM".into())]);
    assert_eq!(channel(staff, ChannelKind::Arm(Side::Right)), vec![(1.0, "fwdM".into())]);
    assert!(!staff.channels.iter().any(|c| matches!(c.kind, ChannelKind::Part(_))), "{staff:#?}");
    assert_eq!(s.contacts.len(), 1, "{:#?}", s.contacts);
    let c = &s.contacts[0];
    assert_eq!((c.ends[0].part, c.ends[1].part), (BodyPart::Hand(Side::Left), BodyPart::Hand(Side::Right)));
    assert_eq!((c.ends[0].staff, c.ends[1].staff), (0, 0));
    assert!(c.released && (c.start_beats - 1.0).abs() < 1e-9 && (c.end_beats - 5.0).abs() < 1e-9, "{c:#?}");
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
}

#[test]
fn a_bow_with_no_part_sign_at_an_end_is_a_warning_with_its_place() {
    let s = score(&one_staff("Dirn 1 134 97 4 10 23 M\nMisc 1 109 136 4 48 8 B\n"));
    assert!(s.contacts.is_empty());
    let w: Vec<_> = s.warnings.iter().filter(|w| w.message.contains("(bow) has no body-part sign")).collect();
    assert_eq!(w.len(), 1, "{:#?}", s.warnings);
    assert!(w[0].message.contains("staff 1, measure 1"), "{}", w[0].message);
}

#[test]
fn a_direction_between_path_brackets_is_a_straight_path_not_an_arm_gesture() {
    // floor_paths.lbn's layout: ⊥ (Ways 1), a direction, ⊤ (Ways 2) in the right arm column.
    let s = score(&one_staff(
        "Dirn 1 134 97 4 10 23 M\nWays 1 186 124 6 10 23 B\nDirn 1 187 146 4 10 23 M\nWays 2 186 167 6 10 23 B\n",
    ));
    let staff = &s.staves[0];
    assert!(staff.channel(ChannelKind::Arm(Side::Right)).is_none(), "{staff:#?}");
    let path = staff.channel(ChannelKind::Path).expect("a path entry");
    assert_eq!(path.entries.len(), 1);
    assert!(matches!(path.entries[0].kind, EntryKind::Path { sign: labanplay::read::PathSign::Straight, .. }));
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
}

#[test]
fn symbols_beyond_the_body_columns_are_warnings_unless_claimed_or_in_line_with_the_arm_column() {
    let s = score(&one_staff(
        // A direction far out on the right with nothing claiming its column.
        "Dirn 3 222 121 4 10 23 M\n\
         // drifted: in line with the arm column's gesture below it
         Dirn 3 201 145 4 10 23 M\nDirn 3 205 169 4 10 23 M\n\
         // claimed by a palm sign right under it
         Limb 21 210 186 4 12 24 B\nDirn 11 211 200 4 10 23 M\n"
            .lines()
            .filter(|l| !l.starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
            .as_str(),
    ));
    let staff = &s.staves[0];
    assert_eq!(warnings_with(&s, "outside the staff's body columns"), 1, "{:#?}", s.warnings);
    assert_eq!(channel(staff, ChannelKind::Arm(Side::Right)), vec![(2.0, "rightM".into()), (3.0, "rightM".into())]);
    assert_eq!(channel(staff, ChannelKind::Part(BodyPart::Palm)).len(), 1, "{staff:#?}");
}

#[test]
fn partners_hold_between_two_staves_names_both_dancers_and_the_surface() {
    // The man's right hand on the woman's left shoulder blade (area sign: back).
    let s = score(&two_staves(
        "Dirn 1 192 121 4 10 23 M\nDirn 10 238 121 4 10 23 M\nLimb 10 204 119 4 12 24 B\nLimb 1 250 119 4 12 24 B\n\
         Area 5 251 129 3 15 15 B\nMisc 1 210 116 4 48 8 B\n",
    ));
    assert_eq!(s.contacts.len(), 1, "{:#?}\n{:#?}", s.contacts, s.warnings);
    let c = &s.contacts[0];
    assert!(c.between_dancers());
    assert_eq!((c.ends[0].staff, c.ends[0].part), (0, BodyPart::Hand(Side::Right)));
    assert_eq!(
        (c.ends[1].staff, c.ends[1].part, c.ends[1].surface),
        (1, BodyPart::Shoulder(Side::Left), ContactSurface::Back)
    );
    assert!(!c.released && (c.end_beats - s.duration_beats).abs() < 1e-9);
    assert_eq!(channel(&s.staves[0], ChannelKind::Arm(Side::Right)), vec![(1.0, "fwdM".into())]);
    assert_eq!(channel(&s.staves[1], ChannelKind::Arm(Side::Left)), vec![(1.0, "fwdM".into())]);
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
}

#[test]
fn barn_dance_hold_is_read_as_contacts_and_the_arms_keep_their_columns() {
    let Some(dir) = support::real_scores_dir("barn hold") else { return };
    let s = crate::support::load_score(&dir.join("laban-tk/barn.lbn"));
    // Three contacts in the starting position (joined hands; his right hand on her back; her
    // left hand on his right upper arm), released in measure 2, taken again in measure 4. Measures
    // 1–8 are repeated (beats 32–64 play them again): measure 2's release lets go of measure 4's
    // hold in the repeat, and measure 4 takes it again (the starting position is not replayed).
    assert_eq!(s.contacts.len(), 9, "{:#?}", s.contacts);
    assert!(s.contacts.iter().all(|c| c.between_dancers()));
    let released: Vec<(f64, f64)> =
        s.contacts.iter().filter(|c| c.released).map(|c| (c.start_beats, c.end_beats)).collect();
    assert_eq!(released.iter().map(|r| r.1).collect::<Vec<_>>(), vec![6.5, 6.5, 6.5, 38.5, 38.5, 38.5], "{released:?}");
    assert!(released[3..].iter().all(|r| r.0 >= 12.0 && r.0 <= 12.25), "{released:?}");
    let held: Vec<&labanplay::score::Contact> = s.contacts.iter().filter(|c| !c.released).collect();
    assert!(held.iter().all(|c| c.start_beats >= 44.0 && c.start_beats <= 44.25), "{held:#?}");
    assert!(held.iter().all(|c| (c.end_beats - s.duration_beats).abs() < 1e-9));
    // No hand sign of the hold redirects an arm: every arm gesture is in an arm channel.
    for staff in &s.staves {
        assert!(!staff.channels.iter().any(|c| matches!(c.kind, ChannelKind::Part(_))), "{:?}", staff.channels);
        assert!(!staff.start_position.iter().any(|(k, _)| matches!(k, ChannelKind::Part(_))));
    }
    // Man's start: left arm left-forward, right arm forward bent; the woman mirrors him.
    let start = |i: usize, side| {
        s.staves[i]
            .start_position
            .iter()
            .find(|(k, _)| *k == ChannelKind::Arm(side))
            .map(|(_, e)| (e.kind.clone(), e.modifiers.len()))
    };
    use labanplay::read::{Direction, Level};
    let dir_of = |d, l| EntryKind::Direction { direction: d, level: l };
    assert_eq!(start(0, Side::Left).map(|x| x.0), Some(dir_of(Direction::LeftForward, Level::Middle)));
    assert_eq!(start(0, Side::Right).map(|x| x.0), Some(dir_of(Direction::Forward, Level::Middle)));
    assert_eq!(start(1, Side::Left).map(|x| x.0), Some(dir_of(Direction::Forward, Level::Middle)));
    assert_eq!(start(1, Side::Right).map(|x| x.0), Some(dir_of(Direction::RightForward, Level::Middle)));
    // Before: 22 warnings (bows, releases, area signs and the volume signs of the hold).
    assert!(s.warnings.len() <= 2, "{:#?}", s.warnings);
}

// ---- Motion: holds bring the hands together; arms follow what the symbols say. ----

use glam::Vec3;
use labanplay::animation::{Animation, compile};
use labanplay::contact::solve::palm_in_world;
use labanplay::motion::rules::MotionOptions;
use labanplay::pose::fk::{Pose, joint_world};
use labanplay::pose::skeleton::{JointId, Proportions, Side as BodySide};

pub(crate) fn animate(s: &Score) -> Animation {
    compile(s, &MotionOptions::default(), &Proportions::default())
}

pub(crate) fn poses_at(anim: &Animation, t_secs: f64) -> Vec<Pose> {
    let mut poses = Vec::new();
    anim.sample(t_secs, &mut poses);
    poses
}

#[test]
fn partners_joined_hands_meet_and_stay_together_while_the_hold_lasts() {
    // Starting position: he (staff 1) has his left arm left-forward, she her right arm
    // right-forward, a bow joins his left hand and her right hand; they stand for four measures.
    let s = score(&two_staves(
        "Dirn 11 122 70 4 10 23 M\nDirn 11 134 70 4 10 23 M\nDirn 11 292 70 4 10 23 M\nDirn 11 304 70 4 10 23 M\n\
         Face 2 50 60 1 18 18 B\nFace 8 400 60 1 18 18 B\n\
         Dirn 9 72 70 4 10 23 M\nDirn 2 360 70 4 10 23 M\nLimb 4 58 71 4 12 24 B\nLimb 10 372 69 4 12 24 B\n\
         Misc 1 66 37 26 312 52 B\nVolm 7 122 97 1 12 12 B\nVolm 7 134 97 1 12 12 B\nVolm 7 292 97 1 12 12 B\nVolm 7 304 97 1 12 12 B\n",
    ));
    assert_eq!(s.contacts.len(), 1, "{:#?}", s.warnings);
    let anim = animate(&s);
    assert!(
        anim.interpretation.skipped.iter().all(|d| !d.message.contains("out of reach")),
        "{:#?}",
        anim.interpretation.skipped
    );
    for t in [0.0, 0.5, 1.5, 3.0] {
        let poses = poses_at(&anim, t);
        let his = palm_in_world(&anim.skeleton, &poses[0], BodySide::Left);
        let hers = palm_in_world(&anim.skeleton, &poses[1], BodySide::Right);
        assert!(his.distance(hers) < 0.05, "t={t}: palms {:.3} m apart", his.distance(hers));
        // The joined hands are in front of the couple, at about shoulder height or below.
        let shoulder = joint_world(&anim.skeleton, &poses[0], JointId::ShoulderL).1;
        assert!(his.y < shoulder.y + 0.1 && his.y > shoulder.y - 0.6, "t={t}: hand at {his:?}");
    }
    // Without the bow the same arms point away from each other, far apart.
    let free = score(&two_staves(
        "Dirn 11 122 70 4 10 23 M\nDirn 11 134 70 4 10 23 M\nDirn 11 292 70 4 10 23 M\nDirn 11 304 70 4 10 23 M\n\
         Face 2 50 60 1 18 18 B\nFace 8 400 60 1 18 18 B\nDirn 9 72 70 4 10 23 M\nDirn 2 360 70 4 10 23 M\n",
    ));
    let anim = animate(&free);
    let poses = poses_at(&anim, 1.0);
    let gap = palm_in_world(&anim.skeleton, &poses[0], BodySide::Left).distance(palm_in_world(
        &anim.skeleton,
        &poses[1],
        BodySide::Right,
    ));
    assert!(gap > 0.5, "free hands {gap:.2} m apart");
}

#[test]
fn a_dancer_s_own_hands_joined_by_a_bow_meet_in_front_with_the_arms_forward() {
    // ayu1.lbn's preparation: both arms forward middle, palms joined (bow + hold signs).
    let s = score(&one_staff(
        "Dirn 10 72 121 4 10 23 M\nDirn 1 184 121 4 10 23 M\nLimb 5 59 122 4 12 24 B\nLimb 10 198 122 4 12 24 B\n\
         Misc 1 63 110 13 142 24 B\nVolm 7 59 146 1 12 12 B\nVolm 7 198 146 1 12 12 B\n",
    ));
    let anim = animate(&s);
    let poses = poses_at(&anim, 1.5);
    let sk = &anim.skeleton;
    let (l, r) = (palm_in_world(sk, &poses[0], BodySide::Left), palm_in_world(sk, &poses[0], BodySide::Right));
    assert!(l.distance(r) < 0.05, "palms {:.3} m apart", l.distance(r));
    let pelvis = poses[0].pelvis_in_world;
    let shoulder = joint_world(sk, &poses[0], JointId::ShoulderR).1;
    // In front of the chest, near shoulder height (the arms are forward middle).
    assert!(l.z - pelvis.z > 0.35, "hands only {:.2} m in front", l.z - pelvis.z);
    assert!((l.y - shoulder.y).abs() < 0.15, "hands at {:.2}, shoulder at {:.2}", l.y, shoulder.y);
}

#[test]
fn a_wrist_sign_moves_the_lower_arm_and_the_upper_arm_keeps_its_direction() {
    // Right arm forward middle (beat 0–1), then the lower arm (wrist sign) to the side high.
    let s = score(&one_staff("Dirn 1 184 97 4 10 23 M\nLimb 8 184 122 4 12 24 B\nDirn 3 184 145 4 10 23 H\n"));
    let anim = animate(&s);
    let sk = &anim.skeleton;
    let end = poses_at(&anim, anim.duration_secs - 0.01);
    let p = &end[0];
    let (sh, el, wr) = (
        joint_world(sk, p, JointId::ShoulderR).1,
        joint_world(sk, p, JointId::ElbowR).1,
        joint_world(sk, p, JointId::WristR).1,
    );
    let (upper, lower) = ((el - sh).normalize(), (wr - el).normalize());
    // The dancer faces +Z; the right side is −X.
    let forward = Vec3::Z;
    let right_high = Vec3::new(-1.0, 1.0, 0.0).normalize();
    assert!(upper.angle_between(forward).to_degrees() < 20.0, "upper arm {upper:?}");
    assert!(lower.angle_between(right_high).to_degrees() < 25.0, "lower arm {lower:?}");
    assert_no_pops(&anim, &[JointId::ElbowR, JointId::WristR, JointId::HandR]);
}

/// The notated direction (right, up, forward in the dancer's frame) in the world of a dancer
/// facing +Z, whose right is −X.
pub(crate) fn world_of(body: Vec3) -> Vec3 {
    Vec3::new(-body.x, body.y, body.z).normalize()
}

fn segment_dirs(anim: &Animation, t_secs: f64, joints: [JointId; 3]) -> (Vec3, Vec3) {
    let poses = poses_at(anim, t_secs);
    let at = |j| joint_world(&anim.skeleton, &poses[0], j).1;
    let (a, b, c) = (at(joints[0]), at(joints[1]), at(joints[2]));
    ((b - a).normalize(), (c - b).normalize())
}

/// No joint of `joints` pops at 60 fps (moves more than 3 cm in a frame and more than 4× its
/// neighbouring frames), the continuity test's criterion.
pub(crate) fn assert_no_pops(anim: &Animation, joints: &[JointId]) {
    let n = (anim.duration_secs * 60.0) as usize;
    for &j in joints {
        let track: Vec<Vec3> = (0..=n)
            .map(|i| {
                let poses = poses_at(anim, i as f64 / 60.0);
                joint_world(&anim.skeleton, &poses[0], j).1
            })
            .collect();
        let steps: Vec<f32> = track.windows(2).map(|w| w[0].distance(w[1])).collect();
        for i in 1..steps.len().saturating_sub(1) {
            let around = steps[i - 1].max(steps[i + 1]);
            assert!(
                !(steps[i] > 0.03 && steps[i] > 4.0 * around),
                "{j:?} jumps {:.3} m at frame {} (neighbours {around:.3} m)",
                steps[i],
                i + 1
            );
        }
    }
}

/// The end of the first entry of `staff`'s channel `kind` that satisfies `pick`, seconds.
fn end_of(staff: &Staff, kind: ChannelKind, pick: impl Fn(&EntryKind) -> bool) -> f64 {
    let ch = staff.channel(kind).unwrap_or_else(|| panic!("no {kind:?} channel"));
    let e = ch.entries.iter().find(|e| pick(&e.kind)).expect("the entry");
    e.start_secs + e.duration_secs
}

fn is_dir(direction: labanplay::read::Direction, level: labanplay::read::Level) -> impl Fn(&EntryKind) -> bool {
    move |k| *k == EntryKind::Direction { direction, level }
}

#[test]
fn an_elbow_sign_moves_the_upper_arm_and_the_lower_arm_keeps_its_direction() {
    // Right arm to the side (beat 0–1); the lower arm (wrist sign) up (beat 2–3); then the upper
    // arm (elbow sign) forward (beat 4–5): the forearm stays up.
    let s = score(&one_staff(
        "Dirn 3 184 97 4 10 23 M\nLimb 8 184 122 4 12 24 B\nDirn 11 184 146 4 10 23 H\n\
         Limb 7 184 170 4 12 24 B\nDirn 1 184 194 4 10 23 M\n",
    ));
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
    let anim = animate(&s);
    let arm = [JointId::ShoulderR, JointId::ElbowR, JointId::WristR];
    let (right, up, forward) = (world_of(Vec3::X), Vec3::Y, Vec3::Z);
    let t3 = s.tempo.secs_from_beats(3.05);
    let (upper, lower) = segment_dirs(&anim, t3, arm);
    assert!(upper.angle_between(right).to_degrees() < 20.0, "beat 3: upper arm {upper:?}");
    assert!(lower.angle_between(up).to_degrees() < 20.0, "beat 3: lower arm {lower:?}");
    let t5 = s.tempo.secs_from_beats(5.1);
    let (upper, lower) = segment_dirs(&anim, t5, arm);
    assert!(upper.angle_between(forward).to_degrees() < 20.0, "beat 5: upper arm {upper:?}");
    assert!(lower.angle_between(up).to_degrees() < 20.0, "beat 5: lower arm {lower:?}");
    assert_no_pops(&anim, &[JointId::ElbowR, JointId::WristR, JointId::HandR]);
}

#[test]
fn real_segment_scores_move_the_segment_their_pre_sign_names() {
    let Some(dir) = support::real_scores_dir("segment columns") else { return };
    use labanplay::read::{Direction as D, Level as L};
    let c = std::f32::consts::FRAC_1_SQRT_2;
    // elbow1.lbn: wrist signs name the first gestures above them and the phrase they start; the first
    // lower-arm gesture is to the side high, the upper arm hangs (natural standing).
    let s = crate::support::load_score(&dir.join("laban-tk/elbow1.lbn"));
    let anim = animate(&s);
    let t = end_of(&s.staves[0], ChannelKind::Part(BodyPart::Wrist(Side::Right)), is_dir(D::Right, L::High));
    let (upper, lower) = segment_dirs(&anim, t, [JointId::ShoulderR, JointId::ElbowR, JointId::WristR]);
    assert!(upper.angle_between(-Vec3::Y).to_degrees() < 25.0, "elbow1: upper arm {upper:?}");
    assert!(lower.angle_between(world_of(Vec3::new(c, c, 0.0))).to_degrees() < 25.0, "elbow1: lower arm {lower:?}");
    // (knee.lbn's thigh and lower-leg columns, thigh.lbn's hips: see `motion_leg_segments`.)
}

#[test]
fn barn_dance_partners_hands_stay_together_through_the_opening_hold() {
    let Some(dir) = support::real_scores_dir("barn hold motion") else { return };
    let s = crate::support::load_score(&dir.join("laban-tk/barn.lbn"));
    let anim = animate(&s);
    let sk = &anim.skeleton;
    // The opening hold lasts to measure 2, beat 3.5 (6.5 beats = 3.25 s at 120 bpm).
    let hold_end = s.tempo.secs_from_beats(6.5);
    let mut worst = 0.0f32;
    let mut t = 0.0;
    while t < hold_end {
        let poses = poses_at(&anim, t);
        // His left hand and her right hand.
        let gap = palm_in_world(sk, &poses[0], BodySide::Left).distance(palm_in_world(sk, &poses[1], BodySide::Right));
        worst = worst.max(gap);
        t += 0.25;
    }
    assert!(worst < 0.08, "joined hands up to {worst:.3} m apart during the hold");
    // After the release the hands part (they dance apart in measure 3).
    let poses = poses_at(&anim, s.tempo.secs_from_beats(10.0));
    let apart = palm_in_world(sk, &poses[0], BodySide::Left).distance(palm_in_world(sk, &poses[1], BodySide::Right));
    assert!(apart > 0.1, "hands still together after the release ({apart:.3} m)");
}

#[test]
fn a_repeated_section_reports_each_thing_about_a_symbol_once() {
    let Some(dir) = support::real_scores_dir("warnings once") else { return };
    // barn.lbn repeats its measures; its front sign in measure 8 disagrees with the turns each time.
    let s = crate::support::load_score(&dir.join("laban-tk/barn.lbn"));
    let anim = animate(&s);
    let skipped = &anim.interpretation.skipped;
    let front = skipped.iter().filter(|d| d.message.contains("front sign says 225°")).count();
    assert_eq!(front, 1, "{skipped:#?}");
    let mut seen = std::collections::BTreeSet::new();
    assert!(skipped.iter().all(|d| seen.insert((d.span.offset, d.message.clone()))), "{skipped:#?}");
}
