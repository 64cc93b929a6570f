//! The page's one session: the game (a root and the line of moves played
//! from it, with a cursor for stepping through), who sits where, the
//! clocks, and the engine. The engine runs in this process on its own
//! thread (`Engine::go`, `go_with`); its reports go into `SearchOut`, a
//! small lock of their own that the search thread never holds for long,
//! and `pump` (called by the server's ticker and by every request) plays
//! the engine's move or starts the next search. A search never blocks a
//! request: stopping one waits only for the search thread to see its stop
//! flag.
//!
//! In-process rather than a child over the UCI dialect, measured on the
//! four-player start (Teams, 64 MB, 1 s): the same 390,907 nodes either
//! way, so the search is no faster in a child, while a child costs 64-114
//! ms to start and shake hands and turns every move and principal
//! variation into text and back; here the reports are `Move` values.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::external::{Answer, External, Job};
use crate::base::Move;
use crate::fourplayer::Position4;
use crate::fourplayer::search::Objective;
use crate::game::any::{AnyGame, Entry, replay};
use crate::peers::config::EngineConfig;
use crate::peers::tc::TimeControl;
use crate::position::san::to_san;
use crate::search::{Engine, Limits, Report, Reporter, ScoreKind};
use crate::setup::AnyPosition;
use crate::variant::armies::Army;
use crate::with_position;

/// The name of the built-in engine among a seat's players.
pub const CHIMERA: &str = "chimera";
/// The most analysis lines the page shows.
pub const MAX_LINES: usize = 8;

/// Who the person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// one seat; Chimera plays the others
    One(usize),
    /// Chimera plays every seat
    Watch,
    /// the person moves for every seat (analysis)
    All,
}

impl Seat {
    pub fn parse(s: &str, players: usize) -> Result<Seat, String> {
        let names4 = ["red", "blue", "yellow", "green"];
        let names2 = ["white", "black"];
        let l = s.to_ascii_lowercase();
        match l.as_str() {
            "none" | "watch" => Ok(Seat::Watch),
            "all" | "analysis" => Ok(Seat::All),
            _ => {
                let names: &[&str] = if players == 4 { &names4 } else { &names2 };
                names
                    .iter()
                    .position(|n| *n == l)
                    .map(Seat::One)
                    .ok_or_else(|| {
                        format!("seat '{s}': expected {}, none or all", names.join(", "))
                    })
            }
        }
    }

    pub fn name(self, players: usize) -> String {
        match self {
            Seat::Watch => "none".into(),
            Seat::All => "all".into(),
            Seat::One(p) if players == 4 => ["red", "blue", "yellow", "green"][p.min(3)].into(),
            Seat::One(p) => ["white", "black"][p.min(1)].into(),
        }
    }

    pub fn is_person(self, p: usize) -> bool {
        match self {
            Seat::One(s) => s == p,
            Seat::Watch => false,
            Seat::All => true,
        }
    }
}

/// What the search reported last, in the page's terms.
#[derive(Clone, Debug, Default)]
pub struct SearchOut {
    /// the search these reports belong to
    pub id: u64,
    pub depth: i32,
    /// `+0.35`, `#3`, `#-2`
    pub score: String,
    pub nodes: u64,
    pub nps: u64,
    /// the principal variation in the record's notation
    pub pv: Vec<String>,
    /// the first move's squares, for the arrow
    pub arrow: Option<(String, String)>,
    /// FFA: the points at the end of the principal variation
    pub points: Option<[i32; 4]>,
    /// set when the search has finished: its move (None: no move)
    pub best: Option<Option<Move>>,
    /// MultiPV: every line (the first is the one above), best first
    pub lines: Vec<Line>,
}

/// One line of a MultiPV analysis.
#[derive(Clone, Debug, Default)]
pub struct Line {
    pub depth: i32,
    pub score: String,
    pub pv: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// the engine chooses a move for its seat
    Move,
    /// the engine analyses until stopped
    Analysis,
}

struct Running {
    id: u64,
    kind: Kind,
    /// the side the scores are for
    side: usize,
    /// the seated engine that thinks (an index into `externals`); None:
    /// Chimera
    by: Option<usize>,
}

pub struct Settings {
    pub seat: Seat,
    /// the engine's time per move
    pub movetime_ms: u64,
    /// each player's time for the game; 0: no limit (clocks count up)
    pub clock_ms: u64,
    /// added to a player's clock after each of their moves
    pub inc_ms: u64,
    /// at the start of each move, the clock waits this long before it
    /// runs (Chess.com's four-player "delay")
    pub delay_ms: u64,
    /// lines the analysis shows
    pub multipv: usize,
    /// Free-For-All: how Chimera searches (paranoid or best-reply)
    pub ffa: Objective,
    /// who plays each seat the person does not: `chimera` or an engine
    /// of engines.toml by its name
    pub engines: [String; 4],
    pub analyse: bool,
    /// the engine's level when it plays: 0-19 weaker, 20 full strength
    /// (its analysis is always at full strength)
    pub level: u8,
}

