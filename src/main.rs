//! The `labanplay` binary: argument parsing and dispatch. Everything else lives in the library.

use clap::{ArgGroup, CommandFactory, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "labanplay", version, about = "Open a Labanotation score and watch a 3D dancer perform it")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A score, BVH capture, ensemble plan or mesh to open in the player (when absent: the score
    /// open last time, else the bundled demo).
    file: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Read scores (files or folders) and report errors and uninterpreted symbols; simulate
    /// ensemble plans (`*.plan.toml`) and report conflicts, late arrivals and over-long steps.
    Check {
        /// Files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print only errors and the summary, not every warning.
        #[arg(short, long)]
        quiet: bool,
        /// For a `.lw` file: histogram of record heads and token counts.
        #[arg(long)]
        survey: bool,
        /// Compute the motion and list where the body could not do what is written (targets out
        /// of reach, joint limits, feet off the floor, gestures arriving late), per dancer.
        #[arg(long)]
        motion: bool,
    },
    /// Compute the motion and write it out (BVH, glTF), with a summary of what was interpreted.
    #[command(group(ArgGroup::new("output").required(true).multiple(true).args(["bvh", "gltf"])))]
    Export {
        /// The score file, or a BVH motion capture (`.bvh`, retargeted onto the model).
        file: PathBuf,
        /// Write BVH here (one file per dancer: `OUT-1.bvh`, … when there are several).
        #[arg(long)]
        bvh: Option<PathBuf>,
        /// Write a binary glTF scene (.glb) here: skinned dancers and their animation.
        #[arg(long)]
        gltf: Option<PathBuf>,
        /// Body model (see `labanplay models`) or a mesh file to rig (.obj, .gltf, .glb, .ply,
        /// .stl); sets the skeleton's proportions for every output. Default: standard proportions for BVH, the first model when writing glTF.
        #[arg(long)]
        model: Option<String>,
        /// Frames per second.
        #[arg(long, default_value_t = 60.0, value_parser = positive_fps, allow_hyphen_values = true)]
        fps: f64,
        /// Only this dancer (1-based).
        #[arg(long)]
        dancer: Option<usize>,
        /// Step onto the ball of the foot first (default: heel first).
        #[arg(long)]
        toe: bool,
    },
    /// Simulate an ensemble plan and write each performer's coordinate sheet into a folder: its
    /// spot at every set (metres from the stage centre) and the counts to move there, as CSV.
    Sheets {
        /// The plan (`*.plan.toml`).
        plan: PathBuf,
        /// The folder to write (created when missing).
        #[arg(short, long)]
        out: PathBuf,
    },
    /// List the built-in dancers (name, height, description): the player's model menu, and
    /// what `--model` takes besides a mesh file.
    Models,
    /// Rig a humanoid mesh (OBJ, glTF/GLB, PLY, STL) to the project's skeleton: repair, skeleton
    /// embedding, bone-heat weights; prints a summary, writes the skinned mesh and a report.
    Rig {
        /// The mesh file.
        mesh: PathBuf,
        /// Write the skinned mesh (bind pose) as binary glTF.
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Write a JSON report (joints in the file's coordinates, repair steps, timings).
        #[arg(long)]
        report: Option<PathBuf>,
        /// The file's up axis (x, y, z, -x, -y, -z); detected when absent.
        #[arg(long)]
        up: Option<String>,
        /// The axis the character faces; detected when absent.
        #[arg(long)]
        forward: Option<String>,
        /// The character's height in metres (sets the unit); detected when absent.
        #[arg(long)]
        height_m: Option<f32>,
    },
    /// Open the player window on a score (when no file is given: the score open last time, else
    /// the bundled demo).
    #[cfg(feature = "viewer")]
    Play {
        /// A score, BVH capture or ensemble plan; a mesh file here is the dancer instead.
        file: Option<PathBuf>,
        /// The dancer: a built-in model (see `labanplay models`) or a mesh file to rig (.obj,
        /// .gltf, .glb, .ply, .stl). Default: the one chosen last time in the player.
        #[arg(long)]
        model: Option<String>,
    },
    /// Render the stage offscreen (no window needed) to an animated GIF, numbered PNGs, or an
    /// MP4/WebM video with the music (needs ffmpeg).
    #[cfg(feature = "viewer")]
    Render {
        /// The score file or BVH motion capture (the bundled demo when absent).
        file: Option<PathBuf>,
        /// `OUT.gif`, `OUT.mp4`, `OUT.webm`, or a folder (`OUT_DIR/`) for numbered PNGs.
        #[arg(short, long)]
        out: PathBuf,
        /// Image size, WIDTHxHEIGHT.
        #[arg(long, default_value = "640x360")]
        size: String,
        /// Frames per second of score time.
        #[arg(long, default_value_t = 30.0, value_parser = positive_fps, allow_hyphen_values = true)]
        fps: f64,
        /// Camera: front, side, top, three-quarter, follow or behind.
        #[arg(long, default_value = "three-quarter")]
        camera: String,
        /// Mirror the stage left–right, as a studio mirror.
        #[arg(long)]
        mirror: bool,
        /// Music track for a video (default: the one named in the score's `NAME.music.json`).
        #[arg(long)]
        music: Option<PathBuf>,
        /// Seconds into the music where beat 0 falls (default: the sidecar's, else 0).
        #[arg(long, allow_hyphen_values = true)]
        offset: Option<f64>,
        /// Tempo in beats per minute (default: the sidecar's, else the score's).
        #[arg(long)]
        bpm: Option<f64>,
        /// No music in the video, even when the sidecar names one.
        #[arg(long)]
        no_music: bool,
        /// Ignore the player's settings (by default the music, offset and tapped tempo the user
        /// set for this score in the player are used where the command line gives none).
        #[arg(long)]
        no_settings: bool,
        /// The dancer: a built-in model (see `labanplay models`) or a mesh file to rig (.obj,
        /// .gltf, .glb, .ply, .stl).
        #[arg(long, default_value = labanplay::body::models::DEFAULT_MODEL)]
        model: String,
        /// First beat to render.
        #[arg(long, allow_hyphen_values = true)]
        from: Option<f64>,
        /// Last beat to render.
        #[arg(long, allow_hyphen_values = true)]
        to: Option<f64>,
        /// Step onto the ball of the foot first (default: heel first).
        #[arg(long)]
        toe: bool,
    },
    /// Write a score (`.lbn`, `.lw`, `.json`) as an LED `.lbn` file, listing with its place
    /// anything the output does not carry.
    #[command(group(ArgGroup::new("written").required(true).args(["output", "out"])))]
    Convert {
        /// The score to convert.
        input: PathBuf,
        /// The file to write (`.lbn`).
        output: Option<PathBuf>,
        /// The file to write, as an option.
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Print the composite score as a table (staff, channel, beats, symbol, level, modifiers).
    Inspect {
        /// The score file.
        file: PathBuf,
        /// Machine-readable JSON instead of the table.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    if let Some(text) = unknown_command(std::env::args().nth(1).as_deref()) {
        eprintln!("error: {text}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Check { paths, quiet, survey, motion }) => {
            if motion {
                let (text, ok) = labanplay::cli::motion_check::check_motion(&paths);
                print!("{text}");
                return if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE };
            }
            if survey {
                let (text, ok) = labanplay::cli::survey::run(&paths);
                print!("{text}");
                return if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE };
            }
            let report =
                labanplay::cli::check::check(&paths, &labanplay::cli::check::CheckOptions { show_warnings: !quiet });
            print!("{}", report.text);
            if report.any_error { ExitCode::FAILURE } else { ExitCode::SUCCESS }
        }
        Some(Command::Export { file, bvh, gltf, model, fps, dancer, toe }) => {
            let opts = labanplay::cli::export::ExportOptions {
                bvh,
                gltf,
                model,
                fps,
                dancer,
                toe_first: toe,
                ..Default::default()
            };
            report(labanplay::cli::export::export(&file, &opts))
        }
        Some(Command::Rig { mesh, out, report: report_path, up, forward, height_m }) => {
            let opts = labanplay::cli::rig::RigCliOptions { out_glb: out, report: report_path, up, forward, height_m };
            report(labanplay::cli::rig::rig(&mesh, &opts, &mut std::io::stderr()))
        }
        Some(Command::Sheets { plan, out }) => report(labanplay::cli::sheets::write_sheets(&plan, &out)),
        Some(Command::Models) => {
            print!("{}", labanplay::cli::export::models_text());
            ExitCode::SUCCESS
        }
        Some(Command::Convert { input, output, out }) => convert(&input, output.or(out)),
        Some(Command::Inspect { file, json }) => report(labanplay::cli::inspect::inspect(&file, json)),
        #[cfg(feature = "viewer")]
        Some(Command::Play { file, model }) => play(file.or(cli.file), model),
        #[cfg(feature = "viewer")]
        Some(Command::Render {
            file,
            out,
            size,
            fps,
            camera,
            mirror,
            music,
            offset,
            bpm,
            no_music,
            no_settings,
            model,
            from,
            to,
            toe,
        }) => {
            if let Some(code) = rerun_without_device_select() {
                return code;
            }
            let size_px = match labanplay::offline::headless::parse_size(&size) {
                Ok(size_px) => size_px,
                Err(text) => {
                    eprintln!("error: {text}");
                    return ExitCode::from(2);
                }
            };
            if let (Some(from), Some(to)) = (from, to)
                && from > to
            {
                eprintln!("error: --from {from} is after --to {to}: give the first beat first");
                return ExitCode::from(2);
            }
            let Some(camera) = labanplay::stage::camera_input::CameraView::from_name(&camera) else {
                eprintln!("error: unknown camera `{camera}`; use front, side, top, three-quarter, follow or behind");
                return ExitCode::from(2);
            };
            let options = labanplay::offline::headless::RenderOptions {
                file,
                out,
                size_px,
                fps,
                camera,
                model,
                from_beats: from,
                to_beats: to,
                toe_first: toe,
                mirror,
                music: labanplay::offline::headless::MusicOptions {
                    file: music,
                    offset_secs: offset,
                    bpm,
                    none: no_music,
                    settings: if no_settings { None } else { labanplay::rehearse::settings::default_settings_path() },
                },
            };
            match labanplay::offline::headless::render(&options, &mut std::io::stderr()) {
                Ok(summary) => {
                    let place = summary.output.path().display();
                    let music = match &summary.music {
                        Some((path, start)) => format!(", music {} from {start:.3} s", path.display()),
                        None => String::new(),
                    };
                    println!(
                        "wrote {} frames to {place} at {:.1} bpm{music} (on {})",
                        summary.frames, summary.bpm, summary.adapter
                    );
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    print_error(&error.to_string());
                    let usage = matches!(error, labanplay::offline::OfflineError::BeatRange { .. });
                    if usage { ExitCode::from(2) } else { ExitCode::FAILURE }
                }
            }
        }
        #[cfg(feature = "viewer")]
        None => play(cli.file, None),
        #[cfg(not(feature = "viewer"))]
        None => {
            // Built without the window: show the composite score as a table instead.
            let text = match &cli.file {
                Some(file) => match labanplay::cli::inspect::inspect(file, false) {
                    Ok(text) => text,
                    Err(text) => {
                        eprintln!("{text}");
                        return ExitCode::FAILURE;
                    }
                },
                None => labanplay::score::table::render_table(&labanplay::demo::default_score()),
            };
            print!("{text}");
            ExitCode::SUCCESS
        }
    }
}

