//! Evaluation, tapered between middlegame and endgame: material,
//! piece-square terms, mobility, King safety, pawn structure, passed pawns,
//! threats, and endgame scaling (pawnless endings, the variant's
//! material that cannot force mate, mop-up against a bare King).

pub mod tables;

use crate::bitboard::Bitboard;
use crate::params::Params;
use crate::position::Position;
use crate::variant::{BLACK, KING, PAWN, WHITE};
pub use tables::EvalTables;

/// Scores are in centipawns from the side to move's point of view.
pub type Score = i32;

/// Material of one side (middlegame values), without the King.
pub fn material<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, c: usize) -> i32 {
    let mut m = 0;
    for ty in 1..pos.v.num_types() {
        m += pos.pieces(c, ty).count() as i32 * t.value[ty][0];
    }
    m
}

/// Game phase: max_phase with all pieces on the board, 0 with none.
pub fn phase<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>) -> i32 {
    let mut ph = 0;
    for ty in 2..pos.v.num_types() {
        ph += pos.type_bb(ty).count() as i32 * t.phase[ty];
    }
    ph.min(t.max_phase)
}

/// Static evaluation from the side to move's point of view.
pub fn evaluate<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, p: &Params) -> Score {
    evaluate_bounded(pos, t, p, -LAZY_OFF, LAZY_OFF).0
}

const LAZY_OFF: i32 = 1_000_000;

/// A piece threatens a lesser one only where the values differ by more
/// than this (equal trades are no threat).
const LESSER_MARGIN: i32 = 50;

/// Static evaluation; when material and piece-square terms alone are
/// further than `lazy_margin` outside (alpha, beta), they are returned
/// without the rest. Returns the score and whether it is complete.
pub fn evaluate_bounded<B: Bitboard>(
    pos: &Position<B>,
    t: &EvalTables<B>,
    p: &Params,
    alpha: i32,
    beta: i32,
) -> (Score, bool) {
    let mut e = Evaluation::new(pos, t, p);
    e.material();
    e.scale_by_material();
    let lazy = e.finish();
    if lazy - p.lazy_margin >= beta || lazy + p.lazy_margin <= alpha {
        return (lazy, false);
    }
    e.pieces();
    e.pawns();
    e.king_safety();
    e.threats();
    (e.finish(), true)
}

/// One evaluation in progress, term by term (as Fairy-Stockfish splits
/// its own): middlegame and endgame sums per colour, and what the terms
/// hand on to each other.
struct Evaluation<'a, B: Bitboard> {
    pos: &'a Position<B>,
    t: &'a EvalTables<B>,
    p: &'a Params,
    mg: [i32; 2],
    eg: [i32; 2],
    phase: i32,
    /// the endgame scale, 64 = full
    scale: i32,
    king_sq: [usize; 2],
    /// squares attacked by each colour's pawns
    pawn_att: [B; 2],
    /// squares attacked by each colour (pieces, pawns and King)
    attacked: [B; 2],
    /// squares each colour's pieces and pawns defend (not the King)
    defended: [B; 2],
    attack_units: [i32; 2],
    attackers: [i32; 2],
    /// each colour's pieces attacked by lesser enemy pieces
    lesser: [i32; 2],
}

impl<'a, B: Bitboard> Evaluation<'a, B> {
    fn new(pos: &'a Position<B>, t: &'a EvalTables<B>, p: &'a Params) -> Self {
        Evaluation {
            pos,
            t,
            p,
            mg: [0; 2],
            eg: [0; 2],
            phase: phase(pos, t),
            scale: 64,
            king_sq: [pos.king_square(WHITE), pos.king_square(BLACK)],
            pawn_att: [B::ZERO; 2],
            attacked: [B::ZERO; 2],
            defended: [B::ZERO; 2],
            attack_units: [0; 2],
            attackers: [0; 2],
            lesser: [0; 2],
        }
    }

    /// The score for the side to move, scaled and tapered.
    fn finish(&self) -> Score {
        let (t, ph) = (self.t, self.phase);
        let mgs = self.mg[WHITE] - self.mg[BLACK];
        let egs = self.eg[WHITE] - self.eg[BLACK];
        let score = (mgs * ph + egs * (t.max_phase - ph)) / t.max_phase * self.scale / 64;
        (if self.pos.side() == WHITE {
            score
        } else {
            -score
        }) + self.p.tempo
    }

