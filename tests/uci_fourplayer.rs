//! Scripted sessions in the four-player UCI dialect (PROTOCOLS.md
//! "Four-player"): the variant option and the board it announces, both
//! layouts, FEN4 positions (also as 4pchess spells them), moves in every
//! notation and the seat tokens, the four clocks, FFA points, and bad input
//! answered with `info string error: ...` with the position kept.

mod session;

use session::Session;

const START_4PC: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3";

fn four(mode: &str) -> Session {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until(10, "uciok", |l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant")
                && l.contains("var fourplayer-teams")
                && l.contains("var fourplayer-ffa")),
        "{lines:?}"
    );
    s.send(&format!(
        "setoption name UCI_Variant value fourplayer-{mode}"
    ));
    let a = s.expect("info string variant", 10);
    assert!(
        a.starts_with(&format!(
            "info string variant fourplayer-{mode} files 14 ranks 14 startpos R-"
        )),
        "{a}"
    );
    s
}

fn fen4(s: &mut Session) -> String {
    s.send("d");
    s.expect("info string fen4 ", 10)["info string fen4 ".len()..].to_string()
}

/// Sends `go ...`; returns the best move and every line of the search.
fn best(s: &mut Session, go: &str, secs: u64) -> (String, Vec<String>) {
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
    (b, lines)
}

#[test]
fn teams_positions_moves_and_search() {
    let mut s = four("teams");
    s.send("position startpos 4PC moves h2-h3 b7c7 g13-g12 m8-l8");
    s.sync_uci(10);
    let f = fen4(&mut s);
    assert!(f.starts_with("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-"), "{f}");
    // rank 8: Green's pawn went m8-l8; rank 7: Blue's b7-c7
    assert!(f.contains("/bQ,bP,9,gP,1,gK/bK,1,bP,9,gP,gQ/"), "{f}");
    // 4pchess's spelling of a FEN position
    s.send(&format!("position fen {START_4PC} moves h2-h4"));
    s.sync_uci(10);
    assert!(fen4(&mut s).starts_with("B-"));
    let (m, lines) = best(
        &mut s,
        "go depth 4 rtime 60000 btime 60000 ytime 60000 gtime 60000",
        30,
    );
    assert!(m.contains('-'), "{m}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 4 ") && l.contains(" pv "))
    );
    // Blue's move is one of Blue's: from the a/b files
    assert!(m.starts_with('a') || m.starts_with('b'), "{m}");
}

#[test]
fn bad_input_keeps_the_position() {
    let mut s = four("teams");
    s.send("position startpos 4PC moves h2-h3");
    s.sync_uci(10);
    let before = fen4(&mut s);
    for (cmd, what) in [
        (
            "position startpos 4PC moves h2-h3 b7-b9",
            "illegal move 'b7-b9'",
        ),
        ("position startpos moves zz", "'zz'"),
        ("position fen4 R-0,0,0,0", "bad FEN4"),
        (
            "position fen4 Q-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-14",
            "side to move 'Q'",
        ),
        ("position middlepos", "'middlepos'"),
    ] {
        s.send(cmd);
        let e = s.expect("info string error:", 10);
        assert!(e.contains(what), "{cmd}: {e}");
        assert_eq!(fen4(&mut s), before, "{cmd} changed the position");
    }
    s.send("go depth 2 wtime 100");
    let lines = s.until(20, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("'wtime'")),
        "{lines:?}"
    );
    s.send("isready");
    s.expect("readyok", 10);
}

#[test]
fn ffa_reports_points_and_takes_the_seat_tokens() {
    let mut s = four("ffa");
    // Blue resigns: its army turns dead, its King walks on
    s.send("position startpos 4PC moves h2-h3 R");
    s.sync_uci(10);
    let f = fen4(&mut s);
    assert!(f.starts_with("Y-"), "{f}");
    assert!(f.contains("'resigned':(false,true,false,false)"), "{f}");
    assert!(f.contains("dP"), "{f}");
    let (_, lines) = best(&mut s, "go depth 3", 30);
    assert!(
        lines.iter().any(|l| l.starts_with("info string points ")),
        "{lines:?}"
    );
}

#[test]
fn a_finished_game_has_no_move() {
    let mut s = four("teams");
    // Blue is mated on its turn (King a11, rooks on the a- and b-files)
    let mated = "B-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-6,yK,7/14/14/bK,13/14/14/14/nope";
    s.send(&format!("position fen4 {mated}"));
    s.expect("info string error:", 10);
    let fen = "B-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-6,yK,7/14/14/bK,13/14/14/14/13,gK/14/14/rR,rR,12/14/14/7,rK,6";
    s.send(&format!("position fen4 {fen}"));
    s.sync_uci(10);
    let (m, lines) = best(&mut s, "go depth 3", 20);
    assert_eq!(m, "(none)");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("game is over") && l.contains("Blue is checkmated")),
        "{lines:?}"
    );
}
