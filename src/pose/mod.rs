//! The dancer's body: a fixed humanoid skeleton, poses, forward kinematics and analytic limb IK.
//!
//! [`skeleton`] defines the joints, proportions and limits; [`fk`] turns a [`Pose`] (local joint
//! rotations) into world transforms; [`ik`] solves arm and leg chains towards targets.
//! Conventions: metres, radians, right-handed, +Y up, the dancer faces +Z at rest, left is +X.

pub mod fk;
pub mod ik;
pub mod limits;
pub mod skeleton;

pub use fk::Pose;
pub use limits::JointLimits;
pub use skeleton::{JOINT_COUNT, JointId, Limb, Proportions, Side, Skeleton};
