//! Which capture joint drives which project joint: a table of common BVH dialects (CMU/cgspeed,
//! Biovision, MotionBuilder/Mixamo, Unity, Unreal, 3ds Max Biped, DAZ/Poser, this project's own
//! export) and a small TOML override file, `capture_joint = "ProjectJoint"`.
//!
//! The root drives the pelvis. Names are compared lower-case without namespace prefixes
//! (`mixamorig:`, `Armature|`), a `Bip01` prefix and separators, with the side as
//! `Left…`/`L…`/`…_l`/`….L` (and Right). Limb words per project joint (either side):
//!
//! | project joint | words |
//! |---|---|
//! | Clavicle | `collar`, `clavicle`; `shoulder` when that side also has an `arm`/`upperarm` |
//! | Shoulder | `arm`, `upperarm`, `uparm`, `shldr`, `shldrbend`; `shoulder` otherwise |
//! | Elbow | `forearm`, `lowerarm`, `lowarm`, `elbow`, `forearmbend` |
//! | Wrist | `wrist`; `hand` when that side has no `wrist` |
//! | Hand (knuckles) | `fingerbase`, `knuckles`, `palm`; `hand` when the side has a `wrist` |
//! | Hip | `upleg`, `upperleg`, `thigh`, `thighbend`, `hip`, `femur` (not CMU's `LHipJoint`) |
//! | Knee | `leg`, `lowerleg`, `lowleg`, `shin`, `calf`, `knee`, `tibia` |
//! | Ankle | `foot`, `ankle` |
//! | Ball | `toebase`, `toe`, `toes`, `toe0`, `ball`, `toesbase` |
//! | Neck, Head | `neck` (`neck01`, `neck1`), `head` |
//! | Spine, Chest | the joints between the root and the neck: the first drives Spine, the last Chest |
//!
//! The override file `NAME.map.toml` beside `NAME.bvh` has one line per capture joint,
//! `capture_joint = "ProjectJoint"` (a [`JointId`] name such as `HipL`, or
//! this project's BVH name such as `LeftHip`; `"none"` leaves a capture joint unused). Its errors
//! have line:col too.

use std::collections::BTreeMap;

use super::capture::Capture;
use crate::diag::Span;
use crate::pose::skeleton::{JointId, Side};

/// The capture joint (index into [`Capture::joints`]) that drives each mapped project joint.
pub type JointMap = BTreeMap<JointId, usize>;

