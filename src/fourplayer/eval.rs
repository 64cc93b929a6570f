//! Four-player evaluation, per player: material; piece placement
//! (centralised minor pieces, rooks in the middle, knights within two
//! leaps of an enemy King); pawns rewarded more and more as they near
//! promotion; mobility; threats (pieces attacked by a pawn, or attacked and
//! undefended); and King safety, which decides most four-player games: the
//! pawn shield, a King off its back rank, and the pressure on the King's
//! zone, weighted by the attackers' number and kind, worse when two enemies
//! join in and halved when no enemy Queen is left. Then Teams: the partners'
//! sum against the other team's (a second Queen on a team is a bonus);
//! Free-For-All: a player's strength is its points (100 cp a point) plus,
//! while it is in the game, its army; its utility is its strength less the
//! strongest opponent's.

use super::position::Position4;
use super::variant::{BISHOP, KING, KNIGHT, Mode, NUM_TYPES, PAWN, QUEEN, ROOK};
use super::{Bb, team};
use crate::bitboard::Bitboard;
use crate::geometry::SqMap;
use crate::params::Params;

/// Centipawns per Free-For-All point.
pub const POINT_CP: i32 = 100;

/// Weight of one attacker of a King-zone square, by type.
const ZONE_ATTACKER: [i32; NUM_TYPES] = [0, 25, 30, 30, 40, 50];
/// Scale (per 100) of the zone pressure by the number of attackers (of
/// one zone square): it grows with every attacker that joins in.
const ZONE_SCALE: [i32; 9] = [0, 50, 100, 120, 150, 200, 250, 300, 400];
const SHIELD_MISSING: i32 = 75;
const OFF_BACK_RANK: i32 = 50;
const TWO_ATTACKERS: i32 = 150;
const SECOND_QUEEN: i32 = 200;
const ROOK_CENTRE: i32 = 40;
/// A developed piece: a Knight off its first rank, or a Bishop, Rook or
/// Queen with at least `ACTIVE_MOVES` moves beyond its own two first
/// ranks. A player scores `four_active` per developed piece; a team also
/// `four_active_pair` times the product of its players' counts (the
/// partners are strong together: one developed army alone does little).
const ACTIVE_MOVES: u32 = 5;

/// Tables built once per mode.
pub struct Eval4 {
    /// material by piece type (the King 0)
    pub value: [i32; NUM_TYPES],
    /// pst[player * NUM_TYPES + type][square]
    pst: Vec<SqMap<Bb, i32>>,
    /// per square: the King's zone (the square and its neighbours)
    zone: SqMap<Bb, Bb>,
    /// per player and square: the three squares in front of a King there
    shield: [SqMap<Bb, Bb>; 4],
    /// per player: its first rank (file)
    back: [Bb; 4],
    /// per player: its first two ranks (files), where mobility and
    /// development are not counted
    home: [Bb; 4],
    /// squares on any player's first rank or file (zone squares there are
    /// hard to reach and not counted)
    edges: Bb,
    /// per square: where a knight is within two leaps of it
    knight2: SqMap<Bb, Bb>,
    /// the central 7x7 block
    centre: Bb,
    /// the network that corrects (or replaces) this evaluation, if any
    pub nnue: Option<crate::nnue::Evaluator>,
}

