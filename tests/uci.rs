//! Scripted UCI sessions with the built binary: the handshake and options,
//! variants, large-board moves, whole games, pondering and MultiPV, and bad
//! input (each answered with `info string error: ...`, the position kept,
//! the engine still answering `isready`).

mod session;

use session::Session;

const OMEGA_START: &str = "w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/W**********W w KQkq - 0 1";
/// White pawn on e10 (e11 free), Black Champion on b11 (b10 free).
const OMEGA_PROMO: &str =
    "w**********w/*c9*/*1p1P6*/*10*/*9k*/*10*/*10*/*10*/*10*/*10*/*5K4*/W**********W w - - 0 1";

fn uci() -> Session {
    let mut s = Session::start();
    s.send("uci");
    s.expect("uciok", 10);
    s
}

/// The FEN of the engine's current position (`d`).
fn fen(s: &mut Session) -> String {
    s.send("d");
    s.expect("info string fen ", 10)["info string fen ".len()..].to_string()
}

/// Sends `go ...` and returns the best move (None for `bestmove (none)`),
/// failing on any error line.
fn best(s: &mut Session, go: &str, secs: u64) -> Option<String> {
    s.send(go);
    let lines = s.until(secs, "bestmove", |l| l.starts_with("bestmove"));
    for l in &lines {
        assert!(!l.contains("error"), "unexpected error: {l}");
    }
    let b = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    (b != "(none)").then_some(b)
}

#[test]
fn handshake_lists_the_options() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until(10, "uciok", |l| l == "uciok");
    assert!(lines[0].starts_with("id name Chimera"));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for want in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1",
        "option name MultiPV type spin default 1",
        "option name Move Overhead type spin default 30",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Ponder type check default false",
        "option name White Army type combo default fide var fide var clobberers var nutty var rookies",
        "option name Black Army type combo default fide",
        "option name Army File type string",
        "option name UCI_AnalyseMode type check",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(want)),
            "missing '{want}' in {lines:#?}"
        );
    }
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default chess"))
        .expect("UCI_Variant");
    for v in [
        "var chess",
        "var omega",
        "var cwda ",
        "var cwda-nutty-clobberers",
        "var cwda-rookies-clobberers",
        "var cwda-amazoncrab-forward",
    ] {
        assert!(variant.contains(v), "{v} missing from {variant}");
    }
    // tunable weights only with CHIMERA_TUNE=1
    assert!(!lines.iter().any(|l| l.contains("name tempo ")));
    s.send("isready");
    s.expect("readyok", 5);
    s.send("quit");
    assert!(s.wait_exit(10).success());
}

