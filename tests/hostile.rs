//! What a hostile GUI, a careless user or a broken client once broke (issue
//! 26), each as its repro: the board's server under huge, slow and
//! misspelt requests; a large hash; `go`s whose limits are refused,
//! negative, missing or `mate`; XBoard's `variant` without a name and
//! values out of range; a reader that closes the pipe; and the command
//! line's smaller slips. Each test failed before its fix.

mod gui_client;
mod session;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gui_client::{get, post, saved_fen, start_gui, try_http};
use session::{Session, engine};

// ---- the board's server ----

#[test]
fn a_huge_content_length_is_refused_and_the_server_lives() {
    let (_gui, port) = start_gui();
    let before = saved_fen(port);
    for length in ["99999999999", "99999999999999999999999", "2000000"] {
        let req = format!(
            "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {length}\r\n\r\n{{}}"
        );
        let (status, body) = try_http(port, req.as_bytes(), 5)
            .unwrap_or_else(|| panic!("no answer to Content-Length {length}"));
        assert_eq!(status, 413, "{length}: {body}");
        let (status, _) = get(port, "/api/state");
        assert_eq!(
            status, 200,
            "the server answers after Content-Length {length}"
        );
    }
    assert_eq!(saved_fen(port), before, "the game is kept");
}

#[test]
fn a_stalled_client_does_not_hold_up_the_others() {
    let (_gui, port) = start_gui();
    // half a head, then nothing: the request never ends
    let mut slow = TcpStream::connect(("127.0.0.1", port)).unwrap();
    slow.write_all(b"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        .unwrap();
    // a body promised and never sent
    let mut slow_body = TcpStream::connect(("127.0.0.1", port)).unwrap();
    slow_body
        .write_all(b"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n{")
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    let (status, _) = get(port, "/api/state");
    assert_eq!(status, 200);
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "answered in {:?}",
        t.elapsed()
    );
    // a head without end is cut off, not read for ever
    let mut long = "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_string();
    while long.len() < 40_000 {
        long.push_str("X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
    }
    let (status, _) = try_http(port, long.as_bytes(), 5).expect("an answer to a long head");
    assert_eq!(status, 431);
    drop((slow, slow_body));
}

#[test]
fn a_misspelt_setting_is_refused_with_its_name() {
    let (_gui, port) = start_gui();
    let before = get(port, "/api/state").1;
    let (status, body) = post(port, "/api/settings", r#"{"movetime":-1}"#);
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("unknown field 'movetime'") && body.contains("movetime_ms"),
        "{body}"
    );
    let (status, body) = post(port, "/api/settings", r#"{"movetime_ms":-1}"#);
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(port, "/api/new", r#"{"variant":"chess","layout":7}"#);
    assert_eq!(status, 400, "{body}");
    let after = get(port, "/api/state").1;
    let settings =
        |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["settings"].clone();
    assert_eq!(settings(&before), settings(&after), "the settings are kept");
}

// ---- a large hash ----

fn resident_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| kb / 1024)
        .unwrap_or(0)
}

#[test]
fn uci_the_largest_hash_answers_at_once() {
    let mut s = Session::start();
    s.send("uci");
    s.expect("uciok", 10);
    s.send("setoption name Hash value 65536");
    let t = Instant::now();
    s.sync_uci(3);
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "readyok after {:?}",
        t.elapsed()
    );
    let rss = resident_mb(s.pid());
    assert!(rss < 1024, "{rss} MB resident before any search");
    // and it still searches
    s.send("position startpos moves e2e4");
    s.send("go depth 4");
    s.expect("bestmove", 30);
}

#[test]
fn xboard_a_huge_memory_answers_at_once_and_quits() {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    s.until(10, "feature done=1", |l| l == "feature done=1");
    for mb in ["99999999", "65536"] {
        s.send(&format!("memory {mb}"));
        let t = Instant::now();
        s.sync_xboard(1, 3);
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "memory {mb}: pong after {:?}",
            t.elapsed()
        );
    }
    let rss = resident_mb(s.pid());
    assert!(rss < 1024, "{rss} MB resident");
    s.send("quit");
    let t = Instant::now();
    s.wait_exit(3);
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "quit after {:?}",
        t.elapsed()
    );
}

// ---- searches that must end ----

