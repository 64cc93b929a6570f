//! Seats played by another engine: an engine of `engines.toml` (4pchess,
//! Fairy-Stockfish, Sjaak II, another Chimera) driven by the match
//! runner's engine process and protocol code (`Player`), on a thread of
//! its own so that a request never waits for it. The session hands it a
//! job (the game so far, the clocks); the thread tells the engine the
//! position, asks for a move and leaves the reply where `pump` finds it.
//! Every line the engine writes while it thinks is read for depth, score
//! and principal variation, which the page shows as it shows Chimera's.
//!
//! A job the session has moved on from (an undo, a new game) is not
//! interrupted: the engine finishes its move in the time it was given and
//! the reply, whose id is no longer the session's, is dropped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::session::{SearchOut, lock};
use crate::game::Family;
use crate::game::any::AnyGame;
use crate::peers::config::EngineConfig;
use crate::peers::four_player::FourPlayer;
use crate::peers::player::{Player, Reply, Score, Watch, thinking};
use crate::peers::referee::{Referee, Termination, TwoPlayer};
use crate::peers::tc::{Clock, TimeControl};
use crate::search::ScoreKind;
use crate::variant::armies::Army;

/// How far past its time an engine's move is still taken.
pub const MARGIN_MS: u64 = 1000;

/// A move to ask for.
pub struct Job {
    pub id: u64,
    pub variant: String,
    /// the root position; None: the variant's start
    pub root_fen: Option<String>,
    /// the events since the root, as the page's game reads them (moves in
    /// engine notation, `R` and `T` for a seat that resigned or lost on
    /// time in Free-For-All)
    pub tokens: Vec<String>,
    /// the game at the position asked about, to name the thinking
    pub cur: AnyGame,
    /// the time control, the same for every seat
    pub tc: TimeControl,
    /// time left per seat (ms)
    pub left_ms: Vec<i64>,
}

/// What the engine did with a job, in the page's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// a legal move, in the notation the page's game reads
    Move(String),
    Resign,
    /// it moved after its time (and the margin) ran out
    OutOfTime,
    /// it could not be asked or did not answer properly: why
    Failed(String),
}

type Done = (u64, Answer);

/// An engine seated at the board, and the thread that talks to it.
pub struct External {
    /// its name in engines.toml
    pub key: String,
    /// the name it goes by (its config's `name`, else the key)
    pub name: String,
    tx: Option<Sender<Job>>,
    /// its thinking on the current job
    pub out: Arc<Mutex<SearchOut>>,
    done: Arc<Mutex<Option<Done>>>,
    /// the job whose answer is wanted (`NO_JOB` once the seat is left): a
    /// search on another is told to move now and its answer dropped
    wanted: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

/// No job is wanted.
const NO_JOB: u64 = u64::MAX;

impl External {
    /// Starts the thread (the engine itself starts with the first job).
    pub fn new(key: &str, cfg: EngineConfig, armies: Vec<Army>) -> External {
        let (tx, rx) = channel::<Job>();
        let out = Arc::new(Mutex::new(SearchOut::default()));
        let done = Arc::new(Mutex::new(None));
        let wanted = Arc::new(AtomicU64::new(NO_JOB));
        let name = cfg.name.clone().unwrap_or_else(|| key.to_string());
        let worker = Worker {
            key: key.to_string(),
            cfg,
            armies,
            player: None,
            last: None,
            out: out.clone(),
            done: done.clone(),
            wanted: wanted.clone(),
        };
        let thread = std::thread::Builder::new()
            .name(format!("engine {key}"))
            .spawn(move || worker.run(rx))
            .ok();
        External {
            key: key.to_string(),
            name,
            tx: Some(tx),
            out,
            done,
            wanted,
            thread,
        }
    }

    /// Asks for a move; the reply comes through `take`.
    pub fn ask(&self, job: Job) {
        self.wanted.store(job.id, Ordering::Relaxed);
        *lock(&self.out) = SearchOut {
            id: job.id,
            ..SearchOut::default()
        };
        if let Some(tx) = &self.tx
            && tx.send(job).is_err()
        {
            log::warn!("engine {}: its thread has ended", self.key);
        }
    }

    /// No answer is wanted any more: a search in progress is told to move
    /// now, and its answer is dropped.
    pub fn abandon(&self) {
        self.wanted.store(NO_JOB, Ordering::Relaxed);
    }

