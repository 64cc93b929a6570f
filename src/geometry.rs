//! Board shapes: a rectangular frame of files x ranks in which some cells are
//! holes. Squares are numbered over valid cells only, row by row (rank 1
//! first, file a first), so that square indices rise along every ray that goes
//! "up" (towards higher ranks) or "right" along a rank.
//!
//! Coordinates are written as a file letter from `a` and a rank number from 1
//! (`b10`, `k11`).

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

use crate::bitboard::Bitboard;

/// A table with one entry per square, for boards whose squares fit the
/// bitboard type `B`. Its length is `B::MAP_LEN` (the bitboard's capacity
/// rounded up to a power of two), and lookups mask the index with that
/// constant, so they need no bounds check and stay in bounds whatever the
/// index.
#[derive(Clone, Debug)]
pub struct SqMap<B, T>(Box<[T]>, PhantomData<B>);

impl<B: Bitboard, T: Copy + Default> SqMap<B, T> {
    /// A table with every entry the default.
    pub fn new() -> Self {
        SqMap(
            vec![T::default(); B::MAP_LEN].into_boxed_slice(),
            PhantomData,
        )
    }

    /// Entries 0..n from a function of the square.
    pub fn from_fn(n: usize, f: impl FnMut(usize) -> T) -> Self {
        let mut m = SqMap::new();
        for (sq, v) in (0..n).map(f).enumerate() {
            m.0[sq] = v;
        }
        m
    }
}

impl<B: Bitboard, T: Copy + Default> Default for SqMap<B, T> {
    fn default() -> Self {
        SqMap::new()
    }
}

impl<B, T> SqMap<B, T> {
    /// All entries (those past the board's squares are defaults).
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

impl<B: Bitboard, T> Index<usize> for SqMap<B, T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, sq: usize) -> &T {
        // SAFETY: the length is B::MAP_LEN, a power of two (set by `new`),
        // so the masked index is below it.
        unsafe { self.0.get_unchecked(sq & (B::MAP_LEN - 1)) }
    }
}

impl<B: Bitboard, T> IndexMut<usize> for SqMap<B, T> {
    #[inline(always)]
    fn index_mut(&mut self, sq: usize) -> &mut T {
        // SAFETY: as in `index`.
        unsafe { self.0.get_unchecked_mut(sq & (B::MAP_LEN - 1)) }
    }
}

/// A square index over valid squares (0..num_squares).
pub type Sq = usize;

/// The eight line directions, positive ones (index rises) first:
/// N, NE, NW, E (positive), S, SW, SE, W (negative).
pub const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (-1, 1),
    (1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
    (-1, 0),
];

/// Index of a unit line vector in `DIRS`.
pub fn dir_index(dx: i32, dy: i32) -> Option<usize> {
    DIRS.iter().position(|&d| d == (dx, dy))
}

/// Whether moving along direction `d` raises the square index.
#[inline(always)]
pub fn dir_positive(d: usize) -> bool {
    d < 4
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub files: usize,
    pub ranks: usize,
    /// frame cell (rank * files + file) -> square, or None for a hole
    cell_sq: Vec<Option<Sq>>,
    /// square -> (file, rank), both 0-based
    coords: Vec<(usize, usize)>,
}

impl Shape {
    /// A full rectangle.
    pub fn rect(files: usize, ranks: usize) -> Shape {
        Shape::with_holes(files, ranks, &[])
    }

    /// A rectangle with the given (file, rank) cells (0-based) removed.
    pub fn with_holes(files: usize, ranks: usize, holes: &[(usize, usize)]) -> Shape {
        assert!((1..=26).contains(&files) && ranks >= 1);
        let mut cell_sq = vec![None; files * ranks];
        let mut coords = Vec::new();
        for r in 0..ranks {
            for f in 0..files {
                if !holes.contains(&(f, r)) {
                    cell_sq[r * files + f] = Some(coords.len());
                    coords.push((f, r));
                }
            }
        }
        Shape {
            files,
            ranks,
            cell_sq,
            coords,
        }
    }

