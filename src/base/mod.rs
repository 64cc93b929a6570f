//! What every family of games shares, below the rules of any: moves and
//! move lists, and the byte a mailbox holds for a piece.

pub mod moves;
pub mod piece;

pub use moves::{GenType, MAX_MOVES, Move, MoveError, MoveKind, MoveList};
