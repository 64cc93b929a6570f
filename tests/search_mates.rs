//! Quiet mates the search must see (issue 10's repros): the expected moves
//! follow from a forced mate, not from this program's output.

use std::process::Command;

fn analyse(args: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("analyse")
        .args(args)
        .output()
        .expect("chimera runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Black to move; ...Qxa2 allows Rd8, mate on the back rank (the f7, g7 and
/// h7 pawns block the King). Any other move avoids it.
#[test]
fn sees_a_back_rank_mate_at_depth_4() {
    let lines = analyse(&[
        "--fen",
        "6k1/5ppp/8/8/8/1q6/P4PPP/3R1RK1 b - - 0 1",
        "--depth",
        "4",
    ]);
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && !best.starts_with("bestmove b3a2"),
        "{lines:?}"
    );
}

/// Black to move against King and Rook: ...Kh8 allows Ra8 mate at once;
/// ...Kf8 does not (mate comes a move later). With two lines, Kh8 must show
/// as mated in one and rank below Kf8.
#[test]
fn rates_a_mate_in_one_below_a_longer_defence() {
    let lines = analyse(&[
        "--fen",
        "6k1/8/6K1/8/8/8/8/R7 b - - 0 1",
        "--depth",
        "5",
        "--multipv",
        "2",
    ]);
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .collect();
    let h8 = last_depth
        .iter()
        .find(|l| l.contains(" pv g8h8"))
        .expect("a line for g8h8");
    assert!(h8.contains("score mate -1"), "{h8}");
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some("g8f8"),
        "{lines:?}"
    );
}
