//! The four-player position: bitboards per piece type and owner (the four
//! players and the dead), a mailbox, castling rights, one en-passant slot
//! per player, eliminated players and Free-For-All points; make/unmake with
//! an incremental Zobrist hash.

use std::sync::Arc;

use crate::base::{Move, MoveKind};
use crate::bitboard::Bitboard;
use crate::board::placement::Placement;
use crate::geometry::Sq;
use crate::nnue::{Evaluator, Nnue};

use super::variant::{CAPTURE_POINTS, KING, Mode, NUM_TYPES, PAWN, Variant4};
use super::{Bb, DEAD, team};

pub use crate::base::piece::{EMPTY, code, code_owner, code_type};

/// A player's en-passant slot: after its double step, the square it
/// skipped (where a capturing pawn lands) and the square of its pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpSlot {
    pub target: u8,
    pub victim: u8,
}

impl EpSlot {
    pub const NONE: EpSlot = EpSlot {
        target: EMPTY,
        victim: EMPTY,
    };
    #[inline(always)]
    pub fn is_some(self) -> bool {
        self.target != EMPTY
    }
}

/// What a move did, for Free-For-All scoring and for the notation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// the piece taken on the target square (owner, type), if any
    pub on_target: Option<(usize, usize)>,
    /// the pawn taken en passant (owner), if any
    pub en_passant: Option<usize>,
}

#[derive(Clone, Debug)]
struct Undo {
    mv: Move,
    side: u8,
    captured: u8,
    captured_promoted: bool,
    ep_victim: u8,
    castling: u8,
    ep: [EpSlot; 4],
    halfmove: u32,
    hash: u64,
    checkers: Bb,
    points: [i32; 4],
    eliminated: u8,
    resigned: u8,
    /// the pieces a player had before they turned dead (eliminations)
    turned_dead: Bb,
}

#[derive(Clone)]
pub struct Position4 {
    pub v: Arc<Variant4>,
    pub(super) by_type: [Bb; NUM_TYPES],
    /// per owner: the four players, then the dead pieces
    pub(super) by_color: [Bb; 5],
    /// squares of promoted pieces (a promoted Queen is worth 1 point)
    pub(super) promoted: Bb,
    pub(super) board: [u8; 160],
    pub(super) side: usize,
    /// bit 2p: player p's short castling, bit 2p+1: its long castling
    pub(super) castling: u8,
    /// per right bit: the index of the castling move in `Variant4::castles`
    pub(super) castle_idx: [u8; 8],
    pub(super) ep: [EpSlot; 4],
    /// bit p: player p is out (Free-For-All)
    pub(super) eliminated: u8,
    /// bit p: player p resigned or lost on time, its King still walking
    pub(super) resigned: u8,
    pub(super) points: [i32; 4],
    /// plies since the last capture or pawn move
    pub(super) halfmove: u32,
    /// plies played since the game's start (for move numbers)
    pub(super) ply: u32,
    pub(super) hash: u64,
    pub(super) king_sq: [u8; 4],
    /// enemy pieces giving check to the side to move
    pub(super) checkers: Bb,
    stack: Vec<Undo>,
    history: Vec<u64>,
    /// the network's accumulators, while one evaluates this position
    nnue: Option<Box<Nnue>>,
}

impl Position4 {
    /// An empty board (for the FEN4 reader).
    pub(super) fn empty(v: Arc<Variant4>) -> Position4 {
        Position4 {
            v,
            by_type: [Bb::ZERO; NUM_TYPES],
            by_color: [Bb::ZERO; 5],
            promoted: Bb::ZERO,
            board: [EMPTY; 160],
            side: 0,
            castling: 0,
            castle_idx: [EMPTY; 8],
            ep: [EpSlot::NONE; 4],
            eliminated: 0,
            resigned: 0,
            points: [0; 4],
            halfmove: 0,
            ply: 0,
            hash: 0,
            king_sq: [0; 4],
            checkers: Bb::ZERO,
            stack: Vec::with_capacity(256),
            history: Vec::with_capacity(512),
            nnue: None,
        }
    }

