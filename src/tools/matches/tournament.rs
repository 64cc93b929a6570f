//! The tournament: the schedule of games (two engines, round-robin or
//! gauntlet; colours alternate; a new opening every `repeat` games),
//! workers that play games at once (each keeps its own engine processes,
//! restarted after a fault), and the running results printed as
//! cutechess-cli prints them.
//!
//! Four-player chess: every seat is an engine process of its own. Teams is
//! scheduled as a two-player match whose sides are Red+Yellow and
//! Blue+Green (each engine of a pair holds both seats of a side; sides swap
//! every other game). Free-For-All seats two engines on alternate seats
//! (A B A B, then B A B A) or four engines in turn round the table; each
//! seat's placement is its score, and with two engines a game is won by
//! the engine whose two seats placed better.

use std::collections::{BTreeMap, HashMap};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::args::{Kind, MatchConfig};
use super::game::{GameRecord, SeatPlayer, play_game, play_opening};
use super::openings::{self, Opening, Picker};
use super::pgn;
use super::report::{self, FfaStanding};
use crate::game::Family;
use crate::peers::config::EngineConfig;
use crate::peers::four_player::{FourPlayer, TEAM_NAMES};
use crate::peers::player::Player;
use crate::peers::referee::{Referee, Termination, TwoPlayer};
use crate::tools::stats::{Pentanomial, Tally};

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// 1-based
    pub number: usize,
    pub round: usize,
    /// engine index per seat: White, Black (four-player: Red, Blue, Yellow,
    /// Green)
    pub seats: Vec<usize>,
    /// index into the match's variants
    pub variant: usize,
    /// index into the openings list
    pub opening: usize,
    /// games of the same pair (same engines, same opening, colours
    /// swapped) share this: the SPRT counts pairs
    pub pair: usize,
}

impl Scheduled {
    /// The engines of the two sides (two players: White, Black; Teams:
    /// Red+Yellow, Blue+Green; FFA with two engines: those on Red and
    /// Yellow, those on Blue and Green).
    pub fn sides(&self) -> [usize; 2] {
        [self.seats[0], self.seats[1]]
    }
}

/// How a variant's seats are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// two seats, an engine each
    Duel,
    /// four seats, two sides of two
    Teams,
    /// four seats, every engine of the match at the table
    Ffa,
}

impl Seating {
    pub fn of(variant: &str) -> Seating {
        match variant {
            "fourplayer-teams" => Seating::Teams,
            "fourplayer-ffa" => Seating::Ffa,
            _ => Seating::Duel,
        }
    }

    fn seats(self) -> usize {
        if self == Seating::Duel { 2 } else { 4 }
    }
}

/// The games to play, and the openings they use; the variants take turns
/// by opening, each with its own `pickers[variant]`. The engines of an
/// encounter take the seats in turn, and change seats every game (unless
/// `-noswap`): [a, b], [b, a]; Teams [a, b, a, b], [b, a, b, a]; FFA with
/// four engines [a, b, c, d], [b, c, d, a], ...
pub fn schedule(cfg: &MatchConfig, pickers: &mut [Picker]) -> (Vec<Scheduled>, Vec<Opening>) {
    let n = cfg.engines.len();
    let seating = Seating::of(&cfg.variants[0]);
    let encounters: Vec<Vec<usize>> = match (seating, cfg.kind) {
        (Seating::Ffa, _) => vec![(0..n).collect()],
        (_, Kind::Gauntlet) => (1..n).map(|j| vec![0, j]).collect(),
        (_, Kind::RoundRobin) => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| vec![i, j]))
            .collect(),
    };
    let mut games = Vec::new();
    let mut openings = Vec::new();
    let mut pair_base = 0;
    for round in 0..cfg.rounds {
        for enc in &encounters {
            let mut opening = 0;
            for g in 0..cfg.games {
                if g % cfg.repeat == 0 {
                    let v = openings.len() % pickers.len();
                    openings.push(pickers[v].pick());
                    opening = openings.len() - 1;
                }
                let turn = if cfg.noswap { 0 } else { g };
                games.push(Scheduled {
                    number: games.len() + 1,
                    round: round + 1,
                    seats: (0..seating.seats())
                        .map(|i| enc[(i + turn) % enc.len()])
                        .collect(),
                    variant: opening % pickers.len(),
                    opening,
                    pair: pair_base + g / 2,
                });
            }
            pair_base += cfg.games.div_ceil(2);
        }
    }
    (games, openings)
}

