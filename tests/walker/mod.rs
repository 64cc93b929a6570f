//! The naive move walker the table tests compare against: it follows every
//! Betza rule square by square over the board shape, with no tables.

#![allow(dead_code)]

use chimera::geometry::Shape;
use chimera::variant::WHITE;
use chimera::variant::betza::MoveRule;

pub fn has(x: u128, sq: usize) -> bool {
    x >> sq & 1 != 0
}

/// Naive targets of a piece with `rules` of colour `color` on `sq`:
/// (quiet, capture, en passant). `initial`: whether the `i` rules apply.
pub fn naive_targets(
    shape: &Shape,
    rules: &[MoveRule],
    color: usize,
    sq: usize,
    occ: u128,
    initial: bool,
) -> (u128, u128, u128) {
    let (mut quiet, mut capt, mut ep) = (0u128, 0u128, 0u128);
    for r in rules {
        if r.modes.initial && !initial {
            continue;
        }
        for &(dx, dy) in &r.vectors {
            let dy = if color == WHITE { dy } else { -dy };
            if r.range == 1 {
                let Some(t) = shape.offset(sq, dx, dy) else {
                    continue;
                };
                if r.modes.ep {
                    ep |= 1 << t;
                }
                if has(occ, t) {
                    if r.modes.capture {
                        capt |= 1 << t;
                    }
                } else if r.modes.quiet {
                    quiet |= 1 << t;
                }
                continue;
            }
            let mut cur = sq;
            let mut steps = 0;
            while r.range == 0 || steps < r.range {
                let Some(t) = shape.offset(cur, dx, dy) else {
                    break;
                };
                steps += 1;
                if has(occ, t) {
                    if r.modes.capture {
                        capt |= 1 << t;
                    }
                    break;
                }
                if r.modes.quiet {
                    quiet |= 1 << t;
                }
                cur = t;
            }
        }
    }
    (quiet, capt, ep)
}

/// Squares a piece captures on (could capture on) from `sq` with the board
/// `occ`: the target counts as occupied; initial-only rules never capture.
pub fn naive_attacks_square(
    shape: &Shape,
    rules: &[MoveRule],
    color: usize,
    from: usize,
    target: usize,
    occ: u128,
) -> bool {
    let (_, capt, _) = naive_targets(shape, rules, color, from, occ | 1 << target, false);
    has(capt, target)
}