/// An override file could not be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}:{}: {message}", span.line, span.col)]
pub struct MapFileError {
    /// Where in the override file.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

/// Lower case, without a namespace prefix (`mixamorig:`, `Armature|`), a 3ds Max `Bip01` prefix
/// or separators (`_ . - space`): `mixamorig:LeftUpLeg` → `leftupleg`, `thigh_l` → `thighl`.
pub fn normalise(name: &str) -> String {
    let tail = name.rsplit([':', '|']).next().unwrap_or(name);
    let mut s: String = tail.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    for prefix in ["bip001", "bip01"] {
        if let Some(rest) = s.strip_prefix(prefix)
            && !rest.is_empty()
        {
            s = rest.to_string();
        }
    }
    s
}

/// Limb word stems per project joint (the left side; the right one is the same with `right`/`r`).
/// `shoulder` and `hand` depend on the dialect (see [`auto_map`]).
const LIMB_STEMS: [(JointId, &[&str]); 9] = [
    (JointId::ClavicleL, &["collar", "clavicle"]),
    (JointId::ShoulderL, &["arm", "upperarm", "shldr", "shldrbend", "uparm"]),
    (JointId::ElbowL, &["forearm", "lowerarm", "elbow", "forearmbend", "lowarm"]),
    (JointId::WristL, &["wrist"]),
    (JointId::HandL, &["fingerbase", "knuckles", "palm"]),
    (JointId::HipL, &["upleg", "upperleg", "thigh", "hip", "thighbend", "femur"]),
    (JointId::KneeL, &["leg", "lowerleg", "shin", "calf", "knee", "tibia", "lowleg"]),
    (JointId::AnkleL, &["foot", "ankle"]),
    (JointId::BallL, &["toebase", "toe", "toes", "toe0", "ball", "toesbase"]),
];

/// The project joint on `side` matching the left-side joint `left`.
fn on_side(left: JointId, side: Side) -> JointId {
    if side == Side::Left { left } else { left.mirrored() }
}

/// The side and stem of a normalised name: `leftupleg`, `lthigh`, `thighl`, `upperarmleft`.
fn side_and_stem(n: &str) -> Option<(Side, &str)> {
    for (side, long, short) in [(Side::Left, "left", "l"), (Side::Right, "right", "r")] {
        for prefix in [long, short] {
            if let Some(stem) = n.strip_prefix(prefix)
                && is_limb_stem(stem)
            {
                return Some((side, stem));
            }
        }
        for suffix in [long, short] {
            if let Some(stem) = n.strip_suffix(suffix)
                && is_limb_stem(stem)
            {
                return Some((side, stem));
            }
        }
    }
    None
}

fn is_limb_stem(stem: &str) -> bool {
    stem == "shoulder" || stem == "hand" || LIMB_STEMS.iter().any(|(_, stems)| stems.contains(&stem))
}

/// The automatic mapping: the root drives the pelvis; limb joints by their names (the table
/// above, both sides); `shoulder` is the clavicle when the same side also has an `arm`/`upperarm`
/// (CMU, Mixamo), else the shoulder joint (Biovision); `hand` is the knuckles when the side has a
/// `wrist`, else the wrist; `neck` and `head` by name; the spine joints between the root and the
/// neck by position along that chain (first → Spine, last → Chest).
pub fn auto_map(capture: &Capture) -> JointMap {
    let mut map = JointMap::new();
    let named: Vec<(usize, String)> = capture.joints.iter().enumerate().map(|(i, j)| (i, normalise(&j.name))).collect();
    let has_stem = |side: Side, stems: &[&str]| {
        named.iter().any(|(_, n)| side_and_stem(n).is_some_and(|(s, stem)| s == side && stems.contains(&stem)))
    };
    for (i, n) in &named {
        let Some((side, stem)) = side_and_stem(n) else { continue };
        let left = match stem {
            "shoulder" if has_stem(side, &["arm", "upperarm", "uparm"]) => JointId::ClavicleL,
            "shoulder" => JointId::ShoulderL,
            "hand" if has_stem(side, &["wrist"]) => JointId::HandL,
            "hand" => JointId::WristL,
            _ => match LIMB_STEMS.iter().find(|(_, stems)| stems.contains(&stem)) {
                Some((joint, _)) => *joint,
                None => continue,
            },
        };
        map.entry(on_side(left, side)).or_insert(*i);
    }
    if let Some(root) = capture.joints.iter().position(|j| j.parent.is_none()) {
        map.insert(JointId::Pelvis, root);
    }
    let find = |names: &[&str]| named.iter().find(|(_, n)| names.contains(&n.as_str())).map(|(i, _)| *i);
    if let Some(neck) = find(&["neck", "neck01", "neck1", "necklower"]) {
        map.insert(JointId::Neck, neck);
    }
    if let Some(head) = find(&["head"]) {
        map.insert(JointId::Head, head);
    }
    fill_spine(capture, &mut map);
    map
}

/// Spine and Chest from the chain between the root and the neck (or the clavicles' parent).
fn fill_spine(capture: &Capture, map: &mut JointMap) {
    let top = map.get(&JointId::Neck).copied().or_else(|| {
        map.get(&JointId::ClavicleL).or(map.get(&JointId::ShoulderL)).and_then(|&c| capture.joints.get(c)?.parent)
    });
    let Some(top) = top else { return };
    let mut chain = Vec::new();
    let mut cursor = capture.joints.get(top).and_then(|j| j.parent);
    while let Some(j) = cursor {
        if capture.joints.get(j).is_some_and(|x| x.parent.is_none()) {
            break;
        }
        chain.push(j);
        cursor = capture.joints.get(j).and_then(|x| x.parent);
    }
    chain.reverse();
    // The neck's parent is the chest when the neck is mapped; otherwise the top joint itself is.
    if !map.contains_key(&JointId::Neck) {
        chain.push(top);
    }
    if let Some(&first) = chain.first() {
        map.entry(JointId::Spine).or_insert(first);
    }
    if chain.len() >= 2
        && let Some(&last) = chain.last()
    {
        map.entry(JointId::Chest).or_insert(last);
    }
}

/// The project joint called `name`: its enum name (`ElbowL`), its BVH export name
/// (`LeftElbow`), either case-insensitively.
pub fn project_joint(name: &str) -> Option<JointId> {
    JointId::ALL
        .into_iter()
        .find(|j| format!("{j:?}").eq_ignore_ascii_case(name) || j.name().eq_ignore_ascii_case(name))
}

/// Applies an override file to `map`: each line `capture_joint = "ProjectJoint"` (or `"none"` to
/// leave that capture joint unused). A project joint named in the file is driven only by the
/// capture joint given there.
pub fn apply_overrides(capture: &Capture, map: &mut JointMap, text: &str) -> Result<(), MapFileError> {
    let bytes = text.as_bytes();
    let table: BTreeMap<String, toml::Spanned<String>> = toml::from_str(text).map_err(|e| MapFileError {
        span: Span::of_offset(bytes, e.span().map_or(0, |r| r.start)),
        message: format!(
            "{} (expected lines like `LeftUpLeg = \"HipL\"`)",
            e.message().lines().next().unwrap_or("invalid TOML")
        ),
    })?;
    let mut entries: Vec<(&String, &toml::Spanned<String>)> = table.iter().collect();
    entries.sort_by_key(|(_, v)| v.span().start);
    for (capture_name, value) in entries {
        let span = Span::of_offset(bytes, value.span().start);
        let Some(index) = capture.joint_index(capture_name) else {
            let known: Vec<&str> = capture.joints.iter().map(|j| j.name.as_str()).collect();
            return Err(MapFileError {
                span,
                message: format!("the capture has no joint `{capture_name}`; its joints are {}", known.join(", ")),
            });
        };
        map.retain(|_, v| *v != index);
        if value.get_ref().eq_ignore_ascii_case("none") {
            continue;
        }
        let Some(target) = project_joint(value.get_ref()) else {
            let names: Vec<String> = JointId::ALL.iter().map(|j| format!("{j:?}")).collect();
            return Err(MapFileError {
                span,
                message: format!(
                    "`{}` is not a project joint; use one of {} or \"none\"",
                    value.get_ref(),
                    names.join(", ")
                ),
            });
        };
        map.insert(target, index);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalise_across_dialects() {
        assert_eq!(normalise("mixamorig:LeftUpLeg"), "leftupleg");
        assert_eq!(normalise("thigh_l"), "thighl");
        assert_eq!(normalise("Bip01 L Thigh"), "lthigh");
        assert_eq!(normalise("UpperArm.L"), "upperarml");
        for (name, side, stem) in [
            ("leftupleg", Side::Left, "upleg"),
            ("lthigh", Side::Left, "thigh"),
            ("thighr", Side::Right, "thigh"),
            ("rightforearm", Side::Right, "forearm"),
            ("lowerarml", Side::Left, "lowerarm"),
            ("lshldr", Side::Left, "shldr"),
        ] {
            assert_eq!(side_and_stem(name), Some((side, stem)), "{name}");
        }
        assert_eq!(side_and_stem("lhipjoint"), None);
        assert_eq!(side_and_stem("lowerback"), None);
        assert_eq!(project_joint("elbowl"), Some(JointId::ElbowL));
        assert_eq!(project_joint("LeftToe"), Some(JointId::BallL));
        assert_eq!(project_joint("Elbow"), None);
    }
}
