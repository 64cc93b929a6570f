//! The table compiler: Betza move rules -> per-square move and attack
//! tables, for every side of a game. Each side sees the board through its
//! own orientation (White and Red move "forward" up the ranks, Black down
//! them, Blue along +file, Green along -file), so one piece definition
//! serves every side. Two-player variants and four-player chess compile
//! their pieces here.

use super::betza::MoveRule;
use crate::bitboard::Bitboard;
use crate::geometry::{DIRS, LineTables, Shape, Sq, SqMap, dir_index};

/// Target sets of one kind of move, per square: index 0 = move or capture,
/// 1 = move only, 2 = capture only.
pub type Modal<B> = [B; 3];

/// How a side sees the board: a 2x2 integer matrix taking a vector of the
/// side's own view (dy > 0 forward, dx > 0 to its right) to a board vector
/// (dy > 0 towards higher ranks, dx > 0 towards higher files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orientation([[i32; 2]; 2]);

impl Orientation {
    /// White, and four-player Red: forward is up the ranks.
    pub const UP: Orientation = Orientation([[1, 0], [0, 1]]);
    /// Black: the mirror image of White in the ranks (left and right stay).
    pub const MIRRORED: Orientation = Orientation([[1, 0], [0, -1]]);
    /// Four-player Blue (on the a-file side): forward is +file; White's view
    /// turned a quarter clockwise.
    pub const RIGHT: Orientation = Orientation([[0, 1], [-1, 0]]);
    /// Four-player Yellow: forward is down the ranks; a half turn.
    pub const DOWN: Orientation = Orientation([[-1, 0], [0, -1]]);
    /// Four-player Green (on the n-file side): forward is -file.
    pub const LEFT: Orientation = Orientation([[0, -1], [1, 0]]);

    /// The board vector of a vector seen by the side.
    #[inline]
    pub fn apply(self, (dx, dy): (i32, i32)) -> (i32, i32) {
        let m = self.0;
        (m[0][0] * dx + m[0][1] * dy, m[1][0] * dx + m[1][1] * dy)
    }
}

/// A rider along a vector that is not a unit line step (nightrider, DD...).
#[derive(Clone, Debug)]
pub struct OtherRide<B> {
    /// index into `PieceTables::vector_rays`
    pub ray: usize,
    /// per square: the ray limited to the rider's range
    pub limit: SqMap<B, B>,
    /// 0 = move or capture, 1 = move only, 2 = capture only
    pub mode: usize,
}

/// The moves of one piece type for one side (from squares where the `i`
/// rules do or do not apply).
#[derive(Clone, Debug)]
pub struct MoveTable<B> {
    pub leap: SqMap<B, Modal<B>>,
    /// directions (bits of `DIRS`) in which the piece rides
    pub line_dirs: u8,
    /// per square: the union of the piece's line rays, limited by range
    pub ride: SqMap<B, Modal<B>>,
    /// per square: squares onto which the piece may capture en passant
    pub ep: SqMap<B, B>,
    pub other: Vec<OtherRide<B>>,
    /// per square: every leap target, whatever its mode
    pub leap_any: SqMap<B, B>,
    /// per square: every ride square, whatever its mode
    pub ride_any: SqMap<B, B>,
    /// per square: the capture squares on an empty board
    pub capture_empty: SqMap<B, B>,
}

impl<B: Bitboard> MoveTable<B> {
    fn empty() -> MoveTable<B> {
        MoveTable {
            leap: SqMap::new(),
            line_dirs: 0,
            ride: SqMap::new(),
            ep: SqMap::new(),
            other: Vec::new(),
            leap_any: SqMap::new(),
            ride_any: SqMap::new(),
            capture_empty: SqMap::new(),
        }
    }

    /// Fills the derived per-square unions once the rules are added.
    fn finish(&mut self, n: usize) {
        for sq in 0..n {
            let l = self.leap[sq];
            let r = self.ride[sq];
            self.leap_any[sq] = l[0] | l[1] | l[2];
            self.ride_any[sq] = r[0] | r[1] | r[2];
            let mut c = l[0] | l[2] | r[0] | r[2];
            for o in &self.other {
                if o.mode != 1 {
                    c |= o.limit[sq];
                }
            }
            self.capture_empty[sq] = c;
        }
    }
}