    /// Omega Chess: a 12x12 frame whose border is holes except the four
    /// corner (wizard) squares.
    pub fn omega() -> Shape {
        let mut holes = Vec::new();
        for i in 1..11 {
            holes.push((i, 0));
            holes.push((i, 11));
            holes.push((0, i));
            holes.push((11, i));
        }
        Shape::with_holes(12, 12, &holes)
    }

    pub fn num_squares(&self) -> usize {
        self.coords.len()
    }

    /// The square at (file, rank), 0-based, if it is on the board.
    #[inline]
    pub fn square(&self, file: i32, rank: i32) -> Option<Sq> {
        if file < 0 || rank < 0 || file as usize >= self.files || rank as usize >= self.ranks {
            return None;
        }
        self.cell_sq[rank as usize * self.files + file as usize]
    }

    pub fn is_hole(&self, file: usize, rank: usize) -> bool {
        self.cell_sq[rank * self.files + file].is_none()
    }

    #[inline]
    pub fn coords(&self, sq: Sq) -> (usize, usize) {
        self.coords[sq]
    }

    pub fn file(&self, sq: Sq) -> usize {
        self.coords[sq].0
    }

    pub fn rank(&self, sq: Sq) -> usize {
        self.coords[sq].1
    }

    /// The square reached from `sq` by the vector (dx, dy), if on the board.
    #[inline]
    pub fn offset(&self, sq: Sq, dx: i32, dy: i32) -> Option<Sq> {
        let (f, r) = self.coords[sq];
        self.square(f as i32 + dx, r as i32 + dy)
    }

    /// Engine notation of a square: `a1`, `k11`.
    pub fn name(&self, sq: Sq) -> String {
        let (f, r) = self.coords[sq];
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    /// Parses a square name; errors name the problem (off the board, a hole).
    pub fn parse_square(&self, s: &str) -> Result<Sq, String> {
        let (f, r) = parse_coords(s).ok_or_else(|| format!("'{s}' is not a square"))?;
        if f >= self.files || r >= self.ranks || r == usize::MAX {
            return Err(format!("square '{s}' is off the board"));
        }
        self.square(f as i32, r as i32)
            .ok_or_else(|| format!("square '{s}' is a hole"))
    }

    /// The squares of a rank (0-based), as a bitboard.
    pub fn rank_mask<B: Bitboard>(&self, rank: usize) -> B {
        let mut b = B::ZERO;
        for sq in 0..self.num_squares() {
            if self.rank(sq) == rank {
                b |= B::bit(sq);
            }
        }
        b
    }

    /// Whether squares of this shape fit bitboard type `B`.
    pub fn fits<B: Bitboard>(&self) -> bool {
        self.num_squares() <= B::CAPACITY
    }
}

/// Splits `e10` into (file 4, rank 9), both 0-based; None if not of the form
/// letter + number >= 1.
pub fn parse_coords(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    if b.len() < 2 || !b[0].is_ascii_lowercase() {
        return None;
    }
    let digits = &s[1..];
    if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.starts_with('0') || digits.len() > 3 {
        return None;
    }
    let r: usize = digits.parse().ok()?;
    Some(((b[0] - b'a') as usize, r - 1))
}

/// Geometry tables for one shape and bitboard width: line rays and the squares
/// between aligned squares.
#[derive(Clone, Debug)]
pub struct LineTables<B> {
    n: usize,
    /// rays[d * n + sq]: squares reached from sq along direction d on an empty
    /// board (stopping at the edge or at a hole)
    rays: Vec<B>,
    /// between[a * n + b]: squares strictly between a and b if they are on a
    /// common line with only valid squares between, else empty
    between: Vec<B>,
    /// line_dir[a * n + b]: direction from a to b (0..8), or 8 if not aligned
    line_dir: Vec<u8>,
}

impl<B: Bitboard> LineTables<B> {
    pub fn new(shape: &Shape) -> Self {
        let n = shape.num_squares();
        let mut rays = vec![B::ZERO; 8 * n];
        let mut between = vec![B::ZERO; n * n];
        let mut line_dir = vec![8u8; n * n];
        for sq in 0..n {
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                let mut acc = B::ZERO;
                let mut cur = sq;
                while let Some(next) = shape.offset(cur, dx, dy) {
                    between[sq * n + next] = acc;
                    line_dir[sq * n + next] = d as u8;
                    acc |= B::bit(next);
                    cur = next;
                }
                rays[d * n + sq] = acc;
            }
        }
        LineTables {
            n,
            rays,
            between,
            line_dir,
        }
    }

