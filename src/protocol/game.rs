//! A game as the protocols see it: a variant, a root position (its start or
//! a FEN) and the moves played since, in engine notation. The current
//! position keeps the repetition history of the game; `undo` replays the
//! moves from the root.

use crate::position::Position;
use crate::position::notation::MoveError;
use crate::position::outcome::Outcome;
use crate::setup::{AnyPosition, Width, setup};
use crate::variant::VariantSpec;
use crate::variant::armies::Army;
use crate::with_position;

#[derive(Clone)]
pub struct Game {
    name: String,
    root: AnyPosition,
    moves: Vec<String>,
    pos: AnyPosition,
}

impl Game {
    /// The start position of a variant (`chess`, `omega`, `cwda-<w>-<b>`).
    pub fn new(variant: &str, user_armies: &[Army]) -> Result<Game, String> {
        let root = setup(variant, None, &[], user_armies, Width::Auto)?;
        Ok(Game {
            name: with_position!(&root, p => p.v.spec.name.clone()),
            pos: root.clone(),
            root,
            moves: Vec::new(),
        })
    }

    /// The same variant from a FEN (the game starts there).
    pub fn with_fen(&self, fen: &str) -> Result<Game, String> {
        let root = match &self.root {
            AnyPosition::Small(p) => AnyPosition::Small(Position::from_fen(p.v.clone(), fen)?),
            AnyPosition::Large(p) => AnyPosition::Large(Position::from_fen(p.v.clone(), fen)?),
        };
        Ok(Game {
            name: self.name.clone(),
            pos: root.clone(),
            root,
            moves: Vec::new(),
        })
    }

    /// The same variant from its start position.
    pub fn restart(&self) -> Game {
        let root = match &self.root {
            AnyPosition::Small(p) => AnyPosition::Small(Position::startpos(p.v.clone())),
            AnyPosition::Large(p) => AnyPosition::Large(Position::startpos(p.v.clone())),
        };
        Game {
            name: self.name.clone(),
            pos: root.clone(),
            root,
            moves: Vec::new(),
        }
    }

    /// The variant's name (`chess`, `omega`, `cwda-nutty-clobberers`).
    pub fn variant(&self) -> &str {
        &self.name
    }

    pub fn spec(&self) -> &VariantSpec {
        with_position!(&self.pos, p => &p.v.spec)
    }

    pub fn position(&self) -> &AnyPosition {
        &self.pos
    }

    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    pub fn side(&self) -> usize {
        with_position!(&self.pos, p => p.side())
    }

    /// The side that was to move at the root.
    pub fn root_side(&self) -> usize {
        with_position!(&self.root, p => p.side())
    }

    pub fn fen(&self) -> String {
        with_position!(&self.pos, p => p.to_fen())
    }

    /// Board width and height (of the frame, holes included).
    pub fn files_ranks(&self) -> (usize, usize) {
        let s = &self.spec().shape;
        (s.files, s.ranks)
    }

    /// Reads a move in engine or XBoard notation and returns it in engine
    /// notation, without playing it.
    pub fn normalize(&self, mv: &str) -> Result<String, MoveError> {
        with_position!(&self.pos, p => p.parse_move(mv).map(|m| p.move_to_string(m)))
    }

    /// Plays a move; returns it in engine notation.
    pub fn play(&mut self, mv: &str) -> Result<String, MoveError> {
        let s = with_position!(&mut self.pos, p => {
            let m = p.parse_move(mv)?;
            let s = p.move_to_string(m);
            p.make(m);
            p.clear_stack();
            s
        });
        self.moves.push(s.clone());
        Ok(s)
    }

    /// Takes back up to `n` moves; returns how many were taken back.
    pub fn undo(&mut self, n: usize) -> usize {
        let n = n.min(self.moves.len());
        if n == 0 {
            return 0;
        }
        let keep = self.moves.len() - n;
        let moves: Vec<String> = self.moves[..keep].to_vec();
        self.pos = self.root.clone();
        self.moves.clear();
        for m in &moves {
            self.play(m).expect("a move of the game replays");
        }
        n
    }

    /// The legal moves in engine notation.
    pub fn legal_moves(&self) -> Vec<String> {
        with_position!(&self.pos, p => p.legal_moves().iter().map(|&m| p.move_to_string(m)).collect())
    }

    /// The game's result if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        with_position!(&self.pos, p => p.outcome())
    }

    /// Moves made by `side` since the root (for `level` time controls).
    pub fn moves_by(&self, side: usize) -> usize {
        let first = self.root_side();
        let n = self.moves.len();
        if side == first { n.div_ceil(2) } else { n / 2 }
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        with_position!(&self.pos, p => p.in_check())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_undo_and_repetition() {
        let mut g = Game::new("chess", &[]).unwrap();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
            g.play(m).unwrap();
        }
        assert_eq!(g.outcome(), None);
        g.play("f6g8").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Repetition));
        assert_eq!(g.undo(2), 2);
        assert_eq!(g.moves().len(), 6);
        assert_eq!(g.outcome(), None);
        assert!(matches!(g.play("e2e5"), Err(MoveError::Illegal(_))));
        assert!(matches!(g.play("zz"), Err(MoveError::Unparsable(_))));
        assert_eq!(g.moves().len(), 6);
        assert_eq!(g.moves_by(0), 3);
    }

    #[test]
    fn large_board_moves() {
        let g = Game::new("omega", &[]).unwrap();
        let mut g = g
            .with_fen(
                "w**********w/*c9*/*1p1P6*/*10*/*9k*/*10*/*10*/*10*/*10*/*10*/*5K4*/W**********W w - - 0 1",
            )
            .unwrap();
        assert_eq!(g.play("e10e11q").unwrap(), "e10e11q");
        assert_eq!(g.play("b11b10").unwrap(), "b11b10");
        assert_eq!(g.files_ranks(), (12, 12));
    }
}
