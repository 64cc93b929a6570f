//! The search: an `Engine` runs iterative-deepening alpha-beta on a
//! background thread (Lazy SMP over `Threads` threads sharing one
//! transposition table) and reports through a callback.

mod correction;
mod extensions;
mod moveloop;
mod node;
pub mod ordering;
mod pruning;
mod qsearch;
pub mod see;
pub mod skill;
pub mod time;
pub mod tree;
pub mod tt;
mod ttstore;
pub mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::base::Move;
use crate::nnue::NetChoice;
use crate::params::Params;
use crate::setup::AnyPosition;
use correction::Correction;
use ordering::History;
pub use time::{Limits, TimeControl};
use tree::SearchPosition;
use tt::TranspositionTable;
use worker::{INF, MATE, MATE_BOUND, RootMove, Worker};

#[inline]
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// A score as the protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// centipawns
    Cp(i32),
    /// mate in this many moves (negative: being mated)
    Mate(i32),
}

impl ScoreKind {
    /// A search score of a game of `sides` players in turn: a mate is
    /// counted in the side to move's own moves (rounds of `sides` plies,
    /// the game's move numbers), the mating move's round included; in four
    /// players a mate that the partner completes in this round is a mate
    /// in 1.
    pub fn from_internal(s: i32, sides: usize) -> ScoreKind {
        let sides = sides.max(1) as i32;
        let rounds = |plies: i32| (plies + sides - 1) / sides;
        if s >= MATE_BOUND {
            ScoreKind::Mate(rounds(MATE - s))
        } else if s <= -MATE_BOUND {
            ScoreKind::Mate(-rounds(MATE + s))
        } else {
            ScoreKind::Cp(s)
        }
    }

    /// Centipawns with mates as large values (XBoard's convention:
    /// 100000 + moves).
    pub fn xboard(&self) -> i32 {
        match *self {
            ScoreKind::Cp(c) => c,
            ScoreKind::Mate(m) if m > 0 => 100000 + m,
            ScoreKind::Mate(m) => -100000 + m,
        }
    }
}

/// One line of search output. Moves are the engine's own; the protocols
/// name them.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: i32,
    pub multipv: usize,
    pub score: ScoreKind,
    /// nodes searched since the search started (`go`, or `go ponder`)
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    /// milliseconds since the search started, the same span as `nodes`
    pub time_ms: u64,
    /// the principal variation from the searched position, legal move by
    /// move
    pub pv: Vec<Move>,
}

/// What a search tells its caller.
#[derive(Clone, Debug)]
pub enum Report {
    Info(Info),
    /// the final move (None if there is no legal move) and a move to ponder
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
}

pub type Reporter = Arc<dyn Fn(Report) + Send + Sync>;

/// State shared by the threads of one search.
pub struct Shared {
    pub tt: Arc<TranspositionTable>,
    pub stop: AtomicBool,
    /// set while pondering; cleared by `ponderhit`
    pub ponder: AtomicBool,
    pub nodes: Vec<AtomicU64>,
}

impl Shared {
    fn new(tt: Arc<TranspositionTable>, threads: usize, ponder: bool) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            ponder: AtomicBool::new(ponder),
            nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// The result of a finished search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: ScoreKind,
    pub depth: i32,
    pub nodes: u64,
    pub time_ms: u64,
}

impl SearchResult {
    /// The result of a search with no move to search.
    fn none() -> SearchResult {
        SearchResult {
            best: None,
            ponder: None,
            score: ScoreKind::Cp(0),
            depth: 0,
            nodes: 0,
            time_ms: 0,
        }
    }
}

/// The search engine: options, the transposition table and the search
/// thread.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    threads: usize,
    hash_mb: usize,
    /// the running (or last) search; `stop` and `ponderhit` reach it here
    search: Arc<Shared>,
    pub params: Params,
    /// `Use NNUE` and `EvalFile`
    pub nets: NetChoice,
    /// milliseconds kept in reserve per move for communication delays
    pub move_overhead: u64,
    /// weaker play (`Skill Level` below 20): narrows every search but
    /// analysis (`infinite`) and chooses among its best lines
    pub skill: Option<skill::Skill>,
    handle: Option<JoinHandle<Option<SearchResult>>>,
    tables: TablesCache,
    /// what the last search of this game learned
    learned: LearnedSlot,
}

