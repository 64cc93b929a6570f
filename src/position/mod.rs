//! The position: bitboards per piece type and colour, a mailbox, and the
//! game state; make/unmake with an incremental Zobrist hash.

pub mod fen;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod san;

use std::sync::Arc;

use crate::base::piece::{EMPTY, code, code_owner, code_type};
use crate::base::{Move, MoveKind};
use crate::bitboard::Bitboard;
use crate::board::placement::Placement;
use crate::geometry::Sq;
use crate::nnue::{Evaluator, Nnue};
use crate::variant::{BLACK, KING, MAX_TYPES, PAWN, Variant, WHITE};

#[derive(Clone, Debug)]
struct Undo<B> {
    mv: Move,
    captured: u8,
    castling: u8,
    ep: B,
    ep_victim: u8,
    halfmove: u32,
    hash: u64,
    checkers: B,
}

#[derive(Clone)]
pub struct Position<B: Bitboard> {
    pub v: Arc<Variant<B>>,
    by_type: [B; MAX_TYPES],
    by_color: [B; 2],
    board: [u8; 128],
    side: usize,
    /// bit i: castling move i of the variant is still allowed
    castling: u8,
    /// squares onto which the side to move may capture en passant
    ep: B,
    /// the pawn that may be captured en passant
    ep_victim: u8,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    /// per colour, the Zobrist keys of its pieces other than pawns (the
    /// correction history's non-pawn keys), kept by `put` and `remove`
    non_pawn_keys: [u64; 2],
    king_sq: [u8; 2],
    /// enemy pieces giving check to the side to move
    checkers: B,
    stack: Vec<Undo<B>>,
    /// hashes of the positions before this one (game and search)
    history: Vec<u64>,
    /// the network's accumulators, while a network evaluates this position
    nnue: Option<Box<Nnue>>,
}

impl<B: Bitboard> Position<B> {
    /// An empty board of the variant (for the FEN reader).
    fn empty(v: Arc<Variant<B>>) -> Self {
        Position {
            v,
            by_type: [B::ZERO; MAX_TYPES],
            by_color: [B::ZERO; 2],
            board: [EMPTY; 128],
            side: WHITE,
            castling: 0,
            ep: B::ZERO,
            ep_victim: 0,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            non_pawn_keys: [0; 2],
            king_sq: [0; 2],
            checkers: B::ZERO,
            stack: Vec::with_capacity(256),
            history: Vec::with_capacity(512),
            nnue: None,
        }
    }

    /// The variant's start position.
    pub fn startpos(v: Arc<Variant<B>>) -> Self {
        let fen = v.spec.start_fen.clone();
        Self::from_fen(v, &fen).expect("the variant's start FEN is valid")
    }

