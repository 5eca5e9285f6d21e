//! Shared walk cycles for performers far from the camera: one straight walk per gait and stride
//! (5 cm bins), sampled at 16 phases of its two-step cycle, in the walker's own frame (ground
//! point under the body at the origin, facing +Z). A far walker takes the nearest entry.

use super::steps::{WalkJob, Walker, walk_plan};
use crate::ensemble::plan::{Body, Gait};
use crate::pose::fk::Pose;
use crate::pose::skeleton::Skeleton;
use glam::Vec3;

/// Stride bin width, metres.
pub const STRIDE_BIN_M: f64 = 0.05;
/// Phases per two-step cycle.
pub const PHASES: usize = 16;
/// Steps walked before the sampled cycle (the walk is steady by then).
const LEAD_STEPS: usize = 4;

/// The table of cycle poses.
#[derive(Clone, Debug)]
pub struct Cycles {
    /// `[gait][stride bin][phase]`, flattened: see [`Cycles::index`].
    pub poses: Vec<Pose>,
    bins: [usize; 2],
}

fn gait_index(gait: Gait) -> usize {
    match gait {
        Gait::Walk => 0,
        Gait::Run => 1,
    }
}

impl Cycles {
    /// Samples every cycle for `body` at `bpm` (stride bins up to the longest step of each gait).
    pub fn new(skeleton: &Skeleton, walker: &Walker, body: &Body, bpm: f64, foot_half_spacing_m: f32) -> Self {
        let mut poses = Vec::new();
        let mut bins = [0; 2];
        for gait in [Gait::Walk, Gait::Run] {
            let n_bins = (body.max_step_m(gait) / STRIDE_BIN_M).ceil() as usize + 1;
            bins[gait_index(gait)] = n_bins;
            let step_secs = 60.0 / bpm / Body::steps_per_beat(gait);
            for bin in 0..n_bins {
                let speed = bin as f64 * STRIDE_BIN_M / step_secs;
                let ground = move |t: f64| Vec3::new(0.0, 0.0, (t.max(0.0) * speed) as f32);
                let job = WalkJob {
                    t_start_secs: 0.0,
                    step_secs,
                    steps: LEAD_STEPS + 4,
                    ground_at: &ground,
                    foot_half_spacing_m,
                    yaw_start_rad: 0.0,
                    flight: super::flight_of(gait),
                };
                let anim = walker.animate(walk_plan(&job));
                for phase in 0..PHASES {
                    let t = (LEAD_STEPS as f64 + 2.0 * phase as f64 / PHASES as f64) * step_secs;
                    let mut pose = Pose::rest(skeleton);
                    anim.sample_into(skeleton, t, &mut pose);
                    pose.pelvis_in_world -= ground(t);
                    poses.push(pose);
                }
            }
        }
        Cycles { poses, bins }
    }

    /// The entry for `gait` with a stride of `stride_m` at `steps` steps into the walk (the
    /// fractional part is the phase within the step; even steps land the left foot).
    pub fn index(&self, gait: Gait, stride_m: f64, steps: f64) -> usize {
        let g = gait_index(gait);
        let bin = ((stride_m / STRIDE_BIN_M).round().max(0.0) as usize).min(self.bins[g] - 1);
        let phase = ((steps.rem_euclid(2.0) / 2.0 * PHASES as f64).round() as usize) % PHASES;
        let first = if g == 0 { 0 } else { self.bins[0] * PHASES };
        first + bin * PHASES + phase
    }
}
