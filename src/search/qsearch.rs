//! Quiescence search: captures and promotions (every move in check)
//! until the position is quiet, with stand-pat, delta pruning and the
//! table.

use crate::base::GenType;
use crate::base::Move;

use super::node::corrected;
use super::ordering::{OrderCtx, is_bad_capture};
use super::tree::SearchPosition;
use super::tt::{NO_EVAL, TtEntry};
use super::ttstore::tt_cutoff;
use super::worker::{INF, MATE_BOUND, Worker};

impl<P: SearchPosition> Worker<P> {
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
        // stand pat: the static eval, unless in check
        let (eval, stored_eval) = if in_check {
            (NO_EVAL, NO_EVAL)
        } else {
            self.stand_pat(tte, alpha, beta)
        };
        let mut best = if in_check { -INF } else { eval };
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
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
        let width = self.pos.qsearch_width(&self.p);
        let mut plain = 0usize;
        while let Some((m, order)) = self.bufs[ply].pick(&OrderCtx {
            pos: &self.pos,
            t: &self.t,
            history: &self.history,
            tt_move,
            ply,
            prev: Move::NULL,
            conts: [0, 0],
        }) {
            // four-player Teams: a capture that checks may mate, and is
            // worth more than what it takes
            let spared = self.pos.spared_in_qsearch(m);
            if !in_check && !spared && self.futile_capture(m, order, eval, alpha) {
                continue;
            }
            // past the width, only the spared moves (four-player Teams)
            let counted = !spared && (!in_check || !self.pos.is_noisy(m));
            if counted && best > -MATE_BOUND {
                if plain >= width {
                    continue;
                }
                plain += 1;
            }
            let flip = self.play(m);
            let score = if flip {
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
        self.store(key, (best, best_move), beta, pv_node, stored_eval, 0, ply);
        best
    }

    /// The corrected static eval, and the eval to keep in the table (the
    /// stored one, or a complete evaluation; `NO_EVAL` when the bounded
    /// evaluation stopped early).
    #[inline(always)]
    fn stand_pat(&mut self, tte: Option<TtEntry>, alpha: i32, beta: i32) -> (i32, i32) {
        let c = self.eval_correction();
        let (raw, kept) = match tte.filter(|e| e.eval != NO_EVAL) {
            Some(e) => (e.eval, e.eval),
            None => {
                self.pos.settle_eval();
                let (e, complete) =
                    self.pos
                        .evaluate_bounded(&self.t, &self.p, alpha - c, beta - c);
                (e, if complete { e } else { NO_EVAL })
            }
        };
        (corrected(raw, c), kept)
    }

    /// A losing capture, or one that cannot lift the score to alpha (delta
    /// pruning): skipped out of check.
    #[inline(always)]
    fn futile_capture(&self, m: Move, order: i32, eval: i32, alpha: i32) -> bool {
        let gain = self.pos.capture_value(&self.t, m, 1) + self.pos.promotion_value(&self.t, m, 1);
        let futile = self.pos.promotion(m).is_none() && eval + gain + self.p.delta_margin <= alpha;
        is_bad_capture(order) || futile
    }
}
