//! A four-player game: a root position, the events played since (moves,
//! resignations, timeouts) and what the rules make of them. Teams: the
//! first team to checkmate an opponent wins (a check or mate takes effect
//! when the checked player is to move); a resignation or timeout loses for
//! the team. Free-For-All: a player without moves is checkmated (out, +20
//! to the player whose check mates it) or stalemated (the game ends as a
//! draw, +10 to each remaining player); a resignation or timeout turns the
//! player's army dead but its King walks on; the game ends when one active
//! player is left, who gets +20 for each such King still on the board.
//! Both modes draw by threefold repetition, the 50-move rule (50 moves by
//! every remaining player without a capture or pawn move) and bare Kings.

use super::variant::Mode;
use super::{PLAYER_NAMES, Position4, team};
use crate::base::Move;

/// Points for checkmating a player (FFA), and for each remaining player in
/// a draw.
pub const MATE_POINTS: i32 = 20;
pub const DRAW_POINTS: i32 = 10;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome4 {
    /// Teams: team 0 (Red+Yellow) or 1 (Blue+Green) won
    TeamWin { team: usize, reason: String },
    /// Teams: a draw
    TeamDraw { reason: String },
    /// Free-For-All: the game is over with these points
    FfaEnd { points: [i32; 4], reason: String },
}

impl Outcome4 {
    /// The PGN4 `Result`: `1-0` (Red+Yellow), `0-1`, `1/2-1/2`; in FFA the
    /// points, `r-b-y-g`.
    pub fn result(&self) -> String {
        match self {
            Outcome4::TeamWin { team: 0, .. } => "1-0".into(),
            Outcome4::TeamWin { .. } => "0-1".into(),
            Outcome4::TeamDraw { .. } => "1/2-1/2".into(),
            Outcome4::FfaEnd { points, .. } => points
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("-"),
        }
    }

    pub fn reason(&self) -> &str {
        match self {
            Outcome4::TeamWin { reason, .. }
            | Outcome4::TeamDraw { reason }
            | Outcome4::FfaEnd { reason, .. } => reason,
        }
    }
}

/// Something a seat did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Move(Move),
    Resign,
    Timeout,
}

/// A game in progress (or over).
#[derive(Clone, Debug)]
pub struct Game4 {
    root: Position4,
    pos: Position4,
    /// (seat, event, PGN4 text) in order, including the automatic ones
    /// (`#` eliminations are part of the mating move's text)
    log: Vec<(usize, Event, String)>,
    outcome: Option<Outcome4>,
}

impl Game4 {
    pub fn new(root: Position4) -> Game4 {
        let mut g = Game4 {
            pos: root.clone(),
            root,
            log: Vec::new(),
            outcome: None,
        };
        g.settle();
        g
    }

    pub fn position(&self) -> &Position4 {
        &self.pos
    }
    pub fn root(&self) -> &Position4 {
        &self.root
    }
    pub fn mode(&self) -> Mode {
        self.pos.mode()
    }
    pub fn outcome(&self) -> Option<&Outcome4> {
        self.outcome.as_ref()
    }
    /// (seat, event, PGN4 text) of every event so far.
    pub fn log(&self) -> &[(usize, Event, String)] {
        &self.log
    }

    /// Plays a move, or `R` (resign), `T` (timeout), for the side to move.
    pub fn play(&mut self, token: &str) -> Result<(), String> {
        if let Some(o) = &self.outcome {
            return Err(format!("the game is over ({})", o.reason()));
        }
        let seat = self.pos.side();
        match token.trim() {
            "R" | "T" => {
                let ev = if token.trim() == "R" {
                    Event::Resign
                } else {
                    Event::Timeout
                };
                let what = if ev == Event::Resign {
                    "resigned"
                } else {
                    "lost on time"
                };
                match self.pos.mode() {
                    Mode::Teams => {
                        self.outcome = Some(Outcome4::TeamWin {
                            team: 1 - team(seat),
                            reason: format!("{} {what}", PLAYER_NAMES[seat]),
                        });
                    }
                    Mode::Ffa => {
                        if self.pos.has_resigned(seat) {
                            return Err(format!(
                                "{} has already left the game",
                                PLAYER_NAMES[seat]
                            ));
                        }
                        self.pos.resign_keep_king();
                        self.pos.clear_stack();
                    }
                }
                self.log.push((seat, ev, token.trim().to_string()));
            }
            t => {
                let m = self.pos.parse_move(t).map_err(|e| e.to_string())?;
                let text = self.pos.move_to_pgn4(m);
                self.pos.make(m);
                self.pos.clear_stack();
                self.log.push((seat, Event::Move(m), text));
            }
        }
        self.settle();
        Ok(())
    }

