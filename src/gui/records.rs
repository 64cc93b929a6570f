//! Game records the page loads and saves: FEN4 and PGN4 (the four-player
//! library's own reader and writer), FEN, and PGN for the two-player
//! variants (read here: tags, SAN or engine coordinates; written in SAN
//! with `[Variant]`, `[FEN]` and `[SetUp]` as `chimera match` writes them).

use super::play::{Entry, Play, TWO_NAMES, TwoGame, replay};
use crate::fourplayer::{Mode, Position4, Variant4, game::Game4, pgn4};
use crate::game::Game;
use crate::movetext;

/// What a loaded text holds: a game at its root and the moves after it.
pub struct Loaded {
    pub root: Play,
    pub tokens: Vec<String>,
    /// what was read, for the page's message ("PGN4, 24 moves")
    pub kind: &'static str,
}

/// Reads a FEN4, PGN4, FEN or PGN, telling them apart by their look. A
/// FEN or PGN without `[Variant]` is of the page's two-player variant
/// (standard chess if the page shows four-player chess); a FEN4 or PGN4
/// without `[Variant]` keeps the page's mode (Teams if two-player).
pub fn load(text: &str, current: &Play) -> Result<Loaded, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("nothing to load: paste a FEN4, PGN4, FEN or PGN".into());
    }
    let mode = match current {
        Play::Four(g) => g.mode(),
        Play::Two(_) => Mode::Teams,
    };
    let two_variant = match current {
        Play::Two(g) => g.game.variant().to_string(),
        Play::Four(_) => "chess".to_string(),
    };
    let first = t.split_whitespace().next().unwrap_or("");
    let is_record = t.starts_with('[') || first.ends_with('.') || first.contains("1.");
    if is_record {
        let first = movetext::games(t)?.into_iter().next().unwrap_or_default();
        let variant = first.tag("Variant").map(str::to_ascii_lowercase);
        let four = match variant.as_deref() {
            Some("teams" | "ffa" | "free-for-all" | "fourplayer-teams" | "fourplayer-ffa") => true,
            Some(_) => false,
            None => first.tag("StartFen4").is_some() || matches!(current, Play::Four(_)),
        };
        return if four {
            let p = pgn4::read(t, mode).map_err(|e| format!("PGN4: {e}"))?;
            let root = Play::Four(Game4::new(p.game.root().clone()));
            let tokens = four_tokens(&p.game);
            Ok(Loaded {
                root,
                tokens,
                kind: "PGN4",
            })
        } else {
            read_pgn(t, &two_variant).map_err(|e| format!("PGN: {e}"))
        };
    }
    let looks_fen4 = first.len() > 1 && first.as_bytes()[1] == b'-' && "RBYG".contains(&first[..1]);
    if looks_fen4 {
        if t.split_whitespace().count() > 1 {
            return Err("FEN4: one token without spaces expected".into());
        }
        let v = std::sync::Arc::new(Variant4::new(mode));
        let pos = Position4::from_fen4(v, t).map_err(|e| format!("FEN4: {e}"))?;
        return Ok(Loaded {
            root: Play::Four(Game4::new(pos)),
            tokens: Vec::new(),
            kind: "FEN4",
        });
    }
    let game = Game::new(&two_variant, &[])?;
    let game = game
        .with_fen(t)
        .map_err(|e| format!("FEN ({two_variant}): {e}"))?;
    Ok(Loaded {
        root: Play::Two(TwoGame { game, ended: None }),
        tokens: Vec::new(),
        kind: "FEN",
    })
}

/// The moves of a four-player game as tokens `Game4::play` reads.
fn four_tokens(game: &Game4) -> Vec<String> {
    let mut g = Game4::new(game.root().clone());
    let mut out = Vec::new();
    for (_, e, _) in game.log() {
        let t = match e {
            crate::fourplayer::game::Event::Move(m) => g.position().move_to_string(*m),
            crate::fourplayer::game::Event::Resign => "R".into(),
            crate::fourplayer::game::Event::Timeout => "T".into(),
        };
        if g.play(&t).is_err() {
            break;
        }
        out.push(t);
    }
    out
}

/// Reads a two-player PGN: `[Variant]` (default: `default_variant`),
/// `[FEN]`, then moves in SAN or engine coordinates.
pub fn read_pgn(text: &str, default_variant: &str) -> Result<Loaded, String> {
    let first = movetext::games(text)?
        .into_iter()
        .next()
        .unwrap_or_default();
    let variant = match first.tag("Variant") {
        Some(v) => match v.to_ascii_lowercase().as_str() {
            "standard" | "normal" | "chess" => "chess".to_string(),
            o => o.to_string(),
        },
        None => default_variant.to_string(),
    };
    let mut game = Game::new(&variant, &[]).map_err(|e| format!("Variant \"{variant}\": {e}"))?;
    if let Some(f) = first.tag("FEN") {
        game = game.with_fen(f).map_err(|e| format!("FEN tag: {e}"))?;
    }
    let root = Play::Two(TwoGame { game, ended: None });
    let mut tokens = Vec::new();
    let mut g = root.clone();
    for (i, t) in movetext::tokens(&first.movetext)?.iter().enumerate() {
        let e = g
            .play(t)
            .map_err(|e| format!("move {} '{t}': {e}", i + 1))?;
        tokens.push(e.token);
    }
    Ok(Loaded {
        root,
        tokens,
        kind: "PGN",
    })
}