/// What a search learned that the next one in the same game starts from:
/// each thread's move histories (aged) and correction history.
struct Learned {
    history: History,
    correction: Correction,
}

/// The tables of the last search, one per thread (index: thread id).
type LearnedSlot = Arc<Mutex<Vec<Option<Learned>>>>;

impl Learned {
    /// The tables thread `id` left at the end of the last search, if they
    /// fit a game of `sides` sides on `squares` squares.
    fn take(slot: &LearnedSlot, id: usize, sides: usize, squares: usize) -> Option<Learned> {
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_mut(id)
            .and_then(Option::take)
            .filter(|l| l.history.fits(sides, squares) && l.correction.fits(sides))
    }

    /// Leaves thread `id`'s tables, aged, for the next search.
    fn keep(slot: &LearnedSlot, id: usize, mut history: History, correction: Correction) {
        history.age();
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if slot.len() <= id {
            slot.resize_with(id + 1, || None);
        }
        slot[id] = Some(Learned {
            history,
            correction,
        });
    }

    /// Thread `id`'s tables of the last search (taken), or new ones.
    fn take_or_new(slot: &LearnedSlot, id: usize, sides: usize, squares: usize) -> Learned {
        Learned::take(slot, id, sides, squares).unwrap_or_else(|| Learned {
            history: History::new(sides, squares),
            correction: Correction::new(sides),
        })
    }
}

/// The evaluation tables of one variant and one set of weights, of
/// either family (`P::Tables` behind `Any`).
struct CachedTables {
    variant: Arc<dyn std::any::Any + Send + Sync>,
    params: Params,
    nets: NetChoice,
    tables: Arc<dyn std::any::Any + Send + Sync>,
}

/// The evaluation tables of the last variant searched (built once per
/// variant and weights, not per move).
type TablesCache = Arc<Mutex<Option<CachedTables>>>;

