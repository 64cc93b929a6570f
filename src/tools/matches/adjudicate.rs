//! Adjudication on the engines' scores, as cutechess-cli's `-draw`,
//! `-resign` and `-maxmoves` do it:
//! - draw: every seat's score within `score` centipawns of zero for
//!   `movecount` consecutive moves each, after at least `movenumber` full
//!   moves; a capture or pawn move starts the count again;
//! - resign: an engine's own score at least `score` centipawns below zero
//!   for `movecount` consecutive moves of its own (with `twosided`, the
//!   opponent's score at least `score` above zero for as long, too);
//! - maxmoves: a draw after that many full moves (four-player: rounds).

use crate::peers::player::Score;
use crate::peers::referee::{Ending, Referee, Termination};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawRule {
    pub movenumber: usize,
    pub movecount: usize,
    pub score: i32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResignRule {
    pub movecount: usize,
    pub score: i32,
    pub twosided: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rules {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// full moves after which the game is drawn (0: no cap)
    pub maxmoves: usize,
}

pub struct Adjudicator {
    rules: Rules,
    /// consecutive plies with a score near zero
    quiet: usize,
    /// per seat: consecutive own moves lost / won by the resign margin
    losing: Vec<usize>,
    winning: Vec<usize>,
}

impl Adjudicator {
    pub fn new(rules: &Rules, seats: usize) -> Adjudicator {
        Adjudicator {
            rules: rules.clone(),
            quiet: 0,
            losing: vec![0; seats],
            winning: vec![0; seats],
        }
    }

    /// After `seat` moved with `score` (its own view): an ending if the
    /// rules call the game.
    pub fn after_move(
        &mut self,
        r: &dyn Referee,
        seat: usize,
        score: Option<Score>,
        irreversible: bool,
    ) -> Option<Ending> {
        let cp = score.map(|s| s.cp());
        if let Some(d) = &self.rules.draw {
            match cp {
                Some(c) if !irreversible && c.abs() <= d.score => self.quiet += 1,
                _ => self.quiet = 0,
            }
            if self.quiet >= r.seats() * d.movecount.max(1) && r.full_moves() >= d.movenumber {
                return Some(r.draw("Draw by adjudication".into(), Termination::Adjudication));
            }
        }
        if let Some(rs) = &self.rules.resign {
            match cp {
                Some(c) if c <= -rs.score => self.losing[seat] += 1,
                _ => self.losing[seat] = 0,
            }
            match cp {
                Some(c) if c >= rs.score => self.winning[seat] += 1,
                _ => self.winning[seat] = 0,
            }
            let n = rs.movecount.max(1);
            if self.losing[seat] >= n {
                let others_agree = !rs.twosided
                    || (0..self.winning.len()).any(|s| s != seat && self.winning[s] >= n);
                if others_agree {
                    let winner = r.side_name((seat + 1) % r.seats());
                    return Some(r.loss_of(
                        seat,
                        format!("{winner} wins by adjudication"),
                        Termination::Adjudication,
                    ));
                }
            }
        }
        if self.rules.maxmoves > 0 && r.full_moves() >= self.rules.maxmoves {
            return Some(r.draw(
                "Draw by adjudication: maximal game length".into(),
                Termination::Adjudication,
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::referee::TwoPlayer;

    fn play(rules: &Rules, moves: &[(&str, i32)]) -> Option<Ending> {
        let mut r = TwoPlayer::new("chess", None, &[]).unwrap();
        let mut a = Adjudicator::new(rules, 2);
        for (m, s) in moves {
            let seat = r.to_move();
            let p = r.play(m).unwrap();
            if let Some(e) = a.after_move(&r, seat, Some(Score::Cp(*s)), p.irreversible) {
                return Some(e);
            }
        }
        None
    }

    const KNIGHTS: [&str; 8] = [
        "g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8",
    ];

    #[test]
    fn draw_and_resign() {
        let rules = Rules {
            draw: Some(DrawRule {
                movenumber: 3,
                movecount: 2,
                score: 10,
            }),
            ..Default::default()
        };
        let quiet: Vec<(&str, i32)> = KNIGHTS.iter().map(|m| (*m, 5)).collect();
        let e = play(&rules, &quiet).unwrap();
        assert_eq!(e.reason, "Draw by adjudication");
        // a score out of range starts the count again
        let mut noisy = quiet.clone();
        noisy[4].1 = 50;
        assert_eq!(play(&rules, &noisy[..7]), None);
        let rules = Rules {
            resign: Some(ResignRule {
                movecount: 2,
                score: 500,
                twosided: false,
            }),
            ..Default::default()
        };
        let moves: Vec<(&str, i32)> = KNIGHTS
            .iter()
            .enumerate()
            .map(|(i, m)| (*m, if i % 2 == 1 { -600 } else { 0 }))
            .collect();
        let e = play(&rules, &moves).unwrap();
        assert_eq!(e.result, "1-0");
        assert_eq!(e.reason, "White wins by adjudication");
        let rules = Rules {
            maxmoves: 2,
            ..Default::default()
        };
        let e = play(&rules, &quiet).unwrap();
        assert_eq!(e.reason, "Draw by adjudication: maximal game length");
    }
}
