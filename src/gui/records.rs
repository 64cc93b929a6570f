//! Game records the page loads and saves: FEN4 and PGN4 (the four-player
//! library's own reader and writer), FEN, and PGN for the two-player
//! variants (read here: tags, SAN or engine coordinates, for Omega also in
//! its native names; written in SAN with `[Variant]`, `[FEN]` and `[SetUp]`
//! as `chimera match` writes them, Omega in frame names).

use crate::fourplayer::{Mode, Position4, Variant4, game::Game4, pgn4};
use crate::game::Game;
use crate::game::any::{AnyGame, Entry, TWO_NAMES, TwoGame, replay};
use crate::movetext;
use crate::variant::armies::Army;
use crate::variant::omega_names::{self, Coordinates};

/// What a loaded text holds: a game at its root and the moves after it.
pub struct Loaded {
    pub root: AnyGame,
    pub tokens: Vec<String>,
    /// what was read, for the page's message ("PGN4, 24 moves")
    pub kind: &'static str,
}

/// Reads a FEN4, PGN4, FEN or PGN, telling them apart by their look. A
/// FEN or PGN without `[Variant]` is of the page's two-player variant
/// (standard chess if the page shows four-player chess); a FEN4 or PGN4
/// without `[Variant]` keeps the page's mode (Teams if two-player).
pub fn load(text: &str, current: &AnyGame) -> Result<Loaded, String> {
    load_with(text, current, &[])
}

