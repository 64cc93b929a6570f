//! A variant compiled once into immutable tables: per-square leaper targets,
//! rider masks, reverse (attacked-by) tables, castling, promotion, Zobrist
//! keys. The position and move generator read these and never ask which
//! variant they play.

pub mod armies;
pub mod betza;
pub mod board;
pub mod omega_names;
pub mod spec;
pub mod tables;
pub mod xboard;

use crate::bitboard::Bitboard;
use crate::geometry::{Shape, Sq};
use board::Board;
pub use spec::{CastleSpec, PieceSpec, Role, VariantSpec};
pub use tables::{Orientation, PieceTables};

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;
/// Piece-type index of the King in every variant.
pub const KING: usize = 0;
/// Piece-type index of the Pawn in every variant.
pub const PAWN: usize = 1;
/// The most piece types a variant may have.
pub const MAX_TYPES: usize = 16;

#[derive(Clone, Debug)]
pub struct Castle<B> {
    pub color: usize,
    pub king_from: Sq,
    pub king_to: Sq,
    pub rook_from: Sq,
    pub rook_to: Sq,
    /// squares that must be empty (other than king and rook)
    pub empty: B,
    /// squares the King passes strictly between from and to
    pub passes: B,
    pub letter: char,
}

/// A piece type as the variant uses it: its description and the move
/// rules parsed from its Betza string (the description's fields read
/// through it: `info.letter`).
#[derive(Clone, Debug)]
pub struct PieceInfo {
    pub spec: PieceSpec,
    pub rules: Vec<betza::MoveRule>,
}

impl std::ops::Deref for PieceInfo {
    type Target = PieceSpec;
    fn deref(&self) -> &PieceSpec {
        &self.spec
    }
}

#[derive(Clone, Debug)]
pub struct Zobrist {
    pub pieces: Vec<u64>,
    pub side: u64,
    pub castling: [u64; 16],
    pub ep: Vec<u64>,
}

impl Zobrist {
    fn new(n: usize) -> Zobrist {
        let mut rng = crate::rng::SplitMix64(0x9E37_79B9_7F4A_7C15);
        let mut next = || rng.next_u64();
        let pieces = (0..2 * MAX_TYPES * n).map(|_| next()).collect();
        let side = next();
        let mut castling = [0u64; 16];
        for (i, c) in castling.iter_mut().enumerate() {
            // keys combine per right so that any subset has its own key
            *c = if i == 0 { 0 } else { next() };
        }
        let ep = (0..n).map(|_| next()).collect();
        Zobrist {
            pieces,
            side,
            castling,
            ep,
        }
    }
}

pub struct Variant<B> {
    pub spec: VariantSpec,
    pub shape: Shape,
    pub n: usize,
    /// the start position's board, read once from the spec's FEN
    pub start_board: Board,
    pub pieces: Vec<PieceInfo>,
    /// the pieces' moves and attacks for White and Black
    pub tables: PieceTables<B, 2>,
    pub castles: Vec<Castle<B>>,
    /// per square: castling rights kept when a piece moves from or to it
    pub castle_keep: Vec<u8>,
    pub promo_zone: [B; 2],
    pub promo_types: Vec<usize>,
    pub zobrist: Zobrist,
    /// material (count per piece type) that cannot mate a bare King
    pub insufficient: Vec<[u8; MAX_TYPES]>,
}

/// How White and Black see the board: Black mirrors the ranks.
pub const TWO_SIDES: [Orientation; 2] = [Orientation::UP, Orientation::MIRRORED];

impl<B: Bitboard> Variant<B> {
    pub fn new(spec: VariantSpec) -> Result<Variant<B>, String> {
        let shape = spec.shape.clone();
        if !shape.fits::<B>() {
            return Err(format!(
                "board of {} squares does not fit a {}-bit bitboard",
                shape.num_squares(),
                B::CAPACITY
            ));
        }
        if spec.pieces.len() > MAX_TYPES {
            return Err(format!("too many piece types (at most {MAX_TYPES})"));
        }
        if spec.pieces.first().map(|p| p.role) != Some(Role::King)
            || spec.pieces.get(1).map(|p| p.role) != Some(Role::Pawn)
        {
            return Err("piece types 0 and 1 must be King and Pawn".into());
        }
        let n = shape.num_squares();
        let mut pieces = Vec::new();
        for p in &spec.pieces {
            let rules = betza::parse(&p.betza)
                .map_err(|e| format!("piece '{}' ({}): {e}", p.name, p.letter))?;
            pieces.push(PieceInfo {
                spec: p.clone(),
                rules,
            });
        }
        for (i, p) in pieces.iter().enumerate() {
            if pieces[..i].iter().any(|q| q.letter == p.letter) {
                return Err(format!("two piece types use the letter '{}'", p.letter));
            }
        }
        let start_board = board::parse_board(&spec.start_fen, &spec)?;
        // The `i` moves apply where each type stands in the start position.
        let rules: Vec<_> = pieces.iter().map(|p| p.rules.clone()).collect();
        let tables = PieceTables::compile(&shape, &rules, TWO_SIDES, |color, t| {
            let mut b = B::ZERO;
            for (sq, cell) in start_board.iter().enumerate() {
                if *cell == Some((color, t)) {
                    b |= B::bit(sq);
                }
            }
            b
        });

        let mut v = Variant {
            shape: shape.clone(),
            n,
            start_board,
            tables,
            castles: Vec::new(),
            castle_keep: vec![0xFF; n],
            promo_zone: [B::ZERO; 2],
            promo_types: Vec::new(),
            zobrist: Zobrist::new(n),
            insufficient: Vec::new(),
            pieces,
            spec,
        };
        for m in &v.spec.insufficient {
            let mut counts = [0u8; MAX_TYPES];
            for l in m.chars() {
                let t = v
                    .spec
                    .piece_index(l)
                    .ok_or_else(|| format!("insufficient material: unknown piece '{l}'"))?;
                counts[t] += 1;
            }
            v.insufficient.push(counts);
        }
        v.compile_castles()?;
        for (c, zone) in v.promo_zone.iter_mut().enumerate() {
            let pr = v.spec.promo_rank[c];
            for sq in 0..n {
                let r = v.shape.rank(sq);
                if (c == WHITE && r >= pr) || (c == BLACK && r <= pr) {
                    *zone |= B::bit(sq);
                }
            }
        }
        for &l in &v.spec.promo_letters {
            let t = v
                .spec
                .piece_index(l)
                .ok_or_else(|| format!("promotion to unknown piece '{l}'"))?;
            if t == KING || t == PAWN {
                return Err(format!("a pawn may not promote to '{l}'"));
            }
            v.promo_types.push(t);
        }
        Ok(v)
    }

