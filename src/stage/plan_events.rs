//! A plan's events for the player: which command (lights, camera, music) is in force at a beat,
//! the lighting and camera view it yields, and the timeline of behaviour and command events as
//! bars in lanes. Pure functions over the plan (no GPU, no UI).
//!
//! The last command of each kind at or before the beat is in force. `lights = "NAME"` is a preset:
//! `default` (the player's own: warm white key light front-right, cool sky), `warm` (amber key,
//! warm low ambient), `cool` (pale blue), `bright` (strong white from high front), `dim` (the
//! default at 40 %), `night` (faint blue moonlight from upstage), `sunset` (low orange-red from
//! stage left, purple sky); `lights = "#rrggbb"` sets the key light to that colour, the ambient
//! tinted by it at a third. `camera = "NAME"` cuts to that view framed on the plan (in the player
//! once, when the cut comes into force, so the camera can be moved after it). `music = "FILE"`
//! starts that file with the cue's beat at the file's start.

use crate::ensemble::plan::{Command, CommandKind, Method, Plan};
use crate::stage::Lighting;
use crate::stage::camera_input::CameraView;
use glam::Vec3;
use std::path::{Path, PathBuf};

/// Why a plan's command cannot be carried out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanEventError {
    /// `lights = "VALUE"` names no preset and is no `#rrggbb` colour.
    #[error("unknown lights `{value}`: write `#rrggbb` or one of {}", preset_names())]
    UnknownLights {
        /// The value written.
        value: String,
    },
    /// `music = "VALUE"` names no music file.
    #[error(
        "music cue `{value}`: no music file {} (a WAV, FLAC, OGG or MP3 path relative to the plan)",
        path.display()
    )]
    MissingMusic {
        /// The value written.
        value: String,
        /// Where the file was looked for.
        path: PathBuf,
    },
}

/// The names of [`LIGHT_PRESETS`], comma-separated.
fn preset_names() -> String {
    LIGHT_PRESETS.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
}

/// The lighting presets a `lights = "NAME"` command may name, with what they look like; a
/// `lights = "#rrggbb"` command instead sets the key light to that colour (see [`lighting_for`]).
pub const LIGHT_PRESETS: [(&str, &str); 7] = [
    ("default", "the player's own: warm white key light front-right, cool sky"),
    ("warm", "amber key light, warm low ambient (a golden stage)"),
    ("cool", "pale blue key light, blue ambient"),
    ("bright", "strong white key light from high front, bright ambient"),
    ("dim", "the default at 40 %"),
    ("night", "faint blue moonlight from upstage, dark ambient"),
    ("sunset", "low orange-red key light from stage left, purple sky"),
];

/// The lighting of `lights = "VALUE"`: a preset of [`LIGHT_PRESETS`] (case-insensitive) or a
/// `#rrggbb` key-light colour (ambient tinted by it at a third). Unknown names are an error.
pub fn lighting_for(value: &str) -> Result<Lighting, PlanEventError> {
    let default = Lighting::default();
    if let Some(rgb) = crate::ensemble::plan::parse_colour(value) {
        let mix = |base: [f32; 3], w: f32| [0, 1, 2].map(|k| base[k] * (1.0 - w) + base[k] * rgb[k] * 2.0 * w);
        return Ok(Lighting {
            sun_colour: rgb,
            sky_colour: mix(default.sky_colour, 1.0 / 3.0),
            ground_colour: mix(default.ground_colour, 1.0 / 3.0),
            ..default
        });
    }
    let lighting = match value.trim().to_ascii_lowercase().as_str() {
        "default" => default,
        "warm" => Lighting {
            sun_colour: [1.05, 0.70, 0.38],
            sky_colour: [0.30, 0.22, 0.16],
            ground_colour: [0.14, 0.08, 0.04],
            ..default
        },
        "cool" => Lighting {
            sun_colour: [0.55, 0.70, 1.0],
            sky_colour: [0.18, 0.26, 0.45],
            ground_colour: [0.05, 0.07, 0.11],
            ..default
        },
        "bright" => Lighting {
            sun_dir_in_world: Vec3::new(0.2, 0.95, 0.3),
            sun_colour: [1.25, 1.2, 1.12],
            sky_colour: [0.48, 0.50, 0.55],
            ground_colour: [0.16, 0.15, 0.13],
        },
        "dim" => Lighting {
            sun_colour: default.sun_colour.map(|c| 0.4 * c),
            sky_colour: default.sky_colour.map(|c| 0.4 * c),
            ground_colour: default.ground_colour.map(|c| 0.4 * c),
            ..default
        },
        "night" => Lighting {
            sun_dir_in_world: Vec3::new(-0.2, 0.6, -0.75),
            sun_colour: [0.16, 0.22, 0.42],
            sky_colour: [0.04, 0.05, 0.10],
            ground_colour: [0.01, 0.01, 0.02],
        },
        "sunset" => Lighting {
            sun_dir_in_world: Vec3::new(-0.9, 0.25, 0.3),
            sun_colour: [1.2, 0.45, 0.2],
            sky_colour: [0.22, 0.12, 0.28],
            ground_colour: [0.10, 0.04, 0.03],
        },
        _ => return Err(PlanEventError::UnknownLights { value: value.to_owned() }),
    };
    Ok(lighting)
}

