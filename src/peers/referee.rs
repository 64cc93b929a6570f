//! The referee: a game as the runner sees it, with *seats* that move in
//! turn. Every move an engine sends is read and checked here with
//! Chimera's own rules before anything else sees it, and the rules say
//! when the game is over.
//!
//! `TwoPlayer` wraps the protocols' `Game` (chess, Omega, CwDA);
//! `four_player::FourPlayer` wraps `Game4` with four seats (its points per
//! seat say who won: a team's two seats get the same points). The runner,
//! clocks and adjudication only ever ask for `seats()`, `to_move()` and
//! points per seat; a fault goes through `forfeit`, which ends a two-player
//! or Teams game and, in Free-For-All, resigns the seat and plays on.

use crate::fourplayer::game::Game4;
use crate::game::Game;
use crate::position::outcome::Outcome;
use crate::variant::armies::Army;
use crate::with_position;

use crate::position::san;

/// How a game ended, as the PGN `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// by the rules, or a resignation
    Normal,
    Adjudication,
    TimeForfeit,
    IllegalMove,
    /// the engine crashed or closed its output
    Abandoned,
    /// the engine stopped answering
    Stalled,
    /// a false result claim
    RulesInfraction,
}

impl Termination {
    pub fn pgn(&self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "abandoned",
            Termination::Stalled => "stalled connection",
            Termination::RulesInfraction => "rules infraction",
        }
    }

    /// Whether the loser misbehaved (it is restarted before its next game).
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove
                | Termination::Abandoned
                | Termination::Stalled
                | Termination::RulesInfraction
        )
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// the PGN result: `1-0`, `0-1`, `1/2-1/2`
    pub result: String,
    /// the game's score per seat, 0 to 1 (win 1, draw 1/2; Free-For-All:
    /// the placement score)
    pub points: Vec<f64>,
    /// the reason, as cutechess-cli words it (`White mates`)
    pub reason: String,
    pub termination: Termination,
    /// Free-For-All: each seat's final points
    pub ffa_points: Option<Vec<i32>>,
}

/// A move that was played: engine notation and SAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub coord: String,
    pub san: String,
    /// a capture or a pawn move (resets draw adjudication)
    pub irreversible: bool,
}

pub trait Referee: Send {
    /// Number of seats (2; four-player chess: 4).
    fn seats(&self) -> usize;
    /// The seat's name in results (`White`, `Black`; `Red`, ...).
    fn seat_name(&self, seat: usize) -> &'static str;
    /// The side the seat plays for, as results name it (`White`; Teams:
    /// `Red+Yellow`).
    fn side_name(&self, seat: usize) -> &'static str {
        self.seat_name(seat)
    }
    /// The seat to move.
    fn to_move(&self) -> usize;
    /// The variant's name (`chess`, `omega`, `cwda-nutty-fide`).
    fn variant(&self) -> &str;
    /// The root position when it is not the variant's start.
    fn root_fen(&self) -> Option<&str>;
    /// The FEN of the current position.
    fn fen(&self) -> String;
    /// The moves since the root, in engine notation.
    fn moves(&self) -> &[String];
    /// The same moves in SAN.
    fn san_moves(&self) -> &[String];
    /// Reads a move (engine notation, XBoard castling `O-O`, or SAN) and
    /// plays it if legal; Err with the reason if not.
    fn play(&mut self, mv: &str) -> Result<Played, String>;
    /// The end of the game by the rules, if it is over.
    fn ending(&self) -> Option<Ending>;
    /// Full moves played since the root.
    fn full_moves(&self) -> usize;
    /// An ending in which `seat` loses (its fault, a resignation, or
    /// adjudication).
    fn loss_of(&self, seat: usize, reason: String, t: Termination) -> Ending;
    /// A drawn ending (adjudication).
    fn draw(&self, reason: String, t: Termination) -> Ending;
    /// `seat` misbehaved or resigned (`t` says how): the ending if that
    /// ends the game (two players, Teams: `seat` loses), None if the game
    /// goes on without it (Free-For-All).
    fn forfeit(&mut self, seat: usize, reason: String, t: Termination) -> Option<Ending> {
        Some(self.loss_of(seat, reason, t))
    }
    /// A move the referee plays itself for the side to move (Free-For-All:
    /// a resigned seat's walking King), or None when an engine moves.
    fn auto_move(&mut self) -> Option<Played> {
        None
    }
    /// XBoard `setup` and `piece` lines for engines that learn the
    /// variant from them.
    fn xboard_setup(&self) -> Result<Vec<String>, String>;
    /// A new game of the same variant (its tables shared): from `fen`, or
    /// from the start.
    fn fresh_game(&self, fen: Option<&str>) -> Result<Box<dyn Referee + Sync>, String>;
    /// The four-player game (for PGN4), if this is one.
    fn game4(&self) -> Option<&Game4> {
        None
    }
}

/// Chess, Omega, CwDA: White and Black.
pub struct TwoPlayer {
    game: Game,
    root_fen: Option<String>,
    /// the moves in engine notation and in SAN
    coords: Vec<String>,
    sans: Vec<String>,
}

