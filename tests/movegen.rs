//! Cross-checks of the legal move generator, and rule checks whose expected
//! values come from RULES.md by reasoning (not from the program).
//!
//! Random games (fixed seeds) in chess, Omega and every pairing of the eight
//! built-in CwDA armies check at every position:
//! - `generate(All)` equals, as a set, `generate_by_making(All)`, with no
//!   duplicates;
//! - `Noisy` and `Quiet` are disjoint, their union is `All`, and they agree
//!   with `is_noisy`;
//! - make/unmake of every legal move restores the FEN and the hash, and the
//!   incremental hash after the move equals `compute_hash()` (and the
//!   non-pawn keys `compute_non_pawn_keys()`);
//! - the FEN round-trips (same FEN, same hash, same legal moves);
//! - every legal move's text parses back to the same move.
//!
//! A nightrider army exercises the exotic-rider path, against a naive perft
//! that makes every pseudo-legal move and tests the King with a naive attack
//! walker.

mod walker;

use std::collections::BTreeSet;

use chimera::base::GenType;
use chimera::base::MoveError;
use chimera::base::{Move, MoveKind, MoveList};
use chimera::bitboard::Bitboard;
use chimera::position::Position;
use chimera::position::outcome::Outcome;
use chimera::rng::SplitMix64;
use chimera::setup::{AnyPosition, Width, setup};
use chimera::tools::perft::perft;
use chimera::variant::armies::{self, Army};
use chimera::variant::{BLACK, WHITE};
use chimera::with_position;
use rayon::prelude::*;
use walker::naive_attacks_square;

const ARMIES: [&str; 8] = [
    "fide",
    "clobberers",
    "nutty",
    "rookies",
    "amazon",
    "amazoncrab",
    "allstars",
    "forward",
];

fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
    })
}

fn sorted(list: &MoveList) -> Vec<u32> {
    let mut v: Vec<u32> = list.iter().map(|m| m.0).collect();
    v.sort_unstable();
    v
}

fn gen_fast<B: Bitboard>(pos: &Position<B>, kind: GenType) -> MoveList {
    let mut l = MoveList::new();
    pos.generate(kind, &mut l);
    l
}

fn gen_slow<B: Bitboard>(pos: &Position<B>, kind: GenType) -> MoveList {
    let mut l = MoveList::new();
    pos.generate_by_making(kind, &mut l);
    l
}

