//! Search limits and time allocation for every clock form of UCI (wtime,
//! btime, winc, binc, movestogo, movetime, depth, nodes, mate, infinite)
//! and XBoard (level, st, sd, time/otim, all converted to the same form).

use std::time::{Duration, Instant};

use crate::base::Move;
use crate::params::{
    FALLING_EVAL_MAX_SHARE, HARD_CAP, HARD_PER_SOFT, INC_SHARE, LAST_MOVE_HARD_CAP,
    MAX_MOVES_TO_GO, SOFT_CAP,
};

/// What bounds a search. Times in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// remaining time per colour (White, Black)
    pub time: [Option<u64>; 2],
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// root moves to consider; empty = all
    pub searchmoves: Vec<Move>,
    /// root moves to leave out (XBoard `exclude`)
    pub exclude: Vec<Move>,
    pub multipv: usize,
}

/// Soft and hard deadlines of one search.
#[derive(Clone, Debug)]
pub struct TimeControl {
    pub start: Instant,
    /// stop starting new iterations after this
    pub soft: Option<Duration>,
    /// abort the search after this
    pub hard: Option<Duration>,
    /// a fixed time per move: use all of it
    pub fixed: bool,
}

impl TimeControl {
    /// Allocates time for `side` (0 White, 1 Black) with the given
    /// overhead, on a clock that started at `start` (when `go` arrived);
    /// `moves_to_go` stands in where the limits give no `movestogo`.
    pub fn new(
        limits: &Limits,
        side: usize,
        overhead_ms: u64,
        moves_to_go: u64,
        start: Instant,
    ) -> TimeControl {
        let ms = Duration::from_millis;
        if limits.infinite {
            return TimeControl {
                start,
                soft: None,
                hard: None,
                fixed: false,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead_ms).max(1);
            return TimeControl {
                start,
                soft: Some(ms(t)),
                hard: Some(ms(t)),
                fixed: true,
            };
        }
        if let Some(t) = limits.time[side] {
            let inc = limits.inc[side];
            let avail = t.saturating_sub(overhead_ms).max(1);
            let mtg = limits
                .movestogo
                .map(|m| m.clamp(1, MAX_MOVES_TO_GO) as u64)
                .unwrap_or(moves_to_go.max(1));
            // the share for this move, plus most of the increment
            let mut soft = avail / mtg + inc * INC_SHARE.0 / INC_SHARE.1;
            // never plan to use more than SOFT_CAP of what is left on one move
            soft = soft.min(avail * SOFT_CAP.0 / SOFT_CAP.1).max(1);
            let mut hard = (soft * HARD_PER_SOFT)
                .min(avail * HARD_CAP.0 / HARD_CAP.1)
                .max(soft);
            if mtg == 1 {
                hard = hard.min(avail * LAST_MOVE_HARD_CAP.0 / LAST_MOVE_HARD_CAP.1);
            }
            soft = soft.min(hard);
            return TimeControl {
                start,
                soft: Some(ms(soft)),
                hard: Some(ms(hard)),
                fixed: false,
            };
        }
        TimeControl {
            start,
            soft: None,
            hard: None,
            fixed: false,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether a new iteration should not start: `scale` (per 100) of the
    /// soft limit has passed.
    pub fn stop_iterating(&self, scale: u64) -> bool {
        !self.fixed
            && self
                .soft
                .is_some_and(|s| self.start.elapsed() >= s * scale as u32 / 100)
    }
}

/// The share (per 100) of the soft limit before a new iteration, `share`
/// by the best move's stability, grown when the best score fell from the
/// last iteration's: by one per 100 per centipawn of the fall, at most
/// `FALLING_EVAL_MAX_SHARE`. Scores at or beyond `mate_bound` (either of
/// them) leave it as it is.
pub fn share_on_falling_score(share: u64, last: Option<i32>, score: i32, mate_bound: i32) -> u64 {
    match last {
        Some(last) if last.abs() < mate_bound && score.abs() < mate_bound => {
            let fall = (last - score).clamp(0, FALLING_EVAL_MAX_SHARE) as u64;
            share * (100 + fall) / 100
        }
        _ => share,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_falling_score_gets_more_time() {
        let mate = 30000;
        assert_eq!(share_on_falling_score(80, None, 10, mate), 80);
        // rising or equal: unchanged
        assert_eq!(share_on_falling_score(80, Some(10), 40, mate), 80);
        assert_eq!(share_on_falling_score(80, Some(10), 10, mate), 80);
        // a fall of 25 cp: +25%
        assert_eq!(share_on_falling_score(80, Some(10), -15, mate), 100);
        // a large fall is capped
        let capped = 80 * (100 + FALLING_EVAL_MAX_SHARE as u64) / 100;
        assert_eq!(share_on_falling_score(80, Some(300), -300, mate), capped);
        // mate scores leave it alone
        assert_eq!(share_on_falling_score(80, Some(30005), 0, mate), 80);
        assert_eq!(share_on_falling_score(80, Some(0), -30005, mate), 80);
    }

    #[test]
    fn fewer_assumed_moves_to_go_give_a_move_more_time() {
        let l = Limits {
            time: [Some(10_000), Some(10_000)],
            inc: [100, 100],
            ..Default::default()
        };
        let soft = |mtg| {
            TimeControl::new(&l, 0, 0, mtg, Instant::now())
                .soft
                .unwrap()
                .as_millis()
        };
        // 10 s / 30 + 3/4 of 100 ms, and 10 s / 20 + 75 ms
        assert_eq!(soft(30), 333 + 75);
        assert_eq!(soft(20), 500 + 75);
        // a given movestogo wins over the assumption
        let l = Limits {
            movestogo: Some(10),
            ..l
        };
        let tc = TimeControl::new(&l, 0, 0, 20, Instant::now());
        assert_eq!(tc.soft.unwrap().as_millis(), 1000 + 75);
    }

    #[test]
    fn allocation_stays_inside_the_clock() {
        let l = Limits {
            time: [Some(1000), Some(1000)],
            inc: [0, 0],
            ..Default::default()
        };
        let tc = TimeControl::new(&l, 0, 50, 30, Instant::now());
        let hard = tc.hard.unwrap().as_millis() as u64;
        assert!(hard <= 800, "{hard}");
        assert!(tc.soft.unwrap() <= tc.hard.unwrap());
        let l = Limits {
            time: [Some(5000), Some(5000)],
            movestogo: Some(1),
            ..Default::default()
        };
        let tc = TimeControl::new(&l, 1, 50, 30, Instant::now());
        assert!(tc.hard.unwrap().as_millis() as u64 <= 4950 * 9 / 10);
        let l = Limits {
            movetime: Some(100),
            ..Default::default()
        };
        let tc = TimeControl::new(&l, 0, 10, 30, Instant::now());
        assert_eq!(tc.hard.unwrap().as_millis(), 90);
    }
}
