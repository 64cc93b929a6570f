//! Self-play inside one process: two configurations of Chimera's own engine
//! (different weights of `Params`) play paired games from random openings,
//! with the variant's rules adjudicating. Used for A/B tests of weights and
//! by the tuning script (SPSA). Results: W-L-D, Elo with a 95% error bar,
//! and the SPRT log-likelihood ratio (`tools::stats`).

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::base::MoveKind;
use crate::bitboard::Bitboard;
use crate::params::Params;
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::search::{Engine, Limits, ScoreKind};
use crate::setup::{AnyPosition, Width, setup};
use crate::variant::WHITE;
use crate::with_position;

pub use crate::tools::stats::Tally;

#[derive(Clone, Debug)]
pub struct Config {
    /// a variant name, or several separated by commas: game pair `i`
    /// plays the `i`-th (cycling)
    pub variant: String,
    pub games: usize,
    pub concurrency: usize,
    /// per-move node limit (deterministic) ...
    pub nodes: Option<u64>,
    /// ... or clock: base and increment in milliseconds
    pub base_ms: u64,
    pub inc_ms: u64,
    pub a: Params,
    pub b: Params,
    /// random plies played before the engines take over
    pub opening_plies: usize,
    pub seed: u64,
    pub hash_mb: usize,
    pub max_plies: usize,
    /// search threads of A and B
    pub threads: [usize; 2],
    /// an SPRT (elo0, elo1; alpha = beta = 0.05) that ends the run once
    /// it decides
    pub sprt: Option<(f64, f64)>,
    /// the evaluation networks of A and B (`Use NNUE`, `EvalFile`)
    pub nets: [crate::nnue::NetChoice; 2],
    /// where to append the quiet positions of the games, each with the
    /// game's result (for fitting the evaluation, `chimera texel`)
    pub positions: Option<String>,
}

/// What one side's searches cost over a run: moves searched, their nodes,
/// milliseconds and depths (to tell a side that searches slower from one
/// that plays worse).
#[derive(Clone, Copy, Debug, Default)]
pub struct SideStats {
    pub moves: u64,
    pub nodes: u64,
    pub ms: u64,
    pub depth: u64,
}

impl SideStats {
    /// `moves, nodes/move, ms/move, nodes/s, mean depth` as one line.
    pub fn summary(&self) -> String {
        let per = |x: u64| x as f64 / self.moves.max(1) as f64;
        format!(
            "{} moves, {:.0} nodes/move, {:.1} ms/move, {:.0} nodes/s, depth {:.2}",
            self.moves,
            per(self.nodes),
            per(self.ms),
            self.nodes as f64 * 1000.0 / self.ms.max(1) as f64,
            per(self.depth)
        )
    }
}

/// Positions recorded during a game: FENs of quiet positions (not in
/// check, the engine's choice neither a capture nor a promotion, the score
/// not a mate), after the opening.
type Record = Vec<String>;

/// A random opening: `plies` random legal moves (avoiding ones that end the
/// game), as move strings.
pub(crate) fn random_opening<B: Bitboard>(
    pos: &Position<B>,
    plies: usize,
    rng: &mut SplitMix64,
) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.index(moves.len())];
        out.push(p.move_to_string(m));
        p.make(m);
        if p.outcome().is_some() {
            out.pop();
            p.unmake();
            break;
        }
    }
    out
}

/// Plays one game; returns the result from A's view: 1 win, 0 draw, -1 loss.
/// How a game between engine searches is adjudicated, from each search's
/// score (the side to move's view): a side whose score is a clear loss
/// (below -1000) four moves running loses; sixteen searches running within
/// 10 centipawns after ply 80 are a draw.
#[derive(Default)]
pub(crate) struct Adjudicator {
    lost_streak: [u32; 2],
    quiet_draw: u32,
}

/// An adjudicated end: White's score, 1 (win), 0 (draw) or -1 (loss).
pub(crate) type WhiteScore = i32;

impl Adjudicator {
    /// After `side`'s search at `ply` scored `score`: White's score when
    /// the game is adjudicated here.
    pub(crate) fn after(
        &mut self,
        side: usize,
        score: ScoreKind,
        ply: usize,
    ) -> Option<WhiteScore> {
        let cp = match score {
            ScoreKind::Cp(c) => c,
            ScoreKind::Mate(m) if m > 0 => 10_000,
            ScoreKind::Mate(_) => -10_000,
        };
        self.lost_streak[side] = if cp < -1000 {
            self.lost_streak[side] + 1
        } else {
            0
        };
        if self.lost_streak[side] >= 4 {
            return Some(if side == WHITE { -1 } else { 1 });
        }
        self.quiet_draw = if ply > 80 && cp.abs() <= 10 {
            self.quiet_draw + 1
        } else {
            0
        };
        (self.quiet_draw >= 16).then_some(0)
    }
}

/// Whether `m` captures or promotes (its position is not quiet).
pub(crate) fn tactical(pos: &AnyPosition, m: crate::base::Move) -> bool {
    with_position!(pos, p => p.piece_at(m.to()).is_some()
        || m.kind() == MoveKind::EnPassant
        || m.promotion().is_some())
}

