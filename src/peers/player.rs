//! An engine in a match: its process and the protocol spoken to it (UCI or
//! XBoard / CECP v2). `go` asks for a move on the referee's position with
//! the seats' clocks and waits for it, watching the clock: a move after
//! the time allowed is `Late`; an engine that still says nothing a grace
//! period after its flag fell (or that never answers without a clock) is
//! `Stalled`; one whose output closes has `Crashed`.

use std::time::{Duration, Instant};

use super::config::{EngineConfig, FourDialect, Proto};
use super::four_uci;
use super::process::{Process, Recv};
use super::referee::{Ending, Referee};
use super::tc::Clock;
use crate::game::Family;

/// How long an engine may take to answer the handshake or a sync.
const ANSWER: Duration = Duration::from_secs(10);
/// How long after its flag fell an engine still counts as alive.
const GRACE: Duration = Duration::from_millis(1000);

/// A score as the engine reported it, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// mate in this many moves (negative: being mated)
    Mate(i32),
}

impl Score {
    /// Centipawns, mates as +-30000 less the distance.
    pub fn cp(&self) -> i32 {
        match *self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 30000 - m,
            Score::Mate(m) => -30000 - m,
        }
    }

    fn negated(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    }

    /// As cutechess-cli writes it in PGN comments: `+0.31`, `-M3`.
    pub fn pgn(&self) -> String {
        match *self {
            Score::Cp(c) => format!(
                "{}{:.2}",
                if c >= 0 { "+" } else { "-" },
                c.abs() as f64 / 100.0
            ),
            Score::Mate(m) => format!("{}M{}", if m > 0 { "+" } else { "-" }, m.abs()),
        }
    }
}

/// Sees each line an engine writes while it thinks.
pub type Watch = Box<dyn FnMut(&str) + Send>;

/// Says whether the move an engine thinks on is still wanted: once it is
/// not, the engine is told to move now (its answer is read as usual and
/// left to the caller to drop).
pub type Wanted = Box<dyn Fn() -> bool + Send>;

/// How often `wanted` is asked while an engine thinks.
const WANTED_POLL: Duration = Duration::from_millis(50);

/// What an engine did when asked for a move.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Move {
        mv: String,
        used_ms: u64,
        score: Option<Score>,
        depth: Option<u32>,
    },
    Resign,
    /// a move, but after its time ran out
    Late {
        used_ms: u64,
    },
    /// no answer within its time and the grace after it
    Stalled,
    /// its output closed: the exit status if known
    Crashed(String),
    /// it refused a legal move sent to it (XBoard `Illegal move`)
    Rejected(String),
    /// instead of moving it claimed a result (XBoard) that is not its own
    /// loss: the referee says the game is not over, so the claim is false
    Claim(String),
}

#[derive(Clone, Debug, Default)]
struct XbFeatures {
    usermove: bool,
    setboard: bool,
    ping: bool,
    san: bool,
    variants: Option<Vec<String>>,
}

pub struct Player {
    cfg: EngineConfig,
    /// the name shown in results
    pub name: String,
    proc: Process,
    // UCI
    uci_variants: Option<Vec<String>>,
    uci_variant: String,
    // XBoard
    xb: XbFeatures,
    /// moves of the game the engine has been told (or made itself)
    sent: usize,
    /// XBoard: the engine is in force mode
    forced: bool,
    pings: u32,
    warned_nodes: bool,
    /// the game is four-player, in this dialect
    four: Option<FourDialect>,
    /// sees every line the engine writes while it thinks on a move (the
    /// board shows an engine's thinking this way)
    pub watch: Option<Watch>,
    /// whether the move it thinks on is still wanted (the board's seats:
    /// a move taken back or a new game abandons it)
    pub wanted: Option<Wanted>,
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// Splits `feature a=1 b="x y" c=2` into pairs.
fn features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start_matches("feature").trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (val, next) = if let Some(stripped) = after.strip_prefix('"') {
            match stripped.find('"') {
                Some(end) => (stripped[..end].to_string(), &stripped[end + 1..]),
                None => (stripped.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((key, val));
        rest = next.trim_start();
    }
    out
}

/// What an engine said while thinking: depth, score, nodes and principal
/// variation (in its own notation), as far as the line gives them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thinking {
    pub depth: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
}

/// The words of a UCI `info` line that end a principal variation (4pchess
/// writes its bare `score N` after the PV).
const INFO_WORDS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "sbhits",
];

