//! Fuzz target: the `.lw` reader and the score builder must never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(doc) = labanplay::read::lw::read(data) {
        let _ = labanplay::score::Score::from_document(&doc);
    }
});
