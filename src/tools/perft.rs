//! Perft: the number of leaf nodes of the legal move tree, the standard
//! check of a move generator against other engines; one count for both
//! families (two-player positions and four-player ones, which count a
//! node without moves as 0: RULES.md, no elimination logic).

use crate::base::GenType;
use crate::base::{Move, MoveList};
use crate::bitboard::Bitboard;
use crate::fourplayer::Position4;
use crate::position::Position;

/// What perft needs of a position.
pub trait PerftPosition {
    /// The legal moves, into `list`.
    fn legal_into(&self, list: &mut MoveList);
    fn make(&mut self, m: Move);
    fn unmake(&mut self);
    /// The move's name in the game's notation.
    fn move_name(&self, m: Move) -> String;
}

impl<B: Bitboard> PerftPosition for Position<B> {
    #[inline]
    fn legal_into(&self, list: &mut MoveList) {
        self.generate(GenType::All, list);
    }
    #[inline]
    fn make(&mut self, m: Move) {
        Position::make(self, m);
    }
    #[inline]
    fn unmake(&mut self) {
        Position::unmake(self);
    }
    fn move_name(&self, m: Move) -> String {
        self.move_to_string(m)
    }
}

impl PerftPosition for Position4 {
    #[inline]
    fn legal_into(&self, list: &mut MoveList) {
        self.generate(GenType::All, list);
    }
    #[inline]
    fn make(&mut self, m: Move) {
        Position4::make(self, m);
    }
    #[inline]
    fn unmake(&mut self) {
        Position4::unmake(self);
    }
    fn move_name(&self, m: Move) -> String {
        self.move_to_string(m)
    }
}

/// Leaf count at `depth` (moves at depth 1 are counted, not made).
pub fn perft<P: PerftPosition>(pos: &mut P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // generated in place: a returned list would be copied (4 KB) per node
    let mut moves = MoveList::new();
    pos.legal_into(&mut moves);
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

/// Per root move: (move name, leaf count).
pub fn divide<P: PerftPosition>(pos: &mut P, depth: u32) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    pos.legal_into(&mut moves);
    let mut out = Vec::new();
    for &m in moves.iter() {
        let name = pos.move_name(m);
        pos.make(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake();
        out.push((name, n));
    }
    out
}

/// Runs perft for the command line: with `divide`, a line `move: count`
/// per root move on `out` first; logs the speed; returns the leaf count.
pub fn run<P: PerftPosition>(out: &crate::out::Out, pos: &mut P, depth: u32, divide: bool) -> u64 {
    let start = std::time::Instant::now();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        for (m, n) in self::divide(pos, depth) {
            out.line(&format!("{m}: {n}"));
            total += n;
        }
        total
    } else {
        perft(pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {nodes} nodes in {secs:.3} s ({:.0} nodes/s)",
        nodes as f64 / secs.max(1e-9)
    );
    nodes
}
