//! The four-player game compiled once into tables: the 160-square board,
//! the six chess pieces (the same Betza strings as the two-player games)
//! for four sides turned towards the centre, promotion zones per mode,
//! every castling move of both layouts, Zobrist keys.

use crate::bitboard::Bitboard;
use crate::geometry::{Shape, Sq};
use crate::variant::betza;
use crate::variant::spec::{KING_BETZA, PAWN_BETZA};
use crate::variant::{Castle, Orientation, PieceTables};

use super::{BLUE, Bb, RED, YELLOW};

pub const KING: usize = 0;
pub const PAWN: usize = 1;
pub const KNIGHT: usize = 2;
pub const BISHOP: usize = 3;
pub const ROOK: usize = 4;
pub const QUEEN: usize = 5;
pub const NUM_TYPES: usize = 6;
/// Piece letters by type, as FEN4 and PGN4 write them.
pub const LETTERS: [char; NUM_TYPES] = ['K', 'P', 'N', 'B', 'R', 'Q'];
/// Each piece's moves, as in the two-player games.
const BETZA: [&str; NUM_TYPES] = [KING_BETZA, PAWN_BETZA, "N", "B", "R", "Q"];
/// Free-For-All points for capturing an active piece (a promoted Queen: 1).
pub const CAPTURE_POINTS: [i32; NUM_TYPES] = [0, 1, 3, 5, 5, 9];
/// How each side sees the board: Red up, Blue right, Yellow down, Green left.
pub const ORIENTATIONS: [Orientation; 4] = [
    Orientation::UP,
    Orientation::RIGHT,
    Orientation::DOWN,
    Orientation::LEFT,
];

/// Teams (Red+Yellow against Blue+Green) or Free-For-All.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Teams,
    Ffa,
}

impl Mode {
    /// The variant name of PROTOCOLS.md.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Teams => "fourplayer-teams",
            Mode::Ffa => "fourplayer-ffa",
        }
    }

    pub fn from_name(name: &str) -> Option<Mode> {
        match name {
            "fourplayer-teams" | "teams" => Some(Mode::Teams),
            "fourplayer-ffa" | "ffa" => Some(Mode::Ffa),
            _ => None,
        }
    }
}

/// The two start layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `4PCo`, the seed's classic layout (Blue K a8, Green K n7): our `startpos`
    Classic,
    /// `4PC`, Chess.com's and 4pchess's (rotationally symmetric)
    Modern,
}

impl Layout {
    pub fn name(self) -> &'static str {
        match self {
            Layout::Classic => "4PCo",
            Layout::Modern => "4PC",
        }
    }

    pub fn from_name(name: &str) -> Option<Layout> {
        match name {
            "4PCo" | "4pco" => Some(Layout::Classic),
            "4PC" | "4pc" => Some(Layout::Modern),
            _ => None,
        }
    }

    /// The start position as FEN4.
    pub fn fen4(self) -> &'static str {
        match self {
            Layout::Classic => START_4PCO,
            Layout::Modern => START_4PC,
        }
    }
}

const START_4PCO: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bK,bP,10,gP,gQ/bQ,bP,10,gP,gK/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3";
const START_4PC: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3";

/// The 14x14 board without its 3x3 corners: 160 squares, files a-n, ranks
/// 1-14 seen from Red.
pub fn shape() -> Shape {
    let mut holes = Vec::new();
    for f in 0..14 {
        for r in 0..14 {
            let edge = |x: usize| !(3..11).contains(&x);
            if edge(f) && edge(r) {
                holes.push((f, r));
            }
        }
    }
    Shape::with_holes(14, 14, &holes)
}

/// Zobrist keys: pieces by owner (four players, 4 = dead) and type, side
/// to move, castling rights, en-passant slots, eliminated players, points.
#[derive(Clone, Debug)]
pub struct Zobrist4 {
    pieces: Vec<u64>,
    pub side: [u64; 4],
    pub castling: [u64; 8],
    ep: Vec<u64>,
    pub eliminated: [u64; 4],
    pub resigned: [u64; 4],
    points: [u64; 4],
}

impl Zobrist4 {
    fn new(n: usize) -> Zobrist4 {
        let mut rng = crate::rng::SplitMix64(0x4C0F_FEE0_D15E_A5E5);
        let mut next = || rng.next_u64();
        Zobrist4 {
            pieces: (0..5 * NUM_TYPES * n).map(|_| next()).collect(),
            side: std::array::from_fn(|_| next()),
            castling: std::array::from_fn(|_| next()),
            ep: (0..4 * n).map(|_| next()).collect(),
            eliminated: std::array::from_fn(|_| next()),
            resigned: std::array::from_fn(|_| next()),
            points: std::array::from_fn(|_| next()),
        }
    }

