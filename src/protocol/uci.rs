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
use crate::fourplayer::search::Objective;
use crate::game::Game;
use crate::search::{Engine, Info, Limits, Report, Reporter, ScoreKind};
use crate::setup::AnyPosition;
use crate::variant::armies::Army;

/// What differs between the two UCI dialects (PROTOCOLS.md): the game,
/// how `position` and `go` read, how a search starts. The session chooses
/// one when the variant changes (`Family::of`) and asks it, never the
/// family.
pub trait Dialect: Send {
    /// The variant's name.
    fn variant(&self) -> String;
    /// `info string variant ...`: the board a GUI should set up (none for
    /// chess).
    fn announcement(&self) -> Option<String>;
    /// The game back at its start (`ucinewgame`).
    fn restart(&mut self);
    /// `position ...` (the words after it): the game is replaced only if
    /// the whole command reads.
    fn position(&mut self, args: &[&str]) -> Result<(), String>;
    /// `go ...` (the words after it), read against the game.
    fn read_go(&self, args: &[&str], multipv: usize) -> super::go::Go;
    /// Starts the search `go` asked for (a game already over is said and
    /// answered at once).
    fn search(&self, limits: Limits, engine: &mut Engine, out: &Out, ffa: Objective);
    /// `d`: the position as an `info string` line.
    fn show(&self) -> String;
}

/// The two-player dialect: chess, Omega, CwDA.
pub struct TwoUci {
    game: Game,
}

pub struct Uci {
    core: Core,
    /// the game, in its family's dialect
    dialect: Box<dyn Dialect>,
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

pub(super) fn move_error(e: &MoveError, context: &str) -> String {
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
            dialect: Box::new(TwoUci { game }),
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
        let name = self.dialect.variant();
        if self.announced.as_deref() == Some(name.as_str()) {
            return;
        }
        if let Some(line) = self.dialect.announcement() {
            self.out(&line);
            self.announced = Some(name);
        }
    }

    fn new_variant(&mut self) {
        let name = self.core.variant_name();
        let dialect: Box<dyn Dialect> = match crate::game::Family::of(&name).four() {
            Some(mode) => Box::new(super::four_uci::FourUci::new(mode)),
            None => match Game::new(&name, &self.core.set.user_armies) {
                Ok(game) => Box::new(TwoUci { game }),
                Err(e) => {
                    self.error(&format!("variant '{name}': {e}"));
                    return;
                }
            },
        };
        self.dialect = dialect;
        self.position_set = false;
        self.announce();
        let verdict = self.core.evaluation();
        if verdict.fell_back {
            self.out(&format!("info string {}", verdict.line));
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
            Ok(Changed::Notice(n)) | Ok(Changed::Info(n)) => self.out(&format!("info string {n}")),
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

    fn cmd_position(&mut self, line: &str) {
        let args: Vec<&str> = line.split_whitespace().skip(1).collect();
        match self.dialect.position(&args) {
            Ok(()) => {
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

    fn cmd_go(&mut self, line: &str) {
        if self.core.engine.is_searching() {
            // a GUI should not do this; finish the old search first
            self.core.stop_and_wait();
        }
        let args: Vec<&str> = line.split_whitespace().skip(1).collect();
        let go = self.dialect.read_go(&args, self.core.set.multipv);
        self.prepare_go(&go);
        let out = self.core.out.clone();
        let ffa = self.core.set.ffa_search;
        self.dialect
            .search(go.limits, &mut self.core.engine, &out, ffa);
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
                self.dialect.restart();
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

impl TwoUci {
    /// `position startpos|fen <FEN> [moves ...]` into a new game.
    fn read_position(&self, args: &[&str]) -> Result<Game, String> {
        let toks: Vec<&str> = std::iter::once("position")
            .chain(args.iter().copied())
            .collect();
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
}

impl Dialect for TwoUci {
    fn variant(&self) -> String {
        self.game.variant().to_string()
    }

    fn announcement(&self) -> Option<String> {
        let name = self.game.variant();
        if name == "chess" {
            return None;
        }
        let (files, ranks) = self.game.files_ranks();
        let fen = &self.game.spec().start_fen;
        Some(format!(
            "info string variant {name} files {files} ranks {ranks} startpos {fen}"
        ))
    }

    fn restart(&mut self) {
        self.game = self.game.restart();
    }

    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        self.game = self.read_position(args)?;
        Ok(())
    }

    fn read_go(&self, args: &[&str], multipv: usize) -> super::go::Go {
        let side = self.game.side();
        let searchmove = |t: &str| self.game.parse(t).map_err(|e| move_error(&e, ""));
        super::go::read_go(
            args,
            &super::go::TWO_PLAYER,
            side,
            side,
            multipv,
            &searchmove,
        )
    }

    fn search(&self, limits: Limits, engine: &mut Engine, out: &Out, _: Objective) {
        if self.game.legal_moves().is_empty() {
            let score = if self.game.in_check() {
                "mate 0"
            } else {
                "cp 0"
            };
            out.line(&format!("info depth 0 score {score}"));
        }
        let pos = self.game.position().clone();
        let report = reporter(out.clone(), pos.clone());
        engine.go(pos, limits, report);
    }

    fn show(&self) -> String {
        format!("info string fen {}", self.game.fen())
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
                self.out(&self.dialect.show());
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
