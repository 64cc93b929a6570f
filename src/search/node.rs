//! One node below the root, step by step: the table, the static eval,
//! the pruning of the whole node, the move loop, the store. Each step
//! lives in the file named for its idea (`ttstore.rs`, `pruning.rs`,
//! `moveloop.rs`, `extensions.rs`).

use std::ops::ControlFlow;

use crate::base::GenType;
use crate::base::Move;

use super::ordering::MAX_PLY;
use super::tree::SearchPosition;
use super::tt::{BOUND_LOWER, BOUND_UPPER, NO_EVAL, TtEntry};
use super::ttstore::{score_to_tt, tt_adjusted_eval, tt_bound, tt_cutoff};
use super::worker::{MATE_BOUND, Worker};
use super::{mate_in, mated_in};

/// What the move loop of a node knows about it before its first move.
pub(super) struct Node {
    pub ply: usize,
    /// the remaining depth (after internal iterative reduction)
    pub depth: i32,
    pub pv_node: bool,
    /// an expected cut node
    pub cut: bool,
    /// the static eval (`NO_EVAL` in check)
    pub eval: i32,
    /// the static eval is above the side to move's of two plies before
    pub improving: bool,
    /// a King of the side to move's team is in check
    pub threatened: bool,
    /// the move a singular-extension search leaves out (or none)
    pub excluded: Move,
    pub tt_move: Move,
    pub tte: Option<TtEntry>,
    /// the previous move (for the countermove)
    pub prev: Move,
    /// the player to move
    pub side: usize,
    /// the move buffer of this node (a second one for singular searches)
    pub bi: usize,
}

impl<P: SearchPosition> Worker<P> {
    pub(super) fn search(
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
        let key = self.node_key(excluded);
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
        let (raw_eval, eval) = self.node_eval(tte, in_check);
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        // the TT score can sharpen the static eval
        let adj_eval = tt_adjusted_eval(tte, in_check, eval, ply);

        // a King of the side to move's team in check: the static eval says
        // little, so nothing is pruned on it
        let team_check = self.pos.team_in_check();
        let threatened = in_check || team_check;
        if !pv_node && !threatened && excluded.is_null() {
            if self.reverse_futility(depth, beta, adj_eval, improving) {
                return adj_eval;
            }
            if let Some(s) = self.razor(alpha, beta, depth, ply, adj_eval) {
                return s;
            }
            if let Some(s) = self.null_move(beta, depth, ply, cut, eval, adj_eval) {
                return s;
            }
        }

        // internal iterative reduction
        if tt_move.is_null() && depth >= self.p.iir_depth && (pv_node || cut) {
            depth -= 1;
        }

        // a singular search keeps its moves in a second buffer
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
        let prev = ply.checked_sub(1).map_or(Move::NULL, |p| self.stack[p].mv);
        buf.start(tt_move);

        let node = Node {
            ply,
            depth,
            pv_node,
            cut,
            eval,
            improving,
            threatened: in_check || (team_check && !self.pos.partner_check_prunes(&self.p)),
            excluded,
            tt_move,
            tte,
            prev,
            side: self.pos.side(),
            bi,
        };
        let (best, best_move) = match self.move_loop(&node, alpha, beta) {
            ControlFlow::Break(s) => return s,
            ControlFlow::Continue(best) => best,
        };
        if excluded.is_null() {
            let bound = self.store(key, (best, best_move), beta, pv_node, raw_eval, depth, ply);
            let quiet_best = best_move.is_null() || !self.pos.is_noisy(best_move);
            if !in_check
                && quiet_best
                && best.abs() < MATE_BOUND
                && !(bound == BOUND_LOWER && best <= eval)
                && !(bound == BOUND_UPPER && best >= eval)
            {
                let side = self.pos.side();
                let keys = self.correction_keys();
                self.correction
                    .update_all(side, keys, depth, best - raw_eval);
            }
        }
        best
    }
}

impl<P: SearchPosition> Worker<P> {
    /// The static eval as the table keeps it (or computed), and corrected
    /// by the correction history; both `NO_EVAL` in check.
    #[inline(always)]
    fn node_eval(&mut self, tte: Option<TtEntry>, in_check: bool) -> (i32, i32) {
        if in_check {
            return (NO_EVAL, NO_EVAL);
        }
        let raw = match tte.filter(|e| e.eval != NO_EVAL) {
            Some(e) => e.eval,
            None => self.evaluate(),
        };
        (raw, corrected(raw, self.eval_correction()))
    }

    /// Stores a node's result `(score, move)` in the table with the bound
    /// it has against `beta`; returns the bound.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn store(
        &self,
        key: u64,
        (best, best_move): (i32, Move),
        beta: i32,
        pv_node: bool,
        static_eval: i32,
        depth: i32,
        ply: usize,
    ) -> u8 {
        let bound = tt_bound(best, beta, pv_node, best_move);
        let score = score_to_tt(best, ply);
        let tt = &self.shared.tt;
        tt.store(key, best_move, score, static_eval, depth, bound);
        bound
    }
}

/// The static eval with the correction history's term, kept clear of the
/// mate scores.
#[inline]
pub(super) fn corrected(raw: i32, correction: i32) -> i32 {
    (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}
