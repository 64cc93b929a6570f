//! XBoard / WinBoard (CECP v2).
//!
//! The engine plays the side to move after `go`, thinks in the background
//! and keeps reading commands; a finished search comes back to the command
//! loop as `Event::SearchDone` (tagged with an id so that a search cancelled
//! by `force`, `new`, `undo`, ... is ignored), and the loop plays its move.
//! Pondering (`hard`) searches the position after the expected reply; if
//! the opponent plays it, the search goes on (`ponderhit`), else it is
//! cancelled. Game ends are claimed with `1-0 {White mates}` and the like.
//!
//! A `ping` that arrives while the engine thinks about its move is answered
//! after the move, as CECP asks.
//!
//! Errors: `Illegal move: <move>` for a move that is not legal here (or
//! cannot be read), `Error (<reason>): <command>` for everything else. A
//! `setboard` with a position the engine cannot play is answered with
//! `tellusererror Illegal position: <reason>`, and every move is refused
//! (`Illegal move: ...`) until the next `new`, `variant` or good
//! `setboard`, as CECP suggests: engine and GUI never play on two boards.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use super::options::Protocol;
use super::{Changed, Core, Event, Flow, Handler, Out, clip};
use crate::base::Move;
use crate::base::MoveError;
use crate::game::Game;
use crate::position::outcome::Outcome;
use crate::search::{Info, Limits, Report, Reporter};
use crate::setup::AnyPosition;
use crate::variant::armies::Army;

/// The deepest `sd` taken.
const MAX_DEPTH: i32 = super::go::MAX_DEPTH as i32;
/// The most threads `cores` takes.
const MAX_THREADS: usize = 256;

#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    Idle,
    /// searching for our move
    Thinking {
        id: u64,
    },
    /// searching the position after `expected`, the reply we predict
    Pondering {
        id: u64,
        expected: Move,
    },
    Analyzing {
        id: u64,
    },
}

/// The last search report, for `.` in analysis: (time ms, nodes, depth).
type Status = Arc<Mutex<Option<(u64, u64, i32)>>>;

pub struct XBoard {
    core: Core,
    tx: Sender<Event>,
    game: Game,
    /// the variant as XBoard named it (`normal`, `omega`, `cwda-...`)
    xb_variant: String,
    force: bool,
    engine_side: usize,
    post: Arc<AtomicBool>,
    analyzing: bool,
    state: State,
    next_id: u64,
    /// level: moves per session (0: all), base and increment (ms)
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    /// st: time per move (ms)
    st_ms: Option<u64>,
    /// sd: depth limit
    sd: Option<i32>,
    my_time: Option<u64>,
    opp_time: Option<u64>,
    exclude: Vec<Move>,
    status: Status,
    /// XBoard said `computer`: the opponent is an engine
    opponent_engine: bool,
    /// the last `setboard` was refused: the GUI's board is not ours, so
    /// every move is refused until `new`, `variant` or a good `setboard`
    illegal_position: bool,
    /// `ping`s received while thinking about our move: answered after it
    pending_pongs: Vec<String>,
}

/// XBoard's thinking output: `depth score time(cs) nodes pv`, the moves
/// named in `root`'s variant.
pub fn post_line(i: &Info, root: &AnyPosition) -> String {
    format!(
        "{} {} {} {} {}",
        i.depth,
        i.score.xboard(),
        i.time_ms / 10,
        i.nodes,
        root.moves_to_string(&i.pv)
    )
}

/// Parses a time of `level`: minutes, or `minutes:seconds`.
fn parse_minutes(s: &str) -> Option<u64> {
    let (m, sec) = match s.split_once(':') {
        Some((m, sec)) => (m, sec.parse::<f64>().ok()?),
        None => (s, 0.0),
    };
    let m: f64 = m.parse().ok()?;
    let ms = (m * 60.0 + sec) * 1000.0;
    (ms.is_finite() && (0.0..1e12).contains(&ms)).then_some(ms as u64)
}

fn parse_seconds(s: &str) -> Option<u64> {
    let v: f64 = s.parse().ok()?;
    let ms = v * 1000.0;
    (ms.is_finite() && (0.0..1e12).contains(&ms)).then_some(ms as u64)
}