impl Eval4 {
    pub fn new(pos: &Position4) -> Eval4 {
        let v = &*pos.v;
        let shape = &v.shape;
        let n = v.n;
        let value = [0, 50, 300, 400, 500, 1000];
        // distance to the centre (between files/ranks g and h: 6.5)
        let dist = |sq: usize| -> i32 {
            let (f, r) = shape.coords(sq);
            (f as f64 - 6.5).abs().max((r as f64 - 6.5).abs()) as i32
        };
        let mut pst = Vec::with_capacity(4 * NUM_TYPES);
        for p in 0..4 {
            for t in 0..NUM_TYPES {
                pst.push(SqMap::from_fn(n, |sq| {
                    let c = 6 - dist(sq);
                    match t {
                        KNIGHT => 8 * c - 20,
                        BISHOP => 4 * c - 8,
                        QUEEN => 2 * c,
                        PAWN => {
                            let (f, r) = shape.coords(sq);
                            let adv = match p {
                                0 => r as i32 - 1,
                                1 => f as i32 - 1,
                                2 => 12 - r as i32,
                                _ => 12 - f as i32,
                            }
                            .max(0);
                            // Teams promote 9 steps from the start line, FFA 6
                            let goal = match v.mode {
                                Mode::Teams => 9,
                                Mode::Ffa => 6,
                            };
                            let scaled = adv * 9 / goal;
                            2 * scaled * scaled + (100 * (scaled - 5)).max(0)
                        }
                        _ => 0,
                    }
                }));
            }
        }
        let kings = &v.tables.moves[0][KING].normal.leap_any;
        let knights = &v.tables.moves[0][KNIGHT].normal.leap_any;
        let zone = SqMap::from_fn(n, |sq| kings[sq] | Bb::bit(sq));
        let knight2 = SqMap::from_fn(n, |sq| {
            let mut b = knights[sq];
            for s in knights[sq].iter() {
                b |= knights[s];
            }
            b
        });
        let mut back = [Bb::ZERO; 4];
        let mut home = [Bb::ZERO; 4];
        let mut centre = Bb::ZERO;
        for sq in 0..n {
            let (f, r) = shape.coords(sq);
            for (p, on) in [r == 0, f == 0, r == 13, f == 13].into_iter().enumerate() {
                if on {
                    back[p] |= Bb::bit(sq);
                }
            }
            for (p, on) in [r <= 1, f <= 1, r >= 12, f >= 12].into_iter().enumerate() {
                if on {
                    home[p] |= Bb::bit(sq);
                }
            }
            if (4..=10).contains(&f) && (4..=10).contains(&r) {
                centre |= Bb::bit(sq);
            }
        }
        let shield = std::array::from_fn(|p| {
            let fwd = super::variant::ORIENTATIONS[p].apply((0, 1));
            SqMap::from_fn(n, |sq| {
                let mut b = Bb::ZERO;
                if let Some(front) = shape.offset(sq, fwd.0, fwd.1) {
                    b |= Bb::bit(front);
                    let side = (fwd.1.abs(), fwd.0.abs());
                    for s in [1, -1] {
                        if let Some(x) = shape.offset(front, side.0 * s, side.1 * s) {
                            b |= Bb::bit(x);
                        }
                    }
                }
                b
            })
        });
        Eval4 {
            value,
            pst,
            zone,
            shield,
            edges: back[0] | back[1] | back[2] | back[3],
            back,
            home,
            knight2,
            centre,
            nnue: None,
        }
    }
}

/// Pressure on one King's zone: per zone square (index 0..9, by offset),
/// attackers' and defenders' counts and weights, and the attacking players.
#[derive(Default, Clone, Copy)]
struct Zone {
    att_n: [u8; 9],
    att_w: [i32; 9],
    def_n: [u8; 9],
    def_w: [i32; 9],
    colours: u8,
}

/// The index of a zone square around the King on `k`.
#[inline]
fn zone_index(pos: &Position4, k: usize, sq: usize) -> usize {
    let s = &pos.v.shape;
    let (kf, kr) = s.coords(k);
    let (f, r) = s.coords(sq);
    ((f + 1 - kf) * 3 + (r + 1 - kr)).min(8)
}

/// Each player's army: its score in centipawns and its developed pieces;
/// eliminated players score 0.
pub struct Armies {
    pub score: [i32; 4],
    pub active: [i32; 4],
}

