//! Edit-to-picture on the generated 100-measure solo (the motion benchmark's score): one key
//! inserts an arm sign, the score is recomposed, the motion recompiled and the dancer sampled
//! at the cursor, as the player does before its next frame. Prints the time it took.
#![allow(clippy::unwrap_used)] // A failed unwrap is a failed test.

#[path = "../../benches/support/solo.rs"]
mod solo;

use labanplay::read::{Direction, Level};
use labanplay::stage::dancer_mesh::mannequin;
use labanplay::stage::edit_session::{EditCommand, EditSession};
use labanplay::stage::player::{Player, ScoreSource};

#[test]
fn an_arm_sign_reaches_the_dancer_of_the_100_measure_solo_within_a_frame_budget() {
    let doc = labanplay::read::read(solo::generated_solo(100).as_bytes(), Some("lbn")).unwrap();
    let model = mannequin(&labanplay::pose::Proportions::default()).unwrap();
    let mut player = Player::new(labanplay::demo::default_score(), ScoreSource::Demo("solo"), model, false);
    let mut session = EditSession::with_document(doc, &mut player).unwrap();
    assert_eq!(player.measure_count(), 100);
    player.playback.seek(201.0);
    session.command(EditCommand::Level(Level::High), &mut player);
    let started = std::time::Instant::now();
    assert!(session.command(EditCommand::Direction(Direction::Right), &mut player));
    player.sample();
    let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    eprintln!("edit-to-picture, 100-measure solo: {elapsed_ms:.1} ms (test profile)");
    assert_eq!(session.status.as_deref(), Some("right arm, right side high, 1 beat"));
    // Generous: the test profile on a shared machine; the figure is what is reported.
    assert!(elapsed_ms < 5000.0, "{elapsed_ms} ms");
}
