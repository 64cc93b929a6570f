//! The protocol front ends: UCI and XBoard (CECP v2) on stdin/stdout.
//!
//! `run()` reads stdin on a thread of its own and detects the protocol from
//! the first command (`uci`, or `xboard`/`protover`; other commands of either
//! protocol also select it). The engine keeps reading while it searches, so
//! `stop`, `isready`, `?`, `force`, `quit` and friends are answered at once.
//! Stdout carries only protocol text, written a whole line at a time under a
//! lock (the search thread reports too); logs go to stderr.

pub mod four_uci;
pub mod go;
pub mod options;
pub mod uci;
pub mod xboard;

use std::io::BufRead;
use std::sync::mpsc::{Receiver, Sender};

use crate::base::Move;
use crate::search::Engine;
use crate::variant::armies::{self, Army};
use crate::variant::spec::all_armies;
use options::{Opt, Protocol, Value};

/// The longest input line accepted (bytes); longer lines are reported and
/// skipped.
pub const MAX_LINE: usize = 256 * 1024;

pub use crate::out::Out;

/// What the command loop waits for.
#[derive(Debug)]
pub enum Event {
    /// one input line (without its line end)
    Line(String),
    /// an input line longer than `MAX_LINE`, skipped; its length in bytes
    TooLong(usize),
    /// end of input
    Eof,
    /// a search finished (XBoard); `id` tells which one
    SearchDone {
        id: u64,
        best: Option<Move>,
        ponder: Option<Move>,
    },
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Reads lines from `input` and sends them as events, then `Eof`. Lines
/// longer than `MAX_LINE` are consumed without being stored.
pub fn read_lines(mut input: impl BufRead, tx: Sender<Event>) {
    let mut buf: Vec<u8> = Vec::new();
    loop {
        buf.clear();
        let mut len = 0usize;
        let mut too_long = false;
        let mut eof = false;
        loop {
            let avail = match input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    eof = true;
                    break;
                }
            };
            if avail.is_empty() {
                eof = true;
                break;
            }
            let (chunk, used, done) = match avail.iter().position(|&c| c == b'\n') {
                Some(i) => (&avail[..i], i + 1, true),
                None => (avail, avail.len(), false),
            };
            len += chunk.len();
            if !too_long {
                if buf.len() + chunk.len() > MAX_LINE {
                    too_long = true;
                    buf.clear();
                } else {
                    buf.extend_from_slice(chunk);
                }
            }
            input.consume(used);
            if done {
                break;
            }
        }
        let had_text = len > 0 || !eof;
        if had_text {
            let ev = if too_long {
                Event::TooLong(len)
            } else {
                let s = String::from_utf8_lossy(&buf);
                Event::Line(s.trim_end_matches('\r').to_string())
            };
            if tx.send(ev).is_err() {
                return;
            }
        }
        if eof {
            let _ = tx.send(Event::Eof);
            return;
        }
    }
}

/// Engine settings set through options (or XBoard commands).
#[derive(Clone, Debug)]
pub struct Settings {
    pub hash: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: u64,
    pub ponder: bool,
    pub analyse_mode: bool,
    /// the `UCI_Variant` value: `chess`, `omega`, `cwda`, `cwda-<w>-<b>`,
    /// `fourplayer-teams`, `fourplayer-ffa`
    pub variant: String,
    /// four-player Free-For-All: paranoid or best-reply search
    pub ffa_search: crate::fourplayer::search::Objective,
    /// `Skill Level`, and `UCI_LimitStrength` with `UCI_Elo`, which when
    /// set choose the level instead
    pub skill_level: u8,
    pub limit_strength: bool,
    pub elo: i32,
    pub white_army: String,
    pub black_army: String,
    pub army_file: String,
    /// armies read from the army file
    pub user_armies: Vec<Army>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 30,
            ponder: false,
            analyse_mode: false,
            variant: "chess".into(),
            ffa_search: crate::fourplayer::search::Objective::Paranoid,
            skill_level: crate::search::skill::MAX_LEVEL,
            limit_strength: false,
            elo: crate::search::skill::DEFAULT_ELO,
            white_army: "fide".into(),
            black_army: "fide".into(),
            army_file: String::new(),
            user_armies: Vec::new(),
        }
    }
}

/// What an option change means for the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Changed {
    Nothing,
    /// the variant or the armies changed: set up the new game
    Variant,
    /// done, but not quite as asked: tell the user (`info string`,
    /// `tellusererror`)
    Notice(String),
    /// done; worth a word (`info string`, an XBoard comment line)
    Info(String),
}