    /// Material and piece-square terms.
    fn material(&mut self) {
        let (pos, t) = (self.pos, self.t);
        for c in [WHITE, BLACK] {
            for ty in 0..pos.v.num_types() {
                let val = t.value[ty];
                for sq in pos.pieces(c, ty).iter() {
                    let ps = t.pst(c, ty, sq);
                    self.mg[c] += val[0] + ps[0];
                    self.eg[c] += val[1] + ps[1];
                }
            }
        }
    }

    /// Endgame scaling and mop-up, from material alone.
    fn scale_by_material(&mut self) {
        let (pos, t, p) = (self.pos, self.t, self.p);
        let strong = if self.eg[WHITE] - self.eg[BLACK] >= 0 {
            WHITE
        } else {
            BLACK
        };
        let weak = strong ^ 1;
        if pos.pieces(strong, PAWN).is_empty() {
            let ms = material(pos, t, strong);
            let mw = material(pos, t, weak);
            if ms - mw < 400 {
                self.scale = p.pawnless_scale;
            }
            if pos.color_bb(weak).count() == 1 {
                if t.cannot_force_mate.contains(&pos.material_string(strong)) {
                    self.scale = 2;
                } else if ms - mw >= 400 {
                    // mop-up: edge the bare King, bring ours close
                    let wk = self.king_sq[weak];
                    let sk = self.king_sq[strong];
                    let (a, b) = (pos.v.shape.coords(wk), pos.v.shape.coords(sk));
                    let dist = (a.0 as i32 - b.0 as i32)
                        .abs()
                        .max((a.1 as i32 - b.1 as i32).abs());
                    self.eg[strong] += t.center_distance[wk] * p.mopup_edge
                        + (t.max_center_distance * 2 - dist) * p.mopup_near;
                }
            }
        }
        if pos.insufficient_material() {
            self.scale = 0;
        }
    }

    /// The pieces: mobility, threats on greater pieces, King-zone attacks,
    /// bishop pairs of colour-bound pieces, open files; and the attack
    /// maps the later terms read (pawn attacks first: they bound the
    /// mobility area).
    fn pieces(&mut self) {
        let (pos, t, p) = (self.pos, self.t, self.p);
        let v = &*pos.v;
        let occ = pos.occupied();
        for c in [WHITE, BLACK] {
            for sq in pos.pieces(c, PAWN).iter() {
                self.pawn_att[c] |= v.empty_board_captures(c, PAWN, sq);
            }
        }
        let mut bound_colours = [[0u8; 2]; 2];
        for c in [WHITE, BLACK] {
            let them = c ^ 1;
            let zone = t.king_zone[them][self.king_sq[them]];
            let own = pos.color_bb(c);
            let mobility_area = !own & !self.pawn_att[them];
            let their_pieces = pos.color_bb(them) & !pos.type_bb(PAWN) & !pos.type_bb(KING);
            for ty in 2..v.num_types() {
                for sq in pos.pieces(c, ty).iter() {
                    let att = v.reach(c, ty, sq, occ);
                    self.attacked[c] |= att;
                    let mob = (att & mobility_area).count() as i32 - t.avg_mobility[ty];
                    self.mg[c] += mob * p.mobility_mg;
                    self.eg[c] += mob * p.mobility_eg;
                    let avg = t.avg_mobility[ty].max(1);
                    self.mg[c] += mob * p.mobility_rel_mg * 8 / avg;
                    self.eg[c] += mob * p.mobility_rel_eg * 8 / avg;
                    // enemy pieces worth more than this one, attacked by it
                    for target in (att & their_pieces).iter() {
                        if let Some((_, tt)) = pos.piece_at(target)
                            && t.value[tt][0] > t.value[ty][0] + LESSER_MARGIN
                        {
                            self.lesser[them] += 1;
                        }
                    }
                    let za = (att & zone).count() as i32;
                    if za > 0 {
                        self.attackers[c] += 1;
                        self.attack_units[c] += za * t.attack_weight[ty];
                    }
                    if t.colour_bound[ty] {
                        bound_colours[c][t.light.has(sq) as usize] = 1;
                    }
                    if t.file_rider[ty] {
                        let file = t.file_mask[v.shape.file(sq)];
                        if (file & pos.type_bb(PAWN)).is_empty() {
                            self.mg[c] += p.open_file_mg;
                        } else if (file & pos.pieces(c, PAWN)).is_empty() {
                            self.mg[c] += p.half_open_file_mg;
                        }
                    }
                }
            }
            // King and pawn attacks count as attacked squares too.
            self.defended[c] = self.attacked[c] | self.pawn_att[c];
            self.attacked[c] |= self.pawn_att[c] | v.empty_board_captures(c, KING, self.king_sq[c]);
            if bound_colours[c][0] == 1 && bound_colours[c][1] == 1 {
                self.mg[c] += p.pair_mg;
                self.eg[c] += p.pair_eg;
            }
        }
    }