    #[inline(always)]
    pub fn side(&self) -> usize {
        self.side
    }
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn color_bb(&self, c: usize) -> B {
        self.by_color[c]
    }
    #[inline(always)]
    pub fn type_bb(&self, t: usize) -> B {
        self.by_type[t]
    }
    #[inline(always)]
    pub fn pieces(&self, c: usize, t: usize) -> B {
        self.by_type[t] & self.by_color[c]
    }
    #[inline(always)]
    pub fn piece_at(&self, sq: Sq) -> Option<(usize, usize)> {
        let c = self.board[sq];
        (c != EMPTY).then(|| (code_owner(c), code_type(c)))
    }
    #[inline(always)]
    pub fn king_square(&self, c: usize) -> Sq {
        self.king_sq[c] as Sq
    }
    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> B {
        self.checkers
    }
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }
    /// Recomputes the checkers (after setting up a position).
    pub(crate) fn update_checkers(&mut self) {
        let us = self.side;
        self.checkers = self.attackers(self.king_square(us), self.occupied(), us ^ 1);
    }
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Per colour, the Zobrist keys of its pieces other than pawns xored.
    #[inline(always)]
    pub fn non_pawn_keys(&self) -> [u64; 2] {
        self.non_pawn_keys
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    pub fn ep_squares(&self) -> B {
        self.ep
    }
    /// Number of moves made since this position was set up.
    pub fn ply_from_root(&self) -> usize {
        self.stack.len()
    }
    pub fn last_move(&self) -> Option<Move> {
        self.stack.last().map(|u| u.mv)
    }

    fn ep_hash(&self, ep: B) -> u64 {
        ep.iter().fold(0, |h, s| h ^ self.v.zobrist.ep[s])
    }

    /// A position of the pieces `(owner, type, square)` with `side` to
    /// move, no castling and no en passant (for the trainer's classical
    /// evaluations). Nothing is checked.
    pub fn from_pieces(v: Arc<Variant<B>>, side: usize, pieces: &[(usize, usize, Sq)]) -> Self {
        let mut pos = Position::empty(v);
        for &(c, t, sq) in pieces {
            pos.put(c, t, sq);
        }
        pos.side = side;
        pos.hash = pos.compute_hash();
        pos.update_checkers();
        pos
    }

    /// Lets a network evaluate this position from now on (its accumulators
    /// computed afresh, then kept by make and unmake), or none.
    pub fn attach_nnue(&mut self, ev: Option<Evaluator>) {
        self.nnue = ev.map(|ev| {
            let pieces = (0..self.v.n).filter_map(|sq| self.piece_at(sq).map(|(c, t)| (c, t, sq)));
            Box::new(Nnue::fresh(ev, pieces))
        });
    }

    /// The network's state, while one evaluates this position.
    #[inline(always)]
    pub fn nnue(&self) -> Option<&Nnue> {
        self.nnue.as_deref()
    }

    /// Recomputes the hash from scratch (FEN reader, tests).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..self.v.n {
            if let Some((c, t)) = self.piece_at(sq) {
                h ^= self.v.piece_key(c, t, sq);
            }
        }
        if self.side == BLACK {
            h ^= self.v.zobrist.side;
        }
        h ^ self.v.castling_key(self.castling) ^ self.ep_hash(self.ep)
    }

    /// Recomputes the non-pawn keys from scratch (tests).
    pub fn compute_non_pawn_keys(&self) -> [u64; 2] {
        let mut keys = [0; 2];
        for sq in 0..self.v.n {
            if let Some((c, t)) = self.piece_at(sq).filter(|&(_, t)| t != PAWN) {
                keys[c] ^= self.v.piece_key(c, t, sq);
            }
        }
        keys
    }

    /// The squares onto which `them` pawns can capture en passant among
    /// the squares `skipped`.
    fn capturable_ep(&self, skipped: B, them: usize) -> B {
        let mut capturers = B::ZERO;
        let mut m = self.v.tables.ep_capturers;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            capturers |= self.pieces(them, t);
        }
        let mut ep = B::ZERO;
        if capturers.is_empty() {
            return ep;
        }
        for s in skipped.iter() {
            if (self.v.tables.rev_ep[them][s] & capturers).any() {
                ep |= B::bit(s);
            }
        }
        ep
    }

    /// Saves what `unmake` restores, and the hash for repetitions.
    #[inline(always)]
    fn save(&mut self, mv: Move) {
        self.stack.push(Undo {
            mv,
            captured: EMPTY,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
            checkers: self.checkers,
        });
        self.history.push(self.hash);
        if let Some(n) = self.nnue.as_deref_mut() {
            n.push();
        }
    }

    /// Computes the network's accumulators of this position if they wait
    /// (before an evaluation; see `nnue::accumulator`).
    #[inline(always)]
    pub fn settle_nnue(&mut self) {
        if let Some(n) = self.nnue.as_deref_mut() {
            n.settle();
        }
    }
}

impl<B: Bitboard> Placement for Position<B> {
    #[inline(always)]
    fn put(&mut self, c: usize, t: usize, sq: Sq) {
        let b = B::bit(sq);
        self.by_type[t] |= b;
        self.by_color[c] |= b;
        self.board[sq] = code(c, t);
        let key = self.v.piece_key(c, t, sq);
        self.hash ^= key;
        if t != PAWN {
            self.non_pawn_keys[c] ^= key;
        }
        if let Some(n) = self.nnue.as_deref_mut() {
            n.add(c, t, sq);
        }
        if t == KING {
            self.king_sq[c] = sq as u8;
        }
    }

    #[inline(always)]
    fn remove(&mut self, c: usize, t: usize, sq: Sq) {
        let b = B::bit(sq);
        self.by_type[t] ^= b;
        self.by_color[c] ^= b;
        self.board[sq] = EMPTY;
        let key = self.v.piece_key(c, t, sq);
        self.hash ^= key;
        if t != PAWN {
            self.non_pawn_keys[c] ^= key;
        }
        if let Some(n) = self.nnue.as_deref_mut() {
            n.sub(c, t, sq);
        }
    }

    #[inline(always)]
    fn type_on(&self, sq: Sq) -> usize {
        code_type(self.board[sq])
    }
}

