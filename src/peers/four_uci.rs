//! The four-player UCI dialects as the runner speaks them, per engine
//! (`fourplayer=chimera|4pchess`):
//! - Chimera's (PROTOCOLS.md): `position startpos 4PC` or `position fen4
//!   <FEN4>`, `moves` in protocol notation with the seat tokens `R` and `T`;
//!   `go` with the four clocks (`rtime btime ytime gtime rinc ...`), or
//!   `movetime`, `depth`, `nodes`; errors come as `info string error: ...`.
//! - 4pchess's: `position startpos` (its only layout is 4PC) or `position
//!   fen <FEN4>`; `go` with `movetime` and `depth` only (any other word
//!   hangs its parser), so a clock is turned into a time for the move by the
//!   runner; it answers `info string Invalid move '...'` to a move it does
//!   not take, and `info string Game completed. ...` instead of a move when
//!   it thinks the game is over.

use super::config::FourDialect;
use super::player::Reply;
use super::referee::Referee;
use super::tc::Clock;

/// The `position` command for the referee's game.
pub fn position(d: FourDialect, r: &dyn Referee) -> String {
    let mut s = match (r.root_fen(), d) {
        (Some(f), FourDialect::Chimera) => format!("position fen4 {f}"),
        (Some(f), FourDialect::FourPChess) => format!("position fen {f}"),
        (None, FourDialect::Chimera) => "position startpos 4PC".to_string(),
        (None, FourDialect::FourPChess) => "position startpos".to_string(),
    };
    if !r.moves().is_empty() {
        s.push_str(" moves ");
        s.push_str(&r.moves().join(" "));
    }
    s
}

/// The time the runner gives an engine that takes only `movetime` for a
/// move on a clock: a 30th of what is left (of what is left for the moves
/// to the next control), plus three quarters of the increment, at most half
/// of what is left.
pub fn allotment(c: &Clock) -> u64 {
    let left = c.left_ms.max(0) as u64;
    let share = match c.movestogo() {
        Some(m) => left / (u64::from(m) + 1),
        None => left / 30,
    };
    (share + c.tc.inc_ms * 3 / 4).min(left / 2).max(1)
}

/// The `go` command for the side to move, with the seats' clocks; `nodes=`
/// is left out for 4pchess (the caller warns).
pub fn go(d: FourDialect, r: &dyn Referee, clocks: &[Clock]) -> String {
    let seat = r.to_move();
    let tc = &clocks[seat].tc;
    let mut go = String::from("go");
    if let Some(st) = tc.movetime_ms {
        go.push_str(&format!(" movetime {st}"));
    } else if tc.has_clock() {
        match d {
            FourDialect::Chimera => {
                for (c, name) in clocks.iter().zip(["rtime", "btime", "ytime", "gtime"]) {
                    go.push_str(&format!(" {name} {}", c.left_ms.max(1)));
                }
                for (c, name) in clocks.iter().zip(["rinc", "binc", "yinc", "ginc"]) {
                    go.push_str(&format!(" {name} {}", c.tc.inc_ms));
                }
                if let Some(m) = clocks[seat].movestogo() {
                    go.push_str(&format!(" movestogo {m}"));
                }
            }
            FourDialect::FourPChess => {
                go.push_str(&format!(" movetime {}", allotment(&clocks[seat])));
            }
        }
    }
    if let Some(depth) = tc.depth {
        go.push_str(&format!(" depth {depth}"));
    }
    if let (Some(n), FourDialect::Chimera) = (tc.nodes, d) {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

/// What a line of the engine says about the move it was asked for, beyond
/// `info` and `bestmove`: it refused the position (a move or FEN4 it did not
/// take: it would search another position), or it says the game is over.
pub fn verdict(d: FourDialect, line: &str) -> Option<Reply> {
    let msg = line.strip_prefix("info string ")?.trim();
    match d {
        FourDialect::Chimera if msg.starts_with("error:") => Some(Reply::Rejected(line.into())),
        FourDialect::FourPChess
            if msg.starts_with("Invalid move") || msg.starts_with("Invalid FEN") =>
        {
            Some(Reply::Rejected(line.into()))
        }
        FourDialect::FourPChess if msg.starts_with("Game completed") => {
            Some(Reply::Claim(line.into()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::four_player::FourPlayer;
    use crate::peers::tc::TimeControl;

    fn clocks(tc: &str) -> Vec<Clock> {
        let mut t = TimeControl::default();
        t.set_tc(tc).unwrap();
        (0..4).map(|_| Clock::new(&t)).collect()
    }

    #[test]
    fn commands_in_both_dialects() {
        let mut r = FourPlayer::new("fourplayer-teams", None).unwrap();
        let (c, p) = (FourDialect::Chimera, FourDialect::FourPChess);
        assert_eq!(position(c, &r), "position startpos 4PC");
        assert_eq!(position(p, &r), "position startpos");
        r.play("h2-h3").unwrap();
        assert_eq!(position(c, &r), "position startpos 4PC moves h2-h3");
        let mut cl = clocks("10+0.1");
        cl[0].left_ms = 9000;
        assert_eq!(
            go(c, &r, &cl),
            "go rtime 9000 btime 10000 ytime 10000 gtime 10000 rinc 100 binc 100 yinc 100 ginc 100"
        );
        // Blue to move: a 30th of 10 s and 3/4 of the increment
        assert_eq!(go(p, &r, &cl), "go movetime 408");
        let mut st = TimeControl::default();
        st.set_st("1").unwrap();
        st.depth = Some(6);
        st.nodes = Some(1000);
        let cl: Vec<Clock> = (0..4).map(|_| Clock::new(&st)).collect();
        assert_eq!(go(c, &r, &cl), "go movetime 1000 depth 6 nodes 1000");
        assert_eq!(go(p, &r, &cl), "go movetime 1000 depth 6");
        let fen = crate::fourplayer::Layout::Modern.fen4();
        let r = FourPlayer::new("fourplayer-ffa", Some(fen)).unwrap();
        assert_eq!(position(c, &r), format!("position fen4 {fen}"));
        assert_eq!(position(p, &r), format!("position fen {fen}"));
        // moves to go: what is left shared by them and one more
        let cl = clocks("40/60");
        assert_eq!(allotment(&cl[0]), 60_000 / 41);
    }

    #[test]
    fn verdicts() {
        let (c, p) = (FourDialect::Chimera, FourDialect::FourPChess);
        assert!(matches!(
            verdict(c, "info string error: move 3 'x': illegal"),
            Some(Reply::Rejected(_))
        ));
        assert!(matches!(
            verdict(p, "info string Invalid move 'h2-h9'"),
            Some(Reply::Rejected(_))
        ));
        assert!(matches!(
            verdict(p, "info string Game completed. RY won."),
            Some(Reply::Claim(_))
        ));
        assert_eq!(verdict(c, "info string points 1 0 0 0"), None);
        assert_eq!(verdict(p, "info depth 3 score 5"), None);
    }
}