    /// Pawn structure, passed pawns and the King's pawn shelter.
    fn pawns(&mut self) {
        let (pos, t, p) = (self.pos, self.t, self.p);
        let v = &*pos.v;
        let occ = pos.occupied();
        for c in [WHITE, BLACK] {
            let them = c ^ 1;
            let own_pawns = pos.pieces(c, PAWN);
            let their_pawns = pos.pieces(them, PAWN);
            for sq in own_pawns.iter() {
                let file = v.shape.file(sq);
                if (t.front[c][sq] & own_pawns).any() {
                    self.mg[c] -= p.doubled_mg;
                    self.eg[c] -= p.doubled_eg;
                }
                if (t.adjacent_files[file] & own_pawns).is_empty() {
                    self.mg[c] -= p.isolated_mg;
                    self.eg[c] -= p.isolated_eg;
                }
                if (t.passed_mask[c][sq] & their_pawns).is_empty()
                    && (t.front[c][sq] & own_pawns).is_empty()
                {
                    self.eg[c] += self.passed(c, sq, occ);
                }
            }
            // Shelter: own pawns in the King's zone ahead.
            let shelter = (t.king_zone[c][self.king_sq[c]] & own_pawns).count() as i32;
            self.mg[c] += shelter.min(3) * p.shelter_mg;
        }
    }

    /// A passed pawn of `c` on `sq`: its middlegame bonus is added here,
    /// its endgame bonus returned.
    fn passed(&mut self, c: usize, sq: usize, occ: B) -> i32 {
        let (pos, t, p) = (self.pos, self.t, self.p);
        let v = &*pos.v;
        let adv = t.advance[c][sq];
        let left = t.to_promotion[c][sq];
        let span = (adv + left).max(1);
        // grows with the square of the advance, relative to the run
        let sq_adv = adv * adv * 64 / (span * span);
        self.mg[c] += p.passed_mg + sq_adv * p.passed_rank_mg / 64;
        let mut e = p.passed_eg + sq_adv * p.passed_rank_eg / 64;
        // a free path and the Kings' distances matter in the endgame
        if (t.front[c][sq] & occ).is_empty() {
            e += e / 4;
        }
        let dk = |k: usize| -> i32 {
            let (kf, kr) = v.shape.coords(k);
            let (pf, pr) = v.shape.coords(sq);
            (kf as i32 - pf as i32)
                .abs()
                .max((kr as i32 - pr as i32).abs())
        };
        e + (dk(self.king_sq[c ^ 1]) - dk(self.king_sq[c])) * 4
    }

    /// King safety: quadratic in attack units, only with two attackers;
    /// weak squares of the King's zone, linear.
    fn king_safety(&mut self) {
        let (t, p) = (self.t, self.p);
        for c in [WHITE, BLACK] {
            let them = c ^ 1;
            let zone = t.king_zone[them][self.king_sq[them]];
            let weak = (zone & self.attacked[c] & !self.defended[them]).count() as i32;
            self.mg[c] += weak * p.king_weak_mg;
            if self.attackers[c] >= 2 {
                let u = self.attack_units[c] * p.king_attack / 64;
                self.mg[c] += u * u / p.king_attack_div.max(1);
            }
        }
    }

