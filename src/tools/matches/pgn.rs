//! PGN of a finished game: the seven-tag roster, `[Variant]` and the
//! armies for variants other than chess, `[FEN]` for an opening from a
//! position, the time control and the termination; moves in SAN with the
//! engine's score, depth and time as comments (`{+0.31/12 0.084s}`, as
//! cutechess-cli writes them), opening moves marked `{book}`, and the
//! reason for the end in the last comment. Four-player games are written
//! as PGN4 (`write_four`).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::game::GameRecord;
use crate::fourplayer::pgn4;
use crate::movetext::{tag_line, write_moves};
use crate::variant::armies::Army;

/// Year, month, day of a day count since 1970-01-01 (proleptic Gregorian).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    (y, m, d)
}

fn utc(t: SystemTime) -> (i64, u32, u32, u64) {
    let secs = t.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let (y, m, d) = civil((secs / 86_400) as i64);
    (y, m, d, secs % 86_400)
}

/// `2026.12.01`
pub fn pgn_date(t: SystemTime) -> String {
    let (y, m, d, _) = utc(t);
    format!("{y:04}.{m:02}.{d:02}")
}

/// `2026-12-01T05:54:19 UTC`
fn iso_time(t: SystemTime) -> String {
    let (y, m, d, s) = utc(t);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02} UTC",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Seconds with two significant digits, as cutechess-cli writes move times.
pub fn move_time(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    if ms == 0 {
        "0s".into()
    } else if s < 0.1 {
        format!("{s:.3}s")
    } else if s < 1.0 {
        format!("{s:.2}s")
    } else if s < 10.0 {
        format!("{s:.1}s")
    } else {
        format!("{s:.0}s")
    }
}

/// The army names of a CwDA variant (`cwda-nutty-fide`).
fn armies(variant: &str, user: &[Army]) -> Option<(String, String)> {
    let spec = crate::variant::VariantSpec::by_name(variant, user).ok()?;
    let (w, b) = spec.armies?;
    let all = crate::variant::spec::all_armies(user);
    let name = |t: &str| {
        all.iter()
            .find(|a| a.token == t)
            .map(|a| a.name.clone())
            .unwrap_or_else(|| t.to_string())
    };
    Some((name(&w), name(&b)))
}

pub struct Tags<'a> {
    pub event: &'a str,
    pub site: &'a str,
    pub round: usize,
    pub time_control: &'a str,
    /// armies defined by the user (for the army names)
    pub armies: &'a [Army],
}

/// The game as PGN text (ends with an empty line).
pub fn write(g: &GameRecord, t: &Tags) -> String {
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| s.push_str(&tag_line(k, v));
    tag("Event", t.event);
    tag("Site", t.site);
    tag("Date", &pgn_date(g.started));
    tag("Round", &t.round.to_string());
    tag("White", &g.names[0]);
    tag("Black", &g.names[1]);
    tag("Result", &g.ending.result);
    if g.variant != "chess" {
        tag("Variant", &g.variant);
        if let Some((w, b)) = armies(&g.variant, t.armies) {
            tag("WhiteArmy", &w);
            tag("BlackArmy", &b);
        }
    }
    if let Some(f) = &g.root_fen {
        tag("FEN", f);
        tag("SetUp", "1");
    }
    tag("GameDuration", &hms(g.duration));
    tag("GameStartTime", &iso_time(g.started));
    tag("PlyCount", &g.moves.len().to_string());
    tag("Termination", g.ending.termination.pgn());
    tag("TimeControl", t.time_control);
    s.push('\n');
    // move numbers from the root
    let (number, black) = match &g.root_fen {
        Some(f) => {
            let fields: Vec<&str> = f.split_whitespace().collect();
            (
                fields
                    .get(5)
                    .and_then(|n| n.parse::<usize>().ok())
                    .unwrap_or(1),
                fields.get(1) == Some(&"b"),
            )
        }
        None => (1, false),
    };
    let last = g.moves.len();
    let moves: Vec<(String, Option<String>)> = g
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut comment = if m.book {
                "book".to_string()
            } else {
                let mut c = String::new();
                if let Some(sc) = m.score {
                    c.push_str(&sc.pgn());
                    if let Some(d) = m.depth {
                        c.push_str(&format!("/{d}"));
                    }
                    c.push(' ');
                }
                c.push_str(&move_time(m.used_ms));
                c
            };
            if i + 1 == last {
                comment.push_str(", ");
                comment.push_str(&g.ending.reason);
            }
            (m.san.clone(), Some(comment))
        })
        .collect();
    s.push_str(&write_moves(
        number,
        black,
        &moves,
        Some(&g.ending.reason),
        &g.ending.result,
    ));
    s.push('\n');
    s
}