/// The music file a `music = "VALUE"` cue names: a WAV, FLAC, OGG or MP3 file relative to the
/// plan's folder; the error says what was looked for.
pub fn music_cue_path(plan_path: &Path, value: &str) -> Result<PathBuf, PlanEventError> {
    let dir = plan_path.parent().unwrap_or(Path::new("."));
    let candidate = dir.join(value);
    let extension = candidate.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let is_music = extension.is_some_and(|e| crate::stage::files::MUSIC_EXTENSIONS.contains(&e.as_str()));
    if is_music && candidate.is_file() {
        Ok(candidate)
    } else {
        Err(PlanEventError::MissingMusic { value: value.to_owned(), path: candidate })
    }
}

/// The commands in force at a beat: for each kind, the index into `plan.commands` of the last
/// one at or before it (a later-written command wins a tie).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActiveCommands {
    /// The lighting command in force.
    pub lights: Option<usize>,
    /// The camera cut in force.
    pub camera: Option<usize>,
    /// The music cue in force.
    pub music: Option<usize>,
}

/// Which command of each kind is in force at `t_beats`.
pub fn active_at(commands: &[Command], t_beats: f64) -> ActiveCommands {
    let mut active = ActiveCommands::default();
    let mut best = [f64::NEG_INFINITY; 3];
    for (k, c) in commands.iter().enumerate() {
        if c.at_beats.partial_cmp(&t_beats).is_none_or(|o| o.is_gt()) {
            continue;
        }
        let (slot, lane) = match c.kind {
            CommandKind::Lights(_) => (&mut active.lights, 0),
            CommandKind::Camera(_) => (&mut active.camera, 1),
            CommandKind::Music(_) => (&mut active.music, 2),
        };
        if c.at_beats >= best[lane] {
            best[lane] = c.at_beats;
            *slot = Some(k);
        }
    }
    active
}

/// The lighting at `t_beats`: the last lights command's (the default before any, or when it
/// names no preset — the error says why).
pub fn lighting_at(plan: &Plan, t_beats: f64) -> (Lighting, Option<PlanEventError>) {
    let Some(k) = active_at(&plan.commands, t_beats).lights else { return (Lighting::default(), None) };
    match &plan.commands[k].kind {
        CommandKind::Lights(value) => match lighting_for(value) {
            Ok(l) => (l, None),
            Err(e) => (Lighting::default(), Some(e)),
        },
        _ => (Lighting::default(), None),
    }
}

/// The camera view the last camera cut at or before `t_beats` asks for, with its index.
pub fn camera_at(plan: &Plan, t_beats: f64) -> Option<(usize, CameraView)> {
    let k = active_at(&plan.commands, t_beats).camera?;
    match &plan.commands[k].kind {
        CommandKind::Camera(name) => CameraView::from_name(name).map(|v| (k, v)),
        _ => None,
    }
}

/// What a timeline bar stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BarKind {
    /// A behaviour event (a transition of one or more groups).
    Behaviour,
    /// A lighting change, until the next one.
    Lights,
    /// A camera cut, until the next one.
    Camera,
    /// A music cue, until the next one.
    Music,
}