/// Each player's army score and development.
pub fn army_scores(pos: &Position4, t: &Eval4, p: &Params) -> Armies {
    let v = &*pos.v;
    let occ = pos.occupied();
    let live = pos.live_mask();
    let mut score = [0i32; 4];
    let mut active = [0i32; 4];
    let mut zones = [Zone::default(); 4];
    let mut attacks = [Bb::ZERO; 4];
    let mut pawn_attacks = [Bb::ZERO; 4];
    let kings: [usize; 4] = std::array::from_fn(|q| pos.king_square(q));
    let zone_sq: [Bb; 4] = std::array::from_fn(|q| t.zone[kings[q]] & !t.edges);
    let queens: [bool; 4] = std::array::from_fn(|q| pos.pieces(q, QUEEN).any());
    for (q, sc) in score.iter_mut().enumerate() {
        if live & (1 << q) == 0 {
            continue;
        }
        let own = pos.color_bb(q);
        let enemies = pos.enemies(q);
        for (ty, &zone_weight) in ZONE_ATTACKER.iter().enumerate() {
            let pst = &t.pst[q * NUM_TYPES + ty];
            for sq in (pos.type_bb(ty) & own).iter() {
                *sc += t.value[ty] + pst[sq];
                let reach = if ty == PAWN {
                    v.tables.empty_board_captures(q, PAWN, sq)
                } else {
                    v.tables.reach(q, ty, sq, occ)
                };
                attacks[q] |= reach;
                if ty == PAWN {
                    pawn_attacks[q] |= reach;
                } else if ty != KING {
                    let moves = (reach & !own & !t.home[q]).count();
                    *sc += p.four_mobility * moves as i32;
                    let developed = if ty == KNIGHT {
                        !t.back[q].has(sq)
                    } else {
                        moves >= ACTIVE_MOVES
                    };
                    active[q] += developed as i32;
                }
                if ty == KING {
                    continue;
                }
                if ty == ROOK && t.centre.has(sq) {
                    *sc += ROOK_CENTRE;
                }
                // pressure on (or defence of) every King's zone
                for (k, z) in zones.iter_mut().enumerate() {
                    if live & (1 << k) == 0 {
                        continue;
                    }
                    let hits = reach & zone_sq[k];
                    if hits.is_empty() {
                        continue;
                    }
                    let enemy = pos.enemies(k) & (1 << q) != 0;
                    for s in hits.iter() {
                        let i = zone_index(pos, kings[k], s);
                        if enemy {
                            z.att_n[i] += 1;
                            z.att_w[i] += zone_weight;
                            z.colours |= 1 << q;
                        } else if q == k || team(q) == team(k) && pos.mode() == Mode::Teams {
                            z.def_n[i] += 1;
                            z.def_w[i] += zone_weight;
                        }
                    }
                }
                if ty == KNIGHT {
                    for (k, &ksq) in kings.iter().enumerate() {
                        if enemies & (1 << k) != 0 && t.knight2[ksq].has(sq) {
                            *sc += p.four_knight_king;
                        }
                    }
                }
            }
        }
    }
    let side = pos.side();
    for q in 0..4 {
        if live & (1 << q) == 0 {
            continue;
        }
        let enemies = pos.enemies(q);
        let friends = match pos.mode() {
            Mode::Teams => 0b0101 << team(q),
            Mode::Ffa => 1 << q,
        };
        let their_attacks = (0..4)
            .filter(|&e| enemies & (1 << e) != 0)
            .fold(Bb::ZERO, |b, e| b | attacks[e]);
        let their_pawns = (0..4)
            .filter(|&e| enemies & (1 << e) != 0)
            .fold(Bb::ZERO, |b, e| b | pawn_attacks[e]);
        let our_attacks = (0..4)
            .filter(|&f| friends & (1 << f) != 0)
            .fold(Bb::ZERO, |b, f| b | attacks[f]);
        // threats: pieces attacked by a pawn, or attacked and undefended;
        // the side to move may still save one
        if q != side {
            let pieces = pos.color_bb(q) & !pos.type_bb(KING) & !pos.type_bb(PAWN);
            let hit = (pieces & their_pawns) | (pieces & their_attacks & !our_attacks);
            score[q] -= p.four_threat * hit.count() as i32;
        }
        let enemy_queen = (0..4).any(|e| enemies & (1 << e) != 0 && queens[e]);
        let safety = king_safety(pos, t, p, q, kings[q], &zones[q], enemy_queen);
        score[q] += safety.min(0) + p.four_active * active[q];
    }
    Armies { score, active }
}

/// The King safety of player `q` (King on `k`, its zone's pressure `z`):
/// the pawn shield and the back rank while an enemy Queen is left, the
/// zone's attackers against its defenders, two attacking colours; halved
/// without an enemy Queen.
fn king_safety(
    pos: &Position4,
    t: &Eval4,
    p: &Params,
    q: usize,
    k: usize,
    z: &Zone,
    enemy_queen: bool,
) -> i32 {
    let mut safety = 0;
    if enemy_queen {
        let shield = (t.shield[q][k] & pos.pieces(q, PAWN)).any();
        let home = t.back[q].has(k);
        if !shield {
            safety -= SHIELD_MISSING;
        }
        if !home {
            safety -= OFF_BACK_RANK;
        }
        if !shield && !home {
            safety -= OFF_BACK_RANK;
        }
    }
    for i in 0..9 {
        let a = z.att_w[i] * ZONE_SCALE[(z.att_n[i] as usize).min(8)] / 100;
        let d = z.def_w[i] * ZONE_SCALE[(z.def_n[i] as usize).min(8)] / 200;
        safety -= (a - d).max(0) * p.four_king_zone / 100;
    }
    if z.colours.count_ones() > 1 {
        safety -= TWO_ATTACKERS;
    }
    if !enemy_queen {
        safety /= 2;
    }
    safety
}

