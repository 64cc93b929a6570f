//! The four-player search on positions whose right answer the rules prove
//! by enumeration (not by this program's search).

use std::process::Command;
use std::sync::Arc;

use chimera::fourplayer::{Layout, Mode, Position4, Variant4};

const OPENING: &str = "h2-h3 a10-c9 g13-g12 m8-l8 g1-k5 b7-c7 h14-e11 m6-l6";

fn position(moves: &str) -> Position4 {
    let v = Arc::new(Variant4::new(Mode::Teams));
    let mut p = Position4::startpos(v, Layout::Modern);
    for m in moves.split_whitespace() {
        let mv = p.parse_move(m).unwrap();
        p.make(mv);
    }
    p
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
    assert_eq!(p.side(), 2, "Yellow to move");
    let replies = p.legal_moves();
    assert!(!replies.is_empty());
    for m in replies {
        p.make(m);
        let name = format!("{m:?}");
        assert!(
            green_mates(&mut p),
            "after Yellow's {name} Green has no mate"
        );
        p.unmake();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args([
            "analyse",
            "--variant",
            "fourplayer-teams",
            "--fen4",
            "4PC",
            "--moves",
            OPENING,
            "--depth",
            "7",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let best = text.lines().last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove k5-h5",
        "{text}"
    );
}