pub struct Session {
    pub settings: Settings,
    root: AnyGame,
    /// every event of the game, past the cursor too
    line: Vec<Entry>,
    cursor: usize,
    cur: AnyGame,
    engine: Engine,
    running: Option<Running>,
    next_id: u64,
    out: Arc<Mutex<SearchOut>>,
    /// time used per seat, increments earned, the time of the move now
    /// being thought on, and when it was last counted
    used_ms: [u64; 4],
    bonus_ms: [u64; 4],
    move_ms: u64,
    last_tick: Instant,
    /// the engines a seat may be given (engines.toml), and the armies
    /// files' armies
    pool: Vec<(String, EngineConfig)>,
    armies: Vec<Army>,
    /// the engines seated so far, each with its thread
    externals: Vec<External>,
    /// bumped on every change the page must redraw
    pub version: u64,
    /// what happened last (a loaded record, the engine's resignation, ...)
    pub notice: String,
}

impl Session {
    pub fn new() -> Session {
        Session::with(Vec::new(), Vec::new())
    }

    /// A session whose seats may be given to the engines of `pool`, with
    /// the armies of `armies` files besides the built-in ones.
    pub fn with(pool: Vec<(String, EngineConfig)>, armies: Vec<Army>) -> Session {
        let root = AnyGame::new("fourplayer-teams", "4PCo").expect("the start sets up");
        let mut engine = Engine::new();
        engine.set_hash(64);
        engine.move_overhead = 0;
        Session {
            settings: Settings {
                seat: Seat::One(0),
                movetime_ms: 1000,
                clock_ms: 0,
                inc_ms: 0,
                delay_ms: 0,
                multipv: 1,
                ffa: Objective::Paranoid,
                engines: std::array::from_fn(|_| CHIMERA.to_string()),
                analyse: false,
                level: crate::search::skill::MAX_LEVEL,
            },
            cur: root.clone(),
            root,
            line: Vec::new(),
            cursor: 0,
            engine,
            running: None,
            next_id: 1,
            out: Arc::new(Mutex::new(SearchOut::default())),
            used_ms: [0; 4],
            bonus_ms: [0; 4],
            move_ms: 0,
            last_tick: Instant::now(),
            pool,
            armies,
            externals: Vec::new(),
            version: 1,
            notice: String::new(),
        }
    }