/// Writes a game as PGN4 or PGN: `root` and the entries played from it;
/// `names` per seat.
pub fn save_record(root: &Play, entries: &[Entry], names: &[String]) -> Result<String, String> {
    let tokens: Vec<String> = entries.iter().map(|e| e.token.clone()).collect();
    let (game, entries) = replay(root, &tokens)?;
    match &game {
        Play::Four(g) => {
            let tags: Vec<(&str, &str)> = crate::fourplayer::PLAYER_NAMES
                .iter()
                .zip(names.iter())
                .map(|(p, n)| (*p, n.as_str()))
                .collect();
            let mut all = vec![("Event", "Chimera GUI")];
            all.extend(tags);
            Ok(pgn4::write(g, &all))
        }
        Play::Two(t) => Ok(write_pgn(root, t, &entries, names)),
    }
}

fn write_pgn(root: &Play, end: &TwoGame, entries: &[Entry], names: &[String]) -> String {
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "\\\"")));
    let result = match (&end.ended, end.game.outcome()) {
        (Some((r, _)), _) => r.clone(),
        (None, Some(o)) => o.result().to_string(),
        (None, None) => "*".to_string(),
    };
    tag("Event", "Chimera GUI");
    tag("Site", "?");
    tag("Date", "????.??.??");
    tag("Round", "-");
    for (i, side) in TWO_NAMES.iter().enumerate() {
        tag(side, names.get(i).map(String::as_str).unwrap_or("?"));
    }
    tag("Result", &result);
    let variant = end.game.variant();
    if variant != "chess" {
        tag("Variant", variant);
    }
    let root_fen = root.fen();
    let start = Play::new(variant, "").map(|p| p.fen()).unwrap_or_default();
    if root_fen != start {
        tag("FEN", &root_fen);
        tag("SetUp", "1");
    }
    if let Some((_, reason)) = &end.ended {
        tag("Termination", reason);
    }
    s.push('\n');
    let fields: Vec<&str> = root_fen.split_whitespace().collect();
    let mut number: usize = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut words = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if e.token == "R" || e.token == "T" {
            continue;
        }
        if e.seat == 0 {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(e.text.clone());
        if e.seat == 1 {
            number += 1;
        }
    }
    words.push(result);
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    s.push_str(&line);
    s.push('\n');
    s
}

/// The names of the seats for a record: the person's seat "You", the
/// engine's "Chimera".
pub fn seat_names(players: usize, person: impl Fn(usize) -> bool) -> Vec<String> {
    (0..players)
        .map(|p| if person(p) { "You" } else { "Chimera" }.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_round_trip_in_omega_and_cwda() {
        let omega = Play::new("omega", "").unwrap();
        let (g, entries) = replay(
            &omega,
            &["e3e6".into(), "f10f8".into(), "d2e4".into(), "R".into()],
        )
        .unwrap();
        assert_eq!(g.outcome().unwrap().0, "1-0", "Black resigned");
        let names = seat_names(2, |p| p == 0);
        let text = save_record(&omega, &entries, &names).unwrap();
        assert!(
            text.contains("[Variant \"omega\"]") && text.contains("1. e6 f8"),
            "{text}"
        );
        let back = load(&text, &Play::new("chess", "").unwrap()).unwrap();
        assert_eq!(back.kind, "PGN");
        let (again, _) = replay(&back.root, &back.tokens).unwrap();
        assert_eq!(again.fen(), g.fen());
        let cwda = Play::new("cwda-nutty-clobberers", "").unwrap();
        let l = load(
            "[Variant \"cwda-nutty-clobberers\"]\n\n1. e4 {a comment} e5 (1... d5) 2. If3 $1 *",
            &cwda,
        )
        .unwrap();
        assert_eq!(
            l.tokens,
            vec!["e2e4", "e7e5", "g1f3"],
            "the Fibnif leaps g1-f3"
        );
    }

    #[test]
    fn formats_are_told_apart_and_errors_named() {
        let four = Play::new("fourplayer-ffa", "4PC").unwrap();
        let l = load(crate::fourplayer::Layout::Modern.fen4(), &four).unwrap();
        assert_eq!(l.kind, "FEN4");
        assert!(matches!(&l.root, Play::Four(g) if g.mode() == Mode::Ffa));
        let e = load("R-0,0,0,0-garbage", &four).err().unwrap();
        assert!(e.starts_with("FEN4"), "{e}");
        let e = load("[Variant \"Teams\"]\n\n1. h2-h3 .. b7-b9", &four)
            .err()
            .unwrap();
        assert!(e.contains("b7-b9"), "{e}");
        let e = load("rnbqkbnr/pppppppp/8 w", &four).err().unwrap();
        assert!(e.starts_with("FEN (chess)"), "{e}");
        let e = load("[Variant \"omega\"]\n\n1. e3e7", &four).err().unwrap();
        assert!(e.contains("move 1 'e3e7'"), "{e}");
        assert!(load("  ", &four).is_err());
        let l = load(
            "[Variant \"Teams\"]\n[StartFen4 \"4PC\"]\n\n1. h2-h3 .. R",
            &four,
        )
        .unwrap();
        assert_eq!(l.tokens, vec!["h2-h3", "R"]);
    }
}
