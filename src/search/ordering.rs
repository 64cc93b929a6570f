//! Move ordering: the hash move, captures by MVV-LVA split by SEE, killers,
//! the countermove, then quiet moves by history; bad captures last.

use arrayvec::ArrayVec;

use crate::base::{MAX_MOVES, Move, MoveList};

use super::tree::SearchPosition;

pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16384;
/// Entries of each continuation-history table (a power of two; larger
/// boards share entries).
const CONT_ENTRIES: usize = 1 << 22;
/// Continuation-history entries per block of the live-block list.
const BLOCK: usize = 64;

/// The bits a square index takes on a board of `squares` squares.
fn square_shift(squares: usize) -> u32 {
    squares.max(2).next_power_of_two().trailing_zeros()
}

/// History of quiet moves by side, from and to square; countermoves;
/// continuation history (by the piece and target square of the move one
/// and two plies before, and of this move). The tables are sized for the
/// board: squares take `shift` bits.
pub struct History {
    butterfly: Vec<i16>,
    /// two tables of `CONT_ENTRIES`: one and two plies back
    cont: Vec<i16>,
    /// the blocks of `cont` that may hold a value other than zero (a
    /// short search touches few of its 16 MB: ageing visits only these),
    /// and a bit per block saying it is in the list
    live: Vec<u32>,
    listed: Vec<u64>,
    counter: Vec<Move>,
    shift: u32,
    pub killers: [[Move; 2]; MAX_PLY + 4],
}

impl History {
    /// Tables for `sides` sides on a board of `squares` squares.
    pub fn new(sides: usize, squares: usize) -> History {
        let shift = square_shift(squares);
        History {
            butterfly: vec![0; sides << (2 * shift)],
            cont: vec![0; 2 * CONT_ENTRIES],
            // room for every block: the search never allocates for it
            live: Vec::with_capacity(2 * CONT_ENTRIES / BLOCK),
            listed: vec![0; 2 * CONT_ENTRIES / BLOCK / 64],
            counter: vec![Move::NULL; 1 << (2 * shift)],
            shift,
            killers: [[Move::NULL; 2]; MAX_PLY + 4],
        }
    }

    /// Whether these tables are sized for `sides` sides on `squares`
    /// squares.
    pub fn fits(&self, sides: usize, squares: usize) -> bool {
        let shift = square_shift(squares);
        shift == self.shift && self.butterfly.len() == sides << (2 * shift)
    }

    #[inline]
    fn square_pair(&self, m: Move) -> usize {
        (m.from() << self.shift) | m.to()
    }

    #[inline]
    fn idx(&self, side: usize, m: Move) -> usize {
        (side << (2 * self.shift)) | self.square_pair(m)
    }

    /// The continuation key of a move by the piece `code` (below 32): 0
    /// is kept for none.
    #[inline]
    pub fn piece_to(&self, code: usize, m: Move) -> u32 {
        (((code + 1) << self.shift) | m.to()) as u32
    }

    #[inline]
    fn cont_idx(&self, k: usize, prev: u32, pt: u32) -> usize {
        let stride = 33usize << self.shift;
        k * CONT_ENTRIES + ((prev as usize * stride + pt as usize) & (CONT_ENTRIES - 1))
    }

    #[inline]
    pub fn quiet(&self, side: usize, m: Move) -> i32 {
        self.butterfly[self.idx(side, m)] as i32
    }

    /// The quiet move `m` (continuation key `pt`) after the moves of
    /// continuation keys `conts`: its history and continuation histories.
    #[inline]
    pub fn quiet_score(&self, side: usize, m: Move, pt: u32, conts: [u32; 2]) -> i32 {
        let mut s = self.quiet(side, m);
        for (k, &prev) in conts.iter().enumerate() {
            if prev != 0 {
                s += self.cont[self.cont_idx(k, prev, pt)] as i32;
            }
        }
        s
    }

    fn gravity(e: &mut i16, bonus: i32) {
        let v = *e as i32;
        *e = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
    }

    fn bump(&mut self, side: usize, (m, pt): (Move, u32), conts: [u32; 2], bonus: i32) {
        let i = self.idx(side, m);
        Self::gravity(&mut self.butterfly[i], bonus);
        for (k, &prev) in conts.iter().enumerate() {
            if prev != 0 {
                let i = self.cont_idx(k, prev, pt);
                Self::gravity(&mut self.cont[i], bonus);
                let b = i / BLOCK;
                if self.listed[b / 64] & 1 << (b % 64) == 0 {
                    self.listed[b / 64] |= 1 << (b % 64);
                    self.live.push(b as u32);
                }
            }
        }
    }