/// The results so far.
struct State {
    done: usize,
    /// two engines: the first one's results, as White, as Black; White's
    tally: Tally,
    as_white: Tally,
    as_black: Tally,
    colours: Tally,
    penta: Pentanomial,
    /// pair -> the first engine's points in the first finished game
    half_pairs: HashMap<usize, f64>,
    /// per engine: results against the field, and how its games ended
    field: Vec<Tally>,
    ends: Vec<BTreeMap<String, usize>>,
    /// per engine: games lost by crash, illegal move, time, stall
    faults: Vec<BTreeMap<&'static str, usize>>,
    /// per engine: start failures in a row
    start_failures: Vec<usize>,
    /// per engine: Free-For-All placements and points
    ffa: Vec<FfaStanding>,
    stop: bool,
    fatal: Option<String>,
    /// CPU time of this process at the start
    progress_shown: bool,
}

/// Where lines go: stdout for results, and a live progress line on
/// stderr when it is a terminal.
struct Out {
    progress: bool,
}

impl Out {
    fn line(&self, st: &mut State, s: &str) {
        if st.progress_shown {
            eprint!("\r\x1b[K");
            st.progress_shown = false;
        }
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{s}");
        let _ = o.flush();
    }

    fn progress(&self, st: &mut State, total: usize, names: &[String], started: Instant) {
        if !self.progress {
            return;
        }
        let mut s = format!("[{}/{}] ", st.done, total);
        if names.len() == 2 {
            s.push_str(&format!(
                "{} vs {}: {}",
                names[0],
                names[1],
                report::wld(&st.tally)
            ));
        }
        s.push_str(&format!("  {:.0}s", started.elapsed().as_secs_f64()));
        eprint!("\r\x1b[K{s}");
        let _ = std::io::stderr().flush();
        st.progress_shown = true;
    }
}

fn fault_kind(t: Termination) -> Option<&'static str> {
    match t {
        Termination::Abandoned => Some("crash"),
        Termination::IllegalMove => Some("illegal move"),
        Termination::TimeForfeit => Some("time"),
        Termination::Stalled => Some("stall"),
        Termination::RulesInfraction => Some("false claim"),
        _ => None,
    }
}

/// CPU seconds this process has used (all its threads; not the engines),
/// from /proc/self/stat (Linux; clock ticks of 1/100 s).
pub fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Per engine of a finished match: results and faults, for tools
/// (`tune.py`) and tests.
pub struct Summary {
    pub names: Vec<String>,
    pub field: Vec<Tally>,
    pub faults: Vec<BTreeMap<&'static str, usize>>,
    pub games: usize,
}

/// Each variant's referee, built once (every game starts from a copy), and
/// its openings.
type Bases = Vec<Box<dyn Referee + Sync>>;

fn load_variants(cfg: &MatchConfig, seed: u64) -> Result<(Bases, Vec<Picker>), String> {
    let mut bases: Bases = Vec::new();
    let mut pickers = Vec::new();
    for (i, v) in cfg.variants.iter().enumerate() {
        let seed = seed.wrapping_add(i as u64);
        if Family::of(v).is_four() {
            let base = FourPlayer::new(v, None)?;
            // enough different openings for every game
            let count = cfg.games * cfg.rounds * cfg.engines.len().pow(2) / cfg.repeat + 1;
            let list = openings::load_four(&cfg.openings, &base, count, seed)?;
            pickers.push(Picker::new(list, &cfg.openings, seed));
            bases.push(Box::new(base));
        } else {
            let base = TwoPlayer::new(v, None, &cfg.armies)?;
            let list = openings::load(&cfg.openings, &base)?;
            pickers.push(Picker::new(list, &cfg.openings, seed));
            bases.push(Box::new(base));
        }
    }
    Ok((bases, pickers))
}