/// What both protocols share: output, the engine, the settings.
pub struct Core {
    pub out: Out,
    pub engine: Engine,
    pub set: Settings,
    /// the protocol spoken: which options it offers
    pub protocol: Protocol,
    /// `CHIMERA_TUNE=1`: the tunable weights are options too
    pub tune: bool,
    applied_hash: usize,
    applied_threads: usize,
}

impl Core {
    /// A core with the given user armies (from `--armies` on the command
    /// line; the `Army File` option may replace them).
    pub fn new(out: Out, user_armies: Vec<Army>, protocol: Protocol) -> Core {
        let tune = std::env::var("CHIMERA_TUNE").is_ok_and(|v| v == "1");
        let mut engine = Engine::new();
        let set = Settings {
            user_armies,
            ..Settings::default()
        };
        engine.move_overhead = set.move_overhead;
        Core {
            out,
            engine,
            applied_hash: 16,
            applied_threads: 1,
            set,
            protocol,
            tune,
        }
    }

    /// Every army known: the built-in ones and those of the army file.
    pub fn armies(&self) -> Vec<Army> {
        all_armies(&self.set.user_armies)
    }

    /// The options this protocol offers, built for the armies known now.
    pub fn options(&self) -> Vec<Opt> {
        let mut t = options::table(&self.armies(), self.tune);
        t.retain(|o| o.offered(self.protocol));
        t
    }

    /// The variant name the settings select (`cwda` resolved with the
    /// White Army and Black Army options).
    pub fn variant_name(&self) -> String {
        cwda_resolve(&self.set.variant, &self.set)
    }

    /// The engine's weakening from `Skill Level`, or from `UCI_Elo` while
    /// `UCI_LimitStrength` is on; a new seed each time: another game,
    /// other choices.
    fn set_skill(&mut self) {
        use crate::search::skill::{Skill, level_for_elo};
        let level = if self.set.limit_strength {
            level_for_elo(self.set.elo)
        } else {
            self.set.skill_level
        };
        self.engine.skill = Skill::new(level, crate::rng::clock_seed());
    }

