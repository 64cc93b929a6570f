//! One game between engines in seats: opening moves first, then each seat
//! in turn is asked for a move, its clock charged, the move refereed, and
//! the adjudication rules consulted, until the rules, an adjudication or
//! a fault end the game. A fault goes to the referee's `forfeit`: it ends
//! the game, or (four-player Free-For-All) resigns the seat, whose moves the
//! referee then plays itself (`auto_move`).

use std::time::{Duration, Instant, SystemTime};

use super::adjudicate::{Adjudicator, Rules};
use crate::fourplayer::game::Game4;
use crate::peers::player::{Player, Reply, Score};
use crate::peers::referee::{Ending, Referee, Termination};
use crate::peers::tc::{Clock, TimeControl};

#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub san: String,
    pub coord: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub used_ms: u64,
    /// an opening move, not played by an engine
    pub book: bool,
}

/// What went wrong with a seat's engine.
#[derive(Clone, Debug)]
pub struct Fault {
    pub termination: Termination,
    /// as results say it (`Blue makes an illegal move: a1a1`)
    pub reason: String,
    /// what happened, and the engine's last lines
    pub detail: String,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub variant: String,
    pub root_fen: Option<String>,
    pub moves: Vec<MoveRecord>,
    pub ending: Ending,
    /// per seat: the engine's name
    pub names: Vec<String>,
    /// per seat: what went wrong with it
    pub faults: Vec<Option<Fault>>,
    pub started: SystemTime,
    pub duration: Duration,
    pub final_fen: String,
    /// four-player games: the game itself (for PGN4)
    pub game4: Option<Game4>,
}

/// Plays the opening moves into the referee.
pub fn play_opening(r: &mut dyn Referee, moves: &[String]) -> Result<Vec<MoveRecord>, String> {
    let mut out = Vec::new();
    for m in moves {
        let p = r.play(m).map_err(|e| format!("opening: {e}"))?;
        out.push(MoveRecord {
            san: p.san,
            coord: p.coord,
            score: None,
            depth: None,
            used_ms: 0,
            book: true,
        });
        if r.ending().is_some() {
            break;
        }
    }
    Ok(out)
}

/// Tells every seat's engine a new game starts; a seat whose engine
/// cannot start forfeits (which may end the game at once).
fn start_seats(
    r: &mut dyn Referee,
    players: &mut [SeatPlayer],
    faults: &mut [Option<Fault>],
) -> Option<Ending> {
    for seat in 0..r.seats() {
        let name = r.seat_name(seat);
        let res = match &mut players[seat] {
            Ok(p) => p.new_game(&*r),
            Err(e) => Err(e.clone()),
        };
        if let Err(e) = res {
            let reason = format!("{name} disconnects");
            faults[seat] = Some(Fault {
                termination: Termination::Abandoned,
                reason: reason.clone(),
                detail: e,
            });
            let ending = r.forfeit(seat, reason, Termination::Abandoned);
            if ending.is_some() {
                return ending;
            }
        }
    }
    None
}

/// A reply that is no move: what went wrong (None: nothing to log), the
/// reason as results say it, and the termination.
fn failed_reply(
    reply: Reply,
    name: &str,
    r: &dyn Referee,
) -> (Option<String>, String, Termination) {
    match reply {
        Reply::Move { .. } => unreachable!("a move is played, not failed"),
        Reply::Resign => (None, format!("{name} resigns"), Termination::Normal),
        Reply::Late { used_ms } => (
            Some(format!("lost on time ({used_ms} ms)")),
            format!("{name} loses on time"),
            Termination::TimeForfeit,
        ),
        Reply::Stalled => (
            Some("stopped answering".into()),
            format!("{name}'s connection stalls"),
            Termination::Stalled,
        ),
        Reply::Crashed(status) => (
            Some(format!("crashed ({status})")),
            format!("{name} disconnects"),
            Termination::Abandoned,
        ),
        Reply::Claim(line) => (
            Some(format!("claimed a result that is not ({line})")),
            format!("{name} makes an invalid result claim"),
            Termination::RulesInfraction,
        ),
        Reply::Rejected(line) => (
            Some(format!("refused a legal move ({line})")),
            format!(
                "{name} makes an illegal move: refused {}",
                r.moves().last().map(String::as_str).unwrap_or("")
            ),
            Termination::IllegalMove,
        ),
    }
}

