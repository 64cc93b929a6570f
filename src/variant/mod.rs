//! A variant compiled once into immutable tables: per-square leaper targets,
//! rider masks, reverse (attacked-by) tables, castling, promotion, Zobrist
//! keys. The position and move generator read these and never ask which
//! variant they play.

pub mod armies;
pub mod betza;
pub mod spec;

use crate::bitboard::Bitboard;
use crate::geometry::{DIRS, LineTables, Shape, Sq, SqMap, dir_index};
pub use spec::{CastleSpec, PieceSpec, Role, VariantSpec};

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;
/// Piece-type index of the King in every variant.
pub const KING: usize = 0;
/// Piece-type index of the Pawn in every variant.
pub const PAWN: usize = 1;
/// The most piece types a variant may have.
pub const MAX_TYPES: usize = 16;

/// Target sets of one kind of move, per square: index 0 = move or capture,
/// 1 = move only, 2 = capture only.
pub type Modal<B> = [B; 3];

/// A rider along a vector that is not a unit line step (nightrider, DD...).
#[derive(Clone, Debug)]
pub struct OtherRide<B> {
    /// index into `Variant::vector_rays`
    pub ray: usize,
    /// per square: the ray limited to the rider's range
    pub limit: SqMap<B>,
    /// 0 = move or capture, 1 = move only, 2 = capture only
    pub mode: usize,
}

/// The moves of one piece type for one colour (from squares where the
/// `i` rules do or do not apply).
#[derive(Clone, Debug)]
pub struct MoveTable<B> {
    pub leap: SqMap<Modal<B>>,
    /// directions (bits of `DIRS`) in which the piece rides
    pub line_dirs: u8,
    /// per square: the union of the piece's line rays, limited by range
    pub ride: SqMap<Modal<B>>,
    /// per square: squares onto which the piece may capture en passant
    pub ep: SqMap<B>,
    pub other: Vec<OtherRide<B>>,
    /// per square: every leap target, whatever its mode
    pub leap_any: SqMap<B>,
    /// per square: every ride square, whatever its mode
    pub ride_any: SqMap<B>,
    /// per square: the capture squares on an empty board
    pub capture_empty: SqMap<B>,
}