/// Mesa's Vulkan device-select layer looks for a Wayland display and prints "error:
/// XDG_RUNTIME_DIR is invalid or not set" where there is none (a server, CI). Offscreen
/// rendering needs no display, so on such a machine `render` runs itself again with the layer
/// off (`NODEVICE_SELECT=1`) and gives that run's exit status. `None`: go on in this process.
#[cfg(feature = "viewer")]
fn rerun_without_device_select() -> Option<ExitCode> {
    let quiet_already = std::env::var_os("NODEVICE_SELECT").is_some();
    let has_runtime_dir = std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| std::path::Path::new(&d).is_dir());
    if quiet_already || has_runtime_dir || !cfg!(target_os = "linux") {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let status =
        std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("NODEVICE_SELECT", "1").status().ok()?;
    Some(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}

/// Runs the player window; errors (no display, no GPU, unreadable file) are printed.
#[cfg(feature = "viewer")]
fn play(file: Option<PathBuf>, model: Option<String>) -> ExitCode {
    let options =
        labanplay::viewer::app::WindowOptions { model, ..labanplay::viewer::app::WindowOptions::from_env(file) };
    match labanplay::viewer::app::run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(text) => {
            print_error(&text);
            ExitCode::FAILURE
        }
    }
}

/// Prints an error to stderr with one `error:` prefix: a diagnostic that names its place
/// (`file:line:col: error: …`) already has it.
#[cfg(feature = "viewer")]
fn print_error(text: &str) {
    if text.lines().next().is_some_and(|line| line.contains(": error: ")) {
        eprintln!("{text}");
    } else {
        eprintln!("error: {text}");
    }
}

