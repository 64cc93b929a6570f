//! Four-player rules on hand-made positions whose outcome the rules
//! (RULES.md section 3) decide: Free-For-All mates, eliminations and
//! points, check bonuses, promoted Queens, stalemate draws; Teams mates and
//! checks that take effect on the victim's turn.

use std::sync::Arc;

use chimera::bitboard::Bitboard;
use chimera::fourplayer::game::{Game4, Outcome4};
use chimera::fourplayer::{Mode, Position4, Variant4};

/// A FEN4 from a list of (square, piece) and the header fields.
fn fen4(side: char, points: &str, pieces: &[(&str, &str)]) -> String {
    let v = Variant4::new(Mode::Teams);
    let mut rows = Vec::new();
    for rank in (1..=14).rev() {
        let mut cells = Vec::new();
        let mut run = 0;
        for f in 0..14u8 {
            let name = format!("{}{rank}", (b'a' + f) as char);
            match pieces.iter().find(|(s, _)| *s == name) {
                Some((_, p)) => {
                    if run > 0 {
                        cells.push(run.to_string());
                        run = 0;
                    }
                    assert!(v.shape.parse_square(&name).is_ok(), "{name} is a corner");
                    cells.push(p.to_string());
                }
                None => run += 1,
            }
        }
        if run > 0 {
            cells.push(run.to_string());
        }
        rows.push(cells.join(","));
    }
    format!(
        "{side}-0,0,0,0-0,0,0,0-0,0,0,0-{points}-0-{}",
        rows.join("/")
    )
}

fn game(mode: Mode, fen: &str) -> Game4 {
    Game4::new(Position4::from_fen4(Arc::new(Variant4::new(mode)), fen).unwrap())
}

/// Blue's King on a11 (its only neighbours a10, b10, b11), a Red rook on
/// the b-file: Rd4-a4 mates Blue.
const MATE_BLUE: [(&str, &str); 6] = [
    ("h1", "rK"),
    ("b5", "rR"),
    ("d4", "rR"),
    ("a11", "bK"),
    ("g14", "yK"),
    ("n7", "gK"),
];

#[test]
fn ffa_mate_eliminates_and_scores() {
    let mut g = game(Mode::Ffa, &fen4('R', "0,0,0,0", &MATE_BLUE));
    g.play("d4-a4").unwrap();
    let p = g.position();
    assert!(p.is_eliminated(1), "Blue is out");
    assert_eq!(p.points(), [20, 0, 0, 0]);
    assert_eq!(p.side(), 2, "Yellow moves next");
    assert_eq!(p.color_bb(1).count(), 0, "Blue's King turned dead");
    assert!(p.is_dead(p.king_square(1)));
    assert!(g.outcome().is_none());
    assert!(g.log()[0].2.ends_with('#'), "{}", g.log()[0].2);
}

#[test]
fn teams_first_mate_wins() {
    let mut g = game(Mode::Teams, &fen4('R', "0,0,0,0", &MATE_BLUE));
    g.play("d4-a4").unwrap();
    assert!(matches!(
        g.outcome(),
        Some(Outcome4::TeamWin { team: 0, .. })
    ));
    assert_eq!(g.outcome().unwrap().result(), "1-0");
}

#[test]
fn ffa_double_check_scores_five() {
    // Qd5-g8 checks Yellow (g14, up the g-file) and Green (n8, along rank 8)
    let pieces = [
        ("h1", "rK"),
        ("d5", "rQ"),
        ("a7", "bK"),
        ("g14", "yK"),
        ("n8", "gK"),
        ("e13", "yP"),
        ("m9", "gP"),
    ];
    let mut g = game(Mode::Ffa, &fen4('R', "0,0,0,0", &pieces));
    g.play("d5-g8").unwrap();
    assert_eq!(g.position().points(), [5, 0, 0, 0]);
    assert!(g.log()[0].2.ends_with("++"), "{}", g.log()[0].2);
}

#[test]
fn ffa_promoted_queen_is_worth_one() {
    // Red promotes on e8 (the 8th rank in FFA); Blue's rook takes the new
    // Queen for 1 point, not 9
    let pieces = [
        ("h1", "rK"),
        ("e7", "rP"),
        ("a7", "bK"),
        ("a8", "bR"),
        ("g14", "yK"),
        ("n8", "gK"),
    ];
    let mut g = game(Mode::Ffa, &fen4('R', "0,0,0,0", &pieces));
    assert!(g.play("e7-e8=R").is_err(), "FFA promotes to a Queen only");
    g.play("e7-e8=Q").unwrap();
    assert_eq!(g.position().points(), [0, 0, 0, 0]);
    g.play("a8xe8").unwrap();
    assert_eq!(g.position().points(), [0, 1, 0, 0]);
}

#[test]
fn ffa_stalemate_ends_the_game_with_ten_each() {
    // Blue to move: King a11, a10 and b10 covered by the e10 rook, b11 by
    // the b-file rook, not in check
    let pieces = [
        ("h1", "rK"),
        ("b5", "rR"),
        ("e10", "rR"),
        ("a11", "bK"),
        ("g14", "yK"),
        ("n7", "gK"),
    ];
    let g = game(Mode::Ffa, &fen4('B', "3,0,1,0", &pieces));
    match g.outcome() {
        Some(Outcome4::FfaEnd { points, .. }) => assert_eq!(*points, [13, 10, 11, 10]),
        o => panic!("expected the end of the game, got {o:?}"),
    }
}

#[test]
fn teams_check_takes_effect_on_the_victims_turn() {
    // Red's bishop on g13 shields Yellow's King (g14) from Blue's rook on
    // g4. Red may move it away; Blue may not take the King; Yellow must
    // then answer the check.
    let pieces = [
        ("h1", "rK"),
        ("g13", "rB"),
        ("a7", "bK"),
        ("g4", "bR"),
        ("g14", "yK"),
        ("n8", "gK"),
    ];
    let mut g = game(Mode::Teams, &fen4('R', "0,0,0,0", &pieces));
    g.play("g13-f12").unwrap();
    let p = g.position();
    assert!(
        p.legal_moves()
            .iter()
            .all(|m| p.move_to_string(*m) != "g4-g14"),
        "Kings are never captured"
    );
    g.play("a7-a6").unwrap();
    let p = g.position();
    assert_eq!(p.side(), 2);
    assert!(p.in_check(), "Yellow is in check on its turn");
    for m in p.legal_moves() {
        let s = p.move_to_string(m);
        assert!(!s.starts_with("g14-g"), "{s} stays on the g-file");
    }
}