    pub fn game(&self) -> &AnyGame {
        &self.cur
    }
    pub fn root(&self) -> &AnyGame {
        &self.root
    }
    pub fn line(&self) -> &[Entry] {
        &self.line
    }
    pub fn cursor(&self) -> usize {
        self.cursor
    }
    pub fn used_ms(&self) -> [u64; 4] {
        self.used_ms
    }
    /// Time left per seat with a clock (increments included).
    pub fn left_ms(&self) -> Option<[u64; 4]> {
        (self.settings.clock_ms > 0).then(|| {
            std::array::from_fn(|p| {
                (self.settings.clock_ms + self.bonus_ms[p]).saturating_sub(self.used_ms[p])
            })
        })
    }
    pub fn armies(&self) -> &[Army] {
        &self.armies
    }
    /// The engines a seat may be given: (name in engines.toml, the name it
    /// goes by, whether it plays the variant shown).
    pub fn engine_choices(&self) -> Vec<(String, String, bool)> {
        let v = self.cur.variant();
        self.pool
            .iter()
            .map(|(k, c)| {
                let name = c.name.clone().unwrap_or_else(|| k.clone());
                (k.clone(), name, c.plays(&v))
            })
            .collect()
    }
    /// Who plays seat `p`: `None` for the person, else the engine's name.
    pub fn player_of(&self, p: usize) -> Option<String> {
        if self.settings.seat.is_person(p) {
            return None;
        }
        let key = &self.settings.engines[p.min(3)];
        if key == CHIMERA {
            return Some("Chimera".into());
        }
        Some(
            self.pool
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, c)| c.name.clone())
                .unwrap_or_else(|| key.clone()),
        )
    }

    /// The search's last report, if it is about the position shown: the
    /// report, its kind, the side its scores are for and who thinks.
    pub fn analysis(&self) -> Option<(SearchOut, Kind, usize, String)> {
        let r = self.running.as_ref()?;
        let (out, who) = match r.by {
            Some(i) => (
                lock(&self.externals[i].out).clone(),
                self.externals[i].name.clone(),
            ),
            None => (lock(&self.out).clone(), "Chimera".to_string()),
        };
        (out.id == r.id).then_some((out, r.kind, r.side, who))
    }

    pub fn thinking(&self) -> Option<Kind> {
        self.running.as_ref().map(|r| r.kind)
    }

    /// Stops the search (if any) and forgets it. A seated engine is told
    /// to move now; its answer, no longer awaited, is dropped.
    fn stop(&mut self) {
        match self.running.take() {
            Some(Running { by: None, .. }) => {
                self.engine.stop();
                self.engine.wait();
            }
            Some(Running { by: Some(i), .. }) => {
                if let Some(e) = self.externals.get(i) {
                    e.abandon();
                }
            }
            None => {}
        }
        self.version += 1;
    }

    /// A new game of a variant from its start.
    pub fn new_game(&mut self, variant: &str, layout: &str) -> Result<(), String> {
        let root = AnyGame::with_armies(variant, layout, &self.armies)?;
        self.stop();
        if let Seat::One(p) = self.settings.seat
            && p >= root.players()
        {
            self.settings.seat = Seat::One(0);
        }
        self.engine.new_game();
        self.set_game(root, Vec::new());
        self.notice = format!("new game: {}", self.cur.variant());
        self.unseat_strangers();
        Ok(())
    }

    /// Gives Chimera back every seat whose engine does not play the
    /// variant shown (after a new game or a loaded record), and says so.
    fn unseat_strangers(&mut self) {
        let v = self.cur.variant();
        for p in 0..4 {
            let key = self.settings.engines[p].clone();
            if key == CHIMERA {
                continue;
            }
            let plays = self.pool.iter().any(|(k, c)| *k == key && c.plays(&v));
            if !plays {
                self.settings.engines[p] = CHIMERA.into();
                self.notice.push_str(&format!(
                    "; {key} does not play {v}: Chimera takes its seat"
                ));
            }
        }
    }

    fn set_game(&mut self, root: AnyGame, line: Vec<Entry>) {
        self.stop();
        self.cursor = line.len();
        self.cur = replay(&root, &tokens(&line))
            .map(|(g, _)| g)
            .unwrap_or_else(|_| root.clone());
        self.root = root;
        self.line = line;
        self.reset_clocks();
    }

    fn reset_clocks(&mut self) {
        self.used_ms = [0; 4];
        self.bonus_ms = [0; 4];
        self.move_ms = 0;
        self.last_tick = Instant::now();
    }

    /// Loads a FEN4, PGN4, FEN or PGN; the game is kept if it fails.
    pub fn load(&mut self, text: &str) -> Result<(), String> {
        let l = super::records::load_with(text, &self.cur, &self.armies)?;
        let (_, entries) = replay(&l.root, &l.tokens)?;
        if let Seat::One(p) = self.settings.seat
            && p >= l.root.players()
        {
            self.settings.seat = Seat::One(0);
        }
        self.engine.new_game();
        let n = entries.len();
        self.set_game(l.root, entries);
        self.notice = format!("loaded {}, {} moves: {}", l.kind, n, self.cur.variant());
        self.unseat_strangers();
        Ok(())
    }

    /// The record of the whole line (PGN4 or PGN).
    pub fn save_record(&self) -> Result<String, String> {
        let seat = self.settings.seat;
        let names = super::records::seat_names(self.root.players(), |p| seat.is_person(p));
        super::records::save_record(&self.root, &self.line, &names)
    }

    /// A move (or `R`, `T`) by the side to move at the cursor; moves past
    /// the cursor are dropped (a new line from here).
    pub fn play(&mut self, token: &str) -> Result<(), String> {
        let mut g = self.cur.clone();
        let e = g.play(token)?;
        self.stop();
        if self.live() && self.settings.clock_ms > 0 && !matches!(token, "R" | "T") {
            self.bonus_ms[e.seat] += self.settings.inc_ms;
        }
        self.move_ms = 0;
        self.line.truncate(self.cursor);
        self.line.push(e);
        self.cursor += 1;
        self.cur = g;
        Ok(())
    }

    /// A move by the person: only for a seat the person plays.
    pub fn person_moves(&mut self, token: &str) -> Result<(), String> {
        let side = self.cur.side();
        if self.cursor == self.line.len() && !self.settings.seat.is_person(side) {
            return Err(format!(
                "it is {}'s turn, which Chimera plays",
                self.cur.player_name(side)
            ));
        }
        self.play(token)
    }

    /// The person resigns (their seat must be to move).
    pub fn resign(&mut self) -> Result<(), String> {
        let side = self.cur.side();
        if !self.settings.seat.is_person(side) {
            return Err(format!(
                "you can resign on your own turn; {} is to move",
                self.cur.player_name(side)
            ));
        }
        self.play("R")
    }

    /// Takes back the last move; against the engine, back to the person's
    /// turn. Returns how many were taken back.
    pub fn undo(&mut self) -> Result<usize, String> {
        if self.cursor == 0 {
            return Err("nothing to take back".into());
        }
        self.stop();
        let mut n = 0;
        loop {
            self.cursor -= 1;
            n += 1;
            self.line.truncate(self.cursor);
            let (g, _) = replay(&self.root, &tokens(&self.line))?;
            self.cur = g;
            let side = self.cur.side();
            if self.cursor == 0
                || self.settings.seat.is_person(side)
                || self.settings.seat == Seat::Watch
            {
                break;
            }
        }
        Ok(n)
    }

    /// Shows the position after `ply` events of the line.
    pub fn goto(&mut self, ply: usize) -> Result<(), String> {
        if ply > self.line.len() {
            return Err(format!("ply {ply}: the game has {} moves", self.line.len()));
        }
        self.stop();
        let (g, _) = replay(&self.root, &tokens(&self.line[..ply]))?;
        self.cur = g;
        self.cursor = ply;
        Ok(())
    }

    /// Changes who plays and how fast; a running search is restarted.
    pub fn configure(
        &mut self,
        seat: Option<Seat>,
        movetime_ms: Option<u64>,
        clock_ms: Option<u64>,
        analyse: Option<bool>,
    ) {
        self.stop();
        if let Some(s) = seat {
            self.settings.seat = s;
        }
        if let Some(m) = movetime_ms {
            self.settings.movetime_ms = m;
        }
        if let Some(c) = clock_ms {
            self.settings.clock_ms = c;
            self.reset_clocks();
        }
        if let Some(a) = analyse {
            self.settings.analyse = a;
        }
    }

    /// The clock's increment and delay per move; the clocks start again.
    pub fn set_increments(&mut self, inc_ms: Option<u64>, delay_ms: Option<u64>) {
        self.stop();
        if let Some(i) = inc_ms {
            self.settings.inc_ms = i;
        }
        if let Some(d) = delay_ms {
            self.settings.delay_ms = d;
        }
        self.reset_clocks();
    }

    /// Lines of analysis (1 to MAX_LINES) and the Free-For-All search.
    pub fn set_analysis(&mut self, multipv: Option<usize>, ffa: Option<Objective>) {
        self.stop();
        if let Some(m) = multipv {
            self.settings.multipv = m.clamp(1, MAX_LINES);
        }
        if let Some(o) = ffa {
            self.settings.ffa = o;
        }
    }

    /// Seats engines: per seat `chimera` or an engine of engines.toml that
    /// plays the variant shown (a seat the person plays keeps its engine
    /// for when the person leaves it). All or nothing.
    pub fn set_engines(&mut self, names: &[String]) -> Result<(), String> {
        let n = self.cur.players();
        if names.len() != n {
            return Err(format!(
                "'engines' names {} seats; this game has {n}",
                names.len()
            ));
        }
        let v = self.cur.variant();
        for name in names {
            if name == CHIMERA {
                continue;
            }
            match self.pool.iter().find(|(k, _)| k == name) {
                None => {
                    let known: Vec<&str> = self.pool.iter().map(|(k, _)| k.as_str()).collect();
                    return Err(format!(
                        "no engine '{}' (engines.toml has: {})",
                        name.chars().take(40).collect::<String>(),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ));
                }
                Some((_, c)) if !c.plays(&v) => {
                    return Err(format!("engine '{name}' does not play {v}"));
                }
                Some(_) => {}
            }
        }
        self.stop();
        for (p, name) in names.iter().enumerate() {
            self.settings.engines[p] = name.clone();
        }
        Ok(())
    }

    /// The engine's level for its moves (0-20; 20 is full strength), a new
    /// seed for its choices each time.
    pub fn set_level(&mut self, level: u8) {
        self.stop();
        self.settings.level = level;
        let seed = crate::rng::clock_seed();
        self.engine.skill = crate::search::skill::Skill::new(level, seed);
    }

    fn live(&self) -> bool {
        self.cursor == self.line.len() && self.cur.outcome().is_none()
    }

    /// Counts the clocks; plays the engine's finished move; starts the
    /// next search. Called often.
    pub fn pump(&mut self) {
        let now = Instant::now();
        let dt = now.duration_since(self.last_tick).as_millis() as u64;
        self.last_tick = now;
        if self.live() && self.settings.seat != Seat::All {
            let side = self.cur.side();
            // the delay passes first, then the clock runs
            let delay = self.settings.delay_ms;
            let charged =
                (self.move_ms + dt).saturating_sub(delay) - self.move_ms.saturating_sub(delay);
            self.move_ms += dt;
            self.used_ms[side] += charged;
            let limit = self.settings.clock_ms + self.bonus_ms[side];
            if self.settings.clock_ms > 0 && self.used_ms[side] >= limit {
                self.used_ms[side] = limit;
                let name = self.cur.player_name(side);
                if self.play("T").is_ok() {
                    self.notice = format!("{name} ran out of time");
                }
            }
        }
        self.take_answer();
        let finished = self.running.as_ref().and_then(|r| {
            let out = lock(&self.out);
            (out.id == r.id)
                .then_some(out.best)
                .flatten()
                .map(|b| (r.kind, b))
        });
        if let Some((kind, best)) = finished {
            self.engine.wait();
            self.running = None;
            self.version += 1;
            if kind == Kind::Move {
                match best {
                    Some(m) => {
                        let token = match &self.cur {
                            AnyGame::Four(g) => g.position().move_to_string(m),
                            AnyGame::Two(t) => t.game.name(m),
                        };
                        if let Err(e) = self.play(&token) {
                            self.notice = format!("the engine's move {token} failed: {e}");
                        }
                    }
                    None => self.notice = "the engine found no move".into(),
                }
            }
        }
        if self.running.is_none() {
            self.start_search();
        }
    }

    /// Plays a seated engine's answer, once it has come.
    fn take_answer(&mut self) {
        let Some((id, i)) = self.running.as_ref().and_then(|r| r.by.map(|i| (r.id, i))) else {
            return;
        };
        let Some(answer) = self.externals[i].take(id) else {
            return;
        };
        self.running = None;
        self.version += 1;
        let side = self.cur.side();
        let name = self.externals[i].name.clone();
        let r = match answer {
            Answer::Move(m) => self.play(&m).map_err(|e| format!("{name}'s move {m}: {e}")),
            Answer::Resign => self
                .play("R")
                .map(|_| self.notice = format!("{name} resigns")),
            Answer::OutOfTime => self
                .play("T")
                .map(|_| self.notice = format!("{name} moved after its time ran out")),
            Answer::Failed(e) => Err(e),
        };
        if let Err(e) = r {
            self.settings.engines[side] = CHIMERA.into();
            self.notice = format!("{e}: Chimera takes its seat");
        }
    }

    /// The seated engine for `side`, started on first use.
    fn external_for(&mut self, side: usize) -> Option<usize> {
        let key = self.settings.engines[side].clone();
        if key == CHIMERA {
            return None;
        }
        if let Some(i) = self.externals.iter().position(|e| e.key == key) {
            return Some(i);
        }
        let cfg = self.pool.iter().find(|(k, _)| *k == key)?.1.clone();
        self.externals
            .push(External::new(&key, cfg, self.armies.clone()));
        Some(self.externals.len() - 1)
    }

    /// The time control every seat plays under, for a seated engine.
    fn time_control(&self) -> TimeControl {
        let mut tc = TimeControl {
            margin_ms: super::external::MARGIN_MS,
            ..TimeControl::default()
        };
        if self.settings.clock_ms > 0 {
            tc.base_ms = self.settings.clock_ms;
            // engine protocols know no delay: it is given as an increment
            tc.inc_ms = self.settings.inc_ms + self.settings.delay_ms;
        } else {
            tc.movetime_ms = Some(self.settings.movetime_ms.max(1));
        }
        tc
    }

    fn start_search(&mut self) {
        if self.cur.outcome().is_some() {
            return;
        }
        let side = self.cur.side();
        let kind = if self.live() && !self.settings.seat.is_person(side) {
            Kind::Move
        } else if self.settings.analyse {
            Kind::Analysis
        } else {
            return;
        };
        let id = self.next_id;
        self.next_id += 1;
        if kind == Kind::Move
            && let Some(i) = self.external_for(side)
        {
            let n = self.cur.players();
            let left = self.left_ms();
            self.externals[i].ask(Job {
                id,
                variant: self.cur.variant(),
                root_fen: Some(self.root.fen()),
                tokens: tokens(&self.line),
                cur: self.cur.clone(),
                tc: self.time_control(),
                left_ms: (0..n).map(|p| left.map_or(0, |l| l[p] as i64)).collect(),
            });
            self.running = Some(Running {
                id,
                kind,
                side,
                by: Some(i),
            });
            self.version += 1;
            return;
        }
        let limits = match kind {
            Kind::Move => match self.left_ms() {
                // its own clock, the delay counted as an increment
                Some(left) => Limits {
                    time: [Some(left[side].max(1)); 2],
                    inc: [self.settings.inc_ms + self.settings.delay_ms; 2],
                    ..Limits::default()
                },
                None => Limits {
                    movetime: Some(self.settings.movetime_ms.max(1)),
                    ..Limits::default()
                },
            },
            Kind::Analysis => Limits {
                infinite: true,
                multipv: self.settings.multipv,
                ..Limits::default()
            },
        };
        *lock(&self.out) = SearchOut {
            id,
            ..SearchOut::default()
        };
        match &self.cur {
            AnyGame::Four(g) => {
                let search = crate::fourplayer::search::Search4::of_game(g, self.settings.ffa);
                let rep = reporter(self.out.clone(), id, Root::Four(g.position().clone()));
                self.engine.go_with(search, limits, rep);
            }
            AnyGame::Two(t) => {
                let pos = t.game.position().clone();
                let rep = reporter(self.out.clone(), id, Root::Two(pos.clone()));
                self.engine.go(pos, limits, rep);
            }
        }
        self.running = Some(Running {
            id,
            kind,
            side,
            by: None,
        });
        self.version += 1;
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop();
    }
}