fn cached_tables<P: SearchPosition>(
    cache: &TablesCache,
    pos: &P,
    params: &Params,
    nets: &NetChoice,
) -> Arc<P::Tables> {
    let mut slot = cache.lock().unwrap_or_else(|e| e.into_inner());
    let variant = pos.tables_variant();
    if let Some(c) = slot.as_ref()
        && Arc::ptr_eq(&c.variant, &variant)
        && c.params == *params
        && c.nets == *nets
        && let Ok(t) = c.tables.clone().downcast::<P::Tables>()
    {
        return t;
    }
    let tables = Arc::new(pos.build_tables(params, nets));
    *slot = Some(CachedTables {
        variant,
        params: params.clone(),
        nets: nets.clone(),
        tables: tables.clone(),
    });
    tables
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

const THREAD_STACK: usize = 64 * 1024 * 1024;

/// The largest hash size, `mb` or `mb` halved as often as needed, that
/// leaves the machine room: at most half of the memory the system says is
/// available (`MemAvailable`, where it says), less `headroom` bytes (the
/// search threads' stacks), and that the allocator grants.
fn fitting_hash_mb(mb: usize, headroom: usize) -> usize {
    let share = available_memory().map(|bytes| (bytes / 2).saturating_sub(headroom as u64));
    let mut size = mb.max(1);
    while size > 1 {
        let bytes = (size as u64).saturating_mul(1 << 20);
        if share.is_none_or(|s| bytes <= s) {
            return size;
        }
        size /= 2;
    }
    1
}

/// The memory the system can give without swapping, in bytes, where it
/// tells (Linux: `MemAvailable` of /proc/meminfo).
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// A table of `mb` megabytes or, if the allocator refuses, the largest
/// size halved from it that it grants.
fn allocate_table(mb: usize) -> TranspositionTable {
    let mut size = mb.max(1);
    loop {
        if let Some(t) = TranspositionTable::try_new(size) {
            return t;
        }
        if size == 1 {
            return TranspositionTable::new(1);
        }
        size /= 2;
    }
}

/// Frees a table on a thread of its own: giving back gigabytes of pages
/// takes a moment that the protocol loop should not wait for.
fn free_in_background(tt: Arc<TranspositionTable>) {
    if tt.mb() < 256 {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("free-hash".into())
        .spawn(move || drop(tt));
}

impl Engine {
    pub fn new() -> Engine {
        let tt = Arc::new(TranspositionTable::new(16));
        Engine {
            search: Arc::new(Shared::new(tt.clone(), 1, false)),
            tt,
            threads: 1,
            hash_mb: 16,
            params: Params::default(),
            nets: NetChoice::default(),
            move_overhead: 30,
            skill: None,
            handle: None,
            tables: Arc::new(Mutex::new(None)),
            learned: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Allocates (and so clears) a transposition table of `mb` megabytes,
    /// or of the largest size below that fits in memory; returns the size
    /// allocated. Waits for a running search first.
    pub fn set_hash(&mut self, mb: usize) -> usize {
        self.wait();
        // free the old table before looking for room for the new one
        let old = std::mem::replace(&mut self.tt, Arc::new(TranspositionTable::new(1)));
        self.search = Arc::new(Shared::new(self.tt.clone(), self.threads, false));
        free_in_background(old);
        let mb = fitting_hash_mb(mb.clamp(1, 65536), THREAD_STACK * (self.threads + 1));
        self.replace_table(allocate_table(mb));
        self.hash_mb
    }

    /// Puts `tt` in place of the table (the old one is freed in the
    /// background).
    fn replace_table(&mut self, tt: TranspositionTable) {
        self.hash_mb = tt.mb().max(1);
        let old = std::mem::replace(&mut self.tt, Arc::new(tt));
        self.search = Arc::new(Shared::new(self.tt.clone(), self.threads, false));
        free_in_background(old);
    }

    /// The size of the transposition table in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    pub fn set_threads(&mut self, n: usize) {
        self.wait();
        self.threads = n.clamp(1, 256);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learned (new game).
    pub fn new_game(&mut self) {
        self.wait();
        // a fresh table is zeroed as it is touched: clearing gigabytes
        // here would keep the GUI waiting
        self.replace_table(allocate_table(self.hash_mb));
        self.learned
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Asks the search to stop; the best move is reported as usual.
    pub fn stop(&self) {
        self.search.ponder.store(false, Ordering::Relaxed);
        self.search.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the move we pondered on: keep searching, now on
    /// our clock.
    pub fn ponderhit(&self) {
        self.search.ponder.store(false, Ordering::Relaxed);
    }

    /// Waits for the search thread to finish and returns its result.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.handle.take().and_then(|h| h.join().ok().flatten())
    }

    /// Starts a search in the background; `report` receives the info lines
    /// and, at the end, the best move. The search's clock starts now.
    pub fn go(&mut self, pos: AnyPosition, limits: Limits, report: Reporter) {
        let start = Instant::now();
        let cache = self.tables.clone();
        let params = self.params.clone();
        let nets = self.nets.clone();
        self.spawn(start, limits, report, move |job| {
            crate::with_position!(pos, p => {
                let tables = cached_tables(&cache, &p, &params, &nets);
                run_search(p, tables, job)
            })
        });
    }

    /// Starts a search of any game (four-player chess) in the background,
    /// with its evaluation tables (kept for the next search of the same
    /// variant); reports as `go` does.
    pub fn go_with<P: SearchPosition>(&mut self, pos: P, limits: Limits, report: Reporter) {
        let start = Instant::now();
        let cache = self.tables.clone();
        let params = self.params.clone();
        let nets = self.nets.clone();
        self.spawn(start, limits, report, move |job| {
            let tables = cached_tables(&cache, &pos, &params, &nets);
            run_search(pos, tables, job)
        });
    }

    /// Waits for the previous search, prepares the shared state of a new
    /// one and runs `search` on the search thread.
    fn spawn(
        &mut self,
        start: Instant,
        limits: Limits,
        report: Reporter,
        search: impl FnOnce(Job) -> Option<SearchResult> + Send + 'static,
    ) {
        self.wait();
        let mut limits = limits;
        let skill = self.skill.filter(|_| !limits.infinite);
        if let Some(s) = skill {
            s.restrict(&mut limits);
        }
        self.search = Arc::new(Shared::new(self.tt.clone(), self.threads, limits.ponder));
        self.tt.new_search();
        let job = Job {
            start,
            limits,
            params: self.params.clone(),
            shared: self.search.clone(),
            threads: self.threads,
            overhead: self.move_overhead,
            report,
            learned: self.learned.clone(),
            skill,
        };
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(THREAD_STACK)
            .spawn(move || search(job))
            .expect("spawn the search thread");
        self.handle = Some(handle);
    }

    /// Searches and waits for the result (for tools and tests).
    pub fn search(
        &mut self,
        pos: AnyPosition,
        limits: Limits,
        report: Option<Reporter>,
    ) -> Option<SearchResult> {
        let r: Reporter = report.unwrap_or_else(|| Arc::new(|_| {}));
        self.go(pos, limits, r);
        self.wait()
    }
}

/// One search, as `Engine::go` hands it to the search thread.
struct Job {
    /// when `go` was called: the clock of the time control and of the
    /// reports starts here
    start: Instant,
    limits: Limits,
    params: Params,
    shared: Arc<Shared>,
    threads: usize,
    overhead: u64,
    report: Reporter,
    /// the tables learned by the last search, taken and left back
    learned: LearnedSlot,
    skill: Option<skill::Skill>,
}

/// The longest prefix of `pv` that is legal from `root`.
fn legal_prefix<P: SearchPosition>(root: &P, pv: &[Move]) -> Vec<Move> {
    let mut p = root.clone();
    let mut out = Vec::new();
    for &m in pv {
        if !p.legal_moves().contains(&m) {
            break;
        }
        out.push(m);
        p.make(m);
    }
    out
}

/// The root moves `go` asks for (searchmoves, less the excluded ones).
fn root_moves_of<P: SearchPosition>(pos: &P, limits: &Limits) -> Vec<RootMove> {
    pos.legal_moves()
        .iter()
        .filter(|&m| {
            (limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
                && !limits.exclude.contains(m)
        })
        .map(|&m| RootMove {
            mv: m,
            score: -INF,
            prev_score: -INF,
            pv: vec![m],
            seldepth: 0,
        })
        .collect()
}

/// Starts the helper threads of a search (Lazy SMP: threads 1..threads).
/// Each makes its worker in its own thread (a new history table is 16 MB
/// to clear) from the tables it learned in the last search, and leaves
/// them back when it stops.
#[allow(clippy::too_many_arguments)]
fn spawn_helpers<P: SearchPosition>(
    pos: &P,
    tables: &Arc<P::Tables>,
    params: &Params,
    shared: &Arc<Shared>,
    root_moves: &[RootMove],
    tc: &TimeControl,
    limits: &Limits,
    threads: usize,
    learned: &LearnedSlot,
) -> Vec<std::thread::JoinHandle<()>> {
    (1..threads)
        .map(|id| {
            let (pos, tables, params, shared) =
                (pos.clone(), tables.clone(), params.clone(), shared.clone());
            let (root_moves, tc, limits) = (root_moves.to_vec(), tc.clone(), limits.clone());
            let learned = learned.clone();
            std::thread::Builder::new()
                .name(format!("helper{id}"))
                .stack_size(THREAD_STACK)
                .spawn(move || {
                    let l = Learned::take_or_new(&learned, id, pos.sides(), pos.squares());
                    let mut w = Worker::new(
                        id,
                        pos,
                        tables,
                        params,
                        shared,
                        root_moves,
                        tc,
                        limits,
                        (l.history, l.correction),
                    );
                    w.iterate(&mut |_, _| {});
                    Learned::keep(&learned, id, w.history, w.correction);
                })
                .expect("spawn a helper thread")
        })
        .collect()
}

/// The move to ponder on: the PV's second move, or else the hash table's
/// reply to its first.
fn ponder_move<P: SearchPosition>(root: &P, pv: &[Move], shared: &Shared) -> Option<Move> {
    if let Some(&reply) = pv.get(1) {
        return Some(reply);
    }
    let &first = pv.first()?;
    let mut p = root.clone();
    p.make(first);
    shared
        .tt
        .probe(p.hash())
        .map(|e| e.mv)
        .filter(|m| p.legal_moves().contains(m))
}

fn run_search<P: SearchPosition>(pos: P, tables: Arc<P::Tables>, job: Job) -> Option<SearchResult> {
    let Job {
        start,
        limits,
        params,
        shared,
        threads,
        overhead,
        report,
        learned,
        skill,
    } = job;
    let tc = TimeControl::new(
        &limits,
        pos.clock(),
        overhead,
        params.time_moves_to_go as u64,
        start,
    );
    let mut root_moves = root_moves_of(&pos, &limits);
    if root_moves.is_empty() {
        // nothing to search (mate, stalemate, or every move excluded)
        wait_while_pondering_or_infinite(&shared, &limits);
        report(Report::BestMove {
            best: None,
            ponder: None,
        });
        return Some(SearchResult::none());
    }
    // order the root by a quick static look: captures first
    root_moves.sort_by_key(|rm| !pos.is_noisy(rm.mv));

    let helpers = spawn_helpers(
        &pos,
        &tables,
        &params,
        &shared,
        &root_moves,
        &tc,
        &limits,
        threads,
        &learned,
    );
    let l = Learned::take_or_new(&learned, 0, pos.sides(), pos.squares());
    let mut main = Worker::new(
        0,
        pos.clone(),
        tables,
        params,
        shared.clone(),
        root_moves,
        tc,
        limits.clone(),
        (l.history, l.correction),
    );
    let root = pos.clone();
    let rep = report.clone();
    let sh = shared.clone();
    main.iterate(&mut |w: &Worker<P>, multipv: i32| {
        // the worker's clock restarts at `ponderhit` (the time control);
        // the report counts time and nodes from `go`, so nps stays true
        let elapsed = start.elapsed().as_millis() as u64;
        let nodes = sh.total_nodes().max(w.nodes);
        for (i, rm) in w.root_moves.iter().take(multipv as usize).enumerate() {
            rep(Report::Info(Info {
                depth: w.completed_depth,
                seldepth: rm.seldepth as i32,
                multipv: i + 1,
                score: ScoreKind::from_internal(rm.score, root.sides()),
                nodes,
                nps: nodes * 1000 / elapsed.max(1),
                hashfull: sh.tt.hashfull(),
                time_ms: elapsed,
                pv: legal_prefix(&root, &rm.pv),
            }));
        }
    });
    shared.nodes[0].store(main.nodes, Ordering::Relaxed);
    wait_while_pondering_or_infinite(&shared, &limits);
    shared.stop.store(true, Ordering::Relaxed);
    for h in helpers {
        let _ = h.join();
    }
    let chosen = match skill {
        Some(s) => {
            let lines = limits.multipv.clamp(1, main.root_moves.len());
            let scores: Vec<i32> = main.root_moves[..lines].iter().map(|r| r.score).collect();
            s.pick(&scores, root.hash(), |x| x <= -MATE_BOUND)
        }
        None => 0,
    };
    let best = &main.root_moves[chosen];
    let pv = legal_prefix(&root, &best.pv);
    let ponder = ponder_move(&root, &pv, &shared);
    let result = SearchResult {
        best: pv.first().copied(),
        ponder,
        score: ScoreKind::from_internal(best.score, root.sides()),
        depth: main.completed_depth,
        nodes: shared.total_nodes(),
        time_ms: start.elapsed().as_millis() as u64,
    };
    report(Report::BestMove {
        best: result.best,
        ponder,
    });
    Learned::keep(&learned, 0, main.history, main.correction);
    // a later search with fewer threads has no use for the others' tables
    learned
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .truncate(threads);
    Some(result)
}

/// In infinite or ponder mode the best move waits for `stop`/`ponderhit`.
fn wait_while_pondering_or_infinite(shared: &Shared, limits: &Limits) {
    loop {
        let stopped = shared.stop.load(Ordering::Relaxed);
        let pondering = shared.ponder.load(Ordering::Relaxed);
        if stopped || !(limits.infinite || pondering) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourplayer::search::Search4;
    use crate::fourplayer::{Layout, Mode, Position4, Variant4};
    use crate::position::Position;
    use crate::variant::Variant;

    #[test]
    fn mates_are_counted_in_the_side_to_moves_rounds() {
        // two players: mate with the first move (1 ply), with the second
        // (3 plies); mated by the reply (2 plies), by the second (4)
        let two = |s| ScoreKind::from_internal(s, 2);
        assert_eq!(two(mate_in(1)), ScoreKind::Mate(1));
        assert_eq!(two(mate_in(3)), ScoreKind::Mate(2));
        assert_eq!(two(mated_in(2)), ScoreKind::Mate(-1));
        assert_eq!(two(mated_in(4)), ScoreKind::Mate(-2));
        // four players: the mover's move (1 ply) or its partner's (3)
        // ends the game in this round; the next round's mates take 5
        // and 7 plies; the opponents mate at 2 and 4 plies, then at 6
        let four = |s| ScoreKind::from_internal(s, 4);
        assert_eq!(four(mate_in(1)), ScoreKind::Mate(1));
        assert_eq!(four(mate_in(3)), ScoreKind::Mate(1));
        assert_eq!(four(mate_in(5)), ScoreKind::Mate(2));
        assert_eq!(four(mate_in(7)), ScoreKind::Mate(2));
        assert_eq!(four(mated_in(2)), ScoreKind::Mate(-1));
        assert_eq!(four(mated_in(4)), ScoreKind::Mate(-1));
        assert_eq!(four(mated_in(6)), ScoreKind::Mate(-2));
        assert_eq!(four(MATE_BOUND - 1), ScoreKind::Cp(MATE_BOUND - 1));
    }

    #[test]
    fn tables_are_built_once_per_variant_and_weights_for_both_families() {
        let cache: TablesCache = Arc::new(Mutex::new(None));
        let params = Params::default();
        let v = Arc::new(
            Variant::<u64>::new(crate::variant::VariantSpec::by_name("chess", &[]).unwrap())
                .unwrap(),
        );
        let chess = Position::startpos(v.clone());
        let nets = NetChoice::default();
        let a = cached_tables(&cache, &chess, &params, &nets);
        let b = cached_tables(&cache, &Position::startpos(v), &params, &nets);
        assert!(Arc::ptr_eq(&a, &b), "same variant, same weights: kept");
        let mut other = params.clone();
        other.delta_margin += 1;
        let c = cached_tables(&cache, &chess, &other, &nets);
        assert!(!Arc::ptr_eq(&a, &c), "new weights: rebuilt");
        let off = NetChoice {
            use_nnue: false,
            file: None,
        };
        let g = cached_tables(&cache, &chess, &other, &off);
        assert!(!Arc::ptr_eq(&c, &g), "another network choice: rebuilt");
        let c = cached_tables(&cache, &chess, &other, &nets);

        let v4 = Arc::new(Variant4::new(Mode::Teams));
        let game = crate::fourplayer::game::Game4::new(Position4::startpos(v4, Layout::Modern));
        let four = Search4::of_game(&game, crate::fourplayer::search::Objective::Paranoid);
        let d = cached_tables(&cache, &four, &params, &nets);
        let e = cached_tables(&cache, &four, &params, &nets);
        assert!(Arc::ptr_eq(&d, &e), "four-player tables kept too");
        let f = cached_tables(&cache, &chess, &other, &nets);
        assert!(
            !Arc::ptr_eq(&c, &f),
            "the cache holds the last variant only"
        );
    }

    /// Nodes of a one-thread search to depth 7 from `variant`'s start
    /// after a few moves, with the given network choice and weights.
    fn nodes_to_depth(variant: &str, nets: &NetChoice, params: &Params) -> u64 {
        let mut e = Engine::new();
        e.set_hash(1);
        e.nets = nets.clone();
        e.params = params.clone();
        let moves = ["e2e4", "e7e5", "d2d4", "d7d5"];
        let omega = variant == "omega";
        let pos = crate::setup::setup(
            variant,
            None,
            if omega { &[] } else { &moves },
            &[],
            crate::setup::Width::Auto,
        )
        .unwrap();
        let limits = Limits {
            depth: Some(7),
            multipv: 1,
            ..Default::default()
        };
        e.search(pos, limits, None).unwrap().nodes
    }

    #[test]
    fn the_network_margins_steer_the_search_only_where_a_chess_network_evaluates() {
        // the built-in networks: cwda-f5 for chess, omega-a for Omega
        let net = NetChoice::default();
        let off = NetChoice {
            use_nnue: false,
            file: None,
        };
        let base = Params::default();
        let mut wide = base.clone();
        wide.set("nnue_rfp_margin", 300).unwrap();
        wide.set("nnue_fp_base", 400).unwrap();
        wide.set("nnue_see_quiet", 0).unwrap();
        let mut narrow = base.clone();
        narrow.rfp_margin = 300;
        narrow.fp_base = 400;
        narrow.see_quiet = 0;
        assert_ne!(
            nodes_to_depth("chess", &net, &base),
            nodes_to_depth("chess", &net, &wide),
            "with a network the nnue_ margins count"
        );
        assert_eq!(
            nodes_to_depth("chess", &net, &base),
            nodes_to_depth("chess", &net, &narrow),
            "with a network the classical margins do not"
        );
        assert_eq!(
            nodes_to_depth("chess", &off, &base),
            nodes_to_depth("chess", &off, &wide),
            "without a network the nnue_ margins do not count"
        );
        // Omega's own network keeps the classical margins
        assert_eq!(
            nodes_to_depth("omega", &net, &base),
            nodes_to_depth("omega", &net, &wide)
        );
        assert_ne!(
            nodes_to_depth("omega", &net, &base),
            nodes_to_depth("omega", &net, &narrow)
        );
    }

    #[test]
    fn every_thread_keeps_its_tables_for_the_next_search_of_the_game() {
        let mut e = Engine::new();
        e.set_hash(1);
        e.set_threads(3);
        let pos = crate::setup::setup("chess", None, &[], &[], crate::setup::Width::Auto).unwrap();
        let limits = Limits {
            nodes: Some(20_000),
            multipv: 1,
            ..Default::default()
        };
        e.search(pos.clone(), limits.clone(), None).unwrap();
        {
            let slot = e.learned.lock().unwrap();
            assert_eq!(slot.len(), 3, "one entry per thread");
            for (id, l) in slot.iter().enumerate() {
                let l = l
                    .as_ref()
                    .unwrap_or_else(|| panic!("thread {id} left its tables"));
                assert!(l.history.fits(2, 64) && l.correction.fits(2));
            }
            assert!(!slot[0].as_ref().unwrap().history.untouched());
        }
        // the next search takes them (the main thread's is not new)
        let taken = Learned::take(&e.learned, 0, 2, 64).unwrap();
        assert!(!taken.history.untouched());
        assert!(Learned::take(&e.learned, 0, 2, 64).is_none(), "taken once");
        assert!(
            Learned::take(&e.learned, 1, 2, 100).is_none(),
            "tables of another board are not used"
        );
        e.set_threads(1);
        e.search(pos, limits, None).unwrap();
        assert_eq!(
            e.learned.lock().unwrap().len(),
            1,
            "fewer threads: fewer kept"
        );
        e.new_game();
        assert!(
            e.learned.lock().unwrap().is_empty(),
            "a new game forgets them"
        );
    }
}