    /// The answer to job `id`, once there is one.
    pub fn take(&self, id: u64) -> Option<Answer> {
        let mut d = lock(&self.done);
        if d.as_ref().is_some_and(|(i, _)| *i == id) {
            d.take().map(|(_, r)| r)
        } else {
            None
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        // a search in progress is cut short; closing the channel ends the
        // thread, which quits the engine
        self.abandon();
        self.tx = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The game an engine was last told about: where it started and what
/// was played, so that the next job only sends what is new.
struct Told {
    variant: String,
    root_fen: Option<String>,
    tokens: Vec<String>,
    tc: TimeControl,
}

struct Worker {
    key: String,
    cfg: EngineConfig,
    armies: Vec<Army>,
    player: Option<Player>,
    last: Option<Told>,
    out: Arc<Mutex<SearchOut>>,
    done: Arc<Mutex<Option<Done>>>,
    wanted: Arc<AtomicU64>,
}

impl Worker {
    fn run(mut self, rx: Receiver<Job>) {
        while let Ok(mut job) = rx.recv() {
            // only the newest of the jobs waiting matters
            while let Ok(newer) = rx.try_recv() {
                job = newer;
            }
            let id = job.id;
            let answer = self.answer(job).unwrap_or_else(Answer::Failed);
            if let Answer::Failed(e) = &answer {
                log::warn!("engine {}: {e}", self.key);
                // a fresh start for the next job
                self.last = None;
                if let Some(p) = self.player.take() {
                    p.kill();
                }
            }
            *lock(&self.done) = Some((id, answer));
        }
        if let Some(p) = self.player.take() {
            p.quit();
        }
    }

    fn answer(&mut self, job: Job) -> Result<Answer, String> {
        let mut referee = referee(&job, &self.armies)?;
        // a new time control is given to an XBoard engine at its game's
        // start, so the engine starts again with it
        if self.last.as_ref().is_some_and(|t| t.tc != job.tc)
            && let Some(p) = self.player.take()
        {
            p.quit();
            self.last = None;
        }
        if self.player.is_none() {
            let mut cfg = self.cfg.clone();
            cfg.tc = job.tc.clone();
            self.player = Some(Player::start(&cfg, &self.key)?);
        }
        let player = self.player.as_mut().expect("started above");
        player.watch = Some(watcher(&self.cfg, &job, self.out.clone()));
        let (wanted, id) = (self.wanted.clone(), job.id);
        player.wanted = Some(Box::new(move || wanted.load(Ordering::Relaxed) == id));
        let continues = self.last.as_ref().is_some_and(|t| {
            t.variant == job.variant
                && t.root_fen == job.root_fen
                && job.tokens.starts_with(&t.tokens)
        });
        if !continues {
            if !player.supports(&job.variant).unwrap_or(true) {
                return Err(format!("{} does not play {}", player.name, job.variant));
            }
            player.new_game(referee.as_ref())?;
        }
        let clocks: Vec<Clock> = job
            .left_ms
            .iter()
            .map(|&left| {
                let mut c = Clock::new(&job.tc);
                c.left_ms = left;
                c
            })
            .collect();
        let reply = player.go(referee.as_ref(), &clocks);
        let name = player.name.clone();
        let answer = match reply {
            Reply::Move { mv, .. } => match referee.play(&mv) {
                Ok(played) => Answer::Move(played.coord),
                Err(e) => Answer::Failed(format!("{name} played an illegal move {mv}: {e}")),
            },
            Reply::Resign => Answer::Resign,
            Reply::Late { .. } => Answer::OutOfTime,
            Reply::Stalled => Answer::Failed(format!("{name} stopped answering")),
            Reply::Crashed(why) => Answer::Failed(format!("{name} crashed ({why})")),
            Reply::Rejected(l) => Answer::Failed(format!("{name} refused a legal move: {l}")),
            Reply::Claim(l) => Answer::Failed(format!("{name} claimed a false result: {l}")),
        };
        let mut tokens = job.tokens;
        if let Answer::Move(m) = &answer {
            tokens.push(m.clone());
        }
        self.last = Some(Told {
            variant: job.variant,
            root_fen: job.root_fen,
            tokens,
            tc: job.tc,
        });
        Ok(answer)
    }
}

/// The referee for a job: its root (given as the start where it is the
/// variant's start, for engines that cannot set up a position) and its
/// events replayed.
fn referee(job: &Job, armies: &[Army]) -> Result<Box<dyn Referee>, String> {
    let make = |fen: Option<&str>| -> Result<Box<dyn Referee>, String> {
        Ok(if Family::of(&job.variant).is_four() {
            Box::new(FourPlayer::new(&job.variant, fen)?)
        } else {
            Box::new(TwoPlayer::new(&job.variant, fen, armies)?)
        })
    };
    let start = make(None)?;
    let mut r = match job.root_fen.as_deref() {
        Some(f) if f != start.fen() => make(Some(f))?,
        _ => start,
    };
    for t in &job.tokens {
        let seat = r.to_move();
        match t.as_str() {
            "R" => {
                r.forfeit(seat, "resigns".into(), Termination::Normal);
            }
            "T" => {
                r.forfeit(seat, "loses on time".into(), Termination::TimeForfeit);
            }
            _ => {
                r.play(t)?;
            }
        }
    }
    Ok(r)
}

/// A score as the page writes Chimera's (`+0.35`, `#3`).
fn score_text(s: Score) -> String {
    super::session::score_text(match s {
        Score::Cp(c) => ScoreKind::Cp(c),
        Score::Mate(m) => ScoreKind::Mate(m),
    })
}

/// Reads the engine's thinking lines into `out` for job `job.id`, its
/// moves named as the page's record names them.
fn watcher(cfg: &EngineConfig, job: &Job, out: Arc<Mutex<SearchOut>>) -> Watch {
    let proto = cfg.proto;
    let id = job.id;
    let cur = job.cur.clone();
    let start = std::time::Instant::now();
    Box::new(move |line| {
        let Some(th) = thinking(proto, line) else {
            return;
        };
        let mut g = cur.clone();
        let mut names = Vec::new();
        let mut arrow = None;
        for t in &th.pv {
            match g.play(t) {
                Ok(e) => {
                    if names.is_empty() {
                        arrow = e.squares.clone();
                    }
                    names.push(e.text);
                }
                Err(_) => break,
            }
        }
        let mut o = lock(&out);
        if o.id != id {
            return;
        }
        o.depth = th.depth.unwrap_or(0) as i32;
        if let Some(s) = th.score {
            o.score = score_text(s);
        }
        if let Some(n) = th.nodes {
            o.nodes = n;
            let ms = start.elapsed().as_millis().max(1) as u64;
            o.nps = n * 1000 / ms;
        }
        if !names.is_empty() {
            o.pv = names;
            o.arrow = arrow;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// The scripted engine (tests/peers/scripted-uci.sh), thinking 30 s
    /// on each move unless told to stop.
    fn slow_engine() -> EngineConfig {
        let dir = env!("CARGO_MANIFEST_DIR");
        let toml = format!(
            "[slow]\ncommand = \"{dir}/tests/peers/scripted-uci.sh 30\"\nprotocol = \"uci\"\nvariants = [\"chess\"]\n"
        );
        let mut pool =
            crate::peers::config::parse_engines(&toml, std::path::Path::new(dir)).unwrap();
        pool.remove(0).1
    }

    fn after_e4(id: u64) -> Job {
        let mut cur = AnyGame::new("chess", "").unwrap();
        cur.play("e2e4").unwrap();
        Job {
            id,
            variant: "chess".into(),
            root_fen: None,
            tokens: vec!["e2e4".into()],
            cur,
            tc: TimeControl {
                movetime_ms: Some(60_000),
                margin_ms: MARGIN_MS,
                ..TimeControl::default()
            },
            left_ms: vec![0, 0],
        }
    }

    fn wait_for(secs: u64, mut done: impl FnMut() -> bool) -> bool {
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            if done() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    #[test]
    fn an_abandoned_search_is_cut_short() {
        let e = External::new("slow", slow_engine(), Vec::new());
        e.ask(after_e4(1));
        assert!(
            wait_for(10, || lock(&e.out).depth == 7),
            "the engine thinks (its info line)"
        );
        let asked = Instant::now();
        e.abandon();
        let mut answer = None;
        assert!(
            wait_for(10, || {
                answer = e.take(1);
                answer.is_some()
            }),
            "told to move now, it answers long before its 30 s"
        );
        assert!(asked.elapsed() < Duration::from_secs(10));
        assert_eq!(answer, Some(Answer::Move("e7e5".into())));
        // a seat left while its engine thinks does not wait for it either
        e.ask(after_e4(2));
        assert!(wait_for(10, || lock(&e.out).depth == 7));
        let left = Instant::now();
        drop(e);
        assert!(
            left.elapsed() < Duration::from_secs(10),
            "{:?}",
            left.elapsed()
        );
    }
}