    /// A position of these pieces `(owner, type, square)` (owner 4: dead),
    /// `side` to move, these points (Free-For-All), no castling rights, no
    /// en passant; a seat without a King is out of the game (for
    /// evaluating training positions).
    pub fn from_pieces(
        v: Arc<Variant4>,
        side: usize,
        pieces: &[(usize, usize, usize)],
        points: [i32; 4],
    ) -> Position4 {
        let mut pos = Position4::empty(v);
        pos.side = side % 4;
        for &(owner, t, sq) in pieces {
            pos.put(owner, t, sq);
        }
        pos.points = points;
        for p in 0..4 {
            if pos.pieces(p, KING).is_empty() {
                pos.eliminated |= 1 << p;
            }
        }
        pos.hash = pos.compute_hash();
        pos.update_checkers();
        pos
    }

    /// Lets a network evaluate this position from now on (its accumulators
    /// computed afresh, then kept by every change of a square), or none.
    pub fn attach_nnue(&mut self, ev: Option<Evaluator>) {
        self.nnue = ev.map(|ev| {
            let pieces = (0..self.v.n).filter_map(|sq| self.piece_at(sq).map(|(o, t)| (o, t, sq)));
            Box::new(Nnue::fresh(ev, pieces))
        });
    }

    /// The network's state, while one evaluates this position.
    #[inline(always)]
    pub fn nnue(&self) -> Option<&Nnue> {
        self.nnue.as_deref()
    }

