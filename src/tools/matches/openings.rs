//! Openings: EPD and PGN files (`-openings file=... format=epd|pgn
//! order=random plies=N start=N`), the balanced sets shipped with Chimera
//! (used by default), and the generator that made them (`chimera match
//! -make-openings`, driven by `scripts/make-openings.sh`): short random
//! playouts from the start position, kept only where a fixed-depth search
//! scores them within a margin of equality. Four-player games start from
//! the 4PC start, or after a few random plies (`-openings plies=N`).

use crate::peers::four_player::FourPlayer;
use crate::peers::referee::{Referee, TwoPlayer};
use crate::rng::SplitMix64;

/// A start for a game: a position (None: the variant's start) and moves
/// played from it before the engines take over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Epd,
    Pgn,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    #[default]
    Sequential,
    Random,
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// the set shipped for the variant (the start position where none is)
    Builtin,
    /// the start position only
    None,
    File {
        path: String,
        format: Format,
        plies: Option<usize>,
    },
    /// four-player: this many random legal plies from the start
    Random { plies: usize },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Openings {
    pub source: Source,
    pub order: Order,
    /// the first opening used in sequential order (1-based)
    pub start: usize,
}

impl Default for Openings {
    fn default() -> Self {
        Openings {
            source: Source::Builtin,
            order: Order::Sequential,
            start: 1,
        }
    }
}

/// The balanced set shipped for a variant, as EPD.
pub fn builtin(variant: &str) -> Option<&'static str> {
    Some(match variant {
        "chess" | "cwda-fide-fide" => include_str!("../../../openings/chess.epd"),
        "omega" => include_str!("../../../openings/omega.epd"),
        "cwda-fide-clobberers" => include_str!("../../../openings/cwda-fide-clobberers.epd"),
        "cwda-fide-nutty" => include_str!("../../../openings/cwda-fide-nutty.epd"),
        "cwda-fide-rookies" => include_str!("../../../openings/cwda-fide-rookies.epd"),
        "cwda-clobberers-fide" => include_str!("../../../openings/cwda-clobberers-fide.epd"),
        "cwda-clobberers-clobberers" => {
            include_str!("../../../openings/cwda-clobberers-clobberers.epd")
        }
        "cwda-clobberers-nutty" => include_str!("../../../openings/cwda-clobberers-nutty.epd"),
        "cwda-clobberers-rookies" => {
            include_str!("../../../openings/cwda-clobberers-rookies.epd")
        }
        "cwda-nutty-fide" => include_str!("../../../openings/cwda-nutty-fide.epd"),
        "cwda-nutty-clobberers" => include_str!("../../../openings/cwda-nutty-clobberers.epd"),
        "cwda-nutty-nutty" => include_str!("../../../openings/cwda-nutty-nutty.epd"),
        "cwda-nutty-rookies" => include_str!("../../../openings/cwda-nutty-rookies.epd"),
        "cwda-rookies-fide" => include_str!("../../../openings/cwda-rookies-fide.epd"),
        "cwda-rookies-clobberers" => {
            include_str!("../../../openings/cwda-rookies-clobberers.epd")
        }
        "cwda-rookies-nutty" => include_str!("../../../openings/cwda-rookies-nutty.epd"),
        "cwda-rookies-rookies" => include_str!("../../../openings/cwda-rookies-rookies.epd"),
        _ => return None,
    })
}

