//! Putting pieces on squares and taking them off, as both families'
//! positions do it (bitboards, mailbox, King squares and hash kept by
//! each position), and the moves built from those two steps.

use crate::geometry::Sq;
use crate::variant::KING;

/// The squares of a castling move: King from, King to, Rook from, Rook to.
#[derive(Clone, Copy, Debug)]
pub struct CastleSquares {
    pub king_from: Sq,
    pub king_to: Sq,
    pub rook_from: Sq,
    pub rook_to: Sq,
}

impl CastleSquares {
    /// The same move played backwards (for unmake).
    pub fn back(self) -> CastleSquares {
        CastleSquares {
            king_from: self.king_to,
            king_to: self.king_from,
            rook_from: self.rook_to,
            rook_to: self.rook_from,
        }
    }
}

impl<B> crate::variant::Castle<B> {
    pub fn squares(&self) -> CastleSquares {
        CastleSquares {
            king_from: self.king_from,
            king_to: self.king_to,
            rook_from: self.rook_from,
            rook_to: self.rook_to,
        }
    }
}

/// A position's two placement steps.
pub trait Placement {
    /// Puts a piece of `owner` and type `t` on the empty square `sq`.
    fn put(&mut self, owner: usize, t: usize, sq: Sq);
    /// Takes that piece off `sq`.
    fn remove(&mut self, owner: usize, t: usize, sq: Sq);
    /// The type of the piece on the occupied square `sq`.
    fn type_on(&self, sq: Sq) -> usize;

    /// Moves `us`'s King and Rook for a castling move (both lifted before
    /// either lands, so their squares may overlap).
    #[inline(always)]
    fn castle(&mut self, us: usize, c: CastleSquares) {
        let rook_t = self.type_on(c.rook_from);
        self.remove(us, KING, c.king_from);
        self.remove(us, rook_t, c.rook_from);
        self.put(us, KING, c.king_to);
        self.put(us, rook_t, c.rook_to);
    }
}
