//! Attack detection and legal move generation.
//!
//! Legality is decided without making moves: the King's targets are tested
//! against the enemy's attacks with the King lifted off the board; other
//! pieces are restricted to the squares that resolve a check and, when
//! pinned, to their pin line. En-passant captures are tested on the
//! occupancy they leave. Variants with riders along vectors other than the
//! unit lines (nightriders, ...) fall back to making every move.

use super::Position;
use crate::base::{GenType, Move, MoveKind, MoveList};
use crate::bitboard::Bitboard;
use crate::board::legal::{self, Side};
use crate::geometry::Sq;
use crate::variant::{KING, PAWN};

impl<B: Bitboard> Position<B> {
    /// Pieces of colour `by` that attack `sq` on the occupancy `occ` (pieces
    /// not in `occ` are ignored).
    #[inline]
    pub fn attackers(&self, sq: Sq, occ: B, by: usize) -> B {
        let dirs = self.v.tables.rev_line_dirs[by];
        let lines = if dirs != 0 {
            self.v.tables.lines.line_attacks(dirs, sq, occ)
        } else {
            B::ZERO
        };
        self.attackers_on_lines(sq, occ, by, lines)
    }

    /// Pieces of both colours that attack `sq` on the occupancy `occ`.
    #[inline]
    pub fn attackers_both(&self, sq: Sq, occ: B) -> B {
        let dirs = self.v.tables.rev_line_dirs[0] | self.v.tables.rev_line_dirs[1];
        let lines = if dirs != 0 {
            self.v.tables.lines.line_attacks(dirs, sq, occ)
        } else {
            B::ZERO
        };
        self.attackers_on_lines(sq, occ, 0, lines) | self.attackers_on_lines(sq, occ, 1, lines)
    }

    /// Attackers of colour `by`, given the line attacks from `sq` (which
    /// must cover the directions that colour rides along).
    #[inline(always)]
    fn attackers_on_lines(&self, sq: Sq, occ: B, by: usize, lines: B) -> B {
        let own = self.color_bb(by) & occ;
        self.v
            .tables
            .attackers_on_lines(by, sq, occ, lines, |t| self.type_bb(t) & own)
    }

    /// Whether `sq` is attacked by colour `by` (leapers first, then riders;
    /// stops at the first attacker found).
    #[inline]
    pub fn is_attacked(&self, sq: Sq, occ: B, by: usize) -> bool {
        let v = &*self.v;
        let own = self.color_bb(by) & occ;
        let nt = v.num_types();
        let mut rider_dirs = 0u8;
        for t in 0..nt {
            let pcs = self.type_bb(t) & own;
            if pcs.is_empty() {
                continue;
            }
            let r = &v.tables.rev[by][t];
            if (r.leap[sq] & pcs).any() {
                return true;
            }
            if (r.ride_empty[sq] & pcs).any() {
                rider_dirs |= r.line_dirs;
            }
            for (ray, limit) in &r.other {
                if (v.tables.vector_ride(*ray, sq, occ) & limit[sq] & pcs).any() {
                    return true;
                }
            }
        }
        if rider_dirs == 0 {
            return false;
        }
        let lines = v.tables.lines.line_attacks(rider_dirs, sq, occ);
        for t in 0..nt {
            let r = &v.tables.rev[by][t];
            if r.line_dirs & rider_dirs != 0 && (lines & r.ride[sq] & self.type_bb(t) & own).any() {
                return true;
            }
        }
        false
    }

    /// Enemy sliders that see our King's square along a line on an empty
    /// board (the pieces that may pin).
    #[inline(always)]
    fn snipers(&self, them: usize, ksq: Sq) -> B {
        let v = &*self.v;
        let mut snipers = B::ZERO;
        for t in 0..v.num_types() {
            let r = &v.tables.rev[them][t];
            if r.line_dirs != 0 {
                snipers |= r.ride_empty[ksq] & self.pieces(them, t);
            }
        }
        snipers
    }

