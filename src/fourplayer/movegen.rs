//! Attacks and legal move generation for four players.
//!
//! As in the two-player generator, legality is decided without making
//! moves: the King's targets are tested against every enemy's attacks with
//! the King lifted off the board, other pieces are restricted to the
//! squares that resolve a check and to their pin lines (pins by any enemy),
//! and en-passant captures are tested on the occupancy they leave. Kings
//! are never captured; dead pieces block and may be captured.
//!
//! En passant (RULES.md, read as 4pchess plays it): after player X's double
//! step, an enemy pawn that attacks the skipped square and stands next to
//! X's pawn may capture onto the skipped square, removing X's pawn, until X
//! moves again; if an enemy piece stands on the skipped square it is taken
//! as well.

use super::position::{EMPTY, Position4, code};
use super::variant::{KING, PAWN};
use super::{Bb, DEAD};
use crate::base::GenType;
use crate::base::{Move, MoveKind, MoveList};
use crate::bitboard::Bitboard;
use crate::board::legal::{self, Side};
use crate::geometry::Sq;

impl Position4 {
    /// Pieces of the players in `players` (bits) that attack `sq` on the
    /// occupancy `occ` (pieces not in `occ` are ignored).
    #[inline]
    pub fn attackers(&self, sq: Sq, occ: Bb, players: u8) -> Bb {
        let v = &*self.v;
        let t = &v.tables;
        let their = self.players_bb(players) & occ;
        if their.is_empty() {
            return Bb::ZERO;
        }
        let mut dirs = 0u8;
        for p in 0..4 {
            if players & (1 << p) != 0 {
                dirs |= t.rev_line_dirs[p];
            }
        }
        let lines = t.lines.line_attacks(dirs, sq, occ);
        let mut att = Bb::ZERO;
        for ty in 0..super::variant::NUM_TYPES {
            let pcs = self.by_type[ty] & their;
            if pcs.is_empty() {
                continue;
            }
            if v.symmetric[ty] {
                let r = &t.rev[0][ty];
                att |= (r.leap[sq] | (lines & r.ride[sq])) & pcs;
            } else {
                for p in 0..4 {
                    if players & (1 << p) != 0 {
                        let r = &t.rev[p][ty];
                        att |= (r.leap[sq] | (lines & r.ride[sq])) & pcs & self.by_color[p];
                    }
                }
            }
        }
        att
    }

    /// Whether `sq` is attacked by any of `players` (leapers first, then
    /// riders; stops at the first attacker found).
    #[inline]
    pub fn is_attacked(&self, sq: Sq, occ: Bb, players: u8) -> bool {
        let v = &*self.v;
        let t = &v.tables;
        let their = self.players_bb(players) & occ;
        let mut rider_dirs = 0u8;
        let mut riders = [Bb::ZERO; super::variant::NUM_TYPES];
        for (ty, rider) in riders.iter_mut().enumerate() {
            let pcs = self.by_type[ty] & their;
            if pcs.is_empty() {
                continue;
            }
            if v.symmetric[ty] {
                let r = &t.rev[0][ty];
                if (r.leap[sq] & pcs).any() {
                    return true;
                }
                if (r.ride_empty[sq] & pcs).any() {
                    rider_dirs |= r.line_dirs;
                    *rider = r.ride[sq] & pcs;
                }
            } else {
                for p in 0..4 {
                    if players & (1 << p) != 0 {
                        let r = &t.rev[p][ty];
                        let own = pcs & self.by_color[p];
                        if (r.leap[sq] & own).any() {
                            return true;
                        }
                        if (r.ride_empty[sq] & own).any() {
                            rider_dirs |= r.line_dirs;
                            *rider |= r.ride[sq] & own;
                        }
                    }
                }
            }
        }
        if rider_dirs == 0 {
            return false;
        }
        let lines = t.lines.line_attacks(rider_dirs, sq, occ);
        riders.iter().any(|&r| (r & lines).any())
    }

    /// Enemy sliders (of the players `enemies`) that see `ksq` along a line
    /// on an empty board (the pieces that may pin).
    #[inline(always)]
    fn snipers(&self, ksq: Sq, enemies: u8) -> Bb {
        let v = &*self.v;
        let their = self.players_bb(enemies);
        let mut snipers = Bb::ZERO;
        for ty in 0..super::variant::NUM_TYPES {
            let r = &v.tables.rev[0][ty];
            if r.line_dirs != 0 && v.symmetric[ty] {
                snipers |= r.ride_empty[ksq] & self.by_type[ty] & their;
            }
        }
        snipers
    }

    /// Appends the legal moves of the side to move, of the given type
    /// (promotions count as noisy).
    #[inline]
    pub fn generate(&self, kind: GenType, list: &mut MoveList) {
        self.generate_side(self.side, self.checkers, kind, list);
    }

    /// Appends the legal moves `p` would have if it were to move (for the
    /// best-reply search, where any opponent may answer).
    pub fn generate_for(&self, p: usize, kind: GenType, list: &mut MoveList) {
        let checkers = self.attackers(self.king_square(p), self.occupied(), self.enemies(p));
        self.generate_side(p, checkers, kind, list);
    }