impl<B: Bitboard> Position<B> {
    /// Plays a move (which must be legal here).
    pub fn make(&mut self, m: Move) {
        let us = self.side;
        let them = us ^ 1;
        let from = m.from();
        let to = m.to();
        let moving = self.board[from];
        let t = code_type(moving);
        let mut captured = EMPTY;
        let mut ep_candidates = B::ZERO;
        self.save(m);
        self.hash ^= self.ep_hash(self.ep);
        self.ep = B::ZERO;
        self.halfmove = self.halfmove.saturating_add(1);
        match m.kind() {
            MoveKind::Castle => {
                let c = self.v.castles[m.extra()].squares();
                self.castle(us, c);
            }
            MoveKind::EnPassant => {
                let victim = self.ep_victim_square();
                captured = self.board[victim];
                self.remove(them, code_type(captured), victim);
                self.remove(us, t, from);
                self.put(us, t, to);
                self.halfmove = 0;
            }
            kind => {
                captured = self.board[to];
                if captured != EMPTY {
                    self.remove(them, code_type(captured), to);
                    self.halfmove = 0;
                }
                self.remove(us, t, from);
                let nt = if kind == MoveKind::Promotion {
                    m.extra()
                } else {
                    t
                };
                self.put(us, nt, to);
                if t == PAWN {
                    self.halfmove = 0;
                    let skipped = self.v.tables.lines.between(from, to);
                    if captured == EMPTY && skipped.any() {
                        ep_candidates = self.capturable_ep(skipped, them);
                    }
                }
            }
        }
        if let Some(u) = self.stack.last_mut() {
            u.captured = captured;
        }
        let keep = self.v.castle_keep[from] & self.v.castle_keep[to];
        if self.castling & !keep != 0 {
            self.hash ^= self.v.castling_key(self.castling);
            self.castling &= keep;
            self.hash ^= self.v.castling_key(self.castling);
        }
        if us == BLACK {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.hash ^= self.v.zobrist.side;
        self.checkers = self.attackers(self.king_square(them), self.occupied(), us);
        if ep_candidates.any() {
            self.set_ep(ep_candidates, to);
        }
    }

    /// Sets the en-passant squares (of the pawn on `victim`) that a legal
    /// capture can use, and hashes them.
    pub(crate) fn set_ep(&mut self, candidates: B, victim: Sq) {
        self.ep = candidates;
        self.ep_victim = victim as u8;
        let legal = self.legal_ep_squares();
        self.ep = legal;
        self.hash ^= self.ep_hash(legal);
    }

    /// The square of the pawn that an en-passant capture removes.
    #[inline]
    pub fn ep_victim_square(&self) -> Sq {
        self.ep_victim as Sq
    }

    /// Takes back the last move made with `make`.
    pub fn unmake(&mut self) {
        let u = self.stack.pop().expect("unmake without a move");
        self.history.pop();
        // the network's frame of the move goes; the pieces put back are
        // not its changes
        let mut nnue = self.nnue.take();
        if let Some(n) = nnue.as_deref_mut() {
            n.pop();
        }
        let them = self.side;
        let us = them ^ 1;
        let m = u.mv;
        let (from, to) = (m.from(), m.to());
        self.side = us;
        match m.kind() {
            MoveKind::Castle => {
                let c = self.v.castles[m.extra()].squares();
                self.castle(us, c.back());
            }
            MoveKind::EnPassant => {
                let t = code_type(self.board[to]);
                self.remove(us, t, to);
                self.put(us, t, from);
                self.put(them, code_type(u.captured), u.ep_victim as Sq);
            }
            kind => {
                let nt = code_type(self.board[to]);
                self.remove(us, nt, to);
                let t = if kind == MoveKind::Promotion {
                    PAWN
                } else {
                    nt
                };
                self.put(us, t, from);
                if u.captured != EMPTY {
                    self.put(them, code_type(u.captured), to);
                }
            }
        }
        if us == BLACK {
            self.fullmove -= 1;
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.checkers = u.checkers;
        self.nnue = nnue;
    }

    /// Passes the move (for null-move pruning); undo with `unmake_null`.
    pub fn make_null(&mut self) {
        self.save(Move::NULL);
        // the side that passes is not in check, so the other is not either
        self.checkers = B::ZERO;
        self.hash ^= self.ep_hash(self.ep) ^ self.v.zobrist.side;
        self.ep = B::ZERO;
        self.halfmove = self.halfmove.saturating_add(1);
        self.side ^= 1;
    }

    pub fn unmake_null(&mut self) {
        let u = self.stack.pop().expect("unmake_null without a null move");
        self.history.pop();
        if let Some(n) = self.nnue.as_deref_mut() {
            n.pop();
        }
        self.side ^= 1;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.checkers = u.checkers;
    }

    /// Forgets the move stack (the positions stay in the repetition
    /// history); used after a game move so the stack does not grow.
    pub fn clear_stack(&mut self) {
        self.stack.clear();
        if let Some(n) = self.nnue.as_deref_mut() {
            n.rebase();
        }
    }

    /// Frees the room kept for moves (for positions stored by the
    /// thousand, as the evaluation fit does).
    pub fn shrink_to_fit(&mut self) {
        self.stack.shrink_to_fit();
        self.history.shrink_to_fit();
    }

    /// The hashes of earlier positions, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Whether the current position occurred before, within the reversible
    /// moves, at least `times` times.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        let mut count = 0;
        let mut i = 2;
        while i <= window {
            if self.history[n - i] == self.hash {
                count += 1;
            }
            i += 2;
        }
        count
    }
}
