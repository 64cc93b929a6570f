//! The command line's four-player parts: games from `--fen4` (a FEN4 or
//! a layout name) and moves, a plain-text diagram, analysis and review.

use std::sync::Arc;
use std::time::Duration;

use crate::fourplayer::game::{Event, Game4};
use crate::fourplayer::search::{Objective, Search4};
use crate::fourplayer::{Layout, Mode, PLAYER_NAMES, Position4, setup_game};
use crate::out::Out;
use crate::search::{Engine, Limits, Report, ScoreKind};

/// The game of `--fen4` (a FEN4, `4PCo` or `4PC`; default `4PCo`) after
/// `moves` (with the seat tokens `R` and `T`, as in the UCI dialect).
pub fn game(mode: Mode, fen4: Option<&str>, moves: &[&str]) -> Result<Game4, String> {
    match fen4.map(|f| (f, Layout::from_name(f))) {
        Some((_, Some(layout))) => setup_game(mode, None, Some(layout), moves),
        Some((f, None)) => setup_game(mode, Some(f), None, moves),
        None => setup_game(mode, None, None, moves),
    }
}

/// A plain-text diagram of the board, rank 14 at the top: pieces as owner
/// letter + type (`rK`, `bP`, dead `dP`), `.` an empty square, blank the
/// missing corners; then the side to move, points and rights.
pub fn diagram(pos: &Position4) -> String {
    let shape = &pos.v.shape;
    let mut s = String::new();
    for rank in (0..shape.ranks).rev() {
        s.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..shape.files {
            let cell = match shape.square(file as i32, rank as i32) {
                None => "  ".to_string(),
                Some(sq) => match pos.piece_at(sq) {
                    None => " .".to_string(),
                    Some((o, t)) => crate::fourplayer::fen4::piece_text(o, t),
                },
            };
            s.push_str(&format!(" {cell}"));
        }
        s.push('\n');
    }
    s.push_str("   ");
    for f in 0..shape.files {
        s.push_str(&format!("  {}", (b'a' + f as u8) as char));
    }
    s.push('\n');
    let checked: Vec<&str> = (0..4)
        .filter(|&p| pos.checked_players() & (1 << p) != 0)
        .map(|p| PLAYER_NAMES[p])
        .collect();
    if !checked.is_empty() {
        s.push_str(&format!("in check: {}\n", checked.join(", ")));
    }
    let points = pos.points();
    s.push_str(&format!(
        "{} to move ({}); points r {} b {} y {} g {}; FEN4 {}\n",
        PLAYER_NAMES[pos.side()],
        pos.mode().name(),
        points[0],
        points[1],
        points[2],
        points[3],
        pos.to_fen4()
    ));
    s
}

/// Searches the game's position, printing the dialect's `info` lines and
/// `bestmove` (`bestmove (none)` when the game is over).
pub fn analyse(out: &Out, engine: &mut Engine, game: &Game4, limits: Limits, ffa: Objective) {
    if let Some(o) = game.outcome() {
        out.line(&format!("info string the game is over: {}", o.reason()));
        out.line("bestmove (none)");
        return;
    }
    let search = Search4::of_game(game, ffa);
    let rep = crate::protocol::four_uci::reporter(out.clone(), game.position().clone());
    engine.go_with(search, limits, rep);
    while engine.is_searching() {
        if out.closed() {
            engine.stop();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    engine.wait();
}

/// Replays a game and prints, before each move, what the engine would play
/// there and its score, and whether the game's move differs.
pub fn review(out: &Out, engine: &mut Engine, game: &Game4, limits: &Limits, ffa: Objective) {
    let mut replay = Game4::new(game.root().clone());
    if game.log().is_empty() {
        out.line("the game has no moves to review");
    }
    for (i, (seat, event, text)) in game.log().iter().enumerate() {
        if out.closed() {
            return;
        }
        let search = Search4::of_game(&replay, ffa);
        let root = replay.position().clone();
        let last = Arc::new(std::sync::Mutex::new(None));
        let seen = last.clone();
        let rep: crate::search::Reporter = Arc::new(move |r| {
            if let Report::Info(info) = r {
                *seen.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some((info.score, info.depth, info.pv.first().copied()));
            }
        });
        engine.go_with(search, limits.clone(), rep);
        engine.wait();
        let found = *last.lock().unwrap_or_else(|e| e.into_inner());
        let (score, depth, best) = found.unwrap_or((ScoreKind::Cp(0), 0, None));
        let score = match score {
            ScoreKind::Cp(c) => format!("{c:+}"),
            ScoreKind::Mate(m) => format!("mate {m}"),
        };
        let best_text = best
            .map(|m| root.move_to_string(m))
            .unwrap_or_else(|| "-".into());
        let verdict = if *event == Event::Move(best.unwrap_or_default()) {
            ""
        } else {
            "  <- differs"
        };
        out.line(&format!(
            "ply {:>3} {:<6} played {:<10} engine {:<10} score {:>6} depth {depth}{verdict}",
            i + 1,
            PLAYER_NAMES[*seat],
            text,
            best_text,
            score
        ));
        let token = match event {
            Event::Move(m) => root.move_to_string(*m),
            Event::Resign => "R".into(),
            Event::Timeout => "T".into(),
        };
        if replay.play(&token).is_err() {
            return;
        }
    }
    if let Some(o) = game.outcome() {
        out.line(&format!("result {} ({})", o.result(), o.reason()));
    }
}
