//! The game the page shows, for either family: a four-player `Game4` or a
//! two-player `Game`, behind one set of methods (side to move, legal moves
//! with their squares, play a token, the result). Two-player games get
//! resignation and loss on time here, since `Game` knows only moves.

use crate::base::Move;
use crate::fourplayer::game::Game4;
use crate::fourplayer::variant::LETTERS;
use crate::fourplayer::{PLAYER_NAMES, Position4};
use crate::game::Game;
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

/// The game on the page.
#[derive(Clone)]
pub enum Play {
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

impl Play {
    /// The start position of a variant by its name (`fourplayer-teams`
    /// with a layout, `chess`, `omega`, `cwda-<w>-<b>`).
    pub fn new(variant: &str, layout: &str) -> Result<Play, String> {
        Play::with_armies(variant, layout, &[])
    }

    /// The same, the armies of `armies` files known besides the built-in.
    pub fn with_armies(variant: &str, layout: &str, armies: &[Army]) -> Result<Play, String> {
        if let Some(mode) = crate::fourplayer::Mode::from_name(variant) {
            let layout = crate::fourplayer::Layout::from_name(layout)
                .ok_or_else(|| format!("unknown layout '{layout}' (4PCo or 4PC)"))?;
            let v = std::sync::Arc::new(crate::fourplayer::Variant4::new(mode));
            return Ok(Play::Four(Game4::new(Position4::startpos(v, layout))));
        }
        let game = Game::new(variant, armies)?;
        Ok(Play::Two(TwoGame { game, ended: None }))
    }

    /// The same game at its root (no moves played).
    pub fn at_root(&self) -> Play {
        match self {
            Play::Four(g) => Play::Four(Game4::new(g.root().clone())),
            Play::Two(t) => {
                let mut game = t.game.clone();
                game.undo(game.moves().len());
                Play::Two(TwoGame { game, ended: None })
            }
        }
    }

    /// The variant's name (PROTOCOLS.md).
    pub fn variant(&self) -> String {
        match self {
            Play::Four(g) => g.mode().name().to_string(),
            Play::Two(t) => t.game.variant().to_string(),
        }
    }

    pub fn players(&self) -> usize {
        match self {
            Play::Four(_) => 4,
            Play::Two(_) => 2,
        }
    }

    pub fn player_name(&self, p: usize) -> &'static str {
        match self {
            Play::Four(_) => PLAYER_NAMES[p.min(3)],
            Play::Two(_) => TWO_NAMES[p.min(1)],
        }
    }

    pub fn side(&self) -> usize {
        match self {
            Play::Four(g) => g.position().side(),
            Play::Two(t) => t.game.side(),
        }
    }

    /// (result, reason) once the game is over.
    pub fn outcome(&self) -> Option<(String, String)> {
        match self {
            Play::Four(g) => g.outcome().map(|o| (o.result(), o.reason().to_string())),
            Play::Two(t) => t.ended.clone().or_else(|| {
                t.game
                    .outcome()
                    .map(|o| (o.result().to_string(), o.reason().to_string()))
            }),
        }
    }

    /// The position as FEN4 or FEN.
    pub fn fen(&self) -> String {
        match self {
            Play::Four(g) => g.position().to_fen4(),
            Play::Two(t) => t.game.fen(),
        }
    }

    /// The legal moves of the side to move (none once the game is over).
    pub fn legal(&self) -> Vec<Legal> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        match self {
            Play::Four(g) => {
                let p = g.position();
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
            Play::Two(t) => {
                let shape = &t.game.spec().shape;
                let pieces = &t.game.spec().pieces;
                t.game
                    .legal_moves()
                    .into_iter()
                    .map(|m| Legal {
                        from: shape.name(m.from()),
                        to: shape.name(m.to()),
                        promo: m.promotion().map(|p| pieces[p].letter.to_ascii_uppercase()),
                        token: t.game.name(m),
                    })
                    .collect()
            }
        }
    }

    /// Plays a move (any notation the game reads), or `R` (the side to
    /// move resigns) or `T` (it loses on time); returns the entry.
    pub fn play(&mut self, token: &str) -> Result<Entry, String> {
        let token = token.trim();
        if let Some((_, reason)) = self.outcome() {
            return Err(format!("the game is over ({reason})"));
        }
        let seat = self.side();
        match self {
            Play::Four(g) => {
                let (token, squares) = match token {
                    "R" | "T" => (token.to_string(), None),
                    t => {
                        let p = g.position();
                        let m = p.parse_move(t).map_err(|e| e.to_string())?;
                        let squares = (p.v.shape.name(m.from()), p.v.shape.name(m.to()));
                        (p.move_to_string(m), Some(squares))
                    }
                };
                g.play(&token)?;
                let (_, _, text) = g.log().last().cloned().expect("an event was logged");
                Ok(Entry {
                    token,
                    text,
                    seat,
                    squares,
                })
            }
            Play::Two(t) => {
                if token == "R" || token == "T" {
                    let winner = 1 - seat;
                    let result = if winner == 0 { "1-0" } else { "0-1" };
                    let reason = if token == "R" {
                        format!("{} resigns", TWO_NAMES[seat])
                    } else {
                        format!("{} loses on time", TWO_NAMES[seat])
                    };
                    t.ended = Some((result.into(), reason));
                    return Ok(Entry {
                        token: token.into(),
                        text: token.into(),
                        seat,
                        squares: None,
                    });
                }
                let m = read_two(&t.game, token)?;
                let text = with_position!(t.game.position(), p => to_san(p, m));
                let shape = &t.game.spec().shape;
                let squares = Some((shape.name(m.from()), shape.name(m.to())));
                let name = t.game.name(m);
                t.game.play_move(m).map_err(|e| e.to_string())?;
                Ok(Entry {
                    token: name,
                    text,
                    seat,
                    squares,
                })
            }
        }
    }

    /// The squares of the last move, for the marks on the board.
    pub fn last_move(&self) -> Option<Move> {
        match self {
            Play::Four(g) => g.log().iter().rev().find_map(|(_, e, _)| match e {
                crate::fourplayer::game::Event::Move(m) => Some(*m),
                _ => None,
            }),
            Play::Two(t) => t.game.moves().last().copied(),
        }
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
pub fn replay(root: &Play, tokens: &[String]) -> Result<(Play, Vec<Entry>), String> {
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
        let mut four = Play::new("fourplayer-teams", "4PC").unwrap();
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
        let mut two = Play::new("omega", "").unwrap();
        assert!(two.play("e3e7").is_err(), "four squares is too far");
        let e = two.play("e3e6").unwrap();
        assert_eq!((e.token.as_str(), e.text.as_str()), ("e3e6", "e6"));
        two.play("R").unwrap();
        assert_eq!(two.outcome().unwrap().0, "1-0");
        assert!(two.play("e10e9").is_err());
        assert_eq!(two.at_root().fen(), Play::new("omega", "").unwrap().fen());
    }
}
