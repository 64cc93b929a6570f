//! The loop over a node's moves: pruning, extensions, late-move
//! reductions and the principal-variation searches of each move, the
//! best score and the history.

use std::ops::ControlFlow;

use crate::base::Move;
use crate::params::{CUTOFF_QUIETS, LMR_TABLE_SIZE, Params};

use super::extensions::check_extension;
use super::node::Node;
use super::ordering::{OrderCtx, SCORE_KILLER, is_bad_capture};
use super::tree::SearchPosition;
use super::worker::{INF, MATE_BOUND, Worker};

/// The late-move reductions by depth and move number:
/// `lmr_base / 100 + ln(depth) * ln(moves) / (lmr_div / 100)`, at least 0.
pub(super) fn lmr_table(p: &Params) -> Vec<[i32; LMR_TABLE_SIZE]> {
    let mut lmr = vec![[0i32; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = p.lmr_base as f64 / 100.0
                + (d as f64).ln() * (m as f64).ln() / (p.lmr_div as f64 / 100.0);
            *r = v.max(0.0) as i32;
        }
    }
    lmr
}

impl<P: SearchPosition> Worker<P> {
    /// The table's reduction at `depth` for a move after `moves` others.
    #[inline]
    pub(super) fn lmr_at(&self, depth: i32, moves: usize) -> i32 {
        let last = LMR_TABLE_SIZE - 1;
        self.lmr[depth.min(last as i32) as usize][moves.min(last)]
    }

    /// The late-move reduction of the move `m` (ordering score `order`),
    /// tried after `searched` others, whose child is searched to
    /// `new_depth`: 0 for the first moves, good captures and shallow
    /// nodes.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn reduction(
        &self,
        n: &Node,
        m: Move,
        order: i32,
        quiet: bool,
        searched: usize,
        gives_check: bool,
        new_depth: i32,
    ) -> i32 {
        let mut r = 0;
        if n.depth >= self.p.lmr_depth
            && searched > n.pv_node as usize
            && (quiet || is_bad_capture(order))
        {
            r = self.lmr_at(n.depth, searched);
            r -= self.p.lmr_pv * n.pv_node as i32;
            r += self.p.lmr_not_improving * !n.improving as i32;
            r += self.p.lmr_cut * n.cut as i32;
            if order >= SCORE_KILLER {
                // the first killer (the TT move and good captures, also
                // ordered this high, are not reduced)
                r -= self.p.lmr_killer;
            }
            if quiet {
                let pt = self.stack[n.ply].pt;
                let h = self
                    .history
                    .quiet_score(n.side, m, pt, self.continuation(n.ply));
                r -= h / self.p.lmr_history_div.max(1);
            }
            if gives_check {
                r -= self.p.lmr_check;
            }
            r += self.pos.lmr_extra(&self.p, n.depth, quiet);
            r = r.clamp(0, new_depth - 1);
        }
        r
    }

    /// Searches the moves of the node `n` (generated into its buffer, the
    /// TT move first). Continues with the best score and move, for the
    /// table; breaks with the node's score where it ends otherwise
    /// (stopped, a multi-cut, or every move pruned).
    pub(super) fn move_loop(
        &mut self,
        n: &Node,
        mut alpha: i32,
        beta: i32,
    ) -> ControlFlow<i32, (i32, Move)> {
        let ply = n.ply;
        let singular_candidate = self.singular_candidate(n);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets: arrayvec::ArrayVec<(Move, u32), CUTOFF_QUIETS> = arrayvec::ArrayVec::new();
        let conts = self.continuation(ply);
        let mut quiet_count = 0i32;
        let side = n.side;
        let lmp_limit = self.lmp_limit(n.depth, n.improving);
        let may_extend = self.may_extend(ply);
        while let Some((m, order)) = self.bufs[n.bi].pick(&OrderCtx {
            pos: &self.pos,
            t: &self.t,
            history: &self.history,
            tt_move: n.tt_move,
            ply,
            prev: n.prev,
            conts,
        }) {
            if m == n.excluded {
                continue;
            }
            let noisy = self.pos.is_noisy(m);
            let quiet = !noisy;
            if ply > 0 && best > -MATE_BOUND && self.pos.has_pieces(side) {
                let skip = if quiet {
                    self.prune_quiet(n, m, alpha, searched, quiet_count, lmp_limit)
                } else {
                    self.prune_capture(n, m, order)
                };
                if skip {
                    continue;
                }
            }
            let mut ext = 0;
            if singular_candidate && may_extend && m == n.tt_move {
                ext = self.singular_extension(n, m, beta)?;
            }
            self.stack[ply].mv = m;
            let pt = self.history.piece_to(self.pos.piece_code(m), m);
            self.stack[ply].pt = pt;
            let flip = self.play(m);
            let gives_check = self.pos.gave_check(m);
            let ext = check_extension(ext, gives_check, may_extend);
            let new_depth = n.depth - 1 + ext;
            self.pass_extensions(ply, ext);
            let mut score;
            if searched == 0 {
                score =
                    self.search_child(flip, alpha, beta, new_depth, ply + 1, !n.pv_node && !n.cut);
            } else {
                let r = self.reduction(n, m, order, quiet, searched, gives_check, new_depth);
                score = self.search_child(flip, alpha, alpha + 1, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = self.search_child(flip, alpha, alpha + 1, new_depth, ply + 1, !n.cut);
                }
                if n.pv_node && score > alpha && score < beta {
                    score = self.search_child(flip, alpha, beta, new_depth, ply + 1, false);
                }
            }
            self.pos.unmake();
            if self.stopped() {
                return ControlFlow::Break(0);
            }
            searched += 1;
            if quiet {
                quiet_count += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if n.pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.history.update(
                                side,
                                ply,
                                (m, pt),
                                &quiets,
                                n.depth,
                                n.prev,
                                conts,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && m != best_move {
                let _ = quiets.try_push((m, pt));
            }
        }
        if searched == 0 {
            // every move was pruned: fail low with the best guess
            return ControlFlow::Break(alpha);
        }
        ControlFlow::Continue((best, best_move))
    }
}
