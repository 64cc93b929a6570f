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

use super::play::{Entry, Play, replay};
use crate::base::Move;
use crate::fourplayer::Position4;
use crate::fourplayer::search::Objective;
use crate::position::san::to_san;
use crate::search::{Engine, Limits, Report, Reporter, ScoreKind};
use crate::setup::AnyPosition;
use crate::with_position;

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
}

pub struct Settings {
    pub seat: Seat,
    /// the engine's time per move
    pub movetime_ms: u64,
    /// each player's time for the game; 0: no limit (clocks count up)
    pub clock_ms: u64,
    pub analyse: bool,
    /// the engine's level when it plays: 0-19 weaker, 20 full strength
    /// (its analysis is always at full strength)
    pub level: u8,
}

pub struct Session {
    pub settings: Settings,
    root: Play,
    /// every event of the game, past the cursor too
    line: Vec<Entry>,
    cursor: usize,
    cur: Play,
    engine: Engine,
    running: Option<Running>,
    next_id: u64,
    out: Arc<Mutex<SearchOut>>,
    /// time used per seat, and when it was last counted
    used_ms: [u64; 4],
    last_tick: Instant,
    /// bumped on every change the page must redraw
    pub version: u64,
    /// what happened last (a loaded record, the engine's resignation, ...)
    pub notice: String,
}

impl Session {
    pub fn new() -> Session {
        let root = Play::new("fourplayer-teams", "4PCo").expect("the start sets up");
        let mut engine = Engine::new();
        engine.set_hash(64);
        engine.move_overhead = 0;
        Session {
            settings: Settings {
                seat: Seat::One(0),
                movetime_ms: 1000,
                clock_ms: 0,
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
            last_tick: Instant::now(),
            version: 1,
            notice: String::new(),
        }
    }

    pub fn game(&self) -> &Play {
        &self.cur
    }
    pub fn root(&self) -> &Play {
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

    /// The search's last report, if it is about the position shown.
    pub fn analysis(&self) -> Option<(SearchOut, Kind, usize)> {
        let r = self.running.as_ref()?;
        let out = lock(&self.out).clone();
        (out.id == r.id).then_some((out, r.kind, r.side))
    }

    pub fn thinking(&self) -> Option<Kind> {
        self.running.as_ref().map(|r| r.kind)
    }

    /// Stops the search (if any) and forgets it.
    fn stop(&mut self) {
        if self.running.take().is_some() {
            self.engine.stop();
            self.engine.wait();
        }
        self.version += 1;
    }

    /// A new game of a variant from its start.
    pub fn new_game(&mut self, variant: &str, layout: &str) -> Result<(), String> {
        let root = Play::new(variant, layout)?;
        self.stop();
        if let Seat::One(p) = self.settings.seat
            && p >= root.players()
        {
            self.settings.seat = Seat::One(0);
        }
        self.engine.new_game();
        self.set_game(root, Vec::new());
        self.notice = format!("new game: {}", self.cur.variant());
        Ok(())
    }

    fn set_game(&mut self, root: Play, line: Vec<Entry>) {
        self.stop();
        self.cursor = line.len();
        self.cur = replay(&root, &tokens(&line))
            .map(|(g, _)| g)
            .unwrap_or_else(|_| root.clone());
        self.root = root;
        self.line = line;
        self.used_ms = [0; 4];
        self.last_tick = Instant::now();
    }

    /// Loads a FEN4, PGN4, FEN or PGN; the game is kept if it fails.
    pub fn load(&mut self, text: &str) -> Result<(), String> {
        let l = super::records::load(text, &self.cur)?;
        let (_, entries) = replay(&l.root, &l.tokens)?;
        if let Seat::One(p) = self.settings.seat
            && p >= l.root.players()
        {
            self.settings.seat = Seat::One(0);
        }
        self.engine.new_game();
        let n = entries.len();
        self.set_game(l.root, entries);
        self.notice = format!("loaded {} ({} moves): {}", l.kind, n, self.cur.variant());
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
            self.used_ms = [0; 4];
        }
        if let Some(a) = analyse {
            self.settings.analyse = a;
        }
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
            self.used_ms[side] += dt;
            if self.settings.clock_ms > 0 && self.used_ms[side] >= self.settings.clock_ms {
                self.used_ms[side] = self.settings.clock_ms;
                let name = self.cur.player_name(side);
                if self.play("T").is_ok() {
                    self.notice = format!("{name} ran out of time");
                }
            }
        }
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
                            Play::Four(g) => g.position().move_to_string(m),
                            Play::Two(t) => t.game.name(m),
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
        let limits = match kind {
            Kind::Move => Limits {
                movetime: Some(self.settings.movetime_ms.max(1)),
                ..Limits::default()
            },
            Kind::Analysis => Limits {
                infinite: true,
                ..Limits::default()
            },
        };
        let id = self.next_id;
        self.next_id += 1;
        *lock(&self.out) = SearchOut {
            id,
            ..SearchOut::default()
        };
        match &self.cur {
            Play::Four(g) => {
                let search = crate::fourplayer::search::Search4::of_game(g, Objective::Paranoid);
                let tables = Arc::new(crate::search::tree::SearchPosition::build_tables(
                    &search,
                    &self.engine.params,
                ));
                let rep = reporter(self.out.clone(), id, Root::Four(g.position().clone()));
                self.engine.go_with(search, tables, limits, rep);
            }
            Play::Two(t) => {
                let pos = t.game.position().clone();
                let rep = reporter(self.out.clone(), id, Root::Two(pos.clone()));
                self.engine.go(pos, limits, rep);
            }
        }
        self.running = Some(Running { id, kind, side });
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
        Report::Info(i) if i.multipv == 1 => {
            let (pv, arrow, points) = name_pv(&root, &i.pv);
            let mut o = lock(&out);
            if o.id != id {
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
        Report::Info(_) => {}
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
        let start = Instant::now();
        while !done(s) {
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
        pump_until(&mut s, |s| {
            s.analysis().is_some_and(|(o, _, _)| o.depth >= 2)
        });
        let (o, kind, side) = s.analysis().unwrap();
        assert_eq!((kind, side), (Kind::Analysis, 0));
        assert!(o.arrow.is_some() && !o.pv.is_empty());
        s.play("e3e6").unwrap();
        assert!(s.thinking().is_none(), "a move stops the analysis");
        s.pump();
        assert_eq!(s.thinking(), Some(Kind::Analysis));
        s.goto(0).unwrap();
        assert_eq!(s.line().len(), 1, "stepping back keeps the line");
        assert!(s.goto(2).is_err());
    }
}
