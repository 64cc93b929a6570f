//! One search thread: the `Worker`, its iterative deepening with
//! aspiration windows and its root search. A node below the root is
//! searched by `node.rs` (with `pruning.rs`, `extensions.rs`,
//! `moveloop.rs` and `ttstore.rs`), quiescence by `qsearch.rs`.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::base::Move;
use crate::params::{
    CLOCK_CHECK_NODES, FORCED_MOVE_DEPTH, LMR_TABLE_SIZE, Params, SOFT_SCALE_BY_STABILITY,
};

use super::Shared;
use super::correction::{Correction, CorrectionKeys};
use super::moveloop::lmr_table;
use super::ordering::{History, MAX_PLY, MoveBuf};
use super::time::{Limits, TimeControl, share_on_falling_score};
use super::tree::SearchPosition;

pub const INF: i32 = 31000;
pub const MATE: i32 = 30000;
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 8;

#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    pub(super) eval: i32,
    pub(super) mv: Move,
    pub(super) excluded: Move,
    /// extensions on the path from the root to this node
    pub(super) ext: u16,
    /// the piece and target square of `mv` (`History::piece_to`; 0 for
    /// none or a pass), for the continuation history
    pub(super) pt: u32,
}

pub struct Worker<P: SearchPosition> {
    pub id: usize,
    pub pos: P,
    pub(super) t: Arc<P::Tables>,
    pub(super) p: Params,
    pub(super) shared: Arc<Shared>,
    pub history: History,
    pub(super) correction: Correction,
    pub nodes: u64,
    pub seldepth: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    pub(super) stack: [Frame; MAX_PLY + 4],
    pub root_moves: Vec<RootMove>,
    pub tc: TimeControl,
    pub limits: Limits,
    pub(super) lmr: Vec<[i32; LMR_TABLE_SIZE]>,
    pub(super) bufs: Vec<MoveBuf>,
    pv_idx: usize,
    pub completed_depth: i32,
    was_pondering: bool,
}

