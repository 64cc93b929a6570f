//! UCI's `go`, read once for both dialects: two players (`wtime btime winc
//! binc`) and four (`rtime btime ytime gtime`, `rinc binc yinc ginc`;
//! `btime` is Blue's there). The other words are the same: `movestogo
//! depth nodes movetime mate infinite ponder searchmoves`.
//!
//! Every `go` ends in a `bestmove` unless it says `infinite` (or waits in
//! `ponder` for a `ponderhit`): a bad parameter is reported and left out,
//! and what is left is bounded here:
//! - a clock below zero is a clock at zero: the engine moves at once;
//! - the mover's clock missing while others are given: it is said, and
//!   the smallest clock given is taken for the mover's;
//! - no limit at all (a bare `go`, or every limit refused): it is said,
//!   and the engine searches `DEFAULT_MOVETIME_MS`;
//! - `mate N`: the search ends at a mate in N moves or less, or after
//!   depth `mate_depth(N, players)` without one (within the other limits).

use crate::base::Move;
use crate::search::Limits;

/// The clock words of a dialect, by seat.
pub struct Clocks {
    pub time: &'static [&'static str],
    pub inc: &'static [&'static str],
}

pub const TWO_PLAYER: Clocks = Clocks {
    time: &["wtime", "btime"],
    inc: &["winc", "binc"],
};

pub const FOUR_PLAYER: Clocks = Clocks {
    time: &["rtime", "btime", "ytime", "gtime"],
    inc: &["rinc", "binc", "yinc", "ginc"],
};

/// The time a `go` without any limit searches.
pub const DEFAULT_MOVETIME_MS: u64 = 5000;
/// The deepest `depth` taken.
pub const MAX_DEPTH: i64 = 127;
/// The longest mate asked for with `mate`.
pub const MAX_MATE: i64 = 60;

/// The depth a `mate N` search of a game of `sides` players stops at
/// without finding one: the mate's own plies (N rounds of `sides` plies)
/// and a margin for the reductions of the search.
pub fn mate_depth(moves: u32, sides: usize) -> i32 {
    (sides as i32 * moves as i32 + 4).min(MAX_DEPTH as i32)
}

