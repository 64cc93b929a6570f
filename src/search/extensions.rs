//! Extensions: the singular extension of the TT move and the check
//! extension, within the extension budget of a path from the root
//! (`Frame::ext` counts the extensions so far; two-player chess has no
//! limit).

use std::ops::ControlFlow;

use crate::base::Move;

use super::node::Node;
use super::tree::SearchPosition;
use super::tt::BOUND_UPPER;
use super::ttstore::score_from_tt;
use super::worker::{MATE_BOUND, Worker};

impl<P: SearchPosition> Worker<P> {
    /// Whether the path to the node at `ply` may have one more extension.
    #[inline]
    pub(super) fn may_extend(&self, ply: usize) -> bool {
        self.stack[ply].ext < self.pos.extension_budget(&self.p)
    }

    /// The child of the node at `ply` has the node's extensions and `ext`.
    #[inline]
    pub(super) fn pass_extensions(&mut self, ply: usize, ext: i32) {
        self.stack[ply + 1].ext = self.stack[ply].ext + ext as u16;
    }

    /// At the root, just after `m` was made: whether it checks and is
    /// extended (where the budget allows any extension).
    #[inline]
    pub(super) fn root_check_extension(&mut self, m: Move) -> bool {
        let gives_check = self.pos.gave_check(m) && self.pos.extension_budget(&self.p) > 0;
        self.stack[1].ext = gives_check as u16;
        gives_check
    }

    /// Whether the node's TT move may be singular: the entry is deep
    /// enough, not an upper bound and not a mate score.
    #[inline]
    pub(super) fn singular_candidate(&self, n: &Node) -> bool {
        n.depth >= self.p.se_depth
            && n.excluded.is_null()
            && !n.tt_move.is_null()
            && n.ply > 0
            && n.tte.is_some_and(|e| {
                e.depth >= n.depth - self.p.se_tt_depth
                    && e.bound != BOUND_UPPER
                    && score_from_tt(e.score, n.ply).abs() < MATE_BOUND
            })
    }

    /// The singular extension of the TT move `m`: searches the other
    /// moves against a bound below the TT score; 1 if they all fail low
    /// (`m` is singular), else 0. Breaks with the node's score where the
    /// node ends: stopped, or a multi-cut (another move beats beta too).
    #[inline]
    pub(super) fn singular_extension(
        &mut self,
        n: &Node,
        m: Move,
        beta: i32,
    ) -> ControlFlow<i32, i32> {
        let e = n.tte.expect("candidate has an entry");
        let s_beta = score_from_tt(e.score, n.ply) - self.p.se_margin * n.depth;
        self.stack[n.ply].excluded = m;
        let s = self.search(s_beta - 1, s_beta, (n.depth - 1) / 2, n.ply, n.cut);
        self.stack[n.ply].excluded = Move::NULL;
        if self.stopped() {
            return ControlFlow::Break(0);
        }
        if s < s_beta {
            ControlFlow::Continue(1)
        } else if s_beta >= beta {
            // multi-cut: another move also beats beta
            ControlFlow::Break(s_beta)
        } else {
            ControlFlow::Continue(0)
        }
    }
}

/// The extension of a move that has `ext` from the singular extension:
/// a checking move not extended already gets 1, while the path may extend.
#[inline]
pub(super) fn check_extension(ext: i32, gives_check: bool, may_extend: bool) -> i32 {
    if ext == 0 && gives_check && may_extend {
        1
    } else {
        ext
    }
}