/// A UCI `info` line (also 4pchess's); `info string` says nothing.
fn uci_thinking(line: &str) -> Thinking {
    let t: Vec<&str> = line.split_whitespace().collect();
    let mut th = Thinking::default();
    let mut i = 1;
    while i < t.len() {
        match t[i] {
            "depth" => th.depth = t.get(i + 1).and_then(|s| s.parse().ok()),
            "nodes" => th.nodes = t.get(i + 1).and_then(|s| s.parse().ok()),
            "score" => {
                th.score = match (
                    t.get(i + 1),
                    t.get(i + 2).and_then(|s| s.parse::<i32>().ok()),
                ) {
                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                    (Some(v), _) => v.parse().ok().map(Score::Cp).or(th.score),
                    _ => th.score,
                };
            }
            "pv" => {
                th.pv = t[i + 1..]
                    .iter()
                    .take_while(|w| !INFO_WORDS.contains(w))
                    .map(|w| w.to_string())
                    .collect();
                i += th.pv.len();
            }
            "string" => break,
            _ => {}
        }
        i += 1;
    }
    th
}

/// depth and score of a UCI `info` line.
fn uci_info(line: &str) -> (Option<u32>, Option<Score>) {
    let th = uci_thinking(line);
    (th.depth, th.score)
}

/// An XBoard thinking line (`ply score time nodes pv...`).
fn xboard_thinking_line(line: &str) -> Option<Thinking> {
    let mut t = line.split_whitespace();
    let ply: u32 = t
        .next()?
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok()?;
    let s: i32 = t.next()?.parse().ok()?;
    t.next()?.parse::<i64>().ok()?;
    let nodes = t.next().and_then(|n| n.parse().ok());
    let score = if s.abs() >= 99_000 {
        let m = (s.abs() - 100_000).abs().max(1);
        Score::Mate(if s > 0 { m } else { -m })
    } else {
        Score::Cp(s)
    };
    // move numbers (`12.`, `12...`) and annotations are not moves
    let pv = t
        .filter(|w| !w.ends_with('.') && !w.starts_with('(') && !w.starts_with('{'))
        .map(|w| w.to_string())
        .collect();
    Some(Thinking {
        depth: Some(ply),
        score: Some(score),
        nodes,
        pv,
    })
}

/// depth and score of an XBoard thinking line.
fn xboard_thinking(line: &str) -> Option<(u32, Score)> {
    let th = xboard_thinking_line(line)?;
    Some((th.depth?, th.score?))
}

/// What a line of the engine's output says about its thinking, if it is
/// an `info` line (UCI) or a thinking line (XBoard) with a score.
pub fn thinking(proto: Proto, line: &str) -> Option<Thinking> {
    let l = line.trim();
    match proto {
        Proto::Uci => l
            .starts_with("info ")
            .then(|| uci_thinking(l))
            .filter(|t| t.score.is_some()),
        Proto::Xboard => xboard_thinking_line(l),
    }
}

/// The XBoard name of a variant.
fn xboard_variant(v: &str) -> &str {
    if v == "chess" { "normal" } else { v }
}