/// A seat's engine: running, or it could not be started (the reason).
pub type SeatPlayer<'a> = Result<&'a mut Player, String>;

/// Plays a game; `players[seat]` moves for that seat.
pub fn play_game(
    r: &mut dyn Referee,
    book: Vec<MoveRecord>,
    players: &mut [SeatPlayer],
    tcs: &[TimeControl],
    rules: &Rules,
) -> GameRecord {
    let started = SystemTime::now();
    let t0 = Instant::now();
    let seats = r.seats();
    let names: Vec<String> = players
        .iter()
        .map(|p| match p {
            Ok(p) => p.name.clone(),
            Err(_) => "?".into(),
        })
        .collect();
    let mut faults: Vec<Option<Fault>> = vec![None; seats];
    let mut moves = book;
    let mut clocks: Vec<Clock> = tcs.iter().map(Clock::new).collect();
    let mut adj = Adjudicator::new(rules, seats);
    let mut ending = start_seats(r, players, &mut faults);
    while ending.is_none() {
        if let Some(e) = r.ending() {
            ending = Some(e);
            break;
        }
        if let Some(played) = r.auto_move() {
            moves.push(MoveRecord {
                san: played.san,
                coord: played.coord,
                score: None,
                depth: None,
                used_ms: 0,
                book: false,
            });
            continue;
        }
        let seat = r.to_move();
        let name = r.seat_name(seat);
        let Ok(p) = &mut players[seat] else {
            unreachable!("a seat without an engine was forfeited above")
        };
        let reply = p.go(&*r, &clocks);
        // (what went wrong, the reason as results say it, the termination)
        let fault: Option<(Option<String>, String, Termination)> = match reply {
            Reply::Move {
                mv,
                used_ms,
                score,
                depth,
            } => {
                if !clocks[seat].spend(used_ms) {
                    Some((
                        Some(format!("lost on time ({used_ms} ms)")),
                        format!("{name} loses on time"),
                        Termination::TimeForfeit,
                    ))
                } else {
                    match r.play(&mv) {
                        Ok(played) => {
                            moves.push(MoveRecord {
                                san: played.san,
                                coord: played.coord,
                                score,
                                depth,
                                used_ms,
                                book: false,
                            });
                            if r.ending().is_none() {
                                ending = adj.after_move(&*r, seat, score, played.irreversible);
                            }
                            None
                        }
                        Err(e) => Some((
                            Some(format!("{e} in {}", r.fen())),
                            format!("{name} makes an illegal move: {mv}"),
                            Termination::IllegalMove,
                        )),
                    }
                }
            }
            other => Some(failed_reply(other, name, &*r)),
        };
        if let Some((what, reason, t)) = fault {
            if let Some(what) = what {
                faults[seat] = Some(Fault {
                    termination: t,
                    reason: reason.clone(),
                    detail: format!("{what}; last lines:\n{}", p.recent()),
                });
            }
            ending = r.forfeit(seat, reason, t);
        }
    }
    let ending = ending.expect("the loop ends with an ending");
    for p in players.iter_mut().flatten() {
        p.end_game(&ending);
    }
    GameRecord {
        variant: r.variant().to_string(),
        root_fen: r.root_fen().map(str::to_string),
        moves,
        ending,
        names,
        faults,
        started,
        duration: t0.elapsed(),
        final_fen: r.fen(),
        game4: r.game4().cloned(),
    }
}
