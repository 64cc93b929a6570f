//! The results as cutechess-cli prints them, line for line, so that
//! scripts written for it read ours: `Score of A vs B: W - L - D  [0.xxx] N`,
//! `Elo difference: X +/- Y, LOS: Z %, DrawRatio: W %`, `SPRT: llr ...`,
//! a ranking table for more than two engines, and per engine how its
//! games ended. Four-player Free-For-All adds a table of placements and
//! points per engine.

use std::collections::BTreeMap;

use super::args::Sprt;
use crate::tools::stats::{Pentanomial, Tally, sprt_bounds};

/// A number as C's printf prints it with `%.Nf` (`inf`, `nan`).
pub fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        format!("{x:.decimals$}")
    }
}

/// Three significant digits without trailing zeros (C's `%.3g`).
pub fn g3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return fixed(x, 0);
    }
    let mag = x.abs().log10().floor() as i32;
    let decimals = (2 - mag).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `W - L - D  [0.xxx] N`
pub fn wld(t: &Tally) -> String {
    format!(
        "{} - {} - {}  [{}] {}",
        t.wins,
        t.losses,
        t.draws,
        fixed(t.score(), 3),
        t.games()
    )
}

/// `Elo difference: X +/- Y, LOS: Z %, DrawRatio: W %`
pub fn elo_line(t: &Tally) -> String {
    let (e, m) = t.elo_raw();
    format!(
        "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
        fixed(e, 1),
        fixed(m, 1),
        fixed(100.0 * t.los(), 1),
        fixed(100.0 * t.draws as f64 / t.games() as f64, 1)
    )
}

/// What the SPRT says: Some(true) H1 accepted, Some(false) H0 accepted.
pub fn sprt_decision(s: &Sprt, p: &Pentanomial) -> Option<bool> {
    let llr = p.llr(s.elo0, s.elo1);
    let (lo, hi) = sprt_bounds(s.alpha, s.beta);
    if llr >= hi {
        Some(true)
    } else if llr <= lo {
        Some(false)
    } else {
        None
    }
}

/// `SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94` (and the decision).
pub fn sprt_line(s: Option<&Sprt>, p: &Pentanomial) -> String {
    let Some(s) = s else {
        return "SPRT: llr 0 (0.0%), lbound -inf, ubound inf".into();
    };
    let llr = p.llr(s.elo0, s.elo1);
    let (lo, hi) = sprt_bounds(s.alpha, s.beta);
    let pct = if llr >= 0.0 { llr / hi } else { -llr / lo } * 100.0;
    let mut line = format!(
        "SPRT: llr {} ({}%), lbound {}, ubound {}",
        g3(llr),
        fixed(pct, 1),
        fixed(lo, 2),
        fixed(hi, 2)
    );
    match sprt_decision(s, p) {
        Some(true) => line.push_str(" - H1 was accepted"),
        Some(false) => line.push_str(" - H0 was accepted"),
        None => {}
    }
    line
}

/// One engine's standing in a tournament.
pub struct Standing<'a> {
    pub name: &'a str,
    pub tally: Tally,
}