    /// The key of a piece of `owner` (0-3, or 4 for dead) on a square.
    #[inline(always)]
    pub fn piece(&self, n: usize, owner: usize, t: usize, sq: Sq) -> u64 {
        self.pieces[(owner * NUM_TYPES + t) * n + sq]
    }

    /// The key of player `p`'s en-passant slot with its capture square.
    #[inline(always)]
    pub fn ep(&self, n: usize, p: usize, target: Sq) -> u64 {
        self.ep[p * n + target]
    }

    /// The key of player `p` having `points` points.
    #[inline(always)]
    pub fn points(&self, p: usize, points: i32) -> u64 {
        self.points[p]
            .wrapping_mul(points as u64 | 1 << 32)
            .rotate_left(p as u32 * 13)
    }
}

/// The four-player game of one mode, compiled.
pub struct Variant4 {
    pub mode: Mode,
    pub shape: Shape,
    pub n: usize,
    pub tables: PieceTables<Bb, 4>,
    /// types whose attacks are the same for every side (all but the pawn):
    /// their attackers are found for all enemies at once
    pub symmetric: [bool; NUM_TYPES],
    /// per player: the squares where its pawns promote
    pub promo_zone: [Bb; 4],
    /// the types a pawn promotes to, best first
    pub promo_types: Vec<usize>,
    /// every castling move of both layouts (`Castle::color` is the player;
    /// letter 'K' short, towards the nearer rook, 'Q' long)
    pub castles: Vec<Castle<Bb>>,
    /// per player: the squares from which its pawns make their double step
    pub pawn_start: [Bb; 4],
    pub zobrist: Zobrist4,
}

/// A square as (file, rank), 0-based.
type Coords = (i32, i32);

/// The back-line squares of a player where its King may start, and its
/// two rooks' squares.
fn homes(p: usize) -> (Vec<Coords>, [Coords; 2]) {
    match p {
        RED => (vec![(7, 0)], [(3, 0), (10, 0)]),
        BLUE => (vec![(0, 6), (0, 7)], [(0, 3), (0, 10)]),
        YELLOW => (vec![(6, 13)], [(3, 13), (10, 13)]),
        _ => (vec![(13, 7), (13, 6)], [(13, 3), (13, 10)]),
    }
}

impl Variant4 {
    pub fn new(mode: Mode) -> Variant4 {
        let shape = shape();
        let n = shape.num_squares();
        let rules: Vec<Vec<betza::MoveRule>> = BETZA
            .iter()
            .map(|b| betza::parse(b).expect("the chess pieces' Betza strings parse"))
            .collect();
        let sq = |f: i32, r: i32| shape.square(f, r).expect("on the board");
        // pawns start on rank 2, file b, rank 13, file m
        let mut pawn_start = [Bb::ZERO; 4];
        for s in 0..n {
            let (f, r) = shape.coords(s);
            let line = [r == 1, f == 1, r == 12, f == 12];
            for (p, on) in line.into_iter().enumerate() {
                if on {
                    pawn_start[p] |= Bb::bit(s);
                }
            }
        }
        let tables = PieceTables::compile(&shape, &rules, ORIENTATIONS, |side, t| {
            if t == PAWN {
                pawn_start[side]
            } else {
                Bb::ZERO
            }
        });
        let symmetric: [bool; NUM_TYPES] = std::array::from_fn(|t| {
            (0..n).all(|s| {
                let r0 = &tables.rev[0][t];
                (1..4).all(|p| {
                    let r = &tables.rev[p][t];
                    r.leap[s] == r0.leap[s] && r.ride[s] == r0.ride[s]
                })
            })
        });
        // promotion: Teams on the 11th rank from the player's side, FFA on
        // the 8th (the centre)
        let depth = match mode {
            Mode::Teams => 10,
            Mode::Ffa => 7,
        };
        let mut promo_zone = [Bb::ZERO; 4];
        for s in 0..n {
            let (f, r) = shape.coords(s);
            let reached = [r >= depth, f >= depth, r <= 13 - depth, f <= 13 - depth];
            for (p, on) in reached.into_iter().enumerate() {
                if on {
                    promo_zone[p] |= Bb::bit(s);
                }
            }
        }
        let promo_types = match mode {
            Mode::Teams => vec![QUEEN, ROOK, BISHOP, KNIGHT],
            Mode::Ffa => vec![QUEEN],
        };
        let mut castles = Vec::new();
        for p in 0..4 {
            let (kings, rooks) = homes(p);
            for &(kf, kr) in &kings {
                let king_from = sq(kf, kr);
                for &(rf, rr) in &rooks {
                    let rook_from = sq(rf, rr);
                    let (dx, dy) = ((rf - kf).signum(), (rr - kr).signum());
                    let king_to = sq(kf + 2 * dx, kr + 2 * dy);
                    let rook_to = sq(kf + dx, kr + dy);
                    let short = (rf - kf).abs() + (rr - kr).abs() == 3;
                    castles.push(Castle {
                        color: p,
                        king_from,
                        king_to,
                        rook_from,
                        rook_to,
                        empty: tables.lines.between(king_from, rook_from),
                        passes: tables.lines.between(king_from, king_to),
                        letter: if short { 'K' } else { 'Q' },
                    });
                }
            }
        }
        Variant4 {
            mode,
            zobrist: Zobrist4::new(n),
            shape,
            n,
            tables,
            symmetric,
            promo_zone,
            promo_types,
            castles,
            pawn_start,
        }
    }

