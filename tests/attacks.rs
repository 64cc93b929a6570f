//! Exhaustive checks of the fast move and attack tables against a naive
//! square-by-square walker written here.
//!
//! For every board shape (8x8 on `u64` and on `u128`, Omega, a 10x8
//! rectangle, a 5x5 board with holes) and every Betza string of `BETZAS`
//! (every atom and modifier the parser supports), a variant with the pieces
//! King, Pawn and the test piece is compiled, and for both colours, every
//! square and many random occupancies:
//!
//! - `Variant::targets` is compared with the walker (quiet targets, capture
//!   targets before colour filtering, en-passant targets), for all three
//!   piece types, from initial squares and from others;
//! - `Position::attackers` on random boards is compared with "which pieces
//!   of that colour have the square among their naive capture targets";
//! - `Variant::empty_board_captures` is compared with the walker on an empty
//!   board.
//!
//! The walker reads only `betza::parse` and `Shape::offset`: leaps land on
//! the target square if it is on the board; riders step repeatedly up to
//! their range (0 = unlimited), stopping at the edge, at holes and at (and
//! including) the first occupied square. Vectors are White's view; Black
//! mirrors dy.

mod walker;

use std::sync::Arc;

use chimera::bitboard::Bitboard;
use chimera::geometry::Shape;
use chimera::position::Position;
use chimera::rng::SplitMix64;
use chimera::variant::betza::{self, MoveRule};
use walker::{has, naive_attacks_square, naive_targets};

use chimera::variant::{BLACK, KING, PAWN, PieceSpec, Role, Variant, VariantSpec, WHITE};

/// Every atom (W F D A N H C Z G K R B Q), ranges, doubled atoms, every
/// direction modifier and the modalities m and c.
const BETZAS: &[&str] = &[
    "W",
    "F",
    "D",
    "A",
    "N",
    "H",
    "C",
    "Z",
    "G",
    "K",
    "R",
    "B",
    "Q",
    "R4",
    "W2",
    "B3",
    "fsR",
    "bWbF",
    "fsRbWbF",
    "fbNF",
    "fhNbsWbF",
    "fhNfsRK",
    "BD",
    "WA",
    "FAD",
    "BN",
    "WD",
    "HFD",
    "RN",
    "QN",
    "ffNbsN",
    "fBbhN",
    "fhNbB",
    "fsRfBbhNbWbF",
    "WAD",
    "FC",
    "NN",
    "DD",
    "fmWfcF",
    "mRcB",
    "lrN",
    "rfN",
    "fsN",
    // a few more: other ranges and directions on riders and leapers
    "vR",
    "sR2",
    "lW",
    "rbF",
    "flB",
    "NN2",
    "bhN",
    "vN",
    "sN",
    "fZ",
    "bC",
    "cNmB",
    "ZZ",
    "fmQcN",
];

const PAWN_BETZA: &str = "fmWfceFifmW2";
/// The test piece's letter.
const X: char = 'X';
/// Random occupancies per square (plus the empty and the full board).
const OCCUPANCIES: usize = 48;
/// Random boards per variant for the attackers check.
const BOARDS: usize = 12;

/// Two draws as 128 bits.
fn next128(rng: &mut SplitMix64) -> u128 {
    (rng.next_u64() as u128) << 64 | rng.next_u64() as u128
}

/// A random square set of `n` squares with a density that depends on `k`:
/// about 1/8, 1/4, 1/2, 3/4 of the squares.
fn occupancy(rng: &mut SplitMix64, n: usize, k: usize) -> u128 {
    let a = next128(rng);
    let b = next128(rng);
    let c = next128(rng);
    let x = match k % 4 {
        0 => a & b & c,
        1 => a & b,
        2 => a,
        _ => a | b,
    };
    x & mask(n)
}

fn mask(n: usize) -> u128 {
    if n >= 128 { !0 } else { (1u128 << n) - 1 }
}

fn to_bb<B: Bitboard>(x: u128) -> B {
    let mut b = B::ZERO;
    for sq in 0..128 {
        if x >> sq & 1 != 0 {
            b |= B::bit(sq);
        }
    }
    b
}

fn names(shape: &Shape, x: u128) -> String {
    let v: Vec<String> = (0..shape.num_squares())
        .filter(|&s| has(x, s))
        .map(|s| shape.name(s))
        .collect();
    format!("{{{}}}", v.join(" "))
}

fn colour_name(c: usize) -> &'static str {
    if c == WHITE { "White" } else { "Black" }
}

// ---------------------------------------------------------------------------
// The naive walker (tests/walker) and what it gives on an empty board

