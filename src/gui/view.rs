//! The session as the page draws it (JSON): the board from the variant's
//! own data (frame size, holes, each piece's letter and name, the sides'
//! colours), the pieces, the players' state, the legal moves, the line of
//! moves, the clocks and the engine's analysis.

use serde_json::{Value, json};

use super::glyphs::{four_player_glyph, glyph};
use super::legend::{FOUR_PLAYER_BETZA, diagram};
use super::session::{Kind, Session};
use crate::fourplayer::variant::{LETTERS, NUM_TYPES};
use crate::fourplayer::{DEAD, Mode};
use crate::game::any::AnyGame;

/// Side colours: (fill, letter).
const FOUR_COLOURS: [(&str, &str); 5] = [
    ("#c8323c", "#ffffff"),
    ("#3b78c4", "#ffffff"),
    ("#d9a21b", "#1d1d1d"),
    ("#3d8f4e", "#ffffff"),
    ("#9b9b9b", "#f4f4f4"),
];
const TWO_COLOURS: [(&str, &str); 2] = [("#f7f3e8", "#1d1d1d"), ("#26221f", "#f7f3e8")];
const FOUR_PIECE_NAMES: [&str; NUM_TYPES] = ["King", "Pawn", "Knight", "Bishop", "Rook", "Queen"];

fn piece_glyph(p: &crate::variant::PieceSpec) -> Option<&'static str> {
    glyph(p.letter.to_ascii_uppercase(), &p.betza, p.role)
}

fn side_json(name: &str, c: (&str, &str)) -> Value {
    json!({ "name": name, "fill": c.0, "ink": c.1 })
}

/// The board and pieces of a game.
fn board(g: &AnyGame) -> Value {
    match g {
        AnyGame::Four(g) => {
            let p = g.position();
            let shape = &p.v.shape;
            let holes: Vec<Value> = (0..shape.files)
                .flat_map(|f| (0..shape.ranks).map(move |r| (f, r)))
                .filter(|&(f, r)| shape.is_hole(f, r))
                .map(|(f, r)| json!([f, r]))
                .collect();
            let pieces: Vec<Value> = (0..p.v.n)
                .filter_map(|sq| {
                    let (owner, t) = p.piece_at(sq)?;
                    Some(json!({
                        "sq": shape.name(sq),
                        "owner": owner,
                        "letter": LETTERS[t].to_string(),
                        "name": FOUR_PIECE_NAMES[t],
                        "royal": t == crate::fourplayer::variant::KING,
                        "glyph": four_player_glyph(LETTERS[t]),
                    }))
                })
                .collect();
            let mut sides: Vec<Value> = (0..4)
                .map(|i| side_json(crate::fourplayer::PLAYER_NAMES[i], FOUR_COLOURS[i]))
                .collect();
            sides.push(side_json("dead", FOUR_COLOURS[DEAD]));
            let kinds: Vec<Value> = (0..NUM_TYPES)
                .map(|t| {
                    json!({
                        "letter": LETTERS[t].to_string(),
                        "name": FOUR_PIECE_NAMES[t],
                        "betza": FOUR_PLAYER_BETZA[t],
                        "moves": diagram(FOUR_PLAYER_BETZA[t]),
                        "glyph": four_player_glyph(LETTERS[t]),
                    })
                })
                .collect();
            json!({
                "files": shape.files, "ranks": shape.ranks, "holes": holes,
                "pieces": pieces, "sides": sides, "kinds": kinds,
            })
        }
        AnyGame::Two(t) => {
            let spec = t.game.spec();
            let shape = &spec.shape;
            let holes: Vec<Value> = (0..shape.files)
                .flat_map(|f| (0..shape.ranks).map(move |r| (f, r)))
                .filter(|&(f, r)| shape.is_hole(f, r))
                .map(|(f, r)| json!([f, r]))
                .collect();
            let pos = t.game.position();
            let pieces: Vec<Value> = crate::with_position!(pos, p => {
                (0..shape.num_squares())
                    .filter_map(|sq| {
                        let (c, ty) = p.piece_at(sq)?;
                        let ps = &spec.pieces[ty];
                        Some(json!({
                            "sq": shape.name(sq),
                            "owner": c,
                            "letter": ps.letter.to_ascii_uppercase().to_string(),
                            "name": ps.name,
                            "royal": ty == 0,
                            "glyph": piece_glyph(ps),
                        }))
                    })
                    .collect()
            });
            let sides: Vec<Value> = (0..2)
                .map(|i| side_json(crate::game::any::TWO_NAMES[i], TWO_COLOURS[i]))
                .collect();
            let kinds: Vec<Value> = spec
                .pieces
                .iter()
                .map(|p| {
                    json!({
                        "letter": p.letter.to_ascii_uppercase().to_string(),
                        "name": p.name,
                        "betza": p.betza,
                        "moves": diagram(&p.betza),
                        "glyph": piece_glyph(p),
                    })
                })
                .collect();
            json!({
                "files": shape.files, "ranks": shape.ranks, "holes": holes,
                "pieces": pieces, "sides": sides, "kinds": kinds,
            })
        }
    }
}

