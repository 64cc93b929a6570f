//! `chimera datagen`: training positions for the evaluation network from
//! Chimera's own games. One engine plays both sides at a fixed node budget
//! from a few random plies; the quiet positions (not in check, the move
//! chosen neither a capture nor a promotion, the score not a mate) are kept
//! with the search score and the game's result, in the format of
//! `nnue::data`.
//!
//! Game `g` of shard `i` of `n` is game number `g * n + i` of the whole
//! set; its variant and opening come from the seed and that number alone,
//! so shards made on different machines merge (`cat`) into the set one
//! machine would make, and a stopped run resumes by playing the numbers
//! missing from its file.

use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::fourplayer::game::{Game4, Outcome4};
use crate::fourplayer::search::{Objective, Search4};
use crate::fourplayer::{Layout, Mode, setup_game, team};
use crate::game::Family;
use crate::nnue::NetChoice;
use crate::nnue::data::{self, GameRecord, Sample, four_player_result};
use crate::rng::SplitMix64;
use crate::search::{Engine, Limits, ScoreKind};
use crate::setup::{AnyPosition, Width, setup};
use crate::tools::selfplay::{Adjudicator, random_opening, tactical};
use crate::variant::armies;
use crate::with_position;

#[derive(Clone, Debug)]
pub struct Config {
    /// variant names, each game picks one
    pub variants: Vec<String>,
    /// games of this shard
    pub games: usize,
    pub concurrency: usize,
    pub nodes: u64,
    pub seed: u64,
    /// (i, n): this is shard i of n
    pub shard: (usize, usize),
    pub out: String,
    /// random plies before the engine plays: from .0 to .1
    pub random_plies: (usize, usize),
    pub hash_mb: usize,
    pub max_plies: usize,
    /// the evaluation that plays (classical, built-in networks or a file)
    pub nets: NetChoice,
}

/// `cwda-all`: every pairing of the built-in armies; `chess`, `omega` and
/// single names stay as they are.
pub fn expand_variants(list: &str) -> Vec<String> {
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if name == "cwda-all" {
            let a = armies::builtin();
            for w in &a {
                for b in &a {
                    out.push(format!("cwda-{}-{}", w.token, b.token));
                }
            }
        } else {
            out.push(name.to_string());
        }
    }
    out
}

/// Running totals for the progress line.
#[derive(Default)]
pub struct Progress {
    pub games: usize,
    pub positions: usize,
    /// positions made by this run (not found in the file)
    pub new_positions: usize,
}

fn pieces(pos: &AnyPosition) -> Vec<(u8, u8, u8)> {
    with_position!(pos, p => (0..p.v.n)
        .filter_map(|sq| p.piece_at(sq).map(|(c, t)| (sq as u8, c as u8, t as u8)))
        .collect())
}

