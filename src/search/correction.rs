//! Correction history: how far the search's results have come out from
//! the static eval in positions with the same pawns, learned during the
//! search and added to the static eval of later nodes with those pawns;
//! and where the game keeps them, the same by the placement of each
//! colour's other pieces (non-pawn keys), blended with the pawns' term.

use crate::params::{CORRECTION_ENTRIES, CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_MAX_WEIGHT};

const _: () = assert!(CORRECTION_ENTRIES.is_power_of_two());

/// The keys a position is corrected by: its pawns, and (two-player
/// games that keep them) each colour's other pieces.
#[derive(Clone, Copy)]
pub struct CorrectionKeys {
    pub pawn: Option<u64>,
    pub non_pawn: Option<[u64; 2]>,
}

/// Per side, an average (in 1/`CORRECTION_GRAIN` centipawns) of search
/// result less static eval, by pawn key; and per side to move and colour,
/// the same by that colour's non-pawn key.
pub struct Correction {
    table: Vec<i32>,
    non_pawn: Vec<i32>,
}

impl Correction {
    pub fn new(sides: usize) -> Correction {
        Correction {
            table: vec![0; sides * CORRECTION_ENTRIES],
            non_pawn: vec![0; sides * 2 * CORRECTION_ENTRIES],
        }
    }

    /// Whether this table is sized for `sides` sides.
    pub fn fits(&self, sides: usize) -> bool {
        self.table.len() == sides * CORRECTION_ENTRIES
    }

    #[inline]
    fn index(side: usize, key: u64) -> usize {
        side * CORRECTION_ENTRIES + (key as usize & (CORRECTION_ENTRIES - 1))
    }

    #[inline]
    fn non_pawn_index(side: usize, color: usize, key: u64) -> usize {
        (side * 2 + color) * CORRECTION_ENTRIES + (key as usize & (CORRECTION_ENTRIES - 1))
    }

    /// The pawns' term alone (centipawns) for `side` to move with pawn
    /// key `key` (none: no correction); the search reads `blended`.
    #[cfg(test)]
    pub fn get(&self, side: usize, key: Option<u64>) -> i32 {
        key.map_or(0, |k| self.table[Self::index(side, k)] / CORRECTION_GRAIN)
    }

    /// The correction (centipawns) for `side` to move with these keys:
    /// the pawns' term alone where there are no non-pawn keys or
    /// `weights.1` is 0, else the pawns' term times `weights.0` plus the
    /// two colours' non-pawn terms times `weights.1` (in percent).
    #[inline]
    pub fn blended(&self, side: usize, keys: CorrectionKeys, weights: (i32, i32)) -> i32 {
        let pawn = keys.pawn.map_or(0, |k| self.table[Self::index(side, k)]);
        match keys.non_pawn {
            Some([k0, k1]) if weights.1 != 0 => {
                let np = self.non_pawn[Self::non_pawn_index(side, 0, k0)]
                    + self.non_pawn[Self::non_pawn_index(side, 1, k1)];
                (pawn * weights.0 + np * weights.1) / (100 * CORRECTION_GRAIN)
            }
            _ => pawn / CORRECTION_GRAIN,
        }
    }

    /// A search to `depth` found `diff` = result less static eval: move
    /// the average towards it, by a weight that grows with the depth.
    pub fn update(&mut self, side: usize, key: Option<u64>, depth: i32, diff: i32) {
        let Some(k) = key else { return };
        learn(&mut self.table[Self::index(side, k)], depth, diff);
    }

    /// `update` for every key of `keys` (the non-pawn tables only where
    /// `keys` has non-pawn keys).
    pub fn update_all(&mut self, side: usize, keys: CorrectionKeys, depth: i32, diff: i32) {
        self.update(side, keys.pawn, depth, diff);
        if let Some(ks) = keys.non_pawn {
            for (c, k) in ks.into_iter().enumerate() {
                learn(
                    &mut self.non_pawn[Self::non_pawn_index(side, c, k)],
                    depth,
                    diff,
                );
            }
        }
    }
}

/// Moves an entry's average towards `diff`, by a weight that grows with
/// the depth of the search that found it.
#[inline]
fn learn(e: &mut i32, depth: i32, diff: i32) {
    let w = (depth + 1).clamp(1, CORRECTION_MAX_WEIGHT);
    let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
    *e = (*e * (256 - w) + target * w) / 256;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_towards_the_search_result_and_stays_bounded() {
        let mut c = Correction::new(2);
        assert_eq!(c.get(0, Some(7)), 0);
        for _ in 0..2000 {
            c.update(0, Some(7), 10, 40);
        }
        // converges near the difference
        assert!(
            (38..=40).contains(&c.get(0, Some(7))),
            "{}",
            c.get(0, Some(7))
        );
        // the other side and other keys are untouched
        assert_eq!(c.get(1, Some(7)), 0);
        assert_eq!(c.get(0, Some(8)), 0);
        // a huge difference is clamped
        for _ in 0..2000 {
            c.update(1, Some(7), 20, -5000);
        }
        assert!(c.get(1, Some(7)) >= -CORRECTION_MAX);
        assert!(c.get(1, Some(7)) < -CORRECTION_MAX + 5);
        // no key: nothing learned, nothing given
        c.update(0, None, 10, 100);
        assert_eq!(c.get(0, None), 0);
    }

    #[test]
    fn the_non_pawn_terms_blend_with_the_pawns_only_when_weighted() {
        let mut c = Correction::new(2);
        let keys = CorrectionKeys {
            pawn: Some(3),
            non_pawn: Some([11, 12]),
        };
        for _ in 0..2000 {
            c.update_all(0, keys, 10, 40);
        }
        // each table learned the difference: 70% + 2 x 35% of 40
        assert!((54..=56).contains(&c.blended(0, keys, (70, 35))));
        // weight 0 or no non-pawn keys: the pawns' term, whole
        assert_eq!(c.blended(0, keys, (70, 0)), c.get(0, Some(3)));
        let pawns_only = CorrectionKeys {
            pawn: Some(3),
            non_pawn: None,
        };
        assert_eq!(c.blended(0, pawns_only, (70, 35)), c.get(0, Some(3)));
        // another placement of the pieces: only the pawns' term
        let other = CorrectionKeys {
            pawn: Some(3),
            non_pawn: Some([21, 22]),
        };
        assert!((26..=28).contains(&c.blended(0, other, (70, 35))));
        // keys without non-pawn keys teach the non-pawn tables nothing
        let mut d = Correction::new(2);
        d.update_all(0, pawns_only, 10, 40);
        let no_pawn = CorrectionKeys {
            pawn: None,
            non_pawn: Some([11, 12]),
        };
        assert_eq!(d.blended(0, no_pawn, (70, 35)), 0);
    }
}