    /// The side to move, as the shared generator needs it.
    #[inline(always)]
    fn legal_side(&self) -> Side<'_, B, 2> {
        let v = &*self.v;
        let us = self.side();
        Side {
            tables: &v.tables,
            us,
            ksq: self.king_square(us),
            occ: self.occupied(),
            own: self.color_bb(us),
            capturable: self.color_bb(us ^ 1),
            promo_zone: v.promo_zone[us],
            promo_types: &v.promo_types,
            num_types: v.num_types(),
        }
    }

    /// Appends the legal moves of the given type.
    pub fn generate(&self, kind: GenType, list: &mut MoveList) {
        if self.v.tables.exotic_riders {
            self.generate_by_making(kind, list);
            return;
        }
        let s = self.legal_side();
        let them = s.us ^ 1;
        let checkers = self.checkers();
        let mask = legal::check_mask(&s, checkers, |c| {
            let (_, t) = self.piece_at(c).expect("checker on the board");
            s.tables.rev[them][t].leap[s.ksq].has(c)
        });
        if mask.any() {
            let snipers = self.snipers(them, s.ksq);
            legal::piece_moves(&s, kind, mask, snipers, list, |t| self.pieces(s.us, t));
        }
        let (quiet_ok, noisy_ok) = legal::wants(kind);
        if noisy_ok && self.ep_squares().any() {
            self.generate_ep(list);
        }
        let attacked = |sq, occ| self.is_attacked(sq, occ, them);
        legal::king_moves(&s, kind, list, attacked);
        if quiet_ok && checkers.is_empty() && self.castling_rights() != 0 {
            for (i, c) in self.v.castles.iter().enumerate() {
                if c.color == s.us
                    && self.castling_rights() & (1 << i) != 0
                    && legal::may_castle(c, s.occ, attacked)
                {
                    let _ = list.try_push(Move::new(c.king_from, c.king_to, MoveKind::Castle, i));
                }
            }
        }
    }

    fn generate_ep(&self, list: &mut MoveList) {
        self.for_each_legal_ep(|from, to| {
            let _ = list.try_push(Move::new(from, to, MoveKind::EnPassant, 0));
        });
    }

    /// Calls `f(from, to)` for every legal en-passant capture: the capture
    /// is tested on the occupancy it leaves behind.
    fn for_each_legal_ep(&self, mut f: impl FnMut(Sq, Sq)) {
        let v = &*self.v;
        let us = self.side();
        let them = us ^ 1;
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let victim = self.ep_victim_square();
        let mut m = v.tables.ep_capturers & !(1 << KING);
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            for from in self.pieces(us, t).iter() {
                let (_, _, ep) = v.targets(us, t, from, occ);
                for to in (ep & self.ep_squares()).iter() {
                    let after = (occ ^ B::bit(from) ^ B::bit(victim)) | B::bit(to);
                    if (self.attackers(ksq, after, them) & after).is_empty() {
                        f(from, to);
                    }
                }
            }
        }
    }

    /// The en-passant squares onto which a legal capture exists (only these
    /// count for the hash and the FEN, so repetitions follow the rules).
    pub(crate) fn legal_ep_squares(&self) -> B {
        let mut squares = B::ZERO;
        self.for_each_legal_ep(|_, to| squares |= B::bit(to));
        squares
    }

    /// Pseudo-legal moves (every piece's targets, castling with its
    /// conditions on empty squares only).
    pub fn generate_pseudo(&self, list: &mut MoveList) {
        let v = &*self.v;
        let s = self.legal_side();
        let (us, occ, opp) = (s.us, s.occ, s.capturable);
        for t in 0..v.num_types() {
            for from in self.pieces(us, t).iter() {
                let (quiet, capt, ep) = v.targets(us, t, from, occ);
                legal::push_moves(&s, list, from, quiet | (capt & opp), t == PAWN);
                if t != KING {
                    for to in (ep & self.ep_squares()).iter() {
                        let _ = list.try_push(Move::new(from, to, MoveKind::EnPassant, 0));
                    }
                }
            }
        }
        for (i, c) in v.castles.iter().enumerate() {
            if c.color == us && self.castling_rights() & (1 << i) != 0 && (occ & c.empty).is_empty()
            {
                let _ = list.try_push(Move::new(c.king_from, c.king_to, MoveKind::Castle, i));
            }
        }
    }

    /// Legal moves by making each pseudo-legal move (slow, general).
    pub fn generate_by_making(&self, kind: GenType, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.generate_pseudo(&mut pseudo);
        let mut p = self.clone();
        let us = self.side();
        let them = us ^ 1;
        let in_check = self.in_check();
        for &m in pseudo.iter() {
            let noisy = self.is_noisy(m);
            let wanted = match kind {
                GenType::All => true,
                GenType::Noisy => noisy,
                GenType::Quiet => !noisy,
            };
            if !wanted {
                continue;
            }
            if m.kind() == MoveKind::Castle {
                let c = &self.v.castles[m.extra()];
                let occ = self.occupied();
                if in_check || c.passes.iter().any(|s| self.is_attacked(s, occ, them)) {
                    continue;
                }
            }
            p.make(m);
            let legal = !p.is_attacked(p.king_square(us), p.occupied(), them);
            p.unmake();
            if legal {
                let _ = list.try_push(m);
            }
        }
    }

    /// Whether a legal move checks the enemy King: directly, from its
    /// target square on the occupancy it leaves, or by uncovering a line.
    /// Castling and en passant answer yes without looking (they are few).
    pub fn gives_check(&self, m: Move) -> bool {
        let kind = m.kind();
        if kind == MoveKind::Castle || kind == MoveKind::EnPassant {
            return true;
        }
        let us = self.side();
        let ksq = self.king_square(us ^ 1);
        let (from, to) = (m.from(), m.to());
        let occ = (self.occupied() ^ B::bit(from)) | B::bit(to);
        let t = match m.promotion() {
            Some(p) => p,
            None => match self.piece_at(from) {
                Some((_, t)) => t,
                None => return false,
            },
        };
        let (_, capt, _) = self.v.targets(us, t, to, occ);
        // the moved piece is not in `occ` on its old square, and the piece
        // it lands on (if any) is not ours: what remains attacks by a line
        capt.has(ksq) || (self.attackers(ksq, occ, us) & !B::bit(to)).any()
    }

    /// Captures, en-passant captures and promotions.
    #[inline]
    pub fn is_noisy(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Normal => self.piece_at(m.to()).is_some(),
            MoveKind::Castle => false,
            _ => true,
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut l = MoveList::new();
        self.generate(GenType::All, &mut l);
        l
    }
}
