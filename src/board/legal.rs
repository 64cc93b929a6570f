//! Legal move generation without making moves, for both families.
//!
//! The side to move is described by `Side` (its King, its pieces, what it
//! may capture) and its enemies by an "attacked" test and the sliders that
//! see its King on an empty board: two colours in the two-player games,
//! any set of players in four-player chess. The King's targets are tested
//! with the King lifted off the board; other pieces are restricted to the
//! squares that resolve a check and, when pinned, to their pin line.

use arrayvec::ArrayVec;

use crate::base::{GenType, Move, MoveKind, MoveList};
use crate::bitboard::Bitboard;
use crate::geometry::Sq;
use crate::variant::tables::PieceTables;
use crate::variant::{Castle, KING, PAWN};

/// A pinned piece and the squares it may still move to.
pub type Pins<B> = ArrayVec<(Sq, B), 32>;

/// The side to move, as the generator needs it.
pub struct Side<'a, B, const S: usize> {
    pub tables: &'a PieceTables<B, S>,
    /// the side's index in the tables (colour or player)
    pub us: usize,
    pub ksq: Sq,
    pub occ: B,
    pub own: B,
    /// the squares it may capture on
    pub capturable: B,
    pub promo_zone: B,
    pub promo_types: &'a [usize],
    pub num_types: usize,
}

/// Which of quiet and noisy moves a generation type asks for.
#[inline(always)]
pub fn wants(kind: GenType) -> (bool, bool) {
    match kind {
        GenType::All => (true, true),
        GenType::Noisy => (false, true),
        GenType::Quiet => (true, false),
    }
}

/// The squares a non-King move may go to: anything but our own pieces out
/// of check, the checker and the squares between under a single check
/// (only the checker when it leaps), nothing under a double check.
#[inline]
pub fn check_mask<B: Bitboard, const S: usize>(
    s: &Side<B, S>,
    checkers: B,
    checker_leaps: impl FnOnce(Sq) -> bool,
) -> B {
    if checkers.is_empty() {
        !s.own
    } else if checkers.more_than_one() {
        B::ZERO
    } else {
        let c = checkers.lsb();
        if checker_leaps(c) {
            B::bit(c)
        } else {
            B::bit(c) | s.tables.lines.between(s.ksq, c)
        }
    }
}

/// Our pieces pinned to our King by `snipers` (enemy sliders that see the
/// King's square along a line on an empty board), each with the squares it
/// may move to in `pins` (filled here, not returned: a returned list would
/// be copied whole); returns the pinned pieces.
#[inline(always)]
pub fn pins<B: Bitboard, const S: usize>(s: &Side<B, S>, snipers: B, pins: &mut Pins<B>) -> B {
    let mut pinned = B::ZERO;
    for sn in snipers.iter() {
        let between = s.tables.lines.between(s.ksq, sn);
        let blockers = between & s.occ;
        if blockers.any() && !blockers.more_than_one() && (blockers & s.own).any() {
            let p = blockers.lsb();
            let line = between | B::bit(sn);
            if !pinned.has(p) {
                pinned |= B::bit(p);
                let _ = pins.try_push((p, line));
            } else if let Some(e) = pins.iter_mut().find(|e| e.0 == p) {
                // pinned from two lines: it may not move
                e.1 &= line;
            }
        }
    }
    pinned
}

/// Appends a move to each target; a pawn reaching its promotion zone gets
/// one move per promotion piece.
#[inline(always)]
pub fn push_moves<B: Bitboard, const S: usize>(
    s: &Side<B, S>,
    list: &mut MoveList,
    from: Sq,
    targets: B,
    pawn: bool,
) {
    if pawn && (targets & s.promo_zone).any() {
        for to in targets.iter() {
            if s.promo_zone.has(to) {
                for &p in s.promo_types {
                    let _ = list.try_push(Move::new(from, to, MoveKind::Promotion, p));
                }
            } else {
                let _ = list.try_push(Move::normal(from, to));
            }
        }
    } else {
        for to in targets.iter() {
            let _ = list.try_push(Move::normal(from, to));
        }
    }
}

/// The moves of every piece but the King, restricted to `mask` and to the
/// pin lines of the pieces `snipers` pin (a quiet promotion is noisy).
#[inline(always)]
pub fn piece_moves<B: Bitboard, const S: usize>(
    s: &Side<B, S>,
    kind: GenType,
    mask: B,
    snipers: B,
    list: &mut MoveList,
    pieces: impl Fn(usize) -> B,
) {
    let mut pin_lines = Pins::new();
    let pinned = pins(s, snipers, &mut pin_lines);
    let any_pinned = pinned.any();
    let zone = s.promo_zone;
    for t in 1..s.num_types {
        let mut pcs = pieces(t);
        let is_pawn = t == PAWN;
        while pcs.any() {
            let from = pcs.pop_lsb();
            let (quiet, capt, _) = s.tables.targets(s.us, t, from, s.occ);
            let mut allow = mask;
            if any_pinned && pinned.has(from) {
                allow &= pin_lines
                    .iter()
                    .find(|e| e.0 == from)
                    .map(|e| e.1)
                    .unwrap_or(B::ZERO);
            }
            let quiet = quiet & allow;
            let capt = capt & s.capturable & allow;
            let targets = match (kind, is_pawn) {
                (GenType::All, _) => quiet | capt,
                (GenType::Noisy, true) => capt | (quiet & zone),
                (GenType::Quiet, true) => quiet & !zone,
                (GenType::Noisy, false) => capt,
                (GenType::Quiet, false) => quiet,
            };
            push_moves(s, list, from, targets, is_pawn);
        }
    }
}

/// The King's moves to squares `attacked(square, occupancy)` says no
/// enemy attacks once the King has left its square.
#[inline(always)]
pub fn king_moves<B: Bitboard, const S: usize>(
    s: &Side<B, S>,
    kind: GenType,
    list: &mut MoveList,
    attacked: impl Fn(Sq, B) -> bool,
) {
    let (quiet_ok, noisy_ok) = wants(kind);
    let (kq, kc, _) = s.tables.targets(s.us, KING, s.ksq, s.occ);
    let mut kt = B::ZERO;
    if quiet_ok {
        kt |= kq;
    }
    if noisy_ok {
        kt |= kc & s.capturable;
    }
    let occ_wo_king = s.occ ^ B::bit(s.ksq);
    for to in kt.iter() {
        if !attacked(to, occ_wo_king) {
            let _ = list.try_push(Move::normal(s.ksq, to));
        }
    }
}

/// Whether a castling move whose rights stand is legal now (the side not
/// in check): its squares empty, the squares the King passes and lands on
/// not attacked.
#[inline]
pub fn may_castle<B: Bitboard>(c: &Castle<B>, occ: B, attacked: impl Fn(Sq, B) -> bool) -> bool {
    if (occ & c.empty).any() || c.passes.iter().any(|s| attacked(s, occ)) {
        return false;
    }
    let after =
        (occ ^ B::bit(c.king_from) ^ B::bit(c.rook_from)) | B::bit(c.king_to) | B::bit(c.rook_to);
    !attacked(c.king_to, after)
}