    /// A quiet move caused a cutoff: reward it, punish the quiets tried
    /// before it.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        side: usize,
        ply: usize,
        (best, best_pt): (Move, u32),
        tried: &[(Move, u32)],
        depth: i32,
        prev: Move,
        conts: [u32; 2],
    ) {
        let bonus = (depth * depth * 16).min(1600);
        self.bump(side, (best, best_pt), conts, bonus);
        for &(m, pt) in tried {
            if m != best {
                self.bump(side, (m, pt), conts, -bonus);
            }
        }
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        if !prev.is_null() {
            let i = self.square_pair(prev);
            self.counter[i] = best;
        }
    }

    pub fn countermove(&self, prev: Move) -> Move {
        if prev.is_null() {
            Move::NULL
        } else {
            self.counter[self.square_pair(prev)]
        }
    }

    /// Whether nothing was ever written here (no move history at all).
    #[cfg(test)]
    pub fn untouched(&self) -> bool {
        self.butterfly.iter().all(|&h| h == 0) && self.live.is_empty()
    }

    /// Ages the history between searches.
    pub fn age(&mut self) {
        // two plain loops: the compiler vectorises them (a chained
        // iterator it does not: 12 ms a move instead of 3 for the 16 MB
        // of continuation history, time a fast game cannot spare)
        for h in self.butterfly.iter_mut() {
            *h /= 2;
        }
        // the continuation history: only its live blocks (the rest is
        // zero); a block halved to nothing leaves the list
        let (cont, listed) = (&mut self.cont, &mut self.listed);
        self.live.retain(|&b| {
            let b = b as usize;
            let block = &mut cont[b * BLOCK..(b + 1) * BLOCK];
            for h in block.iter_mut() {
                *h /= 2;
            }
            let alive = block.iter().any(|&h| h != 0);
            if !alive {
                listed[b / 64] &= !(1 << (b % 64));
            }
            alive
        });
        for k in self.killers.iter_mut() {
            *k = [Move::NULL; 2];
        }
    }
}

/// A ply's moves with ordering scores, picked best first. Each search ply
/// owns one, so the move lists are never copied.
pub struct MoveBuf {
    pub moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    /// the hash move stands first and is played before the rest is scored
    tt_first: bool,
    scored: bool,
}

impl Default for MoveBuf {
    fn default() -> Self {
        MoveBuf {
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            tt_first: false,
            scored: false,
        }
    }
}

/// What move ordering needs to know about the node.
pub struct OrderCtx<'a, P: SearchPosition> {
    pub pos: &'a P,
    pub t: &'a P::Tables,
    pub history: &'a History,
    pub tt_move: Move,
    pub ply: usize,
    pub prev: Move,
    /// the continuation keys of the moves one and two plies before
    pub conts: [u32; 2],
}

pub const SCORE_TT: i32 = 1 << 30;
const SCORE_GOOD_CAPTURE: i32 = 1 << 28;
pub const SCORE_KILLER: i32 = 1 << 27;
const SCORE_COUNTER: i32 = (1 << 27) - 2;
const SCORE_BAD_CAPTURE: i32 = -(1 << 28);

impl MoveBuf {
    /// Prepares the generated moves for picking: the hash move (if among
    /// them) comes first, and the others are scored only if it does not
    /// cut the node off.
    pub fn start(&mut self, tt_move: Move) {
        self.next = 0;
        self.scored = false;
        self.tt_first = false;
        self.scores.clear();
        if !tt_move.is_null()
            && let Some(i) = self.moves.iter().position(|&m| m == tt_move)
        {
            self.moves.swap(0, i);
            self.tt_first = true;
        }
    }

    /// Scores the moves not yet played.
    fn score<P: SearchPosition>(&mut self, ctx: &OrderCtx<'_, P>) {
        let (pos, t, history, tt_move) = (ctx.pos, ctx.t, ctx.history, ctx.tt_move);
        let side = pos.side();
        let killers = history.killers[ctx.ply.min(MAX_PLY)];
        let counter = history.countermove(ctx.prev);
        self.scores.clear();
        for &m in self.moves.iter() {
            let s = if m == tt_move {
                SCORE_TT
            } else if pos.is_noisy(m) {
                let victim = pos.capture_value(t, m, 0);
                let promo = pos.promotion_value(t, m, 0);
                let attacker = pos.mover_value(t, m);
                let mvv = (victim + promo) * 16 - attacker / 16;
                if pos.promotion(m).is_some() {
                    // under-promotions behind the rest
                    if promo >= P::best_promotion_value(t) {
                        SCORE_GOOD_CAPTURE + mvv
                    } else {
                        SCORE_BAD_CAPTURE + mvv
                    }
                } else if victim >= attacker || pos.see_ge(t, m, 0) {
                    SCORE_GOOD_CAPTURE + mvv
                } else {
                    SCORE_BAD_CAPTURE + mvv
                }
            } else if m == killers[0] {
                SCORE_KILLER
            } else if m == killers[1] {
                SCORE_KILLER - 1
            } else if m == counter {
                SCORE_COUNTER
            } else {
                let pt = history.piece_to(pos.piece_code(m), m);
                history.quiet_score(side, m, pt, ctx.conts)
            };
            self.scores.push(s);
        }
    }