/// Plays game number `number`.
fn play(cfg: &Config, engine: &mut Engine, number: u32) -> Result<GameRecord, String> {
    let mut rng = SplitMix64(cfg.seed ^ (number as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64();
    let variant = cfg.variants[rng.index(cfg.variants.len())].clone();
    if let Some(mode) = Family::of(&variant).four() {
        return play_four(cfg, engine, number, variant, mode, &mut rng);
    }
    let start = setup(&variant, None, &[], &[], Width::Auto)?;
    let (lo, hi) = cfg.random_plies;
    let plies = lo + rng.index(hi.saturating_sub(lo) + 1);
    let opening = with_position!(&start, p => random_opening(p, plies, &mut rng));
    let refs: Vec<&str> = opening.iter().map(String::as_str).collect();
    let mut pos = setup(&variant, None, &refs, &[], Width::Auto)?;
    let mut ply = opening.len();
    engine.new_game();
    let mut samples = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let white_result = loop {
        if let Some(o) = pos.outcome() {
            break match o.result() {
                "1-0" => 2,
                "0-1" => 0,
                _ => 1,
            };
        }
        if ply >= cfg.max_plies {
            break 1;
        }
        let limits = Limits {
            nodes: Some(cfg.nodes),
            multipv: 1,
            ..Default::default()
        };
        let side = pos.side();
        let r = engine
            .search(pos.clone(), limits, None)
            .ok_or("search failed")?;
        let best = r.best.ok_or("no move in a position that is not over")?;
        let cp = match r.score {
            ScoreKind::Cp(c) => Some(c),
            ScoreKind::Mate(_) => None,
        };
        // adjudicated as `chimera selfplay` adjudicates
        if let Some(white_score) = adjudicator.after(side, r.score, ply) {
            break (white_score + 1) as u8;
        }
        if let Some(cp) = cp
            && !pos.in_check()
            && !tactical(&pos, best)
        {
            samples.push(Sample {
                side: side as u8,
                score: cp.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
                ply: ply.min(u16::MAX as usize) as u16,
                pieces: pieces(&pos),
                points: None,
            });
        }
        pos.make_legal(best)
            .map_err(|e| format!("engine played {e}"))?;
        ply += 1;
    };
    Ok(GameRecord {
        game: number,
        variant,
        result: white_result,
        samples,
    })
}

/// Plays four-player game number `number` from a random layout (Chess.com's
/// `4PC` or the classic `4PCo`) and random plies, to its end or the ply
/// limit (no adjudication: a lead in four-player chess is not a won game).
/// Free-For-All is searched as the protocols search it by default
/// (paranoid).
fn play_four(
    cfg: &Config,
    engine: &mut Engine,
    number: u32,
    variant: String,
    mode: Mode,
    rng: &mut SplitMix64,
) -> Result<GameRecord, String> {
    let layout = [Layout::Modern, Layout::Classic][rng.index(2)];
    let mut game = setup_game(mode, None, Some(layout), &[])?;
    let (lo, hi) = cfg.random_plies;
    for _ in 0..lo + rng.index(hi.saturating_sub(lo) + 1) {
        let moves = game.position().legal_moves();
        if game.outcome().is_some() || moves.is_empty() {
            break;
        }
        let token = game
            .position()
            .move_to_string(moves[rng.index(moves.len())]);
        game.play(&token)?;
    }
    engine.new_game();
    let mut samples = Vec::new();
    let mut ply = game.log().len();
    while game.outcome().is_none() && ply < cfg.max_plies {
        let pos = game.position().clone();
        let limits = Limits {
            nodes: Some(cfg.nodes),
            multipv: 1,
            ..Default::default()
        };
        engine.go_with(
            Search4::of_game(&game, Objective::Paranoid),
            limits,
            Arc::new(|_| {}),
        );
        let r = engine.wait().ok_or("search failed")?;
        let best = r.best.ok_or("no move in a position that is not over")?;
        if let ScoreKind::Cp(cp) = r.score
            && !pos.in_check()
            && !pos.is_noisy(best)
        {
            samples.push(Sample {
                side: pos.side() as u8,
                score: cp.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
                ply: ply.min(u16::MAX as usize) as u16,
                pieces: (0..pos.v.shape.num_squares())
                    .filter_map(|sq| pos.piece_at(sq).map(|(o, t)| (sq as u8, o as u8, t as u8)))
                    .collect(),
                points: (mode == Mode::Ffa).then(|| {
                    pos.points()
                        .map(|p| p.clamp(i16::MIN as i32, i16::MAX as i32) as i16)
                }),
            });
        }
        game.play(&pos.move_to_string(best))
            .map_err(|e| format!("engine played {e}"))?;
        ply = game.log().len();
    }
    Ok(GameRecord {
        game: number,
        variant,
        result: four_player_result(seat_results(&game)),
        samples,
    })
}

/// Each seat's result (0 loss, 1 draw, 2 win) of a four-player game, as
/// `nnue::data` records them; a game cut at the ply limit is a draw in
/// Teams and goes by the points so far in Free-For-All.
fn seat_results(game: &Game4) -> [u8; 4] {
    let by_points = |points: [i32; 4]| {
        let top = points.iter().copied().max().unwrap_or(0);
        let shared = points.iter().filter(|&&p| p == top).count() > 1;
        points.map(|p| match (p == top, shared) {
            (true, false) => 2,
            (true, true) => 1,
            _ => 0,
        })
    };
    match game.outcome() {
        Some(Outcome4::TeamWin { team: won, .. }) => {
            [0, 1, 2, 3].map(|s| if team(s) == *won { 2 } else { 0 })
        }
        Some(Outcome4::FfaEnd { points, .. }) => by_points(*points),
        None if game.mode() == Mode::Ffa => by_points(game.position().points()),
        _ => [1; 4],
    }
}

/// Opens the output for appending: the games already in it, the file
/// truncated after its last whole game (a run stopped while writing).
fn open(path: &str) -> Result<(std::fs::File, HashSet<u32>, usize), String> {
    let err = |e: std::io::Error| format!("{path}: {e}");
    let existing = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(err(e)),
    };
    let (games, valid, version) = if existing.is_empty() {
        (Vec::new(), 0, 0)
    } else {
        data::read_versioned(&existing).map_err(|e| format!("{path}: {e}"))?
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    f.set_len(valid as u64).map_err(err)?;
    use std::io::Seek;
    f.seek(std::io::SeekFrom::End(0)).map_err(err)?;
    // a new file, or one of an older format: the games to come are of
    // this build's format, under its header
    if valid == 0 || version != data::VERSION {
        f.write_all(&data::file_header()).map_err(err)?;
    }
    let positions = games.iter().map(|g| g.samples.len()).sum();
    Ok((f, games.iter().map(|g| g.game).collect(), positions))
}

/// Makes the shard's games that its file lacks; `progress` is called after
/// each game.
pub fn run(cfg: &Config, progress: &(dyn Fn(&Progress, f64) + Sync)) -> Result<Progress, String> {
    let (i, n) = cfg.shard;
    if n == 0 || i >= n {
        return Err(format!("bad shard {i}/{n}"));
    }
    for v in &cfg.variants {
        if !Family::of(v).is_four() {
            setup(v, None, &[], &[], Width::Auto).map_err(|e| format!("{v}: {e}"))?;
        }
    }
    if cfg.variants.is_empty() {
        return Err("no variant".into());
    }
    let (file, done, positions) = open(&cfg.out)?;
    let todo: Vec<u32> = (0..cfg.games)
        .map(|g| (g * n + i) as u32)
        .filter(|g| !done.contains(g))
        .collect();
    let file = Mutex::new(file);
    let totals = Mutex::new(Progress {
        games: done.len(),
        positions,
        new_positions: 0,
    });
    let next = AtomicUsize::new(0);
    let error = Mutex::new(None::<String>);
    let start = Instant::now();
    let cfg = Arc::new(cfg.clone());
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            s.spawn(|| {
                let mut engine = Engine::new();
                engine.set_hash(cfg.hash_mb);
                engine.set_threads(1);
                engine.nets = cfg.nets.clone();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= todo.len() || error.lock().expect("error").is_some() {
                        break;
                    }
                    let r = play(&cfg, &mut engine, todo[k]).and_then(|g| {
                        let bytes = g.encode()?;
                        let mut f = file.lock().expect("file");
                        f.write_all(&bytes)
                            .and_then(|_| f.flush())
                            .map_err(|e| format!("{}: {e}", cfg.out))?;
                        Ok(g.samples.len())
                    });
                    match r {
                        Ok(count) => {
                            let mut t = totals.lock().expect("totals");
                            t.games += 1;
                            t.positions += count;
                            t.new_positions += count;
                            progress(&t, start.elapsed().as_secs_f64());
                        }
                        Err(e) => {
                            *error.lock().expect("error") = Some(e);
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().expect("error") {
        return Err(e);
    }
    Ok(totals.into_inner().expect("totals"))
}
