//! UCI. The generic commands (`uci`, `isready`, `setoption`, `ucinewgame`,
//! `stop`, `ponderhit`, `quit`, `debug`, `register`) go through
//! `vampirc-uci`; `position` and `go` are read by our own code, since
//! vampirc-uci knows only 8x8 squares and silently drops moves such as
//! `j2j4` or `e9e10`.
//!
//! Errors are answered with `info string error: ...`; a bad `position`
//! keeps the previous position.

use std::sync::Arc;

use vampirc_uci::UciMessage;

use super::options::Protocol;
use super::{Changed, Core, Event, Flow, Handler, Out, clip};
use crate::base::Move;
use crate::base::MoveError;
use crate::game::Game;
use crate::search::{Info, Report, Reporter, ScoreKind};
use crate::setup::AnyPosition;
use crate::variant::armies::Army;

pub struct Uci {
    core: Core,
    game: Game,
    /// the four-player game, while the variant is `fourplayer-*`
    four: Option<crate::protocol::four_uci::FourUci>,
    /// whether a `position` command has set the game since the last
    /// variant change or `ucinewgame`
    position_set: bool,
    /// the variant last stated with `info string variant ...`
    announced: Option<String>,
}

/// An `info` line of a search without its principal variation, for
/// every UCI dialect.
pub fn info_head(i: &Info) -> String {
    let score = match i.score {
        ScoreKind::Cp(c) => format!("cp {c}"),
        ScoreKind::Mate(m) => format!("mate {m}"),
    };
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        i.depth, i.seldepth, i.multipv, score, i.nodes, i.nps, i.hashfull, i.time_ms
    )
}

/// One `info` line of a search; moves are named in `root`'s variant.
pub fn info_line(i: &Info, root: &AnyPosition) -> String {
    let mut s = info_head(i);
    if !i.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&root.moves_to_string(&i.pv));
    }
    s
}

/// `bestmove e2e4 ponder e7e5`, or `bestmove (none)` without a move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, root: &AnyPosition) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {}", root.move_to_string(b)),
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            root.move_to_string(b),
            root.move_to_string(p)
        ),
    }
}

/// The UCI line for a search report.
pub fn report_line(r: &Report, root: &AnyPosition) -> String {
    match r {
        Report::Info(i) => info_line(i, root),
        Report::BestMove { best, ponder } => bestmove_line(*best, *ponder, root),
    }
}

/// A reporter that writes a search of `root` as UCI lines.
pub fn reporter(out: Out, root: AnyPosition) -> Reporter {
    Arc::new(move |r| out.line(&report_line(&r, &root)))
}

fn move_error(e: &MoveError, context: &str) -> String {
    match e {
        MoveError::Illegal(m) => format!("illegal move '{}' {context}", clip(m, 40)),
        MoveError::Unparsable(m) => format!("unparsable move '{}' {context}", clip(m, 40)),
    }
}

impl Uci {
    pub fn new(out: Out, armies: Vec<Army>) -> Uci {
        let core = Core::new(out, armies, Protocol::Uci);
        let game = Game::new("chess", &[]).expect("chess sets up");
        Uci {
            core,
            game,
            four: None,
            position_set: false,
            announced: None,
        }
    }

    fn out(&self, s: &str) {
        self.core.out.line(s);
    }

    fn error(&self, msg: &str) {
        self.out(&format!("info string error: {msg}"));
    }

    /// The current game (for tests).
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn cmd_uci(&self) {
        self.out(&format!("id name Chimera {}", env!("CARGO_PKG_VERSION")));
        self.out("id author the Chimera developers");
        for o in self.core.options() {
            self.out(&o.uci_line());
        }
        self.out("uciok");
    }

    /// States the board of a variant other than chess: after a variant is
    /// chosen, after `ucinewgame`, and at a `position` if not yet stated.
    fn announce(&mut self) {
        if let Some(f) = &self.four {
            let name = f.mode().name().to_string();
            if self.announced.as_deref() != Some(name.as_str()) {
                self.out(&f.announce());
                self.announced = Some(name);
            }
            return;
        }
        let name = self.game.variant().to_string();
        if name == "chess" || self.announced.as_deref() == Some(name.as_str()) {
            return;
        }
        let (files, ranks) = self.game.files_ranks();
        let fen = self.game.spec().start_fen.clone();
        self.out(&format!(
            "info string variant {name} files {files} ranks {ranks} startpos {fen}"
        ));
        self.announced = Some(name);
    }