/// Per player: checked, out (eliminated), resigned, points.
fn players(g: &AnyGame) -> Value {
    match g {
        AnyGame::Four(g) => {
            let p = g.position();
            let checked = p.checked_players();
            let list: Vec<Value> = (0..4)
                .map(|q| {
                    json!({
                        "name": crate::fourplayer::PLAYER_NAMES[q],
                        "check": checked & (1 << q) != 0,
                        "out": p.is_eliminated(q),
                        "resigned": p.has_resigned(q),
                        "points": p.points()[q],
                    })
                })
                .collect();
            Value::Array(list)
        }
        AnyGame::Two(t) => {
            let side = t.game.side();
            let check = t.game.in_check();
            let list: Vec<Value> = (0..2)
                .map(|q| {
                    json!({
                        "name": crate::game::any::TWO_NAMES[q],
                        "check": check && q == side,
                        "out": false, "resigned": false, "points": Value::Null,
                    })
                })
                .collect();
            Value::Array(list)
        }
    }
}

/// The whole state the page draws.
pub fn state(s: &Session) -> Value {
    let g = s.game();
    let n = g.players();
    let legal: Vec<Value> = g
        .legal()
        .into_iter()
        .map(|m| json!({"from": m.from, "to": m.to, "promo": m.promo.map(|c| c.to_string()), "token": m.token}))
        .collect();
    let moves: Vec<Value> = s
        .line()
        .iter()
        .map(|e| json!({"text": e.text, "seat": e.seat}))
        .collect();
    let last = s
        .cursor()
        .checked_sub(1)
        .and_then(|i| s.line()[i].squares.clone())
        .map(|(f, t)| json!({"from": f, "to": t}));
    let used = s.used_ms();
    let left = s.left_ms();
    let clock_ms = s.settings.clock_ms;
    let clocks: Vec<Value> = (0..n)
        .map(|p| {
            json!({
                "used_ms": used[p],
                "left_ms": left.map(|l| l[p]),
            })
        })
        .collect();
    let analysis = match s.analysis() {
        Some((o, kind, side, who)) => json!({
            "kind": if kind == Kind::Move { "move" } else { "analysis" },
            "by": who,
            "for": score_owner(g, side),
            "depth": o.depth, "score": o.score, "nodes": o.nodes, "nps": o.nps,
            "pv": o.pv,
            "lines": o.lines.iter().map(|l| json!({"depth": l.depth, "score": l.score, "pv": l.pv})).collect::<Vec<Value>>(),
            "arrow": o.arrow.map(|(f, t)| json!({"from": f, "to": t})),
            "points": o.points,
        }),
        None => Value::Null,
    };
    let ffa = s.settings.ffa.ffa_name();
    let engines: Vec<Value> = s
        .engine_choices()
        .into_iter()
        .map(|(key, name, plays)| json!({"key": key, "name": name, "plays": plays}))
        .collect();
    let mode = match g {
        AnyGame::Four(g) => Some(if g.mode() == Mode::Teams {
            "Teams"
        } else {
            "FFA"
        }),
        AnyGame::Two(_) => None,
    };
    json!({
        "version": s.version,
        "variant": g.variant(),
        "family": if n == 4 { "four" } else { "two" },
        "mode": mode,
        "board": board(g),
        "side": g.side(),
        "players": players(g),
        "outcome": g.outcome().map(|(r, why)| json!({"result": r, "reason": why})),
        "legal": legal,
        "moves": moves,
        "cursor": s.cursor(),
        "last": last,
        "fen": g.fen(),
        "clocks": clocks,
        "analysis": analysis,
        "settings": {
            "seat": s.settings.seat.name(n),
            "movetime_ms": s.settings.movetime_ms,
            "clock_ms": clock_ms,
            "inc_ms": s.settings.inc_ms,
            "delay_ms": s.settings.delay_ms,
            "analyse": s.settings.analyse,
            "level": s.settings.level,
            "multipv": s.settings.multipv,
            "ffa": ffa,
            "engines": s.settings.engines[..n].to_vec(),
        },
        "engine_seats": (0..n).map(|p| !s.settings.seat.is_person(p)).collect::<Vec<bool>>(),
        "seated": (0..n).map(|p| s.player_of(p)).collect::<Vec<Option<String>>>(),
        "engines": engines,
        "notice": s.notice,
    })
}

/// Whose view a score takes: the side to move's team in Teams, the side
/// to move otherwise.
fn score_owner(g: &AnyGame, side: usize) -> String {
    match g {
        AnyGame::Four(g4) if g4.mode() == Mode::Teams => {
            let names = crate::fourplayer::PLAYER_NAMES;
            format!("{}+{}", names[side % 2], names[side % 2 + 2])
        }
        _ => g.player_name(side).to_string(),
    }
}
