//! Property-based fuzzing of the protocol front ends and the parsers they
//! use: random and half-valid command lines through the UCI and XBoard
//! handlers (in process, output to a sink), mutated FENs through the FEN
//! reader of every variant family, and random strings through the move
//! reader, and random parameters through the reader of `go` of both UCI
//! dialects (two and four players), whose limits must always end the
//! search unless it says `infinite`. Nothing may panic; a handler must
//! still answer afterwards.
//!
//! A short run is part of the normal tests. For a long run, give the time in
//! seconds: `CHIMERA_FUZZ_SECS=600 cargo test --release --test fuzz_parsers
//! -- --nocapture`.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chimera::game::Game;
use chimera::protocol::go::{self, FOUR_PLAYER, TWO_PLAYER};
use chimera::protocol::uci::Uci;
use chimera::protocol::xboard::XBoard;
use chimera::protocol::{Event, Flow, Handler, Out};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Output that keeps the last lines written (to check the engine answers).
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let mut v = self.0.lock().unwrap();
        if v.len() > 1 << 20 {
            v.clear();
        }
        v.extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

const UCI_WORDS: &[&str] = &[
    "uci",
    "isready",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "rtime",
    "ytime",
    "gtime",
    "rinc",
    "yinc",
    "ginc",
    "fourplayer-teams",
    "fourplayer-ffa",
    "fen4",
    "4PC",
    "h2-h3",
    "b7-c7",
    "R",
    "T",
    "stop",
    "ponderhit",
    "ucinewgame",
    "debug",
    "on",
    "off",
    "register",
    "later",
    "d",
    "Hash",
    "Threads",
    "MultiPV",
    "Move Overhead",
    "Skill Level",
    "Ponder",
    "UCI_Variant",
    "omega",
    "chess",
    "cwda",
    "cwda-nutty-clobberers",
    "cwda-rookies-clobberers",
    "White Army",
    "Black Army",
    "Army File",
    "nutty",
    "clobberers",
    "true",
    "false",
    "1",
    "0",
    "-5",
    "2",
    "9999999999999999999999",
    "e2e4",
    "e7e5",
    "f3f6",
    "g10g7",
    "e10e11q",
    "b11b10",
    "e1g1",
    "g2i2",
    "O-O",
    "O-O-O",
    "e7e8=Q",
    "a1b4",
    "zz",
    "e2",
    "*",
    "w",
    "b",
    "KQkq",
    "-",
];

const XB_WORDS: &[&str] = &[
    "xboard",
    "protover",
    "2",
    "new",
    "variant",
    "omega",
    "normal",
    "cwda",
    "cwda-nutty-clobberers",
    "cwda-rookies-clobberers",
    "force",
    "go",
    "playother",
    "usermove",
    "?",
    "ping",
    "result",
    "1-0",
    "{x}",
    "setboard",
    "undo",
    "remove",
    "hard",
    "easy",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "exclude",
    "include",
    "all",
    "level",
    "40",
    "0:05",
    "0",
    "st",
    "sd",
    "time",
    "otim",
    "memory",
    "cores",
    "option",
    "Hash=8",
    "Ponder=1",
    "UCI_Variant=omega",
    "White Army=nutty",
    "MultiPV=2",
    "e2e4",
    "e7e5",
    "f3f6",
    "g10g7",
    "e10e11q",
    "b11b10",
    "O-O",
    "e7e8=Q",
    "zz",
    "-1",
    "3",
    "1.5",
    "accepted",
    "rejected",
    "computer",
    "hint",
    "bk",
    "draw",
    "name",
    "x",
];

const FENS: &[(&str, &str)] = &[
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "omega",
        "w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/W**********W w KQkq - 0 1",
    ),
    (
        "omega",
        "w**********w/*c9*/*1p1P6*/*10*/*9k*/*10*/*10*/*10*/*10*/*10*/*5K4*/W**********W w - - 0 1",
    ),
    (
        "omega",
        "w**********w/*crnbqkbnrc*/*pppppp1ppp*/*10*/*10*/*6p3*/*5P4*/*10*/*10*/*PPPPP1PPPP*/*CRNBQKBNRC*/W**********W w KQkq g9,g8 0 2",
    ),
    (
        "cwda-nutty-clobberers",
        "dwfckfwd/pppppppp/8/8/8/8/PPPPPPPP/GITLKTIG w KQkq - 0 1",
    ),
    (
        "cwda-rookies-clobberers",
        "dwfckfwd/pppppppp/8/8/8/8/PPPPPPPP/SOHMKHOS w KQkq - 0 1",
    ),
];