    fn new_variant(&mut self) {
        let name = self.core.variant_name();
        if let Some(mode) = crate::game::Family::of(&name).four() {
            self.four = Some(crate::protocol::four_uci::FourUci::new(mode));
            self.position_set = false;
            self.announce();
            return;
        }
        self.four = None;
        match Game::new(&name, &self.core.set.user_armies) {
            Ok(g) => {
                self.game = g;
                self.position_set = false;
                self.announce();
            }
            Err(e) => self.error(&format!("variant '{name}': {e}")),
        }
    }

    fn cmd_setoption(&mut self, name: &str, value: Option<&str>) {
        let Some(value) = value else {
            self.error(&format!(
                "setoption: option '{}' needs a value",
                clip(name, 40)
            ));
            return;
        };
        match self.core.set_option(name, value) {
            Ok(Changed::Variant) => self.new_variant(),
            Ok(Changed::Notice(n)) => self.out(&format!("info string {n}")),
            Ok(Changed::Nothing) => {}
            Err(e) => self.error(&e),
        }
    }

    /// Own parse of `setoption name <name> value <value>`, for lines that
    /// vampirc-uci does not read.
    fn setoption_fallback(&mut self, line: &str) {
        let rest = line
            .trim_start()
            .strip_prefix("setoption")
            .unwrap_or("")
            .trim();
        let Some(rest) = rest.strip_prefix("name") else {
            self.error("setoption: expected 'setoption name <name> value <value>'");
            return;
        };
        let (name, value) = match rest.find(" value") {
            Some(i) => (&rest[..i], Some(rest[i + 6..].trim())),
            None => (rest, None),
        };
        let name = name.trim();
        if name.is_empty() {
            self.error("setoption: missing option name");
            return;
        }
        self.cmd_setoption(name, value);
    }

    /// `position startpos|fen <FEN> [moves ...]` into a new game.
    fn parse_position(&self, line: &str) -> Result<Game, String> {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let i;
        let mut game = match toks.get(1).copied() {
            Some("startpos") => {
                i = 2;
                self.game.restart()
            }
            Some("fen") => {
                let end = toks
                    .iter()
                    .position(|&t| t == "moves")
                    .unwrap_or(toks.len());
                let fen = toks[2..end].join(" ");
                i = end;
                if fen.is_empty() {
                    return Err("position fen: missing FEN".into());
                }
                self.game.with_fen(&fen).map_err(|e| {
                    format!(
                        "bad FEN '{}' for {}: {e}",
                        clip(&fen, 100),
                        self.game.variant()
                    )
                })?
            }
            Some(t) => {
                return Err(format!(
                    "position: expected 'startpos' or 'fen', not '{}'",
                    clip(t, 40)
                ));
            }
            None => return Err("position: expected 'startpos' or 'fen'".into()),
        };
        match toks.get(i).copied() {
            None => {}
            Some("moves") => {
                for (n, m) in toks[i + 1..].iter().enumerate() {
                    game.play(m).map_err(|e| {
                        move_error(&e, &format!("(move {} of the position command)", n + 1))
                    })?;
                }
            }
            Some(t) => {
                return Err(format!("position: expected 'moves', not '{}'", clip(t, 40)));
            }
        }
        Ok(game)
    }

    fn cmd_position(&mut self, line: &str) {
        if let Some(f) = &mut self.four {
            let toks: Vec<&str> = line.split_whitespace().skip(1).collect();
            match f.position(&toks) {
                Ok(()) => {
                    self.position_set = true;
                    self.announce();
                }
                Err(e) => self.error(&e),
            }
            return;
        }
        match self.parse_position(line) {
            Ok(g) => {
                self.game = g;
                self.position_set = true;
                self.announce();
            }
            Err(e) => self.error(&e),
        }
    }

    /// Before a search of either family: tells the GUI what `go` refused
    /// and how it completed the limits, states the board, waits for the
    /// last search and applies new sizes.
    fn prepare_go(&mut self, go: &super::go::Go) {
        for e in &go.errors {
            self.error(e);
        }
        for n in &go.notes {
            self.out(&format!("info string {n}"));
        }
        if !self.position_set {
            self.error("go before position: searching the start position");
        }
        self.announce();
        self.core.engine.wait();
        if let Some(n) = self.core.apply_sizes() {
            self.out(&format!("info string {n}"));
        }
    }