/// XBoard's names for our variants: `chess` is `normal`.
pub fn xboard_variants(names: &[String]) -> Vec<String> {
    let mut v = vec![
        "normal".to_string(),
        "omega".to_string(),
        "cwda".to_string(),
    ];
    v.extend(names.iter().filter(|n| n.starts_with("cwda-")).cloned());
    v
}

impl XBoard {
    pub fn new(out: Out, tx: Sender<Event>, armies: Vec<Army>) -> XBoard {
        XBoard {
            core: Core::new(out, armies, Protocol::Xboard),
            tx,
            game: Game::new("chess", &[]).expect("chess sets up"),
            xb_variant: "normal".into(),
            force: false,
            opponent_engine: false,
            engine_side: crate::variant::BLACK,
            post: Arc::new(AtomicBool::new(false)),
            analyzing: false,
            state: State::Idle,
            next_id: 1,
            mps: 40,
            base_ms: 300_000,
            inc_ms: 0,
            st_ms: None,
            sd: None,
            my_time: None,
            opp_time: None,
            exclude: Vec::new(),
            status: Arc::new(Mutex::new(None)),
            illegal_position: false,
            pending_pongs: Vec::new(),
        }
    }

    /// The current game (for tests).
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn out(&self, s: &str) {
        self.core.out.line(s);
    }

    fn error(&self, reason: &str, command: &str) {
        self.out(&format!("Error ({reason}): {}", clip(command.trim(), 200)));
    }

    fn features(&self) {
        let names = crate::variant::spec::variant_names(&self.core.armies());
        let variants = xboard_variants(&names).join(",");
        self.out("feature done=0");
        self.out(&format!(
            "feature ping=1 setboard=1 usermove=1 playother=1 sigint=0 sigterm=0 memory=1 smp=1 exclude=1 analyze=1 colors=0 nps=0 myname=\"Chimera {}\" variants=\"{variants}\"",
            env!("CARGO_PKG_VERSION")
        ));
        for o in self.core.options() {
            self.out(&o.xboard_line());
        }
        self.out("feature done=1");
    }

    // ---- searches ----

    fn reporter(&self, id: u64, root: AnyPosition) -> Reporter {
        let out = self.core.out.clone();
        let tx = self.tx.clone();
        let post = self.post.clone();
        let status = self.status.clone();
        Arc::new(move |r| match r {
            Report::Info(i) => {
                if let Ok(mut s) = status.lock() {
                    *s = Some((i.time_ms, i.nodes, i.depth));
                }
                if post.load(Ordering::Relaxed) {
                    out.line(&post_line(&i, &root));
                }
            }
            Report::BestMove { best, ponder } => {
                let _ = tx.send(Event::SearchDone { id, best, ponder });
            }
        })
    }