/// Material and piece-square terms per player: the cheap part of
/// `army_scores`, for lazy evaluation.
pub fn material_scores(pos: &Position4, t: &Eval4) -> [i32; 4] {
    let live = pos.live_mask();
    std::array::from_fn(|q| {
        if live & (1 << q) == 0 {
            return 0;
        }
        let own = pos.color_bb(q);
        let mut s = 0;
        for ty in 1..NUM_TYPES {
            let pst = &t.pst[q * NUM_TYPES + ty];
            for sq in (pos.type_bb(ty) & own).iter() {
                s += t.value[ty] + pst[sq];
            }
        }
        s
    })
}

/// Free-For-All strengths: points (100 cp each) plus the army while in
/// the game.
pub fn strengths(pos: &Position4, t: &Eval4, p: &Params) -> [i32; 4] {
    let army = army_scores(pos, t, p).score;
    let pts = pos.points();
    std::array::from_fn(|q| POINT_CP * pts[q] + army[q])
}

/// `root`'s Free-For-All utility in this position (what the search
/// evaluates, before the tempo bonus and a network's correction).
pub fn ffa_utility(pos: &Position4, t: &Eval4, p: &Params, root: usize) -> i32 {
    utility(&strengths(pos, t, p), root)
}

/// A player's Free-For-All utility: its strength less the strongest
/// opponent's.
pub fn utility(strength: &[i32; 4], q: usize) -> i32 {
    let best_other = (0..4)
        .filter(|&o| o != q)
        .map(|o| strength[o])
        .max()
        .unwrap_or(0);
    strength[q] - best_other
}

/// The side to move's team's sum less the other team's (a team with two
/// Queens gets a bonus).
fn team_diff(pos: &Position4, s: &[i32; 4]) -> i32 {
    let queens = |a: usize, b: usize| (pos.pieces(a, QUEEN) | pos.pieces(b, QUEEN)).count();
    let bonus = |a: usize, b: usize| if queens(a, b) >= 2 { SECOND_QUEEN } else { 0 };
    let ry = s[0] + s[2] + bonus(0, 2);
    let bg = s[1] + s[3] + bonus(1, 3);
    if team(pos.side()) == 0 {
        ry - bg
    } else {
        bg - ry
    }
}

/// Teams with lazy evaluation: when material and placement alone are
/// more than `four_lazy_margin` outside (alpha, beta), they are returned
/// without the rest. Returns the score and whether it is complete.
pub fn evaluate_teams_bounded(
    pos: &Position4,
    t: &Eval4,
    p: &Params,
    alpha: i32,
    beta: i32,
) -> (i32, bool) {
    let quick = team_diff(pos, &material_scores(pos, t)) + p.tempo;
    let margin = p.four_lazy_margin;
    if quick - margin >= beta || quick + margin <= alpha {
        return (quick, false);
    }
    (evaluate_teams(pos, t, p), true)
}

/// Teams: the side to move's team's score less the other team's, with a
/// tempo bonus.
pub fn evaluate_teams(pos: &Position4, t: &Eval4, p: &Params) -> i32 {
    let a = army_scores(pos, t, p);
    let pair = p.four_active_pair * (a.active[0] * a.active[2] - a.active[1] * a.active[3]);
    let pair = if team(pos.side()) == 0 { pair } else { -pair };
    team_diff(pos, &a.score) + pair + p.tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourplayer::{Layout, Variant4};
    use std::sync::Arc;

    #[test]
    fn the_symmetric_start_is_balanced() {
        let pos = Position4::startpos(Arc::new(Variant4::new(Mode::Teams)), Layout::Modern);
        let t = Eval4::new(&pos);
        let s = army_scores(&pos, &t, &Params::default()).score;
        // 4PC is symmetric under a quarter turn; Red's threats are not
        // counted (it is to move), the others have none at the start
        assert!(s.iter().all(|&x| x == s[0]), "{s:?}");
        assert_eq!(
            evaluate_teams(&pos, &t, &Params::default()),
            Params::default().tempo
        );
    }
}
