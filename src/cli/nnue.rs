//! The network's subcommands: `datagen` (training positions from self-play)
//! and `train` (a network from them).

use super::{ArgError, number, out, parse_options};

pub const DATAGEN_HELP: &str = "\
usage: chimera datagen --out FILE [--variants LIST] [--games N] [--nodes N]
                       [--concurrency N] [--seed S] [--shard I/N] [--plies LO-HI]
                       [--hash MB] [--max-plies N] [--nnue on|off|FILE] [--quiet]

Self-play at a fixed node budget (default 5000 nodes a move, one game per
thread, --concurrency 2) from LO-HI random plies (default 6-10); keeps the
quiet positions (not in check, the move chosen neither a capture nor a
promotion, the score not a mate) with the search score and the game's
result in FILE (format: src/nnue/data.rs). --variants is a comma list of
variant names; cwda-all stands for every pairing of the built-in armies
(default: chess,cwda-all); fourplayer-teams and fourplayer-ffa make
four-player games (a random layout, 4PC or 4PCo). --shard I/N makes the
I-th of N pieces of the set of --seed (games I, N+I, 2N+I, ...); pieces
merge with cat. A run
stopped at any time resumes with the same command: it keeps the whole
games in FILE and plays the ones missing. --nnue: the evaluation that
plays, the built-in networks (on, the default), the classical evaluation
(off) or a network file. A progress line (games,
positions, positions/s, elapsed) goes to stderr after each game.
";

pub fn cmd_datagen(args: &[String]) -> Result<(), ArgError> {
    use crate::tools::datagen::{self, Config};
    let p = parse_options(
        args,
        &[
            "--out",
            "--variants",
            "--games",
            "--nodes",
            "--concurrency",
            "--seed",
            "--shard",
            "--plies",
            "--hash",
            "--max-plies",
            "--nnue",
        ],
        &["--help", "--quiet"],
    )?;
    if p.flag("--help") {
        out().text(DATAGEN_HELP);
        return Ok(());
    }
    let out_path = p
        .value("--out")
        .ok_or_else(|| ArgError("datagen needs --out FILE".into()))?;
    let pair = |k: &str, sep: char, default: (usize, usize)| -> Result<(usize, usize), ArgError> {
        match p.value(k) {
            None => Ok(default),
            Some(s) => s
                .split_once(sep)
                .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                .ok_or_else(|| ArgError(format!("{k} '{s}' is not A{sep}B"))),
        }
    };
    let shard = pair("--shard", '/', (0, 1))?;
    if shard.1 == 0 || shard.0 >= shard.1 {
        return Err(ArgError(format!(
            "--shard {}/{}: I must be below N",
            shard.0, shard.1
        )));
    }
    let plies = pair("--plies", '-', (6, 10))?;
    if plies.0 > plies.1 || plies.1 > 60 {
        return Err(ArgError("--plies LO-HI: LO <= HI <= 60".into()));
    }
    let variants = datagen::expand_variants(p.value("--variants").unwrap_or("chess,cwda-all"));
    let cfg = Config {
        variants,
        games: number::<usize>(&p, "--games", 1, 100_000_000)?.unwrap_or(1000),
        concurrency: number::<usize>(&p, "--concurrency", 1, 256)?.unwrap_or(2),
        nodes: number::<u64>(&p, "--nodes", 1, 100_000_000)?.unwrap_or(5000),
        seed: number::<u64>(&p, "--seed", 0, u64::MAX)?.unwrap_or(1),
        shard,
        out: out_path.to_string(),
        random_plies: plies,
        hash_mb: number::<usize>(&p, "--hash", 1, 4096)?.unwrap_or(16),
        max_plies: number::<usize>(&p, "--max-plies", 10, 10_000)?.unwrap_or(400),
        nets: crate::nnue::NetChoice::from_arg(p.value("--nnue").unwrap_or("on"))
            .map_err(ArgError)?,
    };
    let quiet = p.flag("--quiet");
    let line = |t: &datagen::Progress, secs: f64| {
        format!(
            "games {} positions {} ({:.0} positions/s) elapsed {:.0} s",
            t.games,
            t.positions,
            t.new_positions as f64 / secs.max(1e-9),
            secs
        )
    };
    let started = std::time::Instant::now();
    let t = datagen::run(&cfg, &|t, secs| {
        if !quiet {
            eprintln!("{}", line(t, secs));
        }
    })
    .map_err(ArgError)?;
    out().line(&line(&t, started.elapsed().as_secs_f64()));
    Ok(())
}

pub const TRAIN_HELP: &str = "\
usage: chimera train --data FILE[,FILE...] --out NET [--epochs N] [--batch N] [--lr X]
                     [--lambda X] [--validation X] [--seed S] [--families TEXT]
                     [--check FILE] [--threads N] [--residual] [--weight-decay X]
                     [--wdl-scale K] [--screlu] [--init NET]