impl TwoPlayer {
    pub fn new(variant: &str, fen: Option<&str>, armies: &[Army]) -> Result<TwoPlayer, String> {
        let game = Game::new(variant, armies)?;
        let game = match fen {
            Some(f) => game.with_fen(f)?,
            None => game,
        };
        Ok(TwoPlayer {
            game,
            root_fen: fen.map(str::to_string),
            coords: Vec::new(),
            sans: Vec::new(),
        })
    }

    /// A new game of the same variant (its tables are shared, not built
    /// again): from `fen`, or from the start.
    pub fn fresh(&self, fen: Option<&str>) -> Result<TwoPlayer, String> {
        let game = match fen {
            Some(f) => self.game.with_fen(f)?,
            None => self.game.restart(),
        };
        Ok(TwoPlayer {
            game,
            root_fen: fen.map(str::to_string),
            coords: Vec::new(),
            sans: Vec::new(),
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }
}

fn outcome_reason(o: Outcome) -> &'static str {
    match o {
        Outcome::Checkmate { winner: 0 } => "White mates",
        Outcome::Checkmate { .. } => "Black mates",
        Outcome::Stalemate => "Draw by stalemate",
        Outcome::FiftyMoves => "Draw by fifty moves rule",
        Outcome::Repetition => "Draw by 3-fold repetition",
        Outcome::InsufficientMaterial => "Draw by insufficient mating material",
    }
}

impl Referee for TwoPlayer {
    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: usize) -> &'static str {
        if seat == 0 { "White" } else { "Black" }
    }

    fn to_move(&self) -> usize {
        self.game.side()
    }

    fn variant(&self) -> &str {
        self.game.variant()
    }

    fn root_fen(&self) -> Option<&str> {
        self.root_fen.as_deref()
    }

    fn fen(&self) -> String {
        self.game.fen()
    }

    fn moves(&self) -> &[String] {
        &self.coords
    }

    fn san_moves(&self) -> &[String] {
        &self.sans
    }

    fn play(&mut self, mv: &str) -> Result<Played, String> {
        let t = mv.trim();
        let read = with_position!(self.game.position(), p => {
            let m = match p.parse_move(t) {
                Ok(m) => Some(m),
                Err(_) => san::parse_san(p, t),
            };
            m.map(|m| (p.move_to_string(m), san::to_san(p, m)))
        });
        let Some((coord, san)) = read else {
            return Err(format!("illegal move '{t}'"));
        };
        self.game
            .play(&coord)
            .map_err(|e| format!("{e} (after reading '{t}')"))?;
        let irreversible = with_position!(self.game.position(), p => p.halfmove_clock() == 0);
        self.coords.push(coord.clone());
        self.sans.push(san.clone());
        Ok(Played {
            coord,
            san,
            irreversible,
        })
    }

    fn ending(&self) -> Option<Ending> {
        let o = self.game.outcome()?;
        let points = match o {
            Outcome::Checkmate { winner: 0 } => vec![1.0, 0.0],
            Outcome::Checkmate { .. } => vec![0.0, 1.0],
            _ => vec![0.5, 0.5],
        };
        Some(Ending {
            result: o.result().to_string(),
            points,
            reason: outcome_reason(o).to_string(),
            termination: Termination::Normal,
            ffa_points: None,
        })
    }

    fn full_moves(&self) -> usize {
        // moves by the side that moved first
        let n = self.game.moves().len();
        if self.game.root_side() == 0 {
            n / 2
        } else {
            n.saturating_sub(1) / 2
        }
    }

    fn loss_of(&self, seat: usize, reason: String, t: Termination) -> Ending {
        let (result, points) = if seat == 0 {
            ("0-1", vec![0.0, 1.0])
        } else {
            ("1-0", vec![1.0, 0.0])
        };
        Ending {
            result: result.into(),
            points,
            reason,
            termination: t,
            ffa_points: None,
        }
    }

    fn xboard_setup(&self) -> Result<Vec<String>, String> {
        crate::variant::xboard::xboard_lines(self.game.spec())
    }

    fn draw(&self, reason: String, t: Termination) -> Ending {
        Ending {
            result: "1/2-1/2".into(),
            points: vec![0.5, 0.5],
            reason,
            termination: t,
            ffa_points: None,
        }
    }

    fn fresh_game(&self, fen: Option<&str>) -> Result<Box<dyn Referee + Sync>, String> {
        Ok(Box::new(self.fresh(fen)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referee_reads_and_ends() {
        let mut r = TwoPlayer::new("chess", None, &[]).unwrap();
        assert_eq!(r.play("f2f3").unwrap().san, "f3");
        assert_eq!(r.play("e5").unwrap().coord, "e7e5");
        assert!(r.play("e2e5").is_err());
        assert_eq!(r.play("g2g4").unwrap().san, "g4");
        let p = r.play("Qh4#").unwrap();
        assert_eq!((p.coord.as_str(), p.san.as_str()), ("d8h4", "Qh4#"));
        let e = r.ending().unwrap();
        assert_eq!(
            (e.result.as_str(), e.reason.as_str()),
            ("0-1", "Black mates")
        );
        assert_eq!(r.full_moves(), 2);
        // XBoard castling
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let mut r = TwoPlayer::new("chess", Some(fen), &[]).unwrap();
        assert_eq!(r.play("O-O").unwrap().coord, "e1g1");
        assert_eq!(r.root_fen(), Some(fen));
    }
}