    fn compile_castles(&mut self) -> Result<(), String> {
        let specs = self.spec.castles.clone();
        if specs.len() > 4 {
            return Err("at most four castling moves".into());
        }
        for (i, c) in specs.iter().enumerate() {
            let sq = |(f, r): (usize, usize)| {
                self.shape
                    .square(f as i32, r as i32)
                    .ok_or_else(|| "castling square off the board".to_string())
            };
            let (kf, kt, rf, rt) = (
                sq(c.king_from)?,
                sq(c.king_to)?,
                sq(c.rook_from)?,
                sq(c.rook_to)?,
            );
            if self.shape.rank(kf) != self.shape.rank(rf) {
                return Err("castling King and rook must share a rank".into());
            }
            let rank = self.shape.rank(kf);
            let span = |a: Sq, b: Sq| -> B {
                let (fa, fb) = (self.shape.file(a), self.shape.file(b));
                let (lo, hi) = (fa.min(fb), fa.max(fb));
                let mut m = B::ZERO;
                for f in lo..=hi {
                    if let Some(s) = self.shape.square(f as i32, rank as i32) {
                        m |= B::bit(s);
                    }
                }
                m
            };
            let empty = (span(kf, kt) | span(rf, rt)) & !B::bit(kf) & !B::bit(rf);
            let passes = span(kf, kt) & !B::bit(kf) & !B::bit(kt);
            self.castle_keep[kf] &= !(1u8 << i);
            self.castle_keep[rf] &= !(1u8 << i);
            self.castles.push(Castle {
                color: c.color,
                king_from: kf,
                king_to: kt,
                rook_from: rf,
                rook_to: rt,
                empty,
                passes,
                letter: c.letter,
            });
        }
        Ok(())
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn num_types(&self) -> usize {
        self.pieces.len()
    }

    /// The piece type of a letter (either case).
    pub fn type_of_letter(&self, c: char) -> Option<usize> {
        self.spec.piece_index(c.to_ascii_uppercase())
    }

    /// FEN letter of a piece.
    pub fn letter(&self, color: usize, t: usize) -> char {
        let l = self.pieces[t].letter;
        if color == WHITE {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    #[inline(always)]
    pub fn piece_key(&self, color: usize, t: usize, sq: Sq) -> u64 {
        self.zobrist.pieces[(color * MAX_TYPES + t) * self.n + sq]
    }

    /// The castling key of a rights set.
    #[inline(always)]
    pub fn castling_key(&self, rights: u8) -> u64 {
        let mut k = 0;
        for i in 0..4 {
            if rights & (1 << i) != 0 {
                k ^= self.zobrist.castling[1 << i];
            }
        }
        k
    }

    /// Targets of a piece (see `PieceTables::targets`).
    #[inline(always)]
    pub fn targets(&self, color: usize, t: usize, sq: Sq, occ: B) -> (B, B, B) {
        self.tables.targets(color, t, sq, occ)
    }

    /// The squares the piece captures on from `sq` on an empty board
    /// (for evaluation, value estimates and tests).
    #[inline(always)]
    pub fn empty_board_captures(&self, color: usize, t: usize, sq: Sq) -> B {
        self.tables.empty_board_captures(color, t, sq)
    }

    /// Every square the piece reaches (moving or capturing) from `sq` on
    /// the occupancy, blockers included (for mobility and attack maps).
    #[inline(always)]
    pub fn reach(&self, color: usize, t: usize, sq: Sq, occ: B) -> B {
        self.tables.reach(color, t, sq, occ)
    }
}
