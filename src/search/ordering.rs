//! Move ordering: the hash move, captures by MVV-LVA split by SEE, killers,
//! the countermove, then quiet moves by history; bad captures last.

use arrayvec::ArrayVec;

use crate::position::{MAX_MOVES, Move, MoveList};

use super::tree::SearchPosition;

pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16384;

/// History of quiet moves by side, from and to square; countermoves. The
/// tables are sized for the board: squares take `shift` bits.
pub struct History {
    butterfly: Vec<i16>,
    counter: Vec<Move>,
    shift: u32,
    pub killers: [[Move; 2]; MAX_PLY + 4],
}

impl History {
    /// Tables for `sides` sides on a board of `squares` squares.
    pub fn new(sides: usize, squares: usize) -> History {
        let shift = squares.max(2).next_power_of_two().trailing_zeros();
        History {
            butterfly: vec![0; sides << (2 * shift)],
            counter: vec![Move::NULL; 1 << (2 * shift)],
            shift,
            killers: [[Move::NULL; 2]; MAX_PLY + 4],
        }
    }

    /// Whether these tables are sized for `sides` sides on `squares`
    /// squares.
    pub fn fits(&self, sides: usize, squares: usize) -> bool {
        let shift = squares.max(2).next_power_of_two().trailing_zeros();
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

    #[inline]
    pub fn quiet(&self, side: usize, m: Move) -> i32 {
        self.butterfly[self.idx(side, m)] as i32
    }

    fn bump(&mut self, side: usize, m: Move, bonus: i32) {
        let i = self.idx(side, m);
        let e = &mut self.butterfly[i];
        let v = *e as i32;
        *e = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
    }

    /// A quiet move caused a cutoff: reward it, punish the quiets tried
    /// before it.
    pub fn update(
        &mut self,
        side: usize,
        ply: usize,
        best: Move,
        tried: &[Move],
        depth: i32,
        prev: Move,
    ) {
        let bonus = (depth * depth * 16).min(1600);
        self.bump(side, best, bonus);
        for &m in tried {
            if m != best {
                self.bump(side, m, -bonus);
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

    /// Ages the history between searches.
    pub fn age(&mut self) {
        for h in self.butterfly.iter_mut() {
            *h /= 2;
        }
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
                history.quiet(side, m)
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
