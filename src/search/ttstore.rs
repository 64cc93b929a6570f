//! The transposition table as the search uses it: a node's key, mate
//! scores made relative to the node (and back), the cutoff an entry
//! allows, the static eval sharpened by an entry's bound, and the bound
//! a finished node is stored with.

use crate::base::Move;
use crate::params::EXCLUDED_KEY_SALT;

use super::tree::SearchPosition;
use super::tt::{BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, TtEntry};
use super::worker::{MATE_BOUND, Worker};

/// A score as the table holds it: mates counted from the node, not from
/// the root.
#[inline]
pub(super) fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// A score from the table, mates counted from the root again.
#[inline]
pub(super) fn score_from_tt(s: i32, ply: usize) -> i32 {
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
pub(super) fn tt_cutoff(e: TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    let cutoff = match e.bound {
        BOUND_EXACT => true,
        BOUND_LOWER => s >= beta,
        BOUND_UPPER => s <= alpha,
        _ => false,
    };
    cutoff.then_some(s)
}

/// The static eval, replaced by the entry's score where its bound says
/// the score is nearer the truth (not in check: there is no static eval).
#[inline]
pub(super) fn tt_adjusted_eval(tte: Option<TtEntry>, in_check: bool, eval: i32, ply: usize) -> i32 {
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
    adj_eval
}

/// The bound of a finished node's best score: a lower bound when it
/// reached beta, exact in a PV node where a move raised alpha, an upper
/// bound otherwise.
#[inline]
pub(super) fn tt_bound(best: i32, beta: i32, pv_node: bool, best_move: Move) -> u8 {
    if best >= beta {
        BOUND_LOWER
    } else if pv_node && !best_move.is_null() {
        BOUND_EXACT
    } else {
        BOUND_UPPER
    }
}

impl<P: SearchPosition> Worker<P> {
    /// The table key of a node: the position's, changed in a
    /// singular-extension search (which leaves `excluded` out) so its
    /// result does not stand for the whole node.
    #[inline]
    pub(super) fn node_key(&self, excluded: Move) -> u64 {
        self.pos.hash()
            ^ if excluded.is_null() {
                0
            } else {
                EXCLUDED_KEY_SALT ^ excluded.0 as u64
            }
    }
}