fn play_game(
    cfg: &Config,
    variant: &str,
    opening: &[String],
    a_white: bool,
    record: &mut Record,
    stats: &Mutex<[SideStats; 2]>,
) -> Result<i32, String> {
    let mut engines = [Engine::new(), Engine::new()];
    for (i, e) in engines.iter_mut().enumerate() {
        e.set_hash(cfg.hash_mb);
        e.set_threads(cfg.threads[i]);
        e.params = if i == 0 { cfg.a.clone() } else { cfg.b.clone() };
        e.nets = cfg.nets[i].clone();
        e.move_overhead = 5;
    }
    let refs: Vec<&str> = opening.iter().map(String::as_str).collect();
    let mut pos = setup(variant, None, &refs, &[], Width::Auto)?;
    let mut plies = opening.len();
    let mut clock = [cfg.base_ms as i64, cfg.base_ms as i64];
    let mut adjudicator = Adjudicator::default();
    loop {
        let (side, outcome) = (pos.side(), pos.outcome());
        if let Some(o) = outcome {
            let white_score = match o.result() {
                "1-0" => 1,
                "0-1" => -1,
                _ => 0,
            };
            return Ok(if a_white { white_score } else { -white_score });
        }
        if plies >= cfg.max_plies {
            return Ok(0);
        }
        // engine index: 0 = A
        let mover = if (side == WHITE) == a_white { 0 } else { 1 };
        let mut limits = Limits {
            multipv: 1,
            ..Default::default()
        };
        if let Some(n) = cfg.nodes {
            limits.nodes = Some(n);
        } else {
            let t = clock[mover].max(1) as u64;
            limits.time = [Some(t), Some(t)];
            limits.inc = [cfg.inc_ms, cfg.inc_ms];
        }
        let start = std::time::Instant::now();
        let r = engines[mover]
            .search(clone_any(&pos), limits, None)
            .ok_or("search failed")?;
        let spent = start.elapsed().as_millis() as u64;
        {
            let mut st = stats.lock().expect("stats");
            let st = &mut st[mover];
            st.moves += 1;
            st.nodes += r.nodes;
            st.ms += spent;
            st.depth += r.depth.max(0) as u64;
        }
        if cfg.nodes.is_none() {
            clock[mover] -= spent as i64;
            if clock[mover] < 0 {
                // loss on time
                return Ok(if mover == 0 { -1 } else { 1 });
            }
            clock[mover] += cfg.inc_ms as i64;
        }
        let Some(best) = r.best else {
            return Err("engine had no move in a position that is not over".into());
        };
        if let Some(white_score) = adjudicator.after(side, r.score, plies) {
            return Ok(if a_white { white_score } else { -white_score });
        }
        if cfg.positions.is_some()
            && matches!(r.score, ScoreKind::Cp(_))
            && !pos.in_check()
            && !tactical(&pos, best)
        {
            record.push(pos.to_fen());
        }
        pos.make_legal(best)
            .map_err(|e| format!("engine played {e}"))?;
        plies += 1;
    }
}

fn clone_any(p: &AnyPosition) -> AnyPosition {
    p.clone()
}

/// Whether the SPRT of `cfg`, if any, has accepted a hypothesis.
fn decided(cfg: &Config, t: &Tally) -> bool {
    cfg.sprt.is_some_and(|(e0, e1)| {
        let (lo, hi) = crate::tools::stats::sprt_bounds(0.05, 0.05);
        let llr = t.llr(e0, e1);
        llr <= lo || llr >= hi
    })
}

/// Runs the match; `progress` is called after each game with the tally.
/// A's and B's search statistics are added to `stats`.
pub fn run(
    cfg: &Config,
    progress: &(dyn Fn(&Tally) + Sync),
    stats: &Mutex<[SideStats; 2]>,
) -> Result<Tally, String> {
    let variants: Vec<&str> = cfg.variant.split(',').map(str::trim).collect();
    let starts = variants
        .iter()
        .map(|v| setup(v, None, &[], &[], Width::Auto))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rng = SplitMix64(cfg.seed);
    let pairs = cfg.games.div_ceil(2);
    let openings: Vec<Vec<String>> = (0..pairs)
        .map(|i| {
            let start = &starts[i % starts.len()];
            with_position!(start, p => random_opening(p, cfg.opening_plies, &mut rng))
        })
        .collect();
    let writer = match &cfg.positions {
        Some(path) => Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{path}: {e}"))?,
        )),
        None => None,
    };
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    let error = Mutex::new(None::<String>);
    let cfg = Arc::new(cfg.clone());
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            s.spawn(|| {
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= cfg.games || decided(&cfg, &tally.lock().expect("tally")) {
                        break;
                    }
                    let opening = &openings[g / 2];
                    let variant = variants[(g / 2) % variants.len()];
                    let a_white = g.is_multiple_of(2);
                    let mut record = Record::new();
                    match play_game(&cfg, variant, opening, a_white, &mut record, stats) {
                        Ok(r) => {
                            if let Some(w) = &writer {
                                let white = if a_white { r } else { -r };
                                let label = ["0", "0.5", "1"][(white + 1) as usize];
                                let mut text = String::new();
                                for fen in &record {
                                    text.push_str(&format!("{variant}|{fen}|{label}\n"));
                                }
                                let mut w = w.lock().expect("positions");
                                if let Err(e) = w.write_all(text.as_bytes()) {
                                    *error.lock().expect("error") = Some(e.to_string());
                                    break;
                                }
                            }
                            let mut t = tally.lock().expect("tally");
                            match r {
                                1 => t.wins += 1,
                                -1 => t.losses += 1,
                                _ => t.draws += 1,
                            }
                            progress(&t);
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
    Ok(tally.into_inner().expect("tally"))
}

/// Parses `name=value,name=value` onto the default weights.
pub fn parse_params(s: &str) -> Result<Params, String> {
    let mut p = Params::default();
    for kv in s.split(',').filter(|x| !x.trim().is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("expected name=value, got '{kv}'"))?;
        let v: i32 = v
            .trim()
            .parse()
            .map_err(|_| format!("value of '{k}' is not a number"))?;
        p.set(k.trim(), v)?;
    }
    Ok(p)
}