/// Reads EPD: four FEN fields, then operations (`hmvc`, `fmvn` are used;
/// a full six-field FEN is read too). Every position is checked. An
/// operation `moves "e2e4 e7e5 ..."` (the shipped sets have it) gives the
/// way there from the start position: the game then starts from the
/// start with those moves, so engines without `setboard` can play it and
/// the PGN holds the whole game; the moves must lead to the position.
pub fn read_epd(text: &str, base: &TwoPlayer, origin: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 {
            return Err(format!(
                "{origin}:{}: expected a position (4 FEN fields)",
                i + 1
            ));
        }
        let num = |s: Option<&&str>| s.and_then(|x| x.trim_end_matches(';').parse::<u32>().ok());
        let (mut half, mut full) = (0, 1);
        if let (Some(h), Some(n)) = (num(f.get(4)), num(f.get(5))) {
            half = h;
            full = n;
        }
        for w in f.windows(2) {
            match w[0] {
                "hmvc" => half = num(Some(&w[1])).unwrap_or(half),
                "fmvn" => full = num(Some(&w[1])).unwrap_or(full),
                _ => {}
            }
        }
        let fen = format!("{} {} {} {} {half} {full}", f[0], f[1], f[2], f[3]);
        let at = |e: String| format!("{origin}:{}: {e}", i + 1);
        base.fresh(Some(&fen)).map_err(at)?;
        let path = line
            .split_once(" moves \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(m, _)| m);
        match path {
            Some(m) => {
                let mut r = base.fresh(None).map_err(at)?;
                for mv in m.split_whitespace() {
                    r.play(mv).map_err(at)?;
                }
                let key = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
                if key(&r.fen()) != key(&fen) {
                    return Err(at(format!("the moves lead to {}, not to the FEN", r.fen())));
                }
                out.push(Opening {
                    fen: None,
                    moves: r.moves().to_vec(),
                });
            }
            None => out.push(Opening {
                fen: Some(fen),
                moves: Vec::new(),
            }),
        }
    }
    Ok(out)
}

/// Reads the games of a PGN file as openings (at most `plies` moves each).
/// Games whose `[Variant]` is another variant are skipped.
pub fn read_pgn(
    text: &str,
    base: &TwoPlayer,
    plies: Option<usize>,
    origin: &str,
) -> Result<Vec<Opening>, String> {
    let variant = base.variant();
    let norm = |v: &str| match v.to_ascii_lowercase().as_str() {
        "standard" | "normal" | "chess" => "chess".to_string(),
        o => o.to_string(),
    };
    let want = norm(variant);
    let mut out = Vec::new();
    for g in crate::movetext::games(text).map_err(|e| format!("{origin}: {e}"))? {
        let at = |e: String| format!("{origin}: game at line {}: {e}", g.line);
        if g.tag("Variant").is_some_and(|v| norm(v) != want) {
            continue;
        }
        let fen = g.tag("FEN").map(str::to_string);
        let mut r = base.fresh(fen.as_deref()).map_err(at)?;
        for t in crate::movetext::tokens(&g.movetext).map_err(at)? {
            if plies.is_some_and(|p| r.moves().len() >= p) || r.ending().is_some() {
                break;
            }
            r.play(&t).map_err(at)?;
        }
        out.push(Opening {
            fen,
            moves: r.moves().to_vec(),
        });
    }
    Ok(out)
}

/// Loads the openings for the variant of `base` (a game at its start).
pub fn load(o: &Openings, base: &TwoPlayer) -> Result<Vec<Opening>, String> {
    let variant = base.variant();
    let list = match &o.source {
        Source::None => vec![Opening::default()],
        Source::Builtin => match builtin(variant) {
            Some(text) => read_epd(text, base, &format!("openings/{variant}.epd"))?,
            None => vec![Opening::default()],
        },
        Source::File {
            path,
            format,
            plies,
        } => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read openings '{path}': {e}"))?;
            let mut v = match format {
                Format::Epd => read_epd(&text, base, path)?,
                Format::Pgn => read_pgn(&text, base, *plies, path)?,
            };
            if let Some(p) = plies {
                for op in &mut v {
                    op.moves.truncate(*p);
                }
            }
            if v.is_empty() {
                return Err(format!("no openings for {variant} in '{path}'"));
            }
            v
        }
        Source::Random { .. } => {
            return Err(format!(
                "{variant}: random openings are for four-player variants"
            ));
        }
    };
    Ok(list)
}

/// The openings of a four-player match: the start, the positions of a
/// file (one FEN4 a line; `#` starts a comment), or `count` different
/// playouts of random legal plies from the start (none ending the game),
/// seeded.
pub fn load_four(
    o: &Openings,
    base: &FourPlayer,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let plies = match &o.source {
        Source::Builtin | Source::None => return Ok(vec![Opening::default()]),
        Source::Random { plies } => *plies,
        Source::File { path, .. } => return read_fen4_file(path, base),
    };
    let mut rng = SplitMix64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count.max(1) && tries < 50 * count.max(1) {
        tries += 1;
        let mut r = base.fresh_game(None)?;
        for _ in 0..plies {
            let Some(g) = r.game4() else { break };
            let p = g.position();
            let legal = p.legal_moves();
            if legal.is_empty() || r.ending().is_some() {
                break;
            }
            let text = p.move_to_string(legal[rng.index(legal.len())]);
            r.play(&text)?;
        }
        if r.ending().is_none() && r.moves().len() == plies && seen.insert(r.fen()) {
            out.push(Opening {
                fen: None,
                moves: r.moves().to_vec(),
            });
        }
    }
    if out.is_empty() {
        return Err(format!("no random openings of {plies} plies were found"));
    }
    Ok(out)
}

