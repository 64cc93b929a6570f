//! Perft: the number of leaf nodes of the legal move tree, the standard
//! check of a move generator against other engines.

use crate::bitboard::Bitboard;
use crate::position::movegen::GenType;
use crate::position::{MoveList, Position};

/// Leaf count at `depth` (moves at depth 1 are counted, not made).
pub fn perft<B: Bitboard>(pos: &mut Position<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // generated in place: a returned list would be copied (4 KB) per node
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
pub fn divide<B: Bitboard>(pos: &mut Position<B>, depth: u32) -> Vec<(String, u64)> {
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
