//! Correction history: how far the search's results have come out from
//! the static eval in positions with the same pawns, learned during the
//! search and added to the static eval of later nodes with those pawns.

use crate::params::{CORRECTION_ENTRIES, CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_MAX_WEIGHT};

const _: () = assert!(CORRECTION_ENTRIES.is_power_of_two());

/// Per side, an average (in 1/`CORRECTION_GRAIN` centipawns) of search
/// result less static eval, by pawn key.
pub struct Correction {
    table: Vec<i32>,
}

impl Correction {
    pub fn new(sides: usize) -> Correction {
        Correction {
            table: vec![0; sides * CORRECTION_ENTRIES],
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

    /// The correction (centipawns) for `side` to move with pawn key `key`
    /// (none: the game has no pawn key, no correction).
    #[inline]
    pub fn get(&self, side: usize, key: Option<u64>) -> i32 {
        key.map_or(0, |k| self.table[Self::index(side, k)] / CORRECTION_GRAIN)
    }

    /// A search to `depth` found `diff` = result less static eval: move
    /// the average towards it, by a weight that grows with the depth.
    pub fn update(&mut self, side: usize, key: Option<u64>, depth: i32, diff: i32) {
        let Some(k) = key else { return };
        let e = &mut self.table[Self::index(side, k)];
        let w = (depth + 1).clamp(1, CORRECTION_MAX_WEIGHT);
        let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        *e = (*e * (256 - w) + target * w) / 256;
    }
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
}
