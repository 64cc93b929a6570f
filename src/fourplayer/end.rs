//! How a four-player game ends by the rules (RULES.md section 3), read by
//! the game, which declares the end, and by the search, which scores it:
//! the draws, and who is credited with a mate.

use super::position::Position4;
use super::variant::KING;
use crate::bitboard::Bitboard;

/// A draw by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    Repetition,
    FiftyMoves,
    BareKings,
}

impl Draw {
    /// The reason as the game states it.
    pub fn reason(self) -> &'static str {
        match self {
            Draw::Repetition => "threefold repetition",
            Draw::FiftyMoves => "50-move rule",
            Draw::BareKings => "only Kings are left",
        }
    }
}

/// The draw in `pos`, if any: the position seen `repeated` times before
/// (the game: 2, threefold; the search: 1, as a repetition can be forced
/// again), 50 moves of every player still in the game without a capture
/// or a pawn move, or nothing but Kings left to those players.
pub fn draw(pos: &Position4, repeated: usize) -> Option<Draw> {
    let live = pos.live_mask();
    let players = live.count_ones().max(1);
    if pos.repetitions() >= repeated {
        Some(Draw::Repetition)
    } else if pos.halfmove_clock() >= 50 * players {
        Some(Draw::FiftyMoves)
    } else if (pos.players_bb(live) & !pos.type_bb(KING)).is_empty() {
        Some(Draw::BareKings)
    } else {
        None
    }
}

/// The player credited with a mate of the side to move: of those whose
/// pieces check it, the one who moved most recently.
pub fn mater(pos: &Position4) -> Option<usize> {
    let us = pos.side();
    let checkers = pos.checkers();
    (1..4)
        .map(|k| (us + 4 - k) % 4)
        .find(|&q| (checkers & pos.color_bb(q)).any())
}