    /// The castling move of player `p` towards one side (`short`) with the
    /// King on `king`, if that is one of its home squares.
    pub fn castle_index(&self, p: usize, king: Sq, short: bool) -> Option<usize> {
        let letter = if short { 'K' } else { 'Q' };
        self.castles
            .iter()
            .position(|c| c.color == p && c.king_from == king && c.letter == letter)
    }

    /// Engine notation of a square: `a4`, `n11`.
    pub fn square_name(&self, sq: Sq) -> String {
        self.shape.name(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourplayer::GREEN;

    #[test]
    fn board_and_tables() {
        let v = Variant4::new(Mode::Teams);
        assert_eq!(v.n, 160);
        assert!(v.shape.parse_square("c3").is_err());
        assert_eq!(v.shape.parse_square("d1"), Ok(0));
        assert_eq!(v.shape.parse_square("k14"), Ok(159));
        // every type but the pawn attacks alike for every side
        assert_eq!(v.symmetric, [true, false, true, true, true, true]);
        // Blue's pawns move along +file: from b7 one step to c7, two to d7
        let b7 = v.shape.parse_square("b7").unwrap();
        let (quiet, _, _) = v.tables.targets(BLUE, PAWN, b7, Bb::ZERO);
        let names: Vec<String> = quiet.iter().map(|s| v.shape.name(s)).collect();
        assert_eq!(names, vec!["c7", "d7"]);
        // Green's pawn on m8 captures on l7 and l9
        let m8 = v.shape.parse_square("m8").unwrap();
        let (_, capt, _) = v.tables.targets(GREEN, PAWN, m8, !Bb::ZERO);
        let names: Vec<String> = capt.iter().map(|s| v.shape.name(s)).collect();
        assert_eq!(names, vec!["l7", "l9"]);
        // castling: Red short is h1-j1 with k1-i1; 12 castling moves in all
        assert_eq!(v.castles.len(), 12);
        let h1 = v.shape.parse_square("h1").unwrap();
        let c = &v.castles[v.castle_index(RED, h1, true).unwrap()];
        assert_eq!(
            (
                v.square_name(c.king_to),
                v.square_name(c.rook_from),
                v.square_name(c.rook_to)
            ),
            ("j1".into(), "k1".into(), "i1".into())
        );
        // Yellow short castling goes towards d14
        let g14 = v.shape.parse_square("g14").unwrap();
        let c = &v.castles[v.castle_index(YELLOW, g14, true).unwrap()];
        assert_eq!(v.square_name(c.king_to), "e14");
    }

    #[test]
    fn promotion_zones() {
        let teams = Variant4::new(Mode::Teams);
        let ffa = Variant4::new(Mode::Ffa);
        let has =
            |v: &Variant4, p: usize, s: &str| v.promo_zone[p].has(v.shape.parse_square(s).unwrap());
        assert!(has(&teams, RED, "e11") && !has(&teams, RED, "e10"));
        assert!(has(&teams, BLUE, "k5") && !has(&teams, BLUE, "j5"));
        assert!(has(&teams, YELLOW, "e4") && !has(&teams, YELLOW, "e5"));
        assert!(has(&teams, GREEN, "d5") && !has(&teams, GREEN, "e5"));
        assert!(has(&ffa, RED, "e8") && !has(&ffa, RED, "e7"));
        assert!(has(&ffa, BLUE, "h5") && !has(&ffa, BLUE, "g5"));
        assert!(has(&ffa, YELLOW, "e7") && !has(&ffa, YELLOW, "e8"));
        assert!(has(&ffa, GREEN, "g5") && !has(&ffa, GREEN, "h5"));
    }
}