impl<B: Bitboard> MoveTable<B> {
    /// Fills the derived per-square unions once the rules are added.
    fn finish(&mut self) {
        for sq in 0..128 {
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

/// Reverse capture tables: which squares attack `sq` (for one colour and
/// piece type).
#[derive(Clone, Debug)]
pub struct AttackRev<B> {
    pub leap: SqMap<B>,
    pub line_dirs: u8,
    pub ride: SqMap<B>,
    /// (index into vector_rays of the reversed vector, per-square limit)
    pub other: Vec<(usize, SqMap<B>)>,
    /// per square: the union of ride squares on an empty board (snipers)
    pub ride_empty: SqMap<B>,
}

#[derive(Clone, Debug)]
pub struct VectorRays<B> {
    pub vector: (i32, i32),
    pub positive: bool,
    /// per square: the ray on an empty board
    pub rays: SqMap<B>,
}

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

#[derive(Clone, Debug)]
pub struct PieceInfo {
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub value: Option<i32>,
    pub role: Role,
    pub rules: Vec<betza::MoveRule>,
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
    pub lines: LineTables<B>,
    pub pieces: Vec<PieceInfo>,
    /// moves[color][type]
    pub moves: [Vec<PieceMoves<B>>; 2],
    /// rev[color][type]: squares from which a piece of that colour and type
    /// captures onto a square
    pub rev: [Vec<AttackRev<B>>; 2],
    /// per colour: line directions any piece of that colour attacks along
    /// (reversed, i.e. as seen from the attacked square)
    pub rev_line_dirs: [u8; 2],
    /// rev_ep[color][sq]: squares from which a piece of `color` could
    /// capture en passant onto sq, by piece type bit
    pub rev_ep: [SqMap<B>; 2],
    pub vector_rays: Vec<VectorRays<B>>,
    /// Riders on vectors that are not unit lines: legality is then checked
    /// by making each move.
    pub exotic_riders: bool,
    pub castles: Vec<Castle<B>>,
    /// per square: castling rights kept when a piece moves from or to it
    pub castle_keep: Vec<u8>,
    pub promo_zone: [B; 2],
    pub promo_types: Vec<usize>,
    /// types that capture en passant (bit per type)
    pub ep_capturers: u32,
    pub zobrist: Zobrist,
    /// material (count per piece type) that cannot mate a bare King
    pub insufficient: Vec<[u8; MAX_TYPES]>,
}

/// Mirror a White vector for `color`.
fn orient(color: usize, (dx, dy): (i32, i32)) -> (i32, i32) {
    if color == WHITE { (dx, dy) } else { (dx, -dy) }
}

fn mode_index(m: &betza::Modes) -> Option<usize> {
    match (m.quiet, m.capture) {
        (true, true) => Some(0),
        (true, false) => Some(1),
        (false, true) => Some(2),
        (false, false) => None,
    }
}

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
        let lines = LineTables::new(&shape);
        let mut pieces = Vec::new();
        for p in &spec.pieces {
            let rules = betza::parse(&p.betza)
                .map_err(|e| format!("piece '{}' ({}): {e}", p.name, p.letter))?;
            pieces.push(PieceInfo {
                letter: p.letter,
                name: p.name.clone(),
                betza: p.betza.clone(),
                value: p.value,
                role: p.role,
                rules,
            });
        }
        for (i, p) in pieces.iter().enumerate() {
            if pieces[..i].iter().any(|q| q.letter == p.letter) {
                return Err(format!("two piece types use the letter '{}'", p.letter));
            }
        }

        let mut v = Variant {
            shape: shape.clone(),
            n,
            lines,
            moves: [Vec::new(), Vec::new()],
            rev: [Vec::new(), Vec::new()],
            rev_line_dirs: [0; 2],
            rev_ep: [SqMap::new(), SqMap::new()],
            vector_rays: Vec::new(),
            exotic_riders: false,
            castles: Vec::new(),
            castle_keep: vec![0xFF; n],
            promo_zone: [B::ZERO; 2],
            promo_types: Vec::new(),
            ep_capturers: 0,
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
        v.initial_squares_and_tables()?;
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

    fn vector_ray_index(&mut self, vec: (i32, i32)) -> usize {
        if let Some(i) = self.vector_rays.iter().position(|r| r.vector == vec) {
            return i;
        }
        let mut rays = SqMap::new();
        for sq in 0..self.n {
            let mut cur = sq;
            while let Some(next) = self.shape.offset(cur, vec.0, vec.1) {
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

    /// Squares reached from sq by at most `range` steps of vec (0 = no
    /// limit), on an empty board.
    fn limited_ray(&self, sq: Sq, vec: (i32, i32), range: u32) -> B {
        let mut b = B::ZERO;
        let mut cur = sq;
        let mut steps = 0;
        while range == 0 || steps < range {
            match self.shape.offset(cur, vec.0, vec.1) {
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

    fn empty_table(&self) -> MoveTable<B> {
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

    fn add_rule(&mut self, table: &mut MoveTable<B>, color: usize, rule: &betza::MoveRule) {
        let mode = mode_index(&rule.modes);
        for &vw in &rule.vectors {
            let vec = orient(color, vw);
            if !rule.is_rider() {
                for sq in 0..self.n {
                    if let Some(t) = self.shape.offset(sq, vec.0, vec.1) {
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
                for sq in 0..self.n {
                    let r = self.limited_ray(sq, vec, rule.range);
                    table.ride[sq][m] |= r;
                }
            } else {
                self.exotic_riders = true;
                let ray = self.vector_ray_index(vec);
                let limit = SqMap::from_fn(self.n, |sq| self.limited_ray(sq, vec, rule.range));
                table.other.push(OtherRide {
                    ray,
                    limit,
                    mode: m,
                });
            }
        }
    }

    fn initial_squares_and_tables(&mut self) -> Result<(), String> {
        // Initial squares: where each type stands in the start position.
        let start = crate::position::fen::parse_board(&self.spec.start_fen, &self.spec)?;
        let ntypes = self.pieces.len();
        for color in [WHITE, BLACK] {
            let mut per_type = Vec::new();
            let mut revs = Vec::new();
            for t in 0..ntypes {
                let rules = self.pieces[t].rules.clone();
                let mut normal = self.empty_table();
                let mut initial = self.empty_table();
                for r in &rules {
                    if !r.modes.initial {
                        self.add_rule(&mut normal, color, r);
                    }
                    self.add_rule(&mut initial, color, r);
                }
                normal.finish();
                initial.finish();
                let mut initial_squares = B::ZERO;
                for (sq, cell) in start.iter().enumerate() {
                    if *cell == Some((color, t)) {
                        initial_squares |= B::bit(sq);
                    }
                }
                if normal.ep.iter().any(|b| b.any()) {
                    self.ep_capturers |= 1 << t;
                }
                per_type.push(PieceMoves {
                    normal,
                    initial,
                    initial_squares,
                });
                revs.push(self.reverse(color, &rules));
            }
            // en passant: reverse of the ep leaps
            for pm in &per_type {
                for sq in 0..self.n {
                    for target in pm.normal.ep[sq].iter() {
                        self.rev_ep[color][target] |= B::bit(sq);
                    }
                }
            }
            self.rev_line_dirs[color] = revs.iter().fold(0, |a, r: &AttackRev<B>| a | r.line_dirs);
            self.moves[color] = per_type;
            self.rev[color] = revs;
        }
        Ok(())
    }

    /// The reverse capture table of a piece type for `color`.
    fn reverse(&mut self, color: usize, rules: &[betza::MoveRule]) -> AttackRev<B> {
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
                let (dx, dy) = orient(color, vw);
                let back = (-dx, -dy);
                if !r.is_rider() {
                    for sq in 0..self.n {
                        if let Some(from) = self.shape.offset(sq, back.0, back.1) {
                            rev.leap[sq] |= B::bit(from);
                        }
                    }
                } else if let Some(d) = dir_index(back.0, back.1) {
                    rev.line_dirs |= 1 << d;
                    for sq in 0..self.n {
                        let ray = self.limited_ray(sq, back, r.range);
                        rev.ride[sq] |= ray;
                        rev.ride_empty[sq] |= ray;
                    }
                } else {
                    let ray = self.vector_ray_index(back);
                    let limit = SqMap::from_fn(self.n, |sq| self.limited_ray(sq, back, r.range));
                    rev.other.push((ray, limit));
                }
            }
        }
        rev
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

    /// Targets of a piece on an occupancy: (quiet moves, captures, en-passant
    /// captures), before the colours of the target squares are considered:
    /// quiet targets must be empty, captures hold an enemy, e.p. targets are
    /// checked against the position's e.p. squares.
    #[inline(always)]
    pub fn targets(&self, color: usize, t: usize, sq: Sq, occ: B) -> (B, B, B) {
        let pm = &self.moves[color][t];
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
    pub fn empty_board_captures(&self, color: usize, t: usize, sq: Sq) -> B {
        self.moves[color][t].normal.capture_empty[sq]
    }

    /// Every square the piece reaches (moving or capturing) from `sq` on
    /// the occupancy, blockers included (for mobility and attack maps).
    #[inline(always)]
    pub fn reach(&self, color: usize, t: usize, sq: Sq, occ: B) -> B {
        let table = &self.moves[color][t].normal;
        let mut a = table.leap_any[sq];
        if table.line_dirs != 0 {
            a |= self.lines.line_attacks(table.line_dirs, sq, occ) & table.ride_any[sq];
        }
        for o in &table.other {
            a |= self.vector_ride(o.ray, sq, occ) & o.limit[sq];
        }
        a
    }

    pub fn dir_vector(d: usize) -> (i32, i32) {
        DIRS[d]
    }
}

/// A variant built for the bitboard width its board needs: `u64` for boards
/// of up to 64 squares, `u128` for larger ones.
pub enum AnyVariant {
    Small(std::sync::Arc<Variant<u64>>),
    Large(std::sync::Arc<Variant<u128>>),
}

impl AnyVariant {
    pub fn new(spec: VariantSpec) -> Result<AnyVariant, String> {
        if spec.shape.num_squares() <= 64 {
            Ok(AnyVariant::Small(std::sync::Arc::new(Variant::new(spec)?)))
        } else {
            Ok(AnyVariant::Large(std::sync::Arc::new(Variant::new(spec)?)))
        }
    }
}
