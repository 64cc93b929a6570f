//! The four-player referee: `Game4` (Chess.com's layout `4PC`, Teams or
//! Free-For-All) behind the runner's `Referee` trait, four seats in the
//! order Red, Blue, Yellow, Green.
//!
//! Teams: the two sides are Red+Yellow (`1-0`) and Blue+Green (`0-1`); a
//! seat's fault loses for its team (the seat's `R` or `T` is recorded in the
//! game). Free-For-All: a seat's fault is its resignation (`R`; `T` for time
//! losses and hangs): its army turns dead and the game goes on, its King
//! walking on with moves the referee chooses (a legal King move picked by
//! a generator seeded with the position's hash, so a replay is the same).
//! Each seat's game score is its placement by final points (1st 1, 2nd 2/3,
//! 3rd 1/3, 4th 0, ties sharing their places' scores).

use std::sync::Arc;

use super::referee::{Ending, Played, Referee, Termination};
use crate::fourplayer::game::{DRAW_POINTS, Event, Game4, Outcome4};
use crate::fourplayer::{Layout, Mode, PLAYER_NAMES, Position4, Variant4, team};
use crate::rng::SplitMix64;

/// Teams: the names of the two sides in results.
pub const TEAM_NAMES: [&str; 2] = ["Red+Yellow", "Blue+Green"];

/// FFA: each seat's placement score by its final points: 1st 1, 2nd 2/3,
/// 3rd 1/3, 4th 0; seats with equal points share the scores of the places
/// they take together.
pub fn placements(points: &[i32]) -> Vec<f64> {
    let n = points.len();
    let place_score = |place: usize| (n - 1 - place) as f64 / (n - 1).max(1) as f64;
    points
        .iter()
        .map(|&p| {
            let above = points.iter().filter(|&&q| q > p).count();
            let tied = points.iter().filter(|&&q| q == p).count();
            (above..above + tied).map(place_score).sum::<f64>() / tied as f64
        })
        .collect()
}

/// A four-player game as the runner sees it.
pub struct FourPlayer {
    game: Game4,
    root_fen: Option<String>,
    /// the events in protocol notation (`h2-h3`, `R`) and in PGN4
    coords: Vec<String>,
    texts: Vec<String>,
    /// FFA: seats whose engine failed before their turn: the token (`R`,
    /// `T`) they play when it comes
    pending: [Option<&'static str>; 4],
}

impl FourPlayer {
    /// A game of `variant` (`fourplayer-teams`, `fourplayer-ffa`) from the
    /// 4PC start or a FEN4.
    pub fn new(variant: &str, fen4: Option<&str>) -> Result<FourPlayer, String> {
        let mode = crate::game::Family::of(variant)
            .four()
            .ok_or_else(|| format!("'{variant}' is not a four-player variant"))?;
        let v = Arc::new(Variant4::new(mode));
        FourPlayer::from_variant(v, fen4)
    }

    fn from_variant(v: Arc<Variant4>, fen4: Option<&str>) -> Result<FourPlayer, String> {
        let root = match fen4 {
            Some(f) => Position4::from_fen4(v, f).map_err(|e| format!("bad FEN4: {e}"))?,
            None => Position4::startpos(v, Layout::Modern),
        };
        Ok(FourPlayer {
            game: Game4::new(root),
            root_fen: fen4.map(str::to_string),
            coords: Vec::new(),
            texts: Vec::new(),
            pending: [None; 4],
        })
    }

    pub fn mode(&self) -> Mode {
        self.game.mode()
    }

    /// Records the events `Game4` logged since `from` (one move, or a seat
    /// token).
    fn record_since(&mut self, from: usize) -> Played {
        let mut last = None;
        for (_, event, text) in &self.game.log()[from..] {
            let coord = match event {
                Event::Move(m) => self.game.root().move_to_string(*m),
                Event::Resign => "R".into(),
                Event::Timeout => "T".into(),
            };
            self.coords.push(coord.clone());
            self.texts.push(text.clone());
            last = Some((coord, text.clone()));
        }
        let (coord, san) = last.unwrap_or_default();
        let irreversible = self.game.position().halfmove_clock() == 0;
        Played {
            coord,
            san,
            irreversible,
        }
    }

    /// Plays a token of the side to move into the game and records it.
    fn play_token(&mut self, token: &str) -> Result<Played, String> {
        let from = self.game.log().len();
        self.game.play(token)?;
        Ok(self.record_since(from))
    }

    fn team_ending(&self, losing_team: usize, reason: String, t: Termination) -> Ending {
        let (result, winner) = if losing_team == 0 {
            ("0-1", 1)
        } else {
            ("1-0", 0)
        };
        Ending {
            result: result.into(),
            points: (0..4)
                .map(|s| if team(s) == winner { 1.0 } else { 0.0 })
                .collect(),
            reason,
            termination: t,
            ffa_points: None,
        }
    }