fn texts<B: Bitboard>(pos: &Position<B>, moves: &[u32]) -> String {
    moves
        .iter()
        .map(|&m| pos.move_to_string(Move(m)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn minus(a: &[u32], b: &[u32]) -> Vec<u32> {
    a.iter().copied().filter(|m| !b.contains(m)).collect()
}

/// Every check of one position; returns the legal moves.
fn check_position<B: Bitboard>(pos: &mut Position<B>) -> Result<MoveList, String> {
    let fen = pos.to_fen();
    let hash = pos.hash();
    if hash != pos.compute_hash() {
        return Err(format!("hash differs from compute_hash() in {fen}"));
    }
    if pos.non_pawn_keys() != pos.compute_non_pawn_keys() {
        return Err(format!(
            "non-pawn keys differ from a fresh computation in {fen}"
        ));
    }
    let all_list = gen_fast(pos, GenType::All);
    let all = sorted(&all_list);
    let mut dedup = all.clone();
    dedup.dedup();
    if dedup.len() != all.len() {
        return Err(format!(
            "generate(All) lists a move twice in {fen}: {}",
            texts(pos, &all)
        ));
    }
    let slow = sorted(&gen_slow(pos, GenType::All));
    if all != slow {
        return Err(format!(
            "generate(All) != generate_by_making(All) in {fen}\n  only fast: {}\n  only slow: {}",
            texts(pos, &minus(&all, &slow)),
            texts(pos, &minus(&slow, &all))
        ));
    }
    let noisy = sorted(&gen_fast(pos, GenType::Noisy));
    let quiet = sorted(&gen_fast(pos, GenType::Quiet));
    let both: Vec<u32> = noisy
        .iter()
        .copied()
        .filter(|m| quiet.contains(m))
        .collect();
    if !both.is_empty() {
        return Err(format!(
            "Noisy and Quiet share {} in {fen}",
            texts(pos, &both)
        ));
    }
    let mut union = noisy.clone();
    union.extend(&quiet);
    union.sort_unstable();
    if union != all {
        return Err(format!(
            "Noisy + Quiet != All in {fen}\n  missing: {}\n  extra: {}",
            texts(pos, &minus(&all, &union)),
            texts(pos, &minus(&union, &all))
        ));
    }
    for &m in &noisy {
        if !pos.is_noisy(Move(m)) {
            return Err(format!(
                "{} generated as noisy but is_noisy is false in {fen}",
                pos.move_to_string(Move(m))
            ));
        }
    }
    for &m in &quiet {
        if pos.is_noisy(Move(m)) {
            return Err(format!(
                "{} generated as quiet but is_noisy is true in {fen}",
                pos.move_to_string(Move(m))
            ));
        }
    }
    let us = pos.side();
    for &m in all_list.iter() {
        let text = pos.move_to_string(m);
        match pos.parse_move(&text) {
            Ok(p) if p == m => {}
            other => {
                return Err(format!(
                    "move {text} ({m:?}) parses back as {other:?} in {fen}"
                ));
            }
        }
        pos.make(m);
        if pos.hash() != pos.compute_hash() {
            return Err(format!(
                "after {text} in {fen}: incremental hash != compute_hash() (FEN after: {})",
                pos.to_fen()
            ));
        }
        if pos.non_pawn_keys() != pos.compute_non_pawn_keys() {
            return Err(format!(
                "after {text} in {fen}: incremental non-pawn keys differ from a fresh computation"
            ));
        }
        if pos.is_attacked(pos.king_square(us), pos.occupied(), us ^ 1) {
            return Err(format!("{text} leaves the King attacked in {fen}"));
        }
        pos.unmake();
        let back = pos.to_fen();
        if back != fen || pos.hash() != hash {
            return Err(format!(
                "make/unmake of {text} changes the position: {fen} -> {back} (hash {hash:#x} -> {:#x})",
                pos.hash()
            ));
        }
    }
    // The outcome agrees with the move list.
    match pos.outcome() {
        Some(Outcome::Checkmate { winner }) => {
            if !all.is_empty() || !pos.in_check() || winner != us ^ 1 {
                return Err(format!("wrong checkmate claim in {fen}"));
            }
        }
        Some(Outcome::Stalemate) => {
            if !all.is_empty() || pos.in_check() {
                return Err(format!("wrong stalemate claim in {fen}"));
            }
        }
        _ => {
            if all.is_empty() {
                return Err(format!("no legal moves but no mate or stalemate in {fen}"));
            }
        }
    }
    // FEN round trip.
    let again = match Position::from_fen(pos.v.clone(), &fen) {
        Ok(p) => p,
        Err(e) => {
            return Err(format!(
                "the engine's own FEN {fen} does not read back: {e}"
            ));
        }
    };
    if again.to_fen() != fen {
        return Err(format!(
            "FEN round trip: {fen} reads back as {}",
            again.to_fen()
        ));
    }
    if again.hash() != hash {
        return Err(format!("FEN round trip changes the hash of {fen}"));
    }
    let again_moves = sorted(&gen_fast(&again, GenType::All));
    if again_moves != all {
        return Err(format!(
            "FEN round trip changes the legal moves of {fen}\n  lost: {}\n  gained: {}",
            texts(pos, &minus(&all, &again_moves)),
            texts(pos, &minus(&again_moves, &all))
        ));
    }
    Ok(all_list)
}

/// Plays random games from `start`; returns failure messages and the number
/// of positions whose FEN round trip hit the known bug.
fn random_games<B: Bitboard>(
    start: &Position<B>,
    name: &str,
    games: usize,
    plies: usize,
) -> Vec<String> {
    let mut rng = SplitMix64(seed_of(name));
    let mut fails = Vec::new();
    for g in 0..games {
        let mut pos = start.clone();
        let mut played: Vec<String> = Vec::new();
        for _ in 0..plies {
            let legal = match check_position(&mut pos) {
                Ok(l) => l,
                Err(e) => {
                    fails.push(format!(
                        "{name}, game {g}, after moves [{}]: {e}",
                        played.join(" ")
                    ));
                    break;
                }
            };
            if legal.is_empty() {
                break;
            }
            // Prefer pawn moves a third of the time: more double steps, en
            // passant and promotions.
            let pawn_moves: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.from()).map(|p| p.1) == Some(1))
                .collect();
            let m = if !pawn_moves.is_empty() && rng.index(3) == 0 {
                pawn_moves[rng.index(pawn_moves.len())]
            } else {
                legal[rng.index(legal.len())]
            };
            played.push(pos.move_to_string(m));
            pos.make(m);
        }
    }
    fails
}

fn run_random_games(variants: &[String], armies: &[Army], games: usize, plies: usize) {
    let results: Vec<Vec<String>> = variants
        .par_iter()
        .map(|name| {
            let any = setup(name, None, &[], armies, Width::Auto)
                .unwrap_or_else(|e| panic!("variant {name}: {e}"));
            with_position!(&any, p => random_games(p, name, games, plies))
        })
        .collect();
    let fails: Vec<String> = results.into_iter().flatten().collect();
    assert!(
        fails.is_empty(),
        "{} failures:\n{}",
        fails.len(),
        fails.join("\n")
    );
}

#[test]
fn random_games_chess_and_omega() {
    run_random_games(&["chess".into(), "omega".into()], &[], 40, 150);
}

#[test]
fn random_games_cwda_all_pairings() {
    let mut names = Vec::new();
    for w in ARMIES {
        for b in ARMIES {
            names.push(format!("cwda-{w}-{b}"));
        }
    }
    run_random_games(&names, &[], 12, 150);
}

/// The positions of the perft suites (tests/data/perft), constructed to
/// reach castling, promotion and en passant, pass the same checks, and so
/// do all their children.
#[test]
fn perft_suite_positions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/");
    let mut seen = BTreeSet::new();
    for f in ["cwda.tsv", "derived.tsv", "omega.tsv"] {
        let text = std::fs::read_to_string(format!("{dir}{f}")).expect("perft data file");
        for line in text.lines().skip(1) {
            let c: Vec<&str> = line.split('\t').collect();
            if c.len() < 4 || !seen.insert((c[0].to_string(), c[2].to_string(), c[3].to_string())) {
                continue;
            }
            let fen = (c[2] != "startpos").then_some(c[2]);
            let moves: Vec<&str> = c[3].split_whitespace().collect();
            let mut any = setup(c[0], fen, &moves, &[], Width::Auto)
                .unwrap_or_else(|e| panic!("{f}: {} {}: {e}", c[0], c[1]));
            let result = with_position!(&mut any, p => {
                check_position(p).and_then(|legal| {
                    for &m in legal.iter() {
                        p.make(m);
                        let r = check_position(p);
                        p.unmake();
                        r?;
                    }
                    Ok(())
                })
            });
            if let Err(e) = result {
                panic!("{f}: {} {}: {e}", c[0], c[1]);
            }
        }
    }
    assert!(seen.len() > 100);
}