    /// The next move with its score, best first.
    pub fn pick<P: SearchPosition>(&mut self, ctx: &OrderCtx<'_, P>) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        if !self.scored {
            if self.tt_first && self.next == 0 {
                self.next = 1;
                return Some((self.moves[0], SCORE_TT));
            }
            self.score(ctx);
            self.scored = true;
        }
        let scores = &self.scores[self.next..n];
        let mut best = 0;
        let mut best_score = scores[0];
        for (i, &s) in scores.iter().enumerate().skip(1) {
            if s > best_score {
                best_score = s;
                best = i;
            }
        }
        let best = self.next + best;
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }
}

/// Whether an ordering score marks a capture that lost material by SEE.
pub fn is_bad_capture(score: i32) -> bool {
    score < SCORE_BAD_CAPTURE / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_history_follows_the_previous_moves() {
        let mut h = History::new(2, 64);
        let (a, b, c) = (
            Move::normal(12, 28),
            Move::normal(6, 21),
            Move::normal(52, 36),
        );
        let (pa, pb) = (h.piece_to(0, a), h.piece_to(1, b));
        let prev = h.piece_to(17, c);
        let after_c = [prev, 0];
        h.update(0, 3, (a, pa), &[(b, pb)], 6, c, after_c);
        // the cutoff move gains in the butterfly table and after `c`
        let plain = h.quiet(0, a);
        assert!(plain > 0);
        assert!(h.quiet_score(0, a, pa, after_c) > plain);
        // after another move, only the butterfly part counts
        let other = [h.piece_to(17, Move::normal(53, 37)), 0];
        assert_eq!(h.quiet_score(0, a, pa, other), plain);
        // the quiet tried before it loses
        assert!(h.quiet_score(0, b, pb, after_c) < 0);
        assert_eq!(h.killers[3][0], a);
        assert_eq!(h.countermove(c), a);
    }

    #[test]
    fn ageing_the_live_blocks_halves_the_whole_table() {
        let mut h = History::new(2, 64);
        let mut rng = crate::rng::SplitMix64(5);
        for round in 0..30 {
            // some rounds update, all age: values die away and come back
            for _ in 0..if round % 3 == 0 { 400 } else { 0 } {
                let m = Move::normal(rng.index(64), rng.index(64));
                let pt = h.piece_to(rng.index(6), m);
                let prev = h.piece_to(rng.index(6), Move::normal(0, rng.index(64)));
                let bonus = rng.index(3200) as i32 - 1600;
                h.bump(rng.index(2), (m, pt), [prev, 0], bonus);
            }
            let mut all = h.cont.clone();
            all.iter_mut().for_each(|x| *x /= 2);
            h.age();
            assert!(h.cont == all, "round {round}");
            // every block with a value is listed
            for (b, block) in h.cont.chunks(BLOCK).enumerate() {
                if block.iter().any(|&x| x != 0) {
                    assert!(h.listed[b / 64] & 1 << (b % 64) != 0, "block {b}");
                }
            }
        }
        // halved to nothing, the blocks leave the list
        assert!(!h.live.is_empty());
        for _ in 0..16 {
            h.age();
        }
        assert!(h.live.is_empty() && h.cont.iter().all(|&x| x == 0));
    }

    #[test]
    fn ageing_halves_and_keeps_the_shape() {
        let mut h = History::new(2, 64);
        let a = Move::normal(12, 28);
        let pa = h.piece_to(0, a);
        h.update(0, 1, (a, pa), &[], 8, Move::NULL, [0, 0]);
        let before = h.quiet(0, a);
        h.age();
        assert_eq!(h.quiet(0, a), before / 2);
        assert_eq!(h.killers[1][0], Move::NULL);
        assert!(h.fits(2, 64));
        assert!(!h.fits(2, 100));
        assert!(!h.fits(4, 64));
    }
}