#[derive(Clone, Debug)]
pub struct PieceMoves<B> {
    pub normal: MoveTable<B>,
    /// normal moves plus the `i` (initial) ones
    pub initial: MoveTable<B>,
    /// squares from which the initial moves apply
    pub initial_squares: B,
}

/// Reverse capture tables: which squares attack `sq` (for one side and
/// piece type).
#[derive(Clone, Debug)]
pub struct AttackRev<B> {
    pub leap: SqMap<B, B>,
    pub line_dirs: u8,
    pub ride: SqMap<B, B>,
    /// (index into vector_rays of the reversed vector, per-square limit)
    pub other: Vec<(usize, SqMap<B, B>)>,
    /// per square: the union of ride squares on an empty board (snipers)
    pub ride_empty: SqMap<B, B>,
}

#[derive(Clone, Debug)]
pub struct VectorRays<B> {
    pub vector: (i32, i32),
    pub positive: bool,
    /// per square: the ray on an empty board
    pub rays: SqMap<B, B>,
}

/// The compiled moves of every piece type for each of `S` sides.
#[derive(Clone, Debug)]
pub struct PieceTables<B, const S: usize> {
    pub n: usize,
    pub lines: LineTables<B>,
    /// moves[side][type]
    pub moves: [Vec<PieceMoves<B>>; S],
    /// rev[side][type]: squares from which a piece of that side and type
    /// captures onto a square
    pub rev: [Vec<AttackRev<B>>; S],
    /// per side: line directions any piece of that side attacks along
    /// (reversed, i.e. as seen from the attacked square)
    pub rev_line_dirs: [u8; S],
    /// rev_ep[side][sq]: squares from which a piece of that side could
    /// capture en passant onto sq
    pub rev_ep: [SqMap<B, B>; S],
    pub vector_rays: Vec<VectorRays<B>>,
    /// Riders on vectors that are not unit lines: legality is then checked
    /// by making each move.
    pub exotic_riders: bool,
    /// types that capture en passant, on any side (bit per type)
    pub ep_capturers: u32,
}

fn mode_index(m: &super::betza::Modes) -> Option<usize> {
    match (m.quiet, m.capture) {
        (true, true) => Some(0),
        (true, false) => Some(1),
        (false, true) => Some(2),
        (false, false) => None,
    }
}

impl<B: Bitboard, const S: usize> PieceTables<B, S> {
    /// Compiles the rules of each piece type (`rules[type]`) for sides seen
    /// through `orient[side]`; `initial(side, type)` gives the squares where
    /// the type's `i` moves apply for that side.
    pub fn compile(
        shape: &Shape,
        rules: &[Vec<MoveRule>],
        orient: [Orientation; S],
        initial: impl Fn(usize, usize) -> B,
    ) -> PieceTables<B, S> {
        let n = shape.num_squares();
        let mut t = PieceTables {
            n,
            lines: LineTables::<B>::new(shape),
            moves: std::array::from_fn(|_| Vec::new()),
            rev: std::array::from_fn(|_| Vec::new()),
            rev_line_dirs: [0; S],
            rev_ep: std::array::from_fn(|_| SqMap::new()),
            vector_rays: Vec::new(),
            exotic_riders: false,
            ep_capturers: 0,
        };
        for (side, &o) in orient.iter().enumerate() {
            let mut per_type = Vec::new();
            let mut revs = Vec::new();
            for (ty, piece_rules) in rules.iter().enumerate() {
                let mut normal = MoveTable::<B>::empty();
                let mut with_initial = MoveTable::empty();
                for r in piece_rules {
                    if !r.modes.initial {
                        t.add_rule(shape, &mut normal, o, r);
                    }
                    t.add_rule(shape, &mut with_initial, o, r);
                }
                normal.finish(n);
                with_initial.finish(n);
                if (0..n).any(|sq| normal.ep[sq].any()) {
                    t.ep_capturers |= 1 << ty;
                }
                per_type.push(PieceMoves {
                    normal,
                    initial: with_initial,
                    initial_squares: initial(side, ty),
                });
                revs.push(t.reverse(shape, o, piece_rules));
            }
            // en passant: reverse of the ep leaps
            for pm in &per_type {
                for sq in 0..n {
                    for target in pm.normal.ep[sq].iter() {
                        t.rev_ep[side][target] |= B::bit(sq);
                    }
                }
            }
            t.rev_line_dirs[side] = revs.iter().fold(0, |a, r: &AttackRev<B>| a | r.line_dirs);
            t.moves[side] = per_type;
            t.rev[side] = revs;
        }
        t
    }

