//! The bundled demo scores, compiled into the binary so `labanplay` with no argument always has
//! something to show.

/// Walk with arm gestures and a half turn (`scores/walk-arms-turn.lbn`).
pub const WALK_ARMS_TURN_LBN: &[u8] = include_bytes!("../scores/walk-arms-turn.lbn");
/// The five basic jumps (`scores/jumps.lbn`).
pub const JUMPS_LBN: &[u8] = include_bytes!("../scores/jumps.lbn");
/// A two-dancer score (`scores/duet.lbn`).
pub const DUET_LBN: &[u8] = include_bytes!("../scores/duet.lbn");

/// The score played when no file is given.
pub fn default_score() -> crate::score::Score {
    match crate::read::read(WALK_ARMS_TURN_LBN, Some("lbn")) {
        Ok(doc) => crate::score::Score::from_document(&doc),
        Err(d) => unreachable_demo(d),
    }
}

fn unreachable_demo(d: crate::diag::Diagnostics) -> crate::score::Score {
    // The demo is checked by tests; should it ever fail, show an empty score with the errors.
    crate::score::Score {
        title: Some("demo failed to read".into()),
        format: crate::read::Format::Lbn,
        tempo: crate::score::TempoMap { bpm: 120.0, is_default: true },
        meter: crate::score::Meter { beats_per_measure: 4, inferred: true },
        measures: Vec::new(),
        staves: Vec::new(),
        duration_beats: 0.0,
        contacts: Vec::new(),
        warnings: d.0,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn demos_read_without_warnings() {
        for bytes in [super::WALK_ARMS_TURN_LBN, super::JUMPS_LBN, super::DUET_LBN] {
            let doc = crate::read::read(bytes, Some("lbn")).unwrap();
            let score = crate::score::Score::from_document(&doc);
            assert!(score.warnings.is_empty(), "{:?}", score.warnings);
            assert!(!score.staves.is_empty());
        }
        assert_eq!(super::default_score().staves.len(), 1);
    }
}
