//! Setting up a position from text: variant name, FEN, moves. The board's
//! size picks the bitboard width.
//!
//! This module is the one place that knows there are two widths (`u64` for
//! boards of up to 64 squares, `u128` for larger ones): `BoardWidth` is
//! implemented for both, `Any` holds a value of either, and `with_position!`
//! runs generic code on what an `Any` holds. Everything else is generic over
//! `B: BoardWidth` or takes an `AnyPosition`.

use std::sync::Arc;

use crate::base::Move;
use crate::base::MoveError;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::position::outcome::Outcome;
use crate::variant::armies::Army;
use crate::variant::{Variant, VariantSpec};

/// A kind of value that exists once per bitboard width (a position, the
/// evaluation tables of a variant, ...).
pub trait Family {
    type Of<B: BoardWidth>;
}

/// A value of a family for either width.
pub enum Any<F: Family> {
    Small(F::Of<u64>),
    Large(F::Of<u128>),
}

impl<F: Family> Clone for Any<F>
where
    F::Of<u64>: Clone,
    F::Of<u128>: Clone,
{
    fn clone(&self) -> Self {
        match self {
            Any::Small(x) => Any::Small(x.clone()),
            Any::Large(x) => Any::Large(x.clone()),
        }
    }
}

/// A bitboard width the engine is built for.
pub trait BoardWidth: Bitboard {
    /// Wraps a value of this width.
    fn wrap<F: Family>(x: F::Of<Self>) -> Any<F>;
    /// The value of this width that `any` holds, if it holds one.
    fn get<F: Family>(any: &Any<F>) -> Option<&F::Of<Self>>;
}

impl BoardWidth for u64 {
    fn wrap<F: Family>(x: F::Of<u64>) -> Any<F> {
        Any::Small(x)
    }
    fn get<F: Family>(any: &Any<F>) -> Option<&F::Of<u64>> {
        match any {
            Any::Small(x) => Some(x),
            Any::Large(_) => None,
        }
    }
}

impl BoardWidth for u128 {
    fn wrap<F: Family>(x: F::Of<u128>) -> Any<F> {
        Any::Large(x)
    }
    fn get<F: Family>(any: &Any<F>) -> Option<&F::Of<u128>> {
        match any {
            Any::Large(x) => Some(x),
            Any::Small(_) => None,
        }
    }
}

/// Positions, as a family.
pub struct Positions;

impl Family for Positions {
    type Of<B: BoardWidth> = Position<B>;
}

/// A position on a `u64` or a `u128` bitboard.
pub type AnyPosition = Any<Positions>;

/// Runs an expression on the value inside an `Any` (usually an
/// `AnyPosition`), whatever its bitboard width.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::setup::Any::Small($p) => $body,
            $crate::setup::Any::Large($p) => $body,
        }
    };
}

impl AnyPosition {
    /// Wraps a position of either width.
    pub fn new<B: BoardWidth>(p: Position<B>) -> AnyPosition {
        B::wrap::<Positions>(p)
    }

    /// The same variant from a FEN.
    pub fn with_fen(&self, fen: &str) -> Result<AnyPosition, String> {
        with_position!(self, p => Position::from_fen(p.v.clone(), fen).map(AnyPosition::new))
    }

    /// The same variant's start position.
    pub fn startpos(&self) -> AnyPosition {
        with_position!(self, p => AnyPosition::new(Position::startpos(p.v.clone())))
    }

    pub fn spec(&self) -> &VariantSpec {
        with_position!(self, p => &p.v.spec)
    }

    pub fn side(&self) -> usize {
        with_position!(self, p => p.side())
    }

    pub fn to_fen(&self) -> String {
        with_position!(self, p => p.to_fen())
    }

    pub fn in_check(&self) -> bool {
        with_position!(self, p => p.in_check())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_position!(self, p => p.outcome())
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        with_position!(self, p => p.legal_moves().to_vec())
    }

    /// Engine notation of a move of this variant (`e2e4`, `e10e11q`).
    pub fn move_to_string(&self, m: Move) -> String {
        with_position!(self, p => p.move_to_string(m))
    }

    /// Moves in engine notation, separated by spaces.
    pub fn moves_to_string(&self, moves: &[Move]) -> String {
        let names: Vec<String> = moves.iter().map(|&m| self.move_to_string(m)).collect();
        names.join(" ")
    }

    /// Reads a move and checks it is legal here.
    pub fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        with_position!(self, p => p.parse_move(s))
    }

    /// Plays a move that is legal here (checked).
    pub fn make_legal(&mut self, m: Move) -> Result<(), MoveError> {
        if !self.legal_moves().contains(&m) {
            return Err(MoveError::Illegal(self.move_to_string(m)));
        }
        with_position!(self, p => p.make(m));
        Ok(())
    }

    /// Forgets the moves made (keeping the repetition history).
    pub fn clear_stack(&mut self) {
        with_position!(self, p => p.clear_stack())
    }
}

/// Which bitboard width to use for a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Width {
    /// u64 where the board fits, else u128
    #[default]
    Auto,
    /// u128 always (for measurements)
    Wide,
}

fn build<B: BoardWidth>(
    spec: VariantSpec,
    fen: Option<&str>,
    moves: &[&str],
) -> Result<AnyPosition, String> {
    let v = Arc::new(Variant::<B>::new(spec)?);
    let mut pos = match fen {
        Some(f) => Position::from_fen(v, f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(v),
    };
    for m in moves {
        let mv = pos.parse_move(m).map_err(|e| e.to_string())?;
        pos.make(mv);
    }
    Ok(AnyPosition::new(pos))
}

/// Sets up a position: the variant's start or `fen`, then `moves`.
pub fn setup(
    variant: &str,
    fen: Option<&str>,
    moves: &[&str],
    armies: &[Army],
    width: Width,
) -> Result<AnyPosition, String> {
    let spec = VariantSpec::by_name(variant, armies)?;
    if spec.shape.num_squares() <= 64 && width == Width::Auto {
        build::<u64>(spec, fen, moves)
    } else {
        build::<u128>(spec, fen, moves)
    }
}
