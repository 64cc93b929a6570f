//! The legend's diagrams: where a piece moves on an empty board, read
//! from its Betza notation (the same rules the move generator is built
//! from). A square the piece reaches is marked by what it may do there:
//! move and capture, move only, capture only, or move only from its
//! first square (a pawn's long step).

use serde_json::{Value, json};

use crate::variant::betza;

/// The four-player pieces in Betza notation (Chess.com's rules: a pawn
/// steps one forward, two from its first rank, captures diagonally
/// forward).
pub const FOUR_PLAYER_BETZA: [&str; 6] =
    ["K", crate::variant::spec::PAWN_BETZA, "N", "B", "R", "Q"];

/// Half the diagram's width: a diagram is (2 * RADIUS + 1) squares wide,
/// room for a camel's (3, 1) leap; riders run to its edge.
const RADIUS: i32 = 3;

/// What a piece may do on a square of its diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Both,
    Move,
    Capture,
    First,
}

impl Mark {
    fn name(self) -> &'static str {
        match self {
            Mark::Both => "both",
            Mark::Move => "move",
            Mark::Capture => "capture",
            Mark::First => "first",
        }
    }
}

/// The diagram of a piece: `{"radius": 3, "cells": [[dx, dy, "both"], ...]}`
/// with dy > 0 forward for White; null if its Betza cannot be read.
pub fn diagram(betza: &str) -> Value {
    let Ok(rules) = betza::parse(betza) else {
        return Value::Null;
    };
    let mut cells: Vec<((i32, i32), Mark)> = Vec::new();
    for rule in &rules {
        let m = &rule.modes;
        let mark = match (m.quiet, m.capture || m.ep) {
            (true, _) if m.initial => Mark::First,
            (true, true) => Mark::Both,
            (true, false) => Mark::Move,
            (false, true) => Mark::Capture,
            (false, false) => continue,
        };
        let steps = if rule.range == 0 {
            RADIUS
        } else {
            rule.range as i32
        };
        for &(dx, dy) in &rule.vectors {
            for k in 1..=steps {
                let at = (dx * k, dy * k);
                if at.0.abs() > RADIUS || at.1.abs() > RADIUS {
                    break;
                }
                merge(&mut cells, at, mark);
            }
        }
    }
    cells.sort_by_key(|&((x, y), _)| (-y, x));
    let cells: Vec<Value> = cells
        .into_iter()
        .map(|((x, y), m)| json!([x, y, m.name()]))
        .collect();
    json!({"radius": RADIUS, "cells": cells})
}

/// Adds a mark to a square: a move-only and a capture-only rule reaching
/// the same square make it a square for both.
fn merge(cells: &mut Vec<((i32, i32), Mark)>, at: (i32, i32), mark: Mark) {
    match cells.iter_mut().find(|(c, _)| *c == at) {
        None => cells.push((at, mark)),
        Some((_, old)) => {
            *old = match (*old, mark) {
                (a, b) if a == b => a,
                (Mark::First, b) => b,
                (a, Mark::First) => a,
                _ => Mark::Both,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(betza: &str) -> Vec<(i32, i32, String)> {
        let d = diagram(betza);
        serde_json::from_value(d["cells"].clone()).unwrap()
    }

    #[test]
    fn a_knight_has_eight_squares() {
        let m = marks("N");
        assert_eq!(m.len(), 8);
        assert!(
            m.iter()
                .all(|(x, y, k)| x.abs() + y.abs() == 3 && k == "both")
        );
    }

    #[test]
    fn riders_run_to_the_edge_and_leaps_stay() {
        // a rook: 3 squares each way on a diagram of radius 3
        assert_eq!(marks("R").len(), 12);
        // a queen: 8 directions of 3
        assert_eq!(marks("Q").len(), 24);
        // the Wizard (FC): 4 diagonal steps and 8 camel leaps
        let w = marks("FC");
        assert_eq!(w.len(), 12);
        assert!(w.contains(&(3, 1, "both".into())) && !w.contains(&(2, 2, "both".into())));
    }

    #[test]
    fn a_pawn_moves_and_captures_apart() {
        let m = marks(FOUR_PLAYER_BETZA[1]);
        assert!(m.contains(&(0, 1, "move".into())));
        assert!(m.contains(&(0, 2, "first".into())));
        assert!(m.contains(&(1, 1, "capture".into())) && m.contains(&(-1, 1, "capture".into())));
        assert!(!m.iter().any(|(_, y, _)| *y < 0), "pawns never go back");
        assert_eq!(diagram("not betza!"), Value::Null);
    }
}