#[test]
fn variants_state_their_board() {
    let mut s = uci();
    s.send("setoption name UCI_Variant value omega");
    let l = s.expect("info string variant", 10);
    assert_eq!(
        l,
        format!("info string variant omega files 12 ranks 12 startpos {OMEGA_START}")
    );
    assert_eq!(fen(&mut s), OMEGA_START);
    s.send("ucinewgame");
    let l = s.expect("info string variant", 10);
    assert!(l.starts_with("info string variant omega files 12 ranks 12 startpos w***"));

    s.send("setoption name UCI_Variant value cwda-nutty-clobberers");
    let l = s.expect("info string variant", 10);
    assert_eq!(
        l,
        "info string variant cwda-nutty-clobberers files 8 ranks 8 startpos dwfckfwd/pppppppp/8/8/8/8/PPPPPPPPP/GITLKTIG w KQkq - 0 1"
            .replace("PPPPPPPPP", "PPPPPPPP")
    );
    // cwda takes its armies from the options
    s.send("setoption name White Army value rookies");
    s.send("setoption name Black Army value clobberers");
    s.send("setoption name UCI_Variant value cwda");
    let l = s.expect("info string variant", 10);
    assert!(l.starts_with("info string variant cwda-rookies-clobberers files 8 ranks 8 startpos dwfckfwd/pppppppp/8/8/8/8/PPPPPPPP/SOHMKHOS w KQkq - 0 1"), "{l}");
    // a Clobberers King castles long to b8
    s.send("position fen d3k3/8/8/8/8/8/8/4K3 b q - 0 1 moves e8b8");
    assert!(s.sync_uci(10).is_empty());
    assert_eq!(fen(&mut s), "1kd5/8/8/8/8/8/8/4K3 w - - 1 2");
    s.send("setoption name UCI_Variant value chess");
    assert!(s.sync_uci(10).is_empty(), "chess is not announced");
    assert_eq!(
        fen(&mut s),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn large_board_moves_are_accepted() {
    let mut s = uci();
    s.send("setoption name UCI_Variant value omega");
    s.send(&format!("position fen {OMEGA_PROMO} moves e10e11q b11b10"));
    let said = s.sync_uci(10);
    assert!(!said.iter().any(|l| l.contains("error")), "{said:?}");
    assert_eq!(
        fen(&mut s),
        "w**********w/*3Q6*/*cp8*/*10*/*9k*/*10*/*10*/*10*/*10*/*10*/*5K4*/W**********W w - - 1 2"
    );
    // moves into and out of the wizard squares, triple steps, castling
    let game = "a1b4 l12k9 b4a1 k9l12 i3i5 g10g7 i2h4 f10f8 h2i3 e10e9 g2i2";
    s.send(&format!("position startpos moves {game}"));
    let said = s.sync_uci(10);
    assert!(!said.iter().any(|l| l.contains("error")), "{said:?}");
    let f = fen(&mut s);
    assert!(f.starts_with("w**********w/*crnbqkbnrc*"), "{f}");
    assert!(f.contains("/*CRNBQ1RK1C*/W**********W b kq "), "{f}");
    let b = best(&mut s, "go depth 3", 30).expect("a move");
    s.send(&format!("position startpos moves {game} {b}"));
    assert!(s.sync_uci(10).is_empty());
}

#[test]
fn a_whole_game_to_mate() {
    let mut s = uci();
    s.send("ucinewgame");
    let start = "8/8/8/4k3/8/8/8/R2QK3 w - - 0 1";
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..60 {
        s.send(&format!("position fen {start} moves {}", moves.join(" ")));
        match best(&mut s, "go movetime 150", 20) {
            Some(m) => moves.push(m),
            None => break,
        }
    }
    // the side to move has no move: the engine says mate 0
    s.send(&format!("position fen {start} moves {}", moves.join(" ")));
    s.send("go depth 3");
    let lines = s.until(10, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines.contains(&"info depth 0 score mate 0".to_string()),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(moves.len() % 2 == 1, "White mates: {moves:?}");
}

#[test]
fn a_short_game_of_each_variant_family() {
    for (variant, plies) in [
        ("omega", 10),
        ("cwda-nutty-clobberers", 12),
        ("cwda-rookies-clobberers", 12),
    ] {
        let mut s = uci();
        s.send(&format!("setoption name UCI_Variant value {variant}"));
        s.send("ucinewgame");
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..plies {
            s.send(&format!("position startpos moves {}", moves.join(" ")));
            match best(&mut s, "go wtime 2000 btime 2000 winc 20 binc 20", 20) {
                Some(m) => moves.push(m),
                None => break,
            }
        }
        assert!(moves.len() >= 4, "{variant}: {moves:?}");
        s.send(&format!("position startpos moves {}", moves.join(" ")));
        let said = s.sync_uci(10);
        assert!(
            !said.iter().any(|l| l.contains("error")),
            "{variant}: {said:?}"
        );
    }
}

#[test]
fn info_lines_multipv_and_searchmoves() {
    let mut s = uci();
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    s.send("go depth 4");
    let lines = s.until(30, "bestmove", |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:?}");
    for (k, l) in infos.iter().enumerate() {
        for field in [
            "seldepth", "score cp", "nodes", "nps", "hashfull", "time", " pv ",
        ] {
            assert!(l.contains(field), "{field} missing: {l}");
        }
        assert!(l.contains(&format!("multipv {}", k + 1)), "{l}");
    }
    s.send("setoption name MultiPV value 1");
    s.send("setoption name UCI_Variant value omega");
    s.send("position startpos");
    assert_eq!(
        best(&mut s, "go depth 3 searchmoves j3j6 b2d4", 30)
            .as_deref()
            .map(|m| ["j3j6", "b2d4"].contains(&m)),
        Some(true)
    );
}

/// Skill Level: the weakest level searches one ply over four lines and
/// varies its moves, yet never gives up a free Queen (a line hundreds of
/// centipawns below the best is never chosen); level 20 is full strength.
#[test]
fn skill_level_plays_weaker_but_never_absurd() {
    let mut s = uci();
    s.send("setoption name Skill Level value 0");
    // White to move takes the undefended Queen on d5 (chess)
    let queen = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";
    for _ in 0..5 {
        s.send("ucinewgame");
        s.send(&format!("position fen {queen}"));
        s.send("go movetime 10000");
        let lines = s.until(20, "bestmove", |l| l.starts_with("bestmove"));
        assert_eq!(lines.last().unwrap(), "bestmove d2d5", "{lines:?}");
        // one ply, four lines, whatever the time allowed
        assert!(lines.iter().any(|l| l.contains(" multipv 4 ")), "{lines:?}");
        assert!(
            !lines.iter().any(|l| l.starts_with("info depth 2 ")),
            "{lines:?}"
        );
    }
    // from the start it does not always play the same move
    let mut seen = std::collections::HashSet::new();
    for i in 0..12 {
        s.send(&format!("setoption name Skill Level value {}", i % 3));
        s.send("ucinewgame");
        s.send("position startpos");
        seen.insert(best(&mut s, "go movetime 10000", 20).unwrap());
    }
    assert!(seen.len() > 1, "{seen:?}");
    // full strength again: the search goes deeper than the level's cap
    s.send("setoption name Skill Level value 20");
    s.send("position startpos");
    s.send("go depth 6");
    let lines = s.until(30, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 6 ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains(" multipv 2 ")),
        "{lines:?}"
    );
}

#[test]
fn uci_elo_limits_strength_only_when_asked() {
    let mut s = uci();
    s.send("uci");
    let lines = s.until(10, "uciok", |l| l == "uciok");
    let elo = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Elo type spin"))
        .unwrap_or_else(|| panic!("no UCI_Elo: {lines:?}"));
    let min: i32 = elo
        .split_whitespace()
        .skip_while(|w| *w != "min")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_LimitStrength type check default false")
    );
    // the weakest Elo: one ply over four lines, however deep it is asked
    s.send(&format!("setoption name UCI_Elo value {min}"));
    s.send("setoption name UCI_LimitStrength value true");
    s.send("position startpos");
    s.send("go depth 8");
    let lines = s.until(30, "bestmove", |l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains(" multipv 4 ")), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    // UCI_Elo is ignored without UCI_LimitStrength, as the protocol says
    s.send("setoption name UCI_LimitStrength value false");
    s.send("go depth 6");
    let lines = s.until(30, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 6 ")),
        "{lines:?}"
    );
    // an Elo off the scale is refused with the option's range
    s.send("setoption name UCI_Elo value 99999");
    let lines = s.sync_uci(5);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("UCI_Elo")),
        "{lines:?}"
    );
}