    fn start(&mut self, game: &Game, limits: Limits) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        if let Ok(mut s) = self.status.lock() {
            *s = None;
        }
        self.core.engine.wait();
        if let Some(n) = self.core.apply_sizes() {
            self.notice(&n);
        }
        let pos = game.position().clone();
        let r = self.reporter(id, pos.clone());
        self.core.engine.go(pos, limits, r);
        id
    }

    /// Stops any search; its result will be ignored.
    fn cancel(&mut self) {
        if self.state != State::Idle {
            self.core.stop_and_wait();
            self.state = State::Idle;
        }
    }

    /// Answers the `ping`s held back while we thought about our move.
    fn answer_pings(&mut self) {
        if matches!(self.state, State::Thinking { .. }) {
            return;
        }
        for n in std::mem::take(&mut self.pending_pongs) {
            self.out(&format!("pong {n}"));
        }
    }

    /// Something the user should know (a popup in XBoard).
    fn notice(&self, msg: &str) {
        self.out(&format!("tellusererror {msg}"));
    }

    /// Limits for the side to move of `game` as our side.
    fn limits(&self, game: &Game) -> Limits {
        let us = game.side();
        let mut l = Limits {
            depth: self.sd,
            multipv: 1,
            exclude: self.exclude.clone(),
            ..Default::default()
        };
        if let Some(st) = self.st_ms {
            // XBoard's clock for `st` runs out exactly at st: keep a tenth
            // (or the Move Overhead, if larger; the search keeps that too)
            let reserve = (st / 10).max(self.core.set.move_overhead);
            l.movetime = Some(st.saturating_sub(reserve).max(1));
        } else {
            l.time[us] = Some(self.my_time.unwrap_or(self.base_ms).max(1));
            l.time[us ^ 1] = Some(self.opp_time.unwrap_or(self.base_ms).max(1));
            l.inc = [self.inc_ms; 2];
            if self.mps > 0 {
                let made = game.moves_by(us) as u32;
                l.movestogo = Some(self.mps - made % self.mps);
            }
        }
        l
    }

    fn claim(&self, o: Outcome) {
        self.out(&format!("{} {{{}}}", o.result(), o.reason()));
    }

    /// Thinks about our move, unless the game is over.
    fn think(&mut self) {
        self.cancel();
        if let Some(o) = self.game.outcome() {
            self.claim(o);
            return;
        }
        let limits = self.limits(&self.game);
        let game = self.game.clone();
        let id = self.start(&game, limits);
        self.state = State::Thinking { id };
    }

    fn analyze(&mut self) {
        self.cancel();
        let limits = Limits {
            infinite: true,
            multipv: self.core.set.multipv,
            exclude: self.exclude.clone(),
            ..Default::default()
        };
        let game = self.game.clone();
        let id = self.start(&game, limits);
        self.state = State::Analyzing { id };
    }

    fn ponder(&mut self, expected: Option<Move>) {
        let Some(expected) = expected else { return };
        let mut g = self.game.clone();
        if g.play_move(expected).is_err() || g.outcome().is_some() {
            return;
        }
        let mut limits = self.limits(&g);
        limits.ponder = true;
        let id = self.start(&g, limits);
        self.state = State::Pondering { id, expected };
    }

    /// After a change of position: go on analysing, or think if it is our
    /// turn.
    fn after_position_change(&mut self) {
        if self.analyzing {
            self.analyze();
        } else if !self.force && self.game.side() == self.engine_side {
            self.think();
        }
    }

    fn search_done(&mut self, id: u64, best: Option<Move>, ponder: Option<Move>) {
        match self.state.clone() {
            State::Thinking { id: cur } if cur == id => {
                self.core.engine.wait();
                self.state = State::Idle;
                let Some(mv) = best else {
                    if let Some(o) = self.game.outcome() {
                        self.claim(o);
                    }
                    return;
                };
                let name = self.game.name(mv);
                if let Err(e) = self.game.play_move(mv) {
                    log::error!("the search's move {name} does not play: {e}");
                    return;
                }
                self.exclude.clear();
                self.out(&format!("move {name}"));
                if let Some(o) = self.game.outcome() {
                    self.claim(o);
                    return;
                }
                if self.core.set.ponder && !self.force {
                    self.ponder(ponder);
                }
            }
            State::Pondering { id: cur, .. } | State::Analyzing { id: cur } if cur == id => {
                // ended on its own (stopped elsewhere): nothing to play
                self.core.engine.wait();
                self.state = State::Idle;
            }
            _ => {}
        }
    }

    // ---- commands ----

    fn user_move(&mut self, mv: &str, command: &str) {
        if mv.is_empty() {
            self.error("missing move", command);
            return;
        }
        if self.illegal_position {
            self.out(&format!("Illegal move: {}", clip(mv, 60)));
            return;
        }
        if let State::Pondering { id, expected } = self.state.clone()
            && self.game.parse(mv) == Ok(expected)
        {
            // ponderhit: the search goes on, now for real
            self.game
                .play_move(expected)
                .expect("the expected move is legal");
            self.exclude.clear();
            self.state = State::Thinking { id };
            self.core.engine.ponderhit();
            return;
        }
        if !self.analyzing {
            self.cancel();
        }
        match self.game.play(mv) {
            Ok(_) => {
                self.exclude.clear();
                if !self.analyzing
                    && let Some(o) = self.game.outcome()
                {
                    self.claim(o);
                    return;
                }
                self.after_position_change();
            }
            Err(MoveError::Illegal(_)) | Err(MoveError::Unparsable(_)) => {
                self.out(&format!("Illegal move: {}", clip(mv, 60)));
                // An engine opponent cannot take its move back: with
                // XBoard's legality testing off (needed for Omega
                // promotions) the game would hang, so claim it.
                if self.opponent_engine && !self.force && !self.analyzing {
                    let offender = self.game.side();
                    let (result, who) = if offender == crate::variant::WHITE {
                        ("0-1", "White")
                    } else {
                        ("1-0", "Black")
                    };
                    self.out(&format!(
                        "{result} {{{who} played an illegal move: {}}}",
                        clip(mv, 60)
                    ));
                }
            }
        }
    }

    fn cmd_variant(&mut self, name: &str, command: &str) {
        let name = name.trim();
        if name.is_empty() {
            // the game is kept: a reset here would leave the GUI's board
            // and ours apart without a word
            self.error("variant needs a name", command);
            return;
        }
        self.cancel();
        let resolved = match name {
            "normal" => "chess".to_string(),
            other => super::cwda_resolve(other, &self.core.set),
        };
        match Game::new(&resolved, &self.core.set.user_armies) {
            Ok(g) => {
                self.game = g;
                self.illegal_position = false;
                self.xb_variant = name.to_string();
                self.core.set.variant = resolved.clone();
                let verdict = self.core.evaluation();
                if verdict.fell_back {
                    self.out(&format!("telluser {}", verdict.line));
                }
                self.exclude.clear();
                if self.xb_variant != "normal" {
                    match crate::variant::xboard::xboard_lines(self.game.spec()) {
                        Ok(lines) => {
                            for l in lines {
                                self.out(&l);
                            }
                        }
                        Err(e) => self.error(&e, command),
                    }
                }
            }
            Err(e) => self.error(&format!("unknown variant: {e}"), command),
        }
    }

    fn cmd_setboard(&mut self, fen: &str) {
        self.cancel();
        self.exclude.clear();
        match self.game.with_fen(fen.trim()) {
            Ok(g) => {
                self.game = g;
                self.illegal_position = false;
                if self.analyzing {
                    self.analyze();
                }
            }
            Err(e) => {
                // XBoard 4.9 drops an `Error` line that mentions "board"
                // without a word; this one it shows
                log::warn!("setboard refused: {e}");
                self.illegal_position = true;
                self.notice(&format!("Illegal position: {}", clip(&e, 200)));
            }
        }
    }

    /// Refuses a command that needs a position while the last `setboard`
    /// was refused; true if it did.
    fn refuse_without_position(&self, command: &str) -> bool {
        if self.illegal_position {
            self.error("illegal position, send new or setboard", command);
        }
        self.illegal_position
    }

    fn cmd_undo(&mut self, n: usize, command: &str) {
        if self.refuse_without_position(command) {
            return;
        }
        if self.game.moves().len() < n {
            self.error("no move to take back", command);
            return;
        }
        self.cancel();
        self.game.undo(n);
        self.exclude.clear();
        if self.analyzing {
            self.analyze();
        }
    }

    fn cmd_exclude(&mut self, args: &str, include: bool, command: &str) {
        let args = args.trim();
        if args.is_empty() {
            self.error("missing move", command);
            return;
        }
        if self.illegal_position {
            self.out(&format!("Illegal move: {}", clip(args, 60)));
            return;
        }
        if args == "all" {
            self.exclude = if include {
                Vec::new()
            } else {
                self.game.legal_moves()
            };
        } else {
            for m in args.split_whitespace() {
                match self.game.parse(m) {
                    Ok(n) => {
                        if include {
                            self.exclude.retain(|x| x != &n);
                        } else if !self.exclude.contains(&n) {
                            self.exclude.push(n);
                        }
                    }
                    Err(_) => {
                        self.out(&format!("Illegal move: {}", clip(m, 60)));
                        return;
                    }
                }
            }
        }
        if self.analyzing {
            self.analyze();
        }
    }

    fn cmd_option(&mut self, args: &str, command: &str) {
        let Some((name, value)) = args.split_once('=') else {
            self.error("option needs NAME=VALUE", command);
            return;
        };
        // the armies of `cwda` and the army file take effect at the next
        // `variant` command; XBoard chooses the variant itself
        match self.core.set_option(name, value) {
            Ok(Changed::Nothing) | Ok(Changed::Variant) => {}
            Ok(Changed::Notice(n)) => self.notice(&n),
            Ok(Changed::Info(n)) => self.out(&format!("# {n}")),
            Err(e) => self.error(&e, command),
        }
    }

    /// A number from `lo` to `hi` (no bound above without `hi`), or an
    /// error (the command changes nothing).
    fn number_in<T>(&self, arg: &str, command: &str, lo: T, hi: Option<T>) -> Option<T>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display,
    {
        match arg.trim().parse::<T>() {
            Ok(v) if v >= lo && hi.as_ref().is_none_or(|h| v <= *h) => Some(v),
            Ok(_) => {
                let range = match hi {
                    Some(h) => format!("from {lo} to {h}"),
                    None => format!("{lo} or more"),
                };
                self.error(&format!("the number must be {range}"), command);
                None
            }
            Err(_) => {
                self.error("bad number", command);
                None
            }
        }
    }

    /// A clock of `time` or `otim` (centiseconds) in milliseconds; below
    /// zero it is zero (an engine past its time moves at once), and a
    /// comment says so.
    fn clock(&self, arg: &str, command: &str) -> Option<u64> {
        let cs = self.number_in::<i64>(arg, command, i64::MIN, None)?;
        if cs < 0 {
            self.out(&format!(
                "# {}: a clock below zero is taken as 0",
                clip(command.trim(), 60)
            ));
        }
        Some((cs.max(0) as u64).saturating_mul(10))
    }

    fn cmd_level(&mut self, args: &str, command: &str) {
        let a: Vec<&str> = args.split_whitespace().collect();
        if a.len() != 3 {
            self.error("level needs MPS BASE INC", command);
            return;
        }
        match (
            a[0].parse::<u32>(),
            parse_minutes(a[1]),
            parse_seconds(a[2]),
        ) {
            (Ok(_), Some(0), Some(0)) => {
                self.error("bad level: no base time and no increment", command)
            }
            (Ok(mps), Some(base), Some(inc)) => {
                self.mps = mps;
                self.base_ms = base;
                self.inc_ms = inc;
                self.st_ms = None;
            }
            _ => self.error("bad level", command),
        }
    }
}

