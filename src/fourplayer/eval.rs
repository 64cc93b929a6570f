//! Four-player evaluation: per player, material, piece-square terms
//! (centralisation, pawn advance towards promotion), mobility and King
//! safety (enemy pressure on the King's zone, the pawn shield); then
//! Teams: the two partners' sum against the other team's; Free-For-All:
//! a player's strength is its points (100 cp a point) plus, while it is in
//! the game, its army; a player's utility is its strength less the
//! strongest opponent's.

use super::position::Position4;
use super::variant::{BISHOP, KING, KNIGHT, Mode, NUM_TYPES, PAWN, QUEEN, ROOK};
use super::{Bb, team};
use crate::bitboard::Bitboard;
use crate::geometry::SqMap;
use crate::params::Params;

/// Centipawns per Free-For-All point.
pub const POINT_CP: i32 = 100;

/// Tables built once per mode.
pub struct Eval4 {
    /// material by piece type (the King 0)
    pub value: [i32; NUM_TYPES],
    /// pst[player * NUM_TYPES + type][square]
    pst: Vec<SqMap<Bb, i32>>,
    /// per square: the King's zone (the square and its neighbours)
    zone: SqMap<Bb, Bb>,
    /// per player and square: the squares in front of a King there
    shield: [SqMap<Bb, Bb>; 4],
    /// weight of an attack on a King-zone square, by attacker type
    attack_weight: [i32; NUM_TYPES],
}

impl Eval4 {
    pub fn new(pos: &Position4) -> Eval4 {
        let v = &*pos.v;
        let shape = &v.shape;
        let n = v.n;
        let value = [0, 70, 300, 400, 520, 1000];
        // distance to the centre (between files/ranks g and h: 6.5)
        let centre = |sq: usize| -> i32 {
            let (f, r) = shape.coords(sq);
            let d = (f as f64 - 6.5).abs().max((r as f64 - 6.5).abs());
            d as i32
        };
        let mut pst = Vec::with_capacity(4 * NUM_TYPES);
        for p in 0..4 {
            for t in 0..NUM_TYPES {
                pst.push(SqMap::from_fn(n, |sq| {
                    let c = 7 - centre(sq);
                    match t {
                        KNIGHT => 6 * c - 15,
                        BISHOP => 3 * c,
                        QUEEN => c,
                        ROOK => 0,
                        PAWN => {
                            // ranks advanced from the start line, more near promotion
                            let (f, r) = shape.coords(sq);
                            let adv = match p {
                                0 => r as i32 - 1,
                                1 => f as i32 - 1,
                                2 => 12 - r as i32,
                                _ => 12 - f as i32,
                            };
                            let goal = match v.mode {
                                Mode::Teams => 9,
                                Mode::Ffa => 6,
                            };
                            (adv.max(0) * 6 + if adv >= goal - 2 { 40 } else { 0 }).min(120)
                        }
                        _ => 0,
                    }
                }));
            }
        }
        let kings = &v.tables.moves[0][KING].normal.leap_any;
        let zone = SqMap::from_fn(n, |sq| kings[sq] | Bb::bit(sq));
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
            attack_weight: [0, 2, 3, 3, 4, 6],
        }
    }
}

/// Each player's army score (material, piece-square, mobility, King
/// safety), in centipawns; eliminated players score 0.
pub fn army_scores(pos: &Position4, t: &Eval4, p: &Params) -> [i32; 4] {
    let v = &*pos.v;
    let occ = pos.occupied();
    let mut score = [0i32; 4];
    let mut pressure = [0i32; 4];
    let live = pos.live_mask();
    let kings: [Bb; 4] = std::array::from_fn(|q| t.zone[pos.king_square(q)]);
    for (q, sc) in score.iter_mut().enumerate() {
        if live & (1 << q) == 0 {
            continue;
        }
        let own = pos.color_bb(q);
        let enemies = pos.enemies(q);
        for ty in 0..NUM_TYPES {
            let pst = &t.pst[q * NUM_TYPES + ty];
            for sq in (pos.type_bb(ty) & own).iter() {
                *sc += t.value[ty] + pst[sq];
                if ty == KING || ty == PAWN {
                    continue;
                }
                let reach = v.tables.reach(q, ty, sq, occ);
                *sc += p.mobility_mg * (reach & !own).count() as i32;
                for e in 0..4 {
                    if enemies & (1 << e) != 0 {
                        let hits = (reach & kings[e]).count() as i32;
                        pressure[e] += hits * t.attack_weight[ty];
                    }
                }
            }
        }
        // the pawn shield in front of the King
        let shield = t.shield[q][pos.king_square(q)] & pos.pieces(q, PAWN);
        *sc += p.shelter_mg * shield.count() as i32;
    }
    for (q, (s, a)) in score.iter_mut().zip(pressure).enumerate() {
        if live & (1 << q) != 0 {
            *s -= a * a * p.king_attack / (16 * p.king_attack_div.max(1));
        }
    }
    score
}

/// Free-For-All strengths: points (100 cp each) plus the army while in
/// the game.
pub fn strengths(pos: &Position4, t: &Eval4, p: &Params) -> [i32; 4] {
    let army = army_scores(pos, t, p);
    let pts = pos.points();
    std::array::from_fn(|q| POINT_CP * pts[q] + army[q])
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

/// Teams: the side to move's team's score less the other team's, with a
/// tempo bonus.
pub fn evaluate_teams(pos: &Position4, t: &Eval4, p: &Params) -> i32 {
    let s = army_scores(pos, t, p);
    let us = team(pos.side());
    let (ours, theirs) = if us == 0 {
        (s[0] + s[2], s[1] + s[3])
    } else {
        (s[1] + s[3], s[0] + s[2])
    };
    ours - theirs + p.tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourplayer::{Layout, Variant4};
    use std::sync::Arc;

    #[test]
    fn start_is_balanced() {
        for layout in [Layout::Modern, Layout::Classic] {
            let pos = Position4::startpos(Arc::new(Variant4::new(Mode::Teams)), layout);
            let t = Eval4::new(&pos);
            let s = army_scores(&pos, &t, &Params::default());
            if layout == Layout::Modern {
                assert!(s.iter().all(|&x| x == s[0]), "{s:?}");
            }
            assert_eq!(
                evaluate_teams(&pos, &t, &Params::default()),
                Params::default().tempo + s[0] + s[2] - s[1] - s[3]
            );
        }
    }
}