/// Reads a file of FEN4 positions, one a line, each checked by the rules.
fn read_fen4_file(path: &str, base: &FourPlayer) -> Result<Vec<Opening>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read openings '{path}': {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let r = base
            .fresh_game(Some(line))
            .map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        if r.ending().is_some() {
            return Err(format!("{path}:{}: the game is already over", i + 1));
        }
        out.push(Opening {
            fen: Some(line.to_string()),
            moves: Vec::new(),
        });
    }
    if out.is_empty() {
        return Err(format!("no FEN4 positions in '{path}'"));
    }
    Ok(out)
}

/// Picks openings one after another: in file order from `start`, or at
/// random (seeded).
pub struct Picker {
    list: Vec<Opening>,
    order: Order,
    next: usize,
    rng: SplitMix64,
}

impl Picker {
    pub fn new(list: Vec<Opening>, o: &Openings, seed: u64) -> Picker {
        let n = list.len().max(1);
        Picker {
            list,
            order: o.order,
            next: (o.start.max(1) - 1) % n,
            rng: SplitMix64(seed),
        }
    }

    pub fn pick(&mut self) -> Opening {
        if self.list.is_empty() {
            return Opening::default();
        }
        match self.order {
            Order::Random => self.list[self.rng.below(self.list.len() as u64) as usize].clone(),
            Order::Sequential => {
                let o = self.list[self.next].clone();
                self.next = (self.next + 1) % self.list.len();
                o
            }
        }
    }
}

/// Settings of the opening generator.
#[derive(Clone, Debug)]
pub struct MakeSettings {
    pub variant: String,
    pub count: usize,
    /// random plies from the start
    pub plies: usize,
    /// search depth for the balance test
    pub depth: i32,
    /// largest |score| kept, centipawns
    pub margin: i32,
    pub seed: u64,
}