impl XBoard {
    /// `new`: standard chess from the start, the engine Black, no limits
    /// of the last game.
    fn cmd_new(&mut self, line: &str) {
        self.cancel();
        self.illegal_position = false;
        self.opponent_engine = false;
        self.core.engine.new_game();
        self.game = match Game::new("chess", &self.core.set.user_armies) {
            Ok(g) => g,
            Err(e) => {
                self.error(&e, line);
                return;
            }
        };
        self.xb_variant = "normal".into();
        self.force = false;
        self.engine_side = crate::variant::BLACK;
        self.sd = None;
        self.my_time = None;
        self.opp_time = None;
        self.exclude.clear();
        if self.analyzing {
            self.analyze();
        }
    }

    /// The limits and sizes: `level`, `st`, `sd`, `time`, `otim`,
    /// `memory`, `cores`.
    fn cmd_limits(&mut self, cmd: &str, args: &str, line: &str) {
        match cmd {
            "level" => self.cmd_level(args, line),
            "st" => match parse_seconds(args) {
                Some(ms) if ms > 0 => self.st_ms = Some(ms),
                _ => self.error("bad time", line),
            },
            "sd" => {
                if let Some(d) = self.number_in::<i32>(args, line, 1, Some(MAX_DEPTH)) {
                    self.sd = Some(d);
                }
            }
            "time" => self.my_time = self.clock(args, line).or(self.my_time),
            "otim" => self.opp_time = self.clock(args, line).or(self.opp_time),
            "memory" => {
                if let Some(mb) = self.number_in::<usize>(args, line, 1, None)
                    && let Changed::Notice(n) = self.core.set_hash(mb)
                {
                    self.notice(&n);
                }
            }
            "cores" => {
                if let Some(n) = self.number_in::<usize>(args, line, 1, Some(MAX_THREADS)) {
                    self.core.set_threads(n);
                }
            }
            _ => {}
        }
    }