#[test]
fn ponder_stop_and_infinite() {
    let mut s = uci();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4");
    s.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(std::time::Duration::from_millis(300));
    // pondering: no best move until ponderhit, and the engine answers
    assert!(s.sync_uci(5).iter().all(|l| !l.starts_with("bestmove")));
    s.send("ponderhit");
    s.expect("bestmove", 10);
    s.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(s.sync_uci(5).iter().all(|l| !l.starts_with("bestmove")));
    s.send("stop");
    s.expect("bestmove", 5);
    // a mate is found with `go mate`
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(best(&mut s, "go mate 1", 20).as_deref(), Some("a1a8"));
}

#[test]
fn bad_input_is_answered_and_the_position_kept() {
    let mut s = uci();
    s.send("setoption name UCI_Variant value omega");
    s.send("position startpos moves f3f5");
    s.sync_uci(10);
    let before = fen(&mut s);
    let cases: &[(&str, &str)] = &[
        ("flibbertigibbet 42", "unknown command"),
        ("setoption name Nonsense value 3", "unknown option"),
        ("setoption name Hash value lots", "Hash must be an integer"),
        (
            "setoption name Hash value 0",
            "Hash must be an integer from 1",
        ),
        ("setoption name UCI_Variant value shogi", "unknown variant"),
        ("setoption name White Army value pirates", "White Army"),
        (
            "setoption name Ponder value perhaps",
            "Ponder must be true or false",
        ),
        (
            "setoption name Army File value /no/such/file.txt",
            "cannot read army file",
        ),
        ("setoption name Hash", "needs a value"),
        (
            "position fen w**********w/*crnbqkbnrc*/banana w - - 0 1",
            "bad FEN",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "bad FEN",
        ),
        ("position fen", "missing FEN"),
        (
            "position startpos moves f3f5 g10g7 f5f9",
            "illegal move 'f5f9'",
        ),
        ("position startpos moves f3f5 zz9", "unparsable move 'zz9'"),
        ("position startpos moves e2e4", "illegal move 'e2e4'"),
        ("position sideways", "expected 'startpos' or 'fen'"),
        ("position startpos f3f5", "expected 'moves'"),
        ("stop", "no search"),
        ("ponderhit", "no search"),
    ];
    for (cmd, want) in cases {
        s.send(cmd);
        let said = s.sync_uci(10);
        assert!(
            said.iter()
                .any(|l| l.starts_with("info string error: ") && l.contains(want)),
            "'{cmd}' should say '{want}', said {said:?}"
        );
        assert_eq!(fen(&mut s), before, "after '{cmd}'");
    }
    // a very long line, then one of garbage bytes
    let long = format!("position startpos moves {}", "f3f5 ".repeat(100_000));
    s.send(&long);
    let said = s.sync_uci(20);
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string error: line too long")),
        "{said:?}"
    );
    s.send_raw(b"\xff\xfe\x00garbage\x07\n");
    let said = s.sync_uci(10);
    assert!(
        said.iter().any(|l| l.starts_with("info string error: ")),
        "{said:?}"
    );
    assert_eq!(fen(&mut s), before);
    // go with a bad parameter still searches (and says what was wrong)
    s.send("go depth x nodes 2000");
    let lines = s.until(20, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error: go depth: 'x' is not a number")),
        "{lines:?}"
    );
}