    /// The players still in contention (not out, not resigned), as bits.
    fn active(&self) -> u8 {
        self.pos.live_mask() & !self.resigned_mask()
    }

    fn resigned_mask(&self) -> u8 {
        (0..4)
            .filter(|&p| self.pos.has_resigned(p))
            .fold(0, |m, p| m | 1 << p)
    }

    /// Applies what the rules decide before the side to move plays: mates,
    /// stalemates, draws, the end of an FFA game.
    fn settle(&mut self) {
        while self.outcome.is_none() {
            if self.pos.mode() == Mode::Ffa && self.active().count_ones() <= 1 {
                self.finish_ffa("three players are out".into());
                return;
            }
            if let Some(draw) = super::end::draw(&self.pos, 2) {
                self.finish_draw(draw.reason().to_string());
                return;
            }
            let p = &self.pos;
            if p.has_legal_move() {
                return;
            }
            let us = p.side();
            let in_check = p.in_check();
            match p.mode() {
                Mode::Teams => {
                    self.outcome = Some(if in_check {
                        Outcome4::TeamWin {
                            team: 1 - team(us),
                            reason: format!("{} is checkmated", PLAYER_NAMES[us]),
                        }
                    } else {
                        Outcome4::TeamDraw {
                            reason: format!("{} is stalemated", PLAYER_NAMES[us]),
                        }
                    });
                }
                Mode::Ffa => {
                    if in_check {
                        let by = super::end::mater(&self.pos);
                        self.pos.eliminate(by, MATE_POINTS);
                    } else if self.pos.has_resigned(us) {
                        // a walking King that cannot move leaves quietly
                        self.pos.eliminate(None, 0);
                    } else {
                        self.finish_draw(format!("{} is stalemated", PLAYER_NAMES[us]));
                        return;
                    }
                    self.pos.clear_stack();
                }
            }
        }
    }

    fn finish_draw(&mut self, reason: String) {
        self.outcome = Some(match self.pos.mode() {
            Mode::Teams => Outcome4::TeamDraw { reason },
            Mode::Ffa => {
                let mut points = self.pos.points();
                for (q, pts) in points.iter_mut().enumerate() {
                    if self.active() & (1 << q) != 0 {
                        *pts += DRAW_POINTS;
                    }
                }
                Outcome4::FfaEnd {
                    points,
                    reason: format!("draw: {reason}"),
                }
            }
        });
    }

    fn finish_ffa(&mut self, reason: String) {
        let mut points = self.pos.points();
        let walking = (0..4)
            .filter(|&q| self.pos.has_resigned(q) && !self.pos.is_eliminated(q))
            .count() as i32;
        for (q, pts) in points.iter_mut().enumerate() {
            if self.active() & (1 << q) != 0 {
                *pts += MATE_POINTS * walking;
            }
        }
        self.outcome = Some(Outcome4::FfaEnd { points, reason });
    }

    /// Takes back the last `n` events; returns how many.
    pub fn undo(&mut self, n: usize) -> usize {
        let n = n.min(self.log.len());
        let keep: Vec<(usize, Event, String)> = self.log[..self.log.len() - n].to_vec();
        let mut g = Game4::new(self.root.clone());
        for (_, e, _) in &keep {
            let token = match e {
                Event::Move(m) => g.pos.move_to_string(*m),
                Event::Resign => "R".into(),
                Event::Timeout => "T".into(),
            };
            g.play(&token).expect("an event of the game replays");
        }
        *self = g;
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::fourplayer::{Layout, Variant4};
    use std::sync::Arc;

    fn game(mode: Mode, fen: Option<&str>) -> Game4 {
        let v = Arc::new(Variant4::new(mode));
        let root = match fen {
            Some(f) => Position4::from_fen4(v, f).unwrap(),
            None => Position4::startpos(v, Layout::Modern),
        };
        Game4::new(root)
    }

    #[test]
    fn teams_resignation_and_moves() {
        let mut g = game(Mode::Teams, None);
        g.play("h2-h3").unwrap();
        assert!(g.play("b7-b9").is_err());
        g.play("R").unwrap();
        assert_eq!(g.outcome().unwrap().result(), "1-0");
        assert!(g.play("g13-g12").is_err());
    }

    #[test]
    fn ffa_resign_keeps_the_king() {
        let mut g = game(Mode::Ffa, None);
        g.play("h2-h3").unwrap();
        g.play("R").unwrap();
        let p = g.position();
        assert!(p.has_resigned(1));
        assert_eq!(p.color_bb(1).count(), 1, "only Blue's King is live");
        assert_eq!(p.side(), 2);
        assert_eq!(g.undo(1), 1);
        assert!(!g.position().has_resigned(1));
        assert_eq!(g.position().color_bb(1).count(), 16);
    }
}