    fn generate_side(&self, us: usize, checkers: Bb, kind: GenType, list: &mut MoveList) {
        let v = &*self.v;
        if self.eliminated & (1 << us) != 0 {
            return;
        }
        let enemies = self.enemies(us);
        let s = Side {
            tables: &v.tables,
            us,
            ksq: self.king_square(us),
            occ: self.occupied(),
            own: self.by_color[us],
            capturable: self.capturable(us),
            promo_zone: v.promo_zone[us],
            promo_types: &v.promo_types,
            num_types: super::variant::NUM_TYPES,
        };
        let mask = legal::check_mask(&s, checkers, |c| {
            let (owner, t) = self.piece_at(c).expect("checker on the board");
            owner < 4 && s.tables.rev[owner][t].leap[s.ksq].has(c)
        });
        if mask.any() {
            let snipers = self.snipers(s.ksq, enemies);
            legal::piece_moves(&s, kind, mask, snipers, list, |t| self.by_type[t] & s.own);
        }
        let (quiet_ok, noisy_ok) = legal::wants(kind);
        if noisy_ok && self.ep.iter().any(|e| e.is_some()) {
            self.generate_ep(us, list, enemies, s.capturable);
        }
        let attacked = |sq, occ| self.is_attacked(sq, occ, enemies);
        legal::king_moves(&s, kind, list, attacked);
        if quiet_ok && checkers.is_empty() && self.castling & (3 << (2 * us)) != 0 {
            for side in 0..2 {
                let bit = 2 * us + side;
                if self.castling & (1 << bit) == 0 {
                    continue;
                }
                let i = self.castle_idx[bit] as usize;
                let c = &v.castles[i];
                if self.board[c.rook_from] == code(us, super::variant::ROOK)
                    && legal::may_castle(c, s.occ, attacked)
                {
                    let _ = list.try_push(Move::new(c.king_from, c.king_to, MoveKind::Castle, i));
                }
            }
        }
    }

    /// En-passant captures onto the squares enemies skipped (see the module
    /// notes), each tested on the occupancy it leaves.
    fn generate_ep(&self, us: usize, list: &mut MoveList, enemies: u8, capturable: Bb) {
        let v = &*self.v;
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let our_pawns = self.by_type[PAWN] & self.by_color[us];
        for x in 0..4 {
            let slot = self.ep[x];
            if !slot.is_some() || enemies & (1 << x) == 0 {
                continue;
            }
            let (target, victim) = (slot.target as Sq, slot.victim as Sq);
            if self.board[victim] != code(x, PAWN) {
                continue;
            }
            let on_target = self.board[target];
            if on_target != EMPTY && !capturable.has(target) {
                continue;
            }
            let next_to_victim = v.tables.moves[0][KING].normal.leap_any[victim];
            let capturers = v.tables.rev_ep[us][target] & our_pawns & next_to_victim;
            for from in capturers.iter() {
                let after = (occ ^ Bb::bit(from) ^ Bb::bit(victim)) | Bb::bit(target);
                let gone = Bb::bit(target) | Bb::bit(victim);
                if (self.attackers(ksq, after, self.enemies(us)) & !gone).any() {
                    continue;
                }
                if v.promo_zone[us].has(target) {
                    for &p in &v.promo_types {
                        let _ = list.try_push(Move::new(from, target, MoveKind::EnPassant, p));
                    }
                } else {
                    let _ = list.try_push(Move::new(from, target, MoveKind::EnPassant, 0));
                }
            }
        }
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut l = MoveList::new();
        self.generate(GenType::All, &mut l);
        l
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut l = MoveList::new();
        self.generate(GenType::All, &mut l);
        !l.is_empty()
    }

    /// Whether a legal move of the side to move checks an enemy King
    /// (directly or by uncovering a line); castling and en passant answer
    /// yes without looking.
    pub fn gives_check(&self, m: Move) -> bool {
        let kind = m.kind();
        if kind == MoveKind::Castle || kind == MoveKind::EnPassant {
            return true;
        }
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let occ = (self.occupied() ^ Bb::bit(from)) | Bb::bit(to);
        let t = match Position4::promotion_of(m) {
            Some(p) => p,
            None => match self.piece_at(from) {
                Some((_, t)) => t,
                None => return false,
            },
        };
        let (_, capt, _) = self.v.tables.targets(us, t, to, occ);
        let enemies = self.enemies(us);
        (0..4).any(|q| {
            enemies & (1 << q) != 0 && !self.is_eliminated(q) && {
                let k = self.king_square(q);
                capt.has(k) || (self.attackers(k, occ, 1 << us) & !Bb::bit(to)).any()
            }
        })
    }

    /// The live players whose King an enemy attacks now, whoever is to
    /// move (bits): a check takes effect on the checked player's turn.
    pub fn checked_players(&self) -> u8 {
        let occ = self.occupied();
        (0..4)
            .filter(|&p| {
                !self.is_eliminated(p)
                    && self
                        .attackers(self.king_square(p), occ, self.enemies(p))
                        .any()
            })
            .fold(0, |m, p| m | 1 << p)
    }

    /// Whether a dead piece stands on `sq`.
    pub fn is_dead(&self, sq: Sq) -> bool {
        self.by_color[DEAD].has(sq)
    }
}