Trains an evaluation network on `chimera datagen` data (one board size per
network; its piece kinds are every piece of the data's variants) and
writes it quantized to NET (format: src/nnue/net.rs). Defaults: 12 epochs,
batches of 16384, learning rate 0.001 (a tenth for the last quarter),
lambda 0.7 (the search score's weight against the game's result),
wdl-scale 200 (centipawns to win probability, sigmoid(cp / K): the scale
at which Chimera's own search scores predict its games' results),
validation 0.05 (that share of the games is held out). Each epoch prints
its training and validation loss; the network of the epoch with the best
validation loss is the one written. --weight-decay X: decoupled weight
decay of the feature weights (default 0). --check FILE writes 200 validation
positions with the float network's centipawns, for the test that the
quantized network agrees with them. --residual trains a correction that
the engine adds to its classical evaluation (the loss sees their sum)
instead of a network that replaces it. --screlu: the hidden layer's
activation is the clipped accumulator squared (SCReLU) instead of the
clipped accumulator. --init NET goes on training a network already made
(its flags must match; its piece kinds are found by name, a kind it lacks
starts random) and reports its validation loss as epoch 0; with
--epochs 0 it only measures that network on the data.
";

pub fn cmd_train(args: &[String]) -> Result<(), ArgError> {
    use crate::nnue::{data, train};
    let p = parse_options(
        args,
        &[
            "--data",
            "--out",
            "--epochs",
            "--batch",
            "--lr",
            "--lambda",
            "--validation",
            "--seed",
            "--families",
            "--check",
            "--threads",
            "--weight-decay",
            "--wdl-scale",
            "--init",
        ],
        &["--help", "--residual", "--screlu"],
    )?;
    if p.flag("--help") {
        out().text(TRAIN_HELP);
        return Ok(());
    }
    let files = p
        .value("--data")
        .ok_or_else(|| ArgError("train needs --data FILE".into()))?;
    let out_path = p
        .value("--out")
        .ok_or_else(|| ArgError("train needs --out NET".into()))?;
    let real = |k: &str, lo: f64, hi: f64, default: f64| -> Result<f64, ArgError> {
        match p.value(k) {
            None => Ok(default),
            Some(s) => s
                .parse::<f64>()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(|| ArgError(format!("{k} '{s}' is not a number from {lo} to {hi}"))),
        }
    };
    let mut games = Vec::new();
    for f in files.split(',') {
        let bytes = std::fs::read(f).map_err(|e| ArgError(format!("{f}: {e}")))?;
        let (g, valid) = data::read(&bytes).map_err(|e| ArgError(format!("{f}: {e}")))?;
        if valid < bytes.len() {
            eprintln!(
                "{f}: {} bytes after the last whole game ignored",
                bytes.len() - valid
            );
        }
        games.extend(g);
    }
    let cfg = train::Config {
        epochs: number::<usize>(&p, "--epochs", 0, 10_000)?.unwrap_or(12),
        batch: number::<usize>(&p, "--batch", 1, 1 << 24)?.unwrap_or(16384),
        lr: real("--lr", 1e-7, 1.0, 0.001)? as f32,
        lambda: real("--lambda", 0.0, 1.0, 0.7)? as f32,
        wdl_scale: real("--wdl-scale", 10.0, 10000.0, 200.0)? as f32,
        validation: real("--validation", 0.0, 0.9, 0.05)?,
        seed: number::<u64>(&p, "--seed", 0, u64::MAX)?.unwrap_or(1),
        families: p.value("--families").unwrap_or("").to_string(),
        residual: p.flag("--residual"),
        weight_decay: real("--weight-decay", 0.0, 1000.0, 0.0)? as f32,
        screlu: p.flag("--screlu"),
        init: match p.value("--init") {
            None => None,
            Some(f) => Some(
                std::fs::read(f)
                    .map_err(|e| e.to_string())
                    .and_then(|b| crate::nnue::net::Network::from_bytes(&b))
                    .map_err(|e| ArgError(format!("--init {f}: {e}")))?,
            ),
        },
    };
    if let Some(n) = number::<usize>(&p, "--threads", 1, 256)? {
        // the global pool may already exist (a second call): keep it then
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    let t = train::train(&games, &cfg, &|line| eprintln!("{line}")).map_err(ArgError)?;
    std::fs::write(out_path, t.net.to_bytes()).map_err(|e| ArgError(format!("{out_path}: {e}")))?;
    if let Some(check) = p.value("--check") {
        let held: Vec<data::GameRecord> = {
            let ids: std::collections::HashSet<u32> = t.validation_games.iter().copied().collect();
            games
                .iter()
                .filter(|g| ids.contains(&g.game))
                .cloned()
                .collect()
        };
        let text = train::check_lines(&held, &t.float, &train::Inputs::of(&t.net), 200)
            .map_err(ArgError)?;
        std::fs::write(check, text).map_err(|e| ArgError(format!("{check}: {e}")))?;
    }
    let last = t.epochs.last().copied().unwrap_or_default();
    out().line(&format!(
        "wrote {out_path}: {} kinds, {} squares; {} training positions, {} validation; \
         last epoch {} train loss {:.6} validation loss {:.6}; kept epoch {}",
        t.net.kinds.len(),
        t.net.squares,
        t.train_positions,
        t.validation_positions,
        last.0,
        last.1,
        last.2,
        t.best_epoch
    ));
    Ok(())
}