    #[inline(always)]
    pub fn mode(&self) -> Mode {
        self.v.mode
    }
    #[inline(always)]
    pub fn side(&self) -> usize {
        self.side
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bb {
        self.by_color[0]
            | self.by_color[1]
            | self.by_color[2]
            | self.by_color[3]
            | self.by_color[DEAD]
    }
    /// The pieces of an owner (a player 0-3, or `DEAD`).
    #[inline(always)]
    pub fn color_bb(&self, owner: usize) -> Bb {
        self.by_color[owner]
    }
    #[inline(always)]
    pub fn type_bb(&self, t: usize) -> Bb {
        self.by_type[t]
    }
    #[inline(always)]
    pub fn pieces(&self, owner: usize, t: usize) -> Bb {
        self.by_type[t] & self.by_color[owner]
    }
    /// The piece on a square: (owner, type), the owner `DEAD` for grey pieces.
    #[inline(always)]
    pub fn piece_at(&self, sq: Sq) -> Option<(usize, usize)> {
        // a square off the board (Move::LEAVE's) holds nothing
        let c = self.board.get(sq).copied().unwrap_or(EMPTY);
        (c != EMPTY).then(|| (code_owner(c), code_type(c)))
    }
    #[inline(always)]
    pub fn is_promoted(&self, sq: Sq) -> bool {
        self.promoted.has(sq)
    }
    #[inline(always)]
    pub fn king_square(&self, p: usize) -> Sq {
        self.king_sq[p] as Sq
    }
    #[inline(always)]
    pub fn checkers(&self) -> Bb {
        self.checkers
    }
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// Plies played since the game's start.
    pub fn ply(&self) -> u32 {
        self.ply
    }
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    pub fn ep_slots(&self) -> [EpSlot; 4] {
        self.ep
    }
    pub fn points(&self) -> [i32; 4] {
        self.points
    }
    pub fn is_eliminated(&self, p: usize) -> bool {
        self.eliminated & (1 << p) != 0
    }
    pub fn has_resigned(&self, p: usize) -> bool {
        self.resigned & (1 << p) != 0
    }
    /// The players still in the game, as bits.
    pub fn live_mask(&self) -> u8 {
        !self.eliminated & 0xF
    }
    /// Number of moves made since this position was set up.
    pub fn ply_from_root(&self) -> usize {
        self.stack.len()
    }
    pub fn last_move(&self) -> Option<Move> {
        self.stack.last().map(|u| u.mv)
    }
    /// The hashes of earlier positions, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The players whose pieces `p` may capture and who threaten `p`'s
    /// King: the other team in Teams, every other live player in FFA.
    #[inline(always)]
    pub fn enemies(&self, p: usize) -> u8 {
        match self.v.mode {
            Mode::Teams => 0b1010 >> team(p),
            Mode::Ffa => self.live_mask() & !(1 << p),
        }
    }

    /// The pieces of a set of players (bits).
    #[inline(always)]
    pub fn players_bb(&self, players: u8) -> Bb {
        let mut b = Bb::ZERO;
        for p in 0..4 {
            if players & (1 << p) != 0 {
                b |= self.by_color[p];
            }
        }
        b
    }

    /// The squares `p` may capture on: enemy pieces but live Kings, and
    /// dead pieces.
    #[inline(always)]
    pub fn capturable(&self, p: usize) -> Bb {
        (self.players_bb(self.enemies(p)) & !self.by_type[KING]) | self.by_color[DEAD]
    }

    /// The next player to move after `p` (skipping eliminated players).
    #[inline(always)]
    pub fn next_player(&self, p: usize) -> usize {
        let mut q = (p + 1) & 3;
        for _ in 0..3 {
            if self.eliminated & (1 << q) == 0 {
                return q;
            }
            q = (q + 1) & 3;
        }
        q
    }

    #[inline(always)]
    fn ep_key(&self, p: usize) -> u64 {
        let s = self.ep[p];
        if s.is_some() {
            self.v.zobrist.ep(self.v.n, p, s.target as Sq)
        } else {
            0
        }
    }

    fn points_key(&self) -> u64 {
        (0..4).fold(0, |h, p| h ^ self.v.zobrist.points(p, self.points[p]))
    }

    /// Recomputes the hash from scratch (FEN4 reader, tests).
    pub fn compute_hash(&self) -> u64 {
        let z = &self.v.zobrist;
        let mut h = 0;
        for sq in 0..self.v.n {
            if let Some((o, t)) = self.piece_at(sq) {
                h ^= z.piece(self.v.n, o, t, sq);
            }
        }
        h ^= z.side[self.side];
        for (b, k) in z.castling.iter().enumerate() {
            if self.castling & (1 << b) != 0 {
                h ^= k;
            }
        }
        for p in 0..4 {
            h ^= self.ep_key(p);
            if self.is_eliminated(p) {
                h ^= z.eliminated[p];
            }
            if self.has_resigned(p) {
                h ^= z.resigned[p];
            }
        }
        h ^ self.points_key()
    }

    /// Recomputes the checkers of the side to move (after setting up).
    pub(super) fn update_checkers(&mut self) {
        let us = self.side;
        self.checkers = self.attackers(self.king_square(us), self.occupied(), self.enemies(us));
    }

    fn save(&mut self, mv: Move) {
        self.stack.push(Undo {
            mv,
            side: self.side as u8,
            captured: EMPTY,
            captured_promoted: false,
            ep_victim: EMPTY,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
            checkers: self.checkers,
            points: self.points,
            eliminated: self.eliminated,
            resigned: self.resigned,
            turned_dead: Bb::ZERO,
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

    /// Free-For-All points for taking the piece `c` (a promoted one counts 1).
    #[inline]
    fn capture_points(&self, c: u8, promoted: bool) -> i32 {
        if self.v.mode != Mode::Ffa || code_owner(c) == DEAD {
            0
        } else if promoted {
            1
        } else {
            CAPTURE_POINTS[code_type(c)]
        }
    }

    /// Takes the piece on `sq` off the board; returns its points.
    #[inline]
    fn take(&mut self, sq: Sq) -> i32 {
        let c = self.board[sq];
        let promoted = self.promoted.has(sq);
        self.promoted &= !Bb::bit(sq);
        self.remove(code_owner(c), code_type(c), sq);
        self.capture_points(c, promoted)
    }

    /// Adds points to a player (FFA) and keeps the hash.
    #[inline]
    fn score(&mut self, p: usize, gain: i32) {
        if gain != 0 {
            self.hash ^= self.v.zobrist.points(p, self.points[p]);
            self.points[p] += gain;
            self.hash ^= self.v.zobrist.points(p, self.points[p]);
        }
    }

    /// The player whose en-passant slot has `target` as its capture square.
    #[inline]
    fn ep_owner(&self, target: Sq) -> Option<usize> {
        (0..4).find(|&p| self.ep[p].target as usize == target)
    }
}

impl Placement for Position4 {
    #[inline(always)]
    fn put(&mut self, owner: usize, t: usize, sq: Sq) {
        let b = Bb::bit(sq);
        self.by_type[t] |= b;
        self.by_color[owner] |= b;
        self.board[sq] = code(owner, t);
        self.hash ^= self.v.zobrist.piece(self.v.n, owner, t, sq);
        if t == KING && owner != DEAD {
            self.king_sq[owner] = sq as u8;
        }
        if let Some(n) = self.nnue.as_deref_mut() {
            n.add(owner, t, sq);
        }
    }

    #[inline(always)]
    fn remove(&mut self, owner: usize, t: usize, sq: Sq) {
        let b = Bb::bit(sq);
        self.by_type[t] ^= b;
        self.by_color[owner] ^= b;
        self.board[sq] = EMPTY;
        self.hash ^= self.v.zobrist.piece(self.v.n, owner, t, sq);
        if let Some(n) = self.nnue.as_deref_mut() {
            n.sub(owner, t, sq);
        }
    }

    #[inline(always)]
    fn type_on(&self, sq: Sq) -> usize {
        code_type(self.board[sq])
    }
}

impl Position4 {
    /// Plays a move (which must be legal here).
    pub fn make(&mut self, m: Move) {
        let us = self.side;
        let from = m.from();
        let to = m.to();
        self.save(m);
        self.hash ^= self.ep_key(us);
        self.ep[us] = EpSlot::NONE;
        self.halfmove = self.halfmove.saturating_add(1);
        self.ply = self.ply.saturating_add(1);
        let mut gain = 0;
        match m.kind() {
            MoveKind::Castle => {
                let c = self.v.castles[m.extra()].squares();
                self.castle(us, c);
            }
            kind => {
                let moving = self.board[from];
                let t = code_type(moving);
                if self.board[to] != EMPTY {
                    let u = self.stack.last_mut().expect("saved");
                    u.captured = self.board[to];
                    u.captured_promoted = self.promoted.has(to);
                    gain += self.take(to);
                    self.halfmove = 0;
                }
                if kind == MoveKind::EnPassant
                    && let Some(x) = self.ep_owner(to)
                {
                    let victim = self.ep[x].victim as Sq;
                    let u = self.stack.last_mut().expect("saved");
                    u.ep_victim = self.board[victim];
                    // the victim's slot stays: it closes when its owner moves
                    gain += self.take(victim);
                }
                let was_promoted = self.promoted.has(from);
                self.remove(us, t, from);
                let promo = match kind {
                    MoveKind::Promotion => Some(m.extra()),
                    MoveKind::EnPassant if m.extra() != 0 => Some(m.extra()),
                    _ => None,
                };
                self.put(us, promo.unwrap_or(t), to);
                if was_promoted || promo.is_some() {
                    self.promoted = (self.promoted & !Bb::bit(from)) | Bb::bit(to);
                }
                if t == PAWN {
                    self.halfmove = 0;
                    let skipped = self.v.tables.lines.between(from, to);
                    if skipped.any() && kind == MoveKind::Normal {
                        self.ep[us] = EpSlot {
                            target: skipped.lsb() as u8,
                            victim: to as u8,
                        };
                        self.hash ^= self.ep_key(us);
                    }
                }
            }
        }
        if self.castling != 0 {
            self.update_castling(from, to);
        }
        if self.v.mode == Mode::Ffa {
            gain += self.check_bonus(us);
            self.score(us, gain);
        }
        let next = self.next_player(us);
        self.hash ^= self.v.zobrist.side[us] ^ self.v.zobrist.side[next];
        self.side = next;
        self.checkers = self.attackers(self.king_square(next), self.occupied(), self.enemies(next));
    }

    /// Clears the castling rights whose King or rook square a move touched.
    fn update_castling(&mut self, from: Sq, to: Sq) {
        let mut rights = self.castling;
        while rights != 0 {
            let b = rights.trailing_zeros() as usize;
            rights &= rights - 1;
            let c = &self.v.castles[self.castle_idx[b] as usize];
            if [c.king_from, c.rook_from]
                .iter()
                .any(|&s| s == from || s == to)
            {
                self.castling &= !(1 << b);
                self.hash ^= self.v.zobrist.castling[b];
            }
        }
    }

    /// FFA: points for checking two (+5) or three (+20) players at once.
    fn check_bonus(&self, us: usize) -> i32 {
        let occ = self.occupied();
        let mut checked = 0;
        for q in 0..4 {
            if q != us
                && self.enemies(us) & (1 << q) != 0
                && (self.attackers(self.king_square(q), occ, 1 << us)).any()
            {
                checked += 1;
            }
        }
        match checked {
            2 => 5,
            3 => 20,
            _ => 0,
        }
    }

    /// Takes back the last move made with `make` (or `make_null`,
    /// `eliminate`).
    pub fn unmake(&mut self) {
        let u = self.stack.pop().expect("unmake without a move");
        self.history.pop();
        // the network's frame of the move goes; the pieces put back are
        // not its changes
        let mut nnue = self.nnue.take();
        if let Some(n) = nnue.as_deref_mut() {
            n.pop();
        }
        let us = u.side as usize;
        let m = u.mv;
        self.side = us;
        self.ply -= 1;
        if u.turned_dead.any() {
            self.revive(us, u.turned_dead);
        } else if !m.is_null() {
            let (from, to) = (m.from(), m.to());
            match m.kind() {
                MoveKind::Castle => {
                    let c = self.v.castles[m.extra()].squares();
                    self.castle(us, c.back());
                }
                kind => {
                    let nt = code_type(self.board[to]);
                    let promoted_to = self.promoted.has(to);
                    self.remove(us, nt, to);
                    let promo = kind == MoveKind::Promotion
                        || (kind == MoveKind::EnPassant && m.extra() != 0);
                    self.put(us, if promo { PAWN } else { nt }, from);
                    self.promoted &= !Bb::bit(to);
                    if promoted_to && !promo {
                        self.promoted |= Bb::bit(from);
                    }
                    if u.captured != EMPTY {
                        self.put(code_owner(u.captured), code_type(u.captured), to);
                        if u.captured_promoted {
                            self.promoted |= Bb::bit(to);
                        }
                    }
                    if u.ep_victim != EMPTY {
                        let x = code_owner(u.ep_victim);
                        self.put(x, PAWN, u.ep[x].victim as Sq);
                    }
                }
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.checkers = u.checkers;
        self.points = u.points;
        self.eliminated = u.eliminated;
        self.resigned = u.resigned;
        self.nnue = nnue;
    }

    /// Passes the turn to the next player (null-move pruning).
    pub fn make_null(&mut self) {
        let us = self.side;
        self.save(Move::NULL);
        self.hash ^= self.ep_key(us);
        self.ep[us] = EpSlot::NONE;
        self.halfmove = self.halfmove.saturating_add(1);
        self.ply = self.ply.saturating_add(1);
        let next = self.next_player(us);
        self.hash ^= self.v.zobrist.side[us] ^ self.v.zobrist.side[next];
        self.side = next;
        self.checkers = self.attackers(self.king_square(next), self.occupied(), self.enemies(next));
    }

    /// Gives the turn to player `p` without a move (the best-reply
    /// search lets any opponent answer). Undone by `unmake`.
    pub fn pass_to(&mut self, p: usize) {
        let us = self.side;
        self.save(Move::NULL);
        self.ply = self.ply.saturating_add(1);
        self.hash ^= self.v.zobrist.side[us] ^ self.v.zobrist.side[p];
        self.side = p;
        self.checkers = self.attackers(self.king_square(p), self.occupied(), self.enemies(p));
    }

    /// FFA: takes the side to move out of the game (checkmated, or out of
    /// moves), its pieces turning dead, `by` (if any) scoring `points`;
    /// the turn passes on. Undone by `unmake`.
    pub fn eliminate(&mut self, by: Option<usize>, points: i32) {
        let us = self.side;
        self.save(Move::NULL);
        let pieces = self.by_color[us];
        self.stack.last_mut().expect("saved").turned_dead = pieces | Bb::bit(self.king_square(us));
        for sq in pieces.iter() {
            let t = code_type(self.board[sq]);
            self.remove(us, t, sq);
            self.put(DEAD, t, sq);
        }
        self.hash ^= self.ep_key(us);
        self.ep[us] = EpSlot::NONE;
        self.eliminated |= 1 << us;
        self.hash ^= self.v.zobrist.eliminated[us];
        for s in [0, 1] {
            if self.castling & (1 << (2 * us + s)) != 0 {
                self.castling &= !(1 << (2 * us + s));
                self.hash ^= self.v.zobrist.castling[2 * us + s];
            }
        }
        if let Some(p) = by {
            self.score(p, points);
        }
        self.ply = self.ply.saturating_add(1);
        let next = self.next_player(us);
        self.hash ^= self.v.zobrist.side[us] ^ self.v.zobrist.side[next];
        self.side = next;
        self.checkers = self.attackers(self.king_square(next), self.occupied(), self.enemies(next));
    }

    /// FFA: the side to move resigns or runs out of time: its pieces turn
    /// dead but its King walks on (Chess.com's "Dead King Walking").
    pub fn resign_keep_king(&mut self) {
        let us = self.side;
        self.save(Move::NULL);
        let pieces = self.by_color[us] & !self.by_type[KING];
        self.stack.last_mut().expect("saved").turned_dead = pieces | Bb::bit(self.king_square(us));
        for sq in pieces.iter() {
            let t = code_type(self.board[sq]);
            self.remove(us, t, sq);
            self.put(DEAD, t, sq);
        }
        self.resigned |= 1 << us;
        self.hash ^= self.v.zobrist.resigned[us];
        self.ply = self.ply.saturating_add(1);
        let next = self.next_player(us);
        self.hash ^= self.v.zobrist.side[us] ^ self.v.zobrist.side[next];
        self.side = next;
        self.checkers = self.attackers(self.king_square(next), self.occupied(), self.enemies(next));
    }

    /// Gives player `p` back the pieces (squares) that turned dead.
    fn revive(&mut self, p: usize, squares: Bb) {
        for sq in squares.iter() {
            let c = self.board[sq];
            if c != EMPTY && code_owner(c) == DEAD {
                let t = code_type(c);
                self.remove(DEAD, t, sq);
                self.put(p, t, sq);
            }
        }
    }

    /// Forgets the move stack (the positions stay in the repetition
    /// history); used after a game move so the stack does not grow.
    pub fn clear_stack(&mut self) {
        self.stack.clear();
        if let Some(n) = self.nnue.as_deref_mut() {
            n.rebase();
        }
    }

    /// How often the current position occurred before, within the
    /// reversible plies.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        (1..=window)
            .filter(|&i| self.history[n - i] == self.hash)
            .count()
    }

    /// What the last move captured (for the notation): looked up on the
    /// undo stack.
    pub fn last_captures(&self) -> Captured {
        let Some(u) = self.stack.last() else {
            return Captured::default();
        };
        Captured {
            on_target: (u.captured != EMPTY)
                .then(|| (code_owner(u.captured), code_type(u.captured))),
            en_passant: (u.ep_victim != EMPTY).then(|| code_owner(u.ep_victim)),
        }
    }

    /// Whether a move captures anything (en passant included) or promotes.
    #[inline]
    pub fn is_noisy(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Normal => self.board[m.to()] != EMPTY,
            MoveKind::Castle => false,
            _ => true,
        }
    }

    /// The promotion piece of a move, if it promotes.
    #[inline]
    pub fn promotion_of(m: Move) -> Option<usize> {
        match m.kind() {
            MoveKind::Promotion => Some(m.extra()),
            MoveKind::EnPassant if m.extra() != 0 => Some(m.extra()),
            _ => None,
        }
    }
}