fn tokens(line: &[Entry]) -> Vec<String> {
    line.iter().map(|e| e.token.clone()).collect()
}

/// Locks a mutex, whether or not a thread panicked holding it (the data
/// is plain values, always whole).
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The position a search started from, to name its moves.
enum Root {
    Four(Position4),
    Two(AnyPosition),
}

/// `+0.35`, `#3`, `#-2` (mate in moves of the side to move).
pub fn score_text(s: ScoreKind) -> String {
    match s {
        ScoreKind::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        ScoreKind::Mate(m) => format!("#{m}"),
    }
}

/// Names a principal variation in the record's notation (PGN4, SAN) and
/// finds the first move's squares; FFA: the points at its end.
/// A principal variation named: its moves, the first move's squares, the
/// FFA points at its end.
type NamedPv = (Vec<String>, Option<(String, String)>, Option<[i32; 4]>);

fn name_pv(root: &Root, pv: &[Move]) -> NamedPv {
    let mut names = Vec::new();
    match root {
        Root::Four(p) => {
            let mut p = p.clone();
            let arrow = pv
                .first()
                .map(|m| (p.v.shape.name(m.from()), p.v.shape.name(m.to())));
            for &m in pv {
                if m.is_leave() || !p.legal_moves().contains(&m) {
                    break;
                }
                names.push(p.move_to_pgn4(m));
                p.make(m);
            }
            let points = (p.mode() == crate::fourplayer::Mode::Ffa).then(|| p.points());
            (names, arrow, points)
        }
        Root::Two(p) => {
            let mut p = p.clone();
            let shape = &p.spec().shape;
            let arrow = pv
                .first()
                .map(|m| (shape.name(m.from()), shape.name(m.to())));
            for &m in pv {
                let san = with_position!(&p, q => to_san(q, m));
                if p.make_legal(m).is_err() {
                    break;
                }
                names.push(san);
            }
            (names, arrow, None)
        }
    }
}

