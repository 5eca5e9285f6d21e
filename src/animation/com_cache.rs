//! Centre-of-mass paths solved by earlier compiles, kept by their job: a recompile whose dancer
//! has the same job as before (an edit of the arms, head or torso, or of another dancer) takes the
//! path kept here instead of solving it again. The optimiser is a pure function of its job, so a
//! kept path is exactly the one solving would give: a compile with a cache and one without agree
//! to the bit.

use crate::motion::com::{ComError, ComJob, ComPath};

/// How many solved jobs a cache keeps by default: every dancer of a score of up to 32 staves,
/// before and after an edit.
pub const DEFAULT_CAPACITY: usize = 64;

/// Solved jobs, the most recently used last.
#[derive(Clone, Debug)]
pub struct ComPathCache {
    solved: Vec<(ComJob, Result<ComPath, ComError>)>,
    capacity: usize,
    hits: usize,
}

impl Default for ComPathCache {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_CAPACITY)
    }
}

impl ComPathCache {
    /// An empty cache keeping at most `capacity` jobs (0 keeps none).
    pub fn with_capacity(capacity: usize) -> Self {
        Self { solved: Vec::new(), capacity, hits: 0 }
    }

    /// The path of `job`: the kept one if `job` was solved before, else solved now (with
    /// `solve`) and kept, the least recently used job making room.
    pub fn path_of(
        &mut self,
        job: &ComJob,
        solve: impl FnOnce(&ComJob) -> Result<ComPath, ComError>,
    ) -> Result<ComPath, ComError> {
        if let Some(i) = self.solved.iter().position(|(kept, _)| kept == job) {
            let entry = self.solved.remove(i);
            let result = entry.1.clone();
            self.solved.push(entry);
            self.hits += 1;
            return result;
        }
        let result = solve(job);
        if self.capacity > 0 {
            if self.solved.len() >= self.capacity {
                let _evicted = self.solved.remove(0);
            }
            self.solved.push((job.clone(), result.clone()));
        }
        result
    }

    /// How many jobs are kept.
    pub fn len(&self) -> usize {
        self.solved.len()
    }

    /// True when no job is kept.
    pub fn is_empty(&self) -> bool {
        self.solved.is_empty()
    }

    /// How many paths were taken from the cache instead of solved.
    pub fn hits(&self) -> usize {
        self.hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::com::{Contact, Foot};
    use glam::Vec3;

    fn job(x: f32) -> ComJob {
        ComJob::new(
            vec![
                Contact::new(Foot::Left, Vec3::new(x, 0.0, 0.0), 0.0, 1.0),
                Contact::new(Foot::Right, Vec3::new(x + 0.3, 0.0, 0.4), 0.8, 2.0),
            ],
            0.9,
        )
    }

    #[test]
    fn a_job_solved_before_is_taken_from_the_cache_and_equals_a_fresh_solve() {
        let mut cache = ComPathCache::with_capacity(2);
        let mut solves = 0;
        let mut solve = |j: &ComJob| {
            solves += 1;
            crate::motion::com::solve_com_path(j)
        };
        let first = cache.path_of(&job(0.0), &mut solve);
        let again = cache.path_of(&job(0.0), &mut solve);
        assert_eq!(first, again);
        assert_eq!(again, crate::motion::com::solve_com_path(&job(0.0)));
        assert_eq!((cache.hits(), cache.len()), (1, 1));
        let _ = cache.path_of(&job(1.0), &mut solve);
        let _ = cache.path_of(&job(2.0), &mut solve);
        assert_eq!(cache.len(), 2, "the least recently used job made room");
        let _ = cache.path_of(&job(0.0), &mut solve);
        assert_eq!(solves, 4, "job 0 was dropped and solved again");
    }
}
