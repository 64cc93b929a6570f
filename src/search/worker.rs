//! One search thread: iterative deepening with aspiration windows,
//! principal-variation search, quiescence, and the usual pruning.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::params::Params;
use crate::position::Move;
use crate::position::movegen::GenType;

use super::ordering::{History, MAX_PLY, MoveBuf, OrderCtx, SCORE_TT, is_bad_capture};
use super::time::{Limits, TimeControl};
use super::tree::SearchPosition;
use super::tt::{BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, NO_EVAL, TtEntry};
use super::{Shared, mate_in, mated_in};

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
struct Frame {
    eval: i32,
    mv: Move,
    excluded: Move,
    /// extensions on the path from the root to this node
    ext: u16,
}

pub struct Worker<P: SearchPosition> {
    pub id: usize,
    pub pos: P,
    t: Arc<P::Tables>,
    p: Params,
    shared: Arc<Shared>,
    pub history: History,
    pub nodes: u64,
    pub seldepth: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    stack: [Frame; MAX_PLY + 4],
    pub root_moves: Vec<RootMove>,
    pub tc: TimeControl,
    pub limits: Limits,
    lmr: Vec<[i32; 64]>,
    bufs: Vec<MoveBuf>,
    pv_idx: usize,
    pub completed_depth: i32,
    was_pondering: bool,
}