fn reporter(out: Arc<Mutex<SearchOut>>, id: u64, root: Root) -> Reporter {
    Arc::new(move |r| match r {
        Report::Info(i) => {
            let (pv, arrow, points) = name_pv(&root, &i.pv);
            let mut o = lock(&out);
            if o.id != id || i.multipv == 0 || i.multipv > MAX_LINES {
                return;
            }
            let k = i.multipv - 1;
            if k == 0 {
                // a depth's lines come one by one, the first first: the
                // last depth's go, so that the page never shows lines of
                // two depths (the same first move twice) mixed
                o.lines.clear();
            }
            if o.lines.len() <= k {
                o.lines.resize(k + 1, Line::default());
            }
            o.lines[k] = Line {
                depth: i.depth,
                score: score_text(i.score),
                pv: pv.clone(),
            };
            if k > 0 {
                return;
            }
            o.depth = i.depth;
            o.score = score_text(i.score);
            o.nodes = i.nodes;
            o.nps = i.nps;
            if !pv.is_empty() {
                o.pv = pv;
                o.arrow = arrow;
                o.points = points;
            }
        }
        Report::BestMove { best, .. } => {
            let mut o = lock(&out);
            if o.id == id {
                o.best = Some(best.filter(|m| !m.is_leave()));
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn pump_until(s: &mut Session, done: impl Fn(&Session) -> bool) {
        pump_for(s, |s| done(s).then_some(()))
    }

    /// Pumps until `found` finds something in the session, and returns
    /// it: what the test then checks is what was found (the engine's
    /// reports go on meanwhile, so a second look may see other ones).
    fn pump_for<T>(s: &mut Session, found: impl Fn(&Session) -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(t) = found(s) {
                return t;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the engine did not answer"
            );
            s.pump();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn the_engine_answers_for_the_other_seats() {
        let mut s = Session::new();
        s.new_game("fourplayer-teams", "4PC").unwrap();
        s.configure(Some(Seat::One(0)), Some(30), None, None);
        s.resign().unwrap();
        assert_eq!(
            s.game().outcome().unwrap().0,
            "0-1",
            "Red resigned for Red+Yellow"
        );
        assert!(s.resign().is_err(), "the game is over");
        s.new_game("fourplayer-teams", "4PC").unwrap();
        assert!(s.person_moves("h2-h3").is_ok());
        assert!(s.person_moves("b7-c7").is_err(), "Blue is Chimera's seat");
        pump_until(&mut s, |s| s.line().len() == 4);
        let seats: Vec<usize> = s.line().iter().map(|e| e.seat).collect();
        assert_eq!(seats, vec![0, 1, 2, 3]);
        assert_eq!(s.game().side(), 0);
        // undo goes back to the person's turn: four plies
        assert_eq!(s.undo().unwrap(), 4);
        assert_eq!(s.cursor(), 0);
    }

    #[test]
    fn chimera_plays_every_seat_of_an_ffa_game() {
        let mut s = Session::new();
        s.new_game("fourplayer-ffa", "4PC").unwrap();
        s.configure(Some(Seat::Watch), Some(20), None, None);
        assert!(
            s.person_moves("h2-h3").is_err(),
            "nobody's seat is the person's"
        );
        pump_until(&mut s, |s| s.line().len() >= 8);
        let seats: Vec<usize> = s.line().iter().take(8).map(|e| e.seat).collect();
        assert_eq!(
            seats,
            vec![0, 1, 2, 3, 0, 1, 2, 3],
            "strict rotation while all live"
        );
        let state = super::super::view::state(&s);
        assert_eq!(state["mode"], "FFA");
        assert!(state["players"][0]["points"].is_i64());
    }

    #[test]
    fn a_low_level_still_plays_every_seat_legally() {
        let mut s = Session::new();
        s.new_game("omega", "4PCo").unwrap();
        s.set_level(0);
        s.configure(Some(Seat::Watch), Some(5000), None, None);
        // at level 0 a move takes one ply, not the 5 s allowed
        let start = Instant::now();
        pump_until(&mut s, |s| s.line().len() >= 6);
        assert!(start.elapsed() < Duration::from_secs(15));
        assert_eq!(super::super::view::state(&s)["settings"]["level"], 0);
        s.set_level(20);
        assert_eq!(s.settings.level, 20);
    }

    #[test]
    fn analysis_reports_and_stops() {
        let mut s = Session::new();
        s.new_game("omega", "").unwrap();
        s.configure(Some(Seat::All), None, None, Some(true));
        let (o, kind, side, who) = pump_for(&mut s, |s| s.analysis().filter(|a| a.0.depth >= 2));
        assert_eq!((kind, side, who.as_str()), (Kind::Analysis, 0, "Chimera"));
        assert!(o.arrow.is_some() && !o.pv.is_empty());
        s.play("e3e6").unwrap();
        assert!(s.thinking().is_none(), "a move stops the analysis");
        s.pump();
        assert_eq!(s.thinking(), Some(Kind::Analysis));
        s.goto(0).unwrap();
        assert_eq!(s.line().len(), 1, "stepping back keeps the line");
        assert!(s.goto(2).is_err());
    }

    /// The lines of a depth arrive one by one; between two of them the
    /// page must not see the new first line beside the old second one
    /// (the same move twice).
    #[test]
    fn a_new_depths_first_line_does_not_stand_beside_the_last_depths_lines() {
        let pos = crate::setup::setup("chess", None, &[], &[], crate::setup::Width::Auto).unwrap();
        let out = Arc::new(Mutex::new(SearchOut {
            id: 1,
            ..SearchOut::default()
        }));
        let report = reporter(out.clone(), 1, Root::Two(pos.clone()));
        let info = |depth, multipv, m: &str| {
            Report::Info(crate::search::Info {
                depth,
                seldepth: depth,
                multipv,
                score: ScoreKind::Cp(0),
                nodes: 1,
                nps: 1,
                hashfull: 0,
                time_ms: 1,
                pv: vec![pos.parse_move(m).unwrap()],
            })
        };
        for (k, m) in ["e2e4", "d2d4", "g1f3"].iter().enumerate() {
            report(info(3, k + 1, m));
        }
        assert_eq!(lock(&out).lines.len(), 3);
        report(info(4, 1, "d2d4"));
        let lines = lock(&out).lines.clone();
        let firsts: std::collections::HashSet<&String> = lines.iter().map(|l| &l.pv[0]).collect();
        assert_eq!(firsts.len(), lines.len(), "{lines:?}");
        assert!(lines.iter().all(|l| l.depth == 4), "{lines:?}");
    }

    #[test]
    fn multipv_analysis_shows_distinct_lines() {
        let mut s = Session::new();
        s.new_game("chess", "").unwrap();
        s.configure(Some(Seat::All), None, None, Some(true));
        s.set_analysis(Some(3), None);
        // one look at the lines: the next depth's first line clears the
        // others, so a second look may find it alone
        let o = pump_for(&mut s, |s| {
            s.analysis()
                .map(|(o, ..)| o)
                .filter(|o| o.lines.len() == 3 && o.lines.iter().all(|l| l.depth >= 3))
        });
        let firsts: std::collections::HashSet<&String> = o.lines.iter().map(|l| &l.pv[0]).collect();
        assert_eq!(
            firsts.len(),
            3,
            "three different first moves: {:?}",
            o.lines
        );
        assert_eq!(o.lines[0].pv, o.pv, "the first line is the main one");
        s.set_analysis(Some(99), None);
        assert_eq!(s.settings.multipv, MAX_LINES);
    }

    #[test]
    fn clocks_wait_out_the_delay_and_add_the_increment() {
        let mut s = Session::new();
        s.new_game("chess", "").unwrap();
        s.configure(Some(Seat::One(0)), None, Some(60_000), None);
        s.set_increments(Some(2_000), Some(600));
        s.pump();
        std::thread::sleep(Duration::from_millis(100));
        s.pump();
        assert_eq!(s.used_ms()[0], 0, "the delay passes before the clock runs");
        std::thread::sleep(Duration::from_millis(800));
        s.pump();
        let used = s.used_ms()[0];
        assert!(
            (200..=900).contains(&used),
            "used {used} ms after the delay"
        );
        s.person_moves("e2e4").unwrap();
        let left = s.left_ms().unwrap()[0];
        assert_eq!(left, 60_000 + 2_000 - used, "the increment is added");
        // Chimera answers on its own clock
        pump_until(&mut s, |s| s.line().len() == 2);
        assert!(s.left_ms().unwrap()[1] > 50_000);
        let st = super::super::view::state(&s);
        assert_eq!(st["settings"]["inc_ms"], 2000);
        assert_eq!(st["settings"]["delay_ms"], 600);
    }

    fn scripted_pool() -> Vec<(String, EngineConfig)> {
        let dir = env!("CARGO_MANIFEST_DIR");
        let toml = format!(
            "[scripted]\nname = \"Scripted\"\ncommand = \"{dir}/tests/peers/scripted-uci.sh\"\nprotocol = \"uci\"\nvariants = [\"chess\"]\n"
        );
        crate::peers::config::parse_engines(&toml, std::path::Path::new(dir)).unwrap()
    }

    #[test]
    fn a_seated_engine_plays_and_its_thinking_is_shown() {
        let mut s = Session::with(scripted_pool(), Vec::new());
        s.new_game("chess", "").unwrap();
        s.configure(Some(Seat::One(0)), Some(200), None, None);
        assert!(s.set_engines(&["chimera".into(), "nosuch".into()]).is_err());
        assert!(s.set_engines(&["scripted".into()]).is_err(), "two seats");
        s.set_engines(&["chimera".into(), "scripted".into()])
            .unwrap();
        let st = super::super::view::state(&s);
        assert_eq!(st["seated"], serde_json::json!([null, "Scripted"]));
        s.person_moves("e2e4").unwrap();
        pump_until(&mut s, |s| s.line().len() == 2);
        assert_eq!(s.line()[1].text, "e5", "the script's reply");
        let o = lock(&s.externals[0].out).clone();
        assert_eq!((o.depth, o.score.as_str()), (7, "+0.23"));
        assert_eq!(o.pv, ["e5", "Nf3", "Nc6"], "its PV named in SAN");
        s.person_moves("g1f3").unwrap();
        pump_until(&mut s, |s| s.line().len() == 4);
        assert_eq!(s.line()[3].text, "Nc6");
        // an engine that does not play the variant leaves its seat
        s.new_game("omega", "").unwrap();
        assert_eq!(s.settings.engines[1], CHIMERA);
        assert!(s.notice.contains("does not play omega"), "{}", s.notice);
    }

    #[test]
    fn a_seated_engine_that_plays_an_illegal_move_gives_its_seat_back() {
        let mut s = Session::with(scripted_pool(), Vec::new());
        s.new_game("chess", "").unwrap();
        s.configure(Some(Seat::One(0)), Some(100), None, None);
        s.set_engines(&["chimera".into(), "scripted".into()])
            .unwrap();
        // Black to move: the script's first move, e2e4, is not Black's
        s.load("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap();
        pump_until(&mut s, |s| s.line().len() == 1);
        assert_eq!(s.settings.engines[1], CHIMERA);
        assert_eq!(s.line()[0].seat, 1, "Chimera moved for Black instead");
    }

    #[test]
    fn an_army_of_an_armies_file_plays_on_the_board() {
        let text = "army spearmen \"Spearmen\"\nrook    Y  fsRbW   Spear Rook   value=450\nknight  N  N  Knight\nbishop  B  B  Bishop\nqueen   A  QN  Amazon\n";
        let known = crate::variant::spec::all_armies(&[]);
        let armies = crate::variant::armies::parse_file_beside(text, "spear.txt", &known).unwrap();
        let mut plain = Session::new();
        assert!(
            plain.new_game("cwda-spearmen-fide", "").is_err(),
            "unknown without the file"
        );
        let mut s = Session::with(Vec::new(), armies);
        s.new_game("cwda-spearmen-fide", "").unwrap();
        assert_eq!(s.game().variant(), "cwda-spearmen-fide");
        s.configure(Some(Seat::Watch), Some(20), None, None);
        pump_until(&mut s, |s| s.line().len() >= 2);
        // the page's army list has it too
        assert!(
            crate::variant::spec::all_armies(s.armies())
                .iter()
                .any(|a| a.token == "spearmen")
        );
    }
}