    /// Sets an option by name (case-insensitive). Errors name the option
    /// and the value.
    pub fn set_option(&mut self, name: &str, raw: &str) -> Result<Changed, String> {
        let table = self.options();
        let opt = options::find(&table, name, self.protocol)
            .ok_or_else(|| format!("unknown option '{}'", name.trim()))?;
        let value = opt.parse(raw)?;
        let name = opt.name.clone();
        match (name.as_str(), value) {
            ("Hash", Value::Int(v)) => return Ok(self.set_hash(v as usize)),
            ("Threads", Value::Int(v)) => return Ok(self.set_threads(v as usize)),
            ("MultiPV", Value::Int(v)) => self.set.multipv = v as usize,
            ("Move Overhead", Value::Int(v)) => {
                self.set.move_overhead = v as u64;
                self.engine.move_overhead = v as u64;
            }
            ("Skill Level", Value::Int(v)) => {
                self.set.skill_level = v as u8;
                self.set_skill();
            }
            ("UCI_LimitStrength", Value::Bool(b)) => {
                self.set.limit_strength = b;
                self.set_skill();
            }
            ("UCI_Elo", Value::Int(v)) => {
                self.set.elo = v as i32;
                self.set_skill();
            }
            ("Ponder", Value::Bool(b)) => self.set.ponder = b,
            ("UCI_AnalyseMode", Value::Bool(b)) => self.set.analyse_mode = b,
            ("UCI_Variant", Value::Text(v)) if crate::game::Family::of(&v).is_four() => {
                self.set.variant = v;
                return Ok(Changed::Variant);
            }
            ("FFA Search", Value::Text(v)) => {
                self.set.ffa_search = crate::fourplayer::search::Objective::ffa_by_name(&v)
                    .unwrap_or(crate::fourplayer::search::Objective::Paranoid);
            }
            ("UCI_Variant", Value::Text(v)) => {
                let resolved = cwda_resolve(&v, &self.set);
                crate::variant::VariantSpec::by_name(&resolved, &self.set.user_armies)
                    .map_err(|e| format!("UCI_Variant: {e}"))?;
                self.set.variant = v;
                return Ok(Changed::Variant);
            }
            ("White Army", Value::Text(v)) => {
                self.check_army(&v)?;
                self.set.white_army = v;
                return Ok(self.army_change());
            }
            ("Black Army", Value::Text(v)) => {
                self.check_army(&v)?;
                self.set.black_army = v;
                return Ok(self.army_change());
            }
            ("Army File", Value::Text(path)) => {
                if path.is_empty() {
                    self.set.user_armies.clear();
                    self.set.army_file.clear();
                } else {
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| format!("cannot read army file '{path}': {e}"))?;
                    let parsed = armies::parse_file(&text, &path)?;
                    // every army must make a playable game
                    for a in &parsed {
                        crate::variant::VariantSpec::cwda(a, a)
                            .map_err(|e| format!("{path}: army '{}': {e}", a.token))?;
                    }
                    self.set.user_armies = parsed;
                    self.set.army_file = path;
                }
                // the chosen armies must still exist
                let all = self.armies();
                for a in [&mut self.set.white_army, &mut self.set.black_army] {
                    if !all.iter().any(|x| &x.token == a) {
                        *a = "fide".into();
                    }
                }
                return Ok(Changed::Variant);
            }
            ("Use NNUE", Value::Bool(b)) => {
                self.engine.nets.use_nnue = b;
                return Ok(Changed::Info(self.evaluation().line));
            }
            ("EvalFile", Value::Text(path)) => {
                self.engine
                    .nets
                    .load(&path)
                    .map_err(|e| format!("EvalFile: {e}"))?;
                return Ok(Changed::Info(self.evaluation().line));
            }
            (param, Value::Int(v)) if self.tune => {
                self.engine.params.set(param, v as i32)?;
            }
            (other, _) => return Err(format!("option '{other}' cannot be set")),
        }
        Ok(Changed::Nothing)
    }

    /// Which evaluation the variant of the settings gets, and why.
    pub fn evaluation(&self) -> crate::nnue::choice::Verdict {
        let name = self.variant_name();
        if let crate::game::Family::Four(mode) = crate::game::Family::of(&name) {
            return self
                .engine
                .nets
                .verdict4(&crate::fourplayer::Variant4::new(mode));
        }
        match crate::variant::VariantSpec::by_name(&name, &self.set.user_armies) {
            Ok(spec) => self.engine.nets.verdict(&spec.pieces, &spec.shape),
            Err(_) => crate::nnue::choice::Verdict {
                ev: None,
                line: "classical evaluation (no network for this game)".into(),
                fell_back: false,
            },
        }
    }

    fn check_army(&self, token: &str) -> Result<(), String> {
        if self.armies().iter().any(|a| a.token == token) {
            Ok(())
        } else {
            Err(format!("unknown army '{token}'"))
        }
    }

    fn army_change(&self) -> Changed {
        if self.set.variant == "cwda" {
            Changed::Variant
        } else {
            Changed::Nothing
        }
    }

    /// Sets the hash size (UCI `Hash`, XBoard `memory`). The table is
    /// allocated now, before the GUI's `isready`/`ping` is answered, not
    /// inside the next move's time; if a search runs, at its end.
    pub fn set_hash(&mut self, mb: usize) -> Changed {
        self.set.hash = mb.clamp(1, 65536);
        self.apply_sizes_when_idle()
    }

    /// Sets the number of search threads (UCI `Threads`, XBoard `cores`).
    pub fn set_threads(&mut self, n: usize) -> Changed {
        self.set.threads = n.clamp(1, 256);
        self.apply_sizes_when_idle()
    }

    fn apply_sizes_when_idle(&mut self) -> Changed {
        if self.engine.is_searching() {
            return Changed::Nothing;
        }
        match self.apply_sizes() {
            Some(notice) => Changed::Notice(notice),
            None => Changed::Nothing,
        }
    }

    /// Applies Hash and Threads if they changed (waiting for a search to
    /// end first); says so if the hash table had to be smaller than asked.
    pub fn apply_sizes(&mut self) -> Option<String> {
        let mut notice = None;
        // threads first: the hash size leaves room for their stacks
        if self.set.threads != self.applied_threads {
            self.engine.set_threads(self.set.threads);
            self.applied_threads = self.set.threads;
        }
        if self.set.hash != self.applied_hash {
            let got = self.engine.set_hash(self.set.hash);
            if got < self.set.hash {
                log::warn!("hash: {} MB asked, {got} MB allocated", self.set.hash);
                notice = Some(format!(
                    "Hash: {} MB does not fit in memory, using {got} MB",
                    self.set.hash
                ));
            }
            self.applied_hash = self.set.hash;
        }
        notice
    }

    /// Stops any search and waits for it to end.
    pub fn stop_and_wait(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }
}

/// `cwda` means the armies of the options; every other name stands.
pub fn cwda_resolve(name: &str, set: &Settings) -> String {
    if name.eq_ignore_ascii_case("cwda") {
        format!("cwda-{}-{}", set.white_army, set.black_army)
    } else {
        name.to_ascii_lowercase()
    }
}

/// Which protocol a first command belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Detected {
    Uci,
    Xboard,
    Quit,
    Unknown,
}

