//! Pruning: of a whole node before its moves (reverse futility,
//! razoring, null move), and of single moves in the move loop (late,
//! futile and SEE-losing moves).

use crate::base::Move;

use super::node::Node;
use super::ordering::is_bad_capture;
use super::tree::SearchPosition;
use super::worker::{INF, MATE_BOUND, Worker};

impl<P: SearchPosition> Worker<P> {
    /// Reverse futility pruning: whether the (adjusted) static eval beats
    /// beta by so much that the node may return it.
    #[inline]
    pub(super) fn reverse_futility(
        &self,
        depth: i32,
        beta: i32,
        adj_eval: i32,
        improving: bool,
    ) -> bool {
        depth <= self.p.rfp_depth
            && adj_eval - self.p.rfp_margin * (depth - improving as i32) >= beta
            && adj_eval.abs() < MATE_BOUND
    }

    /// Razoring: far below alpha near the leaves, a quiescence search
    /// that confirms the fail low ends the node.
    #[inline]
    pub(super) fn razor(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        adj_eval: i32,
    ) -> Option<i32> {
        if depth <= self.p.razor_depth && adj_eval + self.p.razor_margin * depth < alpha {
            let s = self.qsearch(alpha, beta, ply);
            if s < alpha {
                return Some(s);
            }
        }
        None
    }

    /// Null-move pruning: the side to move passes, and a reduced search
    /// that still reaches beta ends the node.
    #[inline]
    pub(super) fn null_move(
        &mut self,
        beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
        eval: i32,
        adj_eval: i32,
    ) -> Option<i32> {
        if depth >= self.p.nmp_depth
            && adj_eval >= beta
            && eval >= beta
            && self.stack[ply.saturating_sub(1)].mv != Move::NULL
            && self.pos.has_pieces(self.pos.side())
            && beta.abs() < MATE_BOUND
        {
            let r = self.p.nmp_base
                + depth / self.p.nmp_div
                + ((adj_eval - beta) / self.p.nmp_eval_div).min(self.p.nmp_eval_max);
            let team = self.pos.team();
            self.stack[ply].mv = Move::NULL;
            self.stack[ply].pt = 0;
            self.pass_extensions(ply, 0);
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
                return Some(0);
            }
            if s >= beta {
                return Some(if s >= MATE_BOUND { beta } else { s });
            }
        }
        None
    }

    /// How many quiet moves a node tries before late-move pruning (no
    /// limit beyond `lmp_depth` under the two-player rule).
    #[inline]
    pub(super) fn lmp_limit(&self, depth: i32, improving: bool) -> i32 {
        match self.pos.late_move_rule(&self.p) {
            Some((base, div)) => base + depth * depth / div.max(1),
            None if depth <= self.p.lmp_depth => {
                (self.p.lmp_base + depth * depth) / (2 - improving as i32)
            }
            None => i32::MAX,
        }
    }

    /// Whether the move loop skips the quiet move `m`, tried after
    /// `searched` moves of which `quiet_count` were quiet.
    #[inline]
    pub(super) fn prune_quiet(
        &self,
        n: &Node,
        m: Move,
        alpha: i32,
        searched: usize,
        quiet_count: i32,
        lmp_limit: i32,
    ) -> bool {
        let lmr_depth = (n.depth - self.lmr_at(n.depth, searched)).max(0);
        // late-move and futility pruning skip quiet moves that cannot
        // change the score; a check can (a quiet mate). Late-move pruning
        // spares PV nodes; futility and SEE pruning do not
        let late = !n.pv_node && quiet_count >= lmp_limit;
        let futile = lmr_depth <= self.p.fp_depth
            && n.eval + self.p.fp_base + self.p.fp_factor * lmr_depth <= alpha;
        let see_bad = n.depth <= self.p.see_depth
            && !self
                .pos
                .see_ge(&self.t, m, -self.p.see_quiet * lmr_depth * lmr_depth / 2);
        (((late || futile) && !n.threatened) || see_bad) && !self.pos.gives_check(m)
    }

    /// Whether the move loop skips the capture `m` (ordering score
    /// `order`): it loses material by SEE and does not check.
    #[inline]
    pub(super) fn prune_capture(&self, n: &Node, m: Move, order: i32) -> bool {
        n.depth <= self.p.see_depth
            && is_bad_capture(order)
            && !self.pos.see_ge(&self.t, m, -self.p.see_noisy * n.depth)
            && !self.pos.gives_check(m)
    }
}
