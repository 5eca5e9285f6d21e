//! The toes: kept on (or off) the floor for the pitch the foot actually took after its leg's
//! solve; in a flight the flight keys say; a foot well off the floor keeps its toes straight.

use super::foot_roll::FootRoll;
use super::legs::{Leg, LegFrame};
use super::{DancerAnimation, FootState, JointId, Pose, Side, smoothstep};
use glam::{Quat, Vec3};

/// Clearance of the sole over which toes bent to keep their tip on the floor straighten as the
/// foot rises, metres, at least…
const TOE_STRAIGHTEN_M: f32 = 0.02;

/// …and at least this many times the arc the toe tip travels as they straighten: a foot lifted
/// off its ball with the toes bent flat (a pointed foot dragged back) straightens them no
/// faster than it rises, rather than flicking them straight within a frame.
const TOE_STRAIGHTEN_PER_ARC: f32 = 1.5;

impl DancerAnimation {
    /// Bends the toes of `leg` for the foot its solve left at `ankle_world` (world rotation and
    /// position).
    pub(super) fn pose_toes(
        &self,
        frame: &LegFrame,
        leg: &Leg,
        roll: &FootRoll,
        ankle_world: (Quat, Vec3),
        pose: &mut Pose,
    ) {
        let skeleton = frame.skeleton;
        let state = &leg.state;
        let (got_rot, got_pos) = ankle_world;
        let ball = if leg.side == Side::Left { JointId::BallL } else { JointId::BallR };
        let pitch = roll.pitch_of(got_rot);
        let straight = FootState { ankle_in_world: got_pos, pitch_rad: pitch, toe_bend_rad: 0.0, ..*state };
        // Toes that keep the tip on the floor straighten as the foot rises (over its first
        // centimetres of clearance, more the more they are bent, continuously: they never snap
        // straight at one height).
        let clearance = if state.planted { 0.0 } else { self.foot_geometry.lowest_sole_y_turned(&straight, got_rot) };
        let bent = self.foot_geometry.toe_bend_for(pitch);
        let arc_m = bent.abs() * self.foot_geometry.toe_tip_in_ball().length();
        let straighten_m = TOE_STRAIGHTEN_M.max(TOE_STRAIGHTEN_PER_ARC * arc_m);
        let on_floor = 1.0 - smoothstep((clearance / straighten_m).clamp(0.0, 1.0));
        let ground = bent * on_floor;
        let toe_bend =
            self.flight_toe_bend(frame.t, state, got_pos, got_rot).map_or(ground, |flight| match leg.tap_blended {
                0.0 => flight,
                touch => flight + (ground - flight) * touch,
            });
        pose.set_local(ball, skeleton.limits(ball).clamp(Quat::from_rotation_x(toe_bend)));
    }

    /// The toe bend a foot in the air at `pitch_rad` keeps while its leg's solve looks for the
    /// floor: in a flight the toes take the flight keys' bend (see `flight_toe_bend`): the foot
    /// is lifted until they clear with it, so that bend never has to give way to another (a
    /// pointed foot hanging to the floor would flicker between the wanted bend and toes curled
    /// up). (A tapping foot keeps the ground's toes even in a flight.)
    pub(super) fn air_toe_bend(&self, flying: bool, leg: &Leg, pitch_rad: f32) -> f32 {
        let state = &leg.state;
        let ground = self.foot_geometry.toe_bend_for(pitch_rad.max(0.0));
        match (flying, leg.tap_blended) {
            (false, _) => ground,
            (true, 0.0) => state.toe_bend_rad,
            (true, touch) => state.toe_bend_rad + (ground - state.toe_bend_rad) * touch,
        }
    }
}