/// Makes a balanced opening set: random playouts of `plies` plies, each
/// searched to `depth` and kept if the score is within `margin`; returns
/// EPD lines (with the score as a comment operation).
pub fn make(
    s: &MakeSettings,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<String>, String> {
    use crate::search::{Engine, Limits, ScoreKind};
    let mut rng = SplitMix64(s.seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut engine = Engine::new();
    engine.set_hash(16);
    engine.set_threads(1);
    engine.move_overhead = 0;
    let mut tries = 0;
    let base = TwoPlayer::new(&s.variant, None, &[])?;
    while out.len() < s.count && tries < s.count * 50 {
        tries += 1;
        let mut r = base.fresh(None)?;
        for _ in 0..s.plies {
            let legal = r.game().legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            let text = r.game().name(m);
            r.play(&text)?;
            if r.ending().is_some() {
                break;
            }
        }
        if r.ending().is_some() || r.moves().len() < s.plies {
            continue;
        }
        let fen = r.fen();
        let key: Vec<&str> = fen.split_whitespace().take(4).collect();
        let key = key.join(" ");
        if !seen.insert(key.clone()) {
            continue;
        }
        engine.new_game();
        let limits = Limits {
            depth: Some(s.depth),
            multipv: 1,
            ..Default::default()
        };
        let res = engine
            .search(r.game().position().clone(), limits, None)
            .ok_or("the search failed")?;
        let cp = match res.score {
            ScoreKind::Cp(c) => c,
            ScoreKind::Mate(_) => continue,
        };
        // the score from White's point of view
        let white = if r.to_move() == 0 { cp } else { -cp };
        if white.abs() <= s.margin {
            out.push(format!(
                "{key} moves \"{}\"; c0 \"cp {white} depth {}\";",
                r.moves().join(" "),
                s.depth
            ));
            progress(out.len(), tries);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> TwoPlayer {
        TwoPlayer::new("chess", None, &[]).unwrap()
    }

    #[test]
    fn epd_and_pgn() {
        let epd = "# a comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\n\n8/8/8/8/8/8/8/K1k5 w - - 3 40\n";
        let v = read_epd(epd, &chess(), "x.epd").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(
            v[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(v[1].fen.as_deref(), Some("8/8/8/8/8/8/8/K1k5 w - - 3 40"));
        let epd = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - moves \"e2e4 e7e5\";\n";
        let v = read_epd(epd, &chess(), "x.epd").unwrap();
        assert_eq!(v[0].fen, None);
        assert_eq!(v[0].moves, vec!["e2e4", "e7e5"]);
        let epd = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - moves \"e2e4 e7e6\";\n";
        let err = read_epd(epd, &chess(), "x.epd").unwrap_err();
        assert!(err.contains("not to the FEN"), "{err}");
        let err = read_epd("rnbqkbnr/pppppppp/8/8 w KQkq -\nx y\n", &chess(), "x.epd").unwrap_err();
        assert!(err.starts_with("x.epd:1:"), "{err}");
        let pgn = "[Event \"a\"]\n[Site \"?\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3.Bb5 a6 1/2-1/2\n\n[Event \"b\"]\n[Variant \"omega\"]\n\n1. f6 *\n\n[Event \"c\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 *\n";
        let v = read_pgn(pgn, &chess(), Some(4), "x.pgn").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].moves, vec!["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(v[1].moves, vec!["e1g1", "e8d7"]);
        assert!(v[1].fen.is_some());
        let err = read_pgn("[Event \"a\"]\n\n1. e5 *\n", &chess(), None, "x.pgn").unwrap_err();
        assert!(err.contains("game at line 1"), "{err}");
    }

    #[test]
    fn shipped_sets_are_valid() {
        for v in crate::variant::spec::variant_names(&crate::variant::armies::builtin()) {
            if let Some(text) = builtin(&v) {
                let list = read_epd(text, &TwoPlayer::new(&v, None, &[]).unwrap(), &v).unwrap();
                assert!(list.len() >= 20, "{v}: {} openings", list.len());
            }
        }
        assert!(builtin("omega").is_some() && builtin("cwda-rookies-nutty").is_some());
    }

    #[test]
    fn four_player_openings() {
        let base = FourPlayer::new("fourplayer-teams", None).unwrap();
        let start = load_four(&Openings::default(), &base, 5, 1).unwrap();
        assert_eq!(start, vec![Opening::default()]);
        let o = Openings {
            source: Source::Random { plies: 4 },
            ..Default::default()
        };
        let list = load_four(&o, &base, 5, 1).unwrap();
        assert_eq!(list.len(), 5);
        assert_ne!(list[0], list[1]);
        for op in &list {
            let mut r = base.fresh_game(None).unwrap();
            for m in &op.moves {
                r.play(m).unwrap();
            }
            assert_eq!(r.to_move(), 0);
        }
        assert_eq!(load_four(&o, &base, 5, 1).unwrap(), list, "seeded");
        assert!(load(&o, &chess()).is_err());
    }

    #[test]
    fn four_player_openings_from_a_file() {
        let base = FourPlayer::new("fourplayer-teams", None).unwrap();
        let mut r = base.fresh_game(None).unwrap();
        r.play("h2-h3").unwrap();
        let after = r.fen();
        let dir = std::env::temp_dir().join(format!("chimera-fen4-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.fen4");
        std::fs::write(&good, format!("# openings\n{after}\n\n{after}  # again\n")).unwrap();
        let from_file = |path: &std::path::Path| Openings {
            source: Source::File {
                path: path.display().to_string(),
                format: Format::Epd,
                plies: None,
            },
            ..Default::default()
        };
        let list = load_four(&from_file(&good), &base, 5, 1).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].fen.as_deref(), Some(after.as_str()));
        assert!(list[0].moves.is_empty());
        let bad = dir.join("bad.fen4");
        std::fs::write(&bad, format!("{after}\nR-0,0,0,0-nonsense\n")).unwrap();
        let e = load_four(&from_file(&bad), &base, 5, 1).unwrap_err();
        assert!(e.contains("bad.fen4:2:"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn picker() {
        let list: Vec<Opening> = (0..3)
            .map(|i| Opening {
                fen: None,
                moves: vec![i.to_string()],
            })
            .collect();
        let o = Openings {
            start: 3,
            ..Default::default()
        };
        let mut p = Picker::new(list, &o, 1);
        assert_eq!(p.pick().moves, vec!["2"]);
        assert_eq!(p.pick().moves, vec!["0"]);
    }
}