    fn ffa_ending(
        &self,
        points: [i32; 4],
        rank_last: Option<usize>,
        reason: String,
        t: Termination,
    ) -> Ending {
        let mut ranked = points;
        if let Some(s) = rank_last {
            ranked[s] = i32::MIN;
        }
        let result = points
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("-");
        Ending {
            result,
            points: placements(&ranked),
            reason,
            termination: t,
            ffa_points: Some(points.to_vec()),
        }
    }

    /// FFA: whether the seat is still in contention (not out, not resigned).
    fn active(&self, seat: usize) -> bool {
        let p = self.game.position();
        !p.is_eliminated(seat) && !p.has_resigned(seat) && self.pending[seat].is_none()
    }
}

fn token_of(t: Termination) -> &'static str {
    match t {
        Termination::TimeForfeit | Termination::Stalled => "T",
        _ => "R",
    }
}

impl Referee for FourPlayer {
    fn seats(&self) -> usize {
        4
    }

    fn seat_name(&self, seat: usize) -> &'static str {
        PLAYER_NAMES[seat]
    }

    fn side_name(&self, seat: usize) -> &'static str {
        match self.mode() {
            Mode::Teams => TEAM_NAMES[team(seat)],
            Mode::Ffa => PLAYER_NAMES[seat],
        }
    }

    fn to_move(&self) -> usize {
        self.game.position().side()
    }

    fn variant(&self) -> &str {
        self.mode().name()
    }

    fn root_fen(&self) -> Option<&str> {
        self.root_fen.as_deref()
    }

    fn fen(&self) -> String {
        self.game.position().to_fen4()
    }

    fn moves(&self) -> &[String] {
        &self.coords
    }

    fn san_moves(&self) -> &[String] {
        &self.texts
    }

    fn play(&mut self, mv: &str) -> Result<Played, String> {
        let t = mv.trim();
        // the seat tokens are the referee's, not an engine's move
        if matches!(t, "R" | "T" | "S" | "") {
            return Err(format!("illegal move '{t}'"));
        }
        self.play_token(t)
            .map_err(|e| format!("{e} (after reading '{t}')"))
    }

    fn ending(&self) -> Option<Ending> {
        let t = Termination::Normal;
        Some(match self.game.outcome()? {
            Outcome4::TeamWin { team, reason } => self.team_ending(1 - team, reason.clone(), t),
            Outcome4::TeamDraw { reason } => Ending {
                result: "1/2-1/2".into(),
                points: vec![0.5; 4],
                reason: format!("Draw: {reason}"),
                termination: t,
                ffa_points: None,
            },
            Outcome4::FfaEnd { points, reason } => {
                self.ffa_ending(*points, None, reason.clone(), t)
            }
        })
    }

    fn full_moves(&self) -> usize {
        // rounds completed: a round ends where the turn goes back round
        let mut seats: Vec<usize> = self.game.log().iter().map(|(s, _, _)| *s).collect();
        if self.game.outcome().is_none() {
            seats.push(self.to_move());
        }
        seats.windows(2).filter(|w| w[1] <= w[0]).count()
    }

    fn loss_of(&self, seat: usize, reason: String, t: Termination) -> Ending {
        match self.mode() {
            Mode::Teams => self.team_ending(team(seat), reason, t),
            Mode::Ffa => self.ffa_ending(self.game.position().points(), Some(seat), reason, t),
        }
    }

    fn forfeit(&mut self, seat: usize, reason: String, t: Termination) -> Option<Ending> {
        let token = token_of(t);
        let to_move = seat == self.to_move() && self.game.outcome().is_none();
        if to_move {
            self.play_token(token).expect("the side to move may resign");
        }
        match self.mode() {
            Mode::Teams => Some(self.team_ending(team(seat), reason, t)),
            Mode::Ffa => {
                if !to_move {
                    self.pending[seat] = Some(token);
                }
                self.ending()
            }
        }
    }

    fn auto_move(&mut self) -> Option<Played> {
        if self.game.outcome().is_some() {
            return None;
        }
        let seat = self.to_move();
        if let Some(token) = self.pending[seat].take() {
            return Some(self.play_token(token).expect("the side to move may resign"));
        }
        let p = self.game.position();
        if !p.has_resigned(seat) {
            return None;
        }
        // a walking King: one of its legal moves, the same in a replay
        let legal = p.legal_moves();
        let m = legal[SplitMix64(p.hash()).index(legal.len())];
        let text = p.move_to_string(m);
        Some(self.play_token(&text).expect("a legal move plays"))
    }

    fn draw(&self, reason: String, t: Termination) -> Ending {
        match self.mode() {
            Mode::Teams => Ending {
                result: "1/2-1/2".into(),
                points: vec![0.5; 4],
                reason,
                termination: t,
                ffa_points: None,
            },
            Mode::Ffa => {
                // as a draw by the rules: each player still in it gets +10
                let mut points = self.game.position().points();
                for (s, p) in points.iter_mut().enumerate() {
                    if self.active(s) {
                        *p += DRAW_POINTS;
                    }
                }
                self.ffa_ending(points, None, reason, t)
            }
        }
    }

    fn xboard_setup(&self) -> Result<Vec<String>, String> {
        Err("four-player chess is played over UCI only".into())
    }

    fn fresh_game(&self, fen: Option<&str>) -> Result<Box<dyn Referee + Sync>, String> {
        let v = self.game.root().v.clone();
        Ok(Box::new(FourPlayer::from_variant(v, fen)?))
    }

    fn game4(&self) -> Option<&Game4> {
        Some(&self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn placement_scores() {
        assert!(close(
            &placements(&[20, 5, 13, 0]),
            &[1.0, 1.0 / 3.0, 2.0 / 3.0, 0.0]
        ));
        // a tie for first shares 1 and 2/3
        assert!(close(
            &placements(&[10, 10, 3, 0]),
            &[5.0 / 6.0, 5.0 / 6.0, 1.0 / 3.0, 0.0]
        ));
        assert!(close(&placements(&[7, 7, 7, 7]), &[0.5; 4]));
        assert!(close(&placements(&[1, 0]), &[1.0, 0.0]));
    }

    #[test]
    fn teams_moves_and_faults() {
        let mut r = FourPlayer::new("fourplayer-teams", None).unwrap();
        assert_eq!(r.seats(), 4);
        let p = r.play("h2h3").unwrap();
        assert_eq!((p.coord.as_str(), p.san.as_str()), ("h2-h3", "h2-h3"));
        assert!(r.play("R").is_err(), "a seat token is not an engine's move");
        assert!(r.play("b7-b9").is_err());
        assert_eq!(r.to_move(), 1);
        assert_eq!(r.side_name(1), "Blue+Green");
        let e = r
            .forfeit(
                1,
                "Blue makes an illegal move: b7-b9".into(),
                Termination::IllegalMove,
            )
            .unwrap();
        assert_eq!(e.result, "1-0");
        assert_eq!(e.points, vec![1.0, 0.0, 1.0, 0.0]);
        assert_eq!(r.moves(), ["h2-h3", "R"]);
        assert_eq!(r.game4().unwrap().outcome().unwrap().result(), "1-0");
        assert!(FourPlayer::new("chess", None).is_err());
        assert!(FourPlayer::new("fourplayer-teams", Some("R-0,0")).is_err());
    }

    #[test]
    fn ffa_fault_resigns_and_the_king_walks() {
        let mut r = FourPlayer::new("fourplayer-ffa", None).unwrap();
        r.play("h2-h3").unwrap();
        r.play("b7-c7").unwrap();
        // Green failed before its turn: it resigns when the turn comes
        assert_eq!(r.forfeit(3, "x".into(), Termination::Abandoned), None);
        assert!(r.auto_move().is_none(), "Yellow is an engine's");
        r.play("g13-g12").unwrap();
        assert_eq!(r.auto_move().unwrap().coord, "R");
        r.play("i2-i3").unwrap();
        // Blue stalls: it leaves on time, the game goes on
        assert_eq!(r.forfeit(1, "y".into(), Termination::Stalled), None);
        assert_eq!(r.moves().last().unwrap(), "T");
        r.play("i13-i12").unwrap();
        // Green's King walks (taking a dead piece is a King move too)
        assert!(r.auto_move().unwrap().coord.starts_with("n8-"));
        assert!(r.auto_move().is_none(), "Red is an engine's");
        r.play("j2-j3").unwrap();
        // Blue's King walks
        let walk = r.auto_move().unwrap();
        assert!(
            walk.coord.starts_with("a7-") && walk.san.starts_with("Ka7"),
            "{walk:?}"
        );
        assert_eq!(r.to_move(), 2);
        assert_eq!(r.full_moves(), 2);
        let d = r.draw("Draw by adjudication".into(), Termination::Adjudication);
        // Red and Yellow are still in it: +10 each
        assert_eq!(d.ffa_points, Some(vec![10, 0, 10, 0]));
        assert_eq!(d.result, "10-0-10-0");
        assert!(close(
            &d.points,
            &[5.0 / 6.0, 1.0 / 6.0, 5.0 / 6.0, 1.0 / 6.0]
        ));
    }
}
