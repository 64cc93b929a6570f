//! Match statistics shared by `selfplay` and `match`: W-L-D tallies, the
//! Elo difference with its 95% error bar, the likelihood of superiority,
//! and the sequential probability ratio test (SPRT) in its generalised,
//! normal-approximation form (GSPRT, logistic Elo), over single games
//! (trinomial) or over game pairs (pentanomial).

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// from the first player's point of view
    pub wins: usize,
    pub losses: usize,
    pub draws: usize,
}

/// Expected score of an Elo difference (logistic).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference of an expected score; +-infinity at 1 and 0, as
/// cutechess-cli prints it.
pub fn elo_of_score(s: f64) -> f64 {
    // + 0.0 turns -0 into 0
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

/// The generalised log-likelihood ratio of H1 (mean score `s1`) against
/// H0 (`s0`) for observations `(value, count)` of a score in 0..=1, in the
/// normal approximation: N (s1 - s0) (2 mean - s0 - s1) / (2 variance).
pub fn gsprt_llr(observations: &[(f64, usize)], elo0: f64, elo1: f64) -> f64 {
    let n: usize = observations.iter().map(|&(_, c)| c).sum();
    if n == 0 {
        return 0.0;
    }
    let nf = n as f64;
    let mean = observations.iter().map(|&(x, c)| x * c as f64).sum::<f64>() / nf;
    let var = observations
        .iter()
        .map(|&(x, c)| c as f64 * (x - mean).powi(2))
        .sum::<f64>()
        / nf;
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    nf * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// SPRT bounds: (lower, upper) = (ln(beta / (1 - alpha)), ln((1 - beta) / alpha)).
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

impl Tally {
    pub fn games(&self) -> usize {
        self.wins + self.losses + self.draws
    }

    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The same games from the other player's side.
    pub fn flipped(&self) -> Tally {
        Tally {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Score fraction of the first player (NaN without games).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// Elo difference and its 95% error bar, unclamped as cutechess-cli
    /// prints them: a 100% score is `inf +/- nan`.
    pub fn elo_raw(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let sd = (var / n).sqrt();
        let margin = (elo_of_score(s + 1.96 * sd) - elo_of_score(s - 1.96 * sd)) / 2.0;
        (elo_of_score(s), margin)
    }

    /// Elo difference and its 95% error bar, clamped to finite numbers
    /// (normal approximation).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let s = self.score().clamp(1e-3, 1.0 - 1e-3);
        let w = self.wins as f64 / n;
        let d = self.draws as f64 / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + (1.0 - w - d) * s.powi(2)) / n;
        let elo = |p: f64| elo_of_score(p.clamp(1e-3, 1.0 - 1e-3));
        let sd = var.sqrt();
        (elo(s), (elo(s + 1.96 * sd) - elo(s - 1.96 * sd)) / 2.0)
    }

    /// Likelihood of superiority (0..1; NaN without decisive games).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// GSPRT log-likelihood ratio over single games (trinomial).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        gsprt_llr(
            &[(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)],
            elo0,
            elo1,
        )
    }
}

/// Game pairs by their total points for the first player: index 0 = 0
/// points (two losses) .. 4 = 2 points (two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [usize; 5]);

impl Pentanomial {
    /// Adds a pair with `points` (0, 0.5, .., 2) for the first player.
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    pub fn pairs(&self) -> usize {
        self.0.iter().sum()
    }

    /// GSPRT log-likelihood ratio over game pairs.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let obs: Vec<(f64, usize)> = (0..5).map(|i| (i as f64 / 4.0, self.0[i])).collect();
        gsprt_llr(&obs, elo0, elo1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_los() {
        let t = Tally {
            wins: 10,
            losses: 10,
            draws: 20,
        };
        let (e, err) = t.elo();
        assert!(e.abs() < 1e-9);
        assert!(err > 0.0);
        assert!((t.los() - 0.5).abs() < 1e-9);
        // 75% is +190.85 Elo (the logistic table)
        let t = Tally {
            wins: 3,
            losses: 1,
            draws: 0,
        };
        assert!((t.elo_raw().0 - 190.85).abs() < 0.01);
        // all wins: cutechess-cli prints `inf +/- nan`
        let t = Tally {
            wins: 4,
            losses: 0,
            draws: 0,
        };
        let (e, m) = t.elo_raw();
        assert!(e.is_infinite() && m.is_nan());
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
    }

    #[test]
    fn gsprt_matches_a_published_example() {
        // W 4307 L 4063 D 8620, elo0 0, elo1 3: LLR 2.99 (the GSPRT example
        // of a public SPRT calculator's README)
        let t = Tally {
            wins: 4307,
            losses: 4063,
            draws: 8620,
        };
        assert!(
            (t.llr(0.0, 3.0) - 2.99).abs() < 0.005,
            "{}",
            t.llr(0.0, 3.0)
        );
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
    }

    #[test]
    fn pentanomial_llr_sign() {
        let mut p = Pentanomial::default();
        for _ in 0..50 {
            p.add(1.5);
            p.add(1.0);
        }
        for _ in 0..20 {
            p.add(0.5);
        }
        assert_eq!(p.pairs(), 120);
        assert!(p.llr(0.0, 10.0) > 0.0);
        let mut q = Pentanomial::default();
        for _ in 0..100 {
            q.add(1.0);
        }
        // no spread: no evidence either way
        assert_eq!(q.llr(0.0, 10.0), 0.0);
    }
}