/// Capture targets on an empty board: every square a capturing rule reaches
/// when nothing blocks (normal rules only).
fn naive_empty_board_captures(shape: &Shape, rules: &[MoveRule], color: usize, sq: usize) -> u128 {
    (0..shape.num_squares())
        .filter(|&t| t != sq && naive_attacks_square(shape, rules, color, sq, t, 0))
        .fold(0, |acc, t| acc | 1 << t)
}

// ---------------------------------------------------------------------------
// Shapes and variants

struct Case {
    name: &'static str,
    shape: Shape,
}

fn five_by_five_with_holes() -> Shape {
    Shape::with_holes(5, 5, &[(2, 2), (1, 3), (4, 0), (3, 1), (0, 4)])
}

/// A start position for the shape: White's back rank X pieces with a King,
/// White's pawns on the second rank, Black the same from the top; `*` for
/// holes. Returns the FEN and, per colour and type, the squares used.
fn start_fen(shape: &Shape) -> (String, [[u128; 3]; 2]) {
    let mut used = [[0u128; 3]; 2];
    let king_file = |rank: usize| -> usize {
        let mid = shape.files / 2;
        (0..shape.files)
            .map(|i| (mid + i) % shape.files)
            .find(|&f| !shape.is_hole(f, rank))
            .expect("a valid square on the back rank")
    };
    let (wk, bk) = (king_file(0), king_file(shape.ranks - 1));
    let mut rows = Vec::new();
    for rank in (0..shape.ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..shape.files {
            let cell = shape.square(file as i32, rank as i32);
            let piece = match cell {
                None => None,
                Some(sq) => {
                    let p = if rank == 0 {
                        Some((WHITE, if file == wk { KING } else { 2 }))
                    } else if rank == 1 {
                        Some((WHITE, PAWN))
                    } else if rank == shape.ranks - 2 {
                        Some((BLACK, PAWN))
                    } else if rank == shape.ranks - 1 {
                        Some((BLACK, if file == bk { KING } else { 2 }))
                    } else {
                        None
                    };
                    if let Some((c, t)) = p {
                        used[c][t] |= 1 << sq;
                    }
                    p
                }
            };
            if cell.is_some() && piece.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
                empty = 0;
            }
            row.push(match piece {
                None => '*',
                Some((c, t)) => {
                    let l = ['K', 'P', X][t];
                    if c == WHITE {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    }
                }
            });
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    (format!("{} w - - 0 1", rows.join("/")), used)
}

fn spec_for(shape: &Shape, betza: &str) -> VariantSpec {
    let piece = |letter: char, name: &str, betza: &str, role: Role| PieceSpec {
        letter,
        name: name.into(),
        betza: betza.into(),
        value: None,
        value_eg: None,
        role,
    };
    VariantSpec {
        name: format!("attacks-{betza}"),
        shape: shape.clone(),
        pieces: vec![
            piece('K', "King", "K", Role::King),
            piece('P', "Pawn", PAWN_BETZA, Role::Pawn),
            piece(X, "Test piece", betza, Role::Piece),
        ],
        start_fen: start_fen(shape).0,
        castles: Vec::new(),
        promo_rank: [shape.ranks - 1, 0],
        promo_letters: vec![X],
        insufficient: vec!["K".into()],
        armies: None,
        // Fields added later (evaluation hints etc.) keep chess's values.
        ..VariantSpec::by_name("chess", &[]).expect("chess")
    }
}

// ---------------------------------------------------------------------------
// The checks

/// Collects failure messages, keeping the first few in full.
#[derive(Default)]
struct Failures {
    count: usize,
    shown: Vec<String>,
}

impl Failures {
    fn add(&mut self, msg: String) {
        self.count += 1;
        if self.shown.len() < 12 {
            self.shown.push(msg);
        }
    }
    fn assert_none(&self, what: &str) {
        assert!(
            self.count == 0,
            "{what}: {} mismatches; the first ones:\n{}",
            self.count,
            self.shown.join("\n")
        );
    }
}

fn check_targets<B: Bitboard>(
    case: &Case,
    betza_str: &str,
    v: &Variant<B>,
    rules: &[Vec<MoveRule>],
    rng: &mut SplitMix64,
    fails: &mut Failures,
) {
    let shape = &case.shape;
    let n = shape.num_squares();
    let (_, used) = start_fen(shape);
    for color in [WHITE, BLACK] {
        for (t, type_rules) in rules.iter().enumerate() {
            let initial_squares = v.tables.moves[color][t].initial_squares.to_u128();
            if initial_squares != used[color][t] {
                fails.add(format!(
                    "shape {}, betza {betza_str}, {}, type {t}: initial squares {} but the start FEN puts the piece on {}",
                    case.name,
                    colour_name(color),
                    names(shape, initial_squares),
                    names(shape, used[color][t])
                ));
            }
            for sq in 0..n {
                let initial = has(initial_squares, sq);
                let empty_fast = v.empty_board_captures(color, t, sq).to_u128();
                let empty_naive = naive_empty_board_captures(shape, type_rules, color, sq);
                if empty_fast != empty_naive {
                    fails.add(format!(
                        "shape {}, betza {betza_str}, {}, type {t}, square {}: empty_board_captures {} but naive {}",
                        case.name,
                        colour_name(color),
                        shape.name(sq),
                        names(shape, empty_fast),
                        names(shape, empty_naive)
                    ));
                }
                for k in 0..OCCUPANCIES + 2 {
                    let occ = match k {
                        0 => 0,
                        1 => mask(n),
                        _ => occupancy(rng, n, k),
                    };
                    let (q, c, e) = v.targets(color, t, sq, to_bb::<B>(occ));
                    let fast = (q.to_u128(), c.to_u128(), e.to_u128());
                    let naive = naive_targets(shape, type_rules, color, sq, occ, initial);
                    if fast != naive {
                        fails.add(format!(
                            "shape {}, betza {betza_str}, {}, type {t} ({}), square {}{}, occupancy {:#x} {}:\n  fast  quiet {} capture {} ep {}\n  naive quiet {} capture {} ep {}",
                            case.name,
                            colour_name(color),
                            v.pieces[t].betza,
                            shape.name(sq),
                            if initial { " (initial square)" } else { "" },
                            occ,
                            names(shape, occ),
                            names(shape, fast.0),
                            names(shape, fast.1),
                            names(shape, fast.2),
                            names(shape, naive.0),
                            names(shape, naive.1),
                            names(shape, naive.2),
                        ));
                    }
                }
            }
        }
    }
}

fn check_attackers<B: Bitboard>(
    case: &Case,
    betza_str: &str,
    v: &Arc<Variant<B>>,
    rules: &[Vec<MoveRule>],
    rng: &mut SplitMix64,
    fails: &mut Failures,
) {
    let shape = &case.shape;
    let n = shape.num_squares();
    for b in 0..BOARDS {
        // Density from sparse to crowded.
        let per_mille = [80, 150, 250, 400, 550, 700][b % 6];
        let mut board: Vec<Option<(usize, usize)>> = vec![None; n];
        for cell in board.iter_mut() {
            if rng.index(1000) < per_mille {
                // The test piece more often than King and Pawn.
                let t = [KING, PAWN, 2, 2, 2][rng.index(5)];
                *cell = Some((rng.index(2), t));
            }
        }
        let pos = Position::from_board_unchecked(v.clone(), &board, rng.index(2));
        let full = pos.occupied().to_u128();
        let mut occs = vec![full];
        // One piece lifted off (as for a King's move), and phantom blockers.
        if full != 0 {
            let sqs: Vec<usize> = (0..n).filter(|&s| has(full, s)).collect();
            occs.push(full & !(1 << sqs[rng.index(sqs.len())]));
        }
        occs.push(full | (occupancy(rng, n, 0) & mask(n)));
        occs.push(full & occupancy(rng, n, 3));
        for &occ in &occs {
            for sq in 0..n {
                for by in [WHITE, BLACK] {
                    let fast = pos.attackers(sq, to_bb::<B>(occ), by).to_u128();
                    let mut naive = 0u128;
                    for (from, cell) in board.iter().enumerate() {
                        if let Some((c, t)) = *cell
                            && c == by
                            && has(occ, from)
                            && from != sq
                            && naive_attacks_square(shape, &rules[t], c, from, sq, occ)
                        {
                            naive |= 1 << from;
                        }
                    }
                    if fast != naive {
                        let pieces: Vec<String> = board
                            .iter()
                            .enumerate()
                            .filter_map(|(s, cell)| {
                                cell.map(|(c, t)| format!("{}{}", v.letter(c, t), shape.name(s)))
                            })
                            .collect();
                        fails.add(format!(
                            "shape {}, betza {betza_str}: attackers of {} by {}, occupancy {:#x} {}, pieces [{}]:\n  fast {}\n  naive {}",
                            case.name,
                            shape.name(sq),
                            colour_name(by),
                            occ,
                            names(shape, occ),
                            pieces.join(" "),
                            names(shape, fast),
                            names(shape, naive)
                        ));
                    }
                }
            }
        }
    }
}

fn check_shape<B: Bitboard>(case: Case, seed: u64) {
    assert!(case.shape.fits::<B>(), "{} does not fit", case.name);
    let mut fails = Failures::default();
    let mut rng = SplitMix64(seed);
    for &b in BETZAS {
        let spec = spec_for(&case.shape, b);
        let v = match Variant::<B>::new(spec) {
            Ok(v) => Arc::new(v),
            Err(e) => {
                fails.add(format!(
                    "shape {}, betza {b}: variant does not compile: {e}",
                    case.name
                ));
                continue;
            }
        };
        let rules: Vec<Vec<MoveRule>> = ["K", PAWN_BETZA, b]
            .iter()
            .map(|s| betza::parse(s).unwrap_or_else(|e| panic!("betza {s}: {e}")))
            .collect();
        check_targets(&case, b, &v, &rules, &mut rng, &mut fails);
        check_attackers(&case, b, &v, &rules, &mut rng, &mut fails);
    }
    fails.assert_none(case.name);
}

#[test]
fn chess_board_u64() {
    check_shape::<u64>(
        Case {
            name: "8x8 (u64)",
            shape: Shape::rect(8, 8),
        },
        1,
    );
}

#[test]
fn chess_board_u128() {
    check_shape::<u128>(
        Case {
            name: "8x8 (u128)",
            shape: Shape::rect(8, 8),
        },
        2,
    );
}

#[test]
fn omega_board() {
    check_shape::<u128>(
        Case {
            name: "omega",
            shape: Shape::omega(),
        },
        3,
    );
}

#[test]
fn ten_by_eight() {
    check_shape::<u128>(
        Case {
            name: "10x8",
            shape: Shape::rect(10, 8),
        },
        4,
    );
}

#[test]
fn five_by_five_holes() {
    check_shape::<u64>(
        Case {
            name: "5x5 with holes",
            shape: five_by_five_with_holes(),
        },
        5,
    );
}

/// The walker itself, on cases worked out by hand, so that agreement above
/// means something.
#[test]
fn walker_sanity() {
    let shape = Shape::rect(8, 8);
    let sq = |s: &str| shape.parse_square(s).unwrap();
    let set = |v: &[&str]| v.iter().fold(0u128, |a, s| a | 1 << sq(s));
    let rules = |b: &str| betza::parse(b).unwrap();
    // Fibnif from e4: d6 f6 d2 f2 and the four ferz steps.
    let (q, _, _) = naive_targets(&shape, &rules("fbNF"), WHITE, sq("e4"), 0, false);
    assert_eq!(q, set(&["d6", "f6", "d2", "f2", "d5", "f5", "d3", "f3"]));
    // Charging Knight from e4: c5 d6 f6 g5 and d4 f4 e3 d3 f3.
    let (q, _, _) = naive_targets(&shape, &rules("fhNbsWbF"), WHITE, sq("e4"), 0, false);
    assert_eq!(
        q,
        set(&["c5", "d6", "f6", "g5", "d4", "f4", "e3", "d3", "f3"])
    );
    // The same piece for Black: forward is down.
    let (q, _, _) = naive_targets(&shape, &rules("fhNbsWbF"), BLACK, sq("e4"), 0, false);
    assert_eq!(
        q,
        set(&["c3", "d2", "f2", "g3", "d4", "f4", "e5", "d5", "f5"])
    );
    // Short rook on a1, blocker on a3: a2, capture a3; b1..e1.
    let occ = set(&["a3"]);
    let (q, c, _) = naive_targets(&shape, &rules("R4"), WHITE, sq("a1"), occ, false);
    assert_eq!(q, set(&["a2", "b1", "c1", "d1", "e1"]));
    assert_eq!(c, set(&["a3"]));
    // Nightrider on b1: c3 d5 e7 / d2 f3 h4 / a3; blocked at f3.
    let occ = set(&["f3"]);
    let (q, c, _) = naive_targets(&shape, &rules("NN"), WHITE, sq("b1"), occ, false);
    assert_eq!(q, set(&["c3", "d5", "e7", "d2", "a3"]));
    assert_eq!(c, set(&["f3"]));
    // Pawn on e2 (initial): e3 e4, captures d3 f3 if occupied, ep d3 f3.
    let occ = set(&["d3"]);
    let (q, c, e) = naive_targets(&shape, &rules(PAWN_BETZA), WHITE, sq("e2"), occ, true);
    assert_eq!(q, set(&["e3", "e4"]));
    assert_eq!(c, set(&["d3"]));
    assert_eq!(e, set(&["d3", "f3"]));
    // Omega: a leaper jumps over holes, a rider stops at them.
    let omega = Shape::omega();
    let osq = |s: &str| omega.parse_square(s).unwrap();
    let (q, _, _) = naive_targets(&omega, &rules("C"), WHITE, osq("a1"), 0, false);
    assert_eq!(q, 1 << osq("b4") | 1 << osq("d2"));
    let (q, _, _) = naive_targets(&omega, &rules("R"), WHITE, osq("a1"), 0, false);
    assert_eq!(q, 0);
    let (q, _, _) = naive_targets(&omega, &rules("WAD"), WHITE, osq("b2"), 0, false);
    let expected = ["b3", "c2", "b4", "d2", "d4"];
    assert_eq!(q, expected.iter().fold(0u128, |a, s| a | 1 << osq(s)));
}
