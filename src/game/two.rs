//! A game as the protocols see it: a variant, a root position (its start or
//! a FEN) and the moves played since. The current position keeps the
//! repetition history of the game; `undo` replays the moves from the root.

use crate::base::Move;
use crate::base::MoveError;
use crate::position::outcome::Outcome;
use crate::setup::{AnyPosition, Width, setup};
use crate::variant::VariantSpec;
use crate::variant::armies::Army;

#[derive(Clone)]
pub struct Game {
    root: AnyPosition,
    moves: Vec<Move>,
    pos: AnyPosition,
}

impl Game {
    /// The start position of a variant (`chess`, `omega`, `cwda-<w>-<b>`).
    pub fn new(variant: &str, user_armies: &[Army]) -> Result<Game, String> {
        let root = setup(variant, None, &[], user_armies, Width::Auto)?;
        Ok(Game::from_root(root))
    }

    fn from_root(root: AnyPosition) -> Game {
        Game {
            pos: root.clone(),
            root,
            moves: Vec::new(),
        }
    }

    /// The same variant from a FEN (the game starts there).
    pub fn with_fen(&self, fen: &str) -> Result<Game, String> {
        Ok(Game::from_root(self.root.with_fen(fen)?))
    }

    /// The same variant from its start position.
    pub fn restart(&self) -> Game {
        Game::from_root(self.root.startpos())
    }

    /// The variant's name (`chess`, `omega`, `cwda-nutty-clobberers`).
    pub fn variant(&self) -> &str {
        &self.spec().name
    }

    pub fn spec(&self) -> &VariantSpec {
        self.pos.spec()
    }

    pub fn position(&self) -> &AnyPosition {
        &self.pos
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn side(&self) -> usize {
        self.pos.side()
    }

    /// The side that was to move at the root.
    pub fn root_side(&self) -> usize {
        self.root.side()
    }

    pub fn fen(&self) -> String {
        self.pos.to_fen()
    }

    /// Board width and height (of the frame, holes included).
    pub fn files_ranks(&self) -> (usize, usize) {
        let s = &self.spec().shape;
        (s.files, s.ranks)
    }

    /// Reads a move in engine or XBoard notation and checks it is legal
    /// here, without playing it.
    pub fn parse(&self, mv: &str) -> Result<Move, MoveError> {
        self.pos.parse_move(mv)
    }

    /// A move in engine notation.
    pub fn name(&self, m: Move) -> String {
        self.pos.move_to_string(m)
    }

    /// Reads and plays a move.
    pub fn play(&mut self, mv: &str) -> Result<Move, MoveError> {
        let m = self.parse(mv)?;
        self.play_move(m)?;
        Ok(m)
    }

    /// Plays a move if it is legal here.
    pub fn play_move(&mut self, m: Move) -> Result<(), MoveError> {
        self.pos.make_legal(m)?;
        self.pos.clear_stack();
        self.moves.push(m);
        Ok(())
    }

    /// Takes back up to `n` moves; returns how many were taken back.
    pub fn undo(&mut self, n: usize) -> usize {
        let n = n.min(self.moves.len());
        if n == 0 {
            return 0;
        }
        let keep = self.moves.len() - n;
        let moves: Vec<Move> = self.moves[..keep].to_vec();
        self.pos = self.root.clone();
        self.moves.clear();
        for m in moves {
            self.play_move(m).expect("a move of the game replays");
        }
        n
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.pos.legal_moves()
    }

    /// The game's result if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    /// Moves made by `side` since the root (for `level` time controls).
    pub fn moves_by(&self, side: usize) -> usize {
        let first = self.root_side();
        let n = self.moves.len();
        if side == first { n.div_ceil(2) } else { n / 2 }
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.pos.in_check()
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
        let m = g.play("e10e11q").unwrap();
        assert_eq!(g.name(m), "e10e11q");
        let m = g.play("b11b10").unwrap();
        assert_eq!(g.name(m), "b11b10");
        assert_eq!(g.files_ranks(), (12, 12));
    }

    #[test]
    fn a_move_of_another_position_is_refused() {
        let mut g = Game::new("chess", &[]).unwrap();
        let e4 = g.parse("e2e4").unwrap();
        g.play_move(e4).unwrap();
        assert!(matches!(g.play_move(e4), Err(MoveError::Illegal(_))));
        assert_eq!(g.moves().len(), 1);
    }
}
