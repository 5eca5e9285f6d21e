//! Motion: from footprints and timing to whole-body trajectories.
//!
//! [`com`] turns planted feet over time into a physically plausible pelvis (centre-of-mass) path.

pub mod com;