    fn vector_ray_index(&mut self, shape: &Shape, vec: (i32, i32)) -> usize {
        if let Some(i) = self.vector_rays.iter().position(|r| r.vector == vec) {
            return i;
        }
        let mut rays = SqMap::new();
        for sq in 0..self.n {
            let mut cur = sq;
            while let Some(next) = shape.offset(cur, vec.0, vec.1) {
                rays[sq] |= B::bit(next);
                cur = next;
            }
        }
        let positive = vec.1 > 0 || (vec.1 == 0 && vec.0 > 0);
        self.vector_rays.push(VectorRays {
            vector: vec,
            positive,
            rays,
        });
        self.vector_rays.len() - 1
    }

    fn add_rule(
        &mut self,
        shape: &Shape,
        table: &mut MoveTable<B>,
        o: Orientation,
        rule: &MoveRule,
    ) {
        let n = self.n;
        let mode = mode_index(&rule.modes);
        for &vw in &rule.vectors {
            let vec = o.apply(vw);
            if !rule.is_rider() {
                for sq in 0..n {
                    if let Some(t) = shape.offset(sq, vec.0, vec.1) {
                        if let Some(m) = mode {
                            table.leap[sq][m] |= B::bit(t);
                        }
                        if rule.modes.ep {
                            table.ep[sq] |= B::bit(t);
                        }
                    }
                }
                continue;
            }
            let Some(m) = mode else { continue };
            if let Some(d) = dir_index(vec.0, vec.1) {
                table.line_dirs |= 1 << d;
                for sq in 0..n {
                    table.ride[sq][m] |= limited_ray(shape, sq, vec, rule.range);
                }
            } else {
                self.exotic_riders = true;
                let ray = self.vector_ray_index(shape, vec);
                let limit = SqMap::from_fn(n, |sq| limited_ray(shape, sq, vec, rule.range));
                table.other.push(OtherRide {
                    ray,
                    limit,
                    mode: m,
                });
            }
        }
    }

    /// The reverse capture table of a piece type for one side.
    fn reverse(&mut self, shape: &Shape, o: Orientation, rules: &[MoveRule]) -> AttackRev<B> {
        let n = self.n;
        let mut rev = AttackRev {
            leap: SqMap::new(),
            line_dirs: 0,
            ride: SqMap::new(),
            other: Vec::new(),
            ride_empty: SqMap::new(),
        };
        for r in rules {
            // Initial-only rules are never captures here (pawn pushes); a
            // capturing initial rule would attack only from its start
            // squares, which this table cannot express.
            if !r.modes.capture || r.modes.initial {
                continue;
            }
            for &vw in &r.vectors {
                let (dx, dy) = o.apply(vw);
                let back = (-dx, -dy);
                if !r.is_rider() {
                    for sq in 0..n {
                        if let Some(from) = shape.offset(sq, back.0, back.1) {
                            rev.leap[sq] |= B::bit(from);
                        }
                    }
                } else if let Some(d) = dir_index(back.0, back.1) {
                    rev.line_dirs |= 1 << d;
                    for sq in 0..n {
                        let ray = limited_ray(shape, sq, back, r.range);
                        rev.ride[sq] |= ray;
                        rev.ride_empty[sq] |= ray;
                    }
                } else {
                    let ray = self.vector_ray_index(shape, back);
                    let limit = SqMap::from_fn(n, |sq| limited_ray(shape, sq, back, r.range));
                    rev.other.push((ray, limit));
                }
            }
        }
        rev
    }

    /// Targets of a piece on an occupancy: (quiet moves, captures, en-passant
    /// captures), before the owners of the target squares are considered:
    /// quiet targets must be empty, captures hold an enemy, e.p. targets are
    /// checked against the position's e.p. squares.
    #[inline(always)]
    pub fn targets(&self, side: usize, t: usize, sq: Sq, occ: B) -> (B, B, B) {
        let pm = &self.moves[side][t];
        let table = if pm.initial_squares.has(sq) {
            &pm.initial
        } else {
            &pm.normal
        };
        let leap = table.leap[sq];
        let mut both = leap[0];
        let mut quiet = leap[1];
        let mut capt = leap[2];
        if table.line_dirs != 0 {
            let lines = self.lines.line_attacks(table.line_dirs, sq, occ);
            let ride = table.ride[sq];
            both |= lines & ride[0];
            quiet |= lines & ride[1];
            capt |= lines & ride[2];
        }
        for o in &table.other {
            let a = self.vector_ride(o.ray, sq, occ) & o.limit[sq];
            match o.mode {
                0 => both |= a,
                1 => quiet |= a,
                _ => capt |= a,
            }
        }
        ((both | quiet) & !occ, (both | capt) & occ, table.ep[sq])
    }

