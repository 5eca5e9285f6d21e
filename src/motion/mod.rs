//! Motion: the rule engine turns a composite score into footprints, a facing track, a pelvis
//! height track and limb keys per dancer ([`plan`]); the centre-of-mass path and the pose
//! sampler build on that; [`com`] finds the pelvis path through the footprints; [`floor`] plans
//! supports on the knees, hands, seat and torso. Pure: no GPU, window, UI or audio code.

pub mod com;
pub mod floor;
pub mod plan;
pub mod rules;
pub mod steps;
