//! Static exchange evaluation on any board: the swap algorithm over the
//! generic attack detection (x-rays appear as pieces leave the occupancy).

use crate::base::{Move, MoveKind};
use crate::bitboard::Bitboard;
use crate::eval::EvalTables;
use crate::position::Position;
use crate::variant::KING;

/// Value used by the exchange: the middlegame value, the King last.
#[inline]
fn see_value<B: Bitboard>(t: &EvalTables<B>, ty: usize) -> i32 {
    if ty == KING { 20000 } else { t.value[ty][0] }
}

/// Whether the exchange started by `m` gains at least `threshold`.
pub fn see_ge<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, m: Move, threshold: i32) -> bool {
    match m.kind() {
        MoveKind::Normal => {}
        MoveKind::Castle => return threshold <= 0,
        // promotions and en passant: assume the plain gain
        _ => return threshold <= 0 || m.kind() == MoveKind::Promotion,
    }
    let from = m.from();
    let to = m.to();
    let captured = pos
        .piece_at(to)
        .map(|(_, ty)| see_value(t, ty))
        .unwrap_or(0);
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    let Some((us, mover)) = pos.piece_at(from) else {
        return false;
    };
    swap = see_value(t, mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ B::bit(from) ^ B::bit(to);
    let mut stm = us;
    let mut attackers = (pos.attackers(to, occ, 0) | pos.attackers(to, occ, 1)) & occ;
    let mut res = true;
    let order = &t.see_order;
    loop {
        stm ^= 1;
        let mine = attackers & pos.color_bb(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        // least valuable attacker
        let mut picked = None;
        for &ty in order.iter() {
            let bb = mine & pos.type_bb(ty);
            if bb.any() {
                picked = Some((ty, bb.lsb()));
                break;
            }
        }
        let Some((ty, sq)) = picked else { break };
        if ty == KING {
            // the King may only capture if nothing defends
            if (attackers & pos.color_bb(stm ^ 1)).any() {
                res = !res;
            }
            break;
        }
        swap = see_value(t, ty) - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= B::bit(sq);
        attackers = pos.attackers_both(to, occ);
    }
    res
}