/// Starts every engine once: it must run, say its name, play every variant
/// and, where an opening is a FEN, take a position.
fn check_engines(cfg: &MatchConfig, opening_list: &[Opening]) -> Result<Vec<EngineConfig>, String> {
    let mut engines = cfg.engines.clone();
    for (i, e) in engines.iter_mut().enumerate() {
        let label = e
            .name
            .clone()
            .unwrap_or_else(|| format!("engine {}", i + 1));
        let p = Player::start(e, &label)?;
        if let Some(v) = cfg.variants.iter().find(|v| p.supports(v) == Some(false)) {
            let name = p.name.clone();
            p.quit();
            return Err(format!("engine '{name}' does not play {v}"));
        }
        if !p.can_set_position() && opening_list.iter().any(|o| o.fen.is_some()) {
            let name = p.name.clone();
            p.quit();
            return Err(format!(
                "engine '{name}' cannot start from a FEN (no setboard); give openings as moves (PGN)"
            ));
        }
        e.name = Some(p.name.clone());
        p.quit();
    }
    Ok(engines)
}

impl State {
    fn new(n: usize) -> State {
        State {
            done: 0,
            tally: Tally::default(),
            as_white: Tally::default(),
            as_black: Tally::default(),
            colours: Tally::default(),
            penta: Pentanomial::default(),
            half_pairs: HashMap::new(),
            field: vec![Tally::default(); n],
            ends: vec![BTreeMap::new(); n],
            faults: vec![BTreeMap::new(); n],
            start_failures: vec![0; n],
            ffa: vec![FfaStanding::default(); n],
            stop: false,
            fatal: None,
            progress_shown: false,
        }
    }
}

/// Plays the match; prints as cutechess-cli does.
pub fn run(cfg: &MatchConfig) -> Result<Summary, String> {
    let seed = cfg.seed.unwrap_or_else(crate::rng::clock_seed);
    let (bases, mut pickers) = load_variants(cfg, seed)?;
    let (games, opening_list) = schedule(cfg, &mut pickers);
    let engines = check_engines(cfg, &opening_list)?;
    let names: Vec<String> = engines
        .iter()
        .map(|e| e.name.clone().unwrap_or_default())
        .collect();
    let n = engines.len();
    let state = Mutex::new(State::new(n));
    let out = Out {
        progress: std::io::stderr().is_terminal(),
    };
    if let Some(p) = &cfg.pgnout {
        // the file must be writable before games are played
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&p.path)
            .map_err(|e| format!("cannot write '{}': {e}", p.path.display()))?;
    }
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    let setup_cpu = own_cpu_seconds();
    let ctx = Ctx {
        cfg,
        engines: &engines,
        names: &names,
        games: &games,
        openings: &opening_list,
        bases: &bases,
        next: &next,
        state: &state,
        out: &out,
        started,
    };
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.min(games.len()).max(1) {
            s.spawn(|| ctx.worker());
        }
    });
    let mut guard = state.lock().map_err(|_| "a worker panicked")?;
    let st = &mut *guard;
    ctx.closing_report(st, setup_cpu);
    if let Some(f) = st.fatal.take() {
        return Err(f);
    }
    Ok(Summary {
        names: names.clone(),
        field: st.field.clone(),
        faults: st.faults.clone(),
        games: st.done,
    })
}

struct Ctx<'a> {
    cfg: &'a MatchConfig,
    engines: &'a [EngineConfig],
    names: &'a [String],
    games: &'a [Scheduled],
    openings: &'a [Opening],
    bases: &'a [Box<dyn Referee + Sync>],
    next: &'a AtomicUsize,
    state: &'a Mutex<State>,
    out: &'a Out,
    started: Instant,
}

