//! The named camera views of the stage (`front`, `side`, `top`, `three-quarter`, `follow`,
//! `behind`): the one list of names that `render --camera`, the player's buttons, its settings
//! and a plan's `camera = "NAME"` commands read. What each view shows is the stage model's
//! (`stage::camera_input`); this module is only the names, so the plan reader can check them.

/// A named camera view of the stage (one of the player's view buttons).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CameraView {
    /// From the audience.
    Front,
    /// From the audience's right.
    Side,
    /// From above.
    Top,
    /// Front-right, a little above.
    ThreeQuarter,
    /// Three-quarter angles, the target following dancer 1's pelvis.
    FollowDancer,
    /// Behind dancer 1, looking the way they face, turning when they turn.
    Behind,
}

impl CameraView {
    /// Every view, in button order.
    pub const ALL: [CameraView; 6] = [
        CameraView::Front,
        CameraView::Side,
        CameraView::Top,
        CameraView::ThreeQuarter,
        CameraView::FollowDancer,
        CameraView::Behind,
    ];

    /// True for the views whose target moves with dancer 1.
    pub fn follows_dancer(self) -> bool {
        matches!(self, CameraView::FollowDancer | CameraView::Behind)
    }

    /// The command-line name (what [`Self::from_name`] reads back).
    pub fn name(self) -> &'static str {
        match self {
            CameraView::Front => "front",
            CameraView::Side => "side",
            CameraView::Top => "top",
            CameraView::ThreeQuarter => "three-quarter",
            CameraView::FollowDancer => "follow",
            CameraView::Behind => "behind",
        }
    }

    /// Button label.
    pub fn label(self) -> &'static str {
        match self {
            CameraView::Front => "Audience",
            CameraView::Side => "Side",
            CameraView::Top => "Top",
            CameraView::ThreeQuarter => "¾",
            CameraView::FollowDancer => "Follow",
            CameraView::Behind => "Behind",
        }
    }

    /// Parses a command-line name: `front`/`audience`, `side`, `top`, `three-quarter`, `follow`,
    /// `behind`.
    pub fn from_name(name: &str) -> Option<CameraView> {
        match name.to_ascii_lowercase().as_str() {
            "front" | "audience" => Some(CameraView::Front),
            "side" => Some(CameraView::Side),
            "top" => Some(CameraView::Top),
            "three-quarter" | "threequarter" | "3/4" => Some(CameraView::ThreeQuarter),
            "follow" => Some(CameraView::FollowDancer),
            "behind" => Some(CameraView::Behind),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_names_parse() {
        assert_eq!(CameraView::from_name("front"), Some(CameraView::Front));
        assert_eq!(CameraView::from_name("Three-Quarter"), Some(CameraView::ThreeQuarter));
        assert_eq!(CameraView::from_name("top"), Some(CameraView::Top));
        assert_eq!(CameraView::from_name("side"), Some(CameraView::Side));
        assert_eq!(CameraView::from_name("diagonal"), None);
    }

    #[test]
    fn every_view_reads_back_from_its_name() {
        assert!(CameraView::ALL.iter().all(|v| CameraView::from_name(v.name()) == Some(*v)));
        assert_eq!(CameraView::from_name("behind"), Some(CameraView::Behind));
    }
}