fn uci_at(fen: Option<&str>) -> Session {
    let mut s = Session::start();
    s.send("uci");
    s.expect("uciok", 10);
    match fen {
        Some(f) => s.send(&format!("position fen {f}")),
        None => s.send("position startpos"),
    }
    s
}

/// Sends `go`; returns the lines up to `bestmove`, which must come within
/// `secs` seconds.
fn go_ends(s: &mut Session, go: &str, secs: u64) -> Vec<String> {
    s.send(go);
    let t = Instant::now();
    let lines = s.until(secs, "bestmove", |l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(secs), "{go}");
    lines
}

#[test]
fn uci_a_go_whose_limits_are_refused_still_ends() {
    // run side by side: each waits out the default search time (5 s)
    let cases = [
        ("go depth 99999999999999999999", "depth"),
        ("go wtime", "wtime"),
        ("go foo", "foo"),
        ("go movetime abc", "abc"),
    ];
    std::thread::scope(|scope| {
        for (go, named) in cases {
            scope.spawn(move || {
                let mut s = uci_at(None);
                let lines = go_ends(&mut s, go, 12);
                assert!(
                    lines
                        .iter()
                        .any(|l| l.starts_with("info string error:") && l.contains(named)),
                    "{go}: {lines:?}"
                );
                assert!(
                    lines.iter().any(|l| l.contains("no limit given")),
                    "{go}: {lines:?}"
                );
            });
        }
    });
}

#[test]
fn uci_a_clock_below_zero_moves_at_once() {
    let mut s = uci_at(None);
    let lines = go_ends(&mut s, "go wtime -5 btime -5", 3);
    assert!(lines.iter().any(|l| l.contains("below zero")), "{lines:?}");
    let mv = lines.last().unwrap();
    assert!(
        mv.starts_with("bestmove ") && mv != "bestmove (none)",
        "{mv}"
    );
}

#[test]
fn uci_go_mate_ends_found_or_not() {
    // mate in one: Qh5xf7
    let mut s = uci_at(Some(
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ));
    let lines = go_ends(&mut s, "go mate 1", 10);
    assert_eq!(lines.last().unwrap(), "bestmove h5f7", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    // no mate in one from the start: the search ends anyway
    let mut s = uci_at(None);
    let lines = go_ends(&mut s, "go mate 1", 10);
    assert!(lines.iter().any(|l| l.contains("go mate 1")), "{lines:?}");
}

fn four_at(moves: &str) -> Session {
    let mut s = Session::start();
    s.send("uci");
    s.expect("uciok", 10);
    s.send("setoption name UCI_Variant value fourplayer-teams");
    s.expect("info string variant", 10);
    s.send(format!("position startpos 4PC moves {moves}").trim());
    s
}

#[test]
fn four_player_negative_clocks_move_at_once() {
    let mut s = four_at("");
    let lines = go_ends(&mut s, "go rtime -5 btime -5 ytime -5 gtime -5", 3);
    assert!(lines.iter().any(|l| l.contains("below zero")), "{lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
}

#[test]
fn four_player_a_missing_clock_for_the_mover_is_said_and_ends() {
    // Blue to move; only Red's clock given
    let mut s = four_at("h2-h3");
    let lines = go_ends(&mut s, "go rtime 1000", 5);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("no btime")),
        "{lines:?}"
    );
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
}

// ---- XBoard ----

fn xboard() -> Session {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    s.until(10, "feature done=1", |l| l == "feature done=1");
    s
}

#[test]
fn xboard_variant_without_a_name_keeps_the_game() {
    let mut s = xboard();
    for l in ["new", "force", "usermove e2e4", "variant", "sd 1"] {
        s.send(l);
    }
    let said = s.sync_xboard(1, 5);
    assert!(
        said.iter()
            .any(|l| l.starts_with("Error (") && l.ends_with("): variant")),
        "{said:?}"
    );
    s.send("go");
    let mv = s.expect("move ", 10);
    // Black's move: from rank 7 or 8
    let from_rank = mv.chars().nth(6).unwrap();
    assert!(from_rank == '7' || from_rank == '8', "{mv}");
}