    /// Attacks along a non-line vector ray, up to and including the first
    /// occupied square.
    #[inline]
    pub fn vector_ride(&self, ray: usize, sq: Sq, occ: B) -> B {
        let vr = &self.vector_rays[ray];
        let r = vr.rays[sq];
        let blockers = r & occ;
        if blockers.is_empty() {
            r
        } else {
            let first = if vr.positive {
                blockers.lsb()
            } else {
                blockers.msb()
            };
            r ^ vr.rays[first]
        }
    }

    /// The squares the piece captures on from `sq` on an empty board
    /// (for evaluation, value estimates and tests).
    #[inline(always)]
    pub fn empty_board_captures(&self, side: usize, t: usize, sq: Sq) -> B {
        self.moves[side][t].normal.capture_empty[sq]
    }

    /// Every square the piece reaches (moving or capturing) from `sq` on
    /// the occupancy, blockers included (for mobility and attack maps).
    #[inline(always)]
    pub fn reach(&self, side: usize, t: usize, sq: Sq, occ: B) -> B {
        let table = &self.moves[side][t].normal;
        let mut a = table.leap_any[sq];
        if table.line_dirs != 0 {
            a |= self.lines.line_attacks(table.line_dirs, sq, occ) & table.ride_any[sq];
        }
        for o in &table.other {
            a |= self.vector_ride(o.ray, sq, occ) & o.limit[sq];
        }
        a
    }

    /// Pieces of `side` (among `pcs_by_type(t)`) that capture onto `sq` on
    /// the occupancy `occ`, given the line attacks from `sq` (which must
    /// cover the directions that side rides along).
    #[inline(always)]
    pub fn attackers_on_lines(
        &self,
        side: usize,
        sq: Sq,
        occ: B,
        lines: B,
        pcs_by_type: impl Fn(usize) -> B,
    ) -> B {
        let mut att = B::ZERO;
        for (t, r) in self.rev[side].iter().enumerate() {
            let pcs = pcs_by_type(t);
            if pcs.is_empty() {
                continue;
            }
            let mut a = r.leap[sq];
            if r.line_dirs != 0 {
                a |= lines & r.ride[sq];
            }
            for (ray, limit) in &r.other {
                a |= self.vector_ride(*ray, sq, occ) & limit[sq];
            }
            att |= a & pcs;
        }
        att
    }

    pub fn dir_vector(d: usize) -> (i32, i32) {
        DIRS[d]
    }
}

/// Squares reached from sq by at most `range` steps of vec (0 = no limit),
/// on an empty board.
fn limited_ray<B: Bitboard>(shape: &Shape, sq: Sq, vec: (i32, i32), range: u32) -> B {
    let mut b = B::ZERO;
    let mut cur = sq;
    let mut steps = 0;
    while range == 0 || steps < range {
        match shape.offset(cur, vec.0, vec.1) {
            Some(next) => {
                b |= B::bit(next);
                cur = next;
                steps += 1;
            }
            None => break,
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientations_turn_forward() {
        let fwd = (0, 1);
        assert_eq!(Orientation::UP.apply(fwd), (0, 1));
        assert_eq!(Orientation::MIRRORED.apply(fwd), (0, -1));
        assert_eq!(Orientation::RIGHT.apply(fwd), (1, 0));
        assert_eq!(Orientation::DOWN.apply(fwd), (0, -1));
        assert_eq!(Orientation::LEFT.apply(fwd), (-1, 0));
        // a side's right hand: White's is +file, Blue's (facing +file) is
        // -rank, Green's (facing -file) is +rank
        let right = (1, 0);
        assert_eq!(Orientation::RIGHT.apply(right), (0, -1));
        assert_eq!(Orientation::LEFT.apply(right), (0, 1));
        assert_eq!(Orientation::MIRRORED.apply(right), (1, 0));
    }
}
