//! Setting up a position from text: variant name, FEN, moves. The board's
//! size picks the bitboard width; `AnyPosition` carries either.

use std::sync::Arc;

use crate::position::Position;
use crate::variant::armies::Army;
use crate::variant::{Variant, VariantSpec};

/// A position on a `u64` or a `u128` bitboard.
#[derive(Clone)]
pub enum AnyPosition {
    Small(Position<u64>),
    Large(Position<u128>),
}

/// Runs an expression on the position inside an `AnyPosition`, whatever its
/// bitboard width.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::setup::AnyPosition::Small($p) => $body,
            $crate::setup::AnyPosition::Large($p) => $body,
        }
    };
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

fn build<B: crate::bitboard::Bitboard>(
    spec: VariantSpec,
    fen: Option<&str>,
    moves: &[&str],
) -> Result<Position<B>, String> {
    let v = Arc::new(Variant::<B>::new(spec)?);
    let mut pos = match fen {
        Some(f) => Position::from_fen(v, f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(v),
    };
    for m in moves {
        let mv = pos.parse_move(m).map_err(|e| e.to_string())?;
        pos.make(mv);
    }
    Ok(pos)
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
        Ok(AnyPosition::Small(build(spec, fen, moves)?))
    } else {
        Ok(AnyPosition::Large(build(spec, fen, moves)?))
    }
}