const WORDS: &[&str] = &[
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// A `go` read: its limits, the errors (each a parameter left out) and
/// notes on how the limits were completed.
#[derive(Debug, Default)]
pub struct Go {
    pub limits: Limits,
    pub errors: Vec<String>,
    pub notes: Vec<String>,
}

/// A number token: an optional `-` and digits; more digits than an i64
/// holds saturate (they are out of every range anyway).
fn number(tok: &str) -> Option<i64> {
    let digits = tok.strip_prefix('-').unwrap_or(tok);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(tok.parse::<i64>().unwrap_or(if tok.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

fn clip(s: &str) -> String {
    super::clip(s, 40)
}

/// Reads the parameters of `go` (the words after it) for the player
/// `mover` of a game whose clock words are `clocks`; the mover's clock
/// and increment go to slot `slot` of the limits (the slot the search
/// reads for the side to move). `searchmove` reads a move of
/// `searchmoves`.
pub fn read_go(
    args: &[&str],
    clocks: &Clocks,
    mover: usize,
    slot: usize,
    multipv: usize,
    searchmove: &dyn Fn(&str) -> Result<Move, String>,
) -> Go {
    let mut go = Go {
        limits: Limits {
            multipv,
            ..Default::default()
        },
        ..Default::default()
    };
    let is_word =
        |t: &str| WORDS.contains(&t) || clocks.time.contains(&t) || clocks.inc.contains(&t);
    // the clocks of every seat, as given (ms, below zero as zero)
    let mut times: Vec<Option<u64>> = vec![None; clocks.time.len()];
    let mut incs: Vec<Option<u64>> = vec![None; clocks.inc.len()];
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        i += 1;
        match word {
            "infinite" => {
                go.limits.infinite = true;
                continue;
            }
            "ponder" => {
                go.limits.ponder = true;
                continue;
            }
            "searchmoves" => {
                while i < args.len() && !is_word(args[i]) {
                    match searchmove(args[i]) {
                        Ok(m) => go.limits.searchmoves.push(m),
                        Err(e) => go
                            .errors
                            .push(format!("go searchmoves: {} (left out)", e.trim())),
                    }
                    i += 1;
                }
                continue;
            }
            w if !is_word(w) => {
                go.errors
                    .push(format!("go: unknown parameter '{}' (left out)", clip(w)));
                continue;
            }
            _ => {}
        }
        let value = args.get(i).copied();
        let Some(n) = value.and_then(number) else {
            go.errors.push(match value {
                Some(v) => format!("go {word}: '{}' is not a number (left out)", clip(v)),
                None => format!("go {word}: the number is missing (left out)"),
            });
            // a value that is not the next parameter belongs to this one
            if value.is_some_and(|v| !is_word(v)) {
                i += 1;
            }
            continue;
        };
        i += 1;
        let mut range = |lo: i64, hi: i64| -> Option<i64> {
            if (lo..=hi).contains(&n) {
                Some(n)
            } else {
                go.errors.push(format!(
                    "go {word}: {} is not from {lo} to {hi} (left out)",
                    clip(value.unwrap_or(""))
                ));
                None
            }
        };
        if let Some(seat) = clocks.time.iter().position(|&t| t == word) {
            if n < 0 {
                go.notes.push(format!(
                    "go {word} {n}: a clock below zero is taken as zero"
                ));
            }
            times[seat] = Some(n.max(0) as u64);
        } else if let Some(seat) = clocks.inc.iter().position(|&t| t == word) {
            if let Some(v) = range(0, i64::MAX) {
                incs[seat] = Some(v as u64);
            }
        } else {
            match word {
                "movestogo" => go.limits.movestogo = range(1, 10_000).map(|v| v as u32),
                "depth" => go.limits.depth = range(1, MAX_DEPTH).map(|v| v as i32),
                "nodes" => go.limits.nodes = range(1, i64::MAX).map(|v| v as u64),
                "movetime" => go.limits.movetime = range(0, i64::MAX).map(|v| (v as u64).max(1)),
                _ => go.limits.mate = range(1, MAX_MATE).map(|v| v as u32),
            }
        }
    }
    go.limits.inc[slot] = incs.get(mover).copied().flatten().unwrap_or(0);
    go.limits.time[slot] = times.get(mover).copied().flatten();
    bound(&mut go, clocks, mover, slot, &times, &incs);
    go
}

/// Completes the limits so that the search ends (see the module's text).
fn bound(
    go: &mut Go,
    clocks: &Clocks,
    mover: usize,
    slot: usize,
    times: &[Option<u64>],
    incs: &[Option<u64>],
) {
    let l = &mut go.limits;
    if l.infinite {
        return;
    }
    if l.time[slot].is_none()
        && let Some((seat, t)) = times
            .iter()
            .enumerate()
            .filter_map(|(s, t)| t.map(|t| (s, t)))
            .min_by_key(|&(_, t)| t)
    {
        l.time[slot] = Some(t);
        l.inc[slot] = incs[seat].unwrap_or(0);
        go.notes.push(format!(
            "go: no {} for the side to move: using {} {t}, the smallest clock given",
            clocks.time.get(mover).copied().unwrap_or("clock"),
            clocks.time[seat]
        ));
    }
    if let Some(m) = l.mate
        && l.depth.is_none()
    {
        l.depth = Some(mate_depth(m, clocks.time.len()));
        go.notes.push(format!(
            "go mate {m}: searching until a mate in {m} is found, to depth {} at most",
            mate_depth(m, clocks.time.len())
        ));
    }
    let bounded =
        l.time[slot].is_some() || l.movetime.is_some() || l.depth.is_some() || l.nodes.is_some();
    if !bounded {
        l.movetime = Some(DEFAULT_MOVETIME_MS);
        go.notes.push(format!(
            "go: no limit given: searching {} s ('go infinite' searches until 'stop')",
            DEFAULT_MOVETIME_MS / 1000
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_move(s: &str) -> Result<Move, String> {
        Err(format!("'{s}' is not a move"))
    }

    fn two(args: &str, mover: usize) -> Go {
        let a: Vec<&str> = args.split_whitespace().collect();
        read_go(&a, &TWO_PLAYER, mover, mover, 1, &no_move)
    }

    fn four(args: &str, mover: usize) -> Go {
        let a: Vec<&str> = args.split_whitespace().collect();
        read_go(&a, &FOUR_PLAYER, mover, 0, 1, &no_move)
    }

    #[test]
    fn clocks_go_to_the_movers_slot() {
        let g = two("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5", 1);
        assert_eq!((g.limits.time[1], g.limits.inc[1]), (Some(2000), 20));
        assert_eq!(g.limits.movestogo, Some(5));
        assert!(g.errors.is_empty() && g.notes.is_empty(), "{g:?}");
        let g = four("rtime 1000 btime 2000 binc 50 ytime 3 depth 7", 1);
        assert_eq!(
            (g.limits.time[0], g.limits.inc[0], g.limits.depth),
            (Some(2000), 50, Some(7))
        );
        assert!(g.errors.is_empty(), "{:?}", g.errors);
    }

    #[test]
    fn every_go_is_bounded_unless_infinite() {
        for args in [
            "",
            "depth 99999999999999999999",
            "wtime",
            "foo",
            "movetime abc",
            "depth 0",
            "nodes -3",
            "searchmoves zz",
        ] {
            let g = two(args, 0);
            assert_eq!(g.limits.movetime, Some(DEFAULT_MOVETIME_MS), "go {args}");
            assert!(g.notes.iter().any(|n| n.contains("no limit")), "go {args}");
            assert_eq!(g.errors.is_empty(), args.is_empty(), "go {args}: {g:?}");
        }
        let g = two("infinite depth x", 0);
        assert!(g.limits.infinite && g.limits.movetime.is_none());
        assert_eq!(g.errors.len(), 1);
    }

    #[test]
    fn a_clock_below_zero_is_zero() {
        let g = four("rtime -5 btime -5 ytime -5 gtime -5", 2);
        assert_eq!(g.limits.time[0], Some(0));
        assert!(g.errors.is_empty());
        assert!(g.notes[0].contains("below zero"), "{:?}", g.notes);
        let g = two("wtime -1 btime 100", 0);
        assert_eq!(g.limits.time[0], Some(0));
    }

    #[test]
    fn a_missing_clock_for_the_mover_takes_the_smallest() {
        let g = four("rtime 1000 gtime 500 ginc 7", 1);
        assert_eq!((g.limits.time[0], g.limits.inc[0]), (Some(500), 7));
        assert!(g.notes[0].contains("no btime"), "{:?}", g.notes);
        let g = two("wtime 3000", 1);
        assert_eq!(g.limits.time[1], Some(3000));
        assert!(g.notes[0].contains("no btime"), "{:?}", g.notes);
    }

    #[test]
    fn mate_searches_end() {
        let g = two("mate 1", 0);
        assert_eq!(
            (g.limits.mate, g.limits.depth),
            (Some(1), Some(mate_depth(1, 2)))
        );
        assert!(g.limits.movetime.is_none());
        // a mate in N is N rounds of the players' moves, and a margin
        assert_eq!(
            (
                two("mate 2", 0).limits.depth,
                four("mate 2", 0).limits.depth
            ),
            (Some(8), Some(12))
        );
        let g = two("mate 3 depth 4", 0);
        assert_eq!(g.limits.depth, Some(4));
        let g = two("mate 0", 0);
        assert_eq!(g.limits.mate, None);
        assert_eq!(g.errors.len(), 1);
    }

    #[test]
    fn unreadable_values_are_named() {
        let g = four("wtime 5 rtime x movetime 300", 0);
        assert_eq!(g.limits.movetime, Some(300));
        assert_eq!(g.errors.len(), 3, "{:?}", g.errors);
        assert!(g.errors[0].contains("'wtime'") && g.errors[2].contains("'x'"));
        // a missing value before the next word does not eat it
        let g = two("wtime movetime 100", 0);
        assert_eq!(g.limits.movetime, Some(100));
        assert!(g.errors[0].contains("not a number"), "{:?}", g.errors);
    }
}