/// A four-player game as PGN4 (`pgn4::write`, which gives `[Variant]`,
/// `[StartFen4]` and the moves with the seat tokens `R` and `T`): the
/// engines per seat (`[Red "..."]`), event, date, round, time control, and
/// the runner's `[Result]` and `[Termination]` (the reason: the rules', a
/// fault's or an adjudication's). None if the game is not four-player.
pub fn write_four(g: &GameRecord, t: &Tags) -> Option<String> {
    let game = g.game4.as_ref()?;
    let names: [String; 4] = g.names.clone().try_into().ok()?;
    let date = pgn_date(g.started);
    let round = t.round.to_string();
    let duration = hms(g.duration);
    let players = pgn4::player_tags(&names);
    let mut tags: Vec<(&str, &str)> = vec![
        ("Event", t.event),
        ("Site", t.site),
        ("Date", &date),
        ("Round", &round),
    ];
    tags.extend(players.iter().map(|(k, v)| (*k, v.as_str())));
    tags.push(("TimeControl", t.time_control));
    tags.push(("GameDuration", &duration));
    let mut out = String::new();
    for line in pgn4::write(game, &tags).lines() {
        if line.starts_with("[Result ") {
            out.push_str(tag_line("Result", &g.ending.result).trim_end());
        } else if line.starts_with("[Termination ") {
            out.push_str(tag_line("Termination", &g.ending.reason).trim_end());
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push('\n');
    Some(out)
}

/// The game as minimal PGN: the seven tags and the moves.
pub fn write_min(g: &GameRecord, t: &Tags) -> String {
    let full = write(g, t);
    let keep = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    let mut s = String::new();
    let (head, moves) = full.split_once("\n\n").unwrap_or((&full, ""));
    for l in head.lines() {
        let tag = l.trim_start_matches('[').split(' ').next().unwrap_or("");
        if keep.contains(&tag) {
            s.push_str(l);
            s.push('\n');
        }
    }
    s.push('\n');
    // the moves without comments
    let mut text = String::new();
    let mut depth = 0;
    for c in moves.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => text.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    s.push_str(&words.join(" "));
    s.push_str("\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::player::Score;
    use crate::peers::referee::{Referee, Termination, TwoPlayer};
    use crate::tools::matches::game::MoveRecord;

    #[test]
    fn dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        // 2000-02-29 is day 11016; 2026-12-01 is day 20788
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_788), (2026, 12, 1));
        assert_eq!(move_time(84), "0.084s");
        assert_eq!(move_time(130), "0.13s");
        assert_eq!(move_time(100), "0.10s");
        assert_eq!(move_time(1234), "1.2s");
        assert_eq!(move_time(8), "0.008s");
    }

    #[test]
    fn a_game() {
        let r = TwoPlayer::new("cwda-nutty-fide", None, &[]).unwrap();
        let e = r.loss_of(1, "Black loses on time".into(), Termination::TimeForfeit);
        let mv = |san: &str, book: bool| MoveRecord {
            san: san.into(),
            coord: String::new(),
            score: (!book).then_some(Score::Cp(-12)),
            depth: Some(7),
            used_ms: 84,
            book,
        };
        let g = GameRecord {
            variant: r.variant().into(),
            root_fen: None,
            moves: vec![mv("e4", true), mv("e5", false)],
            ending: e,
            names: vec!["A".into(), "B \"x\"".into()],
            faults: vec![None, None],
            started: UNIX_EPOCH + Duration::from_secs(20_788 * 86_400 + 3661),
            duration: Duration::from_secs(75),
            final_fen: String::new(),
            game4: None,
        };
        let t = Tags {
            event: "?",
            site: "?",
            round: 3,
            time_control: "1+0.01",
            armies: &[],
        };
        let text = write(&g, &t);
        assert_eq!(write_four(&g, &t), None);
        for want in [
            "[Date \"2026.12.01\"]",
            "[Round \"3\"]",
            "[Black \"B \\\"x\\\"\"]",
            "[Result \"1-0\"]",
            "[Variant \"cwda-nutty-fide\"]",
            "[WhiteArmy \"Nutty Knights\"]",
            "[BlackArmy \"Fabulous FIDEs\"]",
            "[GameDuration \"00:01:15\"]",
            "[GameStartTime \"2026-12-01T01:01:01 UTC\"]",
            "[Termination \"time forfeit\"]",
            "\n\n1. e4 {book} e5 {-0.12/7 0.084s, Black loses on time} 1-0\n\n",
        ] {
            assert!(text.contains(want), "{want} in\n{text}");
        }
    }

    #[test]
    fn a_four_player_game_reads_back() {
        use crate::fourplayer::Mode;
        use crate::peers::four_player::FourPlayer;
        let mut r = FourPlayer::new("fourplayer-ffa", None).unwrap();
        for m in ["h2-h3", "b7-c7", "g13-g12"] {
            r.play(m).unwrap();
        }
        // Green leaves on time; Red, then Blue's faulty engine resigns
        r.forfeit(3, "Green loses on time".into(), Termination::TimeForfeit);
        r.play("i2-i3").unwrap();
        r.forfeit(
            1,
            "Blue makes an illegal move: a1a1".into(),
            Termination::IllegalMove,
        );
        r.play("i13-i12").unwrap();
        r.auto_move().unwrap();
        r.play("j2-j3").unwrap();
        let walk = r.auto_move().unwrap();
        let ending = r.draw(
            "Draw by adjudication: maximal game length".into(),
            Termination::Adjudication,
        );
        let g = GameRecord {
            variant: r.variant().into(),
            root_fen: None,
            moves: Vec::new(),
            ending,
            names: ["A", "B", "A", "B"].map(String::from).to_vec(),
            faults: vec![None; 4],
            started: UNIX_EPOCH,
            duration: Duration::from_secs(3),
            final_fen: r.fen(),
            game4: r.game4().cloned(),
        };
        let t = Tags {
            event: "E",
            site: "?",
            round: 2,
            time_control: "1/move",
            armies: &[],
        };
        let text = write_four(&g, &t).unwrap();
        for want in [
            "[Variant \"FFA\"]",
            "[StartFen4 \"4PC\"]",
            "[Red \"A\"]",
            "[Green \"B\"]",
            "[Round \"2\"]",
            "[Result \"10-0-10-0\"]",
            "[Termination \"Draw by adjudication: maximal game length\"]",
            ".. T\n",
            &format!(".. {}\n", walk.san),
        ] {
            assert!(text.contains(want), "{want} in\n{text}");
        }
        let back = pgn4::read(&text, Mode::Teams).unwrap();
        let game = r.game4().unwrap();
        assert_eq!(back.game.log(), game.log());
        assert_eq!(back.game.position().to_fen4(), r.fen());
        assert_eq!(back.tag("Blue"), Some("B"));
    }
}
