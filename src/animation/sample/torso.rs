//! The torso and head: the chest's and the head's tilts towards their notated directions (body
//! frame, gravity up), the spine's counter to the pelvis tilt, and the spine's twist.

use super::{DancerAnimation, JointId, Pose, Skeleton, limb_at, local_from_body};
use crate::animation::pelvis_tilt::spine_counter;
use crate::motion::plan::LimbId;
use glam::{Quat, Vec3};

/// The most the chest tilts (over the spine and chest joints), degrees.
const CHEST_TILT_MAX_DEG: f32 = 30.0;

/// The most the head tilts (over the neck and head joints), degrees.
const HEAD_TILT_MAX_DEG: f32 = 45.0;

impl DancerAnimation {
    /// Tilts the chest and head at `t`, gives back the pelvis `tilt` in the spine, and twists it.
    pub(super) fn pose_torso(&self, skeleton: &Skeleton, t: f64, tilt: Quat, pose: &mut Pose) {
        for (limb, joints, max_deg) in [
            (LimbId::Chest, [JointId::Spine, JointId::Chest], CHEST_TILT_MAX_DEG),
            (LimbId::Head, [JointId::Neck, JointId::Head], HEAD_TILT_MAX_DEG),
        ] {
            let dir = limb_at(self.plan.limbs.get(&limb), t, Vec3::Y).dir_in_body;
            let d = local_from_body(dir);
            if d.length_squared() > 1e-6 {
                let d = d.normalize();
                let angle = d.y.clamp(-1.0, 1.0).acos().min(max_deg.to_radians());
                let axis = Vec3::Y.cross(d);
                if axis.length_squared() > 1e-8 {
                    // Half the tilt on each of the two joints.
                    let q = Quat::from_axis_angle(axis.normalize(), angle * 0.5);
                    for j in joints {
                        pose.set_local(j, skeleton.limits(j).clamp(q));
                    }
                }
            }
        }
        if tilt != Quat::IDENTITY {
            let counter = spine_counter(&self.tilt_rule, tilt);
            for j in [JointId::Spine, JointId::Chest] {
                pose.set_local(j, skeleton.limits(j).clamp(counter * pose.local(j)));
            }
        }
        crate::animation::rotations::twist_spine(&self.plan, skeleton, pose, t);
    }
}
