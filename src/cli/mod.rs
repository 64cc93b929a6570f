//! The command line: subcommands for people and scripts. A bad argument gets
//! a one-line error on stderr and exit status 2. Output goes through one
//! `Out`, so a reader that goes away (`chimera params | head -1`) ends it
//! quietly instead of a panic.

use std::sync::OnceLock;
use std::time::Duration;

pub mod four;
mod nnue;

use crate::nnue::NetChoice;
use crate::out::Out;
use crate::setup::{Width, setup};
use crate::tools::perft;
use crate::variant::armies::{self, Army};
use crate::with_position;

const USAGE: &str = "\
Chimera, a chess-variant engine (Omega Chess, Chess with Different Armies, chess)

usage:
  chimera                      protocol loop (UCI or XBoard, detected from the first command)
  chimera perft <depth> [--variant NAME] [--fen FEN | --fen4 FEN4] [--moves \"m1 m2 ...\"] [--divide]
  chimera analyse [--variant NAME] [--fen FEN] [--moves \"...\"] [--depth D | --movetime MS]
                 [--threads N] [--hash MB] [--multipv N]
  chimera show --variant fourplayer-teams|fourplayer-ffa [--fen4 FEN4] [--moves \"...\"]
                               a plain-text diagram of a four-player position
  chimera bench [--depth D]    fixed positions of every variant; last line `<N> nodes <M> nps`
  chimera selfplay [--variant V] [--games N] [--nodes N | --tc BASE+INC] [--a k=v,..] [--b k=v,..]
                               self-play between two weight settings (A/B tests, tuning)
  chimera match -engine ... -engine ... [options]
                               engine-vs-engine matches (cutechess-cli's flags; see match --help)
  chimera gui [--port N] [--open] [--engines FILE]
                               a board in the browser (127.0.0.1 only): play, watch, analyse
  chimera texel --data FILE [--weights a,b,..] [--pieces] [--pieces-eg] [--passes N] [--k K]
                               fit the evaluation to game results (Texel's method)
  chimera datagen --out FILE [--variants LIST] [--games N] [--nodes N] [--shard I/N]
                               training positions for the evaluation network (self-play)
  chimera train --data FILE[,..] --out NET [--epochs N]
                               an evaluation network from those positions
  chimera params               list the tunable weights (name default min max)
  chimera variants             list the variant names

options for every subcommand:
  --armies FILE                add the armies defined in FILE (see README.md)
  --help                       this text
";

const PERFT_HELP: &str = "\
usage: chimera perft <depth> [--variant NAME] [--fen FEN | --fen4 FEN4] [--moves \"m1 m2 ...\"]
                     [--divide] [--armies FILE]

Counts the leaf nodes of the legal move tree to <depth> from the variant's
start position (or --fen), after playing --moves. --divide prints the count
below each root move first. The last line is `Nodes searched: <N>`.
Variants: chess, omega, cwda-<white>-<black> (armies: fide, clobberers, nutty,
rookies, amazon, amazoncrab, allstars, forward, and armies from --armies),
fourplayer-teams, fourplayer-ffa (--fen4: a FEN4, or the layout 4PCo, the
default, or 4PC; moves as h2-h3, e10-e11=Q, O-O or h2h3).
";

/// The subcommands' stdout.
fn out() -> &'static Out {
    static OUT: OnceLock<Out> = OnceLock::new();
    OUT.get_or_init(Out::stdout)
}

/// An argument error: printed as one line, exit status 2.
struct ArgError(String);

/// Options shared by subcommands, and the subcommand's own arguments.
struct Args {
    rest: Vec<String>,
    armies: Vec<Army>,
}

fn take_global(args: &[String]) -> Result<Args, ArgError> {
    let mut rest = Vec::new();
    let mut armies = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--armies" {
            let path = args
                .get(i + 1)
                .ok_or_else(|| ArgError("--armies needs a file".into()))?;
            let text = std::fs::read_to_string(path)
                .map_err(|e| ArgError(format!("cannot read armies file '{path}': {e}")))?;
            let known = crate::variant::spec::all_armies(&armies);
            armies.extend(armies::parse_file_beside(&text, path, &known).map_err(ArgError)?);
            i += 2;
        } else {
            rest.push(args[i].clone());
            i += 1;
        }
    }
    Ok(Args { rest, armies })
}

/// Runs the command line; returns the process exit status.
pub fn run(args: &[String]) -> i32 {
    let result = take_global(args).and_then(|a| match a.rest.first().map(String::as_str) {
        None => {
            let code = crate::protocol::run(a.armies.clone());
            if code == 0 {
                Ok(())
            } else {
                Err(ArgError("the protocol loop failed".into()))
            }
        }
        Some("--help") | Some("-h") | Some("help") => {
            out().text(USAGE);
            Ok(())
        }
        Some("perft") => cmd_perft(&a.rest[1..], &a.armies),
        Some("analyse") | Some("analyze") => cmd_analyse(&a.rest[1..], &a.armies),
        Some("bench") => cmd_bench(&a.rest[1..]),
        Some("show") => cmd_show(&a.rest[1..]),
        Some("selfplay") => cmd_selfplay(&a.rest[1..]),
        Some("texel") => cmd_texel(&a.rest[1..]),
        Some("datagen") => nnue::cmd_datagen(&a.rest[1..]),
        Some("train") => nnue::cmd_train(&a.rest[1..]),
        Some("match") => {
            crate::peers::reaper::kill_engines_on_signals();
            crate::tools::matches::run(&a.rest[1..], &a.armies).map_err(ArgError)
        }
        Some("gui") => {
            crate::peers::reaper::kill_engines_on_signals();
            crate::gui::run(&a.rest[1..], &a.armies).map_err(ArgError)
        }
        Some("params") => {
            if let Some(extra) = a.rest.get(1) {
                return Err(ArgError(format!(
                    "params takes no arguments, found '{extra}'"
                )));
            }
            for (name, def, lo, hi) in crate::params::Params::LIST {
                out().line(&format!("{name} {def} {lo} {hi}"));
            }
            Ok(())
        }
        Some("variants") => {
            if let Some(extra) = a.rest.get(1) {
                return Err(ArgError(format!(
                    "variants takes no arguments, found '{extra}'"
                )));
            }
            let all = crate::variant::spec::all_armies(&a.armies);
            for name in crate::variant::spec::variant_names(&all) {
                out().line(&name);
            }
            Ok(())
        }
        Some(other) => Err(ArgError(format!(
            "unknown subcommand '{other}' (try --help)"
        ))),
    });
    match result {
        Ok(()) => 0,
        Err(ArgError(msg)) => {
            eprintln!("chimera: {msg}");
            2
        }
    }
}

/// Reads `--name value` pairs and flags; positional arguments are returned
/// in order.
struct Parsed {
    positional: Vec<String>,
    values: Vec<(String, String)>,
    flags: Vec<String>,
}

fn parse_options(args: &[String], with_value: &[&str], flags: &[&str]) -> Result<Parsed, ArgError> {
    let mut p = Parsed {
        positional: Vec::new(),
        values: Vec::new(),
        flags: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if with_value.contains(&a.as_str()) {
            let v = args
                .get(i + 1)
                .filter(|v| !with_value.contains(&v.as_str()) && !flags.contains(&v.as_str()))
                .ok_or_else(|| ArgError(format!("{a} needs a value")))?;
            if p.values.iter().any(|(k, _)| k == a) {
                return Err(ArgError(format!("{a} given twice")));
            }
            p.values.push((a.clone(), v.clone()));
            i += 2;
        } else if flags.contains(&a.as_str()) {
            p.flags.push(a.clone());
            i += 1;
        } else if a.starts_with("--") {
            return Err(ArgError(format!("unknown option '{a}'")));
        } else {
            p.positional.push(a.clone());
            i += 1;
        }
    }
    Ok(p)
}

impl Parsed {
    fn value(&self, k: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }
    fn flag(&self, k: &str) -> bool {
        self.flags.iter().any(|f| f == k)
    }
}

fn cmd_perft(args: &[String], armies: &[Army]) -> Result<(), ArgError> {
    let p = parse_options(
        args,
        &["--variant", "--fen", "--fen4", "--moves"],
        &["--divide", "--help", "--wide"],
    )?;
    if p.flag("--help") {
        out().text(PERFT_HELP);
        return Ok(());
    }
    let depth: u32 = match p.positional.as_slice() {
        [d] => d
            .parse()
            .ok()
            .filter(|&d| d <= 20)
            .ok_or_else(|| ArgError(format!("depth '{d}' is not a number from 0 to 20")))?,
        [] => return Err(ArgError("perft needs a depth (try --help)".into())),
        more => {
            return Err(ArgError(format!("unexpected argument '{}'", more[1])));
        }
    };
    let variant = p.value("--variant").unwrap_or("chess");
    let moves: Vec<&str> = p
        .value("--moves")
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    if let Some(mode) = crate::game::Family::of(variant).four() {
        if p.value("--fen").is_some() {
            return Err(ArgError(
                "four-player positions are given with --fen4".into(),
            ));
        }
        let game = four::game(mode, p.value("--fen4"), &moves).map_err(ArgError)?;
        if let Some(o) = game.outcome() {
            return Err(ArgError(format!(
                "the game is over after the moves: {}",
                o.reason()
            )));
        }
        let mut pos = game.position().clone();
        let nodes = perft::run(out(), &mut pos, depth, p.flag("--divide"));
        out().line(&format!("Nodes searched: {nodes}"));
        return Ok(());
    }
    if p.value("--fen4").is_some() {
        return Err(ArgError(format!(
            "--fen4 is for the four-player variants, not '{variant}'"
        )));
    }
    let width = if p.flag("--wide") {
        Width::Wide
    } else {
        Width::Auto
    };
    let mut pos = setup(variant, p.value("--fen"), &moves, armies, width).map_err(ArgError)?;
    let nodes = with_position!(&mut pos, pos => perft::run(out(), pos, depth, p.flag("--divide")));
    out().line(&format!("Nodes searched: {nodes}"));
    Ok(())
}

const SHOW_HELP: &str = "\
usage: chimera show --variant fourplayer-teams|fourplayer-ffa [--fen4 FEN4|4PCo|4PC] [--moves \"m1 m2 ...\"]

Prints a plain-text diagram of a four-player position (rank 14 at the top;
pieces as owner letter + type: rK, bP, yQ, gN, dead dP), the side to move,
the points and the FEN4.
";

fn cmd_show(args: &[String]) -> Result<(), ArgError> {
    let p = parse_options(args, &["--variant", "--fen4", "--moves"], &["--help"])?;
    if p.flag("--help") {
        out().text(SHOW_HELP);
        return Ok(());
    }
    if let Some(extra) = p.positional.first() {
        return Err(ArgError(format!("unexpected argument '{extra}'")));
    }
    let variant = p.value("--variant").unwrap_or("fourplayer-teams");
    let mode = crate::game::Family::of(variant).four().ok_or_else(|| {
        ArgError(format!(
            "show draws the four-player variants, not '{variant}'"
        ))
    })?;
    let moves: Vec<&str> = p
        .value("--moves")
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    let game = four::game(mode, p.value("--fen4"), &moves).map_err(ArgError)?;
    out().text(&four::diagram(game.position()));
    if let Some(o) = game.outcome() {
        out().line(&format!("the game is over: {}", o.reason()));
    }
    Ok(())
}

const ANALYSE_HELP: &str = "\
usage: chimera analyse [--variant NAME] [--fen FEN | --fen4 FEN4] [--moves \"m1 m2 ...\"]
                       [--depth D | --movetime MS] [--threads N] [--hash MB] [--multipv N]
       chimera analyse --pgn4 FILE [--depth D | --movetime MS] [--threads N] [--hash MB]
       (four-player: --variant fourplayer-teams|fourplayer-ffa, --ffa-search paranoid|brs)

Searches a position (the variant's start, or --fen, after --moves) and prints
the search lines, then the best move. Without --depth or --movetime it
searches for 5 seconds. Four-player positions (--fen4: a FEN4, or the layout
4PCo, the default, or 4PC) are first drawn as a diagram. --pgn4 replays a
four-player game and prints, before each move, the engine's best move and
score and whether the game's move differs (1 second a move by default).
";

fn number<T>(p: &Parsed, k: &str, lo: T, hi: T) -> Result<Option<T>, ArgError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    match p.value(k) {
        None => Ok(None),
        Some(s) => match s.parse::<T>() {
            Ok(v) if v >= lo && v <= hi => Ok(Some(v)),
            _ => Err(ArgError(format!(
                "{k} '{s}' is not a number from {lo} to {hi}"
            ))),
        },
    }
}

fn cmd_analyse(args: &[String], armies: &[Army]) -> Result<(), ArgError> {
    use crate::search::{Engine, Limits};
    let p = parse_options(
        args,
        &[
            "--variant",
            "--fen",
            "--moves",
            "--depth",
            "--movetime",
            "--threads",
            "--hash",
            "--multipv",
            "--fen4",
            "--pgn4",
            "--ffa-search",
        ],
        &["--help"],
    )?;
    if p.flag("--help") {
        out().text(ANALYSE_HELP);
        return Ok(());
    }
    if let Some(extra) = p.positional.first() {
        return Err(ArgError(format!("unexpected argument '{extra}'")));
    }
    let variant = p.value("--variant").unwrap_or("chess");
    let moves: Vec<&str> = p
        .value("--moves")
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    let depth = number::<i32>(&p, "--depth", 1, 100)?;
    let movetime = number::<u64>(&p, "--movetime", 1, 86_400_000)?;
    let threads = number::<usize>(&p, "--threads", 1, 256)?.unwrap_or(1);
    let hash = number::<usize>(&p, "--hash", 1, 65536)?.unwrap_or(64);
    let multipv = number::<usize>(&p, "--multipv", 1, 256)?.unwrap_or(1);
    let mut engine = Engine::new();
    engine.set_hash(hash);
    engine.set_threads(threads);
    engine.move_overhead = 0;
    let limits = Limits {
        depth,
        movetime: if depth.is_none() {
            Some(movetime.unwrap_or(if p.value("--pgn4").is_some() {
                1000
            } else {
                5000
            }))
        } else {
            movetime
        },
        multipv,
        ..Default::default()
    };
    let ffa = match p.value("--ffa-search").unwrap_or("paranoid") {
        "paranoid" => crate::fourplayer::search::Objective::Paranoid,
        "brs" => crate::fourplayer::search::Objective::BestReply,
        other => {
            return Err(ArgError(format!(
                "--ffa-search '{other}' is not paranoid or brs"
            )));
        }
    };
    if let Some(path) = p.value("--pgn4") {
        if p.value("--fen4").is_some() || p.value("--moves").is_some() || p.value("--fen").is_some()
        {
            return Err(ArgError("--pgn4 takes no --fen, --fen4 or --moves".into()));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| ArgError(format!("cannot read '{path}': {e}")))?;
        let mode = crate::game::Family::of(variant)
            .four()
            .unwrap_or(crate::fourplayer::Mode::Teams);
        let game = crate::fourplayer::pgn4::read(&text, mode)
            .map_err(|e| ArgError(format!("{path}: {e}")))?;
        four::review(out(), &mut engine, &game.game, &limits, ffa);
        return Ok(());
    }
    if let Some(mode) = crate::game::Family::of(variant).four() {
        if p.value("--fen").is_some() {
            return Err(ArgError(
                "four-player positions are given with --fen4".into(),
            ));
        }
        let game = four::game(mode, p.value("--fen4"), &moves).map_err(ArgError)?;
        out().text(&four::diagram(game.position()));
        four::analyse(out(), &mut engine, &game, limits, ffa);
        return Ok(());
    }
    if p.value("--fen4").is_some() {
        return Err(ArgError(format!(
            "--fen4 is for the four-player variants, not '{variant}'"
        )));
    }
    let pos = setup(variant, p.value("--fen"), &moves, armies, Width::Auto).map_err(ArgError)?;
    // the lines of UCI's `info` and `bestmove`
    let reporter = crate::protocol::uci::reporter(out().clone(), pos.clone());
    engine.go(pos, limits, reporter);
    while engine.is_searching() {
        if out().closed() {
            // nobody reads: stop early, and quietly
            engine.stop();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    engine.wait();
    Ok(())
}

fn cmd_bench(args: &[String]) -> Result<(), ArgError> {
    let p = parse_options(args, &["--depth", "--nnue"], &["--help"])?;
    if p.flag("--help") {
        out().text(&format!(
            "usage: chimera bench [--depth D] [--nnue on|off|FILE]\n\nSearches fixed positions of every variant to depth D (default {}) with one thread; the last line is `<nodes> nodes <nps> nps`. --nnue: the built-in networks (on, the default), the classical evaluation (off) or a network file.",
            crate::tools::bench::DEPTH
        ));
        return Ok(());
    }
    let depth = number::<i32>(&p, "--depth", 1, 30)?.unwrap_or(crate::tools::bench::DEPTH);
    let nets =
        crate::nnue::NetChoice::from_arg(p.value("--nnue").unwrap_or("on")).map_err(ArgError)?;
    let (nodes, nps) = crate::tools::bench::run(depth, true, &nets).map_err(ArgError)?;
    out().line(&format!("{nodes} nodes {nps} nps"));
    Ok(())
}

const TEXEL_HELP: &str = "\
usage: chimera texel --data FILE [--weights NAME,NAME,.. | --weights none] [--pieces]
                     [--pieces-eg] [--passes N] [--k K]

Fits the evaluation to game results (Texel's method): FILE holds
`variant|FEN|result` lines (`chimera selfplay --positions`). The fit moves
the weights (default: every two-player evaluation weight of `chimera
params`) and, with --pieces, the value of every piece that is not a Pawn
or King (--pieces-eg: its endgame value on its own too), one step at a
time while the mean squared error between the
results and 1 / (1 + 10^(-K * eval / 400)) falls (K fitted first unless
given). Progress goes to stderr; stdout ends with the fitted weights as
`name=value,...` (what `selfplay --a` takes) and the pieces as
`letter=value` lines (`letter=middlegame/endgame` where they differ).
";

fn cmd_texel(args: &[String]) -> Result<(), ArgError> {
    use crate::tools::texel::{self, Data, Knob};
    let p = parse_options(
        args,
        &["--data", "--weights", "--passes", "--k"],
        &["--help", "--pieces", "--pieces-eg"],
    )?;
    if p.flag("--help") {
        out().text(TEXEL_HELP);
        return Ok(());
    }
    let path = p
        .value("--data")
        .ok_or_else(|| ArgError("texel needs --data FILE".into()))?;
    let text = std::fs::read_to_string(path).map_err(|e| ArgError(format!("{path}: {e}")))?;
    let data = Data::read(&text).map_err(|e| ArgError(format!("{path}: {e}")))?;
    let mut knobs: Vec<Knob> = match p.value("--weights") {
        None => texel::EVAL_WEIGHTS
            .iter()
            .map(|n| Knob::Weight(n.to_string()))
            .collect(),
        Some("none") => Vec::new(),
        Some(list) => list
            .split(',')
            .filter(|n| !n.trim().is_empty())
            .map(|n| Knob::Weight(n.trim().to_string()))
            .collect(),
    };
    for k in &knobs {
        if let Knob::Weight(n) = k
            && crate::params::Params::default().get(n).is_none()
        {
            return Err(ArgError(format!("unknown parameter '{n}'")));
        }
    }
    if p.flag("--pieces") {
        knobs.extend(data.piece_letters().into_iter().map(Knob::Piece));
    }
    if p.flag("--pieces-eg") {
        knobs.extend(data.piece_letters().into_iter().map(Knob::PieceEg));
    }
    let passes = number::<usize>(&p, "--passes", 1, 10_000)?.unwrap_or(30);
    let k = number::<f64>(&p, "--k", 0.01, 100.0)?;
    eprintln!("{} positions, {} knobs", data.len, knobs.len());
    let fit = texel::tune(&data, &knobs, passes, k, &|pass, e| {
        eprintln!("pass {pass}: error {e:.6}");
    })
    .map_err(ArgError)?;
    out().line(&format!(
        "k {:.3} error {:.6} -> {:.6}",
        fit.k, fit.error_before, fit.error_after
    ));
    let weights: Vec<String> = knobs
        .iter()
        .filter_map(|k| match k {
            Knob::Weight(n) => Some(format!("{n}={}", fit.params.get(n).unwrap_or(0))),
            Knob::Piece(_) | Knob::PieceEg(_) => None,
        })
        .collect();
    out().line(&weights.join(","));
    let mut letters: Vec<_> = fit.values.iter().collect();
    letters.sort();
    for (l, v) in letters {
        if v[0] == v[1] {
            out().line(&format!("{l}={}", v[0]));
        } else {
            out().line(&format!("{l}={}/{}", v[0], v[1]));
        }
    }
    Ok(())
}

const SELFPLAY_HELP: &str = "\
usage: chimera selfplay [--variant V] [--games N] [--concurrency N] [--nodes N | --tc BASE+INC]
                        [--a name=value,...] [--b name=value,...] [--plies N] [--seed N]
                        [--hash MB] [--threads-a N] [--threads-b N] [--sprt ELO0,ELO1]
                        [--positions FILE] [--nnue-a on|off|FILE] [--nnue-b on|off|FILE]

Plays N games (in pairs, colours swapped, from random openings of --plies
random moves; --variant may list several, comma-separated, taken in turn
by the pairs) between two settings of Chimera's weights (see `chimera
params`); A's result is reported. --tc is in seconds (`10+0.1`); --nodes
limits each move instead (deterministic). --threads-a/--threads-b give a
side more search threads (Lazy SMP), to measure what threads are worth
(use --concurrency 1 and --tc). The last line gives W-L-D, the
score, the Elo difference with its 95% error bar, and the SPRT LLR
(--sprt ELO0,ELO1, default 0,10; given, the run stops once the LLR leaves
[-2.94, 2.94], alpha = beta = 0.05).
--positions FILE appends the games' quiet positions (not in check, the
move played neither a capture nor a promotion) as `variant|FEN|result`
lines, the result from White's view (1, 0.5, 0): the data `chimera
texel` fits the evaluation on. --nnue-a/--nnue-b: each side's evaluation,
the built-in networks (on, the default), the classical one (off) or a
network file (an SPRT of a network against the classical evaluation).
Every 100 games and at the end, stderr gets each side's search costs:
moves searched, nodes and milliseconds a move, nodes/s and mean depth
(a side that searches slower told from one that plays worse).
";

fn cmd_selfplay(args: &[String]) -> Result<(), ArgError> {
    use crate::tools::selfplay::{self, Config};
    let p = parse_options(
        args,
        &[
            "--variant",
            "--games",
            "--concurrency",
            "--nodes",
            "--tc",
            "--a",
            "--b",
            "--plies",
            "--seed",
            "--hash",
            "--sprt",
            "--max-plies",
            "--threads-a",
            "--threads-b",
            "--positions",
            "--nnue-a",
            "--nnue-b",
        ],
        &["--help", "--quiet"],
    )?;
    if p.flag("--help") {
        out().text(SELFPLAY_HELP);
        return Ok(());
    }
    let variant = p.value("--variant").unwrap_or("chess").to_string();
    for v in variant.split(',') {
        crate::variant::VariantSpec::by_name(v.trim(), &[]).map_err(ArgError)?;
    }
    let (base_ms, inc_ms) = match p.value("--tc") {
        None => (10_000, 100),
        Some(tc) => {
            let (b, i) = tc.split_once('+').unwrap_or((tc, "0"));
            let b: f64 = b
                .parse()
                .map_err(|_| ArgError(format!("bad --tc '{tc}'")))?;
            let i: f64 = i
                .parse()
                .map_err(|_| ArgError(format!("bad --tc '{tc}'")))?;
            ((b * 1000.0) as u64, (i * 1000.0) as u64)
        }
    };
    let (elo0, elo1) = match p.value("--sprt") {
        None => (0.0, 10.0),
        Some(s) => {
            let (a, b) = s
                .split_once(',')
                .ok_or_else(|| ArgError("--sprt needs ELO0,ELO1".into()))?;
            (
                a.parse().map_err(|_| ArgError("bad --sprt".into()))?,
                b.parse().map_err(|_| ArgError("bad --sprt".into()))?,
            )
        }
    };
    let cfg = Config {
        variant,
        games: number::<usize>(&p, "--games", 1, 1_000_000)?.unwrap_or(100),
        concurrency: number::<usize>(&p, "--concurrency", 1, 256)?.unwrap_or(2),
        nodes: number::<u64>(&p, "--nodes", 1, u64::MAX / 2)?,
        base_ms,
        inc_ms,
        a: selfplay::parse_params(p.value("--a").unwrap_or("")).map_err(ArgError)?,
        b: selfplay::parse_params(p.value("--b").unwrap_or("")).map_err(ArgError)?,
        opening_plies: number::<usize>(&p, "--plies", 0, 40)?.unwrap_or(6),
        seed: number::<u64>(&p, "--seed", 0, u64::MAX)?.unwrap_or(1),
        hash_mb: number::<usize>(&p, "--hash", 1, 4096)?.unwrap_or(16),
        max_plies: number::<usize>(&p, "--max-plies", 10, 10_000)?.unwrap_or(400),
        threads: [
            number::<usize>(&p, "--threads-a", 1, 256)?.unwrap_or(1),
            number::<usize>(&p, "--threads-b", 1, 256)?.unwrap_or(1),
        ],
        positions: p.value("--positions").map(str::to_string),
        sprt: p.value("--sprt").map(|_| (elo0, elo1)),
        nets: [
            NetChoice::from_arg(p.value("--nnue-a").unwrap_or("on")).map_err(ArgError)?,
            NetChoice::from_arg(p.value("--nnue-b").unwrap_or("on")).map_err(ArgError)?,
        ],
    };
    let quiet = p.flag("--quiet");
    let line = |t: &selfplay::Tally| {
        let (e, err) = t.elo();
        format!(
            "games {} +{} -{} ={} score {:.1}% elo {:+.1} +- {:.1} llr {:.2}",
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            100.0 * t.score(),
            e,
            err,
            t.llr(elo0, elo1)
        )
    };
    let stats = std::sync::Mutex::new([selfplay::SideStats::default(); 2]);
    let costs = || {
        let st = *stats.lock().expect("stats");
        format!("A: {}\nB: {}", st[0].summary(), st[1].summary())
    };
    let t = selfplay::run(
        &cfg,
        &|t| {
            if !quiet {
                eprintln!("{}", line(t));
                if t.games().is_multiple_of(100) {
                    eprintln!("{}", costs());
                }
            }
        },
        &stats,
    )
    .map_err(ArgError)?;
    if !quiet {
        eprintln!("{}", costs());
    }
    out().line(&line(&t));
    Ok(())
}