/// Seconds for `level` and `st`: whole numbers where possible.
fn secs(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

impl Player {
    /// Starts the engine and does the handshake.
    pub fn start(cfg: &EngineConfig, label: &str) -> Result<Player, String> {
        let proc = Process::spawn(&cfg.launch, label)?;
        let mut p = Player {
            cfg: cfg.clone(),
            name: cfg.name.clone().unwrap_or_else(|| label.to_string()),
            proc,
            uci_variants: None,
            uci_variant: "chess".into(),
            xb: XbFeatures::default(),
            sent: 0,
            forced: true,
            pings: 0,
            warned_nodes: false,
            four: None,
            watch: None,
            wanted: None,
        };
        match cfg.proto {
            Proto::Uci => p.uci_handshake()?,
            Proto::Xboard => p.xboard_handshake()?,
        }
        for line in &cfg.init {
            p.send(line);
        }
        p.sync().map_err(|e| format!("engine '{}': {e}", p.name))?;
        Ok(p)
    }

    fn send(&mut self, s: &str) -> bool {
        self.proc.send(s)
    }

    fn fail(&mut self, what: &str) -> String {
        let status = self
            .proc
            .exit_status(Duration::from_millis(200))
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        format!("engine '{}': {what}{status}", self.name)
    }

    fn uci_handshake(&mut self) -> Result<(), String> {
        self.send("uci");
        let end = Instant::now() + ANSWER;
        let mut own_name = None;
        loop {
            match self.proc.recv(end) {
                Recv::Line(l, _) => {
                    if let Some(n) = l.strip_prefix("id name ") {
                        own_name = Some(n.trim().to_string());
                    } else if l.starts_with("option name UCI_Variant ") {
                        let vars: Vec<String> = l
                            .split_whitespace()
                            .skip_while(|w| *w != "var")
                            .filter(|w| *w != "var")
                            .map(str::to_string)
                            .collect();
                        self.uci_variants = Some(vars);
                    } else if l.trim() == "uciok" {
                        break;
                    }
                }
                Recv::Timeout => return Err(self.fail("no 'uciok' within 10 s")),
                Recv::Eof => return Err(self.fail("exited during the UCI handshake")),
            }
        }
        if self.cfg.name.is_none()
            && let Some(n) = own_name
        {
            self.name = n;
        }
        for (k, v) in self.cfg.options.clone() {
            self.send(&format!("setoption name {k} value {v}"));
        }
        Ok(())
    }

    fn xboard_handshake(&mut self) -> Result<(), String> {
        self.send("xboard");
        self.send("protover 2");
        let mut end = Instant::now() + Duration::from_secs(2);
        let mut own_name = None;
        loop {
            match self.proc.recv(end) {
                Recv::Line(l, _) => {
                    if !l.starts_with("feature ") {
                        continue;
                    }
                    let mut done = false;
                    for (k, v) in features(&l) {
                        match k.as_str() {
                            "usermove" => self.xb.usermove = v == "1",
                            "setboard" => self.xb.setboard = v == "1",
                            "ping" => self.xb.ping = v == "1",
                            "san" => self.xb.san = v == "1",
                            "myname" => own_name = Some(v.clone()),
                            "variants" => {
                                self.xb.variants =
                                    Some(v.split(',').map(|s| s.trim().to_string()).collect())
                            }
                            "done" if v == "0" => end = Instant::now() + ANSWER,
                            "done" => done = true,
                            _ => {}
                        }
                        if k != "done" {
                            self.send(&format!("accepted {k}"));
                        }
                    }
                    if done {
                        break;
                    }
                }
                // a protocol-1 engine says nothing: go on after the wait
                Recv::Timeout => break,
                Recv::Eof => return Err(self.fail("exited during the XBoard handshake")),
            }
        }
        if self.cfg.name.is_none()
            && let Some(n) = own_name
        {
            self.name = n;
        }
        for (k, v) in self.cfg.options.clone() {
            self.send(&format!("option {k}={v}"));
        }
        Ok(())
    }

    /// Waits until the engine has read everything sent (`isready`, `ping`).
    fn sync(&mut self) -> Result<(), String> {
        let (ask, answer) = match self.cfg.proto {
            Proto::Uci => ("isready".to_string(), "readyok".to_string()),
            Proto::Xboard if self.xb.ping => {
                self.pings += 1;
                (
                    format!("ping {}", self.pings),
                    format!("pong {}", self.pings),
                )
            }
            Proto::Xboard => return Ok(()),
        };
        if !self.send(&ask) {
            return Err(self.fail("its input is closed"));
        }
        let end = Instant::now() + ANSWER;
        loop {
            match self.proc.recv(end) {
                Recv::Line(l, _) if l.trim() == answer => return Ok(()),
                Recv::Line(..) => {}
                Recv::Timeout => return Err(self.fail(&format!("no '{answer}' within 10 s"))),
                Recv::Eof => return Err(self.fail("exited")),
            }
        }
    }

    /// Whether the engine says it plays `variant` (None: it does not say).
    pub fn supports(&self, variant: &str) -> Option<bool> {
        match self.cfg.proto {
            Proto::Uci if variant == "chess" => Some(true),
            Proto::Uci => self
                .uci_variants
                .as_ref()
                .map(|v| v.iter().any(|x| x == variant)),
            Proto::Xboard => self.xb.variants.as_ref().map(|v| {
                let name = xboard_variant(variant);
                v.iter().any(|x| x == name) || (self.cfg.setup && v.iter().any(|x| x == "fairy"))
            }),
        }
    }

    /// Whether the engine can start from a position (UCI always; XBoard
    /// with `setboard`).
    pub fn can_set_position(&self) -> bool {
        self.cfg.proto == Proto::Uci || self.xb.setboard
    }

    /// Prepares a new game on the referee's root position.
    pub fn new_game(&mut self, r: &dyn Referee) -> Result<(), String> {
        self.sent = 0;
        self.forced = true;
        self.four = Family::of(r.variant())
            .is_four()
            .then_some(self.cfg.fourplayer);
        match self.cfg.proto {
            Proto::Uci => {
                // 4pchess plays its one variant and knows no UCI_Variant
                if r.variant() != self.uci_variant && self.four != Some(FourDialect::FourPChess) {
                    self.send(&format!("setoption name UCI_Variant value {}", r.variant()));
                    self.uci_variant = r.variant().to_string();
                }
                self.send("ucinewgame");
            }
            Proto::Xboard => {
                self.send("new");
                if r.variant() != "chess" {
                    self.send(&format!("variant {}", xboard_variant(r.variant())));
                    if self.cfg.setup {
                        for l in r.xboard_setup()? {
                            self.send(&l);
                        }
                    }
                }
                self.send("force");
                if let Some(fen) = r.root_fen() {
                    if !self.xb.setboard {
                        return Err(format!(
                            "engine '{}' cannot set up a position (no setboard)",
                            self.name
                        ));
                    }
                    self.send(&format!("setboard {fen}"));
                }
                let tc = self.cfg.tc.clone();
                if let Some(st) = tc.movetime_ms {
                    self.send(&format!("st {}", secs(st)));
                } else if tc.has_clock() {
                    let base = tc.base_ms / 1000;
                    let frac = tc.base_ms % 1000;
                    let base_s = if frac == 0 {
                        format!("{}:{:02}", base / 60, base % 60)
                    } else {
                        format!("{}:{:02}.{:03}", base / 60, base % 60, frac)
                    };
                    self.send(&format!(
                        "level {} {} {}",
                        tc.moves,
                        base_s,
                        secs(tc.inc_ms)
                    ));
                }
                if let Some(d) = tc.depth {
                    self.send(&format!("sd {d}"));
                }
                if tc.nodes.is_some() && !self.warned_nodes {
                    log::warn!("{}: XBoard has no node limit; nodes= is ignored", self.name);
                    self.warned_nodes = true;
                }
                self.send("post");
                self.send("easy");
                self.send("computer");
            }
        }
        self.sync()
    }

    /// Asks for a move in the referee's position; `clocks` per seat.
    pub fn go(&mut self, r: &dyn Referee, clocks: &[Clock]) -> Reply {
        let seat = r.to_move();
        let allowed = clocks[seat].allowed_ms();
        let start = match self.cfg.proto {
            Proto::Uci => self.uci_go(r, clocks),
            Proto::Xboard => self.xboard_go(r, clocks),
        };
        let Some(start) = start else {
            return Reply::Crashed(
                self.proc
                    .exit_status(Duration::from_millis(200))
                    .unwrap_or_else(|| "input closed".into()),
            );
        };
        let reply = self.wait_move(start, allowed, seat);
        if matches!(reply, Reply::Move { .. }) {
            self.sent = r.moves().len() + 1;
        }
        reply
    }

    fn uci_go(&mut self, r: &dyn Referee, clocks: &[Clock]) -> Option<Instant> {
        let (pos, go) = if let Some(d) = self.four {
            let tc = &clocks[r.to_move()].tc;
            if d == FourDialect::FourPChess && tc.nodes.is_some() && !self.warned_nodes {
                log::warn!(
                    "{}: 4pchess has no node limit; nodes= is ignored",
                    self.name
                );
                self.warned_nodes = true;
            }
            (four_uci::position(d, r), four_uci::go(d, r, clocks))
        } else {
            Self::uci_commands(r, clocks)
        };
        if !self.send(&pos) {
            return None;
        }
        let start = Instant::now();
        self.send(&go).then_some(start)
    }

    /// `position` and `go` for a two-player game.
    fn uci_commands(r: &dyn Referee, clocks: &[Clock]) -> (String, String) {
        let mut pos = match r.root_fen() {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !r.moves().is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&r.moves().join(" "));
        }
        let tc = &clocks[r.to_move()].tc;
        let mut go = String::from("go");
        if let Some(st) = tc.movetime_ms {
            go.push_str(&format!(" movetime {st}"));
        } else if tc.has_clock() {
            let names = [("wtime", "winc"), ("btime", "binc")];
            for (i, c) in clocks.iter().enumerate().take(2) {
                go.push_str(&format!(
                    " {} {} {} {}",
                    names[i].0,
                    c.left_ms.max(1),
                    names[i].1,
                    c.tc.inc_ms
                ));
            }
            if let Some(m) = clocks[r.to_move()].movestogo() {
                go.push_str(&format!(" movestogo {m}"));
            }
        }
        if let Some(d) = tc.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = tc.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        (pos, go)
    }

    fn xboard_move(&self, r: &dyn Referee, i: usize) -> String {
        let m = if self.xb.san {
            &r.san_moves()[i]
        } else {
            &r.moves()[i]
        };
        if self.xb.usermove {
            format!("usermove {m}")
        } else {
            m.clone()
        }
    }

    fn xboard_go(&mut self, r: &dyn Referee, clocks: &[Clock]) -> Option<Instant> {
        let seat = r.to_move();
        let n = r.moves().len();
        let times = if clocks[seat].tc.has_clock() && clocks[seat].tc.movetime_ms.is_none() {
            vec![
                format!("time {}", clocks[seat].left_ms.max(0) / 10),
                format!("otim {}", clocks[1 - seat].left_ms.max(0) / 10),
            ]
        } else {
            Vec::new()
        };
        if !self.forced && n == self.sent + 1 {
            // it waits for the opponent's move and then thinks
            for t in &times {
                self.send(t);
            }
            let m = self.xboard_move(r, n - 1);
            let start = Instant::now();
            return self.send(&m).then_some(start);
        }
        if !self.forced {
            self.send("force");
            self.forced = true;
        }
        for i in self.sent..n {
            let m = self.xboard_move(r, i);
            self.send(&m);
        }
        for t in &times {
            self.send(t);
        }
        self.forced = false;
        let start = Instant::now();
        self.send("go").then_some(start)
    }

    /// Reads the engine's output until its move (or its failure).
    fn wait_move(&mut self, start: Instant, allowed: Option<u64>, seat: usize) -> Reply {
        let flag = allowed.map(|a| start + Duration::from_millis(a));
        let mut end = flag.unwrap_or(start + self.cfg.tc.hang());
        let mut late = false;
        let mut depth = None;
        let mut score = None;
        let flip = self.cfg.whitepov && seat == 1;
        let pov = |s: Score| if flip { s.negated() } else { s };
        let mut told_to_move = false;
        loop {
            let mut until = end;
            if !told_to_move && let Some(wanted) = &self.wanted {
                if wanted() {
                    until = end.min(Instant::now() + WANTED_POLL);
                } else {
                    // no longer wanted: its answer, soon, is dropped
                    told_to_move = true;
                }
                if told_to_move {
                    self.move_now();
                }
            }
            match self.proc.recv(until) {
                Recv::Timeout if until < end => continue,
                Recv::Line(line, at) => {
                    let l = line.trim();
                    if let Some(w) = self.watch.as_mut() {
                        w(l);
                    }
                    let mv = match self.cfg.proto {
                        Proto::Uci => {
                            if let Some(v) = self.four.and_then(|d| four_uci::verdict(d, l)) {
                                return v;
                            }
                            if l.starts_with("info ") {
                                let (d, s) = uci_info(l);
                                if let Some(s) = s {
                                    score = Some(pov(s));
                                    depth = d.or(depth);
                                }
                                None
                            } else {
                                l.strip_prefix("bestmove")
                                    .map(|m| m.split_whitespace().next().unwrap_or("").to_string())
                            }
                        }
                        Proto::Xboard => {
                            if let Some(m) = l.strip_prefix("move ") {
                                Some(m.trim().to_string())
                            } else if l == "resign" || l.starts_with("tellics resign") {
                                return Reply::Resign;
                            } else if l.starts_with("Illegal move") {
                                return Reply::Rejected(l.to_string());
                            } else if let Some((d, s)) = xboard_thinking(l) {
                                depth = Some(d);
                                score = Some(pov(s));
                                None
                            } else {
                                // a claim of its own loss is a resignation
                                let own_loss = if seat == 0 { "0-1" } else { "1-0" };
                                if l.starts_with(own_loss) {
                                    return Reply::Resign;
                                }
                                if ["1-0", "0-1", "1/2-1/2"].iter().any(|r| l.starts_with(r)) {
                                    return Reply::Claim(l.to_string());
                                }
                                None
                            }
                        }
                    };
                    if let Some(mv) = mv {
                        let used_ms = ms(at.saturating_duration_since(start));
                        if late || flag.is_some_and(|f| at > f) {
                            return Reply::Late { used_ms };
                        }
                        return Reply::Move {
                            mv,
                            used_ms,
                            score,
                            depth,
                        };
                    }
                }
                Recv::Timeout => {
                    if late || flag.is_none() {
                        return Reply::Stalled;
                    }
                    // the flag fell: tell it to move now; an engine that
                    // still answers has lost on time, one that does not
                    // has stalled
                    late = true;
                    end = Instant::now() + GRACE;
                    self.move_now();
                }
                Recv::Eof => {
                    return Reply::Crashed(
                        self.proc
                            .exit_status(Duration::from_millis(200))
                            .unwrap_or_else(|| "output closed".into()),
                    );
                }
            }
        }
    }

    /// Tells a thinking engine to move now.
    fn move_now(&mut self) {
        match self.cfg.proto {
            Proto::Uci => self.send("stop"),
            Proto::Xboard => self.send("?"),
        };
    }

    /// Tells the engine the game is over.
    pub fn end_game(&mut self, e: &Ending) {
        if self.cfg.proto == Proto::Xboard {
            self.send(&format!("result {} {{{}}}", e.result, e.reason));
            self.send("force");
            self.forced = true;
        }
    }

    /// The last lines exchanged with the engine.
    pub fn recent(&self) -> String {
        self.proc.recent()
    }

    pub fn quit(self) {
        self.proc.quit("quit");
    }

    pub fn kill(mut self) {
        self.proc.kill();
    }

    pub fn restart_after_game(&self) -> bool {
        self.cfg.restart == super::config::Restart::On
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_engine_lines() {
        let f = features(r#"feature ping=1 myname="Sjaak II 1.4" variants="normal,omega" done=1"#);
        assert_eq!(f[1], ("myname".into(), "Sjaak II 1.4".into()));
        assert_eq!(f[2], ("variants".into(), "normal,omega".into()));
        assert_eq!(f[3], ("done".into(), "1".into()));
        assert_eq!(
            uci_info("info depth 12 seldepth 20 score cp -31 nodes 100 pv e2e4"),
            (Some(12), Some(Score::Cp(-31)))
        );
        assert_eq!(
            uci_info("info depth 3 score mate -2 pv a1a2"),
            (Some(3), Some(Score::Mate(-2)))
        );
        assert_eq!(uci_info("info string depth 3 score cp 1"), (None, None));
        // 4pchess: a bare score after the PV
        assert_eq!(
            uci_info("info depth 9 time 279 nodes 39064 pv a10-c9 i13-i12 score -182 nps 140014"),
            (Some(9), Some(Score::Cp(-182)))
        );
        assert_eq!(
            xboard_thinking("7 -45 12 3400 e2e4 e7e5"),
            Some((7, Score::Cp(-45)))
        );
        assert_eq!(
            xboard_thinking("9. 100003 12 3400 e2e4"),
            Some((9, Score::Mate(3)))
        );
        assert_eq!(xboard_thinking("move e2e4"), None);
        let th = thinking(
            Proto::Uci,
            "info depth 9 time 279 nodes 39064 pv a10-c9 i13-i12 score -182 nps 140014",
        )
        .unwrap();
        assert_eq!(th.pv, ["a10-c9", "i13-i12"]);
        assert_eq!((th.nodes, th.score), (Some(39064), Some(Score::Cp(-182))));
        let th = thinking(Proto::Uci, "info depth 5 multipv 1 score cp 7 pv e2e4 e7e5").unwrap();
        assert_eq!(th.pv, ["e2e4", "e7e5"]);
        assert_eq!(thinking(Proto::Uci, "info depth 5 nodes 10"), None);
        let th = thinking(Proto::Xboard, "7 -45 12 3400 1. e2e4 e7e5").unwrap();
        assert_eq!((th.depth, th.nodes), (Some(7), Some(3400)));
        assert_eq!(th.pv, ["e2e4", "e7e5"]);
        assert_eq!(Score::Cp(31).pgn(), "+0.31");
        assert_eq!(Score::Cp(-5).pgn(), "-0.05");
        assert_eq!(Score::Mate(-3).pgn(), "-M3");
    }
}
