//! The four-player search on positions whose right answer the rules prove
//! by enumeration (not by this program's search).

use std::process::Command;
use std::sync::Arc;

use chimera::fourplayer::{Layout, Mode, Position4, Variant4};

const OPENING: &str = "h2-h3 a10-c9 g13-g12 m8-l8 g1-k5 b7-c7 h14-e11 m6-l6";

fn position(moves: &str) -> Position4 {
    let v = Arc::new(Variant4::new(Mode::Teams));
    play(Position4::startpos(v, Layout::Modern), moves)
}

fn play(mut p: Position4, moves: &str) -> Position4 {
    for m in moves.split_whitespace() {
        let mv = p.parse_move(m).unwrap();
        p.make(mv);
    }
    p
}

/// `chimera analyse` of a Teams position to a depth: its standard output.
fn analyse(fen4: &str, moves: &str, depth: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args([
            "analyse",
            "--variant",
            "fourplayer-teams",
            "--fen4",
            fen4,
            "--moves",
            moves,
            "--depth",
            depth,
        ])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Yellow to move: whatever Yellow does, Green then mates Red.
fn every_yellow_move_lets_green_mate(p: &mut Position4) {
    assert_eq!(p.side(), 2, "Yellow to move");
    let replies = p.legal_moves();
    assert!(!replies.is_empty());
    for y in replies {
        p.make(y);
        assert!(green_mates(p), "after Yellow's {y:?} Green has no mate");
        p.unmake();
    }
}

/// Whether Green, to move, has a move after which Red is mated.
fn green_mates(p: &mut Position4) -> bool {
    for m in p.legal_moves() {
        p.make(m);
        let mated = p.side() == 0 && p.in_check() && !p.has_legal_move();
        p.unmake();
        if mated {
            return true;
        }
    }
    false
}

/// After Red's Qk5-h5 the Blue queen takes g2 with check, and whatever
/// Yellow does, Green's queen mates Red on i2 (or elsewhere): proved here by
/// trying every Yellow move. The engine, as Red, must not walk into it.
#[test]
fn teams_search_avoids_a_two_queen_mate() {
    let mut p = position(&format!("{OPENING} k5-h5 a8-g2"));
    every_yellow_move_lets_green_mate(&mut p);
    let text = analyse("4PC", OPENING, "7");
    let best = text.lines().last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove k5-h5",
        "{text}"
    );
}

/// From a game against 4pchess: Red's Qi9-m9 checks Green; whatever Blue
/// answers, Yellow then takes Green's last square and Green is mated on its
/// turn (proved by enumeration). Red must find the combination, which
/// needs the search to keep Blue's node unpruned while Blue's partner is in
/// check and to search Yellow's quiet mating move (the `four_spare_next_check`
/// knob: at 2, the default, moves that reach the checked King's zone are
/// spared beside checks).
#[test]
fn teams_search_finds_a_mate_completed_by_the_partner() {
    const GAME: &str = "h2-h3 b7-c7 i13-i12 m8-l8 f2-f4 b5-c5 h14-i13 m6-l6 g1-i3 a8-e4 e14-f12 m11-k11 e1-f3 a6-e2 i13-h12 n9-l7 d1-e1 a5-b7 h12-h9 l7-f13 i3-i6 e4-j9 g14-h14 n7-k10 i6-i9 j9-d3 h9-f9 k10-g6";
    let mut p = position(&format!("{GAME} i9-m9"));
    assert_eq!(p.side(), 1, "Blue to move");
    for b in p.legal_moves() {
        p.make(b);
        let mut yellow_mates = false;
        for y in p.legal_moves() {
            p.make(y);
            let mated = p.side() == 3 && p.in_check() && !p.has_legal_move();
            p.unmake();
            yellow_mates |= mated;
        }
        p.unmake();
        assert!(yellow_mates, "after Blue's {b:?} Yellow cannot mate");
    }
    let text = analyse("4PC", GAME, "6");
    assert_eq!(text.lines().last(), Some("bestmove i9-m9"), "{text}");
    // the partner completes the mate in this round: a mate in 1 (mates
    // count the mover's rounds, PROTOCOLS.md is silent; see the note in
    // `ScoreKind::from_internal`)
    assert!(text.contains("score mate 1"), "{text}");
}

/// From a game against 4pchess (4PC balanced opening): Red's Ne1-g2 loses
/// at once. Blue's bishop goes to f1 (covering g2), and whatever Yellow
/// does, Green's queen takes the knight on g2 with mate (proved by
/// enumeration). Quiescence used to skip that capture as futile (Green is
/// far behind in material), so Red walked into it and, searching after
/// Red's move with what the table had kept, Blue did not see its mate.
const OPENING_FEN4: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,1,yP,yP,yP,yP,yP,3/5,yP,8/bR,bP,10,gP,gR/bN,bP,8,gP,2,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,2,bP,8,gP,gN/bR,bP,5,rP,4,gP,gR/14/3,rP,rP,rP,rP,1,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3";
const BEFORE_NG2: &str = "g2-g4 a6-b5 g13-g11 n10-l9 g1-j4 b9-d9 e13-e12 m8-l8 f1-n9 a10-c9 f12-f11 n11-n9 j4-f8 b5-e2 j14-i12 n7-m8";

#[test]
fn teams_search_sees_a_mate_by_a_covered_capture() {
    let v = Arc::new(Variant4::new(Mode::Teams));
    let start = Position4::from_fen4(v, OPENING_FEN4).unwrap();
    let mut p = play(start, &format!("{BEFORE_NG2} e1-g2 e2-f1"));
    every_yellow_move_lets_green_mate(&mut p);
    // Red, searching, must not play Ne1-g2
    let text = analyse(OPENING_FEN4, BEFORE_NG2, "8");
    let best = text.lines().last().unwrap_or("");
    assert!(
        best.starts_with("bestmove ") && best != "bestmove e1-g2",
        "{text}"
    );
    // Blue, searching after Red's Ne1-g2 with the table of Red's search,
    // must find its team's mate (three plies)
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "uci\nsetoption name UCI_Variant value fourplayer-teams"
    )
    .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut search = |position: String, depth: u32| -> Vec<String> {
        writeln!(
            stdin,
            "position fen4 {OPENING_FEN4} moves {position}\ngo depth {depth}"
        )
        .unwrap();
        let mut out = Vec::new();
        for l in lines.by_ref() {
            let l = l.unwrap();
            let done = l.starts_with("bestmove");
            out.push(l);
            if done {
                break;
            }
        }
        out
    };
    search(BEFORE_NG2.to_string(), 8);
    let blue = search(format!("{BEFORE_NG2} e1-g2"), 6);
    let last_info = blue
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .cloned()
        .unwrap_or_default();
    // Blue's move, Yellow's, then Green mates: within Blue's round
    assert!(last_info.contains("score mate 1"), "{blue:?}");
    let _ = child.kill();
    let _ = child.wait();
}
