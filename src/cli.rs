//! The command line: subcommands for people and scripts. A bad argument gets
//! a one-line error on stderr and exit status 2.

use std::time::Instant;

use crate::setup::{Width, setup};
use crate::tools::perft;
use crate::variant::armies::{self, Army};
use crate::with_position;

const USAGE: &str = "\
Chimera, a chess-variant engine (Omega Chess, Chess with Different Armies, chess)

usage:
  chimera                      protocol loop (UCI or XBoard, detected from the first command)
  chimera perft <depth> [--variant NAME] [--fen FEN] [--moves \"m1 m2 ...\"] [--divide]
  chimera analyse [--variant NAME] [--fen FEN] [--moves \"...\"] [--depth D | --movetime MS]
                 [--threads N] [--hash MB] [--multipv N]
  chimera bench [--depth D]    fixed positions of every variant; last line `<N> nodes <M> nps`
  chimera selfplay [--variant V] [--games N] [--nodes N | --tc BASE+INC] [--a k=v,..] [--b k=v,..]
                               self-play between two weight settings (A/B tests, tuning)
  chimera match -engine ... -engine ... [options]
                               engine-vs-engine matches (cutechess-cli's flags; see match --help)
  chimera params               list the tunable weights (name default min max)
  chimera variants             list the variant names

options for every subcommand:
  --armies FILE                add the armies defined in FILE (see README.md)
  --help                       this text
";

const PERFT_HELP: &str = "\
usage: chimera perft <depth> [--variant NAME] [--fen FEN] [--moves \"m1 m2 ...\"] [--divide] [--armies FILE]

Counts the leaf nodes of the legal move tree to <depth> from the variant's
start position (or --fen), after playing --moves. --divide prints the count
below each root move first. The last line is `Nodes searched: <N>`.
Variants: chess, omega, cwda-<white>-<black> (armies: fide, clobberers, nutty,
rookies, amazon, amazoncrab, allstars, forward, and armies from --armies).
";

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
            armies.extend(armies::parse_file(&text, path).map_err(ArgError)?);
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
            print!("{USAGE}");
            Ok(())
        }
        Some("perft") => cmd_perft(&a.rest[1..], &a.armies),
        Some("analyse") | Some("analyze") => cmd_analyse(&a.rest[1..], &a.armies),
        Some("bench") => cmd_bench(&a.rest[1..]),
        Some("selfplay") => cmd_selfplay(&a.rest[1..]),
        Some("match") => crate::tools::matches::run(&a.rest[1..], &a.armies).map_err(ArgError),
        Some("params") => {
            if let Some(extra) = a.rest.get(1) {
                return Err(ArgError(format!(
                    "params takes no arguments, found '{extra}'"
                )));
            }
            for (name, def, lo, hi) in crate::params::Params::LIST {
                println!("{name} {def} {lo} {hi}");
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
                println!("{name}");
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
        &["--variant", "--fen", "--moves"],
        &["--divide", "--help", "--wide"],
    )?;
    if p.flag("--help") {
        print!("{PERFT_HELP}");
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
    let width = if p.flag("--wide") {
        Width::Wide
    } else {
        Width::Auto
    };
    let mut pos = setup(variant, p.value("--fen"), &moves, armies, width).map_err(ArgError)?;
    let start = Instant::now();
    let nodes = with_position!(&mut pos, pos => {
        if p.flag("--divide") && depth > 0 {
            let mut total = 0;
            for (m, n) in perft::divide(pos, depth) {
                println!("{m}: {n}");
                total += n;
            }
            total
        } else {
            perft::perft(pos, depth)
        }
    });
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {nodes} nodes in {secs:.3} s ({:.0} nodes/s)",
        nodes as f64 / secs.max(1e-9)
    );
    println!("Nodes searched: {nodes}");
    Ok(())
}

const ANALYSE_HELP: &str = "\
usage: chimera analyse [--variant NAME] [--fen FEN] [--moves \"m1 m2 ...\"]
                       [--depth D | --movetime MS] [--threads N] [--hash MB] [--multipv N]

Searches a position (the variant's start, or --fen, after --moves) and prints
the search lines, then the best move. Without --depth or --movetime it
searches for 5 seconds.
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
    use crate::search::{Engine, Limits, Report, ScoreKind};
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
        ],
        &["--help"],
    )?;
    if p.flag("--help") {
        print!("{ANALYSE_HELP}");
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
    let pos = setup(variant, p.value("--fen"), &moves, armies, Width::Auto).map_err(ArgError)?;
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
            Some(movetime.unwrap_or(5000))
        } else {
            movetime
        },
        multipv,
        ..Default::default()
    };
    let reporter: crate::search::Reporter = std::sync::Arc::new(|r| match r {
        Report::Info(i) => {
            let score = match i.score {
                ScoreKind::Cp(c) => format!("cp {c}"),
                ScoreKind::Mate(m) => format!("mate {m}"),
            };
            println!(
                "depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} pv {}",
                i.depth,
                i.seldepth,
                i.multipv,
                score,
                i.nodes,
                i.nps,
                i.time_ms,
                i.pv.join(" ")
            );
        }
        Report::BestMove { best, ponder } => {
            let b = best.unwrap_or_else(|| "(none)".into());
            match ponder {
                Some(p) => println!("bestmove {b} ponder {p}"),
                None => println!("bestmove {b}"),
            }
        }
    });
    engine.search(pos, limits, Some(reporter));
    Ok(())
}

fn cmd_bench(args: &[String]) -> Result<(), ArgError> {
    let p = parse_options(args, &["--depth"], &["--help"])?;
    if p.flag("--help") {
        println!(
            "usage: chimera bench [--depth D]\n\nSearches fixed positions of every variant to depth D (default {}) with one thread; the last line is `<nodes> nodes <nps> nps`.",
            crate::tools::bench::DEPTH
        );
        return Ok(());
    }
    let depth = number::<i32>(&p, "--depth", 1, 30)?.unwrap_or(crate::tools::bench::DEPTH);
    let (nodes, nps) = crate::tools::bench::run(depth, true).map_err(ArgError)?;
    println!("{nodes} nodes {nps} nps");
    Ok(())
}

const SELFPLAY_HELP: &str = "\
usage: chimera selfplay [--variant V] [--games N] [--concurrency N] [--nodes N | --tc BASE+INC]
                        [--a name=value,...] [--b name=value,...] [--plies N] [--seed N]
                        [--hash MB] [--threads-a N] [--threads-b N] [--sprt ELO0,ELO1]

Plays N games (in pairs, colours swapped, from random openings of --plies
random moves) between two settings of Chimera's weights (see `chimera
params`); A's result is reported. --tc is in seconds (`10+0.1`); --nodes
limits each move instead (deterministic). --threads-a/--threads-b give a
side more search threads (Lazy SMP), to measure what threads are worth
(use --concurrency 1 and --tc). The last line gives W-L-D, the
score, the Elo difference with its 95% error bar, and the SPRT LLR.
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
        ],
        &["--help", "--quiet"],
    )?;
    if p.flag("--help") {
        print!("{SELFPLAY_HELP}");
        return Ok(());
    }
    let variant = p.value("--variant").unwrap_or("chess").to_string();
    crate::variant::VariantSpec::by_name(&variant, &[]).map_err(ArgError)?;
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
    let t = selfplay::run(&cfg, &|t| {
        if !quiet {
            eprintln!("{}", line(t));
        }
    })
    .map_err(ArgError)?;
    println!("{}", line(&t));
    Ok(())
}