fn detect(line: &str) -> Detected {
    let word = line.split_whitespace().next().unwrap_or("");
    match word {
        "uci" | "isready" | "setoption" | "position" | "go" | "ucinewgame" | "stop"
        | "ponderhit" | "debug" | "register" => Detected::Uci,
        "xboard" | "protover" | "new" | "variant" | "ping" | "usermove" | "force" | "setboard"
        | "level" | "st" | "sd" | "analyze" | "playother" | "memory" | "cores" => Detected::Xboard,
        "quit" => Detected::Quit,
        _ => Detected::Unknown,
    }
}

/// A protocol's command handler.
pub trait Handler {
    /// Handles one input line.
    fn line(&mut self, line: &str) -> Flow;
    /// Handles a non-line event (a finished search, an overlong line).
    fn event(&mut self, ev: Event) -> Flow;
    /// Stops any search before the program ends.
    fn shutdown(&mut self);
}

/// Runs the protocol loop on stdin/stdout with the given user armies;
/// returns the exit status.
pub fn run(user_armies: Vec<Army>) -> i32 {
    let (tx, rx) = std::sync::mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), reader_tx))
        .expect("spawn the input thread");
    run_loop(Out::stdout(), tx, rx, user_armies)
}

/// The loop: detection, then one handler until `quit` or end of input.
pub fn run_loop(out: Out, tx: Sender<Event>, rx: Receiver<Event>, armies: Vec<Army>) -> i32 {
    let mut handler: Option<Box<dyn Handler>> = None;
    while let Ok(ev) = rx.recv() {
        let flow = match (&mut handler, ev) {
            (Some(h), Event::Line(l)) => {
                log::debug!("< {l}");
                h.line(&l)
            }
            (Some(h), ev) => h.event(ev),
            (None, Event::Line(l)) => {
                log::debug!("< {l}");
                match detect(&l) {
                    Detected::Uci => {
                        let mut h = Box::new(uci::Uci::new(out.clone(), armies.clone()));
                        let f = h.line(&l);
                        handler = Some(h);
                        f
                    }
                    Detected::Xboard => {
                        let mut h =
                            Box::new(xboard::XBoard::new(out.clone(), tx.clone(), armies.clone()));
                        let f = h.line(&l);
                        handler = Some(h);
                        f
                    }
                    Detected::Quit => Flow::Quit,
                    Detected::Unknown => {
                        let word = l.split_whitespace().next().unwrap_or("");
                        if !word.is_empty() {
                            out.line(&format!(
                                "info string error: unknown command '{}' (send 'uci' or 'xboard')",
                                clip(word, 60)
                            ));
                        }
                        Flow::Continue
                    }
                }
            }
            (None, Event::TooLong(n)) => {
                out.line(&format!(
                    "info string error: line too long ({n} bytes), ignored"
                ));
                Flow::Continue
            }
            (None, Event::Eof) => Flow::Quit,
            (None, Event::SearchDone { .. }) => Flow::Continue,
        };
        if flow == Flow::Quit {
            break;
        }
    }
    if let Some(h) = &mut handler {
        h.shutdown();
    }
    0
}

/// At most `n` characters of `s`, with `...` if cut (for error messages
/// about huge input).
pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push_str("...");
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_splits_and_limits_lines() {
        let mut input = b"uci\r\nisready\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend(b"\nquit");
        let (tx, rx) = std::sync::mpsc::channel();
        read_lines(&input[..], tx);
        let evs: Vec<Event> = rx.iter().collect();
        assert!(matches!(&evs[0], Event::Line(l) if l == "uci"));
        assert!(matches!(&evs[1], Event::Line(l) if l == "isready"));
        assert!(matches!(&evs[2], Event::TooLong(n) if *n == MAX_LINE + 10));
        assert!(matches!(&evs[3], Event::Line(l) if l == "quit"));
        assert!(matches!(&evs[4], Event::Eof));
    }

    #[test]
    fn detection() {
        assert_eq!(detect("uci"), Detected::Uci);
        assert_eq!(detect("position startpos"), Detected::Uci);
        assert_eq!(detect("xboard"), Detected::Xboard);
        assert_eq!(detect("protover 2"), Detected::Xboard);
        assert_eq!(detect("quit"), Detected::Quit);
        assert_eq!(detect("hello"), Detected::Unknown);
    }

    #[test]
    fn cwda_names() {
        let s = Settings {
            white_army: "nutty".into(),
            ..Settings::default()
        };
        assert_eq!(cwda_resolve("cwda", &s), "cwda-nutty-fide");
        assert_eq!(cwda_resolve("Omega", &s), "omega");
    }
}