    /// `go` in the four-player dialect.
    fn cmd_go_four(&mut self, line: &str) {
        use crate::fourplayer::search::Search4;
        use crate::protocol::four_uci::reporter;
        let Some(f) = &self.four else { return };
        let toks: Vec<&str> = line.split_whitespace().skip(1).collect();
        let root = f.game.position().clone();
        let searchmove = |t: &str| root.parse_move(t).map_err(|e| move_error(&e, ""));
        let go = super::go::read_go(
            &toks,
            &super::go::FOUR_PLAYER,
            root.side(),
            0,
            self.core.set.multipv,
            &searchmove,
        );
        let search = Search4::of_game(&f.game, self.core.set.ffa_search);
        let over = f.game.outcome().map(|o| o.reason().to_string());
        self.prepare_go(&go);
        if let Some(reason) = over {
            self.out(&format!("info string the game is over: {reason}"));
            self.out("bestmove (none)");
            return;
        }
        let rep = reporter(self.core.out.clone(), root);
        self.core.engine.go_with(search, go.limits, rep);
    }

    fn cmd_go(&mut self, line: &str) {
        if self.core.engine.is_searching() {
            // a GUI should not do this; finish the old search first
            self.core.stop_and_wait();
        }
        if self.four.is_some() {
            self.cmd_go_four(line);
            return;
        }
        let toks: Vec<&str> = line.split_whitespace().skip(1).collect();
        let side = self.game.side();
        let searchmove = |t: &str| self.game.parse(t).map_err(|e| move_error(&e, ""));
        let go = super::go::read_go(
            &toks,
            &super::go::TWO_PLAYER,
            side,
            side,
            self.core.set.multipv,
            &searchmove,
        );
        self.prepare_go(&go);
        if self.game.legal_moves().is_empty() {
            let score = if self.game.in_check() {
                "mate 0"
            } else {
                "cp 0"
            };
            self.out(&format!("info depth 0 score {score}"));
        }
        let pos = self.game.position().clone();
        let reporter = reporter(self.core.out.clone(), pos.clone());
        self.core.engine.go(pos, go.limits, reporter);
    }

    fn generic(&mut self, line: &str) -> Flow {
        match vampirc_uci::parse_one(line) {
            UciMessage::Uci => self.cmd_uci(),
            UciMessage::IsReady => self.out("readyok"),
            UciMessage::Debug(_) | UciMessage::Register { .. } => {}
            UciMessage::SetOption { name, value } => {
                self.cmd_setoption(&name, value.as_deref());
            }
            UciMessage::UciNewGame => {
                self.core.stop_and_wait();
                self.core.engine.new_game();
                if let Some(f) = &mut self.four {
                    *f = crate::protocol::four_uci::FourUci::new(f.mode());
                }
                self.game = self.game.restart();
                self.position_set = false;
                self.announced = None;
                self.announce();
            }
            UciMessage::Stop => {
                if self.core.engine.is_searching() {
                    self.core.engine.stop();
                } else {
                    self.error("stop: no search is running");
                }
            }
            UciMessage::PonderHit => {
                if self.core.engine.is_searching() {
                    self.core.engine.ponderhit();
                } else {
                    self.error("ponderhit: no search is running");
                }
            }
            UciMessage::Quit => return Flow::Quit,
            _ => {
                if line.split_whitespace().next() == Some("setoption") {
                    self.setoption_fallback(line);
                } else {
                    self.error(&format!("cannot read '{}'", clip(line.trim(), 80)));
                }
            }
        }
        Flow::Continue
    }
}

impl Handler for Uci {
    fn line(&mut self, line: &str) -> Flow {
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "" => Flow::Continue,
            "position" => {
                self.cmd_position(line);
                Flow::Continue
            }
            "go" => {
                self.cmd_go(line);
                Flow::Continue
            }
            "uci" | "isready" | "setoption" | "ucinewgame" | "stop" | "ponderhit" | "quit"
            | "debug" | "register" => self.generic(line),
            "d" => {
                match &self.four {
                    Some(f) => {
                        self.out(&format!("info string fen4 {}", f.game.position().to_fen4()))
                    }
                    None => self.out(&format!("info string fen {}", self.game.fen())),
                }
                Flow::Continue
            }
            other => {
                self.error(&format!("unknown command '{}'", clip(other, 60)));
                Flow::Continue
            }
        }
    }

    fn event(&mut self, ev: Event) -> Flow {
        match ev {
            Event::TooLong(n) => {
                self.error(&format!("line too long ({n} bytes), ignored"));
                Flow::Continue
            }
            Event::Eof => Flow::Quit,
            _ => Flow::Continue,
        }
    }

    fn shutdown(&mut self) {
        self.core.stop_and_wait();
    }
}