impl<P: SearchPosition> Worker<P> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        pos: P,
        t: Arc<P::Tables>,
        p: Params,
        shared: Arc<Shared>,
        root_moves: Vec<RootMove>,
        tc: TimeControl,
        limits: Limits,
        (history, correction): (History, Correction),
    ) -> Worker<P> {
        let mut pos = pos;
        pos.set_params(&p);
        pos.attach_eval(&t);
        let p = if pos.network_margins() {
            p.for_network()
        } else {
            p
        };
        let lmr = lmr_table(&p);
        let was_pondering = limits.ponder;
        Worker {
            id,
            pos,
            t,
            p,
            shared,
            history,
            correction,
            nodes: 0,
            seldepth: 0,
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            stack: [Frame::default(); MAX_PLY + 4],
            root_moves,
            tc,
            limits,
            lmr,
            // a second set for singular-extension searches, which run at
            // the same ply as the node that started them
            bufs: (0..2 * (MAX_PLY + 2)).map(|_| MoveBuf::default()).collect(),
            pv_idx: 0,
            completed_depth: 0,
            was_pondering,
        }
    }

    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Node bookkeeping and, on the main thread, the clock.
    #[inline]
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & (CLOCK_CHECK_NODES - 1) == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                self.check_limits();
            }
        }
    }

    fn check_limits(&mut self) {
        let pondering = self.shared.ponder.load(Ordering::Relaxed);
        if self.was_pondering && !pondering {
            // ponderhit: the clock starts now
            self.was_pondering = false;
            self.tc.start = std::time::Instant::now();
        }
        if pondering {
            return;
        }
        if self.tc.out_of_time() {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        if let Some(n) = self.limits.nodes
            && self.shared.total_nodes() >= n
        {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    pub fn evaluate(&mut self) -> i32 {
        self.pos.settle_eval();
        self.pos.evaluate(&self.t, &self.p)
    }

    /// The correction history's term for the side to move here.
    #[inline]
    pub(super) fn eval_correction(&self) -> i32 {
        let weights = (self.p.corr_pawn_weight, self.p.corr_non_pawn_weight);
        self.correction
            .blended(self.pos.side(), self.correction_keys(), weights)
    }

    /// The keys the correction history reads and learns here (no non-pawn
    /// keys where their weight is 0, so those tables are then left alone).
    #[inline]
    pub(super) fn correction_keys(&self) -> CorrectionKeys {
        CorrectionKeys {
            pawn: self.pos.pawn_key(),
            non_pawn: if self.p.corr_non_pawn_weight != 0 {
                self.pos.non_pawn_keys()
            } else {
                None
            },
        }
    }

    /// Bookkeeping on entering a node; a score if the node ends here
    /// (stopped, drawn, or too deep).
    #[inline]
    pub(super) fn enter_node(&mut self, ply: usize) -> Option<i32> {
        self.pv_len[ply] = ply;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.stopped() {
            return Some(0);
        }
        if let Some(s) = self.pos.game_over_score() {
            return Some(s);
        }
        if ply >= MAX_PLY {
            return Some(self.evaluate());
        }
        None
    }

    /// Iterative deepening; returns when done or stopped.
    pub fn iterate(&mut self, report: &mut dyn FnMut(&Worker<P>, i32)) {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len().max(1));
        let mut depth = 1 + (self.id as i32 & 1);
        let mut stable = 0usize;
        let mut last_best = Move::NULL;
        let mut last_score: Option<i32> = None;
        while depth <= max_depth {
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = self.p.aspiration_margin;
                let (mut alpha, mut beta) =
                    if depth >= self.p.aspiration_depth && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-INF), (prev + delta).min(INF))
                    } else {
                        (-INF, INF)
                    };
                loop {
                    let score = self.root_search(depth, alpha, beta);
                    self.sort_root(pv_idx);
                    if self.stopped() {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta * self.p.aspiration_growth / 100 + self.p.aspiration_step;
                    if delta > self.p.aspiration_max {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                self.sort_root_prefix(pv_idx + 1);
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                break;
            }
            self.completed_depth = depth;
            if self.id == 0 {
                report(self, multipv as i32);
            }
            let best = self.root_moves[0].mv;
            if best == last_best {
                stable += 1;
            } else {
                stable = 0;
            }
            last_best = best;
            // the score is recorded while pondering too, so that the first
            // iteration after a ponderhit sees a fall from it
            let score = self.root_moves[0].score;
            let prev_score = last_score.replace(score);
            if self.id == 0 && !self.shared.ponder.load(Ordering::Relaxed) {
                if let Some(m) = self.limits.mate
                    && score >= MATE_BOUND
                    && MATE - score <= (self.pos.sides() * m as usize) as i32
                {
                    break;
                }
                // spend less time when the best move is stable, more when
                // the score falls
                let scale = share_on_falling_score(
                    SOFT_SCALE_BY_STABILITY[stable.min(SOFT_SCALE_BY_STABILITY.len() - 1)],
                    prev_score,
                    score,
                    MATE_BOUND,
                );
                if self.tc.stop_iterating(scale) {
                    break;
                }
                // a forced move needs no thought
                if self.root_moves.len() == 1
                    && self.tc.soft.is_some()
                    && depth >= FORCED_MOVE_DEPTH
                {
                    break;
                }
            }
            depth += 1;
        }
    }

    fn sort_root(&mut self, from: usize) {
        self.root_moves[from..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    fn sort_root_prefix(&mut self, to: usize) {
        self.root_moves[..to].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INF;
        self.pv_len[0] = 0;
        let n = self.root_moves.len();
        for i in self.pv_idx..n {
            let m = self.root_moves[i].mv;
            let quiet = !self.pos.is_noisy(m);
            self.stack[0].mv = m;
            self.stack[0].pt = self.history.piece_to(self.pos.piece_code(m), m);
            let flip = self.play(m);
            let gives_check = self.root_check_extension(m);
            let new_depth = depth - 1 + gives_check as i32;
            let mut score;
            if i == self.pv_idx {
                score = self.search_child(flip, alpha, beta, new_depth, 1, false);
            } else {
                let r = if depth >= self.p.lmr_depth
                    && quiet
                    && !gives_check
                    && i >= self.pv_idx + self.p.lmr_root_moves as usize
                {
                    (self.lmr_at(depth, i - self.pv_idx) - self.p.lmr_root).max(0)
                } else {
                    0
                };
                score = self.search_child(flip, alpha, alpha + 1, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = self.search_child(flip, alpha, alpha + 1, new_depth, 1, true);
                }
                if score > alpha && score < beta {
                    score = self.search_child(flip, alpha, beta, new_depth, 1, false);
                }
            }
            self.pos.unmake();
            if self.stopped() {
                return best.max(alpha);
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                let len = self.pv_len[1];
                rm.pv.extend_from_slice(&self.pv[1][1..len.max(1)]);
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                if score >= beta {
                    return score;
                }
                alpha = score;
            }
        }
        best
    }

    /// Makes `m` and counts the node; returns whether the team to move
    /// changed (the child's score is then negated).
    #[inline]
    pub(super) fn play(&mut self, m: Move) -> bool {
        let team = self.pos.team();
        self.pos.make(m);
        self.tick();
        self.pos.team() != team
    }

    /// Searches the node just reached from a node of the team `flip`
    /// says: with the window negated where the team changed, as is.
    #[inline]
    pub(super) fn search_child(
        &mut self,
        flip: bool,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        if flip {
            -self.search(-beta, -alpha, depth, ply, cut)
        } else {
            self.search(alpha, beta, depth, ply, cut)
        }
    }

    /// The piece-to keys of the moves one and two plies before `ply` (0
    /// where there is none), for the continuation history.
    #[inline]
    pub(super) fn continuation(&self, ply: usize) -> [u32; 2] {
        [
            if ply >= 1 { self.stack[ply - 1].pt } else { 0 },
            if ply >= 2 { self.stack[ply - 2].pt } else { 0 },
        ]
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}