/// The ranking table of a tournament (more than two engines).
pub fn ranking(standings: &[Standing]) -> String {
    let mut order: Vec<&Standing> = standings.iter().collect();
    order.sort_by(|a, b| {
        let (sa, sb) = (a.tally.score(), b.tally.score());
        sb.partial_cmp(&sa).unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut s = format!(
        "{:>4} {:<25} {:>7} {:>7} {:>7} {:>7} {:>7} \n",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    );
    for (i, st) in order.iter().enumerate() {
        let t = &st.tally;
        let (e, m) = t.elo_raw();
        s.push_str(&format!(
            "{:>4} {:<25} {:>7} {:>7} {:>7} {:>6}% {:>6}% \n",
            i + 1,
            st.name,
            fixed(e, 0),
            fixed(m, 0),
            t.games(),
            fixed(100.0 * t.score(), 1),
            fixed(100.0 * t.draws as f64 / t.games() as f64, 1)
        ));
    }
    s
}

/// One engine's Free-For-All results, over the seats it held.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FfaStanding {
    /// seats held (two per game for each of two engines)
    pub seats: usize,
    /// sum of placement scores (1st 1, 2nd 2/3, 3rd 1/3, 4th 0)
    pub placement: f64,
    /// sum of final points
    pub points: i64,
    /// seats that finished 1st, 2nd, 3rd, 4th (ties: the best place shared)
    pub places: [usize; 4],
}

impl FfaStanding {
    /// Adds a seat's result: its placement score, its points, and how many
    /// seats scored more.
    pub fn add(&mut self, placement: f64, points: i32, above: usize) {
        self.seats += 1;
        self.placement += placement;
        self.points += i64::from(points);
        self.places[above.min(3)] += 1;
    }

    fn mean(&self, x: f64) -> f64 {
        if self.seats == 0 {
            0.0
        } else {
            x / self.seats as f64
        }
    }
}

/// The Free-For-All table: per engine its mean placement score and mean
/// final points per seat, and its places; best placement first.
pub fn ffa_table(names: &[String], st: &[FfaStanding]) -> String {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (st[a].mean(st[a].placement), st[b].mean(st[b].placement));
        y.partial_cmp(&x).unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut s = format!(
        "{:>4} {:<25} {:>7} {:>9} {:>7} {:>5} {:>5} {:>5} {:>5} \n",
        "Rank", "Name", "Seats", "Placement", "Points", "1st", "2nd", "3rd", "4th"
    );
    for (rank, &i) in order.iter().enumerate() {
        let t = &st[i];
        s.push_str(&format!(
            "{:>4} {:<25} {:>7} {:>9} {:>7} {:>5} {:>5} {:>5} {:>5} \n",
            rank + 1,
            names[i],
            t.seats,
            fixed(t.mean(t.placement), 3),
            fixed(t.mean(t.points as f64), 1),
            t.places[0],
            t.places[1],
            t.places[2],
            t.places[3]
        ));
    }
    s
}

/// Per engine: how its games ended (`"Win: White mates": 3`).
pub fn outcomes(names: &[String], ends: &[BTreeMap<String, usize>]) -> String {
    let mut s = String::new();
    for (n, e) in names.iter().zip(ends) {
        s.push_str(&format!("Player: {n}\n"));
        for (k, c) in e {
            s.push_str(&format!("   \"{k}\": {c}\n"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(w: usize, l: usize, d: usize) -> Tally {
        Tally {
            wins: w,
            losses: l,
            draws: d,
        }
    }

    #[test]
    fn lines_as_cutechess_prints_them() {
        // lines copied from cutechess-cli 1.5.1 runs on the same results
        assert_eq!(wld(&t(1, 0, 0)), "1 - 0 - 0  [1.000] 1");
        assert_eq!(wld(&t(2, 2, 0)), "2 - 2 - 0  [0.500] 4");
        assert_eq!(
            elo_line(&t(4, 0, 0)),
            "Elo difference: inf +/- nan, LOS: 97.7 %, DrawRatio: 0.0 %"
        );
        assert_eq!(
            elo_line(&t(0, 0, 4)),
            "Elo difference: 0.0 +/- 0.0, LOS: nan %, DrawRatio: 100.0 %"
        );
        assert_eq!(
            sprt_line(None, &Pentanomial::default()),
            "SPRT: llr 0 (0.0%), lbound -inf, ubound inf"
        );
        let table = ranking(&[
            Standing {
                name: "B",
                tally: t(0, 0, 2),
            },
            Standing {
                name: "Fairy-Max 5.0b",
                tally: t(0, 0, 3),
            },
        ]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "Rank Name                          Elo     +/-   Games   Score    Draw "
        );
        assert_eq!(
            lines[1],
            "   1 B                               0       0       2   50.0%  100.0% "
        );
        assert_eq!(g3(-0.0125), "-0.0125");
        assert_eq!(g3(2.944), "2.94");
        assert_eq!(g3(12.34), "12.3");
    }

    #[test]
    fn ffa_table_ranks_by_placement() {
        let mut a = FfaStanding::default();
        a.add(1.0, 40, 0);
        a.add(1.0 / 3.0, 5, 2);
        let mut b = FfaStanding::default();
        b.add(2.0 / 3.0, 20, 1);
        b.add(0.0, 0, 3);
        let t = ffa_table(&["B".into(), "A".into()], &[b, a]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            "Rank Name                        Seats Placement  Points   1st   2nd   3rd   4th "
        );
        assert_eq!(
            lines[1],
            "   1 A                               2     0.667    22.5     1     0     1     0 "
        );
        assert!(lines[2].starts_with("   2 B  "), "{t}");
        assert!(lines[2].contains("0.333    10.0"), "{t}");
    }

    #[test]
    fn sprt_decides() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut p = Pentanomial::default();
        for _ in 0..200 {
            p.add(2.0);
            p.add(1.0);
            p.add(0.5);
        }
        assert_eq!(sprt_decision(&s, &p), Some(true));
        assert!(sprt_line(Some(&s), &p).ends_with("- H1 was accepted"));
        let mut q = Pentanomial::default();
        for _ in 0..200 {
            q.add(0.0);
            q.add(1.0);
            q.add(1.5);
        }
        assert_eq!(sprt_decision(&s, &q), Some(false));
    }
}