    /// Threats: pieces attacked by pawns; undefended attacked pieces;
    /// pieces attacked by lesser ones.
    fn threats(&mut self) {
        let (pos, p) = (self.pos, self.p);
        for c in [WHITE, BLACK] {
            let them = c ^ 1;
            let own_pieces = pos.color_bb(c) & !pos.type_bb(PAWN) & !pos.type_bb(KING);
            let by_pawn = (own_pieces & self.pawn_att[them]).count() as i32;
            self.mg[c] -= by_pawn * p.threat_pawn;
            self.eg[c] -= by_pawn * p.threat_pawn / 2;
            let hanging =
                (pos.color_bb(c) & !pos.type_bb(KING) & self.attacked[them] & !self.attacked[c])
                    .count() as i32;
            self.mg[c] -= hanging * p.hanging;
            self.eg[c] -= hanging * p.hanging / 2;
            self.mg[c] -= self.lesser[c] * p.threat_lesser_mg;
            self.eg[c] -= self.lesser[c] * p.threat_lesser_eg;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Variant, VariantSpec};
    use std::sync::Arc;

    /// What the term `set` puts in at weight 40 in a chess position: the
    /// evaluation (side to move's view) with it minus without it, and
    /// the game phase of the position with its maximum.
    fn term(fen: &str, set: fn(&mut Params, i32)) -> (i32, i32, i32) {
        let v = Variant::<u64>::new(VariantSpec::by_name("chess", &[]).unwrap()).unwrap();
        let v = Arc::new(v);
        let pos = Position::from_fen(v.clone(), fen).unwrap();
        let eval = |w| {
            let mut p = Params::default();
            set(&mut p, w);
            let t = EvalTables::new(&v, &p);
            (evaluate(&pos, &t, &p), phase(&pos, &t), t.max_phase)
        };
        let (with, ph, max) = eval(40);
        (with - eval(0).0, ph, max)
    }

    #[test]
    fn pieces_attacked_by_lesser_ones_are_threatened() {
        fn set(p: &mut Params, w: i32) {
            p.threat_lesser_mg = w;
            p.threat_lesser_eg = w;
        }
        // the Knight on e3 attacks the Queen on d5, which does not attack it
        assert_eq!(term("4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", set).0, 40);
        assert_eq!(term("4k3/8/8/3q4/8/4N3/8/4K3 b - - 0 1", set).0, -40);
        // from e2 it does not
        assert_eq!(term("4k3/8/8/3q4/8/8/4N3/4K3 w - - 0 1", set).0, 0);
        // a Knight attacked by a Queen is not: the Queen is worth more
        assert_eq!(term("4k3/8/8/3q4/8/1N6/8/4K3 w - - 0 1", set).0, 0);
        // nor a Knight attacked by a Bishop: about the same value
        assert_eq!(term("4k3/8/8/3b4/8/1N6/8/4K3 w - - 0 1", set).0, 0);
    }

    #[test]
    fn undefended_squares_next_to_the_king_count_against_it() {
        fn set(p: &mut Params, w: i32) {
            p.king_weak_mg = w;
        }
        // the Queens reach d6, d7, d8 (d1) and f6 (a1) of the bare King's
        // zone (e8's neighbours and two ranks ahead)
        let (d, ph, max) = term("4k3/8/8/8/8/8/8/QQQQK2R w - - 0 1", set);
        assert!((d - 4 * 40 * ph / max).abs() <= 1, "{d} {ph} {max}");
        assert!(d > 0);
        // a Black Bishop on e7 defends d6, d8 and f6: only d7 stays weak
        let (d, ph, max) = term("4k3/4b3/8/8/8/8/8/QQQQK2R w - - 0 1", set);
        assert!((d - 40 * ph / max).abs() <= 1, "{d} {ph} {max}");
        // no White piece reaches the zone
        assert_eq!(term("4k3/8/8/8/8/8/8/4K2R w - - 0 1", set).0, 0);
    }

    #[test]
    fn mobility_counts_relative_to_the_pieces_average() {
        fn set(p: &mut Params, w: i32) {
            p.mobility_rel_mg = w;
            p.mobility_rel_eg = w;
        }
        // a Knight on d4 has eight squares, above its average; on a1 two
        // (a Rook each, so that the material suffices for mate)
        let centre = term("r3k3/8/8/8/3N4/8/8/R3K3 w - - 0 1", set).0;
        let corner = term("r3k3/8/8/8/8/8/8/N3K2R w - - 0 1", set).0;
        assert!(centre > 0 && corner < 0, "{centre} {corner}");
    }
}
