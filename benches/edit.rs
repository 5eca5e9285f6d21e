//! Edit-to-picture on the generated 100-measure solo: one key writes an arm sign (or a step) at
//! the cursor, the score is recomposed, the motion recompiled and the dancer sampled at the
//! cursor, as the player does before its next frame. Beside it, the same recompose + recompile + sample with no
//! edit, so the edit's own cost shows, and its parts: composing, compiling, the staff layout.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group};
use labanplay::read::{Direction, Level, read};
use labanplay::score::Score;
use labanplay::stage::dancer_mesh::mannequin;
use labanplay::stage::edit_session::{Caret, EditCommand, EditSession};
use labanplay::stage::player::{Player, ScoreSource};

#[path = "support/solo.rs"]
mod solo;

/// The beat of the solo the arm sign is written at (measure 51).
const CURSOR_BEATS: f64 = 201.0;

fn bench(c: &mut Criterion) {
    let doc = read(solo::generated_solo(100).as_bytes(), Some("lbn")).unwrap();
    let model = mannequin(&labanplay::pose::Proportions::default()).unwrap();
    let mut player = Player::new(labanplay::demo::default_score(), ScoreSource::Demo("solo"), model, false);
    let mut session = EditSession::with_document(doc.clone(), &mut player).unwrap();
    assert_eq!(player.measure_count(), 100);
    session.command(EditCommand::Level(Level::High), &mut player);
    let mut right = false;
    c.bench_function("edit to picture, 100-measure solo (arm sign + recompose + recompile + sample)", |b| {
        b.iter(|| {
            // The same place each time: the new sign replaces the last one, in turn right and left.
            right = !right;
            player.playback.seek(CURSOR_BEATS);
            let direction = if right { Direction::Right } else { Direction::Left };
            assert!(session.command(EditCommand::Direction(direction), &mut player));
            player.sample();
        })
    });
    // A step: a support sign written over the first step of a measure moves every later
    // footprint, so the pelvis path is solved again (the arm sign above keeps it). Each time the
    // next measure of the second half, the direction flipping on each pass, so that no score
    // repeats and no solved path is reused.
    session.caret = Caret { staff: 0, column: 1 };
    session.command(EditCommand::Level(Level::Middle), &mut player);
    let mut written = 0usize;
    c.bench_function("edit to picture, 100-measure solo (step sign + recompose + recompile + sample)", |b| {
        b.iter(|| {
            let measure = 50 + written % 50;
            let forward = (written / 50) % 2 == 0;
            written += 1;
            // A new sign at the caret, not the last one changed.
            session.command(EditCommand::Deselect, &mut player);
            player.playback.seek(4.0 * measure as f64 + 1.0);
            let direction = if forward { Direction::Backward } else { Direction::Forward };
            assert!(session.command(EditCommand::Direction(direction), &mut player));
            player.sample();
        })
    });
    // Its parts: composing the page, compiling the motion, laying out the staff panel.
    let score = Score::from_document(&doc);
    c.bench_function("part: compose the solo's page (Score::from_document)", |b| {
        b.iter(|| Score::from_document(std::hint::black_box(&doc)))
    });
    let proportions = labanplay::pose::Proportions::default();
    let options = labanplay::motion::rules::MotionOptions::default();
    c.bench_function("part: compile the solo's motion", |b| {
        b.iter(|| labanplay::animation::compile(std::hint::black_box(&score), &options, &proportions))
    });
    c.bench_function("part: lay out the solo's staff", |b| {
        b.iter(|| labanplay::stage::staff_layout::StaffLayout::new(std::hint::black_box(&score)))
    });
    let source = player.source().clone();
    c.bench_function("recompose + recompile + sample, 100-measure solo (no edit)", |b| {
        b.iter(|| {
            player.replace_score(Score::from_document(std::hint::black_box(&doc)), source.clone());
            player.playback.seek(CURSOR_BEATS);
            player.sample();
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
