//! Rehearsal aids, pure: where a score sits in its music ([`sync`]), the playback clock that
//! follows the audio output's clock ([`clock`]), tap-to-align ([`tap`]), loop ranges
//! ([`loop_range`]), the sidecar music file ([`sidecar`]) and the persisted settings ([`settings`]).
//! No audio device here: the player (`viewer::music`) feeds the output's position in.

pub mod clock;
pub mod loop_range;
pub mod settings;
pub mod sidecar;
pub mod sync;
pub mod tap;