/// `load`, the armies of `armies` files known besides the built-in.
pub fn load_with(text: &str, current: &AnyGame, armies: &[Army]) -> Result<Loaded, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("nothing to load: paste a FEN4, PGN4, FEN or PGN".into());
    }
    let mode = match current {
        AnyGame::Four(g) => g.mode(),
        AnyGame::Two(_) => Mode::Teams,
    };
    let two_variant = match current {
        AnyGame::Two(g) => g.game.variant().to_string(),
        AnyGame::Four(_) => "chess".to_string(),
    };
    let first = t.split_whitespace().next().unwrap_or("");
    let is_record = t.starts_with('[') || first.ends_with('.') || first.contains("1.");
    if is_record {
        let first = movetext::games(t)?.into_iter().next().unwrap_or_default();
        let variant = first.tag("Variant").map(str::to_ascii_lowercase);
        let four = match variant.as_deref() {
            Some("teams" | "ffa" | "free-for-all" | "fourplayer-teams" | "fourplayer-ffa") => true,
            Some(_) => false,
            None => first.tag("StartFen4").is_some() || matches!(current, AnyGame::Four(_)),
        };
        return if four {
            let p = pgn4::read(t, mode).map_err(|e| format!("PGN4: {e}"))?;
            let root = AnyGame::Four(Game4::new(p.game.root().clone()));
            let tokens = four_tokens(&p.game);
            Ok(Loaded {
                root,
                tokens,
                kind: "PGN4",
            })
        } else {
            read_pgn(t, &two_variant, armies).map_err(|e| format!("PGN: {e}"))
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
            root: AnyGame::Four(Game4::new(pos)),
            tokens: Vec::new(),
            kind: "FEN4",
        });
    }
    let game = Game::new(&two_variant, armies)?;
    let game = game
        .with_fen(t)
        .map_err(|e| format!("FEN ({two_variant}): {e}"))?;
    Ok(Loaded {
        root: AnyGame::Two(TwoGame { game, ended: None }),
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
/// `[FEN]`, then moves in SAN or engine coordinates; Omega's moves in
/// frame or native names (`read_omega`; the FEN stays in frame names).
pub fn read_pgn(text: &str, default_variant: &str, armies: &[Army]) -> Result<Loaded, String> {
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
    let mut game =
        Game::new(&variant, armies).map_err(|e| format!("Variant \"{variant}\": {e}"))?;
    if let Some(f) = first.tag("FEN") {
        game = game.with_fen(f).map_err(|e| format!("FEN tag: {e}"))?;
    }
    let root = AnyGame::Two(TwoGame { game, ended: None });
    let moves = movetext::tokens(&first.movetext)?;
    let (tokens, kind) = if variant == "omega" {
        read_omega(&root, &moves, first.tag("Coordinates"))?
    } else {
        (play_tokens(&root, &moves, str::to_string)?, "PGN")
    };
    Ok(Loaded { root, tokens, kind })
}

/// What `load` reports for an Omega PGN in each set of names.
const OMEGA_NATIVE: &str = "PGN (Omega, native coordinates)";
const OMEGA_FRAME: &str = "PGN (Omega, frame coordinates)";

/// Plays an Omega PGN's moves, in native names (a0-j9, w1-w4) or the
/// engine's frame names (a1-l12): a `[Coordinates "native"|"frame"]` tag
/// decides; without one, a square only one set has decides (rank 0 or
/// w1-w4: native; file k or l or rank 10-12: frame); failing that, the
/// moves are read in frame names, then in native names if a move fails,
/// and the frame reading's error is reported if both fail.
fn read_omega(
    root: &AnyGame,
    moves: &[String],
    tag: Option<&str>,
) -> Result<(Vec<String>, &'static str), String> {
    let chosen = match tag.map(|v| Coordinates::from_tag(v).ok_or(v)) {
        Some(Ok(c)) => Some(c),
        Some(Err(v)) => {
            return Err(format!(
                "Coordinates tag \"{v}\": \"native\" or \"frame\" expected"
            ));
        }
        None => omega_names::guess(moves),
    };
    let frame = || play_tokens(root, moves, str::to_string);
    let native = || play_tokens(root, moves, omega_names::native_to_frame_text);
    match chosen {
        Some(Coordinates::Frame) => Ok((frame()?, OMEGA_FRAME)),
        Some(Coordinates::Native) => Ok((native()?, OMEGA_NATIVE)),
        None => match frame() {
            Ok(t) => Ok((t, OMEGA_FRAME)),
            Err(fe) => match native() {
                Ok(t) => Ok((t, OMEGA_NATIVE)),
                Err(ne) => Err(format!("{fe} (nor in native coordinates: {ne})")),
            },
        },
    }
}

/// Plays a record's move tokens from `root`, each first rewritten by
/// `names` into what `AnyGame::play` reads; returns the tokens played. An
/// error names the move as written (and as rewritten, where it differs).
fn play_tokens(
    root: &AnyGame,
    moves: &[String],
    names: impl Fn(&str) -> String,
) -> Result<Vec<String>, String> {
    let mut g = root.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, t) in moves.iter().enumerate() {
        let read = names(t);
        let e = g.play(&read).map_err(|e| {
            if read == *t {
                format!("move {} '{t}': {e}", i + 1)
            } else {
                format!("move {} '{t}' ('{read}' in engine coordinates): {e}", i + 1)
            }
        })?;
        out.push(e.token);
    }
    Ok(out)
}

/// Writes a game as PGN4 or PGN: `root` and the entries played from it;
/// `names` per seat.
pub fn save_record(root: &AnyGame, entries: &[Entry], names: &[String]) -> Result<String, String> {
    let tokens: Vec<String> = entries.iter().map(|e| e.token.clone()).collect();
    let (game, entries) = replay(root, &tokens)?;
    match &game {
        AnyGame::Four(g) => {
            let tags: Vec<(&str, &str)> = crate::fourplayer::PLAYER_NAMES
                .iter()
                .zip(names.iter())
                .map(|(p, n)| (*p, n.as_str()))
                .collect();
            let mut all = vec![("Event", "Chimera GUI")];
            all.extend(tags);
            Ok(pgn4::write(g, &all))
        }
        AnyGame::Two(t) => Ok(write_pgn(root, t, &entries, names)),
    }
}

fn write_pgn(root: &AnyGame, end: &TwoGame, entries: &[Entry], names: &[String]) -> String {
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| s.push_str(&crate::movetext::tag_line(k, v));
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
    let start = AnyGame::new(variant, "")
        .map(|p| p.fen())
        .unwrap_or_default();
    if root_fen != start {
        tag("FEN", &root_fen);
        tag("SetUp", "1");
    }
    if let Some((_, reason)) = &end.ended {
        tag("Termination", reason);
    }
    s.push('\n');
    let fields: Vec<&str> = root_fen.split_whitespace().collect();
    let number: usize = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let moves: Vec<(String, Option<String>)> = entries
        .iter()
        .filter(|e| e.token != "R" && e.token != "T")
        .map(|e| (e.text.clone(), None))
        .collect();
    let black = entries.first().is_some_and(|e| e.seat == 1);
    s.push_str(&crate::movetext::write_moves(
        number, black, &moves, None, &result,
    ));
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
        let omega = AnyGame::new("omega", "").unwrap();
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
        let back = load(&text, &AnyGame::new("chess", "").unwrap()).unwrap();
        assert_eq!(back.kind, "PGN (Omega, frame coordinates)");
        let (again, _) = replay(&back.root, &back.tokens).unwrap();
        assert_eq!(again.fen(), g.fen());
        let cwda = AnyGame::new("cwda-nutty-clobberers", "").unwrap();
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
        let four = AnyGame::new("fourplayer-ffa", "4PC").unwrap();
        let l = load(crate::fourplayer::Layout::Modern.fen4(), &four).unwrap();
        assert_eq!(l.kind, "FEN4");
        assert!(matches!(&l.root, AnyGame::Four(g) if g.mode() == Mode::Ffa));
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

    /// One Omega game (RULES.md, Omega Chess), in native SAN: White's
    /// e-pawn's triple step e1-e4, Black's f-pawn's f8-f5, the capture
    /// exf5, Black's Champion's alfil jump j9-h7, White's Champion's a0-c2,
    /// Black's Wizard's camel leap w3-j7, White's Wizard's w1-a2.
    const NATIVE_SAN: &str = "1. e4 f5 2. exf5 Ch7 3. Cc2 Wj7 4. Wa2 *";
    /// The same game in native coordinates and in frame coordinates.
    const NATIVE_COORDS: &str = "1. e1e4 f8f5 2. e4f5 j9h7 3. a0c2 w3j7 4. w1a2 *";
    const FRAME_COORDS: &str = "1. f3f6 g10g7 2. f6g7 k11i9 3. b2d4 l12k9 4. a1b4 *";
    /// The position after it, worked out by hand: native a0 = frame b2,
    /// w1 = a1, w3 = l12; the last pawn move or capture was White's 2nd
    /// move, four half-moves ago.
    const AFTER: &str = "w**********1/*crnbqkbnr1*/*ppppp1pppp*/*7c1w*/*10*/*5P4*/*10*/*10*/*W1C7*/*PPPP1PPPPP*/*1RNBQKBNRC*/1**********W b KQkq - 4 4";

    fn omega_pgn(tags: &str, moves: &str) -> Result<(Loaded, String), String> {
        let text = format!("[Variant \"omega\"]\n{tags}\n{moves}\n");
        let l = load(&text, &AnyGame::new("omega", "").unwrap())?;
        let (g, _) = replay(&l.root, &l.tokens)?;
        Ok((l, g.fen()))
    }

    #[test]
    fn omega_native_pgn_reads_as_the_frame_game() {
        let (frame, fen) = omega_pgn("", FRAME_COORDS).unwrap();
        assert_eq!(fen, AFTER);
        assert_eq!(frame.kind, "PGN (Omega, frame coordinates)");
        let (coords, fen) = omega_pgn("", NATIVE_COORDS).unwrap();
        assert_eq!(fen, AFTER, "native coordinates (a0, w1: told native)");
        assert_eq!(coords.kind, "PGN (Omega, native coordinates)");
        assert_eq!(coords.tokens, frame.tokens);
        // no square tells the SAN apart: read as frame, 1... f5 fails
        // (f10-f5), read again as native
        let (san, fen) = omega_pgn("", NATIVE_SAN).unwrap();
        assert_eq!(fen, AFTER, "native SAN");
        assert_eq!(san.kind, "PGN (Omega, native coordinates)");
        assert_eq!(san.tokens, frame.tokens);
        let (tagged, fen) = omega_pgn("[Coordinates \"native\"]", NATIVE_SAN).unwrap();
        assert_eq!((tagged.kind, fen.as_str()), (san.kind, AFTER));
    }

    #[test]
    fn omega_coordinates_tag_overrides_the_guess() {
        // "1. e4" is legal in both: frame e3-e4, native e1-e4 (frame f3-f6)
        let (l, _) = omega_pgn("", "1. e4 *").unwrap();
        assert_eq!(l.tokens, vec!["e3e4"], "no telling square: frame first");
        let (l, _) = omega_pgn("[Coordinates \"native\"]", "1. e4 *").unwrap();
        assert_eq!(l.tokens, vec!["f3f6"]);
        let (l, _) = omega_pgn("[Coordinates \"Frame\"]", "1. e4 *").unwrap();
        assert_eq!(l.tokens, vec!["e3e4"]);
        // w1 says native, the tag says frame: w1 is no frame square
        assert!(omega_pgn("", "1. w1a2 *").is_ok());
        let e = omega_pgn("[Coordinates \"frame\"]", "1. w1a2 *")
            .err()
            .unwrap();
        assert!(e.contains("move 1 'w1a2'"), "{e}");
        // k11 says frame, the tag says native: no native square k11
        assert!(omega_pgn("", "1. f3f6 k11i9 *").is_ok());
        let e = omega_pgn("[Coordinates \"native\"]", "1. f3f6 k11i9 *")
            .err()
            .unwrap();
        assert!(
            e.contains("move 1 'f3f6' ('g5g8' in engine coordinates)"),
            "{e}"
        );
        let e = omega_pgn("[Coordinates \"engine\"]", "1. e4 *")
            .err()
            .unwrap();
        assert!(e.contains("Coordinates tag \"engine\""), "{e}");
    }

    #[test]
    fn omega_bad_native_move_is_named() {
        // Black's pawn may step at most three squares: f8-f4 is four
        let e = omega_pgn("[Coordinates \"native\"]", "1. e4 f4 *")
            .err()
            .unwrap();
        assert!(
            e.contains("move 2 'f4' ('g6' in engine coordinates)"),
            "{e}"
        );
        // j2 (frame) is White's own Rook: the frame reading fails at move 1,
        // the native one (j1-j2, then j8-j4) at move 2; the frame error
        // comes first
        let e = omega_pgn("", "1. j2 j4 *").err().unwrap();
        assert!(e.starts_with("PGN: move 1 'j2'"), "{e}");
        assert!(e.contains("native coordinates: move 2 'j4'"), "{e}");
    }

    #[test]
    fn omega_telling_square_decides_the_reading() {
        // a0 is native only: read natively, the error is the native one
        let e = omega_pgn("", "1. a0c2 f8f4 *").err().unwrap();
        assert!(e.starts_with("PGN: move 2 'f8f4' ('g10g6'"), "{e}");
        assert!(!e.contains("nor in"), "{e}");
        // k10 is frame only: the four-square step f3-f7 fails in frame
        // names, and nothing is tried in native names
        let e = omega_pgn("", "1. f3f7 k10k9 *").err().unwrap();
        assert!(e.starts_with("PGN: move 1 'f3f7':"), "{e}");
        assert!(!e.contains("native"), "{e}");
        // with no telling square both readings are tried
        let e = omega_pgn("", "1. f3f7 *").err().unwrap();
        assert!(
            e.contains("nor in native coordinates: move 1 'f3f7' ('g5g9'"),
            "{e}"
        );
    }
}