fn word_line(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(words), 0..8).prop_map(|v| v.join(" "))
}

/// A FEN with random edits: characters replaced, inserted, deleted.
fn mutated_fen() -> impl Strategy<Value = (String, String)> {
    let alphabet: Vec<char> =
        "pnbrqkcwdgiltfmshoPNBRQKCWDGILTFMSHO*/0123456789 -wbKQkq,abcdefghijkl"
            .chars()
            .collect();
    (
        prop::sample::select(FENS),
        prop::collection::vec((0usize..200, 0u8..3, prop::sample::select(alphabet)), 0..6),
    )
        .prop_map(|((v, fen), edits)| {
            let mut c: Vec<char> = fen.chars().collect();
            for (pos, kind, ch) in edits {
                let i = pos % (c.len() + 1);
                match kind {
                    0 if i < c.len() => c[i] = ch,
                    1 => c.insert(i, ch),
                    _ if i < c.len() => {
                        c.remove(i);
                    }
                    _ => {}
                }
            }
            (v.to_string(), c.into_iter().collect())
        })
}

fn uci_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => word_line(UCI_WORDS),
        2 => "\\PC{0,60}",
        2 => mutated_fen().prop_map(|(_, f)| format!("position fen {f} moves e2e4 f3f6")),
        1 => prop::collection::vec(prop::sample::select(UCI_WORDS), 0..6)
            .prop_map(|v| format!("go depth 1 {}", v.join(" "))),
        1 => (prop::sample::select(UCI_WORDS), "\\PC{0,20}")
            .prop_map(|(n, v)| format!("setoption name {n} value {v}")),
        1 => go_args().prop_map(|v| format!("go {}", v.join(" "))),
        1 => prop::sample::select(vec!["fourplayer-teams", "fourplayer-ffa", "chess", "omega"])
            .prop_map(|v| format!("setoption name UCI_Variant value {v}")),
    ]
}

const GO_WORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "rtime",
    "ytime",
    "gtime",
    "rinc",
    "yinc",
    "ginc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "0",
    "1",
    "7",
    "-5",
    "-0",
    "100",
    "5000",
    "99999999999999999999",
    "-99999999999999999999",
    "abc",
    "1.5",
    "",
    "e2e4",
    "h2-h3",
    "zz",
    "+3",
];

/// Random parameters of `go`: its words, numbers in and out of range,
/// junk.
fn go_args() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop_oneof![
            6 => prop::sample::select(GO_WORDS).prop_map(str::to_string),
            1 => "\\PC{0,8}",
            1 => any::<i64>().prop_map(|n| n.to_string()),
        ],
        0..10,
    )
}

/// Every `go` but `infinite` has a limit that ends its search; `mate`
/// has a depth; nothing is out of its range.
fn run_go(args: &[String], four: bool, mover: usize) -> Result<(), TestCaseError> {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let (clocks, slot) = if four {
        (&FOUR_PLAYER, 0)
    } else {
        (&TWO_PLAYER, mover % 2)
    };
    let mover = if four { mover % 4 } else { mover % 2 };
    let g = go::read_go(&a, clocks, mover, slot, 1, &|t: &str| {
        Err(format!("'{t}' is not a move here"))
    });
    let l = &g.limits;
    if !l.infinite {
        prop_assert!(
            l.time[slot].is_some()
                || l.movetime.is_some()
                || l.depth.is_some()
                || l.nodes.is_some(),
            "go {args:?}: no limit in {l:?}"
        );
    }
    if l.mate.is_some() && !l.infinite {
        prop_assert!(l.depth.is_some(), "go {args:?}: mate without a depth");
    }
    prop_assert!(
        l.depth
            .is_none_or(|d| (1..=go::MAX_DEPTH as i32).contains(&d))
    );
    prop_assert!(l.movetime.is_none_or(|t| t >= 1));
    prop_assert!(l.movestogo.is_none_or(|m| m >= 1));
    Ok(())
}

fn xboard_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => word_line(XB_WORDS),
        2 => "\\PC{0,60}",
        2 => mutated_fen().prop_map(|(_, f)| format!("setboard {f}")),
        1 => "[a-m][0-9]{1,2}[a-m][0-9]{1,2}[qrbnmcwxl=]{0,2}".prop_map(|m| format!("usermove {m}")),
    ]
}

