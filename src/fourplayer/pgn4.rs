//! PGN4 (Chess.com's four-player game record) read and written.
//!
//! Tags: `[Variant "Teams"|"FFA"]`, `[RuleVariants "..."]`, `[StartFen4
//! "4PC"|"4PCo"|FEN4]`, a tag per player (`[Red "..."]`), `[Result]`,
//! `[Termination]`. Moves in long algebraic notation, a round a line:
//! `1. h2-h3 .. b7-c7 .. g13-g12 .. m8-l8`, captures naming the captured
//! piece (`Bh2xNl6`), `+` per player checked, `#`, `=Q`, `O-O`, `O-O-O`,
//! and the seat tokens `R` (resign), `T` (timeout), `S` (stalemate, which
//! the rules find themselves). The reader skips comments `{...}`, variations
//! `(...)`, move numbers and `..`.

use std::sync::Arc;

use crate::movetext::tag_line;

use super::game::{Event, Game4};
use super::variant::{Layout, Mode, Variant4};
use super::{PLAYER_NAMES, Position4};

/// A game read from PGN4: its tags (in order) and the game replayed.
pub struct Pgn4 {
    pub tags: Vec<(String, String)>,
    pub game: Game4,
}

impl std::fmt::Debug for Pgn4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pgn4({:?}, {:?})", self.tags, self.game.position())
    }
}

impl Pgn4 {
    pub fn tag(&self, name: &str) -> Option<&str> {
        crate::movetext::tag(&self.tags, name)
    }
}

fn mode_of(variant: &str) -> Result<Mode, String> {
    match variant.to_ascii_lowercase().as_str() {
        "teams" | "fourplayer-teams" => Ok(Mode::Teams),
        "ffa" | "free-for-all" | "fourplayer-ffa" => Ok(Mode::Ffa),
        _ => Err(format!("Variant \"{variant}\": expected Teams or FFA")),
    }
}

/// Reads the first game of a PGN4 text. `default_mode` applies when there
/// is no `Variant` tag. Errors name the tag or the move (with its number).
pub fn read(text: &str, default_mode: Mode) -> Result<Pgn4, String> {
    let Some(first) = crate::movetext::games(text)?.into_iter().next() else {
        return Err("no game: no tags and no moves".into());
    };
    let crate::movetext::GameText { tags, movetext, .. } = first;
    let get = |n: &str| {
        tags.iter()
            .find(|(k, _)| k == n)
            .map(|(_, v): &(String, String)| v.as_str())
    };
    let mode = match get("Variant") {
        Some(v) => mode_of(v)?,
        None => default_mode,
    };
    let v = Arc::new(Variant4::new(mode));
    let root = match get("StartFen4") {
        None => Position4::startpos(v, Layout::Modern),
        Some(f) => match Layout::from_name(f) {
            Some(l) => Position4::startpos(v, l),
            None => Position4::from_fen4(v, f).map_err(|e| format!("StartFen4: {e}"))?,
        },
    };
    let moves = crate::movetext::tokens(&movetext)?;
    let mut game = Game4::new(root);
    for (i, token) in moves.iter().enumerate() {
        if game.outcome().is_some() {
            break;
        }
        match token.as_str() {
            "S" => {}
            t => game
                .play(t)
                .map_err(|e| format!("move {} ('{t}'): {e}", i + 1))?,
        }
    }
    Ok(Pgn4 { tags, game })
}

/// Writes a game as PGN4 with the given extra tags (players, event, ...).
pub fn write(game: &Game4, extra_tags: &[(&str, &str)]) -> String {
    let root = game.root();
    let mut s = String::new();
    let variant = match game.mode() {
        Mode::Teams => "Teams",
        Mode::Ffa => "FFA",
    };
    s.push_str(&tag_line("Variant", variant));
    s.push_str(&tag_line("RuleVariants", ""));
    let fen = root.to_fen4();
    let start = [Layout::Classic, Layout::Modern]
        .into_iter()
        .find(|l| l.fen4() == fen)
        .map(|l| l.name().to_string())
        .unwrap_or(fen);
    s.push_str(&tag_line("StartFen4", &start));
    for (k, v) in extra_tags {
        s.push_str(&tag_line(k, v));
    }
    let (result, termination) = match game.outcome() {
        Some(o) => (o.result(), o.reason().to_string()),
        None => ("*".to_string(), "unterminated".to_string()),
    };
    s.push_str(&tag_line("Result", &result));
    s.push_str(&tag_line("Termination", &termination));
    s.push('\n');
    let mut round = 1;
    let mut line = String::new();
    for (i, (seat, event, text)) in game.log().iter().enumerate() {
        if i == 0 || *seat == 0 {
            if !line.is_empty() {
                s.push_str(line.trim_end());
                s.push('\n');
                line.clear();
                round += 1;
            }
            line.push_str(&format!("{round}. "));
        } else {
            line.push_str(".. ");
        }
        let t = match event {
            Event::Move(_) => text.as_str(),
            Event::Resign => "R",
            Event::Timeout => "T",
        };
        line.push_str(t);
        line.push(' ');
    }
    if !line.is_empty() {
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// The player tags of a game: `[Red "name"]` and so on.
pub fn player_tags(names: &[String; 4]) -> Vec<(&'static str, String)> {
    PLAYER_NAMES
        .iter()
        .zip(names.iter())
        .map(|(p, n)| (*p, n.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text = "[Variant \"Teams\"]\n[StartFen4 \"4PC\"]\n[Red \"a\"]\n\n1. h2-h3 .. b7-c7 .. g13-g12 .. m6-l6\n2. Qg1-j4 { a comment } .. (1... b8-c8) Na10-c9 .. Ne14-f12 .. m9-l9 3. Qj4xl6 *\n";
        let p = read(text, Mode::Ffa).unwrap();
        assert_eq!(p.tag("Red"), Some("a"));
        assert_eq!(p.game.mode(), Mode::Teams);
        assert_eq!(p.game.log().len(), 9);
        let out = write(&p.game, &[("Red", "a")]);
        assert!(out.contains("3. Qj4xl6"), "{out}");
        let again = read(&out, Mode::Ffa).unwrap();
        assert_eq!(again.game.position().to_fen4(), p.game.position().to_fen4());
        assert_eq!(again.game.log(), p.game.log());
    }

    #[test]
    fn errors_name_the_move() {
        let e = read("[Variant \"Teams\"]\n\n1. h2-h3 .. b7-b9", Mode::Teams).unwrap_err();
        assert!(e.contains("move 2 ('b7-b9')"), "{e}");
        let e = read("[Variant \"Chaos\"]\n\n1. h2-h3", Mode::Teams).unwrap_err();
        assert!(e.contains("Chaos"), "{e}");
        let e = read("[StartFen4 \"R-0,0\"]\n\n1. h2-h3", Mode::Teams).unwrap_err();
        assert!(e.starts_with("StartFen4"), "{e}");
    }
}
