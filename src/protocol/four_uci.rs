//! The four-player UCI dialect (PROTOCOLS.md "Four-player"):
//! `position startpos [4PCo|4PC] | fen4 <FEN4> | fen <FEN4> [moves ...]`
//! (`fen` is 4pchess's spelling), moves in Chess.com form, plain
//! coordinates, `O-O`, and the seat tokens `R` (resign) and `T` (timeout);
//! `go rtime btime ytime gtime rinc binc yinc ginc` and the other words of
//! `go` (read by `protocol/go.rs`, for both dialects); answers `info ... score cp <for the side to move's team>` (in
//! FFA for the side to move, followed by `info string points r b y g`, the
//! points at the end of the principal variation) and `bestmove h2-h3`.

use std::sync::Arc;

use super::go::{FOUR_PLAYER, Go, read_go};
use super::uci::{Dialect, move_error};
use crate::base::Move;
use crate::fourplayer::game::Game4;
use crate::fourplayer::search::{Objective, Search4};
use crate::fourplayer::{Layout, Mode, Position4, Variant4};
use crate::out::Out;
use crate::search::{Engine, Info, Limits};

/// Reads the arguments of `position` (after the word itself) into a game;
/// errors name the token.
pub fn read_position(mode: Mode, args: &[&str]) -> Result<Game4, String> {
    let v = Arc::new(Variant4::new(mode));
    let (root, rest) = match args.first().copied() {
        Some("startpos") => match args.get(1).and_then(|a| Layout::from_name(a)) {
            Some(layout) => (Position4::startpos(v, layout), &args[2..]),
            None => (Position4::startpos(v, Layout::Classic), &args[1..]),
        },
        Some("fen4") | Some("fen") => {
            let fen = args.get(1).ok_or("position fen4: the FEN4 is missing")?;
            let pos = Position4::from_fen4(v, fen).map_err(|e| format!("bad FEN4: {e}"))?;
            (pos, &args[2..])
        }
        Some(other) => {
            return Err(format!(
                "position: expected startpos, fen4 or fen, found '{other}'"
            ));
        }
        None => return Err("position: expected startpos, fen4 or fen".into()),
    };
    let mut game = Game4::new(root);
    match rest.first().copied() {
        None => {}
        Some("moves") => {
            for (i, m) in rest[1..].iter().enumerate() {
                game.play(m)
                    .map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
            }
        }
        Some(other) => return Err(format!("position: expected 'moves', found '{other}'")),
    }
    Ok(game)
}

/// The four-player state of the UCI front end: the game and its mode.
pub struct FourUci {
    pub game: Game4,
}

impl FourUci {
    /// The start of a mode (`4PCo`, the default layout).
    pub fn new(mode: Mode) -> FourUci {
        let v = Arc::new(Variant4::new(mode));
        FourUci {
            game: Game4::new(Position4::startpos(v, Layout::Classic)),
        }
    }

    pub fn mode(&self) -> Mode {
        self.game.mode()
    }
}

impl Dialect for FourUci {
    fn variant(&self) -> String {
        self.mode().name().to_string()
    }

    fn announcement(&self) -> Option<String> {
        Some(format!(
            "info string variant {} files 14 ranks 14 startpos {}",
            self.mode().name(),
            self.game.root().to_fen4()
        ))
    }

    fn restart(&mut self) {
        *self = FourUci::new(self.mode());
    }

    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        self.game = read_position(self.mode(), args)?;
        Ok(())
    }

    fn read_go(&self, args: &[&str], multipv: usize) -> Go {
        let root = self.game.position();
        let searchmove = |t: &str| root.parse_move(t).map_err(|e| move_error(&e, ""));
        read_go(args, &FOUR_PLAYER, root.side(), 0, multipv, &searchmove)
    }

    fn search(&self, limits: Limits, engine: &mut Engine, out: &Out, ffa: Objective) {
        if let Some(o) = self.game.outcome() {
            out.line(&format!("info string the game is over: {}", o.reason()));
            out.line("bestmove (none)");
            return;
        }
        let search = Search4::of_game(&self.game, ffa);
        let report = reporter(out.clone(), self.game.position().clone());
        engine.go_with(search, limits, report);
    }

    fn show(&self) -> String {
        format!("info string fen4 {}", self.game.position().to_fen4())
    }
}

/// A reporter that writes a four-player search of `root` as UCI lines.
pub fn reporter(out: crate::out::Out, root: Position4) -> crate::search::Reporter {
    Arc::new(move |r| match r {
        crate::search::Report::Info(i) => {
            for l in info_lines(&i, &i.pv, &root) {
                out.line(&l);
            }
        }
        crate::search::Report::BestMove { best, .. } => match best {
            Some(m) if !m.is_leave() => out.line(&format!("bestmove {}", root.move_to_string(m))),
            _ => out.line("bestmove (none)"),
        },
    })
}

/// The `info` line of a search report, and in FFA the points at the end of
/// its principal variation.
pub fn info_lines(i: &Info, pv_moves: &[Move], root: &Position4) -> Vec<String> {
    let mut line = super::uci::info_head(i);
    let mut p = root.clone();
    let mut pv = Vec::new();
    for &m in pv_moves {
        if m.is_leave() || !p.legal_moves().contains(&m) {
            break;
        }
        pv.push(p.move_to_string(m));
        p.make(m);
    }
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    let mut out = vec![line];
    if root.mode() == Mode::Ffa {
        let pts = p.points();
        out.push(format!(
            "info string points {} {} {} {}",
            pts[0], pts[1], pts[2], pts[3]
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_errors() {
        let g = read_position(Mode::Teams, &["startpos", "4PC", "moves", "h2-h3", "b7c7"]).unwrap();
        assert_eq!(g.position().side(), 2);
        let g = read_position(Mode::Teams, &["startpos"]).unwrap();
        assert_eq!(g.root().to_fen4(), Layout::Classic.fen4());
        let fen = Layout::Modern.fen4();
        assert!(read_position(Mode::Ffa, &["fen", fen, "moves", "h2-h4"]).is_ok());
        let e = read_position(Mode::Teams, &["fen4", "R-0,0,0,0"]).unwrap_err();
        assert!(e.starts_with("bad FEN4"), "{e}");
        let e = read_position(Mode::Teams, &["startpos", "moves", "h2-h3", "h2-h4"]).unwrap_err();
        assert!(e.contains("move 2 'h2-h4'"), "{e}");
        let e = read_position(Mode::Teams, &["startpos", "4PC", "mvs"]).unwrap_err();
        assert!(e.contains("'mvs'"), "{e}");
    }
}
