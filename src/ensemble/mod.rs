//! Ensembles: plan files (stage, obstacles, formations from pictures or shapes, groups, a
//! timeline of events), picture → lattice, assignment, and the predict–correct–act simulation
//! with exact conflict checks found while it steps. Pure: no GPU, window, UI or audio code, and no file opened here:
//! a plan's scores, pictures and music come through the [`crate::read::Sources`] it is given.

pub mod assign;
pub mod clock;
pub mod conflicts;
pub mod floor;
pub mod grid;
pub mod orca;
pub mod path;
pub mod picture;
pub mod plan;
pub mod raw;
pub mod route;
pub mod shapes;
pub mod sheets;
pub mod simulate;
pub mod steer;
pub mod stream;
pub mod targets;

pub use plan::{Plan, PlanError, PlanFile, read_plan, read_plan_file};
pub use simulate::{Motion, Simulation, simulate};