    #[inline(always)]
    pub fn ray(&self, d: usize, sq: Sq) -> B {
        debug_assert!(d < 8 && sq < self.n);
        // SAFETY: d < 8 and sq < n by the callers' invariants (checked in debug).
        unsafe { *self.rays.get_unchecked(d * self.n + sq) }
    }

    #[inline(always)]
    pub fn between(&self, a: Sq, b: Sq) -> B {
        debug_assert!(a < self.n && b < self.n);
        // SAFETY: squares are < n by invariant (checked in debug).
        unsafe { *self.between.get_unchecked(a * self.n + b) }
    }

    /// Direction from a to b if they lie on a common line of valid squares.
    pub fn direction(&self, a: Sq, b: Sq) -> Option<usize> {
        let d = self.line_dir[a * self.n + b];
        (d < 8).then_some(d as usize)
    }

    /// Attacks along one direction, stopping at (and including) the first
    /// occupied square.
    #[inline(always)]
    pub fn ray_attacks(&self, d: usize, sq: Sq, occ: B) -> B {
        let ray = self.ray(d, sq);
        let blockers = ray & occ;
        if blockers.is_empty() {
            ray
        } else {
            let first = if dir_positive(d) {
                blockers.lsb()
            } else {
                blockers.msb()
            };
            ray ^ self.ray(d, first)
        }
    }

    /// Attacks along every direction whose bit is set in `dirs`.
    #[inline(always)]
    pub fn line_attacks(&self, dirs: u8, sq: Sq, occ: B) -> B {
        let mut a = B::ZERO;
        let mut m = dirs;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            a |= self.ray_attacks(d, sq, occ);
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn omega_numbering() {
        let s = Shape::omega();
        assert_eq!(s.num_squares(), 104);
        assert_eq!(s.parse_square("a1"), Ok(0));
        assert_eq!(s.parse_square("l1"), Ok(1));
        assert_eq!(s.parse_square("b2"), Ok(2));
        assert_eq!(s.parse_square("a12"), Ok(102));
        assert_eq!(s.parse_square("l12"), Ok(103));
        assert!(s.parse_square("b1").unwrap_err().contains("hole"));
        assert!(s.parse_square("m1").unwrap_err().contains("off"));
        assert_eq!(s.name(101), "k11");
    }

    #[test]
    fn omega_rays_stop_at_holes() {
        let s = Shape::omega();
        let t = LineTables::<u128>::new(&s);
        let a1 = s.parse_square("a1").unwrap();
        // East from the wizard square a1 is a hole at once.
        assert!(t.ray(3, a1).is_empty());
        // North-east runs along the long diagonal to k11 then l12.
        let ne = t.ray(1, a1);
        assert_eq!(ne.count(), 11);
        assert!(ne.has(s.parse_square("l12").unwrap()));
        let b2 = s.parse_square("b2").unwrap();
        let k11 = s.parse_square("k11").unwrap();
        assert_eq!(t.between(a1, k11).count(), 9);
        assert!(t.between(a1, k11).has(b2));
    }
}