#[test]
fn go_before_position_searches_the_start() {
    let mut s = uci();
    s.send("go depth 2");
    let lines = s.until(20, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: go before position")),
        "{lines:?}"
    );
    assert!(!lines.last().unwrap().contains("(none)"));
}

#[test]
fn detection_without_uci_and_eof() {
    // a script may start with position/go; EOF ends the program
    let mut s = Session::start();
    s.send("position startpos moves e2e4 e7e5");
    s.send("isready");
    s.expect("readyok", 10);
    s.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(200));
    s.close();
    s.expect("bestmove", 10);
    assert!(s.wait_exit(10).success());
    // EOF right away
    let mut s = Session::start();
    s.close();
    assert!(s.wait_exit(10).success());
}

#[test]
fn army_file_adds_armies() {
    let dir = std::env::temp_dir().join(format!("chimera-uci-armies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("spear.txt");
    std::fs::write(
        &good,
        "army spearmen \"Spearmen\"\nrook Y fsRbW Spear Rook value=450\nknight N N Knight\nbishop B B Bishop\nqueen A QN Amazon value=1200\n",
    )
    .unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "army broken\nrook Y fsRbX Spear Rook\n").unwrap();
    let mut s = uci();
    s.send(&format!("setoption name Army File value {}", bad.display()));
    let said = s.sync_uci(10);
    assert!(
        said.iter()
            .any(|l| l.contains("error") && l.contains("bad.txt:2")),
        "{said:?}"
    );
    s.send(&format!(
        "setoption name Army File value {}",
        good.display()
    ));
    s.send("setoption name White Army value spearmen");
    s.send("setoption name UCI_Variant value cwda");
    let l = s.expect("info string variant", 10);
    assert!(
        l.contains("cwda-spearmen-fide") && l.contains("/YNBAKBNY w"),
        "{l}"
    );
    s.send("position startpos moves a2a4");
    best(&mut s, "go depth 2", 20).expect("a move");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// What a GUI author found (issue 11)

/// The number after `key` in an `info` line.
fn field(line: &str, key: &str) -> u64 {
    let mut it = line.split_whitespace();
    while let Some(w) = it.next() {
        if w == key {
            return it.next().and_then(|v| v.parse().ok()).unwrap_or(0);
        }
    }
    panic!("no '{key}' in {line}")
}

/// A new Hash size is allocated when it is set, before `readyok`, not in
/// the time of the next move: with one second on the clock the move comes
/// well within it (allocating 1 GB takes about a second).
#[test]
fn hash_is_allocated_before_readyok_not_in_the_move() {
    let mut s = uci();
    s.send("setoption name Hash value 1024");
    let said = s.sync_uci(60);
    assert!(said.is_empty(), "{said:?}");
    s.send("position startpos");
    let start = std::time::Instant::now();
    s.send("go wtime 1000 btime 1000");
    s.expect("bestmove", 10);
    let took = start.elapsed();
    assert!(
        took < std::time::Duration::from_millis(600),
        "the move took {took:?} of a 1 s clock"
    );
}

/// A Hash larger than the memory the engine may use is not an abort at the
/// next `go`: the engine takes the largest size that fits and says so.
#[test]
fn hash_too_large_for_the_memory_falls_back() {
    // 3 GB of address space, as in the repro
    let mut s = Session::start_with_memory_limit(3_000_000);
    s.send("uci");
    s.expect("uciok", 10);
    s.send("setoption name Hash value 65536");
    let said = s.sync_uci(60);
    let notice = said
        .iter()
        .find(|l| l.starts_with("info string Hash: 65536 MB"))
        .unwrap_or_else(|| panic!("no notice: {said:?}"));
    let got: usize = notice
        .split("using ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no size in {notice}"));
    assert!((64..3000).contains(&got), "{notice}");
    s.send("position startpos");
    s.send("go depth 2");
    s.expect("bestmove", 20);
    s.send("quit");
    assert!(s.wait_exit(10).success());
}

/// After `ponderhit` the search's `nodes` and `time` still describe the
/// same span: `nps` stays the engine's real speed, and a `time` that
/// started again comes with `nodes` that started again.
#[test]
fn ponderhit_keeps_nodes_and_time_in_step() {
    let mut s = uci();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4");
    s.send("go ponder wtime 600000 btime 600000 movestogo 1");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let before: Vec<String> = s
        .drain()
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    let last = before.last().expect("info lines while pondering");
    s.send("ponderhit");
    let after = s.expect("info depth", 60);
    s.send("stop");
    s.expect("bestmove", 10);
    let (t0, n0) = (field(last, "time"), field(last, "nodes"));
    let (t1, n1) = (field(&after, "time"), field(&after, "nodes"));
    assert_eq!(
        t1 < t0,
        n1 < n0,
        "time and nodes out of step across ponderhit:\n{last}\n{after}"
    );
    let (nps0, nps1) = (field(last, "nps").max(1), field(&after, "nps"));
    assert!(
        nps1 < nps0 * 2,
        "nps jumped across ponderhit:\n{last}\n{after}"
    );
}
