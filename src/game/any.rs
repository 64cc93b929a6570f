//! A game of either family, as the front ends hold it: a four-player
//! `Game4` or a two-player `Game`, behind the `Rules` trait each family
//! implements once (side to move, legal moves with their squares, play a
//! token, the result, FEN/FEN4). Two-player games get resignation and loss
//! on time here, since `Game` knows only moves.

use super::two::Game;
use crate::base::Move;
use crate::fourplayer::game::Game4;
use crate::fourplayer::variant::LETTERS;
use crate::fourplayer::{PLAYER_NAMES, Position4};
use crate::position::san::to_san;
use crate::variant::armies::Army;
use crate::with_position;

/// A two-player game and how it ended outside the rules (resign, time).
#[derive(Clone)]
pub struct TwoGame {
    pub game: Game,
    /// (result, reason) of a resignation or a loss on time
    pub ended: Option<(String, String)>,
}

/// A game of either family.
#[derive(Clone)]
pub enum AnyGame {
    Four(Game4),
    Two(TwoGame),
}

/// A legal move as the page needs it.
pub struct Legal {
    pub from: String,
    pub to: String,
    /// the promotion piece's letter, upper case
    pub promo: Option<char>,
    /// the move in the notation `play` reads
    pub token: String,
}

/// One event of a game as played: what `play` took, what a record shows,
/// who played it, and its squares (for the last-move marks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub token: String,
    pub text: String,
    pub seat: usize,
    pub squares: Option<(String, String)>,
}

pub const TWO_NAMES: [&str; 2] = ["White", "Black"];

/// What a front end asks of a game, whichever its family: each family
/// answers once, here, and `AnyGame` passes the question on.
pub trait Rules {
    /// The variant's name (PROTOCOLS.md).
    fn variant(&self) -> String;
    fn players(&self) -> usize;
    fn player_name(&self, p: usize) -> &'static str;
    /// The seat to move.
    fn side(&self) -> usize;
    /// (result, reason) once the game is over.
    fn outcome(&self) -> Option<(String, String)>;
    /// The position as FEN4 or FEN.
    fn fen(&self) -> String;
    /// The legal moves of the side to move.
    fn legal_moves(&self) -> Vec<Legal>;
    /// Plays a move (any notation the game reads), or `R` (the side to
    /// move resigns) or `T` (it loses on time); the game is not over.
    fn play_token(&mut self, token: &str) -> Result<Entry, String>;
    /// The last move played (for the marks on the board).
    fn last_move(&self) -> Option<Move>;
    /// The same game at its root (no moves played).
    fn at_root(&self) -> AnyGame;
}

impl Rules for Game4 {
    fn variant(&self) -> String {
        self.mode().name().to_string()
    }
    fn players(&self) -> usize {
        4
    }
    fn player_name(&self, p: usize) -> &'static str {
        PLAYER_NAMES[p.min(3)]
    }
    fn side(&self) -> usize {
        self.position().side()
    }
    fn outcome(&self) -> Option<(String, String)> {
        Game4::outcome(self).map(|o| (o.result(), o.reason().to_string()))
    }
    fn fen(&self) -> String {
        self.position().to_fen4()
    }
    fn legal_moves(&self) -> Vec<Legal> {
        let p = self.position();
        let shape = &p.v.shape;
        p.legal_moves()
            .iter()
            .map(|&m| Legal {
                from: shape.name(m.from()),
                to: shape.name(m.to()),
                promo: Position4::promotion_of(m).map(|t| LETTERS[t]),
                token: p.move_to_string(m),
            })
            .collect()
    }
    fn play_token(&mut self, token: &str) -> Result<Entry, String> {
        let seat = self.position().side();
        let (token, squares) = match token {
            "R" | "T" => (token.to_string(), None),
            t => {
                let p = self.position();
                let m = p.parse_move(t).map_err(|e| e.to_string())?;
                let squares = (p.v.shape.name(m.from()), p.v.shape.name(m.to()));
                (p.move_to_string(m), Some(squares))
            }
        };
        self.play(&token)?;
        let (_, _, text) = self.log().last().cloned().expect("an event was logged");
        Ok(Entry {
            token,
            text,
            seat,
            squares,
        })
    }
    fn last_move(&self) -> Option<Move> {
        self.log().iter().rev().find_map(|(_, e, _)| match e {
            crate::fourplayer::game::Event::Move(m) => Some(*m),
            _ => None,
        })
    }
    fn at_root(&self) -> AnyGame {
        AnyGame::Four(Game4::new(self.root().clone()))
    }
}

impl Rules for TwoGame {
    fn variant(&self) -> String {
        self.game.variant().to_string()
    }
    fn players(&self) -> usize {
        2
    }
    fn player_name(&self, p: usize) -> &'static str {
        TWO_NAMES[p.min(1)]
    }
    fn side(&self) -> usize {
        self.game.side()
    }
    fn outcome(&self) -> Option<(String, String)> {
        self.ended.clone().or_else(|| {
            self.game
                .outcome()
                .map(|o| (o.result().to_string(), o.reason().to_string()))
        })
    }
    fn fen(&self) -> String {
        self.game.fen()
    }
    fn legal_moves(&self) -> Vec<Legal> {
        let shape = &self.game.spec().shape;
        let pieces = &self.game.spec().pieces;
        self.game
            .legal_moves()
            .into_iter()
            .map(|m| Legal {
                from: shape.name(m.from()),
                to: shape.name(m.to()),
                promo: m.promotion().map(|p| pieces[p].letter.to_ascii_uppercase()),
                token: self.game.name(m),
            })
            .collect()
    }
    fn play_token(&mut self, token: &str) -> Result<Entry, String> {
        let seat = self.game.side();
        if token == "R" || token == "T" {
            let winner = 1 - seat;
            let result = if winner == 0 { "1-0" } else { "0-1" };
            let reason = if token == "R" {
                format!("{} resigns", TWO_NAMES[seat])
            } else {
                format!("{} loses on time", TWO_NAMES[seat])
            };
            self.ended = Some((result.into(), reason));
            return Ok(Entry {
                token: token.into(),
                text: token.into(),
                seat,
                squares: None,
            });
        }
        let m = read_two(&self.game, token)?;
        let text = with_position!(self.game.position(), p => to_san(p, m));
        let shape = &self.game.spec().shape;
        let squares = Some((shape.name(m.from()), shape.name(m.to())));
        let name = self.game.name(m);
        self.game.play_move(m).map_err(|e| e.to_string())?;
        Ok(Entry {
            token: name,
            text,
            seat,
            squares,
        })
    }
    fn last_move(&self) -> Option<Move> {
        self.game.moves().last().copied()
    }
    fn at_root(&self) -> AnyGame {
        let mut game = self.game.clone();
        game.undo(game.moves().len());
        AnyGame::Two(TwoGame { game, ended: None })
    }
}