fn run_uci(lines: &[String]) -> Result<(), TestCaseError> {
    let cap = Capture::default();
    let mut h = Uci::new(Out::new(Box::new(cap.clone())), Vec::new());
    for l in lines {
        if h.line(l) == Flow::Quit {
            break;
        }
    }
    h.line("stop");
    h.shutdown();
    // still answering
    h.line("isready");
    prop_assert!(
        cap.text().ends_with("readyok\n"),
        "no readyok after {lines:?}"
    );
    Ok(())
}

fn run_xboard(lines: &[String]) -> Result<(), TestCaseError> {
    let cap = Capture::default();
    let (tx, rx) = std::sync::mpsc::channel();
    let mut h = XBoard::new(Out::new(Box::new(cap.clone())), tx, Vec::new());
    h.line("st 0.02");
    'outer: for l in lines {
        if h.line(l) == Flow::Quit {
            break;
        }
        while let Ok(ev) = rx.try_recv() {
            if h.event(ev) == Flow::Quit {
                break 'outer;
            }
        }
    }
    h.line("force");
    h.line("exit");
    h.shutdown();
    while let Ok(ev) = rx.try_recv() {
        if let Event::SearchDone { .. } = ev {
            h.event(ev);
        }
    }
    h.line("ping 77");
    prop_assert!(cap.text().ends_with("pong 77\n"), "no pong after {lines:?}");
    Ok(())
}

fn run_fen(variant: &str, fen: &str) -> Result<(), TestCaseError> {
    let base = Game::new(variant, &[]).unwrap();
    if let Ok(mut g) = base.with_fen(fen) {
        // what was read writes back and reads again
        let out = g.fen();
        let again = base.with_fen(&out);
        prop_assert!(again.is_ok(), "{fen} -> {out}: {:?}", again.err());
        prop_assert_eq!(again.unwrap().fen(), out.clone());
        for _ in 0..4 {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[moves.len() / 2];
            // a legal move's name reads back as the same move
            prop_assert_eq!(g.parse(&g.name(m)).unwrap(), m);
            g.play_move(m).unwrap();
            let _ = g.outcome();
        }
    }
    Ok(())
}

fn run_move(variant: &str, s: &str) -> Result<(), TestCaseError> {
    let g = Game::new(variant, &[]).unwrap();
    if let Ok(m) = g.parse(s) {
        prop_assert!(g.legal_moves().contains(&m));
    }
    Ok(())
}

/// Runs all four properties, `cases` each per round, for `secs` seconds
/// (at least one round).
fn fuzz(cases: u32, secs: u64) {
    let start = Instant::now();
    let mut rounds = 0u64;
    loop {
        let config = Config {
            cases,
            failure_persistence: None,
            max_shrink_iters: 2000,
            ..Config::default()
        };
        let mut r = TestRunner::new(config.clone());
        r.run(&prop::collection::vec(uci_line(), 1..12), |v| run_uci(&v))
            .unwrap();
        let mut r = TestRunner::new(config.clone());
        r.run(&prop::collection::vec(xboard_line(), 1..12), |v| {
            run_xboard(&v)
        })
        .unwrap();
        let mut r = TestRunner::new(Config {
            cases: cases * 8,
            ..config.clone()
        });
        r.run(&mutated_fen(), |(v, f)| run_fen(&v, &f)).unwrap();
        let mut r = TestRunner::new(Config {
            cases: cases * 40,
            ..config.clone()
        });
        r.run(
            &(go_args(), any::<bool>(), 0usize..4),
            |(a, four, mover)| run_go(&a, four, mover),
        )
        .unwrap();
        let mut r = TestRunner::new(Config {
            cases: cases * 8,
            ..config
        });
        let variants = prop::sample::select(vec!["chess", "omega", "cwda-nutty-clobberers"]);
        r.run(
            &(
                variants,
                "\\PC{0,12}|[a-l][0-9]{1,2}[a-l][0-9]{1,2}[a-z=]{0,2}|O-O(-O)?",
            ),
            |(v, s)| run_move(v, &s),
        )
        .unwrap();
        rounds += 1;
        if start.elapsed() >= Duration::from_secs(secs) {
            break;
        }
    }
    eprintln!(
        "fuzz: {rounds} rounds of {cases} command sequences per protocol, {} FENs, {} go lines and {} moves per round, {:.0} s, no panic",
        cases * 8,
        cases * 40,
        cases * 8,
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn fuzz_protocols_and_parsers() {
    let secs: u64 = std::env::var("CHIMERA_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    fuzz(if secs > 0 { 64 } else { 24 }, secs);
}