#[inline]
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The entry's score if its bound settles the node for (alpha, beta).
#[inline]
fn tt_cutoff(e: TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    let cutoff = match e.bound {
        BOUND_EXACT => true,
        BOUND_LOWER => s >= beta,
        BOUND_UPPER => s <= alpha,
        _ => false,
    };
    cutoff.then_some(s)
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
    ) -> Worker<P> {
        let mut lmr = vec![[0i32; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = p.lmr_base as f64 / 100.0
                    + (d as f64).ln() * (m as f64).ln() / (p.lmr_div as f64 / 100.0);
                *r = v.max(0.0) as i32;
            }
        }
        let was_pondering = limits.ponder;
        let history = History::new(pos.sides(), pos.squares());
        Worker {
            id,
            pos,
            t,
            p,
            shared,
            history,
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
    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Node bookkeeping and, on the main thread, the clock.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
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

    pub fn evaluate(&self) -> i32 {
        self.pos.evaluate(&self.t, &self.p)
    }

    /// Bookkeeping on entering a node; a score if the node ends here
    /// (stopped, drawn, or too deep).
    #[inline]
    fn enter_node(&mut self, ply: usize) -> Option<i32> {
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
        let mut stable = 0;
        let mut last_best = Move::NULL;
        while depth <= max_depth {
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = self.p.aspiration_margin;
                let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < MATE_BOUND {
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
                    delta += delta / 2 + 5;
                    if delta > 1000 {
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
            if self.id == 0 && !self.shared.ponder.load(Ordering::Relaxed) {
                if let Some(m) = self.limits.mate {
                    let s = self.root_moves[0].score;
                    if s >= MATE_BOUND && MATE - s <= 2 * m as i32 {
                        break;
                    }
                }
                // spend less time when the best move is stable
                let scale = match stable {
                    0 => 70,
                    1 => 55,
                    2 => 45,
                    _ => 35,
                };
                if self.tc.stop_iterating(scale) {
                    break;
                }
                // a forced move needs no thought
                if self.root_moves.len() == 1 && self.tc.soft.is_some() && depth >= 4 {
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
            let team = self.pos.team();
            self.pos.make(m);
            self.tick();
            let flip = self.pos.team() != team;
            let gives_check = self.pos.gave_check(m) && self.pos.extension_budget(&self.p) > 0;
            let new_depth = depth - 1 + gives_check as i32;
            self.stack[1].ext = gives_check as u16;
            let mut score;
            if i == self.pv_idx {
                score = self.search_child(flip, alpha, beta, new_depth, 1, false);
            } else {
                let r = if depth >= 3 && quiet && !gives_check && i >= self.pv_idx + 3 {
                    (self.lmr[depth.min(63) as usize][(i - self.pv_idx).min(63)] - 1).max(0)
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

    /// Searches the node just reached from a node of the team `flip`
    /// says: with the window negated where the team changed, as is.
    #[inline]
    fn search_child(
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

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        if let Some(s) = self.enter_node(ply) {
            return s;
        }
        // mate distance pruning
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let excluded = self.stack[ply].excluded;
        let key = self.pos.hash()
            ^ if excluded.is_null() {
                0
            } else {
                0x9E37_79B9_7F4A_7C15 ^ excluded.0 as u64
            };
        let tte = self.shared.tt.probe(key);
        let mut tt_move = tte.map(|e| e.mv).unwrap_or(Move::NULL);
        if let Some(e) = tte
            && !pv_node
            && e.depth >= depth
            && let Some(s) = tt_cutoff(e, ply, alpha, beta)
        {
            return s;
        }
        let in_check = self.pos.in_check();
        let eval = if in_check {
            NO_EVAL
        } else if let Some(e) = tte.filter(|e| e.eval != NO_EVAL) {
            e.eval
        } else {
            self.evaluate()
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        // the TT score can sharpen the static eval
        let mut adj_eval = eval;
        if let Some(e) = tte
            && !in_check
        {
            let s = score_from_tt(e.score, ply);
            if (e.bound == BOUND_LOWER && s > eval)
                || (e.bound == BOUND_UPPER && s < eval)
                || e.bound == BOUND_EXACT
            {
                adj_eval = s;
            }
        }

        // a King of the side to move's team in check: the static eval says
        // little, so nothing is pruned on it
        let threatened = in_check || self.pos.team_in_check();
        if !pv_node && !threatened && excluded.is_null() {
            // reverse futility pruning
            if depth <= self.p.rfp_depth
                && adj_eval - self.p.rfp_margin * (depth - improving as i32) >= beta
                && adj_eval.abs() < MATE_BOUND
            {
                return adj_eval;
            }
            // razoring
            if depth <= self.p.razor_depth && adj_eval + self.p.razor_margin * depth < alpha {
                let s = self.qsearch(alpha, beta, ply);
                if s < alpha {
                    return s;
                }
            }
            // null move
            if depth >= 2
                && adj_eval >= beta
                && eval >= beta
                && self.stack[ply.saturating_sub(1)].mv != Move::NULL
                && self.pos.has_pieces(self.pos.side())
                && beta.abs() < MATE_BOUND
            {
                let r = self.p.nmp_base + depth / self.p.nmp_div + ((adj_eval - beta) / 200).min(3);
                let team = self.pos.team();
                self.stack[ply].mv = Move::NULL;
                self.stack[ply + 1].ext = self.stack[ply].ext;
                self.pos.make_null();
                // a pass is a threat test only where the other team moves next
                let s = if self.pos.team() != team {
                    self.tick();
                    -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut)
                } else {
                    -INF
                };
                self.pos.unmake_null();
                if self.stopped() {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        // internal iterative reduction
        if tt_move.is_null() && depth >= self.p.iir_depth && (pv_node || cut) {
            depth -= 1;
        }

        let bi = if excluded.is_null() {
            ply
        } else {
            MAX_PLY + 2 + ply
        };
        let buf = &mut self.bufs[bi];
        buf.moves.clear();
        self.pos.generate(GenType::All, &mut buf.moves);
        if buf.moves.is_empty() {
            return if !excluded.is_null() {
                alpha
            } else {
                self.pos.no_moves_score(ply)
            };
        }
        if !tt_move.is_null() && !buf.moves.contains(&tt_move) {
            tt_move = Move::NULL;
        }
        let prev = if ply > 0 {
            self.stack[ply - 1].mv
        } else {
            Move::NULL
        };
        buf.start(tt_move);

        // singular extension candidate
        let singular_candidate = depth >= self.p.se_depth
            && excluded.is_null()
            && !tt_move.is_null()
            && ply > 0
            && tte.is_some_and(|e| {
                e.depth >= depth - 3
                    && e.bound != BOUND_UPPER
                    && score_from_tt(e.score, ply).abs() < MATE_BOUND
            });

        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut quiet_count = 0i32;
        let side = self.pos.side();
        let lmp_limit = (self.p.lmp_base + depth * depth) / (2 - improving as i32);
        let may_extend = self.stack[ply].ext < self.pos.extension_budget(&self.p);
        while let Some((m, order)) = self.bufs[bi].pick(&OrderCtx {
            pos: &self.pos,
            t: &self.t,
            history: &self.history,
            tt_move,
            ply,
            prev,
        }) {
            if m == excluded {
                continue;
            }
            let noisy = self.pos.is_noisy(m);
            let quiet = !noisy;
            if ply > 0 && best > -MATE_BOUND && self.pos.has_pieces(side) {
                let lmr_depth = (depth - self.lmr[depth.min(63) as usize][searched.min(63)]).max(0);
                if quiet {
                    // late-move and futility pruning skip quiet moves that
                    // cannot change the score; a check can (a quiet mate),
                    // and in a PV node every move is searched
                    let late = !pv_node && depth <= self.p.lmp_depth && quiet_count >= lmp_limit;
                    let futile = lmr_depth <= self.p.fp_depth
                        && eval + self.p.fp_base + self.p.fp_factor * lmr_depth <= alpha;
                    let see_bad = depth <= self.p.see_depth
                        && !self.pos.see_ge(
                            &self.t,
                            m,
                            -self.p.see_quiet * lmr_depth * lmr_depth / 2,
                        );
                    if (((late || futile) && !threatened) || see_bad) && !self.pos.gives_check(m) {
                        continue;
                    }
                } else if depth <= self.p.see_depth
                    && is_bad_capture(order)
                    && !self.pos.see_ge(&self.t, m, -self.p.see_noisy * depth)
                    && !self.pos.gives_check(m)
                {
                    continue;
                }
            }
            // singular extension
            let mut ext = 0;
            if singular_candidate && may_extend && m == tt_move {
                let e = tte.expect("candidate has an entry");
                let s_beta = score_from_tt(e.score, ply) - self.p.se_margin * depth;
                self.stack[ply].excluded = m;
                let s = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, cut);
                self.stack[ply].excluded = Move::NULL;
                if self.stopped() {
                    return 0;
                }
                if s < s_beta {
                    ext = 1;
                } else if s_beta >= beta {
                    // multi-cut: another move also beats beta
                    return s_beta;
                }
            }
            self.stack[ply].mv = m;
            let team = self.pos.team();
            self.pos.make(m);
            self.tick();
            let flip = self.pos.team() != team;
            let gives_check = self.pos.gave_check(m);
            if ext == 0 && gives_check && may_extend {
                ext = 1;
            }
            let new_depth = depth - 1 + ext;
            self.stack[ply + 1].ext = self.stack[ply].ext + ext as u16;
            let mut score;
            if searched == 0 {
                score = self.search_child(flip, alpha, beta, new_depth, ply + 1, !pv_node && !cut);
            } else {
                let mut r = 0;
                if depth >= 3 && searched > pv_node as usize && (quiet || is_bad_capture(order)) {
                    r = self.lmr[depth.min(63) as usize][searched.min(63)];
                    r -= pv_node as i32;
                    r += !improving as i32;
                    r += cut as i32;
                    if order >= SCORE_TT / 8 {
                        // killers and countermove
                        r -= 1;
                    }
                    if quiet {
                        r -= self.history.quiet(side, m) / self.p.lmr_history_div.max(1);
                    }
                    if gives_check {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = self.search_child(flip, alpha, alpha + 1, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = self.search_child(flip, alpha, alpha + 1, new_depth, ply + 1, !cut);
                }
                if pv_node && score > alpha && score < beta {
                    score = self.search_child(flip, alpha, beta, new_depth, ply + 1, false);
                }
            }
            self.pos.unmake();
            if self.stopped() {
                return 0;
            }
            searched += 1;
            if quiet {
                quiet_count += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.history.update(side, ply, m, &quiets, depth, prev);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && m != best_move {
                let _ = quiets.try_push(m);
            }
        }
        if searched == 0 {
            // every move was pruned: fail low with the best guess
            return alpha;
        }
        if excluded.is_null() {
            let bound = if best >= beta {
                BOUND_LOWER
            } else if pv_node && !best_move.is_null() {
                BOUND_EXACT
            } else {
                BOUND_UPPER
            };
            self.shared
                .tt
                .store(key, best_move, score_to_tt(best, ply), eval, depth, bound);
        }
        best
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(s) = self.enter_node(ply) {
            return s;
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.hash();
        let tte = self.shared.tt.probe(key);
        if let Some(e) = tte
            && !pv_node
            && let Some(s) = tt_cutoff(e, ply, alpha, beta)
        {
            return s;
        }
        let in_check = self.pos.in_check();
        let mut best;
        let eval;
        let mut stored_eval = NO_EVAL;
        if in_check {
            best = -INF;
            eval = NO_EVAL;
        } else {
            eval = match tte.filter(|e| e.eval != NO_EVAL) {
                Some(e) => {
                    stored_eval = e.eval;
                    e.eval
                }
                None => {
                    let (e, complete) = self.pos.evaluate_bounded(&self.t, &self.p, alpha, beta);
                    if complete {
                        stored_eval = e;
                    }
                    e
                }
            };
            if eval >= beta {
                return eval;
            }
            if eval > alpha {
                alpha = eval;
            }
            best = eval;
        }
        let buf = &mut self.bufs[ply];
        buf.moves.clear();
        self.pos.generate(
            if in_check {
                GenType::All
            } else {
                GenType::Noisy
            },
            &mut buf.moves,
        );
        if in_check && buf.moves.is_empty() {
            return self.pos.no_moves_score(ply);
        }
        let tt_move = tte
            .map(|e| e.mv)
            .filter(|m| buf.moves.contains(m))
            .unwrap_or(Move::NULL);
        buf.start(tt_move);
        let mut best_move = Move::NULL;
        while let Some((m, order)) = self.bufs[ply].pick(&OrderCtx {
            pos: &self.pos,
            t: &self.t,
            history: &self.history,
            tt_move,
            ply,
            prev: Move::NULL,
        }) {
            if !in_check {
                if is_bad_capture(order) {
                    continue;
                }
                // delta pruning
                let gain =
                    self.pos.capture_value(&self.t, m, 1) + self.pos.promotion_value(&self.t, m, 1);
                if self.pos.promotion(m).is_none() && eval + gain + self.p.delta_margin <= alpha {
                    continue;
                }
            }
            let team = self.pos.team();
            self.pos.make(m);
            self.tick();
            let score = if self.pos.team() != team {
                -self.qsearch(-beta, -alpha, ply + 1)
            } else {
                self.qsearch(alpha, beta, ply + 1)
            };
            self.pos.unmake();
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if pv_node && !best_move.is_null() {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.shared.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            stored_eval,
            0,
            bound,
        );
        best
    }
}
