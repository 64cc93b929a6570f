//! Four-player perft: legal moves only, strict turn order, a node without
//! moves counts 0 (RULES.md: no elimination logic).

use super::Position4;
use crate::position::MoveList;
use crate::position::movegen::GenType;

/// Leaf count at `depth` (moves at depth 1 are counted, not made).
pub fn perft(pos: &mut Position4, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate(GenType::All, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for &m in moves.iter() {
        pos.make(m);
        n += perft(pos, depth - 1);
        pos.unmake();
    }
    n
}

/// Per root move: (move text, leaf count).
pub fn divide(pos: &mut Position4, depth: u32) -> Vec<(String, u64)> {
    let moves = pos.legal_moves();
    let mut out = Vec::new();
    for &m in moves.iter() {
        let name = pos.move_to_string(m);
        pos.make(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake();
        out.push((name, n));
    }
    out
}