/// `convert`: the summary to stdout; an output format it does not write is a usage error (2).
fn convert(input: &std::path::Path, output: Option<PathBuf>) -> ExitCode {
    use labanplay::cli::convert::ConvertError;
    let Some(output) = output else { return ExitCode::from(2) };
    match labanplay::cli::convert::convert(input, &output) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(error @ ConvertError::UnknownOutput(_)) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("{error}");
            ExitCode::FAILURE
        }
    }
}

/// Prints a command's text to stdout (success) or stderr (failure) and gives the exit code.
fn report(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(text) => {
            eprintln!("{text}");
            ExitCode::FAILURE
        }
    }
}

/// Frames per second: a finite number above 0.
fn positive_fps(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(fps) if fps.is_finite() && fps > 0.0 => Ok(fps),
        _ => Err(format!("`{text}` is not a frame rate: give a number above 0, such as 30")),
    }
}

/// The error for a first word that names no file and is a subcommand misspelt (`rendr`), with
/// the subcommand meant; `None` for anything else (a file, an option, a subcommand).
fn unknown_command(first: Option<&str>) -> Option<String> {
    let word = first?;
    if word == "help" || word.starts_with('-') || word.contains(['.', '/', '\\']) || std::path::Path::new(word).exists()
    {
        return None;
    }
    let names: Vec<String> = Cli::command().get_subcommands().map(|c| c.get_name().to_owned()).collect();
    if names.iter().any(|name| name == word) {
        return None;
    }
    let (distance, closest) = names.iter().map(|name| (edit_distance(word, name), name)).min()?;
    (distance <= 2).then(|| format!("unknown command `{word}`; did you mean `{closest}`? (see `labanplay --help`)"))
}

/// Levenshtein distance between two words (characters inserted, removed or replaced).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let replaced = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = replaced.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}
