//! Time controls as cutechess-cli writes them (`tc=40/60+0.5`,
//! `tc=1:30+1`, `tc=inf`, `st=2`, `depth=8`, `nodes=20000`,
//! `timemargin=50`) and the clock of one side.

/// What limits an engine's moves. Times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// moves per session (0: the whole game)
    pub moves: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
    /// no clock (`tc=inf`, or only a depth or node limit)
    pub infinite: bool,
    /// fixed time per move (`st=`)
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// how far an engine may go over its time before it loses
    pub margin_ms: u64,
    /// without a clock: how long a move may take before the engine counts
    /// as hung (0: 60 s)
    pub hang_ms: u64,
}

fn seconds(s: &str) -> Option<f64> {
    let v = match s.split_once(':') {
        Some((m, sec)) => m.parse::<f64>().ok()? * 60.0 + sec.parse::<f64>().ok()?,
        None => s.parse::<f64>().ok()?,
    };
    (v.is_finite() && (0.0..1e9).contains(&v)).then_some(v)
}

impl TimeControl {
    /// Reads the `tc=` value: `[moves/]time[+increment]` (time in seconds
    /// or minutes:seconds), or `inf`.
    pub fn set_tc(&mut self, s: &str) -> Result<(), String> {
        let bad = || format!("bad time control '{s}' (expected [moves/]time[+inc] or inf)");
        if s == "inf" || s == "infinite" {
            self.infinite = true;
            return Ok(());
        }
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (m.parse::<u32>().map_err(|_| bad())?, r),
            None => (0, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b).ok_or_else(bad)?, seconds(i).ok_or_else(bad)?),
            None => (seconds(rest).ok_or_else(bad)?, 0.0),
        };
        if base <= 0.0 && inc <= 0.0 {
            return Err(bad());
        }
        self.moves = moves;
        self.base_ms = (base * 1000.0).round() as u64;
        self.inc_ms = (inc * 1000.0).round() as u64;
        self.infinite = false;
        self.movetime_ms = None;
        Ok(())
    }

    pub fn set_st(&mut self, s: &str) -> Result<(), String> {
        let v = seconds(s)
            .filter(|&v| v > 0.0)
            .ok_or_else(|| format!("bad st '{s}' (seconds per move)"))?;
        self.movetime_ms = Some((v * 1000.0).round() as u64);
        Ok(())
    }

    /// Without a clock, how long a move may take before the engine counts
    /// as hung.
    pub fn hang(&self) -> std::time::Duration {
        std::time::Duration::from_millis(if self.hang_ms == 0 {
            60_000
        } else {
            self.hang_ms
        })
    }

    /// Whether there is a clock that can run out.
    pub fn has_clock(&self) -> bool {
        !self.infinite && (self.movetime_ms.is_some() || self.base_ms > 0 || self.inc_ms > 0)
    }

    /// Whether anything limits a move at all.
    pub fn is_limited(&self) -> bool {
        self.has_clock() || self.depth.is_some() || self.nodes.is_some()
    }

    /// The PGN `TimeControl` tag.
    pub fn pgn_tag(&self) -> String {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        if let Some(st) = self.movetime_ms {
            return format!("{}/move", secs(st));
        }
        if !self.has_clock() {
            return "-".into();
        }
        let mut s = String::new();
        if self.moves > 0 {
            s.push_str(&format!("{}/", self.moves));
        }
        s.push_str(&secs(self.base_ms));
        if self.inc_ms > 0 {
            s.push_str(&format!("+{}", secs(self.inc_ms)));
        }
        s
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    pub tc: TimeControl,
    /// time left (ms); negative once the flag has fallen
    pub left_ms: i64,
    pub moves_made: u32,
}

impl Clock {
    pub fn new(tc: &TimeControl) -> Clock {
        Clock {
            tc: tc.clone(),
            left_ms: tc.base_ms as i64,
            moves_made: 0,
        }
    }

    /// Moves to the next time control (moves per session only).
    pub fn movestogo(&self) -> Option<u32> {
        (self.tc.moves > 0).then(|| self.tc.moves - self.moves_made % self.tc.moves)
    }

    /// How long the engine may think on this move before it loses on
    /// time, margin included; None without a clock.
    pub fn allowed_ms(&self) -> Option<u64> {
        if !self.tc.has_clock() {
            return None;
        }
        let t = match self.tc.movetime_ms {
            Some(st) => st as i64,
            None => self.left_ms,
        };
        Some((t.max(0) as u64) + self.tc.margin_ms)
    }

    /// Charges a move that took `used_ms`; false if the flag fell.
    pub fn spend(&mut self, used_ms: u64) -> bool {
        self.moves_made += 1;
        if !self.tc.has_clock() {
            return true;
        }
        if let Some(st) = self.tc.movetime_ms {
            return used_ms <= st + self.tc.margin_ms;
        }
        self.left_ms -= used_ms as i64;
        if self.left_ms + (self.tc.margin_ms as i64) < 0 {
            return false;
        }
        self.left_ms = self.left_ms.max(0) + self.tc.inc_ms as i64;
        if self.tc.moves > 0 && self.moves_made.is_multiple_of(self.tc.moves) {
            self.left_ms += self.tc.base_ms as i64;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_spend() {
        let mut tc = TimeControl::default();
        tc.set_tc("40/1:30+0.5").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (40, 90_000, 500));
        assert_eq!(tc.pgn_tag(), "40/90+0.5");
        tc.set_tc("10+0.1").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (0, 10_000, 100));
        assert!(tc.set_tc("x+1").is_err());
        assert!(tc.set_tc("0").is_err());
        let mut c = Clock::new(&tc);
        assert!(c.spend(1000));
        assert_eq!(c.left_ms, 9100);
        assert!(!c.spend(9200));
        let mut tc = TimeControl::default();
        tc.set_tc("2/1").unwrap();
        let mut c = Clock::new(&tc);
        assert_eq!(c.movestogo(), Some(2));
        assert!(c.spend(400));
        assert_eq!(c.movestogo(), Some(1));
        assert!(c.spend(400));
        assert_eq!(c.left_ms, 1200);
        let mut tc = TimeControl::default();
        tc.set_tc("inf").unwrap();
        tc.depth = Some(5);
        assert!(!tc.has_clock() && tc.is_limited());
        assert_eq!(Clock::new(&tc).allowed_ms(), None);
    }
}