impl Ctx<'_> {
    /// The match's closing lines: the last interval report, how games
    /// ended, faults per engine and the runner's own CPU (the last two on
    /// stderr, so that stdout stays as cutechess-cli's).
    fn closing_report(&self, st: &mut State, setup_cpu: Option<f64>) {
        // the last interval report may have been printed with the last game
        if st.done == 0 || !st.done.is_multiple_of(self.cfg.ratinginterval.max(1)) {
            self.interval_report(st);
        }
        self.out.line(st, "");
        let text = report::outcomes(self.names, &st.ends);
        for l in text.lines() {
            self.out.line(st, l);
        }
        self.out.line(st, "Finished match");
        // games lost by misbehaving, per engine (stderr, like the CPU line)
        for (name, f) in self.names.iter().zip(&st.faults) {
            if !f.is_empty() {
                let list: Vec<String> = f.iter().map(|(k, n)| format!("{n} by {k}")).collect();
                eprintln!("chimera match: {name} lost {}", list.join(", "));
            }
        }
        if let (Some(setup), Some(cpu)) = (setup_cpu, own_cpu_seconds())
            && st.done > 0
        {
            // the runner's own cost, apart from the engines: on stderr, so
            // that stdout stays as cutechess-cli's
            eprintln!(
                "chimera match: runner CPU {:.1} ms per game ({:.2} s for {} games in {:.0} s; {setup:.2} s to set up)",
                1000.0 * (cpu - setup) / st.done as f64,
                cpu - setup,
                st.done,
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    fn worker(&self) {
        // idle engine processes, per engine (a four-player engine may hold
        // several seats, a process each)
        let mut running: HashMap<usize, Vec<Player>> = HashMap::new();
        loop {
            if self.state.lock().map(|s| s.stop).unwrap_or(true) {
                break;
            }
            let k = self.next.fetch_add(1, Ordering::SeqCst);
            let Some(g) = self.games.get(k) else { break };
            if k > 0 && self.cfg.wait_ms > 0 {
                std::thread::sleep(Duration::from_millis(self.cfg.wait_ms));
            }
            let rec = self.play(g, &mut running);
            match rec {
                Ok(rec) => self.finished(g, rec),
                Err(e) => {
                    if let Ok(mut st) = self.state.lock() {
                        st.fatal = Some(e);
                        st.stop = true;
                    }
                    break;
                }
            }
        }
        for p in running.into_values().flatten() {
            p.quit();
        }
    }

    /// `A vs B` (two sides), or the engine of every seat (Free-For-All).
    fn pairing(&self, g: &Scheduled) -> String {
        let list: Vec<usize> = match Seating::of(&self.cfg.variants[g.variant]) {
            Seating::Ffa => g.seats.clone(),
            _ => g.sides().to_vec(),
        };
        let names: Vec<&str> = list.iter().map(|&e| self.names[e].as_str()).collect();
        names.join(" vs ")
    }

    fn play(
        &self,
        g: &Scheduled,
        running: &mut HashMap<usize, Vec<Player>>,
    ) -> Result<GameRecord, String> {
        let opening = &self.openings[g.opening];
        let mut r = self.bases[g.variant].fresh_game(opening.fen.as_deref())?;
        let book = play_opening(&mut *r, &opening.moves)?;
        // seats in order: an engine, or the reason it could not start
        let mut owned: Vec<Result<Player, String>> = Vec::new();
        for &e in &g.seats {
            let p = match running.get_mut(&e).and_then(Vec::pop) {
                Some(p) => Ok(p),
                None => Player::start(&self.engines[e], &self.names[e]),
            };
            let mut st = self.state.lock().map_err(|_| "poisoned")?;
            match &p {
                Ok(_) => st.start_failures[e] = 0,
                Err(msg) => {
                    log::warn!("{msg}");
                    st.start_failures[e] += 1;
                    if st.start_failures[e] >= 3 {
                        return Err(format!("{msg} (3 times in a row; match stopped)"));
                    }
                }
            }
            owned.push(p);
        }
        {
            let mut st = self.state.lock().map_err(|_| "poisoned")?;
            self.out.line(
                &mut st,
                &format!(
                    "Started game {} of {} ({})",
                    g.number,
                    self.games.len(),
                    self.pairing(g)
                ),
            );
        }
        let mut seats: Vec<SeatPlayer> = owned
            .iter_mut()
            .map(|o| match o {
                Ok(p) => Ok(p),
                Err(e) => Err(e.clone()),
            })
            .collect();
        let tcs: Vec<_> = g
            .seats
            .iter()
            .map(|&e| self.engines[e].tc.clone())
            .collect();
        let rec = play_game(&mut *r, book, &mut seats, &tcs, &self.cfg.rules);
        drop(seats);
        // keep the engines that behaved; a faulty one is restarted
        for (seat, p) in owned.into_iter().enumerate() {
            let Ok(p) = p else { continue };
            if let Some(f) = &rec.faults[seat] {
                log::warn!(
                    "game {}: {} ({}) {}",
                    g.number,
                    r.seat_name(seat),
                    p.name,
                    f.detail
                );
                p.kill();
            } else if p.restart_after_game() {
                p.quit();
            } else {
                running.entry(g.seats[seat]).or_default().push(p);
            }
        }
        Ok(rec)
    }

    fn finished(&self, g: &Scheduled, rec: GameRecord) {
        let Ok(mut st) = self.state.lock() else {
            return;
        };
        let st = &mut *st;
        st.done += 1;
        let seating = Seating::of(&rec.variant);
        let pts = &rec.ending.points;
        // faults, per engine
        for (seat, f) in rec.faults.iter().enumerate() {
            if let Some(k) = f.as_ref().and_then(|f| fault_kind(f.termination)) {
                *st.faults[g.seats[seat]].entry(k).or_insert(0) += 1;
            }
        }
        // the two sides' results: seats of the same parity play together
        let side_points = |k: usize| -> f64 { pts.iter().skip(k).step_by(2).sum() };
        let (a, b) = (side_points(0), side_points(1));
        let pw = if (a - b).abs() < 1e-9 {
            0.5
        } else if a > b {
            1.0
        } else {
            0.0
        };
        let [w, b] = g.sides();
        let two_sided = seating != Seating::Ffa || self.engines.len() == 2;
        if two_sided {
            st.field[w].add(pw);
            st.field[b].add(1.0 - pw);
            st.colours.add(pw);
        }
        self.count_ending(st, g, &rec, seating, pw);
        if self.engines.len() == 2 {
            Self::count_pair(st, g, w == 0, pw);
        }
        self.out.line(
            st,
            &format!(
                "Finished game {} ({}): {} {{{}}}",
                g.number,
                self.pairing(g),
                rec.ending.result,
                rec.ending.reason
            ),
        );
        if self.engines.len() == 2 {
            let line = format!(
                "Score of {} vs {}: {}",
                self.names[0],
                self.names[1],
                report::wld(&st.tally)
            );
            self.out.line(st, &line);
        }
        self.write_pgn(g, &rec);
        if st.done.is_multiple_of(self.cfg.ratinginterval.max(1)) {
            self.interval_report(st);
        }
        if let Some(s) = &self.cfg.sprt
            && report::sprt_decision(s, &st.penta).is_some()
        {
            st.stop = true;
        }
        self.out
            .progress(st, self.games.len(), self.names, self.started);
    }

    /// How the game ended, counted per engine: a place and its reason in
    /// Free-For-All, a win, loss or draw and its reason otherwise.
    fn count_ending(
        &self,
        st: &mut State,
        g: &Scheduled,
        rec: &GameRecord,
        seating: Seating,
        pw: f64,
    ) {
        let pts = &rec.ending.points;
        let [w, b] = g.sides();
        if seating == Seating::Ffa {
            let ffa = rec.ending.ffa_points.clone().unwrap_or_default();
            for (seat, (&e, &place)) in g.seats.iter().zip(pts).enumerate() {
                let mine = ffa.get(seat).copied().unwrap_or(0);
                let above = ffa.iter().filter(|&&q| q > mine).count();
                st.ffa[e].add(place, mine, above);
                let reason = match &rec.faults[seat] {
                    Some(f) => &f.reason,
                    None => &rec.ending.reason,
                };
                let key = format!("{}: {reason}", ["1st", "2nd", "3rd", "4th"][above.min(3)]);
                *st.ends[e].entry(key).or_insert(0) += 1;
            }
        } else {
            let loser = if pw < 0.25 {
                Some(w)
            } else if pw > 0.75 {
                Some(b)
            } else {
                None
            };
            for e in [w, b] {
                let key = match loser {
                    None => rec.ending.reason.clone(),
                    Some(l) if l == e => format!("Loss: {}", rec.ending.reason),
                    Some(_) => format!("Win: {}", rec.ending.reason),
                };
                *st.ends[e].entry(key).or_insert(0) += 1;
            }
        }
    }

    /// The first engine's points in a two-engine match: overall, by colour
    /// and, with the game played on the same opening with colours
    /// reversed, as a pentanomial pair.
    fn count_pair(st: &mut State, g: &Scheduled, first_is_white: bool, pw: f64) {
        let first_points = if first_is_white { pw } else { 1.0 - pw };
        st.tally.add(first_points);
        if first_is_white {
            st.as_white.add(first_points);
        } else {
            st.as_black.add(first_points);
        }
        match st.half_pairs.remove(&g.pair) {
            Some(p) => st.penta.add(p + first_points),
            None => {
                st.half_pairs.insert(g.pair, first_points);
            }
        }
    }

    /// Appends the game to the PGN (PGN4) file, if one was asked for.
    fn write_pgn(&self, g: &Scheduled, rec: &GameRecord) {
        if let Some(p) = &self.cfg.pgnout {
            let tc = self.engines[g.sides()[0]].tc.pgn_tag();
            let tags = pgn::Tags {
                event: &self.cfg.event,
                site: &self.cfg.site,
                round: g.round,
                time_control: &tc,
                armies: &self.cfg.armies,
            };
            let text = match pgn::write_four(rec, &tags) {
                Some(t) => t,
                None if p.min => pgn::write_min(rec, &tags),
                None => pgn::write(rec, &tags),
            };
            let res = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p.path)
                .and_then(|mut f| f.write_all(text.as_bytes()));
            if let Err(e) = res {
                log::error!("cannot write '{}': {e}", p.path.display());
            }
        }
    }

    fn interval_report(&self, st: &mut State) {
        let seating = Seating::of(&self.cfg.variants[0]);
        if self.engines.len() == 2 {
            let n = &self.names;
            let sides = match seating {
                Seating::Duel => ["White", "Black"],
                _ => TEAM_NAMES,
            };
            let lines = [
                format!(
                    "...      {} playing {}: {}",
                    n[0],
                    sides[0],
                    report::wld(&st.as_white)
                ),
                format!(
                    "...      {} playing {}: {}",
                    n[0],
                    sides[1],
                    report::wld(&st.as_black)
                ),
                format!(
                    "...      {} vs {}: {}",
                    sides[0],
                    sides[1],
                    report::wld(&st.colours)
                ),
                report::elo_line(&st.tally),
                report::sprt_line(self.cfg.sprt.as_ref(), &st.penta),
            ];
            for l in lines {
                self.out.line(st, &l);
            }
        } else if seating != Seating::Ffa {
            let standings: Vec<report::Standing> = self
                .names
                .iter()
                .zip(&st.field)
                .map(|(name, t)| report::Standing { name, tally: *t })
                .collect();
            let table = report::ranking(&standings);
            for l in table.lines() {
                self.out.line(st, l);
            }
            // as cutechess-cli: a blank line and the (unused) SPRT line
            self.out.line(st, "");
            let sprt = report::sprt_line(None, &st.penta);
            self.out.line(st, &sprt);
        }
        if seating == Seating::Ffa {
            let table = report::ffa_table(self.names, &st.ffa);
            for l in table.lines() {
                self.out.line(st, l);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::config::{EngineConfig, Proto};
    use crate::tools::matches::openings::Openings;

    fn cfg(engines: usize, games: usize, rounds: usize, repeat: usize) -> MatchConfig {
        MatchConfig {
            engines: vec![EngineConfig::new(Proto::Uci); engines],
            games,
            rounds,
            repeat,
            ..Default::default()
        }
    }

    fn openings(n: usize) -> Vec<Picker> {
        let list = (0..n)
            .map(|i| Opening {
                fen: None,
                moves: vec![i.to_string()],
            })
            .collect();
        vec![Picker::new(list, &Openings::default(), 1)]
    }

    #[test]
    fn two_engines() {
        let (g, o) = schedule(&cfg(2, 4, 1, 2), &mut openings(10));
        assert_eq!(g.len(), 4);
        assert_eq!(o.len(), 2);
        let seats: Vec<Vec<usize>> = g.iter().map(|x| x.seats.clone()).collect();
        assert_eq!(seats, vec![[0, 1], [1, 0], [0, 1], [1, 0]]);
        assert_eq!(g[0].opening, g[1].opening);
        assert_ne!(g[1].opening, g[2].opening);
        assert_eq!((g[0].pair, g[1].pair, g[2].pair), (0, 0, 1));
        // -rounds multiplies
        let (g, _) = schedule(&cfg(2, 2, 3, 1), &mut openings(10));
        assert_eq!(g.len(), 6);
        assert_eq!(g[5].round, 3);
    }

    #[test]
    fn tournaments() {
        let (g, _) = schedule(&cfg(4, 2, 1, 1), &mut openings(10));
        assert_eq!(g.len(), 12);
        let mut c = cfg(4, 2, 1, 1);
        c.kind = Kind::Gauntlet;
        let (g, _) = schedule(&c, &mut openings(10));
        assert_eq!(g.len(), 6);
        assert!(g.iter().all(|x| x.seats.contains(&0)));
    }

    #[test]
    fn four_player_seats() {
        let mut c = cfg(2, 4, 1, 2);
        c.variants = vec!["fourplayer-teams".into()];
        let (g, _) = schedule(&c, &mut openings(10));
        let seats: Vec<Vec<usize>> = g.iter().map(|x| x.seats.clone()).collect();
        assert_eq!(seats[0], [0, 1, 0, 1]);
        assert_eq!(seats[1], [1, 0, 1, 0]);
        assert_eq!(g[1].sides(), [1, 0]);
        assert_eq!((g[0].pair, g[1].pair, g[2].pair), (0, 0, 1));
        // Teams round-robin: every pair of engines
        let mut c = cfg(3, 2, 1, 1);
        c.variants = vec!["fourplayer-teams".into()];
        assert_eq!(schedule(&c, &mut openings(10)).0.len(), 6);
        // FFA, two engines on alternate seats
        c = cfg(2, 2, 1, 1);
        c.variants = vec!["fourplayer-ffa".into()];
        let (g, _) = schedule(&c, &mut openings(10));
        assert_eq!(g[0].seats, [0, 1, 0, 1]);
        assert_eq!(g[1].seats, [1, 0, 1, 0]);
        // four engines take every seat in turn
        c = cfg(4, 4, 1, 4);
        c.variants = vec!["fourplayer-ffa".into()];
        let (g, o) = schedule(&c, &mut openings(10));
        assert_eq!(o.len(), 1);
        let seats: Vec<Vec<usize>> = g.iter().map(|x| x.seats.clone()).collect();
        assert_eq!(
            seats,
            vec![[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]
        );
        c.noswap = true;
        assert!(
            schedule(&c, &mut openings(10))
                .0
                .iter()
                .all(|x| x.seats == [0, 1, 2, 3])
        );
    }

    #[test]
    fn variants_take_turns_by_opening() {
        let mut pickers = openings(3);
        pickers.extend(openings(3));
        let (g, o) = schedule(&cfg(2, 6, 1, 2), &mut pickers);
        let v: Vec<usize> = g.iter().map(|x| x.variant).collect();
        assert_eq!(v, vec![0, 0, 1, 1, 0, 0]);
        assert_eq!(o.len(), 3);
    }
}