    /// Handles one command.
    fn command(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let (cmd, args) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "name" | "rating" | "ics" | "random" | "hint"
            | "bk" | "draw" | "nps" | "white" | "black" => {}
            "computer" => self.opponent_engine = true,
            "protover" => self.features(),
            "new" => self.cmd_new(line),
            "variant" => self.cmd_variant(args, line),
            "force" => {
                self.force = true;
                if !self.analyzing {
                    self.cancel();
                }
            }
            "go" => {
                if self.refuse_without_position(line) {
                    return Flow::Continue;
                }
                self.force = false;
                self.engine_side = self.game.side();
                if !self.analyzing {
                    self.think();
                }
            }
            "playother" => {
                self.force = false;
                self.engine_side = self.game.side() ^ 1;
                self.cancel();
            }
            "usermove" => self.user_move(args, line),
            "?" => {
                if matches!(self.state, State::Thinking { .. }) {
                    self.core.engine.stop();
                }
            }
            "ping" => {
                // CECP: a ping seen while it is our move is answered after
                // the move (pondering and analysing do not count)
                self.pending_pongs.push(args.to_string());
            }
            "result" => {
                self.cancel();
                self.force = true;
            }
            "setboard" => self.cmd_setboard(args),
            "undo" => self.cmd_undo(1, line),
            "remove" => self.cmd_undo(2, line),
            "hard" => self.core.set.ponder = true,
            "easy" => {
                self.core.set.ponder = false;
                if matches!(self.state, State::Pondering { .. }) {
                    self.cancel();
                }
            }
            "post" => self.post.store(true, Ordering::Relaxed),
            "nopost" => self.post.store(false, Ordering::Relaxed),
            "analyze" => {
                self.analyzing = true;
                if !self.refuse_without_position(line) {
                    self.analyze();
                }
            }
            "exit" => {
                if self.analyzing {
                    self.analyzing = false;
                    self.cancel();
                }
            }
            "." => {
                if self.analyzing {
                    let s = self.status.lock().ok().and_then(|s| *s);
                    let (t, n, d) = s.unwrap_or((0, 0, 0));
                    let left = self.game.legal_moves().len();
                    self.out(&format!("stat01: {} {n} {d} {left} {left}", t / 10));
                }
            }
            "exclude" => self.cmd_exclude(args, false, line),
            "include" => self.cmd_exclude(args, true, line),
            "level" | "st" | "sd" | "time" | "otim" | "memory" | "cores" => {
                self.cmd_limits(cmd, args, line)
            }
            "option" => self.cmd_option(args, line),
            "quit" => return Flow::Quit,
            other => {
                // protocol version 1 sends bare moves
                match self.game.parse(other) {
                    Err(MoveError::Unparsable(_)) => self.error("unknown command", line),
                    _ if !args.is_empty() => self.error("unknown command", line),
                    _ => self.user_move(other, line),
                }
            }
        }
        Flow::Continue
    }
}

impl Handler for XBoard {
    fn line(&mut self, line: &str) -> Flow {
        let flow = self.command(line);
        // pings held back while thinking, once that is over (a move sent,
        // or the search cancelled by this command)
        self.answer_pings();
        flow
    }

    fn event(&mut self, ev: Event) -> Flow {
        match ev {
            Event::SearchDone { id, best, ponder } => {
                self.search_done(id, best, ponder);
                self.answer_pings();
            }
            Event::TooLong(n) => self.error(&format!("line too long, {n} bytes"), "(ignored)"),
            Event::Eof => return Flow::Quit,
            Event::Line(l) => return self.line(&l),
        }
        Flow::Continue
    }

    fn shutdown(&mut self) {
        self.core.stop_and_wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(parse_minutes("5"), Some(300_000));
        assert_eq!(parse_minutes("0:30"), Some(30_000));
        assert_eq!(parse_minutes("1:05"), Some(65_000));
        assert_eq!(parse_minutes("x"), None);
        assert_eq!(parse_seconds("0.5"), Some(500));
        assert_eq!(parse_seconds("-1"), None);
        assert_eq!(parse_seconds("inf"), None);
    }
}
