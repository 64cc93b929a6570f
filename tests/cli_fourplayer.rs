//! The command line's four-player parts: perft, show, analyse and
//! `analyse --pgn4` on good input, and bad FEN4s, moves, files and options,
//! each a one-line error naming the token, exit status 2, never a panic.

use std::process::{Command, Output};

fn engine() -> String {
    std::env::var("CHIMERA_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_chimera").to_string())
}

fn run(args: &[&str]) -> Output {
    Command::new(engine())
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("the chimera binary runs")
}

fn expect_error(args: &[&str], needle: &str) {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: output on stdout");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr} lacks {needle}");
}

fn stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn perft_show_and_analyse() {
    // 4PC start, depth 3: 7,800 (RULES.md, refdata: 4pchess = a separate generator)
    let p = stdout(&[
        "perft",
        "3",
        "--variant",
        "fourplayer-teams",
        "--fen4",
        "4PC",
    ]);
    assert_eq!(p.lines().last(), Some("Nodes searched: 7800"));
    let d = stdout(&[
        "perft",
        "1",
        "--divide",
        "--variant",
        "fourplayer-ffa",
        "--fen4",
        "4PC",
        "--moves",
        "h2-h4",
    ]);
    assert_eq!(d.lines().count(), 21, "Blue has 20 moves: {d}");
    let s = stdout(&["show", "--variant", "fourplayer-teams", "--fen4", "4PC"]);
    assert!(s.lines().next().unwrap().starts_with("14 "), "{s}");
    assert!(s.contains("Red to move"), "{s}");
    let a = stdout(&[
        "analyse",
        "--variant",
        "fourplayer-teams",
        "--fen4",
        "4PC",
        "--depth",
        "3",
    ]);
    assert!(
        a.contains("info depth 3 ") && a.lines().last().unwrap().starts_with("bestmove "),
        "{a}"
    );
}

#[test]
fn review_a_pgn4() {
    let dir = std::env::temp_dir().join(format!("chimera-pgn4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("g.pgn4");
    std::fs::write(
        &f,
        "[Variant \"Teams\"]\n[StartFen4 \"4PC\"]\n\n1. h2-h3 .. b7-c7 .. g13-g12 .. m6-l6\n",
    )
    .unwrap();
    let out = stdout(&["analyse", "--pgn4", f.to_str().unwrap(), "--depth", "2"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[0].contains("Red") && lines[0].contains("played h2-h3"),
        "{out}"
    );
    std::fs::write(&f, "[Variant \"Teams\"]\n\n1. h2-h3 .. b7-b9\n").unwrap();
    expect_error(
        &["analyse", "--pgn4", f.to_str().unwrap()],
        "move 2 ('b7-b9')",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input() {
    expect_error(
        &[
            "perft",
            "2",
            "--variant",
            "fourplayer-teams",
            "--fen4",
            "R-0,0",
        ],
        "bad FEN4",
    );
    expect_error(
        &[
            "perft",
            "2",
            "--variant",
            "fourplayer-teams",
            "--moves",
            "h2-h5",
        ],
        "h2-h5",
    );
    expect_error(
        &[
            "perft",
            "2",
            "--variant",
            "fourplayer-teams",
            "--fen",
            "8/8 w - - 0 1",
        ],
        "--fen4",
    );
    expect_error(
        &["perft", "2", "--variant", "chess", "--fen4", "4PC"],
        "--fen4",
    );
    expect_error(&["show", "--variant", "omega"], "omega");
    expect_error(
        &["analyse", "--pgn4", "/nonexistent/game.pgn4"],
        "cannot read",
    );
    expect_error(
        &[
            "analyse",
            "--variant",
            "fourplayer-ffa",
            "--ffa-search",
            "greedy",
        ],
        "greedy",
    );
}