impl AnyGame {
    /// The start position of a variant by its name (`fourplayer-teams`
    /// with a layout, `chess`, `omega`, `cwda-<w>-<b>`).
    pub fn new(variant: &str, layout: &str) -> Result<AnyGame, String> {
        AnyGame::with_armies(variant, layout, &[])
    }

    /// The same, the armies of `armies` files known besides the built-in.
    pub fn with_armies(variant: &str, layout: &str, armies: &[Army]) -> Result<AnyGame, String> {
        if let Some(mode) = super::Family::of(variant).four() {
            let layout = crate::fourplayer::Layout::from_name(layout)
                .ok_or_else(|| format!("unknown layout '{layout}' (4PCo or 4PC)"))?;
            let v = std::sync::Arc::new(crate::fourplayer::Variant4::new(mode));
            return Ok(AnyGame::Four(Game4::new(Position4::startpos(v, layout))));
        }
        let game = Game::new(variant, armies)?;
        Ok(AnyGame::Two(TwoGame { game, ended: None }))
    }

    /// The game's rules, whichever its family (the one place that asks).
    pub fn rules(&self) -> &dyn Rules {
        match self {
            AnyGame::Four(g) => g,
            AnyGame::Two(t) => t,
        }
    }

    fn rules_mut(&mut self) -> &mut dyn Rules {
        match self {
            AnyGame::Four(g) => g,
            AnyGame::Two(t) => t,
        }
    }

    pub fn at_root(&self) -> AnyGame {
        self.rules().at_root()
    }
    pub fn variant(&self) -> String {
        self.rules().variant()
    }
    pub fn players(&self) -> usize {
        self.rules().players()
    }
    pub fn player_name(&self, p: usize) -> &'static str {
        self.rules().player_name(p)
    }
    pub fn side(&self) -> usize {
        self.rules().side()
    }
    pub fn outcome(&self) -> Option<(String, String)> {
        self.rules().outcome()
    }
    pub fn fen(&self) -> String {
        self.rules().fen()
    }
    pub fn last_move(&self) -> Option<Move> {
        self.rules().last_move()
    }

    /// The legal moves of the side to move (none once the game is over).
    pub fn legal(&self) -> Vec<Legal> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.rules().legal_moves()
    }

    /// Plays a move (any notation the game reads), or `R` (the side to
    /// move resigns) or `T` (it loses on time); returns the entry.
    pub fn play(&mut self, token: &str) -> Result<Entry, String> {
        if let Some((_, reason)) = self.outcome() {
            return Err(format!("the game is over ({reason})"));
        }
        self.rules_mut().play_token(token.trim())
    }
}

/// Reads a two-player move in engine coordinates (`e2e4`, `e10e11q`) or
/// SAN (`Nf3`, `O-O`, `e8=Q`).
pub fn read_two(game: &Game, token: &str) -> Result<Move, String> {
    match game.parse(token) {
        Ok(m) => Ok(m),
        Err(e) => {
            let san = with_position!(game.position(), p => {
                crate::position::san::parse_san(p, token)
            });
            san.ok_or_else(|| e.to_string())
        }
    }
}

/// Replays entries' tokens on a game at its root; errors name the move.
pub fn replay(root: &AnyGame, tokens: &[String]) -> Result<(AnyGame, Vec<Entry>), String> {
    let mut g = root.clone();
    let mut entries = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let e = g
            .play(t)
            .map_err(|e| format!("move {} '{t}': {e}", i + 1))?;
        entries.push(e);
    }
    Ok((g, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_families_play_and_end() {
        let mut four = AnyGame::new("fourplayer-teams", "4PC").unwrap();
        assert_eq!(four.players(), 4);
        assert_eq!(four.legal().len(), 20, "the 4PC start has 20 moves");
        let e = four.play("h2h3").unwrap();
        assert_eq!((e.token.as_str(), e.seat), ("h2-h3", 0));
        assert!(four.play("h2-h3").is_err());
        four.play("R").unwrap();
        assert_eq!(
            four.outcome().unwrap().0,
            "1-0",
            "Blue resigned for its team"
        );
        let mut two = AnyGame::new("omega", "").unwrap();
        assert!(two.play("e3e7").is_err(), "four squares is too far");
        let e = two.play("e3e6").unwrap();
        assert_eq!((e.token.as_str(), e.text.as_str()), ("e3e6", "e6"));
        two.play("R").unwrap();
        assert_eq!(two.outcome().unwrap().0, "1-0");
        assert!(two.play("e10e9").is_err());
        assert_eq!(
            two.at_root().fen(),
            AnyGame::new("omega", "").unwrap().fen()
        );
    }
}