/// An 8x8 variant on `u128` (the `Wide` width) plays exactly as on `u64`.
#[test]
fn wide_bitboards_agree() {
    let mut rng = SplitMix64(11);
    for name in ["chess", "cwda-nutty-clobberers", "cwda-forward-rookies"] {
        for _ in 0..4 {
            let mut small = match setup(name, None, &[], &[], Width::Auto) {
                Ok(AnyPosition::Small(p)) => p,
                _ => panic!("{name}"),
            };
            for _ in 0..80 {
                let fen = small.to_fen();
                let wide = match setup(name, Some(&fen), &[], &[], Width::Wide) {
                    Ok(AnyPosition::Large(p)) => p,
                    _ => panic!("{name} {fen}"),
                };
                assert_eq!(wide.to_fen(), fen);
                assert_eq!(names(&wide), names(&small), "{name} {fen}");
                assert_eq!(wide.outcome(), small.outcome(), "{name} {fen}");
                let legal = small.legal_moves();
                if legal.is_empty() {
                    break;
                }
                small.make(legal[rng.index(legal.len())]);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Exotic riders: a nightrider army.

const RIDERS_FILE: &str = "\
# a test army with a nightrider in the knight slot
army riders \"Nightriders\"
rook    R  R   Rook
knight  Y  NN  Nightrider
bishop  B  B   Bishop
queen   Q  Q   Queen
";

fn riders() -> Vec<Army> {
    armies::parse_file(RIDERS_FILE, "riders.txt").expect("the riders file parses")
}

/// Whether `sq` is attacked by colour `by`, by walking every piece's moves.
fn naive_attacked<B: Bitboard>(pos: &Position<B>, sq: usize, by: usize) -> bool {
    let v = &pos.v;
    let occ = (0..v.n)
        .filter(|&s| pos.piece_at(s).is_some())
        .fold(0u128, |acc, s| acc | 1 << s);
    (0..v.n).any(|from| match pos.piece_at(from) {
        Some((c, t)) if c == by => {
            naive_attacks_square(&v.shape, &v.pieces[t].rules, c, from, sq, occ)
        }
        _ => false,
    })
}

/// Perft by making every pseudo-legal move and testing the King naively.
fn naive_perft<B: Bitboard>(pos: &mut Position<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut pseudo = MoveList::new();
    pos.generate_pseudo(&mut pseudo);
    let us = pos.side();
    let them = us ^ 1;
    let mut n = 0;
    for &m in pseudo.iter() {
        if m.kind() == MoveKind::Castle {
            let c = &pos.v.castles[m.extra()];
            let ksq = pos.king_square(us);
            if naive_attacked(pos, ksq, them)
                || c.passes.iter().any(|s| naive_attacked(pos, s, them))
            {
                continue;
            }
        }
        pos.make(m);
        if !naive_attacked(pos, pos.king_square(us), them) {
            n += naive_perft(pos, depth - 1);
        }
        pos.unmake();
    }
    n
}

fn small(variant: &str, fen: Option<&str>, moves: &[&str], armies: &[Army]) -> Position<u64> {
    match setup(variant, fen, moves, armies, Width::Auto) {
        Ok(AnyPosition::Small(p)) => p,
        Ok(AnyPosition::Large(_)) => panic!("{variant}: expected a u64 board"),
        Err(e) => panic!("{variant} {fen:?} {moves:?}: {e}"),
    }
}

fn large(variant: &str, fen: Option<&str>, moves: &[&str]) -> Position<u128> {
    match setup(variant, fen, moves, &[], Width::Auto) {
        Ok(AnyPosition::Large(p)) => p,
        Ok(AnyPosition::Small(_)) => panic!("{variant}: expected a u128 board"),
        Err(e) => panic!("{variant} {fen:?} {moves:?}: {e}"),
    }
}

#[test]
fn nightrider_perft_matches_naive_perft() {
    let armies = riders();
    let mut start = small("cwda-riders-fide", None, &[], &armies);
    assert!(
        start.v.tables.exotic_riders,
        "NN must take the exotic-rider path"
    );
    for depth in 1..=3 {
        let fast = perft(&mut start, depth);
        let naive = naive_perft(&mut start, depth);
        assert_eq!(fast, naive, "cwda-riders-fide start, depth {depth}");
    }
    // Positions from a random game, with the nightriders out.
    let mut rng = SplitMix64(7);
    for name in [
        "cwda-riders-fide",
        "cwda-nutty-riders",
        "cwda-riders-riders",
    ] {
        let mut pos = small(name, None, &[], &armies);
        for ply in 0..60 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            if ply % 10 == 9 {
                let fast = perft(&mut pos, 2);
                let naive = naive_perft(&mut pos, 2);
                assert_eq!(fast, naive, "{name}: perft 2 of {}", pos.to_fen());
            }
            let m = legal[rng.index(legal.len())];
            pos.make(m);
        }
    }
    // Random games with the usual checks.
    run_random_games(
        &["cwda-riders-fide".into(), "cwda-clobberers-riders".into()],
        &armies,
        4,
        100,
    );
}

#[test]
fn nightrider_check_and_pin() {
    let armies = riders();
    // Nightrider a1 checks e3 through c2: the King has d4 e4 f4 d3 f3 (d2
    // e2 f2 are covered by the White King on e1); nothing can block.
    let pos = small(
        "cwda-riders-fide",
        Some("8/8/8/8/8/4k3/8/Y3K3 b - - 0 1"),
        &[],
        &armies,
    );
    assert!(pos.in_check());
    assert_eq!(names(&pos), set(&["e3d3", "e3d4", "e3e4", "e3f3", "e3f4"]));
    // A rook on c2 is pinned on the nightrider's line: it may not move.
    let mut pos = small(
        "cwda-riders-fide",
        Some("8/8/8/8/8/4k3/2r5/Y3K3 b - - 0 1"),
        &[],
        &armies,
    );
    assert!(!pos.in_check());
    assert_eq!(names(&pos), set(&["e3d3", "e3d4", "e3e4", "e3f3", "e3f4"]));
    assert_eq!(naive_perft(&mut pos, 3), perft(&mut pos, 3));
}

// ---------------------------------------------------------------------------
// Rules checked by hand (expected values from RULES.md).

fn names<B: Bitboard>(pos: &Position<B>) -> BTreeSet<String> {
    pos.legal_moves()
        .iter()
        .map(|&m| pos.move_to_string(m))
        .collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn from_square<B: Bitboard>(pos: &Position<B>, sq: &str) -> BTreeSet<String> {
    names(pos)
        .into_iter()
        .filter(|m| {
            m.starts_with(sq)
                && !m[sq.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
        })
        .collect()
}

fn play<B: Bitboard>(pos: &mut Position<B>, m: &str) {
    let mv = pos
        .parse_move(m)
        .unwrap_or_else(|e| panic!("{m} in {}: {e}", pos.to_fen()));
    pos.make(mv);
}

fn board_field<B: Bitboard>(pos: &Position<B>) -> String {
    pos.to_fen().split(' ').next().unwrap().to_string()
}

fn ep_field<B: Bitboard>(pos: &Position<B>) -> BTreeSet<String> {
    let fen = pos.to_fen();
    let f = fen.split(' ').nth(3).unwrap().to_string();
    if f == "-" {
        BTreeSet::new()
    } else {
        f.split(',').map(str::to_string).collect()
    }
}

/// Omega, Kings on their start squares g2 and g11 and nothing else but the
/// pawns listed (engine coordinates).
fn omega_fen(rows: [&str; 10], side: char) -> String {
    let mut r = vec!["1**********1".to_string()];
    r.extend(rows.iter().map(|s| format!("*{s}*")));
    r.push("1**********1".into());
    format!("{} {side} - - 0 1", r.join("/"))
}

#[test]
fn omega_start_moves() {
    let pos = large("omega", None, &[]);
    // 10 pawns x 3 steps, 2 Knights x 2, 2 Champions x 2 (D and A jumps),
    // 2 Wizards x 1 (camel leap to b4/k4).
    assert_eq!(pos.legal_moves().len(), 40);
    assert_eq!(from_square(&pos, "f3"), set(&["f3f4", "f3f5", "f3f6"]));
    assert_eq!(from_square(&pos, "b2"), set(&["b2b4", "b2d4"]));
    assert_eq!(from_square(&pos, "a1"), set(&["a1b4"]));
    assert_eq!(from_square(&pos, "d2"), set(&["d2c4", "d2e4"]));
}

#[test]
fn omega_pawn_steps() {
    // A pawn on its start square blocked on f5: one step only.
    let pos = large(
        "omega",
        Some(&omega_fen(
            [
                "5k4", "10", "10", "10", "10", "10", "4p5", "10", "4P5", "5K4",
            ],
            'w',
        )),
        &[],
    );
    assert_eq!(from_square(&pos, "f3"), set(&["f3f4"]));
    // A pawn that has left its start rank steps once.
    let pos = large(
        "omega",
        Some(&omega_fen(
            [
                "5k4", "10", "10", "10", "10", "10", "10", "4P5", "10", "5K4",
            ],
            'w',
        )),
        &[],
    );
    assert_eq!(from_square(&pos, "f4"), set(&["f4f5"]));
}

#[test]
fn omega_en_passant_on_either_skipped_square() {
    // White pawn f3; Black pawns e5 (covers f4) and g6 (covers f5).
    let fen = omega_fen(
        [
            "5k4", "10", "10", "10", "10", "5p4", "3p6", "10", "4P5", "5K4",
        ],
        'w',
    );
    let start = large("omega", Some(&fen), &[]);
    let mut pos = start.clone();
    play(&mut pos, "f3f6");
    assert_eq!(ep_field(&pos), set(&["f4", "f5"]));
    let ep: BTreeSet<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == MoveKind::EnPassant)
        .map(|&m| pos.move_to_string(m))
        .collect();
    assert_eq!(ep, set(&["e5f4", "g6f5"]));
    // Each removes the pawn on f6.
    for (m, board) in [
        (
            "e5f4",
            "1**********1/*5k4*/*10*/*10*/*10*/*10*/*5p4*/*10*/*4p5*/*10*/*5K4*/1**********1",
        ),
        (
            "g6f5",
            "1**********1/*5k4*/*10*/*10*/*10*/*10*/*10*/*3pp5*/*10*/*10*/*5K4*/1**********1",
        ),
    ] {
        let mut p = pos.clone();
        play(&mut p, m);
        assert_eq!(board_field(&p), board, "after f3f6 {m}");
        p.unmake();
        assert_eq!(p.to_fen(), pos.to_fen());
    }
    // On the very next move only.
    let mut p = pos.clone();
    play(&mut p, "g11g10");
    play(&mut p, "g2g3");
    assert!(
        p.legal_moves()
            .iter()
            .all(|m| m.kind() != MoveKind::EnPassant)
    );
    // A two-step skips one square.
    let mut p = start.clone();
    play(&mut p, "f3f5");
    assert_eq!(ep_field(&p), set(&["f4"]));
    // A FEN naming the single square behind the pawn means both squares.
    let one = omega_fen(
        [
            "5k4", "10", "10", "10", "10", "4Pp4", "3p6", "10", "10", "5K4",
        ],
        'b',
    )
    .replace(" - - ", " - f5 ");
    let p = large("omega", Some(&one), &[]);
    assert_eq!(ep_field(&p), set(&["f4", "f5"]));
}

#[test]
fn omega_black_triple_step_ep_field() {
    // Black g10-g7 with White pawns f8 (covers g9) and h7 (covers g8):
    // RULES.md's example field `g9,g8`.
    let fen = omega_fen(
        [
            "5k4", "5p4", "10", "4P5", "6P3", "10", "10", "10", "10", "5K4",
        ],
        'b',
    );
    let mut pos = large("omega", Some(&fen), &[]);
    play(&mut pos, "g10g7");
    assert_eq!(ep_field(&pos), set(&["g9", "g8"]));
    let ep: BTreeSet<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == MoveKind::EnPassant)
        .map(|&m| pos.move_to_string(m))
        .collect();
    assert_eq!(ep, set(&["f8g9", "h7g8"]));
    // The FEN as Sjaak II writes it: the square directly behind the pawn.
    let sjaak = pos.to_fen().replace(" g8,g9 ", " g8 ");
    let p = large("omega", Some(&sjaak), &[]);
    assert_eq!(ep_field(&p), set(&["g9", "g8"]));
}

/// After a triple step where only the far skipped square can be taken en
/// passant, the engine's FEN must still read back.
#[test]
fn omega_ep_far_square_only_round_trips() {
    // White pawn f3; Black pawn e5 covers f4 only.
    let fen = omega_fen(
        [
            "5k4", "10", "10", "10", "10", "10", "3p6", "10", "4P5", "5K4",
        ],
        'w',
    );
    let mut pos = large("omega", Some(&fen), &[]);
    play(&mut pos, "f3f6");
    let written = pos.to_fen();
    let back = Position::from_fen(pos.v.clone(), &written)
        .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
    assert_eq!(back.to_fen(), written);
    assert_eq!(names(&back), names(&pos));
}

#[test]
fn en_passant_legality() {
    // bxc6 e.p. would take both pawns off the fifth rank and expose the
    // King on a5 to the Rook on h5: illegal. b5b6 stays legal. An
    // en-passant right that no legal capture can use is not a right (FIDE
    // 9.2.2: positions are the same if the same moves are possible), so
    // the FEN written back has none.
    let pos = small("chess", Some("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1"), &[], &[]);
    assert_eq!(ep_field(&pos), set(&[]));
    assert_eq!(from_square(&pos, "b5"), set(&["b5b6"]));
    // Without the Rook the capture is legal and removes the c5 pawn.
    let mut pos = small("chess", Some("8/8/8/KPp5/8/8/8/4k3 w - c6 0 1"), &[], &[]);
    assert_eq!(from_square(&pos, "b5"), set(&["b5b6", "b5c6"]));
    play(&mut pos, "b5c6");
    assert_eq!(board_field(&pos), "8/8/2P5/K7/8/8/8/4k3");
    // A double step that gives check is answered by taking it e.p. (d4d3
    // does not help; the King may also take c4).
    let mut pos = small("chess", Some("8/8/8/3k4/3p4/8/2P5/4K3 w - - 0 1"), &[], &[]);
    play(&mut pos, "c2c4");
    assert!(pos.in_check());
    assert_eq!(from_square(&pos, "d4"), set(&["d4c3"]));
    assert!(from_square(&pos, "d5").contains("d5c4"));
}

/// A one-square en-passant field far from any pawn that could just have
/// moved there must be refused: a chess pawn cannot have come to e7 from
/// e2 in one move.
#[test]
fn fen_ep_square_too_far_from_start_is_refused() {
    let v = small("chess", None, &[], &[]).v.clone();
    let fen = "4k3/4P3/8/8/3p4/8/8/4K3 b - e6 0 1";
    match Position::from_fen(v, fen) {
        Err(e) => assert!(e.contains("en-passant"), "{e}"),
        Ok(p) => panic!(
            "{fen} accepted as {} with the moves {:?}",
            p.to_fen(),
            names(&p)
        ),
    }
}

/// A capture that only the initial squares allow (`icN`) is not supported
/// by the attack tables, so the armies file must refuse it, naming the line
/// and the piece, rather than play a King into such a capture.
#[test]
fn initial_only_capture_rules_are_refused() {
    let text = "army initcap\nrook Y RicN Odd Rook\nknight N N\nbishop B B\nqueen Q Q\n";
    let err = armies::parse_file(text, "initcap.txt").expect_err("must be refused");
    assert!(err.starts_with("initcap.txt:2:"), "{err}");
    assert!(err.contains("Odd Rook") && err.contains("initial"), "{err}");
}

#[test]
fn omega_promotion_and_castling() {
    // Pawn f10 promotes on f11 to Q R B N C W.
    let fen = omega_fen(
        ["k9", "4P5", "10", "10", "10", "10", "10", "10", "10", "5K4"],
        'w',
    );
    let pos = large("omega", Some(&fen), &[]);
    assert_eq!(
        from_square(&pos, "f10"),
        set(&[
            "f10f11q", "f10f11r", "f10f11b", "f10f11n", "f10f11c", "f10f11w"
        ])
    );
    // Castling: King g2 to i2 with Rook j2-h2, to e2 with Rook c2-f2.
    let fen = "1**********1/*1r3k2r1*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*1R3K2R1*/1**********1 w KQkq - 0 1";
    let pos = large("omega", Some(fen), &[]);
    let king = from_square(&pos, "g2");
    assert!(king.contains("g2i2") && king.contains("g2e2"), "{king:?}");
    let mut p = pos.clone();
    play(&mut p, "g2i2");
    assert!(
        board_field(&p).ends_with("/*1R4RK2*/1**********1"),
        "{}",
        p.to_fen()
    );
    let mut p = pos.clone();
    play(&mut p, "g2e2");
    assert!(
        board_field(&p).ends_with("/*3KR3R1*/1**********1"),
        "{}",
        p.to_fen()
    );
    let mut p = pos.clone();
    play(&mut p, "O-O-O");
    assert!(
        board_field(&p).ends_with("/*3KR3R1*/1**********1"),
        "{}",
        p.to_fen()
    );
}

#[test]
fn clobberers_long_castling() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/D3K2D w KQkq - 0 1";
    let pos = small("cwda-clobberers-fide", Some(fen), &[], &[]);
    assert_eq!(
        from_square(&pos, "e1"),
        set(&["e1b1", "e1d1", "e1f1", "e1g1"])
    );
    let mut p = pos.clone();
    play(&mut p, "e1b1");
    assert_eq!(board_field(&p), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1KD4D");
    assert_eq!(p.to_fen().split(' ').nth(2), Some("kq"));
    let mut p = pos.clone();
    play(&mut p, "O-O-O");
    assert_eq!(board_field(&p), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1KD4D");
    let mut p = pos.clone();
    play(&mut p, "e1g1");
    assert_eq!(board_field(&p), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/D4DK1");
    // e1c1 is no castling for the Clobberers.
    assert!(matches!(pos.parse_move("e1c1"), Err(MoveError::Illegal(_))));
    // Black Clobberers castle to b8 with the Bede on c8.
    let fen = "d3k2d/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    let mut p = small("cwda-fide-clobberers", Some(fen), &[], &[]);
    play(&mut p, "e8b8");
    assert_eq!(board_field(&p), "1kd4d/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    // The King may not pass c1 while a Rook on c8 attacks it.
    let fen = "2r1k3/8/8/8/8/8/8/D3K2D w KQ - 0 1";
    let pos = small("cwda-clobberers-fide", Some(fen), &[], &[]);
    let king = from_square(&pos, "e1");
    assert!(!king.contains("e1b1") && king.contains("e1g1"), "{king:?}");
    // Nutty Knights (Charging Rook, not colour-bound) castle normally.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/G3K2G w KQkq - 0 1";
    let mut p = small("cwda-nutty-fide", Some(fen), &[], &[]);
    assert!(from_square(&p, "e1").contains("e1c1"));
    play(&mut p, "e1c1");
    assert_eq!(board_field(&p), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/2KG3G");
}

#[test]
fn cwda_promotion_to_both_armies() {
    // Nutty Knights (G I T L) and Clobberers (D W F C).
    let pos = small(
        "cwda-nutty-clobberers",
        Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        &[],
        &[],
    );
    let promos: BTreeSet<String> = ["g", "i", "t", "l", "d", "w", "f", "c"]
        .iter()
        .map(|p| format!("a7a8{p}"))
        .collect();
    assert_eq!(from_square(&pos, "a7"), promos);
    assert!(pos.parse_move("a7a8q").is_err());
    assert!(pos.parse_move("a7a8").is_err());
    // Black the same.
    let pos = small(
        "cwda-nutty-clobberers",
        Some("4k3/8/8/8/8/8/p7/4K3 b - - 0 1"),
        &[],
        &[],
    );
    let promos: BTreeSet<String> = ["g", "i", "t", "l", "d", "w", "f", "c"]
        .iter()
        .map(|p| format!("a2a1{p}"))
        .collect();
    assert_eq!(from_square(&pos, "a2"), promos);
    // Chess: Q R B N.
    let pos = small("chess", Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"), &[], &[]);
    assert_eq!(
        from_square(&pos, "a7"),
        set(&["a7a8q", "a7a8r", "a7a8b", "a7a8n"])
    );
    // Amazon Army vs FIDEs: S N B Z and R Q.
    let pos = small(
        "cwda-amazon-fide",
        Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        &[],
        &[],
    );
    assert_eq!(
        from_square(&pos, "a7"),
        set(&["a7a8s", "a7a8n", "a7a8b", "a7a8z", "a7a8r", "a7a8q"])
    );
}

#[test]
fn insufficient_material() {
    let chess = |fen: &str| small("chess", Some(fen), &[], &[]).outcome();
    let ins = Some(Outcome::InsufficientMaterial);
    assert_eq!(chess("8/8/4k3/8/8/8/8/2B1K3 w - - 0 1"), ins);
    assert_eq!(chess("8/8/4k3/8/8/8/8/4K1n1 w - - 0 1"), ins);
    assert_eq!(chess("8/8/4k3/8/8/8/8/4K3 w - - 0 1"), ins);
    assert_eq!(chess("8/8/4k3/8/8/8/8/R3K3 b - - 0 1"), None);
    assert_eq!(chess("8/8/4k3/8/8/8/8/2B1K1N1 w - - 0 1"), None);
    // K+B vs K+N: not on the list.
    assert_eq!(chess("8/8/4k1n1/8/8/8/8/2B1K3 w - - 0 1"), None);
    // CwDA: the FIDE Bishop counts, the FAD does not.
    let cwda = |v: &str, fen: &str| small(v, Some(fen), &[], &[]).outcome();
    assert_eq!(
        cwda("cwda-fide-nutty", "8/8/4k3/8/8/8/8/2B1K3 w - - 0 1"),
        ins
    );
    assert_eq!(
        cwda("cwda-clobberers-fide", "8/8/4k3/8/8/8/8/2F1K3 w - - 0 1"),
        None
    );
    // Omega: only K vs K.
    let kb = omega_fen(
        [
            "5k4", "10", "10", "10", "10", "10", "10", "10", "10", "4BK4",
        ],
        'w',
    );
    assert_eq!(large("omega", Some(&kb), &[]).outcome(), None);
    let kn = kb.replace("4BK4", "4NK4");
    assert_eq!(large("omega", Some(&kn), &[]).outcome(), None);
    let kk = kb.replace("4BK4", "5K4");
    assert_eq!(large("omega", Some(&kk), &[]).outcome(), ins);
}

#[test]
fn checkmate_and_stalemate() {
    let mut pos = small("chess", None, &["f2f3", "e7e5", "g2g4", "d8h4"], &[]);
    assert_eq!(pos.outcome(), Some(Outcome::Checkmate { winner: BLACK }));
    assert_eq!(pos.outcome().unwrap().result(), "0-1");
    pos.unmake();
    assert_eq!(pos.outcome(), None);
    let pos = small("chess", Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &[], &[]);
    assert_eq!(pos.outcome(), Some(Outcome::Stalemate));
    // Scholar's mate: White mates.
    let pos = small(
        "chess",
        None,
        &["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"],
        &[],
    );
    assert_eq!(pos.outcome(), Some(Outcome::Checkmate { winner: WHITE }));
    // Omega: a Knight mates a King on the wizard square a12 (its only exit
    // b11 is covered by the White King on c10).
    let fen =
        "k**********1/*1N8*/*1K8*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/*10*/1**********1 b - - 0 1";
    let pos = large("omega", Some(fen), &[]);
    assert_eq!(pos.outcome(), Some(Outcome::Checkmate { winner: WHITE }));
    // Without the Knight: stalemate (b11 covered, not in check).
    let fen = fen.replace("*1N8*", "*10*");
    let pos = large("omega", Some(&fen), &[]);
    assert_eq!(pos.outcome(), Some(Outcome::Stalemate));
}

#[test]
fn threefold_repetition() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut pos = small("chess", None, &[], &[]);
    for m in shuffle {
        play(&mut pos, m);
        assert_eq!(pos.outcome(), None);
    }
    // The start position stands for the second time.
    assert_eq!(pos.repetitions(), 1);
    for (i, m) in shuffle.iter().enumerate() {
        play(&mut pos, m);
        if i < 3 {
            assert_eq!(pos.outcome(), None, "after {m}");
        }
    }
    assert_eq!(pos.outcome(), Some(Outcome::Repetition));
    // Castling rights are part of the position: shuffling the Rooks loses
    // them, so the start (with rights) and the returns (without) differ.
    let mut pos = small("chess", Some("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1"), &[], &[]);
    for m in [
        "a1a2", "a8a7", "a2a1", "a7a8", "a1a2", "a8a7", "a2a1", "a7a8",
    ] {
        play(&mut pos, m);
    }
    // Plies 0, 4 and 8 show the same board, but ply 0 had the rights: two
    // occurrences, not three.
    assert_eq!(pos.outcome(), None);
    for m in ["a1a2", "a8a7", "a2a1", "a7a8"] {
        play(&mut pos, m);
    }
    assert_eq!(pos.outcome(), Some(Outcome::Repetition));
}

#[test]
fn fifty_move_rule() {
    let fen = "4k3/8/8/8/8/8/P7/R3K3 w - - 99 80";
    let pos = small("chess", Some(fen), &[], &[]);
    assert_eq!(pos.outcome(), None);
    let mut p = pos.clone();
    play(&mut p, "a1b1");
    assert_eq!(p.halfmove_clock(), 100);
    assert_eq!(p.outcome(), Some(Outcome::FiftyMoves));
    // A pawn move resets the count.
    let mut p = pos.clone();
    play(&mut p, "a2a3");
    assert_eq!(p.halfmove_clock(), 0);
    assert_eq!(p.outcome(), None);
    // So does a capture.
    let fen = "4k3/8/8/8/8/8/r7/R3K3 w - - 99 80";
    let mut p = small("chess", Some(fen), &[], &[]);
    play(&mut p, "a1a2");
    assert_eq!(p.halfmove_clock(), 0);
    assert_eq!(p.outcome(), None);
    // Checkmate on the 100th half-move is still checkmate.
    let fen = "7k/8/6K1/8/8/8/8/R7 w - - 99 80";
    let mut p = small("chess", Some(fen), &[], &[]);
    play(&mut p, "a1a8");
    assert_eq!(p.outcome(), Some(Outcome::Checkmate { winner: WHITE }));
}

#[test]
fn variants_are_all_listed() {
    // chess, omega and the 64 pairings of the README's eight armies.
    let names = chimera::variant::spec::variant_names(&armies::builtin());
    assert_eq!(names.len(), 66);
    for w in ARMIES {
        for b in ARMIES {
            assert!(names.contains(&format!("cwda-{w}-{b}")));
        }
    }
}

/// A double step that no legal en-passant capture can answer leaves the
/// same position (and hash) as any other way of reaching that placement,
/// so repetitions are counted as FIDE counts them.
#[test]
fn pinned_en_passant_does_not_change_the_position() {
    // Black plays c7c5 next to the pawn on b5; bxc6 e.p. would expose the
    // King on a5 to the Rook on h5.
    let mut pos = small("chess", Some("8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1"), &[], &[]);
    play(&mut pos, "c7c5");
    let same = small("chess", Some("8/8/8/KPp4r/8/8/8/4k3 w - - 0 2"), &[], &[]);
    assert_eq!(pos.hash(), same.hash());
    assert_eq!(pos.to_fen(), same.to_fen());
    // Without the pin, the right exists and the position differs.
    let mut pos = small("chess", Some("8/2p5/8/KP6/8/8/8/4k3 b - - 0 1"), &[], &[]);
    play(&mut pos, "c7c5");
    let same = small("chess", Some("8/8/8/KPp5/8/8/8/4k3 w - - 0 2"), &[], &[]);
    assert_ne!(pos.hash(), same.hash());
    assert_eq!(ep_field(&pos), set(&["c6"]));
}