#[test]
fn xboard_values_out_of_range_are_errors() {
    let mut s = xboard();
    for (cmd, want) in [
        ("sd -1", "Error ("),
        ("sd 0", "Error ("),
        ("level 0 0 0", "Error ("),
        ("cores 0", "Error ("),
        ("cores 100000", "Error ("),
        ("time -100", "# time -100"),
        ("otim -100", "# otim -100"),
        ("memory 0", "Error ("),
    ] {
        s.send(cmd);
        let said = s.sync_xboard(2, 5);
        assert!(
            said.iter().any(|l| l.starts_with(want) && l.contains(cmd)),
            "{cmd}: {said:?}"
        );
    }
    // the level in force is still the default one: a move comes
    s.send("new");
    s.send("sd 2");
    s.send("go");
    s.expect("move ", 10);
}

// ---- the command line ----

fn chimera(args: &[&str]) -> std::process::Output {
    Command::new(engine())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run chimera")
}

#[test]
fn a_reader_that_closes_the_pipe_ends_it_quietly() {
    for args in [
        &[
            "perft",
            "2",
            "--variant",
            "fourplayer-teams",
            "--fen4",
            "4PC",
            "--divide",
        ][..],
        &["show", "--variant", "fourplayer-teams"],
        &["gui", "--help"],
        &["match", "--help"],
    ] {
        for _ in 0..8 {
            let mut child = Command::new(engine())
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut first = String::new();
            BufReader::new(child.stdout.take().unwrap())
                .read_line(&mut first)
                .unwrap();
            // the reader is gone (as `| head -1`)
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            let status = child.wait().unwrap();
            assert!(status.success(), "{args:?}: {status}, {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
    }
}

#[test]
fn a_missing_value_is_named() {
    let out = chimera(&["analyse", "--variant", "--depth", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--variant needs a value"), "{err}");
}

#[test]
fn an_empty_pgn4_is_an_error() {
    let path = std::env::temp_dir().join(format!("chimera-empty-{}.pgn4", std::process::id()));
    std::fs::write(&path, "\n").unwrap();
    let out = chimera(&["analyse", "--pgn4", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no game"), "{err}");
    let _ = std::fs::remove_file(path);
}

#[test]
fn junk_in_the_fen4_block_is_refused() {
    let fen = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-{junk}-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3";
    let out = chimera(&["show", "--variant", "fourplayer-teams", "--fen4", fen]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("block"), "{err}");
}

#[test]
fn the_command_line_takes_the_seat_tokens() {
    let out = chimera(&["show", "--variant", "fourplayer-ffa", "--moves", "h2-h3 R"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Yellow to move"), "{text}");
    let out = chimera(&["show", "--variant", "fourplayer-teams", "--moves", "R"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("the game is over"), "{text}");
}

// ---- engines started by Chimera ----

/// Whether a process runs (a zombie, waiting for its parent, does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            let state = s.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        })
        .unwrap_or(false)
}

fn wait_for(secs: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

#[test]
fn a_stopped_match_takes_its_engines_with_it() {
    let dir = std::env::temp_dir().join(format!("chimera-stubborn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("pid");
    let _ = std::fs::remove_file(&pidfile);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers/stubborn-uci.sh");
    let bin = engine();
    let mut m = Command::new(&bin)
        .args(["match", "-engine", &format!("cmd={script}")])
        .arg(format!("arg={}", pidfile.display()))
        .args(["proto=uci", "name=Stubborn", "-engine"])
        .arg(format!("cmd={bin}"))
        .args([
            "proto=uci",
            "-each",
            "tc=60",
            "-games",
            "1",
            "-variant",
            "chess",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chimera match");
    let read_pid = || {
        std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
    };
    assert!(wait_for(10, || read_pid().is_some()), "the engine started");
    let pid = read_pid().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(running(pid));
    // Ctrl-C or `kill`: the runner goes, and its engines with it
    Command::new("kill")
        .args(["-TERM", &m.id().to_string()])
        .status()
        .unwrap();
    let mut status = None;
    wait_for(5, || {
        status = m.try_wait().unwrap();
        status.is_some()
    });
    let gone = wait_for(5, || !running(pid));
    // whatever happened, nothing is left running
    if !gone {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .status();
    }
    if status.is_none() {
        let _ = m.kill();
    }
    let _ = m.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(status.is_some(), "chimera match ends on SIGTERM");
    assert_eq!(status.unwrap().code(), Some(128 + 15), "{status:?}");
    assert!(
        gone,
        "the engine that ignores SIGTERM and its input's end was killed"
    );
}
