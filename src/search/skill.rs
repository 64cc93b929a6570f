//! Weaker play on purpose: `Skill Level` 0-19 (20, the default, is full
//! strength). A level searches less (a depth and a node budget that grow
//! with it) over four lines instead of one, then chooses among the
//! near-best of them with a seeded randomness: each line's score plus a
//! random amount up to the level's margin, the highest wins. A line more
//! than twice the margin below the best, or one that walks into a mate the
//! best line avoids, is never chosen: the engine plays worse moves, never
//! absurd ones, and every move it plays is legal (it is one of the
//! searched root moves).

use super::time::Limits;
use crate::rng::SplitMix64;

/// The level of full strength (no weakening).
pub const MAX_LEVEL: u8 = 20;
/// How many root lines a weakened search scores.
const LINES: usize = 4;

/// The strength of each level 0-19 on an Elo scale, for `UCI_Elo`
/// (README has the games). Two anchors, chess at 10+0.1 against
/// Fairy-Stockfish 11.1 at its own UCI_Elo (Stockfish's scale, calibrated
/// to CCRL 40/4), 20 games each: level 10 scored 9-11 against 2000 (1965),
/// level 15 4-14-2 against 2500 (2309). The self-play ladder (each level
/// against the next, 40 games) is stretched: 702 from level 10 to 15
/// where the anchors measure 344, so its steps count 0.49 here. Levels
/// 1-15 lie on the line through the anchors (69 a level: the ladder rises
/// about evenly there); above 15 the ladder flattens (34 a level, fitted
/// over levels 15-20), 17 a level here; level 0 lies below level 1 by the
/// ladder's 0-1 step (338) shrunk alike (166).
pub const LEVEL_ELO: [i32; MAX_LEVEL as usize] = [
    1180, 1346, 1415, 1483, 1552, 1621, 1690, 1759, 1827, 1896, 1965, 2034, 2103, 2172, 2240, 2309,
    2326, 2342, 2359, 2376,
];
/// `UCI_Elo`'s default: the middle of the scale.
pub const DEFAULT_ELO: i32 = 1500;

/// The level whose measured strength is nearest `elo` (the weakest or
/// strongest level outside the scale).
pub fn level_for_elo(elo: i32) -> u8 {
    let mut best = 0;
    for (i, &e) in LEVEL_ELO.iter().enumerate() {
        if (e - elo).abs() < (LEVEL_ELO[best] - elo).abs() {
            best = i;
        }
    }
    best as u8
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u8,
    seed: u64,
}

impl Skill {
    /// The skill of `level`, or `None` at full strength; `seed` varies the
    /// choices from one game (or session) to the next.
    pub fn new(level: u8, seed: u64) -> Option<Skill> {
        (level < MAX_LEVEL).then_some(Skill { level, seed })
    }

    /// The deepest iteration: 1 at level 0, one more a level.
    pub fn depth(self) -> i32 {
        1 + self.level as i32
    }

    /// The node budget: 100 at level 0, half as much again each level
    /// (about 220,000 at level 19), so that every level searches more
    /// than the one below (a budget that grew every other level left
    /// pairs of levels equal: measured in chess, level 2 against 3 and 12
    /// against 13, 17-18-5 each in 40 games).
    pub fn nodes(self) -> u64 {
        (100.0 * 1.5f64.powi(self.level as i32)).round() as u64
    }

    /// The largest random amount added to a line's score (centipawns):
    /// 200 at level 0, 10 at level 19.
    pub fn margin(self) -> i32 {
        200 - 10 * self.level as i32
    }

    /// Narrows a search's limits to the level: at most its depth and
    /// nodes, and at least four lines.
    pub fn restrict(self, limits: &mut Limits) {
        limits.depth = Some(limits.depth.map_or(self.depth(), |d| d.min(self.depth())));
        limits.nodes = Some(limits.nodes.map_or(self.nodes(), |n| n.min(self.nodes())));
        limits.multipv = limits.multipv.max(LINES);
    }

    /// The index of the line to play among `scores` (best first; at least
    /// one), for the position `key` (its hash: the same position in the
    /// same session gets the same choice). `mated` says whether a score
    /// is a lost mate.
    pub fn pick(self, scores: &[i32], key: u64, mated: impl Fn(i32) -> bool) -> usize {
        let best = scores[0];
        let mut rng = SplitMix64(self.seed ^ key);
        let margin = self.margin();
        let mut chosen = 0;
        let mut top = i64::MIN;
        for (i, &s) in scores.iter().enumerate() {
            if (mated(s) && !mated(best)) || s < best.saturating_sub(2 * margin) {
                continue;
            }
            let v = s as i64 + rng.below(margin as u64 + 1) as i64;
            if v > top {
                top = v;
                chosen = i;
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_strength_has_no_skill() {
        assert_eq!(Skill::new(MAX_LEVEL, 1), None);
        assert!(Skill::new(MAX_LEVEL - 1, 1).is_some());
    }

    #[test]
    fn a_level_searches_less_and_wider() {
        let s = Skill::new(0, 7).unwrap();
        let mut l = Limits {
            depth: Some(30),
            multipv: 1,
            ..Default::default()
        };
        s.restrict(&mut l);
        assert_eq!((l.depth, l.nodes, l.multipv), (Some(1), Some(100), 4));
        // every level searches more and chooses closer to the best
        for level in 1..MAX_LEVEL {
            let (a, b) = (
                Skill::new(level - 1, 7).unwrap(),
                Skill::new(level, 7).unwrap(),
            );
            assert!(b.depth() > a.depth() && b.nodes() > a.nodes() && b.margin() < a.margin());
        }
        assert_eq!(Skill::new(19, 7).unwrap().margin(), 10);
    }

    #[test]
    fn chooses_near_best_lines_only() {
        let never_mated = |_: i32| false;
        let mut picked = [0usize; 4];
        for key in 0..400u64 {
            let s = Skill::new(0, 99).unwrap();
            // the fourth line is far worse than twice the margin
            let i = s.pick(&[50, 20, -30, -900], key, never_mated);
            picked[i] += 1;
        }
        assert_eq!(picked[3], 0, "{picked:?}");
        assert!(picked[1] > 0 && picked[2] > 0, "level 0 varies: {picked:?}");
        assert!(picked[0] > picked[2], "{picked:?}");
        // a line into a mate is never taken while the best is not mated
        let s = Skill::new(0, 5).unwrap();
        for key in 0..100 {
            assert_ne!(s.pick(&[0, -5], key, |x| x == -5), 1);
        }
    }

    #[test]
    fn an_elo_chooses_the_nearest_level() {
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]), "{LEVEL_ELO:?}");
        for (i, &e) in LEVEL_ELO.iter().enumerate() {
            assert_eq!(level_for_elo(e) as usize, i);
        }
        assert_eq!(level_for_elo(LEVEL_ELO[0] - 500), 0);
        assert_eq!(level_for_elo(LEVEL_ELO[19] + 500), 19);
        assert!((LEVEL_ELO[0]..=LEVEL_ELO[19]).contains(&DEFAULT_ELO));
    }
}