/// One event on the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineBar {
    /// What it is.
    pub kind: BarKind,
    /// Start, plan beats.
    pub start_beats: f64,
    /// End, plan beats (a command lasts until the next of its kind, or the plan's end).
    pub end_beats: f64,
    /// Lane from the left: behaviour events in as few lanes as overlap needs, then one lane
    /// each for lights, camera and music.
    pub lane: usize,
    /// What to show, e.g. "blocks to heart".
    pub label: String,
}

impl TimelineBar {
    /// True while `t_beats` is inside the bar.
    pub fn is_current(&self, t_beats: f64) -> bool {
        self.start_beats <= t_beats && t_beats < self.end_beats
    }
}

/// The plan's events as bars, behaviour events first (in time order), then the commands; the
/// lanes the bars need is one more than the largest `lane`.
pub fn timeline_bars(plan: &Plan, end_beats: f64) -> Vec<TimelineBar> {
    let mut bars = Vec::new();
    let mut behaviours: Vec<usize> = (0..plan.behaviours.len()).collect();
    behaviours
        .sort_by(|&a, &b| plan.behaviours[a].start_beats.total_cmp(&plan.behaviours[b].start_beats).then(a.cmp(&b)));
    // Greedy lanes: the first whose last bar has ended.
    let mut lane_ends: Vec<f64> = Vec::new();
    for k in behaviours {
        let b = &plan.behaviours[k];
        let lane = match lane_ends.iter().position(|&end| end <= b.start_beats + 1e-9) {
            Some(l) => l,
            None => {
                lane_ends.push(f64::NEG_INFINITY);
                lane_ends.len() - 1
            }
        };
        lane_ends[lane] = b.end_beats();
        let groups: Vec<&str> = b.groups.iter().map(|&g| plan.groups[g].name.as_str()).collect();
        let formation = |f: usize| plan.formations.get(f).map_or("?", |f| f.name.as_str());
        let what = match &b.method {
            Method::Shortest(f) => format!("to {}", formation(*f)),
            Method::Order(f) => format!("to {} in order", formation(*f)),
            Method::Keep { scale, .. } => format!("keep, scale {scale}"),
            Method::Merge(g) => format!("merge into {}", plan.groups.get(*g).map_or("?", |g| g.name.as_str())),
            Method::Hold { facing_deg: Some(f) } => format!("hold, facing {f}°"),
            Method::Hold { facing_deg: None } => "hold".to_owned(),
        };
        bars.push(TimelineBar {
            kind: BarKind::Behaviour,
            start_beats: b.start_beats,
            end_beats: b.end_beats(),
            lane,
            label: format!("{} {what}", groups.join("+")),
        });
    }
    let first_command_lane = lane_ends.len().max(1);
    for (kind, lane_offset) in [(BarKind::Lights, 0), (BarKind::Camera, 1), (BarKind::Music, 2)] {
        let mut of_kind: Vec<(f64, usize, String)> = plan
            .commands
            .iter()
            .enumerate()
            .filter_map(|(k, c)| {
                let (bk, text) = match &c.kind {
                    CommandKind::Lights(v) => (BarKind::Lights, format!("lights {v}")),
                    CommandKind::Camera(v) => (BarKind::Camera, format!("camera {v}")),
                    CommandKind::Music(v) => (BarKind::Music, format!("music {v}")),
                };
                (bk == kind).then_some((c.at_beats, k, text))
            })
            .collect();
        of_kind.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (j, (at, _, label)) in of_kind.iter().enumerate() {
            let next = of_kind.get(j + 1).map_or(end_beats.max(*at), |n| n.0);
            if next <= *at && j + 1 < of_kind.len() {
                continue; // Overridden at the same beat by a later-written command.
            }
            bars.push(TimelineBar {
                kind,
                start_beats: *at,
                end_beats: next.max(*at + 0.25),
                lane: first_command_lane + lane_offset,
                label: label.clone(),
            });
        }
    }
    bars
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;
    use crate::ensemble::plan::read_plan;
    use std::path::Path;

    fn eight() -> Plan {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scores/ensemble");
        let bytes = std::fs::read(dir.join("eight.plan.toml")).unwrap();
        read_plan(&bytes, &dir, &mut crate::read::Files).unwrap()
    }

    #[test]
    fn the_last_command_of_each_kind_at_or_before_t_is_in_force() {
        let plan = eight();
        // eight.plan.toml: lights warm at 1:1 (beat 0), camera top at 4:1, music at 7:1.
        let camera_at_beats =
            plan.commands.iter().find(|c| matches!(c.kind, CommandKind::Camera(_))).map(|c| c.at_beats).unwrap();
        assert!(camera_at_beats > 0.0);
        let before = active_at(&plan.commands, camera_at_beats - 0.01);
        assert!(before.lights.is_some() && before.camera.is_none() && before.music.is_none());
        let at = active_at(&plan.commands, camera_at_beats);
        assert!(at.camera.is_some(), "a cut is in force from its own beat");
        assert_eq!(camera_at(&plan, camera_at_beats).map(|(_, v)| v), Some(CameraView::Top));
        assert_eq!(camera_at(&plan, camera_at_beats - 0.01), None);
        assert_eq!(active_at(&plan.commands, -1.0), ActiveCommands::default());
        let (warm, error) = lighting_at(&plan, 0.0);
        assert!(error.is_none());
        assert_eq!(warm, lighting_for("warm").unwrap());
        assert_ne!(warm, Lighting::default());
        assert!(warm.sun_colour[0] > warm.sun_colour[2] + 0.3, "warm is amber: {:?}", warm.sun_colour);
    }

    #[test]
    fn later_commands_override_and_ties_go_to_the_later_written() {
        let command = |at_beats: f64, kind: CommandKind| Command { at_beats, kind, span: Default::default() };
        let commands = vec![
            command(0.0, CommandKind::Lights("warm".into())),
            command(4.0, CommandKind::Lights("night".into())),
            command(4.0, CommandKind::Lights("cool".into())),
            command(2.0, CommandKind::Camera("side".into())),
        ];
        assert_eq!(active_at(&commands, 3.9).lights, Some(0));
        assert_eq!(active_at(&commands, 4.0).lights, Some(2));
        assert_eq!(active_at(&commands, 100.0).camera, Some(3));
    }

    #[test]
    fn presets_and_colours_make_lightings_and_unknown_names_say_what_is_known() {
        // The plan checker knows the same names.
        assert_eq!(LIGHT_PRESETS.map(|(n, _)| n), crate::ensemble::plan::LIGHT_PRESETS);
        for (name, _) in LIGHT_PRESETS {
            let l = lighting_for(name).unwrap();
            assert!(l.sun_colour.iter().chain(&l.sky_colour).all(|c| c.is_finite() && *c >= 0.0), "{name}");
        }
        assert_eq!(lighting_for("default").unwrap(), Lighting::default());
        assert!(lighting_for("night").unwrap().sun_colour.iter().sum::<f32>() < 1.0);
        let red = lighting_for("#ff0000").unwrap();
        assert_eq!(red.sun_colour, [1.0, 0.0, 0.0]);
        let error = lighting_for("disco").unwrap_err().to_string();
        assert!(error.contains("disco") && error.contains("warm"), "{error}");
    }

    #[test]
    fn timeline_bars_cover_every_event_in_non_overlapping_lanes() {
        let plan = eight();
        let end = 80.0;
        let bars = timeline_bars(&plan, end);
        let behaviours = bars.iter().filter(|b| b.kind == BarKind::Behaviour).count();
        assert_eq!(behaviours, plan.behaviours.len());
        assert_eq!(bars.len() - behaviours, plan.commands.len());
        for (i, a) in bars.iter().enumerate() {
            assert!(a.end_beats > a.start_beats, "{a:?}");
            for b in &bars[i + 1..] {
                if a.lane == b.lane {
                    assert!(a.end_beats <= b.start_beats + 1e-9 || b.end_beats <= a.start_beats + 1e-9, "{a:?} {b:?}");
                }
            }
        }
        let lights = bars.iter().find(|b| b.kind == BarKind::Lights).unwrap();
        assert_eq!((lights.start_beats, lights.end_beats), (0.0, end), "the only lights command lasts to the end");
        assert!(lights.is_current(10.0) && !lights.is_current(end));
        let ring = bars.iter().find(|b| b.label.contains("ring")).unwrap();
        assert_eq!(ring.label, "dancers to ring");
        assert_eq!(ring.end_beats - ring.start_beats, 12.0);
    }
}
