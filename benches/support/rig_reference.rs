//! The reference skeletons' limb joints (`../shared/meshes/*.skeleton.json`), shared by the rig
//! tests and the rig tools: each of the project's twelve limb joints with its name in each naming
//! scheme the references use (Mixamo, bevy-ik-skin, Unreal mannequin); left and right alternate.

use labanplay::pose::JointId;

/// The limb joints held to the bound, with their names in each reference naming scheme.
pub const LIMBS: [(JointId, [&str; 3]); 12] = [
    (JointId::ShoulderL, ["mixamorig:LeftArm", "UpperArm.L", "upperarm_l"]),
    (JointId::ShoulderR, ["mixamorig:RightArm", "UpperArm.R", "upperarm_r"]),
    (JointId::ElbowL, ["mixamorig:LeftForeArm", "ForeArm.L", "lowerarm_l"]),
    (JointId::ElbowR, ["mixamorig:RightForeArm", "ForeArm.R", "lowerarm_r"]),
    (JointId::WristL, ["mixamorig:LeftHand", "Hand.L", "hand_l"]),
    (JointId::WristR, ["mixamorig:RightHand", "Hand.R", "hand_r"]),
    (JointId::HipL, ["mixamorig:LeftUpLeg", "Hip.L", "thigh_l"]),
    (JointId::HipR, ["mixamorig:RightUpLeg", "Hip.R", "thigh_r"]),
    (JointId::KneeL, ["mixamorig:LeftLeg", "Shin.L", "calf_l"]),
    (JointId::KneeR, ["mixamorig:RightLeg", "Shin.R", "calf_r"]),
    (JointId::AnkleL, ["mixamorig:LeftFoot", "Foot.L", "foot_l"]),
    (JointId::AnkleR, ["mixamorig:RightFoot", "Foot.R", "foot_r"]),
];
