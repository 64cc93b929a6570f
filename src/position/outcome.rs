//! The end of a game: checkmate, stalemate, the 50-move rule, threefold
//! repetition, insufficient material (per the variant's list).

use super::Position;
use crate::bitboard::Bitboard;
use crate::variant::{BLACK, WHITE};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Checkmate { winner: usize },
    Stalemate,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
}

impl Outcome {
    /// PGN result: `1-0`, `0-1`, `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self {
            Outcome::Checkmate { winner: WHITE } => "1-0",
            Outcome::Checkmate { .. } => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// The reason as XBoard shows it.
    pub fn reason(&self) -> &'static str {
        match self {
            Outcome::Checkmate { winner: WHITE } => "White mates",
            Outcome::Checkmate { .. } => "Black mates",
            Outcome::Stalemate => "Stalemate",
            Outcome::FiftyMoves => "50-move rule",
            Outcome::Repetition => "3-fold repetition",
            Outcome::InsufficientMaterial => "Insufficient material",
        }
    }
}

impl<B: Bitboard> Position<B> {
    /// The material of one side as sorted letters (upper case), e.g. "BK".
    pub fn material_string(&self, color: usize) -> String {
        let mut v: Vec<char> = Vec::new();
        for t in 0..self.v.num_types() {
            let n = self.pieces(color, t).count();
            for _ in 0..n {
                v.push(self.v.pieces[t].letter);
            }
        }
        v.sort();
        v.into_iter().collect()
    }

    /// Neither side can mate, by the variant's list.
    pub fn insufficient_material(&self) -> bool {
        let (w, b) = (self.color_bb(WHITE).count(), self.color_bb(BLACK).count());
        let strong = match (w, b) {
            (1, _) => BLACK,
            (_, 1) => WHITE,
            _ => return false,
        };
        let n = self.v.num_types();
        self.v
            .insufficient
            .iter()
            .any(|counts| (0..n).all(|t| self.pieces(strong, t).count() == counts[t] as u32))
    }

    /// The game's result if it is over in this position.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.legal_moves().is_empty() {
            return Some(if self.in_check() {
                Outcome::Checkmate {
                    winner: self.side() ^ 1,
                }
            } else {
                Outcome::Stalemate
            });
        }
        if self.halfmove_clock() >= 100 {
            return Some(Outcome::FiftyMoves);
        }
        if self.repetitions() >= 2 {
            return Some(Outcome::Repetition);
        }
        if self.insufficient_material() {
            return Some(Outcome::InsufficientMaterial);
        }
        None
    }
}
